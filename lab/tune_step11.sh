#!/usr/bin/env bash
# Step 11 on a lent NVIDIA GPU: builds (bench/gpu_setup.sh), checks the tensor-core path at awkward
# sizes, then times variants of its parameters at 4096 and 8192 beside step 10, one line each
# (--brief). Writes $OUT/step11-tuning.log.
#   lab/tune_step11.sh DEB_DIR [phase ...]     phases: verify tune accuracy bench split helpers
#   (default: the first four)
set -uo pipefail
debs=${1:?usage: lab/tune_step11.sh DEB_DIR [phase ...]}
shift
phases=${*:-verify tune accuracy bench}
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bench/gpu_setup.sh "$debs" build-gpu >/dev/null || exit $?
. build-gpu/env.sh
cmake --build build-gpu -j "$(nproc)" --target kernel10_async_copy kernel11_tensor_cores >/dev/null || exit $?
log=${OUT:-.}/step11-tuning.log
k10=build-gpu/kernel10_async_copy/kernel10_async_copy
k11=build-gpu/kernel11_tensor_cores/kernel11_tensor_cores
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  date -u
  "$k11" --list-devices
  for phase in $phases; do
    echo "== $phase"
    case $phase in
      verify)
        for size in "-m 1 -n 1 -k 1" "-m 17 -n 33 -k 65" "-m 127 -n 129 -k 31" "-m 129 -n 65 -k 257" \
                    "-m 1000 -n 1001 -k 999" "-m 256 -n 256 -k 64" "-m 3 -n 5 -k 2048"; do
          for ab in "--alpha 1 --beta 0" "--alpha -1.5 --beta -0.25"; do
            "$k11" $size $ab --brief --repeat 1 --warmup 0
          done
        done
        "$k11" -m 129 -n 65 -k 257 -D TC=0 --brief --repeat 1 --warmup 0
        "$k11" -m 129 -n 65 -k 257 -D COPY=3 --brief --repeat 1 --warmup 0 ;;
      tune)
        for size in 4096 8192; do
          "$k10" --size $size --brief --no-exact
          for v in "" "-D STAGES=5" "-D TILE_PAD=0" "-D TSK=16 -D STAGES=2" "-D GROUPS_PER_CU=1" \
                   "-D TSN=256 -D STAGES=3" "-D TSM=256 -D STAGES=3"; do
            "$k11" --size $size --brief --no-exact $v
          done
        done ;;
      bench)
        cmake --build build-gpu -j "$(nproc)" >/dev/null
        python3 bench/bench.py --build-dir build-gpu --out "${OUT:-.}/step11-bench.csv" --sizes 2048,4096,8192 \
          --odd-sizes 1000x3000x500 --programs kernel10_async_copy,kernel11_tensor_cores,cublas,cublas_tf32,clblast ;;
      split)
        # how the split of K is planned: the host's plan for 2 work-groups per multiprocessor (the
        # defaults), for 1 and 3, and no split at all, at the sweep's sizes; more slices at the odd
        # size; twice, to see the run-to-run spread
        for r in 1 2; do
          for size in "--size 2048" "--size 4096" "--size 8192" "-m 1000 -n 3000 -k 500"; do
            for v in "" "-D GROUPS_PER_CU=1" "-D GROUPS_PER_CU=3" "-D SLICES=1"; do
              "$k11" $size --brief --no-exact $v
            done
          done
          for v in 2 3 6 8; do "$k11" -m 1000 -n 3000 -k 500 --brief --no-exact -D SLICES=$v; done
        done ;;
      helpers)
        # the helper kernels' square work-groups (transpose, pad, unpad: TRANSPOSE_TILE), three rounds
        for r in 1 2 3; do
          for size in "--size 2048" "--size 4096" "--size 8192" "-m 1000 -n 3000 -k 500"; do
            for v in "" "-D TRANSPOSE_TILE=32" "-D TRANSPOSE_TILE=8"; do
              "$k11" $size --brief --no-exact $v
            done
          done
        done ;;
      accuracy)
        for size in 4096 8192; do
          "$k11" --size $size --brief --no-exact -D PRODUCTS=1
          "$k11" --size $size --brief --no-exact -D PROMOTE=0
        done ;;
    esac
  done
} 2>&1 | tee "$log"
