#!/usr/bin/env bash
# The parameter sweeps behind the NVIDIA defaults in common/src/gemm_params.c, as run on the lent
# GPU (see lab/README.md). Run after bench/gpu_setup.sh:
#   . build-gpu/env.sh && lab/tune_nvidia.sh OUT.csv [steps|padding|...]   (default: steps padding)
# (the parts are the functions below, each named for what it sweeps)
set -u
out=${1:?usage: lab/tune_nvidia.sh OUT.csv [PART...]}
shift
parts=${*:-"steps padding"}
best=$(mktemp)
tune() { python3 lab/tune.py --build-dir build-gpu --out "$out" --best-out "$best" "$@" -- --repeat 5 --warmup 2; }

steps() {
  tune --size 4096 --step kernel01_naive --grid "TS=8,16,32"
  tune --size 4096 --step kernel02_tiled --grid "TS=8,16,32"
  tune --size 4096 --step kernel03_vectorized --grid "TS=16,32,64 WIDTH=1,2,4,8"
  tune --size 4096 --step kernel04_transpose --grid "TSM=32,64,128 TSN=32,64,128 TSK=8,16,32 WIDTH=4,8"
  # Local-memory padding against bank conflicts in the transpose tile: compare the "transpose A" part
  tune --size 4096 --step kernel04_transpose --no-verify-best \
       --grid "$(sed 's/-D//g' "$best") TRANSPOSE_TILE=16,32 TRANSPOSE_PAD=0,1"
  tune --size 4096 --step kernel05_register_blocking --grid "TSM=64,128,256 TSN=64,128,256 TSK=16,32 WPTM=8 WPTN=8 WIDTH=4"
  tune --size 4096 --step kernel05_register_blocking --no-verify-best \
       --grid "TSM=128,256 TSN=128 TSK=16,32 WPTM=16 WPTN=8 WIDTH=4" \
       --grid "TSM=128 TSN=128,256 TSK=16,32 WPTM=8 WPTN=16 WIDTH=4" \
       --grid "TSM=128 TSN=128 TSK=16,32 WPTM=8 WPTN=8 WIDTH=2,8"
}

# Step 6: which tiles keep the rate just above a multiple of the tile (4097) close to the rate at
# 4096? Smaller tiles pad less, and the number of work-groups decides how full the last wave is.
padding() {
  for s in 4095 4096 4097 8192; do
    tune --size $s --step kernel06_padding --no-verify-best \
         --grid "TSM=64,128 TSN=64,128 TSK=32 WPTM=8 WPTN=8 WIDTH=4" \
         --grid "TSM=64 TSN=64 TSK=64 WPTM=8 WPTN=8 WIDTH=4" \
         --grid "TSM=96 TSN=96,128 TSK=32 WPTM=8 WPTN=8 WIDTH=4" \
         --grid "TSM=128 TSN=96 TSK=32 WPTM=8 WPTN=8 WIDTH=4" \
         --grid "TSM=96 TSN=96 TSK=32 WPTM=12 WPTN=8 WIDTH=4"
  done
}

# Step 6 across sizes: the rate of the candidate tiles at every 16th size from 3968 to 4224 (and
# one below and above 4096), to choose by the spread over many sizes rather than by one size.
sizes() {
  tune --size "$(seq -s, 3968 16 4224),4095,4097" --step kernel06_padding --no-verify-best \
       --grid "TSM=64 TSN=64 TSK=32 WPTM=8 WPTN=8 WIDTH=4" \
       --grid "TSM=96 TSN=96 TSK=32 WPTM=12 WPTN=8 WIDTH=4" \
       --grid "TSM=128 TSN=64 TSK=32 WPTM=8 WPTN=8 WIDTH=4"
}

