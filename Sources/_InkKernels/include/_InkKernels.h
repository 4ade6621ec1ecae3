// Internal kernels of DigitalInk, chosen at run time on x86-64: the LSTM's recurrent step (AVX2 + FMA,
// float or half-precision weights) and its input projection over weights packed at load time
// (AVX-512F).
//
// Swift compiles for baseline x86-64 (SSE2) and a library cannot raise that for its users, so these
// functions carry their own `target(...)` attributes and are called only after the matching
// `ink_kernels_*_available()` said yes. On other CPUs and architectures those return 0 and the engine
// keeps its portable path (BLAS sgemm and sgemv, Swift SIMD).
#ifndef INK_KERNELS_H
#define INK_KERNELS_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stdint.h>

/// 1 when the running CPU can execute the AVX2 + FMA kernels below, else 0.
int ink_kernels_avx2_fma_available(void);

/// 1 when it can also execute the F16C ones (`*_f16`), else 0.
int ink_kernels_f16c_available(void);

/// 1 when each of the `count` floats is exactly an IEEE half-precision value (so that storing it in
/// 16 bits loses nothing), else 0. Portable C.
int ink_floats_are_half_exact(const float *values, long count);

/// 1 when it can execute the AVX-512 kernel (`ink_gemm_packed_avx512`), else 0.
int ink_kernels_avx512_available(void);

/// Floats `ink_gemm_pack_b` writes for a k × n matrix (k times n rounded up to a multiple of 32).
long ink_gemm_packed_count(int k, int n);

/// Packs B (k × n, row-major, leading dimension n) for `ink_gemm_packed_avx512`: column panels of 32,
/// each panel row after row (k × 32 contiguous floats), the last one padded with zeros. Portable C.
void ink_gemm_pack_b(const float *b, int k, int n, float *packed);

/// `ink_gemm_pack_b` of op(B), k × n: B stored k × n with leading dimension `ldb`, or, when `transposed` is 1, stored
/// n × k (its transpose) with leading dimension `ldb`. The same `ink_gemm_packed_count(k, n)` floats. Portable C.
void ink_gemm_pack_b_strided(const float *b, int ldb, int transposed, int k, int n, float *packed);

/// `out` (columns × rows, row-major) = the transpose of `a` (rows × columns, leading dimension `lda`), in blocks of
/// 16 × 16. Portable C.
void ink_transpose_f32(const float *a, int rows, int columns, int lda, float *out);

/// C[m × n] = bias + A[m × k] · B (every row gets `bias`, n floats), or C += A · B when `bias` is NULL;
/// B packed by `ink_gemm_pack_b` (the LSTM's input projection, with its weights packed once at load
/// time; BLAS repacks them on every call). Rows of A and C have leading dimensions `lda` and `ldc`.
/// Any n: the columns of a last partial panel are read and written under a mask (a row of C or of
/// bias is never touched past column n). Register blocks of 6 rows × 32 columns, AVX-512F. Only after `ink_kernels_avx512_available()`
/// returned 1.
void ink_gemm_packed_avx512(int m, int n, int k, const float *a, int lda, const float *packed, const float *bias,
                            float *c, int ldc);

/// `ink_gemm_packed_avx512` in AVX2 and FMA over the same packing: each half of a panel (16 columns) in register blocks
/// of 6 rows (the rows left over as one block), the columns of a last partial panel read and written under a mask;
/// one fused multiply-add per term in order of k from the bias or C, so the same bits as the AVX-512 kernel. For
/// writer adaptation's products where the BLAS runs kernels older than AVX2. Only after
/// `ink_kernels_avx2_fma_available()` returned 1.
void ink_gemm_packed_avx2(int m, int n, int k, const float *a, int lda, const float *packed, const float *bias,
                          float *c, int ldc);

/// In-place log-softmax of each of `rows` rows of `count` floats (the CTC head's output): max,
/// Σ exp(v − max) with a vectorized exp (relative error < 2e-7), v − max − log Σ. AVX-512F; only after
/// `ink_kernels_avx512_available()` returned 1.
void ink_log_softmax_rows_avx512(float *v, int rows, int count);

/// The indices i of the `n` floats with x[i] > floor (an ordered comparison: never a NaN), ascending,
/// written to `out`; returns how many. The beam search's scan of a frame for the symbols above its floor.
/// Portable C.
int ink_indices_above(const float *x, int n, float floor, int32_t *out);

