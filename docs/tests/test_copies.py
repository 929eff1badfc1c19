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


def table(lines, name=tuning_step12.COPIES):
    with tempfile.TemporaryDirectory() as d:
        if lines is not None:
            with open(os.path.join(d, name), "w", encoding="utf-8") as f:
                f.write("\n".join(lines) + "\n")
        return tuning_step12.copies_table(d)


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
    print("docs.copies_table: the table reads the made-up log as expected")


if __name__ == "__main__":
    main()
