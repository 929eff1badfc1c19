#!/usr/bin/env bash
# Why step 12 unrolls its store's loops only on the tensor cores (UNROLL_STORE in
# kernel12_predication/predication.cl): on the CPU through PoCL, the seconds one run of step 12 takes
# at 17x33x65, the kernel built each time (PoCL's kernel cache off), as it is and with the store's
# loops unrolled on the portable path too (lab/exp/step12_unrolled_store.cl, made here), with the
# CPU's defaults and with NVIDIA's tile (--defaults-for nvidia-gpu, TILE_BY_SIZE=0: the 128 x 128
# tile, whose store has 4 times the CPU tile's fragments per work-item), three rounds. Each line: the
# verdict, the parameters' row, the kernel file and the run's seconds, almost all of them the build.
#   lab/exp_step12_unroll_store.sh BUILD_DIR
set -u
build=${1:?usage: lab/exp_step12_unroll_store.sh BUILD_DIR}
k12=$build/kernel12_predication/kernel12_predication
exp=lab/exp
mkdir -p $exp
kernel=kernel12_predication/predication.cl
python3 - "$kernel" "$exp/step12_unrolled_store.cl" <<'PY' || exit 1
import sys
text = open(sys.argv[1]).read()
old = '#if TC == 1\n#define UNROLL_STORE _Pragma("unroll")\n'
if text.count(old) != 1:
    sys.exit("exp_step12_unroll_store.sh: the kernel's UNROLL_STORE block is not as expected")
open(sys.argv[2], "w").write(text.replace(old, '#if 1  /* (experiment) unrolled on every path */\n#define UNROLL_STORE _Pragma("unroll")\n'))
PY
date -u +%FT%TZ
git log -1 --format='commit %h' 2>/dev/null
"$k12" --list-devices 2>&1 | grep -m1 -i "device 0"
for round in 1 2 3; do
  for row in cpu nvidia-gpu; do
    for f in $kernel $exp/step12_unrolled_store.cl; do
      start=$(date +%s.%N)
      verdict=$(POCL_KERNEL_CACHE=0 "$k12" -m 17 -n 33 -k 65 --defaults-for $row -D TILE_BY_SIZE=0 \
                --kernel-file $f --brief --repeat 1 --warmup 0 2>&1 | grep -oE 'PASS|FAIL' | head -1)
      end=$(date +%s.%N)
      printf '%s %s %s %.2f s\n' "${verdict:-ERROR}" $row $f "$(echo "$end - $start" | bc)"
    done
  done
done
