#!/usr/bin/env python3
"""What a step reports about time, checked against itself (the test harness.timing): step 4 at 64
with 7 timed runs and no warm-up (two kernels: the transpose and the sgemm), from its CSV line and
its text report.

    python3 tests/timing.py PATH/kernel04_transpose

  - --warmup 0 and --repeat 7 are what ran (echoed in the CSV);
  - the best time is below the median (7 runs never take the same nanoseconds all);
  - each kernel's own times: best <= median, and not one kernel's times given for all;
  - the whole step includes its helper kernels: its best >= the sum of the kernels' bests, its
    median > every kernel's median;
  - GFLOPS = 2*M*N*K / median, in the CSV and in the report.
"""
import csv
import io
import re
import subprocess
import sys

size = 64
proc = subprocess.run([sys.argv[1], "--size", str(size), "--repeat", "7", "--warmup", "0", "--csv"],
                      capture_output=True, text=True)
fails = []


def check(ok, what):
    if not ok:
        fails.append(what)


check(proc.returncode == 0, f"the run exits 0 (got {proc.returncode}: {proc.stderr[-300:]})")
if proc.returncode == 0:
    row = next(csv.DictReader(io.StringIO(proc.stdout)))
    median, best = float(row["median_ms"]), float(row["best_ms"])
    parts = [(label, float(m), float(b))
             for label, m, b in (re.match(r"(.*):(.*)/(.*)", x).groups() for x in row["parts"].split(";"))]
    check(row["warmup"] == "0" and row["repeat"] == "7",
          f"--warmup 0 --repeat 7 echoed (got {row['warmup']}, {row['repeat']})")
    check(best < median, f"best < median over 7 runs (got {best} and {median})")
    check(all(b <= m for _, m, b in parts), f"each kernel: best <= median ({parts})")
    check(len(parts) == 2 and len({(m, b) for _, m, b in parts}) == len(parts), f"each kernel its own times ({parts})")
    check(best >= sum(b for _, _, b in parts) - 2e-6, f"the step's best >= the sum of its kernels' bests ({best}, {parts})")
    check(median > max(m for _, m, _ in parts), f"the step's median > each kernel's median ({median}, {parts})")
    gflops = 2 * size**3 / (median * 1e6)
    check(abs(float(row["gflops"]) - gflops) <= 1e-4 * gflops + 1e-3,
          f"CSV GFLOPS from the median ({row['gflops']} against {gflops:.4f})")
    m = re.search(r"whole step +median +([0-9.]+) ms +best +([0-9.]+) ms +([0-9.]+) GFLOPS \(best ([0-9.]+)\)", proc.stderr)
    check(m is not None and abs(float(m.group(3)) - gflops) <= 0.006 + 2e-3 * gflops,
          f"report GFLOPS from the median ({m and m.group(3)} against {gflops:.2f})")
for f in fails:
    print("FAIL:", f)
print("timing: PASS" if not fails else f"timing: {len(fails)} FAILED")
sys.exit(1 if fails else 0)
