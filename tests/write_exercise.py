#!/usr/bin/env python3
"""write_exercise.py: the solutions of the "write it yourself" exercises of docs/exercises.md.

A write-it-yourself exercise, docs/exercises/stepNN_write_<idea>.cl, is a step's kernel with the code
that carries the step's idea left out: in its place, regions between `// ---- YOUR CODE HERE ...` and
`// ---- END OF YOUR CODE` say what to write. Its solution is the step's kernel with that code marked
between `// ---- SOLUTION ...` and `// ---- END OF THE SOLUTION`, made from the two files (never
committed, so that it cannot drift from the kernel: docs/sitegen/exercise_solutions.py, solution()).

  write_exercise.py SOURCE EXERCISE --write OUT
      writes the solution of EXERCISE (a path relative to SOURCE) to OUT: what the build does. Where
      the exercise no longer matches its kernel, OUT is the kernel unmarked, which the exercise's
      commands still pass, and the test below fails with the difference (exit 0 either way, so that
      one stale exercise does not stop the build).

  write_exercise.py SOURCE EXERCISE KERNEL --check SOLUTION
      the test exercises.<name>.same_code; exit 0 when all holds, 1 with the defects:
       - EXERCISE's header names KERNEL, the step's kernel file, as its solution;
       - EXERCISE's code outside its regions is KERNEL's, comments and blank lines aside, in exactly
         one way (so its regions stand for definite lines of the kernel);
       - each region says, in comments, what to write, and holds other code than the kernel's there
         (placeholders, or nothing);
       - SOLUTION, the file the build wrote and the tests run as the reader's own, is the solution as
         made now (not stale), and without its marker lines it is KERNEL.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs"))
from sitegen import exercise_solutions  # noqa: E402
from sitegen.common import InputError  # noqa: E402


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")


def write(source, exercise, out):
    try:
        text, _ = exercise_solutions.solution(source, exercise)
    except InputError as e:
        kernel, _ = exercise_solutions.exercise_kernel("\n".join(read_lines(os.path.join(source, exercise))), exercise)
        print(f"write_exercise.py: warning: {e}\n{out}: the kernel unmarked (the test .same_code fails)",
              file=sys.stderr)
        text = "\n".join(read_lines(os.path.join(source, kernel)))
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    # rewritten only when it changes, so that the tests' links keep their target's date
    try:
        with open(out, encoding="utf-8") as f:
            if f.read() == text:
                return 0
    except OSError:
        pass
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


def check(source, exercise, kernel, solution_path):
    problems = []
    ex_lines = read_lines(os.path.join(source, exercise))
    named, _ = exercise_solutions.exercise_kernel("\n".join(ex_lines), exercise)
    if named != kernel:
        problems.append(f"{exercise} names {named} as the step's kernel, the test {kernel}")
    kernel_lines = read_lines(os.path.join(source, kernel))
    try:
        regions = exercise_solutions.align(ex_lines, kernel_lines, exercise, kernel)
        text, _ = exercise_solutions.solution(source, exercise)
    except InputError as e:
        return problems + [str(e)]
    segments, _ = exercise_solutions.marked_regions(ex_lines, exercise_solutions.EXERCISE_MARKS, exercise)
    for n, ((first, last), region) in enumerate(zip(regions, segments[1::2]), 1):
        mine = [c for c in map(exercise_solutions.code_of, region) if c]
        theirs = [c for c in map(exercise_solutions.code_of, kernel_lines[first:last]) if c]
        if mine == theirs:
            problems.append(f"region {n} of {exercise} holds the solution's code")
        if not any(line.strip().startswith("//") for line in region):
            problems.append(f"region {n} of {exercise} does not say what to write")
    try:
        written = "\n".join(read_lines(solution_path))
    except OSError as e:
        return problems + [f"{solution_path}: {e.strerror} (built by the target exercise_solutions)"]
    if written != text:
        problems.append(f"{solution_path} is not the solution made from {exercise} and {kernel} now: rebuild")
    sol_segments, _ = exercise_solutions.marked_regions(written.split("\n"), exercise_solutions.SOLUTION_MARKS, solution_path)
    if len(sol_segments) != len(segments):
        problems.append(f"{solution_path} marks {len(sol_segments) // 2} regions, {exercise} has {len(segments) // 2}")
    unmarked = [line for seg in sol_segments for line in seg]
    if [c for c in map(exercise_solutions.code_of, unmarked) if c] != [c for c in map(exercise_solutions.code_of, kernel_lines) if c]:
        problems.append(f"{solution_path}, its markers left out, is not the step's kernel {kernel}")
    if not problems:
        print(f"{exercise}: the step's kernel ({kernel}) with {len(regions)} region(s) to write, the kernel's code "
              f"outside them; {os.path.basename(solution_path)}: the kernel with those lines marked")
    return problems


def main(argv):
    if len(argv) == 5 and argv[3] == "--write":
        return write(argv[1], argv[2], argv[4])
    if len(argv) == 6 and argv[4] == "--check":
        problems = check(argv[1], argv[2], argv[3], argv[5])
        for p in problems:
            print(f"FAILED: {p}")
        return 1 if problems else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
