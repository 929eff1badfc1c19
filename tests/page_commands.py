#!/usr/bin/env python3
"""page_commands.py PAGE DIR

The page and its tests cannot drift apart: every command in PAGE's ```sh blocks must be
registered in DIR, as DIR/<test>/command.sh holding exactly its text (docs/exercises/CMakeLists.txt:
the test exercises.<test> runs it), or with a file `untested` beside it saying why no test runs it;
and every command registered in DIR must be on the page. A command is a line, with the lines that
follow it while a `do` waits for its `done` or a line ends in a backslash; comments and blank
lines between commands are not commands.
"""
import os
import sys

# the same reading of the page as the site generator's, which lists each exercise's commands
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs"))
from sitegen.exercises import page_commands as commands_of  # noqa: E402


def page_commands(path):
    with open(path, encoding="utf-8") as f:
        return commands_of(f.read().split("\n"))


def main():
    page, root = sys.argv[1], sys.argv[2]
    on_page = page_commands(page)
    registered, untested = {}, {}
    for name in sorted(os.listdir(root)):
        path = os.path.join(root, name, "command.sh")
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            registered[f.read().rstrip("\n")] = name
        why = os.path.join(root, name, "untested")
        if os.path.exists(why):
            with open(why, encoding="utf-8") as f:
                untested[name] = f.read().strip()
    missing = [c for c in on_page if c not in registered]
    stale = [(n, c) for c, n in registered.items() if c not in on_page]
    for c in missing:
        print(f"FAILED: the page shows a command that no test runs and none is listed as untested:\n  {c}")
    for n, c in stale:
        print(f"FAILED: {n} runs a command that the page no longer shows:\n  {c}")
    print(f"{len(on_page)} commands on {os.path.basename(page)}: {len(on_page) - len(missing) - len(untested)} run by "
          f"tests exactly as shown, {len(untested)} not run:")
    for name, why in untested.items():
        print(f"  {name}: {why}")
    return 1 if missing or stale else 0


if __name__ == "__main__":
    sys.exit(main())
