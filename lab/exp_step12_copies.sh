#!/usr/bin/env bash
# Step 12's copies at large sizes, on a lent NVIDIA GPU: the kernel beside the variants of
# lab/exp_step12_copies.py (hoisted, nobounds), beside the kernel with no split of K (SLICES=1),
# step 11 and cuBLAS, two rounds at 2048, 4096, 8192, 4097 and 1000x3000x500 (nobounds only where
# it is right). First the compiler's report of each variant, the hoisted variant verified at awkward sizes
# with the three (alpha, beta) pairs, and the PTX of the kernel and of the hoisted variant into OUT.
# Run after bench/gpu_setup.sh and `. BUILD/env.sh`:  lab/exp_step12_copies.sh BUILD OUT_DIR
set -u
build=${1:?usage: lab/exp_step12_copies.sh BUILD_DIR OUT_DIR}
out=${2:?usage: lab/exp_step12_copies.sh BUILD_DIR OUT_DIR}
k12=$build/kernel12_predication/kernel12_predication
k11=$build/kernel11_tensor_cores/kernel11_tensor_cores
exp=lab/exp
mkdir -p "$out"
python3 lab/exp_step12_copies.py kernel12_predication/predication.cl $exp >/dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
date -u +%FT%TZ
git log -1 --format='commit %h' 2>/dev/null
for v in "" hoisted nobounds; do
  kf=${v:+--kernel-file $exp/step12_$v.cl}
  echo "== ptxas ${v:-kernel}"
  CUDA_CACHE_DISABLE=1 GEMM_BUILD_LOG=1 GEMM_CL_OPTIONS=-cl-nv-verbose GEMM_PROGRAM_BINARY=$out/step12_${v:-kernel}.ptx \
    $k12 --size 1024 --no-verify $kf 2>&1 | grep -E '^ptxas.*(registers|spill)'
done
echo "== verify hoisted"
for s in "129 65 257" "17 33 65" "1000 1001 999" "130 131 67" "1 1 8" "4095 4097 1000"; do
  set -- $s
  for ab in "" "--beta 1" "--alpha -1.5 --beta 0.5"; do
    $k12 -m $1 -n $2 -k $3 $ab --kernel-file $exp/step12_hoisted.cl --brief --repeat 1 --warmup 0 2>&1 | grep -E 'PASS|FAIL|rror' | cut -c1-40 | sed "s/\$/ $ab/"
  done
done
$k12 -m 300 -n 260 -k 1001 -D SLICES=3 --beta 1 --kernel-file $exp/step12_hoisted.cl --brief --repeat 1 --warmup 0 2>&1 | cut -c1-40
strip() { sed -E 's/TSM=128 TSN=128 TSK=8 WTM=64 WTN=64 WPTM=16 WPTN=8 WIDTH=4 STAGES=4 COPY=1 TILE_PAD=8 TC=1 PRODUCTS=3 PROMOTE=1 //; s/; error.*//'; }
run() { "$@" --brief --no-exact --no-verify --repeat 20 --warmup 5 2>&1 | grep -E 'PASS|FAIL|UNVERIFIED|rror' | strip; }
for round in 1 2; do
  for s in "2048 2048 2048" "4096 4096 4096" "8192 8192 8192" "4097 4097 4097" "1000 3000 500"; do
    set -- $s
    sz="-m $1 -n $2 -k $3"
    echo "== round $round, $s"
    run "$build"/bench/peer_cublas $sz
    run $k11 $sz
    run $k12 $sz
    run $k12 $sz --kernel-file $exp/step12_hoisted.cl
    [ $(($1 % 128)) = 0 ] && [ $(($2 % 128)) = 0 ] && [ $(($3 % 8)) = 0 ] && run $k12 $sz --kernel-file $exp/step12_nobounds.cl
    run $k12 $sz -D SLICES=1
  done
done
date -u +%FT%TZ
