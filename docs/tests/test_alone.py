"""docs.alone_table: the tables "The idea alone" (stepNN_alone.md, docs/sitegen/tuning_ablation.py)
read a run of `lab/tune_nvidia.sh OUT ablation`. Here a made-up run, written in the harness's CSV
columns, checks that each row of it lands in the right line of the table:
  - a step with its own NVIDIA defaults, with the other step's parameters (where the parameters
    of the step's own idea, such as step 8's WTM and WTN, may take any value), with one switch of
    its own idea turned off (step 8's LANE_SQUARES=0, alone), or in no line at all (a
    configuration that is neither);
  - step 9 forced to one slice beside the host's own choice: where the host chose another split,
    the one-slice rows leave the defaults' line; where it chose one slice too, both are the same
    configuration and stay in both lines;
  - the ratios are to the previous step with its defaults, and a file without the previous step's
    defaults gives no table;
  - step 10's NVIDIA default COPY=2 is reported by a run as the 1 or 0 the host built: a run with
    COPY=1 is the defaults where the device has cp.async (some row of the file ran COPY=1), one with
    COPY=0 only where none did; the same holds for the table of step 10's changes one at a time
    (step10_copies.md), whose column of the defaults is "the defaults";
  - step 10 against smaller blocks (step10_blocks.md): each configuration has a median of its own
    (two that share a block but differ in another parameter are not pooled), and the defaults'
    block with another change is not offered as the fastest other block.
Usage: test_alone.py SOURCE_DIR"""
import csv
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from sitegen import params, sources, tuning_ablation  # noqa: E402
from sitegen.common import NEEDED  # noqa: E402
from sitegen.records import TuningFile  # noqa: E402

source = sys.argv[1]
steps = sources.discover_steps(source)
defaults = params.read_defaults(source)
nv = {s: " ".join(f"{k}={v}" for k, v in defaults[s]["nvidia-gpu"].items()) for s in defaults}


def with_params(step, **changes):
    P = dict(defaults[step]["nvidia-gpu"])
    P.update(changes)
    return " ".join(f"{k}={v}" for k, v in P.items())


def row(step, size, gflops, text, status="PASS", ms=1.0):
    return {"step": step, "platform": "NVIDIA CUDA", "device": "Test GPU", "driver": "1.0", "m": size, "n": size,
            "k": size, "alpha": 1, "beta": 0, "params": text, "warmup": 3, "repeat": 10, "median_ms": ms,
            "best_ms": ms, "gflops": gflops, "gflops_best": gflops, "max_err_over_bound": 0.1, "status": status,
            "date": "2026-11-23T19:32:00Z"}


def table(rows, number, name="test-ablation.csv"):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, name)
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, NEEDED)
            w.writeheader()
            w.writerows(rows)
        if name.endswith("-async-copy.csv"):
            return tuning_ablation.copies_snippet([TuningFile(path)], steps, defaults)
        if name.endswith("-tiles-by-size.csv"):
            return tuning_ablation.block_sizes_snippet([TuningFile(path)], defaults)
        return tuning_ablation.alone_snippet([TuningFile(path)], steps, defaults, number)


def line(text, label):
    got = [l for l in text.splitlines() if l.startswith(f"| {label} |")]
    return got[0] if got else None


failures = []


def expect(cond, what):
    if not cond:
        failures.append(what)


s7, s8, s9 = "kernel07_double_buffering", "kernel08_warp_tiling", "kernel09_split_k"
p7 = defaults[s7]["nvidia-gpu"]
rows = [row(s7, 4096, 1000, nv[s7]),
        row(s7, 4096, 990, with_params(s7, WPTM=16, WPTN=8)),               # step 8's block
        row(s8, 4096, 980, with_params(s8, WTM=32, WTN=128, WPTM=p7["WPTM"], WPTN=p7["WPTN"])),  # step 7's
        row(s8, 4096, 995, nv[s8]),
        row(s8, 4096, 5, with_params(s8, TSK=32)),                          # neither: left out
        row(s8, 4096, 7, with_params(s8, WTM=32, WTN=128)),                 # only its own idea's: out
        row(s8, 4096, 990, with_params(s8, LANE_SQUARES=0))]                 # a switch of its idea off: in
t8 = table(rows, 8)
expect(line(t8, "step 7, its defaults") and "1000 (1.000)" in line(t8, "step 7, its defaults"), "step 7's defaults")
expect(line(t8, "step 7 with step 8's parameters") and "990 (0.990)" in line(t8, "step 7 with step 8's parameters"),
       "step 7 with step 8's block")
