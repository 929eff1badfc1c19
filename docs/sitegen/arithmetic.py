"""The arithmetic of each step (Markdown for \\includedoc):
  - stepNN_arith.md: the quantities of step NN and the one before (work-items, local memory, bytes
    per FLOP, reuse, local-memory reads per multiply-add, ...) with each device's parameters, from
    the formulas of the step descriptors (stepdefs.py);
  - stepNN_ptxas.md: what the compiler made of the kernels of step NN and the one before
    (registers, local memory, spills), from the compiler reports in lab/tuning/.
"""
import os

from .common import column_tables, fmt_num, md_escape, parse_params, previous_step, size_short, write
from . import stepdefs

# The arithmetic of each step, as functions of its parameters and the problem (formulas on the
# step pages): {quantity: value}
ARITH_ROWS = [
    ("work-items", "work-items"),
    ("work-group", "work-items per work-group"),
    ("local", "local memory per work-group, bytes"),
    ("bpf", "global-memory bytes requested per FLOP (sgemm kernel)"),
    ("reuse", "uses of each element loaded from global memory"),
    ("lpf", "local-memory floats read per multiply-add"),
    ("acc", "results (accumulators) per work-item"),
    ("useful", "useful share of the multiply-adds (the rest multiply zeros: the zero-padding, or from step 12 "
               "the zeros loaded past the edges)"),
    ("slices", "slices of K (SLICES): work-groups per block of a split row of C"),
    ("split rows", "rows of blocks of C split along K (SPLIT_ROWS), of Mp/TSM"),
    ("groups", "work-groups of the sgemm"),
    ("walk", "tiles of K a work-group walks through (the longest slice)"),
    ("copies", "global-memory bytes per FLOP of a split's helper buffer, the split rows' copies "
               "(sgemm writes, unpad reads; from step 12 the workspace of partial blocks, which the last "
               "slice reads)"),
]


def arithmetic(step_name, P, size):
    """The quantities of ARITH_ROWS for step `step_name` with parameters P on the problem `size`, from
    its descriptor; {} where the step has none or P lacks a parameter it needs."""
    d = stepdefs.get(step_name)
    try:
        return d.arithmetic(P, size) if d else {}
    except (KeyError, ZeroDivisionError):
        return {}


def arith_snippet(steps, step, results, ptxas):
    """The arithmetic of the previous step and this one, with each device's parameters."""
    prev = previous_step(steps, step)
    shown = [s for s in (prev, step) if s]
    cols, heads = [], []
    for r in results:
        for s in shown:
            row = r.row(s.name)
            if row is None:
                continue
            values = arithmetic(s.name, parse_params(row["params"]), r.headline)
            if values:
                cols.append((r, s, values))
                heads.append(f"step {s.number} on {md_escape(r.stem)}")
    if not cols:
        return "No recorded run of this step to compute it for.\n"
    rows = [("parameters (the file's)", [md_escape(r.row(s.name)["params"]) for r, s, _ in cols]),
            ("problem", [size_short(r.headline) for r, _, _ in cols])]
    for key, label in ARITH_ROWS:
        if any(key in v for _, _, v in cols):
            rows.append((label, [fmt_num(v[key]) if isinstance(v.get(key), (int, float))
                                 else md_escape(str(v.get(key, "-"))) for _, _, v in cols]))
    regs = []
    for r, s, _ in cols:
        report = ptxas.get(r.stem)
        kernels = report[1].get(s.name, {}).get("kernels", []) if report else []
        sg = [kk for kk in kernels if kk[0] == "sgemm"]
        d = stepdefs.get(s.name)
        same = report and d.same_build(parse_params(report[1].get(s.name, {}).get("params")),
                                       parse_params(r.row(s.name)["params"]))
        regs.append(f"{sg[0][1]}" + ("" if same else " (other parameters)") if sg else "-")
    if any(x != "-" for x in regs):
        rows.append(("registers per work-item, sgemm (compiler report)", regs))
    return column_tables("quantity", heads, rows)


def ptxas_snippet(steps, step, ptxas):
    """The compiler's report (registers, local memory, spills) of the previous step and this one."""
    prev = previous_step(steps, step)
    lines = []
    for stem, (path, report) in ptxas.items():
        for s in (prev, step):
            if s is None or s.name not in report:
                continue
            for kernel, regs, smem, st, ld in report[s.name]["kernels"]:
                lines.append(f"| {md_escape(stem)} | step {s.number} | `{kernel}` | {regs} | {smem} | {st} / {ld} | "
                             f"{md_escape(report[s.name]['params'])} |")
    if not lines:
        return "No compiler report is recorded for this step (lab/tuning/*-ptxas.txt).\n"
    files = ", ".join(f"`lab/tuning/{os.path.basename(p)}`" for p, _ in ptxas.values())
    head = ["| device file | step | kernel | registers per work-item | local memory per work-group, bytes "
            "| spill stores / loads, bytes | parameters |", "|---|---|---|---:|---:|---:|---|"]
    return (f"From {files} (the build logs of `GEMM_CL_OPTIONS=-cl-nv-verbose GEMM_BUILD_LOG=1`):\n\n"
            + "\n".join(head + lines) + "\n")


def workgroup_size(step, P):
    return arithmetic(step, P, (1, 1, 1)).get("work-group", "-")



def render(ctx):
    for s in ctx.steps:
        write(os.path.join(ctx.out, f"{s.page}_arith.md"), arith_snippet(ctx.steps, s, ctx.results, ctx.ptxas))
        write(os.path.join(ctx.out, f"{s.page}_ptxas.md"), ptxas_snippet(ctx.steps, s, ctx.ptxas))
