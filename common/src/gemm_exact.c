/* The exact check's data, expected answer and comparison (gemm_exact.h). */
#include "gemm_exact.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#ifdef GEMM_HAVE_CBLAS
#include <cblas.h>
#endif

void gemm_exact_data_fill(gemm_host_data *data, double alpha, double beta, unsigned long long seed, gemm_exact *out)
{
    const long m = data->m, n = data->n, k = data->k;
    const long stride = (k + GEMM_EXACT_MAX_TERMS - 1) / GEMM_EXACT_MAX_TERMS;
    const long terms = (k + stride - 1) / stride; /* nonzero terms of one dot product, at most */
    long range = (long)floor(sqrt((double)GEMM_EXACT_MAX_TERMS / (double)terms));
    range = range < 1 ? 1 : range > GEMM_EXACT_MAX_RANGE ? GEMM_EXACT_MAX_RANGE : range;
    memset(out, 0, sizeof *out);
    out->range = range;
    out->stride = stride;
    out->alpha = data->alpha = alpha == 0.0 ? 0.0f : alpha < 0.0 ? -2.0f : 2.0f;
    out->beta = data->beta = beta == 0.0 ? 0.0f : beta < 0.0 ? -0.5f : 0.5f;
    /* Uniform values in [-1, 1) (the random data's generator, other streams) become nonzero
     * integers in [-range, range] */
    float *const matrix[3] = {data->a, data->b, data->c0};
    const size_t count[3] = {(size_t)m * (size_t)k, (size_t)k * (size_t)n, (size_t)m * (size_t)n};
    for (int x = 0; x < 3; x++) {
        gemm_fill_uniform(matrix[x], count[x], seed, 16 + (unsigned)x);
        for (size_t i = 0; i < count[x]; i++) {
            const float u = matrix[x][i];
            const long size = (long)(fabsf(u) * (float)range) + 1;
            matrix[x][i] = (float)((u < 0.0f ? -1 : 1) * (size > range ? range : size));
        }
    }
    if (stride > 1)
        for (long i = 0; i < m; i++)
            for (long p = 0, phase = 0; p < k; p++, phase = phase + 1 == stride ? 0 : phase + 1) /* phase = p % stride */
                if (phase != i % stride)
                    data->a[(size_t)i * (size_t)k + (size_t)p] = 0.0f;
}

