/**
 * @file gemm_plan.h
 * @brief What a step's plan says: the problem it is made for, and the kernel launches and helper
 * buffers it lists (with the tools to build them and to refuse a size or parameter in one line).
 *
 * A step's `plan` function (in its main.c) gets a #gemm_problem and fills a #gemm_plan, or refuses
 * with one line and #GEMM_EXIT_BAD_INPUT. The checks and plans that belong to one step's idea
 * (warp tiles, even tile loads, zero-padding, split-K) are in gemm_step_rules.h; what the harness
 * does with a plan is in gemm_step.h.
 */
#ifndef GEMM_PLAN_H
#define GEMM_PLAN_H

#include <stddef.h>

#include "gemm_cl.h"
#include "gemm_options.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief A parameter a step's kernel takes as a `-D` define, with its allowed range. */
typedef struct gemm_param_info {
    const char *name; /**< e.g. "TS" */
    long min;         /**< smallest allowed value */
    long max;         /**< largest allowed value */
    const char *help; /**< one line for `--help` */
} gemm_param_info;

/** @brief The problem a plan is made for. */
typedef struct gemm_problem {
    const char *step;               /**< the step's name, for messages */
    long m;                         /**< rows of A and C (C is m x n, A is m x k, B is k x n) */
    long n;                         /**< columns of B and C */
    long k;                         /**< columns of A, rows of B */
    float alpha;                    /**< the scalar alpha */
    float beta;                     /**< the scalar beta */
    const gemm_defines *params;     /**< every parameter of the step, with its value */
    const gemm_device_info *device; /**< the chosen device */
} gemm_problem;

/** @brief The value of parameter @p name (every declared parameter has one by the time a plan runs). */
long gemm_param(const gemm_problem *p, const char *name);

/** @brief Buffers a launch can take as an argument: the three matrices and up to three helpers. */
typedef enum gemm_buffer_id {
    GEMM_BUF_A = 0, /**< A, m x k */
    GEMM_BUF_B,     /**< B, k x n */
    GEMM_BUF_C,     /**< C, m x n: the result is read from here */
    GEMM_BUF_T0,    /**< helper buffer 0 (e.g. A transposed) */
    GEMM_BUF_T1,    /**< helper buffer 1 */
    GEMM_BUF_T2,    /**< helper buffer 2 */
    GEMM_BUF_T3,    /**< helper buffer 3 */
    GEMM_BUF_COUNT
} gemm_buffer_id;

/** @brief Most helper buffers a plan may ask for. */
#define GEMM_MAX_TEMPS 4
/** @brief Most kernel launches in one run of a step. */
#define GEMM_MAX_LAUNCHES 5
/** @brief Most arguments of one kernel. */
#define GEMM_MAX_ARGS 12

/** @brief Kinds of kernel arguments. */
typedef enum gemm_arg_kind { GEMM_ARG_INT, GEMM_ARG_FLOAT, GEMM_ARG_BUFFER } gemm_arg_kind;

/** @brief One kernel argument. */
typedef struct gemm_arg {
    gemm_arg_kind kind;    /**< which member holds the value */
    int i;                 /**< for GEMM_ARG_INT */
    float f;               /**< for GEMM_ARG_FLOAT */
    gemm_buffer_id buffer; /**< for GEMM_ARG_BUFFER */
} gemm_arg;

/** @brief One kernel launch: an NDRange of two dimensions (dimension 0 runs along the columns). */
typedef struct gemm_launch {
    const char *kernel;      /**< kernel function name in the program */
    const char *label;       /**< what it does, for the report (e.g. "transpose A") */
    size_t global[2];        /**< global size; must be a multiple of local */
    size_t local[2];         /**< work-group size */
    size_t local_mem_bytes;  /**< local memory the kernel declares, computed from the parameters */
    int nargs;               /**< arguments used */
    gemm_arg arg[GEMM_MAX_ARGS]; /**< arguments, in order */
} gemm_launch;

/** @brief The most parameters a plan chooses itself (gemm_plan::chosen). */
#define GEMM_MAX_CHOSEN 12

/** @brief Everything one run of a step enqueues, in order. */
typedef struct gemm_plan {
    int nlaunches;                           /**< launches used */
    gemm_launch launch[GEMM_MAX_LAUNCHES];   /**< the launches, run in this order */
    size_t temp_elems[GEMM_MAX_TEMPS];       /**< size of helper buffer i in floats (0 = unused) */
    const char *temp_label[GEMM_MAX_TEMPS];  /**< what helper buffer i holds */
    unsigned char temp_counters[GEMM_MAX_TEMPS]; /**< 1: helper buffer i holds counters (ints), zero when
                                                  created and never poisoned; the kernels must leave them
                                                  zero, which verification checks (gemm_plan_counters()) */
    const char *chosen[GEMM_MAX_CHOSEN];     /**< parameters the plan chose itself (their `-D` value meant
                                                  "automatic": step 9's SLICES=0 and SPLIT_ROWS=0, step 10's
                                                  COPY=2, step 12's halved tile), NULL after the last */
    long chosen_value[GEMM_MAX_CHOSEN];      /**< the values chosen: the report and the kernel's build see them */
} gemm_plan;

