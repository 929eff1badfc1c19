// Host side of step 8. Everything except the launch geometry lives in common/ (gemm_step.h).
#include "gemm_step.h"
#include "gemm_step_rules.h"

static const gemm_param_info params[] = {
    GEMM_PARAM_TSM,
    GEMM_PARAM_TSN,
    GEMM_PARAM_TSK,
    GEMM_PARAM_WTM,
    GEMM_PARAM_WTN,
    GEMM_PARAM_LANE_SQUARES,
    GEMM_PARAM_WPTM,
    GEMM_PARAM_WPTN,
    GEMM_PARAM_WIDTH,
    GEMM_PARAM_TRANSPOSE_TILE,
    GEMM_PARAM_TRANSPOSE_PAD,
};

// Step 6's plan with the warp-tiled, double-buffered sgemm: zero-pad A^T to Kp x Mp and, where
// needed, B to Kp x Np; sgemm on the padded sizes; un-pad the result into C (gemm_plan_padded()).
// See warp_tiling.cl.
static int plan(const gemm_problem *p, gemm_plan *plan, gemm_msg *msg)
{
    const int rc = gemm_require_warp_tiles(msg, p);
    if (rc)
        return rc;
    gemm_plan_padded(p, plan, gemm_double_buffer_bytes(p));
    return 0;
}

GEMM_STEP_MAIN("warp tiling: the work-items of a warp compute one compact sub-tile of the block", params, plan)
