"""docs.gap_table: the table "What is left between the last step and cuBLAS" (stepNN_gap.md,
docs/sitegen/tuning_ablation.py) reads a recorded sweep. Here a made-up sweep, written in the
harness's CSV columns, checks that
  - each size where both the last step and cuBLAS ran gets one line, with cuBLAS's time over the
    step's, over its sgemm kernel's alone, the helper kernels' time and share, and each helper;
  - a size where either did not run (REFUSED, or no row) gets no line, and an unverified run is
    marked;
  - a sweep without cuBLAS, or without the last step, gives no table.
Usage: test_gap.py SOURCE_DIR"""
import csv
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from sitegen import results, sources, tuning_ablation  # noqa: E402
from sitegen.common import NEEDED  # noqa: E402

steps = sources.discover_steps(sys.argv[1])
last = max(steps, key=lambda s: s.number)
first = min(steps, key=lambda s: s.number)


def row(program, size, ms, parts="", status="PASS"):
    ran = status in ("PASS", "UNVERIFIED")
    flops = 2.0 * size ** 3
    return {"step": program, "platform": "NVIDIA CUDA", "device": "Test GPU", "driver": "1.0", "m": size,
            "n": size, "k": size, "alpha": 1, "beta": 0, "params": "", "warmup": 3 if ran else "",
            "repeat": 10 if ran else "", "median_ms": ms if ran else "", "best_ms": ms if ran else "",
            "gflops": flops / (ms * 1e6) if ran else "", "gflops_best": flops / (ms * 1e6) if ran else "",
            "parts": parts, "max_err_over_bound": 0.1 if status == "PASS" else "", "status": status,
            "date": "2026-11-25T12:00:00Z"}


def table(rows):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "test-gpu.csv")
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, NEEDED + [c for c in ("parts",) if c not in NEEDED])
            w.writeheader()
            w.writerows(rows)
        return tuning_ablation.gap_snippet([results.ResultsFile(path)], steps)


def line(text, size):
    got = [l for l in text.splitlines() if l.startswith(f"| {size} |") or l.startswith(f"| {size}* |")]
    return got[0] if got else None


failures = []


def expect(cond, what):
    if not cond:
        failures.append(what)


rows = [row(first.name, 1024, 9.0, "sgemm:9.0/9.0"),
        # 1024: cuBLAS 1.0 ms; the step 1.25 ms = transpose 0.1 + sgemm 0.8 + add 0.35
        row(last.name, 1024, 1.25, "transpose A:0.1/0.09;sgemm:0.8/0.79;add slices+unpad C:0.35/0.3"),
        row("cublas", 1024, 1.0),
        # 2048: not verified, no helpers
        row(last.name, 2048, 8.0, "sgemm:8.0/7.9", "UNVERIFIED"), row("cublas", 2048, 6.0, "", "UNVERIFIED"),
        # 4095: the step refused; 4096: no cuBLAS row
        row(last.name, 4095, 0, "M=4095 is not ...", "REFUSED"), row("cublas", 4095, 50.0),
        row(last.name, 4096, 60.0, "sgemm:60/60")]
t = table(rows)
l1 = line(t, 1024)
expect(l1 and "| 1 | 1.25 (0.800) | 0.8 (1.250) | 0.45 (36.0\\%) |" in l1
       and "transpose A 0.1, add slices+unpad C 0.35" in l1, f"1024: {l1}")
l2 = line(t, 2048)
expect(l2 and l2.startswith("| 2048* |") and "| 8 (0.750) | 8 (0.750) | 0 (0.0\\%) | none |" in l2, f"2048: {l2}")
expect(line(t, 4095) is None, "a size the step refused got a line")
expect(line(t, 4096) is None, "a size without cuBLAS got a line")
expect("No recorded sweep" in table([r for r in rows if r["step"] != "cublas"]), "a sweep without cuBLAS")
expect("No recorded sweep" in table([r for r in rows if r["step"] != last.name]), "a sweep without the last step")

for f in failures:
    print(f"FAIL: {f}", file=sys.stderr)
print("docs.gap_table:", "FAILED" if failures else "each size where both ran has its line, with the right ratios")
sys.exit(1 if failures else 0)
