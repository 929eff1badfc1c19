"""docs.diffs: the diff a lesson shows (stepNN_kernel_diff.html, stepNN_host_diff.html: the first
<pre class="diff"> of the file, docs/sitegen/diffs.py) is the code's (issue 46):
  - none of its changed lines changes only a comment: read with the lines around it in its hunk, so
    that a line inside a /* */ comment is one, the line holds no code;
  - the check fails on a diff that shows a comment's change;
  - the full diff, comments included, is folded below it (<details>);
  - its hunks' line numbers are the files': each side's first line of a hunk is, less its comment,
    the file's line of that number;
  - a diff of more than diffs.LONG changed lines has the list of its hunks above it, each linked to
    its hunk and naming the functions its header names; a shorter one has none;
  - diffs.strip_comments() keeps a "//" or "/*" inside a string or character literal, and
    diffs.scopes() finds a kernel's name behind __attribute__((...)), a typedef's after its brace,
    the loop around a line, and a block opened in both branches of an #if once.
Usage: test_diffs.py SOURCE_DIR"""
import html.parser
import os
import re
import sys
import tempfile
import types
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from sitegen import diffs  # noqa: E402
from sitegen.sources import discover_steps  # noqa: E402

SOURCE = None


class Parts(html.parser.HTMLParser):
    """The items of the list of hunks (<ol class="diffparts">), as (href, text), and every id."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.items, self.ids, self.depth, self.in_list = [], set(), 0, False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "ol" and a.get("class") == "diffparts":
            self.in_list = True
        elif self.in_list and tag == "li":
            self.depth += 1
            if self.depth == 1:
                self.items.append([None, ""])
        elif self.in_list and tag == "a" and self.depth == 1 and self.items[-1][0] is None:
            self.items[-1][0] = a.get("href")

    def handle_endtag(self, tag):
        if tag == "li" and self.in_list:
            self.depth -= 1
        elif tag == "ol" and self.in_list and not self.depth:
            self.in_list = False

    def handle_data(self, data):
        if self.in_list and self.depth:
            self.items[-1][1] += data


class ShownDiff(html.parser.HTMLParser):
    """The lines of the first <pre class="diff"> outside a <details> (the diff the page shows, not
    the one a click unfolds), as (class, text): hdr, hunk, add, del or ctx."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.lines, self.details, self.pre, self.span, self.done = [], 0, False, None, False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "details":
            self.details += 1
        elif tag == "pre" and "diff" in (a.get("class") or "").split() and not self.details and not self.done:
            self.pre = True
        elif tag == "span" and self.pre:
            self.span = [a.get("class"), ""]

    def handle_endtag(self, tag):
        if tag == "details":
            self.details -= 1
        elif tag == "pre" and self.pre:
            self.pre, self.done = False, True
        elif tag == "span" and self.span:
            self.lines.append(tuple(self.span))
            self.span = None

    def handle_data(self, data):
        if self.span:
            self.span[1] += data


def shown_lines(page_html):
    parser = ShownDiff()
    parser.feed(page_html)
    return parser.lines


def comment_only_lines(lines):
    """The changed lines of a diff's [(class, text)] that hold no code: each side of a hunk (its
    context and its removed, or its added, lines) is read as one text, so that a comment over several
    lines is known as one on each of them. A blank changed line holds no comment and is left alone."""
    out, hunks = [], [[]]
    for cls, text in lines:
        if cls == "hunk":
            hunks.append([])
        elif cls in ("add", "del", "ctx"):
            hunks[-1].append((cls, text[1:]))
    for hunk in hunks:
        for side in ("del", "add"):
            kept = [(cls, text) for cls, text in hunk if cls in (side, "ctx")]
            code = diffs.strip_comments("\n".join(text for _, text in kept)).split("\n")
            out += [("-" if side == "del" else "+") + text for (cls, text), c in zip(kept, code)
                    if cls == side and text.strip() and not c.strip()]
    return out


