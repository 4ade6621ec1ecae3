// 8-bit weight kernels: packing, activation quantization, the projection and the recurrent step
// (see _InkKernels.h). The portable functions define the results; the VNNI, AVX2 and NEON ones give the same
// integers and then the same float operations, in the same order.
#include "_InkKernels.h"

#include <math.h>
#include <string.h>

#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#define INK_X86 1
#endif

int ink_kernels_avx512vnni_available(void) {
#if INK_X86 && (defined(__clang__) || defined(__GNUC__))
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vnni") &&
           __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return 0;
#endif
}

static inline int ink_round_up(int v, int m) { return (v + m - 1) / m * m; }

long ink_q8_packed_bytes(int n, int k) { return (long)ink_round_up(k, 4) * ink_round_up(n, 16); }

void ink_q8_pack(const int8_t *w, int n, int k, int8_t *packed, int32_t *correction) {
    const int np = ink_round_up(n, 16), kp = ink_round_up(k, 4);
    // Byte b of group g (inputs g..<g+4) of output j goes to packed[g · np + 4j + b]. Row by row (each
    // row of W read once, in order; the 16 rows that fill a 64-byte line of each group come one after
    // another), the pads zero: a head of 11,202 outputs took 7 ms when read group by group.
    memset(packed, 0, (size_t)kp * (size_t)np);
    for (int j = 0; j < n; j++) {
        const int8_t *row = w + (long)j * k;
        for (int g = 0; g < k; g += 4) {
            int8_t *dst = packed + (long)g * np + 4L * j;
            for (int b = 0; b < 4 && g + b < k; b++) dst[b] = row[g + b];
        }
    }
    for (int j = 0; j < n; j++) {
        int32_t s = 0;
        for (int i = 0; i < k; i++) s += w[(long)j * k + i];
        correction[j] = 128 * s;
    }
}

/// round(v) to nearest, ties to even, as the default floating-point environment does.
static inline int32_t ink_round_even(float v) { return (int32_t)nearbyintf(v); }

void ink_q8_quantize_rows(const float *x, int m, int k, int lda, uint8_t *xq, int ldq, float *scale) {
    for (int r = 0; r < m; r++) {
        const float *row = x + (long)r * lda;
        float mx = 0.0f;
        for (int i = 0; i < k; i++) mx = fmaxf(mx, fabsf(row[i]));
        const float s = mx > 0.0f ? mx / 127.0f : 1.0f;
        scale[r] = s;
        uint8_t *q = xq + (long)r * ldq;
        for (int i = 0; i < k; i++) {
            int32_t v = ink_round_even(row[i] / s);
            v = v > 127 ? 127 : v < -127 ? -127 : v;
            q[i] = (uint8_t)(v + 128);
        }
        for (int i = k; i < ldq; i++) q[i] = 128;
    }
}

/// Σ a[i] · b[i] over 16-bit activations and 8-bit weights, exact in 32 bits (|a| ≤ 128, |b| ≤ 127, k < 2^16).
/// Written with 16-bit operands so that compilers vectorize it as multiply-adds of 16-bit pairs into 32-bit
/// lanes (SSE2 pmaddwd, NEON smlal), as they did not for the 32-bit products of the first version (30× slower
/// than the VNNI kernel on a word).
static inline int32_t ink_dot_s16_s8(const int16_t *restrict a, const int8_t *restrict b, int k) {
    int32_t acc = 0;
    for (int i = 0; i < k; i++) acc += (int32_t)a[i] * (int32_t)(int16_t)b[i];
    return acc;
}

void ink_q8_gemm_portable(int m, int n, int k, const uint8_t *xq, int ldq, const float *scale, const int8_t *w,
                          const float *wscale, const float *bias, float *y, int ldc) {
    int16_t a[k > 0 ? k : 1];
    for (int r = 0; r < m; r++) {
        const uint8_t *q = xq + (long)r * ldq;
        for (int i = 0; i < k; i++) a[i] = (int16_t)((int)q[i] - 128);
        for (int j = 0; j < n; j++) {
            const int32_t acc = ink_dot_s16_s8(a, w + (long)j * k, k);
            const float f = scale[r] * wscale[j];
            const float p = (float)acc * f;
            y[(long)r * ldc + j] = p + bias[j];
        }
    }
}

void ink_lstm_recurrent_q8_portable(const int8_t *w, const float *rscale, int hidden, const float *h, float *g) {
    const int H = hidden, G = 4 * hidden;
    int16_t hq[H > 0 ? H : 1];
    for (int i = 0; i < H; i++) {
        int32_t v = ink_round_even(h[i] * 127.0f);
        hq[i] = (int16_t)(v > 127 ? 127 : v < -127 ? -127 : v);
    }
    for (int j = 0; j < G; j++) {
        const int32_t acc = ink_dot_s16_s8(hq, w + (long)j * H, H);
        const float p = (float)acc * rscale[j];
        g[j] = g[j] + p;
    }
}

long ink_q8_pairs_packed_bytes(int n, int k) { return (long)ink_round_up(n, 8) * ink_round_up(k, 2); }

void ink_q8_pack_pairs(const int8_t *w, int n, int k, int8_t *packed) {
    const int kp = ink_round_up(k, 2);
    // Output j, input i → panel j / 8 (kp · 8 bytes), pair i / 2 (16 bytes), byte 2 · (j % 8) + i % 2: one
    // 16-byte load, sign-extended to 16 bits, is the 8 outputs' weights of an input pair, in the order
    // vpmaddwd pairs them with a broadcast (a[i], a[i+1]). Pads (outputs past n, the input past an odd k) zero.
    memset(packed, 0, (size_t)ink_q8_pairs_packed_bytes(n, k));
    for (int j = 0; j < n; j++) {
        const int8_t *row = w + (long)j * k;
        int8_t *dst = packed + (long)(j / 8) * kp * 8 + 2 * (j % 8);
        for (int i = 0; i < k; i++) dst[(i / 2) * 16 + (i & 1)] = row[i];
    }
}

#if INK_X86
#define INK_AVX2 __attribute__((target("avx2,fma")))
#include "avx2_cell.h"

