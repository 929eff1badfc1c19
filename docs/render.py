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

From the recorded results (docs/results/NAME.csv: one device's run, either the harness's --csv
lines or a bench/bench.py sweep, whose rows REFUSED, SKIPPED, TIMEOUT and ERROR have no numbers and the
reason in `parts`; with NAME.peak.csv beside it when bench/peak measured the device):
  - results_summary.md: the table of devices (device, driver, date, headline size and how it was
    chosen, measured peaks);
  - results_headline.md: per device, every program at the headline size: GFLOPS, gain over the
    previous step and over step 1, % of the measured FMA peak (programs on the measured hardware:
    cpu_blas too where the device is the host CPU; of a library's rate where that was faster than
    the peak's kernels, and then said so), ratios to cuBLAS and CLBlast;
  - results_details.md: per device, every row at the headline size, and for a sweep the GFLOPS of
    every program at every size (UNVERIFIED in italics, a status where there is no measurement);
  - stepNN_gain.md: sentences for step NN's page: its GFLOPS and gains on each recorded device;
  - stepNN_arith.md: the arithmetic of step NN and the one before, for each device's parameters;
  - odd_sizes.md, padding_waves.md: the rates one below and one above a square size, and step 6's
    padded sizes, work-groups and time per kernel there;
  - SVG plots drawn by gnuplot: results_all.svg (all devices, log scale), results_NAME.svg (bars
    at the headline size), sweep_NAME.svg (GFLOPS against the size, log-log, for a sweep).

From the tuning records (bench/tuning/, or --tuning): bench/tune.py CSVs, the compiler reports
NAME-ptxas.txt (registers, local memory, spills per kernel, for results file NAME) and the logs:
  - stepNN_ptxas.md; tuning_step04.md, tuning_step05.md, tuning_step06.md (the fastest combination
    of each kind); step04_vs_step03.md; transpose_tile.md (TRANSPOSE_TILE and TRANSPOSE_PAD);
    wgsize.md (combinations refused for CL_KERNEL_WORK_GROUP_SIZE, measured later).

Exit status: 0, or 2 with one line "render.py: error: ..." when an input is malformed (a CSV
without the harness's columns, a file that mixes devices, a malformed number, an unknown status,
peaks of another device) and 3 when gnuplot or diff fails.
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

# Statuses of the harness's CSV (gemm_report.h) and of the sweep (bench/bench.py). A row that ran
# has its numbers; a row that did not run has empty numbers and the reason in `parts`.
RAN = ("PASS", "FAIL", "UNVERIFIED")
NOT_RUN = ("REFUSED", "SKIPPED", "TIMEOUT", "ERROR")
NUMERIC = ("alpha", "beta", "warmup", "repeat", "median_ms", "best_ms", "gflops", "gflops_best")

# The columns of bench/peak's CSV that the pages use
PEAK_NEEDED = ["platform", "device", "driver", "fma_gflops", "fma_vector", "copy_gbps", "copy_mib", "date"]
PEAK_SUFFIX = ".peak.csv"

# The peers that ratios are taken against, in this order, with their label
REFERENCES = [("cublas", "cuBLAS"), ("clblast", "CLBlast")]


def is_step(program):
    return STEP_RE.match(program) is not None


def size_key(row):
    return (int(row["m"]), int(row["n"]), int(row["k"]))


def size_text(size):
    m, n, k = size
    return f"M=N=K={m}" if m == n == k else f"M={m} N={n} K={k}"


def size_short(size):
    m, n, k = size
    return f"{m}" if m == n == k else f"{m}x{n}x{k}"


def fmt_gflops(x):
    if x >= 100:
        return f"{x:.0f}"
    if x >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


def fmt_ratio(x):
    return f"{x:.2f}x" if x >= 0.1 else f"{x:.2g}x"


def fmt_pct(x):
    """A percentage for Markdown (Doxygen drops a bare % before a word)."""
    return f"{x:.1f}\\%"


def fmt_num(x):
    """A derived quantity: an integer as it is, a fraction with 3 significant digits."""
    if isinstance(x, int) or float(x).is_integer():
        return f"{int(x)}"
    return f"{x:.3g}"


def md_escape(text):
    """Text for a Markdown table cell that Doxygen must not interpret."""
    text = text.replace("|", "/").replace("`", "'")
    return re.sub(r"([\\@<>&#$%])", r"\\\1", text)


def parse_params(text):
    """'TS=32 WIDTH=4' -> {'TS': 32, 'WIDTH': 4}"""
    out = {}
    for item in (text or "").split():
        name, _, value = item.partition("=")
        try:
            out[name] = int(value)
        except ValueError:
            pass
    return out


def parse_parts(text):
    """'transpose A:0.07/0.069;sgemm:3.6/3.5' -> [('transpose A', 0.07, 0.069), ('sgemm', 3.6, 3.5)]"""
    out = []
    for item in (text or "").split(";"):
        name, _, times = item.rpartition(":")
        median, _, best = times.partition("/")
        try:
            out.append((name, float(median), float(best)))
        except ValueError:
            return []
    return out


def read_csv_rows(path, needed, what):
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        missing = [c for c in needed if c not in (reader.fieldnames or [])]
        if missing:
            raise InputError(f"{path}: not {what} (missing columns: {', '.join(missing)})")
        rows = [r for r in reader if r[reader.fieldnames[0]] != reader.fieldnames[0]]  # repeated header lines
    for r in rows:
        for c in r:
            if isinstance(r[c], str):
                r[c] = r[c].strip()
    return rows


class Peak:
    """bench/peak's measurements on one device: FMA throughput and copy bandwidth (medians)."""

    def __init__(self, path):
        self.path = path
        rows = read_csv_rows(path, PEAK_NEEDED, "bench/peak's CSV format")
        if not rows:
            raise InputError(f"{path}: no measurement")
        r = rows[-1]  # the last measurement, as bench/table.py reads it
        try:
            self.fma = float(r["fma_gflops"])
            self.copy = float(r["copy_gbps"])
            self.copy_mib = float(r["copy_mib"])
        except ValueError:
            raise InputError(f"{path}: row {len(rows) + 1} has a malformed number") from None
        if self.fma <= 0 or self.copy <= 0:
            raise InputError(f"{path}: row {len(rows) + 1} has a peak that is not positive")
        self.platform, self.device, self.driver = r["platform"], r["device"], r["driver"]
        self.vector, self.date = r["fma_vector"], r["date"][:10]


class ResultsFile:
    """One results file: one device's run of the steps and peers, at one or several sizes: the
    harness's --csv lines, or a bench/bench.py sweep (whose rows for programs that did not run
    have empty numbers, the status REFUSED, SKIPPED, TIMEOUT or ERROR, and the reason in `parts`)."""

    def __init__(self, path):
        self.path = path
        self.stem = os.path.basename(path)[:-len(".csv")]
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]*", self.stem):
            raise InputError(f"{path}: a results file name may hold only letters, digits, '_' and '-'")
        rows = read_csv_rows(path, NEEDED, "the harness's CSV format")
        if not rows:
            raise InputError(f"{path}: no results")
        for i, r in enumerate(rows):
            where = f"{path}: row {i + 2}"
            if r["status"] not in RAN + NOT_RUN:
                raise InputError(f"{where} has the unknown status '{r['status']}' (the statuses a results "
                                 "file may hold: common/include/gemm_report.h and bench/README.md)")
            try:
                size_key(r)
                if r["status"] in RAN:
                    for c in NUMERIC:
                        float(r[c])
                    if float(r["median_ms"]) <= 0 or float(r["gflops"]) <= 0:
                        raise ValueError
            except (TypeError, ValueError):
                raise InputError(f"{where} has a malformed number") from None
            if r["status"] in NOT_RUN and any(r[c] for c in ("median_ms", "best_ms", "gflops", "gflops_best")):
                raise InputError(f"{where} is {r['status']} but has measurements")
        ran_steps = [r for r in rows if is_step(r["step"]) and r["status"] in RAN]
        if not ran_steps:
            raise InputError(f"{path}: no row of a step (kernelNN_*) that ran: a results file is one device's run "
                             "of the steps")
        devices = {(r["platform"], r["device"], r["driver"]) for r in ran_steps}
        if len(devices) != 1:
            raise InputError(f"{path}: the steps ran on {len(devices)} different devices or drivers; "
                             "a results file is one device's run")
        self.platform, self.device, self.driver = devices.pop()
        self.rows = rows
        dates = sorted(r["date"][:10] for r in rows if r["date"])
        self.dates = dates[0] if dates[0] == dates[-1] else f"{dates[0]} to {dates[-1]}"
        self.programs = []  # the steps in order, then the peers in the order of the file
        for r in sorted(rows, key=lambda r: (not is_step(r["step"]), r["step"] if is_step(r["step"]) else "")):
            if r["step"] not in self.programs:
                self.programs.append(r["step"])
        self.steps = [p for p in self.programs if is_step(p)]
        # The row shown for each program at each size: the fastest PASS, else the fastest
        # UNVERIFIED, else a FAIL, else the reason it did not run (several rows: several settings)
        rank = {"PASS": 0, "UNVERIFIED": 1, "FAIL": 2, "ERROR": 3, "TIMEOUT": 4, "REFUSED": 5, "SKIPPED": 6}
        self.best, self.count = {}, {}
        for r in rows:
            key = (r["step"], size_key(r))
            self.count[key] = self.count.get(key, 0) + 1
            old = self.best.get(key)
            if (old is None or rank[r["status"]] < rank[old["status"]]
                    or (r["status"] == old["status"] and r["status"] in ("PASS", "UNVERIFIED")
                        and float(r["gflops"]) > float(old["gflops"]))):
                self.best[key] = r
        self.sizes = sorted({s for (_, s) in self.best}, key=lambda s: (s[0] * s[1] * s[2], s))
        self.verify_limit = None
        unverified = [s for (p, s), r in self.best.items() if r["status"] == "UNVERIFIED"]
        if unverified:
            verified = [s for (p, s), r in self.best.items() if r["status"] in ("PASS", "FAIL")]
            self.verify_limit = max((max(s) for s in verified), default=None)
        # The headline size: the largest square size at which every step passed; failing that,
        # the size with the most passing programs (ties: the largest problem)
        squares = [s for s in self.sizes if s[0] == s[1] == s[2]]
        full = [s for s in squares if all(self.gflops(p, s) is not None for p in self.steps)]
        if full:
            self.headline = max(full)
            self.headline_rule = "the largest square size at which every step passed verification"
        else:
            self.headline = max(self.sizes, key=lambda s: (sum(self.gflops(p, s) is not None for p in self.programs),
                                                           s[0] * s[1] * s[2]))
            self.headline_rule = "the size with the most programs that passed verification (no square size has all)"
        head = [r for r in ran_steps if size_key(r) == self.headline] or ran_steps
        self.alpha, self.beta = head[0]["alpha"], head[0]["beta"]
        # bench/peak's measurements beside the file, when there are any
        self.peak = None
        peak_path = path[:-len(".csv")] + PEAK_SUFFIX
        if os.path.isfile(peak_path):
            self.peak = Peak(peak_path)
            if (self.peak.platform, self.peak.device) != (self.platform, self.device):
                raise InputError(f"{peak_path}: measured on {self.peak.device} ({self.peak.platform}), but the steps "
                                 f"of {os.path.basename(path)} ran on {self.device} ({self.platform})")
        # '% of FMA peak' is of the measured peak, or of a faster verified rate on the same hardware
        # (a library can beat peak's kernels): never above 100 %, and the pages say which it is.
        self.ceiling, self.ceiling_by = (self.peak.fma if self.peak else None), None
        for (program, size), r in self.best.items():
            g = self.gflops(program, size)
            if g is not None and self.ceiling and self.same_hardware(r) and g > self.ceiling:
                self.ceiling, self.ceiling_by = g, (program, size)

    def row(self, program, size=None):
        return self.best.get((program, size or self.headline))

    def gflops(self, program, size=None):
        """GFLOPS of a run that passed verification, else None."""
        r = self.row(program, size)
        return float(r["gflops"]) if r and r["status"] == "PASS" else None

    def measured(self, program, size=None):
        """(GFLOPS, verified) of a run that passed or was not verified, else (None, False)."""
        r = self.row(program, size)
        if r and r["status"] in ("PASS", "UNVERIFIED"):
            return float(r["gflops"]), r["status"] == "PASS"
        return None, False

    def same_hardware(self, r):
        """True for a row that ran on the hardware bench/peak measured: its OpenCL device, or the host
        CPU (cpu_blas) where that device is the host CPU (PoCL names its device after the CPU)."""
        if not self.peak or not r:
            return False
        if r["step"] == "cpu_blas":
            return r["platform"] == "host" and bool(r["device"]) and self.peak.device.endswith(r["device"])
        return r["device"] == self.peak.device

    def on_peak_device(self, program):
        """True for a program that ran on the device bench/peak measured (not cpu_blas: the host CPU)."""
        r = self.row(program)
        return bool(self.peak and r and r["status"] in RAN and program != "cpu_blas"
                    and r["device"] == self.peak.device)

    def pct_peak(self, program, size=None):
        g = self.gflops(program, size)
        if g is None or not self.same_hardware(self.row(program, size)):
            return None
        return 100.0 * g / self.ceiling

    def ceiling_text(self):
        """What '% of FMA peak' is of, when a program was faster than bench/peak's kernels, else ""."""
        if not self.ceiling_by:
            return ""
        program, size = self.ceiling_by
        return (f"; `{program}` ran faster, {fmt_gflops(self.ceiling)} GFLOPS at {size_text(size)}, so "
                f"the column of the FMA peak gives percentages of that rate here")

    def vs(self, program, reference, size=None):
        """program's GFLOPS over the reference's, both verified at the same size, else None."""
        g, ref = self.gflops(program, size), self.gflops(reference, size)
        return g / ref if g is not None and ref else None

    def params(self, program, size=None):
        r = self.row(program, size)
        return parse_params(r["params"]) if r else {}

    def label(self):
        return f"{self.device} ({self.platform}, driver {self.driver})"

    def where(self):
        """Device, driver and date, for a sentence."""
        return f"{md_escape(self.device)} ({md_escape(self.platform)}, driver {md_escape(self.driver)}), {self.dates}"


