#!/usr/bin/env bash
# What step 11's ordinary instructions cost on a lent NVIDIA GPU (lab/tuning/*-step11-costs.log;
# see lab11): timing-only variants of the kernel, made with sed, whose results are wrong on purpose
# (--no-verify), beside the kernel itself at 4096 and 8192:
#   no_split    splitTF32() as cheap as it can be while hi and lo stay two values (hi = x, lo = -x:
#               one instruction per value instead of three): about what splitting once, when the
#               tiles are stored (in the helper kernels), could save;
#   PROMOTE=0   the products chained along all of K (exercise 11.2): the FP32 adds' cost;
#   no_split with PROMOTE=0: what the loads, the 96 mma of an 8-deep step and the rest cost alone;
#   PRODUCTS=1  one mma per block instead of three.
# Phase promote16 (lab/tuning/*-step11-promote16.log): 16-deep tiles (a ring of 2) whose two 8-deep
# steps are chained into one partial sum per block before it is promoted, half the adds
# (lab/exp_step11_promote16.py), beside the same loop promoting every 8 products, the kernel with
# -D TSK=16 -D STAGES=2, and the defaults; verified, at 4096 and 8192, with each build's registers.
# Phase fragments (lab/tuning/*-step11-fragments.log): each lane's fragments read from local memory
# as float2 pairs, half the reads (lab/exp_step11_fragments.py): A's and B's, and A's alone (C's
# stores unchanged), beside the kernel; verified at the tests' awkward sizes and timed at 2048, 4096,
# 8192 and 1000 x 3000 x 500, three rounds, with each build's registers.
# Phase a_rows (lab/tuning/*-step11-a-rows.log): A read as it is, row-major, instead of transposed,
# the 8 depths of a step reordered so that a lane's two depths are neighbours, and the fragments and
# C's stores vectorized (lab/exp_step11_a_rows.py; the host's transpose then copies A as it is),
# with TILE_PAD 4 and 8, beside the kernel and the fragments phase's A-and-B variant; verified at
# the tests' awkward sizes, timed as that phase.
# Phase stores (lab/tuning/*-step11-stores.log): C stored two floats at a time (a lane's neighbouring
# columns), and, with the fragments read in pairs, four at a time (exp_step11_fragments.py --store2,
# --store4), beside the kernel and the fragments phase's A-and-B variant; verified, timed as above.
# Phase a_scalar (lab/tuning/*-step11-a-scalar.log): the kernel as it is since (C stored two floats
# at a time), and the same with A read as it is, row-major, one float at a time like the kernel's reads
# of A^T (exp_step11_a_rows.py --scalar; the host's transpose then copies A as it is); verified, timed
# as above.
# Phase ldmatrix (lab/tuning/*-step11-ldmatrix.log): a_scalar's two kernels and the same with A's
# fragments read by ldmatrix.x4, one instruction per 16 x 8 block (exp_step11_a_rows.py --ldmatrix),
# its asm volatile, and not volatile with a "memory" clobber (--ldmatrix-memory); verified, timed as above.
# Phase store_forms (lab/tuning/*-step11-store-forms.log): the kernel beside the kernel of commit
# 524b781 (C stored one float at a time; lab/exp/before.cl, from git) and two other ways of writing
# its float2 stores (lab/exp_step11_store_forms.py --pointers, --three-loops); verified, timed as above.
# Phase two_acc (lab/tuning/*-step11-two-acc.log): two sets of accumulators, the small products
# chained on the tensor cores along all of K and hi*hi promoted (lab/exp_step11_two_acc.py), with
# warp tiles of 64 x 32 in work-group tiles of 128 x 128 (8 warps) and 128 x 64 (4 warps), beside the
# kernel with the same tiles and with its defaults; verified, timed as above.
# The phases fragments, a_rows and stores edit the kernel of commit 524b781, whose stores were one
# float at a time: run them with KERNEL=that file (git show 524b781:kernel11_tensor_cores/tensor_cores.cl).
#   [KERNEL=FILE] [ROUNDS=N] lab/exp_step11_costs.sh DEB_DIR [costs|promote16|fragments|a_rows|stores|a_scalar|ldmatrix|store_forms|two_acc]
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bench/gpu_setup.sh "${1:?usage: lab/exp_step11_costs.sh DEB_DIR}" build-gpu >/dev/null || exit $?
. build-gpu/env.sh
cmake --build build-gpu -j "$(nproc)" --target kernel11_tensor_cores >/dev/null || exit $?
k11=build-gpu/kernel11_tensor_cores/kernel11_tensor_cores
mkdir -p lab/exp
# The compiler's registers and spills for the sgemm of a run with these options
registers() {
  CUDA_CACHE_DISABLE=1 GEMM_BUILD_LOG=1 GEMM_CL_OPTIONS=-cl-nv-verbose "$k11" "$@" --size 256 --no-verify 2>&1 |
    grep -E '^ptxas' | grep -E 'registers|spill' | head -2 | tr '\n' ' '
}
sed -e 's/\*hi = toTF32(x);/*hi = x;/' -e 's/\*lo = x - \*hi;/*lo = -x;/' kernel11_tensor_cores/tensor_cores.cl \
  > lab/exp/no_split.cl
