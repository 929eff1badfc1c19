#!/usr/bin/env bash
# The parameter sweeps behind the NVIDIA defaults in common/src/gemm_params.c, as run on the lent
# GPU (see bench/README.md, "Tuning record"). Run after bench/gpu_setup.sh:
#   . build-gpu/env.sh && bench/tune_nvidia.sh OUT.csv
set -u
out=${1:?usage: bench/tune_nvidia.sh OUT.csv}
tune() { python3 bench/tune.py --build-dir build-gpu --size 4096 --out "$out" "$@" -- --repeat 5 --warmup 2; }
tune --step kernel01_naive --grid "TS=8,16,32"
tune --step kernel02_tiled --grid "TS=8,16,32"
tune --step kernel03_vectorized --grid "TS=16,32,64 WIDTH=1,2,4,8"
tune --step kernel04_transpose --grid "TSM=32,64,128 TSN=32,64,128 TSK=8,16,32 WIDTH=4,8"
tune --step kernel05_register_blocking --grid "TSM=64,128 TSN=64,128 TSK=8,16,32 WPTM=4,8 WPTN=4,8 WIDTH=4"
# Local-memory padding of the transpose tile against bank conflicts: the "transpose A" part
tune --step kernel05_register_blocking --no-verify-best \
     --grid "TSM=128 TSN=128 TSK=16 WPTM=8 WPTN=8 WIDTH=4 TRANSPOSE_TILE=16,32 TRANSPOSE_PAD=0,1"