/// `ink_indices_above` in AVX-512F (the same indices); `out` must have room for n + 16 values (whole
/// vectors are stored). Only after `ink_kernels_avx512_available()` returned 1.
int ink_indices_above_avx512(const float *x, int n, float floor, int32_t *out);

/// 1 when none of the `n` floats is an infinity or a NaN, else 0 (the check of the network's output).
/// Portable C, vectorized by the compiler.
int ink_all_finite(const float *x, long n);

/// The first index i ≠ `skip` of the largest of the `n` floats (NaNs ignored), or −1 when none is above
/// −∞: the frame's most likely symbol when none is above the floor. Portable C.
int ink_first_max_index(const float *x, int n, int skip);

/// `ink_first_max_index` in AVX-512F (the same index). Only after `ink_kernels_avx512_available()` returned 1.
int ink_first_max_index_avx512(const float *x, int n, int skip);

/// Floats `ink_lstm_pack_recurrent` writes for hidden size `hidden` (4·hidden·hidden).
long ink_lstm_packed_count(int hidden);

/// Packs a direction's recurrent weights for `ink_lstm_step`: `wt` is W_hh transposed, hidden × 4·hidden
/// row-major (row k holds the weights of h[k] for all 4·hidden gates). The result holds the same
/// values in column panels of 64 (then 8) gates, each panel row after row, so that the step streams
/// the weights in order. `hidden` must be even.
void ink_lstm_pack_recurrent(const float *wt, int hidden, float *packed);

/// One LSTM time step of one direction, in place:
///   g[0..<4H) += W_hh · h       (i, f, c̃, o blocks of H; g holds W_ih·x + b on entry)
///   c = σ(f)·c + σ(i)·tanh(c̃);  h = σ(o)·tanh(c);  out[0..<H) = h
/// `packed` comes from `ink_lstm_pack_recurrent`; `with_recurrent` 0 skips the product (the first
/// step, h = 0). tanh is the rational approximation of Eigen and MLAS, σ(x) = ½·tanh(x/2) + ½, the
/// same as the engine's Swift path. `hidden` must be a multiple of 8. Only after
/// `ink_kernels_avx2_fma_available()` returned 1.
void ink_lstm_step(const float *packed, int hidden, int with_recurrent,
                   float *g, float *h, float *c, float *out);

/// `ink_lstm_pack_recurrent` with the weights stored as IEEE half-precision floats, in column panels
/// of 96 (then 8) gates.
/// Exact only for weights that `ink_floats_are_half_exact` accepts. Portable C.
void ink_lstm_pack_recurrent_f16(const float *wt, int hidden, uint16_t *packed);

/// `ink_lstm_step` over half-precision packed weights (converted to float in registers, F16C; all
/// arithmetic in float). Half the bytes per step: the product streams the weights from L2, and is
/// bound by that. Only after `ink_kernels_f16c_available()` returned 1.
void ink_lstm_step_f16(const uint16_t *packed, int hidden, int with_recurrent,
                       float *g, float *h, float *c, float *out);

// MARK: 8-bit weights (network.precision "int8"; Training/inkrec_training/quantize.py is the reference)
//
// Weights are int8 per output row with a float scale; activations are quantized to int8 (per row
// for a projection, by 127 for the recurrent h); the products are summed exactly in int32. The
// VNNI kernels (`vpdpbusd`, unsigned × signed bytes) add 128 to every activation byte and subtract
// 128 · Σ_k w[j, k] (`ink_q8_pack` computes it), so they give the same integers as the portable ones.

/// 1 when the running CPU can execute the AVX-512 VNNI kernels (`*_vnni`), else 0.
int ink_kernels_avx512vnni_available(void);

/// Bytes `ink_q8_pack` writes for n outputs of k inputs: k rounded up to a multiple of 4, times n
/// rounded up to a multiple of 16.
long ink_q8_packed_bytes(int n, int k);

/// Packs int8 weights W (n × k, row-major: one row per output, PyTorch's layout) for the VNNI kernels:
/// groups of 4 inputs, each group holding all (padded) outputs' 4 bytes contiguously, zeros in the pads;
/// and `correction[j] = 128 · Σ_k W[j, k]` (n int32). Portable C.
void ink_q8_pack(const int8_t *w, int n, int k, int8_t *packed, int32_t *correction);

