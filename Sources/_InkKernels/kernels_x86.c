#include "_InkKernels.h"

#include <math.h>
#include <string.h>

#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#define INK_X86 1
#endif

int ink_kernels_avx2_fma_available(void) {
#if INK_X86 && (defined(__clang__) || defined(__GNUC__))
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return 0;
#endif
}

int ink_kernels_f16c_available(void) {
#if INK_X86 && (defined(__clang__) || defined(__GNUC__))
    return ink_kernels_avx2_fma_available() && __builtin_cpu_supports("f16c");
#else
    return 0;
#endif
}

int ink_kernels_avx512_available(void) {
#if INK_X86 && (defined(__clang__) || defined(__GNUC__))
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f");
#else
    return 0;
#endif
}

long ink_lstm_packed_count(int hidden) { return 4L * hidden * hidden; }

long ink_gemm_packed_count(int k, int n) { return (long)k * ((n + 31) / 32 * 32); }

void ink_gemm_pack_b(const float *b, int k, int n, float *packed) { ink_gemm_pack_b_strided(b, n, 0, k, n, packed); }

void ink_gemm_pack_b_strided(const float *b, int ldb, int transposed, int k, int n, float *packed) {
    for (int p = 0; p < n; p += 32) {
        float *panel = packed + (long)p * k;  // k × 32
        const int w = n - p < 32 ? n - p : 32;
        if (!transposed) {
            for (int r = 0; r < k; r++) {
                const float *row = b + (long)r * ldb + p;
                float *o = panel + (long)r * 32;
                for (int i = 0; i < w; i++) o[i] = row[i];
                for (int i = w; i < 32; i++) o[i] = 0.0f;
            }
            continue;
        }
        // B stored n × k: the panel's column i is row p + i of B, read in runs of 16 along k.
        for (int r0 = 0; r0 < k; r0 += 16) {
            const int r1 = k - r0 < 16 ? k : r0 + 16;
            for (int i = 0; i < 32; i++) {
                if (i >= w) {
                    for (int r = r0; r < r1; r++) panel[(long)r * 32 + i] = 0.0f;
                    continue;
                }
                const float *col = b + (long)(p + i) * ldb;
                for (int r = r0; r < r1; r++) panel[(long)r * 32 + i] = col[r];
            }
        }
    }
}

void ink_transpose_f32(const float *a, int rows, int columns, int lda, float *out) {
    for (int r0 = 0; r0 < rows; r0 += 16) {
        const int r1 = rows - r0 < 16 ? rows : r0 + 16;
        for (int c0 = 0; c0 < columns; c0 += 16) {
            const int c1 = columns - c0 < 16 ? columns : c0 + 16;
            for (int r = r0; r < r1; r++) {
                const float *src = a + (long)r * lda;
                for (int c = c0; c < c1; c++) out[(long)c * rows + r] = src[c];
            }
        }
    }
}

/// IEEE binary16 bits of `f`, rounded to nearest even (portable: no F16C needed at load time).
static uint16_t ink_half_bits(float f) {
    uint32_t x;
    memcpy(&x, &f, 4);
    const uint32_t sign = (x >> 16) & 0x8000u;
    const uint32_t ax = x & 0x7fffffffu;
    if (ax >= 0x7f800000u) return (uint16_t)(sign | 0x7c00u | (ax > 0x7f800000u ? 0x200u : 0));  // inf, NaN
    if (ax >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u);  // rounds to beyond the largest half: inf
    if (ax < 0x38800000u) {  // below the smallest normal half: subnormal or zero
        const int shift = 126 - (int)(ax >> 23);  // 14 + (113 - exponent)
        if (shift > 24) return (uint16_t)sign;
        const uint32_t m = (ax & 0x7fffffu) | 0x800000u;
        uint32_t r = m >> (shift - 1 + 1);
        const uint32_t rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (r & 1))) r++;
        return (uint16_t)(sign | r);
    }
    uint32_t r = ((ax - 0x38000000u) >> 13);  // rebias the exponent 127 -> 15
    const uint32_t rem = ax & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (r & 1))) r++;
    return (uint16_t)(sign | r);
}

