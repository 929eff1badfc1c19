#!/usr/bin/env bash
# Can an OpenCL C kernel issue Hopper's warp-group tensor-core instruction, wgmma, through inline PTX,
# as step 11 issues mma.sync? A build test on a lent NVIDIA GPU (lab/tuning/*-wgmma-build.log; see
# lab11): step 11's kernel file with one more kernel appended, which fences, issues one
# wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 (A and B read from shared memory through two
# 64-bit matrix descriptors, D in registers), commits and waits. Step 11 then runs once at 256 with
# that file and NVIDIA's compiler report (-cl-nv-verbose): the program builds or its build log is
# printed, and the report says for which target each kernel was compiled; once as it is and once
# with -cl-nv-arch sm_90a (wgmma needs PTX for the target sm_90a, not sm_90). The new kernel is
# never launched: this tests the compiler, not the instruction's results.
#   lab/exp_wgmma_build.sh DEB_DIR
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bench/gpu_setup.sh "${1:?usage: lab/exp_wgmma_build.sh DEB_DIR}" build-gpu >/dev/null || exit $?
. build-gpu/env.sh
cmake --build build-gpu -j "$(nproc)" --target kernel11_tensor_cores >/dev/null || exit $?
mkdir -p lab/exp
{ cat kernel11_tensor_cores/tensor_cores.cl; cat <<'CL'

// (experiment) one wgmma from OpenCL C: a warp group of 128 work-items, D (64 x 8, four floats per
// work-item) = A (64 x 8) * B (8 x 8) in TF32, A and B described by descA and descB
__kernel __attribute__((reqd_work_group_size(128, 1, 1)))
void wgmma_probe(__global float *out, const ulong descA, const ulong descB, const int accumulate)
{
    float d[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {%0,%1,%2,%3}, %4, %5, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "l"(descA), "l"(descB), "r"(accumulate) : "memory");
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    out[get_global_id(0)] = d[0] + d[1] + d[2] + d[3];
}
CL
} > lab/exp/wgmma_probe.cl
k11=build-gpu/kernel11_tensor_cores/kernel11_tensor_cores
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
  for arch in "" "-cl-nv-arch sm_90a"; do
    echo "== options: -cl-nv-verbose $arch"
    CUDA_CACHE_DISABLE=1 GEMM_BUILD_LOG=1 GEMM_CL_OPTIONS="-cl-nv-verbose $arch" "$k11" --size 256 --brief \
      --kernel-file lab/exp/wgmma_probe.cl
    echo "exit status: $?"
  done
} 2>&1 | tee "${OUT:-.}/wgmma-build.log"
