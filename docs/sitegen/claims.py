"""What the pages say, against the recorded data and against the tables beside it: the checks of
the test docs.claims (docs/tests/test_claims.py), which reads the pages as a reader does, each
docs/*.md with its generated snippets (\\includedoc) and measured figures (\\measured_...) put in.

  - marked_gains: a gain that is not its step's idea (attribution.py) is marked so in every table
    and sentence that shows it: the main page's table (path.md), the results tables
    (results_headline.md), the step's own sentences (stepNN_gain.md) and its lesson's table
    (stepNN_buys.md, at the headline size and at the awkward size beside it);
  - denials: where a step's page says in prose that its gain on a kind of device is not the idea's
    ("not split-K's", "not the idea's", "not because of warp tiling"), the main page's table marks
    that device's gain for that step too: the prose and the table cannot tell two stories;
  - gain_figures: each step's gain quoted in its sentences (stepNN_gain.md, "**2.82x** step 8's")
    is the gain the tables show for that device and step;
  - counts: within a page, every count of the kinds or combinations measured that is quoted for
    one device ("the fastest of 43 kinds", "10 of the 43 kinds measured") is the same number;
  - universal claims: a sentence that claims something of "every device", "every recorded
    device", "every size" or "at every" and compares (faster, slower, above, below, gain, lose, get
    back, agree) must be one of CLAIMS, whose test against the data it passes. A new claim of
    that kind fails the test until a test of it is added here: no sentence about every device or
    every size stands unchecked.
Each check returns a list of problems, one line each, naming the page.
"""
import glob
import os
import re

from . import tables, tuning_ablation
from .common import fmt_ratio, median, previous_step, size_short, size_text

UNIVERSAL = re.compile(r"\b(every (?:recorded )?devices?|every (?:square )?sizes?|every device we recorded"
                       r"|at every (?:size|square|device|recorded|run|other|one)\w*)\b", re.I)
COMPARES = re.compile(r"\b(faster|slower|gains?|gained|loses?|lose|gets? back|agrees?"
                      r"|(?:stays?|is|are) (?:above|below))\b", re.I)
# The pages that quote the recorded data (the others say how the tools work)
DATA_PAGES = re.compile(r"(mainpage|step\d\d|lab\d\d|results)\.md$")
DENIAL = re.compile(r"\bnot (?:the idea(?:'s)?|this step's idea|its idea|because of [\w -]+)|\bis not [\w-]+'s\b")
CPU_WORDS = re.compile(r"\b(CPU|CPUs|PoCL)\b")
GPU_WORDS = re.compile(r"\b(GPU|GPUs|H100|H200|NVIDIA)\b")
POCL = "Portable Computing Language"


# --- reading the pages as the reader sees them ----------------------------------------------------

def aliases(gen_dir):
    """{name: value} of the measured figures (prose_figures.doxy)."""
    path = os.path.join(gen_dir, "prose_figures.doxy")
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as f:
        return dict(re.findall(r'ALIASES \+= "(\w+)=([^"]*)"', f.read()))


def expand(text, gen_dir, figures=None):
    """A page's Markdown with each \\includedoc'd snippet put in its place, each \\measured_
    figure replaced by its value and each link to the glossary by its text."""
    def snippet(m):
        path = os.path.join(gen_dir, m.group(1))
        if not os.path.exists(path):
            return ""
        with open(path, encoding="utf-8") as f:
            return "\n\n" + f.read() + "\n\n"
    text = re.sub(r"\\includedoc\s+(\S+)", snippet, text)
    # a link to the glossary reads as its word (checks.py: each lesson links a term's first use)
    text = re.sub(r'\\ref\s+glossary_\w+\s+"([^"\n]*)"', r"\1", text)
    figures = aliases(gen_dir) if figures is None else figures
    return re.sub(r"\\(measured_\w+)", lambda m: figures.get(m.group(1), m.group(0)), text)


def read_pages(docs_dir, gen_dir):
    """{page file name: its text as read} for the site's pages (docs/*.md)."""
    figures = aliases(gen_dir)
    out = {}
    for path in sorted(glob.glob(os.path.join(docs_dir, "*.md"))):
        with open(path, encoding="utf-8") as f:
            out[os.path.basename(path)] = expand(f.read(), gen_dir, figures)
    return out


