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
 * Integers cannot see precision: those of at most 2^10 (11 bits) are exact in TF32, half and
 * bfloat16 alike, so a kernel that rounds its inputs to those formats passes on them. A second run,
 * the **precision check**, uses values with more significant bits than those formats keep, arranged
 * so that every correct kernel is still exact on them (gemm_precision_data_fill(); docs/harness.md,
 * "The precision check", derives each claim):
 *
 * - Each k of K is an "A" or a "B" index, drawn at random (k = 0 is A's and k = 1 B's). At an A
 *   index, A's column k holds *precise* values, 2^13 + 8h + d (14 significant bits, h a random
 *   10-bit number with its bit 2 clear, d in {1, 2, 3}), and B's row k *plain* ones, 1; at a B index
 *   the other way round. So every product is a precise value times a plain one: exact in float
 *   (14 bits), and never a product of two remainders (step 11's lo*lo, which it leaves out, is 0).
 * - Every value of column k of A and row k of B has one sign, drawn for k, so that every product is
 *   positive; C0's values are precise with the sign of alpha*beta. Every term of an element then has
 *   the sign of alpha: no error can cancel another.
 * - Column k of A is scaled by 2^-(14+g), row k of B by 2^-(14+13-g), g drawn from 0 to 13 for each
 *   k (g = 13 at k = 0): A and B span 27 binades each, from 2^-27 to 1, while every product is
 *   2^-41 times an integer below 2^14, and C0 is too. Precise values stay within half's normal range.
 * - With alpha = +-2 and beta = +-0.5, as above, and at most GEMM_PRECISION_MAX_TERMS nonzero terms
 *   per element (A's rows sparse, with an odd stride, beyond that), every sum in any order is a
 *   multiple of 2^-42 below 2^-18: exact in float.
 *
 * A precise value rounded to 11 significant bits (TF32, half) loses d, to 8 (bfloat16) 8*(h%4) + d:
 * less than half its last kept place, so round-to-nearest, ties to even or away, and truncation all
 * make it smaller in magnitude; a plain value survives or, below half's range, becomes 0. Every
 * kernel that rounds an input, or leaves out a product of step 11's split (hi*lo or lo*hi, each
 * nonzero wherever an element has an index of that kind), or skips small values (A's plain values
 * are at most 2^-14) therefore gives every element it touches a result smaller in magnitude than
 * the exact one, at every K (at K = 1 only A holds precise values: a kernel that rounds B alone is
 * left to the tolerance checks there, which see a TF32-size error at small K).
 *
 * The timing is not run on these data (zeros and small integers change a GPU's power and clocks):
 * the exact runs come after the timed runs, once each.
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

/** @brief Most nonzero terms of one dot product on the precision check's data:
 * 2*255*(2^14 - 1) + 0.5*(2^14 - 1) < 2^23, so every sum is below 2^24 times its last place. */
#define GEMM_PRECISION_MAX_TERMS 255L

/** @brief The outcome of an exact check: on integers (gemm_exact_data_fill()), or the precision check. */
typedef struct gemm_exact {
    int ran;          /**< 1 once the check ran (0: not run, e.g. `--no-verify`) */
    int precision;    /**< 0: the integers; 1: the precision check's 14-bit values */
    int pass;         /**< 1 if every element equals the exact answer */
    long range;       /**< the integers of A, B and C are in [-range, range], 0 excluded (not the precision check) */
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
 * @brief Fills @p data (allocated by gemm_host_data_create() for the same sizes) with the precision
 * check's values (see the file comment), and its alpha and beta from the signs of @p alpha and
 * @p beta; records the stride and the scalars in @p out.
 */
void gemm_precision_data_fill(gemm_host_data *data, double alpha, double beta, unsigned long long seed,
                              gemm_exact *out);

/**
 * @brief Replaces C0 of @p data (from gemm_exact_data_fill(), once it is on the device) with the
 * exact answer alpha*A*B + beta*C0, computed in place (no memory beyond the data's) with the CPU
 * BLAS's sgemm where there is one, else a loop in float: on either check's data any order of
 * float arithmetic is exact.
 */
void gemm_exact_expected(gemm_host_data *data);

/** @brief Compares a result with the exact answer, every element; fills the counts and the first wrong element. */
void gemm_exact_compare(const float *got, const float *expected, long m, long n, gemm_exact *out);

#ifdef __cplusplus
}
#endif

#endif /* GEMM_EXACT_H */
