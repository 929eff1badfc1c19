#include "gemm_step.h"

/* A helper kernel over a rows x cols grid of work-items, in tile x tile work-groups. */
static gemm_launch *helper(gemm_plan *plan, const char *kernel, const char *label, long grid_rows, long grid_cols,
                           long tile)
{
    return gemm_plan_add(plan, kernel, label, gemm_round_up((size_t)grid_cols, (size_t)tile),
                         gemm_round_up((size_t)grid_rows, (size_t)tile), (size_t)tile, (size_t)tile);
}

void gemm_plan_padded(const gemm_problem *p, gemm_plan *plan, size_t sgemm_local_bytes)
{
    const long tsm = gemm_param(p, "TSM"), tsn = gemm_param(p, "TSN"), tsk = gemm_param(p, "TSK");
    const long wptm = gemm_param(p, "WPTM"), wptn = gemm_param(p, "WPTN");
    const long tile = gemm_param(p, "TRANSPOSE_TILE"), width = gemm_param(p, "WIDTH");
    const long mp = (long)gemm_round_up((size_t)p->m, (size_t)tsm);
    const long np = (long)gemm_round_up((size_t)p->n, (size_t)tsn);
    const long kp = (long)gemm_round_up((size_t)p->k, (size_t)tsk);
    const int pad_b = kp != p->k || np != p->n, pad_c = mp != p->m || np != p->n;

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
     * unless C is already a multiple of the tiles */
    if (pad_c)
        gemm_plan_temp(plan, GEMM_BUF_T2, "C padded", (size_t)mp * (size_t)np);
    l = gemm_plan_add(plan, "sgemm", "sgemm", (size_t)(np / wptn), (size_t)(mp / wptm), tsn / wptn, tsm / wptm);
    gemm_arg_sgemm(l, mp, np, kp, p->alpha, pad_c ? 0.0f : p->beta, GEMM_BUF_T0, pad_b ? GEMM_BUF_T1 : GEMM_BUF_B,
                   pad_c ? GEMM_BUF_T2 : GEMM_BUF_C);
    l->local_mem_bytes = sgemm_local_bytes;

    /* C = the M x N corner of the padded C + beta * C */
    if (pad_c) {
        l = helper(plan, "unpad", "unpad C", p->m, (p->n + width - 1) / width, tile);
        gemm_arg_int(l, p->m);
        gemm_arg_int(l, p->n);
        gemm_arg_int(l, np);
        gemm_arg_float(l, p->beta);
        gemm_arg_buffer(l, GEMM_BUF_T2);
        gemm_arg_buffer(l, GEMM_BUF_C);
    }
}
