/**
 * @file gemm_step.h
 * @brief What a step tells the harness, and the one function that runs it.
 *
 * A step (kernel01_naive ... kernel06_padding) is a kernel file plus a tiny main.c that
 * describes it with a #gemm_step: its parameters, and a @c plan function that, for one problem
 * and one set of parameter values, either refuses (a size or parameter the kernel cannot
 * handle: one line, exit 2) or lists the kernel launches: which kernel, which arguments, what
 * global and local sizes, how much local memory, and which helper buffers they need.
 * gemm_step_main() does everything else, identically for every step:
 *
 * 1. parse the options (gemm_options.h); choose the device (gemm_cl.h);
 * 2. take the step's default parameters for this class of device (gemm_params.h), then the
 *    user's `-D` overrides, and check each against its allowed range;
 * 3. call the plan, then check every launch against the device: work-group size, work-item
 *    sizes, local memory, largest allocation, total memory, and the 32-bit index range the
 *    kernels use;
 * 4. build the program with the parameters as `-D` defines (printing the build log if it fails)
 *    and check each kernel's own work-group limit;
 * 5. make random A, B, C and the double-precision reference (gemm_verify.h);
 * 6. before every run, restore C (to NaN when beta = 0, to its initial values otherwise) and fill
 *    the helper buffers with NaN, so that a run can only pass by writing every element itself;
 * 7. run `--warmup` untimed then `--repeat` timed runs; a run's time is the device time from
 *    the start of its first kernel to the end of its last (OpenCL profiling events), and each
 *    kernel's own time is kept too;
 * 8. read C back, check the guard regions of every buffer and every element of C, report
 *    (human or CSV, gemm_report.h) and return the exit code.
 *
 * Once the checks of step 3 pass, the head of the report (problem, device, parameters, runs) is
 * printed at once, and from then on a terminal shows a progress line (gemm_progress.h).
 */
#ifndef GEMM_STEP_H
#define GEMM_STEP_H

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
#define GEMM_MAX_CHOSEN 3

/** @brief Everything one run of a step enqueues, in order. */
typedef struct gemm_plan {
    int nlaunches;                           /**< launches used */
    gemm_launch launch[GEMM_MAX_LAUNCHES];   /**< the launches, run in this order */
    size_t temp_elems[GEMM_MAX_TEMPS];       /**< size of helper buffer i in floats (0 = unused) */
    const char *temp_label[GEMM_MAX_TEMPS];  /**< what helper buffer i holds */
    const char *chosen[GEMM_MAX_CHOSEN];     /**< parameters the plan chose itself (their `-D` value meant
                                                  "automatic": step 9's SLICES=0 and SPLIT_ROWS=0, step 10's
                                                  COPY=2), NULL after the last */
    long chosen_value[GEMM_MAX_CHOSEN];      /**< the values chosen: the report and the kernel's build see them */
} gemm_plan;

/** @brief Appends a launch of @p kernel over @p global_cols x @p global_rows with @p local_cols x @p local_rows work-groups. */
gemm_launch *gemm_plan_add(gemm_plan *plan, const char *kernel, const char *label, size_t global_cols,
                           size_t global_rows, size_t local_cols, size_t local_rows);

/** @brief Declares helper buffer @p which (GEMM_BUF_T0..T3) of @p elems floats. */
void gemm_plan_temp(gemm_plan *plan, gemm_buffer_id which, const char *label, size_t elems);

/** @brief Records that the plan chose @p value for parameter @p name (gemm_plan::chosen: the report
 *  and the kernel's build then see that value); returns nonzero if GEMM_MAX_CHOSEN are taken. */
int gemm_plan_choose(gemm_plan *plan, const char *name, long value);

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

/**
 * @brief Appends a launch of the `transpose` helper kernel of steps 4 and 5: @p out (cols x rows)
 * = @p in (rows x cols) transposed, with square tiles of @p tile work-items (TRANSPOSE_TILE) and
 * @p pad floats of local-memory padding per tile row (TRANSPOSE_PAD).
 */
