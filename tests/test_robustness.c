// Unit tests of the harness's defences (issue 13), without an OpenCL device: the normwise check,
// the sampled reference, the range of alpha and beta, the memory plan, one-line messages, white
// space in option values, the fault handler of fenced buffers and of crashes, and the watchdog.
// Run one group: test_robustness <group>.
#define _GNU_SOURCE /* fork, waitpid, pipe, MAP_ANONYMOUS, MAP_NORESERVE */
#include <float.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gemm_exact.h"
#include "gemm_memory.h"
#include "gemm_options.h"
#include "gemm_verify.h"
#include "gemm_watchdog.h"
#include "test_groups.h"

/* What a correct kernel computes: each dot product summed in float, in order. */
static void float_gemm(const gemm_host_data *d, float *c)
{
    for (long i = 0; i < d->m; i++)
        for (long j = 0; j < d->n; j++) {
            float acc = 0.0f;
            for (long p = 0; p < d->k; p++)
                acc += d->a[i * d->k + p] * d->b[p * d->n + j];
            c[i * d->n + j] = d->beta == 0.0f ? d->alpha * acc : d->alpha * acc + d->beta * d->c0[i * d->n + j];
        }
}

// The element-wise worst-case bound lets a kernel that writes zeros pass at large K; the normwise
// check fails it, and a correct float computation passes both (gemm_verify.h).
static void test_normwise(void)
{
    const long ks[] = {262144, 1000000}; /* where the worst-case bound exceeds every element's result */
    for (size_t t = 0; t < sizeof ks / sizeof ks[0]; t++) {
        gemm_host_data d;
        gemm_reference ref;
        gemm_msg msg;
        gemm_check c;
        const long m = 3, n = 2, k = ks[t];
        CHECK(gemm_host_data_create(&d, m, n, k, 1.0, 0.0, GEMM_DATA_SPREAD, GEMM_DEFAULT_SEED, &msg) == 0);
        CHECK(gemm_reference_compute(&d, 0, &ref, &msg) == 0);
        float got[6];
        float_gemm(&d, got);
        gemm_check_result(got, &ref, &c);
        CHECK(c.pass && c.bad == 0 && c.normwise_pass && c.normwise_ratio < 0.5 && c.checked == 6);
        for (int i = 0; i < 6; i++)
            got[i] = 0.0f;
        gemm_check_result(got, &ref, &c);
        CHECK(c.bad == 0);                                  // the worst-case bound is fooled ...
        CHECK(!c.normwise_pass && !c.pass && c.normwise > 0.99 && c.normwise < 1.01); // ... the normwise one is not
        // half of the K loop left out
        for (long i = 0; i < m * n; i++) {
            double half = 0.0;
            for (long p = 0; p < k / 2; p++)
                half += (double)d.a[(i / n) * k + p] * d.b[p * n + i % n];
            got[i] = (float)half;
        }
        gemm_check_result(got, &ref, &c);
        CHECK(!c.pass && !c.normwise_pass && c.normwise_ratio > 100.0);
        gemm_reference_free(&ref);
        gemm_host_data_free(&d);
    }
    // beta != 0: the bound scales with ||alpha*A*B|| + ||beta*C0||, never with a cancelled ||ref||
    gemm_host_data d;
    gemm_reference ref;
    gemm_msg msg;
    gemm_check c;
    CHECK(gemm_host_data_create(&d, 4, 5, 3, -1.5, 0.25, GEMM_DATA_SPREAD, 7, &msg) == 0);
    CHECK(gemm_reference_compute(&d, 0, &ref, &msg) == 0);
    CHECK(ref.norm_ab > 0.0 && ref.norm_c > 0.0);
    float got[20];
    float_gemm(&d, got);
    gemm_check_result(got, &ref, &c);
    CHECK(c.pass);
    for (int i = 0; i < 20; i++) // beta*C alone: the product is missing
        got[i] = 0.25f * d.c0[i];
    gemm_check_result(got, &ref, &c);
    CHECK(!c.normwise_pass);
    got[3] = NAN; // any NaN makes it infinite
    gemm_check_result(got, &ref, &c);
    CHECK(!c.pass && isinf(c.normwise) && c.nonfinite == 1);
    gemm_reference_free(&ref);
    gemm_host_data_free(&d);
    CHECK(gemm_normwise_bound(4000000) == GEMM_NORMWISE_C * 2000.0 * FLT_EPSILON);
}

// The reference is exact wherever double is: integer data whose partial sums float would round
// (2^24 + 1 is 2^24 in float), over K = 130, three of the portable loop's blocks of 64 (a reference
// summed in float, or one that left out the last product of K, passed every other test: its error
// hides within a kernel's tolerance), in full and sampled (65 x 66, more lines than the sample).
// Row i of A: 2^24, 128 ones, -2^24; B: ones, its last row j%3 + 1 in column j.
static double exact_value(long j) { return 16777216.0 + 128.0 - 16777216.0 * (double)(j % 3 + 1); }
static double exact_magnitude(long j) { return 16777216.0 + 128.0 + 16777216.0 * (double)(j % 3 + 1); }

