"""stepNN_kernel_diff.html, stepNN_host_diff.html: what each lesson shows of the change from the
previous step, its kernel file and its main.c, coloured for \\htmlinclude (issue 46):
  - the code's changes: `diff -u` of the two files with their comments left out (code_lines()), the
    hunks' line numbers the files' own, each hunk headed by the function it is in;
  - where that is long (more than LONG changed lines), a list of its hunks above it, each with the
    function it changes and the innermost block around its changes (the loop over K ...), read from
    the code (scopes()), so that the lesson can walk its parts;
  - the full `diff -u`, comments and the file's header included, folded in a <details> below it.
stepNN_kernel.diff and stepNN_kernel_code.diff (and _host) are the two diffs as text."""
import html
import os
import re
import subprocess
import tempfile

from .common import ToolError, previous_step, write

# More changed lines than this in the code's diff: the hunks are listed above it
LONG = 60


def run_diff(old_label, new_label, old_path, new_path):
    """`diff -u` of two files, labelled old_label and new_label."""
    proc = subprocess.run(["diff", "-u", "--label", old_label, "--label", new_label, old_path, new_path],
                          capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        raise ToolError(f"diff -u {old_label} {new_label} failed: {proc.stderr.strip()}")
    return proc.stdout


def unified_diff(root, old, new):
    """`diff -u` of two files of the source tree, labelled with their paths in the repository."""
    return run_diff(old, new, os.path.join(root, old), os.path.join(root, new))


def strip_comments(text):
    """C or OpenCL C source without its comments: a // comment to the end of its line, a /* */ comment
    as one space (its newlines kept, so that every line keeps its number); string and character
    literals are kept as they are, so that a "//" in one is not read as a comment."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            j = i + 1
            while j < n and text[j] not in (c, "\n"):
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j) or " ")
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def code_lines(text):
    """The code of a source file as [(line number, line)]: its comments left out (strip_comments()),
    a line that held only a comment dropped, trailing blanks cut, a run of blank lines made one."""
    out = []
    for number, (line, code) in enumerate(zip(text.split("\n"), strip_comments(text).split("\n")), 1):
        code = code.rstrip()
        if not code and (line.strip() or not out or not out[-1][1]):
            continue
        out.append((number, code))
    while out and not out[-1][1]:
        out.pop()
    return out


class Block:
    """A { } block of the code: its head (what comes before the brace: a function's signature,
    `for (...)`), the words after its closing brace up to the `;` (a typedef's name), its first and
    last lines (the head's first line to the closing brace) and how many blocks it is inside."""

    def __init__(self, head, first, depth):
        self.head, self.tail, self.first, self.last, self.depth = head, "", first, None, depth

    @property
    def name(self):
        """A function's name, a type's or an array's (`params` of `int params[] = {...}`), the head
        of a block inside one."""
        if self.depth:
            return self.head
        head = re.sub(r"__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)", "", self.head)
        m = (re.search(r"(\w+)\s*\(", head) or re.search(r"(\w+)\s*$", self.tail)
             or re.search(r"(\w+)\s*(?:\[[^]]*\]\s*)*=?\s*$", head))
        return m.group(1) if m else self.head


def scopes(code):
    """The blocks of the code of code_lines(). Braces in string and character literals are not
    counted; a preprocessor line is no code, and after #else or #elif the blocks are those open at
    its #if, so that two branches that each open a block open one."""
    blocks, stack, at_if, head, first, parens, closed = [], [], [], "", None, 0, None
    for number, line in code:
        directive = re.match(r"\s*#\s*(\w+)", line)
        if directive:
            word = directive.group(1)
            if word in ("if", "ifdef", "ifndef"):
                at_if.append(list(stack))
            elif word in ("elif", "else") and at_if:
                for b in stack[len(at_if[-1]):]:  # the branch's own blocks, opened again by the next
                    blocks.remove(b)
                stack = list(at_if[-1])
            elif word == "endif" and at_if:
                at_if.pop()
            continue
        for token in re.findall(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|[{};()]|[^"\'{};()]+', line):
            if token == "{":
                block = Block(" ".join(head.split()), first or number, len(stack))
                blocks.append(block)
                stack.append(block)
                head, first, closed = "", None, None
            elif token == "}":
                if stack:
                    closed = stack.pop()
                    closed.last = number
                head, first = "", None
            elif token == ";" and not parens:
                if closed is not None and not closed.depth:  # `} name;` after a type's braces
                    closed.tail = " ".join(head.split())
                head, first, closed = "", None, None
            else:
                parens += (token == "(") - (token == ")")
                if token.strip() and first is None:
                    first = number
                head += token
        head += " "
    return blocks


def enclosing(blocks, number):
    """The names of the blocks around line `number`, outermost first (Block.name)."""
    return [b.name for b in sorted(blocks, key=lambda b: b.depth) if b.first <= number <= (b.last or number)]


class Hunk:
    """A hunk of the code's diff: its lines [(mark, text, old line number, new line number)], the
    mark ' ', '-' or '+', the numbers the files' own (None on the side a line is not on): a side is
    the index 2 (old) or 3 (new) in a line."""

    def __init__(self, lines):
        self.lines = lines
        self.removed = sum(m == "-" for m, *_ in lines)
        self.added = sum(m == "+" for m, *_ in lines)

    def header(self, where):
        """`@@ -a,b +c,d @@ where`: b lines from line a of the old file, from the hunk's first line to
        its last (the comments' lines among them not shown), d from line c of the new; where a side
        has no line, the line after which the hunk goes, and 0."""
        out = []
        for side in (2, 3):
            numbers = [line[side] for line in self.lines if line[side] is not None]
            out.append(f"{numbers[0]},{numbers[-1] - numbers[0] + 1}" if numbers else f"{self.after[side]},0")
        return f"@@ -{out[0]} +{out[1]} @@" + (f" {where}" if where else "")


def code_diff(root, old, new):
    """The code's diff of two files of the source tree, as [Hunk], with (old code, new code) of
    code_lines(): `diff -u` of the two codes, its line numbers turned back into the files'."""
    codes = []
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, path in enumerate((old, new)):
            with open(os.path.join(root, path), encoding="utf-8") as f:
                codes.append(code_lines(f.read()))
            paths.append(os.path.join(tmp, f"{i}"))
            with open(paths[-1], "w", encoding="utf-8") as f:
                f.write("".join(f"{line}\n" for _, line in codes[-1]))
        text = run_diff(old, new, *paths)
    hunks = []
    for m in re.finditer(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@.*\n((?:[ +\\-].*\n?)*)", text, re.M):
        i, j = int(m.group(1)) - (m.group(2) != "0"), int(m.group(3)) - (m.group(4) != "0")
        lines = []
        for line in m.group(5).splitlines():
            mark = line[:1]
            if mark == "\\":  # "\ No newline at end of file"
                continue
            o = codes[0][i][0] if mark in " -" else None
            n = codes[1][j][0] if mark in " +" else None
            i, j = i + (mark in " -"), j + (mark in " +")
            lines.append((mark, line[1:], o, n))
        hunk = Hunk(lines)
        # where a side has no line (its count 0): the line after which the hunk goes (0: at the top)
        hunk.after = {side: codes[k][int(m.group(g)) - 1][0] if int(m.group(g)) else 0
                      for k, side, g in ((0, 2, 1), (1, 3, 3))}
        hunks.append(hunk)
    return hunks, codes


class Part:
    """A hunk's changed lines in one function (or outside the functions: function ""), in runs of
    neighbouring lines [[(side, line number)]] (side 2 old, 3 new), the #define names among them,
    and the innermost block around all of them below the function ("" where none)."""

    def __init__(self, function):
        self.function, self.chains, self.runs, self.defines = function, [], [], []
        self.removed = self.added = 0

    @property
    def inner(self):
        common = self.chains[0] if self.chains else []
        for c in self.chains[1:]:
            k = 0
            while k < min(len(common), len(c)) and common[k] == c[k]:
                k += 1
            common = common[:k]
        return common[-1] if len(common) > 1 else ""


def parts(hunk, blocks):
    """The hunk's changed lines by the function they are in, as [Part] in the order of their first
    lines; a blank line goes with the line before it. blocks: (the old file's, the new file's), of
    scopes()."""
    found, current = {}, None
    for mark, text, o, n in hunk.lines:
        if mark == " ":
            continue
        side, number = (2, o) if mark == "-" else (3, n)
        chain = enclosing(blocks[side == 3], number)
        function = chain[0] if chain else ""
        if current is None or (text.strip() and function != current.function):
            current = found.setdefault(function, Part(function))
            current.runs.append([])
        if text.strip():
            current.chains.append(chain)
        current.removed += mark == "-"
        current.added += mark == "+"
        current.runs[-1].append((side, number))
        current.defines += re.findall(r"^\s*#\s*define\s+(\w+)", text)
    return list(found.values())


def code_diff_text(old, new, hunks, blocks):
    """The code's diff as `diff -u` writes it, each hunk's header with the files' line numbers (a
    hunk's count of lines is from its first line to its last, the comments' lines among them not
    shown) and the functions it changes."""
    if not hunks:
        return ""
    out = [f"--- {old}", f"+++ {new}"]
    for h in hunks:
        out.append(h.header(", ".join(dict.fromkeys(p.function for p in parts(h, blocks) if p.function))))
        out += [mark + text for mark, text, _, _ in h.lines]
    return "\n".join(out) + "\n"


def changed(diff_text):
    """(lines removed, lines added) of a unified diff."""
    lines = [line for line in diff_text.splitlines() if not line.startswith(("---", "+++"))]
    return sum(line.startswith("-") for line in lines), sum(line.startswith("+") for line in lines)


def part_text(part, step):
    """Where a part of a hunk is and what it changes, as HTML: `sgemm`, in `for (...)`: lines 450
    to 470, 5 removed, 12 added. Its lines are the new file's, the old file's where it only removes."""
    if part.function:
        name = f"<code>{html.escape(part.function)}</code>"
    else:
        defines = ", ".join(dict.fromkeys(part.defines))
        name = "outside the functions" + (f" (<code>#define {defines}</code>)" if defines else "")
    if part.inner:
        name += f", in <code>{html.escape(part.inner)}</code>"
    side = 3 if part.added else 2
    spans = []
    for run in part.runs:
        numbers = [number for s, number in run if s == side]
        if numbers:
            first, last = min(numbers), max(numbers)
            spans.append(f"{first}" if first == last else f"{first} to {last}")
    word = "line" if len(spans) == 1 and " to " not in spans[0] else "lines"
    listed = spans[0] if len(spans) == 1 else ", ".join(spans[:-1]) + " and " + spans[-1]
    where = "" if side == 3 else f" of step {step - 1}'s file"
    counts = ", ".join(f"{n} {what}" for n, what in ((part.removed, "removed"), (part.added, "added")) if n)
    return f"{name}: {word} {listed}{where}, {counts}"


def parts_html(hunks, blocks, anchor, step):
    """The list of a long diff's hunks, each linked to its place in the diff, with the function it
    changes, or where it changes several, a list of those."""
    out = ['<ol class="diffparts">\n']
    for k, hunk in enumerate(hunks, 1):
        ps = parts(hunk, blocks)
        link = f'<a href="#{anchor}{k}">hunk {k}</a>'
        if len(ps) == 1:
            out.append(f"<li>{link}: {part_text(ps[0], step)}</li>\n")
        else:
            out.append(f"<li>{link}, {len(ps)} parts:<ul>\n"
                       + "".join(f"<li>{part_text(p, step)}</li>\n" for p in ps) + "</ul></li>\n")
    return "".join(out) + "</ol>\n"


def diff_html(diff_text, anchor=None):
    """A unified diff as a <pre class="diff"> block, one coloured span per line (docs/extra.css);
    with an anchor, hunk k's header (from 1) has the id anchor + k."""
    if not diff_text:
        return '<pre class="diff"><span class="hdr">(the two files are identical)</span></pre>\n'
    out, k = ['<pre class="diff">'], 0
    for line in diff_text.splitlines():
        ident = ""
        if line.startswith("---") or line.startswith("+++"):
            cls = "hdr"
        elif line.startswith("@@"):
            cls, k = "hunk", k + 1
            ident = f' id="{anchor}{k}"' if anchor else ""
        elif line.startswith("+"):
            cls = "add"
        elif line.startswith("-"):
            cls = "del"
        else:
            cls = "ctx"
        out.append(f'<span class="{cls}"{ident}>{html.escape(line) or " "}</span>')
    return "".join(out) + "</pre>\n"


DIFF_BEGIN, DIFF_END = "<!-- diff -->\n", "<!-- /diff -->\n"


def page_html(name, step, old, new, full, hunks, blocks):
    """What a lesson's \\htmlinclude shows: one line saying what the diff below it is, the list of its
    hunks where it is long, the code's diff, then the full diff folded."""
    code = code_diff_text(old, new, hunks, blocks)
    removed, added = changed(code)
    anchor = f"{name}_hunk"
    if code:
        out = [f'<p class="diffnote">The code\'s changes, {removed} lines removed and {added} added (comments '
               "left out; the line numbers are the files'); the full diff, comments and the header included, is "
               "folded below it.</p>\n"]
    else:
        out = ['<p class="diffnote">The code is the same: only comments changed (the full diff, below).</p>\n']
    if removed + added > LONG:
        out.append(f'<p class="diffnote">Its {len(hunks)} hunks, with the function each changes:</p>\n')
        out.append(parts_html(hunks, blocks, anchor, step))
    out.append(diff_html(code, anchor))
    full_removed, full_added = changed(full)
    out.append(f'<details class="diff"><summary>The full diff, comments and the header included: '
               f"{full_removed} lines removed, {full_added} added</summary>\n{diff_html(full)}</details>\n")
    # marked as one block: a lesson's count of words (checks.lesson_words) leaves the diff out
    return DIFF_BEGIN + "".join(out) + DIFF_END


def render(ctx):
    for s in ctx.steps:
        prev = previous_step(ctx.steps, s)
        if not prev:
            continue
        for what, old, new in (("kernel", prev.kernel, s.kernel),
                               ("host", f"{prev.directory}/main.c", f"{s.directory}/main.c")):
            full = unified_diff(ctx.source, old, new)
            hunks, codes = code_diff(ctx.source, old, new)
            blocks = [scopes(code) for code in codes]
            name = f"{s.page}_{what}"
            write(os.path.join(ctx.out, f"{name}.diff"), full)
            write(os.path.join(ctx.out, f"{name}_code.diff"), code_diff_text(old, new, hunks, blocks))
            write(os.path.join(ctx.out, f"{name}_diff.html"), page_html(name, s.number, old, new, full, hunks, blocks))