/// The float value of half-precision bits (portable).
static float ink_half_value(uint16_t hbits) {
    const uint32_t sign = (uint32_t)(hbits & 0x8000u) << 16;
    const uint32_t e = (hbits >> 10) & 0x1fu, m = hbits & 0x3ffu;
    uint32_t x;
    if (e == 0) {
        if (m == 0) {
            x = sign;
        } else {  // subnormal: m · 2^-24
            float v = (float)m * (1.0f / 16777216.0f);
            memcpy(&x, &v, 4);
            x |= sign;
        }
    } else if (e == 31) {
        x = sign | 0x7f800000u | (m << 13);
    } else {
        x = sign | ((e + 112) << 23) | (m << 13);
    }
    float f;
    memcpy(&f, &x, 4);
    return f;
}

int ink_floats_are_half_exact(const float *values, long count) {
    for (long i = 0; i < count; i++) {
        const float v = values[i];
        if (v != v) return 0;  // NaN
        const float back = ink_half_value(ink_half_bits(v));
        if (back != v) return 0;
    }
    return 1;
}

void ink_lstm_pack_recurrent_f16(const float *wt, int hidden, uint16_t *packed) {
    const int H = hidden, G = 4 * hidden;
    long o = 0;
    int j = 0;
    for (; j + 96 <= G; j += 96)
        for (int k = 0; k < H; k++)
            for (int i = 0; i < 96; i++) packed[o++] = ink_half_bits(wt[(long)k * G + j + i]);
    for (; j + 8 <= G; j += 8)
        for (int k = 0; k < H; k++)
            for (int i = 0; i < 8; i++) packed[o++] = ink_half_bits(wt[(long)k * G + j + i]);
}

void ink_lstm_pack_recurrent(const float *wt, int hidden, float *packed) {
    const int H = hidden, G = 4 * hidden;
    long o = 0;
    int j = 0;
    for (; j + 64 <= G; j += 64)
        for (int k = 0; k < H; k++)
            for (int i = 0; i < 64; i++) packed[o++] = wt[(long)k * G + j + i];
    for (; j + 8 <= G; j += 8)
        for (int k = 0; k < H; k++)
            for (int i = 0; i < 8; i++) packed[o++] = wt[(long)k * G + j + i];
}

#if INK_X86
#define INK_AVX2 __attribute__((target("avx2,fma")))

#include "avx2_cell.h"

INK_AVX2 void ink_lstm_step(const float *packed, int hidden, int with_recurrent,
                            float *g, float *h, float *c, float *out) {
    const int H = hidden, G = 4 * hidden;
    if (with_recurrent) {
        const float *w = packed;
        int j = 0;
        // Panels of 64 gates: 8 accumulators, one broadcast of h[k] per row of the panel.
        for (; j + 64 <= G; j += 64) {
            __m256 a[8];
            for (int i = 0; i < 8; i++) a[i] = _mm256_loadu_ps(g + j + 8 * i);
            for (int k = 0; k < H; k++, w += 64) {
                const __m256 b = _mm256_broadcast_ss(h + k);
                for (int i = 0; i < 8; i++) a[i] = _mm256_fmadd_ps(b, _mm256_loadu_ps(w + 8 * i), a[i]);
            }
            for (int i = 0; i < 8; i++) _mm256_storeu_ps(g + j + 8 * i, a[i]);
        }
        // The rest in panels of 8.
        for (; j + 8 <= G; j += 8) {
            __m256 a = _mm256_loadu_ps(g + j);
            for (int k = 0; k < H; k++, w += 8) a = _mm256_fmadd_ps(_mm256_broadcast_ss(h + k), _mm256_loadu_ps(w), a);
            _mm256_storeu_ps(g + j, a);
        }
    }
    ink_lstm_cell(H, g, h, c, out);
}


#define INK_AVX512 __attribute__((target("avx512f")))

