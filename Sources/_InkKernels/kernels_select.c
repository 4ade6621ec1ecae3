#include "_InkKernels.h"

#include <math.h>
#include <string.h>

#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#define INK_X86 1
#endif

int ink_indices_above(const float *x, int n, float floor, int32_t *out) {
    int count = 0;
    for (int i = 0; i < n; i++)
        if (x[i] > floor) out[count++] = i;
    return count;
}

int ink_all_finite(const float *x, long n) {
    // Branch-free, so that the compiler vectorizes it: an exponent of all ones is an infinity or a NaN.
    uint32_t bad = 0;
    for (long i = 0; i < n; i++) {
        uint32_t b;
        memcpy(&b, x + i, sizeof b);
        bad |= (b & 0x7F800000u) == 0x7F800000u;
    }
    return bad == 0;
}

int ink_first_max_index(const float *x, int n, int skip) {
    int best = -1;
    float m = -INFINITY;
    for (int i = 0; i < n; i++)
        if (i != skip && x[i] > m) { m = x[i]; best = i; }
    return best;
}

#if INK_X86
__attribute__((target("avx512f")))
int ink_first_max_index_avx512(const float *x, int n, int skip) {
    // The largest value (NaNs never win: _mm512_max_ps returns its second operand when either is NaN),
    // then the first index that holds it: the same index as the scalar loop's strict comparisons.
    const __m512 minf = _mm512_set1_ps(-INFINITY);
    __m512 acc = minf;
    for (int i = 0; i < n; i += 16) {
        const int left = n - i;
        __mmask16 lanes = left >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << left) - 1);
        if (skip >= i && skip < i + 16) lanes &= (__mmask16)~(1u << (skip - i));
        acc = _mm512_max_ps(_mm512_mask_loadu_ps(minf, lanes, x + i), acc);
    }
    const float m = _mm512_reduce_max_ps(acc);
    if (!(m > -INFINITY)) return -1;
    const __m512 mv = _mm512_set1_ps(m);
    for (int i = 0; i < n; i += 16) {
        const int left = n - i;
        __mmask16 lanes = left >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << left) - 1);
        if (skip >= i && skip < i + 16) lanes &= (__mmask16)~(1u << (skip - i));
        const __mmask16 eq = _mm512_mask_cmp_ps_mask(lanes, _mm512_maskz_loadu_ps(lanes, x + i), mv, _CMP_EQ_OQ);
        if (eq) return i + __builtin_ctz((unsigned)eq);
    }
    return -1;
}

__attribute__((target("avx512f")))
int ink_indices_above_avx512(const float *x, int n, float floor, int32_t *out) {
    const __m512 f = _mm512_set1_ps(floor);
    __m512i idx = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512i step = _mm512_set1_epi32(16);
    int count = 0;
    for (int i = 0; i < n; i += 16) {
        const int left = n - i;
        const __mmask16 lanes = left >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << left) - 1);
        // Ordered greater-than: false for NaN, as `x[i] > floor` in C and Swift.
        const __mmask16 m = _mm512_mask_cmp_ps_mask(lanes, _mm512_maskz_loadu_ps(lanes, x + i), f, _CMP_GT_OQ);
        if (m) {
            // Compressed in a register and stored whole (a compressing store to memory is microcoded and
            // slow on some CPUs): up to 16 slots past the last index are written.
            _mm512_storeu_si512((void *)(out + count), _mm512_maskz_compress_epi32(m, idx));
            count += __builtin_popcount((unsigned)m);
        }
        idx = _mm512_add_epi32(idx, step);
    }
    return count;
}
#else
int ink_indices_above_avx512(const float *x, int n, float floor, int32_t *out) {
    // Never called: ink_kernels_avx512_available() is 0 here.
    return ink_indices_above(x, n, floor, out);
}

int ink_first_max_index_avx512(const float *x, int n, int skip) {
    // Never called: ink_kernels_avx512_available() is 0 here.
    return ink_first_max_index(x, n, skip);
}
#endif