static void test_exact(void)
{
    const long k = 130, sizes[2][2] = {{3, 2}, {65, 66}};
    for (int t = 0; t < 2; t++) {
        const long m = sizes[t][0], n = sizes[t][1];
        gemm_host_data d;
        gemm_reference ref;
        gemm_msg msg;
        CHECK(gemm_host_data_create(&d, m, n, k, -0.5, 0.0, GEMM_DATA_SPREAD, 1, &msg) == 0);
        for (long i = 0; i < m; i++)
            for (long p = 0; p < k; p++)
                d.a[i * k + p] = p == 0 ? 16777216.0f : p == k - 1 ? -16777216.0f : 1.0f;
        for (long p = 0; p < k; p++)
            for (long j = 0; j < n; j++)
                d.b[p * n + j] = p == k - 1 ? (float)(j % 3 + 1) : 1.0f;
        CHECK(gemm_reference_compute(&d, GEMM_SAMPLE_LINES, &ref, &msg) == 0 && ref.sampled == (t == 1));
        int exact = 1;
        if (!ref.sampled) {
            for (long i = 0; i < m * n; i++)
                exact &= ref.value[i] == -0.5 * exact_value(i % n) && ref.magnitude[i] == 0.5 * exact_magnitude(i % n);
        } else {
            const long s = ref.nrows;
            for (long r = 0; r < s; r++) // the sampled rows, whole
                for (long j = 0; j < n; j++)
                    exact &= ref.value[r * n + j] == -0.5 * exact_value(j) &&
                             ref.magnitude[r * n + j] == 0.5 * exact_magnitude(j);
            for (long i = 0; i < m; i++) // the sampled columns, every row
                for (long c = 0; c < ref.ncols; c++) {
                    const long at = s * n + i * ref.ncols + c, j = ref.cols[c];
                    exact &= ref.value[at] == -0.5 * exact_value(j) && ref.magnitude[at] == 0.5 * exact_magnitude(j);
                }
        }
        CHECK(exact);
        if (!exact)
            fprintf(stderr, "exact: %ldx%ldx%ld (%s): reference %.17g, expected %.17g\n", m, n, k,
                    gemm_reference_method(), ref.value[0], -0.5 * exact_value(ref.sampled ? 0 : 0));
        gemm_reference_free(&ref);
        gemm_host_data_free(&d);
    }
}

// The precision check's data (gemm_exact.h), against the claims docs/harness.md derives, computed
// here on the host: every order of float multiply-adds, with or without fused ones, and step 11's
// three products of TF32 halves (hi rounded to nearest, ties away; lo cut to TF32 as the tensor
// cores read it; lo*lo left out) give the exact answer; A or B rounded to TF32 (to nearest or cut),
// to half or to bfloat16 (to nearest even), hi*lo or lo*hi left out, or every a below 1e-3 skipped,
// give a smaller magnitude at every element that has a term of the kind touched (and never a larger
// one, nor the other sign, at any element).
typedef float (*round_fn)(float);
static float bits_to_float(uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}
static uint32_t float_bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}
static float keep_rna(float x, int drop) /* to nearest, ties away, keeping all but the low `drop` bits */
{
    return bits_to_float((float_bits(x) + (1u << (drop - 1))) & ~((1u << drop) - 1u));
}
static float keep_rne(float x, int drop) /* to nearest, ties to even */
{
    const uint32_t u = float_bits(x), half = 1u << (drop - 1), low = u & ((1u << drop) - 1u);
    const uint32_t up = low > half || (low == half && (u >> drop & 1u));
    return bits_to_float((u & ~((1u << drop) - 1u)) + (up << drop));
}
static float tf32_rna(float x) { return keep_rna(x, 13); }
static float tf32_cut(float x) { return bits_to_float(float_bits(x) & 0xffffe000u); }
static float bf16_rne(float x) { return keep_rne(x, 16); }
static float half_rne(float x) /* to nearest even, with half's range: subnormal steps of 2^-24 below 2^-14 */
{
    return fabsf(x) >= 0x1p-14f ? keep_rne(x, 13) : (float)(nearbyint((double)x * 0x1p24) * 0x1p-24);
}
static float unrounded(float x) { return x; }

enum precision_variant { ORDER_BACKWARD, ORDER_FMA, STEP11, ROUND_A, ROUND_B, NO_HI_LO, NO_LO_HI, SKIP_SMALL };

