// Host side of step 7. Everything except the launch geometry lives in common/ (gemm_step.h).
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

// Step 6's plan with the double-buffered sgemm: zero-pad A^T to Kp x Mp and, where needed, B to
// Kp x Np; sgemm on the padded sizes; un-pad the result into C (gemm_plan_padded()). The sgemm
// holds two tiles of each matrix in local memory. See double_buffering.cl.
static int plan(const gemm_problem *p, gemm_plan *plan, gemm_msg *msg)
{
    const int rc = gemm_require_even_tile_loads(msg, p);
    if (rc)
        return rc;
    gemm_plan_padded(p, plan, gemm_double_buffer_bytes(p));
    return 0;
}

GEMM_STEP_MAIN("double buffering: two local tiles, the next one loaded from global memory while the current one is used",
               params, plan)
