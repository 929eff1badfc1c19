/**
 * @file gemm_verify.h
 * @brief Random test data, the double-precision reference, and the element-wise check.
 *
 * The check is the heart of the tutorial's honesty: a step passes only if every element of C
 * satisfies
 *
 *     |got - ref| <= GEMM_TOLERANCE_C * K * FLT_EPSILON * (|alpha| * (|A||B|)_ij + |beta| * |C0_ij|)
 *
 * where ref = alpha*A*B + beta*C0 is computed in double precision from the very same float
 * inputs, |A||B| is the product of the element-wise absolute values, and C0 is C before the run.
 * This is the classic worst-case bound for a length-K float dot product (gamma_K ~= K*u with
 * u = FLT_EPSILON/2) plus the two roundings of the alpha/beta update; with GEMM_TOLERANCE_C = 2
 * the bound is 4*K*u, which covers (K+2)*u for every K >= 1 and any summation order, so a
 * correct kernel can never fail it, while a wrong index, a missing tile or an unwritten element
 * fails it by orders of magnitude. NaN and Inf never pass.
 */
#ifndef GEMM_VERIFY_H
#define GEMM_VERIFY_H

#include <stddef.h>

#include "gemm_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief The constant c in the tolerance c * K * eps * magnitude (see the file comment). */
#define GEMM_TOLERANCE_C 2.0

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
 * @brief Allocates and fills A, B and C0 with uniform random values in [-1, 1).
 *
 * A, B and C use separate streams of one seeded generator (splitmix64), so the same seed
 * gives the same matrices on every machine, for every step and peer.
 * @return 0, or #GEMM_EXIT_RUNTIME with @p msg filled if memory runs out.
 */
int gemm_host_data_create(gemm_host_data *data, long m, long n, long k, double alpha, double beta,
                          unsigned long long seed, gemm_msg *msg);

/** @brief Frees what gemm_host_data_create() allocated (safe on a zeroed struct). */
void gemm_host_data_free(gemm_host_data *data);

/** @brief Fills @p count floats with uniform values in [-1, 1) from stream @p stream of @p seed. */
void gemm_fill_uniform(float *x, size_t count, unsigned long long seed, unsigned stream);

/** @brief The reference result and, per element, the magnitude the tolerance scales with. */
typedef struct gemm_reference {
    long m;            /**< rows of the result */
    long n;            /**< columns of the result */
    long k;            /**< length of each dot product */
    double *value;     /**< alpha*A*B + beta*C0, in double */
    double *magnitude; /**< |alpha|*(|A||B|) + |beta|*|C0|, in double */
} gemm_reference;

/**
 * @brief Computes the reference with a CPU BLAS dgemm on double copies when the build found one,
 * otherwise with a portable blocked loop.
 * @return 0, or #GEMM_EXIT_RUNTIME with @p msg filled if memory runs out.
 */
int gemm_reference_compute(const gemm_host_data *data, gemm_reference *ref, gemm_msg *msg);

/** @brief Frees a reference (safe on a zeroed struct). */
void gemm_reference_free(gemm_reference *ref);

/** @brief How the reference is computed in this build, e.g. "CBLAS dgemm (double)". */
const char *gemm_reference_method(void);

/** @brief The tolerance for one element: GEMM_TOLERANCE_C * k * FLT_EPSILON * magnitude. */
double gemm_tolerance(long k, double magnitude);

/** @brief Outcome of comparing a result with the reference. */
typedef struct gemm_check {
    int pass;             /**< 1 if every element is finite and within its bound */
    size_t bad;           /**< elements outside their bound (NaN and Inf included) */
    size_t nonfinite;     /**< elements that are NaN or Inf */
    double worst_ratio;   /**< max over elements of |got-ref| / bound (Inf if a NaN, or an error where bound=0) */
    long worst_row;       /**< where the worst ratio is */
    long worst_col;       /**< where the worst ratio is */
    long first_bad_row;   /**< first failing element in row-major order, or -1 */
    long first_bad_col;   /**< first failing element in row-major order, or -1 */
    double first_bad_got; /**< its value */
    double first_bad_ref; /**< the expected value */
    double first_bad_tol; /**< its bound */
} gemm_check;

/** @brief Compares @p got (m x n, row-major) with @p ref element by element (see the file comment). */
void gemm_check_result(const float *got, const gemm_reference *ref, gemm_check *out);

#ifdef __cplusplus
}
#endif

#endif /* GEMM_VERIFY_H */
