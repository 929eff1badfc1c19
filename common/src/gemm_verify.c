#define _POSIX_C_SOURCE 200809L /* setenv */
#include "gemm_verify.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef GEMM_HAVE_CBLAS
#include <cblas.h>
#include <dlfcn.h>
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

/* The distributions of --data, in the order of enum gemm_data */
static const struct {
    const char *name, *text;
} data_kinds[GEMM_DATA_COUNT] = {
    {"spread", "24-bit significands, magnitudes log-uniform over 8 binades [2^-8, 1), random signs"},
    {"uniform", "uniform in (-1, 1), 24-bit significands at every magnitude (floor 2^-23)"},
    {"normal", "normal, mean 0, standard deviation 1/4, 24-bit significands, magnitudes in [2^-23, 1)"},
    {"wide", "24-bit significands, magnitudes log-uniform over 23 binades [2^-23, 1), random signs"},
    {"grid", "multiples of 2^-23 in [-1, 1): at most 23 significant bits (the data before December 2026)"},
};

const char *gemm_data_name(gemm_data kind) { return data_kinds[kind].name; }

const char *gemm_data_text(gemm_data kind) { return data_kinds[kind].text; }

int gemm_data_parse(const char *text, gemm_data *kind)
{
    for (int i = 0; i < GEMM_DATA_COUNT; i++)
        if (strcmp(text, data_kinds[i].name) == 0) {
            *kind = (gemm_data)i;
            return 0;
        }
    return -1;
}

/* 2^-j (1 + f 2^-23) with the sign of bit 63 of r: a float with a 24-bit significand, f its low 23
 * bits. Made from its bits (sign, biased exponent 127 - j, fraction): ldexpf() took most of the time
 * of filling a large matrix. */
static float binade_value(uint64_t r, int j)
{
    const uint32_t bits = (uint32_t)(r >> 63) << 31 | (uint32_t)(127 - j) << 23 | (uint32_t)(r & 0x7fffffu);
    float x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

/* A standard normal value from two uniform ones in (0, 1] (Box and Muller) */
static double normal_value(uint64_t *state)
{
    const double u = ((double)(splitmix64(state) >> 11) + 1.0) * 0x1p-53;
    const double v = (double)(splitmix64(state) >> 11) * 0x1p-53;
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

void gemm_fill_random(float *x, size_t count, gemm_data kind, unsigned long long seed, unsigned stream)
{
    if (kind == GEMM_DATA_GRID) {
        gemm_fill_uniform(x, count, seed, stream);
        return;
    }
    uint64_t state = (uint64_t)seed ^ ((uint64_t)(stream + 1) * 0xD1B54A32D192ED03ULL);
    for (size_t i = 0; i < count; i++) {
        if (kind == GEMM_DATA_NORMAL) { /* drawn again until its magnitude, as a float, is in [2^-23, 1) */
            float v;
            do
                v = (float)(0.25 * normal_value(&state));
            while (!(fabsf(v) < 1.0f && fabsf(v) >= 0x1p-23f));
            x[i] = v;
            continue;
        }
        /* bit 63: the sign; bits 0-22: the significand's fraction; bits 23 on: the binade */
        const uint64_t r = splitmix64(&state);
        int j = 1;
        if (kind == GEMM_DATA_SPREAD) /* binade 1 to 8, each as likely */
            j += (int)((r >> 23) & 7u);
        else if (kind == GEMM_DATA_WIDE) /* binade 1 to 23, each as likely */
            j += (int)(((r >> 23) & 0xffffffffu) % 23u);
        else /* GEMM_DATA_UNIFORM: binade j with probability 2^-j (its share of [0, 1)), the 23rd taking the rest */
            while (j < 23 && ((r >> (22 + j)) & 1u) == 0)
                j++;
        x[i] = binade_value(r, j);
    }
}

int gemm_host_data_create(gemm_host_data *data, long m, long n, long k, double alpha, double beta, gemm_data kind,
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
    gemm_fill_random(data->a, (size_t)m * (size_t)k, kind, seed, 0);
    gemm_fill_random(data->b, (size_t)k * (size_t)n, kind, seed, 1);
    gemm_fill_random(data->c0, (size_t)m * (size_t)n, kind, seed, 2);
    return 0;
}

void gemm_host_data_free(gemm_host_data *data)
{
    free(data->a);
    free(data->b);
    free(data->c0);
    data->a = data->b = data->c0 = NULL;
}

int gemm_check_scalars(long k, double alpha, double beta, gemm_msg *msg)
{
    /* Bounds from the data's range (gemm_host_data_create()): see gemm_verify.h. */
    const double top = FLT_MAX / 2, alpha_min = ldexp(1.0, -80), beta_min = ldexp(1.0, -103);
    const double a = fabs((double)(float)alpha), b = fabs((double)(float)beta);
    if (a * (double)k + b > top)
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT,
                         "alpha=%g and beta=%g could overflow float at K=%ld: |alpha|*K + |beta| = %.3g, more than "
                         "FLT_MAX/2 = %.3g (the data lie in [-1, 1))",
                         alpha, beta, k, a * (double)k + b, top);
    if (a != 0.0 && a < alpha_min)
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT,
                         "alpha=%g is too small to check: alpha*A*B would fall below float's normal range "
                         "(|alpha| must be 0 or at least 2^-80 = %.3g)",
                         alpha, alpha_min);
    if (b != 0.0 && b < beta_min)
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT,
                         "beta=%g is too small to check: beta*C would fall below float's normal range "
                         "(|beta| must be 0 or at least 2^-103 = %.3g)",
                         beta, beta_min);
    return 0;
}