# Step 6 across sizes again, once its pad/unpad helpers moved WIDTH floats per work-item: 8x8
# against 4x8 per work-item. With 4x8 (128 work-items, fewer registers each) a different number
# of work-groups fits on a multiprocessor at once, so the grid of 65 x 65 work-groups at 4097
# no longer spills one work-group into an extra wave. The register use of each shape is printed.
occupancy() {
  local grids=("TSM=64 TSN=64 TSK=32 WPTM=8,4 WPTN=8 WIDTH=4" "TSM=128 TSN=64 TSK=32 WPTM=4 WPTN=8 WIDTH=4"
               "TSM=64 TSN=64 TSK=16 WPTM=4 WPTN=8 WIDTH=4")
  for d in "-D WPTM=8" "-D WPTM=4" "-D TSM=128 -D WPTM=4" "-D WPTM=4 -D TSK=16"; do
    echo "registers with $d:"
    # shellcheck disable=SC2086
    CUDA_CACHE_DISABLE=1 GEMM_BUILD_LOG=1 GEMM_CL_OPTIONS=-cl-nv-verbose build-gpu/kernel06_padding/kernel06_padding \
      -D TSN=64 -D WPTN=8 -D WIDTH=4 $d --size 256 2>&1 | awk '/entry function .sgemm./ {f = 1} f && /registers/ {print; exit}'
  done
  tune --size "$(seq -s, 3968 16 4224),4095,4097" --step kernel06_padding --no-verify-best \
       --grid "${grids[0]}" --grid "${grids[1]}" --grid "${grids[2]}"
}

# Step 7 (double buffering): tile shapes, depths and register blocks at 4096. Two tiles of each
# now sit in local memory, so TSK=32 with 128 x 128 tiles (64 KiB) is refused on a 48 KiB device.
double_buffering() {
  tune --size 4096 --step kernel07_double_buffering \
       --grid "TSM=64,128 TSN=64,128 TSK=8,16,32 WPTM=4,8 WPTN=8 WIDTH=4" \
       --grid "TSM=128 TSN=128,256 TSK=8,16 WPTM=8 WPTN=16 WIDTH=4" \
       --grid "TSM=256 TSN=128 TSK=8,16 WPTM=16 WPTN=8 WIDTH=4"
}

# Step 8 (warp tiling): warp tiles of 32 work-items (4 x 8, 8 x 4) and of 16 or 64, in 128 x 128
# blocks and in the larger blocks that 8 x 16 register blocks allow.
warp_tiling() {
  tune --size 4096 --step kernel08_warp_tiling \
       --grid "TSM=128 TSN=128 TSK=8,16 WTM=32,64 WTN=32,64 WPTM=8 WPTN=8 WIDTH=4" \
       --grid "TSM=128 TSN=256 TSK=8,16 WTM=32,64 WTN=64,128 WPTM=8 WPTN=16 WIDTH=4" \
       --grid "TSM=256 TSN=128 TSK=8,16 WTM=64,128 WTN=32,64 WPTM=16 WPTN=8 WIDTH=4" \
       --grid "TSM=64,128 TSN=128 TSK=16 WTM=16,32 WTN=64 WPTM=4 WPTN=8 WIDTH=4"
}

# Steps 7 and 8 as they are ("plain") and as the variants of lab/variants.py ("unroll": the k
# loop inside a tile unrolled; "prefetch": unrolled, and the fragments of k+1 read from local
# memory into registers during the multiply-adds of k), over the shapes that led the sweeps above.
# Written to OUT-plain.csv, OUT-unroll.csv, OUT-prefetch.csv.
variants() {
  local dir=build-gpu/variants f v g
  for f in kernel07_double_buffering/double_buffering.cl kernel08_warp_tiling/warp_tiling.cl; do
    python3 lab/variants.py "$f" "$dir" >/dev/null
  done
  local g7=("TSM=128 TSN=128 TSK=8,16 WPTM=8 WPTN=16 WIDTH=4" "TSM=128 TSN=128 TSK=8 WPTM=8 WPTN=8 WIDTH=4"
            "TSM=128 TSN=128 TSK=16 WPTM=16 WPTN=8 WIDTH=4" "TSM=64,128 TSN=64,128 TSK=16 WPTM=8 WPTN=8 WIDTH=4"
            "TSM=128 TSN=256 TSK=8 WPTM=8 WPTN=16 WIDTH=4" "TSM=256 TSN=128 TSK=8 WPTM=16 WPTN=8 WIDTH=4")
  local g8=("TSM=128 TSN=128 TSK=8,16 WTM=32,64 WTN=64,128 WPTM=8 WPTN=16 WIDTH=4"
            "TSM=128 TSN=128 TSK=8 WTM=32,64 WTN=32,64 WPTM=8 WPTN=8 WIDTH=4"
            "TSM=128 TSN=128 TSK=16 WTM=64,128 WTN=32,64 WPTM=16 WPTN=8 WIDTH=4"
            "TSM=128 TSN=256 TSK=8 WTM=32,64 WTN=64,128 WPTM=8 WPTN=16 WIDTH=4")
  for v in plain unroll prefetch; do
    local a7=() a8=() kf7=() kf8=()
    for g in "${g7[@]}"; do a7+=(--grid "$g"); done
    for g in "${g8[@]}"; do a8+=(--grid "$g"); done
    if [ "$v" != plain ]; then
      kf7=(--kernel-file "$dir/${v}_double_buffering.cl")
      kf8=(--kernel-file "$dir/${v}_warp_tiling.cl")
    fi
    python3 lab/tune.py --build-dir build-gpu --out "${out%.csv}-$v.csv" --step kernel07_double_buffering \
      "${a7[@]}" -- "${kf7[@]}" --repeat 5 --warmup 2
    python3 lab/tune.py --build-dir build-gpu --out "${out%.csv}-$v.csv" --step kernel08_warp_tiling \
      "${a8[@]}" -- "${kf8[@]}" --repeat 5 --warmup 2
  done
}

