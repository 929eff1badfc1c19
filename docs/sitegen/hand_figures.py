"""Figures typed by hand: the check of the test docs.claims that no sentence of a lesson, the main
page, the harness page or the exercises states a measured figure or comparison unless a test here
holds it against the committed records.

What counts as stating a measured figure, in a page's own text (the generated snippets and the
\\measured_ figures are rendered from the records, so they are left out):
  - a number with a unit of measurement or a ratio: `1.05x`, `38.0 GFLOPS`, `3 %`, `2.5 ms`, `GB/s`;
  - a multiple or a share in words: "three times", "doubles", "an eighth of", "a few percent";
  - a comparison word (faster, slower, closer, gains, loses, pays, above, below, reaches, apart, ...)
    in a sentence that names a size, a device or a run (a number of 3 or 4 digits, "the smallest
    size", GPU, CPU, PoCL, cuBLAS, "the headline size", "recorded", "measured", "the lab record",
    a \\measured_ figure, ...).
Every such sentence must match one pattern of FIGURES. Its test reads the records (Data, as the
universal claims of claims.py do) and returns None where they bear the sentence out, else what
contradicts it; a sentence whose figure is not a measurement (arithmetic from the parameters, a
definition, what an exercise asks the reader to expect) names why with not_measured(), so that the
reason is written beside the pattern. A new sentence of that kind fails the build until a pattern
and a test are added here: no measured figure stands unchecked.
"""
import csv
import os
import re

from .claims import (POCL, alone, ratios, sentences, step10_above_step9_on_cpu, step10_faster_from_4095,
                     step2_faster_most_where_step1_slowest_on_cpu)
from .common import median, parse_parts

NUMBER_WORDS = r"(?:two|three|four|five|six|seven|eight|nine|ten|several|many|a few|tens of)"
FIGURE = re.compile(
    r"(?<![\w.])\d+(?:[.,]\d+)?(?:\s?(?:-|to)\s?\d+(?:\.\d+)?)?"
    r"(?:(?<=\d)x\b|(?<=\d)×|\s?%|\s(?:percent|times)\b|\s?[GT]FLOPS\b|\s?GB/s|\s?ms\b|\s?µs\b)"
    r"|\b" + NUMBER_WORDS + r"(?: and a half)?(?: to \w+(?: and a half)?)? times\b"
    r"|\b(?:doubles|doubled|triples|halves|halved)\b"
    r"|\b(?:an?|one) (?:half|third|quarter|fifth|sixth|eighth|tenth) (?:of|to)\b"
    r"|\bpercent\b", re.I)
COMPARISON = re.compile(r"\b(faster|slower|closer|beats?|pays|wins?|loses?|lost|gains?|gained|fastest|slowest"
                        r"|outruns?|level with|more accurate|less accurate|above|below|reach(?:es|ed)?|ahead"
                        r"|behind|apart|barely|served most|speed-up|as far below)\b", re.I)
CONTEXT = re.compile(r"\b(\d{3,4}|smallest|largest|small sizes|large sizes|awkward size|GPUs?|H100|H200|CPU"
                     r"|PoCL|cuBLAS|CLBlast|headline|recorded|measured|measurement|experiment|lab record|tuning runs?|FIGURE)\b")
PAGES = re.compile(r"(mainpage|harness|exercises|step\d\d)\.md$")


def own_text(text):
    """A page's own prose: code, generated snippets, measured figures and headings left out."""
    text = re.sub(r"```.*?```|\\code.*?\\endcode|\\verbatim.*?\\endverbatim", " ", text, flags=re.S)
    text = re.sub(r"`[^`\n]*`", "CODE", text)
    text = re.sub(r"\\includedoc\s+\S+", " ", text)
    text = re.sub(r'\\ref\s+\S+\s+"([^"]*)"', r"\1", text)  # a link reads as its text
    text = re.sub(r"\*\*|</?(?:b|em)>", "", text)  # bold and italic read as their text
    text = re.sub(r"\\measured_\w+", "FIGURE", text)
    return re.sub(r"^\s*\\(?:page|section|subsection|subsubsection)\b.*$", " ", text, flags=re.M)


def figure_sentences(text):
    """The sentences of a page's own text that state a figure or a comparison."""
    return [s for s in sentences(own_text(text))
            if FIGURE.search(s) or (COMPARISON.search(s) and CONTEXT.search(s))]


# --- the tests --------------------------------------------------------------------------------------

def not_measured(reason):
    """A sentence whose figure is no measurement: `reason` says what it is."""
    def test(d):
        return None
    test.reason = reason
    return test


def program(d, name):
    """A step by number or a peer by its name, as ratios() takes it."""
    class P:
        pass
    p = P()
    p.name = name if isinstance(name, str) else d.step(name).name
    return p


