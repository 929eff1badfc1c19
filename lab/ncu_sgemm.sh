#!/usr/bin/env bash
# NVIDIA's kernel profiler, Nsight Compute (ncu), on the sgemm kernels of steps 11 and 12 at one
# size, on a lent NVIDIA GPU: whether it profiles NVIDIA's OpenCL at all, and if so where each
# kernel's warps wait (the sections named below), one launch each. Run after bench/gpu_setup.sh and
# `. BUILD/env.sh`:  lab/ncu_sgemm.sh BUILD [SIZE]   (SIZE 4096 if unset)
set -u
build=${1:?usage: lab/ncu_sgemm.sh BUILD_DIR [SIZE]}
size=${2:-4096}
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -n "$ncu" ] || { echo "no ncu on this machine"; exit 3; }
"$ncu" --version | tail -1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
date -u +%FT%TZ
for p in kernel11_tensor_cores kernel12_predication; do
  echo "== ncu $p --size $size"
  "$ncu" --kernel-name regex:'^sgemm$' --launch-count 1 \
    --section SpeedOfLight --section ComputeWorkloadAnalysis --section Occupancy --section LaunchStats \
    --section SchedulerStats --section WarpStateStats --section InstructionStats --section MemoryWorkloadAnalysis \
    "$build/$p/$p" --size "$size" --no-verify --repeat 1 --warmup 0 --brief 2>&1
done
date -u +%FT%TZ
