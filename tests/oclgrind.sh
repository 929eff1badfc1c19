#!/usr/bin/env bash
# oclgrind.sh clean COMMAND [ARGS...]
# oclgrind.sh report REGEX COMMAND [ARGS...]
# oclgrind.sh expect CODE REGEX [OCLGRIND_OPTIONS...] -- COMMAND [ARGS...]
#
# Runs COMMAND (a step) under Oclgrind, the OpenCL device simulator. The first two forms turn
# its checkers on: invalid memory accesses (always on), data races (--data-races), uses of
# uninitialized values (--uninitialized) and OpenCL API errors (--check-api), on the kernels
# compiled without optimization (see below). Oclgrind exits
# with the program's exit code whatever it finds, so its diagnostics go to a log file (--log)
# and are judged here:
#
#   clean   passes only if the step ran on Oclgrind's device, exited 0 (verified) and Oclgrind
#           reported nothing;
#   report  (a deliberately broken kernel) passes only if Oclgrind's report matches the extended
#           regular expression REGEX: the proof that the checkers are on and are read.
#   expect  runs the step on a simulated device with the limits OCLGRIND_OPTIONS give it
#           (e.g. --max-wgsize 64, --local-mem-size 4096) and judges it with expect.sh: how
#           refusals of parameters that exceed a device limit are tested on any machine.
#
# Without oclgrind it exits 77, which CTest shows as "skipped" (SKIP_RETURN_CODE), not as passed.
set -u
mode=$1
shift
if ! command -v oclgrind >/dev/null 2>&1; then
  echo "SKIPPED: oclgrind is not installed (Debian: apt-get install oclgrind; tests/run.sh installs it)"
  exit 77
fi
# Oclgrind runs the step with its OpenCL runtime preloaded (LD_PRELOAD), so in a sanitized build
# AddressSanitizer's runtime is no longer the first library and it refuses to start. Its
# interception works all the same (the preloaded library defines no malloc of its own): allow it
# here, and only here.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
case $mode in
  clean) expect=clean ;;
  report) expect=$1; shift ;;
  expect)
    code=$1 regex=$2
    shift 2
    opts=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do opts+=("$1"); shift; done
    shift
    exec "$(dirname "${BASH_SOURCE[0]}")/expect.sh" "$code" "$regex" oclgrind "${opts[@]}" "$@" ;;
  *) echo "oclgrind.sh: unknown mode '$mode'" >&2; exit 2 ;;
esac
log=$(mktemp "${TMPDIR:-/tmp}/oclgrind.XXXXXX")
trap 'rm -f "$log"' EXIT
# -cl-opt-disable: Oclgrind 21.10's uninitialized-value checker stops with "Unsupported
# instruction: freeze" on kernels that LLVM's optimizer has touched (steps 4 to 6 at -O2); the
# unoptimized kernel keeps every load and store of the source, which is what should be checked.
# clean and report: the step runs for Oclgrind's checks alone; its exact check (one more run of
# the same kernels with the same launch on integer data, which doubles the slowest tests of the
# suite and can only repeat the report of the first run: what Oclgrind checks does not depend on the
# values) is left to the runs on PoCL
extra=(--no-exact)
out=$(oclgrind --build-options -cl-opt-disable --data-races --uninitialized --check-api --log "$log" "$@" "${extra[@]}" 2>&1)
rc=$?
report=$(cat "$log")
status=0
if ! grep -q "Oclgrind Simulator" <<<"$out"; then
  echo "FAILED: the step did not run on Oclgrind's simulated device"
  status=1
fi
if grep -Eq "(ERROR|SUMMARY): [A-Za-z]*Sanitizer|: runtime error: " <<<"$out"; then
  echo "FAILED: a sanitizer reported a problem"
  status=1
fi
if [ "$expect" = clean ]; then
  if [ "$rc" -ne 0 ]; then
    echo "FAILED: the step exited with $rc under Oclgrind (expected 0)"
    status=1
  fi
  if [ -n "$report" ]; then
    echo "FAILED: Oclgrind reported problems (its report follows the step's output)"
    status=1
  fi
elif ! grep -Ezq -- "$expect" <<<"$report"; then
  echo "FAILED: Oclgrind's report does not match /$expect/ (the checker did not catch a known bug)"
  status=1
fi
echo "--- output of: oclgrind ... $* (exit code $rc) ---"
echo "$out"
if [ -n "$report" ]; then
  echo "--- Oclgrind's report (first 60 lines) ---"
  head -n 60 "$log"
fi
exit $status
