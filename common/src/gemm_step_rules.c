/* The checks and plans that belong to one step's idea (gemm_step_rules.h): the steps' main.c call
 * them; the runner knows none of them. */
#include "gemm_step_rules.h"

#include <limits.h>
#include <math.h>

int gemm_require_vector_tiles(gemm_msg *msg, const gemm_problem *p)
{
    const long tsm = gemm_param(p, "TSM"), tsn = gemm_param(p, "TSN"), width = gemm_param(p, "WIDTH");
    int rc = gemm_require_width(msg, p, width);
    if (!rc)
        rc = gemm_require(msg, tsm % width == 0 && tsn % width == 0,
                          "TSM=%ld and TSN=%ld must be multiples of WIDTH=%ld", tsm, tsn, width);
    return rc;
}

int gemm_require_register_blocks(gemm_msg *msg, const gemm_problem *p)
{
    const long tsm = gemm_param(p, "TSM"), tsn = gemm_param(p, "TSN"), width = gemm_param(p, "WIDTH");
    const long wptm = gemm_param(p, "WPTM"), wptn = gemm_param(p, "WPTN");
    int rc = gemm_require_vector_tiles(msg, p);
    if (!rc)
        rc = gemm_require(msg, wptm % width == 0 && wptn % width == 0,
                          "WPTM=%ld and WPTN=%ld must be multiples of WIDTH=%ld", wptm, wptn, width);
    if (!rc)
        rc = gemm_require(msg, tsm % wptm == 0 && tsn % wptn == 0,
                          "TSM=%ld must be a multiple of WPTM=%ld and TSN=%ld a multiple of WPTN=%ld", tsm, wptm,
                          tsn, wptn);
    return rc;
}

int gemm_require_even_tile_loads(gemm_msg *msg, const gemm_problem *p)
{
    const long tsm = gemm_param(p, "TSM"), tsn = gemm_param(p, "TSN"), tsk = gemm_param(p, "TSK");
    const long width = gemm_param(p, "WIDTH"), wptm = gemm_param(p, "WPTM"), wptn = gemm_param(p, "WPTN");
    const long threads = (tsm / wptm) * (tsn / wptn), a = tsk * (tsm / width), b = tsk * (tsn / width);
    const int rc = gemm_require_register_blocks(msg, p);
    if (rc)
        return rc;
    return gemm_require(msg, a % threads == 0 && b % threads == 0,
                        "a tile of A^T (TSK*TSM/WIDTH = %ld vectors) and of B (TSK*TSN/WIDTH = %ld) must divide evenly "
                        "among the (TSM/WPTM)*(TSN/WPTN) = %ld work-items that load them",
                        a, b, threads);
}

int gemm_require_warp_tiles(gemm_msg *msg, const gemm_problem *p)
{
    const long tsm = gemm_param(p, "TSM"), tsn = gemm_param(p, "TSN"), wtm = gemm_param(p, "WTM");
    const long wtn = gemm_param(p, "WTN"), wptm = gemm_param(p, "WPTM"), wptn = gemm_param(p, "WPTN");
    int rc = gemm_require_even_tile_loads(msg, p);
    if (!rc)
        rc = gemm_require(msg, tsm % wtm == 0 && tsn % wtn == 0,
                          "TSM=%ld must be a multiple of WTM=%ld and TSN=%ld a multiple of WTN=%ld", tsm, wtm, tsn, wtn);
    if (!rc)
        rc = gemm_require(msg, wtm % wptm == 0 && wtn % wptn == 0,
                          "WTM=%ld must be a multiple of WPTM=%ld and WTN=%ld a multiple of WPTN=%ld", wtm, wptm, wtn,
                          wptn);
    if (!rc && gemm_param(p, "LANE_SQUARES"))
        rc = gemm_require(msg, (wtm / wptm) % 2 == 0 && (wtn / wptn) % 2 == 0,
                          "LANE_SQUARES=1 needs an even number of work-items each way in a warp: WTM/WPTM=%ld and "
                          "WTN/WPTN=%ld",
                          wtm / wptm, wtn / wptn);
    return rc;
}