class ShownDiffs(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.out = tempfile.TemporaryDirectory()
        cls.steps = discover_steps(SOURCE)
        diffs.render(types.SimpleNamespace(source=SOURCE, out=cls.out.name, steps=cls.steps))
        cls.pages = {}
        for name in sorted(os.listdir(cls.out.name)):
            if name.endswith("_diff.html"):
                with open(os.path.join(cls.out.name, name), encoding="utf-8") as f:
                    cls.pages[name] = f.read()

    @classmethod
    def tearDownClass(cls):
        cls.out.cleanup()

    def test_every_step_has_its_diffs(self):
        want = {f"{s.page}_{what}_diff.html" for s in self.steps[1:] for what in ("kernel", "host")}
        self.assertEqual(set(self.pages), want)

    def test_no_comment_only_change_shown(self):
        faults = []
        for name, page in self.pages.items():
            found = comment_only_lines(shown_lines(page))
            faults += [f"{name}: {len(found)} changed lines that change only a comment, the first: "
                       f"{found[0][:90]!r}"] if found else []
        if faults:
            self.fail("the diff shown is the code's, the comments' changes one click away:\n  " + "\n  ".join(faults))

    def test_full_diff_folded(self):
        for name, page in self.pages.items():
            with self.subTest(page=name):
                self.assertRegex(page, r'<details class="diff"><summary>The full diff[^<]*</summary>\s*'
                                       r'<pre class="diff">')

    def test_line_numbers_are_the_files(self):
        for s in self.steps[1:]:
            before = self.steps[self.steps.index(s) - 1]
            for what, files in (("kernel", (before.kernel, s.kernel)),
                                ("host", (f"{before.directory}/main.c", f"{s.directory}/main.c"))):
                texts = []
                for path in files:
                    with open(os.path.join(SOURCE, path), encoding="utf-8") as f:
                        texts.append(diffs.strip_comments(f.read()).split("\n"))
                hunks = []
                for cls, text in shown_lines(self.pages[f"{s.page}_{what}_diff.html"]):
                    if cls == "hunk":
                        hunks.append((text, []))
                    elif hunks:
                        hunks[-1][1].append((cls, text))
                for header, body in hunks:
                    m = re.match(r"@@ -(\d+),\d+ \+(\d+),\d+ @@", header)
                    self.assertTrue(m, f"{s.page} {what}: hunk header {header!r}")
                    for side, marks in ((0, ("del", "ctx")), (1, ("add", "ctx"))):
                        first = next((text for cls, text in body if cls in marks), None)
                        if first is not None:
                            with self.subTest(step=s.page, what=what, hunk=header, file=files[side]):
                                self.assertEqual(texts[side][int(m.group(side + 1)) - 1].rstrip(), first[1:])

    def test_long_diffs_list_their_hunks(self):
        for name, page in self.pages.items():
            lines = shown_lines(page)
            changed = sum(cls in ("add", "del") for cls, _ in lines)
            hunks = [text for cls, text in lines if cls == "hunk"]
            parts = Parts()
            parts.feed(page)
            with self.subTest(page=name, changed=changed):
                if changed <= diffs.LONG:
                    self.assertEqual(parts.items, [])
                    continue
                self.assertEqual(len(parts.items), len(hunks), "one item a hunk")
                for (href, text), header in zip(parts.items, hunks):
                    self.assertTrue(href and href[1:] in parts.ids, f"{href} links to no id")
                    for function in header.split("@@")[-1].split(","):
                        self.assertIn(function.strip(), text)

    def test_the_check_sees_a_comment(self):
        """A comment line, a line inside a /* */ comment, a code line that gains a trailing comment
        (its old form removed: the check sees the comment's line, which holds code, and passes it)."""
        lines = [("hdr", "--- a"), ("hdr", "+++ b"), ("hunk", "@@ -1,3 +1,6 @@"), ("ctx", " int x;"),
                 ("add", "+// a comment"), ("add", "+/* two"), ("add", "+   lines */"), ("del", "-int y;"),
                 ("add", "+int y;  // why"), ("add", '+char *s = "//";'), ("ctx", " }")]
        self.assertEqual(comment_only_lines(lines), ["+// a comment", "+/* two", "+   lines */"])

    def test_literals_kept(self):
        text = 'a = "// no /* comment"; b = \'/\'; // yes\nc = 1; /* x\ny */ d = "\\"//";\n'
        self.assertEqual(diffs.strip_comments(text), 'a = "// no /* comment"; b = \'/\'; \nc = 1; \n d = "\\"//";\n')


    def test_scopes(self):
        source = "\n".join([
            "#define X 1  // a macro",             # 1
            "__kernel __attribute__((reqd_work_group_size(X, X, 1)))",
            "void sgemm(const int M,",            # 3
            "           const int N)",
            "{",                                  # 5
            "    // a comment line, dropped",
            "    for (int t = 0; t < M; t++) {",  # 7
            '        char *s = "}";',
            "#if Y",                              # 9
            "        if (t) {",
            "#else",                              # 11
            "        if (!t) {",
            "#endif",                             # 13
            "            t += N;",
            "        }",                          # 15
            "    }",
            "}",                                  # 17
            "typedef struct {",
            "    int a;",                         # 19
            "} pair;",
            "",                                   # 21
            "",
            "inline void f(void) { }",            # 23
            ""])
        code = diffs.code_lines(source)
        self.assertEqual([n for n, _ in code], [1, 2, 3, 4, 5] + list(range(7, 22)) + [23])
        self.assertEqual(code[0], (1, "#define X 1"))
        blocks = diffs.scopes(code)
        self.assertEqual(diffs.enclosing(blocks, 1), [])
        self.assertEqual(diffs.enclosing(blocks, 2), ["sgemm"])
        self.assertEqual(diffs.enclosing(blocks, 8), ["sgemm", "for (int t = 0; t < M; t++)"])
        self.assertEqual(diffs.enclosing(blocks, 14), ["sgemm", "for (int t = 0; t < M; t++)", "if (!t)"])
        self.assertEqual(diffs.enclosing(blocks, 16), ["sgemm", "for (int t = 0; t < M; t++)"])
        self.assertEqual(diffs.enclosing(blocks, 19), ["pair"])
        self.assertEqual(diffs.enclosing(blocks, 21), [])
        self.assertEqual(diffs.enclosing(blocks, 23), ["f"])


if __name__ == "__main__":
    SOURCE = sys.argv[1]
    unittest.main(argv=sys.argv[:1] + sys.argv[2:], verbosity=1)