/// C[6 × 32] = (bias, or C when bias is NULL) + A[6 × k] · panel (k × 32); only the columns whose
/// bits are set in the masks m0 (columns 0..<16) and m1 (16..<32) are read and written.
static inline INK_AVX512 void ink_gemm_6x32(int k, const float *a, int lda, const float *w, const float *bias,
                                            float *c, int ldc, __mmask16 m0, __mmask16 m1) {
    __m512 acc[12];
    for (int r = 0; r < 6; r++) {
        acc[2 * r] = _mm512_maskz_loadu_ps(m0, bias ? bias : c + r * ldc);
        acc[2 * r + 1] = _mm512_maskz_loadu_ps(m1, bias ? bias + 16 : c + r * ldc + 16);
    }
    const float *a0 = a, *a1 = a + lda, *a2 = a + 2 * lda, *a3 = a + 3 * lda, *a4 = a + 4 * lda, *a5 = a + 5 * lda;
    for (int r = 0; r < k; r++, w += 32) {
        const __m512 b0 = _mm512_loadu_ps(w), b1 = _mm512_loadu_ps(w + 16);
        __m512 x;
        x = _mm512_set1_ps(a0[r]); acc[0] = _mm512_fmadd_ps(x, b0, acc[0]); acc[1] = _mm512_fmadd_ps(x, b1, acc[1]);
        x = _mm512_set1_ps(a1[r]); acc[2] = _mm512_fmadd_ps(x, b0, acc[2]); acc[3] = _mm512_fmadd_ps(x, b1, acc[3]);
        x = _mm512_set1_ps(a2[r]); acc[4] = _mm512_fmadd_ps(x, b0, acc[4]); acc[5] = _mm512_fmadd_ps(x, b1, acc[5]);
        x = _mm512_set1_ps(a3[r]); acc[6] = _mm512_fmadd_ps(x, b0, acc[6]); acc[7] = _mm512_fmadd_ps(x, b1, acc[7]);
        x = _mm512_set1_ps(a4[r]); acc[8] = _mm512_fmadd_ps(x, b0, acc[8]); acc[9] = _mm512_fmadd_ps(x, b1, acc[9]);
        x = _mm512_set1_ps(a5[r]); acc[10] = _mm512_fmadd_ps(x, b0, acc[10]); acc[11] = _mm512_fmadd_ps(x, b1, acc[11]);
    }
    for (int r = 0; r < 6; r++) {
        _mm512_mask_storeu_ps(c + r * ldc, m0, acc[2 * r]);
        _mm512_mask_storeu_ps(c + r * ldc + 16, m1, acc[2 * r + 1]);
    }
}

/// C[1 × 32] = (bias, or C) + A[1 × k] · panel (k × 32), masked as `ink_gemm_6x32`: the rows left over
/// from blocks of 6.
static inline INK_AVX512 void ink_gemm_1x32(int k, const float *a, const float *w, const float *bias, float *c,
                                            __mmask16 m0, __mmask16 m1) {
    __m512 c0 = _mm512_maskz_loadu_ps(m0, bias ? bias : c), c1 = _mm512_maskz_loadu_ps(m1, bias ? bias + 16 : c + 16);
    for (int r = 0; r < k; r++, w += 32) {
        const __m512 x = _mm512_set1_ps(a[r]);
        c0 = _mm512_fmadd_ps(x, _mm512_loadu_ps(w), c0);
        c1 = _mm512_fmadd_ps(x, _mm512_loadu_ps(w + 16), c1);
    }
    _mm512_mask_storeu_ps(c, m0, c0);
    _mm512_mask_storeu_ps(c + 16, m1, c1);
}

/// The mask of the first `count` (clamped to 0...16) of 16 lanes.
static inline __mmask16 ink_lanes(int count) {
    return count >= 16 ? (__mmask16)0xFFFF : count <= 0 ? (__mmask16)0 : (__mmask16)((1u << count) - 1);
}

INK_AVX512 void ink_gemm_packed_avx512(int m, int n, int k, const float *a, int lda, const float *packed,
                                       const float *bias, float *c, int ldc) {
    for (int p = 0; p < n; p += 32) {
        const float *w = packed + (long)p * k;  // panel p / 32: k × 32 floats
        const float *b = bias ? bias + p : 0;
        const __mmask16 m0 = ink_lanes(n - p), m1 = ink_lanes(n - p - 16);
        int i = 0;
        for (; i + 6 <= m; i += 6) ink_gemm_6x32(k, a + (long)i * lda, lda, w, b, c + (long)i * ldc + p, ldc, m0, m1);
        for (; i < m; i++) ink_gemm_1x32(k, a + (long)i * lda, w, b, c + (long)i * ldc + p, m0, m1);
    }
}