def ratio_test(a, b, where, lo, hi, devices="gpus", verified_only=True, what=""):
    """A test that program a over program b lies in [lo, hi] at every size `where(size)` accepts, on
    the GPUs' files (devices="gpus") or the CPU's ("cpu"); and that there is such a size."""
    def test(d):
        files = d.gpus() if devices == "gpus" else d.cpu()
        found, bad = 0, []
        for r in files:
            for s, x in ratios(r, program(d, a), program(d, b), verified_only=verified_only).items():
                if where(s, r):
                    found += 1
                    if not lo <= x <= hi:
                        bad.append(f"{r.stem} at {'x'.join(map(str, s)) if len(set(s)) > 1 else s[0]}: {x:.2f}x")
        if not found:
            return f"no size of the {devices} files to test {what or 'the ratio'} on"
        return ("; ".join(bad) + f" (the sentence needs {lo:g} to {hi:g})") if bad else None
    return test


def all_of(*tests):
    def test(d):
        return "; ".join(w for w in (t(d) for t in tests) if w) or None
    return test


def square(s):
    return s[0] == s[1] == s[2]


def smallest(s, r):
    return s == min(r.sizes, key=lambda x: x[0] * x[1] * x[2])


def squares(test):
    return lambda s, r: square(s) and test(s[0])


def awkward(s, r):
    return not square(s)


def helper_share(d, n, size, devices="gpus"):
    """{file: the share of step n's time at `size` that is not its sgemm kernel}."""
    out = {}
    for r in (d.gpus() if devices == "gpus" else d.cpu()):
        row = r.row(d.step(n).name, size)
        parts = parse_parts(row["parts"]) if row else []
        total = sum(m for _, m, _ in parts)
        if total:
            out[r.stem] = sum(m for name, m, _ in parts if name != "sgemm") / total
    return out


def share_test(n, size, lo, hi, devices="gpus"):
    def test(d):
        shares = helper_share(d, n, size, devices)
        if not shares:
            return f"no parts of step {n} at {size} recorded"
        bad = [f"{k}: {v:.1%}" for k, v in shares.items() if not lo <= v <= hi]
        return ("; ".join(bad) + f" (the sentence needs {lo:.0%} to {hi:.0%})") if bad else None
    return test


def most_below(a, b, where, devices="gpus", lowest=None):
    """Program a slower than b at more than half of the sizes `where` accepts on each file (and, with
    `lowest`, slowest against b at that size)."""
    def test(d):
        bad = []
        for r in (d.gpus() if devices == "gpus" else d.cpu()):
            x = {s: v for s, v in ratios(r, program(d, a), program(d, b), verified_only=False).items() if where(s, r)}
            if not x or sum(v < 1 for v in x.values()) * 2 <= len(x):
                bad.append(f"{r.stem}: slower at {sum(v < 1 for v in x.values())} of {len(x)} sizes")
            elif lowest and min(x, key=x.get) != lowest:
                bad.append(f"{r.stem}: the slowest is at {min(x, key=x.get)}, not {lowest}")
        return "; ".join(bad) or None
    return test


def step7_gains_most_at_2048(d):
    bad = []
    for r in d.gpus():
        x = ratios(r, d.step(7), d.step(6))
        if not x:
            continue
        best = max(x, key=x.get)
        large = [v for s, v in x.items() if square(s) and s[0] >= 4096]
        small = [v for s, v in x.items() if s[0] < 2048]
        if best != (2048,) * 3 or not large or min(large) <= max(small, default=0):
            bad.append(f"{r.stem}: most at {best[0]}, large sizes {min(large, default=0):.2f}x, small "
                       f"{max(small, default=0):.2f}x")
    return "; ".join(bad) or None


def step6_4097_few_percent_below(d):
    bad = []
    for r in d.gpus():
        a, b = r.gflops(d.step(6).name, (4097,) * 3), r.gflops(d.step(6).name, (4096,) * 3)
        if a and b and not 0.85 <= a / b < 1:
            bad.append(f"{r.stem}: {a / b:.3f} of its rate at 4096")
    return "; ".join(bad) or None


def step11_more_accurate_at_large(d):
    bad = []
    for r in d.gpus():
        for s in r.sizes:
            if not (square(s) and s[0] >= 4096):
                continue
            e11 = r.row(d.step(11).name, s)
            for other in (r.row(d.step(10).name, s), r.row("cublas", s)):
                if e11 and other and e11.get("normwise_error") and other.get("normwise_error"):
                    if float(e11["normwise_error"]) >= float(other["normwise_error"]):
                        bad.append(f"{r.stem} at {s[0]}: {e11['normwise_error']} against {other['step']}'s "
                                   f"{other['normwise_error']}")
    return "; ".join(bad) or None


def step1_above_global_ceiling(d):
    """Step 1 at more than twice its global-memory ceiling (the copy bandwidth over its 4 bytes per
    FLOP) at each GPU file's headline size, the size of the lesson's table: the caches then served
    more than half of its requests, "most" of them."""
    bad = []
    for r in d.gpus():
        rate = r.gflops(d.step(1).name, r.headline)
        if not (r.peak and rate):
            bad.append(f"{r.stem}: no rate of step 1 or no peak at the headline size")
        elif rate <= 2 * r.peak.copy / 4:
            bad.append(f"{r.stem} at {r.headline[0]}: {rate:.0f} GFLOPS, ceiling {r.peak.copy / 4:.0f}")
    return "; ".join(bad) or None


