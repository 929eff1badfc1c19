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
    if not body:
        sys.exit(f"{path}: no loop with HMMA in it")
    first, last = body[0][0], body[-1][0]
    return [line.rstrip() for line in lines
            if (m := sass_loops.LINE.search(line)) and first <= int(m.group(1), 16) <= last]


def main(args):
    table = args[:1] == ["--table"]
    args = args[1:] if table else args
    if not args:
        sys.exit(__doc__)
    if table and len(args) == 1 and "=" not in args[0]:
        print(sass_loops.table(args[0]), end="")
        return
    loops = {name: loop_lines(path) for name, _, path in (a.partition("=") for a in args)}
    if table:
        print(sass_loops.table_of(loops, "the listings"), end="")
    else:
        print("\n".join(f"== {name}\n" + "\n".join(lines) for name, lines in loops.items()))


if __name__ == "__main__":
    main(sys.argv[1:])