void gemm_reference_free(gemm_reference *ref)
{
    free(ref->value);
    free(ref->magnitude);
    free(ref->rows);
    free(ref->cols);
    ref->value = ref->magnitude = NULL;
    ref->rows = ref->cols = NULL;
}

/* ---------------------------------------------------------------------------------------------
 * Blocks of the reference: val[r*ld + c] = sum_p A[row(r), p] * B[p, col(c)] and mag the same
 * with absolute values, for r < nr and c < nc, where row(r) = rows[r] (or row0 + r when rows is
 * NULL) and col(c) likewise.
 * ------------------------------------------------------------------------------------------- */

typedef struct block {
    const long *rows; /* NULL: row0, row0+1, ... */
    long row0, nr;
    const long *cols; /* NULL: col0, col0+1, ... */
    long col0, nc;
    double *val, *mag;
    long ld;
} block;

static long block_row(const block *b, long r) { return b->rows ? b->rows[r] : b->row0 + r; }
static long block_col(const block *b, long c) { return b->cols ? b->cols[c] : b->col0 + c; }

/* i-k-j order with a block over k keeps a panel of B in cache. */
static void block_loop(const gemm_host_data *d, const block *bk)
{
    const long k = d->k, n = d->n, kb = 64;
    for (long r = 0; r < bk->nr; r++)
        for (long c = 0; c < bk->nc; c++)
            bk->val[r * bk->ld + c] = bk->mag[r * bk->ld + c] = 0.0;
    for (long k0 = 0; k0 < k; k0 += kb) {
        const long k1 = k0 + kb < k ? k0 + kb : k;
        for (long r = 0; r < bk->nr; r++) {
            double *row = bk->val + r * bk->ld, *arow = bk->mag + r * bk->ld;
            const float *a = d->a + (size_t)block_row(bk, r) * (size_t)k;
            for (long p = k0; p < k1; p++) {
                const double x = a[p], ax = fabs(x);
                const float *brow = d->b + (size_t)p * (size_t)n + (bk->cols ? 0 : bk->col0);
                if (bk->cols) {
                    for (long c = 0; c < bk->nc; c++) {
                        const double y = brow[block_col(bk, c)];
                        row[c] += x * y;
                        arow[c] += ax * fabs(y);
                    }
                } else {
                    for (long c = 0; c < bk->nc; c++) {
                        row[c] += x * brow[c];
                        arow[c] += ax * fabs((double)brow[c]);
                    }
                }
            }
        }
    }
}

#ifdef GEMM_HAVE_CBLAS
/* The dgemm of the CPU BLAS is loaded when the first reference is computed, not when the program
 * starts: OpenBLAS starts its threads as it loads, and each reserves a buffer of ~128 MiB that,
 * under an address-space limit, it retries forever to get. Loading late lets the harness check
 * the limits first and ask for one thread (gemm_reference_threads()). */
typedef __typeof__(&cblas_dgemm) dgemm_fn;
static int blas_threads;
static int blas_tried;
static dgemm_fn blas_dgemm;

void gemm_reference_threads(int threads) { blas_threads = threads; }

int gemm_reference_blas(void) { return 1; }

void *gemm_blas_symbol(const char *name)
{
    static void *lib;
    static int tried;
    if (!tried) {
        tried = 1;
        if (blas_threads > 0) {
            char n[16];
            snprintf(n, sizeof n, "%d", blas_threads);
            setenv("OPENBLAS_NUM_THREADS", n, 1);
        }
        lib = dlopen(GEMM_CBLAS_PATH, RTLD_NOW | RTLD_LOCAL);
        if (!lib)
            lib = dlopen(GEMM_CBLAS_SONAME, RTLD_NOW | RTLD_LOCAL);
        /* loaded for good: never closed */
    }
    return lib ? dlsym(lib, name) : NULL;
}

