#!/usr/bin/env bash
# on_platform.sh PLATFORM WHY CODE REGEX STEP [ARGS...]
# A test that needs one OpenCL platform's own feature (WHY says which, e.g. PoCL's
# POCL_MEMORY_LIMIT): runs STEP ARGS --platform PLATFORM through expect.sh CODE REGEX, so it
# never runs on another device whatever the default is; where no platform's name contains
# PLATFORM, it exits 77, which CTest shows as skipped, not passed.
set -u
platform=$1 why=$2 code=$3 regex=$4 step=$5
shift 5
platforms=$("$step" --list-devices 2>&1 | grep '^platform ')
if ! grep -qiF -- "$platform" <<<"$platforms"; then
  echo "SKIPPED: needs the OpenCL platform '$platform' ($why); this machine has:"
  echo "${platforms:-  no platform}"
  exit 77
fi
exec "$(dirname "${BASH_SOURCE[0]}")/expect.sh" "$code" "$regex" "$step" "$@" --platform "$platform"
