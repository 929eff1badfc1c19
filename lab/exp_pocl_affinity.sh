#!/usr/bin/env bash
# Why bench/gemmrun.py pins PoCL's threads (POCL_AFFINITY=1, program_env()): on the 2-core
# development machine, the same program at the same size, run again and again, ran at one of two
# rates, about a factor of 2 apart, steady within a run (its median and best agree) and chosen per
# process. PoCL's pthread driver runs a kernel on one worker thread per CPU; unpinned, the two can
# share one CPU for a whole run. With POCL_AFFINITY=1 each worker thread is bound to its own CPU
# (thread i to CPU i). This script alternates the two settings, ROUNDS times (8 if unset), for
# steps 3 and 10 at 512 (the sizes whose rows were unsteady in the sweeps), with bench.py's options
# of the CPU results file (--repeat 5 --warmup 2); each line: the setting, the program, median and
# best ms, GFLOPS median and best.
#   lab/exp_pocl_affinity.sh BUILD_DIR
set -u
build=${1:?usage: lab/exp_pocl_affinity.sh BUILD_DIR}
date -u +%FT%TZ
git log -1 --format='commit %h' 2>/dev/null
nproc
grep -m1 "model name" /proc/cpuinfo
"$build/kernel03_vectorized/kernel03_vectorized" --list-devices 2>&1 | grep -m1 -i "device 0"
for round in $(seq "${ROUNDS:-8}"); do
  for step in kernel03_vectorized kernel10_async_copy; do
    for pin in 0 1; do
      row=$(POCL_AFFINITY=$pin "$build/$step/$step" --size 512 --repeat 5 --warmup 2 --csv 2>/dev/null | tail -1)
      echo "round $round POCL_AFFINITY=$pin $step $(echo "$row" | cut -d, -f13-16)"
    done
  done
done