/* Element (i, j) of alpha*A*B + beta*C0 in float as one variant computes it */
static float precision_element(const gemm_host_data *d, long i, long j, enum precision_variant v, round_fn r)
{
    float acc = 0.0f;
    for (long q = 0; q < d->k; q++) {
        const long p = v == ORDER_BACKWARD ? d->k - 1 - q : q;
        float a = d->a[i * d->k + p], b = d->b[p * d->n + j];
        if (v == ROUND_A)
            a = r(a);
        if (v == ROUND_B)
            b = r(b);
        if (v == SKIP_SMALL && fabsf(a) < 1e-3f)
            continue;
        if (v == ORDER_FMA) {
            acc = fmaf(a, b, acc);
        } else if (v == STEP11 || v == NO_HI_LO || v == NO_LO_HI) {
            const float ah = tf32_rna(a), bh = tf32_rna(b), al = tf32_cut(a - ah), bl = tf32_cut(b - bh);
            acc += (v == NO_LO_HI ? 0.0f : al * bh) + (v == NO_HI_LO ? 0.0f : ah * bl) + ah * bh;
        } else {
            acc += a * b;
        }
    }
    const float c = d->beta == 0.0f ? 0.0f : d->beta * (v == ROUND_A || v == ROUND_B ? r(d->c0[i * d->n + j]) : d->c0[i * d->n + j]);
    return d->alpha * acc + c;
}

static void test_precision(void)
{
    const long sizes[][3] = {{1, 1, 1}, {3, 5, 2}, {7, 9, 300}, {2, 3, 70001}};
    const double scalars[][2] = {{1.0, 0.0}, {-1.5, 0.25}, {0.5, -2.0}};
    const round_fn rounders[] = {tf32_rna, tf32_cut, bf16_rne, half_rne};
    for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++)
        for (size_t s = 0; s < sizeof scalars / sizeof scalars[0]; s++) {
            const long m = sizes[t][0], n = sizes[t][1], k = sizes[t][2];
            gemm_host_data d;
            gemm_msg msg;
            gemm_exact x;
            CHECK(gemm_host_data_create(&d, m, n, k, scalars[s][0], scalars[s][1], GEMM_DATA_SPREAD, 5, &msg) == 0);
            gemm_precision_data_fill(&d, scalars[s][0], scalars[s][1], 5, &x);
            float *want = malloc((size_t)(m * n) * sizeof *want);
            memcpy(want, d.c0, (size_t)(m * n) * sizeof *want);
            gemm_host_data e = d;
            e.c0 = want;
            gemm_exact_expected(&e); /* the harness's expected answer, in place */
            int exact = 1, lowered = 1, b_precise = 0;
            for (long i = 0; i < m; i++)
                for (long j = 0; j < n; j++) {
                    const float w = want[i * n + j];
                    exact &= w == precision_element(&d, i, j, ORDER_BACKWARD, unrounded) &&
                             w == precision_element(&d, i, j, ORDER_FMA, unrounded) &&
                             w == precision_element(&d, i, j, STEP11, unrounded);
                    /* which kinds of index this element's terms have: A's (A precise) and B's */
                    int has_a = 0, has_b = 0;
                    for (long p = 0; p < k; p++)
                        if (d.a[i * k + p] != 0.0f) {
                            const int a_precise = tf32_cut(d.a[i * k + p]) != d.a[i * k + p];
                            has_a |= a_precise;
                            has_b |= !a_precise;
                        }
                    b_precise |= has_b;
                    const int wrong[] = {has_a, has_b, has_b, has_a, has_b};
                    const enum precision_variant variants[] = {ROUND_A, ROUND_B, NO_HI_LO, NO_LO_HI, SKIP_SMALL};
                    for (int v = 0; v < 5; v++)
                        for (size_t f = 0; f < (v < 2 ? sizeof rounders / sizeof rounders[0] : 1); f++) {
                            /* never larger, never of the other sign; smaller where a term of the kind is */
                            const float got = precision_element(&d, i, j, variants[v], rounders[f]);
                            lowered &= (wrong[v] ? fabsf(got) < fabsf(w) : fabsf(got) <= fabsf(w)) &&
                                       (got == 0.0f || (got < 0.0f) == (w < 0.0f));
                        }
                }
            CHECK(exact && lowered && (k == 1 || b_precise));
            if (!(exact && lowered))
                fprintf(stderr, "precision: %ldx%ldx%ld alpha=%g beta=%g: exact %d, lowered %d\n", m, n, k, scalars[s][0],
                        scalars[s][1], exact, lowered);
            free(want);
            gemm_host_data_free(&d);
        }
}