def sentences(text):
    """The sentences of a page's prose: tables, code and HTML tags left out."""
    text = re.sub(r"```.*?```", " ", text, flags=re.S)
    text = re.sub(r"</?[A-Za-z][^>]*>", " ", text)  # tags only: "K < 8" is text
    blocks = []
    for block in re.split(r"\n\s*\n|\n(?=\s*(?:- |\d+\. |\\section|\\subsection))", text):
        lines = [line for line in block.splitlines() if not line.lstrip().startswith("|")]
        if lines:
            blocks.append(" ".join(line.strip() for line in lines))
    out = []
    for block in blocks:
        out += [s.strip() for s in re.split(r"(?<=[.!?])\s+(?=[A-Z*\\`])", block) if s.strip()]
    return out


def read(gen_dir, name):
    path = os.path.join(gen_dir, name)
    if not os.path.exists(path):
        return ""
    with open(path, encoding="utf-8") as f:
        return f.read()


def path_cells(gen_dir):
    """The main page's table (path.md): {(device label, step number): cell}."""
    lines = [line for line in read(gen_dir, "path.md").splitlines() if line.startswith("|")]
    if not lines:
        return {}
    heads = [c.strip() for c in lines[0].strip("|").split("|")]
    labels = {i: h.split(":")[0] for i, h in enumerate(heads) if h.endswith("GFLOPS (vs previous)")}
    out = {}
    for line in lines[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        m = re.match(r"(\d+):", cells[0])
        if m:
            for i, label in labels.items():
                out[label, int(m.group(1))] = cells[i]
    return out


def headline_cells(gen_dir):
    """The results tables (results_headline.md): {(device label, program): its 'vs previous step' cell}."""
    out, label = {}, None
    for line in read(gen_dir, "results_headline.md").splitlines():
        m = re.search(r"\*\*([^*]+)\*\*: ", line)
        if m and not line.startswith("|") and not line.lstrip().startswith("-"):
            label = m.group(1).replace("\\", "")
        elif line.startswith("| `") and label:
            cells = [c.strip() for c in line.strip("|").split("|")]
            out[label, cells[0].strip("`")] = cells[2]
    return out


def gain_lines(gen_dir, step):
    """A step's sentences (stepNN_gain.md): {device label: its line}."""
    out = {}
    for line in read(gen_dir, f"{step.page}_gain.md").splitlines():
        m = re.match(r"- \*\*([^*]+)\*\*", line)
        if m:
            out[m.group(1).replace("\\", "")] = line
    return out


def buys_cells(gen_dir, step):
    """A lesson's table (stepNN_buys.md): {(device label, problem): its last cell, the step over the
    one before}."""
    out = {}
    for line in read(gen_dir, f"{step.page}_buys.md").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| `") and len(cells) > 2:
            out[cells[0].strip("`").replace("\\", ""), cells[1]] = cells[-1]
    return out


# --- the checks ------------------------------------------------------------------------------------

def marked_gains(gen_dir, results, steps, attribution):
    problems = []
    cells, head = path_cells(gen_dir), headline_cells(gen_dir)
    for r in results:
        for s in steps:
            reason = attribution.not_idea(r, s)
            if not reason:
                continue
            prev = previous_step(steps, s)
            ratio = fmt_ratio(r.gflops(s.name) / r.gflops(prev.name))
            what = f"{r.stem}, step {s.number} ({ratio}) is not the step's idea ({reason})"
            if "not its idea" not in cells.get((r.stem, s.number), ""):
                problems.append(f"path.md: {what}, but the main page's table shows it as the step's gain: "
                                f"'{cells.get((r.stem, s.number))}'")
            if "not its idea" not in head.get((r.stem, s.name), ""):
                problems.append(f"results_headline.md: {what}, but the table shows it as the step's gain: "
                                f"'{head.get((r.stem, s.name))}'")
            if "not this step's idea" not in gain_lines(gen_dir, s).get(r.stem, ""):
                problems.append(f"{s.page}_gain.md: {what}, but the step's page quotes it as the step's gain")
    # the lessons' tables, at each size they show
    for s in steps:
        buys = buys_cells(gen_dir, s)
        for r in results:
            for size in (r.headline, tables.awkward_size(r)):
                reason = size and attribution.not_idea(r, s, None if size == r.headline else size)
                if not reason:
                    continue
                problem = size_text(size) if size == r.headline else size_short(size)
                cell = buys.get((r.stem, problem), "")
                if "not its idea" not in cell:
                    problems.append(f"{s.page}_buys.md: {r.stem}, step {s.number} at {problem} is not the step's "
                                    f"idea ({reason}), but the lesson's table shows it as the step's gain: '{cell}'")
    return problems


def denials(pages, gen_dir, results, steps):
    """Prose that says a step's gain on a kind of device is not its idea, against the main table."""
    problems = []
    cells = path_cells(gen_dir)
    for s in steps:
        text = pages.get(f"{s.page}.md")
        if not text:
            continue
        for sentence in sentences(text):
            if not DENIAL.search(sentence):
                continue
            kinds = [k for k, words in (("cpu", CPU_WORDS), ("gpu", GPU_WORDS)) if words.search(sentence)]
            for r in results:
                kind = "cpu" if POCL in r.platform else "gpu"
                cell = cells.get((r.stem, s.number), "")
                if kind not in kinds or not re.search(r"\((\d+\.\d+)x", cell) or "(1.00x" in cell:
                    continue
                if "not its idea" not in cell:
                    problems.append(f"{s.page}.md says of the {kind.upper()} that the gain is not the step's idea "
                                    f"('{sentence[:160]}'), but the main page's table shows {r.stem}'s {cell} for "
                                    f"step {s.number} as its gain")
    return problems


def gain_figures(gen_dir, results, steps):
    problems = []
    cells, head = path_cells(gen_dir), headline_cells(gen_dir)
    for s in steps[1:]:
        for label, line in gain_lines(gen_dir, s).items():
            m = re.search(r"\*\*(\d+\.\d+x)\*\* step \d+'s", line)
            if not m:
                continue
            table = re.search(r"\((\d+\.\d+x)", cells.get((label, s.number), ""))
            if table and table.group(1) != m.group(1):
                problems.append(f"{s.page}_gain.md: {label}, step {s.number}: the sentence says {m.group(1)}, the main "
                                f"page's table {table.group(1)}")
            h = re.match(r"(\d+\.\d+x)", head.get((label, s.name), ""))
            if h and h.group(1) != m.group(1):
                problems.append(f"{s.page}_gain.md: {label}, step {s.number}: the sentence says {m.group(1)}, the "
                                f"results table {h.group(1)}")
    return problems


# A paragraph or list item that starts with a name in bold starts that device's part of a page
LABEL = re.compile(r"\s*(?:- |<div class=\"para\">)?\*\*([^*]+)\*\*")


def paragraphs(text):
    return re.split(r"\n\s*\n|\n(?=\s*- )", text)


def foreign_devices(pages, results, tuning):
    """A table of tuning runs (a paragraph naming lab/tuning/) under the name of a device that no
    results file was recorded on must say so: a reader takes it for the recorded device's."""
    recorded = {r.device for r in results}
    foreign = {device for t in tuning for _, device in t.device} - recorded
    problems = []
    for name, text in pages.items():
        for block in paragraphs(text):
            m = LABEL.match(block)
            if m and "lab/tuning/" in block and m.group(1).replace("\\", "") in foreign \
                    and not re.search(r"\bdevice that no results file here was recorded on\b", block):
                problems.append(f"{name}: tuning runs of {m.group(1)}, a device no results file here was recorded "
                                "on, shown without saying so (nor which recorded device and size it is not)")
    return problems


# "every figure ... rendered from docs/results/" where the site renders from lab/tuning/ too
SOURCES = re.compile(r"\b(?:every|all|no) (?:figure|number|table)s?\b[^.]*?`?docs/results/?`?", re.I)


def sources_claims(pages, tuning):
    """A sentence that gives docs/results/ as the source of every figure, while tables come from the
    tuning records (lab/tuning/) too."""
    if not tuning:
        return []
    return [f"{name}: '{s[:160]}' names docs/results/ as the source of every figure, but the site renders tables "
            "from lab/tuning/ too" for name, text in pages.items() for s in sentences(text)
            if SOURCES.search(s) and "lab/tuning" not in s]


COUNT = re.compile(r"\bof (?:the )?(\d+) (?:kinds|(?:[\w-]+ )?combinations)\b")


def counts(pages):
    """Counts of what was measured, per device (the name in bold that starts its paragraphs) within
    a page, must agree."""
    problems = []
    for name, text in pages.items():
        found, label = {}, None
        for block in paragraphs(text):
            m = LABEL.match(block)
            if m:
                label = m.group(1).replace("\\", "")
            for c in COUNT.finditer(re.sub(r"<[^>]+>", "", block)):
                if label:
                    found.setdefault(label, {}).setdefault(int(c.group(1)), c.group(0))
        for label, got in found.items():
            if len(got) > 1:
                problems.append(f"{name}: {label}: the counts of what was measured disagree: "
                                + "; ".join(f"'{v}'" for v in got.values()))
    return problems


# --- universal claims and their tests ---------------------------------------------------------------

class Data:
    """What the tests of CLAIMS read."""

    def __init__(self, results, tuning, steps, defaults, attribution, gen_dir):
        self.results, self.tuning, self.steps, self.defaults = results, tuning, steps, defaults
        self.attribution, self.gen_dir = attribution, gen_dir

    def step(self, number):
        return next(s for s in self.steps if s.number == number)

    def cpu(self):
        return [r for r in self.results if POCL in r.platform]

    def gpus(self):
        return [r for r in self.results if POCL not in r.platform]


def ratios(r, a, b, min_size=0, verified_only=True):
    """{size: rate of step a / rate of step b} at every size of r where both ran."""
    out = {}
    for s in r.sizes:
        if s[0] < min_size:
            continue
        ga, va = r.measured(a.name, s)
        gb, vb = r.measured(b.name, s)
        if ga and gb and (va and vb or not verified_only):
            out[s] = ga / gb
    return out


def later_steps_get_back(d):
    """'On every recorded device the later steps get back above the earlier ones [through their
    ideas]': no device where the steps after the fastest one stay below it, or pass it only through
    gains that are not their ideas (tables.stall)."""
    bad = [r.stem for r in d.results if tables.stall(r, d.steps, d.attribution)]
    return f"not on {', '.join(bad)}: the verdict's stall" if bad else None


def step7_slower_on_cpu(d):
    bad = [f"{r.stem} at {s}: {x:.2f}x" for r in d.cpu() for s, x in ratios(r, d.step(7), d.step(6)).items() if x >= 1]
    return "; ".join(bad) or (None if d.cpu() else "no CPU file")


def step2_faster_most_where_step1_slowest_on_cpu(d):
    """faster at every size (above 1x), by several times (3x or more) at the largest square size,
    where step 1 runs at its lowest rate of the square sizes"""
    bad = []
    for r in d.cpu():
        found = ratios(r, d.step(2), d.step(1))
        bad += [f"{r.stem} at {s}: {x:.2f}x" for s, x in found.items() if x <= 1.0]
        squares = [s for s in found if s[0] == s[1] == s[2]]
        if not squares:
            bad.append(f"{r.stem}: no square size with both steps")
            continue
        largest = max(squares)
        if found[largest] < 3:
            bad.append(f"{r.stem} at {largest}: {found[largest]:.2f}x, not several times")
        rates = {s: r.measured(d.step(1).name, s)[0] for s in squares}
        if min(rates, key=rates.get) != largest:
            bad.append(f"{r.stem}: step 1 is slowest at {min(rates, key=rates.get)}, not at the largest size {largest}")
    return "; ".join(bad) or (None if d.cpu() else "no CPU file")


def step10_above_step9_on_cpu(d):
    bad = [f"{r.stem} at {s}: {x:.2f}x" for r in d.cpu() for s, x in ratios(r, d.step(10), d.step(9)).items() if x <= 1]
    return "; ".join(bad) or (None if d.cpu() else "no CPU file")


def step8_not_faster_everywhere(d):
    slower = [s for r in d.gpus() for s, x in ratios(r, d.step(8), d.step(7)).items() if x < 1]
    return None if slower else "step 8 is faster than step 7 at every size of the GPU sweeps"


def step10_faster_from_4095(d):
    bad = [f"{r.stem} at {s[0]}: {x:.3f}x" for r in d.gpus()
           for s, x in ratios(r, d.step(10), d.step(9), 4095, verified_only=False).items() if x <= 1]
    return "; ".join(bad) or None


def alone(d, number):
    """{ablation file: configurations (tuning_ablation.alone_configs)} for step `number`."""
    step = d.step(number)
    prev = previous_step(d.steps, step)
    out = {}
    for t in d.tuning:
        if tuning_ablation.ALONE_FILE.match(t.name):
            c = tuning_ablation.alone_configs(t, prev, step, d.defaults)
            if c:
                out[t.name] = c
    return out


def double_buffering_alone_faster(d):
    bad = []
    for name, c in alone(d, 7).items():
        base, idea = c.get("step 6, its defaults", {}), c.get("step 7 with step 6's parameters", {})
        for size, rows in idea.items():
            a = median([r["_gflops"] for r in rows])
            b = median([r["_gflops"] for r in base.get(size, [])] or [float("inf")])
            if a <= b:
                bad.append(f"{name} at {size[0]}: {a:.0f} against {b:.0f}")
    return "; ".join(bad) or None


def runs19_agree_within_a_percent(d):
    runs = alone(d, 8)
    a, b = runs.get("nvidia-h100-run19-ablation.csv"), runs.get("nvidia-h100-run19b-ablation.csv")
    if not a or not b:
        return "runs 19 and 19b are not both recorded"
    bad = []
    for label in a:
        for size in a[label]:
            if label in b and size in b[label]:
                x = median([r["_gflops"] for r in a[label][size]])
                y = median([r["_gflops"] for r in b[label][size]])
                if abs(x - y) / min(x, y) >= 0.01:
                    bad.append(f"{label} at {size[0]}: {x:.0f} and {y:.0f}")
    return "; ".join(bad) or None


def run14_host_fastest(d):
    """Run 14: at every size, the host's choice (the first row of step 9 there) is the configuration
    whose fastest row is the fastest."""
    t = next((t for t in d.tuning if t.name == "nvidia-h100-run14-split-rows.csv"), None)
    if not t:
        return "run 14 is not recorded"
    bad = []
    for size in sorted({r["_size"] for r in t.rows if r["step"] == "kernel09_split_k"}):
        rows = [r for r in t.rows if r["step"] == "kernel09_split_k" and r["_size"] == size]
        config = lambda r: (r["_params"].get("SLICES"), r["_params"].get("SPLIT_ROWS"))  # noqa: E731
        best = max(rows, key=lambda r: r["_gflops"])
        if config(rows[0]) != config(best):
            bad.append(f"{'x'.join(map(str, size))}: the host chose {config(rows[0])}, {config(best)} was fastest")
    return "; ".join(bad) or None


def run21_smaller_blocks_lose(d):
    """'From 1024 up, the smaller blocks gain under one percent at one size (2048) and lose at every
    other': the column 'its rate' of step10_blocks.md, the table the sentence reads."""
    gains, bad = [], []
    for line in read(d.gen_dir, "step10_blocks.md").splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) < 4 or not re.match(r"\d+(x\d+x\d+)?$", cells[0]):
            continue
        if int(cells[0].split("x")[0]) < 1024:
            continue
        rate = float(cells[3].rstrip("x"))
        if rate > 1:
            gains.append((cells[0], rate))
    if [g[0] for g in gains] != ["2048"] or gains[0][1] >= 1.01:
        bad.append(f"the sizes where a smaller block gains: {gains}")
    return "; ".join(bad) or None


