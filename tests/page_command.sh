#!/usr/bin/env bash
# page_command.sh [--harness-pass] DIR NEEDS CODE REGEX [ABSENT]
# Runs DIR/command.sh, a command exactly as a page of the docs shows it (docs/exercises.md), with
# bash -e (a loop stops at its first failing run, whose exit code is the command's), from DIR,
# which stands for the repository root: build/ holds the steps, docs/ and tests/ are the source's
# (see docs/exercises/CMakeLists.txt). Passes if expect.sh [--harness-pass] CODE REGEX [--absent
# ABSENT] does (--harness-pass: the command fails though the step's check passes).
# NEEDS says what the page's outcome depends on; without it the test exits 77 (CTest: skipped):
#   any         nothing
#   oclgrind    the oclgrind program
#   pocl        the test device (the default, or the one GEMM_TEST_ARGS choose) is PoCL's
#   nvidia      the test device is an NVIDIA GPU
set -u
harness_pass=
if [ "${1-}" = --harness-pass ]; then
  harness_pass=1
  shift
fi
dir=$1 needs=$2 code=$3 regex=$4 absent=${5-}
cd "$dir" || exit 1
skip() {
  echo "SKIPPED: $*"
  echo "--- the command: ---"
  cat command.sh
  exit 77
}
case $needs in
  any) ;;
  oclgrind) command -v oclgrind >/dev/null 2>&1 || skip "oclgrind is not installed (Debian: apt-get install oclgrind)" ;;
  pocl | nvidia)
    # The test device, named by a tiny run's CSV (column 2: the platform)
    platform=$(build/kernel01_naive/kernel01_naive --size 1 --repeat 1 --warmup 0 --csv 2>/dev/null | awk -F, 'NR == 2 {print $2}')
    want="Portable Computing Language"
    [ "$needs" = nvidia ] && want=NVIDIA
    case $platform in
      *"$want"*) ;;
      *) skip "the page states this outcome for the $needs device only; the tests run on '${platform:-no device}'" ;;
    esac ;;
  *) echo "page_command.sh: unknown NEEDS '$needs'" >&2; exit 2 ;;
esac
echo "--- the command, as the page shows it (run from a directory standing for the repository root): ---"
cat command.sh
exec "$(dirname "${BASH_SOURCE[0]}")/expect.sh" ${absent:+--absent "$absent"} ${harness_pass:+--harness-pass} "$code" "$regex" bash -e command.sh