# Step 9 (split-K): how many slices of K pay at each size, against the host's own choice
# (SLICES=0) and step 8, at the sizes where the blocks of C leave the GPU partly idle (1024, 4097,
# 1000x3000x500) and where they fill it (2048, 4095, 4096, 8192).
split_k() {
  local sizes=512,1024,2048,4095,4096,4097,8192,1000x3000x500,1024x1024x8192
  tune --size $sizes --step kernel08_warp_tiling --no-verify-best --grid "TSM=128"
  tune --size $sizes --step kernel09_split_k --no-verify-best --grid "SLICES=0,1,2,3,4,5,6,8,12,16"
}

# Run 13: step 9 splitting only the rows of blocks left over by whole waves (SPLIT_ROWS=0, the host's
# rule) against splitting every row (SPLIT_ROWS=4096, the first version's split) for each SLICES
split_rows() {
  local sizes=512,1024,2048,4095,4096,4097,8192,1000x3000x500,1024x1024x8192
  tune --size $sizes --step kernel08_warp_tiling --no-verify-best --grid "TSM=128"
  tune --size $sizes --step kernel09_split_k --no-verify-best --grid "SLICES=0,1,2,3,4,5,6,8,12 SPLIT_ROWS=0"
  tune --size 1024,4097,8192,1000x3000x500 --step kernel09_split_k --no-verify-best --grid "SLICES=2,4,6,8 SPLIT_ROWS=4096"
}

# Run 15: steps 7 and 8 with the same 128 x 128 x 16 tiles and the same 8 x 16 and 16 x 8 blocks,
# each block in step 7's layout and in step 8's warp tiles, at grids of exactly one and two
# work-groups per multiprocessor of a 132-unit GPU (1408x1536, 2816x1536), one and a half
# (4224x1536), and at the sweep's sizes whose last wave is partly full (3072, 4097) or full (4096).
# Every run is verified, with the harness's default repeats; the rows are the programs' own CSV.
step8_grids() {
  local sz c exe args d
  for sz in "1408 1536 4096" "2816 1536 4096" "4224 1536 4096" "3072 3072 3072" "4096 4096 4096" "4097 4097 4097"; do
    set -- $sz
    for c in "7 WPTM=8 WPTN=16" "7 WPTM=16 WPTN=8" "8 WTM=32 WTN=128 WPTM=8 WPTN=16" "8 WTM=64 WTN=64 WPTM=16 WPTN=8"; do
      c=($c); exe=build-gpu/kernel07_double_buffering/kernel07_double_buffering
      [ "${c[0]}" = 8 ] && exe=build-gpu/kernel08_warp_tiling/kernel08_warp_tiling
      args=(); for d in "${c[@]:1}"; do args+=(-D "$d"); done
      if [ -s "$out" ]; then "$exe" -m "$1" -n "$2" -k "$3" "${args[@]}" --csv | tail -n +2 >> "$out"
      else "$exe" -m "$1" -n "$2" -k "$3" "${args[@]}" --csv > "$out"; fi
    done
  done
}

