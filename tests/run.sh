#!/usr/bin/env bash
# The test suite: installs what is missing, builds with warnings as errors (build-ci/), and runs
# every test with CTest on the default device: the first GPU, else PoCL on the CPU. Its first line
# names the device. Extra options go to ctest, e.g.:  tests/run.sh -R kernel02      tests/run.sh -L verify
#
#   tests/run.sh --platform NAME | --device NAME [...]
# runs the suite on another device (the options of every program, see --list-devices; e.g.
# --platform Portable for PoCL on a machine with a GPU). The choice is kept in the build's
# GEMM_TEST_ARGS until the next tests/run.sh, which sets it again (to nothing without these).
#
#   tests/run.sh --sanitize [ctest options]
# builds and runs the same suite with AddressSanitizer (leaks included) and
# UndefinedBehaviorSanitizer instead: a Debug build in build-sanitize/ (CMake preset `sanitize`).
#
#   tests/run.sh --small-gpu [ctest options]
# runs the suite of build-ci/ (built as above) on PoCL made to look like a small GPU of another
# vendor: every step takes the generic GPU row of defaults (GEMM_DEFAULTS_FOR=gpu, what AMD, Intel
# and other GPUs get) and the device allows 256 work-items per work-group (PoCL's
# POCL_MAX_WORK_GROUP_SIZE), as many GPUs do. Tests whose own parameters need more are skipped with
# the device's refusal; CI checks those skips against .ci/expected-skips-small-gpu. The test device
# must be PoCL (add --platform Portable on a machine with a GPU). JUnit file:
# build-ci/junit-small-gpu.xml.
#
#   tests/run.sh --nvidia-defaults [ctest options]
# runs the suite of build-ci/ on PoCL with every step taking its NVIDIA GPU defaults
# (GEMM_DEFAULTS_FOR=nvidia-gpu: the 128 x 128 tiles and the rest that the H100 and H200 ran), so
# that a test whose expectation holds only for the CPU's defaults (a size the NVIDIA tiles refuse,
# a bug that hides at a tile that large) fails here and not first on the reader's NVIDIA GPU. Its
# skips must be those of the plain suite (.ci/expected-skips). The test device must be PoCL. JUnit
# file: build-ci/junit-nvidia-defaults.xml.
#
#   tests/run.sh --fuzz [ctest options]
# installs clang and libFuzzer, builds the option parser's fuzz target with them (build-fuzz/,
# preset `fuzz`) and fuzzes it for 60 seconds (test fuzz.options; longer with
# cmake --preset fuzz -DGEMM_FUZZ_SECONDS=600). Not part of CI.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
preset=ci
small_gpu=
nvidia_defaults=
device_args=()
while [ $# -gt 0 ]; do
  case $1 in
    --sanitize) preset=sanitize ;;
    --small-gpu) small_gpu=1 ;;
    --nvidia-defaults) nvidia_defaults=1 ;;
    --fuzz) preset=fuzz ;;
    --platform | --device)
      [ $# -ge 2 ] || { echo "tests/run.sh: $1 needs a value (see --list-devices)" >&2; exit 2; }
      device_args+=("$1" "$2")
      shift ;;
    --platform=* | --device=*) device_args+=("$1") ;;
    *) break ;;
  esac
  shift
done
# Options that are two different runs, refused before anything is installed, configured or built
if [ -n "$small_gpu" ] && [ -n "$nvidia_defaults" ]; then
  echo "tests/run.sh: --small-gpu and --nvidia-defaults are two different runs: give one" >&2
  exit 2
fi
if [ "$preset" = fuzz ] && [ -n "$small_gpu$nvidia_defaults" ]; then
  echo "tests/run.sh: --fuzz runs the option parser's fuzz target, not the suite: give it without --small-gpu or --nvidia-defaults" >&2
  exit 2