/// e^x for x ≤ 0 (x below -87 gives 0 or a subnormal-free tiny value): x = n·ln2 + r, |r| ≤ ln2/2,
/// e^r by its degree-6 Taylor polynomial (relative error < 2e-7), times 2^n by `scalef`.
static inline INK_AVX512 __m512 ink_exp16(__m512 x) {
    x = _mm512_max_ps(x, _mm512_set1_ps(-87.0f));
    const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504088896341f)),
                                          _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693359375f), x);   // ln2, high part
    r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.12194440e-4f), r);      // ln2, low part
    __m512 p = _mm512_set1_ps(1.0f / 720.0f);
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 120.0f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 24.0f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 6.0f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(0.5f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
    return _mm512_scalef_ps(p, n);
}

INK_AVX512 void ink_log_softmax_rows_avx512(float *v, int rows, int count) {
    for (int t = 0; t < rows; t++, v += count) {
        __m512 mx = _mm512_set1_ps(-INFINITY);
        int j = 0;
        for (; j + 16 <= count; j += 16) mx = _mm512_max_ps(mx, _mm512_loadu_ps(v + j));
        const __mmask16 tail = ink_lanes(count - j);
        mx = _mm512_max_ps(mx, _mm512_mask_loadu_ps(_mm512_set1_ps(-INFINITY), tail, v + j));
        const float m = _mm512_reduce_max_ps(mx);
        const __m512 vm = _mm512_set1_ps(m);
        __m512 sum = _mm512_setzero_ps();
        for (j = 0; j + 16 <= count; j += 16) sum = _mm512_add_ps(sum, ink_exp16(_mm512_sub_ps(_mm512_loadu_ps(v + j), vm)));
        sum = _mm512_add_ps(sum, _mm512_maskz_mov_ps(tail, ink_exp16(_mm512_sub_ps(_mm512_maskz_loadu_ps(tail, v + j), vm))));
        const __m512 lse = _mm512_set1_ps(m + logf(_mm512_reduce_add_ps(sum)));
        for (j = 0; j + 16 <= count; j += 16) _mm512_storeu_ps(v + j, _mm512_sub_ps(_mm512_loadu_ps(v + j), lse));
        _mm512_mask_storeu_ps(v + j, tail, _mm512_sub_ps(_mm512_maskz_loadu_ps(tail, v + j), lse));
    }
}

#define INK_AVX2_F16C __attribute__((target("avx2,fma,f16c")))

/// 8 half-precision values at `p` as floats.
static inline INK_AVX2_F16C __m256 ink_load_half8(const uint16_t *p) {
    return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)p));
}

INK_AVX2_F16C void ink_lstm_step_f16(const uint16_t *packed, int hidden, int with_recurrent,
                                     float *g, float *h, float *c, float *out) {
    const int H = hidden, G = 4 * hidden;
    if (with_recurrent) {
        const uint16_t *w = packed;
        int j = 0;
        // Panels of 96 gates: 12 accumulators (measured about 5% faster than 64 here).
        for (; j + 96 <= G; j += 96) {
            __m256 a[12];
            for (int i = 0; i < 12; i++) a[i] = _mm256_loadu_ps(g + j + 8 * i);
            for (int k = 0; k < H; k++, w += 96) {
                const __m256 b = _mm256_broadcast_ss(h + k);
                for (int i = 0; i < 12; i++) a[i] = _mm256_fmadd_ps(b, ink_load_half8(w + 8 * i), a[i]);
            }
            for (int i = 0; i < 12; i++) _mm256_storeu_ps(g + j + 8 * i, a[i]);
        }
        for (; j + 8 <= G; j += 8) {
            __m256 a = _mm256_loadu_ps(g + j);
            for (int k = 0; k < H; k++, w += 8) a = _mm256_fmadd_ps(_mm256_broadcast_ss(h + k), ink_load_half8(w), a);
            _mm256_storeu_ps(g + j, a);
        }
    }
    ink_lstm_cell(H, g, h, c, out);
}

