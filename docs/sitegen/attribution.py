"""Whether a step's gain belongs to its idea, on each recorded device: the rule of the whole site is
that a gain is the idea's only where the experiment that takes the idea away takes the gain with
it. Where a step's run has its idea switched off by its own parameters (the experiment is then the
run itself), or where a recorded experiment or the device's own implementation shows that the idea
cannot act there, the step's gain over the previous one is "not this step's idea", and every table
and sentence that shows it says so, with the reason in one sentence (tables.py, figures.py). The
test docs.claims (docs/tests/test_claims.py) checks the pages against these verdicts.

The cases, from the step's parameters in the results file (so a new recording is judged alike):
  - step 6 at a size that is a multiple of its tiles: nothing is zero-padded, and step 6 runs step
    5's kernels; what differs is its parameters, if any;
  - step 8 with its warp tile the whole block in rows (WTM=TSM, WTN=TSN, LANE_SQUARES=0, the CPU's
    defaults): its work-items stand where step 7's do;
  - step 9 where the host split nothing (SLICES=1): it does step 8's work;
from the runs of the idea alone (lab/tune_nvidia.sh OUT ablation, on the device and at the size):
  - a step whose gain, with its idea taken away and its parameters kept (the previous step with
    its parameters, or its own switch of the idea set to 0), stays more than half there;
and from what the device does, for PoCL (device_cause()):
  - step 10 with COPY=0: PoCL's async_work_group_copy() copies at once, inside the call (its
    lib/kernel/async_work_group_copy.cl: "a blocking one"), so nothing overlaps;
  - steps 9 and 10 on PoCL: what they gain over step 8 there comes from PoCL's compiler, which gives
    the loop over k of steps 5 to 8 an implicit barrier and theirs none (pocl_loop_barrier() reads
    the experiment, lab/tuning/pocl-cpu-implicit-loop-barrier.log).
A ratio that prints as 1.00x is no gain, and is not marked.

The same verdicts decide the main page's verdict (tables.verdict_snippet): a device's later steps
"get back above" an earlier one only through gains that are their ideas'.
"""
import csv
import glob
import os
import re
import statistics

from . import tuning_ablation
from .common import InputError, fmt_ratio, md_escape, parse_params, previous_step

POCL = "Portable Computing Language"
LOOP_BARRIER_LOG = "pocl-cpu-implicit-loop-barrier.log"
HARNESS_COLUMNS = ["step", "platform", "device", "driver", "m", "n", "k", "alpha", "beta", "params", "warmup", "repeat",
                   "median_ms", "best_ms", "gflops", "gflops_best", "parts", "max_err_over_bound", "status", "date"]
# The parameters a step's idea adds, left out where its parameters are compared with the previous
# step's ("with the same parameters" or "with other parameters")
OWN = {6: (), 8: ("WTM", "WTN", "LANE_SQUARES")}


def pocl_loop_barrier(tuning_dir):
    """The experiment of lab/tuning/pocl-cpu-implicit-loop-barrier.log: {(step number, unrolled):
    GFLOPS, the median over its timed rounds}, or None where the directory holds no such log (a
    render of results alone)."""
    if not tuning_dir:
        return None
    path = os.path.join(tuning_dir, LOOP_BARRIER_LOG)
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        lines = [line for line in f if line.strip() and not line.startswith("#")]
    rates = {}
    for r in csv.DictReader(lines, fieldnames=["label", "round"] + HARNESS_COLUMNS, restkey="more"):
        if r["round"] == "verify":
            if r["status"] != "PASS":
                raise InputError(f"{path}: the verified run of '{r['label']}' did not pass ({r['status']})")
            continue
        number, _, variant = r["label"].partition(" ")
        try:
            rates.setdefault((int(number.replace("step", "")), variant == "unrolled k"), []).append(float(r["gflops"]))
        except ValueError:
            raise InputError(f"{path}: a row of '{r['label']}' has no step number or rate") from None
    if not rates:
        raise InputError(f"{path}: no timed rounds")
    return {key: statistics.median(v) for key, v in rates.items()}


TOUR_GLOB = "*-tour.txt"