def reaches_share_of_fma(n, lo):
    """Step n's rate at each GPU file's headline size is at least `lo` of the measured FMA peak."""
    def test(d):
        bad = []
        for r in d.gpus():
            rate = r.gflops(d.step(n).name, r.headline)
            if not (r.peak and rate):
                bad.append(f"{r.stem}: no rate or peak at the headline size")
            elif rate / r.peak.fma < lo:
                bad.append(f"{r.stem} at {r.headline[0]}: {rate / r.peak.fma:.1%} of the FMA peak")
        return "; ".join(bad) or None
    return test


def step10_neither_change_pays_alone(d):
    """In every ablation record of step 10 (lab10, "the idea alone"), step 9 with step 10's
    parameters and step 10 with step 9's are each slower than step 9 at its defaults, at every size."""
    bad, found = [], 0
    for name, c in alone(d, 10).items():
        base = c.get("step 9, its defaults", {})
        for label in ("step 9 with step 10's parameters", "step 10 with step 9's parameters"):
            for size, rows in c.get(label, {}).items():
                if not base.get(size):
                    continue
                found += 1
                a, b = median([r["_gflops"] for r in rows]), median([r["_gflops"] for r in base[size]])
                if a >= b:
                    bad.append(f"{name}: {label} at {size[0]}: {a:.0f} against {b:.0f}")
    return "; ".join(bad) or (None if found else "no ablation record of step 10")


def at_headline(s, r):
    return s == r.headline


def tf32_several_times_fma(d):
    peaks = [r.peak for r in d.gpus() if r.peak and getattr(r.peak, "tf32", None)]
    if not peaks:
        return "no TF32 peak recorded"
    bad = [f"{p.device}: {p.tf32 / p.fma:.1f}x" for p in peaks if p.tf32 / p.fma < 3]
    return "; ".join(bad) or None


def step5_unrolled_pays_on_cpu(d):
    rates = d.attribution.rates if d.attribution else None
    if not rates or (5, True) not in rates:
        return "the unrolled step 5's run on PoCL is not recorded"
    return None if rates[5, True] > rates[5, False] else "unrolled, step 5 is not faster on PoCL"


def some_step_loses_on_cpu(d):
    for r in d.cpu():
        for n in range(2, len(d.steps) + 1):
            if any(x < 1 for x in ratios(r, d.step(n), d.step(n - 1)).values()):
                return None
    return "no step loses to the one before on the CPU"


def tuning_rows(d, name):
    t = next((t for t in d.tuning if t.name == name), None)
    return t.rows if t else []


def bank_conflict_costs_many_times(d):
    """The local-reads runs: the rule whose reads hit one bank at different addresses costs at least
    four times the plain read (relative to the first rule)."""
    bad, found = [], 0
    for name in ("nvidia-h100-local-reads.csv", "nvidia-h200-local-reads.csv"):
        path = os.path.join(getattr(d, "tuning_dir", None) or "", name)
        rows = list(csv.DictReader(open(path, encoding="utf-8"))) if os.path.exists(path) else []
        if rows:
            found += 1
            worst = max(float(r["relative"]) for r in rows)
            if worst < 4:
                bad.append(f"{name}: the costliest read is {worst:.1f}x the plain one")
    return "; ".join(bad) or (None if found else "no local-reads run recorded")


def portable_copy_several_times_slower(d):
    """Run 17: step 10 with async_work_group_copy (COPY=0) against cp.async (COPY=1), at each size."""
    rows = [r for r in tuning_rows(d, "nvidia-h100-run17-async-copy.csv") if r["step"] == "kernel10_async_copy"]
    by = {}
    for r in rows:
        by.setdefault(r["_size"], {}).setdefault(r["_params"].get("COPY"), []).append(r["_gflops"])
    bad = [f"at {s[0]}: {max(c[1]) / max(c[0]):.1f}x" for s, c in by.items()
           if 0 in c and 1 in c and max(c[1]) / max(c[0]) < 2]
    return "; ".join(bad) or (None if by else "run 17 is not recorded")


def tf32_hundreds_of_times_less_accurate(d):
    bad, found = [], 0
    for r in d.gpus():
        for s in r.sizes:
            a, b = r.row("cublas_tf32", s), r.row("cublas", s)
            if a and b and a.get("normwise_error") and b.get("normwise_error"):
                found += 1
                x = float(a["normwise_error"]) / float(b["normwise_error"])
                if x < 100:
                    bad.append(f"{r.stem} at {s[0]}: {x:.0f}x")
    return "; ".join(bad) or (None if found else "no errors of cuBLAS's two modes recorded")


