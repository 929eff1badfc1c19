#!/usr/bin/env bash
# device.sh BUILD_DIR [--platform NAME] [--device NAME]
# Prints one line naming the device the tests of BUILD_DIR run on (the default device, or the one
# the options choose, as GEMM_TEST_ARGS pass them to every test), from the report of a 16 x 16 x 16
# run of kernel01_naive, which it builds first. Exits non-zero, with the step's error line, where
# there is no such device. Used by tests/run.sh and bench/gpu_tests.sh.
set -u
build=$1
shift
if ! log=$(cmake --build "$build" --target kernel01_naive 2>&1); then
  echo "$log"
  echo "device.sh: could not build kernel01_naive in $build"
  exit 1
fi
out=$("$build/kernel01_naive/kernel01_naive" --size 16 --repeat 1 --warmup 0 "$@" 2>&1)
rc=$?
line=$(grep -m1 '^device ' <<<"$out" | sed 's/^device  *//')
if [ $rc -ne 0 ] || [ -z "$line" ]; then
  echo "tests run on: no device: $(grep -m1 'error:' <<<"$out" || echo "$out")"
  exit 1
fi
how="the default device; tests/run.sh --platform NAME or --device NAME chooses another"
[ $# -gt 0 ] && how="chosen with $*"
echo "tests run on: $line ($how)"