// A sampled reference: the same values as the full one where it has them; an error in a sampled
// row or column is found, one elsewhere only if it is NaN or Inf.
static void test_sample(void)
{
    gemm_host_data d;
    gemm_reference full, part;
    gemm_msg msg;
    gemm_check c;
    const long m = 150, n = 130, k = 40, s = GEMM_SAMPLE_LINES;
    CHECK(gemm_host_data_create(&d, m, n, k, 0.5, 2.0, GEMM_DATA_SPREAD, 11, &msg) == 0);
    CHECK(gemm_reference_compute(&d, 0, &full, &msg) == 0 && !full.sampled);
    CHECK(gemm_reference_compute(&d, s, &part, &msg) == 0 && part.sampled);
    CHECK(part.nrows == s && part.ncols == s && part.rows[0] == 0 && part.rows[s - 1] == m - 1 &&
          part.cols[0] == 0 && part.cols[s - 1] == n - 1);
    int same = 1;
    for (long r = 0; r < s; r++)
        for (long j = 0; j < n; j++) {
            const size_t i = (size_t)part.rows[r] * (size_t)n + (size_t)j;
            same &= fabs(part.value[r * n + j] - full.value[i]) <= 1e-12 * (1.0 + fabs(full.value[i]));
            same &= fabs(part.magnitude[r * n + j] - full.magnitude[i]) <= 1e-12 * (1.0 + full.magnitude[i]);
        }
    for (long i = 0; i < m; i++)
        for (long cc = 0; cc < s; cc++) {
            const size_t e = (size_t)i * (size_t)n + (size_t)part.cols[cc];
            same &= fabs(part.value[s * n + i * s + cc] - full.value[e]) <= 1e-12 * (1.0 + fabs(full.value[e]));
        }
    CHECK(same);
    float *got = malloc((size_t)m * (size_t)n * sizeof(float));
    float_gemm(&d, got);
    gemm_check_result(got, &part, &c);
    const size_t expect = (size_t)s * (size_t)n + (size_t)(m - s) * (size_t)s; // rows, then the columns of the other rows
    CHECK(c.pass && c.checked == expect && c.total == (size_t)(m * n));
    CHECK(fabs(part.norm_ab * part.norm_ab + part.norm_c * part.norm_c) > 0.0);
    // the norms of the normwise check: over the compared elements, each once (those in a sampled
    // row and a sampled column counted twice passed every other test)
    double ab2 = 0.0, c2 = 0.0;
    for (long i = 0, r = 0; i < m; i++) {
        const int whole = r < s && part.rows[r] == i;
        r += whole;
        for (long j = 0, cc = 0; j < n; j++) {
            const int in_col = cc < s && part.cols[cc] == j;
            cc += in_col;
            if (!whole && !in_col)
                continue;
            const double cv = (double)d.beta * (double)d.c0[i * n + j], ab = full.value[i * n + j] - cv;
            ab2 += ab * ab;
            c2 += cv * cv;
        }
    }
    CHECK(fabs(part.norm_ab - sqrt(ab2)) <= 1e-9 * sqrt(ab2) && fabs(part.norm_c - sqrt(c2)) <= 1e-9 * sqrt(c2));
    // find a row and a column outside the sample
    long row = -1, col = -1;
    for (long i = 0, r = 0; i < m && row < 0; i++) {
        if (r < s && part.rows[r] == i)
            r++;
        else
            row = i;
    }
    for (long j = 0, cc = 0; j < n && col < 0; j++) {
        if (cc < s && part.cols[cc] == j)
            cc++;
        else
            col = j;
    }
    CHECK(row >= 0 && col >= 0);
    const float keep = got[row * n + col];
    got[row * n + col] = keep + 100.0f; // outside the sample: not seen
    gemm_check_result(got, &part, &c);
    CHECK(c.pass);
    got[row * n + col] = NAN; // but a NaN is seen anywhere
    gemm_check_result(got, &part, &c);
    CHECK(!c.pass && c.nonfinite == 1 && c.first_bad_row == row && c.first_bad_col == col);
    got[row * n + col] = keep;
    got[row * n + part.cols[1]] += 100.0f; // in a sampled column
    gemm_check_result(got, &part, &c);
    CHECK(!c.pass && c.bad == 1 && c.first_bad_row == row && c.first_bad_col == part.cols[1]);
    free(got);
    // no sample of a matrix that has no more rows (or columns) than the sample
    gemm_reference small;
    gemm_host_data_free(&d);
    CHECK(gemm_host_data_create(&d, 40, 200, 8, 1.0, 0.0, GEMM_DATA_SPREAD, 11, &msg) == 0);
    CHECK(gemm_reference_compute(&d, s, &small, &msg) == 0 && !small.sampled);
    CHECK(gemm_reference_bytes(40, 200, 8, s) == gemm_reference_bytes(40, 200, 8, 0));
    CHECK(gemm_reference_bytes(8192, 8192, 32, s) < gemm_reference_bytes(8192, 8192, 32, 0) / 30);
    gemm_reference_free(&small);
    gemm_reference_free(&full);
    gemm_reference_free(&part);
    gemm_host_data_free(&d);
}

