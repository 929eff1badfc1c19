"""The recorded figures of the timing exercises, written by exercises.py's render(): the snippets
exercise_N_M_gpu.md (every GPU of docs/results/*.csv and lab/tuning/*.csv) and exercise_N_M_cpu.md
(the exercises' runs on a CPU, lab/tuning/pocl-*-exercises.csv from lab/exercises_cpu.sh)."""
import fnmatch
import glob
import os

from . import records
from .common import fmt_gflops, fmt_ratio, md_escape, parse_params, parse_parts, read_csv_rows, size_key, size_text

# --- the recorded GPU figures of the timing exercises ---------------------------------------------------
# Each exercise that measures time has a snippet exercise_N_M_gpu.md (\\includedoc in its answer): for
# every GPU of the committed records (docs/results/*.csv, lab/tuning/*.csv), every recorded run of
# each variant the exercise times, with its spread, and a ratio to the first variant only where the two
# spreads do not overlap: the rule the exercises give for the reader's own runs. A run's figures are
# the median and the best of its timed runs; a variant's spread runs from its slowest median to its
# fastest best over all its recorded runs. A variant never recorded on a GPU says so.

class Variant:
    """What one line of a timing exercise runs: a step with some of its parameters fixed, at a size;
    and the kernel file built in place of the step's own (--kernel-file), or None for the step's
    own kernels. A record names the file in its last column, kernel_file, as it was given (empty, or
    no such column in the files recorded before it, for the step's own): a row matches by the
    file's name, wherever the file was."""

    def __init__(self, label, step, params=None, size=4096, kernel_file=None):
        self.label, self.step, self.params = label, step, dict(params or {})
        self.size = size if isinstance(size, tuple) else (size,) * 3
        self.kernel_file = kernel_file

    def matches(self, r):
        ran = r.get("kernel_file") or ""
        if (os.path.basename(ran) if ran else None) != self.kernel_file:
            return False
        if r["step"] != self.step or size_key(r) != self.size:
            return False
        have = parse_params(r["params"])
        return all(have.get(k) == v for k, v in self.params.items())


class Timing:
    """One timing exercise's figures: its variants, and what is compared (the rate of the whole run,
    or the time of one of its kernels, `part`)."""

    def __init__(self, number, variants, part=None, files=("*",)):
        self.number, self.variants, self.part, self.files = number, variants, part, files

    def takes(self, name):
        """Whether the records file `name` (as the page names it) is one this exercise reads."""
        return any(fnmatch.fnmatch(name, pattern) for pattern in self.files)


# exercise 1.2's kernel, from the key, run through step 1's host with --kernel-file
ROWS_DIM0 = "step01_rows_dim0.cl"
# the size of the exercises' runs on a CPU (lab/exercises_cpu.sh, which must record at this size)
CPU_SIZE = 512


def _defaults(defaults, step, cls="nvidia-gpu"):
    return dict(defaults.get(step, {}).get(cls, {}))


