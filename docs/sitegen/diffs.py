"""stepNN_kernel_diff.html, stepNN_host_diff.html (and .diff): `diff -u` of each step's kernel file
and main.c against the previous step's, coloured for \\htmlinclude."""
import html
import os
import subprocess

from .common import ToolError, previous_step, write

def unified_diff(root, old, new):
    """`diff -u` of two files of the source tree, labelled with their paths in the repository."""
    proc = subprocess.run(["diff", "-u", "--label", old, "--label", new,
                           os.path.join(root, old), os.path.join(root, new)],
                          capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        raise ToolError(f"diff -u {old} {new} failed: {proc.stderr.strip()}")
    return proc.stdout


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


def diff_html(diff_text):
    """A unified diff as a <pre class="diff"> block, one coloured span per line (docs/extra.css)."""
    if not diff_text:
        return '<pre class="diff"><span class="hdr">(the two files are identical)</span></pre>\n'
    out = ['<pre class="diff">']
    for line in diff_text.splitlines():
        if line.startswith("---") or line.startswith("+++"):
            cls = "hdr"
        elif line.startswith("@@"):
            cls = "hunk"
        elif line.startswith("+"):
            cls = "add"
        elif line.startswith("-"):
            cls = "del"
        else:
            cls = "ctx"
        out.append(f'<span class="{cls}">{html.escape(line) or " "}</span>')
    return "".join(out) + "</pre>\n"



def render(ctx):
    for s in ctx.steps:
        prev = previous_step(ctx.steps, s)
        if not prev:
            continue
        for what, old, new in (("kernel", prev.kernel, s.kernel),
                               ("host", f"{prev.directory}/main.c", f"{s.directory}/main.c")):
            d = unified_diff(ctx.source, old, new)
            write(os.path.join(ctx.out, f"{s.page}_{what}.diff"), d)
            write(os.path.join(ctx.out, f"{s.page}_{what}_diff.html"), diff_html(d))
