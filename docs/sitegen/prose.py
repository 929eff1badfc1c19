"""The measured figures the pages quote in their sentences, computed from the committed records
when the site is built: each is a Doxygen alias (prose_figures.doxy, which the Doxyfile includes),
written `\\NAME` in a page. A figure whose record is missing or does not hold what it needs is an
error (InputError), never a figure typed by hand: a page that names an alias no record defines
fails Doxygen's build (an unknown command is a warning, and warnings are errors).

  - measured_step09_model_choice_gain, measured_step09_model_best_slices: tuning run 13 at
    1000x3000x500, how much faster the fastest split was than the split the first model chose
    (the log's SLICES=0 line), and that split's SLICES;
  - measured_step09_best_slices_8192: the SLICES of the fastest step 9 at 8192 in run 13 (the CSV's
    parameters: the log writes the host's choice as SLICES=0);
  - measured_step10_index_cost: step 10's first version against the committed kernel, the sgemm at
    4096 with SLICES=1 (nvidia-h100-async-copy-experiments.log, its bisect);
  - measured_step10_store_cost: step 10's sgemm with step 9's form of the store (run 20's "new",
    store v1) against the kernel before it ("old"), at 4096 and 8192 (the median of the rounds);
  - measured_step10_tcopy_cost: the transposing copy's sgemm (variant a1, step 10's registers)
    against step 10's in the same runs, at 4096;
  - measured_step10_transpose_share: step 10's transpose against its whole time at 4096, same runs;
  - measured_step09_registers_h100: the H100 compiler report's registers for step 9's sgemm;
  - measured_step07_registers_h100: the same for step 7's;
  - measured_step08_recheck_ratio: step 8's rate over step 7's at 1000x3000x500 on the H100 in the
    five rounds of nvidia-h100-step8-recheck.log (CSV lines after its comments; each step's median
    of its rounds' medians);
  - measured_step08_slower_sizes: every size of each GPU sweep (docs/results/) where step 8 ran
    slower than step 7;
  - measured_step11_helper_share: the share of step 11's time its helper kernels take at
    1000x3000x500 in each GPU sweep (the CSV's parts);
  - measured_pocl_step5_unrolled, measured_pocl_step5_unrolled_vs_step3: on PoCL, step 5 with its
    loop over k unrolled against step 5 as it is, and against step 3, in the same rounds
    (pocl-cpu-implicit-loop-barrier.log, read by attribution.pocl_loop_barrier()).
"""
import csv
import io
import os
import re
import statistics

from .attribution import HARNESS_COLUMNS, LOOP_BARRIER_LOG, pocl_loop_barrier
from .common import InputError, fmt_ratio, parse_parts, write
from .results import load_results

POCL = "Portable Computing Language"

RUN13 = "nvidia-h100-run13-split-rows"
ASYNC_LOG = "nvidia-h100-async-copy-experiments.log"
RUN20 = "nvidia-h100-run20-direct-store.csv"
TCOPY_LOG = "nvidia-h100-transposing-copy-experiment.log"
PTXAS_H100 = "nvidia-h100-ptxas.txt"
RECHECK = "nvidia-h100-step8-recheck.log"


def _parts(text):
    """parse_parts as {kernel: median ms}"""
    return {name: median for name, median, _ in parse_parts(text)}


def _read(directory, name):
    path = os.path.join(directory, name)
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise InputError(f"{path}: cannot read a record a page quotes: {e.strerror}") from None


def _pct(ratio):
    """A ratio above 1 as the percent it is above, to the nearest whole percent: '9 %'."""
    return f"{round((ratio - 1) * 100)} %"


def _pct_range(ratios):
    low, high = (round((r - 1) * 100) for r in (min(ratios), max(ratios)))
    return f"{low} %" if low == high else f"{low}-{high} %"


def run13_model(directory):
    """(gain of the fastest split over the first model's choice, its SLICES) at 1000x3000x500: the
    log's block of step 9's combinations at that size, each line 'SLICES=s SPLIT_ROWS=r  G GFLOPS'."""
    text = _read(directory, RUN13 + ".log")
    block = re.search(r"tune: kernel09_split_k, \d+ combinations at 1000x3000x500\n(.*?)\ntune:", text, re.S)
    if not block:
        raise InputError(f"{RUN13}.log: no block of step 9's combinations at 1000x3000x500")
    rates = {int(s): float(g) for s, g in re.findall(r"SLICES=(\d+) SPLIT_ROWS=0\s+([0-9.]+) GFLOPS", block.group(1))}
    if 0 not in rates or len(rates) < 2:
        raise InputError(f"{RUN13}.log: the block at 1000x3000x500 lacks the host's choice (SLICES=0) or the forced ones")
    best = max((s for s in rates if s), key=lambda s: rates[s])
    return _pct(rates[best] / rates[0]), str(best)