#define INK_VNNI __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni,avx2,fma")))

/// The 4 activation bytes of group g of row q, as one int32 broadcast to every lane.
static inline INK_VNNI __m512i ink_bcast4(const uint8_t *q, int g) {
    int32_t v;
    memcpy(&v, q + g, 4);
    return _mm512_set1_epi32(v);
}

/// y = float(acc − correction) · (s · wscale) + bias for 16 outputs (mask: those < n), no fused multiply-add.
static inline INK_VNNI void ink_q8_store16(__m512i acc, const int32_t *corr, float s, const float *wscale,
                                           const float *bias, float *y, __mmask16 mask) {
    const __m512i cv = _mm512_maskz_loadu_epi32(mask, corr);
    const __m512 f = _mm512_mul_ps(_mm512_set1_ps(s), _mm512_maskz_loadu_ps(mask, wscale));
    const __m512 p = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_sub_epi32(acc, cv)), f);
    _mm512_mask_storeu_ps(y, mask, _mm512_add_ps(p, _mm512_maskz_loadu_ps(mask, bias)));
}

static inline __mmask16 ink_q8_lanes(int count) {
    return count >= 16 ? (__mmask16)0xFFFF : count <= 0 ? (__mmask16)0 : (__mmask16)((1u << count) - 1);
}

/// 4 rows × 96 outputs (6 vectors of 16) starting at output j0.
static inline INK_VNNI void ink_q8_block4x6(int n, int kp, int np, const uint8_t *xq, int ldq, const float *scale,
                                            const int8_t *packed, const int32_t *corr, const float *wscale,
                                            const float *bias, float *y, int ldc, int j0) {
    __m512i acc[4][6];
    for (int r = 0; r < 4; r++)
        for (int v = 0; v < 6; v++) acc[r][v] = _mm512_setzero_si512();
    const uint8_t *q0 = xq, *q1 = xq + ldq, *q2 = xq + 2 * (long)ldq, *q3 = xq + 3 * (long)ldq;
    for (int g = 0; g < kp; g += 4) {
        const int8_t *wp = packed + (long)g * np + (long)j0 * 4;
        __m512i w[6];
        for (int v = 0; v < 6; v++) w[v] = _mm512_loadu_si512((const void *)(wp + 64 * v));
        __m512i b;
        b = ink_bcast4(q0, g); for (int v = 0; v < 6; v++) acc[0][v] = _mm512_dpbusd_epi32(acc[0][v], b, w[v]);
        b = ink_bcast4(q1, g); for (int v = 0; v < 6; v++) acc[1][v] = _mm512_dpbusd_epi32(acc[1][v], b, w[v]);
        b = ink_bcast4(q2, g); for (int v = 0; v < 6; v++) acc[2][v] = _mm512_dpbusd_epi32(acc[2][v], b, w[v]);
        b = ink_bcast4(q3, g); for (int v = 0; v < 6; v++) acc[3][v] = _mm512_dpbusd_epi32(acc[3][v], b, w[v]);
    }
    for (int r = 0; r < 4; r++)
        for (int v = 0; v < 6; v++) {
            const int j = j0 + 16 * v;
            ink_q8_store16(acc[r][v], corr + j, scale[r], wscale + j, bias + j, y + (long)r * ldc + j, ink_q8_lanes(n - j));
        }
}

/// 1 row × 16 outputs starting at output j0 (the rows and outputs left over from the 4 × 96 blocks).
static inline INK_VNNI void ink_q8_block1x1(int n, int kp, int np, const uint8_t *q, float s, const int8_t *packed,
                                            const int32_t *corr, const float *wscale, const float *bias, float *y,
                                            int j0) {
    __m512i acc = _mm512_setzero_si512();
    for (int g = 0; g < kp; g += 4)
        acc = _mm512_dpbusd_epi32(acc, ink_bcast4(q, g),
                                  _mm512_loadu_si512((const void *)(packed + (long)g * np + (long)j0 * 4)));
    ink_q8_store16(acc, corr + j0, s, wscale + j0, bias + j0, y + j0, ink_q8_lanes(n - j0));
}

INK_VNNI void ink_q8_gemm_vnni(int m, int n, int k, const uint8_t *xq, int ldq, const float *scale,
                               const int8_t *packed, const int32_t *correction, const float *wscale,
                               const float *bias, float *y, int ldc) {
    const int kp = ink_round_up(k, 4), np = ink_round_up(n, 16);
    int j = 0;
    for (; j + 96 <= np; j += 96) {
        int r = 0;
        for (; r + 4 <= m; r += 4)
            ink_q8_block4x6(n, kp, np, xq + (long)r * ldq, ldq, scale + r, packed, correction, wscale, bias,
                            y + (long)r * ldc, ldc, j);
        for (; r < m; r++)
            for (int v = 0; v < 6; v++)
                ink_q8_block1x1(n, kp, np, xq + (long)r * ldq, scale[r], packed, correction, wscale, bias,
                                y + (long)r * ldc, j + 16 * v);
    }
    for (; j < np; j += 16)
        for (int r = 0; r < m; r++)
            ink_q8_block1x1(n, kp, np, xq + (long)r * ldq, scale[r], packed, correction, wscale, bias,
                            y + (long)r * ldc, j);
}

