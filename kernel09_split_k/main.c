// Host side of step 9. Everything except the launch geometry lives in common/ (gemm_step.h).
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
    GEMM_PARAM_SLICES,
    GEMM_PARAM_SPLIT_ROWS,
    GEMM_PARAM_GROUPS_PER_CU,
};

// Step 8's plan with K split: zero-pad A^T to Kp x Mp and, where needed, B to Kp x Np; sgemm on the
// padded sizes, the whole block rows into C (or a padded C), the blocks of the last SPLIT_ROWS block
// rows each computed by SLICES work-groups, one per slice of K, into copies of those rows; add the
// copies up into C, un-padding where C was padded (gemm_plan_split_k()). SLICES = 0 and
// SPLIT_ROWS = 0 let the host choose
// (gemm_split_k_choose()). See split_k.cl.
static int plan(const gemm_problem *p, gemm_plan *plan, gemm_msg *msg)
{
    int rc = gemm_require_warp_tiles(msg, p);
    if (rc)
        return rc;
    return gemm_plan_split_k_auto(p, plan, gemm_double_buffer_bytes(p), msg);
}

GEMM_STEP_MAIN("split-K: where the blocks of C do not fill the device's last wave, the work along K is split too",
               params, plan)