static dgemm_fn load_dgemm(void)
{
    if (blas_tried)
        return blas_dgemm;
    blas_tried = 1;
    void *sym = gemm_blas_symbol("cblas_dgemm");
    memcpy(&blas_dgemm, &sym, sizeof blas_dgemm);
    return blas_dgemm;
}

const char *gemm_reference_method(void)
{
    return blas_tried && !blas_dgemm ? "portable blocked loop in double (the CPU BLAS did not load)"
                                     : "CBLAS dgemm on double copies";
}

/* Panels: at most PANEL_LINES rows of A and columns of B, and as much of K as keeps the double
 * copies of both within PANEL_BYTES. */
#define PANEL_LINES 2048L
#define PANEL_BYTES ((size_t)64 << 20)

static long panel_k(long k, long rp, long cp)
{
    long kp = (long)(PANEL_BYTES / sizeof(double) / (size_t)(rp + cp));
    return kp < 1 ? 1 : kp < k ? kp : k;
}

static double panel_bytes(long nr, long nc, long k)
{
    const long rp = nr < PANEL_LINES ? nr : PANEL_LINES, cp = nc < PANEL_LINES ? nc : PANEL_LINES;
    return (double)(rp + cp) * (double)panel_k(k, rp, cp) * sizeof(double);
}

static int block_compute(const gemm_host_data *d, const block *bk)
{
    dgemm_fn dgemm = load_dgemm();
    if (!dgemm) {
        block_loop(d, bk);
        return 0;
    }
    const long k = d->k, n = d->n;
    const long rp = bk->nr < PANEL_LINES ? bk->nr : PANEL_LINES, cp = bk->nc < PANEL_LINES ? bk->nc : PANEL_LINES;
    const long kp = panel_k(k, rp, cp);
    double *a = malloc((size_t)rp * (size_t)kp * sizeof(double));
    double *b = malloc((size_t)kp * (size_t)cp * sizeof(double));
    if (!a || !b) {
        free(a);
        free(b);
        return -1;
    }
    for (long r0 = 0; r0 < bk->nr; r0 += rp) {
        const long nr = bk->nr - r0 < rp ? bk->nr - r0 : rp;
        for (long c0 = 0; c0 < bk->nc; c0 += cp) {
            const long nc = bk->nc - c0 < cp ? bk->nc - c0 : cp;
            double *val = bk->val + r0 * bk->ld + c0, *mag = bk->mag + r0 * bk->ld + c0;
            for (long k0 = 0; k0 < k; k0 += kp) {
                const long nk = k - k0 < kp ? k - k0 : kp;
                for (long r = 0; r < nr; r++) {
                    const float *src = d->a + (size_t)block_row(bk, r0 + r) * (size_t)k + (size_t)k0;
                    for (long p = 0; p < nk; p++)
                        a[r * nk + p] = src[p];
                }
                for (long p = 0; p < nk; p++) {
                    const float *src = d->b + (size_t)(k0 + p) * (size_t)n;
                    for (long c = 0; c < nc; c++)
                        b[p * nc + c] = src[block_col(bk, c0 + c)];
                }
                const double keep = k0 ? 1.0 : 0.0; /* accumulate over the panels of K */
                dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)nr, (int)nc, (int)nk, 1.0, a, (int)nk, b,
                      (int)nc, keep, val, (int)bk->ld);
                for (long i = 0; i < nr * nk; i++)
                    a[i] = fabs(a[i]);
                for (long i = 0; i < nk * nc; i++)
                    b[i] = fabs(b[i]);
                dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)nr, (int)nc, (int)nk, 1.0, a, (int)nk, b,
                      (int)nc, keep, mag, (int)bk->ld);
            }
        }
    }
    free(a);
    free(b);
    return 0;
}
#else
void gemm_reference_threads(int threads) { (void)threads; }

void *gemm_blas_symbol(const char *name)
{
    (void)name;
    return NULL;
}

int gemm_reference_blas(void) { return 0; }

const char *gemm_reference_method(void) { return "portable blocked loop in double"; }

static double panel_bytes(long nr, long nc, long k)
{
    (void)nr;
    (void)nc;
    (void)k;
    return 0.0;
}

static int block_compute(const gemm_host_data *d, const block *bk)
{
    block_loop(d, bk);
    return 0;
}
#endif

