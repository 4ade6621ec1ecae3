// The processors this process may run on, for sizing the library's compute threads.
#define _GNU_SOURCE
#include "_InkKernels.h"
#include <unistd.h>
#if defined(__linux__)
#include <sched.h>
#endif

int ink_available_processors(void) {
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        int count = CPU_COUNT(&set);
        if (count > 0) return count;
    }
#endif
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? (int)online : 1;
}