gemm_launch *gemm_plan_transpose(gemm_plan *plan, const char *label, long rows, long cols, long tile, long pad,
                                 gemm_buffer_id in, gemm_buffer_id out);

/**
 * @brief The plan of steps 6 to 8 (zero-padding, "padding" meaning zero-padding of the matrices):
 * Kp, Mp, Np are K, M, N rounded up to TSK, TSM, TSN; `transpose` writes A^T zero-padded to
 * Kp x Mp; `pad` copies B into Kp x Np with zeros around it, only when B is not already that size;
 * `sgemm` runs on the padded sizes, with the caller's beta when C needs no padding and beta = 0 into
 * a padded C otherwise; `unpad` then copies C's M x N corner into C, applying beta. The helpers take
 * TRANSPOSE_TILE x TRANSPOSE_TILE work-groups, the sgemm TSN/WPTN x TSM/WPTM; the kernels' header
 * comments give their arguments. The step's own checks on its parameters come first, in its plan.
 * @param p the problem, with the step's parameters (TSM, TSN, TSK, WPTM, WPTN, WIDTH,
 *          TRANSPOSE_TILE, TRANSPOSE_PAD)
 * @param plan the plan to fill
 * @param sgemm_local_bytes the local memory the step's sgemm declares, for the device check
 */
void gemm_plan_padded(const gemm_problem *p, gemm_plan *plan, size_t sgemm_local_bytes);

/** @brief How step 9 splits K: the last @c rows block rows of C (TSM rows each) are computed by
 * @c slices work-groups per block, each over one slice of K's tiles; the others whole.
 * slices = 1 (rows = 0): no split. */
typedef struct gemm_split_k {
    long slices; /**< SLICES: work-groups per block of a split row, one per slice of K */
    long rows;   /**< SPLIT_ROWS: how many of the last block rows are split (0 when slices = 1) */
} gemm_split_k;

/**
 * @brief How step 9 splits K (its parameters SLICES and SPLIT_ROWS; 0 lets this function choose).
 *
 * The rows: those left over once whole waves of blocks are taken row by row (the device runs
 * compute units x GROUPS_PER_CU work-groups at once), all of them when the blocks are fewer than one
 * wave; SPLIT_ROWS = n forces the last min(n, Mp/TSM). The slices: the cheapest number by
 * gemm_split_k_cost() (the smallest of equals), at most 64, Kp/TSK, and what keeps the copies within
 * one allocation and the kernels' 32-bit indices; SLICES = n forces n (and at least one split row).
 * @param p the problem, with TSM, TSN, TSK, SLICES, SPLIT_ROWS and GROUPS_PER_CU
 * @return the split; {1, 0} for none
 */
gemm_split_k gemm_split_k_choose(const gemm_problem *p);

/**
 * @brief The model behind gemm_split_k_choose(), in units of one TSK-deep tile of the sgemm's loop.
 *
 * The whole blocks' work-groups (Kp/TSK tiles each) and then the split rows' (ceil(Kp/TSK / s) tiles
 * each), every one GEMM_SPLIT_GROUP_TILES tiles longer, take turns on compute units x GROUPS_PER_CU slots, each work-group on the first slot free;
 * the time is when the last one ends. Reading and writing C and its copies costs
 * 4*GEMM_SPLIT_FLOPS_PER_BYTE / (2*TSK) tiles per float over all slots: unpad reads every slice's
 * copy of the split rows and writes those rows of C, and where C is padded also reads and writes its
 * whole rows (the sgemm's writes of the copies overlap other work-groups' arithmetic: run 13 showed
 * no cost).
 * @param p the problem, with TSM, TSN, TSK and GROUPS_PER_CU
 * @param split_k the split to cost
 * @return the modelled time in tiles
 */
double gemm_split_k_cost(const gemm_problem *p, gemm_split_k split_k);