INK_VNNI void ink_q8_quantize_rows_avx512(const float *x, int m, int k, int lda, uint8_t *xq, int ldq, float *scale) {
    for (int r = 0; r < m; r++) {
        const float *row = x + (long)r * lda;
        __m512 mx = _mm512_setzero_ps();
        int i = 0;
        for (; i + 16 <= k; i += 16) mx = _mm512_max_ps(mx, _mm512_abs_ps(_mm512_loadu_ps(row + i)));
        mx = _mm512_max_ps(mx, _mm512_abs_ps(_mm512_maskz_loadu_ps(ink_q8_lanes(k - i), row + i)));
        const float m0 = _mm512_reduce_max_ps(mx);
        const float s = m0 > 0.0f ? m0 / 127.0f : 1.0f;
        scale[r] = s;
        const __m512 vs = _mm512_set1_ps(s);
        uint8_t *q = xq + (long)r * ldq;
        for (i = 0; i < ldq; i += 16) {
            const __mmask16 in = ink_q8_lanes(k - i), out = ink_q8_lanes(ldq - i);
            // Lanes past k read 0, which quantizes to 0 (byte 128): the pad.
            __m512i v = _mm512_cvtps_epi32(_mm512_div_ps(_mm512_maskz_loadu_ps(in, row + i), vs));
            v = _mm512_min_epi32(_mm512_max_epi32(v, _mm512_set1_epi32(-127)), _mm512_set1_epi32(127));
            v = _mm512_add_epi32(v, _mm512_set1_epi32(128));
            _mm_mask_storeu_epi8(q + i, out, _mm512_cvtepi32_epi8(v));
        }
    }
}

/// The cell of `ink_lstm_cell` 16 units at a time (the same operations per lane, so the same values),
/// with an 8-unit AVX2 tail.
static inline INK_VNNI __m512 ink_tanh16(__m512 x) {
    x = _mm512_min_ps(_mm512_max_ps(x, _mm512_set1_ps(-9.0f)), _mm512_set1_ps(9.0f));
    const __m512 x2 = _mm512_mul_ps(x, x);
    __m512 p = _mm512_set1_ps(-2.76076847742355e-16f);
    p = _mm512_fmadd_ps(p, x2, _mm512_set1_ps(2.00018790482477e-13f));
    p = _mm512_fmadd_ps(p, x2, _mm512_set1_ps(-8.60467152213735e-11f));
    p = _mm512_fmadd_ps(p, x2, _mm512_set1_ps(5.12229709037114e-08f));
    p = _mm512_fmadd_ps(p, x2, _mm512_set1_ps(1.48572235717979e-05f));
    p = _mm512_fmadd_ps(p, x2, _mm512_set1_ps(6.37261928875436e-04f));
    p = _mm512_fmadd_ps(p, x2, _mm512_set1_ps(4.89352455891786e-03f));
    p = _mm512_mul_ps(p, x);
    __m512 q = _mm512_set1_ps(1.19825839466702e-06f);
    q = _mm512_fmadd_ps(q, x2, _mm512_set1_ps(1.18534705686654e-04f));
    q = _mm512_fmadd_ps(q, x2, _mm512_set1_ps(2.26843463243900e-03f));
    q = _mm512_fmadd_ps(q, x2, _mm512_set1_ps(4.89352518554385e-03f));
    return _mm512_div_ps(p, q);
}

static inline INK_VNNI __m512 ink_sigmoid16(__m512 x) {
    const __m512 half = _mm512_set1_ps(0.5f);
    return _mm512_fmadd_ps(half, ink_tanh16(_mm512_mul_ps(half, x)), half);
}

static inline INK_VNNI void ink_lstm_cell16(int H, const float *g, float *h, float *c, float *out) {
    int j = 0;
    for (; j + 16 <= H; j += 16) {
        const __m512 i = ink_sigmoid16(_mm512_loadu_ps(g + j));
        const __m512 f = ink_sigmoid16(_mm512_loadu_ps(g + H + j));
        const __m512 cc = ink_tanh16(_mm512_loadu_ps(g + 2 * H + j));
        const __m512 o = ink_sigmoid16(_mm512_loadu_ps(g + 3 * H + j));
        const __m512 cn = _mm512_fmadd_ps(f, _mm512_loadu_ps(c + j), _mm512_mul_ps(i, cc));
        const __m512 hn = _mm512_mul_ps(o, ink_tanh16(cn));
        _mm512_storeu_ps(c + j, cn);
        _mm512_storeu_ps(h + j, hn);
        _mm512_storeu_ps(out + j, hn);
    }
    for (; j < H; j += 8) {  // H is a multiple of 8: at most one block of 8 left
        const __m256 i = ink_sigmoid8(_mm256_loadu_ps(g + j));
        const __m256 f = ink_sigmoid8(_mm256_loadu_ps(g + H + j));
        const __m256 cc = ink_tanh8(_mm256_loadu_ps(g + 2 * H + j));
        const __m256 o = ink_sigmoid8(_mm256_loadu_ps(g + 3 * H + j));
        const __m256 cn = _mm256_fmadd_ps(f, _mm256_loadu_ps(c + j), _mm256_mul_ps(i, cc));
        const __m256 hn = _mm256_mul_ps(o, ink_tanh8(cn));
        _mm256_storeu_ps(c + j, cn);
        _mm256_storeu_ps(h + j, hn);
        _mm256_storeu_ps(out + j, hn);
    }
}

