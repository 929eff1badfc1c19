// Host side of step 5. Everything except the launch geometry lives in common/ (gemm_step.h).
#include "gemm_step.h"

static const gemm_param_info params[] = {
    {"TSM", 1, 256, "tile height: a work-group computes TSM rows of C"},
    {"TSN", 1, 256, "tile width: a work-group computes TSN columns of C"},
    {"TSK", 1, 256, "tile depth along K: the work-group stages TSK x TSM of A^T and TSK x TSN of B at a time"},
    {"WPTM", 1, 32, "work per thread along M: each work-item computes WPTM rows of C"},
    {"WPTN", 1, 32, "work per thread along N: each work-item computes WPTN columns of C"},
    {"WIDTH", 1, 8, "vector width (1, 2, 4 or 8) of the loads from global memory and of C"},
    {"TRANSPOSE_TILE", 1, 64, "side of the square tile the transpose kernel stages in local memory"},
    {"TRANSPOSE_PAD", 0, 1, "local-memory padding of the transpose tile against bank conflicts (0 or 1 float per row)"},
};

// transpose: A (M x K) -> A^T (K x M); sgemm: global = (N/WPTN, M/WPTM), local = (TSN/WPTN, TSM/WPTM).
// See the header comment of register_blocking.cl.
static int plan(const gemm_problem *p, gemm_plan *plan, gemm_msg *msg)
{
    const long tsm = gemm_param(p, "TSM"), tsn = gemm_param(p, "TSN"), tsk = gemm_param(p, "TSK");
    const long wptm = gemm_param(p, "WPTM"), wptn = gemm_param(p, "WPTN"), width = gemm_param(p, "WIDTH");
    int rc = gemm_require_width(msg, p, width);
    if (!rc)
        rc = gemm_require(msg, wptm % width == 0 && wptn % width == 0,
                          "WPTM=%ld and WPTN=%ld must be multiples of WIDTH=%ld", wptm, wptn, width);
    if (!rc)
        rc = gemm_require(msg, tsm % wptm == 0 && tsn % wptn == 0,
                          "TSM=%ld must be a multiple of WPTM=%ld and TSN=%ld a multiple of WPTN=%ld", tsm, wptm,
                          tsn, wptn);
    if (!rc)
        rc = gemm_require_tiles(msg, p, "TSM", tsm, "TSN", tsn, "TSK", tsk);
    if (rc)
        return rc;
    gemm_plan_temp(plan, GEMM_BUF_T0, "A transposed", (size_t)p->m * (size_t)p->k);
    gemm_plan_transpose(plan, "transpose A", p->m, p->k, gemm_param(p, "TRANSPOSE_TILE"),
                        gemm_param(p, "TRANSPOSE_PAD"), GEMM_BUF_A, GEMM_BUF_T0);
    gemm_launch *l = gemm_plan_add(plan, "sgemm", "sgemm", (size_t)(p->n / wptn), (size_t)(p->m / wptm),
                                   tsn / wptn, tsm / wptm);
    gemm_arg_sgemm(l, p->m, p->n, p->k, p->alpha, p->beta, GEMM_BUF_T0, GEMM_BUF_B, GEMM_BUF_C);
    l->local_mem_bytes = (tsm + tsn) * tsk * sizeof(float);
    return 0;
}

GEMM_STEP_MAIN("2D register blocking: each work-item computes a WPTM x WPTN block of C", params, plan)
