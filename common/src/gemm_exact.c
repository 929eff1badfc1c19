/* The exact check's data, expected answer and comparison (gemm_exact.h). */
#include "gemm_exact.h"

#include <math.h>
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
            for (long p = 0; p < k; p++)
                if (p % stride != i % stride)
                    data->a[(size_t)i * (size_t)k + (size_t)p] = 0.0f;
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