def pocl_tours(tuning_dir):
    """The tours recorded on PoCL in lab/tuning/ (bench/tour.sh's output, its first line a comment
    naming the PoCL version): [(file name, 'PoCL 6.0', {step: GFLOPS of its table})]."""
    out = []
    for path in sorted(glob.glob(os.path.join(tuning_dir or "", TOUR_GLOB))):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        version = re.search(r"^#.*\b(PoCL \d+(?:\.\d+)*)", text, re.M)
        rates = {m.group(1): float(m.group(2))
                 for m in re.finditer(r"^(kernel\d\d_\w+)\s+([0-9.]+)\s+\S+\s+\S+\s+\S+\s+PASS$", text, re.M)}
        if version and rates:
            out.append((os.path.basename(path), version.group(1), rates))
    return out


def loop_barrier_text(rates):
    """The measured part of the reason PoCL holds steps 5 to 8 back, from the experiment."""
    if not rates or not all(k in rates for k in ((3, False), (5, False), (5, True), (8, False), (9, False))):
        return ""
    return (f" (with that loop unrolled, so that no inner loop is left, step 5 ran "
            f"{fmt_ratio(rates[5, True] / rates[5, False])} its rate as it is, and "
            f"{fmt_ratio(rates[5, True] / rates[3, False])} step 3's, in the same rounds, while step 9 without a "
            f"split ran {fmt_ratio(rates[9, False] / rates[8, False])} step 8's: "
            f"`lab/tuning/{LOOP_BARRIER_LOG}`)")


