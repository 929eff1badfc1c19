#!/usr/bin/env python3
"""The harness's two layers stay apart (issue 47: "common/ shows its two layers: the runner's phases
apart from the services they use, no include cycle"):

- the runner lives in common/src/run/: gemm_step.c (gemm_step_main()), the phases run_*.c and
  their private header gemm_run.h; no file of the runner sits among the services;
- a service (a file of common/src/ outside run/, a header of common/include other than the
  runner's own gemm_step.h) includes no header of the runner (gemm_run.h, gemm_step.h) and calls
  no function of the runner (one defined in common/src/run/, or named gemm_run_*);
- no cycle among the files of common/src: if a.c calls a function of b.c, nothing of b.c leads
  back to a.c.

usage: harness_layers.py SOURCE_DIR
Exit 0 when all hold, 1 with one line per breach otherwise.
"""
import glob
import os
import re
import sys

# The runner's headers: its private one, and the public one a step's main.c includes
# (gemm_step_main(), gemm_check_plan(): both defined in common/src/run/)
RUNNER_HEADERS = {"gemm_run.h", "gemm_step.h"}
# A function definition in the project's style (clang-format): return type and name on one line
DEFINITION = re.compile(r"^(?P<pre>[A-Za-z_][\w \t*]*?)\b(?P<name>\w+)\s*\((?P<args>[^;{}]*?)\)\s*\{", re.M)
CALL = re.compile(r"\b(\w+)\s*\(")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "defined", "_Static_assert", "__attribute__"}


def code(path):
    """The file without its comments and string literals (where a function's name is only a word)."""
    text = open(path, encoding="utf-8").read()
    return re.sub(r"/\*.*?\*/|//[^\n]*|\"(\\.|[^\"\\\n])*\"|'(\\.|[^'\\\n])*'", " ", text, flags=re.S)


def definitions(path):
    """{name: is_static} of the functions defined in a .c file."""
    return {m.group("name"): "static" in m.group("pre").split() for m in DEFINITION.finditer(code(path))
            if m.group("name") not in KEYWORDS}


def calls(path):
    return set(CALL.findall(code(path))) - KEYWORDS


def cycles(graph):
    """One cycle (a list of nodes, the first repeated at the end) per strongly connected component
    of more than one node (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(path_back(graph, set(component), min(component)))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def reachable(graph, start):
    seen, todo = set(), [start]
    while todo:
        v = todo.pop()
        for w in graph[v] - seen:
            seen.add(w)
            todo.append(w)
    return seen


def components(graph, start):
    """The files on some cycle through start: those it reaches that reach it back."""
    return {v for v in reachable(graph, start) if start in reachable(graph, v)}


def path_back(graph, component, start):
    """A shortest path from start back to itself inside the component (breadth first)."""
    previous, queue = {}, [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(graph[v] & component):
            if w == start:
                path = [v]
                while path[-1] != start:
                    path.append(previous[path[-1]])
                return [start] + path[::-1][1:] + [start] if len(path) > 1 else [start, v, start]
            if w not in previous:
                previous[w] = v
                queue.append(w)
    return [start]


def main():
    root = sys.argv[1]
    rel = lambda p: os.path.relpath(p, root)
    src = os.path.join(root, "common", "src")
    run_dir = os.path.join(src, "run")
    include = os.path.join(root, "common", "include")
    errors = []

    # Which file is which: the runner by its folder; a runner's file found among the services is
    # a breach of its own (and is read as the runner's, so that what it calls is not counted twice)
    runner = sorted(glob.glob(os.path.join(run_dir, "*.c")))
    top = sorted(glob.glob(os.path.join(src, "*.c")))
    defs = {p: definitions(p) for p in runner + top}
    if not os.path.isdir(run_dir):
        errors.append("common/src/run/: missing: the runner (gemm_step.c, the phases run_*.c, gemm_run.h) "
                      "lives there, apart from the services of common/src")
    misplaced = [p for p in top if os.path.basename(p).startswith("run_") or "gemm_step_main" in defs[p]]
    for p in misplaced:
        errors.append(f"{rel(p)}: a file of the runner among the services: it belongs in common/src/run/")
    runner += misplaced
    services = [p for p in top if p not in misplaced]
    private = sorted(glob.glob(os.path.join(include, "gemm_run.h")))
    for p in private:
        errors.append(f"{rel(p)}: the runner's private header among the public ones: it belongs in common/src/run/")
    headers = [p for p in sorted(glob.glob(os.path.join(include, "*.h")))
               if os.path.basename(p) not in RUNNER_HEADERS]
    runner_headers = RUNNER_HEADERS | {os.path.basename(p) for p in glob.glob(os.path.join(run_dir, "*.h"))}

    # The runner's functions: those its files define for others, and those its private header declares
    runner_fns = {name for p in runner for name, static in defs[p].items() if not static}
    for h in glob.glob(os.path.join(run_dir, "gemm_run.h")) + private:
        runner_fns |= {n for n in re.findall(r"\b(\w+)\s*\(", code(h)) if n not in KEYWORDS}
    runner_fns -= {name for p in services for name in defs[p]}  # (a name a service defines is its own)

    # 1. A service includes no header of the runner and calls none of its functions
    for p in services + headers:
        for h in INCLUDE.findall(open(p, encoding="utf-8").read()):
            if os.path.basename(h) in runner_headers:
                errors.append(f"{rel(p)}: a service includes the runner's header {h}: the runner uses the "
                              "services, never the other way round")
        own = defs.get(p, {})
        for name in sorted(calls(p) - set(own)):
            if name in runner_fns or name.startswith("gemm_run_"):
                errors.append(f"{rel(p)}: a service calls the runner's {name}(): move it to a service, or "
                              "let the runner pass what the service needs")

    # 2. No cycle among the files of common/src: a call from one file to a function another defines
    every = runner + services
    owner = {}
    for p in every:
        for name, static in defs[p].items():
            if not static:
                owner.setdefault(name, p)
    graph = {p: {owner[n] for n in calls(p) if n in owner and owner[n] != p} for p in every}
    found = cycles(graph)
    for cycle in found:
        names = " -> ".join(os.path.basename(p) for p in cycle)
        why = []
        for a, b in zip(cycle, cycle[1:]):
            used = sorted(n for n in calls(a) if owner.get(n) == b)
            why.append(f"{os.path.basename(a)} calls {', '.join(u + '()' for u in used[:3])}")
        errors.append(f"common/src: the files call each other in a circle, {names} ({'; '.join(why)}); "
                      f"the whole circle: {', '.join(sorted(rel(p) for p in components(graph, cycle[0])))}")

    # The test must still read the code: enough files of each layer, and calls between them
    edges = sum(len(v) for v in graph.values())
    if len(runner) < 10 or len(services) < 10 or edges < 30 or not runner_fns:
        errors.append(f"common/src: {len(runner)} files of the runner, {len(services)} services, {edges} calls "
                      "between files: this test no longer reads the layout of the harness")
    for e in errors:
        print(e)
    print(f"{len(services)} services in common/src and {len(headers)} of their headers in common/include, "
          f"{len(runner)} files of the runner ({len(runner_fns)} functions of its own); {edges} "
          f"dependencies between files, cycles among them: {len(found)}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
