#!/usr/bin/env python3
"""write_exercise.py EXERCISE SOLUTION KERNEL

A "write it yourself" exercise of docs/exercises.md is a step's kernel with the code that carries
the step's idea left out. Its two files must stay that, as the step's kernel changes:

 - SOLUTION, without its marker lines (`// ---- SOLUTION ...` and `// ---- END OF THE SOLUTION`),
   has the code of KERNEL, the step's kernel file;
 - EXERCISE has the code of SOLUTION outside the marked regions, and in their place as many
   regions between `// ---- YOUR CODE HERE ...` and `// ---- END OF YOUR CODE`, which say what to
   write and hold other code than the solution's (placeholders, or nothing).

"Code" leaves out comments and blank lines (the files' headers differ, and the exercise's
regions say in comments what the code must do). Exit 0 when all holds, 1 with the differences.
"""
import difflib
import re
import sys

MARKERS = {"solution": ("---- SOLUTION", "---- END OF THE SOLUTION"),
           "exercise": ("---- YOUR CODE HERE", "---- END OF YOUR CODE")}


def code(lines):
    """the lines of code: comments, surrounding blanks and blank lines left out"""
    out = []
    for line in lines:
        line = re.sub(r"//.*", "", line).strip()
        if line:
            out.append(line)
    return out


def segments(path, kind):
    """[outside, region, outside, region, ..., outside] as lists of raw lines"""
    begin, end = MARKERS[kind]
    segs, current, inside = [], [], False
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f.read().split("\n"), 1):
            text = line.strip()
            if text.startswith("// " + begin) or text.startswith("// " + end):
                opening = text.startswith("// " + begin)
                if opening == inside:
                    sys.exit(f"{path}:{number}: `{text[:40]}...` {'inside' if inside else 'outside'} a region")
                segs.append(current)
                current, inside = [], opening
            else:
                current.append(line)
    if inside:
        sys.exit(f"{path}: a region that does not end")
    segs.append(current)
    return segs


def differ(what, a, b, name_a, name_b):
    if a == b:
        return False
    print(f"FAILED: {what}:")
    sys.stdout.writelines(l + "\n" for l in difflib.unified_diff(a, b, name_a, name_b, lineterm="", n=2))
    return True


def main():
    exercise, solution, kernel = sys.argv[1:4]
    sol = segments(solution, "solution")
    ex = segments(exercise, "exercise")
    with open(kernel, encoding="utf-8") as f:
        step = f.read().split("\n")
    failed = False
    if len(sol) < 3:
        print(f"FAILED: {solution} marks no region")
        failed = True
    failed |= differ("the solution, its markers left out, is not the step's kernel",
                     code(step), code([l for s in sol for l in s]), kernel, solution)
    if len(ex) != len(sol):
        print(f"FAILED: {exercise} has {len(ex) // 2} regions to write, {solution} {len(sol) // 2}")
        sys.exit(1)
    for i in range(0, len(sol), 2):
        failed |= differ(f"the exercise and the solution differ outside the regions (part {i // 2 + 1})",
                         code(sol[i]), code(ex[i]), solution, exercise)
    for i in range(1, len(sol), 2):
        if code(ex[i]) == code(sol[i]):
            print(f"FAILED: region {i // 2 + 1} of {exercise} holds the solution's code")
            failed = True
        if not any(l.strip().startswith("//") for l in ex[i]):
            print(f"FAILED: region {i // 2 + 1} of {exercise} does not say what to write")
            failed = True
    if not failed:
        print(f"{exercise}: the step's kernel ({kernel}) with {len(sol) // 2} region(s) to write, "
              f"the solution's code outside them")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
