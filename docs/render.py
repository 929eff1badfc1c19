#!/usr/bin/env python3
"""Generates everything the documentation site shows that comes from the code or from measured
data, so that no page can drift from either. Run by the `docs` build target (docs/CMakeLists.txt)
before Doxygen; writes only into --out.

From the source tree:
  - the steps: every kernelNN_*/ directory with a gemm_add_step(<name> KERNEL <file>) line;
    the idea each adds is the summary string of its main.c;
  - stepNN_kernel_diff.html, stepNN_host_diff.html (and .diff): `diff -u` of each step's kernel
    file and main.c against the previous step's, coloured for \\htmlinclude;
  - path.md: the path from the first step to the last, with links to the pages that exist.

From the recorded results (docs/results/*.csv, each the harness's --csv output of one device's
run, see docs/results/README.md):
  - results_summary.md: GFLOPS of every step and peer on every recorded device, with the gain
    of each step over the previous one, and the table of devices (device, driver, date);
  - results_details.md: per device, every row at the headline size, and for a file that sweeps
    several sizes the GFLOPS of every program at every size;
  - stepNN_gain.md: sentences for step NN's page: its GFLOPS and gain on each recorded device;
  - SVG plots drawn by gnuplot: results_all.svg (all devices, log scale), results_<file>.svg
    (one device, linear scale), sweep_<file>.svg (GFLOPS vs size, for a sweep file).

Exit status: 0, or 2 with one line "render.py: error: ..." when an input is malformed (a CSV
without the harness's columns, a file that mixes devices) and 3 when gnuplot or diff fails.
"""
import argparse
import csv
import glob
import html
import os
import re
import subprocess
import sys

# The columns of the harness's CSV (gemm_report.h) that the pages use
NEEDED = ["step", "platform", "device", "driver", "m", "n", "k", "alpha", "beta", "params", "warmup",
          "repeat", "median_ms", "best_ms", "gflops", "gflops_best", "max_err_over_bound", "status", "date"]

# What the peers are, for the tables (a peer not listed here is shown by its name)
PEER_SUMMARY = {
    "cpu_blas": "the CPU BLAS's cblas_sgemm on the host CPU",
    "clblast": "CLBlast's tuned OpenCL SGEMM on the same device",
    "cublas": "NVIDIA's cuBLAS SGEMM through CUDA on the same GPU",
}

STEP_RE = re.compile(r"^kernel(\d\d)_\w+$")


class InputError(Exception):
    """A malformed input: reported as one line, exit 2."""


class ToolError(Exception):
    """diff or gnuplot failed: exit 3."""


# --- The steps, from the source tree ---------------------------------------------------------------

class Step:
    def __init__(self, number, name, directory, kernel, summary):
        self.number = number        # 1, 2, ...
        self.name = name            # kernel02_tiled
        self.directory = directory  # relative to the source root
        self.kernel = kernel        # kernel file, relative to the source root
        self.summary = summary      # the idea it adds (main.c)
        self.page = f"step{number:02d}"


def discover_steps(root):
    steps = []
    for directory in sorted(glob.glob(os.path.join(root, "kernel[0-9][0-9]_*"))):
        name = os.path.basename(directory)
        if not STEP_RE.match(name) or not os.path.isfile(os.path.join(directory, "CMakeLists.txt")):
            continue
        with open(os.path.join(directory, "CMakeLists.txt"), encoding="utf-8") as f:
            m = re.search(r"gemm_add_step\(\s*(\w+)\s+KERNEL\s+(\S+)", f.read())
        if not m:
            continue
        if m.group(1) != name:
            raise InputError(f"{name}/CMakeLists.txt adds a step named {m.group(1)}, not {name}")
        summary = ""
        main_c = os.path.join(directory, "main.c")
        if os.path.isfile(main_c):
            with open(main_c, encoding="utf-8") as f:
                s = re.search(r'GEMM_STEP_MAIN\(\s*((?:"(?:[^"\\]|\\.)*"\s*)+)', f.read())
            if s:  # one string literal, or several that C concatenates
                summary = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', s.group(1)))
        steps.append(Step(int(STEP_RE.match(name).group(1)), name, name, f"{name}/{m.group(2)}", summary))
    if not steps:
        raise InputError(f"no step directories (kernelNN_*/ with gemm_add_step) under {root}")
    return steps