INK_VNNI void ink_lstm_step_q8_vnni(const int8_t *packed, const int32_t *correction, const float *rscale,
                                    int hidden, int with_recurrent, float *g, float *h, float *c, float *out) {
    const int H = hidden, G = 4 * hidden, kp = ink_round_up(H, 4);
    if (with_recurrent) {
        // h → bytes round(h · 127) + 128 (|h| < 1), padded with 128 (zero).
        uint8_t hq[kp + 4];
        int i = 0;
        const __m256 k127 = _mm256_set1_ps(127.0f);
        for (; i + 8 <= H; i += 8) {
            __m256i v = _mm256_cvtps_epi32(_mm256_mul_ps(_mm256_loadu_ps(h + i), k127));
            v = _mm256_min_epi32(_mm256_max_epi32(v, _mm256_set1_epi32(-127)), _mm256_set1_epi32(127));
            v = _mm256_add_epi32(v, _mm256_set1_epi32(128));
            _mm_storel_epi64((__m128i *)(hq + i), _mm256_cvtepi32_epi8(v));
        }
        for (; i < kp; i++) {
            int32_t v = i < H ? (int32_t)nearbyintf(h[i] * 127.0f) : 0;
            v = v > 127 ? 127 : v < -127 ? -127 : v;
            hq[i] = (uint8_t)(v + 128);
        }
        int j = 0;
        // 24 accumulators (384 gates) at a time: H = 96 in one pass.
        for (; j + 384 <= G; j += 384) {
            __m512i acc[24];
            for (int v = 0; v < 24; v++) acc[v] = _mm512_setzero_si512();
            for (int q = 0; q < kp; q += 4) {
                const __m512i b = ink_bcast4(hq, q);
                const int8_t *wp = packed + (long)q * G + (long)j * 4;
                for (int v = 0; v < 24; v++)
                    acc[v] = _mm512_dpbusd_epi32(acc[v], b, _mm512_loadu_si512((const void *)(wp + 64 * v)));
            }
            for (int v = 0; v < 24; v++) {
                const int o = j + 16 * v;
                const __m512 p = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_sub_epi32(acc[v], _mm512_loadu_si512((const void *)(correction + o)))),
                                               _mm512_loadu_ps(rscale + o));
                _mm512_storeu_ps(g + o, _mm512_add_ps(_mm512_loadu_ps(g + o), p));
            }
        }
        for (; j < G; j += 16) {  // G is a multiple of 32 (H of 8)
            __m512i acc = _mm512_setzero_si512();
            for (int q = 0; q < kp; q += 4)
                acc = _mm512_dpbusd_epi32(acc, ink_bcast4(hq, q), _mm512_loadu_si512((const void *)(packed + (long)q * G + (long)j * 4)));
            const __m512 p = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_sub_epi32(acc, _mm512_loadu_si512((const void *)(correction + j)))),
                                           _mm512_loadu_ps(rscale + j));
            _mm512_storeu_ps(g + j, _mm512_add_ps(_mm512_loadu_ps(g + j), p));
        }
    }
    ink_lstm_cell16(H, g, h, c, out);
}

// MARK: AVX2 + FMA (x86-64 CPUs without AVX-512 VNNI)
//
// The products are vpmaddwd of 16-bit activations (a broadcast pair) with 16-bit weights (sign-extended
// from the pair-packed bytes): each 32-bit lane gets a[i]·w[j,i] + a[i+1]·w[j,i+1] exactly (|·| ≤ 2 · 128 · 128),
// so the sums are the portable kernel's integers. (vpmaddubsw would take the bytes as they are, but its
// 16-bit sums saturate.) The float operations after the sums are the portable ones, in the same order.

static inline INK_AVX2 __m256 ink_abs8(__m256 v) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), v); }

INK_AVX2 void ink_q8_quantize_rows_s16_avx2(const float *x, int m, int k, int lda, int16_t *xq, int ldq, float *scale) {
    for (int r = 0; r < m; r++) {
        const float *row = x + (long)r * lda;
        __m256 mx = _mm256_setzero_ps();
        int i = 0;
        for (; i + 8 <= k; i += 8) mx = _mm256_max_ps(mx, ink_abs8(_mm256_loadu_ps(row + i)));
        __m128 m4 = _mm_max_ps(_mm256_castps256_ps128(mx), _mm256_extractf128_ps(mx, 1));
        m4 = _mm_max_ps(m4, _mm_movehl_ps(m4, m4));
        m4 = _mm_max_ss(m4, _mm_shuffle_ps(m4, m4, 1));
        float m0 = _mm_cvtss_f32(m4);
        for (; i < k; i++) m0 = fmaxf(m0, fabsf(row[i]));
        const float s = m0 > 0.0f ? m0 / 127.0f : 1.0f;
        scale[r] = s;
        const __m256 vs = _mm256_set1_ps(s);
        const __m256i lo = _mm256_set1_epi32(-127), hi = _mm256_set1_epi32(127);
        int16_t *q = xq + (long)r * ldq;
        // x / s (a division, as the portable kernel: x · (1/s) can differ in the last bit), rounded to
        // nearest even by vcvtps2dq in the default rounding mode, clamped, narrowed (exact after the clamp).
        for (i = 0; i + 16 <= k; i += 16) {
            __m256i a = _mm256_cvtps_epi32(_mm256_div_ps(_mm256_loadu_ps(row + i), vs));
            __m256i b = _mm256_cvtps_epi32(_mm256_div_ps(_mm256_loadu_ps(row + i + 8), vs));
            a = _mm256_min_epi32(_mm256_max_epi32(a, lo), hi);
            b = _mm256_min_epi32(_mm256_max_epi32(b, lo), hi);
            // vpackssdw packs within 128-bit lanes: a0 b0 a1 b1 in quarters, put back in order.
            _mm256_storeu_si256((__m256i *)(q + i), _mm256_permute4x64_epi64(_mm256_packs_epi32(a, b), 0xD8));
        }
        for (; i < k; i++) {
            int32_t v = ink_round_even(row[i] / s);
            q[i] = (int16_t)(v > 127 ? 127 : v < -127 ? -127 : v);
        }
        for (; i < ldq; i++) q[i] = 0;
    }
}

/// y = float(acc) · (s · wscale) + bias for `count` outputs (8 with vectors, fewer one by one), no fused
/// multiply-add: the portable kernel's operations.
static inline INK_AVX2 void ink_q8_store8_avx2(__m256i acc, float s, const float *wscale, const float *bias, float *y,
                                               int count) {
    if (count >= 8) {
        const __m256 f = _mm256_mul_ps(_mm256_set1_ps(s), _mm256_loadu_ps(wscale));
        const __m256 p = _mm256_mul_ps(_mm256_cvtepi32_ps(acc), f);
        _mm256_storeu_ps(y, _mm256_add_ps(p, _mm256_loadu_ps(bias)));
        return;
    }
    int32_t a[8];
    _mm256_storeu_si256((__m256i *)a, acc);
    for (int j = 0; j < count; j++) {
        const float f = s * wscale[j];
        const float p = (float)a[j] * f;
        y[j] = p + bias[j];
    }
}

