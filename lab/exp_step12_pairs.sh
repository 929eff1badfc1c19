#!/usr/bin/env bash
# Step 12's reads of A's fragments, on a lent NVIDIA GPU: the kernel beside the variant `pairs` of
# lab/exp_step12_pairs.py (a lane's two values of A along k read as one float2, k reordered, with
# -D TILE_PAD=4), with step 11 and cuBLAS, and step 12 with -D TILE_PAD=4 alone (its reads as they
# are: what the padding that comes with the pairs does by itself; added after the first run, whose log
# has no such line). First each build's
# registers and local memory, `pairs` verified at awkward sizes with the three (alpha, beta) pairs
# and with K split, then ROUNDS rounds (2 if unset) at 512, 2048, 4096, 8192, 4097 and
# 1000x3000x500. Step 12 has read its fragments in pairs since this experiment (commit after
# a3efea4): the script compares the kernel as it was before, at a3efea4 (from git, into lab/exp/,
# with its TILE_PAD = 8, and with TILE_PAD = 4 alone), with that kernel's variant, as it did when it ran.
# Run after bench/gpu_setup.sh and `. BUILD/env.sh`:  lab/exp_step12_pairs.sh BUILD
set -u
build=${1:?usage: lab/exp_step12_pairs.sh BUILD_DIR}
k12=$build/kernel12_predication/kernel12_predication
k11=$build/kernel11_tensor_cores/kernel11_tensor_cores
exp=lab/exp
mkdir -p $exp
# (where the checkout has no git, as on a lent machine, a copy made beforehand, carried in lab/exp/)
git show a3efea4:kernel12_predication/predication.cl > $exp/step12_before_pairs.new 2>/dev/null &&
  mv $exp/step12_before_pairs.new $exp/step12_before_pairs.cl
rm -f $exp/step12_before_pairs.new
[ -s $exp/step12_before_pairs.cl ] || { echo "no kernel of a3efea4 (git show failed, no lab/exp/ copy)" >&2; exit 1; }
python3 lab/exp_step12_pairs.py $exp/step12_before_pairs.cl $exp >/dev/null || exit 1
before="--kernel-file $exp/step12_before_pairs.cl -D TILE_PAD=8"
pairs="--kernel-file $exp/step12_pairs.cl -D TILE_PAD=4"
pad="--kernel-file $exp/step12_before_pairs.cl -D TILE_PAD=4"  # the padding without the pairs
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
date -u +%FT%TZ
git log -1 --format='commit %h' 2>/dev/null
for opts in "$before" "$pairs"; do
  [ "$opts" = "$before" ] && name="(defaults)" || name=$opts  # the name the log had when step 12 was this kernel
  echo "== ptxas kernel12_predication $name"
  # shellcheck disable=SC2086
  CUDA_CACHE_DISABLE=1 GEMM_BUILD_LOG=1 GEMM_CL_OPTIONS=-cl-nv-verbose $k12 --size 1024 --no-verify $opts 2>&1 |
    grep -E '^ptxas.*(registers|spill)'
done
echo "== verify pairs"
for s in "129 65 257" "17 33 65" "1000 1001 999" "130 131 67" "1 1 8" "4095 4097 1000"; do
  set -- $s
  for ab in "" "--beta 1" "--alpha -1.5 --beta 0.5"; do
    # shellcheck disable=SC2086
    $k12 -m $1 -n $2 -k $3 $ab $pairs --brief --repeat 1 --warmup 0 2>&1 | grep -E 'PASS|FAIL|rror' | sed -E 's/ TSM=.*//' | sed "s/\$/ $ab/"
  done
done
# shellcheck disable=SC2086
$k12 -m 300 -n 260 -k 1001 -D SLICES=3 --beta 1 $pairs --brief --repeat 1 --warmup 0 2>&1 | sed -E 's/ TSM=.*//; s/$/ SLICES=3 --beta 1/'
strip() { sed -E 's/ WTM=64 WTN=64 WPTM=16 WPTN=8 WIDTH=4//; s/ TC=1 PRODUCTS=3 PROMOTE=1//; s/ TRANSPOSE_TILE=16 TRANSPOSE_PAD=1//; s/; error.*//'; }
run() { "$@" --brief --no-exact --no-verify --repeat 20 --warmup 5 2>&1 | grep -E 'PASS|FAIL|UNVERIFIED|rror' | strip; }
for round in $(seq 1 "${ROUNDS:-2}"); do
  for s in "512 512 512" "2048 2048 2048" "4096 4096 4096" "8192 8192 8192" "4097 4097 4097" "1000 3000 500"; do
    set -- $s
    sz="-m $1 -n $2 -k $3"
    echo "== round $round, $s"
    # shellcheck disable=SC2086
    { run "$build"/bench/peer_cublas $sz; run $k11 $sz; run $k12 $sz $before; run $k12 $sz $pad; run $k12 $sz $pairs; }
  done
done
date -u +%FT%TZ