def timings(defaults, cpu=False):
    """The timing exercises and their variants (the parameters each exercise's loop sets, and the
    defaults for the rest: an NVIDIA GPU's, or with cpu a CPU's, as the exercises run there, at
    CPU_SIZE and exercise 6.2 at its CPU sizes with its tiles: lab/exercises_cpu.sh)."""
    cls = "cpu" if cpu else "nvidia-gpu"
    s5 = _defaults(defaults, "kernel05_register_blocking", cls)
    s6 = _defaults(defaults, "kernel06_padding", cls)
    # exercise 7.2 runs step 6's and step 7's NVIDIA parameters on every device
    n6 = _defaults(defaults, "kernel06_padding")
    n7 = _defaults(defaults, "kernel07_double_buffering")
    p6 = {k: n6[k] for k in ("TSM", "TSN", "TSK", "WPTM", "WPTN") if k in n6}
    p7 = {k: n7[k] for k in ("TSM", "TSN", "TSK", "WPTM", "WPTN") if k in n7}
    ts1 = _defaults(defaults, "kernel01_naive", cls).get("TS")
    size = CPU_SIZE if cpu else 4096
    if cpu:
        sizes62, tiles62, files62, s5_label = (127, 128, 129), {"TSM": 32, "TSN": 64, "TSK": 16}, ("*",), "CPU"
    else:
        # the sweeps' rows alone: each size once per sweep, from one build of the kernels
        sizes62, tiles62, files62, s5_label = (4095, 4096, 4097), s6, ("docs/results/*",), "NVIDIA"
    out = [
        Timing("1.2", [Variant(f"step 1, dimension 0 along the columns (TS={ts1})", "kernel01_naive", {"TS": ts1}, size),
                       # (the handout shows the CPU's table: its labels name no solution file)
                       Variant(f"the exchanged kernel, dimension 0 along the rows (TS={ts1})", "kernel01_naive",
                               {"TS": ts1}, size, kernel_file=ROWS_DIM0)]),
        Timing("1.3", [Variant(f"TS={ts}", "kernel01_naive", {"TS": ts}, size) for ts in (1, 4, 8, 16, 32)]),
        Timing("2.5", [Variant(f"TS={ts}", "kernel02_tiled", {"TS": ts}, size) for ts in (4, 8, 16, 32)]),
        Timing("3.1", [Variant("step 2, TS=16", "kernel02_tiled", {"TS": 16}, size)]
               + [Variant(f"step 3, TS=16, WIDTH={w}", "kernel03_vectorized", {"TS": 16, "WIDTH": w}, size)
                  for w in (1, 2, 4, 8)]),
        Timing("4.3", [Variant(f"TRANSPOSE_TILE={t}, TRANSPOSE_PAD={p}", "kernel04_transpose",
                               {"TRANSPOSE_TILE": t, "TRANSPOSE_PAD": p}, size) for t in (16, 32) for p in (0, 1)],
               part="transpose A"),
        Timing("5.2", [Variant(f"{m} x {n}", "kernel05_register_blocking",
                               {"TSM": 64, "TSN": 64, "TSK": 16, "WPTM": m, "WPTN": n, "WIDTH": 4}, size)
                       for m, n in ((4, 4), (4, 8), (8, 4), (8, 8))]),
        Timing("5.3", [Variant(f"step 5, its {s5_label} defaults", "kernel05_register_blocking", s5, size)]),
        Timing("6.2", [Variant(f"M=N=K={n}", "kernel06_padding", tiles62, n) for n in sizes62], files=files62),
        Timing("7.2", [Variant("step 6 with step 6's parameters", "kernel06_padding", p6, size),
                       Variant("step 6 with step 7's parameters", "kernel06_padding", p7, size),
                       Variant("step 7 with step 6's parameters", "kernel07_double_buffering", p6, size),
                       Variant("step 7 with step 7's parameters", "kernel07_double_buffering", p7, size)],
               # the sweeps and the runs made to compare these four, in rounds, with the kernels of the
               # sweeps or close to them (the other tuning runs of these steps used older kernels)
               files=("*",) if cpu else ("docs/results/*", "lab/tuning/*ablation*")),
    ]
    return out


def fmt_ms(x):
    """A time or a count of cycles to 3 significant digits, trailing zeros kept (0.0700, 4.09, 32.1)."""
    return f"{x:#.3g}".rstrip(".") if x < 1000 else f"{x:.0f}"


def _is_gpu(r):
    return r["platform"] != "Portable Computing Language"


def recorded_rows(results, tuning):
    """[(file as the page names it, row)] of every measured run on a GPU in the records."""
    out = []
    for res in results:
        out += [(f"docs/results/{res.stem}.csv", r) for r in res.rows
                if r["status"] in ("PASS", "UNVERIFIED") and _is_gpu(r)]
    for t in tuning:
        out += [(f"lab/tuning/{t.name}", r) for r in t.rows + t.kernel_file_rows if _is_gpu(r)]
    return out


def _figures(r, part):
    """(median, best) of a run: GFLOPS, or the milliseconds of the kernel `part`."""
    if part is None:
        return float(r["gflops"]), float(r["gflops_best"])
    for name, median, best in parse_parts(r["parts"]):
        if name == part:
            return median, best
    return None


ONE_RUN = "one run: no spread"


