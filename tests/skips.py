#!/usr/bin/env python3
"""The tests a CTest run skipped, each with the reason it printed.

    tests/skips.py JUNIT.xml                 print them, grouped by reason (tests/run.sh does)
    tests/skips.py --expect FILE JUNIT.xml   exit 1, naming them, if a skip is not one of FILE's

A skip is only as good as its reason: a test that skips on a healthy machine hides whatever it
checks. tests/run.sh prints the skips after every run, so that a reader sees what was not tested on
their device and why. CI (.ci/run) also compares them with the skips expected on its device
(.ci/expected-skips): a new skip there, such as a verify test refused as a "device limit" by a
host plan that asks for too much, fails CI instead of passing unseen.

FILE: one expected skip per line, `NAME_REGEX :: REASON_REGEX` (Python regular expressions,
searched in the test's name and in its reason); blank lines and lines starting with # are ignored.
"""
import re
import sys
import xml.etree.ElementTree as ET


def reason(case):
    """The line of the test's output that says why it was skipped."""
    out = case.find("system-out")
    lines = [l.strip() for l in (out.text or "").splitlines() if l.strip()] if out is not None else []
    for marker in ("SKIPPED", "error:"):
        for line in lines:
            if marker in line:
                return line
    return lines[-1] if lines else "(the test printed nothing)"


def skipped(junit):
    root = ET.parse(junit).getroot()
    return [(c.get("name"), reason(c)) for c in root.iter("testcase") if c.get("status") == "notrun"]


def expected(path):
    rules = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if " :: " not in line:
                sys.exit(f"{path}:{number}: expected 'NAME_REGEX :: REASON_REGEX'")
            name, why = line.split(" :: ", 1)
            rules.append((re.compile(name.strip()), re.compile(why.strip())))
    return rules


def main(argv):
    rules, rules_path = None, None
    if len(argv) == 3 and argv[0] == "--expect":
        rules_path = argv[1]
        rules, argv = expected(rules_path), argv[2:]
    if len(argv) != 1:
        sys.exit(__doc__)
    try:
        skips = skipped(argv[0])
    except (OSError, ET.ParseError) as e:
        sys.exit(f"tests/skips.py: cannot read the test results {argv[0]}: {e}")
    if rules is not None:
        return check(skips, rules, rules_path)
    groups = {}
    for name, why in skips:  # grouped with the temporary paths in a reason made alike
        groups.setdefault(re.sub(r"/tmp/tmp\.\w+", "/tmp/tmp.*", why), []).append(name)
    if skips:
        print(f"{len(skips)} tests skipped, by reason:")
        for why, names in groups.items():
            shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
            print(f"  {len(names)} x {why}\n      {shown}")
    else:
        print("no test skipped")
    return 0


def check(skips, rules, rules_path):
    unexpected = [(n, w) for n, w in skips if not any(r.search(n) and y.search(w) for r, y in rules)]
    for name, why in unexpected:
        print(f"UNEXPECTED SKIP: {name}: {why}")
    if unexpected:
        print(f"{len(unexpected)} of {len(skips)} skips are not among the expected ones of {rules_path}: each "
              "hides what its test checks; fix the cause, or add the skip there with the reason it is right")
        return 1
    print(f"{len(skips)} tests skipped, each expected on this device with its reason ({rules_path})")
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