# Run 16: step 7 with blocks of 12 rows or columns (8 x 12, 12 x 8, 12 x 12 per work-item), which
# need fewer registers than 8 x 16, against its default, at 4096 and 8192; each shape's registers.
shapes12() {
  local s nv d
  for s in 4096 8192; do
    nv=""; [ $s = 8192 ] && nv=--no-verify-best
    python3 lab/tune.py --build-dir build-gpu --out "$out" --size $s --step kernel07_double_buffering $nv \
      --grid "TSM=128 TSN=128 TSK=16 WPTM=8 WPTN=16 WIDTH=4" \
      --grid "TSM=96 TSN=128 TSK=16 WPTM=12 WPTN=8 WIDTH=4" --grid "TSM=192 TSN=128 TSK=16 WPTM=12 WPTN=8 WIDTH=4" \
      --grid "TSM=128 TSN=96 TSK=16 WPTM=8 WPTN=12 WIDTH=4" --grid "TSM=128 TSN=192 TSK=16 WPTM=8 WPTN=12 WIDTH=4" \
      --grid "TSM=96 TSN=96 TSK=16 WPTM=12 WPTN=12 WIDTH=4" -- --repeat 10 --warmup 2
  done
  for d in "-D TSM=96 -D TSN=128 -D WPTM=12 -D WPTN=8" "-D TSM=192 -D TSN=128 -D WPTM=12 -D WPTN=8" \
           "-D TSM=128 -D TSN=96 -D WPTM=8 -D WPTN=12" "-D TSM=128 -D TSN=192 -D WPTM=8 -D WPTN=12" \
           "-D TSM=96 -D TSN=96 -D WPTM=12 -D WPTN=12"; do
    echo "registers with $d:"
    # shellcheck disable=SC2086
    CUDA_CACHE_DISABLE=1 GEMM_BUILD_LOG=1 GEMM_CL_OPTIONS=-cl-nv-verbose build-gpu/kernel07_double_buffering/kernel07_double_buffering \
      $d --size 256 --no-verify 2>&1 | awk '/entry function .sgemm./ {f = 1} f && /registers|spill/ {print}' | head -2
  done
}

# Run 17: step 10 (asynchronous copies) with its NVIDIA defaults (cp.async, a ring of 3 tiles of
# TSK 8, 3 work-groups per multiprocessor for the split model) against one change at a time: rings
# of 2 and 4, OpenCL's async_work_group_copy instead of cp.async, TSK 16 with 2 tiles (step 9's
# local memory) and the model's 2 work-groups per multiprocessor, step 7's 8x16 block, and the model
# alone at 2; beside step 9, at 1024, 4096, 4097 (verified) and 8192; each build's registers.
async_copy() {
  local s c v e9=build-gpu/kernel09_split_k/kernel09_split_k e10=build-gpu/kernel10_async_copy/kernel10_async_copy
  local cfgs=("" "-D STAGES=2" "-D STAGES=4" "-D COPY=0" "-D TSK=16 -D STAGES=2 -D GROUPS_PER_CU=2"
              "-D WTM=32 -D WTN=128 -D WPTM=8 -D WPTN=16" "-D GROUPS_PER_CU=2")
  for c in "${cfgs[@]}"; do
    # shellcheck disable=SC2086
    echo "registers with ${c:-the defaults}: $(CUDA_CACHE_DISABLE=1 GEMM_BUILD_LOG=1 GEMM_CL_OPTIONS=-cl-nv-verbose \
      $e10 $c --size 256 --no-verify 2>&1 | awk '/entry function .sgemm./ {f = 1} f && /registers/ {print; exit}')"
  done
  for s in 1024 4096 4097 8192; do
    v=""; [ $s = 8192 ] && v=--no-verify
    # shellcheck disable=SC2086
    { $e9 --size $s $v --repeat 10 --warmup 3 --csv
      for c in "${cfgs[@]}"; do $e10 $c --size $s $v --repeat 10 --warmup 3 --csv | tail -n +2; done
    } | if [ -s "$out" ]; then tail -n +2 >> "$out"; else cat > "$out"; fi
  done
}

