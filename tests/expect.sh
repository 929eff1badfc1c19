#!/usr/bin/env bash
# expect.sh [--absent REGEX2] [--harness-pass] CODE REGEX COMMAND [ARGS...]
# Runs COMMAND and passes only if it exits with CODE (or, written "1|3", any of several codes: an
# outcome that differs by device, such as a wrong result on one and an OpenCL error on another)
# and its output (stdout and stderr) matches
# the extended regular expression REGEX (matched against the whole output, so . also matches
# newlines) and, with --absent, does not match REGEX2 anywhere. A run expected to fail
# (CODE != 0) must not print PASS anywhere, unless --harness-pass says that the step's own check
# passes in a run that fails all the same (tests/oclgrind_check.sh, when Oclgrind reports what
# the check cannot see): then its output must hold PASS. For the bad-input code 2 it also requires
# exactly one "error:" line: a refusal must be one clear line, not a cascade.
set -u
absent=
harness_pass=
while [ $# -gt 0 ]; do
  case $1 in
    --absent) absent=$2; shift 2 ;;
    --harness-pass) harness_pass=1; shift ;;
    *) break ;;
  esac
done
code=$1
regex=$2
shift 2
out=$("$@" 2>&1)
rc=$?
status=0
case "|$code|" in
  *"|$rc|"*) ;;
  *) echo "FAILED: expected exit code $code, got $rc"
     status=1 ;;
esac
if ! grep -Ezq -- "$regex" <<<"$out"; then
  echo "FAILED: output does not match /$regex/"
  status=1
fi
if [ -n "$absent" ] && grep -Ezq -- "$absent" <<<"$out"; then
  echo "FAILED: output matches /$absent/, which it must not"
  status=1
fi
# In a sanitized build, a sanitizer's report fails the test whatever the exit code (a step that
# must exit 1 could otherwise hide one behind the same code).
if grep -Eq "(ERROR|SUMMARY): [A-Za-z]*Sanitizer|: runtime error: " <<<"$out"; then
  echo "FAILED: a sanitizer reported a problem"
  status=1
fi
# A run that must fail may never say PASS (the report's check line, or the CSV status), unless
# the step's check is expected to pass in it
if [ -n "$harness_pass" ]; then
  if [ "$code" = 0 ] || ! grep -q "PASS" <<<"$out"; then
    echo "FAILED: --harness-pass: expected a failing run (code $code) in which the step's check printed PASS"
    status=1
  fi
elif [ "$code" != 0 ] && grep -q "PASS" <<<"$out"; then
  echo "FAILED: a run expected to fail printed PASS"
  status=1
fi
if [ "$code" = 2 ]; then
  n=$(grep -c ': error: ' <<<"$out")
  if [ "$n" -ne 1 ]; then
    echo "FAILED: expected exactly one error line, found $n"
    status=1
  fi
fi
echo "--- output of: $* ---"
echo "$out"
exit $status