/// R rows × P panels of 8 outputs (R ≤ 4, P ≤ 3: 12 accumulators, 3 weight vectors and a broadcast of the
/// 16 registers), output panel `p0` on. Inlined with constant R and P, so the arrays live in registers.
static inline __attribute__((always_inline)) INK_AVX2 void
ink_q8_tile_avx2(const int R, const int P, int n, int kp, const int16_t *xq, int ldq, const float *scale,
                 const int8_t *packed, int p0, const float *wscale, const float *bias, float *y, int ldc) {
    __m256i acc[4][3];
    for (int r = 0; r < R; r++)
        for (int v = 0; v < P; v++) acc[r][v] = _mm256_setzero_si256();
    const long ps = (long)kp * 8;  // bytes per panel
    const int8_t *wp = packed + p0 * ps;
    for (int i = 0; i < kp; i += 2) {
        __m256i w[3];
        for (int v = 0; v < P; v++) w[v] = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(wp + v * ps + 8L * i)));
        for (int r = 0; r < R; r++) {
            int32_t pair;
            memcpy(&pair, xq + (long)r * ldq + i, 4);
            const __m256i b = _mm256_set1_epi32(pair);
            for (int v = 0; v < P; v++) acc[r][v] = _mm256_add_epi32(acc[r][v], _mm256_madd_epi16(b, w[v]));
        }
    }
    for (int r = 0; r < R; r++)
        for (int v = 0; v < P; v++) {
            const int j = 8 * (p0 + v);
            ink_q8_store8_avx2(acc[r][v], scale[r], wscale + j, bias + j, y + (long)r * ldc + j, n - j);
        }
}

INK_AVX2 void ink_q8_gemm_avx2(int m, int n, int k, const int16_t *xq, int ldq, const float *scale,
                               const int8_t *packed, const float *wscale, const float *bias, float *y, int ldc) {
    const int kp = ink_round_up(k, 2), panels = ink_round_up(n, 8) / 8;
    // Panels outside, rows inside: a block of 3 panels (kp · 24 bytes, 9 KB for k = 384) stays in L1 while
    // every row passes; the 16-bit rows stream from L2.
    int p = 0;
    for (; p + 3 <= panels; p += 3) {
        int r = 0;
        for (; r + 4 <= m; r += 4)
            ink_q8_tile_avx2(4, 3, n, kp, xq + (long)r * ldq, ldq, scale + r, packed, p, wscale, bias, y + (long)r * ldc, ldc);
        for (; r < m; r++)
            ink_q8_tile_avx2(1, 3, n, kp, xq + (long)r * ldq, ldq, scale + r, packed, p, wscale, bias, y + (long)r * ldc, ldc);
    }
    for (; p < panels; p++) {
        int r = 0;
        for (; r + 4 <= m; r += 4)
            ink_q8_tile_avx2(4, 1, n, kp, xq + (long)r * ldq, ldq, scale + r, packed, p, wscale, bias, y + (long)r * ldc, ldc);
        for (; r < m; r++)
            ink_q8_tile_avx2(1, 1, n, kp, xq + (long)r * ldq, ldq, scale + r, packed, p, wscale, bias, y + (long)r * ldc, ldc);
    }
}

/// g[8·(p0+v) ..< +8] += float(Σ hq · W) · rscale for P panels of 8 gates (P ≤ 12: 12 accumulators, a broadcast,
/// a weight vector), panel p0 on. Inlined with a constant P.
static inline __attribute__((always_inline)) INK_AVX2 void
ink_q8_gates_avx2(const int P, int H, const int16_t *hq, const int8_t *packed, int p0, const float *rscale, float *g) {
    __m256i acc[12];
    for (int v = 0; v < P; v++) acc[v] = _mm256_setzero_si256();
    const long ps = (long)H * 8;  // bytes per panel (H is even)
    const int8_t *wp = packed + p0 * ps;
    for (int i = 0; i < H; i += 2) {
        int32_t pair;
        memcpy(&pair, hq + i, 4);
        const __m256i b = _mm256_set1_epi32(pair);
        for (int v = 0; v < P; v++)
            acc[v] = _mm256_add_epi32(acc[v], _mm256_madd_epi16(b, _mm256_cvtepi8_epi16(
                                                                  _mm_loadu_si128((const __m128i *)(wp + v * ps + 8L * i)))));
    }
    for (int v = 0; v < P; v++) {
        const int o = 8 * (p0 + v);
        const __m256 p = _mm256_mul_ps(_mm256_cvtepi32_ps(acc[v]), _mm256_loadu_ps(rscale + o));
        _mm256_storeu_ps(g + o, _mm256_add_ps(_mm256_loadu_ps(g + o), p));
    }
}

INK_AVX2 void ink_lstm_step_q8_avx2(const int8_t *packed, const float *rscale, int hidden, int with_recurrent,
                                    float *g, float *h, float *c, float *out) {
    const int H = hidden, panels = 4 * hidden / 8;
    if (with_recurrent) {
        // hq = round(h · 127) clamped to ±127, as the portable kernel (vcvtps2dq: nearest even).
        int16_t hq[H];
        for (int i = 0; i < H; i += 8) {
            __m256i v = _mm256_cvtps_epi32(_mm256_mul_ps(_mm256_loadu_ps(h + i), _mm256_set1_ps(127.0f)));
            v = _mm256_min_epi32(_mm256_max_epi32(v, _mm256_set1_epi32(-127)), _mm256_set1_epi32(127));
            _mm_storeu_si128((__m128i *)(hq + i), _mm_packs_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1)));
        }
        // 12 panels (96 gates) at a time, then 4 (the panels, H / 2, are a multiple of 4).
        int p = 0;
        for (; p + 12 <= panels; p += 12) ink_q8_gates_avx2(12, H, hq, packed, p, rscale, g);
        for (; p < panels; p += 4) ink_q8_gates_avx2(4, H, hq, packed, p, rscale, g);
    }
    ink_lstm_cell(H, g, h, c, out);
}
#else
void ink_q8_quantize_rows_avx512(const float *x, int m, int k, int lda, uint8_t *xq, int ldq, float *scale) {
    // Never called: ink_kernels_avx512vnni_available() is 0 here.
    (void)x; (void)m; (void)k; (void)lda; (void)xq; (void)ldq; (void)scale;
}