class Attribution:
    """The verdicts for a set of results files: not_idea(r, step, size) is the one-sentence reason
    why step's gain over the previous step on r at that size is not its idea, or None."""

    @classmethod
    def of(cls, ctx):
        """The verdicts for the inputs of a render (cli.Context)."""
        return cls(ctx.steps, ctx.tuning_dir, ctx.tuning, ctx.defaults)

    def __init__(self, steps, tuning_dir=None, tuning=(), defaults=None):
        self.steps = steps
        self.rates = pocl_loop_barrier(tuning_dir)
        self.tours = pocl_tours(tuning_dir)
        self.tuning, self.defaults = tuning, defaults or {}

    def _same(self, r, step, prev, size, own):
        """The parameters in which the two runs differ, beyond those of the step's own idea."""
        a = {k: v for k, v in r.params(step.name, size).items() if k not in own}
        b = r.params(prev.name, size)
        return {k: (v, b.get(k)) for k, v in a.items() if b.get(k) != v}

    def _params_text(self, diff):
        if not diff:
            return " with the same parameters: what separates the two is how the runs varied"
        return (" with other parameters (" + ", ".join(f"{k}={v} instead of {w}" for k, (v, w) in sorted(diff.items()))
                + "): they separate the two, not the idea")

    def off(self, r, step, size=None):
        """Why the step's idea is switched off in its own run on r at that size (the experiment that
        takes the idea away is then the run itself), or None."""
        prev = previous_step(self.steps, step)
        row, prow = r.row(step.name, size), r.row(prev.name, size) if prev else None
        if not prev or not row or not prow:
            return None
        P = parse_params(row["params"])
        m, n, k = size or r.headline
        if step.number == 6 and all(x in P for x in ("TSM", "TSN", "TSK")) \
                and m % P["TSM"] == 0 and n % P["TSN"] == 0 and k % P["TSK"] == 0:
            return ("nothing is zero-padded at this size, a multiple of its tiles, so step 6 ran "
                    "step 5's kernels" + self._params_text(self._same(r, step, prev, size, OWN[6])))
        if step.number == 8 and all(x in P for x in ("WTM", "TSM", "WTN", "TSN")) \
                and P["WTM"] == P["TSM"] and P["WTN"] == P["TSN"] and not P.get("LANE_SQUARES"):
            return ("its warp tile is the whole block, in rows (WTM=TSM, WTN=TSN, LANE_SQUARES=0), where step 7's "
                    "work-items already stand, so step 8 computed as step 7"
                    + self._params_text(self._same(r, step, prev, size, OWN[8])))
        if step.number == 9 and P.get("SLICES") == 1:
            return "the host split nothing at this size (SLICES=1), so step 9 did step 8's work"
        return None

    def device_cause(self, r, step, size=None):
        """What the device does that makes the step's gain there not its idea's, or None."""
        if POCL not in r.platform:
            return None
        P = r.params(step.name, size)
        if step.number == 10 and P.get("COPY") == 0:
            return ("PoCL's `async_work_group_copy()` copies at once, inside the call (COPY=0), so no copy overlaps "
                    "the arithmetic, and step 10's rate there is how PoCL compiles its rewritten loop")
        if step.number == 9:
            return ("what it gains on PoCL is a loop over k that PoCL's compiler leaves whole, where it splits steps "
                    "5 to 8's at every k (the reason under the \\ref index \"main page\"'s verdict)")
        return None

    def ablations(self, r, step, size=None):
        """The recorded runs of the idea alone (lab/tune_nvidia.sh OUT ablation, tuning_ablation.
        alone_configs()) on r's device at that size: [(file, the step's gain with its defaults, [(the
        configuration without the idea, its rate over the previous step's defaults)])]."""
        prev = previous_step(self.steps, step)
        size = size or r.headline
        out = []
        for t in self.tuning:
            if not tuning_ablation.ALONE_FILE.match(t.name) or t.device != {(r.platform, r.device)}:
                continue
            c = tuning_ablation.alone_configs(t, prev, step, self.defaults)
            median = lambda rows: statistics.median(x["_gflops"] for x in rows)  # noqa: E731
            base, full = (c.get(f"step {prev.number}, its defaults", {}).get(size),
                          c.get(f"step {step.number}, its defaults", {}).get(size))
            if not base or not full:
                continue
            off = [(label, median(cells[size]) / median(base)) for label, cells in c.items()
                   if size in cells and (label == f"step {prev.number} with step {step.number}'s parameters"
                                         or label.endswith("=0") or label == "step 9 with one slice (no split)")]
            out.append((t.name, median(full) / median(base), off))
        return out

    def kept_without_idea(self, r, step, size=None):
        """Where a run of the idea alone on r's device at that size kept more than half of the step's
        gain with the idea taken away: the reason, else None."""
        for name, gain, off in self.ablations(r, step, size):
            for label, rate in off:
                if gain > 1 and rate > 1 + (gain - 1) / 2:
                    # the run in words: its file is named in the lab record (a lesson names no run file)
                    # its own figures, not the sweep's: said as the run's, so that a sentence with the sweep's
                    # ratio beside it does not read as two figures of one measurement
                    return (f"in the runs of the idea alone (\\ref lab{step.number:02d} \"the lab record\"), where "
                            f"step {step.number} measured {fmt_ratio(gain)} step {step.number - 1}'s, {label} still "
                            f"measured {fmt_ratio(rate)}")
        return None

    def not_idea(self, r, step, size=None):
        """The reason, one sentence without its full stop, or None: None too where there is no gain
        or loss to explain (the ratio prints as 1.00x) or no verified pair of runs."""
        prev = previous_step(self.steps, step)
        if not prev:
            return None
        g, p = r.gflops(step.name, size), r.gflops(prev.name, size)
        if g is None or p is None or fmt_ratio(g / p) == "1.00x":
            return None
        off, cause = self.off(r, step, size), self.device_cause(r, step, size)
        if off and cause:
            return f"{off}; {cause}"
        return off or cause or self.kept_without_idea(r, step, size)

    def rests_on(self, r, step, size=None):
        """The steps up to this one whose gain above 1 is not their idea (a later step carries it)."""
        out = []
        for s in self.steps[1:self.steps.index(step) + 1]:
            prev = previous_step(self.steps, s)
            g, p = r.gflops(s.name, size), r.gflops(prev.name, size)
            if g is not None and p and g > p and self.not_idea(r, s, size):
                out.append(s)
        return out

    def loop_barrier_text(self):
        return loop_barrier_text(self.rates)


def note_text(r, step, ratio, reason):
    """A note under a table: which gain, and why it is not the step's idea."""
    return f"**{md_escape(r.stem)}**, step {step.number}, {ratio}: {reason}."
