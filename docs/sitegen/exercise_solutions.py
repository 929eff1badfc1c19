"""The solutions of the write-it-yourself exercises (docs/exercises/stepNN_write_<idea>.cl and step
NN's kernel): exercises.py's render() writes them under OUT/docs/exercises/solutions/ for the exercise page's
\\dontinclude, and tests/write_exercise.py makes them for the tests of docs/exercises/CMakeLists.txt."""
import difflib
import glob
import os
import re
import textwrap

from .common import InputError

# --- the solutions of the write-it-yourself exercises ------------------------------------------------
# docs/exercises/stepNN_write_<idea>.cl is step NN's kernel with the code that carries its idea left
# out: in its place, regions between `// ---- YOUR CODE HERE ...` and `// ---- END OF YOUR CODE` say
# what to write. Its solution is the step's kernel itself, with that code marked between
# `// ---- SOLUTION ...` and `// ---- END OF THE SOLUTION`: made from the two files whenever the
# project is built (tests/write_exercise.py, for the tests of docs/exercises/CMakeLists.txt) and when
# the site is (render(), for the page's \\dontinclude), never committed, so that it cannot drift from
# the kernel. The exercise's code outside its regions must be the kernel's, comments and blank lines
# aside; solution() finds the kernel's lines that each region leaves out, and refuses (InputError) an
# exercise that no longer matches its kernel, or matches it in more than one way.

WRITE_GLOB = "step[0-9][0-9]_write_*.cl"
EXERCISE_MARKS = ("---- YOUR CODE HERE", "---- END OF YOUR CODE")
SOLUTION_MARKS = ("---- SOLUTION", "---- END OF THE SOLUTION")


def code_of(line):
    """A line's code: its comment and surrounding white space left out ('' for none)."""
    return re.sub(r"//.*", "", line).strip()


def marked_regions(lines, marks, name):
    """(segments, markers) of a file's lines: segments [outside, region, outside, ...] as lists of
    lines, markers the opening marker line of each region."""
    begin, end = marks
    segments, markers, current, inside = [], [], [], False
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if text.startswith("// " + begin) or text.startswith("// " + end):
            opening = text.startswith("// " + begin)
            if opening == inside:
                raise InputError(f"{name}:{number}: `{text[:40]}...` {'inside' if inside else 'outside'} a region")
            segments.append(current)
            current, inside = [], opening
            if opening:
                markers.append(line)
        else:
            current.append(line)
    if inside:
        raise InputError(f"{name}: a region that does not end")
    segments.append(current)
    return segments, markers


def exercise_kernel(text, name):
    """The step's kernel file that a write-it-yourself exercise's header names, and its number."""
    kernel = re.search(r"those of\s+(?://\s*)?(\S+?\.cl)\b", text)
    number = re.match(r"// Exercise (\d+\.\d+) ", text)
    if not kernel or not number:
        raise InputError(f"{name}: its header does not start '// Exercise N.M ' and name the step's kernel "
                         "('Launch, parameters and constraints: those of kernelNN_.../....cl')")
    return kernel.group(1), number.group(1)


def align(exercise_lines, kernel_lines, name, kernel_name):
    """[(first, end)] for each region of the exercise: the kernel's lines (indices into kernel_lines,
    end excluded, from the first line of code to the last) that the region leaves out."""
    segments, _ = marked_regions(exercise_lines, EXERCISE_MARKS, name)
    if len(segments) < 3:
        raise InputError(f"{name}: no region marked `// {EXERCISE_MARKS[0]}`")
    outside = [[c for c in map(code_of, segments[i]) if c] for i in range(0, len(segments), 2)]
    kernel = [(i, c) for i, c in enumerate(map(code_of, kernel_lines)) if c]
    codes = [c for _, c in kernel]

    def splits(part, pos):
        o = outside[part]
        if codes[pos:pos + len(o)] != o:
            return []
        pos += len(o)
        if part == len(outside) - 1:
            return [[]] if pos == len(codes) else []
        return [[(pos, end)] + rest for end in range(pos + 1, len(codes) + 1) for rest in splits(part + 1, end)]

    found = splits(0, 0)
    if len(found) != 1:
        shown = []
        for i, seg in enumerate(segments):
            shown += [c for c in map(code_of, seg) if c] if i % 2 == 0 else [f"<region {i // 2 + 1} to write>"]
        diff = "\n".join(difflib.unified_diff(codes, shown, kernel_name, name, lineterm="", n=1))
        why = ("its code outside the regions to write is no longer the kernel's (comments and blank lines "
               "aside); update it" if not found else
               f"its code outside the regions matches the kernel's in {len(found)} ways: make the regions' "
               "neighbours unambiguous")
        raise InputError(f"{name}: {why}:\n{diff}")
    out = []
    for a, b in found[0]:
        first = kernel[a][0]
        # the comment right above the region's first line (no blank line between) is the region's
        while first > 0 and kernel_lines[first - 1].strip().startswith("//"):
            first -= 1
        out.append((first, kernel[b - 1][0] + 1))
    return out


def solution(source, exercise):
    """(the solution's text, the kernel's path relative to source) for the exercise file `exercise`
    (relative to source): the step's kernel with the regions the exercise leaves out marked."""
    with open(os.path.join(source, exercise), encoding="utf-8") as f:
        text = f.read()
    kernel, number = exercise_kernel(text, exercise)
    with open(os.path.join(source, kernel), encoding="utf-8") as f:
        kernel_lines = f.read().split("\n")
    lines = text.split("\n")
    regions = align(lines, kernel_lines, exercise, kernel)
    _, markers = marked_regions(lines, EXERCISE_MARKS, exercise)
    begin, end = SOLUTION_MARKS
    head = (f"Exercise {number} - solution: the step's kernel, {kernel}, with the code that {exercise} "
            "leaves out marked between the lines SOLUTION and END OF THE SOLUTION. Made from those two files "
            "when the project is built, and when the site is (docs/sitegen/exercises.py): edit them, not this file.")
    out = ["// " + line for line in textwrap.wrap(head, 97)] + [""]
    at = 0
    for (first, last), marker in zip(regions, markers):
        title = re.sub(r"\s*-+\s*$", "", marker.strip()[len("// " + EXERCISE_MARKS[0]):])
        # the marker lines indented as the region's first line, or (a preprocessor line, at the
        # margin) as the exercise's marker
        line = marker if kernel_lines[first].startswith("#") else kernel_lines[first]
        indent = line[:len(line) - len(line.lstrip())]
        width = len(marker.rstrip())
        out += kernel_lines[at:first]
        opening = f"{indent}// {begin}{title} "
        closing = f"{indent}// {end} "
        out.append(opening + "-" * max(3, width - len(opening)))
        out += kernel_lines[first:last]
        out.append(closing + "-" * max(3, width - len(closing)))
        at = last
    out += kernel_lines[at:]
    return "\n".join(out), kernel


def write_solutions(source, out_dir):
    """Writes the solution of every write-it-yourself exercise into out_dir/docs/exercises/solutions/,
    where the exercise page's \\dontinclude finds it (Doxygen's EXAMPLE_PATH)."""
    target = os.path.join(out_dir, "docs", "exercises", "solutions")
    os.makedirs(target, exist_ok=True)
    for path in sorted(glob.glob(os.path.join(source, "docs", "exercises", WRITE_GLOB))):
        text, _ = solution(source, os.path.relpath(path, source))
        with open(os.path.join(target, os.path.basename(path)), "w", encoding="utf-8") as f:
            f.write(text)
