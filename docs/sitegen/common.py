"""What every part of the site generator shares: the two kinds of error, the formats of numbers
and sizes, and the CSV reader."""
import os
import csv
import re

# The columns of the harness's CSV (gemm_report.h) that the pages use
NEEDED = ["step", "platform", "device", "driver", "m", "n", "k", "alpha", "beta", "params", "warmup",
          "repeat", "median_ms", "best_ms", "gflops", "gflops_best", "max_err_over_bound", "status", "date"]


STEP_RE = re.compile(r"^kernel(\d\d)_\w+$")


class InputError(Exception):
    """A malformed input: reported as one line, exit 2."""


class ToolError(Exception):
    """diff failed: exit 3."""


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


def median(values):
    v = sorted(values)
    return v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2


def round_up(x, to):
    return (x + to - 1) // to * to


# Every file write() made in this run: a second write of one name means two generators chose it,
# and the page that includes it would show only the last one's (as the lesson's picture of the fragments
# and the lab record's table of their reads once did)
WRITTEN = set()


def write(path, text):
    """Writes a generated file; a Markdown snippet's paragraphs of text are wrapped (paragraphs()).
    Writing one path twice in a run is an error."""
    if os.path.abspath(path) in WRITTEN:
        raise InputError(f"{path}: written twice in one run (two generators chose the same name)")
    WRITTEN.add(os.path.abspath(path))
    if path.endswith(".md"):
        text = paragraphs(text)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def paragraphs(text):
    """Doxygen's \\includedoc runs the paragraphs of a snippet together ("holds.This kernel"): each
    paragraph of text becomes a <div class="para"> (docs/extra.css), which Doxygen keeps, Markdown
    inside it included. Tables, lists, images, headings and commands are left as they are."""
    out = []
    for block in re.split(r"\n\s*\n", text.strip("\n")):
        first = block.lstrip()
        if not first or first[0] in "|-<\\*" and not first.startswith("**") or re.match(r"\d+\. ", first):
            out.append(block)
        else:
            out.append(f'<div class="para">{block}</div>')
    return "\n\n".join(out) + "\n"


def short_name(program):
    m = STEP_RE.match(program)
    return f"{int(m.group(1))} {program.split('_', 1)[1]}" if m else program


NO_RESULTS = "No results are recorded yet: docs/results/README.md says how to record them.\n"


def previous_step(steps, step):
    i = steps.index(step)
    return steps[i - 1] if i > 0 else None



def column_tables(corner, heads, rows, per_table=4):
    """A table of labelled rows (label, [value per column]) as Markdown, split into tables of at most
    `per_table` value columns (each repeating the labels) so that it fits the page whatever the
    number of recorded devices."""
    out = []
    for start in range(0, len(heads), per_table):
        part = slice(start, start + per_table)
        lines = [f"| {corner} | " + " | ".join(heads[part]) + " |", "|---|" + "---:|" * len(heads[part])]
        lines += [f"| {label} | " + " | ".join(values[part]) + " |" for label, values in rows]
        out.append("\n".join(lines))
    return "\n\n".join(out) + "\n"