def load_results(directory):
    paths = sorted(glob.glob(os.path.join(directory, "*.csv")))
    results = [ResultsFile(p) for p in paths if not p.endswith(PEAK_SUFFIX)]
    stems = {r.stem for r in results}
    for p in paths:
        if p.endswith(PEAK_SUFFIX) and os.path.basename(p)[:-len(PEAK_SUFFIX)] not in stems:
            raise InputError(f"{p}: peaks without a results file ({os.path.basename(p)[:-len(PEAK_SUFFIX)]}.csv)")
    return results


def previous_step(steps, step):
    i = steps.index(step)
    return steps[i - 1] if i > 0 else None


# --- Tuning records and compiler reports, from bench/tuning/ ---------------------------------------------

class TuningFile:
    """One bench/tune.py record: rows in the harness's columns, one per parameter combination
    (UNVERIFIED: measured with --no-verify; "PASS (verified best)": the best one, re-run with
    verification; REFUSED: the step refused the combination, numbers empty)."""

    def __init__(self, path):
        self.path = path
        self.name = os.path.basename(path)
        self.rows = []
        for r in read_csv_rows(path, NEEDED, "the harness's CSV format"):
            if r["status"].startswith("PASS") or r["status"] == "UNVERIFIED":
                try:
                    r["_gflops"] = float(r["gflops"])
                    r["_size"] = size_key(r)
                    r["_params"] = parse_params(r["params"])
                except ValueError:
                    raise InputError(f"{path}: a measured row has a malformed number") from None
                self.rows.append(r)
        self.device = {(r["platform"], r["device"]) for r in self.rows}


