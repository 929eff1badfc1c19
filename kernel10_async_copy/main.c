// Host side of step 10. Everything except the launch geometry lives in common/ (gemm_step.h).
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
    GEMM_PARAM_STAGES,
    GEMM_PARAM_COPY,
    GEMM_PARAM_TRANSPOSE_TILE,
    GEMM_PARAM_TRANSPOSE_PAD,
    GEMM_PARAM_SLICES,
    GEMM_PARAM_SPLIT_ROWS,
    GEMM_PARAM_GROUPS_PER_CU,
};

// Step 9's plan; the sgemm's local memory is a ring of STAGES tiles instead of two, and COPY = 1
// (cp.async, inline PTX) is refused on a device that does not have the instruction. COPY = 2 (the
// NVIDIA default) chooses: 1 where the device has it, else 0, so that an NVIDIA GPU older than
// the A100 runs step 10 by default too. See async_copy.cl.
static int plan(const gemm_problem *p, gemm_plan *plan, gemm_msg *msg)
{
    const int has_cp_async = p->device->nv_compute_capability >= 80;
    int rc = gemm_require_warp_tiles(msg, p);
    if (!rc && gemm_param(p, "COPY") == 1)
        rc = gemm_require(msg, has_cp_async,
                          "COPY=1 (NVIDIA's cp.async, in inline PTX) needs an NVIDIA GPU of compute capability 8.0 or "
                          "higher; %s reports %s: use -D COPY=0 (async_work_group_copy)",
                          p->device->name, p->device->nv_compute_capability ? "an older one" : "none");
    if (rc)
        return rc;
    const size_t ring_bytes = (size_t)gemm_param(p, "STAGES") *
                              (size_t)((gemm_param(p, "TSM") + gemm_param(p, "TSN")) * gemm_param(p, "TSK")) * sizeof(float);
    rc = gemm_plan_split_k_auto(p, plan, ring_bytes, msg);
    if (!rc && gemm_param(p, "COPY") == 2)
        gemm_plan_choose(plan, "COPY", has_cp_async ? 1 : 0);
    return rc;
}

GEMM_STEP_MAIN("asynchronous copies: tiles go from global to local memory without registers, STAGES-1 tiles ahead",
               params, plan)