void ink_q8_gemm_vnni(int m, int n, int k, const uint8_t *xq, int ldq, const float *scale, const int8_t *packed,
                      const int32_t *correction, const float *wscale, const float *bias, float *y, int ldc) {
    // Never called: ink_kernels_avx512vnni_available() is 0 here.
    (void)m; (void)n; (void)k; (void)xq; (void)ldq; (void)scale; (void)packed; (void)correction; (void)wscale;
    (void)bias; (void)y; (void)ldc;
}

void ink_lstm_step_q8_vnni(const int8_t *packed, const int32_t *correction, const float *rscale, int hidden,
                           int with_recurrent, float *g, float *h, float *c, float *out) {
    // Never called: ink_kernels_avx512vnni_available() is 0 here.
    (void)packed; (void)correction; (void)rscale; (void)hidden; (void)with_recurrent; (void)g; (void)h; (void)c;
    (void)out;
}

void ink_q8_quantize_rows_s16_avx2(const float *x, int m, int k, int lda, int16_t *xq, int ldq, float *scale) {
    // Never called: ink_kernels_avx2_fma_available() is 0 here.
    (void)x; (void)m; (void)k; (void)lda; (void)xq; (void)ldq; (void)scale;
}

void ink_q8_gemm_avx2(int m, int n, int k, const int16_t *xq, int ldq, const float *scale, const int8_t *packed,
                      const float *wscale, const float *bias, float *y, int ldc) {
    // Never called: ink_kernels_avx2_fma_available() is 0 here.
    (void)m; (void)n; (void)k; (void)xq; (void)ldq; (void)scale; (void)packed; (void)wscale; (void)bias; (void)y;
    (void)ldc;
}

void ink_lstm_step_q8_avx2(const int8_t *packed, const float *rscale, int hidden, int with_recurrent, float *g,
                           float *h, float *c, float *out) {
    // Never called: ink_kernels_avx2_fma_available() is 0 here.
    (void)packed; (void)rscale; (void)hidden; (void)with_recurrent; (void)g; (void)h; (void)c; (void)out;
}
#endif

// MARK: NEON (aarch64)
//
// Baseline ARMv8 Advanced SIMD only (no dot-product or i8mm extension): every arm64 CPU runs it, so there
// is no run-time check. The products are smull/smlal of 8-bit activations (a broadcast input pair) with the
// pair-packed weights as they are: a 16-bit lane gets a[i]·w[j,i] + a[i+2]·w[j,i+2] (|·| ≤ 2 · 127 · 128 =
// 32512: exact, as the activations are clamped to ±127), and sadalp adds neighbouring lanes (inputs i and
// i + 1) into the 32-bit sums. So the sums are the portable kernel's integers; no saturating operation, no
// correction. The float operations after the sums, and the cell, are the portable ones in the same order,
// as separate multiplies and adds: clang does not fuse intrinsics written apart (GCC's default
// -ffp-contract=fast would: Tests/KernelsARM builds with -ffp-contract=off for GCC).
#if defined(__aarch64__)
#include <arm_neon.h>

int ink_kernels_neon_available(void) { return 1; }

void ink_q8_quantize_rows_s8_neon(const float *x, int m, int k, int lda, int8_t *xq, int ldq, float *scale) {
    const int32x4_t lo = vdupq_n_s32(-127), hi = vdupq_n_s32(127);
    for (int r = 0; r < m; r++) {
        const float *row = x + (long)r * lda;
        // max |x| as fmaxf takes it (fmaxnm: a NaN is ignored, as fmaxf ignores it).
        float32x4_t mx = vdupq_n_f32(0.0f);
        int i = 0;
        for (; i + 4 <= k; i += 4) mx = vmaxnmq_f32(mx, vabsq_f32(vld1q_f32(row + i)));
        float m0 = vmaxnmvq_f32(mx);
        for (; i < k; i++) m0 = fmaxf(m0, fabsf(row[i]));
        const float s = m0 > 0.0f ? m0 / 127.0f : 1.0f;
        scale[r] = s;
        const float32x4_t vs = vdupq_n_f32(s);
        int8_t *q = xq + (long)r * ldq;
        // x / s (a division, as the portable kernel), rounded to nearest even (fcvtns), clamped, narrowed
        // (exact after the clamp).
        for (i = 0; i + 8 <= k; i += 8) {
            int32x4_t a = vcvtnq_s32_f32(vdivq_f32(vld1q_f32(row + i), vs));
            int32x4_t b = vcvtnq_s32_f32(vdivq_f32(vld1q_f32(row + i + 4), vs));
            a = vminq_s32(vmaxq_s32(a, lo), hi);
            b = vminq_s32(vmaxq_s32(b, lo), hi);
            vst1_s8(q + i, vmovn_s16(vcombine_s16(vmovn_s32(a), vmovn_s32(b))));
        }
        for (; i < k; i++) {
            int32_t v = ink_round_even(row[i] / s);
            q[i] = (int8_t)(v > 127 ? 127 : v < -127 ? -127 : v);
        }
        for (; i < ldq; i++) q[i] = 0;
    }
}

/// The two bytes at p (inputs i, i + 1) in every 16-bit lane: (a[i], a[i+1]) × 4, the order of a pair of
/// packed weights (ld1r).
static inline int8x8_t ink_pair_neon(const int8_t *p) {
    int16_t v;
    memcpy(&v, p, 2);
    return vreinterpret_s8_s16(vdup_n_s16(v));
}

/// acc (outputs 0-3, 4-7 of a panel) += the products of the activation pairs a0 (inputs i, i+1) and a1
/// (i+2, i+3) with the panel's 16 weight bytes of each pair at w (w + 16 the second pair): two products a
/// lane, then lanes pairwise. The weights as 8-byte halves: with a 64-bit broadcast smull takes them as they
/// are (a 16-byte load costs an ext for the high half, and registers).
static inline __attribute__((always_inline)) void ink_q8_madd2_neon(int32x4_t *acc, int8x8_t a0, int8x8_t a1,
                                                                    const int8_t *w) {
    int16x8_t lo = vmull_s8(a0, vld1_s8(w));
    int16x8_t hi = vmull_s8(a0, vld1_s8(w + 8));
    lo = vmlal_s8(lo, a1, vld1_s8(w + 16));
    hi = vmlal_s8(hi, a1, vld1_s8(w + 24));
    acc[0] = vpadalq_s16(acc[0], lo);
    acc[1] = vpadalq_s16(acc[1], hi);
}