/// The rows of the next block of `left` rows when blocks hold at most `most`: blocks as even as they come (10 rows in
/// blocks of at most 6: 5 and 5), so that each reads the weight once and none is a lone row where it need not be.
static inline int ink_even_block(int left, int most) {
    const int blocks = (left + most - 1) / most;
    return (left + blocks - 1) / blocks;
}

/// R ≤ 6 rows × 8·V columns of `ink_f32_gemm_small_avx2` at column j: R × V accumulators (R · V ≤ 12 of AVX2's 16
/// registers; a row alone's 8 take its columns' vectors as memory operands), each term one fused multiply-add in
/// order of k.
__attribute__((target("avx2,fma"), always_inline))
static inline void ink_f32_gemm_block_avx2(const int R, const int V, int j, int k, const float *a, int lda,
                                           const float *b, int ldb, float *c, int ldc, int accumulate) {
    __m256 acc[6][8];
    for (int r = 0; r < R; r++)
        for (int v = 0; v < V; v++)
            acc[r][v] = accumulate ? _mm256_loadu_ps(c + r * ldc + j + 8 * v) : _mm256_setzero_ps();
    for (int p = 0; p < k; p++) {
        __m256 bv[8];
        for (int v = 0; v < V; v++) bv[v] = _mm256_loadu_ps(b + p * ldb + j + 8 * v);
        for (int r = 0; r < R; r++) {
            const __m256 x = _mm256_broadcast_ss(a + r * lda + p);
            for (int v = 0; v < V; v++) acc[r][v] = _mm256_fmadd_ps(x, bv[v], acc[r][v]);
        }
    }
    for (int r = 0; r < R; r++)
        for (int v = 0; v < V; v++) _mm256_storeu_ps(c + r * ldc + j + 8 * v, acc[r][v]);
}

/// R ≤ 6 rows of `ink_f32_gemm_small_avx2`: 8·V columns at a time (V the most that fits: a row alone 64 columns,
/// so that 8 independent sums hide the multiply-adds' latency), then 16, then 8, then one.
__attribute__((target("avx2,fma"), always_inline))
static inline void ink_f32_gemm_rows_avx2(const int R, int n, int k, const float *a, int lda, const float *b, int ldb,
                                          float *c, int ldc, int accumulate) {
    const int V = R == 1 ? 8 : R == 2 ? 4 : R == 3 ? 3 : 2;
    int j = 0;
    for (; j + 8 * V <= n; j += 8 * V) ink_f32_gemm_block_avx2(R, V, j, k, a, lda, b, ldb, c, ldc, accumulate);
    if (V > 2)
        for (; j + 16 <= n; j += 16) ink_f32_gemm_block_avx2(R, 2, j, k, a, lda, b, ldb, c, ldc, accumulate);
    for (; j + 8 <= n; j += 8) ink_f32_gemm_block_avx2(R, 1, j, k, a, lda, b, ldb, c, ldc, accumulate);
    for (; j < n; j++) {
        for (int r = 0; r < R; r++) {
            float s = accumulate ? c[r * ldc + j] : 0.0f;
            for (int p = 0; p < k; p++) s = fmaf(a[r * lda + p], b[p * ldb + j], s);
            c[r * ldc + j] = s;
        }
    }
}

