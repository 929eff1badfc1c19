#!/usr/bin/env python3
"""How long a CTest run took, and where the time went: the wall time, the slowest tests, and a
warning where the run took longer than the suite's budget.

    tests/suite_time.py JUNIT.xml [BUDGET_SECONDS]     (tests/run.sh runs it after every run)

The budget (default 360 s) is for the whole suite run as tests/run.sh runs it, two tests at a time,
on a quiet 2-core machine once built: it took 238-259 s there with 1463 tests (November 2026), then
346 s with 1501 (December 2026): the precision check (gemm_exact.h) made every run one run longer,
and its tests, the eight wrong-precision kernels at the deep K where each once passed
(tests/precision.cmake), take about 100 s of the tests' own time; the budget went from 300 s to
360 s for them, and CI runs the deep ones in its first suite alone (.ci/run). Most
of a test's time is fixed (starting a process and PoCL, and PoCL preprocessing the kernel for its
cache: about 0.07 s of the 0.1 s a small verify test takes), then Oclgrind's simulation and the
site's figures. A run over the budget is not a failure (a shared machine's times move by 10 %), but
it says so, with the slowest tests, so that a suite that grows slower is seen in every run and in CI.
"""
import sys
import xml.etree.ElementTree as ET

BUDGET = 360.0
SLOWEST = 5


def main(argv):
    suite = ET.parse(argv[1]).getroot()
    budget = float(argv[2]) if len(argv) > 2 else BUDGET
    cases = [(float(c.get("time", 0)), c.get("name")) for c in suite.iter("testcase")]
    wall = float(suite.get("time", 0))
    cases.sort(reverse=True)
    slowest = ", ".join(f"{name} {t:.1f} s" for t, name in cases[:SLOWEST])
    print(f"time: {len(cases)} tests in {wall:.0f} s (wall); their own times add up to "
          f"{sum(t for t, _ in cases):.0f} s; the slowest: {slowest}")
    if wall > budget:
        print(f"time: WARNING: the run took {wall:.0f} s, over the suite's budget of {budget:.0f} s "
              f"(tests/suite_time.py says what it is for)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
