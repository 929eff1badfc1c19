#!/usr/bin/env bash
# Step 12's reads of A, on a lent NVIDIA GPU. Step 12 copies A's tile as A is stored: with TSK = 8
# each of the tile's 128 rows is 32 bytes of A, so a warp's 32 copies of 16 bytes touch 16 rows (16
# cache lines); step 11 copied A's transposed copy, 512 bytes of one row of A^T per warp (4 lines).
# If those scattered rows are what keeps step 12 behind step 11's sgemm alone at large sizes, a
# deeper tile (TSK = 16: 64 bytes a row, 8 lines a warp) should narrow the gap between the two steps
# at the same parameters. Both steps at their defaults and at TSK = 16 with a ring of 2 (STAGES = 2:
# TSK = 16 with 3 or 4 does not fit NVIDIA's 48 KiB of local memory), each build's registers first,
# step 12 at TSK = 16 verified at awkward sizes with the three pairs of alpha and beta, then two
# rounds of timings with cuBLAS. Step 11's line gives its sgemm's time alone, beside its helpers'.
# One more way to the same question at TSK = 8: step 12 with its 16-byte copies through the L1 cache
# (cp.async.ca in place of .cg, lab/exp/step12_cached.cl), so that the rest of each 128-byte line of
# A, the next three tiles' 32 bytes of the row, can come from L1 rather than from L2 again.
# Run after bench/gpu_setup.sh and `. BUILD/env.sh`:  lab/exp_step12_depth.sh BUILD
# (ROUNDS=n in the environment: n rounds of timings, 2 if unset)
set -u
build=${1:?usage: lab/exp_step12_depth.sh BUILD_DIR}
k12=$build/kernel12_predication/kernel12_predication
k11=$build/kernel11_tensor_cores/kernel11_tensor_cores
deep="-D TSK=16 -D STAGES=2"
mkdir -p lab/exp
sed 's/cp\.async\.cg\.shared\.global/cp.async.ca.shared.global/' kernel12_predication/predication.cl > lab/exp/step12_cached.cl
grep -q 'cp.async.ca.shared.global \[%0\], \[%1\], 16' lab/exp/step12_cached.cl || { echo "no 16-byte copy to change"; exit 1; }
cached="--kernel-file lab/exp/step12_cached.cl"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
date -u +%FT%TZ
git log -1 --format='commit %h' 2>/dev/null
for prog in "$k11" "$k12"; do
  for opts in "" "$deep"; do
    echo "== ptxas $(basename "$prog") ${opts:-(defaults)}"
    # shellcheck disable=SC2086
    CUDA_CACHE_DISABLE=1 GEMM_BUILD_LOG=1 GEMM_CL_OPTIONS=-cl-nv-verbose "$prog" --size 1024 --no-verify $opts 2>&1 |
      grep -E '^ptxas.*(registers|spill)'
  done
done
echo "== verify step 12 $deep"
for s in "129 65 257" "1000 1001 999" "4095 4097 1000"; do
  set -- $s
  for ab in "" "--beta 1" "--alpha -1.5 --beta 0.5"; do
    # shellcheck disable=SC2086
    $k12 -m $1 -n $2 -k $3 $ab $deep --brief --repeat 1 --warmup 0 2>&1 | grep -E 'PASS|FAIL|rror' | sed -E 's/ TSM=.*//' | sed "s/\$/ $ab/"
  done
done
echo "== verify step 12 cached"
for ab in "" "--beta 1" "--alpha -1.5 --beta 0.5"; do
  # shellcheck disable=SC2086
  $k12 -m 1000 -n 1001 -k 1000 $ab $cached --brief --repeat 1 --warmup 0 2>&1 | grep -E 'PASS|FAIL|rror' | sed -E 's/ TSM=.*//' | sed "s/\$/ $ab/"
done
strip() { sed -E 's/ WTM=64 WTN=64 WPTM=16 WPTN=8 WIDTH=4//; s/ TILE_PAD=8 TC=1 PRODUCTS=3 PROMOTE=1//; s/ TRANSPOSE_TILE=16 TRANSPOSE_PAD=1//; s/; error.*//'; }
run() { "$@" --brief --no-exact --no-verify --repeat 20 --warmup 5 2>&1 | grep -E 'PASS|FAIL|UNVERIFIED|rror' | strip; }
for round in $(seq 1 "${ROUNDS:-2}"); do
  for s in "2048 2048 2048" "4096 4096 4096" "8192 8192 8192" "4097 4097 4097" "1000 3000 500"; do
    set -- $s
    sz="-m $1 -n $2 -k $3"
    echo "== round $round, $s"
    # shellcheck disable=SC2086
    { run "$build"/bench/peer_cublas $sz; run $k11 $sz; run $k11 $sz $deep; run $k12 $sz; run $k12 $sz $deep; run $k12 $sz $cached; }
  done
done
date -u +%FT%TZ