def spread_table(label_head, unit, lines, faster, fmt):
    """The Markdown table of the variants on one device. lines: [(label, [(median, best)])];
    faster(a, b): a is the faster figure. The spread of a variant runs from its slowest median to
    its fastest best over its runs; the ratio to the first variant that has runs is given only where
    the spreads do not overlap. A variant recorded in one run only has no spread (the exercises'
    spread is over runs, and the median and best of one run's timed runs are not one), and so no
    ratio, nor has any variant a ratio to a first that has one run."""
    against_head = "rate against the first" if faster(2, 1) else "time against the first"
    out = [f"| {label_head} | runs | {unit}, the median run | spread, slowest to fastest | {against_head} |",
           "|---|---:|---:|---:|---|"]
    base = None
    for label, runs in lines:
        if not runs:
            out.append(f"| {label} | 0 | not recorded | | |")
            continue
        medians = sorted(m for m, _ in runs)
        median = medians[(len(medians) - 1) // 2]
        slow = min(medians) if faster(2, 1) else max(medians)
        fast = max(b for _, b in runs) if faster(2, 1) else min(b for _, b in runs)
        lo, hi = sorted((slow, fast))
        spread = f"{fmt(slow)} to {fmt(fast)}" if len(runs) > 1 else ONE_RUN
        if base is None:
            base, against = (median, lo, hi, len(runs)), "the first"
        elif len(runs) < 2:
            against = "one run: no ratio"
        elif base[3] < 2:
            against = "the first has one run: no ratio"
        elif hi < base[1] or lo > base[2]:
            against = f"{fmt_ratio(median / base[0])}"
        else:
            against = "the spreads overlap: no ratio"
        out.append(f"| {label} | {len(runs)} | {fmt(median)} | {spread} | {against} |")
    return "\n".join(out)


def one_run_note(single, lines):
    """The sentence under a device's heading where some variants were recorded in one run only."""
    which = "Every variant" if len(single) == len([1 for _, runs in lines if runs]) else \
        ("One variant" if len(single) == 1 else f"{len(single)} variants")
    return (f"{which} here {'was' if which == 'One variant' else 'were'} recorded in one run only, not in the "
            "five rounds the exercise runs: such a run shows no spread, and no ratio is read from it.")


# Where the figures come from: the GPUs' records, or the exercises' runs on a CPU
ON_GPUS = ("a GPU", "docs/results/, lab/tuning/")
ON_CPUS = ("a CPU", "lab/tuning/pocl-*-exercises.csv, from lab/exercises_cpu.sh")


def timing_snippet(t, rows, where=ON_GPUS, logs=()):
    """The figures of timing exercise t: for each device of the rows (file as the page names it, row),
    the table of its variants' runs; logs: the files of those rows with a log beside them (.log)."""
    unit = "GFLOPS" if t.part is None else f"{t.part}, ms"
    faster = (lambda a, b: a > b) if t.part is None else (lambda a, b: a < b)
    fmt = fmt_gflops if t.part is None else fmt_ms
    rows = [(f, r) for f, r in rows if t.takes(f)]
    devices = sorted({r["device"] for _, r in rows if any(v.matches(r) for v in t.variants)})
    if not devices:
        return f"No run of these variants is recorded on {where[0]} ({where[1]}).\n"
    out = []
    for device in devices:
        lines, files = [], []
        for v in t.variants:
            runs = []
            for f, r in rows:
                if r["device"] == device and v.matches(r):
                    fig = _figures(r, t.part)
                    if fig:
                        runs.append(fig)
                        if f not in files:
                            files.append(f)
            lines.append((v.label, runs))
        what = "GFLOPS" if t.part is None else f"milliseconds of `{t.part}`"
        sizes = sorted({v.size for v in t.variants if v.step})
        size = size_text(sizes[0]) if len(sizes) == 1 else "M=N=K=" + ", ".join(str(x[0]) for x in sizes)
        single = [label for label, runs in lines if len(runs) == 1]
        logged = [f"`{x[:-len('.csv')]}.log`" for x in files if x in logs]
        out.append(("Recorded on a CPU, through PoCL: " if where is ON_CPUS else "")
                   + f"**{md_escape(device)}**, {size}: every recorded run of each variant on this device, in "
                   f"{', '.join(f'`{x}`' for x in files)}. A run gives the {what} of its median and of its best "
                   "timed run; a variant's spread runs from its slowest median to its fastest best; a ratio to the "
                   "first variant recorded is given only where the two spreads do not overlap."
                   + (" " + one_run_note(single, lines) if single else "")
                   + (f" The commit, the device and the machine's load before and after are in {', '.join(logged)}."
                      if logged else ""))
        out.append(spread_table("variant", unit, lines, faster, fmt))
    return "\n\n".join(out) + "\n"


def local_reads_snippet(tuning_dir, where=ON_GPUS):
    """Exercise 8.2: the cycles per read of each rule of `peak --local-reads` on each recorded GPU (or
    in the exercises' runs on a CPU), every run with its spread (best-run cycles from the best time),
    the ratio to col = lane only where the spreads do not overlap."""
    out = []
    for path in sorted(glob.glob(os.path.join(tuning_dir or "", "*-local-reads.csv"))):
        if records.is_cpu_exercises(path) != (where is ON_CPUS):
            continue
        rows = read_csv_rows(path, ["device", "col", "median_ms", "best_ms", "cycles_per_read", "platform"],
                             "peak --local-reads's CSV format")
        rows = [r for r in rows if _is_gpu(r) == (where is ON_GPUS)]
        if not rows:
            continue
        cols = []
        for r in rows:
            if r["col"] not in cols:
                cols.append(r["col"])
        lines = []
        for col in cols:
            runs = []
            for r in rows:
                if r["col"] == col:
                    c = float(r["cycles_per_read"])
                    runs.append((c, c * float(r["best_ms"]) / float(r["median_ms"])))
            lines.append((f"`{col}`", runs))
        lines.sort(key=lambda x: x[0] != "`lane`")
        out.append(("Recorded on a CPU, through PoCL: " if where is ON_CPUS else "")
                   + f"**{md_escape(rows[0]['device'])}**, `lab/tuning/{os.path.basename(path)}`: the cycles of one "
                   "compute unit per read of a warp, for each run from its median and from its best timed run; the "
                   "spread of a rule runs from its slowest median to its fastest best, and a ratio to `lane` is given only where "
                   "the two spreads do not overlap.")
        out.append(spread_table("col", "cycles per read", lines, lambda a, b: a < b, fmt_ms))
    return ("\n\n".join(out) + "\n") if out else f"No run of `peak --local-reads` is recorded on {where[0]}.\n"


def timing_numbers():
    """The exercises that have snippets exercise_N_M_gpu.md and exercise_N_M_cpu.md."""
    return [t.number for t in timings({})] + ["8.2"]


def snippet_name(number, kind):
    """exercise_N_M_gpu.md (the recorded GPUs' figures, in the answer) or exercise_N_M_cpu.md (the
    exercises' runs on a CPU, beside the paragraph on what a CPU shows)."""
    return f"exercise_{number.replace('.', '_')}_{kind}.md"


def cpu_rows(tuning_dir):
    """([(file as the page names it, row)] of the exercises' runs on a CPU, [those files with a log
    beside them])."""
    out, logs = [], []
    for path in sorted(glob.glob(os.path.join(tuning_dir or "", records.CPU_EXERCISES))):
        if path.endswith("-local-reads.csv"):
            continue
        t = records.TuningFile(path)
        name = f"lab/tuning/{t.name}"
        out += [(name, r) for r in t.rows + t.kernel_file_rows if not _is_gpu(r)]
        if os.path.exists(path[:-len(".csv")] + ".log"):
            logs.append(name)
    return out, logs


def write_timings(ctx):
    from .common import write
    rows = recorded_rows(ctx.results, ctx.tuning)
    for t in timings(ctx.defaults):
        write(os.path.join(ctx.out, snippet_name(t.number, "gpu")), timing_snippet(t, rows))
    write(os.path.join(ctx.out, snippet_name("8.2", "gpu")), local_reads_snippet(ctx.tuning_dir))
    rows, logs = cpu_rows(ctx.tuning_dir)
    for t in timings(ctx.defaults, cpu=True):
        write(os.path.join(ctx.out, snippet_name(t.number, "cpu")), timing_snippet(t, rows, ON_CPUS, logs))
    write(os.path.join(ctx.out, snippet_name("8.2", "cpu")), local_reads_snippet(ctx.tuning_dir, ON_CPUS))