/**
 * @brief A GPU's arithmetic rate divided by its memory bandwidth, in flops per byte, as
 * gemm_split_k_cost() assumes it (an NVIDIA H100 runs step 8's sgemm at about 46 TFLOPS and
 * copies at about 3 TB/s).
 */
#define GEMM_SPLIT_FLOPS_PER_BYTE 15.0

/**
 * @brief What one work-group of step 9's sgemm costs beyond its tiles, in tiles, as gemm_split_k_cost()
 * assumes it: its first tile is loaded with nothing to overlap it, and its block of C is stored at the
 * end. One tile: with none, the model chose 19 slices at 8192 on an H100, where 9 measured faster
 * (run 13 in bench/README.md); with two, 1 slice at 1000x3000x500, where 4 measured 9 % faster.
 */
#define GEMM_SPLIT_GROUP_TILES 1.0

/**
 * @brief Step 9's plan: gemm_plan_padded() with K split as @p split_k says
 * (gemm_split_k_choose()): the sgemm's grid of work-groups has its whole block rows first, written
 * as steps 6-8 write them (into C, or into the padded C with beta = 0), then the split block rows once
 * per slice, each writing its partial product (times alpha, with beta = 0) into its own copy of the
 * split rows (helper buffer 3); `unpad` adds the copies up into C, applying beta, over the split rows
 * alone when C needs no padding. The sgemm takes two more arguments, the copies and the number of
 * split rows (0 when nothing is split), and `unpad` step 9's arguments
 * `(rows, cols, paddedRows, paddedCols, firstRow, splitFrom, slices, beta, in, copies, out)`.
 */
void gemm_plan_split_k(const gemm_problem *p, gemm_plan *plan, size_t sgemm_local_bytes, gemm_split_k split_k);

/**
 * @brief The plan of steps 9 and 10: gemm_split_k_choose()'s split (SLICES and SPLIT_ROWS = 0, and
 * a SPLIT_ROWS adjusted to the rows there are or to no split, are reported with the values the
 * kernel runs with, gemm_plan::chosen), refused with one line if SLICES times the tiles of K, or
 * C with its copies, would leave the kernels' 32-bit indices; then gemm_plan_split_k().
 * @return 0 or #GEMM_EXIT_BAD_INPUT with @p msg filled.
 */
