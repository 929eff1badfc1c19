// Host side of step 9. Everything except the launch geometry lives in common/ (gemm_step.h).
#include "gemm_step.h"

static const gemm_param_info params[] = {
    GEMM_PARAM_TSM,
    GEMM_PARAM_TSN,
    GEMM_PARAM_TSK,
    GEMM_PARAM_WTM,
    GEMM_PARAM_WTN,
    GEMM_PARAM_WPTM,
    GEMM_PARAM_WPTN,
    GEMM_PARAM_WIDTH,
    GEMM_PARAM_TRANSPOSE_TILE,
    GEMM_PARAM_TRANSPOSE_PAD,
    GEMM_PARAM_SLICES,
    GEMM_PARAM_GROUPS_PER_CU,
};

// Step 8's plan with K split into SLICES slices: zero-pad A^T to Kp x Mp and, where needed, B to
// Kp x Np; sgemm on the padded sizes, each block of C computed by SLICES work-groups, one per slice
// of K, into SLICES partial copies of C; add them up and un-pad the result into C
// (gemm_plan_split_k()). SLICES = 0 lets the host choose (gemm_split_k_slices()). See split_k.cl.
static int plan(const gemm_problem *p, gemm_plan *plan, gemm_msg *msg)
{
    int rc = gemm_require_warp_tiles(msg, p);
    if (rc)
        return rc;
    const long slices = gemm_split_k_slices(p), depth = (p->k + gemm_param(p, "TSK") - 1) / gemm_param(p, "TSK");
    rc = gemm_require(msg, (double)slices * (double)depth <= 2147483647.0,
                      "SLICES=%ld times the %ld tiles of K must stay below 2^31 (the kernel's int indices)", slices,
                      depth);
    if (rc)
        return rc;
    if (gemm_param(p, "SLICES") == 0) {
        plan->chosen = "SLICES";
        plan->chosen_value = slices;
    }
    gemm_plan_split_k(p, plan, gemm_double_buffer_bytes(p), slices);
    return 0;
}

GEMM_STEP_MAIN("split-K: when the blocks of C are too few to fill the device, the work along K is split too",
               params, plan)
