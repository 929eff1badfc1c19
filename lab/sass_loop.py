#!/usr/bin/env python3
"""The main loop of each kernel's machine code (cuobjdump -sass's listing), for the lab's record:
writes each listing's loop over the tiles of K (the backward branch whose body holds the most
tensor-core instructions, HMMA) under a line `== NAME`, to stdout; with --table, prints instead the
table the site renders from such a file (docs/sitegen/sass_loops.py, which also says what is counted).
    lab/sass_loop.py [--table] NAME=FILE.sass [NAME=FILE.sass ...]
    lab/sass_loop.py --table FILE       (a file this tool wrote)"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs"))
from sitegen import sass_loops  # noqa: E402


def loop_lines(path):
    """The listing's lines of its main loop, as cuobjdump wrote them (the `@!PT` padding kept)."""
    lines = open(path, errors="replace").read().splitlines()
    body = sass_loops.main_loop(sass_loops.instructions(lines))
    first, last = body[0][0], body[-1][0]
    out = []
    for line in lines:
        m = sass_loops.LINE.search(line)
        if m and first <= int(m.group(1), 16) <= last:
            out.append(line.rstrip())
    return out


def main(args):
    table = args[:1] == ["--table"]
    args = args[1:] if table else args
    if not args:
        sys.exit(__doc__)
    if table and len(args) == 1 and "=" not in args[0]:
        print(sass_loops.table(args[0]), end="")
        return
    text = []
    for a in args:
        name, _, path = a.partition("=")
        text += [f"== {name}"] + loop_lines(path)
    if not table:
        print("\n".join(text))
        return
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(text) + "\n")
    try:
        print(sass_loops.table(f.name), end="")
    finally:
        os.unlink(f.name)


if __name__ == "__main__":
    main(sys.argv[1:])