def run13_best_slices(directory, size):
    """The SLICES of the fastest step 9 row of run 13's CSV at a square size (resolved parameters)."""
    rows = [r for r in csv.DictReader(io.StringIO(_read(directory, RUN13 + ".csv")))
            if r["step"] == "kernel09_split_k" and r["m"] == r["n"] == r["k"] == str(size)]
    if not rows:
        raise InputError(f"{RUN13}.csv: no row of step 9 at {size}")
    best = max(rows, key=lambda r: float(r["gflops"]))
    m = re.search(r"\bSLICES=(\d+)", best["params"])
    if not m:
        raise InputError(f"{RUN13}.csv: the fastest row at {size} names no SLICES")
    return m.group(1)


def async_index_cost(directory):
    """The first version's sgemm over the committed kernel's, 4096 with SLICES=1 (the bisect)."""
    text = _read(directory, ASYNC_LOG)
    first = re.search(r"kernel10_async_copy --size 4096 -D SLICES=1 \(first version\) :: sgemm median ([0-9.]+) ms", text)
    fixed = re.search(r"fixed kernel \(as committed\), kernel10_async_copy --size 4096 -D SLICES=1 :: "
                      r"sgemm median ([0-9.]+) ms", text)
    if not first or not fixed:
        raise InputError(f"{ASYNC_LOG}: the bisect's lines of the first version and the fixed kernel are missing")
    return _pct(float(first.group(1)) / float(fixed.group(1)))


def store_cost(directory):
    """Run 20: step 10's sgemm, "new" (store v1, step 9's form) over "old", medians of the rounds,
    at 4096 and 8192."""
    rows = list(csv.DictReader(io.StringIO(_read(directory, RUN20))))
    ratios = []
    for size in ("4096", "8192"):
        times = {}
        for which in ("old", "new"):
            t = [_parts(r["parts"]).get("sgemm") for r in rows
                 if r["which"] == which and r["step"] == "kernel10_async_copy" and r["m"] == size]
            if not t or None in t:
                raise InputError(f"{RUN20}: no sgemm time of step 10 ({which}) at {size}")
            times[which] = statistics.median(t)
        ratios.append(times["new"] / times["old"])
    return _pct_range(ratios)


def transposing_copy(directory):
    """(variant a1's sgemm over step 10's, step 10's transpose over its whole time) at 4096: the
    log's raw rows (run, label, round, then the harness's columns), each variant against the step 10
    of its own run, the median over the rounds and runs."""
    text = _read(directory, TCOPY_LOG)
    raw = [line for line in text.splitlines() if re.match(r"run\d+,", line)]
    rows = list(csv.DictReader(raw, fieldnames=["run", "label", "round"] + HARNESS_COLUMNS, restkey="more"))
    by_run = {}
    for r in rows:
        if r["m"] != "4096" or r["status"] != "PASS" and r["status"] != "UNVERIFIED":
            continue
        label = "k10" if r["step"] == "kernel10_async_copy" else r["label"]
        by_run.setdefault(r["run"], {}).setdefault(label, []).append((float(r["median_ms"]), _parts(r["parts"])))
    costs, shares = [], []
    for run, labels in by_run.items():
        k10 = labels.get("k10") or []
        for median_ms, parts in k10:
            shares.append(parts["transpose A"] / median_ms)
        for label in ("k11a1", "a1"):
            for _, parts in labels.get(label, []):
                costs.append(parts["sgemm"] / statistics.median(p["sgemm"] for _, p in k10))
    if not costs or not shares:
        raise InputError(f"{TCOPY_LOG}: no rows of variant a1 and step 10 at 4096")
    return _pct(statistics.median(costs)), f"{statistics.median(shares) * 100:.1f} %"


def sgemm_registers(directory, step):
    """The H100 compiler report's registers for a step's sgemm (step: its directory's name)."""
    text = _read(directory, PTXAS_H100)
    m = re.search(r"== " + step + r"\n.*?Compiling entry function 'sgemm'.*?Used (\d+) registers", text, re.S)
    if not m:
        raise InputError(f"{PTXAS_H100}: no register count of {step}'s sgemm")
    return m.group(1)


