#!/usr/bin/env python3
"""Every path the READMEs and docs/harness.md name exists (issue 47: "docs/harness.md, README.md and
bench/README.md updated to the new paths"): a file or folder that moves leaves no dangling mention.

What counts as a path, in the files of DOCUMENTS:
- a word ending in a source, script or record extension (.c .h .py .sh .cl .md .csv .txt .cmake),
  such as common/src/run/run_plan.c, lab/tune.py, gemm_run.h;
- a folder or an extensionless path in backticks: `lab/tuning/`, `common/include`, `bench/peak`.

It exists if it names a file or folder of the source tree from the repository root or from the
document's folder (lab/README.md also from lab/tuning/, where its records are); a bare file name
(gemm_run.h) anywhere in the tree; an extensionless path as a program built from its .c file
(`bench/peak`: bench/peak.c). Not checked, as they name nothing of the tree:
- an old commit's path, `git show HASH:bench/tuning/...` (what follows a colon);
- what a build or a run writes: paths .gitignore ignores (build*/, results*.csv, lab/exp/, ...),
  a file a command of the same line writes (`--out FILE`), a file the site generator writes (a
  name quoted in docs/sitegen/*.py: "step10_blocks.md");
- templates and suffixes: a name with capitals (NAME-runN.csv, docs/labNN.md, CL/cl.h), `.peak.csv`,
  `bench/...`; and the examples of the reader's own files in EXAMPLES.

usage: readme_paths.py SOURCE_DIR      exit 0 when every path exists, 1 with one line per dangling one
       readme_paths.py --selftest      shows the check catching dangling paths in a made-up tree
"""
import fnmatch
import glob
import os
import re
import shutil
import sys
import tempfile

from tree_check import main, selftest_verdict

DOCUMENTS = ("README.md", "bench/README.md", "lab/README.md", "tests/README.md", "docs/results/README.md",
             "docs/harness.md")
# The reader's own files in the documents' examples (`--kernel-file my.cl`, `KERNEL <file.cl>`)
EXAMPLES = {"my.cl", "file.cl"}
FILE = re.compile(r"(?<![\w/.:$~{,*-])([A-Za-z0-9_.][A-Za-z0-9_/.-]*\.(?:c|h|py|sh|cl|md|csv|txt|cmake))(?![\w/-])")
FOLDER = re.compile(r"`([A-Za-z0-9_.][A-Za-z0-9_.-]*/[A-Za-z0-9_./-]*)`")
# Capitals that are a file's own name, not a template's placeholder
NAMED = re.compile(r"README|CMakeLists|CMakePresets|LICENSE|Doxyfile")
SKIP_DIRS = {".git", "__pycache__"}


def tree(root):
    """(paths, names): every file and folder of the tree relative to root (build folders left out,
    as .gitignore has them), and every file's name."""
    ignore = ignore_patterns(root)
    paths, names = set(), set()
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        dirnames[:] = [d for d in dirnames
                       if d not in SKIP_DIRS and not ignored(os.path.normpath(os.path.join(rel, d)), ignore)]
        for n in dirnames + filenames:
            paths.add(os.path.normpath(os.path.join(rel, n)))
        names.update(filenames)
    return paths, names


def ignore_patterns(root):
    try:
        lines = open(os.path.join(root, ".gitignore"), encoding="utf-8").read().splitlines()
    except OSError:
        return []
    return [line.strip() for line in lines if line.strip() and not line.startswith(("#", "!"))]


def ignored(path, patterns):
    """Whether .gitignore's patterns (the forms it uses: /anchored, a/b/, name/, globs) cover path or
    a folder above it."""
    parts = path.split("/")
    for p in patterns:
        anchored = "/" in p.rstrip("/")
        pat = p.strip("/")
        for i in range(1, len(parts) + 1):
            if fnmatch.fnmatch("/".join(parts[:i]) if anchored else parts[i - 1], pat):
                return True
    return False


