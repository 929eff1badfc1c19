#!/usr/bin/env bash
# Step 12's split of K at 4096 and 8192, on a lent NVIDIA GPU: step 12 at its defaults, with the
# host's model of the device changed (-D GROUPS_PER_CU=1 and 3, from which the host picks SLICES and
# SPLIT_ROWS) and with K not split (-D SLICES=1), beside step 11 and cuBLAS, two rounds, no
# verification (the settings only change the launch, which the tests verify at every split).
# Run after bench/gpu_setup.sh (or bench/gpu_tests.sh) and `. BUILD/env.sh`:
#   lab/exp_step12_split.sh BUILD
set -u
b=${1:?usage: lab/exp_step12_split.sh BUILD_DIR}
k12=$b/kernel12_predication/kernel12_predication; k11=$b/kernel11_tensor_cores/kernel11_tensor_cores
. lab/exp_step12_lib.sh
for round in 1 2; do for s in 4096 8192; do
  echo "== round $round, $s"
  timed $b/bench/peer_cublas --size $s
  timed $k11 --size $s
  timed $k12 --size $s
  timed $k12 --size $s -D GROUPS_PER_CU=1
  timed $k12 --size $s -D GROUPS_PER_CU=3
  timed $k12 --size $s -D SLICES=1
done; done