def step8_over_step7(text, name, size=("1000", "3000", "500")):
    """Step 7's median time over step 8's (so step 8's rate over step 7's) at a size, each step's
    median over the rows there (one row in a sweep; one per round in the recheck)."""
    rows = list(csv.DictReader(line for line in io.StringIO(text) if not line.startswith("#")))
    ms = {}
    for step in ("kernel07_double_buffering", "kernel08_warp_tiling"):
        t = [float(r["median_ms"]) for r in rows
             if r["step"] == step and (r["m"], r["n"], r["k"]) == size and r["status"] in ("PASS", "UNVERIFIED")]
        if not t:
            raise InputError(f"{name}: no timed row of {step} at {'x'.join(size)}")
        ms[step] = statistics.median(t)
    return fmt_ratio(ms["kernel07_double_buffering"] / ms["kernel08_warp_tiling"])


def pocl_unrolled(directory):
    """Step 5 with its loop over k unrolled over step 5 as it is, and over step 3, on PoCL."""
    rates = pocl_loop_barrier(directory)
    if not rates or not all(k in rates for k in ((3, False), (5, False), (5, True))):
        raise InputError(f"{os.path.join(directory, LOOP_BARRIER_LOG)}: no timed rounds of steps 3 and 5 and of step 5 "
                         "unrolled")
    return fmt_ratio(rates[5, True] / rates[5, False]), fmt_ratio(rates[5, True] / rates[3, False])


def _size(s):
    return str(s[0]) if s[0] == s[1] == s[2] else "x".join(map(str, s))


def _and(items):
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def step8_slower_sizes(results):
    """Where step 8 ran slower than step 7 in each GPU sweep: '256, 512 and 1024 on nvidia-h100,
    and 512 and 5120 (UNVERIFIED) on nvidia-h200'."""
    out = []
    for r in results:
        if POCL in r.platform:
            continue
        slower = []
        for s in r.sizes:
            (a, va), (b, vb) = r.measured("kernel08_warp_tiling", s), r.measured("kernel07_double_buffering", s)
            if a and b and a < b:
                slower.append(_size(s) + ("" if va and vb else " (UNVERIFIED)"))
        if slower:
            out.append(f"{_and(slower)} on {r.stem}")
    if not out:
        raise InputError("no GPU sweep has step 8 slower than step 7 at any size: step 8's page says it is")
    return ", and at ".join(out)


def step11_helper_share(results, size=(1000, 3000, 500)):
    """The share of step 11's time that its helper kernels take at the awkward size, per GPU sweep."""
    out = []
    for r in results:
        row = r.row("kernel11_tensor_cores", size)
        parts = parse_parts(row["parts"]) if row and POCL not in r.platform else []
        total = sum(m for _, m, _ in parts)
        if total:
            share = sum(m for name, m, _ in parts if name != "sgemm") / total
            out.append(f"{round(share * 100)} % on {r.stem}")
    if not out:
        raise InputError(f"no GPU sweep has step 11's kernels timed at {_size(size)}")
    return _and(out)


def figures(directory, results_dir):
    results = load_results(results_dir)
    gain, best = run13_model(directory)
    unrolled, unrolled_vs_step3 = pocl_unrolled(directory)
    tcopy, share = transposing_copy(directory)
    return {
        "measured_step09_model_choice_gain": gain,
        "measured_step09_model_best_slices": best,
        "measured_step09_best_slices_8192": run13_best_slices(directory, 8192),
        "measured_step10_index_cost": async_index_cost(directory),
        "measured_step10_store_cost": store_cost(directory),
        "measured_step10_tcopy_cost": tcopy,
        "measured_step10_transpose_share": share,
        "measured_step09_registers_h100": sgemm_registers(directory, "kernel09_split_k"),
        "measured_step07_registers_h100": sgemm_registers(directory, "kernel07_double_buffering"),
        "measured_step08_recheck_ratio": step8_over_step7(_read(directory, RECHECK), RECHECK),
        "measured_pocl_step5_unrolled": unrolled,
        "measured_pocl_step5_unrolled_vs_step3": unrolled_vs_step3,
        "measured_step08_slower_sizes": step8_slower_sizes(results),
        "measured_step11_helper_share": step11_helper_share(results),
    }


def render(ctx):
    if not ctx.tuning_dir or not os.path.isdir(ctx.tuning_dir):
        return  # a render of results alone (--tuning ''): no page is built from it
    lines = ["# The figures quoted in the pages' sentences, computed from lab/tuning/ and docs/results/ by docs/sitegen/prose.py"]
    for name, value in figures(ctx.tuning_dir, ctx.results_dir).items():
        lines.append(f'ALIASES += "{name}={value}"')
    write(os.path.join(ctx.out, "prose_figures.doxy"), "\n".join(lines) + "\n")
