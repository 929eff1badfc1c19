// Host side of step 2. Everything except the launch geometry lives in common/ (gemm_step.h).
#include "gemm_step.h"

static const gemm_param_info params[] = {
    {"TS", 1, 64, "tile size: a work-group computes a TS x TS block of C from TS x TS tiles of A and B"},
};

// global = (N, M), local = (TS, TS): see the header comment of tiled.cl.
static int plan(const gemm_problem *p, gemm_plan *plan, gemm_msg *msg)
{
    const long ts = gemm_param(p, "TS");
    int rc = gemm_require_tiles(msg, p, "TS", ts, "TS", ts, "TS", ts);
    if (rc)
        return rc;
    gemm_launch *l = gemm_plan_add(plan, "sgemm", "sgemm", (size_t)p->n, (size_t)p->m, ts, ts);
    gemm_arg_sgemm(l, p->m, p->n, p->k, p->alpha, p->beta, GEMM_BUF_A, GEMM_BUF_B, GEMM_BUF_C);
    l->local_mem_bytes = 2 * ts * ts * sizeof(float);
    return 0;
}

GEMM_STEP_MAIN("TS x TS tiles of A and B staged in local memory", params, plan)
