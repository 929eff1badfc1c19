#!/usr/bin/env bash
# Prepares a GPU machine that has a compiler, CMake, an OpenCL loader and NVIDIA's driver but no
# package registry (such as the lent H100/H200 machines this project was measured on), then
# builds the project into build-gpu/ (or BUILD_DIR, with more CMake options: bench/gpu_tests.sh).
#
#   bench/gpu_setup.sh DEB_DIR [BUILD_DIR [CMAKE_OPTIONS...]]
#       DEB_DIR holds .deb files downloaded elsewhere with
#       apt-get download libclblast1 libclblast-dev opencl-c-headers ocl-icd-opencl-dev \
#                        libopenblas0 libopenblas0-pthread libopenblas-dev libopenblas-pthread-dev
#
# The packages are unpacked into /opt/deps (never into /), NVIDIA's OpenCL library is registered
# with the ICD loader if it is not yet, and the environment the programs need is written to
# BUILD_DIR/env.sh (source it before running anything from BUILD_DIR/).
set -euo pipefail
debs=${1:?usage: bench/gpu_setup.sh DEB_DIR [BUILD_DIR [CMAKE_OPTIONS...]]}
build=${2:-build-gpu}
shift $(($# < 2 ? $# : 2))
prefix=/opt/deps
mkdir -p "$prefix"
for f in "$debs"/*.deb; do
  if command -v dpkg >/dev/null; then
    dpkg -x "$f" "$prefix"
  else # no dpkg: a .deb is an ar archive holding data.tar.*
    tmp=$(mktemp -d) && (cd "$tmp" && ar x "$OLDPWD/$f" && tar -xf data.tar.* -C "$prefix") && rm -rf "$tmp"
  fi
done
if ! grep -qs nvidia-opencl /etc/OpenCL/vendors/*.icd; then
  mkdir -p /etc/OpenCL/vendors && echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
  echo "registered libnvidia-opencl.so.1 in /etc/OpenCL/vendors/nvidia.icd" >&2
fi
lib=$prefix/usr/lib/x86_64-linux-gnu
loader=$(ls /usr/lib/x86_64-linux-gnu/libOpenCL.so.1 /lib/x86_64-linux-gnu/libOpenCL.so.1 2>/dev/null | head -1)
mkdir -p "$build"
cat > "$build/env.sh" <<ENV
export LD_LIBRARY_PATH=$lib:$lib/openblas-pthread\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
ENV
. "$build/env.sh"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix/usr" \
  -DOpenCL_INCLUDE_DIR="$prefix/usr/include" -DOpenCL_LIBRARY="$loader" -DBUILD_TESTING=OFF "$@" |
  grep -E "CPU BLAS|CLBlast|cuBLAS" >&2
cmake --build "$build" -j "$(nproc)" >/dev/null
echo "built $build/ (OpenCL loader $loader); now: . $build/env.sh" >&2
