#!/usr/bin/env bash
# expect_selftest.sh: expect.sh, which decides most tests' outcomes, itself tested on commands
# whose exit code and output are known: it must accept what matches and reject what does not.
set -u
expect=$(dirname "${BASH_SOURCE[0]}")/expect.sh
failures=0
flags=
check() {  # check WANT CODE REGEX EXIT OUTPUT: expect.sh $flags CODE REGEX on a command that exits EXIT
  local want=$1 got=0
  # shellcheck disable=SC2086
  "$expect" $flags "$2" "$3" bash -c 'printf "%s\n" "$1"; exit "$2"' cmd "$5" "$4" >/dev/null || got=1
  if [ "$got" -ne "$want" ]; then
    echo "FAILED: expect.sh '$2' '$3' on exit $4 with output '$5' gave $got, expected $want"
    failures=$((failures + 1))
  fi
}
check 0 0 "check +PASS" 0 "check PASS"          # the code and the output match
check 1 0 "check +PASS" 1 "check PASS"          # wrong code
check 1 1 "check +FAIL" 1 "no such line"        # output does not match
check 0 "1|3" "FAIL|error: " 1 "check FAIL"     # one of several codes
check 0 "1|3" "FAIL|error: " 3 "error: x"
check 1 "1|3" "FAIL|error: " 2 "error: x"       # a code not in the list
check 1 "1|3" "FAIL|error: " 0 "check FAIL"
check 1 "1|3" "FAIL" 1 "check FAIL PASS"        # a failing run that prints PASS
check 1 1 "FAIL" 1 "check FAIL PASS"
check 0 2 "error: " 2 "prog: error: bad"        # a refusal: exactly one error line
check 1 2 "error: " 2 "$(printf 'prog: error: a\nprog: error: b')"
flags=--harness-pass                             # a failing run in which the step's check passes
check 0 6 "FAIL" 6 "check PASS; FAIL"
check 1 6 "FAIL" 6 "FAIL"                        # ... must say PASS
check 1 0 "PASS" 0 "check PASS"                  # ... and must fail
[ "$failures" -eq 0 ] && echo "expect.sh: all 14 cases as expected"
exit $((failures > 0))
