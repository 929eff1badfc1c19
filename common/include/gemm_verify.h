/**
 * @file gemm_verify.h
 * @brief Random test data, the double-precision reference, and the two checks of a result.
 *
 * A step passes only if its result passes two checks against a reference ref = alpha*A*B +
 * beta*C0 computed in double precision from the very same float inputs (C0 is C before the run):
 *
 * 1. **Element-wise, worst case.** Every element satisfies
 *
 *        |got - ref| <= GEMM_TOLERANCE_C * K * FLT_EPSILON * |alpha| * (|A||B|)_ij + GEMM_BETA_C * FLT_EPSILON * |beta * C0_ij|
 *
 *    where |A||B| is the product of the element-wise absolute values. This is the classic
 *    worst-case bound for a length-K float dot product (gamma_K ~= K*u with u = FLT_EPSILON/2)
 *    plus the two roundings of the alpha/beta update, fl(fl(alpha*s) + fl(beta*c)): they add
 *    u*|alpha*s| + u*|beta*c| + u*|alpha*s + beta*c|, at most 2u*|alpha*s| + 2u*|beta*c|. So
 *    alpha*A*B is charged (K+2)*u, which GEMM_TOLERANCE_C = 2 (4*K*u) covers for every K >= 1 and
 *    any summation order, and beta*C, which meets those two roundings and no others, 2u, which
 *    GEMM_BETA_C = 2 (4u) covers: a correct kernel can never fail it. (Charging beta*C with K
 *    roundings, as this bound once did, let a kernel that leaves alpha*A*B out pass wherever
 *    |alpha| is far below |beta|.) It locates a wrong element (a wrong index, an unwritten element, a race).
 *    But it grows like K^2 on random data (K terms of size E|a|E|b| each, times K*eps) while the
 *    result grows like sqrt(K): on the default data (#GEMM_DATA_SPREAD) from K ~ 65536 it exceeds
 *    most elements' result, and a kernel that writes zeros would pass it.
 *
 * 2. **Normwise, as rounding really behaves.** Over all the elements compared,
 *
 *        ||got - ref||_F <= GEMM_NORMWISE_C * sqrt(K) * FLT_EPSILON * ||alpha*A*B||_F + GEMM_BETA_C * FLT_EPSILON * ||beta*C0||_F
 *
 *    (Frobenius norms; the two terms are taken apart so that their cancelling each other in
 *    some elements cannot shrink the bound; beta*C0 is charged its two roundings, as above).
 *    The report gives the error relative to ||alpha*A*B||_F + ||beta*C0||_F, and the bound the same way.
 *    Higham's probabilistic rounding-error analysis (Higham & Mary, SIAM J. Sci. Comput. 41(5),
 *    2019) models the rounding errors as independent with mean zero: the K roundings of a dot
 *    product then add up like a random walk, to about sqrt(K)*u times the partial sums rather
 *    than K*u. With the harness's data (independent, of mean zero: random signs) the partial
 *    sums of a dot product grow like its result, and the expected relative error of recursive
 *    summation, the least accurate order a kernel uses, is about sqrt(K/2)*u = 0.35*sqrt(K)*eps;
 *    blocked and pairwise orders do better. GEMM_NORMWISE_C = 2 is a safety factor of 5.7 over
 *    that figure (the Frobenius norm averages over the elements, so its spread is small), and
 *    the correct kernels of the test suite stay below a tenth of the bound at every size it runs.
 *    A wrong result misses by far more: writing zeros gives a relative error of 1, leaving out
 *    half of the K loop about 0.7, dropping one tile of 16 along K about 4/sqrt(K); at K =
 *    4,000,000 the bound is 4.8e-4.
 *
 * NaN and Inf never pass either check. When the reference is a sample (gemm_reference_compute()),
 * both checks cover the sampled rows and columns, and every element of C is still checked for
 * NaN and Inf (an element a kernel does not write stays NaN when beta = 0).
 */
#ifndef GEMM_VERIFY_H
#define GEMM_VERIFY_H

#include <stddef.h>

#include "gemm_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief The constant c in the element-wise tolerance c * K * eps * magnitude (see the file comment). */
#define GEMM_TOLERANCE_C 2.0

/** @brief The constant c in the normwise bound c * sqrt(K) * eps (see the file comment). */
#define GEMM_NORMWISE_C 2.0

/** @brief The constant c of beta*C's share of both bounds, c * eps * |beta*C| (see the file comment). */
#define GEMM_BETA_C 2.0

/** @brief Rows and columns the reference covers when it is a sample (gemm_reference_compute()). */
#define GEMM_SAMPLE_LINES 64

/** @brief One problem's host data: sizes, scalars (as the kernel sees them: floats) and inputs. */
typedef struct gemm_host_data {
    long m;            /**< rows of A and C (C is m x n, A is m x k, B is k x n) */
    long n;            /**< columns of B and C */
    long k;            /**< columns of A, rows of B */
    float alpha;       /**< alpha, rounded to float exactly as passed to the kernels */
    float beta;        /**< beta, rounded to float exactly as passed to the kernels */
    float *a;          /**< A, m*k floats, row-major */
    float *b;          /**< B, k*n floats, row-major */
    float *c0;         /**< C before the run, m*n floats, row-major (unused by the kernels when beta = 0) */
} gemm_host_data;

