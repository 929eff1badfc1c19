#!/usr/bin/env bash
# Step 12's order in a tile, on a lent NVIDIA GPU: the kernel beside the variants of
# lab/exp_step12_order.py (readsfirst: the fragments read before the next tile's copies start;
# copieslast: those copies started after the tile's multiply-adds), and beside lab/exp_step12_copies.py's
# nobounds (no bound at all: only where every tile is inside),
# step 11 and cuBLAS, two rounds at 2048, 4096, 8192, 4097 and 1000x3000x500. First the compiler's
# report of each, the variants verified at awkward sizes with the three (alpha, beta) pairs, and the
# machine code of each (OUT_DIR/step12_*.sass, for lab/sass_loop.py) where the CUDA toolkit's
# ptxas and cuobjdump are found. Run after bench/gpu_setup.sh and `. BUILD/env.sh`:
#   lab/exp_step12_order.sh BUILD OUT_DIR
set -u
build=${1:?usage: lab/exp_step12_order.sh BUILD_DIR OUT_DIR}
out=${2:?usage: lab/exp_step12_order.sh BUILD_DIR OUT_DIR}
k12=$build/kernel12_predication/kernel12_predication
k11=$build/kernel11_tensor_cores/kernel11_tensor_cores
exp=lab/exp
. lab/exp_step12_lib.sh
mkdir -p "$out"
python3 lab/exp_step12_order.py kernel12_predication/predication.cl $exp >/dev/null || exit 1
python3 lab/exp_step12_copies.py kernel12_predication/predication.cl $exp >/dev/null || exit 1  # nobounds
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
date -u +%FT%TZ
export PATH=$PATH:/usr/local/cuda/bin
for v in "" readsfirst copieslast nobounds; do
  kf=${v:+--kernel-file $exp/step12_$v.cl}
  n=step12_${v:-kernel}
  echo "== ptxas $n"
  CUDA_CACHE_DISABLE=1 GEMM_BUILD_LOG=1 GEMM_CL_OPTIONS=-cl-nv-verbose GEMM_PROGRAM_BINARY=$out/$n.ptx \
    $k12 --size 1024 --no-verify $kf 2>&1 | grep -E '^ptxas.*(registers|spill)'
  # The program binary is PTX text ending in a NUL byte, which ptxas refuses
  if command -v cuobjdump >/dev/null; then
    tr -d '\000' < "$out/$n.ptx" > "$out/$n.tmp.ptx" && ptxas -arch=sm_90 "$out/$n.tmp.ptx" -o "$out/$n.cubin" &&
      cuobjdump -sass "$out/$n.cubin" > "$out/$n.sass"
    rm -f "$out/$n.tmp.ptx" "$out/$n.cubin" "$out/$n.ptx"
  fi
done
for v in readsfirst copieslast; do
  echo "== verify $v"
  verify_awkward $k12 $exp/step12_$v.cl
done
# One size's block of a round: M N K as arguments
block() {
  local sz="-m $1 -n $2 -k $3"
  timed_base "$build" $k11 $k12 "$@"
  timed $k12 $sz --kernel-file $exp/step12_readsfirst.cl
  timed $k12 $sz --kernel-file $exp/step12_copieslast.cl
  if [ $(($1 % 128)) = 0 ] && [ $(($2 % 128)) = 0 ] && [ $(($3 % 8)) = 0 ]; then  # every tile inside
    timed $k12 $sz --kernel-file $exp/step12_nobounds.cl
  fi
}
in_rounds block "2048 2048 2048" "4096 4096 4096" "8192 8192 8192" "4097 4097 4097" "1000 3000 500"
date -u +%FT%TZ