// alpha and beta: refused where a correct float result could overflow or leave the normal range
static void test_scalars(void)
{
    gemm_msg msg;
    CHECK(gemm_check_scalars(64, 1.0, 0.0, &msg) == 0);
    CHECK(gemm_check_scalars(64, 0.0, 0.0, &msg) == 0);
    CHECK(gemm_check_scalars(80, 1e36, 0.0, &msg) == 0);         // 8e37 <= FLT_MAX/2
    CHECK(gemm_check_scalars(80, 3e38, 0.0, &msg) == GEMM_EXIT_BAD_INPUT && strstr(msg.text, "overflow"));
    CHECK(gemm_check_scalars(1, 1.7e38, 0.0, &msg) == 0);
    CHECK(gemm_check_scalars(1, 1.7e38, 1e37, &msg) == GEMM_EXIT_BAD_INPUT);
    CHECK(gemm_check_scalars(64, 1e-44, 0.0, &msg) == GEMM_EXIT_BAD_INPUT && strstr(msg.text, "alpha=1e-44") &&
          strstr(msg.text, "2^-80"));
    CHECK(gemm_check_scalars(64, ldexp(1.0, -80), 0.0, &msg) == 0);
    CHECK(gemm_check_scalars(64, -ldexp(1.0, -81), 0.0, &msg) == GEMM_EXIT_BAD_INPUT);
    CHECK(gemm_check_scalars(64, 0.0, 1e-44, &msg) == GEMM_EXIT_BAD_INPUT && strstr(msg.text, "beta=1e-44") &&
          strstr(msg.text, "2^-103"));
    CHECK(gemm_check_scalars(64, 0.0, ldexp(1.0, -103), &msg) == 0);
    CHECK(gemm_check_scalars(64, 1.0, 1e-31, &msg) == 0); // 1e-31 >= 2^-103: every beta*c is normal
    CHECK(gemm_check_scalars(64, 1.0, 1e-38, &msg) == GEMM_EXIT_BAD_INPUT);
}

// The memory plan, with the limits given rather than read
static void test_memory(void)
{
    gemm_memory_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.physical = 64.0 * 1073741824.0;
    strcpy(lim.physical_from, "MemAvailable");
    lim.address_limit = INFINITY;
    gemm_memory_use use = {0};
    use.host = 4.0 * 1048576.0;
    use.driver_loaded = 1;
    use.blas = 1;
    long sample = -1;
    char why[256];
    gemm_msg msg;
    CHECK(gemm_memory_plan(&lim, &use, 1024, 1024, 1024, 1, &sample, why, sizeof why, &msg) == 0 && sample == 0);
    // too long for a full reference: a sample, and why
    CHECK(gemm_memory_plan(&lim, &use, 16384, 16384, 16384, 1, &sample, why, sizeof why, &msg) == 0 &&
          sample == GEMM_SAMPLE_LINES && strstr(why, "too long"));
    // 8192 x 8192 x 32: the full reference (1 GiB) does not fit in 1.5 GiB beside 1 GiB of the rest
    use.host = 0.75 * 1073741824.0;
    use.device = 0.25 * 1073741824.0;
    lim.physical = 1.5 * 1073741824.0;
    CHECK(gemm_memory_plan(&lim, &use, 8192, 8192, 32, 1, &sample, why, sizeof why, &msg) == 0 &&
          sample == GEMM_SAMPLE_LINES && strstr(why, "MemAvailable"));
    // ... without verification, nothing to sample
    CHECK(gemm_memory_plan(&lim, &use, 8192, 8192, 32, 0, &sample, why, sizeof why, &msg) == 0 && sample == 0);
    // not even the rest fits: refused, with the figures and the limit named
    lim.physical = 0.5 * 1073741824.0;
    CHECK(gemm_memory_plan(&lim, &use, 8192, 8192, 32, 1, &sample, why, sizeof why, &msg) == GEMM_EXIT_BAD_INPUT);
    CHECK(strstr(msg.text, "not enough memory for 8192x8192x32") && strstr(msg.text, "MemAvailable leaves 0.50 GiB") &&
          strstr(msg.text, "matrices and result 0.75"));
    // an address-space limit: what is mapped already counts, and so do reserved pages
    lim.physical = 64.0 * 1073741824.0;
    lim.address_limit = 2.0 * 1073741824.0;
    lim.address_used = 0.5 * 1073741824.0;
    strcpy(lim.address_from, "RLIMIT_AS (ulimit -v)");
    CHECK(gemm_memory_plan(&lim, &use, 8192, 8192, 32, 1, &sample, why, sizeof why, &msg) == 0 &&
          sample == GEMM_SAMPLE_LINES && strstr(why, "RLIMIT_AS"));
    use.reserved = 1.0 * 1073741824.0;
    CHECK(gemm_memory_plan(&lim, &use, 8192, 8192, 32, 1, &sample, why, sizeof why, &msg) == GEMM_EXIT_BAD_INPUT);
    CHECK(strstr(msg.text, "of address space") && strstr(msg.text, "RLIMIT_AS (ulimit -v) allows 2.00 GiB") &&
          strstr(msg.text, "mapped already 0.50"));
    CHECK(gemm_memory_driver_reserve() >= 400.0 * 1048576.0);
}