/// Quantizes each of m rows of k floats (leading dimension lda): `scale[r] = max|x[r,:]| / 127` (1 for
/// a zero row), `q = round(x / scale)` clamped to ±127, written as `q + 128` bytes into `xq` rows of
/// `ldq` bytes (ldq ≥ k rounded up to 4; the pad bytes are 128, i.e. zero). Portable C.
void ink_q8_quantize_rows(const float *x, int m, int k, int lda, uint8_t *xq, int ldq, float *scale);

/// `ink_q8_quantize_rows` in AVX-512 (the same operations per value, so the same bytes and scales);
/// only after `ink_kernels_avx512vnni_available()`.
void ink_q8_quantize_rows_avx512(const float *x, int m, int k, int lda, uint8_t *xq, int ldq, float *scale);

/// y[r, j] = float(Σ_k q(x)[r, k] · W[j, k]) · (scale[r] · wscale[j]) + bias[j] for m rows and n outputs,
/// from rows quantized by `ink_q8_quantize_rows` and weights packed by `ink_q8_pack` (ldq = k rounded up
/// to 4). `ldc`: leading dimension of y. AVX-512 VNNI; only after `ink_kernels_avx512vnni_available()`.
void ink_q8_gemm_vnni(int m, int n, int k, const uint8_t *xq, int ldq, const float *scale, const int8_t *packed,
                      const int32_t *correction, const float *wscale, const float *bias, float *y, int ldc);

/// The same result from W itself (n × k, row-major) in portable C: integer sums, then the same float
/// operations in the same order.
void ink_q8_gemm_portable(int m, int n, int k, const uint8_t *xq, int ldq, const float *scale, const int8_t *w,
                          const float *wscale, const float *bias, float *y, int ldc);

/// One LSTM step of one direction with int8 recurrent weights (4H outputs × H inputs, packed by
/// `ink_q8_pack`): hq = round(h · 127); g[j] += float(Σ_k hq[k] · W[j, k]) · rscale[j] (rscale = the
/// row scale / 127), then the cell as in `ink_lstm_step` (16 units at a time, the same operations). `with_recurrent` 0 skips the product. H a
/// multiple of 8. AVX-512 VNNI (product) and AVX2 + FMA (cell); only after
/// `ink_kernels_avx512vnni_available()`.
void ink_lstm_step_q8_vnni(const int8_t *packed, const int32_t *correction, const float *rscale, int hidden,
                           int with_recurrent, float *g, float *h, float *c, float *out);

/// The recurrent product of `ink_lstm_step_q8_vnni` in portable C over W itself (4H × H row-major):
/// g[j] += float(Σ_k round(h[k] · 127) · W[j, k]) · rscale[j]. The caller runs the cell.
void ink_lstm_recurrent_q8_portable(const int8_t *w, const float *rscale, int hidden, const float *h, float *g);

// The AVX2 + FMA kernels (x86-64 CPUs with AVX2 but not AVX-512 VNNI) multiply 16-bit activations with
// the weights sign-extended to 16 bits (vpmaddwd: exact pairs summed into 32-bit lanes), so they give
// the portable kernels' integers without a correction. Only after `ink_kernels_avx2_fma_available()`.

/// Bytes `ink_q8_pack_pairs` writes for n outputs of k inputs: n rounded up to a multiple of 8, times k
/// rounded up to a multiple of 2.
long ink_q8_pairs_packed_bytes(int n, int k);

/// Packs int8 weights W (n × k, row-major) for the AVX2 kernels: panels of 8 outputs, each panel input
/// pair after input pair (16 bytes: for each of the 8 outputs its weights of inputs 2i and 2i + 1), zeros
/// in the pads. Portable C.
void ink_q8_pack_pairs(const int8_t *w, int n, int k, int8_t *packed);

/// `ink_q8_quantize_rows` with the values as 16-bit integers `q` (not bytes `q + 128`), rows of `ldq`
/// (≥ k rounded up to 2; pads 0): the same values and scales. AVX2.
void ink_q8_quantize_rows_s16_avx2(const float *x, int m, int k, int lda, int16_t *xq, int ldq, float *scale);

