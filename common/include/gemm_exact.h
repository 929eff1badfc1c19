/**
 * @file gemm_exact.h
 * @brief The exact check: one more run on data whose answer every correct kernel computes exactly.
 *
 * The tolerance checks (gemm_verify.h) cannot see an error as small as the rounding a correct
 * kernel may make: one term of K left out, a result scaled by 1 + 1e-4, one element off by a
 * little. So every run verifies once more on small integers: A, B and C hold nonzero integers of
 * at most @c range in magnitude, alpha is +-2 and beta +-0.5 (each with the sign of the user's, 0
 * where the user's is 0), and every sum that any order of the arithmetic can form stays below 2^23
 * in magnitude, a multiple of 0.5. Every such value is a float, so every correct kernel, in any
 * summation order, with or without fused multiply-adds, on any device, computes exactly
 * alpha*A*B + beta*C; so does the host's float sgemm that gives the expected answer. The result is
 * compared element by element for equality (+0 and -0 count as equal: IEEE arithmetic leaves the
 * sign of an exact zero to the order of the operations), so a dropped term, a scaled result, one
 * element off, a transposed C, a skipped slice or tile fail it at every size and K.
 *
 * Where K is above 2^21, A's row i is nonzero only in the columns k with k % stride == i % stride
 * (stride = ceil(K / 2^21)), so that each dot product keeps at most 2^21 terms; every term of K is
 * then still used by the rows that match it. Integers of at most 2^10 are exact in TF32 too, so the
 * check holds for kernels that split operands into TF32 halves.
 *
 * The timing is not run on these data (zeros and small integers change a GPU's power and clocks):
 * the exact run comes after the timed runs, once.
 */
#ifndef GEMM_EXACT_H
#define GEMM_EXACT_H

#include "gemm_verify.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Most terms of one dot product on the exact data: 2 * 2^21 * range^2 + range/2 < 2^23. */
#define GEMM_EXACT_MAX_TERMS (1L << 21)

/** @brief Largest integer on the exact data (exact in TF32, whose significand has 11 bits). */
#define GEMM_EXACT_MAX_RANGE 1024L

/** @brief The outcome of the exact check. */
typedef struct gemm_exact {
    int ran;          /**< 1 once the check ran (0: not run, e.g. `--no-verify`) */
    int pass;         /**< 1 if every element equals the exact answer */
    long range;       /**< the integers of A, B and C are in [-range, range], 0 excluded */
    long stride;      /**< 1, or the stride of A's nonzero columns where K > GEMM_EXACT_MAX_TERMS */
    float alpha;      /**< the exact run's alpha: +-2, or 0 */
    float beta;       /**< the exact run's beta: +-0.5, or 0 */
    size_t wrong;     /**< elements that differ from the exact answer (NaN and Inf included) */
    size_t total;     /**< elements compared: all of C */
    long first_row;   /**< the first wrong element's row, or -1 */
    long first_col;   /**< its column */
    float first_got;  /**< its value */
    float first_want; /**< the exact answer there */
    double seconds;   /**< host time the exact check took, data, expected answer and run included */
} gemm_exact;

/**
 * @brief Fills @p data (allocated by gemm_host_data_create() for the same sizes) with the exact
 * check's integers, and its alpha and beta from the signs of @p alpha and @p beta; records the
 * range, the stride and the scalars in @p out.
 */
void gemm_exact_data_fill(gemm_host_data *data, double alpha, double beta, unsigned long long seed, gemm_exact *out);

/**
 * @brief Replaces C0 of @p data (from gemm_exact_data_fill(), once it is on the device) with the
 * exact answer alpha*A*B + beta*C0, computed in place (no memory beyond the data's) with the CPU
 * BLAS's sgemm where there is one, else a loop in float: on these data any order of float
 * arithmetic is exact.
 */
void gemm_exact_expected(gemm_host_data *data);

/** @brief Compares a result with the exact answer, every element; fills the counts and the first wrong element. */
void gemm_exact_compare(const float *got, const float *expected, long m, long n, gemm_exact *out);

#ifdef __cplusplus
}
#endif

#endif /* GEMM_EXACT_H */