/** @brief Appends a launch of @p kernel over @p global_cols x @p global_rows with @p local_cols x @p local_rows work-groups. */
gemm_launch *gemm_plan_add(gemm_plan *plan, const char *kernel, const char *label, size_t global_cols,
                           size_t global_rows, size_t local_cols, size_t local_rows);

/** @brief Declares helper buffer @p which (GEMM_BUF_T0..T3) of @p elems floats. */
void gemm_plan_temp(gemm_plan *plan, gemm_buffer_id which, const char *label, size_t elems);

/** @brief Declares helper buffer @p which (GEMM_BUF_T0..T3) as @p elems counters (4-byte ints): the
 *  harness makes it zero once, when it creates it, and never poisons it; every run must leave it zero
 *  again (step 12's count of the slices that have finished a block; verification reads it back). */
void gemm_plan_counters(gemm_plan *plan, gemm_buffer_id which, const char *label, size_t elems);

/** @brief Records that the plan chose @p value for parameter @p name (gemm_plan::chosen: the report
 *  and the kernel's build then see that value); returns nonzero if GEMM_MAX_CHOSEN are taken. */
int gemm_plan_choose(gemm_plan *plan, const char *name, long value);

/** @brief Buffer @p b's name for messages: "A", "B", "C", or the plan's label of a helper buffer. */
const char *gemm_plan_buffer_name(const gemm_plan *plan, int b);
/** @brief Floats in one row of buffer @p b (the size of its guard regions): K for A, N for B and C, the longest for a helper. */
size_t gemm_buffer_row(const gemm_problem *p, int b);

/** @brief Appends an int argument. */
void gemm_arg_int(gemm_launch *l, long value);
/** @brief Appends a float argument. */
void gemm_arg_float(gemm_launch *l, float value);
/** @brief Appends a buffer argument. */
void gemm_arg_buffer(gemm_launch *l, gemm_buffer_id which);

/**
 * @brief Appends the arguments every SGEMM kernel of the tutorial takes, in this order:
 * `(int M, int N, int K, float alpha, float beta, A, B, C)`.
 */
void gemm_arg_sgemm(gemm_launch *l, long m, long n, long k, float alpha, float beta, gemm_buffer_id a,
                    gemm_buffer_id b, gemm_buffer_id c);


/** @brief @p x rounded up to a multiple of @p multiple. */
size_t gemm_round_up(size_t x, size_t multiple);

/**
 * @brief Refuses a size that is not a multiple of a tile: fills @p msg with one line naming the
 * dimension, the tile parameter, their values and kernel06_padding (the step for any size).
 * @return 0 if @p value is a multiple of @p tile, #GEMM_EXIT_BAD_INPUT otherwise.
 */
int gemm_require_multiple(gemm_msg *msg, const gemm_problem *p, const char *dim, long value, const char *param,
                          long tile);

/**
 * @brief gemm_require_multiple() for all three dimensions: M by the tile @p pm = @p tm, N by
 * @p pn = @p tn, K by @p pk = @p tk. @return 0 or #GEMM_EXIT_BAD_INPUT with @p msg filled.
 */
int gemm_require_tiles(gemm_msg *msg, const gemm_problem *p, const char *pm, long tm, const char *pn, long tn,
                       const char *pk, long tk);
/**
 * @brief Checks a vector width WIDTH for the vectorized steps: one of 1, 2, 4, 8, and buffers
 * aligned to it (the harness's buffers start at multiples of the device's base address
 * alignment, CL_DEVICE_MEM_BASE_ADDR_ALIGN). @return 0 or #GEMM_EXIT_BAD_INPUT with @p msg filled.
 */
int gemm_require_width(gemm_msg *msg, const gemm_problem *p, long width);

/**
 * @brief Refuses a parameter combination: "<what> (<detail>)", exit 2. Use for relations between
 * parameters, e.g. "TSM must be a multiple of WPTM".
 * @return 0 if @p ok, #GEMM_EXIT_BAD_INPUT otherwise.
 */
int gemm_require(gemm_msg *msg, int ok, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
#ifdef __cplusplus
}
#endif

#endif /* GEMM_PLAN_H */
