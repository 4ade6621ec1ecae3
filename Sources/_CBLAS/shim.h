// Internal shim over OpenBLAS (cblas.h) and LAPACKE (lapacke.h) on Linux.
#include <cblas.h>
#include <lapacke.h>
// OpenBLAS thread control (declared in OpenBLAS's cblas.h as well; repeated for other CBLAS builds).
void openblas_set_num_threads(int num_threads);
// The name of the kernels OpenBLAS's run-time dispatch chose ("Prescott" where it does not know the processor).
char* openblas_get_corename(void);