def generated_names(root):
    """The file names the site generator writes, as quoted in its modules."""
    out = set()
    for path in glob.glob(os.path.join(root, "docs", "sitegen", "*.py")):
        out.update(re.findall(r"[\"']([\w.-]+\.(?:md|csv|txt|svg|png|doxy))[\"']", open(path, encoding="utf-8").read()))
    return out


def tokens(line):
    for m in FILE.finditer(line):
        yield m.group(1), True
    for m in FOLDER.finditer(line):
        if not FILE.fullmatch(m.group(1)):
            yield m.group(1), False


def dangling(root):
    paths, names = tree(root)
    ignore = ignore_patterns(root)
    written = generated_names(root) | EXAMPLES
    found, checked = [], 0
    for doc in DOCUMENTS:
        try:
            text = open(os.path.join(root, doc), encoding="utf-8").read()
        except FileNotFoundError:
            found.append(f"{doc}: missing (one of the documents this check reads: tests/readme_paths.py)")
            continue
        bases = ["", os.path.dirname(doc)] + (["lab/tuning"] if doc.startswith("lab/") else [])
        for number, line in enumerate(text.splitlines(), 1):
            for token, has_extension in tokens(line):
                path = token.rstrip("/")
                if NAMED.sub("", path) != NAMED.sub("", path).lower() or "..." in path or \
                        (path.startswith(".") and "/" not in path) or path in written:
                    continue
                checked += 1
                candidates = {os.path.normpath(os.path.join(b, path)) for b in bases}
                if candidates & paths or ("/" not in path and path in names):
                    continue
                if not has_extension and any(c + ".c" in paths for c in candidates):
                    continue
                if any(ignored(c, ignore) for c in candidates) or re.search(r"--out\s+" + re.escape(token), line):
                    continue
                found.append(f"{doc}:{number}: {token} does not exist")
    return found, checked


def selftest():
    """A made-up tree whose README names existing paths of each kind, and three that moved."""
    root = tempfile.mkdtemp(prefix="readme_paths.")
    try:
        for path in ("lab/tune.py", "lab/tuning/run1.csv", "bench/peak.c", "common/src/run/run_plan.c",
                     "docs/sitegen/out.py", "tests/README.md", "bench/README.md", "lab/README.md",
                     "docs/results/README.md", "docs/harness.md"):
            os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(root, path), "w", encoding="utf-8") as f:
                f.write('SNIPPET = "step10_blocks.md"\n' if path.endswith("out.py") else "")
        with open(os.path.join(root, ".gitignore"), "w", encoding="utf-8") as f:
            f.write("/build*/\n/results*.csv\nlab/exp/\n")
        with open(os.path.join(root, "README.md"), "w", encoding="utf-8") as f:
            f.write("Run `lab/tune.py` (see `lab/tuning/`, run_plan.c, `bench/peak`,\n"
                    "`git show abc123:bench/tune.py`), then build/bench/peak writes results.csv and `lab/exp/`;\n"
                    "NAME-runN.csv, `.peak.csv`, `bench/...`,\n"
                    "my.cl, step10_blocks.md, `lab/tune.py --out sweep-2.csv`.\n"
                    "Moved: bench/tune.py, common/src/run_plan.c and `bench/tuning/`.\n")
        got, _ = dangling(root)
        want = ["README.md:5: bench/tune.py does not exist", "README.md:5: common/src/run_plan.c does not exist",
                "README.md:5: bench/tuning/ does not exist"]
        bad = [f"missed: {w}" for w in want if w not in got] + [f"wrongly reported: {g}" for g in got if g not in want]
        return selftest_verdict(got, bad)
    finally:
        shutil.rmtree(root)


def check(root):
    found, checked = dangling(root)
    return found, f"the {checked} paths named in {', '.join(DOCUMENTS)} exist"


if __name__ == "__main__":
    sys.exit(main(__doc__, check, selftest))