/**
 * @brief The distributions of the random data (`--data`). Every one keeps every nonzero value's
 * magnitude in [2^-23, 1), so that gemm_check_scalars() holds for all of them; all but
 * #GEMM_DATA_GRID give every value a 24-bit significand (its last bit random), the full precision
 * of a float, as a user's data have: a kernel that rounds its inputs to fewer bits (TF32, half,
 * bfloat16) changes almost every one of them.
 */
typedef enum gemm_data {
    GEMM_DATA_SPREAD,  /**< the default: magnitudes log-uniform over 8 binades, [2^-8, 1), random signs */
    GEMM_DATA_UNIFORM, /**< uniform in (-1, 1) (below 2^-23, which a value falls with odds of 2^-23, it is moved up into [2^-23, 2^-22)) */
    GEMM_DATA_NORMAL,  /**< normal with mean 0 and standard deviation 1/4, drawn again outside [2^-23, 1) in magnitude (odds of 6e-5) */
    GEMM_DATA_WIDE,    /**< magnitudes log-uniform over 23 binades, [2^-23, 1), random signs */
    GEMM_DATA_GRID,    /**< multiples of 2^-23 in [-1, 1) (gemm_fill_uniform()): the data before December 2026, with
                            at most 23 significant bits and few at small magnitudes */
    GEMM_DATA_COUNT    /**< the number of distributions */
} gemm_data;

/** @brief The distribution's name for `--data` and the CSV ("spread", ...). */
const char *gemm_data_name(gemm_data kind);
/** @brief What the distribution is, in a few words, for the report and `--help`. */
const char *gemm_data_text(gemm_data kind);
/** @brief The distribution a name gives: 0, or -1 if no distribution has that name. */
int gemm_data_parse(const char *text, gemm_data *kind);

/**
 * @brief Fills @p count floats from stream @p stream of @p seed with distribution @p kind.
 *
 * The generator is splitmix64, and every distribution but #GEMM_DATA_NORMAL is made of its bits
 * alone, so the same seed gives the same values on every machine; the normal one goes through the C
 * library's log() and cos(), whose last bits may differ between machines (then, rarely, a value's
 * last bit).
 */
void gemm_fill_random(float *x, size_t count, gemm_data kind, unsigned long long seed, unsigned stream);

/**
 * @brief Allocates and fills A, B and C0 with random values of distribution @p kind.
 *
 * A, B and C use separate streams of one seeded generator (gemm_fill_random()), so the same seed
 * and distribution give the same matrices for every step and peer. Every nonzero value lies in
 * [2^-23, 1) in magnitude, so every nonzero |a*b| is at least 2^-46 and every nonzero |c| at least
 * 2^-23 (gemm_check_scalars() relies on it).
 * @return 0, or #GEMM_EXIT_RUNTIME with @p msg filled if memory runs out.
 */
int gemm_host_data_create(gemm_host_data *data, long m, long n, long k, double alpha, double beta, gemm_data kind,
                          unsigned long long seed, gemm_msg *msg);

/** @brief Frees what gemm_host_data_create() allocated (safe on a zeroed struct). */
void gemm_host_data_free(gemm_host_data *data);

/** @brief Fills @p count floats with multiples of 2^-23 in [-1, 1) (24 random bits each) from stream @p stream of @p seed. */
void gemm_fill_uniform(float *x, size_t count, unsigned long long seed, unsigned stream);

/**
 * @brief Refuses alpha and beta for which a correct float result cannot be checked: one that
 * could overflow, or fall below float's normal range (where a device may flush it to zero).
 *
 * With the harness's data (|a|, |b|, |c| <= 1, nonzero values at least 2^-23 in magnitude):
 * - every element and intermediate of alpha*A*B + beta*C stays below FLT_MAX/2 if
 *   |alpha|*K + |beta| <= FLT_MAX/2;
 * - every nonzero alpha*a*b and beta*c is a normal float if |alpha| >= 2^-80 and
 *   |beta| >= 2^-103 (2^-126 / 2^-46 and 2^-126 / 2^-23).
 *
 * Zero is always accepted (alpha = 0 computes beta*C; beta = 0 does not read C).
 * @return 0, or #GEMM_EXIT_BAD_INPUT with one line in @p msg giving the limits.
 */
int gemm_check_scalars(long k, double alpha, double beta, gemm_msg *msg);

/**
 * @brief The reference result, for every element or for a sample of rows and columns, and per
 * element the magnitude the element-wise tolerance scales with.
 *
 * Full: @c value[i*n + j] for every element. Sampled: the rows @c rows[0..nrows-1] in full
 * (@c value[r*n + j]), then the columns @c cols[0..ncols-1] in full (@c value[nrows*n + i*ncols + c]).
 */