def unified_diff(root, old, new):
    """`diff -u` of two files of the source tree, labelled with their paths in the repository."""
    proc = subprocess.run(["diff", "-u", "--label", old, "--label", new,
                           os.path.join(root, old), os.path.join(root, new)],
                          capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        raise ToolError(f"diff -u {old} {new} failed: {proc.stderr.strip()}")
    return proc.stdout


def diff_html(diff_text):
    """A unified diff as a <pre class="diff"> block, one coloured span per line (docs/extra.css)."""
    if not diff_text:
        return '<pre class="diff"><span class="hdr">(the two files are identical)</span></pre>\n'
    out = ['<pre class="diff">']
    for line in diff_text.splitlines():
        if line.startswith("---") or line.startswith("+++"):
            cls = "hdr"
        elif line.startswith("@@"):
            cls = "hunk"
        elif line.startswith("+"):
            cls = "add"
        elif line.startswith("-"):
            cls = "del"
        else:
            cls = "ctx"
        out.append(f'<span class="{cls}">{html.escape(line) or " "}</span>')
    return "".join(out) + "</pre>\n"


# --- The results, from docs/results/*.csv --------------------------------------------------------------

def is_step(program):
    return STEP_RE.match(program) is not None


def size_key(row):
    return (int(row["m"]), int(row["n"]), int(row["k"]))


def size_text(size):
    m, n, k = size
    return f"M=N=K={m}" if m == n == k else f"M={m} N={n} K={k}"


def fmt_gflops(x):
    if x >= 100:
        return f"{x:.0f}"
    if x >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


def fmt_ratio(x):
    return f"{x:.2f}x"


def md_escape(text):
    """Text for a Markdown table cell that Doxygen must not interpret."""
    text = text.replace("|", "/").replace("`", "'")
    return re.sub(r"([\\@<>&#$%])", r"\\\1", text)


class ResultsFile:
    """One results file: one device's run of the steps and peers, at one or several sizes."""

    def __init__(self, path):
        self.path = path
        self.stem = os.path.splitext(os.path.basename(path))[0]
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", self.stem):
            raise InputError(f"{path}: a results file name may hold only letters, digits, '.', '_' and '-'")
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            missing = [c for c in NEEDED if c not in (reader.fieldnames or [])]
            if missing:
                raise InputError(f"{path}: not the harness's CSV format (missing columns: {', '.join(missing)})")
            rows = [r for r in reader if r["step"] != "step"]  # a repeated header line is allowed
        if not rows:
            raise InputError(f"{path}: no results")
        for i, r in enumerate(rows):
            try:
                for c in ("m", "n", "k", "warmup", "repeat"):
                    int(r[c])
                for c in ("median_ms", "best_ms", "gflops", "gflops_best"):
                    float(r[c])
            except (TypeError, ValueError):
                raise InputError(f"{path}: row {i + 2} has a malformed number") from None
            for c in r:
                if isinstance(r[c], str):
                    r[c] = r[c].strip()
        step_rows = [r for r in rows if is_step(r["step"])]
        if not step_rows:
            raise InputError(f"{path}: no row of a step (kernelNN_*): a results file is one device's run of the steps")
        devices = {(r["platform"], r["device"], r["driver"]) for r in step_rows}
        if len(devices) != 1:
            raise InputError(f"{path}: the steps ran on {len(devices)} different devices or drivers; "
                             "a results file is one device's run")
        self.platform, self.device, self.driver = devices.pop()
        self.rows = rows
        dates = sorted(r["date"][:10] for r in rows)
        self.dates = dates[0] if dates[0] == dates[-1] else f"{dates[0]} to {dates[-1]}"
        self.programs = []  # the steps in order, then the peers in the order of the file
        for r in sorted(rows, key=lambda r: (not is_step(r["step"]), r["step"] if is_step(r["step"]) else "")):
            if r["step"] not in self.programs:
                self.programs.append(r["step"])
        # The best passing row of each program at each size (several rows: several parameter settings)
        self.best = {}
        self.count = {}
        for r in rows:
            key = (r["step"], size_key(r))
            self.count[key] = self.count.get(key, 0) + 1
            if r["status"] != "PASS":
                self.best.setdefault(key, r)
                continue
            old = self.best.get(key)
            if old is None or old["status"] != "PASS" or float(r["gflops"]) > float(old["gflops"]):
                self.best[key] = r
        # The headline size: of the sizes some step ran at, the one most programs ran at (ties: the largest)
        sizes = {}
        for (program, size) in self.best:
            sizes.setdefault(size, set()).add(program)
        self.sizes = sorted(sizes, key=lambda s: s[0] * s[1] * s[2])
        self.headline = max((s for s in self.sizes if any(is_step(p) for p in sizes[s])),
                            key=lambda s: (len(sizes[s]), s[0] * s[1] * s[2]))
        head = [r for r in step_rows if size_key(r) == self.headline]
        self.alpha, self.beta = head[0]["alpha"], head[0]["beta"]

    def row(self, program, size=None):
        return self.best.get((program, size or self.headline))

    def gflops(self, program, size=None):
        """GFLOPS of a passing run, else None."""
        r = self.row(program, size)
        return float(r["gflops"]) if r and r["status"] == "PASS" else None

    def label(self):
        return f"{self.device} ({self.platform}, driver {self.driver})"


def load_results(directory):
    files = [ResultsFile(p) for p in sorted(glob.glob(os.path.join(directory, "*.csv")))]
    return files


def previous_step(steps, step):
    i = steps.index(step)
    return steps[i - 1] if i > 0 else None


# --- Snippets (Markdown for \includedoc) ------------------------------------------------------------------

def path_snippet(steps, results, docs_dir):
    lines = ["| step | the idea it adds | page |" + "".join(f" {r.stem}: GFLOPS | vs previous |" for r in results),
             "|---|---|---|" + "---:|---:|" * len(results)]
    for s in steps:
        page = (f"\\subpage {s.page} \"step {s.number}\"" if os.path.isfile(os.path.join(docs_dir, s.page + ".md"))
                else "(to come)")
        cells = [f"{s.number}: `{s.name}`", md_escape(s.summary) or "-", page]
        prev = previous_step(steps, s)
        for r in results:
            g = r.gflops(s.name)
            row = r.row(s.name)
            if g is None:
                cells += [row["status"] if row else "-", "-"]
                continue
            p = r.gflops(prev.name) if prev else None
            cells += [fmt_gflops(g), fmt_ratio(g / p) if p else "-"]
        lines.append("| " + " | ".join(cells) + " |")
    peers = []
    for r in results:
        for p in r.programs:
            if not is_step(p) and p not in peers:
                peers.append(p)
    for p in peers:
        cells = [f"peer: `{p}`", md_escape(PEER_SUMMARY.get(p, p)), "-"]
        for r in results:
            g = r.gflops(p)
            cells += [fmt_gflops(g) if g is not None else "-", "-"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def devices_snippet(results):
    if not results:
        return "No results are recorded yet: docs/results/README.md says how to record them.\n"
    lines = ["| results file | device | platform | driver | headline problem | sizes run | date (UTC) |",
             "|---|---|---|---|---|---|---|"]
    for r in results:
        sizes = ", ".join(f"{s[0]}" if s[0] == s[1] == s[2] else f"{s[0]}x{s[1]}x{s[2]}" for s in r.sizes)
        lines.append(f"| `docs/results/{r.stem}.csv` | {md_escape(r.device)} | {md_escape(r.platform)} | "
                     f"{md_escape(r.driver)} | {size_text(r.headline)}, alpha={r.alpha}, beta={r.beta} | "
                     f"{sizes} | {r.dates} |")
    peers_elsewhere = []
    for r in results:
        for p in r.programs:
            row = r.row(p)
            if not is_step(p) and row and row["device"] != r.device:
                peers_elsewhere.append(f"`{p}` in `{r.stem}` ran on {md_escape(row['device'])} "
                                       f"({md_escape(row['platform'])}, {md_escape(row['driver'])})")
    text = "\n".join(lines) + "\n"
    if peers_elsewhere:
        text += "\nNot on the device of its file: " + "; ".join(peers_elsewhere) + ".\n"
    return text


def details_snippet(results):
    out = []
    for r in results:
        # (\\section inside an \\includedoc'd file silently drops the rest: HTML headings do not)
        out.append(f"<h2>{html.escape(r.stem)}: {html.escape(r.device)}</h2>\n")
        out.append(f"{md_escape(r.label())}; recorded {r.dates}; file `docs/results/{r.stem}.csv`. "
                   f"All runs at the headline size, {size_text(r.headline)}, alpha={r.alpha}, beta={r.beta} "
                   "(time: median of the timed runs, and the best):\n")
        out.append("| program | parameters | runs (warm-up + timed) | median ms | best ms | GFLOPS | best GFLOPS "
                   "| worst error / bound | result |")
        out.append("|---|---|---|---:|---:|---:|---:|---:|---|")
        for p in r.programs:
            row = r.row(p)
            if not row:
                continue
            n = r.count[(p, r.headline)]
            params = md_escape(row["params"]) or "-"
            if n > 1:
                params += f" (fastest of {n} rows)"
            err = row["max_err_over_bound"] or "-"
            try:
                err = f"{float(err):.3g}"
            except ValueError:
                pass
            out.append(f"| `{p}` | {params} | {row['warmup']} + {row['repeat']} | {float(row['median_ms']):.4g} | "
                       f"{float(row['best_ms']):.4g} | {fmt_gflops(float(row['gflops']))} | "
                       f"{fmt_gflops(float(row['gflops_best']))} | {err} | {row['status']} |")
        out.append(f"\n\\image html results_{r.stem}.svg \"GFLOPS of each step and peer on {md_escape(r.stem)}, "
                   f"{size_text(r.headline)}\"\n")
        if len(r.sizes) > 1:
            out.append("GFLOPS at every size the file holds (median time):\n")
            out.append("| program | " + " | ".join(size_text(s) for s in r.sizes) + " |")
            out.append("|---|" + "---:|" * len(r.sizes))
            for p in r.programs:
                cells = []
                for s in r.sizes:
                    g = r.gflops(p, s)
                    row = r.row(p, s)
                    cells.append(fmt_gflops(g) if g is not None else (row["status"] if row else "-"))
                out.append(f"| `{p}` | " + " | ".join(cells) + " |")
            out.append(f"\n\\image html sweep_{r.stem}.svg \"GFLOPS against the problem size on "
                       f"{md_escape(r.stem)}\"\n")
    if not out:
        out.append("No results are recorded yet: docs/results/README.md says how to record them.\n")
    return "\n".join(out) + "\n"


def gain_snippet(steps, step, results):
    """Sentences for a step's page: what it measured on each recorded device."""
    prev = previous_step(steps, step)
    first = steps[0]
    out = []
    for r in results:
        row = r.row(step.name)
        where = (f"**{md_escape(r.stem)}**: {md_escape(r.device)} ({md_escape(r.platform)}, driver "
                 f"{md_escape(r.driver)}), {r.dates}, {size_text(r.headline)}")
        if row is None:
            out.append(f"- {where}: not in this results file.")
            continue
        params = f", {md_escape(row['params'])}" if row["params"] else ""
        g = r.gflops(step.name)
        if g is None:
            out.append(f"- {where}{params}: {row['status']} (see the results page).")
            continue
        text = f"- {where}{params}: **{fmt_gflops(g)} GFLOPS**"
        if prev:
            p = r.gflops(prev.name)
            text += (f", **{fmt_ratio(g / p)}** step {prev.number}'s {fmt_gflops(p)} GFLOPS" if p
                     else f" (step {prev.number} has no passing run in this file)")
        if step is not first and prev is not first:
            f1 = r.gflops(first.name)
            if f1:
                text += f", {fmt_ratio(g / f1)} step {first.number}'s"
        peers = [(p, r.gflops(p)) for p in r.programs if not is_step(p) and r.gflops(p)]
        if peers:
            text += "; " + ", ".join(f"{100 * g / pg:.3g}% of `{p}`" for p, pg in peers)
        out.append(text + ".")
    if not results:
        out.append("- No results are recorded yet: docs/results/README.md says how to record them.")
    return "\n".join(out) + "\n"


# --- Plots (gnuplot, SVG) --------------------------------------------------------------------------

SVG_TERMINAL = 'set terminal svg size {w},{h} dynamic font "Helvetica,13" background "#ffffff"'


def gp_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def run_gnuplot(gnuplot, script_path, out_dir):
    proc = subprocess.run([gnuplot, os.path.basename(script_path)], cwd=out_dir, capture_output=True, text=True)
    if proc.returncode != 0 or proc.stderr.strip():
        raise ToolError(f"gnuplot {script_path} failed: {proc.stderr.strip()}")


def short_name(program):
    m = STEP_RE.match(program)
    return f"{int(m.group(1))} {program.split('_', 1)[1]}" if m else program


def plot_device(r, out_dir, gnuplot):
    """Bars: GFLOPS of each program at the headline size on one device (linear scale)."""
    data = []
    for i, p in enumerate(r.programs):
        g = r.gflops(p)
        if g is not None:
            data.append(f"{len(data)}\t{g}\t{gp_string(short_name(p))}\t{0 if is_step(p) else 1}\t"
                        f"{gp_string(fmt_gflops(g))}")
    write(os.path.join(out_dir, f"results_{r.stem}.dat"), "\n".join(data) + "\n")
    script = f"""{SVG_TERMINAL.format(w=760, h=400)}
set output "results_{r.stem}.svg"
set title {gp_string(f"{r.device} ({r.platform}, driver {r.driver}), {r.dates}")} noenhanced font ",12"
set ylabel "GFLOPS (median)"
set xlabel {gp_string(size_text(r.headline) + "; blue: steps, orange: peers")} noenhanced
set style fill solid 0.85 border -1
set boxwidth 0.65
set grid ytics lc rgb "#dddddd"
set yrange [0:*]
set xrange [-0.6:{len(data) - 0.4}]
set offsets 0, 0, graph 0.12, 0
set xtics noenhanced rotate by -25
set key off
plot "results_{r.stem}.dat" using 1:2:($4 == 0 ? 0x3b6ea5 : 0xe8862a):xtic(3) with boxes lc rgb variable, \\
     "" using 1:2:5 with labels offset 0,0.8 font ",11"
"""
    path = os.path.join(out_dir, f"results_{r.stem}.gp")
    write(path, script)
    run_gnuplot(gnuplot, path, out_dir)


def plot_all(results, out_dir, gnuplot):
    """All devices on one plot, log scale: one line of points per device across steps and peers."""
    programs = []
    for r in results:
        for p in r.programs:
            if p not in programs:
                programs.append(p)
    programs.sort(key=lambda p: (not is_step(p), p if is_step(p) else ""))
    rows = []
    for i, p in enumerate(programs):
        cells = [str(i)]
        for r in results:
            g = r.gflops(p)
            cells.append(repr(g) if g is not None else "NaN")
        rows.append("\t".join(cells))
    write(os.path.join(out_dir, "results_all.dat"), "\n".join(rows) + "\n")
    nsteps = sum(1 for p in programs if is_step(p))
    plots = []
    for j, r in enumerate(results):
        col = 2 + j
        title = f"{r.stem}: {r.device}, {size_text(r.headline)}"
        plots.append(f'"results_all.dat" using 1:{col} every ::0::{nsteps - 1} with linespoints '
                     f'lw 2 pt 7 ps 1.2 lc {j + 1} title {gp_string(title)}')
        if nsteps < len(programs):
            plots.append(f'"results_all.dat" using 1:{col} every ::{nsteps} with points pt 5 ps 1.4 '
                         f'lc {j + 1} notitle')
    xtics = ", ".join(f"{gp_string(short_name(p))} {i}" for i, p in enumerate(programs))
    separator = (f"set arrow from {nsteps - 0.5}, graph 0 to {nsteps - 0.5}, graph 1 nohead dt 2 lc rgb '#888888'"
                 if nsteps < len(programs) else "")
    script = f"""{SVG_TERMINAL.format(w=760, h=440 + 18 * len(results))}
set output "results_all.svg"
set title "GFLOPS of each step (lines) and peer (squares, right of the dashed line) on every recorded device"\
 font ",12"
set ylabel "GFLOPS (median, log scale)"
set logscale y
set format y "%g"
set grid ytics mytics lc rgb "#dddddd"
set xtics ({xtics}) noenhanced rotate by -25
set offsets 0.4, 0.4, 0, 0
set datafile missing "NaN"
set key noenhanced below left Left reverse font ",11"
{separator}
plot {", ".join(plots)}
"""
    path = os.path.join(out_dir, "results_all.gp")
    write(path, script)
    run_gnuplot(gnuplot, path, out_dir)


def plot_sweep(r, out_dir, gnuplot):
    """GFLOPS against the problem size, one line per program (log scale)."""
    square = all(s[0] == s[1] == s[2] for s in r.sizes)
    rows = []
    for i, s in enumerate(r.sizes):
        label = str(s[0]) if square else f"{s[0]}x{s[1]}x{s[2]}"
        cells = [str(i), gp_string(label)]
        for p in r.programs:
            g = r.gflops(p, s)
            cells.append(repr(g) if g is not None else "NaN")
        rows.append("\t".join(cells))
    write(os.path.join(out_dir, f"sweep_{r.stem}.dat"), "\n".join(rows) + "\n")
    plots = []
    for j, p in enumerate(r.programs):
        style = "lw 2 pt 7" if is_step(p) else "lw 2 dt 2 pt 5"
        plots.append(f'"sweep_{r.stem}.dat" using 1:{3 + j}:xtic(2) with linespoints {style} '
                     f'title {gp_string(short_name(p))}')
    script = f"""{SVG_TERMINAL.format(w=760, h=420)}
set output "sweep_{r.stem}.svg"
set title {gp_string(f"{r.device}, {r.dates}")} noenhanced font ",12"
set xlabel {gp_string("M = N = K" if square else "M x N x K")}
set ylabel "GFLOPS (median, log scale)"
set logscale y
set grid ytics mytics lc rgb "#dddddd"
set offsets 0.2, 0.2, 0, 0
set key noenhanced outside right font ",11"
set datafile missing NaN
plot {", ".join(plots)}
"""
    path = os.path.join(out_dir, f"sweep_{r.stem}.gp")
    write(path, script)
    run_gnuplot(gnuplot, path, out_dir)


def check_html(gen_dir, html_dir):
    """Doxygen copies an image into its output only when a page that it rendered shows it, and it
    drops some content without a warning (e.g. a section command inside an \\includedoc'd file):
    a generated plot missing from the output means a snippet that did not make it to its page."""
    missing = [os.path.basename(p) for p in sorted(glob.glob(os.path.join(gen_dir, "*.svg")))
               if not os.path.isfile(os.path.join(html_dir, os.path.basename(p)))]
    if missing:
        sys.stderr.write(f"render.py: error: plots generated but shown on no page: {', '.join(missing)}\n")
        return 1
    return 0


# --- Main --------------------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--source", required=True, help="the repository root")
    ap.add_argument("--results", required=True, help="directory of results CSV files")
    ap.add_argument("--out", required=True, help="output directory (created)")
    ap.add_argument("--gnuplot", default="gnuplot", help="the gnuplot program")
    ap.add_argument("--check-html", metavar="DIR",
                    help="instead: check that Doxygen's output DIR shows every plot generated in --out")
    args = ap.parse_args()
    if args.check_html:
        return check_html(args.out, args.check_html)
    try:
        os.makedirs(args.out, exist_ok=True)
        steps = discover_steps(args.source)
        results = load_results(args.results)
        docs_dir = os.path.join(args.source, "docs")
        for s in steps:
            prev = previous_step(steps, s)
            if prev:
                for what, old, new in (("kernel", prev.kernel, s.kernel),
                                       ("host", f"{prev.directory}/main.c", f"{s.directory}/main.c")):
                    d = unified_diff(args.source, old, new)
                    write(os.path.join(args.out, f"{s.page}_{what}.diff"), d)
                    write(os.path.join(args.out, f"{s.page}_{what}_diff.html"), diff_html(d))
            write(os.path.join(args.out, f"{s.page}_gain.md"), gain_snippet(steps, s, results))
        write(os.path.join(args.out, "path.md"), path_snippet(steps, results, docs_dir))
        write(os.path.join(args.out, "results_summary.md"), devices_snippet(results))
        write(os.path.join(args.out, "results_details.md"), details_snippet(results))
        plots = []
        if results:
            plot_all(results, args.out, args.gnuplot)
            plots.append('\\image html results_all.svg "GFLOPS of every step and peer on every recorded device '
                         '(log scale)"')
            for r in results:
                plot_device(r, args.out, args.gnuplot)
                if len(r.sizes) > 1:
                    plot_sweep(r, args.out, args.gnuplot)
        write(os.path.join(args.out, "results_plot.md"), "\n".join(plots) + "\n")
    except InputError as e:
        sys.stderr.write(f"render.py: error: {e}\n")
        return 2
    except (ToolError, OSError) as e:
        sys.stderr.write(f"render.py: error: {e}\n")
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