/* count lines of total, spread evenly from the first to the last (count >= 2, count < total) */
static long *spread_lines(long count, long total)
{
    long *x = malloc((size_t)count * sizeof(long));
    if (x)
        for (long i = 0; i < count; i++)
            x[i] = (long)(((double)i * (double)(total - 1)) / (double)(count - 1) + 0.5);
    return x;
}

static int sampling(long m, long n, long sample)
{
    return sample >= 2 && m > sample && n > sample;
}

double gemm_reference_bytes(long m, long n, long k, long sample)
{
    if (!sampling(m, n, sample))
        return 2.0 * (double)m * (double)n * sizeof(double) + panel_bytes(m, n, k);
    const double rows = (double)sample * (double)n, cols = (double)m * (double)sample;
    const double panels = fmax(panel_bytes(sample, n, k), panel_bytes(m, sample, k));
    return 2.0 * (rows + cols) * sizeof(double) + panels + 2.0 * (double)sample * sizeof(long);
}

int gemm_reference_compute(const gemm_host_data *d, long sample, gemm_reference *ref, gemm_msg *msg)
{
    memset(ref, 0, sizeof *ref);
    ref->m = d->m;
    ref->n = d->n;
    ref->k = d->k;
    ref->sampled = sampling(d->m, d->n, sample);
    size_t count = (size_t)d->m * (size_t)d->n;
    if (ref->sampled) {
        ref->nrows = ref->ncols = sample;
        ref->rows = spread_lines(sample, d->m);
        ref->cols = spread_lines(sample, d->n);
        count = (size_t)sample * (size_t)d->n + (size_t)d->m * (size_t)sample;
    }
    ref->value = malloc(count * sizeof(double));
    ref->magnitude = malloc(count * sizeof(double));
    int rc = !ref->value || !ref->magnitude || (ref->sampled && (!ref->rows || !ref->cols)) ? -1 : 0;
    if (!rc && !ref->sampled) {
        const block all = {NULL, 0, d->m, NULL, 0, d->n, ref->value, ref->magnitude, d->n};
        rc = block_compute(d, &all);
    } else if (!rc) {
        const size_t split = (size_t)sample * (size_t)d->n;
        const block rows = {ref->rows, 0, sample, NULL, 0, d->n, ref->value, ref->magnitude, d->n};
        const block cols = {NULL, 0, d->m, ref->cols, 0, sample, ref->value + split, ref->magnitude + split, sample};
        rc = block_compute(d, &rows);
        if (!rc)
            rc = block_compute(d, &cols);
    }
    if (rc) {
        gemm_reference_free(ref);
        return gemm_msgf(msg, GEMM_EXIT_RUNTIME, "out of host memory for the double-precision reference");
    }
    /* alpha and beta, element by element: the rows block, then the columns block; and the norms
     * of the two terms over the elements compared (an element of a sampled row and a sampled
     * column is in both blocks, and counted in the first) */
    const double alpha = d->alpha, beta = d->beta;
    const size_t n = (size_t)d->n, split = ref->sampled ? (size_t)sample * n : count;
    double ab2 = 0.0, c2 = 0.0;
    long next_row = 0; /* in the columns block: the next sampled row */
    for (size_t i = 0; i < count; i++) {
        size_t e = i; /* the element of C, to read C0 */
        int counted = 1;
        if (i >= split) {
            const size_t row = (i - split) / (size_t)sample, col = (i - split) % (size_t)sample;
            e = row * n + (size_t)ref->cols[col];
            while (next_row < sample && (size_t)ref->rows[next_row] < row)
                next_row++;
            counted = !(next_row < sample && (size_t)ref->rows[next_row] == row);
        } else if (ref->sampled) {
            e = (size_t)ref->rows[i / n] * n + i % n;
        }
        /* beta = 0 means "C is not read": the reference must not read C0 either (no 0*NaN). */
        const double c = beta != 0.0 ? beta * (double)d->c0[e] : 0.0, ab = alpha * ref->value[i];
        ref->value[i] = ab + c;
        /* beta*C meets two roundings, not K (gemm_verify.h): its share of the tolerance is 1/K of alpha*A*B's */
        ref->magnitude[i] = fabs(alpha) * ref->magnitude[i] + fabs(c) / (double)ref->k;
        if (counted) {
            ab2 += ab * ab;
            c2 += c * c;
        }
    }
    ref->norm_ab = sqrt(ab2);
    ref->norm_c = sqrt(c2);
    return 0;
}