__attribute__((target("avx2,fma")))
void ink_f32_gemm_small_avx2(int m, int n, int k, const float *a, int lda, const float *b, int ldb, float *c, int ldc,
                             int accumulate) {
    // Blocks of at most 6 rows, as even as they come (10 rows: 5 and 5), each reading the weight once.
    int i = 0;
    while (i < m) {
        const int R = ink_even_block(m - i, 6);
        const float *ai = a + i * lda;
        float *ci = c + i * ldc;
        switch (R) {
        case 6: ink_f32_gemm_rows_avx2(6, n, k, ai, lda, b, ldb, ci, ldc, accumulate); break;
        case 5: ink_f32_gemm_rows_avx2(5, n, k, ai, lda, b, ldb, ci, ldc, accumulate); break;
        case 4: ink_f32_gemm_rows_avx2(4, n, k, ai, lda, b, ldb, ci, ldc, accumulate); break;
        case 3: ink_f32_gemm_rows_avx2(3, n, k, ai, lda, b, ldb, ci, ldc, accumulate); break;
        case 2: ink_f32_gemm_rows_avx2(2, n, k, ai, lda, b, ldb, ci, ldc, accumulate); break;
        default: ink_f32_gemm_rows_avx2(1, n, k, ai, lda, b, ldb, ci, ldc, accumulate); break;
        }
        i += R;
    }
}

/// The lanes of an AVX2 mask (`_mm256_maskload_ps`) for the first `count` (clamped to 0...8) of 8 floats.
__attribute__((target("avx2")))
static inline __m256i ink_lanes8(int count) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(count), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

/// C[R × 16] = (bias, or C when bias is NULL) + A[R × k] · half a panel (k rows of 16 floats, 32 apart), R ≤ 6 rows:
/// `ink_gemm_6x32` of AVX-512 in AVX2 (R × 2 accumulators, 15 of 16 registers with R = 6); only the columns whose
/// lanes are set in m0 (columns 0..<8) and m1 (8..<16) are read and written. One fused multiply-add per term in order
/// of k from the bias or C, as the AVX-512 kernel: the same bits.
__attribute__((target("avx2,fma"), always_inline))
static inline void ink_gemm_rx16_avx2(const int R, int k, const float *a, int lda, const float *w, const float *bias,
                                      float *c, int ldc, __m256i m0, __m256i m1) {
    __m256 acc[6][2];
    for (int r = 0; r < R; r++) {
        acc[r][0] = _mm256_maskload_ps(bias ? bias : c + r * ldc, m0);
        acc[r][1] = _mm256_maskload_ps(bias ? bias + 8 : c + r * ldc + 8, m1);
    }
    for (int p = 0; p < k; p++, w += 32) {
        const __m256 b0 = _mm256_loadu_ps(w), b1 = _mm256_loadu_ps(w + 8);
        for (int r = 0; r < R; r++) {
            const __m256 x = _mm256_broadcast_ss(a + r * lda + p);
            acc[r][0] = _mm256_fmadd_ps(x, b0, acc[r][0]);
            acc[r][1] = _mm256_fmadd_ps(x, b1, acc[r][1]);
        }
    }
    for (int r = 0; r < R; r++) {
        _mm256_maskstore_ps(c + r * ldc, m0, acc[r][0]);
        _mm256_maskstore_ps(c + r * ldc + 8, m1, acc[r][1]);
    }
}

__attribute__((target("avx2,fma")))
void ink_gemm_packed_avx2(int m, int n, int k, const float *a, int lda, const float *packed, const float *bias,
                          float *c, int ldc) {
    for (int p = 0; p < n; p += 32) {
        const float *panel = packed + (long)p * k;  // k × 32 floats
        for (int h = p; h < p + 32 && h < n; h += 16) {  // each half of the panel that holds columns
            const float *w = panel + (h - p), *b = bias ? bias + h : 0;
            const __m256i m0 = ink_lanes8(n - h), m1 = ink_lanes8(n - h - 8);
            int i = 0;
            for (; i + 6 <= m; i += 6) ink_gemm_rx16_avx2(6, k, a + (long)i * lda, lda, w, b, c + (long)i * ldc + h, ldc, m0, m1);
            const float *ai = a + (long)i * lda;
            float *ci = c + (long)i * ldc + h;
            switch (m - i) {  // the rows left over, as one block
            case 5: ink_gemm_rx16_avx2(5, k, ai, lda, w, b, ci, ldc, m0, m1); break;
            case 4: ink_gemm_rx16_avx2(4, k, ai, lda, w, b, ci, ldc, m0, m1); break;
            case 3: ink_gemm_rx16_avx2(3, k, ai, lda, w, b, ci, ldc, m0, m1); break;
            case 2: ink_gemm_rx16_avx2(2, k, ai, lda, w, b, ci, ldc, m0, m1); break;
            case 1: ink_gemm_rx16_avx2(1, k, ai, lda, w, b, ci, ldc, m0, m1); break;
            default: break;
            }
        }
    }
}

