// Host side of step 4. Everything except the launch geometry lives in common/ (gemm_step.h).
#include "gemm_step.h"
#include "gemm_step_rules.h"

static const gemm_param_info params[] = {
    GEMM_PARAM_TSM,
    GEMM_PARAM_TSN,
    GEMM_PARAM_TSK,
    GEMM_PARAM_WIDTH,
    GEMM_PARAM_TRANSPOSE_TILE,
    GEMM_PARAM_TRANSPOSE_PAD,
};

// transpose: A (M x K) -> A^T (K x M); sgemm: global = (N/WIDTH, M), local = (TSN/WIDTH, TSM).
// See the header comment of transpose.cl.
static int plan(const gemm_problem *p, gemm_plan *plan, gemm_msg *msg)
{
    const long tsm = gemm_param(p, "TSM"), tsn = gemm_param(p, "TSN"), tsk = gemm_param(p, "TSK");
    const long width = gemm_param(p, "WIDTH");
    int rc = gemm_require_vector_tiles(msg, p);
    if (!rc)
        rc = gemm_require_tiles(msg, p, "TSM", tsm, "TSN", tsn, "TSK", tsk);
    if (rc)
        return rc;
    gemm_plan_temp(plan, GEMM_BUF_T0, "A transposed", (size_t)p->m * (size_t)p->k);
    gemm_plan_transpose(plan, "transpose A", p->m, p->k, gemm_param(p, "TRANSPOSE_TILE"),
                        gemm_param(p, "TRANSPOSE_PAD"), GEMM_BUF_A, GEMM_BUF_T0);
    gemm_launch *l = gemm_plan_add(plan, "sgemm", "sgemm", (size_t)(p->n / width), (size_t)p->m, tsn / width, tsm);
    gemm_arg_sgemm(l, p->m, p->n, p->k, p->alpha, p->beta, GEMM_BUF_T0, GEMM_BUF_B, GEMM_BUF_C);
    l->local_mem_bytes = (tsm + tsn) * tsk * sizeof(float);
    return 0;
}

GEMM_STEP_MAIN("A transposed by a helper kernel; rectangular TSM x TSN x TSK tiles", params, plan)