int gemm_require_tensor_cores(gemm_msg *msg, const gemm_problem *p, int step)
{
    const int has_sm80 = p->device->nv_compute_capability >= 80;
    const long wtm = gemm_param(p, "WTM"), wtn = gemm_param(p, "WTN"), tsk = gemm_param(p, "TSK");
    const long lanes = (wtm / gemm_param(p, "WPTM")) * (wtn / gemm_param(p, "WPTN")), pad = gemm_param(p, "TILE_PAD");
    /* A product of two values split into TF32 halves keeps about 21 of a float's 24 significant
       bits (lo*lo left out, lo cut to TF32): its error can reach about 5*2^-22 of it, which FP32's
       worst-case bound for a sum of K products (2*K*2^-23 of the sum of their magnitudes) covers,
       with the sums' own rounding, from K = 8 on */
    int rc = gemm_require(msg, p->k >= 8,
                          "K=%ld: step %d needs K >= 8; below, products of values split into TF32 halves (about 21 of "
                          "a float's 24 bits) may miss FP32's accuracy: step 10 computes it in FP32",
                          (long)p->k, step);
    if (!rc)
        rc = gemm_require_warp_tiles(msg, p);
    if (!rc)
        rc = gemm_require(msg, lanes == 32 && wtm % 16 == 0 && wtn % 8 == 0 && tsk % 8 == 0,
                          "the tensor cores' operation is 16 x 8 x 8 on a warp of 32: WTM=%ld must be a multiple of "
                          "16, WTN=%ld and TSK=%ld of 8, and (WTM/WPTM)*(WTN/WPTN)=%ld must be 32",
                          wtm, wtn, tsk, lanes);
    if (!rc)
        rc = gemm_require(msg, pad % gemm_param(p, "WIDTH") == 0, "TILE_PAD=%ld must be a multiple of WIDTH=%ld", pad,
                          gemm_param(p, "WIDTH"));
    if (!rc)
        rc = gemm_require(msg, gemm_param(p, "PRODUCTS") != 2,
                          "PRODUCTS=2: the products per multiply-add are 3 (lo*hi + hi*lo + hi*hi) or 1 (hi*hi)");
    for (int i = 0; !rc && i < 2; i++) {
        const char *name = i ? "TC" : "COPY", *what = i ? "mma.sync, the tensor cores' instruction" : "cp.async";
        if (gemm_param(p, name) == 1)
            rc = gemm_require(msg, has_sm80,
                              "%s=1 (NVIDIA's %s, in inline PTX) needs an NVIDIA GPU of compute capability 8.0 or "
                              "higher; %s reports %s: use -D %s=0",
                              name, what, p->device->name, p->device->nv_compute_capability ? "an older one" : "none",
                              name);
    }
    return rc;
}

size_t gemm_double_buffer_bytes(const gemm_problem *p)
{
    return 2 * (size_t)((gemm_param(p, "TSM") + gemm_param(p, "TSN")) * gemm_param(p, "TSK")) * sizeof(float);
}

gemm_launch *gemm_plan_transpose(gemm_plan *plan, const char *label, long rows, long cols, long tile, long pad,
                                 gemm_buffer_id in, gemm_buffer_id out)
{
    gemm_launch *l = gemm_plan_add(plan, "transpose", label, gemm_round_up((size_t)cols, (size_t)tile),
                                   gemm_round_up((size_t)rows, (size_t)tile), (size_t)tile, (size_t)tile);
    if (!l)
        return NULL;
    gemm_arg_int(l, rows);
    gemm_arg_int(l, cols);
    gemm_arg_buffer(l, in);
    gemm_arg_buffer(l, out);
    l->local_mem_bytes = (size_t)(tile * (tile + pad)) * sizeof(float);
    return l;
}

/* A helper kernel over a rows x cols grid of work-items, in tile x tile work-groups. */
static gemm_launch *helper(gemm_plan *plan, const char *kernel, const char *label, long grid_rows, long grid_cols,
                           long tile)
{
    return gemm_plan_add(plan, kernel, label, gemm_round_up((size_t)grid_cols, (size_t)tile),
                         gemm_round_up((size_t)grid_rows, (size_t)tile), (size_t)tile, (size_t)tile);
}

