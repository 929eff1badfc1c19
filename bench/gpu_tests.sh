#!/usr/bin/env bash
# The whole test suite on a GPU machine without a package registry (the lent H100/H200), in one
# command, on the default device, which is the GPU there:
#
#   bench/gpu_tests.sh DEB_DIR [ctest options]      (DEB_DIR: the .deb files of bench/gpu_setup.sh)
#
# Builds build-gpu-tests/ with the tests as bench/gpu_setup.sh builds (its packages unpacked into
# /opt/deps, NVIDIA's OpenCL registered), prints the device the tests run on and the platforms
# there, runs every test in parallel (each with a time limit; a failure does not stop the others)
# and ends with a summary line. Tests of tools the machine lacks (oclgrind, Doxygen) are skipped,
# not failed; so are those that need PoCL where it is not installed; the skipped tests are listed
# by reason at the end and compared with those expected there (bench/gpu-expected-skips): any other
# skip fails the run. The log is written to $OUT/gpu-tests.log when OUT is set, else to
# build-gpu-tests/gpu-tests.log, with CTest's JUnit file beside it (gpu-tests-junit.xml).
set -uo pipefail
debs=${1:?usage: bench/gpu_tests.sh DEB_DIR [ctest options]}
shift
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=build-gpu-tests
log=${OUT:+$OUT/gpu-tests.log}
log=${log:-$build/gpu-tests.log}
junit=${OUT:+$OUT/gpu-tests-junit.xml}
junit=${junit:-$PWD/$build/gpu-tests-junit.xml}
rm -f "$junit"
# The suite runs with the device's own defaults: GEMM_DEFAULTS_FOR (another class's, for every
# program) must not leak into it from the caller's environment (tests/run.sh does the same)
unset GEMM_DEFAULTS_FOR
start=$SECONDS
bench/gpu_setup.sh "$debs" "$build" -DBUILD_TESTING=ON || exit $?
# shellcheck source=/dev/null
. "$build/env.sh"
mkdir -p "$(dirname "$log")"
device=$(tests/device.sh "$build")
{
  echo "$device"
  "$build/kernel01_naive/kernel01_naive" --list-devices
  ctest --test-dir "$build" -j "$(nproc)" --timeout 180 --output-on-failure --output-junit "$junit" "$@"
} 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
# The skipped tests by reason, and against those expected on the lent NVIDIA GPUs (a new skip there,
# such as step 10's cp.async tests refused on an H100, fails this run as it would fail CI)
if [ -f "$junit" ]; then
  python3 tests/skips.py "$junit" 2>&1 | tee -a "$log"
  python3 tests/skips.py --expect bench/gpu-expected-skips "$junit" 2>&1 | tee -a "$log"
  [ "${PIPESTATUS[0]}" = 0 ] || status=1
fi
summary=$(grep -E "^[0-9]+% tests passed" "$log" | tail -1)
skipped=$(grep -cE "^[[:space:]]*[0-9]+ - .* \((Skipped|Not Run)\)$" "$log")
echo "gpu_tests.sh: ${summary:-no ctest summary}; $skipped skipped; $((SECONDS - start)) s; log: $log"
echo "$device"
exit "$status"
