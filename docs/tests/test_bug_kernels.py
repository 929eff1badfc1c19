"""The find-the-bug kernels of the exercises (docs/exercises/stepNN_bug*.cl) give nothing away but
what the exercise page says, and are what it says they are:

  test_bug_kernels.py SOURCE headers
      every bug kernel starts with the exercise header, in one form:
        // Exercise N.M of the exercises page (docs/exercises.md). Launch, parameters and constraints:
        // those of KERNEL_FILE. The page's commands:
        //   <each line of the commands of exercise N.M, exactly as the page shows them>
      where exercise N.M names the file and KERNEL_FILE exists; and below the header there is no
      comment at all (a comment beside the code could state the right line or point at the wrong one);
      nor does the file's name or its exercise's title say where the bug is: stepNN_bug.cl or
      stepNN_bug_N.cl, "Exercise N.M: find the bug" or "find the bug (N)".

  test_bug_kernels.py SOURCE diff BUG KERNEL REMOVED ADDED [--one-character]
      BUG's code differs from the step's KERNEL as the page says ("step 7's kernels with one line
      changed"): comments and blank lines left out, a diff of the two removes REMOVED lines of
      KERNEL and adds ADDED; with --one-character, the line changed differs in one character.

Exit 0, or 1 with one line per defect."""
import difflib
import glob
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from sitegen import exercises  # noqa: E402

HEAD1 = re.compile(r"^// Exercise (\d+\.\d+) of the exercises page \(docs/exercises\.md\)\. "
                   r"Launch, parameters and constraints:$")
HEAD2 = re.compile(r"^// those of (\S+)\. The page's commands:$")
COMMAND = "//   "
# what a find-the-bug exercise's title may say: where the bug is, is the exercise
NEUTRAL_TITLE = re.compile(r"^Exercise \d+\.\d+: find the bug( \(\d+\))?$")


def header_problems(source, path, by_number):
    """What is wrong with the header of the bug kernel `path`, and any comment below it."""
    name = os.path.basename(path)
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    m1 = HEAD1.match(lines[0]) if lines else None
    m2 = HEAD2.match(lines[1]) if len(lines) > 1 else None
    if not m1 or not m2:
        return [f"{name}: its first two lines are not the exercise header:\n  "
                + "\n  ".join(["// Exercise N.M of the exercises page (docs/exercises.md). Launch, parameters "
                               "and constraints:", "// those of KERNEL_FILE. The page's commands:"])]
    problems = []
    number, launch = m1.group(1), m2.group(1)
    if not os.path.isfile(os.path.join(source, launch)):
        problems.append(f"{name}: the header refers to {launch}, which does not exist")
    shown = [line[len(COMMAND):] for line in lines[2:] if line.startswith(COMMAND)]
    end = 2 + len(shown)
    if lines[2:end] != [COMMAND + c for c in shown]:
        problems.append(f"{name}: the header's commands are not one block of lines starting '{COMMAND}'")
    ex = by_number.get(number)
    if ex is None:
        return problems + [f"{name}: the header names exercise {number}, which is not on the page"]
    if "docs/exercises/" + name not in "\n".join(ex.task):
        problems.append(f"{name}: exercise {number}'s procedure does not name this file")
    if not NEUTRAL_TITLE.match(ex.title):
        problems.append(f"{name}: exercise {number}'s title '{ex.title}' says more than 'find the bug' (or 'find the "
                        "bug (N)' where a step has several): a title must not point at the bug")
    if not re.fullmatch(r"step\d\d_bug(_\d+)?\.cl", name):
        problems.append(f"{name}: a bug kernel's name says more than its step and number (stepNN_bug.cl, "
                        "stepNN_bug_N.cl): a name must not point at the bug")
    page = [line for command in ex.commands() for line in command.split("\n")]
    if shown != page:
        problems.append(f"{name}: the header's commands are not exercise {number}'s on the page;\n  header: "
                        + "\n          ".join(shown) + "\n  page:   " + "\n          ".join(page))
    for i, line in enumerate(lines[end:], end + 1):
        if "//" in line or "/*" in line:
            problems.append(f"{name}:{i}: a comment below the header: {line.strip()}")
    return problems


def check_headers(source):
    with open(os.path.join(source, "docs", "exercises.md"), encoding="utf-8") as f:
        _, sections = exercises.parse_page(f.read())
    by_number = {e.number: e for s in sections for e in s.exercises}
    files = sorted(glob.glob(os.path.join(source, "docs", "exercises", "step[0-9][0-9]_bug*.cl")))
    if not files:
        return [f"no docs/exercises/stepNN_bug*.cl in {source}"]
    problems = []
    for path in files:
        problems += header_problems(source, path, by_number)
    if not problems:
        print(f"{len(files)} bug kernels: each starts with its exercise's header and the page's commands, "
              "and has no other comment")
    return problems


def code(path):
    """The lines of code of a kernel file: comments and blank lines left out (its kernels hold no
    string with // in it)."""
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = re.sub(r"//.*$", "", line).rstrip()
            if line.strip():
                out.append(line)
    return out


def check_diff(source, bug, kernel, removed, added, one_character):
    a, b = code(os.path.join(source, kernel)), code(os.path.join(source, bug))
    diff = list(difflib.unified_diff(a, b, kernel, bug, n=0, lineterm=""))
    print("\n".join(diff))
    out = [d[1:] for d in diff[2:] if d.startswith("-")]
    into = [d[1:] for d in diff[2:] if d.startswith("+")]
    if (len(out), len(into)) != (removed, added):
        return [f"{bug}: its code removes {len(out)} lines of {kernel} and adds {len(into)}; "
                f"the page says {removed} and {added}"]
    if one_character:
        if len(out) != 1 or len(into) != 1 or len(out[0]) != len(into[0]) or \
                sum(x != y for x, y in zip(out[0], into[0])) != 1:
            return [f"{bug}: the line changed differs from {kernel}'s in more than one character"]
    return []


def main(argv):
    source = argv[1]
    if argv[2:3] == ["headers"]:
        problems = check_headers(source)
    elif argv[2:3] == ["diff"] and len(argv) in (7, 8):
        problems = check_diff(source, argv[3], argv[4], int(argv[5]), int(argv[6]), argv[7:] == ["--one-character"])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    for p in problems:
        print(f"FAILED: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