/* The plan of steps 6 to 11; split = NULL: steps 6-8 (no split, their kernels' arguments), else steps
 * 9 to 11 (the last split->rows block rows in split->slices slices of K, their kernels' arguments). */
static void plan_padded(const gemm_problem *p, gemm_plan *plan, size_t sgemm_local_bytes, const gemm_split_k *split_k)
{
    const long tsm = gemm_param(p, "TSM"), tsn = gemm_param(p, "TSN"), tsk = gemm_param(p, "TSK");
    const long wptm = gemm_param(p, "WPTM"), wptn = gemm_param(p, "WPTN");
    const long tile = gemm_param(p, "TRANSPOSE_TILE"), width = gemm_param(p, "WIDTH");
    const long mp = (long)gemm_round_up((size_t)p->m, (size_t)tsm);
    const long np = (long)gemm_round_up((size_t)p->n, (size_t)tsn);
    const long kp = (long)gemm_round_up((size_t)p->k, (size_t)tsk);
    const long slices = split_k ? split_k->slices : 1, block_rows = mp / tsm;
    const long split_rows = slices > 1 ? split_k->rows : 0; /* the sgemm's argument: 0..Mp/TSM */
    const long full_rows = block_rows - split_rows;
    const int pad_b = kp != p->k || np != p->n, split = slices > 1, pad_c = mp != p->m || np != p->n;

    /* A (M x K) -> A^T zero-padded to Kp x Mp, in one pass */
    gemm_plan_temp(plan, GEMM_BUF_T0, "A transposed and padded", (size_t)kp * (size_t)mp);
    gemm_launch *l = helper(plan, "transpose", mp != p->m || kp != p->k ? "transpose+pad A" : "transpose A", mp, kp,
                            tile);
    gemm_arg_int(l, p->m);
    gemm_arg_int(l, p->k);
    gemm_arg_int(l, mp);
    gemm_arg_int(l, kp);
    gemm_arg_buffer(l, GEMM_BUF_A);
    gemm_arg_buffer(l, GEMM_BUF_T0);
    l->local_mem_bytes = (size_t)(tile * (tile + gemm_param(p, "TRANSPOSE_PAD"))) * sizeof(float);

    /* B (K x N) -> zero-padded to Kp x Np, unless it is already a multiple of the tiles */
    if (pad_b) {
        gemm_plan_temp(plan, GEMM_BUF_T1, "B padded", (size_t)kp * (size_t)np);
        l = helper(plan, "pad", "pad B", kp, np / width, tile);
        gemm_arg_int(l, p->k);
        gemm_arg_int(l, p->n);
        gemm_arg_int(l, kp);
        gemm_arg_int(l, np);
        gemm_arg_buffer(l, GEMM_BUF_B);
        gemm_arg_buffer(l, GEMM_BUF_T1);
    }

    /* sgemm on the padded sizes; its whole block rows into a padded C (with beta = 0: beta is
     * applied when un-padding) unless C is already a multiple of the tiles; when K is split, the
     * split block rows into one copy of them per slice of K */
    const gemm_buffer_id c_out = pad_c ? GEMM_BUF_T2 : GEMM_BUF_C, copies = split ? GEMM_BUF_T3 : c_out;
    if (pad_c)
        gemm_plan_temp(plan, GEMM_BUF_T2, "C padded", (size_t)mp * (size_t)np);
    if (split)
        gemm_plan_temp(plan, GEMM_BUF_T3, "C's split rows, once per slice of K", (size_t)(slices * split_rows * tsm) * (size_t)np);
    l = gemm_plan_add(plan, "sgemm", "sgemm", (size_t)(np / wptn),
                      (size_t)((full_rows + slices * split_rows) * (tsm / wptm)), tsn / wptn, tsm / wptm);
    gemm_arg_sgemm(l, mp, np, kp, p->alpha, pad_c ? 0.0f : p->beta, GEMM_BUF_T0, pad_b ? GEMM_BUF_T1 : GEMM_BUF_B,
                   c_out);
    if (split_k) {
        gemm_arg_buffer(l, copies); /* not used when nothing is split */
        gemm_arg_int(l, split_rows);
    }
    l->local_mem_bytes = sgemm_local_bytes;

    /* C = the M x N corner of the padded C, or in a split row the sum of its copies, + beta * C:
     * every row when C is padded, only the split rows when it is not */
    if (pad_c || split) {
        const long first_row = pad_c ? 0 : full_rows * tsm;
        l = helper(plan, "unpad", !split ? "unpad C" : pad_c ? "add slices+unpad C" : "add slices into C",
                   p->m - first_row, (p->n + width - 1) / width, tile);
        gemm_arg_int(l, p->m);
        gemm_arg_int(l, p->n);
        if (split_k)
            gemm_arg_int(l, mp);
        gemm_arg_int(l, np);
        if (split_k) {
            gemm_arg_int(l, first_row);
            gemm_arg_int(l, full_rows * tsm);
            gemm_arg_int(l, slices);
        }
        gemm_arg_float(l, p->beta);
        gemm_arg_buffer(l, c_out); /* not read when first_row = full_rows*TSM */
        if (split_k)
            gemm_arg_buffer(l, copies);
        gemm_arg_buffer(l, GEMM_BUF_C);
    }
}