def step11_sgemm_alone_beats_targets(d):
    """lab11: 'At every one of these sizes the sgemm alone comes within a percent of what its target
    asks or beats it': at each target's size of each recorded sweep (step11_target_parts.md's rows),
    cuBLAS's time over the sgemm kernel's alone is at least 0.99 of the target. (Every sweep but one
    beat it; the step 12 draft's sweep, lab/tuning/nvidia-h100-step12-draft.csv, measured 1.245x
    against 1.25x at 4096.)"""
    from .fragments import target_parts
    rows = target_parts(d.tuning)
    bad = [f"{device} at {size_short(size)}: {c / sgemm:.3f}x, the target {target}x"
           for device, size, target, _, sgemm, _, c in rows if c / sgemm < 0.99 * target]
    return "; ".join(bad) or (None if rows else "no sweep has step 11 beside cuBLAS at the targets' sizes")


def step11_sgemm_alone_below_large_targets(d):
    """lab12: 'On every recorded device step 11's sgemm alone is below 1.3 times cuBLAS at 4096 and
    8192': at both sizes, in each sweep of step11_target_parts.md's rows that has them, cuBLAS's time
    over the sgemm kernel's alone is under 1.3; and both sizes have such a row."""
    from .fragments import target_parts
    rows = [r for r in target_parts(d.tuning) if r[1] in ((4096, 4096, 4096), (8192, 8192, 8192))]
    bad = [f"{device} at {size_short(size)}: {c / sgemm:.3f}x"
           for device, size, _, _, sgemm, _, c in rows if c / sgemm >= 1.3]
    if {r[1] for r in rows} != {(4096, 4096, 4096), (8192, 8192, 8192)}:
        bad.append("no sweep has step 11 beside cuBLAS at both 4096 and 8192")
    return "; ".join(bad) or None


