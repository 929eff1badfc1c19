"""docs.repeated_runs: a results file may hold the same program at the same size more than once
(rows appended from another sweep, a size run again). Rows with the same parameters are runs of
one setting: the pages show their median run (the slower middle one for an even count), never
the fastest of them, which would be a best-of-N beside peers measured once. Rows with different
parameters are different settings: the fastest setting is shown. Here a made-up file checks
  - three runs of one setting (1.2, 1.1 and 0.9 ms) against cuBLAS's 1.0 ms: the step is shown
    at its median run, 1.1 ms, 0.91x cuBLAS (the fastest run would say 1.11x);
  - two runs of one setting: the slower one;
  - a faster second setting measured once beats the median of the first, and the details say
    how the row was chosen.
Usage: test_repeats.py SOURCE_DIR"""
import csv
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from sitegen import results, tables  # noqa: E402
from sitegen.common import NEEDED  # noqa: E402

SIZE = 1024


def row(program, ms, params="TS=16"):
    flops = 2.0 * SIZE ** 3
    return {"step": program, "platform": "P", "device": "Test GPU", "driver": "1.0", "m": SIZE, "n": SIZE,
            "k": SIZE, "alpha": 1, "beta": 0, "params": params, "warmup": 3, "repeat": 10, "median_ms": ms,
            "best_ms": ms, "gflops": f"{flops / (ms * 1e6):.6g}", "gflops_best": f"{flops / (ms * 1e6):.6g}",
            "parts": f"sgemm:{ms}/{ms}", "max_err_over_bound": 0.1, "status": "PASS",
            "date": "2026-11-25T12:00:00Z"}


def load(rows):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "test-gpu.csv")
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, NEEDED + ["parts"])
            w.writeheader()
            w.writerows(rows)
        return results.ResultsFile(path)


failures = []


def expect(cond, what):
    if not cond:
        failures.append(what)


step1, step2 = "kernel01_naive", "kernel02_tiled"
base = [row(step1, 4.0), row("cublas", 1.0, "")]

r = load(base + [row(step2, 1.2), row(step2, 1.1), row(step2, 0.9)])
expect(float(r.row(step2)["median_ms"]) == 1.1, f"three runs: shown {r.row(step2)['median_ms']} ms, not the median 1.1")
head = tables.headline_snippet([r])
line = next((l for l in head.splitlines() if l.startswith(f"| `{step2}`")), "")
expect(line.endswith("| 0.91x |"), f"three runs: the ratio to cuBLAS of the median run, 0.91x: {line}")
details = tables.details_snippet([r])
expect("TS=16 (the median of 3 runs)" in details, "three runs: the details say the row is the median of 3 runs")

r = load(base + [row(step2, 0.9), row(step2, 1.1)])
expect(float(r.row(step2)["median_ms"]) == 1.1, f"two runs: shown {r.row(step2)['median_ms']} ms, not the slower 1.1")

r = load(base + [row(step2, 1.2), row(step2, 1.1), row(step2, 0.9), row(step2, 1.0, "TS=32")])
expect(r.row(step2)["params"] == "TS=32", f"a faster setting: shown {r.row(step2)['params']}")
details = tables.details_snippet([r])
expect("TS=32 (the fastest of 2 settings in 4 rows)" in details, "two settings: the details say so")

r = load(base + [row(step2, 1.2), row(step2, 1.1), row(step2, 0.9), row(step2, 1.15, "TS=32")])
expect(r.row(step2)["params"] == "TS=16" and float(r.row(step2)["median_ms"]) == 1.1,
       f"the median of a setting beats a slower one: shown {r.row(step2)['params']} {r.row(step2)['median_ms']}")
details = tables.details_snippet([r])
expect("TS=16 (the fastest of 2 settings in 4 rows; the median of its 3 runs)" in details,
       "two settings, the chosen one run 3 times: the details say so")

for f in failures:
    print(f"FAIL: {f}", file=sys.stderr)
print("docs.repeated_runs:", "FAILED" if failures else "runs of one setting give their median run, settings the fastest")
sys.exit(1 if failures else 0)
