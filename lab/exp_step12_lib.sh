# What lab/exp_step12_order.sh and lab/exp_step12_split.sh share (sourced, not run):
#   timed PROGRAM ARGS...   one timing, as the lab's logs record them: --no-verify, --repeat 20
#                           --warmup 5, the line of the result with the parameters that steps 11 and
#                           12 share at NVIDIA's defaults cut out
#   verify_awkward K12 KERNEL_FILE
#                           step 12 with KERNEL_FILE at the tests' awkward sizes, each with the three
#                           (alpha, beta) pairs, then with K split in 3: PASS or FAIL, one line each
#   timed_base BUILD K11 K12 M N K
#                           each size's first three timings: cuBLAS (BUILD/bench/peer_cublas), step 11
#                           (K11) and step 12 (K12) at their defaults, at M x N x K
#   in_rounds FUNCTION "M N K" ...
#                           two rounds over the sizes, each size's block headed `== round R, M N K`
#                           (the line the site's tables read) and run as FUNCTION M N K
strip_shared() { sed -E 's/TSM=128 TSN=128 TSK=8 WTM=64 WTN=64 WPTM=16 WPTN=8 WIDTH=4 STAGES=4 COPY=1 TILE_PAD=[48] TC=1 PRODUCTS=3 PROMOTE=1 //; s/; error.*//'; }
timed() { "$@" --brief --no-exact --no-verify --repeat 20 --warmup 5 2>&1 | grep -E 'PASS|FAIL|UNVERIFIED|rror' | strip_shared; }
verify_awkward() {
  local k12=$1 kf=$2 s ab
  for s in "129 65 257" "17 33 65" "1000 1001 999" "130 131 67" "1 1 8" "4095 4097 1000"; do
    set -- $s
    for ab in "" "--beta 1" "--alpha -1.5 --beta 0.5"; do
      $k12 -m $1 -n $2 -k $3 $ab --kernel-file $kf --brief --repeat 1 --warmup 0 2>&1 | grep -E 'PASS|FAIL|rror' | cut -c1-40 | sed "s/\$/ $ab/"
    done
  done
  $k12 -m 300 -n 260 -k 1001 -D SLICES=3 --beta 1 --kernel-file $kf --brief --repeat 1 --warmup 0 2>&1 | cut -c1-40
}
timed_base() {
  local sz="-m $4 -n $5 -k $6"
  timed "$1"/bench/peer_cublas $sz
  timed $2 $sz
  timed $3 $sz
}
in_rounds() {
  local fn=$1 round s
  shift
  for round in 1 2; do
    for s in "$@"; do
      echo "== round $round, $s"
      $fn $s
    done
  done
}