def load_tuning(directory):
    if not directory or not os.path.isdir(directory):
        return []
    return [TuningFile(p) for p in sorted(glob.glob(os.path.join(directory, "*.csv")))]


def tuning_for(tuning, r):
    """The tuning files measured on the device of results file r."""
    return [t for t in tuning if t.device == {(r.platform, r.device)}]


def read_ptxas(path):
    """A compiler report (bench/tuning/*-ptxas.txt: each step's `-cl-nv-verbose` build log after a
    line '== step') -> {step: {'params': text, 'kernels': [(kernel, registers, smem bytes,
    spill stores, spill loads)]}}."""
    out, step, kernel, spills = {}, None, None, (0, 0)
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"== (\S+)", line)
            if m:
                step = m.group(1)
                out[step] = {"params": "", "kernels": [], "arch": ""}
                continue
            if step is None:
                continue
            m = re.search(r"Compiling entry function '(\w+)' for '(sm_\d+)", line)
            if m:
                kernel = m.group(1)
                out[step]["arch"] = m.group(2)
            m = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line)
            if m:
                spills = (int(m.group(1)), int(m.group(2)))
            m = re.search(r"Used (\d+) registers(?:, used \d+ barriers)?(?:, (\d+) bytes smem)?", line)
            if m and kernel:
                out[step]["kernels"].append((kernel, int(m.group(1)), int(m.group(2) or 0)) + spills)
                kernel, spills = None, (0, 0)
            m = re.match(r"parameters\s+(.*)", line)
            if m:
                out[step]["params"] = m.group(1).strip()
    return out


def load_ptxas(directory, results):
    """{results stem: (report path, report)} for the results files whose device a report in
    `directory` names in its file name (nvidia-h200-ptxas.txt goes with nvidia-h200.csv)."""
    out = {}
    for r in results:
        path = os.path.join(directory or "", f"{r.stem}-ptxas.txt")
        if directory and os.path.isfile(path):
            out[r.stem] = (path, read_ptxas(path))
    return out

# --- Snippets (Markdown for \includedoc) ------------------------------------------------------------------

NO_RESULTS = "No results are recorded yet: docs/results/README.md says how to record them.\n"


def status_cell(r, program, size=None):
    """The GFLOPS of a verified run, else what happened: never a number that was not measured."""
    g = r.gflops(program, size)
    if g is not None:
        return fmt_gflops(g)
    row = r.row(program, size)
    return row["status"] if row else "-"


