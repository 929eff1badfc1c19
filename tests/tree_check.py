"""What the checks of the source tree's layout share (bench_no_lab.py, readme_paths.py): the command
line (SOURCE_DIR, or --selftest on a made-up tree) and the verdict of a self-test."""
import sys


def selftest_verdict(got, bad):
    """Prints what the check caught in the made-up tree and what it got wrong; the exit status."""
    for g in got:
        print("caught:", g)
    for b in bad:
        print(b)
    return 1 if bad else 0


def main(doc, check, selftest):
    """check(SOURCE_DIR) -> (one line per breach, the line to print when there is none)."""
    if sys.argv[1:] == ["--selftest"]:
        return selftest()
    if len(sys.argv) != 2:
        sys.exit(doc)
    found, none = check(sys.argv[1])
    for line in found:
        print(line)
    if not found:
        print(none)
    return 1 if found else 0
