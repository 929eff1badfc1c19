"""The lessons' figures against the results files: the check of the test docs.claims
(docs/tests/test_claims.py) that every figure a lesson (docs/stepNN.md, read as the reader sees it:
claims.read_pages() puts each generated snippet in) shows for a step, a size and a device is the
figure of that device's results file (docs/results/NAME.csv, the median run that every page reads),
so that no lesson puts a tuning record's figure under a results file's label. Two faults it would
have caught: step 7's bullet gave the results file's 1.66x (at 2048) beside "its 1.68x over step
6", the runs of the idea alone; step 11's table gave a tuning sweep's 61020 GFLOPS and 1.19x cuBLAS
at 4096 on the H200, where the main page gives the results file's 61530 and 1.21x.

What it reads, on each lesson page:
  - tables whose rows name a device (a results file's name or its device's) and a size (M=N=K=4096,
    4096 x 4096 x 4096, 1000x3000x500): each column whose head is a step's GFLOPS ("step 7,
    GFLOPS"), a ratio ("step 7 over step 6", "step 11 / cuBLAS") or an error over its bound
    ("error/bound, step 11");
  - bullets that start with a results file's name in bold (- **nvidia-h100**): "step 7 over step 6
    from 0.77x (at 512) to 1.66x (at 2048)", the range at the UNVERIFIED sizes, "**46115 GFLOPS**",
    "1.30x step 6's 35529 GFLOPS", "its 1.68x over step 6", "step 7 measured 1.68x step 6's",
    "0.89x cuBLAS", each at the size its bullet, its sentence ("At 2048 ...") or the figure ("(at
    512)") names. Where a sentence gives another record's figures, it says so first: from "in the
    runs of" (attribution.py's words for the runs of the idea alone, which the lab record shows)
    on, the sentence's figures are that run's and are not held against the results file.
A figure agrees where it is the results file's value as printed (to the last digit shown, rounded).
Where one does not, the message says which tuning record (lab/tuning/) holds it, if one does."""
import re
import statistics

from .common import size_short

PEERS = {"cuBLAS": "cublas", "CLBlast": "clblast"}
NUM = r"\d+(?:\.\d+)?"
SIZE = re.compile(r"M=N=K=(\d+)|(\d+) ?x ?(\d+) ?x ?(\d+)|M=(\d+) N=(\d+) K=(\d+)|(\d+)")
# From these words on, a sentence gives another record's figures (the runs of the idea alone)
OTHER_RECORD = re.compile(r"\bin the runs? of\b")
STEP_PAGE = re.compile(r"step(\d\d)\.md$")
BULLET = re.compile(r"\s*- \*\*([^*]+)\*\*(.*)")


def parse_size(text):
    """(M, N, K) of a size as the pages write it, or None."""
    m = SIZE.fullmatch(text.strip())
    if not m:
        return None
    g = [int(x) for x in m.groups() if x]
    return tuple(g) if len(g) == 3 else (g[0],) * 3


def decimals(shown):
    return len(shown.split(".")[1]) if "." in shown else 0


def agrees(shown, value):
    """Whether the figure as printed (`shown`, text) is `value` rounded to its last digit."""
    return abs(float(shown) - value) <= 0.5 * 10 ** -decimals(shown) * (1 + 1e-9) + 1e-12 * abs(value)


class Lesson:
    """The figures of one results file that a lesson may show, by the names the pages give them."""

    def __init__(self, results, steps, tuning):
        self.results, self.tuning = results, tuning
        self.names = {s.number: s.name for s in steps}

    def file(self, label):
        """The results file a label names (its file name or its device), or None."""
        label = label.replace("\\", "").strip("`* ")
        return next((r for r in self.results if label in (r.stem, r.device)), None)

    def program(self, name):
        """A step ('7' or 7) or a peer ('cuBLAS') as the results files name it."""
        name = str(name)
        if name in PEERS:
            return PEERS[name]
        return self.names.get(int(name)) if name.isdigit() else None

    def value(self, r, kind, a, b, size):
        """The results file's figure: a program's GFLOPS, a over b, or a's error over its bound (the
        median run, verified or not, as every table shows it), or None where it has none."""
        g = r.measured(self.program(a), size)[0]
        if kind == "error":
            row = r.row(self.program(a), size)
            return float(row["normwise_over_bound"]) if row and row.get("normwise_over_bound") else None
        if kind == "gflops" or g is None:
            return g
        den = r.measured(self.program(b), size)[0]
        return g / den if den else None

    def tuning_source(self, r, kind, a, b, size, shown):
        """The tuning record of r's device that holds the figure shown (a setting's median), or None."""
        # (a bench.py sweep holds cuBLAS under CUDA's platform name: the device's name decides)
        for t in (t for t in self.tuning if r.device in {d for _, d in t.device}):
            med = {}
            for row in t.rows:
                if row["_size"] == size:
                    med.setdefault((row["step"], row["params"]), []).append(row["_gflops"])
            med = {k: statistics.median(v) for k, v in med.items()}
            nums = [v for (p, _), v in med.items() if p == self.program(a)]
            dens = [v for (p, _), v in med.items() if kind == "ratio" and p == self.program(b)]
            if kind == "gflops" and any(agrees(shown, v) for v in nums):
                return t.name
            if any(agrees(shown, x / y) for x in nums for y in dens):
                return t.name
        return None

    def hold(self, page, r, kind, a, b, size, shown, problems):
        """Holds one figure shown (text) against r's; appends the problem, if any."""
        if size is None or not self.program(a) or (kind == "ratio" and not self.program(b)):
            return
        what = {"gflops": f"step {a}'s GFLOPS", "error": f"step {a}'s error over its bound",
                "ratio": f"step {a} over {'step ' + str(b) if str(b).isdigit() else b}"}[kind]
        value = self.value(r, kind, a, b, size)
        if value is not None and agrees(shown, value):
            return
        got = f"{value:.{decimals(shown) + 1}f}" if value is not None else "nothing"
        source = self.tuning_source(r, kind, a, b, size, shown)
        problems.append(f"{page}: {r.stem}, {what} at {size_short(size)}: the lesson shows {shown}, the results file "
                        f"(docs/results/{r.stem}.csv, its median run) {got}"
                        + (f"; {shown} is lab/tuning/{source}'s, a tuning record's figure under the results file's "
                           "label" if source else ""))