def path_snippet(steps, results, docs_dir):
    lines = ["| step | the idea it adds | page |" + "".join(f" {r.stem}: GFLOPS | vs previous |" for r in results),
             "|---|---|---|" + "---:|---:|" * len(results)]
    for s in steps:
        page = (f"\\ref {s.page} \"step {s.number}\"" if os.path.isfile(os.path.join(docs_dir, s.page + ".md"))
                else "(to come)")
        cells = [f"{s.number}: `{s.name}`", md_escape(s.summary) or "-", page]
        prev = previous_step(steps, s)
        for r in results:
            g = r.gflops(s.name)
            p = r.gflops(prev.name) if prev else None
            cells += [status_cell(r, s.name), fmt_ratio(g / p) if g and p else "-"]
        lines.append("| " + " | ".join(cells) + " |")
    peers = []
    for r in results:
        for p in r.programs:
            if not is_step(p) and p not in peers:
                peers.append(p)
    for p in peers:
        cells = [f"peer: `{p}`", md_escape(PEER_SUMMARY.get(p, p)), "-"]
        for r in results:
            cells += [status_cell(r, p), "-"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def headline_snippet(results):
    """Per device, every program at the headline size: GFLOPS, gains, % of the measured peak,
    ratios to cuBLAS and CLBlast."""
    if not results:
        return NO_RESULTS
    out = []
    for r in results:
        peak = (f"measured FMA peak {fmt_gflops(r.peak.fma)} GFLOPS (`bench/peak`, {md_escape(r.peak.vector)})"
                + r.ceiling_text() if r.peak else "no measured peak in this file")
        out.append(f"**{md_escape(r.stem)}**: {r.where()}; {size_text(r.headline)}; {peak}.\n")
        refs = [(p, label) for p, label in REFERENCES if r.gflops(p) is not None]
        out.append("| program | GFLOPS | vs previous step | vs step 1 | % of FMA peak |"
                   + "".join(f" vs {label} |" for _, label in refs))
        out.append("|---|---:|---:|---:|---:|" + "---:|" * len(refs))
        first = r.steps[0] if r.steps else None
        for i, p in enumerate(r.programs):
            g = r.gflops(p)
            prev = r.steps[i - 1] if is_step(p) and i > 0 else None
            cells = [f"`{p}`", status_cell(r, p)]
            cells.append(fmt_ratio(g / r.gflops(prev)) if g and prev and r.gflops(prev) else "-")
            cells.append(fmt_ratio(g / r.gflops(first)) if g and is_step(p) and p != first and r.gflops(first)
                         else "-")
            pct = r.pct_peak(p)
            cells.append(fmt_pct(pct) if pct is not None else "-")
            for ref, _ in refs:
                v = r.vs(p, ref)
                cells.append(fmt_ratio(v) if v is not None and p != ref else "-")
            out.append("| " + " | ".join(cells) + " |")
        out.append("")
    return "\n".join(out) + "\n"


def devices_snippet(results):
    if not results:
        return NO_RESULTS
    lines = ["| results file | device | platform | driver | headline problem | sizes run | measured peaks (bench/peak) "
             "| date (UTC) |",
             "|---|---|---|---|---|---|---|---|"]
    for r in results:
        sizes = ", ".join(size_short(s) for s in r.sizes)
        peaks = (f"FMA {fmt_gflops(r.peak.fma)} GFLOPS, copy {fmt_gflops(r.peak.copy)} GB/s" if r.peak else "-")
        lines.append(f"| `docs/results/{r.stem}.csv` | {md_escape(r.device)} | {md_escape(r.platform)} | "
                     f"{md_escape(r.driver)} | {size_text(r.headline)}, alpha={r.alpha}, beta={r.beta}: "
                     f"{r.headline_rule} | {sizes} | {peaks} | {r.dates} |")
    text = "\n".join(lines) + "\n"
    notes = []
    for r in results:
        for p in r.programs:
            row = r.row(p)
            if not is_step(p) and row and row["status"] in RAN and row["device"] != r.device:
                notes.append(f"`{p}` in `{r.stem}` ran on {md_escape(row['device'])} "
                             f"({md_escape(row['platform'])}, {md_escape(row['driver'])})")
        if r.verify_limit:
            notes.append(f"in `{r.stem}`, the runs above {r.verify_limit} are UNVERIFIED (bench.py "
                         f"`--verify-max-size {r.verify_limit}`: not checked against the reference)")
    if notes:
        text += "\nNotes: " + "; ".join(notes) + ".\n"
    return text


def reasons_text(r):
    """The programs that did not run (or failed) at some size, with the reason the file gives."""
    seen = {}
    for s in r.sizes:
        for p in r.programs:
            row = r.row(p, s)
            if row and row["status"] in NOT_RUN + ("FAIL",):
                key = (p, row["status"])
                if key not in seen:
                    seen[key] = ([], row["parts"] if row["status"] in NOT_RUN else "")
                seen[key][0].append(size_short(s))
    out = []
    for (p, status), (sizes, reason) in seen.items():
        text = f"- `{p}`, {status} at {', '.join(sizes)}"
        if reason:
            text += f": {md_escape(reason)}"
            if len(sizes) > 1:
                text += " (the reason at the first size)"
        out.append(text)
    return "\n".join(out)


def details_snippet(results):
    out = []
    for r in results:
        # (\\section inside an \\includedoc'd file silently drops the rest: HTML headings do not)
        out.append(f"<h2>{html.escape(r.stem)}: {html.escape(r.device)}</h2>\n")
        out.append(f"{md_escape(r.label())}; recorded {r.dates}; file `docs/results/{r.stem}.csv`. "
                   f"All runs at the headline size, {size_text(r.headline)} ({r.headline_rule}), "
                   f"alpha={r.alpha}, beta={r.beta} (time: median of the timed runs, and the best):\n")
        out.append("| program | parameters | runs (warm-up + timed) | median ms | best ms | GFLOPS | best GFLOPS "
                   "| worst error / bound | time per kernel, median ms (parts) | result |")
        out.append("|---|---|---|---:|---:|---:|---:|---:|---|---|")
        for p in r.programs:
            row = r.row(p)
            if not row:
                continue
            n = r.count[(p, r.headline)]
            params = md_escape(row["params"]) or "-"
            if n > 1:
                params += f" (fastest of {n} rows)"
            if row["status"] not in RAN:
                out.append(f"| `{p}` | {params} | - | - | - | - | - | - | {md_escape(row['parts'])} | {row['status']} |")
                continue
            err = row["max_err_over_bound"] or "-"
            try:
                err = f"{float(err):.3g}"
            except ValueError:
                pass
            parts = "; ".join(f"{md_escape(name)} {median:.4g}" for name, median, _ in parse_parts(row["parts"])) or "-"
            out.append(f"| `{p}` | {params} | {row['warmup']} + {row['repeat']} | {float(row['median_ms']):.4g} | "
                       f"{float(row['best_ms']):.4g} | {fmt_gflops(float(row['gflops']))} | "
                       f"{fmt_gflops(float(row['gflops_best']))} | {err} | {parts} | {row['status']} |")
        out.append(f"\n\\image html results_{r.stem}.svg \"GFLOPS of each step and peer on {md_escape(r.stem)}, "
                   f"{size_text(r.headline)}\"\n")
        if len(r.sizes) > 1:
            out.append("GFLOPS (median) at every size the file holds; *italics*: measured but UNVERIFIED; "
                       "a status where the program has no measurement:\n")
            out.append("| program | " + " | ".join(size_short(s) for s in r.sizes) + " |")
            out.append("|---|" + "---:|" * len(r.sizes))
            for p in r.programs:
                cells = []
                for s in r.sizes:
                    g, verified = r.measured(p, s)
                    if g is not None and not verified:
                        cells.append(f"*{fmt_gflops(g)}*")
                    else:
                        cells.append(status_cell(r, p, s))
                out.append(f"| `{p}` | " + " | ".join(cells) + " |")
            reasons = reasons_text(r)
            if reasons:
                out.append("\nThe programs without a measurement at some size, and why:\n\n" + reasons)
            if any(s[0] == s[1] == s[2] for s in r.sizes):
                out.append(f"\n\\image html sweep_{r.stem}.svg \"GFLOPS against the square problem size on "
                           f"{md_escape(r.stem)} (log-log; open points: UNVERIFIED)\"\n")
    if not out:
        out.append(NO_RESULTS)
    return "\n".join(out) + "\n"


def gain_snippet(steps, step, results):
    """Sentences for a step's page: what it measured on each recorded device."""
    prev = previous_step(steps, step)
    first = steps[0]
    out = []
    for r in results:
        row = r.row(step.name)
        where = f"**{md_escape(r.stem)}**: {r.where()}, {size_text(r.headline)}"
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
                     else f" (step {prev.number} has no verified run at this size)")
        if step is not first and prev is not first:
            f1 = r.gflops(first.name)
            if f1:
                text += f", {fmt_ratio(g / f1)} step {first.number}'s {fmt_gflops(f1)}"
        pct = r.pct_peak(step.name)
        if pct is not None:
            text += (f"; {fmt_pct(pct)} of the measured FMA peak" if not r.ceiling_by else
                     f"; {fmt_pct(pct)} of the fastest rate measured on this hardware (`{r.ceiling_by[0]}`'s, "
                     "above the FMA peak of `bench/peak`)")
        refs = [f"{fmt_ratio(r.vs(step.name, ref))} {label}" for ref, label in REFERENCES
                if r.vs(step.name, ref) is not None]
        if r.gflops("cpu_blas"):
            refs.append(f"{fmt_ratio(g / r.gflops('cpu_blas'))} the host CPU's BLAS")
        if refs:
            text += "; " + ", ".join(refs)
        out.append(text + ".")
    if not results:
        out.append("- " + NO_RESULTS.strip())
    return "\n".join(out) + "\n"


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
    ("useful", "useful share of the multiply-adds (the rest multiply padding zeros)"),
]


def round_up(x, to):
    return (x + to - 1) // to * to


def arithmetic(number, P, size):
    m, n, k = size
    try:
        if number == 1:
            ts = P["TS"]
            return {"work-items": round_up(m, ts) * round_up(n, ts), "work-group": ts * ts, "local": 0, "bpf": 4,
                    "reuse": 1, "lpf": 0, "acc": 1}
        if number == 2:
            ts = P["TS"]
            return {"work-items": m * n, "work-group": ts * ts, "local": 8 * ts * ts, "bpf": 4 / ts, "reuse": ts,
                    "lpf": 2, "acc": 1}
        if number == 3:
            ts, w = P["TS"], P["WIDTH"]
            return {"work-items": m * n // w, "work-group": ts * ts // w, "local": 8 * ts * ts, "bpf": 4 / ts,
                    "reuse": ts, "lpf": (1 + w) / w, "acc": w}
        tsm, tsn, tsk, w = P["TSM"], P["TSN"], P["TSK"], P["WIDTH"]
        bpf = 2 * (tsm + tsn) / (tsm * tsn)
        reuse = f"A: {tsn}, B: {tsm}"
        if number == 4:
            return {"work-items": m * n // w, "work-group": tsm * tsn // w, "local": 4 * (tsm + tsn) * tsk,
                    "bpf": bpf, "reuse": reuse, "lpf": (1 + w) / w, "acc": w}
        wm, wn = P["WPTM"], P["WPTN"]
        mp, np_, kp = (round_up(m, tsm), round_up(n, tsn), round_up(k, tsk)) if number >= 6 else (m, n, k)
        out = {"work-items": mp * np_ // (wm * wn), "work-group": (tsm // wm) * (tsn // wn),
               "local": 4 * (tsm + tsn) * tsk, "bpf": bpf, "reuse": reuse, "lpf": (wm + wn) / (wm * wn),
               "acc": wm * wn}
        if number >= 6:
            out["useful"] = (m * n * k) / (mp * np_ * kp)
        return out
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
            values = arithmetic(s.number, parse_params(row["params"]), r.headline)
            if values:
                cols.append((r, s, values))
                heads.append(f"step {s.number} on {md_escape(r.stem)}")
    if not cols:
        return "No recorded run of this step to compute it for.\n"
    lines = ["| quantity | " + " | ".join(heads) + " |", "|---|" + "---:|" * len(cols)]
    lines.append("| parameters (the file's) | " + " | ".join(md_escape(r.row(s.name)["params"]) for r, s, _ in cols)
                 + " |")
    lines.append("| problem | " + " | ".join(size_short(r.headline) for r, _, _ in cols) + " |")
    for key, label in ARITH_ROWS:
        if any(key in v for _, _, v in cols):
            lines.append(f"| {label} | " + " | ".join(fmt_num(v[key]) if isinstance(v.get(key), (int, float))
                                                     else md_escape(str(v.get(key, "-"))) for _, _, v in cols) + " |")
    regs = []
    for r, s, _ in cols:
        report = ptxas.get(r.stem)
        kernels = report[1].get(s.name, {}).get("kernels", []) if report else []
        sg = [kk for kk in kernels if kk[0] == "sgemm"]
        same = report and report[1].get(s.name, {}).get("params") == r.row(s.name)["params"]
        regs.append(f"{sg[0][1]}" + ("" if same else " (other parameters)") if sg else "-")
    if any(x != "-" for x in regs):
        lines.append("| registers per work-item, sgemm (compiler report) | " + " | ".join(regs) + " |")
    return "\n".join(lines) + "\n"


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
        return "No compiler report is recorded for this step (bench/tuning/*-ptxas.txt).\n"
    files = ", ".join(f"`bench/tuning/{os.path.basename(p)}`" for p, _ in ptxas.values())
    head = ["| device file | step | kernel | registers per work-item | local memory per work-group, bytes "
            "| spill stores / loads, bytes | parameters |", "|---|---|---|---:|---:|---:|---|"]
    return (f"From {files} (the build logs of `GEMM_CL_OPTIONS=-cl-nv-verbose GEMM_BUILD_LOG=1`):\n\n"
            + "\n".join(head + lines) + "\n")


