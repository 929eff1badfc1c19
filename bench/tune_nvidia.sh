#!/usr/bin/env bash
# The parameter sweeps behind the NVIDIA defaults in common/src/gemm_params.c, as run on the lent
# GPU (see bench/README.md, "Tuning record"). Run after bench/gpu_setup.sh:
#   . build-gpu/env.sh && bench/tune_nvidia.sh OUT.csv
set -u
out=${1:?usage: bench/tune_nvidia.sh OUT.csv}
best=$(mktemp)
tune() { python3 bench/tune.py --build-dir build-gpu --size 4096 --out "$out" --best-out "$best" "$@" -- --repeat 5 --warmup 2; }
tune --step kernel01_naive --grid "TS=8,16,32"
tune --step kernel02_tiled --grid "TS=8,16,32"
tune --step kernel03_vectorized --grid "TS=16,32,64 WIDTH=1,2,4,8"
tune --step kernel04_transpose --grid "TSM=32,64,128 TSN=32,64,128 TSK=8,16,32 WIDTH=4,8"
# Local-memory padding against bank conflicts in the transpose tile: compare the "transpose A" part
tune --step kernel04_transpose --no-verify-best --grid "$(sed 's/-D//g' "$best") TRANSPOSE_TILE=16,32 TRANSPOSE_PAD=0,1"
tune --step kernel05_register_blocking --grid "TSM=64,128,256 TSN=64,128,256 TSK=16,32 WPTM=8 WPTN=8 WIDTH=4"
cp "$best" "$best.8x8"
tune --step kernel05_register_blocking --no-verify-best --grid "TSM=128,256 TSN=128 TSK=16,32 WPTM=16 WPTN=8 WIDTH=4"
tune --step kernel05_register_blocking --no-verify-best --grid "TSM=128 TSN=128,256 TSK=16,32 WPTM=8 WPTN=16 WIDTH=4"
tune --step kernel05_register_blocking --no-verify-best --grid "TSM=128 TSN=128 TSK=16,32 WPTM=8 WPTN=8 WIDTH=2,8"
# Step 6 with the best 8x8 configuration of step 5, just below, at and just above 4096
for s in 4095 4096 4097; do
  build-gpu/kernel06_padding/kernel06_padding --size $s --csv --repeat 10 --warmup 3 $(cat "$best.8x8") 2>/dev/null |
    tail -1 | tee -a "$out"
done
rm -f "$best" "$best.8x8"
