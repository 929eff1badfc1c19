// Host side of step 3. Everything except the launch geometry lives in common/ (gemm_step.h).
#include "gemm_step.h"

static const gemm_param_info params[] = {
    {"TS", 1, 128, "tile size: a work-group computes a TS x TS block of C from TS x TS tiles of A and B"},
    {"WIDTH", 1, 8, "vector width (1, 2, 4 or 8): each work-item computes WIDTH neighbouring elements of C"},
};

// global = (N/WIDTH, M), local = (TS/WIDTH, TS): see the header comment of vectorized.cl.
static int plan(const gemm_problem *p, gemm_plan *plan, gemm_msg *msg)
{
    const long ts = gemm_param(p, "TS"), width = gemm_param(p, "WIDTH");
    int rc = gemm_require_width(msg, p, width);
    if (!rc)
        rc = gemm_require(msg, ts % width == 0, "TS=%ld must be a multiple of WIDTH=%ld", ts, width);
    if (!rc)
        rc = gemm_require_tiles(msg, p, "TS", ts, "TS", ts, "TS", ts);
    if (rc)
        return rc;
    gemm_launch *l = gemm_plan_add(plan, "sgemm", "sgemm", (size_t)(p->n / width), (size_t)p->m, ts / width, ts);
    gemm_arg_sgemm(l, p->m, p->n, p->k, p->alpha, p->beta, GEMM_BUF_A, GEMM_BUF_B, GEMM_BUF_C);
    l->local_mem_bytes = 2 * ts * ts * sizeof(float);
    return 0;
}

GEMM_STEP_MAIN("wider data types: each work-item loads, computes and stores WIDTH-wide vectors", params, plan)
