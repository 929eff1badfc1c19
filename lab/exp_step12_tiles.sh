#!/usr/bin/env bash
# Step 12 at small sizes on a lent NVIDIA GPU: its default 128 x 128 tile against the same kernel
# with every tile parameter halved (64 x 64, four warps of 32 x 32), with GROUPS_PER_CU (the split
# model's work-groups per compute unit) 2 and 4, and cuBLAS in the same call. First the compiler's
# report of the halved tile (registers: how many work-groups fit a multiprocessor).
# Run after bench/gpu_setup.sh and `. BUILD/env.sh`:  lab/exp_step12_tiles.sh BUILD
set -u
build=${1:?usage: lab/exp_step12_tiles.sh BUILD_DIR}
k12=$build/kernel12_predication/kernel12_predication
half="-D TSM=64 -D TSN=64 -D WTM=32 -D WTN=32 -D WPTM=8 -D WPTN=4"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
date -u +%FT%TZ
echo "== ptxas, the halved tile"
CUDA_CACHE_DISABLE=1 GEMM_BUILD_LOG=1 GEMM_CL_OPTIONS=-cl-nv-verbose $k12 --size 256 --no-verify $half 2>&1 |
  grep -E '^ptxas|^parameters'
run() { "$@" --brief --no-exact --repeat 20 --warmup 5 2>&1 | grep -E 'PASS|FAIL|error' | sed 's/TSM=128 TSN=128 TSK=8 WTM=64 WTN=64 WPTM=16 WPTN=8 WIDTH=4 STAGES=4 COPY=1 TILE_PAD=8 TC=1 PRODUCTS=3 PROMOTE=1//'; }
for s in "256 256 256" "384 384 384" "512 512 512" "768 768 768" "1000 1000 1000" "1024 1024 1024" "1280 1280 1280" "1536 1536 1536" "1000 3000 500"; do
  set -- $s
  sz="-m $1 -n $2 -k $3"
  run "$build"/bench/peer_cublas $sz
  run $k12 $sz
  run $k12 $sz $half
  run $k12 $sz $half -D GROUPS_PER_CU=4
  for sl in 1 2 3 4 6; do run $k12 $sz $half -D SLICES=$sl; done
done
