#!/usr/bin/env bash
# on_gpu.sh WHY STEP [ARGS...]
# A test that can only fail where the work-items of a work-group run at the same time, as on a GPU
# (WHY says what it would catch, e.g. a data race in local memory that PoCL, which runs them one
# after another between barriers, cannot show): runs STEP ARGS where the device those ARGS select
# is a GPU; elsewhere it exits 77, which CTest shows as skipped, not passed, with the device named.
# The device is the one of the "device" line of a probe: STEP ARGS at 16 x 16 x 16 with a kernel
# file that holds no kernels, which names the device and stops before compiling anything large.
# Where the probe is refused before naming a device, it fails with the probe's error line: a
# refusal of parameters the device cannot run names the device's limit, which the test's
# SKIP_REGULAR_EXPRESSION (GEMM_DEVICE_LIMIT_REFUSAL, common/cmake/GemmStep.cmake) turns into a skip
# with that line as the reason; any other refusal (a parameter out of range, a step that refuses
# what it should run, a crash) is a failure, never a skip.
set -u
why=$1 step=$2
shift 2
empty=$(mktemp "${TMPDIR:-/tmp}/on_gpu.XXXXXX.cl") || exit 1
trap 'rm -f "$empty"' EXIT
echo '__kernel void no_kernel_here(void) {}' > "$empty"
probe=$("$step" "$@" --size 16 --repeat 1 --warmup 0 --no-verify --kernel-file "$empty" 2>&1)
line=$(grep -m1 '^device ' <<<"$probe" | sed 's/^device  *//')
if [ -z "$line" ]; then
  # Not "FAILED" or "SKIPPED": CTest decides which, from whether this line names a device limit
  echo "the probe was refused before naming a device (a skip where this names a limit of the device, else a failure): $(grep -m1 'error:' <<<"$probe" || echo "$probe")"
  exit 1
elif [[ "$line" != *"(GPU)"* ]]; then
  echo "SKIPPED: needs a GPU as the test device ($why); the test device is $line"
  exit 77
fi
"$step" "$@"
