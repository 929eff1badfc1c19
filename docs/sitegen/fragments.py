"""Step 11's picture of mma.sync m16n8k8 with TF32 operands (step11_fragments.svg, .md): which
lane of the warp holds which element of the 16 x 8 matrix of A, the 8 x 8 of B and the 16 x 8 of
C, and in which of its registers. The layout is the one kernel11_tensor_cores/tensor_cores.cl
reads and writes (g = lane/4, q = lane%4):
  A: register r of lane l holds row g + (r%2)*8, column q + (r/2)*4;
  B: register r holds row q + r*4, column g;
  C: register r holds row g + (r/2)*8, column 2q + r%2.
The functions below give it element by element; the figure is drawn from them."""
import csv
import glob
import os

from . import drawing, records
from .common import InputError, md_escape, size_key, write

M, N, K = 16, 8, 8
COLOURS = ("#c6dbef", "#fdd0a2", "#c7e9c0", "#dadaeb")  # register 0, 1, 2, 3


def a_owner(m, k):
    """(lane, register) holding A(m, k) of the 16 x 8 matrix."""
    return 4 * (m % 8) + k % 4, (m // 8) + 2 * (k // 4)


def b_owner(k, n):
    """(lane, register) holding B(k, n) of the 8 x 8 matrix."""
    return 4 * n + k % 4, k // 4


def c_owner(m, n):
    """(lane, register) holding C(m, n) (and D) of the 16 x 8 matrix."""
    return 4 * (m % 8) + n // 2, n % 2 + 2 * (m // 8)


def layout(owner, rows, cols):
    """{(lane, register): (row, column)}, raising ValueError where two elements share a register."""
    out = {}
    for r in range(rows):
        for c in range(cols):
            key = owner(r, c)
            if key in out:
                raise ValueError(f"{key} holds {out[key]} and {(r, c)}")
            out[key] = (r, c)
    return out


def draw(path):
    plt = drawing.pyplot()
    fig = plt.figure(figsize=(drawing.MAX_WIDTH_IN - 0.1, 5.4))
    ax = fig.add_axes([0.01, 0.01, 0.98, 0.9])
    ax.set_axis_off()
    panels = [("A: 16 x 8 (m down, k across)", a_owner, M, K, 0.0, "a"),
              ("B: 8 x 8 (k down, n across)", b_owner, K, N, K + 2.5, "b"),
              ("C, D: 16 x 8 (m down, n across)", c_owner, M, N, K + N + 5.0, "c")]
    for title, owner, rows, cols, x0, reg in panels:
        layout(owner, rows, cols)  # every register of every lane holds one element
        for r in range(rows):
            for c in range(cols):
                lane, i = owner(r, c)
                ax.add_patch(plt.Rectangle((x0 + c, -r - 1), 1, 1, facecolor=COLOURS[i], edgecolor="#8a8f99", lw=0.5))
                ax.text(x0 + c + 0.5, -r - 0.5, f"{lane}", ha="center", va="center", fontsize=7.5)
        ax.text(x0, 0.35, title, ha="left", va="bottom", fontsize=8)
        for i in range(4 if reg != "b" else 2):  # the key: each register's colour under its name
            ax.text(x0 + i * 1.5 + 0.5, -M - 0.4, f"{reg}{i}", ha="center", va="top", fontsize=7.5)
            ax.add_patch(plt.Rectangle((x0 + i * 1.5, -M - 2.0), 1.0, 0.7, facecolor=COLOURS[i], edgecolor="#8a8f99",
                                       lw=0.5))
    ax.set_xlim(-0.2, K + N + 5.0 + N + 0.2)
    ax.set_ylim(-M - 2.3, 1.5)
    ax.set_aspect("equal")
    drawing.save(fig, path)


def render(ctx):
    render_table(ctx)
    draw(os.path.join(ctx.out, "step11_fragments.svg"))
    write(os.path.join(ctx.out, "step11_fragments.md"),
          '\\image html step11_fragments.svg "mma.sync m16n8k8 (TF32): the lane (0 to 31) that holds each element, '
          'its colour the register (a0-a3, b0-b1, c0-c3)"\n')


def gain_table(results, sizes=((4096, 4096, 4096), (1000, 3000, 500))):
    """Step 11 against step 10 (and cuBLAS where it ran) in every results file (docs/results/, the
    one record per device that feeds every page) that holds both steps at one of `sizes`: GFLOPS,
    the ratio, and the normwise error over its bound (old data, where the file is on it, said so)."""
    out = ["| device | M x N x K | step 10 GFLOPS | step 11 GFLOPS | step 11 / step 10 | step 11 / cuBLAS "
           "| error/bound, step 10 | error/bound, step 11 |", "|---|---|---|---|---|---|---|---|"]
    for r in results:
        for size in sizes:
            s10, s11 = r.row("kernel10_async_copy", size), r.row("kernel11_tensor_cores", size)
            (g10, _), (g11, _) = r.measured("kernel10_async_copy", size), r.measured("kernel11_tensor_cores", size)
            if not (g10 and g11):
                continue
            cub, _ = r.measured("cublas", size)
            err = [f"{float(x['normwise_over_bound']):.3g}" if x.get("normwise_over_bound") else "n/a" for x in (s10, s11)]
            if not r.full_precision():
                err = [e + " (old data)" for e in err]
            vs_cublas = f"{g11 / cub:.2f}" if cub else "n/a"
            out.append(f"| `{md_escape(r.stem)}` | {' x '.join(map(str, size))} | {g10:.0f} | {g11:.0f} "
                       f"| {g11 / g10:.2f} | {vs_cublas} | {err[0]} | {err[1]} |")
    if len(out) == 2:
        return "No results file has step 11 beside step 10.\n"
    return "\n".join(out) + "\n"


SWEEP_PROGRAMS = (("kernel10_async_copy", "step 10"), ("kernel11_tensor_cores", "step 11"), ("cublas", "cuBLAS"),
                  ("cublas_tf32", "cuBLAS TF32"), ("clblast", "CLBlast"))


def sweep_table(tuning):
    """Every size of each tuning record that holds step 11 beside cuBLAS (a bench.py sweep), every
    program's GFLOPS and normwise error ||got-ref||/||ref|| (column normwise_error; FAIL rows too:
    cuBLAS's TF32 mode fails the FP32 check), and step 11 over cuBLAS."""
    out = []
    for t in tuning:
        with open(t.path, newline="", encoding="utf-8") as f:
            rows = [r for r in csv.DictReader(f) if r.get("gflops")]
        by = {(r["step"], (int(r["m"]), int(r["n"]), int(r["k"]))): r for r in rows}
        sizes = sorted({size for (step, size) in by if step == "kernel11_tensor_cores" and ("cublas", size) in by})
        if not sizes:
            continue
        programs = [(p, label) for p, label in SWEEP_PROGRAMS if any((p, s) in by for s in sizes)]
        out.append(f"**{next(iter(t.device))[1]}** ({os.path.basename(t.path)}), GFLOPS and normwise error:\n")
        out.append("| M x N x K | " + " | ".join(label for _, label in programs) + " | step 11 / cuBLAS |")
        out.append("|---" * (len(programs) + 2) + "|")
        for size in sizes:
            cells = []
            for p, _ in programs:
                r = by.get((p, size))
                err = (r.get("normwise_error") or "") if r else ""
                cells.append(f"{float(r['gflops']):.0f} ({float(err):.1e}{'' if r['status'] == 'PASS' else ', ' + r['status']})"
                             if r and err else (f"{float(r['gflops']):.0f}" if r else "-"))
            ratio = float(by[("kernel11_tensor_cores", size)]["gflops"]) / float(by[("cublas", size)]["gflops"])
            out.append(f"| {' x '.join(map(str, size))} | " + " | ".join(cells) + f" | {ratio:.2f} |")
        out.append("")
    return "\n".join(out) + "\n" if out else "No recorded sweep has step 11 beside cuBLAS.\n"


# The performance targets of the issue that asked for step 11: (M, N, K), step 11 over cuBLAS's FP32
# SGEMM at least this, in the same sweep
TARGETS = (((4096, 4096, 4096), 1.25), ((8192, 8192, 8192), 1.25), ((2048, 2048, 2048), 1.0),
           ((1000, 3000, 500), 1.0))


def targets_table(tuning):
    """Step 11's targets against each recorded sweep (bench.py, step 11 beside cuBLAS and step 10):
    the ratio to cuBLAS at each target size, met or not, and whether step 11's normwise error was at
    most step 10's at every size of the sweep."""
    sweeps = []
    for t in tuning:
        with open(t.path, newline="", encoding="utf-8") as f:
            rows = [r for r in csv.DictReader(f) if r.get("gflops")]
        by = {(r["step"], (int(r["m"]), int(r["n"]), int(r["k"]))): r for r in rows}
        if any(("kernel11_tensor_cores", size) in by and ("cublas", size) in by for size, _ in TARGETS):
            device = next(r["device"] for (step, _), r in by.items() if step == "kernel11_tensor_cores")
            sweeps.append((device, os.path.basename(t.path), by))
    if not sweeps:
        return "No recorded sweep has step 11 beside cuBLAS at the targets' sizes.\n"
    out = ["| target | " + " | ".join(f"{device}, `{name}`" for device, name, _ in sweeps) + " |",
           "|---" * (len(sweeps) + 1) + "|"]
    for size, want in TARGETS:
        cells = []
        for _, _, by in sweeps:
            s11, cub = by.get(("kernel11_tensor_cores", size)), by.get(("cublas", size))
            if s11 and cub:
                ratio = float(s11["gflops"]) / float(cub["gflops"])
                # three decimals: 1.246x is not met, and 1.25x would read as if it were
                cells.append(f"{ratio:.3f}x, " + ("met" if ratio >= want else "**not met**")
                             + ("" if s11["status"].startswith("PASS") else f" ({s11['status']})"))
            else:
                cells.append("not measured")
        out.append(f"| at least {want:.2f}x cuBLAS at {' x '.join(map(str, size))} | " + " | ".join(cells) + " |")
    cells = []
    for _, _, by in sweeps:
        pairs = [(size, float(r["normwise_error"]), float(by[("kernel10_async_copy", size)]["normwise_error"]))
                 for (step, size), r in by.items() if step == "kernel11_tensor_cores"
                 and r.get("normwise_error") and by.get(("kernel10_async_copy", size), {}).get("normwise_error")]
        worse = [f"{' x '.join(map(str, size))}: {e11:.3e} against {e10:.3e}" for size, e11, e10 in pairs if e11 > e10]
        cells.append(f"met at {len(pairs)} of {len(pairs)} sizes" if pairs and not worse
                     else f"**not met** at {len(worse)} of {len(pairs)} sizes ({'; '.join(worse)})" if pairs
                     else "not measured")
    out.append("| normwise error at most step 10's, every size of the sweep | " + " | ".join(cells) + " |")
    out.append("\nStep 11's GFLOPS over cuBLAS's, medians of one sweep each: step 11's own sweeps "
               "(lab/tuning/) and the results files that hold step 11 (docs/results/); UNVERIFIED: a size the "
               "sweep timed without its check.")
    return "\n".join(out) + "\n"


def target_parts(tuning):
    """Step 11's time at each target's size in each recorded sweep that has it beside cuBLAS, from
    its kernels' medians: (device, size, target, step 11's ms, its sgemm's, its helpers', cuBLAS's)."""
    out = []
    for t in tuning:
        with open(t.path, newline="", encoding="utf-8") as f:
            by = {(r["step"], (int(r["m"]), int(r["n"]), int(r["k"]))): r
                  for r in csv.DictReader(f) if r.get("gflops")}
        for size, target in TARGETS:
            s11, cub = by.get(("kernel11_tensor_cores", size)), by.get(("cublas", size))
            if not (s11 and cub):
                continue
            parts = dict(p.split(":", 1) for p in s11["parts"].split(";"))
            sgemm = float(parts.pop("sgemm").split("/")[0])
            helpers = sum(float(v.split("/")[0]) for v in parts.values())
            out.append((next(iter(t.device))[1], size, target, float(s11["median_ms"]), sgemm, helpers,
                        float(cub["median_ms"])))
    return out


def target_parts_table(tuning):
    """Where step 11's time goes at the targets' sizes, from the same sweeps: its own kernels'
    medians (the sgemm, and the helpers together), cuBLAS's time, and cuBLAS's time over step 11's
    and over the sgemm's alone (the ratio the step would reach if its helpers cost nothing)."""
    out = ["| device | size | step 11 (ms) | its sgemm (ms) | its helpers (ms) | cuBLAS (ms) "
           "| over step 11 | over the sgemm alone |", "|---" * 8 + "|"]
    for device, size, _, total, sgemm, helpers, c in target_parts(tuning):
        out.append(f"| {device} | {' x '.join(map(str, size))} | {total:.3f} | {sgemm:.3f} "
                   f"| {helpers:.3f} | {c:.3f} | {c / total:.3f}x | {c / sgemm:.3f}x |")
    if len(out) == 2:
        return "No recorded sweep has step 11 beside cuBLAS at the targets' sizes.\n"
    return "\n".join(out) + ("\n\nMedians of each sweep's timed runs; a step's time is its kernels' times added "
                             "(the helpers: transposing and padding A, padding B, adding the slices and "
                             "unpadding C, as each size needs).\n")


# The variants of lab/exp_step11_accuracy.py, as the table heads them
ACCURACY_LABELS = {"step 11, round_lo": "step 11, lo rounded to TF32", "step 11, four": "step 11 and lo·lo",
                   "step 11, both": "step 11, both"}


def accuracy_table(tuning_dir):
    """Step 11's error at short K, part by part (lab/exp_step11_accuracy.py, *-step11-accuracy.csv):
    for each size, the normwise error of step 10, of step 11, and of step 11 with each left-out part of
    the split put back, and the slices of K each run had."""
    def slices(r):
        return dict(kv.split("=", 1) for kv in r["params"].split())["SLICES"]

    out = []
    for path in sorted(glob.glob(os.path.join(tuning_dir, "*-step11-accuracy.csv"))):
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        if not rows or "variant" not in rows[0]:
            raise InputError(f"{path}: not a CSV of lab/exp_step11_accuracy.py")
        variants = list(dict.fromkeys(r["variant"] for r in rows))
        # the runs in the order they ran, one of each variant per size: a size may come twice (as the
        # host plans it, then with no split)
        groups = [rows[i:i + len(variants)] for i in range(0, len(rows), len(variants))]
        for g in groups:
            if [r["variant"] for r in g] != variants or len({r["m"] for r in g}) != 1:
                raise InputError(f"{path}: not one run of each variant per size, in order")
            if any(r["status"] != "PASS" for r in g):
                raise InputError(f"{path}: a run at {g[0]['m']} did not pass its check")
        data = rows[0].get("data") or "grid"
        on = (f"on `--data {data}` (values with all 24 bits of a float)" if data != "grid" else
              "on the data of before December 2026 (multiples of 2^-23: at most 23 significant bits)")
        out.append(f"{rows[0]['device']} (driver {rows[0]['driver']}, {rows[0]['date'][:10]}; "
                   f"`{os.path.basename(path)}`), {on}: normwise error, in brackets the slices of K of the rows "
                   "the host split (1: none split):\n")
        out.append("| M = N = K | " + " | ".join(ACCURACY_LABELS.get(v, v) for v in variants) + " |")
        out.append("|---" * (len(variants) + 1) + "|")
        seen = set()
        for g in groups:
            size = g[0]["m"] + (", no split" if g[0]["m"] in seen else "")
            seen.add(g[0]["m"])
            out.append(f"| {size} | " + " | ".join(f"{float(r['normwise_error']):.3e} ({slices(r)})" for r in g)
                       + " |")
        out.append("")
    return "\n".join(out) if out else "(no run of `lab/exp_step11_accuracy.py` is recorded)\n"


def accuracy_cost_text(tuning_dir):
    """One generated paragraph for step 11's lesson: what the parts of the split step 11 leaves out
    (lo cut to TF32 rather than rounded, and lo*lo) cost on data with every bit of a float, from the
    newest run of lab/exp_step11_accuracy.py on such data, at each size it ran as the host plans
    it: step 11's error, and the error with each part put back."""
    runs = []
    for path in sorted(glob.glob(os.path.join(tuning_dir, "*-step11-accuracy.csv"))):
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        if rows and (rows[0].get("data") or "grid") != "grid":
            runs.append((rows[0]["date"], path, rows))
    if not runs:
        return ("What the left-out parts cost on such data has not been measured yet "
                "(`lab/exp_step11_accuracy.py`, the lab record).\n")
    # the tensor cores' own arithmetic where a run had it (TC=1), else the portable path's model of it
    tensor_cores = [run for run in runs if any("TC=1" in r["params"].split() for r in run[2])]
    _, path, rows = max(tensor_cores or runs)
    how = ("on the tensor cores" if tensor_cores else
           "on the portable path, whose arithmetic models the tensor cores' (lo cut to TF32, sums cut toward zero)")
    by = {}
    for r in rows:  # the first row of each variant and size: as the host plans it (a second 256 runs unsplit)
        by.setdefault((r["variant"], int(r["m"])), r)
    err = lambda v, m: float(by[(v, m)]["normwise_error"])  # noqa: E731
    sizes = sorted(m for _, m in by if all((v, m) in by for v in ("step 10", "step 11", "step 11, round_lo",
                                                                  "step 11, four")))
    parts = []
    for m in sorted({sizes[0], sizes[-1]}) if sizes else []:  # the smallest and the largest (the lab has all)
        parts.append(f"at {m}, {err('step 11', m):.2e} (step 10: {err('step 10', m):.2e}; lo rounded: "
                     f"{err('step 11, round_lo', m):.2e}; with lo·lo: {err('step 11, four', m):.2e})")
    return (f"Measured on {rows[0]['device']}, {how} (`lab/tuning/{os.path.basename(path)}`, {rows[0]['date'][:10]}, "
            f"`--data {rows[0]['data']}`), step 11's normwise error, and in brackets step 10's and step 11's with "
            "each left-out part put back: " + "; ".join(parts) + ".\n")


# The programs whose errors step 11's lesson sets side by side, with their labels
ACCURACY_PROGRAMS = (("kernel10_async_copy", "step 10"), ("kernel11_tensor_cores", "step 11"),
                     ("cublas", "cuBLAS (FP32)"), ("cublas_tf32", "cuBLAS's TF32 mode"))


def lesson_accuracy_table(results):
    """Step 11's normwise error ||got-ref||/||ref|| beside step 10's and cuBLAS's (FP32 and TF32)
    at every verified size of each results file recorded on data with every bit of a float, where
    step 11 ran on the tensor cores (TC=1): one run each, the same data for all."""
    out, old = [], []
    for r in results:
        cols = [(p, label) for p, label in ACCURACY_PROGRAMS if p in r.programs]
        s11 = [x for x in r.rows if x["step"] == "kernel11_tensor_cores" and x["status"] in ("PASS", "FAIL")
               and x.get("normwise_error") and "TC=1" in x["params"].split()]
        if not s11 or len(cols) < 3:
            continue
        if not r.full_precision():
            old.append(f"`{r.stem}.csv` ({md_escape(r.device)})")
            continue
        out.append(f"**{md_escape(r.device)}** (`docs/results/{r.stem}.csv`, {r.dates}, {r.data_text()}):\n")
        out.append("| M x N x K | " + " | ".join(label for _, label in cols) + " |")
        out.append("|---" * (len(cols) + 1) + "|")
        for size in sorted({size_key(x) for x in s11}):
            cells = []
            for p, _ in cols:
                y = r.row(p, size)
                ok = y and y["status"] in ("PASS", "FAIL") and y.get("normwise_error")
                cells.append(f"{float(y['normwise_error']):.2e}{'' if y['status'] == 'PASS' else ' (' + y['status'] + ')'}"
                             if ok else "-")
            out.append(f"| {' x '.join(map(str, size))} | " + " | ".join(cells) + " |")
        out.append("")
    if old:
        out.append("Not shown: " + ", ".join(old) + ", recorded on the data of before December 2026, whose values "
                   "have at most 23 significant bits and hide the error of a rounded input.\n")
    return "\n".join(out) if out else "No results file holds step 11 on the tensor cores beside step 10 and cuBLAS.\n"


def render_table(ctx):
    write(os.path.join(ctx.out, "step11_accuracy.md"), lesson_accuracy_table(ctx.results))
    write(os.path.join(ctx.out, "step11_accuracy_cost.md"), accuracy_cost_text(ctx.tuning_dir))
    write(os.path.join(ctx.out, "step11_gain_tc.md"), gain_table(ctx.results))
    write(os.path.join(ctx.out, "step11_targets.md"),
          targets_table(ctx.tuning + [records.TuningFile(r.path) for r in ctx.results]))
    write(os.path.join(ctx.out, "step11_target_parts.md"), target_parts_table(ctx.tuning))
    write(os.path.join(ctx.out, "step11_sweep.md"), sweep_table(ctx.tuning))
    write(os.path.join(ctx.out, "step11_accuracy_parts.md"), accuracy_table(ctx.tuning_dir))