// Messages stay one printable line: C0, DEL, C1 (U+009B, the one-character CSI) and non-UTF-8 bytes
static void test_printable(void)
{
    gemm_msg msg;
    gemm_msgf(&msg, 2, "unknown option '%s'", "--fa\xc2\x9bst");
    CHECK(strcmp(msg.text, "unknown option '--fa?st'") == 0);
    gemm_msgf(&msg, 2, "[%s]", "a\nb\tc\x1b[31md\x7f");
    CHECK(strcmp(msg.text, "[a?b?c?[31md?]") == 0);
    gemm_msgf(&msg, 2, "[%s]", "\xff\x9b\xc2"); // not UTF-8: a lone continuation, a cut sequence
    CHECK(strcmp(msg.text, "[???]") == 0);
    gemm_msgf(&msg, 2, "[%s]", "caf\xc3\xa9 \xe2\x82\xac \xc2\xa0"); // UTF-8 text stays: é, €, no-break space
    CHECK(strcmp(msg.text, "[caf\xc3\xa9 \xe2\x82\xac \xc2\xa0]") == 0);
    gemm_msgf(&msg, 2, "[%s]", "\xed\xa0\x80\xc0\xaf"); // a surrogate and an overlong '/'
    CHECK(strcmp(msg.text, "[?????]") == 0);
}

static int parse_error(const char *const *args)
{
    char *argv[16] = {"prog"};
    int argc = 1;
    for (; args[argc - 1]; argc++)
        argv[argc] = (char *)args[argc - 1];
    gemm_options opt;
    gemm_msg msg;
    return gemm_options_parse(&opt, argc, argv, &msg) == GEMM_PARSE_ERROR;
}
#define REFUSED(...) parse_error((const char *const[]){__VA_ARGS__, NULL})

// White space around a value is refused for every option, as it always was for the sizes
static void test_whitespace(void)
{
    CHECK(REFUSED("--size", " 4"));
    CHECK(REFUSED("--repeat", " 2"));
    CHECK(REFUSED("--repeat", "2 "));
    CHECK(REFUSED("--warmup", "\t1"));
    CHECK(REFUSED("-D", "TS= 16"));
    CHECK(REFUSED("-D", "TS=16 "));
    CHECK(REFUSED("--alpha", " 1"));
    CHECK(REFUSED("--beta", "\n0.5"));
    CHECK(REFUSED("--seed", " 3"));
    CHECK(!REFUSED("--repeat", "2", "--warmup", "1", "-D", "TS=16", "--alpha", "-1.5", "--beta", "+0.5"));
}

// Runs body() in a child process with its stderr into out (cut at len); its status in *status and
// the seconds it took in *seconds. The fault handler and the watchdog end the process they are in.
static void in_child(void (*body)(void), int *status, char *out, size_t len, double *seconds)
{
    int fds[2];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    CHECK(pipe(fds) == 0);
    const pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], STDERR_FILENO);
        body();
        _exit(8); /* body() was to end the process */
    }
    close(fds[1]);
    size_t got = 0;
    ssize_t r;
    while ((r = read(fds[0], out + got, len - 1 - got)) > 0)
        got += (size_t)r;
    out[got] = '\0';
    close(fds[0]);
    *status = 0;
    waitpid(pid, status, 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (seconds)
        *seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
}

// Like in_child(), then checks the exit code and that stderr holds want (else prints it)
static void expect_child(void (*body)(void), int code, const char *want)
{
    char out[2048];
    int status;
    in_child(body, &status, out, sizeof out, NULL);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == code);
    CHECK(strstr(out, want) != NULL);
    if (!strstr(out, want) || !WIFEXITED(status) || WEXITSTATUS(status) != code)
        fprintf(stderr, "child (status %#x) said: %s\nexpected exit %d and: %s\n", status, out, code, want);
}

static void fence_fault(void)
{
    gemm_set_program_name("fence_test");
    gemm_fenced f;
    gemm_msg msg;
    if (gemm_fenced_alloc(&f, 1000 * sizeof(float), 1 << 20, &msg) != 0)
        _exit(9);
    float *matrix = (float *)f.usable + 16; /* 16 floats of guard before the matrix */
    gemm_fault_watch(0, &f, "C", matrix, 1000);
    gemm_fault_install();
    matrix[16 - 1] = 1.0f;             /* the usable part: no fault */
    volatile float *wild = matrix - 16 - 300;
    *wild = 2.0f;                      /* 300 floats before the usable part */
}

