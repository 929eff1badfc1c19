#!/usr/bin/env bash
# Checks of what a newcomer meets first (tests/newcomer.cmake):
#
#   newcomer.sh progress NAME PHASE HEAD END PROGRAM [ARGS...]
#       On a pseudo-terminal (script -q) PROGRAM prints the head of its report (which holds the
#       text HEAD, e.g. its problem line) first, then a progress line "NAME: PHASE..." (e.g.
#       "kernel01_naive: timed run 1 of 3 ... 0.1 s"; GEMM_PROGRESS_DELAY=0 shows it at once, so
#       a fast device shows it too), then the rest of its report (holding END, e.g. its PASS).
#       With stderr not a terminal it prints no progress at all, and stdout is the plain report.
#   newcomer.sh oclgrind-check REGEX COMMAND [ARGS...]
#       The Oclgrind commands of docs/exercises.md: tests/oclgrind_check.sh --data-races COMMAND...
#       exits 6, shows Oclgrind's first report (it must match REGEX) after the step's report and a
#       last line that counts the reports, and spares the terminal the others (hundreds): one report
#       on it, 40 lines at most.
#   newcomer.sh ignored SOURCE_DIR PATH...
#       git ignores each PATH (the outputs the docs suggest writing) in SOURCE_DIR.
#
# Exit 0 when the checks pass, 1 when one fails, 77 (skipped) when a tool it needs is missing.
set -u
mode=$1
shift
fail() {
  echo "FAILED: $*"
  status=1
}
status=0
case "$mode" in
progress)
  name=$1
  phase=$2
  head=$3
  end=$4
  shift 4
  if ! script -q -e -c true /dev/null >/dev/null 2>&1; then
    echo "SKIPPED: no util-linux 'script' here to give the program a terminal"
    exit 77
  fi
  cmd=$(printf '%q ' "$@")
  out=$(GEMM_PROGRESS_DELAY=0 script -q -e -c "$cmd" /dev/null </dev/null)
  rc=$?
  [ "$rc" -eq 0 ] || fail "on a terminal: exit code $rc"
  cr=$'\r'
  [[ "$out" == *"${cr}${name}: ${phase}"* ]] || fail "on a terminal: no progress line '$name: $phase...'"
  before=${out%%"${cr}${name}: "*}
  [[ "$before" == *"$head"* ]] || fail "on a terminal: the head of the report ('$head') does not come before the progress"
  after=${out##*"${cr}${name}: "}
  [[ "$after" == *"$end"* ]] || fail "on a terminal: the report ('$end') does not follow the progress"
  echo "--- on a terminal ($(printf '%s' "$out" | tr -d '\r' | wc -l) lines, carriage returns shown as ^M) ---"
  printf '%s\n' "$out" | cat -v | cut -c1-300
  err_file=$(mktemp)
  out=$(GEMM_PROGRESS_DELAY=0 "$@" 2>"$err_file" </dev/null)
  rc=$?
  err=$(cat "$err_file")
  rm -f "$err_file"
  [ "$rc" -eq 0 ] || fail "without a terminal: exit code $rc"
  [[ "$err" != *"$cr"* && "$err" != *"timed run"* ]] || fail "without a terminal: progress on stderr: $err"
  [[ "$out" != *"$cr"* && "$out" == *"$head"* && "$out" == *"$end"* ]] ||
    fail "without a terminal: stdout is not the plain report"
  echo "--- without a terminal: stdout ---"
  printf '%s\n' "$out"
  ;;
oclgrind-check)
  regex=$1
  shift
  if ! command -v oclgrind >/dev/null 2>&1; then
    echo "SKIPPED: oclgrind is not installed (Debian: apt-get install oclgrind)"
    exit 77
  fi
  out=$("$(dirname "${BASH_SOURCE[0]}")/oclgrind_check.sh" --data-races "$@" 2>&1)
  rc=$?
  echo "--- the terminal (exit code $rc) ---"
  printf '%s\n' "$out"
  first=${out#*"Oclgrind's first report:"}
  [ "$rc" -eq 6 ] || fail "exit code $rc, expected 6 (Oclgrind reported a problem)"
  [ "$first" != "$out" ] || fail "no first report on the terminal"
  grep -Ezq -- "$regex" <<<"$first" || fail "the first report does not match /$regex/"
  grep -Eq "FAIL: Oclgrind reported [0-9]+ problems? in the kernels" <<<"$out" || fail "no line counting the reports"
  [ "$(grep -c "data race at" <<<"$out")" -eq 1 ] || fail "not exactly one of Oclgrind's reports on the terminal"
  [ "$(printf '%s\n' "$out" | wc -l)" -le 40 ] || fail "more than 40 lines on the terminal"
  ;;
ignored)
  src=$1
  shift
  if ! command -v git >/dev/null 2>&1 || ! git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    echo "SKIPPED: $src is not a git checkout"
    exit 77
  fi
  for path in "$@"; do
    git -C "$src" check-ignore -q --no-index "$path" || fail "git does not ignore $path"
  done
  ;;
*)
  echo "usage: newcomer.sh progress|oclgrind-check|ignored ..." >&2
  exit 2
  ;;
esac
[ "$status" -eq 0 ] && echo "all checks passed"
exit $status
