// Host side of step 12. Everything except the launch geometry lives in common/ (gemm_step.h).
#include "gemm_step.h"
#include "gemm_step_rules.h"

static const gemm_param_info params[] = {
    GEMM_PARAM_TSM,
    GEMM_PARAM_TSN,
    GEMM_PARAM_TSK,
    GEMM_PARAM_WTM,
    GEMM_PARAM_WTN,
    GEMM_PARAM_WPTM,
    GEMM_PARAM_WPTN,
    GEMM_PARAM_WIDTH,
    {"STAGES", 2, 8, "local tiles of A and of B in the ring: the copies of the next STAGES-1 tiles run while one is used"},
    {"COPY", 0, 2, "how tiles reach local memory: 0 loads guarded against the edges (any device), 1 cp.async with a source size (NVIDIA, compute capability 8.0+), 2 cp.async where the device has it, else 0"},
    {"TILE_PAD", 0, 64, "local-memory padding: floats added to every row of the ring's tiles of B, so that the rows a fragment reads fall in different banks"},
    {"TC", 0, 2, "the multiply-adds: 0 the portable path (any device, for correctness), 1 the tensor cores (NVIDIA, compute capability 8.0+), 2 the tensor cores where the device has them, else 0"},
    {"PRODUCTS", 1, 3, "TF32 products per multiply-add: 3 (lo*hi + hi*lo + hi*hi, FP32 accuracy) or 1 (hi*hi, a TF32 GEMM; for an exercise)"},
    {"PROMOTE", 0, 1, "1: each 8-deep partial sum leaves the tensor cores for an FP32 add; 0 (for an exercise): they accumulate on the tensor cores over all of K"},
    GEMM_PARAM_SLICES,
    GEMM_PARAM_SPLIT_ROWS,
    GEMM_PARAM_GROUPS_PER_CU,
    GEMM_PARAM_TILE_BY_SIZE,
};

// The tile halved where the problem is small (TILE_BY_SIZE, gemm_tile_by_size()), step 11's checks
// (gemm_require_tensor_cores()), and one launch: the sgemm on the caller's sizes, with bounds in the kernel
// (gemm_plan_predicated()). COPY = 1 is cp.async with a source size, TC = 1 mma.sync: both are refused on
// a device that does not have them; TC = 2 and COPY = 2 (the NVIDIA defaults) choose 1 where the
// device has the instructions, else 0. See predication.cl.
static int plan(const gemm_problem *given, gemm_plan *plan, gemm_msg *msg)
{
    gemm_problem halved;
    gemm_defines halved_params;
    const gemm_problem *p = gemm_tile_by_size(given, plan, &halved, &halved_params);
    const int has_sm80 = p->device->nv_compute_capability >= 80;
    const long wtm = gemm_param(p, "WTM"), wtn = gemm_param(p, "WTN"), tsk = gemm_param(p, "TSK");
    const long pad = gemm_param(p, "TILE_PAD");
    int rc = gemm_require_tensor_cores(msg, p, 12);
    if (rc)
        return rc;
    const long tsm = gemm_param(p, "TSM"), tsn = gemm_param(p, "TSN");
    const int tc = gemm_param(p, "TC") == 2 ? has_sm80 : (int)gemm_param(p, "TC");
    /* the ring: STAGES tiles of A, TSM rows of TSK floats, and of B, TSK rows of TSN + TILE_PAD */
    size_t local_bytes = (size_t)(gemm_param(p, "STAGES") * (tsm * tsk + tsk * (tsn + pad))) * sizeof(float);
    if (!tc) // the portable path's matrices of A and B, per warp
        local_bytes += (size_t)((tsm / wtm) * (tsn / wtn) * 2 * (wtm + wtn) * 8) * sizeof(float);
    rc = gemm_plan_predicated(p, plan, local_bytes, msg);
    if (!rc && gemm_param(p, "COPY") == 2)
        gemm_plan_choose(plan, "COPY", has_sm80 ? 1 : 0);
    if (!rc && gemm_param(p, "TC") == 2)
        gemm_plan_choose(plan, "TC", tc);
    return rc;
}

GEMM_STEP_MAIN("predication: one launch for any size, tiles past the matrices' edges loaded as zeros, no helper kernels",
               params, plan)