double gemm_tolerance(long k, double magnitude) { return GEMM_TOLERANCE_C * (double)k * FLT_EPSILON * magnitude; }

double gemm_normwise_bound(long k) { return GEMM_NORMWISE_C * sqrt((double)k) * FLT_EPSILON; }

/* One element: its share of the norms, and of the element-wise check. */
static void check_element(gemm_check *out, long r, long c, double g, int compared, double e, double mag, long k,
                          double *err2)
{
    const int finite = isfinite(g);
    if (!finite)
        out->nonfinite++;
    if (!finite && !compared) {
        if (out->bad++ == 0) {
            out->first_bad_row = r;
            out->first_bad_col = c;
            out->first_bad_got = g;
            out->first_bad_ref = out->first_bad_tol = NAN;
        }
        return;
    }
    if (!compared)
        return;
    out->checked++;
    const double tol = gemm_tolerance(k, mag), diff = fabs(g - e);
    double ratio;
    if (!finite)
        ratio = INFINITY;
    else if (diff == 0.0)
        ratio = 0.0;
    else
        ratio = tol > 0.0 ? diff / tol : INFINITY;
    if (finite)
        *err2 += diff * diff;
    /* written so that a NaN anywhere counts as a failure */
    if (!(finite && diff <= tol) && out->bad++ == 0) {
        out->first_bad_row = r;
        out->first_bad_col = c;
        out->first_bad_got = g;
        out->first_bad_ref = e;
        out->first_bad_tol = tol;
    }
    if (out->worst_row < 0 || ratio > out->worst_ratio) {
        out->worst_ratio = ratio;
        out->worst_row = r;
        out->worst_col = c;
    }
}

void gemm_check_result(const float *got, const gemm_reference *ref, gemm_check *out)
{
    memset(out, 0, sizeof *out);
    out->first_bad_row = out->first_bad_col = -1;
    out->worst_row = out->worst_col = -1;
    const long m = ref->m, n = ref->n;
    out->total = (size_t)m * (size_t)n;
    double err2 = 0.0;
    long next_row = 0; /* the next sampled row */
    for (long r = 0; r < m; r++) {
        const float *g = got + (size_t)r * (size_t)n;
        if (!ref->sampled) {
            const double *e = ref->value + (size_t)r * (size_t)n, *mag = ref->magnitude + (size_t)r * (size_t)n;
            for (long c = 0; c < n; c++)
                check_element(out, r, c, g[c], 1, e[c], mag[c], ref->k, &err2);
            continue;
        }
        const int whole_row = next_row < ref->nrows && ref->rows[next_row] == r;
        if (whole_row) {
            const size_t at = (size_t)next_row++ * (size_t)n;
            for (long c = 0; c < n; c++)
                check_element(out, r, c, g[c], 1, ref->value[at + (size_t)c], ref->magnitude[at + (size_t)c], ref->k,
                              &err2);
            continue;
        }
        const size_t at = (size_t)ref->nrows * (size_t)n + (size_t)r * (size_t)ref->ncols;
        long next_col = 0;
        for (long c = 0; c < n; c++) {
            const int compared = next_col < ref->ncols && ref->cols[next_col] == c;
            const size_t i = at + (size_t)(compared ? next_col++ : 0);
            check_element(out, r, c, g[c], compared, compared ? ref->value[i] : 0.0,
                          compared ? ref->magnitude[i] : 0.0, ref->k, &err2);
        }
    }
    /* The normwise check: over the compared elements; any NaN or Inf makes it infinite. */
    if (out->nonfinite)
        out->normwise = INFINITY;
    else if (err2 == 0.0)
        out->normwise = 0.0;
    else
        out->normwise = ref->norm_ab + ref->norm_c > 0.0 ? sqrt(err2) / (ref->norm_ab + ref->norm_c) : INFINITY;
    /* The bound: K roundings for alpha*A*B, two for beta*C (gemm_verify.h) */
    const double norms = ref->norm_ab + ref->norm_c;
    const double bound = gemm_normwise_bound(ref->k) * ref->norm_ab + GEMM_BETA_C * FLT_EPSILON * ref->norm_c;
    out->normwise_bound = norms > 0.0 ? bound / norms : 0.0;
    if (out->nonfinite)
        out->normwise_ratio = INFINITY;
    else if (err2 == 0.0)
        out->normwise_ratio = 0.0;
    else
        out->normwise_ratio = bound > 0.0 ? sqrt(err2) / bound : INFINITY;
    out->normwise_pass = out->normwise_ratio <= 1.0;
    out->pass = out->bad == 0 && out->normwise_pass;
}