void gemm_plan_padded(const gemm_problem *p, gemm_plan *plan, size_t sgemm_local_bytes)
{
    plan_padded(p, plan, sgemm_local_bytes, NULL);
}

void gemm_plan_split_k(const gemm_problem *p, gemm_plan *plan, size_t sgemm_local_bytes, gemm_split_k split_k)
{
    plan_padded(p, plan, sgemm_local_bytes, &split_k);
}

/* The model's time, in tiles: `whole` work-groups of `depth` tiles each, then `parts` work-groups of
 * `part` tiles each, on `at_once` slots, every work-group taking the first slot that is free. After
 * the whole ones the slots form two sets that stay in step: those free after `waves` of them and the
 * `busy` ones, free one work-group later; the parts fill whichever set is free first. */
static double split_k_time(double whole, double depth, double parts, double part, double at_once)
{
    const double waves = floor(whole / at_once), busy = whole - waves * at_once;
    double free_at = waves * depth, free_n = at_once - busy, busy_at = (waves + 1.0) * depth;
    double end = busy > 0.0 ? busy_at : free_at;
    if (busy == 0.0) /* one set: whole rounds of parts */
        return parts > 0.0 ? fmax(end, free_at + ceil(parts / free_n) * part) : end;
    while (parts > 0.0) {
        if (free_at <= busy_at) {
            parts -= fmin(parts, free_n);
            free_at += part;
            end = fmax(end, free_at);
        } else {
            parts -= fmin(parts, busy);
            busy_at += part;
            end = fmax(end, busy_at);
        }
    }
    return end;
}