def neighbours_snippet(results):
    """Every program's rate one below and one above a square size, over its rate at that size."""
    out = []
    for r in results:
        squares = {s[0] for s in r.sizes if s[0] == s[1] == s[2]}
        centres = sorted(c for c in squares if c - 1 in squares and c + 1 in squares)
        for c in centres:
            lo, mid, hi = (c - 1,) * 3, (c,) * 3, (c + 1,) * 3
            out.append(f"**{md_escape(r.stem)}**, {r.where()}: GFLOPS at {c - 1}, {c} and {c + 1}, and the rate "
                       f"at {c - 1} and {c + 1} over the rate at {c}:\n")
            out.append(f"| program | GFLOPS at {c - 1} | at {c} | at {c + 1} | {c - 1} / {c} | {c + 1} / {c} |")
            out.append("|---|---:|---:|---:|---:|---:|")
            for p in r.programs:
                g = r.gflops(p, mid)
                cells = [status_cell(r, p, lo), status_cell(r, p, mid), status_cell(r, p, hi)]
                for s in (lo, hi):
                    x = r.gflops(p, s)
                    cells.append(fmt_ratio(x / g) if x and g else "-")
                out.append(f"| `{p}` | " + " | ".join(cells) + " |")
            out.append("")
    return ("\n".join(out) + "\n") if out else "No results file holds sizes just below and above a square size.\n"


def compute_units(directory, r):
    """The compute-unit count of r's device, from a committed `--list-devices` listing in
    bench/tuning/*.log, else None."""
    paths = sorted(glob.glob(os.path.join(directory or "", "*.log")),
                   key=lambda p: (os.path.basename(p) != f"{r.stem}-bench.log", p))
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        m = re.search(r"device \d+: " + re.escape(r.device) + r" \[.*\]\n.*driver " + re.escape(r.driver)
                      + r"; (\d+) compute units", text)
        if m:
            return int(m.group(1)), os.path.basename(path)
    return None, None


WAVE_G = (1, 2, 4, 8)  # work-groups resident per compute unit, for the waves of padding_snippet

# What one multiprocessor of an NVIDIA GPU holds at once, by compute capability (the CUDA C++
# Programming Guide's table of technical specifications): 32-bit registers, allocated to each warp
# in units of `reg_unit`; resident warps and work-groups; shared (local) memory, of which
# `smem_reserved` bytes go to the system for every resident work-group.
SM_LIMITS = {"sm_90": {"registers": 65536, "reg_unit": 256, "warps": 64, "groups": 32,
                       "smem": 228 * 1024, "smem_reserved": 1024}}


