#!/usr/bin/env bash
# The test suite: installs what is missing, builds with warnings as errors (build-ci/), and runs
# every test with CTest on the default device (PoCL on a machine without a GPU). Extra options
# go to ctest, e.g.:  tests/run.sh -R kernel02      tests/run.sh -L verify
#
#   tests/run.sh --sanitize [ctest options]
# builds and runs the same suite with AddressSanitizer (leaks included) and
# UndefinedBehaviorSanitizer instead: a Debug build in build-sanitize/ (CMake preset `sanitize`).
#
#   tests/run.sh --fuzz [ctest options]
# installs clang and libFuzzer, builds the option parser's fuzz target with them (build-fuzz/,
# preset `fuzz`) and fuzzes it for 60 seconds (test fuzz.options; longer with
# cmake --preset fuzz -DGEMM_FUZZ_SECONDS=600). Not part of CI.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
preset=ci
case "${1:-}" in
  --sanitize) preset=sanitize; shift ;;
  --fuzz) preset=fuzz; shift ;;
esac
# shellcheck source=../common/deps.sh
. common/deps.sh
packages="$GEMM_PACKAGES_RUN $GEMM_PACKAGES_TEST"
[ "$preset" = fuzz ] && packages="$GEMM_PACKAGES_RUN $GEMM_PACKAGES_FUZZ"
# shellcheck disable=SC2086
gemm_install_packages $packages
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
ctest --preset "$preset" "$@"
