"""Step 12's pages: its targets against cuBLAS (step12_targets.md: issue 48's table, rendered from
each GPU's results file, met or not) and its picture of a tile loaded across the edge of A
(step12_edge_tile.svg, .md): which
floats of one TSK-deep tile of A arrive from A and which arrive as zeros, copy by copy, with the
bytes each copy reads (cp.async's source size; the guarded loads of COPY = 0 read the same floats).
The rule is copyRow()'s in kernel12_predication/predication.cl, written out in inside() below;
render() refuses to draw if the kernel's line has changed, so the picture cannot drift from it."""
import csv
import os

from . import drawing
from .common import InputError, fmt_gflops, md_escape, size_short, write
from .results import UNSTEADY

KERNEL = os.path.join("kernel12_predication", "predication.cl")
RULE = "const int inside = row < rows ? min(max(cols - col, 0), WIDTH) : 0;"
TSM, TSK, WIDTH = 8, 8, 4      # a small tile, for the picture: 8 rows of A, 8 deep, copies of 4 floats
ROWS, TILE = 6, 1              # A has 6 rows; the picture shows the block's 2nd tile of K (k = 8 to 15)
CASES = ((12, "K = 12: vectors of 4 floats"), (13, "K = 13: one float per copy (K is no multiple of 4)"))
INSIDE, ZERO = "#c6dbef", "#eeeeee"


def inside(rows, cols, row, col, width):
    """The floats of the copy at (row, col) that lie inside a rows x cols matrix (copyRow())."""
    return min(max(cols - col, 0), width) if row < rows else 0


def copies(rows, cols):
    """[(row, first column, floats, floats inside)] of the tile's copies: WIDTH floats where every
    row of the matrix is a multiple of WIDTH long, else one float each (copyTiles())."""
    width = WIDTH if cols % WIDTH == 0 else 1
    return [(r, c, width, inside(rows, cols, r, c, width))
            for r in range(TSM) for c in range(TILE * TSK, (TILE + 1) * TSK, width)]


def draw(path):
    plt = drawing.pyplot()
    fig = plt.figure(figsize=(drawing.MAX_WIDTH_IN - 0.1, 3.1))
    ax = fig.add_axes([0.01, 0.01, 0.98, 0.86])
    ax.set_axis_off()
    gap = TSK + 6.0
    for p, (cols, title) in enumerate(CASES):
        x0 = p * gap
        for r, c, n, have in copies(ROWS, cols):
            x = x0 + c - TILE * TSK
            for i in range(n):
                ax.add_patch(plt.Rectangle((x + i, -r - 1), 1, 1, facecolor=INSIDE if i < have else ZERO,
                                           edgecolor="#8a8f99", lw=0.4))
                ax.text(x + i + 0.5, -r - 0.5, "A" if i < have else "0", ha="center", va="center", fontsize=10)
            ax.add_patch(plt.Rectangle((x, -r - 1), n, 1, fill=False, edgecolor="#222222", lw=1.0))
        # the edges of A inside the tile: K's (a vertical line) and M's (a horizontal one)
        edge_x = x0 + min(cols - TILE * TSK, TSK)
        ax.plot([edge_x, edge_x], [0.2, -TSM - 0.2], color="#d62728", lw=1.6)
        ax.plot([x0 - 0.2, x0 + TSK + 0.2], [-ROWS, -ROWS], color="#d62728", lw=1.6)
        ax.text(x0, 0.6, title, ha="left", va="bottom", fontsize=10)
        # the bytes each copy reads, in a row inside A and in the first row past its edge
        for r in (0, ROWS):
            read = [4 * have for rr, _, _, have in copies(ROWS, cols) if rr == r]
            ax.text(x0 + TSK + 0.3, -r - 0.5, "+".join(f"{b}" for b in read) + " B", ha="left", va="center",
                    fontsize=10)
    ax.set_xlim(-0.3, gap + TSK + 9.0)
    ax.set_ylim(-TSM - 0.5, 1.6)
    ax.set_aspect("equal")
    drawing.save(fig, path)


# The targets of issue 48, step 12 over cuBLAS's SGEMM (FP32), medians: (size, must, stretch)
SQUARE = lambda n: (n, n, n)  # noqa: E731
TARGETS = ([(SQUARE(256), 0.8, 1.0)]
           + [(size, 1.0, 1.2) for size in (SQUARE(512), SQUARE(1024), SQUARE(2048), (1000, 3000, 500), SQUARE(4095),
                                            SQUARE(4097), (3000, 1000, 5000))]
           + [(SQUARE(4096), 1.3, 1.5), (SQUARE(8192), 1.3, 1.5)])