def step12_depth_runs(d):
    from . import tuning_step12 as t
    return t.medians(d.tuning_dir, t.DEPTH, t.depth_label) if getattr(d, "tuning_dir", None) else {}


def step12_sizes(runs):
    return sorted({size for size, _ in runs})


def deeper_tile_slower(d):
    """lab12: 'The deeper tile made both steps slower at every size of the run': in
    lab/exp_step12_depth.sh's log, step 11 and step 12 at TSK = 16 are each slower than at their
    defaults (medians of the rounds), at every size; and step 12 is no closer to step 11's sgemm
    alone at TSK = 16 than at 8 (its rate over the sgemm's is not higher by more than a percent)."""
    runs = step12_depth_runs(d)
    if not runs:
        return "no lab/exp_step12_depth.sh log"
    bad = []
    for size in step12_sizes(runs):
        for step in ("step 11", "step 12"):
            if runs[(size, step + ", TSK = 16")] >= runs[(size, step)]:
                bad.append(f"{step} at TSK = 16 not slower at {size_short(size)}")
        gap8 = runs[(size, "step 12")] / runs[(size, "step 11, sgemm alone")]
        gap16 = runs[(size, "step 12, TSK = 16")] / runs[(size, "step 11, TSK = 16, sgemm alone")]
        if gap16 > gap8 * 1.01:
            bad.append(f"step 12 closer to step 11's sgemm at TSK = 16 at {size_short(size)}: {gap16:.3f} against {gap8:.3f}")
    return "; ".join(bad) or None


