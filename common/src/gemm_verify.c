#include "gemm_verify.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef GEMM_HAVE_CBLAS
#include <cblas.h>
#endif

/* splitmix64: tiny, fast, and identical everywhere, which is all test data needs. */
static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void gemm_fill_uniform(float *x, size_t count, unsigned long long seed, unsigned stream)
{
    uint64_t state = (uint64_t)seed ^ ((uint64_t)(stream + 1) * 0xD1B54A32D192ED03ULL);
    for (size_t i = 0; i < count; i++) {
        /* 24 random bits -> an exactly representable float in [-1, 1) */
        uint32_t r = (uint32_t)(splitmix64(&state) >> 40);
        x[i] = (float)r * (2.0f / 16777216.0f) - 1.0f;
    }
}

int gemm_host_data_create(gemm_host_data *data, long m, long n, long k, double alpha, double beta,
                          unsigned long long seed, gemm_msg *msg)
{
    memset(data, 0, sizeof *data);
    data->m = m;
    data->n = n;
    data->k = k;
    data->alpha = (float)alpha;
    data->beta = (float)beta;
    data->a = malloc((size_t)m * (size_t)k * sizeof(float));
    data->b = malloc((size_t)k * (size_t)n * sizeof(float));
    data->c0 = malloc((size_t)m * (size_t)n * sizeof(float));
    if (!data->a || !data->b || !data->c0) {
        gemm_host_data_free(data);
        return gemm_msgf(msg, GEMM_EXIT_RUNTIME, "out of host memory for the %ldx%ldx%ld matrices", m, n, k);
    }
    gemm_fill_uniform(data->a, (size_t)m * (size_t)k, seed, 0);
    gemm_fill_uniform(data->b, (size_t)k * (size_t)n, seed, 1);
    gemm_fill_uniform(data->c0, (size_t)m * (size_t)n, seed, 2);
    return 0;
}

void gemm_host_data_free(gemm_host_data *data)
{
    free(data->a);
    free(data->b);
    free(data->c0);
    data->a = data->b = data->c0 = NULL;
}

void gemm_reference_free(gemm_reference *ref)
{
    free(ref->value);
    free(ref->magnitude);
    ref->value = ref->magnitude = NULL;
}

#ifdef GEMM_HAVE_CBLAS
const char *gemm_reference_method(void) { return "CBLAS dgemm on double copies"; }

/* Two dgemms on double copies: A*B and |A|*|B|. */
static int reference_products(const gemm_host_data *d, double *ab, double *abs_ab)
{
    const size_t mk = (size_t)d->m * (size_t)d->k, kn = (size_t)d->k * (size_t)d->n;
    double *a = calloc(mk, sizeof(double));
    double *b = calloc(kn, sizeof(double));
    if (!a || !b) {
        free(a);
        free(b);
        return -1;
    }
    for (size_t i = 0; i < mk; i++)
        a[i] = d->a[i];
    for (size_t i = 0; i < kn; i++)
        b[i] = d->b[i];
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)d->m, (int)d->n, (int)d->k, 1.0, a, (int)d->k, b,
                (int)d->n, 0.0, ab, (int)d->n);
    for (size_t i = 0; i < mk; i++)
        a[i] = fabs(a[i]);
    for (size_t i = 0; i < kn; i++)
        b[i] = fabs(b[i]);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)d->m, (int)d->n, (int)d->k, 1.0, a, (int)d->k, b,
                (int)d->n, 0.0, abs_ab, (int)d->n);
    free(a);
    free(b);
    return 0;
}
#else
const char *gemm_reference_method(void) { return "portable blocked loop in double"; }

/* i-k-j order with a block over k keeps a panel of B in cache; both products in one pass. */
static int reference_products(const gemm_host_data *d, double *ab, double *abs_ab)
{
    const long m = d->m, n = d->n, k = d->k, kb = 64;
    memset(ab, 0, (size_t)m * (size_t)n * sizeof(double));
    memset(abs_ab, 0, (size_t)m * (size_t)n * sizeof(double));
    for (long k0 = 0; k0 < k; k0 += kb) {
        const long k1 = k0 + kb < k ? k0 + kb : k;
        for (long i = 0; i < m; i++) {
            double *row = ab + (size_t)i * (size_t)n, *arow = abs_ab + (size_t)i * (size_t)n;
            for (long p = k0; p < k1; p++) {
                const double a = d->a[(size_t)i * (size_t)k + (size_t)p], aa = fabs(a);
                const float *brow = d->b + (size_t)p * (size_t)n;
                for (long j = 0; j < n; j++) {
                    row[j] += a * brow[j];
                    arow[j] += aa * fabs((double)brow[j]);
                }
            }
        }
    }
    return 0;
}
#endif

int gemm_reference_compute(const gemm_host_data *d, gemm_reference *ref, gemm_msg *msg)
{
    const size_t mn = (size_t)d->m * (size_t)d->n;
    memset(ref, 0, sizeof *ref);
    ref->m = d->m;
    ref->n = d->n;
    ref->k = d->k;
    ref->value = malloc(mn * sizeof(double));
    ref->magnitude = malloc(mn * sizeof(double));
    if (!ref->value || !ref->magnitude || reference_products(d, ref->value, ref->magnitude) != 0) {
        gemm_reference_free(ref);
        return gemm_msgf(msg, GEMM_EXIT_RUNTIME, "out of host memory for the double-precision reference");
    }
    const double alpha = d->alpha, beta = d->beta;
    for (size_t i = 0; i < mn; i++) {
        /* beta = 0 means "C is not read": the reference must not read C0 either (no 0*NaN). */
        const double c = beta != 0.0 ? beta * (double)d->c0[i] : 0.0;
        ref->value[i] = alpha * ref->value[i] + c;
        ref->magnitude[i] = fabs(alpha) * ref->magnitude[i] + fabs(c);
    }
    return 0;
}

double gemm_tolerance(long k, double magnitude) { return GEMM_TOLERANCE_C * (double)k * FLT_EPSILON * magnitude; }

void gemm_check_result(const float *got, const gemm_reference *ref, gemm_check *out)
{
    memset(out, 0, sizeof *out);
    out->first_bad_row = out->first_bad_col = -1;
    out->worst_row = out->worst_col = -1;
    const long m = ref->m, n = ref->n;
    for (long r = 0; r < m; r++) {
        for (long c = 0; c < n; c++) {
            const size_t i = (size_t)r * (size_t)n + (size_t)c;
            const double g = got[i], e = ref->value[i];
            const double tol = gemm_tolerance(ref->k, ref->magnitude[i]);
            const double diff = fabs(g - e);
            const int finite = isfinite(g);
            double ratio;
            if (!finite)
                ratio = INFINITY;
            else if (diff == 0.0)
                ratio = 0.0;
            else
                ratio = tol > 0.0 ? diff / tol : INFINITY;
            /* written so that a NaN anywhere counts as a failure */
            const int ok = finite && diff <= tol;
            if (!finite)
                out->nonfinite++;
            if (!ok) {
                if (out->bad == 0) {
                    out->first_bad_row = r;
                    out->first_bad_col = c;
                    out->first_bad_got = g;
                    out->first_bad_ref = e;
                    out->first_bad_tol = tol;
                }
                out->bad++;
            }
            if (out->worst_row < 0 || ratio > out->worst_ratio) {
                out->worst_ratio = ratio;
                out->worst_row = r;
                out->worst_col = c;
            }
        }
    }
    out->pass = out->bad == 0;
}