def step7_alone_little_together_much(d):
    """Exercise 7.2 on the H100, at 4096 and 8192: each change alone (step 7 with step 6's parameters,
    step 6 with step 7's) within 10 % of step 6, both together (step 7) at least 15 % above it."""
    bad, found = [], 0
    for name, c in alone(d, 7).items():
        if not name.startswith("nvidia-h100"):
            continue
        base = c.get("step 6, its defaults", {})
        for size in base:
            if size[0] not in (4096, 8192):
                continue
            b = median([r["_gflops"] for r in base[size]])
            for label, lo, hi in (("step 7 with step 6's parameters", 0, 1.1), ("step 6 with step 7's parameters", 0, 1.1),
                                  ("step 7, its defaults", 1.15, 10)):
                rows = c.get(label, {}).get(size)
                if rows:
                    found += 1
                    x = median([r["_gflops"] for r in rows]) / b
                    if not lo <= x <= hi:
                        bad.append(f"{name} at {size[0]}: {label} {x:.2f}x step 6")
    return "; ".join(bad) or (None if found else "no H100 run of the idea alone at 4096 or 8192")


def mixed(a, b, where, devices="gpus"):
    """Program a faster than b at one size `where` accepts at least, and slower at another, on each
    file."""
    def test(d):
        bad = []
        for r in (d.gpus() if devices == "gpus" else d.cpu()):
            x = [v for s, v in ratios(r, program(d, a), program(d, b), verified_only=False).items() if where(s, r)]
            if not (any(v > 1 for v in x) and any(v < 1 for v in x)):
                bad.append(f"{r.stem}: faster at {sum(v > 1 for v in x)} and slower at {sum(v < 1 for v in x)} "
                           f"of {len(x)} sizes")
        return "; ".join(bad) or None
    return test


def step8_slower_a_little(d):
    bad = [f"{r.stem} at {s[0]}: {x:.2f}x" for r in d.gpus()
           for s, x in ratios(r, d.step(8), d.step(7), verified_only=False).items() if x < 0.9]
    return "; ".join(bad) or None


def step4_below_step3_on_every_device(d):
    """'At the headline sizes step 4 is slower than step 3 on all three recorded devices': below on
    each results file, and three of them."""
    below = all_of(ratio_test(4, 3, at_headline, 0, 0.9999), ratio_test(4, 3, at_headline, 0, 0.9999, devices="cpu"))(d)
    count = None if len(d.results) == 3 else f"{len(d.results)} results files, not three"
    return "; ".join(w for w in (below, count) if w) or None


def step4_sgemm_alone_below_step3(d):
    """Step 4's sgemm kernel alone (its part of the time) slower than step 3 at each headline size."""
    bad, found = [], 0
    for r in d.results:
        g3, row = r.gflops(d.step(3).name), r.row(d.step(4).name)
        sgemm = sum(t for name, t, _ in parse_parts(row["parts"]) if name == "sgemm") if row else 0
        if g3 and sgemm:
            found += 1
            m, n, k = r.headline
            rate = 2.0 * m * n * k / (sgemm * 1e6)
            if rate >= g3:
                bad.append(f"{r.stem}: step 4's sgemm alone {rate:.4g} GFLOPS, step 3 {g3:.4g}")
    return "; ".join(bad) or (None if found else "no headline parts of step 4 beside step 3")


def step4_tuning_below_step3(d):
    """Every step-4 tile of the tuning runs (as their table ranks them) below step 3's rate in its
    device's results file, at that file's headline size."""
    from .records import tuning_for
    from .tuning_grids import STEP4_KINDS, grid_best
    bad, found = [], 0
    for r in d.results:
        g3 = r.gflops(d.step(3).name)
        for row, name in grid_best(tuning_for(d.tuning, r), d.step(4).name, STEP4_KINDS, r.headline).values():
            found += 1
            if g3 is None or row["_gflops"] >= g3:
                bad.append(f"{r.stem}: {row['params']} in {name} at {row['_gflops']:.4g} GFLOPS, step 3 {g3}")
    return "; ".join(bad) or (None if found else "no tuning run of step 4 at a headline size")


def step8_squares_bring_the_gain(d):
    """The ablations that ran step 8 in rows (LANE_SQUARES=0): in rows within 1 % of step 7 at each
    size; with its squares (its defaults) faster than in rows and than step 7."""
    bad, found = [], 0
    for name, c in alone(d, 8).items():
        rows_, base, squares_ = (c.get(k, {}) for k in ("step 8 with LANE_SQUARES=0", "step 7, its defaults",
                                                          "step 8, its defaults"))
        for size in rows_:
            if size not in base or size not in squares_:
                continue
            found += 1
            a, b, q = (median([x["_gflops"] for x in v[size]]) for v in (rows_, base, squares_))
            if not 0.99 <= a / b <= 1.01:
                bad.append(f"{name} at {size[0]}: in rows {a / b:.3f}x step 7")
            if q <= max(a, b):
                bad.append(f"{name} at {size[0]}: squares {q:.0f}, rows {a:.0f}, step 7 {b:.0f}")
    return "; ".join(bad) or (None if found else "no ablation of step 8 in rows")


def step10_together_faster_at_large(d):
    """Step 10's ablations: its two changes together (its defaults) faster than step 9 at 4096 and 8192."""
    bad, found = [], 0
    for name, c in alone(d, 10).items():
        base, both = c.get("step 9, its defaults", {}), c.get("step 10, its defaults", {})
        for size in both:
            if size[0] in (4096, 8192) and size in base:
                found += 1
                a, b = median([x["_gflops"] for x in both[size]]), median([x["_gflops"] for x in base[size]])
                if a <= b:
                    bad.append(f"{name} at {size[0]}: {a:.0f} against {b:.0f}")
    return "; ".join(bad) or (None if found else "no ablation of step 10 at 4096 or 8192")


