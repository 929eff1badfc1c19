#!/usr/bin/env bash
# The NVIDIA compiler's resource report (registers, local memory, spills of every kernel) for
# each step's default parameters: the file docs/render.py shows beside each step's arithmetic
# (lab/tuning/NAME-ptxas.txt for docs/results/NAME.csv). Run on the GPU machine after
# bench/gpu_setup.sh and `. build-gpu/env.sh`:
#   lab/ptxas_report.sh build-gpu > lab/tuning/nvidia-h100-ptxas.txt
# At 1024, not smaller: step 12 halves its tile where a size is small (TILE_BY_SIZE), and the report
# is of the defaults as they run at large sizes.
# CUDA_CACHE_DISABLE=1: a kernel found in NVIDIA's compute cache is not compiled again and would
# leave no report.
set -u
build=${1:?usage: lab/ptxas_report.sh BUILD_DIR}
for exe in "$build"/kernel[0-9][0-9]_*/kernel[0-9][0-9]_*; do
  [ -x "$exe" ] || continue
  echo "== $(basename "$exe")"
  CUDA_CACHE_DISABLE=1 GEMM_BUILD_LOG=1 GEMM_CL_OPTIONS=-cl-nv-verbose "$exe" --size 1024 --no-verify \
    2>&1 | grep -E '^ptxas|^parameters'
done
