"""docs.local_reads: the table of what a read from local memory costs (step08_local_reads.md,
docs/sitegen/local_reads.py), from a made-up run of `peak --local-reads --csv`:
  - each rule `col` of the file is evaluated as C integer arithmetic on `lane`, and the rows say
    where steps 7 and 8 read that way: step 7's NVIDIA defaults and step 8 with its work-items in
    rows make warps of 4 x 8, reading A as `lane / 8` and B as `lane % 8`; step 7 with step 8's
    16 x 8 block has warps of 2 x 16 (`lane / 16`, `lane % 16`); step 8's defaults stand in
    squares of 2 x 2 (`lane/16*2 + lane/2 % 2`, `lane/4 % 4*2 + lane%2`). These come from the
    steps' descriptors, not from the file;
  - the cycles per k of a layout are its reads times their cycles (the median of the runs), and the
    multiply-adds' cycles come from the device's FMA peak where a results file has one;
  - a rule the file does not hold is "not measured", not a guess;
  - a `col` that is not arithmetic on lane, or whose count of vectors disagrees with the file's, or a
    file without `col = lane`, is an input error.
Usage: test_local_reads.py SOURCE_DIR"""
import csv
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from sitegen import local_reads, params, stepdefs  # noqa: E402
from sitegen.common import InputError  # noqa: E402

source = sys.argv[1]
stepdefs.configure(source)
defaults = params.read_defaults(source)
failures = []


def check(what, ok):
    if not ok:
        failures.append(what)


class FakePeak:
    platform, device, fma = "NVIDIA CUDA", "Test GPU", 2 * 100 * 1000 * 128 / 1000.0  # 128 per cycle


class FakeResults:
    peak = FakePeak()


RULES = [("lane", 32, 4.0), ("lane % 16", 16, 4.0), ("lane % 8", 8, 4.2), ("lane / 16", 2, 2.0),
         ("lane / 8", 4, 2.5), ("0", 1, 2.0), ("lane*8 % 64 + lane/8", 32, 32.0),
         ("lane/4 % 4*2 + lane%2", 8, 2.4), ("lane/16*2 + lane/2 % 2", 4, 2.2)]


def render(rules, runs=2, results=(FakeResults(),)):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "test-local-reads.csv")
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(local_reads.COLUMNS + ["warmup", "repeat"])
            for run in range(runs):
                for col, vectors, cycles in rules:
                    w.writerow(["NVIDIA CUDA", "Test GPU", "1.0", 1000, 100, 25600, col, vectors, 100, 1.0, 1.0,
                                cycles + run * 0.2, 1.0, f"2026-11-26T18:0{run}:00Z", 3, 20])
        return local_reads.snippet(local_reads.load(d), list(results), defaults)


def line(text, start):
    return next((x for x in text.splitlines() if x.startswith(start)), "")


text = render(RULES)
check("B of step 7's defaults and of step 8 in rows is lane % 8",
      "B in step 7, its NVIDIA defaults; B in step 8 with its work-items in rows |" in line(text, "| `lane % 8` |"))
check("A of step 7's defaults and of step 8 in rows is lane / 8",
      "A in step 7, its NVIDIA defaults; A in step 8 with its work-items in rows |" in line(text, "| `lane / 8` |"))
check("B of step 8's defaults (squares of 2 x 2): lanes l and l^2 share",
      "B in step 8, its NVIDIA defaults |" in line(text, "| `lane/4 % 4*2 + lane%2` |"))
check("A of step 8's defaults (squares of 2 x 2): lanes l and l^1 share",
      "A in step 8, its NVIDIA defaults |" in line(text, "| `lane/16*2 + lane/2 % 2` |"))
check("step 7 with step 8's block reads B as lane % 16", "B in step 7 with step 8's block" in line(text, "| `lane % 16` |"))
check("step 7 with step 8's block reads A as lane / 16", "A in step 7 with step 8's block" in line(text, "| `lane / 16` |"))
check("no step reads col = lane", line(text, "| `lane` |").endswith("| - |"))
check("the median of two runs (4.2, 4.4) is 4.30", "| 8 | 4.30 |" in line(text, "| `lane % 8` |"))
check("against col = lane: 4.3 / 4.1", "| 1.05 |" in line(text, "| `lane % 8` |"))
# Step 7's defaults (8 x 16): 2 reads of A (lane / 8: 2.6) and 4 of B (lane % 8: 4.3) = 22.4 cycles;
# 32 x 128 multiply-adds at 128 per cycle = 32 cycles
row = line(text, "| step 7, its NVIDIA defaults |")
check(f"step 7's cycles per k: {row}", "| 2 x `lane / 8` | 4 x `lane % 8` | 22.4 | 32.0 | 70.0\\% |" in row)
row = line(text, "| step 7 with step 8's block |")
check(f"step 7 with 16 x 8: {row}", "| 2 x 16 | 4 x `lane / 16` | 2 x `lane % 16` | 16.6 | 32.0 |" in row)
# Step 8's defaults (16 x 8 in squares): 4 x 2.3 (A) + 2 x 2.5 (B) = 14.2
row = line(text, "| step 8, its NVIDIA defaults |")
check(f"step 8's defaults: {row}", "| 4 x 8 | 4 x `lane/16*2 + lane/2 % 2` | 2 x `lane/4 % 4*2 + lane%2` | 14.2 |" in row)
# Without a peak of the device, no multiply-add cycles
text = render(RULES, results=())
check("no peak: no multiply-add cycles", "| 22.4 | - | - |" in line(text, "| step 7, its NVIDIA defaults |"))
# A rule the steps read that the file lacks
text = render([r for r in RULES if r[0] != "lane % 16"])
check("a missing rule is 'not measured'",
      "| not measured | - |" in line(text, "| step 7 with step 8's block |"))
# Malformed inputs
for rules, why in [(RULES + [("__import__('os')", 1, 1.0)], "not arithmetic on lane"),
                   (RULES + [("lane % 2", 4, 1.0)], "different vectors"),
                   ([r for r in RULES if r[0] != "lane"], "no row with col = lane")]:
    try:
        render(rules)
        failures.append(f"accepted a file with {why}")
    except InputError as e:
        check(f"the error names the problem ({why}): {e}", why in str(e))

for f in failures:
    print(f"FAILED: {f}")
print("docs.local_reads:", "FAILED" if failures else "passed")
sys.exit(1 if failures else 0)
