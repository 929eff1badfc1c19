#!/usr/bin/env bash
# The timing exercises of docs/exercises.md on a CPU, through PoCL: what lab/tune_nvidia.sh's
# exercises() records on a GPU, for the reader who has none. Five rounds (each round runs every
# variant once) of every variant that the exercises 1.2, 1.3, 2.5, 3.1, 4.3, 5.2, 5.3, 6.2 and 7.2
# time, each run with --csv, 5 timed runs after 2 warm-ups, at M=N=K=512 (the size the pages give
# for a CPU where a run at the default takes long; 6.2 at its own CPU sizes, 127, 128 and 129 with
# its tiles), and five runs of exercise 8.2's `peak --local-reads --csv`. The exercises page shows
# each variant's spread beside the exercise's paragraph "On a CPU (PoCL)" (docs/sitegen/exercises.py
# reads lab/tuning/pocl-*-exercises*.csv; CPU_SIZE there must be the size here).
#
#   lab/exercises_cpu.sh [BUILD_DIR [OUT]]     (default: build-ci lab/tuning/pocl-cpu-exercises)
#
# writes OUT.csv (the steps' runs, the programs' own CSV with one header line), OUT-local-reads.csv
# (peak's) and OUT.log: the commit, the device, the machine's load before and after (uptime) and
# the time it took. EXERCISE_ROUNDS=N: fewer rounds where time is short. Runs from the repository
# root (exercise 1.2's kernel is docs/key/step01_rows_dim0.cl) on the PoCL platform, with PoCL's
# threads bound one to a CPU (POCL_AFFINITY=1 unless set: what bench/gemmrun.py does, and why, in
# docs/results/README.md, pocl-cpu; the log says which).
set -euo pipefail
export POCL_AFFINITY=${POCL_AFFINITY-1}
b=${1:-build-ci}
out=${2:-lab/tuning/pocl-cpu-exercises}
rounds=${EXERCISE_ROUNDS:-5}
size=512
cd "$(dirname "${BASH_SOURCE[0]}")/.."
run() { local step=$1; shift; "$b/$step/$step" --platform Portable --repeat 5 --warmup 2 --csv "$@"; }

rm -f "$out-local-reads.tmp"
start=$(date +%s)
{
  echo "lab/exercises_cpu.sh $b $out: $rounds rounds, M=N=K=$size (exercise 6.2: 127, 128, 129)"
  echo "date        $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit      $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . || echo ' (with local changes)')"
  echo "device      $("$b/kernel01_naive/kernel01_naive" --platform Portable --list-devices 2>&1 | grep -m1 -A1 'device 0' | sed 's/^ *//' | paste -sd ' ')"
  echo "cores       $(nproc)"
  echo "affinity    POCL_AFFINITY=$POCL_AFFINITY"
  echo "load before $(uptime)"
} > "$out.log"

for _ in $(seq "$rounds"); do
  run kernel01_naive --size $size                                                  # 1.2, 1.3
  run kernel01_naive --size $size --kernel-file docs/key/step01_rows_dim0.cl        # 1.2
  for ts in 1 4 8 16 32; do run kernel01_naive --size $size -D TS=$ts; done         # 1.3
  for ts in 4 8 16 32; do run kernel02_tiled --size $size -D TS=$ts; done           # 2.5, 3.1
  for w in 1 2 4 8; do run kernel03_vectorized --size $size -D TS=16 -D WIDTH=$w; done  # 3.1
  for t in 16 32; do for p in 0 1; do                                               # 4.3
    run kernel04_transpose --size $size -D TRANSPOSE_TILE=$t -D TRANSPOSE_PAD=$p
  done; done
  # shellcheck disable=SC2086
  for mn in "4 4" "4 8" "8 4" "8 8"; do set -- $mn                                  # 5.2
    run kernel05_register_blocking --size $size -D TSM=64 -D TSN=64 -D TSK=16 -D WPTM="$1" -D WPTN="$2" -D WIDTH=4
  done
  run kernel05_register_blocking --size $size                                       # 5.3
  for s in 127 128 129; do run kernel06_padding --size $s -D TSM=32 -D TSN=64 -D TSK=16; done  # 6.2
  for p in "-D TSM=64 -D TSN=64 -D TSK=32 -D WPTM=4 -D WPTN=8" "-D TSM=128 -D TSN=128 -D TSK=16 -D WPTM=8 -D WPTN=16"; do
    # shellcheck disable=SC2086
    for step in kernel06_padding kernel07_double_buffering; do run $step --size $size -D WIDTH=4 $p; done  # 7.2
  done
  "$b/bench/peak" --platform Portable --local-reads --csv >> "$out-local-reads.tmp"  # 8.2
done | awk 'NR == 1 || !/^step,/' > "$out.csv"
awk 'NR == 1 || !/^platform,/' "$out-local-reads.tmp" > "$out-local-reads.csv"
rm -f "$out-local-reads.tmp"

{
  echo "load after  $(uptime)"
  echo "took        $(( $(date +%s) - start )) s"
} >> "$out.log"
cat "$out.log"