/* splitmix64 (as gemm_verify.c's generator): a stream of the precision check's random bits */
static uint64_t next_bits(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* +-2^e times a precise value, 2^13 + 8h + d: 14 significant bits, h of 10 bits with bit 2 clear (so
 * that the 6 bits bfloat16 drops are below half its last place), d in {1, 2, 3} (the 3 bits TF32 and
 * half drop, below half theirs); or times 1 where @p plain. Made from its bits (sign, exponent
 * 13 + e, the 13 bits below the leading one at the top of the fraction): ldexpf() took most of the
 * time of filling a large matrix. */
static float scaled_value(uint64_t r, int e, int plain, int negative)
{
    const uint32_t low = 8u * (uint32_t)(r & 0x3fbu) + 1u + (uint32_t)((r >> 10) % 3u);
    const uint32_t bits = (uint32_t)negative << 31 |
                          (plain ? (uint32_t)(127 + e) << 23 : (uint32_t)(127 + 13 + e) << 23 | low << 10);
    float x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

/* What index k of K is (gemm_exact.h): bit 0 set where A holds the precise values (an A index), bit 1
 * the sign of A's column k and B's row k, bits 2 on the scale g, 0 to 13. From a hash of the seed
 * and k, so that A's and B's fills agree without a table of K entries. */
static unsigned index_kind(unsigned long long seed, long k)
{
    uint64_t state = (uint64_t)seed ^ ((uint64_t)k * 0xA0761D6478BD642FULL) ^ 0xE7037ED1A0B428DBULL;
    const uint64_t r = next_bits(&state);
    const unsigned a_index = k == 0 ? 1u : k == 1 ? 0u : (unsigned)(r & 1u);
    const unsigned g = k == 0 ? 13u : (unsigned)((r >> 8) % 14u);
    return a_index | (unsigned)(r & 2u) | g << 2;
}

void gemm_precision_data_fill(gemm_host_data *data, double alpha, double beta, unsigned long long seed,
                              gemm_exact *out)
{
    const long m = data->m, n = data->n, k = data->k;
    long stride = (k + GEMM_PRECISION_MAX_TERMS - 1) / GEMM_PRECISION_MAX_TERMS;
    if (stride > 1 && stride % 2 == 0)
        stride++; /* odd: a row's indices then fall on every place of a tile along K */
    memset(out, 0, sizeof *out);
    out->precision = 1;
    out->stride = stride;
    out->alpha = data->alpha = alpha == 0.0 ? 0.0f : alpha < 0.0 ? -2.0f : 2.0f;
    out->beta = data->beta = beta == 0.0 ? 0.0f : beta < 0.0 ? -0.5f : 0.5f;
    uint64_t state = (uint64_t)seed ^ 0x3C6EF372FE94F82BULL;
    for (long i = 0; i < m; i++) { /* row i: nonzero in the columns p with p % stride == i % stride */
        float *a = &data->a[(size_t)i * (size_t)k];
        memset(a, 0, (size_t)k * sizeof *a);
        for (long p = i % stride; p < k; p += stride) {
            const unsigned kind = index_kind(seed, p);
            const int plain = !(kind & 1u);
            a[p] = scaled_value(plain ? 0 : next_bits(&state), -14 - (int)(kind >> 2), plain, (int)(kind >> 1 & 1u));
        }
    }
    for (long p = 0; p < k; p++) {
        const unsigned kind = index_kind(seed, p);
        float *b = &data->b[(size_t)p * (size_t)n];
        const int plain = (int)(kind & 1u);
        for (long j = 0; j < n; j++)
            b[j] = scaled_value(plain ? 0 : next_bits(&state), -27 + (int)(kind >> 2), plain, (int)(kind >> 1 & 1u));
    }
    /* C0 with the sign of alpha*beta: beta*C0 then has alpha's, as every product times alpha has */
    const int negative = (alpha < 0.0) != (beta < 0.0);
    for (size_t i = 0; i < (size_t)m * (size_t)n; i++)
        data->c0[i] = scaled_value(next_bits(&state), -41, 0, negative);
}

/* alpha*A*B + beta*C0 in float, row by row, into C0: exact on these data in any order */
static void expected_loop(gemm_host_data *d)
{
    float *e = d->c0;
    const long m = d->m, n = d->n, k = d->k;
    for (long i = 0; i < m; i++) {
        float *row = e + (size_t)i * (size_t)n;
        for (long j = 0; j < n; j++)
            row[j] = d->beta != 0.0f ? d->beta * row[j] : 0.0f;
        for (long p = 0; p < k; p++) {
            const float a = d->alpha * d->a[(size_t)i * (size_t)k + (size_t)p];
            const float *b = d->b + (size_t)p * (size_t)n;
            if (a != 0.0f)
                for (long j = 0; j < n; j++)
                    row[j] += a * b[j];
        }
    }
}

void gemm_exact_expected(gemm_host_data *data)
{
#ifdef GEMM_HAVE_CBLAS
    typedef __typeof__(&cblas_sgemm) sgemm_fn;
    sgemm_fn sgemm;
    void *sym = gemm_blas_symbol("cblas_sgemm");
    memcpy(&sgemm, &sym, sizeof sgemm);
    if (sgemm) {
        /* beta = 0 means "C is not read": start from zeros, as the kernels must */
        if (data->beta == 0.0f)
            memset(data->c0, 0, (size_t)data->m * (size_t)data->n * sizeof(float));
        sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)data->m, (int)data->n, (int)data->k, data->alpha,
              data->a, (int)data->k, data->b, (int)data->n, data->beta, data->c0, (int)data->n);
        return;
    }
#endif
    expected_loop(data);
}

void gemm_exact_compare(const float *got, const float *expected, long m, long n, gemm_exact *out)
{
    out->ran = 1;
    out->total = (size_t)m * (size_t)n;
    out->wrong = 0;
    out->first_row = out->first_col = -1;
    for (size_t i = 0; i < out->total; i++) {
        if (got[i] == expected[i]) /* false for NaN; +0 == -0 */
            continue;
        if (out->wrong++ == 0) {
            out->first_row = (long)(i / (size_t)n);
            out->first_col = (long)(i % (size_t)n);
            out->first_got = got[i];
            out->first_want = expected[i];
        }
    }
    out->pass = out->wrong == 0;
}