// Two buffers side by side, as mmap lays them out, X with 16 pages of fence and Y with 256: a
// fault in Y's pages 4 pages past X's is named after X, the nearer, at its index (page / 4 floats
// each, with no guard: 21 pages from X's start)
static size_t page_floats;
static void fence_nearest(void)
{
    gemm_set_program_name("fence_test");
    const size_t page = gemm_page_size(), small = 16 * page, big = 256 * page;
    char *base = mmap(NULL, 2 * small + 2 * big + 2 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
                      0);
    if (base == MAP_FAILED)
        _exit(9);
    gemm_fenced x = {base, 2 * small + page, base + small, page, small};
    gemm_fenced y = {base + 2 * small + page, 2 * big + page, base + 2 * small + page + big, page, big};
    if (mprotect(x.usable, page, PROT_READ | PROT_WRITE) || mprotect(y.usable, page, PROT_READ | PROT_WRITE))
        _exit(9);
    gemm_fault_watch(0, &x, "X", x.usable, page / sizeof(float));
    gemm_fault_watch(1, &y, "Y", y.usable, page / sizeof(float));
    gemm_fault_install();
    volatile float *wild = (float *)((char *)y.map + 4 * page);
    *wild = 1.0f;
}

// A fault in the inaccessible pages around a watched buffer: one line, exit code 1, naming the
// buffer nearest to it (a fault in Y's pages was once named after Y, whose pages hold it)
static void test_fence(void)
{
    expect_child(fence_fault, GEMM_EXIT_VERIFY_FAILED,
                 "fence_test: error: out-of-bounds access: a kernel read or wrote C at index -316 (316 before its start)");
    page_floats = gemm_page_size() / sizeof(float);
    char want[256];
    snprintf(want, sizeof want, "a kernel read or wrote X at index %zu (%zu past the end of its %zu elements)",
             21 * page_floats, 20 * page_floats + 1, page_floats);
    expect_child(fence_nearest, GEMM_EXIT_VERIFY_FAILED, want);
}

static void crash_setup(void)
{
    gemm_set_program_name("crash_test");
    gemm_fault_install();
    gemm_running_set("kernel '%s' (%s)", "sgemm", "the sgemm");
}
static void crash_fpe(void)
{
    crash_setup();
    raise(SIGFPE);
}
static void crash_ill(void)
{
    crash_setup();
    raise(SIGILL);
}
static void crash_null(void)
{
    crash_setup();
    volatile uintptr_t zero = 0;
    *(volatile int *)(zero + 16) = 1; /* a member of a struct at a null pointer (UBSan refuses 0 itself) */
}
static void crash_elsewhere(void)
{
    crash_setup();
    void *page = mmap(NULL, gemm_page_size(), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED)
        _exit(9);
    *(volatile int *)page = 1;
}
static void crash_not_ours(void)
{
    crash_setup();
    gemm_running_set(NULL); /* nothing of ours runs: the fault is the program's own */
    void *page = mmap(NULL, gemm_page_size(), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED)
        _exit(9);
    *(volatile int *)page = 1;
}

// A fatal signal while a kernel runs: one line naming it and what the signal usually means, exit
// code 3 (each was a bare signal before). One while nothing of ours runs goes on to the handler
// before ours: the default (killed by the signal), or AddressSanitizer's report.
static void test_crash(void)
{
    const char *running = "crash_test: error: the program crashed with %s while kernel 'sgemm' (the sgemm) ran: %s";
    char want[256];
    snprintf(want, sizeof want, running, "SIGFPE", "an integer division by zero");
    expect_child(crash_fpe, GEMM_EXIT_RUNTIME, want);
    snprintf(want, sizeof want, running, "SIGILL", "an illegal instruction");
    expect_child(crash_ill, GEMM_EXIT_RUNTIME, want);
    snprintf(want, sizeof want, running, "SIGSEGV", "a read or write at address 0x10, through a null pointer");
    expect_child(crash_null, GEMM_EXIT_RUNTIME, want);
    snprintf(want, sizeof want, running, "SIGSEGV", "a read or write at address 0x");
    expect_child(crash_elsewhere, GEMM_EXIT_RUNTIME, want);
    char out[4096];
    int status;
    in_child(crash_not_ours, &status, out, sizeof out, NULL);
    CHECK(strstr(out, "error: the program crashed") == NULL);
#if defined(__SANITIZE_ADDRESS__)
    CHECK(strstr(out, "AddressSanitizer: SEGV") != NULL);
#else
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
#endif
}