def copies_through_l1_slower(d):
    """lab12: 'its copies through L1 were slower than its own at every size of the run': in
    lab/exp_step12_depth.sh's log, step 12 with cp.async.ca is slower than step 12 at every size."""
    runs = step12_depth_runs(d)
    if not runs:
        return "no lab/exp_step12_depth.sh log"
    bad = [size_short(s) for s in step12_sizes(runs) if runs[(s, "step 12, copies through L1")] >= runs[(s, "step 12")]]
    return f"not slower at {', '.join(bad)}" if bad else None


def pairs_faster_but_512(d):
    """lab12: 'Read in pairs, the fragments made step 12 faster at every size of the run but 512,
    where it was slower': in each of lab/exp_step12_pairs.sh's logs, the pairs variant is faster
    than the kernel before it at every size but 512 and slower at 512 (medians of the rounds); and it
    is still below step 11's sgemm alone at 4096 and 8192 ('without closing it') while above the
    kernel before it there."""
    from . import tuning_step12 as t
    bad = []
    for name in (t.PAIRS, t.PAIRS_PAD):
        runs = t.medians(d.tuning_dir, name, t.pairs_label) if getattr(d, "tuning_dir", None) else {}
        if not runs:
            bad.append(f"no {name}")
            continue
        for s in step12_sizes(runs):
            faster = runs[(s, "pairs")] > runs[(s, "step 12")]
            if faster != (s != (512, 512, 512)):
                bad.append(f"{name}: {'faster' if faster else 'slower'} at {size_short(s)}")
        for s in ((4096, 4096, 4096), (8192, 8192, 8192)):
            if not runs[(s, "step 12")] < runs[(s, "pairs")] < runs[(s, "step 11, sgemm alone")]:
                bad.append(f"{name}: at {size_short(s)} not between step 12 and step 11's sgemm alone")
    return "; ".join(bad) or None