cmp -s kernel11_tensor_cores/tensor_cores.cl lab/exp/no_split.cl && { echo "no_split: the sed changed nothing" >&2; exit 1; }
phase=${2:-costs}
src=${KERNEL:-kernel11_tensor_cores/tensor_cores.cl}
case $phase in fragments|a_rows|stores|a_scalar|ldmatrix|store_forms|two_acc) layouts=1 ;; *) layouts=0 ;; esac
if [ $layouts = 1 ]; then
  if [ "$phase" = fragments ]; then
    python3 lab/exp_step11_fragments.py "$src" lab/exp/fragments.cl || exit 1
    python3 lab/exp_step11_fragments.py "$src" lab/exp/fragments_a.cl --a-only || exit 1
    variants=("" "--kernel-file lab/exp/fragments.cl" "--kernel-file lab/exp/fragments_a.cl")
    verified=("${variants[@]:1}")
  elif [ "$phase" = two_acc ]; then
    python3 lab/exp_step11_two_acc.py "$src" lab/exp/two_acc.cl || exit 1
    w32="-D WTN=32 -D WPTN=4"
    variants=("" "$w32" "$w32 -D TSN=64" "--kernel-file lab/exp/two_acc.cl $w32"
              "--kernel-file lab/exp/two_acc.cl $w32 -D TSN=64")
    verified=("${variants[@]:3}")
  elif [ "$phase" = store_forms ]; then
    [ -s lab/exp/before.cl ] || git show 524b781:kernel11_tensor_cores/tensor_cores.cl > lab/exp/before.cl || exit 1
    for m in pointers three-loops; do
      python3 lab/exp_step11_store_forms.py "$src" lab/exp/$m.cl --$m || exit 1
    done
    variants=("" "--kernel-file lab/exp/before.cl" "--kernel-file lab/exp/pointers.cl"
              "--kernel-file lab/exp/three-loops.cl")
    verified=("${variants[@]:2}")
  elif [ "$phase" = a_scalar ]; then
    python3 lab/exp_step11_a_rows.py "$src" lab/exp/a_scalar.cl --scalar || exit 1
    variants=("" "--kernel-file lab/exp/a_scalar.cl")
    verified=("${variants[@]}")  # the kernel too: its stores are new
  elif [ "$phase" = ldmatrix ]; then
    python3 lab/exp_step11_a_rows.py "$src" lab/exp/a_scalar.cl --scalar || exit 1
    python3 lab/exp_step11_a_rows.py "$src" lab/exp/ldmatrix.cl --ldmatrix || exit 1
    python3 lab/exp_step11_a_rows.py "$src" lab/exp/ldmatrix_memory.cl --ldmatrix-memory || exit 1
    variants=("" "--kernel-file lab/exp/a_scalar.cl" "--kernel-file lab/exp/ldmatrix.cl"
              "--kernel-file lab/exp/ldmatrix_memory.cl")
    verified=("${variants[@]:2}")
  elif [ "$phase" = a_rows ]; then
    python3 lab/exp_step11_fragments.py "$src" lab/exp/fragments.cl || exit 1
    python3 lab/exp_step11_a_rows.py "$src" lab/exp/a_rows.cl || exit 1
    variants=("" "--kernel-file lab/exp/fragments.cl" "--kernel-file lab/exp/a_rows.cl -D TILE_PAD=4"
              "--kernel-file lab/exp/a_rows.cl")
    verified=("${variants[@]:2}")
  else
    python3 lab/exp_step11_fragments.py "$src" lab/exp/fragments.cl || exit 1
    for m in store2 store4; do
      python3 lab/exp_step11_fragments.py "$src" lab/exp/$m.cl --$m || exit 1
    done
    variants=("" "--kernel-file lab/exp/fragments.cl" "--kernel-file lab/exp/store2.cl"
              "--kernel-file lab/exp/store4.cl")
    verified=("${variants[@]:2}")
  fi
  {
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
    for v in "${variants[@]}"; do
      echo "registers of [$v]: $(registers $v)"
    done
    echo "== verify"
    for size in "-m 1000 -n 1001 -k 999 --alpha 0.5 --beta 2" "-m 129 -n 65 -k 257 --alpha -1.5 --beta -0.25" \
                "-m 17 -n 33 -k 65" "-m 128 -n 128 -k 8192 -D SLICES=1" "-m 4096 -n 16 -k 64" \
                "-m 256 -n 256 -k 256 --alpha 0.5 --beta 2 -D SLICES=1"; do
      for v in "${verified[@]}"; do
        "$k11" $size --brief --repeat 1 --warmup 0 $v
      done
    done
    for round in $(seq "${ROUNDS:-3}"); do  # ROUNDS: 3 unless set
      for size in "--size 2048" "--size 4096" "--size 8192" "-m 1000 -n 3000 -k 500"; do
        echo "== round $round, $size"
        for v in "${variants[@]}"; do
          "$k11" $size --brief --no-exact $v
        done
      done
    done
  } 2>&1 | tee "${OUT:-.}/step11-${phase/_/-}.log"
  exit 0