# Run 19: each step's idea alone. A step's defaults were tuned again after its idea was added, so
# its gain over the previous step mixes the idea with the new parameters. Here each pair of steps
# 6-7, 7-8, 8-9 and 9-10 also runs with the parameters swapped where the kernels allow it: the new
# step with the previous step's tile and block (the idea alone) and the previous step with the new
# step's (the parameters alone); for step 9 the split turned off (SLICES=1); step 8 also with its
# work-items in rows of the warp's tile (LANE_SQUARES=0), as before squares. Three rounds, every
# configuration once per round, at 2048, 4096 (verified) and 8192; each build's registers.
ablation() {
  local s r c e v
  local names=([6]=kernel06_padding kernel07_double_buffering kernel08_warp_tiling kernel09_split_k kernel10_async_copy)
  local cfgs=("06" "06 -D TSM=128 -D TSN=128 -D TSK=16 -D WPTM=8 -D WPTN=16"
              "07 -D TSM=64 -D TSN=64 -D TSK=32 -D WPTM=4 -D WPTN=8" "07" "07 -D WPTM=16 -D WPTN=8"
              "08 -D WTM=32 -D WTN=128 -D WPTM=8 -D WPTN=16" "08 -D LANE_SQUARES=0" "08"
              "09 -D SLICES=1" "09" "09 -D TSK=8 -D GROUPS_PER_CU=3"
              "10 -D TSK=16 -D STAGES=2 -D GROUPS_PER_CU=2" "10")
  for c in "${cfgs[@]}"; do
    e=build-gpu/${names[10#${c:0:2}]}/${names[10#${c:0:2}]}
    # shellcheck disable=SC2086
    echo "registers of $(basename "$e") with ${c:3}: $(CUDA_CACHE_DISABLE=1 GEMM_BUILD_LOG=1 \
      GEMM_CL_OPTIONS=-cl-nv-verbose $e ${c:3} --size 256 --no-verify 2>&1 |
      awk '/entry function .sgemm./ {f = 1} f && /registers/ {print; exit}')"
  done
  for r in 1 2 3; do
    for s in 2048 4096 8192; do
      v=""; [ $s = 8192 ] && v=--no-verify
      for c in "${cfgs[@]}"; do
        e=build-gpu/${names[10#${c:0:2}]}/${names[10#${c:0:2}]}
        # shellcheck disable=SC2086
        $e ${c:3} --size $s $v --repeat 10 --warmup 3 --csv |
          if [ -s "$out" ]; then tail -n +2 >> "$out"; else cat > "$out"; fi
      done
    done
  done
}

# Run 21: what a tile chosen by problem size could give step 10 (not a step yet): step 10 with its
# NVIDIA defaults (128 x 128 blocks, 16 x 8 per work-item) against smaller blocks of 8 x 8 per
# work-item (128 x 64, 64 x 128, 64 x 64) and 128 x 128 with 8 x 8 (256 work-items), each with a few
# GROUPS_PER_CU for the split model (the host chooses SLICES), and the defaults with a 32 x 32
# transpose tile; beside step 9 and cuBLAS, two rounds at 512 to 8192 (verified up to 2048 and
# at 1000x3000x500); each build's registers.
tiles_by_size() {
  local s r c v e9=build-gpu/kernel09_split_k/kernel09_split_k e10=build-gpu/kernel10_async_copy/kernel10_async_copy
  local b88="-D WTM=32 -D WTN=64 -D WPTM=8 -D WPTN=8"
  local cfgs=("" "-D TRANSPOSE_TILE=32"
              "-D TSN=64 $b88 -D GROUPS_PER_CU=4" "-D TSN=64 $b88 -D GROUPS_PER_CU=6"
              "-D TSM=64 $b88 -D GROUPS_PER_CU=4" "-D TSM=64 $b88 -D GROUPS_PER_CU=6"
              "-D TSM=64 -D TSN=64 $b88 -D GROUPS_PER_CU=6" "-D TSM=64 -D TSN=64 $b88 -D GROUPS_PER_CU=8"
              "-D TSM=64 -D TSN=64 $b88 -D GROUPS_PER_CU=12"
              "$b88 -D GROUPS_PER_CU=2" "$b88 -D GROUPS_PER_CU=3")
  for c in "${cfgs[@]}"; do
    # shellcheck disable=SC2086
    echo "registers with ${c:-the defaults}: $(CUDA_CACHE_DISABLE=1 GEMM_BUILD_LOG=1 GEMM_CL_OPTIONS=-cl-nv-verbose \
      $e10 $c --size 256 --no-verify 2>&1 | awk '/entry function .sgemm./ {f = 1} f && /registers/ {print; exit}')"
  done
  for r in 1 2; do
    for s in 512 1024 2048 1000x3000x500 3072 4096 4097 8192; do
      v=--no-verify; case $s in 512|1024|2048|1000x3000x500) v="" ;; esac
      set -- ${s//x/ }; [ $# = 1 ] && set -- $1 $1 $1
      # shellcheck disable=SC2086
      { $e9 -m $1 -n $2 -k $3 $v --repeat 10 --warmup 3 --csv
        build-gpu/bench/peer_cublas -m $1 -n $2 -k $3 $v --repeat 10 --warmup 3 --csv | tail -n +2
        for c in "${cfgs[@]}"; do $e10 $c -m $1 -n $2 -k $3 $v --repeat 10 --warmup 3 --csv | tail -n +2; done
      } | if [ -s "$out" ]; then tail -n +2 >> "$out"; else cat > "$out"; fi
    done
  done
}

# The timing exercises of the exercises page (1.2, 1.3, 2.5, 3.1, 4.3, 5.2, 5.3) as the page runs
# them: five rounds of every variant at the GPU's default size, 4096, so that each variant's spread
# over the rounds is on record beside the one ratio a reader may compute (5 timed runs each, not the
# default 20: step 1 with TS=1 takes seconds a run). EXERCISES picks some of them ("1.2 4.3": those
# alone). The rows are the programs' own CSV (one header); the run of exercise 1.2's kernel from the
# key (docs/key/) has it in its last column, kernel_file.
exercises() {
  local run ts w t p m n b=build-gpu
  want() { case " ${EXERCISES:-1.2 1.3 2.5 3.1 4.3 5.2 5.3} " in *" $1 "*) return 0 ;; esac; return 1; }
  for run in $(seq "${EXERCISE_ROUNDS:-5}"); do  # EXERCISE_ROUNDS: fewer rounds where time is short
    if want 1.2; then
      for f in "" docs/key/step01_rows_dim0.cl; do
        $b/kernel01_naive/kernel01_naive ${f:+--kernel-file $f} --repeat 5 --warmup 2 --csv
      done
    fi
    want 1.3 && for ts in 1 4 8 16 32; do $b/kernel01_naive/kernel01_naive -D TS=$ts --repeat 5 --warmup 2 --csv; done
    want 2.5 && for ts in 4 8 16 32; do $b/kernel02_tiled/kernel02_tiled -D TS=$ts --repeat 5 --warmup 2 --csv; done
    want 3.1 && for w in 1 2 4 8; do $b/kernel03_vectorized/kernel03_vectorized -D TS=16 -D WIDTH=$w --repeat 5 --warmup 2 --csv; done
    if want 4.3; then
      for t in 16 32; do for p in 0 1; do
        $b/kernel04_transpose/kernel04_transpose -D TRANSPOSE_TILE=$t -D TRANSPOSE_PAD=$p --repeat 5 --warmup 2 --csv
      done; done
    fi
    if want 5.2; then
      for m in 4 8; do for n in 4 8; do
        $b/kernel05_register_blocking/kernel05_register_blocking -D TSM=64 -D TSN=64 -D TSK=16 -D WPTM=$m -D WPTN=$n \
          -D WIDTH=4 --repeat 5 --warmup 2 --csv
      done; done
    fi
    want 5.3 && $b/kernel05_register_blocking/kernel05_register_blocking --repeat 5 --warmup 2 --csv
  done | awk 'NR == 1 || !/^step,/' >> "$out"
}

for p in $parts; do $p; done
rm -f "$best"