def pad_alone_slower(d):
    """lab12: 'With TILE_PAD = 4 alone, the kernel before the pairs was slower at every size of the
    run': in lab/exp_step12_pairs.sh's second log, the run 'pad' is slower than the kernel before
    the pairs at every size (medians of the rounds)."""
    from . import tuning_step12 as t
    runs = t.medians(d.tuning_dir, t.PAIRS_PAD, t.pairs_label) if getattr(d, "tuning_dir", None) else {}
    if not runs:
        return f"no {t.PAIRS_PAD}"
    bad = [size_short(s) for s in step12_sizes(runs) if runs[(s, "pad")] >= runs[(s, "step 12")]]
    return f"not slower at {', '.join(bad)}" if bad else None


def split_code_costs(d):
    """lab12: 'Without the split's code the kernel was faster than with it, K not split, at every size
    of the run and in both rounds, and it spilled less': in lab/exp_step12_live.sh's log, nosum is
    faster than step 12 with K not split in each round at each size, and its compiler's report
    shows fewer bytes spilled than the kernel's."""
    from . import tuning_step12 as t
    read = t.live_rounds(d.tuning_dir, t.LIVE) if getattr(d, "tuning_dir", None) else None
    if read is None:
        return f"no {t.LIVE}"
    runs, compiled = read
    bad = [f"nosum not faster at {size_short(s)} in round {i + 1}" for (s, run), rates in runs.items()
           if run == "nosum" for i, (a, b) in enumerate(zip(rates, runs[(s, "no split")])) if a <= b]
    if any(len(rates) < 2 for (s, run), rates in runs.items() if run == "nosum"):
        bad.append("fewer than two rounds")
    if int(compiled["step12_nosum"][1]) >= int(compiled["step12_kernel"][1]):
        bad.append("nosum spilled no less than the kernel")
    return "; ".join(bad) or None


