#!/usr/bin/env bash
# The test suite: installs what is missing, builds with warnings as errors (build-ci/), and runs
# every test with CTest on the default device (PoCL on a machine without a GPU). Extra options
# go to ctest, e.g.:  tests/run.sh -R kernel02      tests/run.sh -L verify
#
#   tests/run.sh --sanitize [ctest options]
# builds and runs the same suite with AddressSanitizer (leaks included) and
# UndefinedBehaviorSanitizer instead: a Debug build in build-sanitize/ (CMake preset `sanitize`).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
preset=ci
if [ "${1:-}" = --sanitize ]; then
  preset=sanitize
  shift
fi
# shellcheck source=../common/deps.sh
. common/deps.sh
# shellcheck disable=SC2086
gemm_install_packages $GEMM_PACKAGES_RUN $GEMM_PACKAGES_TEST
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
ctest --preset "$preset" "$@"