/// R ≤ 12 rows × 16·V columns of `ink_f32_gemm_small_avx512` at column j, the last vector's lanes those of `last`
/// (all 16 but in a tail): R × V accumulators (R · V ≤ 24 of AVX-512's 32 registers; V ≤ 8), each term one fused
/// multiply-add in order of k, as `ink_f32_gemm_block_avx2`.
__attribute__((target("avx512f"), always_inline))
static inline void ink_f32_gemm_block_avx512(const int R, const int V, int j, int k, const float *a, int lda,
                                             const float *b, int ldb, float *c, int ldc, int accumulate, __mmask16 last) {
    __m512 acc[12][8];
    for (int r = 0; r < R; r++)
        for (int v = 0; v < V; v++) {
            const __mmask16 lanes = v == V - 1 ? last : (__mmask16)0xFFFF;
            acc[r][v] = accumulate ? _mm512_maskz_loadu_ps(lanes, c + r * ldc + j + 16 * v) : _mm512_setzero_ps();
        }
    for (int p = 0; p < k; p++) {
        __m512 bv[8];
        for (int v = 0; v < V; v++)
            bv[v] = _mm512_maskz_loadu_ps(v == V - 1 ? last : (__mmask16)0xFFFF, b + p * ldb + j + 16 * v);
        for (int r = 0; r < R; r++) {
            const __m512 x = _mm512_set1_ps(a[r * lda + p]);
            for (int v = 0; v < V; v++) acc[r][v] = _mm512_fmadd_ps(x, bv[v], acc[r][v]);
        }
    }
    for (int r = 0; r < R; r++)
        for (int v = 0; v < V; v++)
            _mm512_mask_storeu_ps(c + r * ldc + j + 16 * v, v == V - 1 ? last : (__mmask16)0xFFFF, acc[r][v]);
}

/// R ≤ 12 rows of `ink_f32_gemm_small_avx512`: 64 columns at a time where R ≤ 6 (4 vectors; with R = 1, 8
/// independent sums of 16: 128 columns), then 32, then 16, then the last 1–15 in one masked vector.
__attribute__((target("avx512f"), always_inline))
static inline void ink_f32_gemm_rows_avx512(const int R, int n, int k, const float *a, int lda, const float *b, int ldb,
                                            float *c, int ldc, int accumulate) {
    const __mmask16 all = (__mmask16)0xFFFF;
    int j = 0;
    if (R == 1)
        for (; j + 128 <= n; j += 128) ink_f32_gemm_block_avx512(1, 8, j, k, a, lda, b, ldb, c, ldc, accumulate, all);
    if (R <= 6)
        for (; j + 64 <= n; j += 64) ink_f32_gemm_block_avx512(R, 4, j, k, a, lda, b, ldb, c, ldc, accumulate, all);
    for (; j + 32 <= n; j += 32) ink_f32_gemm_block_avx512(R, 2, j, k, a, lda, b, ldb, c, ldc, accumulate, all);
    for (; j + 16 <= n; j += 16) ink_f32_gemm_block_avx512(R, 1, j, k, a, lda, b, ldb, c, ldc, accumulate, all);
    if (j < n) ink_f32_gemm_block_avx512(R, 1, j, k, a, lda, b, ldb, c, ldc, accumulate, ink_lanes(n - j));
}