def order_variants_slower(d):
    """lab12: 'readsfirst was slower than step 12 at every size of the run, in both runs, and so were
    copieslast and nobounds': in lab/exp_step12_order.sh's two logs, each variant the log ran is
    slower than step 12 at every size it ran (medians of the rounds); readsfirst and copieslast
    spilled more than the kernel (the compiler's report in the same log); and nobounds, the
    slower, has no spill at all in its loop's machine code and fewer instructions than step 12's
    (nvidia-h100-step12-sass-loops.txt)."""
    from . import sass_loops, tuning_step12 as t
    if not getattr(d, "tuning_dir", None):
        return "no tuning records"
    bad = []
    for name in (t.ORDER_FIRST, t.ORDER):
        path = os.path.join(d.tuning_dir, name)
        if not os.path.isfile(path):
            bad.append(f"no {name}")
            continue
        runs, compiled = t.read_rounds(path, t.order_label)
        runs = {k: median(v) for k, v in runs.items()}
        for (s, run), rate in runs.items():
            if run in t.ORDER_NAMES and rate >= runs[(s, "step 12")]:
                bad.append(f"{name}: {run} not slower at {size_short(s)}")
        for v in ("readsfirst", "copieslast"):
            key = f"step12_{v}"
            if key in compiled and int(compiled[key][1]) <= int(compiled["step12_kernel"][1]):
                bad.append(f"{name}: {v} spilled no more than the kernel")
    loops_path = os.path.join(d.tuning_dir, sass_loops.SASS_LOOPS)
    if not os.path.isfile(loops_path):
        return "; ".join(bad + [f"no {sass_loops.SASS_LOOPS}"])
    loops = {n: sass_loops.counts(sass_loops.main_loop(sass_loops.instructions(lines)))
             for n, lines in sass_loops.read_loops(loops_path).items()}
    if loops["nobounds"].get("spills (LDL, STL)", 0) or loops["nobounds"]["all"] >= loops["step 12"]["all"]:
        bad.append("nobounds's loop spills or is not shorter than step 12's")
    return "; ".join(bad) or None


