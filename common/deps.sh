# Sourced by bench/tour.sh and tests/run.sh: installs the Debian packages the tutorial needs,
# if any are missing. As root it runs apt-get; with passwordless sudo it uses sudo; otherwise it
# prints the exact command to run and stops. On a system without dpkg it only warns.

# Packages to build and run the steps, the tour and the peers.
GEMM_PACKAGES_RUN="cmake make gcc libc6-dev python3 ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd clinfo
libclblast-dev libopenblas-dev"
# Extra packages for the test suite (documentation with its plots and diagrams).
GEMM_PACKAGES_TEST="doxygen python3-matplotlib"
# Installed for the test suite where the system's package sources have them: the kernel checker
# Oclgrind is in Debian 12 and Ubuntu 24.04 but not in Debian 13, where its tests are skipped.
GEMM_PACKAGES_TEST_OPTIONAL="oclgrind"
# Only for fuzzing the option parser (tests/run.sh --fuzz): clang and its runtimes, which hold
# libFuzzer (libclang_rt.fuzzer-x86_64.a; libclang-rt-dev pulls the one for Debian's default
# clang, libclang-rt-14-dev on Debian 12). Large (LLVM), so not part of the default test run.
GEMM_PACKAGES_FUZZ="clang libclang-rt-dev"

# gemm_install_packages PKG... [-- OPTIONAL_PKG...]: the optional ones are installed where the
# package sources (after apt-get update) have them, and named in a note where they do not.
gemm_install_packages() {
  local missing=() optional=() available=() pkg opt=0 sudo=()
  if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "note: no dpkg here; make sure these (Debian names) or their equivalents are installed: ${*/--/}" >&2
    return 0
  fi
  for pkg in "$@"; do
    if [ "$pkg" = "--" ]; then
      opt=1
    elif ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed"; then
      if [ $opt -eq 1 ]; then optional+=("$pkg"); else missing+=("$pkg"); fi
    fi
  done
  [ ${#missing[@]} -eq 0 ] && [ ${#optional[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      sudo=(sudo)
    elif [ ${#missing[@]} -gt 0 ]; then
      echo "error: missing packages, and no root or passwordless sudo to install them. Run:" >&2
      echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]} ${optional[*]}" >&2
      exit 1
    else
      echo "note: ${optional[*]} not installed (no root or passwordless sudo): the tests that need it are skipped" >&2
      return 0
    fi
  fi
  "${sudo[@]}" apt-get update -qq || return 1
  for pkg in "${optional[@]}"; do
    if apt-cache show "$pkg" >/dev/null 2>&1; then
      available+=("$pkg")
    else
      echo "note: $pkg is not in this system's package sources (Debian 13 has none): the tests that need it are skipped" >&2
    fi
  done
  missing+=("${available[@]}")
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "Installing missing packages: ${missing[*]}" >&2
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >&2
}
