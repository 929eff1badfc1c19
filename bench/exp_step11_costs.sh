#!/usr/bin/env bash
# What step 11's ordinary instructions cost on a lent NVIDIA GPU (bench/tuning/*-step11-costs.log;
# see lab11): timing-only variants of the kernel, made with sed, whose results are wrong on purpose
# (--no-verify), beside the kernel itself at 4096 and 8192:
#   no_split    splitTF32() as cheap as it can be while hi and lo stay two values (hi = x, lo = -x:
#               one instruction per value instead of three): about what splitting once, when the
#               tiles are stored (in the helper kernels), could save;
#   PROMOTE=0   the products chained along all of K (exercise 11.2): the FP32 adds' cost;
#   no_split with PROMOTE=0: what the loads, the 96 mma of an 8-deep step and the rest cost alone;
#   PRODUCTS=1  one mma per block instead of three.
#   bench/exp_step11_costs.sh DEB_DIR
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bench/gpu_setup.sh "${1:?usage: bench/exp_step11_costs.sh DEB_DIR}" build-gpu >/dev/null || exit $?
. build-gpu/env.sh
cmake --build build-gpu -j "$(nproc)" --target kernel11_tensor_cores >/dev/null || exit $?
k11=build-gpu/kernel11_tensor_cores/kernel11_tensor_cores
mkdir -p bench/exp
sed -e 's/\*hi = toTF32(x);/*hi = x;/' -e 's/\*lo = x - \*hi;/*lo = -x;/' kernel11_tensor_cores/tensor_cores.cl \
  > bench/exp/no_split.cl
cmp -s kernel11_tensor_cores/tensor_cores.cl bench/exp/no_split.cl && { echo "no_split: the sed changed nothing" >&2; exit 1; }
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
  for round in 1 2; do
    for size in 4096 8192; do
      echo "== round $round, $size"
      "$k11" --size $size --brief --no-exact
      "$k11" --size $size --brief --no-verify --kernel-file bench/exp/no_split.cl
      "$k11" --size $size --brief --no-verify -D PROMOTE=0
      "$k11" --size $size --brief --no-verify -D PROMOTE=0 --kernel-file bench/exp/no_split.cl
      "$k11" --size $size --brief --no-verify -D PRODUCTS=1
    done
  done
} 2>&1 | tee "${OUT:-.}/step11-costs.log"