/// The same for one pair (the last one when k rounded up to 2 is not a multiple of 4).
static inline __attribute__((always_inline)) void ink_q8_madd1_neon(int32x4_t *acc, int8x8_t a0, const int8_t *w) {
    acc[0] = vpadalq_s16(acc[0], vmull_s8(a0, vld1_s8(w)));
    acc[1] = vpadalq_s16(acc[1], vmull_s8(a0, vld1_s8(w + 8)));
}

/// y = float(acc) · (s · wscale) + bias for `count` outputs (8 with vectors, fewer one by one), no fused
/// multiply-add: the portable kernel's operations.
static inline void ink_q8_store8_neon(const int32x4_t *acc, float s, const float *wscale, const float *bias, float *y,
                                      int count) {
    if (count >= 8) {
        const float32x4_t vs = vdupq_n_f32(s);
        for (int h = 0; h < 2; h++) {
            const float32x4_t f = vmulq_f32(vs, vld1q_f32(wscale + 4 * h));
            const float32x4_t p = vmulq_f32(vcvtq_f32_s32(acc[h]), f);
            vst1q_f32(y + 4 * h, vaddq_f32(p, vld1q_f32(bias + 4 * h)));
        }
        return;
    }
    int32_t a[8];
    vst1q_s32(a, acc[0]);
    vst1q_s32(a + 4, acc[1]);
    for (int j = 0; j < count; j++) {
        const float f = s * wscale[j];
        const float p = (float)a[j] * f;
        y[j] = p + bias[j];
    }
}

/// R rows (R ≤ 4) × one panel of 8 outputs, panel p on: 8 accumulators of 4 sums, 8 broadcasts, the weight
/// halves and the 16-bit products in the 32 registers. (Two panels, 16 accumulators, spill in clang's
/// schedule; the vector operations per product are the same either way, only the loads are shared.) Inlined
/// with a constant R, so the arrays live in registers.
static inline __attribute__((always_inline)) void
ink_q8_tile_neon(const int R, int n, int kp, const int8_t *xq, int ldq, const float *scale, const int8_t *packed,
                 int p, const float *wscale, const float *bias, float *y, int ldc) {
    int32x4_t acc[4][2];
    for (int r = 0; r < R; r++) acc[r][0] = acc[r][1] = vdupq_n_s32(0);
    const int8_t *wp = packed + p * (long)kp * 8;  // the panel: kp · 8 bytes
    int i = 0;
    for (; i + 4 <= kp; i += 4)
        for (int r = 0; r < R; r++)
            ink_q8_madd2_neon(acc[r], ink_pair_neon(xq + (long)r * ldq + i), ink_pair_neon(xq + (long)r * ldq + i + 2),
                              wp + 8L * i);
    if (i < kp)  // kp ≡ 2 (mod 4): one pair left
        for (int r = 0; r < R; r++) ink_q8_madd1_neon(acc[r], ink_pair_neon(xq + (long)r * ldq + i), wp + 8L * i);
    for (int r = 0; r < R; r++)
        ink_q8_store8_neon(acc[r], scale[r], wscale + 8 * p, bias + 8 * p, y + (long)r * ldc + 8 * p, n - 8 * p);
}

void ink_q8_gemm_neon(int m, int n, int k, const int8_t *xq, int ldq, const float *scale, const int8_t *packed,
                      const float *wscale, const float *bias, float *y, int ldc) {
    const int kp = ink_round_up(k, 2), panels = ink_round_up(n, 8) / 8;
    // Panels outside, rows inside: a panel (kp · 8 bytes, 3 KB for k = 384) stays in L1 while every row
    // passes; blocks of 4 rows, then the 1 to 3 left in one block.
    for (int p = 0; p < panels; p++) {
        int r = 0;
        for (; r + 4 <= m; r += 4)
            ink_q8_tile_neon(4, n, kp, xq + (long)r * ldq, ldq, scale + r, packed, p, wscale, bias, y + (long)r * ldc, ldc);
        const int8_t *q = xq + (long)r * ldq;
        float *yr = y + (long)r * ldc;
        switch (m - r) {
        case 3: ink_q8_tile_neon(3, n, kp, q, ldq, scale + r, packed, p, wscale, bias, yr, ldc); break;
        case 2: ink_q8_tile_neon(2, n, kp, q, ldq, scale + r, packed, p, wscale, bias, yr, ldc); break;
        case 1: ink_q8_tile_neon(1, n, kp, q, ldq, scale + r, packed, p, wscale, bias, yr, ldc); break;
        default: break;
        }
    }
}

/// g[8·(p0+v) ..< +8] += float(Σ hq · W) · rscale for P panels of 8 gates (P ≤ 4: 8 accumulators, two broadcast
/// pairs, 16 weight halves and 8 products; 8 panels spill in clang's schedule), panel p0 on. Inlined with a
/// constant P.
static inline __attribute__((always_inline)) void
ink_q8_gates_neon(const int P, int H, const int8_t *hq, const int8_t *packed, int p0, const float *rscale, float *g) {
    int32x4_t acc[4][2];
    for (int v = 0; v < P; v++) acc[v][0] = acc[v][1] = vdupq_n_s32(0);
    const long ps = (long)H * 8;  // bytes per panel (H is even)
    const int8_t *wp = packed + p0 * ps;
    for (int i = 0; i < H; i += 4) {  // H is a multiple of 4
        const int8x8_t a0 = ink_pair_neon(hq + i), a1 = ink_pair_neon(hq + i + 2);
        for (int v = 0; v < P; v++) ink_q8_madd2_neon(acc[v], a0, a1, wp + v * ps + 8L * i);
    }
    // g = g + float(acc) · rscale, the portable kernel's operations.
    for (int v = 0; v < P; v++)
        for (int h = 0; h < 2; h++) {
            const int o = 8 * (p0 + v) + 4 * h;
            const float32x4_t p = vmulq_f32(vcvtq_f32_s32(acc[v][h]), vld1q_f32(rscale + o));
            vst1q_f32(g + o, vaddq_f32(vld1q_f32(g + o), p));
        }
}

