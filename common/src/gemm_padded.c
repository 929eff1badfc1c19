#include "gemm_step.h"

#include <limits.h>
#include <math.h>

/* A helper kernel over a rows x cols grid of work-items, in tile x tile work-groups. */
static gemm_launch *helper(gemm_plan *plan, const char *kernel, const char *label, long grid_rows, long grid_cols,
                           long tile)
{
    return gemm_plan_add(plan, kernel, label, gemm_round_up((size_t)grid_cols, (size_t)tile),
                         gemm_round_up((size_t)grid_rows, (size_t)tile), (size_t)tile, (size_t)tile);
}

/* The plan of steps 6 to 9; slices = 0: steps 6-8 (no split, their unpad's arguments), slices >= 1:
 * step 9 (K in that many slices, its unpad's arguments). */
static void plan_padded(const gemm_problem *p, gemm_plan *plan, size_t sgemm_local_bytes, long slices)
{
    const long tsm = gemm_param(p, "TSM"), tsn = gemm_param(p, "TSN"), tsk = gemm_param(p, "TSK");
    const long wptm = gemm_param(p, "WPTM"), wptn = gemm_param(p, "WPTN");
    const long tile = gemm_param(p, "TRANSPOSE_TILE"), width = gemm_param(p, "WIDTH");
    const long mp = (long)gemm_round_up((size_t)p->m, (size_t)tsm);
    const long np = (long)gemm_round_up((size_t)p->n, (size_t)tsn);
    const long kp = (long)gemm_round_up((size_t)p->k, (size_t)tsk);
    const int pad_b = kp != p->k || np != p->n, split = slices > 1, pad_c = mp != p->m || np != p->n || split;

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

    /* sgemm on the padded sizes; into a padded C (with beta = 0: beta is applied when un-padding)
     * unless C is already a multiple of the tiles; into `slices` padded copies of C when K is split */
    if (pad_c)
        gemm_plan_temp(plan, GEMM_BUF_T2, split ? "C's partial products, one per slice of K" : "C padded",
                       (size_t)(split ? slices : 1) * (size_t)mp * (size_t)np);
    l = gemm_plan_add(plan, "sgemm", "sgemm", (size_t)(np / wptn), (size_t)((split ? slices : 1) * (mp / wptm)),
                      tsn / wptn, tsm / wptm);
    gemm_arg_sgemm(l, mp, np, kp, p->alpha, pad_c ? 0.0f : p->beta, GEMM_BUF_T0, pad_b ? GEMM_BUF_T1 : GEMM_BUF_B,
                   pad_c ? GEMM_BUF_T2 : GEMM_BUF_C);
    l->local_mem_bytes = sgemm_local_bytes;

    /* C = the M x N corner of the padded C (of the sum of its slices) + beta * C */
    if (pad_c) {
        l = helper(plan, "unpad", split ? "add slices+unpad C" : "unpad C", p->m, (p->n + width - 1) / width, tile);
        gemm_arg_int(l, p->m);
        gemm_arg_int(l, p->n);
        if (slices)
            gemm_arg_int(l, mp);
        gemm_arg_int(l, np);
        if (slices)
            gemm_arg_int(l, slices);
        gemm_arg_float(l, p->beta);
        gemm_arg_buffer(l, GEMM_BUF_T2);
        gemm_arg_buffer(l, GEMM_BUF_C);
    }
}

void gemm_plan_padded(const gemm_problem *p, gemm_plan *plan, size_t sgemm_local_bytes)
{
    plan_padded(p, plan, sgemm_local_bytes, 0);
}

void gemm_plan_split_k(const gemm_problem *p, gemm_plan *plan, size_t sgemm_local_bytes, long slices)
{
    plan_padded(p, plan, sgemm_local_bytes, slices < 1 ? 1 : slices);
}

long gemm_split_k_slices(const gemm_problem *p)
{
    const long forced = gemm_param(p, "SLICES");
    if (forced > 0)
        return forced;
    const long tsm = gemm_param(p, "TSM"), tsn = gemm_param(p, "TSN"), tsk = gemm_param(p, "TSK");
    const double mp = (double)gemm_round_up((size_t)p->m, (size_t)tsm);
    const double np = (double)gemm_round_up((size_t)p->n, (size_t)tsn);
    const long depth = (long)(gemm_round_up((size_t)p->k, (size_t)tsk) / (size_t)tsk);
    const int pad_c = (long)mp != p->m || (long)np != p->n;
    const double blocks = (mp / (double)tsm) * (np / (double)tsn);
    const double at_once = fmax(1.0, (double)p->device->compute_units * (double)gemm_param(p, "GROUPS_PER_CU"));
    const double per_copy = 4.0 * GEMM_SPLIT_FLOPS_PER_BYTE / (2.0 * (double)tsk); /* tiles per float of C */
    /* Most slices: 64, one tile each, and what one buffer and the 32-bit indices hold */
    const double max_alloc_floats = (double)p->device->max_alloc / sizeof(float);
    long most = depth < 64 ? depth : 64;
    while (most > 1 && ((double)most * mp * np > (double)INT_MAX || (double)most * mp * np > max_alloc_floats ||
                        (double)most * (double)depth > (double)INT_MAX))
        most--;
    long best = 1;
    double best_cost = 0.0;
    for (long s = 1; s <= most; s++) {
        const double waves = ceil(blocks * (double)s / at_once);
        const double tiles = (double)((depth + s - 1) / s);
        const double copies = s > 1 || pad_c ? (double)(s + 1) : 0.0;
        const double cost = waves * tiles + copies * per_copy * blocks / at_once;
        if (s == 1 || cost < best_cost) {
            best = s;
            best_cost = cost;
        }
    }
    return best;
}