int gemm_plan_split_k_auto(const gemm_problem *p, gemm_plan *plan, size_t sgemm_local_bytes, gemm_msg *msg);

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
 * @name Parameters shared by steps 4 to 10
 * Initializers of #gemm_param_info for the parameters that several steps take, so that each
 * step's table lists the ones it uses and every step describes them alike.
 * @{
 */
/** @brief TSM: rows of C per work-group. */
#define GEMM_PARAM_TSM {"TSM", 1, 256, "tile height: a work-group computes TSM rows of C"}
/** @brief TSN: columns of C per work-group. */
#define GEMM_PARAM_TSN {"TSN", 1, 256, "tile width: a work-group computes TSN columns of C"}
/** @brief TSK: depth of the tiles along K. */
#define GEMM_PARAM_TSK \
    {"TSK", 1, 256, "tile depth along K: the work-group stages TSK x TSM of A^T and TSK x TSN of B at a time"}
/** @brief WPTM: rows of C per work-item. */
#define GEMM_PARAM_WPTM {"WPTM", 1, 32, "work per thread along M: each work-item computes WPTM rows of C"}
/** @brief WPTN: columns of C per work-item. */
#define GEMM_PARAM_WPTN {"WPTN", 1, 32, "work per thread along N: each work-item computes WPTN columns of C"}
/** @brief WTM: rows of C per warp. */
#define GEMM_PARAM_WTM {"WTM", 1, 256, "warp tile height: the work-items of a warp compute WTM rows of C together"}
/** @brief WTN: columns of C per warp. */
#define GEMM_PARAM_WTN {"WTN", 1, 256, "warp tile width: the work-items of a warp compute WTN columns of C together"}
/** @brief LANE_SQUARES: how the work-items of a warp stand in its tile (0: in rows, 1: in 2 x 2 squares). */
#define GEMM_PARAM_LANE_SQUARES \
    {"LANE_SQUARES", 0, 1, "0: a warp's work-items stand in rows of its tile; 1: in squares of 2 x 2, so that neighbouring ones read the same vectors of A^T and of B"}
/** @brief WIDTH: the vector width. */
#define GEMM_PARAM_WIDTH \
    {"WIDTH", 1, 8, "vector width (1, 2, 4 or 8): loads, stores and arithmetic on WIDTH floats at a time"}
/** @brief TRANSPOSE_TILE: the helper kernels' work-group side. */
#define GEMM_PARAM_TRANSPOSE_TILE \
    {"TRANSPOSE_TILE", 1, 64, "side of the square work-groups of the helper kernels; the transpose stages such a tile"}
/** @brief TRANSPOSE_PAD: local-memory padding of the transpose tile. */
#define GEMM_PARAM_TRANSPOSE_PAD \
    {"TRANSPOSE_PAD", 0, 1, "local-memory padding of the transpose tile against bank conflicts (0 or 1 float per row)"}
/** @brief SLICES: how many parts step 9 splits K into (0: the host chooses). */
#define GEMM_PARAM_SLICES \
    {"SLICES", 0, 64, "split K into this many slices, each a work-group per block of a split row of C (0: chosen for the problem and the device)"}
/** @brief SPLIT_ROWS: how many of the last block rows step 9 splits (0: the host chooses). */
#define GEMM_PARAM_SPLIT_ROWS \
    {"SPLIT_ROWS", 0, 1 << 20, "split K for the last SPLIT_ROWS rows of blocks of C (all of them if more; 0: chosen with SLICES)"}
/** @brief GROUPS_PER_CU: how many sgemm work-groups a compute unit runs at once (for choosing SLICES). */
#define GEMM_PARAM_GROUPS_PER_CU \
    {"GROUPS_PER_CU", 1, 64, "work-groups of the sgemm that one compute unit runs at once, for choosing SLICES"}
/** @brief STAGES: local tiles in step 10's ring of asynchronous copies. */
#define GEMM_PARAM_STAGES \
    {"STAGES", 2, 8, "local tiles of A^T and of B in the ring: the copies of the next STAGES-1 tiles run while one is used"}
/** @brief COPY: how step 10 copies a tile from global to local memory. */
#define GEMM_PARAM_COPY \
    {"COPY", 0, 2, "how tiles are copied to local memory: 0 async_work_group_copy (any device), 1 cp.async (NVIDIA, compute capability 8.0+), 2 cp.async where the device has it, else 0"}
/** @} */

/**
 * @brief The checks of steps 4 to 6 on their tiles: WIDTH valid for the device
 * (gemm_require_width()), TSM and TSN multiples of WIDTH. @return 0 or #GEMM_EXIT_BAD_INPUT.
 */
int gemm_require_vector_tiles(gemm_msg *msg, const gemm_problem *p);

/**
 * @brief The checks of steps 5 and 6 on their register blocks: gemm_require_vector_tiles()'s,
 * then WPTM and WPTN multiples of WIDTH, TSM a multiple of WPTM and TSN of WPTN.
 * @return 0 or #GEMM_EXIT_BAD_INPUT.
 */
int gemm_require_register_blocks(gemm_msg *msg, const gemm_problem *p);

/**
 * @brief The checks of steps 7 to 9 on their tile loads: gemm_require_register_blocks()'s, then:
 * each tile, TSK*TSM/WIDTH vectors of A^T and TSK*TSN/WIDTH of B, divides evenly among the
 * (TSM/WPTM)*(TSN/WPTN) work-items of a work-group, which hold their shares in registers.
 * @return 0 or #GEMM_EXIT_BAD_INPUT.
 */
int gemm_require_even_tile_loads(gemm_msg *msg, const gemm_problem *p);

/**
 * @brief The checks of steps 8 to 10 on their warp tiles: gemm_require_even_tile_loads()'s, then TSM a
 * multiple of WTM, TSN of WTN, WTM of WPTM and WTN of WPTN, and with LANE_SQUARES = 1 an even number of
 * work-items each way in a warp. @return 0 or #GEMM_EXIT_BAD_INPUT.
 */
int gemm_require_warp_tiles(gemm_msg *msg, const gemm_problem *p);

/** @brief The local memory of the double-buffered sgemm of steps 7 to 9: two tiles of A^T (TSK x TSM)
 * and two of B (TSK x TSN), in bytes. */
size_t gemm_double_buffer_bytes(const gemm_problem *p);

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

/**
 * @brief A library peer (e.g. CLBlast) in place of a plan: enqueue C = alpha*A*B + beta*C on
 * @p queue with the given buffers and return the event of the last command in @p done.
 * Such a run is timed from the end of the command before it to the end of @p done.
 */
typedef int (*gemm_library_fn)(const gemm_problem *p, cl_command_queue queue, cl_mem a, cl_mem b, cl_mem c,
                               cl_event *done, gemm_msg *msg);

/** @brief A step (or an OpenCL library peer), as the harness sees it. */
typedef struct gemm_step {
    const char *name;                /**< "kernel02_tiled" */
    const char *summary;             /**< one line: the idea the step adds */
    const char *source;              /**< the kernel source embedded at build time */
    const gemm_param_info *params;   /**< the parameters the kernel takes as -D defines */
    int nparams;                     /**< how many */
    int (*plan)(const gemm_problem *p, gemm_plan *plan, gemm_msg *msg); /**< launches, or a refusal */
    gemm_library_fn library;         /**< instead of source and plan: a library call */
    const char *source_file;         /**< the embedded kernel's file from the source root, for the build log, or NULL */
} gemm_step;

/**
 * @brief Checks a plan against the device in @p p: every launch's work-group size, work-item
 * sizes and local memory, every buffer against the largest allocation and the 32-bit index
 * range, and all buffers together against the device's memory.
 * @param p the problem, with the chosen device
 * @param plan the launches and helper buffers the step's plan produced
 * @param params the parameters as text, quoted in messages
 * @param msg filled with one line when the plan is refused
 * @return 0, or #GEMM_EXIT_BAD_INPUT with one line in @p msg naming the limit and the values.
 */
int gemm_check_plan(const gemm_problem *p, const gemm_plan *plan, const char *params, gemm_msg *msg);

/** @brief Runs a step as described in the file comment. @return the process exit code. */
int gemm_step_main(const gemm_step *step, int argc, char **argv);

/** @brief The kernel source that CMake's gemm_add_step() embeds into every step's executable. */
extern const char gemm_kernel_source[];

#ifndef GEMM_KERNEL_FILE
/** @brief The step's kernel file from the source root (CMake's gemm_add_step() defines it). */
#define GEMM_KERNEL_FILE NULL
#endif

/**
 * @brief Defines a step's main(): the step's name comes from CMake (GEMM_STEP_NAME), the source
 * from the embedded kernel file (GEMM_KERNEL_FILE); @p summary, @p params (an array) and
 * @p plan_fn from main.c.
 */
#define GEMM_STEP_MAIN(summary, params, plan_fn)                                                          \
    int main(int argc, char **argv)                                                                       \
    {                                                                                                     \
        static const gemm_step step = {GEMM_STEP_NAME, summary, gemm_kernel_source, params,              \
                                       (int)(sizeof(params) / sizeof((params)[0])), plan_fn, NULL,        \
                                       GEMM_KERNEL_FILE};                                                 \
        return gemm_step_main(&step, argc, argv);                                                         \
    }

#ifdef __cplusplus
}
#endif

#endif /* GEMM_STEP_H */