def slices(r, n, d, size=None):
    return r.params(d.step(n).name, size).get("SLICES")


def step9_splits_nothing_on_cpu(d):
    """On the CPU's file step 9 ran with SLICES=1 at every size, and faster than step 8 at each."""
    bad = [f"{r.stem} at {s}: SLICES={slices(r, 9, d, s)}" for r in d.cpu() for s in r.sizes
           if r.row(d.step(9).name, s) and slices(r, 9, d, s) != 1]
    return "; ".join(w for w in (", ".join(bad), ratio_test(9, 8, lambda s, r: True, 1.0001, 1000, devices="cpu")(d))
                     if w) or None


def step9_no_split_at_headline(d):
    """At each GPU's headline size step 9 ran with SLICES=1, within 3 % of step 8."""
    bad = [f"{r.stem}: SLICES={slices(r, 9, d)}" for r in d.gpus() if slices(r, 9, d) != 1]
    return "; ".join(w for w in (", ".join(bad), ratio_test(9, 8, at_headline, 0.97, 1.03)(d)) if w) or None


def steps_slower_than_the_one_before(*numbers):
    """Each step n of `numbers` slower than step n - 1 at one size at least of one results file."""
    def test(d):
        bad = [f"step {n}" for n in numbers
               if not any(x < 1 for r in d.results for x in ratios(r, d.step(n), d.step(n - 1)).values())]
        return ("never slower than the step before: " + ", ".join(bad)) if bad else None
    return test


def idea_alone_recorded(first, last):
    """Steps `first` to `last` each have an ablation record with a run of the step's own kernel on
    other parameters than its defaults (the lab records' 'The idea alone')."""
    def test(d):
        missing = [str(n) for n in range(first, last + 1)
                   if not any(label.startswith(f"step {n} with") for c in alone(d, n).values() for label in c)]
        return ("no ablation record of step " + ", ".join(missing)) if missing else None
    return test


def no_loads_a_little_faster(d):
    """The async-copy experiments: step 8 without its global loads after the first tile, against
    step 8 as it is (configuration A), faster by less than 5 % at each size both ran."""
    path = os.path.join(getattr(d, "tuning_dir", None) or "", "nvidia-h100-async-copy-experiments.log")
    text = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
    rate = {(w, int(n)): float(g) for w, n, g in re.findall(r"^A (plain|noload) (\d+) rc=0 ([0-9.]+)", text, re.M)}
    sizes = [n for w, n in rate if w == "noload" and ("plain", n) in rate]
    bad = [f"at {n}: {rate['noload', n] / rate['plain', n]:.3f}x" for n in sizes
           if not 1.0 < rate["noload", n] / rate["plain", n] < 1.05]
    return "; ".join(bad) or (None if sizes else "the no-loads experiment is not recorded")


def at(*sizes):
    return lambda s, r: s in [(n,) * 3 for n in sizes]