def column(head):
    """(kind, a, b) of a table column's head, or None."""
    h = head.replace("\\", "").replace("*", "").strip()
    m = re.fullmatch(r"step (\d+),? GFLOPS", h)
    if m:
        return "gflops", m.group(1), None
    m = re.fullmatch(r"step (\d+) (?:over|/) (?:step (\d+)|(cuBLAS|CLBlast))", h)
    if m:
        return "ratio", m.group(1), m.group(2) or m.group(3)
    m = re.fullmatch(r"error/bound, step (\d+)", h)
    return ("error", m.group(1), None) if m else None


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def table_figures(page, text, lesson, problems):
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if not line.startswith("|") or (i and lines[i - 1].startswith("|")):
            continue
        heads = [column(h) for h in cells(line)]
        if not any(heads):
            continue
        for row in lines[i + 2:]:
            if not row.startswith("|"):
                break
            row_cells = cells(row)
            r = next((lesson.file(c) for c in row_cells if lesson.file(c)), None)
            size = next((parse_size(c) for c in row_cells if "x" in c or "=" in c if parse_size(c)), None)
            if not r or not size:
                continue
            for head, cell in zip(heads, row_cells):
                m = re.match(NUM, cell.strip("`* "))
                if head and m:
                    lesson.hold(page, r, *head, size, m.group(0), problems)


def bullet_figures(page, step, text, lesson, problems):
    for line in text.splitlines():
        m = BULLET.match(line)
        r = m and lesson.file(m.group(1))
        if not r:
            continue
        rest = m.group(2)
        head = re.match(r", (M=N=K=\d+|M=\d+ N=\d+ K=\d+):", rest)
        bullet_size = parse_size(head.group(1)) if head else None
        pair = None
        for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z*\\`])", rest):
            at = re.match(r"At (M=N=K=\d+|\d+x\d+x\d+|\d+)\b", sentence)
            size = parse_size(at.group(1)) if at else bullet_size
            other = OTHER_RECORD.search(sentence)
            sentence = sentence[:other.start()] if other else sentence  # the rest is another record's
            taken = []
            for f in re.finditer(rf"step (\d+) over step (\d+) from ({NUM})x \(at (\S+?)\) to ({NUM})x \(at (\S+?)\)",
                                 sentence):
                pair = f.group(1), f.group(2)
                for shown, where in ((f.group(3), f.group(4)), (f.group(5), f.group(6))):
                    lesson.hold(page, r, "ratio", *pair, parse_size(where), shown, problems)
                taken.append(f.span())
            for f in re.finditer(rf"({NUM})x to ({NUM})x at the \d+ UNVERIFIED sizes \(([\d, x]+):", sentence):
                if pair:  # the lowest and the highest of the pair's ratios at those sizes
                    values = [lesson.value(r, "ratio", *pair, parse_size(s)) for s in f.group(3).split(", ")]
                    if None not in values:
                        for shown, value in ((f.group(1), min(values)), (f.group(2), max(values))):
                            if not agrees(shown, value):
                                problems.append(f"{page}: {r.stem}, step {pair[0]} over step {pair[1]} at the "
                                                f"UNVERIFIED sizes {f.group(3)}: the lesson shows {shown}, the results "
                                                f"file {value:.{decimals(shown) + 1}f}")
                taken.append(f.span())
            for f in re.finditer(rf"(?:step (\d+) measured |its )?(?:\*\*)?({NUM})x(?:\*\*)? (?:over )?"
                                 rf"(?:step (\d+)(?:'s)?(?: ({NUM}))?|(cuBLAS|CLBlast)\b)", sentence):
                if any(a <= f.start() < b for a, b in taken):
                    continue
                a = f.group(1) or str(step)
                lesson.hold(page, r, "ratio", a, f.group(3) or f.group(5), size, f.group(2), problems)
                if f.group(4):
                    lesson.hold(page, r, "gflops", f.group(3), None, size, f.group(4), problems)
            for f in re.finditer(rf"\*\*({NUM}) GFLOPS\*\*", sentence):
                lesson.hold(page, r, "gflops", str(step), None, size, f.group(1), problems)


def check(pages, results, steps, tuning):
    """The problems of the lessons' figures (pages: {name: text as read}, claims.read_pages())."""
    lesson, problems = Lesson(results, steps, tuning), []
    for name, text in sorted(pages.items()):
        m = STEP_PAGE.match(name)
        if m:
            table_figures(name, text, lesson, problems)
            bullet_figures(name, int(m.group(1)), text, lesson, problems)
    return problems
