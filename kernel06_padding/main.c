// Host side of step 6. Everything except the launch geometry lives in common/ (gemm_step.h).
#include "gemm_step.h"
#include "gemm_step_rules.h"

static const gemm_param_info params[] = {
    GEMM_PARAM_TSM,
    GEMM_PARAM_TSN,
    GEMM_PARAM_TSK,
    GEMM_PARAM_WPTM,
    GEMM_PARAM_WPTN,
    GEMM_PARAM_WIDTH,
    GEMM_PARAM_TRANSPOSE_TILE,
    GEMM_PARAM_TRANSPOSE_PAD,
};

// Zero-pad A^T to Kp x Mp and, where needed, B to Kp x Np; step 5's sgemm on the padded sizes;
// un-pad the result into C: gemm_plan_padded() (common/src/gemm_step_rules.c), shared with steps 7
// and 8 (steps 9 to 11 call gemm_plan_split_k_auto(), in the same file). See the header comment
// of padding.cl.
static int plan(const gemm_problem *p, gemm_plan *plan, gemm_msg *msg)
{
    const int rc = gemm_require_register_blocks(msg, p);
    if (rc)
        return rc;
    const long tsm = gemm_param(p, "TSM"), tsn = gemm_param(p, "TSN"), tsk = gemm_param(p, "TSK");
    gemm_plan_padded(p, plan, (size_t)((tsm + tsn) * tsk) * sizeof(float));
    return 0;
}

GEMM_STEP_MAIN("any M, N, K: inputs zero-padded to tile multiples, output un-padded, by helper kernels", params,
               plan)