/* gemm_split_k_cost(); in_place: step 12's, which pads no matrix and adds the slices in its sgemm */
static double split_k_cost(const gemm_problem *p, gemm_split_k split_k, int in_place)
{
    const long tsm = gemm_param(p, "TSM"), tsn = gemm_param(p, "TSN"), tsk = gemm_param(p, "TSK");
    const double mp = (double)gemm_round_up((size_t)p->m, (size_t)tsm);
    const double np = (double)gemm_round_up((size_t)p->n, (size_t)tsn);
    const double depth = (double)(gemm_round_up((size_t)p->k, (size_t)tsk) / (size_t)tsk);
    const int pad_c = !in_place && ((long)mp != p->m || (long)np != p->n), split = split_k.slices > 1;
    const double cols = np / (double)tsn, blocks = (mp / (double)tsm) * cols;
    const double at_once = fmax(1.0, (double)p->device->compute_units * (double)gemm_param(p, "GROUPS_PER_CU"));
    const double s = (double)split_k.slices, rows = split ? (double)split_k.rows : 0.0;
    const double per_block = 4.0 * GEMM_SPLIT_FLOPS_PER_BYTE / (2.0 * (double)tsk); /* tiles per float of C */
    /* unpad reads every copy of the split rows (the sgemm writes them at the end of each work-group,
     * while others compute: not counted) and writes those rows of C; where C is padded, it also reads
     * and writes the whole rows */
    if (in_place) /* step 12: each split block's last work-group reads the s partial blocks and writes C,
                     at one slot's share of the bandwidth, after the slices: (s + 1) blocks, one after
                     the other; and every tile a little slower where the kernel holds the split's code */
        return split_k_time(blocks - rows * cols, depth + GEMM_SPLIT_GROUP_TILES, rows * cols * s,
                            ceil(depth / s) + GEMM_SPLIT_GROUP_TILES, at_once) *
                   (split ? 1.0 + GEMM_SPLIT_CODE_COST : 1.0) +
               (split ? (s + 1.0) * per_block : 0.0);
    const double copies = (pad_c ? 2.0 * (blocks - rows * cols) : 0.0) + (s + 1.0) * rows * cols;
    return split_k_time(blocks - rows * cols, depth + GEMM_SPLIT_GROUP_TILES, rows * cols * s,
                        ceil(depth / s) + GEMM_SPLIT_GROUP_TILES, at_once) +
           copies * per_block / at_once;
}

double gemm_split_k_cost(const gemm_problem *p, gemm_split_k split_k)
{
    return split_k_cost(p, split_k, 0);
}

/* gemm_split_k_choose(); in_place: for step 12 (split_k_cost()) */
static gemm_split_k split_k_choose(const gemm_problem *p, int in_place)
{
    const long forced_slices = gemm_param(p, "SLICES"), forced_rows = gemm_param(p, "SPLIT_ROWS");
    const long tsm = gemm_param(p, "TSM"), tsn = gemm_param(p, "TSN"), tsk = gemm_param(p, "TSK");
    const double mp = (double)gemm_round_up((size_t)p->m, (size_t)tsm);
    const double np = (double)gemm_round_up((size_t)p->n, (size_t)tsn);
    const long depth = (long)(gemm_round_up((size_t)p->k, (size_t)tsk) / (size_t)tsk);
    const long block_rows = (long)(mp / (double)tsm), cols = (long)(np / (double)tsn);
    const long at_once = (long)fmax(1.0, (double)p->device->compute_units * (double)gemm_param(p, "GROUPS_PER_CU"));
    gemm_split_k best = {1, 0};
    /* The rows to split: those left over once whole waves of blocks are taken, row by row (all of
     * them when the blocks are fewer than one wave), at least one where SLICES is forced */
    long rows = forced_rows ? forced_rows : block_rows - (block_rows * cols / at_once) * at_once / cols;
    if (rows > block_rows)
        rows = block_rows;
    if (rows < 1 && forced_slices > 1)
        rows = 1;
    if (rows < 1)
        return best;
    /* Most slices: 64, one tile each, and what one buffer and the 32-bit indices hold. Steps 9 to
     * 11 index the copies as rows that continue C's (gemm_plan_split_k_auto() refuses a split
     * whose last copy lies 2^31 floats or more from C's start); step 12's workspace is a buffer of
     * its own */
    const double max_alloc_floats = (double)p->device->max_alloc / sizeof(float);
    long most = forced_slices ? forced_slices : depth < 64 ? depth : 64;
    while (!forced_slices && most > 1 &&
           ((double)(most * rows * tsm) * np > (double)INT_MAX || (double)(most * rows * tsm) * np > max_alloc_floats ||
            (!in_place && (mp + (double)((most - 1) * rows * tsm)) * np > (double)INT_MAX) ||
            (double)most * (double)depth > (double)INT_MAX))
        most--;
    double best_cost = 0.0;
    for (long s = forced_slices ? forced_slices : 1; s <= most; s++) {
        const gemm_split_k candidate = {s, s > 1 ? rows : 0};
        const double cost = split_k_cost(p, candidate, in_place);
        if (s == (forced_slices ? forced_slices : 1) || cost < best_cost) {
            best = candidate;
            best_cost = cost;
        }
    }
    return best;
}

