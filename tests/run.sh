#!/usr/bin/env bash
# The test suite: installs what is missing, builds with warnings as errors (build-ci/), and runs
# every test with CTest on the default device (PoCL on a machine without a GPU). Extra options
# go to ctest, e.g.:  tests/run.sh -R kernel02      tests/run.sh -L verify
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
# shellcheck source=../common/deps.sh
. common/deps.sh
# shellcheck disable=SC2086
gemm_install_packages $GEMM_PACKAGES_RUN $GEMM_PACKAGES_TEST
cmake --preset ci >/dev/null
cmake --build --preset ci -j "$(nproc)"
ctest --preset ci "$@"
