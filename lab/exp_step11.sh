#!/usr/bin/env bash
# A one-off experiment on step 11's operand split (results in lab/tuning/nvidia-h200-step11-split.log;
# see lab11). It ran when the kernel still rounded lo to TF32 (toTF32(x - *hi)); the variants are made
# from the kernel with sed: lo left as it is (what the kernel now does), and hi masked instead of
# rounded as well. Against today's kernel the first variant is the kernel itself.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bench/gpu_setup.sh "$1" build-gpu >/dev/null || exit $?
. build-gpu/env.sh
cmake --build build-gpu -j "$(nproc)" --target kernel11_tensor_cores >/dev/null || exit $?
k11=build-gpu/kernel11_tensor_cores/kernel11_tensor_cores
mkdir -p lab/exp
sed 's/\*lo = toTF32(x - \*hi);/*lo = x - *hi;/' kernel11_tensor_cores/tensor_cores.cl > lab/exp/lo_raw.cl
sed 's/\*hi = toTF32(x);/*hi = tf32Bits(x);/' lab/exp/lo_raw.cl > lab/exp/hi_mask_lo_raw.cl
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
  echo "== ptxas, the defaults"
  CUDA_CACHE_DISABLE=1 GEMM_BUILD_LOG=1 GEMM_CL_OPTIONS=-cl-nv-verbose "$k11" --size 256 --no-verify 2>&1 | grep -E '^ptxas|^parameters'
  for size in 4096 8192; do
    for f in kernel11_tensor_cores/tensor_cores.cl lab/exp/lo_raw.cl lab/exp/hi_mask_lo_raw.cl; do
      echo "== $f"; "$k11" --size $size --brief --kernel-file $f
    done
    "$k11" --size $size --brief -D TSM=256 -D STAGES=3 --kernel-file lab/exp/lo_raw.cl
  done
  for f in lab/exp/lo_raw.cl lab/exp/hi_mask_lo_raw.cl; do
    "$k11" -m 100 -n 50 -k 8 --brief --repeat 1 --warmup 0 --kernel-file $f
    "$k11" -m 1000 -n 1001 -k 999 --brief --repeat 1 --warmup 0 --kernel-file $f
  done
} 2>&1 | tee "${OUT:-.}/step11-split.log"
