#!/usr/bin/env python3
"""Nothing of the benchmark uses the lab (issue 47: "bench/ is the benchmark: what a user runs and
what it needs ... Nothing of the benchmark imports the lab"). The lab (lab/: the experiments, the
tuning drivers and their records) may use the benchmark, never the other way round.

A breach is, in any file under bench/ other than its Markdown (bench/README.md points to the lab
on purpose), comments included:
- a path into the lab: `lab/...`, or "lab" as a path component in a string ('lab', "lab");
- the name of a script of the lab (tune.py, tune_nvidia.sh, ...), as a word;
- a Python import of a module of the lab (`import tune`, `from variants import ...`).

usage: bench_no_lab.py SOURCE_DIR      exit 0 when none, 1 with one line per breach
       bench_no_lab.py --selftest      shows the check catching each kind of breach
"""
import os
import re
import shutil
import sys
import tempfile

from tree_check import main, selftest_verdict

LAB_PATH = re.compile(r"(?<![\w.-])lab/|['\"]lab['\"]")
IMPORT = re.compile(r"^\s*(?:from\s+(\w+)\s+import|import\s+([\w, ]+))", re.M)


def lab_names(root):
    """The names of the lab's scripts (lab/*.py, lab/*.sh; not its folders, whose names are ordinary
    words: tuning, exp), and the modules a Python file could import from it."""
    lab = os.path.join(root, "lab")
    names = {n for n in os.listdir(lab) if n.endswith((".py", ".sh"))} if os.path.isdir(lab) else set()
    modules = {n[:-3] for n in names if n.endswith(".py")}
    return names, modules


def breaches(root):
    names, modules = lab_names(root)
    name_re = re.compile(r"(?<![\w.-])(" + "|".join(map(re.escape, sorted(names))) + r")(?![\w-])") if names else None
    found = []
    bench = os.path.join(root, "bench")
    for dirpath, dirnames, filenames in os.walk(bench):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for f in sorted(filenames):
            if f.endswith(".md") or f.endswith(".pyc"):
                continue
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, root)
            try:
                text = open(path, encoding="utf-8").read()
            except UnicodeDecodeError:
                continue
            for number, line in enumerate(text.splitlines(), 1):
                if LAB_PATH.search(line):
                    found.append(f"{rel}:{number}: names a path into lab/: {line.strip()}")
                elif name_re and name_re.search(line):
                    found.append(f"{rel}:{number}: names lab/{name_re.search(line).group(1)}: {line.strip()}")
            if f.endswith(".py"):
                for m in IMPORT.finditer(text):
                    mods = [m.group(1)] if m.group(1) else [s.split()[0] for s in m.group(2).split(",") if s.strip()]
                    for mod in mods:
                        if mod in modules:
                            number = text.count("\n", 0, m.start()) + 1
                            found.append(f"{rel}:{number}: imports lab/{mod}.py")
    return found


def selftest():
    """A made-up source tree: a lab with a driver, a module and records, and a bench/ with one
    breach of each kind beside files that must pass."""
    root = tempfile.mkdtemp(prefix="bench_no_lab.")
    try:
        os.makedirs(os.path.join(root, "lab", "tuning"))
        os.makedirs(os.path.join(root, "bench"))
        for name in ("tune.py", "tune_nvidia.sh", "exp_step11_fragments.py"):
            open(os.path.join(root, "lab", name), "w").close()
        files = {
            "clean.py": "import os\nimport gemmrun\n# the tour's table; a label, the lab records' pages, tuning, exp(x)\n",
            "clean.sh": "#!/bin/sh\nbuild/bench/peak --csv\n",
            "README.md": "The tuning record is in lab/README.md; lab/tune.py made it.\n",
            "path.sh": "python3 lab/tune.py --summary x.csv\n",
            "join.py": "import os\nd = os.path.join(root, 'lab', 'tuning')\n",
            "name.sh": "# run ../tune_nvidia.sh first\n",
            "imp.py": "import sys\nfrom exp_step11_fragments import swap\n",
            "imp2.py": "import os, tune\n",
        }
        for name, text in files.items():
            with open(os.path.join(root, "bench", name), "w") as f:
                f.write(text)
        got = breaches(root)
        want = {"bench/path.sh": "path into lab/", "bench/join.py": "path into lab/",
                "bench/name.sh": "names lab/tune_nvidia.sh", "bench/imp.py": "imports lab/exp_step11_fragments.py",
                "bench/imp2.py": "imports lab/tune.py"}
        bad = [f"missed: {rel} ({what})" for rel, what in want.items()
               if not any(g.startswith(rel + ":") and what in g for g in got)]
        bad += [f"wrongly reported: {g}" for g in got if not any(g.startswith(rel + ":") for rel in want)]
        return selftest_verdict(got, bad)
    finally:
        shutil.rmtree(root)


if __name__ == "__main__":
    sys.exit(main(__doc__, lambda root: (breaches(root), "bench/ uses nothing of lab/"), selftest))
