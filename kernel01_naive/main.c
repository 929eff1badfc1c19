// Host side of step 1. Everything except the launch geometry lives in common/ (gemm_step.h).
#include "gemm_step.h"

static const gemm_param_info params[] = {
    {"TS", 1, 64, "work-group side: a work-group computes a TS x TS block of C"},
};

// global = (N, M) rounded up to TS, local = (TS, TS): see the header comment of naive.cl.
static int plan(const gemm_problem *p, gemm_plan *plan, gemm_msg *msg)
{
    (void)msg; // every size is allowed
    const long ts = gemm_param(p, "TS");
    gemm_launch *l = gemm_plan_add(plan, "sgemm", "sgemm", gemm_round_up(p->n, ts), gemm_round_up(p->m, ts), ts, ts);
    gemm_arg_sgemm(l, p->m, p->n, p->k, p->alpha, p->beta, GEMM_BUF_A, GEMM_BUF_B, GEMM_BUF_C);
    return 0;
}

GEMM_STEP_MAIN("one work-item per element of C, straight from global memory", params, plan)
