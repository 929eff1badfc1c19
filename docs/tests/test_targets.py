"""docs.targets_table: step 12's table of targets (the lesson's, from sitegen/predication.py) on a
made-up results file. The verdict is the medians' (as the issue's targets are), and a median that
the runs did not hold steady is marked, not hidden:
  - at 512, cuBLAS's median run 1.25 ms and its best 1.0 ms (25 % faster: unsteady), step 12 1.0 ms
    at both: the ratio 1.25x of the medians meets the stretch target and is marked (~), and the note
    says whose run it was, by how much, and the ratio of the best runs, 1.00x;
  - at 4096 every run steady: no mark, and a file with no unsteady run has no note at all;
  - step 12's error over step 10's where both passed.
Shown failing on a table that marks nothing (the generator before the mark), by the same checks.
Usage: test_targets.py SOURCE_DIR"""
import csv
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
try:  # sitegen.predication draws the edge tile's figure with numpy
    import numpy  # noqa: F401
except ImportError as e:
    print(f"SKIPPED: {sys.executable} has no {e.name}: sitegen/predication.py needs it")
    sys.exit(77)
from sitegen import predication, results  # noqa: E402
from sitegen.common import NEEDED  # noqa: E402


def row(program, n, ms, best_ms=None, err=1e-7):
    best_ms = best_ms or ms
    flops = 2.0 * n ** 3
    return {"step": program, "platform": "P", "device": "Test GPU", "driver": "1.0", "m": n, "n": n, "k": n,
            "alpha": 1, "beta": 0, "params": "", "warmup": 3, "repeat": 10, "median_ms": ms, "best_ms": best_ms,
            "gflops": f"{flops / (ms * 1e6):.6g}", "gflops_best": f"{flops / (best_ms * 1e6):.6g}",
            "max_err_over_bound": 0.1, "status": "PASS", "date": "2026-12-07T12:00:00Z", "normwise_error": err,
            "data": "spread"}


def render(rows):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "test-gpu.csv")
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, NEEDED + ["normwise_error", "data"])
            w.writeheader()
            w.writerows(rows)
        return predication.targets_table([results.ResultsFile(path)])


def check(table):
    """What is wrong with a rendered table of the made-up file, [] where nothing is."""
    wrong = []
    lines = table.splitlines()
    r512 = next((l for l in lines if l.startswith("| 512 x 512 x 512 |")), "")
    r4096 = next((l for l in lines if l.startswith("| 4096 x 4096 x 4096 |")), "")
    if "| 1.25x (~) | stretch met | 0.50 |" not in r512:
        wrong.append(f"512: not the medians' 1.25x marked (~), stretch met, error 0.50: {r512}")
    if "| 1.00x | **missed** |" not in r4096 or "(~)" in r4096:
        wrong.append(f"4096: not 1.00x unmarked and missed: {r4096}")
    if "`cublas` +25 % at 512" not in table or "best over best: 1.00x at 512" not in table:
        wrong.append("no note naming cuBLAS's unsteady run at 512 (+25 %) and the best runs' ratio (1.00x)")
    return wrong


def main():
    steady = [row("kernel12_predication", 4096, 10.0), row("cublas", 4096, 10.0), row("kernel10_async_copy", 4096, 12.0)]
    made_up = steady + [row("kernel12_predication", 512, 1.0, err=1e-7), row("cublas", 512, 1.25, 1.0),
                        row("kernel10_async_copy", 512, 2.0, err=2e-7)]
    failures = check(render(made_up))
    if "(~)" in render(steady):
        failures.append("a file with every run steady has a mark or a note")
    # the generator before the mark: the same table with every (~) and the note taken out
    unmarked = "\n".join(l.replace(" (~)", "") for l in render(made_up).splitlines() if "(~):" not in l)
    if not check(unmarked):
        failures.append("the checks pass a table that marks nothing")
    if failures:
        print("\n".join(failures))
        sys.exit(1)
    print("targets table: medians' verdict, unsteady runs marked and noted; the unmarked table caught")


if __name__ == "__main__":
    main()