__attribute__((target("avx512f")))
void ink_f32_gemm_small_avx512(int m, int n, int k, const float *a, int lda, const float *b, int ldb, float *c, int ldc,
                               int accumulate) {
    // Blocks of at most 12 rows, as even as they come, each reading the weight once: a step's 10 running sequences
    // read it once, not twice as in blocks of 6 (about 15% less time for 10 × 384 × 96 on an Intel Xeon of 2026).
    int i = 0;
    while (i < m) {
        const int R = ink_even_block(m - i, 12);
        const float *ai = a + i * lda;
        float *ci = c + i * ldc;
        switch (R) {
        case 12: ink_f32_gemm_rows_avx512(12, n, k, ai, lda, b, ldb, ci, ldc, accumulate); break;
        case 11: ink_f32_gemm_rows_avx512(11, n, k, ai, lda, b, ldb, ci, ldc, accumulate); break;
        case 10: ink_f32_gemm_rows_avx512(10, n, k, ai, lda, b, ldb, ci, ldc, accumulate); break;
        case 9: ink_f32_gemm_rows_avx512(9, n, k, ai, lda, b, ldb, ci, ldc, accumulate); break;
        case 8: ink_f32_gemm_rows_avx512(8, n, k, ai, lda, b, ldb, ci, ldc, accumulate); break;
        case 7: ink_f32_gemm_rows_avx512(7, n, k, ai, lda, b, ldb, ci, ldc, accumulate); break;
        case 6: ink_f32_gemm_rows_avx512(6, n, k, ai, lda, b, ldb, ci, ldc, accumulate); break;
        case 5: ink_f32_gemm_rows_avx512(5, n, k, ai, lda, b, ldb, ci, ldc, accumulate); break;
        case 4: ink_f32_gemm_rows_avx512(4, n, k, ai, lda, b, ldb, ci, ldc, accumulate); break;
        case 3: ink_f32_gemm_rows_avx512(3, n, k, ai, lda, b, ldb, ci, ldc, accumulate); break;
        case 2: ink_f32_gemm_rows_avx512(2, n, k, ai, lda, b, ldb, ci, ldc, accumulate); break;
        default: ink_f32_gemm_rows_avx512(1, n, k, ai, lda, b, ldb, ci, ldc, accumulate); break;
        }
        i += R;
    }
}
#else
void ink_lstm_step(const float *packed, int hidden, int with_recurrent, float *g, float *h, float *c, float *out) {
    // Never called: ink_kernels_avx2_fma_available() is 0 here.
    (void)packed; (void)hidden; (void)with_recurrent; (void)g; (void)h; (void)c; (void)out;
}

void ink_lstm_step_f16(const uint16_t *packed, int hidden, int with_recurrent, float *g, float *h, float *c, float *out) {
    // Never called: ink_kernels_f16c_available() is 0 here.
    (void)packed; (void)hidden; (void)with_recurrent; (void)g; (void)h; (void)c; (void)out;
}

void ink_log_softmax_rows_avx512(float *v, int rows, int count) {
    // Never called: ink_kernels_avx512_available() is 0 here.
    (void)v; (void)rows; (void)count;
}

void ink_gemm_packed_avx512(int m, int n, int k, const float *a, int lda, const float *packed, const float *bias,
                            float *c, int ldc) {
    // Never called: ink_kernels_avx512_available() is 0 here.
    (void)m; (void)n; (void)k; (void)a; (void)lda; (void)packed; (void)bias; (void)c; (void)ldc;
}

void ink_f32_gemm_small_avx2(int m, int n, int k, const float *a, int lda, const float *b, int ldb, float *c, int ldc,
                             int accumulate) {
    // Never called: ink_kernels_avx2_fma_available() is 0 here.
    (void)m; (void)n; (void)k; (void)a; (void)lda; (void)b; (void)ldb; (void)c; (void)ldc; (void)accumulate;
}

void ink_f32_gemm_small_avx512(int m, int n, int k, const float *a, int lda, const float *b, int ldb, float *c, int ldc,
                               int accumulate) {
    // Never called: ink_kernels_avx512_available() is 0 here.
    (void)m; (void)n; (void)k; (void)a; (void)lda; (void)b; (void)ldb; (void)c; (void)ldc; (void)accumulate;
}

void ink_gemm_packed_avx2(int m, int n, int k, const float *a, int lda, const float *packed, const float *bias,
                          float *c, int ldc) {
    // Never called: ink_kernels_avx2_fma_available() is 0 here.
    (void)m; (void)n; (void)k; (void)a; (void)lda; (void)packed; (void)bias; (void)c; (void)ldc;
}
#endif