gemm_split_k gemm_split_k_choose(const gemm_problem *p)
{
    return split_k_choose(p, 0);
}

int gemm_plan_split_k_auto(const gemm_problem *p, gemm_plan *plan, size_t sgemm_local_bytes, gemm_msg *msg)
{
    const long tsm = gemm_param(p, "TSM"), depth = (p->k + gemm_param(p, "TSK") - 1) / gemm_param(p, "TSK");
    const double mp = (double)gemm_round_up((size_t)p->m, (size_t)tsm);
    const double np = (double)gemm_round_up((size_t)p->n, (size_t)gemm_param(p, "TSN"));
    /* C itself first: too large whatever the split (a refusal that named SLICES here misled) */
    int rc = gemm_require(msg, (double)p->m * (double)p->n <= 2147483647.0,
                      "C would have %.0f elements, more than the 2^31-1 that the kernels' 32-bit int indices can "
                      "address", (double)p->m * (double)p->n);
    if (!rc)
        rc = gemm_require(msg, mp * np <= 2147483647.0,
                          "C zero-padded to %.0f x %.0f (multiples of TSM and TSN) would have %.0f elements, more "
                          "than the 2^31-1 that the kernels' 32-bit int indices can address", mp, np, mp * np);
    if (rc)
        return rc;
    const gemm_split_k split = gemm_split_k_choose(p);
    if (!rc)
        rc = gemm_require(msg, (double)split.slices * (double)depth <= 2147483647.0,
                      "SLICES=%ld times the %ld tiles of K must stay below 2^31 (the kernel's int indices)",
                      split.slices, depth);
    if (!rc)
        /* The sgemm indexes its output as if the copies continued C's rows: the last split
           work-group's row lies (SLICES-1)*SPLIT_ROWS*TSM rows below C's end */
        rc = gemm_require(msg, (mp + (double)(split.slices - 1) * (double)(split.rows * tsm)) * np <= 2147483647.0,
                          "C's rows and the %ld copies of its last %ld rows of blocks must stay below 2^31 floats "
                          "(the kernels' int indices): fewer SLICES or SPLIT_ROWS",
                          split.slices, split.rows);
    if (rc)
        return rc;
    /* The values the kernel runs with, reported and built: chosen where given as 0, and also where
     * a given value was adjusted (SPLIT_ROWS beyond the rows there are is all of them; with one
     * slice nothing is split) */
    if (gemm_param(p, "SLICES") == 0 || gemm_param(p, "SLICES") != split.slices)
        gemm_plan_choose(plan, "SLICES", split.slices);
    if (gemm_param(p, "SPLIT_ROWS") == 0 || gemm_param(p, "SPLIT_ROWS") != split.rows)
        gemm_plan_choose(plan, "SPLIT_ROWS", split.rows);
    gemm_plan_split_k(p, plan, sgemm_local_bytes, split);
    return 0;
}