typedef struct gemm_reference {
    long m;            /**< rows of the result */
    long n;            /**< columns of the result */
    long k;            /**< length of each dot product */
    double *value;     /**< alpha*A*B + beta*C0, in double */
    double *magnitude; /**< |alpha|*(|A||B|) + |beta|*|C0|/K, in double: the element-wise tolerance is
                            GEMM_TOLERANCE_C*K*eps times it (beta*C meets two roundings, not K) */
    int sampled;       /**< 0: every element; 1: the rows and columns below */
    long nrows;        /**< sampled rows (when sampled) */
    long ncols;        /**< sampled columns (when sampled) */
    long *rows;        /**< the sampled rows, increasing (when sampled) */
    long *cols;        /**< the sampled columns, increasing (when sampled) */
    double norm_ab;    /**< ||alpha*A*B||_F over the elements compared */
    double norm_c;     /**< ||beta*C0||_F over the elements compared */
} gemm_reference;

/**
 * @brief Computes the reference with a CPU BLAS dgemm when the build found one and it loads,
 * otherwise with a portable loop in double.
 *
 * The dgemm works on double copies of panels of A and B (at most about 64 MiB of them at a
 * time), so its memory is the result arrays plus that. With @p sample = 0 every element is
 * computed; otherwise the reference covers @p sample rows and @p sample columns (all of them
 * when the matrix has no more), spread evenly from the first to the last (gemm_memory.h decides
 * when: a full reference that would not fit in memory or take too long).
 * @return 0, or #GEMM_EXIT_RUNTIME with @p msg filled if memory runs out.
 */
int gemm_reference_compute(const gemm_host_data *data, long sample, gemm_reference *ref, gemm_msg *msg);

/** @brief Frees a reference (safe on a zeroed struct). */
void gemm_reference_free(gemm_reference *ref);

/** @brief Bytes gemm_reference_compute() allocates for an m x n x k problem (@p sample as there). */
double gemm_reference_bytes(long m, long n, long k, long sample);

/**
 * @brief Number of threads the CPU BLAS may start when it is loaded (it is loaded only when it is
 * first needed: gemm_blas_symbol()). Under an address-space limit (`ulimit -v`) the harness asks for
 * one: each OpenBLAS thread reserves a buffer of about 128 MiB, and OpenBLAS retries a failed
 * reservation forever. Has no effect once the library is loaded.
 */
void gemm_reference_threads(int threads);

/**
 * @brief A function of the CPU BLAS the build found (e.g. "cblas_sgemm"), loading the library on
 * the first call (with the thread count of gemm_reference_threads()), or NULL if there is none
 * or it does not load. The library is never linked into a program: it starts its threads as it
 * loads, which must wait until the memory limits are checked.
 */
void *gemm_blas_symbol(const char *name);

/** @brief 1 if the reference will use a CPU BLAS (the build found one), 0 for the portable loop. */
int gemm_reference_blas(void);

/** @brief How the reference is computed in this build, e.g. "CBLAS dgemm on double copies". */
const char *gemm_reference_method(void);

/** @brief The element-wise tolerance for one element: GEMM_TOLERANCE_C * k * FLT_EPSILON * magnitude. */
double gemm_tolerance(long k, double magnitude);

/** @brief alpha*A*B's share of the normwise bound, per unit of ||alpha*A*B||_F: GEMM_NORMWISE_C * sqrt(k) * FLT_EPSILON. */
double gemm_normwise_bound(long k);

/** @brief Outcome of comparing a result with the reference. */
typedef struct gemm_check {
    int pass;             /**< 1 if both checks pass and every element of C is finite */
    size_t checked;       /**< elements compared with the reference (all, or the sampled rows and columns) */
    size_t total;         /**< elements of C (all checked for NaN and Inf) */
    size_t bad;           /**< compared elements outside their bound, plus NaN and Inf anywhere */
    size_t nonfinite;     /**< elements that are NaN or Inf, anywhere in C */
    double worst_ratio;   /**< max over elements of |got-ref| / bound (Inf if a NaN, or an error where bound=0) */
    long worst_row;       /**< where the worst ratio is */
    long worst_col;       /**< where the worst ratio is */
    long first_bad_row;   /**< first failing element in row-major order, or -1 */
    long first_bad_col;   /**< first failing element in row-major order, or -1 */
    double first_bad_got; /**< its value */
    double first_bad_ref; /**< the expected value (NaN if the element is outside the sample) */
    double first_bad_tol; /**< its bound (NaN if the element is outside the sample) */
    double normwise;       /**< ||got-ref||_F / (||alpha*A*B||_F + ||beta*C0||_F) over the compared elements (Inf with a NaN) */
    double normwise_bound; /**< the bound on normwise: (GEMM_NORMWISE_C*sqrt(K)*eps*||alpha*A*B|| + GEMM_BETA_C*eps*||beta*C0||) / (||alpha*A*B|| + ||beta*C0||) */
    double normwise_ratio; /**< ||got-ref||_F over its bound: <= 1 passes */
    int normwise_pass;     /**< 1 if normwise_ratio <= 1 */
} gemm_check;

/** @brief Compares @p got (m x n, row-major) with @p ref (see the file comment). */
void gemm_check_result(const float *got, const gemm_reference *ref, gemm_check *out);

#ifdef __cplusplus
}
#endif

#endif /* GEMM_VERIFY_H */