/// `ink_q8_gemm_vnni`'s result (the portable kernel's: the same integer sums, then the same float
/// operations) from rows quantized by `ink_q8_quantize_rows_s16_avx2` and weights packed by
/// `ink_q8_pack_pairs`. Register blocks of 4 rows × 24 outputs. AVX2 + FMA.
void ink_q8_gemm_avx2(int m, int n, int k, const int16_t *xq, int ldq, const float *scale, const int8_t *packed,
                      const float *wscale, const float *bias, float *y, int ldc);

/// `ink_lstm_step_q8_vnni` over W_hh packed by `ink_q8_pack_pairs` (4H outputs × H inputs): the product
/// gives the portable kernel's gates exactly, then the AVX2 cell of `ink_lstm_step` (8 units at a time).
/// H a multiple of 8. AVX2 + FMA.
void ink_lstm_step_q8_avx2(const int8_t *packed, const float *rscale, int hidden, int with_recurrent,
                           float *g, float *h, float *c, float *out);

// The NEON kernels (aarch64: baseline ARMv8 Advanced SIMD, which every arm64 CPU has, so no run-time
// check beyond the architecture) multiply 8-bit activations with the pair-packed weights as they are
// (smull/smlal: two exact products in a 16-bit lane, then sadalp into 32-bit sums), so they give the
// portable kernels' integers without a correction, and then the portable float operations (no fused
// multiply-adds): the portable results bit for bit, cell included. On other architectures they are
// stubs that are never called; only after `ink_kernels_neon_available()`.

/// 1 on aarch64 (the NEON kernels below run), else 0.
int ink_kernels_neon_available(void);

/// `ink_q8_quantize_rows` with the values as signed bytes `q` (not `q + 128`), rows of `ldq` (≥ k rounded
/// up to 2; pads 0): the same values and scales. NEON.
void ink_q8_quantize_rows_s8_neon(const float *x, int m, int k, int lda, int8_t *xq, int ldq, float *scale);

/// The portable kernel's result (the same integer sums, then the same float operations) from rows quantized
/// by `ink_q8_quantize_rows_s8_neon` (values within ±127, as it writes them) and weights packed by
/// `ink_q8_pack_pairs`. Register blocks of 4 rows × 8 outputs. NEON.
void ink_q8_gemm_neon(int m, int n, int k, const int8_t *xq, int ldq, const float *scale, const int8_t *packed,
                      const float *wscale, const float *bias, float *y, int ldc);

/// `ink_lstm_step_q8_avx2` in NEON over the same packing (4H outputs × H inputs, `ink_q8_pack_pairs`): the
/// portable product's gates exactly, then the Swift cell's operations 4 units at a time (separate multiplies
/// and adds, as it compiles), so its values bit for bit. H a multiple of 8. NEON.
void ink_lstm_step_q8_neon(const int8_t *packed, const float *rscale, int hidden, int with_recurrent,
                           float *g, float *h, float *c, float *out);

/// `C[m×n] = A[m×k] · B[k×n]` (plus C where `accumulate` is 1), row-major with leading dimensions: for the
/// products of a few rows that writer adaptation's recurrent steps make (m ≤ 10 running sequences against a
/// 4H × H weight), where a BLAS spends more time packing the weight than multiplying. Blocks of R ≤ 6 rows as even
/// as they come, each reading the weight once, 8·V columns at a time (R · V ≤ 12 accumulators: a row alone 64
/// columns, so that 8 independent sums hide the multiply-adds' latency); one fused multiply-add per term in order
/// of k, so that any blocking gives the same bits. Only after `ink_kernels_avx2_fma_available()` returned 1.
void ink_f32_gemm_small_avx2(int m, int n, int k, const float *a, int lda, const float *b, int ldb, float *c, int ldc,
                             int accumulate);

/// `ink_f32_gemm_small_avx2` in AVX-512F: blocks of R ≤ 12 rows as even as they come (10 rows: one block), 16·V
/// columns at a time (R ≤ 6: 64, with one row 128; else 32), the columns past the last 16 in one masked vector; one
/// fused multiply-add per term in order of k, so the same bits as the AVX2 kernel. Only after
/// `ink_kernels_avx512_available()` returned 1.
void ink_f32_gemm_small_avx512(int m, int n, int k, const float *a, int lda, const float *b, int ldb, float *c, int ldc,
                               int accumulate);

/// The processors this process may run on: its CPU affinity on Linux (so `taskset -c 0` gives 1),
/// the online processors elsewhere; at least 1.
int ink_available_processors(void);

#ifdef __cplusplus
}
#endif

#endif
