"""docs.copies_table: the table of step 12's copies in its lab record (lab12_copies.md,
docs/sitegen/tuning_step12.py) reads the log of lab/exp_step12_copies.sh. Here a made-up log, in
that script's order, checks that
  - each run's figure is its GFLOPS over cuBLAS's at the same size, each the median of the rounds;
  - of step 12's two runs without a kernel file in a size's block, the first is the kernel and the
    second the kernel with K not split (their lines can read the same), whatever the round;
  - a variant missing at a size (nobounds, where it would be wrong) shows as "-";
  - each kernel's registers and spills come from its compiler report;
  - a run that is none of the script's, or a log without runs, is an error, not a table;
  - a tuning directory without the log gives a line saying so.
The same reader serves the logs of lab/exp_step12_depth.sh and lab/exp_step12_pairs.sh
(docs.depth_table, docs.pairs_table): step 11's sgemm alone is the size's flops over the sgemm's
time in its line, step 12's gap to it is over that, and a run at TSK = 16 or with a variant's
kernel file is told apart from the defaults.
Usage: test_copies.py SOURCE_DIR"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from sitegen import tuning_step12  # noqa: E402
from sitegen.common import InputError  # noqa: E402

PTXAS = """== ptxas {name}
ptxas         .     8 bytes stack frame, {spill} bytes spill stores, 24 bytes spill loads
ptxas info    : Used {regs} registers, used 1 barriers, 42004 bytes smem"""


def run(program, gflops, extra=""):
    return f"UNVERIFIED {program} M=1 N=1 K=1 SLICES=1{extra}: {gflops} GFLOPS; not verified (--no-verify)"


def block(round_, size, cublas, k11, k12, hoisted, nobounds, unsplit):
    lines = [f"== round {round_}, {size}", run("cublas", cublas), run("kernel11_tensor_cores", k11),
             run("kernel12_predication", k12), run("kernel12_predication", hoisted, " (kernel file lab/exp/step12_hoisted.cl)")]
    if nobounds:
        lines.append(run("kernel12_predication", nobounds, " (kernel file lab/exp/step12_nobounds.cl)"))
    return lines + [run("kernel12_predication", unsplit)]


def table(lines, name=tuning_step12.COPIES, make=tuning_step12.copies_table):
    with tempfile.TemporaryDirectory() as d:
        if lines is not None:
            with open(os.path.join(d, name), "w", encoding="utf-8") as f:
                f.write("\n".join(lines) + "\n")
        return make(d, name)


def main():
    head = ["# a made-up log", "Test GPU, 1.0", PTXAS.format(name="kernel", spill=8, regs=255),
            PTXAS.format(name="hoisted", spill=0, regs=200)]
    lines = (head + block(1, "64 64 64", 100, 110, 120, 130, 90, 80) + block(1, "63 63 63", 100, 50, 60, 70, 0, 40)
             + block(2, "64 64 64", 200, 110, 140, 150, 110, 100) + block(2, "63 63 63", 100, 50, 60, 70, 0, 40))
    out = table(lines)
    speeds = out.split("\n\n")[0]  # the first table: the runs; the second: the compiler's reports
    rows = {r.split("|")[1].strip(): [c.strip() for c in r.split("|")[2:-1]] for r in speeds.splitlines() if r.startswith("| ")}
    # columns: 63 then 64 (by size); at 64, cuBLAS's median is 150
    expect = {"step 11": ["0.50", "0.73"], "step 12": ["0.60", "0.87"],
              tuning_step12.COPIES_NAMES["hoisted"]: ["0.70", "0.93"],
              tuning_step12.COPIES_NAMES["nobounds"]: ["-", "0.67"], "step 12, SLICES = 1": ["0.40", "0.60"]}
    for name, cells in expect.items():
        assert rows.get(name, [None])[:2] == cells, (name, rows.get(name), out)
    assert "| step 12 | 255 | 8 B |" in out and f"| {tuning_step12.COPIES_NAMES['hoisted']} | 200 | 0 B |" in out, out
    for bad in (head + ["== round 1, 64 64 64", run("kernel10_async_copy", 1)], head):
        try:
            table(bad)
        except InputError:
            continue
        raise AssertionError(f"no error for a log that is not the script's: {bad[-1]}")
    assert "No `" in table(None), table(None)
    depth_and_pairs()
    print("docs.copies_table, depth_table, pairs_table: the tables read the made-up logs as expected")


def rows_of(out):
    return {r.split("|")[1].strip(): [c.strip() for c in r.split("|")[2:-1]] for r in out.splitlines() if r.startswith("| ")}


def depth_and_pairs():
    size = "100 100 100"  # 2e6 flops: an sgemm of 0.001 ms is 2000 GFLOPS
    k11 = "UNVERIFIED kernel11_tensor_cores M=1 N=1 K=1 TSK={tsk} STAGES=4: {g} GFLOPS (transpose A 0.0001 ms, sgemm {ms} ms); not verified"
    depth = ["# made up", PTXAS.format(name="kernel11_tensor_cores (defaults)", spill=4, regs=255),
             PTXAS.format(name="kernel12_predication -D TSK=16 -D STAGES=2", spill=0, regs=254)]
    for round_, base in ((1, 1000), (2, 1000)):
        depth += [f"== round {round_}, {size}", run("cublas", base), k11.format(tsk=8, g=1100, ms=0.001),
                  k11.format(tsk=16, g=1050, ms=0.002), run("kernel12_predication", 1200, " TSK=8 "),
                  run("kernel12_predication", 900, " TSK=16 "),
                  run("kernel12_predication", 1300, " TSK=8 (kernel file lab/exp/step12_cached.cl)")]
    out = table(depth, tuning_step12.DEPTH, tuning_step12.depth_table)
    speeds, gaps, _ = out.split("\n\n")  # the runs over cuBLAS, step 12 over step 11's sgemm, the compiler's reports
    rows = dict(rows_of(speeds), **rows_of(gaps))
    expect = {"step 11": ["1.10"], "step 11, sgemm alone": ["2.00"], "step 11, TSK = 16, sgemm alone": ["1.00"],
              "step 12": ["1.20"], "step 12, TSK = 16": ["0.90"], "step 12, copies through L1": ["1.30"],
              "step 12 over step 11's sgemm alone, TSK = 8": ["0.60"], "the same at TSK = 16": ["0.90"]}
    for name, cells in expect.items():
        assert rows.get(name) == cells, (name, rows.get(name), out)
    assert "| step 11 | 255 | 4 B |" in out and "| step 12, TSK = 16, STAGES = 2 | 254 | 0 B |" in out, out
    pairs = ["# made up", PTXAS.format(name="kernel12_predication (defaults)", spill=8, regs=255),
             PTXAS.format(name="kernel12_predication --kernel-file lab/exp/step12_pairs.cl -D TILE_PAD=4", spill=0, regs=240),
             f"== round 1, {size}", run("cublas", 1000), k11.format(tsk=8, g=1100, ms=0.001),
             run("kernel12_predication", 1200, " TILE_PAD=8 "),
             run("kernel12_predication", 1250, " TILE_PAD=4  (kernel file lab/exp/step12_pairs.cl)")]
    out = table(pairs, tuning_step12.PAIRS, tuning_step12.pairs_table)
    rows = rows_of(out.split("\n\n")[0])
    assert rows.get(tuning_step12.PAIRS_NAMES["step 12"]) == ["1.20"] and rows.get(tuning_step12.PAIRS_NAMES["pairs"]) == ["1.25"], out
    assert tuning_step12.PAIRS_NAMES["pad"] not in rows, out  # the first run's log: no line of TILE_PAD = 4 alone
    out = table(pairs + [run("kernel12_predication", 1150, " TILE_PAD=4 ")], tuning_step12.PAIRS, tuning_step12.pairs_table)
    rows = rows_of(out.split("\n\n")[0])
    assert rows.get(tuning_step12.PAIRS_NAMES["pad"]) == ["1.15"] and rows.get(tuning_step12.PAIRS_NAMES["step 12"]) == ["1.20"], out
    assert f"| {tuning_step12.PAIRS_NAMES['pairs']} | 240 | 0 B |" in out, out
    try:
        table(pairs + [run("kernel10_async_copy", 1)], tuning_step12.PAIRS, tuning_step12.pairs_table)
    except InputError:
        return
    raise AssertionError("no error for a run that is none of lab/exp_step12_pairs.sh's")


if __name__ == "__main__":
    main()