def describes_the_pages(d):
    return None


# (pattern of the sentence, its test: None when the data bear it out, else what contradicts it)
CLAIMS = [
    (r"On every recorded device the later steps get back above the earlier ones", later_steps_get_back),
    (r"On the CPU, through PoCL, step 7 is slower at every size", step7_slower_on_cpu),
    (r"On the CPU, through PoCL, it is faster at every\s+recorded size, by several times at the largest, where step 1\s+itself runs slowest",
     step2_faster_most_where_step1_slowest_on_cpu),
    (r"The CPU line, which is above step 9's at every recorded size", step10_above_step9_on_cpu),
    (r"step 8 is not faster at every size", step8_not_faster_everywhere),
    (r"On both GPUs step 10 is slightly faster than step 9 at every size from 4095 up", step10_faster_from_4095),
    (r"Double buffering alone, with step 6's tile and block, is faster than step 6 at every size of the runs",
     double_buffering_alone_faster),
    (r"Runs 19 and 19b, on two different H100s, agree to within a percent at every size",
     runs19_agree_within_a_percent),
    (r"the host chose the configuration that measured fastest at every size", run14_host_fastest),
    (r"From 1024 up, the smaller blocks gain under one percent at one size \(2048\) and lose at every other",
     run21_smaller_blocks_lose),
    (r"At every one of these sizes the sgemm alone comes within a percent of what its target\s+asks or beats it",
     step11_sgemm_alone_beats_targets),
    (r"On every recorded device step 11's sgemm alone is below 1\.3 times cuBLAS at 4096\s+and\s+8192",
     step11_sgemm_alone_below_large_targets),
    (r"The deeper tile made both steps slower at every size of the run", deeper_tile_slower),
    (r"its copies through L1 were\s+slower than its own at every size of the run", copies_through_l1_slower),
    (r"Read in pairs, the fragments made step 12 faster at every size of the run but 512", pairs_faster_but_512),
    (r"With TILE_PAD = 4 alone, the kernel before the pairs was slower at every size of the run", pad_alone_slower),
    (r"and\s+the pairs again faster at every size but 512", pairs_faster_but_512),
    (r"readsfirst was slower than step 12 at every size of the run", order_variants_slower),
    (r"Without the split's code the kernel was faster than with it", split_code_costs),
    # what a page shows, not a claim about the data
    (r"what it gained on every device we recorded", describes_the_pages),
    (r"^Step \d+ (?:on|against) (?:step \d+ at )?every (?:recorded device|(?:square )?size)", describes_the_pages),
    (r"step \d+ against step \d+ at every size of each recorded sweep:$", describes_the_pages),
    (r"where a step's page compares it with the step before at every size", describes_the_pages),
    # a pitfall's warning, of any run
    (r"would look faster than it is at every size that needs them", describes_the_pages),
]


def universal_claims(pages, data):
    problems = []
    for name, text in pages.items():
        if not DATA_PAGES.match(name):
            continue
        for sentence in sentences(text):
            if not (UNIVERSAL.search(sentence) and COMPARES.search(sentence)):
                continue
            known = [(p, test) for p, test in CLAIMS if re.search(p, sentence)]
            if not known:
                problems.append(f"{name}: a claim about every device or size that no test in docs/sitegen/claims.py "
                                f"checks against the data: '{sentence[:200]}'")
                continue
            for pattern, test in known:
                wrong = test(data)
                if wrong:
                    problems.append(f"{name}: '{sentence[:160]}' is not what the data say: {wrong}")
    return problems
