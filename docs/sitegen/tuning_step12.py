"""The tables of step 12's experiments drawn from its records in lab/tuning/, Markdown for
\\includedoc:
  - lab12_copies.md: lab/exp_step12_copies.sh's log (NAME-step12-copies.log): step 12 beside the
    variants of its copies (lab/exp_step12_copies.py) and beside no split of K, with step 11, each
    over cuBLAS, and each kernel's registers.
"""
import os
import re

from .common import InputError, median, write

COPIES = "nvidia-h100-step12-copies.log"  # lab/exp_step12_copies.sh on the H100
# The runs of each size's block of that log, in the script's order; nobounds only where it is right
COPIES_RUNS = ("cuBLAS", "step 11", "step 12", "hoisted", "nobounds", "step 12, SLICES = 1")
COPIES_NAMES = {"hoisted": "step 12, sources and bounds worked out once (hoisted)",
                "nobounds": "step 12 with no bounds (nobounds; right only at multiples of the tiles)"}


def copies_table(tuning_dir, name=COPIES):
    """lab/exp_step12_copies.sh's log: each run's GFLOPS over cuBLAS's at the same size, both the
    median of the log's rounds, and each kernel's registers and spills."""
    path = os.path.join(tuning_dir, name)
    if not os.path.isfile(path):
        return f"<div class=\"para\">No `{name}` in this site's tuning records.</div>\n"
    lines = open(path, encoding="utf-8").read().splitlines()
    text = "\n".join(lines)
    compiled = {m.group(1): (m.group(3), m.group(2)) for m in re.finditer(
        r"^== ptxas (\w+)\n.*?(\d+) bytes spill stores.*\n.*?Used (\d+) registers", text, re.M)}
    runs, block = {}, None
    for line in lines:
        m = re.match(r"== round \d+, (\d+) (\d+) (\d+)$", line)
        if m:
            block = (tuple(int(x) for x in m.groups()), [])
            continue
        m = re.match(r"(?:PASS|UNVERIFIED) (\S+) .*?: ([\d.]+) GFLOPS", line)
        if not (m and block):
            continue
        size, seen = block
        program, kernel_file = m.group(1), re.search(r"lab/exp/step12_(\w+)\.cl", line)
        run = {"cublas": "cuBLAS", "kernel11_tensor_cores": "step 11"}.get(program)
        if program == "kernel12_predication":
            run = kernel_file.group(1) if kernel_file else ("step 12" if "step 12" not in seen else "step 12, SLICES = 1")
        if run not in COPIES_RUNS:
            raise InputError(f"{path}: a run that is none of lab/exp_step12_copies.sh's: {line}")
        seen.append(run)
        runs.setdefault((size, run), []).append(float(m.group(2)))
    if not runs or not compiled:
        raise InputError(f"{path}: not a log of lab/exp_step12_copies.sh")
    sizes = sorted({size for size, _ in runs}, key=lambda s: (s[0] * s[1] * s[2], s))
    out = ["| run | " + " | ".join(" x ".join(map(str, s)) for s in sizes) + " |", "|---" * (len(sizes) + 1) + "|"]
    for run in COPIES_RUNS[1:]:
        cells = []
        for size in sizes:
            mine, base = runs.get((size, run)), runs.get((size, "cuBLAS"))
            cells.append(f"{median(mine) / median(base):.2f}" if mine and base else "-")
        out.append(f"| {COPIES_NAMES.get(run, run)} | " + " | ".join(cells) + " |")
    out.append("")
    out.append("| kernel (at 1024, as it runs at the large sizes) | registers | spilled (stores) |")
    out.append("|---|---:|---:|")
    for key in ("kernel", "hoisted", "nobounds"):
        if key in compiled:
            out.append(f"| {COPIES_NAMES.get(key, 'step 12')} | {compiled[key][0]} | {compiled[key][1]} B |")
    return "\n".join(out) + "\n"


def render(ctx):
    write(os.path.join(ctx.out, "lab12_copies.md"), copies_table(ctx.tuning_dir))
