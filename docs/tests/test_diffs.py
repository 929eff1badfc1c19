"""docs.diffs: the diff a lesson shows (stepNN_kernel_diff.html, stepNN_host_diff.html: the first
<pre class="diff"> of the file, docs/sitegen/diffs.py) is the code's (issue 46):
  - none of its changed lines changes only a comment: read with the lines around it in its hunk, so
    that a line inside a /* */ comment is one, the line holds no code;
  - the check fails on a diff that shows a comment's change;
  - diffs.strip_comments() keeps a "//" or "/*" inside a string or character literal.
Usage: test_diffs.py SOURCE_DIR"""
import html.parser
import os
import sys
import tempfile
import types
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from sitegen import diffs  # noqa: E402
from sitegen.sources import discover_steps  # noqa: E402

SOURCE = None


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


if __name__ == "__main__":
    SOURCE = sys.argv[1]
    unittest.main(argv=sys.argv[:1] + sys.argv[2:], verbosity=1)