int gemm_plan_predicated(const gemm_problem *p, gemm_plan *plan, size_t sgemm_local_bytes, gemm_msg *msg)
{
    const long tsm = gemm_param(p, "TSM"), tsn = gemm_param(p, "TSN"), tsk = gemm_param(p, "TSK");
    const long wptm = gemm_param(p, "WPTM"), wptn = gemm_param(p, "WPTN");
    const long block_rows = (p->m + tsm - 1) / tsm, cols = (p->n + tsn - 1) / tsn, depth = (p->k + tsk - 1) / tsk;
    const double largest = (double)p->m * (double)p->k > (double)p->k * (double)p->n
                               ? fmax((double)p->m * (double)p->k, (double)p->m * (double)p->n)
                               : fmax((double)p->k * (double)p->n, (double)p->m * (double)p->n);
    int rc = gemm_require(msg, largest <= 2147483647.0,
                          "A, B or C would have %.0f elements, more than the 2^31-1 that the kernel's 32-bit int "
                          "indices can address", largest);
    if (rc)
        return rc;
    const gemm_split_k split = split_k_choose(p, 1);
    const double block_floats = (double)(tsm * tsn), split_blocks = (double)(split.rows * cols);
    rc = gemm_require(msg, (double)split.slices * split_blocks * block_floats <= 2147483647.0,
                      "the %ld slices' partial blocks of the last %ld rows of blocks must stay below 2^31 floats "
                      "(the kernel's int indices): fewer SLICES or SPLIT_ROWS", split.slices, split.rows);
    if (!rc)
        rc = gemm_require(msg, (double)split.slices * (double)depth <= 2147483647.0,
                          "SLICES=%ld times the %ld tiles of K must stay below 2^31 (the kernel's int indices)",
                          split.slices, depth);
    if (rc)
        return rc;
    if (gemm_param(p, "SLICES") == 0 || gemm_param(p, "SLICES") != split.slices)
        gemm_plan_choose(plan, "SLICES", split.slices);
    if (gemm_param(p, "SPLIT_ROWS") == 0 || gemm_param(p, "SPLIT_ROWS") != split.rows)
        gemm_plan_choose(plan, "SPLIT_ROWS", split.rows);
    const long split_rows = split.slices > 1 ? split.rows : 0, full_rows = block_rows - split_rows;
    /* the kernel carries the split's code only where it has split rows to run (GEMM_SPLIT_CODE_COST) */
    gemm_plan_choose(plan, "HAS_SPLIT_ROWS", split_rows > 0);
    gemm_buffer_id partials = GEMM_BUF_C, counters = GEMM_BUF_C; /* not used when nothing is split */
    if (split_rows) {
        partials = GEMM_BUF_T0;
        counters = GEMM_BUF_T1;
        gemm_plan_temp(plan, partials, "each slice's partial blocks of the split rows",
                       (size_t)(split.slices * split_rows * cols) * (size_t)(tsm * tsn));
        gemm_plan_counters(plan, counters, "the count of finished slices per split block", (size_t)(split_rows * cols));
    }
    gemm_launch *l = gemm_plan_add(plan, "sgemm", "sgemm", (size_t)(cols * (tsn / wptn)),
                                   (size_t)((full_rows + split.slices * split_rows) * (tsm / wptm)), (size_t)(tsn / wptn),
                                   (size_t)(tsm / wptm));
    gemm_arg_sgemm(l, p->m, p->n, p->k, p->alpha, p->beta, GEMM_BUF_A, GEMM_BUF_B, GEMM_BUF_C);
    gemm_arg_buffer(l, partials);
    gemm_arg_buffer(l, counters);
    gemm_arg_int(l, split_rows);
    l->local_mem_bytes = sgemm_local_bytes;
    return 0;
}

const gemm_problem *gemm_tile_by_size(const gemm_problem *p, gemm_plan *plan, gemm_problem *halved,
                                      gemm_defines *halved_params)
{
    static const char *const sides[] = {"TSM", "TSN", "WTM", "WTN", "WPTM", "WPTN"};
    const int count = (int)(sizeof sides / sizeof sides[0]);
    if (!gemm_param(p, "TILE_BY_SIZE"))
        return p;
    const long tsm = gemm_param(p, "TSM") / 2, tsn = gemm_param(p, "TSN") / 2;
    if (tsm < 1 || tsn < 1 ||
        (double)((p->m + tsm - 1) / tsm) * (double)((p->n + tsn - 1) / tsn) > (double)p->device->compute_units)
        return p;
    gemm_msg ignored; /* a halved tile the step refuses is simply not taken */
    *halved_params = *p->params;
    *halved = *p;
    halved->params = halved_params;
    for (int i = 0; i < count; i++) {
        const long side = gemm_param(p, sides[i]);
        if (side % 2 || gemm_defines_set(halved_params, sides[i], side / 2, &ignored))
            return p;
    }
    if (gemm_defines_set(halved_params, "TILE_BY_SIZE", 0, &ignored) ||
        gemm_require_tensor_cores(&ignored, halved, 12))
        return p;
    for (int i = 0; i < count; i++)
        gemm_plan_choose(plan, sides[i], gemm_param(halved, sides[i]));
    gemm_plan_choose(plan, "TILE_BY_SIZE", 0);
    return halved;
}
