/**
 * @file gemm_step_rules.h
 * @brief The checks and plans that belong to one step's idea, called from the steps' main.c:
 * vector tiles (steps 4-6), register blocks (5-6), even tile loads (7-9), warp tiles (8-10), the
 * double buffer's local memory (7-9), the transpose (4-5), zero-padding (6-10) and split-K (9-10).
 *
 * The runner (gemm_step.h) knows none of them: a new step puts its own rules here, or in its
 * main.c when no other step shares them.
 */
#ifndef GEMM_STEP_RULES_H
#define GEMM_STEP_RULES_H

#include "gemm_plan.h"

#ifdef __cplusplus
extern "C" {
#endif

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
/** @brief TILE_BY_SIZE: step 12 halves its tile where the problem is small (gemm_tile_by_size()). */
#define GEMM_PARAM_TILE_BY_SIZE \
    {"TILE_BY_SIZE", 0, 1, "1: where even a tile of half the sides (TSM/2 x TSN/2) makes no more blocks of C than the device has compute units, the host halves TSM, TSN, WTM, WTN, WPTM and WPTN (the same work-items, each computing a quarter of the elements it did) and reports the halved values with TILE_BY_SIZE=0; 0: the tile as given, at every size"}
/** @brief STAGES: local tiles in step 10's ring of asynchronous copies. */
#define GEMM_PARAM_STAGES \
    {"STAGES", 2, 8, "local tiles of A^T and of B in the ring: the copies of the next STAGES-1 tiles run while one is used"}
/** @brief COPY: how step 10 copies a tile from global to local memory. */
#define GEMM_PARAM_COPY \
    {"COPY", 0, 3, "how tiles are copied to local memory: 0 async_work_group_copy (any device), 1 cp.async (NVIDIA, compute capability 8.0+), 2 cp.async where the device has it, else 0; 3 for testing only: 0 with copies that complete as late as allowed (NaN until the wait)"}
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
 * (run 13 in lab/README.md); with two, 1 slice at 1000x3000x500, where 4 measured faster.
 */
#define GEMM_SPLIT_GROUP_TILES 1.0

/**
 * @brief What step 12's sgemm loses, as a fraction of its time, where it is built with the code that
 * sums split-K's slices (HAS_SPLIT_ROWS=1, where the host launches split rows), as step 12's cost in
 * gemm_split_k_cost()'s model assumes it: never run, that code still took registers from the loop. On
 * an H100 the kernel built with it and launched with no split ran 1.4 to 4.2% slower at 2048, 4096
 * and 8192 than the kernel built without it (lab/tuning/nvidia-h100-step12-live.log; 3.0% on average).
 * With it the model splits only where the split's gain outweighs it (not at 4096 and 8192 there).
 */
#define GEMM_SPLIT_CODE_COST 0.03

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

/**
 * @brief The checks of steps 11 and 12 (@p step, for the message) on the tensor cores' operation: K >= 8
 * (a product of values split into TF32 halves keeps about 21 of a float's 24 bits: below 8 terms its
 * error may miss FP32's bound), gemm_require_warp_tiles(), warps of 32 lanes on 16 x 8 x 8 blocks (WTM a multiple of 16, WTN
 * and TSK of 8), TILE_PAD a multiple of WIDTH, PRODUCTS 1 or 3, and TC = 1 or COPY = 1 (inline PTX)
 * only on an NVIDIA GPU of compute capability 8.0 or higher.
 * @return 0 or #GEMM_EXIT_BAD_INPUT with @p msg filled.
 */
int gemm_require_tensor_cores(gemm_msg *msg, const gemm_problem *p, int step);

/**
 * @brief Step 12's tile by size (TILE_BY_SIZE = 1): where a tile of half the sides still makes no more
 * blocks of C than the device has compute units (ceil(M/(TSM/2)) * ceil(N/(TSN/2)) <= compute units),
 * so that the given tile would leave three quarters of them or more without a block of their own, the
 * problem's TSM, TSN, WTM, WTN, WPTM and WPTN are halved (the work-group keeps its work-items, the
 * warp its lanes) if the halved values pass gemm_require_tensor_cores(); the plan records them, and
 * TILE_BY_SIZE = 0, as chosen (gemm_plan_choose()), so that the report, the build and a second plan of
 * the same run see the tile as built.
 * @param p the problem as given
 * @param plan the plan that records the halved values as chosen
 * @param halved filled with @p p, its parameters @p halved_params, when the tile is halved
 * @param halved_params filled with @p p's parameters, the tile halved and TILE_BY_SIZE = 0
 * @return @p p, or @p halved with the halved tile.
 */
const gemm_problem *gemm_tile_by_size(const gemm_problem *p, gemm_plan *plan, gemm_problem *halved,
                                      gemm_defines *halved_params);

/**
 * @brief Step 12's plan: one launch of its sgemm on the caller's M, N and K, nothing padded or
 * transposed. K is split as gemm_split_k_choose() splits it, with the cost of a padded C left out (no
 * matrix is padded here); the split rows' slices write their partial blocks to helper buffer 0
 * (SLICES x split blocks x TSM*TSN floats) and count themselves in helper buffer 1, one counter per
 * split block (gemm_plan_counters(): zero, and left zero by the kernel); the block's last slice adds
 * them up. The sgemm's arguments: `(M, N, K, alpha, beta, A, B, C, partials, counters, splitRows)`. The
 * kernel is built with HAS_SPLIT_ROWS=1 where split rows are launched, else 0 (no split code in it),
 * reported as a value the plan chose (gemm_plan_choose()).
 * @return 0 or #GEMM_EXIT_BAD_INPUT with @p msg filled (A, B or C, or the partial blocks, past the
 * kernel's 32-bit indices).
 */
int gemm_plan_predicated(const gemm_problem *p, gemm_plan *plan, size_t sgemm_local_bytes, gemm_msg *msg);

#ifdef __cplusplus
}
#endif

#endif /* GEMM_STEP_RULES_H */
