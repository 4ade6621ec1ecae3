// The NEON 8-bit kernels (Sources/_InkKernels/kernels_int8.c on aarch64) against the portable ones, on
// random shapes: run.sh cross-compiles this file with the kernels for aarch64 and runs it under qemu (no ARM
// machine needed). Exact where the kernels are meant to be: the quantized codes and scales, the integer sums,
// the projection's outputs, the recurrent gates, and the cell against a transcription of the Swift cell
// (`_lstmCell` in BidirectionalLSTM.swift, which the portable path runs): bit for bit. Exits 1 on a mismatch.
//
// Built with -ffp-contract=off: the reference cell below must not be fused (Swift does not fuse), whichever
// compiler builds it.
#include "_InkKernels.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0, checks = 0;

#define CHECK(cond, ...)                                  \
    do {                                                  \
        checks++;                                         \
        if (!(cond)) {                                    \
            if (failures++ < 20) {                        \
                printf("FAIL %s:%d: ", __FILE__, __LINE__); \
                printf(__VA_ARGS__);                      \
                printf("\n");                             \
            }                                             \
        }                                                 \
    } while (0)

// SplitMix64, as the Swift tests use.
static uint64_t rng_state = 1;
static uint64_t next64(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static int rand_int(int lo, int hi) { return lo + (int)(next64() % (uint64_t)(hi - lo + 1)); }
static float rand_float(float lo, float hi) { return lo + (hi - lo) * (float)((next64() >> 40) * 0x1.0p-24); }

static int same_bits(const float *a, const float *b, long n) { return memcmp(a, b, (size_t)n * sizeof(float)) == 0; }
static long count_differ(const float *a, const float *b, long n) {
    long d = 0;
    for (long i = 0; i < n; i++) d += memcmp(a + i, b + i, sizeof(float)) != 0;
    return d;
}
static int round_up(int v, int m) { return (v + m - 1) / m * m; }

// MARK: the projection

/// int8 weights over the whole range (−128 and 127 included) and rows of floats: a zero row, a row with values
/// on the half-code boundaries (round to even), rows of mixed magnitude (as Int8KernelTests.randomProblem).
static void random_problem(int m, int k, int n, int8_t *w, float *x) {
    for (long i = 0; i < (long)n * k; i++) w[i] = (int8_t)next64();
    w[0] = -128;
    if ((long)n * k > 1) w[(long)n * k - 1] = 127;
    for (long i = 0; i < (long)m * k; i++) x[i] = rand_float(-3, 3);
    if (m > 1)
        for (int i = 0; i < k; i++) x[k + i] = 0;
    if (m > 2) {
        for (int i = 0; i < k; i++) x[2 * k + i] = ((float)rand_int(-126, 126) + 0.5f) / 127;
        x[2 * k] = 1;  // scale 1/127 exactly: every other value on a boundary
    }
    if (m > 3) x[3 * k + rand_int(0, k - 1)] = 40;  // one large value: the rest of the row rounds to few codes
}

static void check_projection(int m, int k, int n, int ldc) {
    int8_t *w = malloc((size_t)n * k);
    float *x = malloc(sizeof(float) * (size_t)m * k);
    random_problem(m, k, n, w, x);

    // The portable quantizer's codes (bytes + 128, rows of k rounded up to 4) against the NEON one's (signed
    // bytes, rows of k rounded up to 2, pads 0).
    const int ldq4 = round_up(k, 4), ldq2 = round_up(k, 2);
    uint8_t *q = malloc((size_t)m * ldq4);
    int8_t *q2 = malloc((size_t)m * ldq2);
    float *s = malloc(sizeof(float) * m), *s2 = malloc(sizeof(float) * m);
    memset(q2, 99, (size_t)m * ldq2);
    ink_q8_quantize_rows(x, m, k, k, q, ldq4, s);
    ink_q8_quantize_rows_s8_neon(x, m, k, k, q2, ldq2, s2);
    CHECK(same_bits(s, s2, m), "%dx%dx%d: scales", m, k, n);
    long codes_differ = 0, pads = 0;
    for (int r = 0; r < m; r++) {
        for (int i = 0; i < k; i++) codes_differ += (int)q[(long)r * ldq4 + i] - 128 != q2[(long)r * ldq2 + i];
        for (int i = k; i < ldq2; i++) pads += q2[(long)r * ldq2 + i] != 0;
    }
    CHECK(codes_differ == 0 && pads == 0, "%dx%dx%d: %ld codes differ, %ld pads not 0", m, k, n, codes_differ, pads);

    // The integer sums, exact here: every scale 1 and bias 0 return them as floats (exact: |sum| ≤ 128 · 127 · k
    // < 2^24 for k ≤ 1000).
    int8_t *packed = malloc((size_t)ink_q8_pairs_packed_bytes(n, k));
    ink_q8_pack_pairs(w, n, k, packed);
    const int big = m > n ? m : n;
    float *ones = malloc(sizeof(float) * big), *zeros = calloc((size_t)n, sizeof(float));
    for (int i = 0; i < big; i++) ones[i] = 1;
    float *sums = malloc(sizeof(float) * (size_t)(m + 1) * n);  // a spare row of NaNs: not written
    for (long i = 0; i < (long)(m + 1) * n; i++) sums[i] = NAN;
    ink_q8_gemm_neon(m, n, k, q2, ldq2, ones, packed, ones, zeros, sums, n);
    long wrong = 0;
    for (int j = 0; j < n; j++) wrong += !isnan(sums[(long)m * n + j]);
    for (int r = 0; r < m; r++)
        for (int j = 0; j < n; j++) {
            int64_t acc = 0;
            for (int i = 0; i < k; i++) acc += (int64_t)q2[(long)r * ldq2 + i] * w[(long)j * k + i];
            wrong += sums[(long)r * n + j] != (float)acc;
        }
    CHECK(wrong == 0, "%dx%dx%d: %ld of %ld integer sums differ", m, k, n, wrong, (long)m * n);

    // With scales and biases, output rows of ldc (≥ n): the portable kernel's outputs bit for bit, nothing
    // written past column n of a row or past the last row (NaN sentinels).
    float *ws = malloc(sizeof(float) * n), *b = malloc(sizeof(float) * n);
    for (int j = 0; j < n; j++) ws[j] = rand_float(1e-4f, 2e-2f), b[j] = rand_float(-1, 1);
    const long total = (long)(m + 1) * ldc;
    float *yp = malloc(sizeof(float) * total), *yn = malloc(sizeof(float) * total);
    for (long i = 0; i < total; i++) yp[i] = yn[i] = NAN;
    ink_q8_gemm_portable(m, n, k, q, ldq4, s, w, ws, b, yp, ldc);
    ink_q8_gemm_neon(m, n, k, q2, ldq2, s2, packed, ws, b, yn, ldc);
    long differ = 0, outside = 0;
    for (int r = 0; r <= m; r++)
        for (int j = 0; j < ldc; j++) {
            const long at = (long)r * ldc + j;
            if (r < m && j < n) differ += memcmp(yp + at, yn + at, sizeof(float)) != 0;
            else outside += !isnan(yn[at]);
        }
    CHECK(differ == 0, "%dx%dx%d (ldc %d): %ld outputs differ from the portable kernel's", m, k, n, ldc, differ);
    CHECK(outside == 0, "%dx%dx%d (ldc %d): %ld values written outside the output", m, k, n, ldc, outside);

    free(w); free(x); free(q); free(q2); free(s); free(s2); free(packed); free(ones); free(zeros); free(sums);
    free(ws); free(b); free(yp); free(yn);
}

// MARK: the recurrent step

/// The Swift cell (`_tanh8`, `_sigmoid8`, `_lstmCell`), one value at a time, one operation a statement.
static float ref_tanh(float x) {
    if (x > 9) x = 9;
    if (x < -9) x = -9;
    const float x2 = x * x;
    float p = -2.76076847742355e-16f;
    p = p * x2; p = p + 2.00018790482477e-13f;
    p = p * x2; p = p - 8.60467152213735e-11f;
    p = p * x2; p = p + 5.12229709037114e-08f;
    p = p * x2; p = p + 1.48572235717979e-05f;
    p = p * x2; p = p + 6.37261928875436e-04f;
    p = p * x2; p = p + 4.89352455891786e-03f;
    p = p * x;
    float q = 1.19825839466702e-06f;
    q = q * x2; q = q + 1.18534705686654e-04f;
    q = q * x2; q = q + 2.26843463243900e-03f;
    q = q * x2; q = q + 4.89352518554385e-03f;
    return p / q;
}
static float ref_sigmoid(float x) {
    const float t = ref_tanh(0.5f * x);
    const float u = 0.5f * t;
    return u + 0.5f;
}
static void ref_cell(int H, const float *g, float *h, float *c, float *out) {
    for (int j = 0; j < H; j++) {
        const float i = ref_sigmoid(g[j]), f = ref_sigmoid(g[H + j]), cc = ref_tanh(g[2 * H + j]),
                    o = ref_sigmoid(g[3 * H + j]);
        const float fc = f * c[j], ic = i * cc;
        c[j] = fc + ic;
        h[j] = o * ref_tanh(c[j]);
        out[j] = h[j];
    }
}

static void check_recurrent(int H, int steps) {
    const int G = 4 * H;
    int8_t *w = malloc((size_t)G * H);
    for (long i = 0; i < (long)G * H; i++) w[i] = (int8_t)next64();
    w[0] = -128;
    w[1] = 127;
    int8_t *packed = malloc((size_t)ink_q8_pairs_packed_bytes(G, H));
    ink_q8_pack_pairs(w, G, H, packed);
    // h in (−1, 1) as the cell makes it, a few on the half-code boundaries and beyond ±1 (clamped to ±127).
    float *h = malloc(sizeof(float) * H);
    for (int i = 0; i < H; i++) h[i] = rand_float(-1, 1);
    h[0] = 0.5f / 127;
    h[1] = -2.5f / 127;
    h[2] = 1.25f;
    h[3] = -1.5f;

    // The integer sums: rscale 1 and gates 0 on entry leave float(Σ_k round(h[k] · 127) · W[j, k]).
    float *g = calloc((size_t)G, sizeof(float)), *ones = malloc(sizeof(float) * G);
    for (int j = 0; j < G; j++) ones[j] = 1;
    float *hh = malloc(sizeof(float) * H), *c = calloc((size_t)H, sizeof(float)), *out = malloc(sizeof(float) * H);
    memcpy(hh, h, sizeof(float) * H);
    ink_lstm_step_q8_neon(packed, ones, H, 1, g, hh, c, out);
    long wrong = 0;
    for (int j = 0; j < G; j++) {
        int64_t acc = 0;
        for (int i = 0; i < H; i++) {
            long v = lrintf(h[i] * 127.0f);
            v = v > 127 ? 127 : v < -127 ? -127 : v;
            acc += v * w[(long)j * H + i];
        }
        wrong += g[j] != (float)acc;
    }
    CHECK(wrong == 0, "H %d: %ld of %d integer sums differ", H, wrong, G);

    // `steps` steps with scales, gates on entry and the state carried over (as the network runs them): the
    // portable product and the Swift cell, against the NEON step; gates, h, c and out bit for bit. The cell
    // sees gates beyond the clamp (±9 and more).
    float *rscale = malloc(sizeof(float) * G);
    for (int j = 0; j < G; j++) rscale[j] = rand_float(1e-4f, 2e-2f) / 127;
    float *hp = malloc(sizeof(float) * H), *cp = malloc(sizeof(float) * H), *op = malloc(sizeof(float) * H);
    float *hn = malloc(sizeof(float) * H), *cn = malloc(sizeof(float) * H), *on = malloc(sizeof(float) * H);
    float *gp = malloc(sizeof(float) * G), *gn = malloc(sizeof(float) * G);
    for (int i = 0; i < H; i++) cp[i] = cn[i] = rand_float(-2, 2);
    memcpy(hp, h, sizeof(float) * H);
    memcpy(hn, h, sizeof(float) * H);
    for (int t = 0; t < steps; t++) {
        const int with_recurrent = t > 0 || H % 16 == 0;  // the first step without the product, for some H
        for (int j = 0; j < G; j++) gp[j] = gn[j] = rand_float(-12, 12);
        if (with_recurrent) ink_lstm_recurrent_q8_portable(w, rscale, H, hp, gp);
        ref_cell(H, gp, hp, cp, op);
        ink_lstm_step_q8_neon(packed, rscale, H, with_recurrent, gn, hn, cn, on);
        CHECK(same_bits(gp, gn, G), "H %d, step %d: %ld of %d gates differ", H, t, count_differ(gp, gn, G), G);
        CHECK(same_bits(hp, hn, H) && same_bits(cp, cn, H) && same_bits(op, on, H),
              "H %d, step %d: the cell differs (h %ld, c %ld, out %ld of %d)", H, t, count_differ(hp, hn, H),
              count_differ(cp, cn, H), count_differ(op, on, H), H);
        if (!same_bits(hp, hn, H)) memcpy(hn, hp, sizeof(float) * H), memcpy(cn, cp, sizeof(float) * H);
    }
    free(w); free(packed); free(h); free(g); free(ones); free(hh); free(c); free(out); free(rscale);
    free(hp); free(cp); free(op); free(hn); free(cn); free(on); free(gp); free(gn);
}

int main(int argc, char **argv) {
    rng_state = argc > 1 ? strtoull(argv[1], NULL, 10) : 20261127;
    if (!ink_kernels_neon_available()) {
        printf("neon_kernels_test: ink_kernels_neon_available() is 0 (not an aarch64 build)\n");
        return 1;
    }
    // The network's shapes (k 384 and 192 by n 768 and 261; the CJK head), the Swift tests' shapes, then random
    // ones: m 1..37, k 1..1000 and n 1..300, most off the multiples of 2, 4, 8 and 16.
    static const int shapes[][3] = {
        {1, 1, 1}, {2, 2, 1}, {3, 5, 7}, {5, 17, 9}, {7, 33, 25}, {4, 96, 384}, {9, 100, 261}, {6, 191, 23},
        {13, 385, 770}, {1, 4, 3}, {36, 384, 768}, {11, 192, 261}, {4, 63, 47}, {8, 31, 8}, {3, 1000, 17},
        {37, 6, 16}, {2, 384, 1200},
    };
    int projections = 0;
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++, projections++)
        check_projection(shapes[i][0], shapes[i][1], shapes[i][2], shapes[i][2]);
    for (int t = 0; t < 120; t++, projections++) {
        const int m = rand_int(1, 37), k = t < 60 ? rand_int(1, 64) : rand_int(1, 1000), n = rand_int(1, 300);
        check_projection(m, k, n, t % 3 == 0 ? n + rand_int(1, 9) : n);
    }
    // Hidden sizes: multiples of 8 from 8 to 192 (the kernel's condition), every one.
    int recurrent = 0;
    for (int H = 8; H <= 192; H += 8, recurrent++) check_recurrent(H, H <= 64 ? 12 : 4);
    printf("neon_kernels_test: %d projection shapes, %d hidden sizes, %d checks, %d failed\n", projections, recurrent,
           checks, failures);
    return failures == 0 ? 0 : 1;
}