fi
if [ "${2:-costs}" = promote16 ]; then
  python3 lab/exp_step11_promote16.py kernel11_tensor_cores/tensor_cores.cl lab/exp/promote16.cl || exit 1
  python3 lab/exp_step11_promote16.py kernel11_tensor_cores/tensor_cores.cl lab/exp/every8.cl --every8 || exit 1
  t16=(-D TSK=16 -D STAGES=2)
  {
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
    for f in kernel11_tensor_cores/tensor_cores.cl lab/exp/every8.cl lab/exp/promote16.cl; do
      echo "registers of $f with TSK=16: $(registers "${t16[@]}" --kernel-file $f)"
    done
    for round in 1 2; do
      for size in 4096 8192; do
        echo "== round $round, $size"
        "$k11" --size $size --brief --no-exact
        "$k11" --size $size --brief --no-exact "${t16[@]}"
        "$k11" --size $size --brief --no-exact "${t16[@]}" --kernel-file lab/exp/every8.cl
        "$k11" --size $size --brief --no-exact "${t16[@]}" --kernel-file lab/exp/promote16.cl
      done
    done
    "$k11" -m 1000 -n 1001 -k 999 --brief "${t16[@]}" --kernel-file lab/exp/promote16.cl
    "$k11" -m 128 -n 128 -k 8192 -D SLICES=1 --brief "${t16[@]}" --kernel-file lab/exp/promote16.cl
  } 2>&1 | tee "${OUT:-.}/step11-promote16.log"
  exit 0
fi
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
  for round in 1 2; do
    for size in 4096 8192; do
      echo "== round $round, $size"
      "$k11" --size $size --brief --no-exact
      "$k11" --size $size --brief --no-verify --kernel-file lab/exp/no_split.cl
      "$k11" --size $size --brief --no-verify -D PROMOTE=0
      "$k11" --size $size --brief --no-verify -D PROMOTE=0 --kernel-file lab/exp/no_split.cl
      "$k11" --size $size --brief --no-verify -D PRODUCTS=1
    done
  done
} 2>&1 | tee "${OUT:-.}/step11-costs.log"