fi
# shellcheck source=../common/deps.sh
. common/deps.sh
packages="$GEMM_PACKAGES_RUN $GEMM_PACKAGES_TEST -- $GEMM_PACKAGES_TEST_OPTIONAL"
[ "$preset" = fuzz ] && packages="$GEMM_PACKAGES_RUN $GEMM_PACKAGES_FUZZ"
# shellcheck disable=SC2086
gemm_install_packages $packages
# GEMM_TEST_ARGS: the device choice, quoted for the tests' command lines (printf %q)
test_args=
[ ${#device_args[@]} -gt 0 ] && test_args=$(printf '%q ' "${device_args[@]}")
cmake --preset "$preset" "-DGEMM_TEST_ARGS=$test_args" >/dev/null
device=
# GEMM_DEFAULTS_FOR left in the caller's environment (docs/hardware.md suggests it for the tour)
# would reach every test: the plain suite would run another class's defaults, unannounced, and the
# tests that rely on the device's own (under Oclgrind, say) would fail. Only --small-gpu and
# --nvidia-defaults set it.
if [ -z "$small_gpu$nvidia_defaults" ] && [ -n "${GEMM_DEFAULTS_FOR-}" ]; then
  echo "tests/run.sh: ignoring GEMM_DEFAULTS_FOR=$GEMM_DEFAULTS_FOR (the suite runs with the device's own defaults; --small-gpu runs it with the generic GPU row, --nvidia-defaults with NVIDIA's)" >&2
  unset GEMM_DEFAULTS_FOR
fi
if [ "$preset" != fuzz ]; then
  # The first line: the device the tests run on (device.sh builds the step it asks first)
  device=$(tests/device.sh "build-$preset" "${device_args[@]}") || { status=$?; echo "$device" >&2; exit $status; }
  if [ -n "$small_gpu$nvidia_defaults" ]; then
    case $device in
      *"Portable Computing Language"*) ;;
      *) echo "tests/run.sh: --small-gpu and --nvidia-defaults need PoCL as the test device (--small-gpu: its POCL_MAX_WORK_GROUP_SIZE makes the small GPU); add --platform Portable. $device" >&2
         exit 2 ;;
    esac
  fi
  if [ -n "$small_gpu" ]; then
    export GEMM_DEFAULTS_FOR=gpu POCL_MAX_WORK_GROUP_SIZE=256
    device="$device, as a small GPU: the generic GPU parameters (GEMM_DEFAULTS_FOR=gpu), at most 256 work-items per work-group (POCL_MAX_WORK_GROUP_SIZE=256)"
  elif [ -n "$nvidia_defaults" ]; then
    export GEMM_DEFAULTS_FOR=nvidia-gpu
    device="$device, with the NVIDIA GPU parameters (GEMM_DEFAULTS_FOR=nvidia-gpu)"
  fi
  echo "$device"
fi
cmake --build --preset "$preset" -j "$(nproc)"
if [ -n "$small_gpu" ]; then
  # The imitation must be in effect, else every skip it expects would simply not happen and the run
  # would pass as a plain one: step 2 takes the generic row (TS=16; the CPU's is 32), and TS=32
  # (1024 work-items) is refused by the device
  step2=("build-$preset/kernel02_tiled/kernel02_tiled" --size 32 --repeat 1 --warmup 0 "${device_args[@]}")
  defaults=$("${step2[@]}" 2>&1 || true)
  limit=$("${step2[@]}" -D TS=32 2>&1 || true)
  if ! grep -q '^parameters  *TS=16$' <<<"$defaults" || ! grep -q 'allows 256 (CL_DEVICE_MAX_WORK_GROUP_SIZE)' <<<"$limit"; then
    echo "tests/run.sh: --small-gpu is not in effect: step 2 did not take TS=16 by default, or the device did not refuse 1024 work-items" >&2
    exit 1
  fi
fi
if [ -n "$nvidia_defaults" ]; then
  # Likewise: step 3 must take NVIDIA's row (TS=64 WIDTH=4; the CPU's is TS=32 WIDTH=8)
  step3=$("build-$preset/kernel03_vectorized/kernel03_vectorized" --size 64 --repeat 1 --warmup 0 "${device_args[@]}" 2>&1 || true)
  if ! grep -q '^parameters  *TS=64 WIDTH=4$' <<<"$step3"; then
    echo "tests/run.sh: --nvidia-defaults is not in effect: step 3 did not take TS=64 WIDTH=4 by default" >&2
    exit 1
  fi
fi
status=0
# The results as JUnit XML too, for the list of skipped tests and their reasons printed below
junit="$root/build-$preset/junit${small_gpu:+-small-gpu}${nvidia_defaults:+-nvidia-defaults}.xml"
rm -f "$junit"
# (the presets run two tests at a time, each with OPENBLAS_NUM_THREADS=1: the double-precision
# reference and numpy need no threads at the tests' sizes, and two pools of OpenBLAS threads spinning
# beside two tests on 2 cores cost about 20 CPU-seconds of system time)
ctest --preset "$preset" --output-junit "$junit" "$@" || status=$?
[ ! -f "$junit" ] || python3 tests/skips.py "$junit" || status=$?
# How long it took and the slowest tests; the whole plain suite is held to its budget of 360 s on
# 2 cores (tests/suite_time.py: a warning, not a failure)
budget=inf
[ "$preset" != ci ] || [ -n "$small_gpu$nvidia_defaults" ] || [ $# -gt 0 ] || budget=360
[ ! -f "$junit" ] || python3 tests/suite_time.py "$junit" "$budget" || true
[ -z "$device" ] || echo "$device"
exit $status