def targets_table(results):
    """For every results file with step 12 and cuBLAS: step 12 over cuBLAS at each size of TARGETS,
    against its targets, and step 12's normwise error over step 10's where both were verified."""
    out = []
    for r in results:
        rows, unsteady = [], []
        for size, must, stretch in TARGETS:
            (g12, ok12), (gcu, _) = r.measured("kernel12_predication", size), r.measured("cublas", size)
            if not (g12 and gcu):
                rows.append(f"| {' x '.join(map(str, size))} | {must:.1f}x | {stretch:.1f}x | - | not in this file | - |")
                continue
            ratio = g12 / gcu
            verdict = "stretch met" if ratio >= stretch else "met" if ratio >= must else "**missed**"
            e12, e10 = r.row("kernel12_predication", size), r.row("kernel10_async_copy", size)
            errors = "-"
            if ok12 and e10 and e10["status"] == "PASS" and e12.get("normwise_error") and e10.get("normwise_error"):
                errors = f"{float(e12['normwise_error']) / float(e10['normwise_error']):.2f}"
            shaky = [(p, r.unsteady(p, size)) for p in ("kernel12_predication", "cublas") if r.unsteady(p, size) is not None]
            if shaky:  # the verdict stays the medians'; the note gives the spread and the best runs' ratio
                best = float(r.row("kernel12_predication", size)["gflops_best"]) / float(r.row("cublas", size)["gflops_best"])
                unsteady.append((", ".join(f"`{p}` {x * 100:+.0f} %" for p, x in shaky) + f" at {size_short(size)}",
                                 f"{best:.2f}x at {size_short(size)}"))
            rows.append(f"| {' x '.join(map(str, size))} | {must:.1f}x | {stretch:.1f}x | {ratio:.2f}x{' (~)' if shaky else ''} "
                        f"| {verdict} | {errors} |")
        if all("not in this file" in x for x in rows):
            continue
        out.append(f"<div class=\"para\">`{md_escape(r.stem)}`: {r.where()}; errors on {r.data_text()}.</div>\n")
        out.append("| M x N x K | must | stretch | step 12 / cuBLAS | | error, step 12 / step 10 |")
        out.append("|---|---:|---:|---:|---|---:|")
        out += rows
        out.append("")
        if unsteady:
            out.append(f"(~): unsteady, a best run more than {UNSTEADY * 100:.0f} % faster than its median "
                       f"({'; '.join(u[0] for u in unsteady)}); best over best: {', '.join(u[1] for u in unsteady)}.\n")
    if not out:
        return "<div class=\"para\">No results file holds step 12 beside cuBLAS yet.</div>\n"
    return "\n".join(out) + "\n"


DRAFT = "nvidia-h100-step12-draft.csv"   # the draft's sweep on the H100
POCL = "pocl-cpu-step12.csv"              # step 12 beside step 11 on PoCL, before the pairs
POCL_PAIRS = "pocl-cpu-step12-pairs.csv"  # the same after them


def draft_table(tuning_dir, name=DRAFT):
    """A bench.py sweep of lab/tuning/ (`name`, one run): at each size, step 12 over cuBLAS (where it
    ran) and over step 11, medians, with the kernels' parts of step 11 (its helpers)."""
    path = os.path.join(tuning_dir, name)
    if not os.path.isfile(path):  # a tuning directory of another site (a test's, a reader's)
        return f"<div class=\"para\">No `{name}` in this site's tuning records.</div>\n"
    with open(path, newline="", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r.get("gflops") and r["status"] in ("PASS", "UNVERIFIED")]
    by = {(r["step"], (int(r["m"]), int(r["n"]), int(r["k"]))): r for r in rows}
    sizes = sorted({size for step, size in by if step == "kernel12_predication"}, key=lambda s: (s[0] * s[1] * s[2], s))
    out = ["| M x N x K | step 12, GFLOPS | over cuBLAS | over step 11 | step 11's launches |", "|---|---:|---:|---:|---|"]
    for size in sizes:
        g12 = float(by[("kernel12_predication", size)]["gflops"])
        ratio = lambda step: (f"{g12 / float(by[(step, size)]['gflops']):.2f}" if (step, size) in by else "-")  # noqa: E731
        s11 = by.get(("kernel11_tensor_cores", size))
        launches = ", ".join(p.split(":")[0] for p in s11["parts"].split(";")) if s11 else "-"
        out.append(f"| {' x '.join(map(str, size))} | {fmt_gflops(g12)} | {ratio('cublas')} | {ratio('kernel11_tensor_cores')} "
                   f"| {md_escape(launches)} |")
    return "\n".join(out) + "\n"


