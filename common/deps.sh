# Sourced by bench/tour.sh and tests/run.sh: installs the Debian packages the tutorial needs,
# if any are missing. As root it runs apt-get; with passwordless sudo it uses sudo; otherwise it
# prints the exact command to run and stops. On a system without dpkg it only warns.

# Packages to build and run the steps, the tour and the peers.
GEMM_PACKAGES_RUN="cmake make gcc libc6-dev python3 ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd clinfo
libclblast-dev libopenblas-dev"
# Extra packages for the test suite (kernel checker, documentation with its plots and diagrams).
GEMM_PACKAGES_TEST="oclgrind doxygen gnuplot-nox python3-matplotlib"
# Only for fuzzing the option parser (tests/run.sh --fuzz): clang and its runtimes, which hold
# libFuzzer (libclang_rt.fuzzer-x86_64.a; libclang-rt-dev pulls the one for Debian's default
# clang, libclang-rt-14-dev on Debian 12). Large (LLVM), so not part of the default test run.
GEMM_PACKAGES_FUZZ="clang libclang-rt-dev"

gemm_install_packages() {
  local missing=() pkg
  if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "note: no dpkg here; make sure these (Debian names) or their equivalents are installed: $*" >&2
    return 0
  fi
  for pkg in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed"; then
      missing+=("$pkg")
    fi
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "Installing missing packages: ${missing[*]}" >&2
  local install="apt-get install -y --no-install-recommends ${missing[*]}"
  if [ "$(id -u)" -eq 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive $install >&2
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive $install >&2
  else
    echo "error: missing packages, and no root or passwordless sudo to install them. Run:" >&2
    echo "  sudo apt-get update && sudo $install" >&2
    exit 1
  fi
}
