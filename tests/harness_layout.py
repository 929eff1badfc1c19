#!/usr/bin/env python3
"""The harness stays readable (issue: "a harness a newcomer can read in one sitting"):

- no function in common/src/ (the services, and the runner in run/) longer than MAX_LINES lines (from its opening to its closing brace);
- gemm_step_main(), the runner's table of contents, fits a screen (MAX_MAIN_LINES);
- the runner (common/src/run/: gemm_step.c and the run_*.c phases) names no step's parameter: the rules of one
  step's idea (tiles, warp tiles, split-K ...) live in gemm_step_rules.c and the steps' main.c.

usage: harness_layout.py SOURCE_DIR [--longest N]   (--longest prints the N longest functions)
Exit 0 when all hold, 1 with one line per breach otherwise.
"""
import glob
import os
import re
import sys

MAX_LINES = 80
MAX_MAIN_LINES = 50
# Parameters that belong to one step's idea: the runner must not know them
STEP_PARAMS = ("TS", "TSM", "TSN", "TSK", "WPTM", "WPTN", "WTM", "WTN", "WIDTH", "LANE_SQUARES", "SLICES",
               "SPLIT_ROWS", "GROUPS_PER_CU", "TILE_BY_SIZE", "STAGES", "COPY", "TRANSPOSE_TILE", "TRANSPOSE_PAD")


def functions(path):
    """(name, first line, lines) of every function defined at file level: a line '{' at column 0
    after its signature, up to the next '}' at column 0 (the project's style, clang-format)."""
    lines = open(path, encoding="utf-8").read().split("\n")
    found, start = [], None
    for i, line in enumerate(lines):
        if start is None and (line == "{" or re.match(r"^\w[^;]*\)\s*\{\s*$", line)):
            j = i if line != "{" else i - 1
            while j > 0 and "(" not in lines[j]:
                j -= 1
            names = re.findall(r"(\w+)\s*\(", lines[j])
            start = (i, names[0] if names else "?")
            if line != "{" and line.rstrip().endswith("}"):
                start = None
        elif start is not None and line == "}":
            found.append((start[1], start[0] + 1, i - start[0] + 1))
            start = None
    return found


def main():
    root = sys.argv[1]
    longest = int(sys.argv[sys.argv.index("--longest") + 1]) if "--longest" in sys.argv else 0
    src = os.path.join(root, "common", "src")
    every = []
    for path in sorted(glob.glob(os.path.join(src, "**", "*.c"), recursive=True)):
        every += [(n, name, os.path.relpath(path, root), line) for name, line, n in functions(path)]
    every.sort(reverse=True)
    for n, name, path, line in every[:longest]:
        print(f"{n:4d} lines  {name}  ({path}:{line})")
    errors = [f"{path}:{line}: {name}() is {n} lines, more than {MAX_LINES}: split it into named parts"
              for n, name, path, line in every if n > MAX_LINES]
    main_fn = [e for e in every if e[1] == "gemm_step_main"]
    if not main_fn:
        errors.append("common/src: no gemm_step_main() found (this test reads the layout of the runner)")
    elif main_fn[0][0] > MAX_MAIN_LINES:
        errors.append(f"gemm_step_main() is {main_fn[0][0]} lines: the table of contents must fit a screen "
                      f"({MAX_MAIN_LINES})")
    runner = sorted(glob.glob(os.path.join(src, "run", "*.c")))
    pattern = re.compile(r'"(' + "|".join(STEP_PARAMS) + r')"')
    for path in runner:
        for number, text in enumerate(open(path, encoding="utf-8"), 1):
            m = pattern.search(text)
            if m:
                errors.append(f"{os.path.relpath(path, root)}:{number}: the runner names the parameter "
                              f"{m.group(1)}: a step's rule belongs in gemm_step_rules.c or its main.c")
    if len(every) < 50:
        errors.append(f"common/src: only {len(every)} functions found: this test no longer reads the code")
    for e in errors:
        print(e)
    print(f"{len(every)} functions in common/src, the longest {every[0][0]} lines ({every[0][1]}); "
          f"gemm_step_main() {main_fn[0][0] if main_fn else '?'} lines")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
