#!/usr/bin/env bash
# tests/oclgrind_check.sh [--data-races] [--uninitialized] [--max-errors N] [--log FILE] PROGRAM [ARGS...]
#
# Runs PROGRAM (a step, with the arguments you would give it) on Oclgrind, the OpenCL simulator
# that checks every memory access of every work-item, and says whether Oclgrind found a problem in
# the kernels. The step's own check (PASS or FAIL) sees only the result: a kernel that reads outside
# a buffer can pass it, here as on a GPU, so a problem Oclgrind reports fails the run whatever the
# step says. Oclgrind always looks for accesses outside a buffer (invalid reads and writes);
#   --data-races      also for data races between work-items (in local or global memory)
#   --uninitialized   also for uses of uninitialized values (a local tile never filled, say)
#   --max-errors N    stop reporting after N problems (Oclgrind's default: 1000)
#   --log FILE        keep all of Oclgrind's reports in FILE (the terminal shows the first)
# The kernels are compiled without optimization (-cl-opt-disable): every load and store of the
# source is then checked, even one whose value the optimizer would drop.
#
# The step's output comes as usual; then, where Oclgrind reported problems, the first report and
# one summary line (on stderr):
#   0-3  Oclgrind reported nothing: the step's own exit code (0 verified, 1 wrong result,
#        2 refused, 3 OpenCL or runtime error)
#   6    Oclgrind reported a problem in the kernels, whatever the step's verdict
#   2    a wrong option of this script (one error line)
#   77   oclgrind is not installed (Debian: apt-get install oclgrind)
set -u
name=oclgrind_check.sh
error() {
  echo "$name: error: $*" >&2
  exit 2
}
opts=(--build-options -cl-opt-disable)
checked="accesses outside a buffer"
keep=
while [ $# -gt 0 ]; do
  case $1 in
    --data-races) opts+=("$1"); checked+=", data races" ;;
    --uninitialized) opts+=("$1"); checked+=", uninitialized values" ;;
    --max-errors)
      [[ ${2-} =~ ^[1-9][0-9]{0,8}$ ]] || error "--max-errors expects a positive integer, got '${2-}'"
      opts+=("$1" "$2")
      shift ;;
    --log)
      [ -n "${2-}" ] || error "--log needs a file name (--log FILE)"
      keep=$2
      shift ;;
    -h | --help) sed -n '2,/^set -u$/{/^set -u$/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; exit 0 ;;
    --) shift; break ;;
    -*) error "unknown option '$1' (see --help)" ;;
    *) break ;;
  esac
  shift
done
[ $# -gt 0 ] || error "no program to run (usage: $name [OPTIONS] PROGRAM [ARGS...]; see --help)"
if ! command -v oclgrind >/dev/null 2>&1; then
  echo "SKIPPED: oclgrind is not installed (Debian: apt-get install oclgrind; tests/run.sh installs it where the distribution has it)"
  exit 77
fi
# Oclgrind preloads its OpenCL runtime, so in a sanitized build AddressSanitizer's runtime is no
# longer the first library and refuses to start; its interception works all the same (tests/oclgrind.sh)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
if [ -n "$keep" ]; then
  log=$keep
  : >"$log" 2>/dev/null || error "cannot write the log file '$log'"
else
  log=$(mktemp "${TMPDIR:-/tmp}/oclgrind_check.XXXXXX") || error "cannot make a temporary file for Oclgrind's log"
  trap 'rm -f "$log"' EXIT
fi
# Oclgrind exits with the program's code whatever it finds: its reports go to the log, judged here
oclgrind "${opts[@]}" --log "$log" "$@"
rc=$?
if [ ! -s "$log" ]; then
  echo "$name: Oclgrind reported no problem (checked: $checked): exit $rc, the program's code" >&2
  exit "$rc"
fi
# A report starts with a line at the left margin ("Invalid read of size 4 ...", "Read-write data
# race ..."), its details indented below it; reports are separated by an empty line
count=$(grep -c '^[^[:space:]]' "$log")
stopped=$(grep -c '^Oclgrind: [0-9]* errors generated - suppressing' "$log")
count=$((count - stopped))
{
  echo "$name: Oclgrind's first report${keep:+ (all of them are in $keep)}:"
  awk 'started && $0 == "" { exit } $0 != "" { started = 1 } started' "$log"
  more=
  [ "$stopped" -gt 0 ] && more=" and stopped there, at --max-errors"
  echo "$name: FAIL: Oclgrind reported $count problem$([ "$count" -eq 1 ] || echo s) in the kernels$more (the program exited $rc, and its check sees only the result): exit 6"
} >&2
exit 6