FIGURES = [
    # step 1
    (r"From 2048 up, step 1 runs at about an eighth of cuBLAS's rate",
     ratio_test(1, "cublas", squares(lambda n: n >= 2048), 1 / 10, 1 / 6, verified_only=False)),
    (r"At the smallest size it is level with cuBLAS or ahead of it", ratio_test(1, "cublas", smallest, 0.85, 1.5)),
    (r"On the GPUs step 1 runs above that ceiling, because the L1 and L2 caches catch most", step1_above_global_ceiling),
    # step 2
    (r"On the recorded GPUs the caches had already served most of step 1's loads", step1_above_global_ceiling),
    (r"A GPU can do many times more FLOP per second than it can move bytes",
     not_measured("the roofline's premise; the ceilings table under it gives each device's measured figures")),
    (r"On the recorded GPUs step 2 gains little\.", ratio_test(2, 1, squares(lambda n: True), 1.0, 1.3)),
    (r"On the CPU, through PoCL, it is faster at every recorded size, by several times at the largest, where step 1 itself runs slowest",
     step2_faster_most_where_step1_slowest_on_cpu),
    # step 3
    (r"From 1024 up step 3 nearly doubles step 2's rate on the recorded GPUs, and on the CPU it is several times",
     all_of(ratio_test(3, 2, squares(lambda n: n >= 1024), 1.7, 2.05),
            ratio_test(3, 2, squares(lambda n: True), 3, 100, devices="cpu"))),
    (r"At the smallest GPU sizes it is slower: with the NVIDIA defaults, its tile of 64 x 64", ratio_test(3, 2, squares(lambda n: n < 1024), 0, 1)),
    (r"the local-memory ceiling rises by 2/1\.25 = 1\.6x", not_measured("arithmetic from the parameters")),
    # step 4
    (r"The transpose is not why: it takes a few percent of the time at most",
     all_of(share_test(4, (4096,) * 3, 0, 0.05), share_test(4, (1024,) * 3, 0, 0.05, devices="cpu"))),
    (r"and the ceiling is a little higher than step 3's, yet the step measures below it",
     ratio_test(4, 3, at_headline, 0, 0.9999, what="step 4 under step 3 at the headline size")),
    (r"At the headline sizes step 4 is slower than step 3 on all three recorded devices",
     step4_below_step3_on_every_device),
    (r"The loss is in the sgemm kernel", step4_sgemm_alone_below_step3),
    (r"the tuning runs only say that no combination tried reached step 3's rate", step4_tuning_below_step3),
    # step 5
    (r"two and a half to three times step 4's rate from 2048 up",
     ratio_test(5, 4, squares(lambda n: n >= 2048), 2.5, 3.2, verified_only=False)),
    (r"on the GPUs the larger tile halves the global bytes per FLOP", not_measured("arithmetic of the tile")),
    (r"At 256 and 512 it is slower: its tile of 128 x 64", ratio_test(5, 4, at(256, 512), 0, 1)),
    (r"On the CPU the block barely pays", ratio_test(5, 4, squares(lambda n: True), 1.0, 1.15, devices="cpu")),
    (r"On the GPUs step 5 reaches over half of the FMA peak", reaches_share_of_fma(5, 0.5)),
    (r"On the CPU, local memory is ordinary cached memory, so there is less to save",
     not_measured("why; the sentence before it is the measurement")),
    (r"With that loop unrolled, .* the block pays on the CPU too", step5_unrolled_pays_on_cpu),
    # step 6
    (r"On the GPUs step 6 is faster up to 1024, .* and slower at 2048 and from 4096 up",
     all_of(ratio_test(6, 5, squares(lambda n: n <= 1024), 1.0001, 10),
            ratio_test(6, 5, squares(lambda n: n == 2048 or n >= 4096), 0, 0.9999, verified_only=False))),
    (r"its rate at 4097 is a few percent below its rate at 4096", step6_4097_few_percent_below),
    (r"4095, 4096 and 4097 take the same number of waves, so one above costs little more than its padded work",
     step6_4097_few_percent_below),
    (r"Near 4096 they take a few percent of the time; on a smaller problem their share is larger",
     all_of(share_test(6, (4097,) * 3, 0.01, 0.09), share_test(6, (1000, 3000, 500), 0.09, 0.5))),
    # step 7
    (r"On the recorded GPUs step 7 gains most at 2048 and at the large sizes", step7_gains_most_at_2048),
    (r"At the small sizes it is slower than step 6, and the reason is the tile",
     ratio_test(7, 6, squares(lambda n: n <= 1024), 0, 0.9999)),
    (r"On the CPU, through PoCL, step 7 is slower at most sizes", most_below(7, 6, lambda s, r: True, "cpu")),
    # step 8
    (r"On both GPUs the gain is small, and it shows at most sizes from 2048 up",
     ratio_test(8, 7, squares(lambda n: n >= 2048), 1.0, 1.05)),
    (r"What pays on NVIDIA need not pay on your GPU", not_measured("advice")),
    (r"Step 8 is a little slower than step 7 at FIGURE", step8_slower_a_little),
    (r"it costs many times more when lanes hit the same bank", bank_conflict_costs_many_times),
    (r"measured apart, warp tiles in rows gain next to nothing, and the squares, with the same registers as in rows, "
     r"bring what gain there is", step8_squares_bring_the_gain),
    (r"Here compact warp tiles alone gain nothing; what pays is a detail of the layout", step8_squares_bring_the_gain),
    (r"The gain stays small because the multiply-adds of a step along k take longer than its reads",
     not_measured("why, from the lab record's cycles of reads against multiply-adds (its generated table)")),
    # step 9
    (r"On both GPUs the gain is large where the blocks fill only part of one wave \(256 to 1024\) or leave a short "
     r"last wave \(3072, 4097\); where they make nearly whole waves, the two steps run within a few percent",
     all_of(ratio_test(9, 8, at(256, 512, 1024, 3072, 4097), 1.15, 10, verified_only=False),
            ratio_test(9, 8, at(2048, 4095, 4096, 6144, 7168, 8192), 0.97, 1.05, verified_only=False))),
    (r"On the CPU the host split nothing: the speed-up there is not split-K's", step9_splits_nothing_on_cpu),
    (r"At the headline size the host splits nothing: step 9 is as far below the ceilings as step 8",
     step9_no_split_at_headline),
    # step 10
    (r"On the CPU the step's speed-up is not the idea's", step10_above_step9_on_cpu),
    (r"So step 10 meets step 9's ceilings: the lowest is still the FMA peak",
     not_measured("arithmetic of the ceilings: step 10 changes neither the bytes per FLOP nor the reads per "
                  "multiply-add")),
    (r"Two equivalent forms of the block row's index arithmetic .* FIGURE apart",
     not_measured("its figure is rendered from the bisect's log (\\measured_step10_index_cost)")),
    (r"an experiment that removed step 8's global loads after its first tile .* ran only a little faster",
     no_loads_a_little_faster),
    (r"On both GPUs step 10 is slightly faster than step 9 at every size from 4095 up", step10_faster_from_4095),
    (r"On the GPUs neither pays alone", step10_neither_change_pays_alone),
    (r"Below 4095 it is faster at some sizes and slower at others", mixed(10, 9, lambda s, r: s[0] < 4095)),
    (r"with CODE the same kernel runs several times slower on NVIDIA's driver", portable_copy_several_times_slower),
    (r"NVIDIA's driver runs it several times slower than CODE", portable_copy_several_times_slower),
    # step 11
    (r"TF32 values: floats with 10 bits of mantissa", not_measured("the format's definition")),
    (r"is at most about 2\^-22 of the product, four times FP32's own rounding", not_measured("arithmetic of the split")),
    (r"A GEMM on TF32 alone is hundreds of times less accurate than FP32", tf32_hundreds_of_times_less_accurate),
    (r"a portable path for correctness only, many times slower than step 10",
     ratio_test(11, 10, lambda s, r: True, 0, 0.2, devices="cpu")),
    (r"At the large sizes step 11 is faster than step 10 and than cuBLAS, and more accurate than step 10 \(and\s+than"
     r" cuBLAS",
     all_of(ratio_test(11, 10, squares(lambda n: n >= 4096), 1.0001, 10, verified_only=False),
            ratio_test(11, "cublas", squares(lambda n: n >= 4096), 1.0001, 10, verified_only=False),
            step11_more_accurate_at_large)),
    (r"At the awkward size it gains little over step 10, and both are slower than cuBLAS there",
     all_of(ratio_test(11, 10, awkward, 0.95, 1.15), ratio_test(11, "cublas", awkward, 0, 0.9999),
            ratio_test(10, "cublas", awkward, 0, 0.9999))),
    (r"the tensor cores' TF32 peak, as CODE reaches it from OpenCL, is several times the FP32 FMA peak",
     tf32_several_times_fma),
    (r"A product of two split values keeps about 21 of a float's 24 bits", not_measured("arithmetic of the split")),
    # the main page
    (r"^Each device at its headline size: every step and peer", not_measured("describes the generated table")),
    (r"Each step's page shows the idea, the exact change", not_measured("describes the pages")),
    (r"Such numbers are shown in italics \(open points in the plots\); no headline gain uses them",
     not_measured("the renderer's rule (the status's marks), not a measurement")),
    (r"a step can be slower than the one before \(step 4, step 6 and step 10 show when, and why\)",
     steps_slower_than_the_one_before(4, 6, 10)),
    (r"the lab records of steps 7 to 10 also show the two apart, measured in the same rounds",
     all_of(idea_alone_recorded(7, 10), step7_alone_little_together_much)),
    (r"^Where on a recorded device the later steps never get back above an earlier one",
     not_measured("introduces the generated verdict")),
    (r"UNVERIFIED marks a run that was measured but not checked", not_measured("defines a status")),
    (r"so the steps that target a GPU's memory hierarchy can gain little there, or lose", some_step_loses_on_cpu),
    # the harness page
    (r"the default is 30 s \+ 2·M·N·K flops at 0\.05 GFLOPS", not_measured("the watchdog's default and its arithmetic")),
    (r"TF32 and half keep 11 significant bits, bfloat16 8", not_measured("the formats' definitions")),
    (r"writing zeros gives a relative error of 1, leaving out half of K about 0\.7",
     not_measured("arithmetic of the normwise error; the tests named there check it")),
    # the exercises (what to expect and to work out; the measured answers are rendered under them)
    (r"expect the exchanged kernel to be markedly slower", not_measured("what the exercise asks to expect")),
    (r"On PoCL the difference is small or reversed", not_measured("what the exercise asks to expect")),
    (r"expect TS = 1 and TS = 4 to be the slowest", not_measured("what the exercise asks to expect")),
    (r"the global traffic halves with each doubling of TS", not_measured("arithmetic of the tile")),
    (r"WIDTH > 1 should be faster than step 2 at the same TS", not_measured("what the exercise asks to expect")),
    (r"Which would you expect to be fastest on a GPU", not_measured("a question")),
    (r"each value read from local memory used several times", not_measured("what the code does")),
    (r"A kernel that is step 5's code runs as fast as step 5, within the two spreads",
     not_measured("what the exercise asks to expect")),
    (r"The exercises that time kernels run each variant five times", not_measured("the method")),
    (r"Note whether the first run passes on your device \(on a GPU, run it several times\)",
     not_measured("the method")),
    (r"Then measure, five times", not_measured("the method")),
    (r"Every run of your kernel passes \(the first command prints PASS four times",
     not_measured("what the command prints")),
    (r"On a CPU \(PoCL\), the loops show which values of TS compute the right result",
     not_measured("what the exercise shows the reader")),
    (r"On the recorded H100, at 4096 and 8192, each change alone gains little or loses, and together they gain a lot",
     step7_alone_little_together_much),
    (r"The tuning runs on the recorded devices, the fastest combination of each block shape",
     not_measured("introduces the generated table")),
    (r"Before you look at the table in step 7's lab record, predict", not_measured("a question")),
    (r"make your guess before you read the measurement", not_measured("a pointer to an exercise")),
    (r"Step 10's table .* each alone is slower than step 9, and together they are faster at 4096 and 8192",
     all_of(step10_neither_change_pays_alone, step10_together_faster_at_large)),
    (r"step 8's \(its lab record\) an idea that gains a little, and only with its lanes in squares",
     step8_squares_bring_the_gain),
    (r"with 6 tiles it is 1 each, and tiles 4 and 5 belong to no slice: every element of a split row misses a third",
     not_measured("arithmetic of the split")),
    (r"with 7 tiles in 5 slices the last slice has 3 tiles where the others have 1, and its work-groups take about "
     r"three times", not_measured("arithmetic of the split")),
    (r"lo·lo is about 2\^-22 of a·b", not_measured("arithmetic of the split")),
    (r"so expect the rate to drop well below the rate at 128", not_measured("what the exercise asks to expect")),
    (r"with Mp = 1024, Np = 3008 and Kp = 512: about 95 % of the multiply-adds are useful",
     not_measured("arithmetic of the padded sizes")),
    (r"times float4 reads from local memory in which the work-item in place", not_measured("what the program does")),
    (r"They do not charge by addresses: the rules whose vectors lanes 4, 8 or 16 apart share",
     not_measured("the answer's reading of its measured table, rendered under it")),
    # the harness page, its arithmetic and mechanisms
    (r"The naive kernel runs the suite's largest problems .* well above the limit's rate",
     not_measured("held by the suite itself: a run slower than the limit's rate ends with exit 3 and fails its test, "
                  "in CI on 2 cores and in the sanitized build")),
    (r"at most 255 terms below 2¹⁴·2⁻⁴¹ each", not_measured("arithmetic of the exact check's data")),
    (r"With the harness's data \(CODE, above: binades 1 to 8 alike", not_measured("arithmetic of the data's distribution")),
    (r"The test CODE checks each claim above on the host", not_measured("what a test checks")),
    (r"between inaccessible pages that reach 16 GiB on each side", not_measured("what the harness allocates")),
    # the main page and lessons: mechanisms, arithmetic, pointers
    (r"What still separates step 10, the last step on the FMA units, from cuBLAS", not_measured("a pointer to a lab record")),
    (r"on PoCL, which runs work-groups on CPU cores, \"local memory\" is ordinary memory behind the same caches",
     not_measured("how the devices work")),
    (r"two work-groups fit below 256 registers per work-item, three only below about 170",
     not_measured("arithmetic of the register file")),
]


