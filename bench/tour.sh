#!/usr/bin/env bash
# The tour: installs what is missing, builds, and runs every step of the tutorial in order on
# the default device (the first GPU, else PoCL on the CPU), then the peers (CPU BLAS, CLBlast),
# and prints one table. Extra options go to every program, e.g.:
#   bench/tour.sh --size 2048          bench/tour.sh --device 1          bench/tour.sh --list-devices
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
# shellcheck source=../common/deps.sh
. common/deps.sh
# shellcheck disable=SC2086
gemm_install_packages $GEMM_PACKAGES_RUN
echo "Building (build/) ..." >&2
cmake --preset default >/dev/null
cmake --build --preset default -j "$(nproc)" >/dev/null
exec python3 bench/tour.py --build-dir build "$@"
