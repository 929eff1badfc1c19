"""docs.prose_figures: the measured figures the pages quote in sentences are Doxygen aliases that
docs/sitegen/prose.py computes from lab/tuning/ (prose_figures.doxy). Checks that
  - every alias a page uses (\\measured_...) is one the records define, and every one defined is
    used somewhere (a figure no page quotes is dead code);
  - each comes out of the committed records as a figure (a number, or a percent), or a list of
    figures per results file ('34 % on nvidia-h100 and 31 % on nvidia-h200');
  - a record missing from the tuning directory is an error naming it, not a figure left out, and a
    record whose numbers change changes the figure (here run 13's host choice made slower);
  - the glossary's check of the lessons' words (sitegen/checks.py) finds a first use that is not a
    link to the glossary on made-up lessons, and none on the lessons.
Usage: test_prose.py SOURCE_DIR"""
import glob
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from sitegen import prose  # noqa: E402
from sitegen.common import InputError  # noqa: E402

source = sys.argv[1]
tuning = os.path.join(source, "lab", "tuning")
results = os.path.join(source, "docs", "results")
failures = []
figures = prose.figures(tuning, results)
pages = glob.glob(os.path.join(source, "docs", "*.md"))
used = set()
for page in pages:
    with open(page, encoding="utf-8") as f:
        used |= set(re.findall(r"\\(measured_\w+)", f.read()))
for name in sorted(used - set(figures)):
    failures.append(f"a page uses \\{name}, which no record defines")
for name in sorted(set(figures) - used):
    failures.append(f"\\{name} is defined but no page quotes it")
FIGURE = r"\d+(\.\d+)?( %|-\d+ %|x)?"
# or a list of figures (sizes, shares) per results file: '256 and 1024 on nvidia-h100, and at 5120
# (UNVERIFIED) on nvidia-h200', '34 % on nvidia-h100 and 31 % on nvidia-h200'
ITEM = r"(\d+(x\d+x\d+)?( \(UNVERIFIED\))?|\d+ %)"
PER_FILE = rf"{ITEM}((, | and ){ITEM})* on [\w-]+"
for name, value in figures.items():
    if not (re.fullmatch(FIGURE, value) or re.fullmatch(rf"{PER_FILE}((,? and (at )?){PER_FILE})*", value)):
        failures.append(f"\\{name} is '{value}', not a figure")

with tempfile.TemporaryDirectory() as tmp:
    copy = os.path.join(tmp, "tuning")
    shutil.copytree(tuning, copy)
    log = os.path.join(copy, prose.RUN13 + ".log")
    with open(log, encoding="utf-8") as f:
        text = f.read()
    # the host's choice at 1000x3000x500 made 1.5x slower: the gain over it grows
    block = re.search(r"(tune: kernel09_split_k, \d+ combinations at 1000x3000x500\n  SLICES=0 SPLIT_ROWS=0\s+)([0-9.]+)",
                      text)
    slower = text[:block.start(2)] + f"{float(block.group(2)) / 1.5:.1f}" + text[block.end(2):]
    with open(log, "w", encoding="utf-8") as f:
        f.write(slower)
    changed = prose.figures(copy, results)["measured_step09_model_choice_gain"]
    if changed == figures["measured_step09_model_choice_gain"]:
        failures.append(f"run 13's host choice made slower left the figure at {changed}")
    os.unlink(log)
    try:
        prose.figures(copy, results)
        failures.append("a missing record gave figures all the same")
    except InputError as e:
        if prose.RUN13 not in str(e):
            failures.append(f"a missing record's error does not name it: {e}")

# The glossary's check (sitegen/checks.py, run by docs.build on the lessons) on made-up lessons: a
# term's first use must be the \\ref to its entry, code, headings and other links aside, and only once
from sitegen.checks import check_glossary, glossary_problems  # noqa: E402
for text, expect in (('A \\ref glossary_warp "warp", then a warp.', ""),
                     ('`warp` in code, \\ref step08 "the warp step", then \\ref glossary_warp "warp".', ""),
                     ('\\section x_y The warp\n\nThen \\ref glossary_warp "warps".', ""),
                     ('A warp, then \\ref glossary_warp "warp".', "the first use of 'warp' is not"),
                     ('A tensor\ncore.', "the first use of 'tensor core' is not"),
                     ('\\ref glossary_warp "warp", \\ref glossary_warp "warps".', "links glossary_warp again"),
                     ('\\ref glossary_warp "lane" of a warp.', "is not the term")):
    got = glossary_problems("made-up.md", text)
    if (expect and not any(expect in g for g in got)) or (not expect and got):
        failures.append(f"glossary check on {text!r}: {got}, expected {expect or 'nothing'}")
failures += [f"glossary: {p}" for p in check_glossary(os.path.join(source, "docs"))]

for f in failures:
    print(f"FAILED: {f}")
print(f"{len(figures)} figures, {len(used)} used by the pages; {len(failures)} failures")
sys.exit(1 if failures else 0)