BEFORE_SPLIT_CODE = "nvidia-h100-results-a2db673.csv"  # the H100's results file before HAS_SPLIT_ROWS
SPLIT_KEYS = ("SLICES", "SPLIT_ROWS", "HAS_SPLIT_ROWS")


def sweep_rows(path):
    """{size: {step: row}} of a bench.py sweep's measured rows."""
    with open(path, newline="", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r.get("gflops") and r["status"] in ("PASS", "UNVERIFIED")]
    out = {}
    for r in rows:
        out.setdefault((int(r["m"]), int(r["n"]), int(r["k"])), {})[r["step"]] = r
    return out


def split_text(row):
    """The split a step 12 row reports, and whether its kernel held the split's code: rows before
    HAS_SPLIT_ROWS existed always did."""
    p = dict(kv.split("=") for kv in row["params"].split())
    return f"{p['SLICES']}, {p['SPLIT_ROWS']}, {p.get('HAS_SPLIT_ROWS', '1')}"


def split_code_sweeps_table(results_dir, tuning_dir, name=BEFORE_SPLIT_CODE, label="nvidia-h100"):
    """Step 12 over cuBLAS in the sweep before HAS_SPLIT_ROWS (lab/tuning/`name`) and in the results
    file `label`, medians, at every size where step 12's split or its build differ between the two,
    and step 12's GFLOPS in the second over the first."""
    before_path, after_path = os.path.join(tuning_dir, name), os.path.join(results_dir, f"{label}.csv")
    if not (os.path.isfile(before_path) and os.path.isfile(after_path)):
        return f"<div class=\"para\">No `{name}` in this site's tuning records, or no `{label}.csv`.</div>\n"
    before, after = sweep_rows(before_path), sweep_rows(after_path)
    out = ["| M x N x K | before: SLICES, SPLIT_ROWS, split's code | over cuBLAS | now: the same | over cuBLAS "
           "| step 12, now over before |", "|---|---|---:|---|---:|---:|"]
    for size in sorted(set(before) & set(after), key=lambda s: (s[0] * s[1] * s[2], s)):
        b, a = before[size], after[size]
        if not all("kernel12_predication" in x and "cublas" in x for x in (b, a)):
            continue
        sb, sa = split_text(b["kernel12_predication"]), split_text(a["kernel12_predication"])
        if sb == sa:
            continue
        rate = lambda x, step="kernel12_predication": float(x[step]["gflops"])  # noqa: E731
        out.append(f"| {' x '.join(map(str, size))} | {sb} | {rate(b) / rate(b, 'cublas'):.2f} | {sa} "
                   f"| {rate(a) / rate(a, 'cublas'):.2f} | {rate(a) / rate(b):.3f} |")
    return "\n".join(out) + "\n"


def render(ctx):
    write(os.path.join(ctx.out, "step12_targets.md"), targets_table(ctx.results))
    write(os.path.join(ctx.out, "lab12_live_sweeps.md"), split_code_sweeps_table(ctx.results_dir, ctx.tuning_dir))
    write(os.path.join(ctx.out, "lab12_draft.md"), draft_table(ctx.tuning_dir))
    write(os.path.join(ctx.out, "lab12_pocl.md"), draft_table(ctx.tuning_dir, POCL))
    write(os.path.join(ctx.out, "lab12_pocl_pairs.md"), draft_table(ctx.tuning_dir, POCL_PAIRS))
    with open(os.path.join(ctx.source, KERNEL), encoding="utf-8") as f:
        if RULE not in f.read():
            raise InputError(f"{KERNEL} no longer holds copyRow()'s rule `{RULE}`: update docs/sitegen/predication.py")
    draw(os.path.join(ctx.out, "step12_edge_tile.svg"))
    write(os.path.join(ctx.out, "step12_edge_tile.md"),
          f'\\image html step12_edge_tile.svg "A tile of A ({TSM} x {TSK}, the second along K) past the edges '
          f'of A (red): blue floats come from A, grey ones arrive as zeros. A black box is one copy; at the right, '
          f'the bytes each copy reads in row 1 and in row {ROWS + 1}, the first past A"\n')