expect(line(t8, "step 8 with step 7's parameters") and "980 (0.980)" in line(t8, "step 8 with step 7's parameters"),
       "step 8 with step 7's block, its warp tile free")
expect(line(t8, "step 8, its defaults") and "995 (0.995)" in line(t8, "step 8, its defaults"), "step 8's defaults")
expect("(0.005)" not in t8 and "(0.007)" not in t8, "a configuration of neither step was shown")
expect("990 (0.990)" in line(t8, "step 8 with LANE_SQUARES=0"), "step 8 with a switch of its idea off")
expect(t8.index("step 8 with LANE_SQUARES=0") < t8.index("step 8, its defaults"), "the switch's line before the defaults'")

host = dict(SLICES=9, SPLIT_ROWS=3)
rows = [row(s8, 4096, 1000, nv[s8]), row(s8, 8192, 1000, nv[s8]),
        row(s9, 4096, 1002, with_params(s9, SLICES=1, SPLIT_ROWS=0)),      # forced, = the host's choice
        row(s9, 4096, 1004, with_params(s9, SLICES=1, SPLIT_ROWS=0)),
        row(s9, 4096, 1006, with_params(s9, SLICES=1, SPLIT_ROWS=0)),
        row(s9, 8192, 1001, with_params(s9, SLICES=1, SPLIT_ROWS=0), "UNVERIFIED"),  # forced
        row(s9, 8192, 1020, with_params(s9, **host), "UNVERIFIED")]          # the host's split
t9 = table(rows, 9)
one, own = line(t9, "step 9 with one slice (no split)"), line(t9, "step 9, its defaults")
expect(one and "1001* (1.001)" in one and "1004 (1.004)" in one, f"one slice: {one}")
expect(own and "1020* (1.020)" in own and "1004 (1.004)" in own, f"step 9's defaults: {own}")

expect("No run" in table([row(s8, 4096, 995, nv[s8])], 8), "a table without step 7's defaults")

s10 = "kernel10_async_copy"
expect(defaults[s10]["nvidia-gpu"].get("COPY") == 2, "step 10's NVIDIA default is no longer COPY=2: review this test")
rows = [row(s9, 4096, 1000, nv[s9]), row(s10, 4096, 1030, with_params(s10, COPY=1)),
        row(s10, 4096, 200, with_params(s10, COPY=0))]
t10 = table(rows, 10)
own = line(t10, "step 10, its defaults")
expect(own and "1030 (1.030)" in own, f"step 10's defaults, built with cp.async: {own}")
expect("(0.200)" not in t10, "step 10 with COPY=0 taken for the defaults on a device with cp.async")
own = line(table([row(s9, 4096, 1000, nv[s9]), row(s10, 4096, 990, with_params(s10, COPY=0))], 10),
           "step 10, its defaults")
expect(own and "990 (0.990)" in own, f"step 10's defaults, built without cp.async: {own}")
copies = table(rows, 10, "test-async-copy.csv")
head = next((l for l in copies.splitlines() if l.startswith("| M=N=K |")), "")
expect("| the defaults |" in head and "| COPY=0 |" in head and "COPY=1" not in head,
       f"step 10's changes one at a time: {head}")

b88 = dict(TSN=64, WTM=32, WTN=64, WPTM=8, WPTN=8, GROUPS_PER_CU=4)
blocks = table([row(s10, 4096, 1000, with_params(s10, COPY=1)),
                row(s10, 4096, 1000, with_params(s10, COPY=0)),                # the defaults' block, another copy
                row(s10, 4096, 1000, with_params(s10, COPY=1, GROUPS_PER_CU=2)),  # the defaults' block
                row(s10, 4096, 1000, with_params(s10, COPY=1, STAGES=2, **b88), ms=0.5),
                row(s10, 4096, 1000, with_params(s10, COPY=1, **b88), ms=2.0)], 10, "test-tiles-by-size.csv")
best = line(blocks, "4096")
expect(best and "128 x 64, 8 x 8 per work-item, 4 per unit, STAGES=2 | 2.000x |" in best,
       f"step 10's smaller blocks: each configuration apart, the defaults' block not another: {best}")

for f in failures:
    print(f"FAIL: {f}", file=sys.stderr)
print("docs.alone_table:", "FAILED" if failures else "the rows land in their lines")
sys.exit(1 if failures else 0)
