#!/usr/bin/env bash
# What step 12 keeps live beside its loop, on a lent NVIDIA GPU: the kernel beside the variants of
# lab/exp_step12_live.py (nosum: the split of K's code taken out; nosum_vector1: that and the
# one-float copies for odd K or N), each with K not split (-D SLICES=1, as step 12 itself is run
# beside them), with step 12 at its defaults, step 11 and cuBLAS, two rounds at 2048, 4096 and 8192.
# First the compiler's report of each build and the variants verified at the tests' awkward sizes
# with the three (alpha, beta) pairs (nosum_vector1 only where K and N are multiples of 4, where it is
# right). Run after bench/gpu_setup.sh and `. BUILD/env.sh`:
#   lab/exp_step12_live.sh BUILD
set -u
build=${1:?usage: lab/exp_step12_live.sh BUILD_DIR}
k12=$build/kernel12_predication/kernel12_predication
k11=$build/kernel11_tensor_cores/kernel11_tensor_cores
exp=lab/exp
. lab/exp_step12_lib.sh
python3 lab/exp_step12_live.py kernel12_predication/predication.cl $exp >/dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
date -u +%FT%TZ
for v in "" nosum nosum_vector1; do
  echo "== ptxas step12_${v:-kernel}"
  CUDA_CACHE_DISABLE=1 GEMM_BUILD_LOG=1 GEMM_CL_OPTIONS=-cl-nv-verbose \
    $k12 --size 1024 --no-verify -D SLICES=1 ${v:+--kernel-file $exp/step12_$v.cl} 2>&1 | grep -E '^ptxas.*(registers|spill)'
done
echo "== verify nosum (-D SLICES=1)"
for s in "129 65 257" "17 33 65" "1000 1001 999" "130 131 67" "1 1 8" "4095 4097 1000"; do
  set -- $s
  for ab in "" "--beta 1" "--alpha -1.5 --beta 0.5"; do
    $k12 -m $1 -n $2 -k $3 $ab -D SLICES=1 --kernel-file $exp/step12_nosum.cl --brief --repeat 1 --warmup 0 2>&1 | grep -E 'PASS|FAIL|rror' | cut -c1-40 | sed "s/\$/ $ab/"
  done
done
echo "== verify nosum_vector1 (-D SLICES=1)"
for s in "132 68 256" "20 36 68" "1000 1000 1000" "4096 4100 1000"; do
  set -- $s
  for ab in "" "--beta 1" "--alpha -1.5 --beta 0.5"; do
    $k12 -m $1 -n $2 -k $3 $ab -D SLICES=1 --kernel-file $exp/step12_nosum_vector1.cl --brief --repeat 1 --warmup 0 2>&1 | grep -E 'PASS|FAIL|rror' | cut -c1-40 | sed "s/\$/ $ab/"
  done
done
# One size's block of a round: M N K as arguments
block() {
  local sz="-m $1 -n $2 -k $3"
  timed_base "$build" $k11 $k12 "$@"
  timed $k12 $sz -D SLICES=1
  timed $k12 $sz -D SLICES=1 --kernel-file $exp/step12_nosum.cl
  timed $k12 $sz -D SLICES=1 --kernel-file $exp/step12_nosum_vector1.cl
}
in_rounds block "2048 2048 2048" "4096 4096 4096" "8192 8192 8192"
date -u +%FT%TZ
