// The LSTM cell in AVX2 + FMA, shared by the float, half-precision and 8-bit recurrent kernels
// (kernels_x86.c, kernels_int8.c). Internal; x86-64 only; include after defining INK_AVX2.
#ifndef INK_AVX2_CELL_H
#define INK_AVX2_CELL_H

#include <immintrin.h>

/// tanh(x) by MLAS's rational approximation (odd degree 13 over even degree 6), x clamped to ±9.
static inline INK_AVX2 __m256 ink_tanh8(__m256 x) {
    x = _mm256_min_ps(_mm256_max_ps(x, _mm256_set1_ps(-9.0f)), _mm256_set1_ps(9.0f));
    const __m256 x2 = _mm256_mul_ps(x, x);
    __m256 p = _mm256_set1_ps(-2.76076847742355e-16f);
    p = _mm256_fmadd_ps(p, x2, _mm256_set1_ps(2.00018790482477e-13f));
    p = _mm256_fmadd_ps(p, x2, _mm256_set1_ps(-8.60467152213735e-11f));
    p = _mm256_fmadd_ps(p, x2, _mm256_set1_ps(5.12229709037114e-08f));
    p = _mm256_fmadd_ps(p, x2, _mm256_set1_ps(1.48572235717979e-05f));
    p = _mm256_fmadd_ps(p, x2, _mm256_set1_ps(6.37261928875436e-04f));
    p = _mm256_fmadd_ps(p, x2, _mm256_set1_ps(4.89352455891786e-03f));
    p = _mm256_mul_ps(p, x);
    __m256 q = _mm256_set1_ps(1.19825839466702e-06f);
    q = _mm256_fmadd_ps(q, x2, _mm256_set1_ps(1.18534705686654e-04f));
    q = _mm256_fmadd_ps(q, x2, _mm256_set1_ps(2.26843463243900e-03f));
    q = _mm256_fmadd_ps(q, x2, _mm256_set1_ps(4.89352518554385e-03f));
    return _mm256_div_ps(p, q);
}

static inline INK_AVX2 __m256 ink_sigmoid8(__m256 x) {
    const __m256 half = _mm256_set1_ps(0.5f);
    return _mm256_fmadd_ps(half, ink_tanh8(_mm256_mul_ps(half, x)), half);
}

/// The cell, 8 units at a time: gates g (i, f, c̃, o blocks of H), state h and c in place, h to out.
static inline INK_AVX2 void ink_lstm_cell(int H, const float *g, float *h, float *c, float *out) {
    for (int j = 0; j < H; j += 8) {
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

#endif