static void watchdog_fires(void)
{
    gemm_set_program_name("watchdog_test");
    gemm_msg msg;
    gemm_watchdog_set_limit(0.3, "--timeout 0.3");
    gemm_running_set("kernel '%s' (%s)", "spin", "the spin");
    if (gemm_watchdog_arm(&msg) != 0)
        _exit(9);
    sleep(20); /* a kernel that never ends */
}
static void watchdog_disarmed(void)
{
    gemm_msg msg;
    gemm_watchdog_set_limit(0.3, "--timeout 0.3");
    for (int i = 0; i < 3; i++) {
        if (gemm_watchdog_arm(&msg) != 0)
            _exit(9);
        gemm_watchdog_disarm(); /* each wait ends in time */
        nanosleep(&(struct timespec){0, 200000000L}, NULL);
    }
    gemm_watchdog_set_limit(0, "");
    if (gemm_watchdog_arm(&msg) != 0) /* no limit: nothing to time */
        _exit(9);
    nanosleep(&(struct timespec){0, 500000000L}, NULL);
    gemm_watchdog_stop();
    _exit(0);
}

// The watchdog: the default limit from the problem's size, as --help gives it; a wait past the
// limit ends the program with one line within the limit's time, one that ends in time does not
// (none of this existed: --timeout was an unknown option)
static void test_watchdog(void)
{
    const double fixed = GEMM_TIMEOUT_FIXED_S, rate = GEMM_TIMEOUT_GFLOPS * 1e9;
    CHECK(fabs(gemm_timeout_default(64, 64, 64, 0) - (fixed + 2.0 * 64 * 64 * 64 / rate)) < 1e-9);
    CHECK(fabs(gemm_timeout_default(1024, 1024, 1024, 0) - 72.94967296) < 1e-6);
    CHECK(fabs(gemm_timeout_default(8, 8, 4000000, 0) - 40.24) < 1e-9);
    // proportional to M*N*K above the fixed part; none under a simulator
    CHECK(fabs((gemm_timeout_default(2048, 1024, 1024, 0) - fixed) - 2 * (gemm_timeout_default(1024, 1024, 1024, 0) - fixed)) < 1e-6);
    CHECK(gemm_timeout_default(65, 70, 17, 1) == 0.0);
    // --help says the same
    char help[8192] = "", want[128];
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (f) {
        gemm_options_usage(f, "prog", "");
        rewind(f);
        help[fread(help, 1, sizeof help - 1, f)] = '\0';
        fclose(f);
    }
    snprintf(want, sizeof want, "default: %g s + 2*M*N*K flops at %g GFLOPS", fixed, GEMM_TIMEOUT_GFLOPS);
    CHECK(strstr(help, want) != NULL);
    snprintf(want, sizeof want, "(%.0f s at 1024^3); none under Oclgrind", gemm_timeout_default(1024, 1024, 1024, 0));
    CHECK(strstr(help, want) != NULL);
    // --timeout: seconds from 0 to a year, -1 (the default) when not given
    gemm_options opt;
    gemm_msg msg;
    char *given[] = {"prog", "--timeout", "2.5"};
    CHECK(gemm_options_parse(&opt, 3, given, &msg) == GEMM_PARSE_OK && opt.timeout == 2.5);
    CHECK(gemm_options_parse(&opt, 1, given, &msg) == GEMM_PARSE_OK && opt.timeout == -1.0);
    CHECK(REFUSED("--timeout", "-1") && REFUSED("--timeout", "x") && REFUSED("--timeout", " 2") &&
          REFUSED("--timeout", "1e9") && REFUSED("--timeout", "nan"));
    // past the limit: the line, exit 3, soon after the limit
    char out[2048];
    int status;
    double seconds = 0;
    in_child(watchdog_fires, &status, out, sizeof out, &seconds);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == GEMM_EXIT_RUNTIME && seconds >= 0.3 && seconds < 10.0);
    CHECK(strstr(out, "watchdog_test: error: kernel 'spin' (the spin) did not finish within 0.3 s (--timeout 0.3): an "
                      "endless loop?") != NULL);
    if (!strstr(out, "did not finish"))
        fprintf(stderr, "child (status %#x, %.1f s) said: %s\n", status, seconds, out);
    // in time, or with no limit: nothing
    in_child(watchdog_disarmed, &status, out, sizeof out, NULL);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0 && out[0] == '\0');
}

int main(int argc, char **argv)
{
    static const test_group groups[] = {{"normwise", test_normwise}, {"sample", test_sample},
                                        {"scalars", test_scalars},   {"memory", test_memory},
                                        {"printable", test_printable}, {"whitespace", test_whitespace},
                                        {"fence", test_fence},         {"exact", test_exact},
                                        {"precision", test_precision},
                                        {"crash", test_crash},         {"watchdog", test_watchdog}};
    return run_groups(groups, sizeof groups / sizeof groups[0], argc, argv);
}