def raw_pages(docs_dir):
    """{page file name: its Markdown as written} (the snippets it includes are not its own text)."""
    out = {}
    for name in sorted(os.listdir(docs_dir)):
        if PAGES.match(name):
            with open(os.path.join(docs_dir, name), encoding="utf-8") as f:
                out[name] = f.read()
    return out


def check(pages, data):
    """Problems, one line each: a figure sentence no pattern covers, or one its test contradicts."""
    problems = []
    for name, text in pages.items():
        if not PAGES.match(name):
            continue
        for sentence in figure_sentences(text):
            known = [(p, t) for p, t in FIGURES if re.search(p, sentence)]
            if not known:
                problems.append(f"{name}: a measured figure or comparison typed by hand that no test in "
                                f"docs/sitegen/hand_figures.py checks against the data: '{sentence[:200]}'")
            for _, test in known:
                wrong = test(data)
                if wrong:
                    problems.append(f"{name}: '{sentence[:160]}' is not what the data say: {wrong}")
    return problems


def unused(pages, figures=None):
    """A pattern of FIGURES that no sentence of the pages matches: its sentence was rewritten or cut,
    and the pattern, with its test, is dead (a later sentence could match it by chance, unchecked
    for what it says)."""
    sents = [s for name, text in pages.items() if PAGES.match(name) for s in figure_sentences(text)]
    return [f"hand_figures.py: the pattern '{p[:80]}' matches no sentence of the pages: remove it"
            for p, _ in (FIGURES if figures is None else figures) if not any(re.search(p, s) for s in sents)]


def defaults_rows(gen_dir, results, steps):
    """The defaults tables' column of recorded runs (stepNN_defaults.md): every results file that ran
    the step is named in the row of its own device's class, and in no other row."""
    from .params import record_class
    problems = []
    for s in steps:
        path = os.path.join(gen_dir, f"{s.page}_defaults.md")
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            rows = [line for line in f if line.startswith("| `") and "recorded runs" not in line]
        cells = {}
        for line in rows:
            cls = re.match(r"\| `([\w-]+)`", line).group(1)
            cells.setdefault(cls, []).append(line.rstrip().rstrip("|").rsplit("|", 1)[-1])
        last = {cls: c[-1] for cls, c in cells.items()}
        for r in results:
            if r.row(s.name) is None:
                continue
            where = [cls for cls, cell in last.items() if f"`{r.stem}`" in cell]
            if where != [record_class(r)]:
                problems.append(f"{s.page}_defaults.md: {r.stem}, recorded on a device of class "
                                f"{record_class(r)}, is in the rows of {where or 'no class'}")
    return problems