/// The Swift cell's tanh (`_tanh8`: x clamped to ±9, then MLAS's rational approximation) with its operations
/// one by one: multiply, then add or subtract (Swift does not fuse them), then the division.
static inline float32x4_t ink_tanh4_neon(float32x4_t x) {
    // Clamped as `replace(with:where:)` does (a NaN stays a NaN: fmax/fmin return it).
    x = vminq_f32(vmaxq_f32(x, vdupq_n_f32(-9.0f)), vdupq_n_f32(9.0f));
    const float32x4_t x2 = vmulq_f32(x, x);
    float32x4_t p = vdupq_n_f32(-2.76076847742355e-16f);
    p = vaddq_f32(vmulq_f32(p, x2), vdupq_n_f32(2.00018790482477e-13f));
    p = vsubq_f32(vmulq_f32(p, x2), vdupq_n_f32(8.60467152213735e-11f));
    p = vaddq_f32(vmulq_f32(p, x2), vdupq_n_f32(5.12229709037114e-08f));
    p = vaddq_f32(vmulq_f32(p, x2), vdupq_n_f32(1.48572235717979e-05f));
    p = vaddq_f32(vmulq_f32(p, x2), vdupq_n_f32(6.37261928875436e-04f));
    p = vaddq_f32(vmulq_f32(p, x2), vdupq_n_f32(4.89352455891786e-03f));
    p = vmulq_f32(p, x);
    float32x4_t q = vdupq_n_f32(1.19825839466702e-06f);
    q = vaddq_f32(vmulq_f32(q, x2), vdupq_n_f32(1.18534705686654e-04f));
    q = vaddq_f32(vmulq_f32(q, x2), vdupq_n_f32(2.26843463243900e-03f));
    q = vaddq_f32(vmulq_f32(q, x2), vdupq_n_f32(4.89352518554385e-03f));
    return vdivq_f32(p, q);
}

/// σ(x) = ½ tanh(x/2) + ½ (`_sigmoid8`).
static inline float32x4_t ink_sigmoid4_neon(float32x4_t x) {
    const float32x4_t half = vdupq_n_f32(0.5f);
    return vaddq_f32(vmulq_f32(half, ink_tanh4_neon(vmulq_f32(half, x))), half);
}

/// The Swift cell (`_lstmCell`), 4 units at a time: gates g (i, f, c̃, o blocks of H), h and c in place, h to out.
static inline void ink_lstm_cell_neon(int H, const float *g, float *h, float *c, float *out) {
    for (int j = 0; j < H; j += 4) {
        const float32x4_t i = ink_sigmoid4_neon(vld1q_f32(g + j));
        const float32x4_t f = ink_sigmoid4_neon(vld1q_f32(g + H + j));
        const float32x4_t cc = ink_tanh4_neon(vld1q_f32(g + 2 * H + j));
        const float32x4_t o = ink_sigmoid4_neon(vld1q_f32(g + 3 * H + j));
        const float32x4_t cn = vaddq_f32(vmulq_f32(f, vld1q_f32(c + j)), vmulq_f32(i, cc));
        const float32x4_t hn = vmulq_f32(o, ink_tanh4_neon(cn));
        vst1q_f32(c + j, cn);
        vst1q_f32(h + j, hn);
        vst1q_f32(out + j, hn);
    }
}

void ink_lstm_step_q8_neon(const int8_t *packed, const float *rscale, int hidden, int with_recurrent, float *g,
                           float *h, float *c, float *out) {
    const int H = hidden, panels = 4 * hidden / 8;
    if (with_recurrent) {
        // hq = round(h · 127) clamped to ±127, as the portable kernel (fcvtns: nearest even).
        int8_t hq[H];
        const float32x4_t k127 = vdupq_n_f32(127.0f);
        const int32x4_t lo = vdupq_n_s32(-127), hi = vdupq_n_s32(127);
        for (int i = 0; i < H; i += 8) {
            int32x4_t a = vcvtnq_s32_f32(vmulq_f32(vld1q_f32(h + i), k127));
            int32x4_t b = vcvtnq_s32_f32(vmulq_f32(vld1q_f32(h + i + 4), k127));
            a = vminq_s32(vmaxq_s32(a, lo), hi);
            b = vminq_s32(vmaxq_s32(b, lo), hi);
            vst1_s8(hq + i, vmovn_s16(vcombine_s16(vmovn_s32(a), vmovn_s32(b))));
        }
        // 4 panels (32 gates) at a time: the panels, H / 2, are a multiple of 4.
        for (int p = 0; p < panels; p += 4) ink_q8_gates_neon(4, H, hq, packed, p, rscale, g);
    }
    ink_lstm_cell_neon(H, g, h, c, out);
}
#else
int ink_kernels_neon_available(void) { return 0; }

void ink_q8_quantize_rows_s8_neon(const float *x, int m, int k, int lda, int8_t *xq, int ldq, float *scale) {
    // Never called: ink_kernels_neon_available() is 0 here.
    (void)x; (void)m; (void)k; (void)lda; (void)xq; (void)ldq; (void)scale;
}

void ink_q8_gemm_neon(int m, int n, int k, const int8_t *xq, int ldq, const float *scale, const int8_t *packed,
                      const float *wscale, const float *bias, float *y, int ldc) {
    // Never called: ink_kernels_neon_available() is 0 here.
    (void)m; (void)n; (void)k; (void)xq; (void)ldq; (void)scale; (void)packed; (void)wscale; (void)bias; (void)y;
    (void)ldc;
}

void ink_lstm_step_q8_neon(const int8_t *packed, const float *rscale, int hidden, int with_recurrent, float *g,
                           float *h, float *c, float *out) {
    // Never called: ink_kernels_neon_available() is 0 here.
    (void)packed; (void)rscale; (void)hidden; (void)with_recurrent; (void)g; (void)h; (void)c; (void)out;
}
#endif