def resident_groups(report, kernel, work_items):
    """How many work-groups of `kernel`, `work_items` each, one NVIDIA multiprocessor holds at once,
    from the compiler report of one step (read_ptxas) -> (groups, the resource that limits it,
    registers, local memory bytes), or None where the report or the architecture's limits are
    unknown."""
    lim = SM_LIMITS.get(report.get("arch", ""))
    k = next((k for k in report["kernels"] if k[0] == kernel), None)
    if not lim or not k:
        return None
    regs, smem = k[1], k[2]
    warps = -(-work_items // 32)
    per_warp = -(-regs * 32 // lim["reg_unit"]) * lim["reg_unit"]
    limits = {"register file": lim["registers"] // (per_warp * warps), "warp slots": lim["warps"] // warps,
              "work-group slots": lim["groups"], "local memory": lim["smem"] // (smem + lim["smem_reserved"])}
    name = min(limits, key=limits.get)
    return limits[name], name, regs, smem


def padding_snippet(results, steps, tuning_dir, ptxas):
    """Step 6 at the sizes around a multiple of its tiles: padded sizes, work-groups, the share of
    useful work, the waves, and where the time goes (the `parts`)."""
    step = next((s for s in steps if s.number == 6), None)
    out = []
    for r in results:
        if not step:
            break
        squares = {s[0] for s in r.sizes if s[0] == s[1] == s[2]}
        centres = sorted(c for c in squares if c - 1 in squares and c + 1 in squares)
        cus, log = compute_units(tuning_dir, r)
        for c in centres:
            centre = r.row(step.name, (c,) * 3)
            # The work-groups this kernel fits per unit, where the compiler report of the same
            # parameters says how many registers and how much local memory it takes
            report_path, report = ptxas.get(r.stem, (None, {}))
            report = report.get(step.name)
            fit = None
            if centre and report and report["params"] == centre["params"]:
                P = parse_params(centre["params"])
                work_items = (P["TSM"] // P["WPTM"]) * (P["TSN"] // P["WPTN"])
                fit = resident_groups(report, "sgemm", work_items)
            wave_g = sorted(set(WAVE_G) | ({fit[0]} if fit else set()))
            rows = []
            for s in ((c - 1,) * 3, (c,) * 3, (c + 1,) * 3):
                row = r.row(step.name, s)
                if not row or row["status"] != "PASS":
                    continue
                P = parse_params(row["params"])
                try:
                    tsm, tsn, tsk = P["TSM"], P["TSN"], P["TSK"]
                except KeyError:
                    continue
                mp, np_, kp = round_up(s[0], tsm), round_up(s[1], tsn), round_up(s[2], tsk)
                groups = (mp // tsm) * (np_ // tsn)
                parts = parse_parts(row["parts"])
                sg = sum(t for name, t, _ in parts if name == "sgemm")
                helpers = sum(t for name, t, _ in parts if name != "sgemm")
                total = float(row["median_ms"])
                rows.append(f"| {s[0]} | {mp} x {np_} x {kp} | {fmt_pct(100.0 * s[0] * s[1] * s[2] / (mp * np_ * kp))} | "
                            f"{groups} | " + ("".join(f"{-(-groups // (cus * g))} ({groups - (-(-groups // (cus * g)) - 1) * cus * g}) | "
                                                      for g in wave_g) if cus else "")
                            + f"{sg:.4g} | {fmt_gflops(2.0 * mp * np_ * kp / (sg * 1e6))} | {helpers:.4g} | "
                            f"{fmt_pct(100.0 * helpers / total)} | {fmt_gflops(float(row['gflops']))} |")
            if rows:
                out.append(f"**{md_escape(r.stem)}**, {r.where()}, step 6 with "
                           f"{md_escape(r.row(step.name, (c,) * 3)['params'])}:\n")
                out.append("| M=N=K | padded to Mp x Np x Kp | useful share of the multiply-adds | work-groups "
                           "ceil(M/TSM)·ceil(N/TSN) | "
                           + ("".join(f"waves (groups in the last) if {g} per unit"
                                      + (", this kernel" if fit and g == fit[0] else "") + " | "
                                      for g in wave_g) if cus else "")
                           + "sgemm kernel, ms | sgemm's rate on the padded problem, GFLOPS | helper kernels, ms | "
                           "helpers' share of the time | GFLOPS (2MNK / total time) |")
                out.append("|---:|---|---:|---:|" + ("---:|" * len(wave_g) if cus else "") + "---:|---:|---:|---:|---:|")
                out += rows
                if cus:
                    out.append(f"\nA wave is what the device runs at once: {cus} compute units (the `--list-devices` "
                               f"listing in `bench/tuning/{log}`) times g work-groups resident on each; the columns "
                               "give ceil(work-groups / (units·g)) for a few g, and how many work-groups the last "
                               "wave holds.")
                if cus and fit:
                    g, name, regs, smem = fit
                    lim = SM_LIMITS[report["arch"]]
                    out.append(f"\n**This kernel: g = {g}.** The compiler report (`bench/tuning/"
                               f"{os.path.basename(report_path)}`, same parameters) gives the sgemm kernel {regs} "
                               f"registers per work-item and {smem} bytes of local memory per work-group of "
                               f"{work_items} work-items. One multiprocessor of this architecture ({report['arch']}) "
                               f"holds {lim['registers']} registers, {lim['warps']} warps, {lim['groups']} work-groups "
                               f"and {lim['smem'] // 1024} KiB of local memory; the limit here is the {name}: "
                               f"{g} work-groups at once, {g * cus} on the whole device.")
                out.append("")
    return ("\n".join(out) + "\n") if out else "No results file holds step 6 just below and above a square size.\n"


def tuning_grid_snippet(results, tuning, step_name, keys, title, limit=10):
    """The tuning runs of one step on each device, the fastest measurement of each value of `keys`."""
    out = []
    for r in results:
        files = tuning_for(tuning, r)
        best = {}
        for t in files:
            for row in t.rows:
                if row["step"] != step_name:
                    continue
                P = row["_params"]
                key = tuple(P.get(k) for k in keys)
                if key not in best or row["_gflops"] > best[key][0]["_gflops"]:
                    best[key] = (row, t.name)
        if not best:
            continue
        out.append(f"**{md_escape(r.stem)}**, {md_escape(r.device)}: {title}, the fastest combination for each "
                   f"({', '.join(keys)}) over the tuning runs `bench/tuning/{{{', '.join(t.name for t in files)}}}` "
                   "(measured without verification, except each run's best; all at the size shown):\n")
        if len(best) > limit:
            out.append(f"The fastest {limit} of the {len(best)} kinds measured:\n")
            out.insert(-1, "")
        out.append("| " + " | ".join(keys) + " | GFLOPS | size | parameters | run |")
        out.append("|" + "---:|" * len(keys) + "---:|---|---|---|")
        for key, (row, name) in sorted(best.items(), key=lambda kv: -kv[1][0]["_gflops"])[:limit]:
            out.append("| " + " | ".join(str(v) for v in key) + f" | {fmt_gflops(row['_gflops'])} | "
                       f"{size_short(row['_size'])} | {md_escape(row['params'])} | {md_escape(name)} |")
        out.append("")
    return ("\n".join(out) + "\n") if out else "No tuning run of this step is recorded.\n"


def tiles_by_size_snippet(results, tuning, step_name):
    """A step's tuning runs over several sizes: for a run over a few sizes, the GFLOPS of every
    combination at every size and its rate one above a square size over the rate there; for a
    run over many sizes, each combination's mean, lowest and highest rate over them."""
    out = []
    for r in results:
        files = [t for t in tuning_for(tuning, r)
                 if len({row["_size"] for row in t.rows if row["step"] == step_name}) > 1]
        for t in files:
            out += tiles_by_size_table(r, t, step_name)
    return ("\n".join(out) + "\n") if out else "No tuning run of this step covers several sizes.\n"


def tiles_by_size_table(r, t, step_name):
    """The lines of one tuning file's table for tiles_by_size_snippet()."""
    out = []
    rows = [row for row in t.rows if row["step"] == step_name]
    sizes = sorted({row["_size"] for row in rows}, key=lambda s: (s[0] * s[1] * s[2], s))
    table = {}
    for row in rows:
        cell = table.setdefault(row["params"], {})
        if row["_size"] not in cell or row["_gflops"] > cell[row["_size"]]:
            cell[row["_size"]] = row["_gflops"]
    if len(sizes) > 6:
        out.append(f"**{md_escape(r.stem)}**, {md_escape(r.device)}, `bench/tuning/{t.name}` (measured without "
                   f"verification), each combination over {len(sizes)} sizes from {size_short(sizes[0])} to "
                   f"{size_short(sizes[-1])}:\n")
        out.append("| parameters | mean GFLOPS | lowest (at) | highest (at) |")
        out.append("|---|---:|---:|---:|")
        for params, cell in sorted(table.items(), key=lambda kv: -min(kv[1].values())):
            low = min(cell, key=cell.get)
            high = max(cell, key=cell.get)
            out.append(f"| {md_escape(params)} | {fmt_gflops(sum(cell.values()) / len(cell))} | "
                       f"{fmt_gflops(cell[low])} ({size_short(low)}) | {fmt_gflops(cell[high])} ({size_short(high)}) |")
        out.append("")
        return out
    pairs = [((s[0] + d,) * 3, s) for s in sizes if s[0] == s[1] == s[2] for d in (-1, 1)
             if (s[0] + d,) * 3 in sizes and (s[0] - d,) * 3 in sizes]
    out.append(f"**{md_escape(r.stem)}**, {md_escape(r.device)}, `bench/tuning/{t.name}` (measured without "
               "verification), GFLOPS of each combination at each size:\n")
    out.append("| parameters | " + " | ".join(size_short(s) for s in sizes) + " | "
               + " | ".join(f"{size_short(a)} / {size_short(b)}" for a, b in pairs) + " |")
    out.append("|---|" + "---:|" * (len(sizes) + len(pairs)))
    for params, cell in sorted(table.items(), key=lambda kv: -max(kv[1].values())):
        ratios = [fmt_ratio(cell[a] / cell[b]) if a in cell and b in cell else "-" for a, b in pairs]
        out.append(f"| {md_escape(params)} | " + " | ".join(fmt_gflops(cell[s]) if s in cell else "-" for s in sizes)
                   + " | " + " | ".join(ratios) + " |")
    out.append("")
    return out


def step4_vs_step3_snippet(results, tuning, steps):
    """Why step 4 can be slower than step 3: its sgemm kernel alone, the transpose's time, and the
    best rate of each step in the tuning runs."""
    s3 = next((s for s in steps if s.number == 3), None)
    s4 = next((s for s in steps if s.number == 4), None)
    if not s3 or not s4:
        return "\n"
    out = []
    for r in results:
        g3, g4 = r.gflops(s3.name), r.gflops(s4.name)
        row = r.row(s4.name)
        if g3 is None or g4 is None:
            continue
        m, n, k = r.headline
        parts = parse_parts(row["parts"])
        sg = sum(t for name, t, _ in parts if name == "sgemm")
        tr = sum(t for name, t, _ in parts if name != "sgemm")
        line = (f"- **{md_escape(r.stem)}**, {r.where()}, {size_text(r.headline)}: step 3 {fmt_gflops(g3)} GFLOPS; "
                f"step 4 {fmt_gflops(g4)} GFLOPS ({fmt_ratio(g4 / g3)}), of which the transpose takes {tr:.4g} ms "
                f"({fmt_pct(100.0 * tr / float(row['median_ms']))} of its time); its sgemm kernel alone runs at "
                f"{fmt_gflops(2.0 * m * n * k / (sg * 1e6))} GFLOPS ({fmt_ratio(2.0 * m * n * k / (sg * 1e6) / g3)} "
                "step 3)")
        files = tuning_for(tuning, r)
        best = {}
        for t in files:
            for tr_row in t.rows:
                if tr_row["step"] in (s3.name, s4.name) and tr_row["_size"] == r.headline:
                    b = best.get(tr_row["step"])
                    if b is None or tr_row["_gflops"] > b[0]["_gflops"]:
                        best[tr_row["step"]] = (tr_row, t.name)
                    best.setdefault(tr_row["step"] + "#", set()).add(tr_row["params"])
        p3 = r.params(s3.name)
        same = [(x, t.name) for t in files for x in t.rows
                if x["step"] == s4.name and x["_size"] == r.headline and p3.get("TS")
                and all(x["_params"].get(k) == p3["TS"] for k in ("TSM", "TSN", "TSK"))
                and x["_params"].get("WIDTH") == p3.get("WIDTH")]
        if same:
            x, name = max(same, key=lambda y: y[0]["_gflops"])
            line += (f". With step 3's own tile, {md_escape(x['params'])} (`{name}`), step 4 measured "
                     f"{fmt_gflops(x['_gflops'])} GFLOPS")
        if s3.name in best and s4.name in best:
            b3, b4 = best[s3.name], best[s4.name]
            line += (f". In the tuning runs at this size, the fastest of {len(best[s4.name + '#'])} step-4 combinations "
                     f"({md_escape(b4[0]['params'])}, `{b4[1]}`) measured {fmt_gflops(b4[0]['_gflops'])} GFLOPS, "
                     f"{fmt_ratio(b4[0]['_gflops'] / b3[0]['_gflops'])} the fastest step-3 combination "
                     f"({md_escape(b3[0]['params'])}, `{b3[1]}`, {fmt_gflops(b3[0]['_gflops'])} GFLOPS)")
        out.append(line + ".")
    return ("\n".join(out) + "\n") if out else "No results file has verified runs of steps 3 and 4 at its headline size.\n"


def bank_ways(tile, pad, warp=32, banks=32):
    """How many work-items of a warp read the same local-memory bank (different words) when the
    transpose reads tile[tx][ty] (tx = get_local_id(0) fastest): the bank conflict's degree."""
    lanes = [(lane % tile, lane // tile) for lane in range(min(warp, tile * tile))]
    words = {}
    for tx, ty in lanes:
        addr = tx * (tile + pad) + ty
        words.setdefault(addr % banks, set()).add(addr)
    return max(len(v) for v in words.values())


def transpose_blocks(t):
    """Runs of consecutive step-4 rows of a tuning file that differ only in TRANSPOSE_TILE and
    TRANSPOSE_PAD (a grid over those two), each as {(tile, pad): the last row of that variant}."""
    blocks, current, current_key = [], {}, None
    for row in t.rows:
        if row["step"] != "kernel04_transpose":
            key = None
        else:
            key = (tuple(sorted((k, v) for k, v in row["_params"].items() if not k.startswith("TRANSPOSE_"))),
                   row["_size"])
        if key != current_key or key is None:
            if len(current) > 1:
                blocks.append((current_key, current))
            current, current_key = {}, key
        if key is not None:
            current[(row["_params"].get("TRANSPOSE_TILE"), row["_params"].get("TRANSPOSE_PAD"))] = row
    if len(current) > 1:
        blocks.append((current_key, current))
    return blocks


def transpose_snippet(results, tuning):
    """The transpose kernel with TRANSPOSE_TILE and TRANSPOSE_PAD varied, the rest fixed (the
    tuning run with the largest such grid): its time (the "transpose A" part), bandwidth and
    bank-conflict degree."""
    out = []
    for r in results:
        found = [(len(b[1]), i, t, b) for i, t in enumerate(tuning_for(tuning, r)) for b in transpose_blocks(t)]
        if not found:
            continue
        _, _, t, ((rest, size), variants) = max(found, key=lambda x: (x[0], x[1]))
        m, n, k = size
        out.append(f"**{md_escape(r.stem)}**, {md_escape(r.device)}, `bench/tuning/{t.name}`: step 4 at "
                   f"{size_text(size)} with {' '.join(f'{a}={b}' for a, b in rest)}; the transpose of A "
                   f"(M x K) reads and writes {fmt_num(8 * m * k / 2**20)} MiB"
                   + (f"; bench/peak's copy kernel measured {fmt_gflops(r.peak.copy)} GB/s on this device"
                      if r.peak else "") + ":\n")
        out.append("| TRANSPOSE_TILE | TRANSPOSE_PAD | local floats per tile row | work-items of a warp on one "
                   "bank when reading a column (1: no conflict) | transpose A, median ms | GB/s (read + write) |"
                   + (" % of the copy bandwidth |" if r.peak else "")
                   + " transpose's share of step 4's time | step 4 GFLOPS |")
        out.append("|---:|---:|---:|---:|---:|---:|" + ("---:|" if r.peak else "") + "---:|---:|")
        for (tile, pad), row in sorted(variants.items()):
            tr = sum(tm for name, tm, _ in parse_parts(row["parts"]) if name.startswith("transpose"))
            gbps = 8.0 * m * k / (tr * 1e6)
            out.append(f"| {tile} | {pad} | {tile + pad} | {bank_ways(tile, pad)} | {tr:.4g} | {fmt_gflops(gbps)} | "
                       + (f"{fmt_pct(100.0 * gbps / r.peak.copy)} | " if r.peak else "")
                       + f"{fmt_pct(100.0 * tr / float(row['median_ms']))} | {fmt_gflops(row['_gflops'])} |")
        out.append("")
    return ("\n".join(out) + "\n") if out else "No tuning run varies TRANSPOSE_TILE and TRANSPOSE_PAD.\n"


def wgsize_snippet(tuning_dir, tuning, results):
    """NVIDIA's CL_KERNEL_WORK_GROUP_SIZE: the combinations an early tuning run refused because of
    it (its log), what later runs measured for the same combinations (their CSVs), and which of
    them a results file ran and verified."""
    logs = sorted(glob.glob(os.path.join(tuning_dir or "", "*.log")))
    refused = {}  # log -> {(step, params)}
    reported = {}  # log -> {the CL_KERNEL_WORK_GROUP_SIZE values the refusals quote}
    for path in logs:
        step = None
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = re.match(r"tune: (\w+), \d+ combinations", line)
                if m:
                    step = m.group(1)
                m = re.match(r"\s+(.*?)\s+REFUSED: .*CL_KERNEL_WORK_GROUP_SIZE.*; parameters: (.*)$", line)
                if m and step:
                    refused.setdefault(os.path.basename(path), set()).add((step, m.group(2).strip()))
                    w = re.search(r"allows at most (\d+) work-items", line)
                    if w:
                        reported.setdefault(os.path.basename(path), set()).add(int(w.group(1)))
    if not refused:
        return "No tuning log records a refusal because of CL_KERNEL_WORK_GROUP_SIZE.\n"
    lines = ["| tuning log | combinations refused for CL_KERNEL_WORK_GROUP_SIZE | the value the driver reported "
             "| of these, measured in a later tuning run | largest work-group among those, work-items "
             "| of these, run and verified in a results file |", "|---|---:|---:|---:|---:|---|"]
    for log, combos in refused.items():
        csv_name = log[:-len(".log")] + ".csv"
        later = {(row["step"], row["params"]) for t in tuning if t.name != csv_name for row in t.rows}
        measured = [c for c in combos if c in later]
        wgs = [workgroup_size(step, parse_params(params)) for step, params in measured]
        verified = []
        devices = set().union(*[t.device for t in tuning if t.name == csv_name]) if any(
            t.name == csv_name for t in tuning) else set()
        for r in results:
            if (r.platform, r.device) not in devices:
                continue
            for step, params in sorted(combos):
                rows = [x for x in r.rows if x["step"] == step and x["params"] == params and x["status"] == "PASS"]
                if rows:
                    verified.append(f"`{step}` {md_escape(params)} ({len(rows)} sizes in `{r.stem}.csv`)")
        values = ", ".join(str(v) for v in sorted(reported.get(log, ()))) or "-"
        lines.append(f"| `bench/tuning/{log}` | {len(combos)} | {values} | {len(measured)} | "
                     f"{max((w for w in wgs if isinstance(w, int)), default='-')} | {'; '.join(verified) or '-'} |")
    return "\n".join(lines) + "\n"


def workgroup_size(step, P):
    number = int(STEP_RE.match(step).group(1)) if STEP_RE.match(step) else 0
    values = arithmetic(number, P, (1, 1, 1)) if number else {}
    return values.get("work-group", "-")

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
    peak, top = "", "*"
    if r.peak:  # the measured FMA peak as a dashed line, the scale up to it
        top = repr(1.12 * max([r.peak.fma] + [r.gflops(p) or 0 for p in r.programs]))
        peak = (f'set arrow from graph 0, first {r.peak.fma!r} to graph 1, first {r.peak.fma!r} nohead dt 2 lw 1.5 '
                f'lc rgb "#555555"\nset label {gp_string(f"measured FMA peak {fmt_gflops(r.peak.fma)} (bench/peak)")} '
                f'at graph 0.01, first {r.peak.fma!r} offset 0,0.6 font ",10" tc rgb "#555555" noenhanced')
    script = f"""{SVG_TERMINAL.format(w=760, h=400)}
set output "results_{r.stem}.svg"
set title {gp_string(f"{r.device} ({r.platform}, driver {r.driver}), {r.dates}")} noenhanced font ",12"
set ylabel "GFLOPS (median)"
set xlabel {gp_string(size_text(r.headline) + "; blue: steps, orange: peers")} noenhanced
set style fill solid 0.85 border -1
set boxwidth 0.65
set grid ytics lc rgb "#dddddd"
set yrange [0:{top}]
set xrange [-0.6:{len(data) - 0.4}]
set offsets 0, 0, graph 0.12, 0
{peak}
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


# Line colours of the sweep plot, one per program (ten distinct ones before any repeats)
PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#7f7f7f", "#17becf", "#000000",
           "#e377c2"]


def plot_sweep(r, out_dir, gnuplot):
    """GFLOPS against the square problem size, one line per program, log-log; the measured rates
    only (a size a program did not run at is no point), UNVERIFIED ones as open points."""
    squares = [s for s in r.sizes if s[0] == s[1] == s[2]]
    blocks, plots = [], []
    for p in r.programs:
        points = []
        for s in squares:
            g, verified = r.measured(p, s)
            if g is not None:
                points.append(f"{s[0]}\t{g!r}\t{7 if verified else 6}")
        if points:
            plots.append((p, len(blocks)))
            blocks.append("\n".join(points))
    write(os.path.join(out_dir, f"sweep_{r.stem}.dat"), "\n\n\n".join(blocks) + "\n")
    lines = []
    for j, (p, index) in enumerate(plots):
        dash = "" if is_step(p) else " dt 2"
        lines.append(f'"sweep_{r.stem}.dat" index {index} using 1:2:3 with linespoints lw 2{dash} pt variable '
                     f'ps 0.8 lc rgb "{PALETTE[j % len(PALETTE)]}" title {gp_string(short_name(p))}')
    xtics = ", ".join(f'"{s[0]}" {s[0]}' for s in squares if s[0] & (s[0] - 1) == 0 or s == max(squares))
    script = f"""{SVG_TERMINAL.format(w=800, h=460)}
set output "sweep_{r.stem}.svg"
set title {gp_string(f"{r.device}, {r.dates}: GFLOPS against M = N = K (open points: UNVERIFIED)")} noenhanced font ",12"
set xlabel "M = N = K (log scale)"
set ylabel "GFLOPS (median, log scale)"
set logscale xy
set format y "%g"
set xtics ({xtics})
set grid xtics ytics mytics lc rgb "#dddddd"
set offsets graph 0.03, graph 0.03, 0, 0
set key noenhanced outside right font ",11"
plot {", ".join(lines)}
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
    ap.add_argument("--tuning", help="directory of tuning records and compiler reports "
                                     "(default: SOURCE/bench/tuning)")
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
        tuning_dir = args.tuning if args.tuning is not None else os.path.join(args.source, "bench", "tuning")
        tuning = load_tuning(tuning_dir)
        ptxas = load_ptxas(tuning_dir, results)
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
            write(os.path.join(args.out, f"{s.page}_arith.md"), arith_snippet(steps, s, results, ptxas))
            write(os.path.join(args.out, f"{s.page}_ptxas.md"), ptxas_snippet(steps, s, ptxas))
        snippets = {
            "path.md": path_snippet(steps, results, docs_dir),
            "results_summary.md": devices_snippet(results),
            "results_headline.md": headline_snippet(results),
            "results_details.md": details_snippet(results),
            "odd_sizes.md": neighbours_snippet(results),
            "padding_waves.md": padding_snippet(results, steps, tuning_dir, ptxas),
            "step04_vs_step03.md": step4_vs_step3_snippet(results, tuning, steps),
            "transpose_tile.md": transpose_snippet(results, tuning),
            "tuning_step04.md": tuning_grid_snippet(results, tuning, "kernel04_transpose", ["TSM", "TSN", "TSK", "WIDTH"],
                                                    "step 4"),
            "tuning_step05.md": tuning_grid_snippet(results, tuning, "kernel05_register_blocking",
                                                    ["WPTM", "WPTN", "WIDTH"], "step 5"),
            "tuning_step06.md": tiles_by_size_snippet(results, tuning, "kernel06_padding"),
            "wgsize.md": wgsize_snippet(tuning_dir, tuning, results),
        }
        for name, text in snippets.items():
            write(os.path.join(args.out, name), text)
        plots = []
        write(os.path.join(args.out, "results_all.md"), NO_RESULTS)
        if results:
            plot_all(results, args.out, args.gnuplot)
            write(os.path.join(args.out, "results_all.md"), '\\image html results_all.svg "GFLOPS of every step '
                  'and peer on every recorded device, at each file\'s headline size (log scale)"\n')
            for r in results:
                plot_device(r, args.out, args.gnuplot)
                plots.append(f'\\image html results_{r.stem}.svg "{md_escape(r.stem)}: GFLOPS of each step and peer at '
                             f'{size_text(r.headline)}"')
                if sum(s[0] == s[1] == s[2] for s in r.sizes) > 1:
                    plot_sweep(r, args.out, args.gnuplot)
                    plots.append(f'\\image html sweep_{r.stem}.svg "{md_escape(r.stem)}: GFLOPS against the size '
                                 '(log-log; open points: UNVERIFIED)"')
        write(os.path.join(args.out, "results_plot.md"), "\n\n".join(plots) + "\n")
    except InputError as e:
        sys.stderr.write(f"render.py: error: {e}\n")
        return 2
    except (ToolError, OSError) as e:
        sys.stderr.write(f"render.py: error: {e}\n")
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
