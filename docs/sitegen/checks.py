"""Checks of the built site (render.py --check-html DIR, run by the `docs` target after Doxygen), for
the defects Doxygen does not warn about:
  - a generated SVG that no page shows (Doxygen copies an image only when a page it rendered shows
    it, and drops some content silently, e.g. a section command inside an \\includedoc'd file);
  - a lost `%`: Doxygen drops a `%` that precedes a word (`wm%WIDTH` becomes wmWIDTH); every `a%b`
    and every percentage written in the pages and snippets must appear in the site's text;
  - a table wider than the page: its narrowest layout (each column as wide as its longest word)
    must fit the text column of a 1280-pixel-wide window beside the navigation tree;
  - two sentences joined without a space ("holds.This kernel"), as \\includedoc does with the
    paragraphs of a snippet: within one paragraph, list item or table cell of the text;
  - a Doxygen command shown as text (\\includedoc, \\ref, @section ...): Doxygen stops reading
    commands after some mistakes, e.g. a \\ref whose quoted text runs onto the next line, and
    prints the rest of the page as it is written, without a warning;
  - Markdown shown as text: the asterisks of a bold or italic span that holds a \\ref, a backtick of
    a code span that holds a `'` (Doxygen 1.9.4 reads `this' as a quotation) or is never closed;
  - a lesson (stepNN.html) that names a tuning run's file (nvidia-h100-run19-ablation.csv): the lab
    record names it;
  - a page of the built site that the README names (docs/html/NAME.html) and the site lacks, under
    either of the names Doxygen versions give it (md_docs_NAME.html in 1.9.4, NAME.html later).
And in the pages' sources (docs/*.md), what Doxygen cannot know:
  - a glossary term (GLOSSARY: docs/glossary.md has an \\anchor glossary_NAME for each) whose first
    use in a lesson's own text (docs/stepNN.md; not code, not a heading, not an included snippet) is
    not a \\ref to its entry, or a lesson that links one term there twice;
  - a count of the steps left behind: "step 1 to step N" where N is not the last step;
Each defect is one line on stderr, naming the page; exit 1 if there is any.
"""
import glob
import html
import html.parser
import os
import re
import sys

# The text column of a page in a 1280-pixel window: the window less the navigation tree (250) and
# the margins (989 px, measured in Chromium); the width of a character of the tables' 14-pixel
# sans-serif font: a capital, a digit, anything else (a lower-case letter, punctuation, a character
# of code); header cells are bold, about 12 % wider; a cell's padding and border. Measured against
# Chromium's layout of the built site: the estimate stays a little below the real width (1013 px
# estimated for tables of 1029 px), so a table it flags is too wide.
WINDOW_TEXT_PX, CAPITAL_PX, DIGIT_PX, CHAR_PX, BOLD, CELL_PX = 989, 10.0, 8.9, 7.8, 1.12, 16

BLOCKS = {"p", "li", "td", "th", "div", "dd", "dt", "h1", "h2", "h3", "h4", "table", "tr", "ul", "ol", "pre", "br",
          "summary", "details", "dl", "caption"}
SKIP = {"code", "pre", "script", "style", "tt"}
# Markdown that Doxygen printed as it is written: the asterisks of an emphasis (Doxygen 1.9.4 leaves
# `**bold**` and `*italics*` that hold a \ref as text), or a backtick (a code span holding a `'`,
# which Doxygen 1.9.4 reads as a quotation `like this', or one never closed)
MARKUP = re.compile(r"\*\*|(?<![\w*])\*[A-Za-z][^*]{0,80}?[A-Za-z.]\*(?![\w*])|`")
# A tuning run's file (lab/tuning/nvidia-h100-run19-ablation.csv): the lab records name them, a lesson
# does not
RUN_FILE = re.compile(r"[\w./-]*\brun\d+\w*[\w.{},-]*")
COMMAND = re.compile(r"(?<![\w`])[\\@](includedoc|htmlinclude|ref|section|subsection|image|page|htmlonly)\b")
JOINED = re.compile(r"(?<![A-Z.])(?<!\be)(?<!\bi)([a-z\)\]0-9%][.:;?!])([A-Z][a-z]{2,})")


class PageText(html.parser.HTMLParser):
    """The text of a page by block (paragraph, item, cell), code left out, and its tables as rows
    of cells."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.blocks, self.current, self.skip = [], [], 0
        self.tables, self.cell, self.cell_bold = [], None, False
        self.all_text = []
        self.in_fragment = 0
        self.divs = []  # whether each open div is a fragment of code, so that its end is known

    def flush(self):
        text = "".join(self.current).strip()
        if text:
            self.blocks.append(re.sub(r"\s+", " ", text))
        self.current = []

    def handle_starttag(self, tag, attrs):
        cls = dict(attrs).get("class") or ""
        if tag == "div":
            fragment = "fragment" in cls or "line" == cls
            self.divs.append(fragment)
            self.in_fragment += fragment
        if tag in SKIP:
            self.skip += 1
        if tag in BLOCKS:
            self.flush()
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th") and self.tables and self.tables[-1]:
            self.cell = []
            self.cell_bold = tag == "th"

    def handle_endtag(self, tag):
        if tag == "div" and self.divs:
            self.in_fragment -= self.divs.pop()
        if tag in SKIP and self.skip:
            self.skip -= 1
        if tag in ("td", "th") and self.cell is not None and self.tables and self.tables[-1]:
            self.tables[-1][-1].append(("**" if self.cell_bold else "") + "".join(self.cell))
            self.cell = None
        if tag in BLOCKS:
            self.flush()

    def handle_data(self, data):
        self.all_text.append(data)
        if self.cell is not None:
            self.cell.append(data)
        if not self.skip and not self.in_fragment:
            self.current.append(data)


def read_page(path):
    p = PageText()
    with open(path, encoding="utf-8", errors="replace") as f:
        p.feed(f.read())
    p.flush()
    return p


def word_px(word, bold):
    """About how wide a word is drawn in a table cell."""
    px = sum(CAPITAL_PX if c.isupper() else DIGIT_PX if c.isdigit() else CHAR_PX for c in word)
    return px * (BOLD if bold else 1.0)


def table_min_width(rows):
    """The narrowest a browser can lay out a table: each column as wide as its widest word (a
    browser also breaks a line after a hyphen). A cell read from a header (th) starts with "**"."""
    widths = {}
    for row in rows:
        for i, cell in enumerate(row):
            bold = cell.startswith("**")
            words = re.split(r"\s+|(?<=-)", cell[2:] if bold else cell)
            widths[i] = max(widths.get(i, 0), max((word_px(w, bold) for w in words), default=0))
    return sum(w + CELL_PX for w in widths.values())


def percent_tokens(text):
    """What the sources mean to show with a `%`: `a%b` (written a%b or a%%b in code) and `12.5\\%`."""
    out = set()
    for m in re.finditer(r"([A-Za-z_0-9\)\]]+)%%?([A-Za-z_(][A-Za-z_0-9]*)", text):
        out.add(f"{m.group(1)}%{m.group(2)}")
    for m in re.finditer(r"(\d+(?:\.\d+)?)\\%", text):
        out.add(f"{m.group(1)}%")
    return out


def check_site(sources, html_dir):
    """The defects of the site in html_dir whose pages were made from the Markdown files `sources`."""
    problems = []
    pages = {os.path.basename(p): read_page(p) for p in sorted(glob.glob(os.path.join(html_dir, "*.html")))}
    site_text = html.unescape(" ".join("".join(p.all_text) for p in pages.values()))
    site_text = re.sub(r"\s+", " ", site_text)
    for src in sources:
        with open(src, encoding="utf-8") as f:
            text = f.read()
        # what is inside \htmlonly or a fenced code block is not Doxygen's text
        text = re.sub(r"```.*?```", "", text, flags=re.S)
        for token in sorted(percent_tokens(text)):
            if token not in site_text:
                problems.append(f"{os.path.basename(src)}: '{token}' is not in the built site (a lost %?)")
    for name, page in pages.items():
        if not name.startswith(("md_", "index")):
            continue
        for rows in page.tables:
            width = table_min_width(rows)
            if width > WINDOW_TEXT_PX:
                head = " | ".join(c.strip().lstrip("*") for c in rows[0][:3]) if rows else ""
                problems.append(f"{name}: a table at least {width:.0f} px wide (the text column is about "
                                f"{WINDOW_TEXT_PX}): {head} ...")
        if re.fullmatch(r"(md_docs_)?step\d\d\.html", name):
            for m in RUN_FILE.finditer("".join(page.all_text)):
                problems.append(f"{name}: a lesson names a run's file, '{m.group(0)}' (say it in words: the lab "
                                "record names the file)")
        for block in page.blocks:
            for m in COMMAND.finditer(block):
                problems.append(f"{name}: a Doxygen command shown as text: "
                                f"'...{block[max(0, m.start() - 30):m.end() + 30]}...'")
            for m in JOINED.finditer(block):
                problems.append(f"{name}: two sentences joined: '...{block[max(0, m.start() - 30):m.end() + 10]}...'")
            for m in MARKUP.finditer(block):
                problems.append(f"{name}: Markdown shown as text (an emphasis or a code span Doxygen did not read): "
                                f"'...{block[max(0, m.start() - 40):m.end() + 30]}...'")
    return problems


def missing_pages(readme, html_dir):
    """The pages of the site (docs/html/NAME.html) that the README names and html_dir lacks."""
    if not os.path.isfile(readme):
        return []
    with open(readme, encoding="utf-8") as f:
        names = sorted(set(re.findall(r"docs/html/([\w.-]+\.html)", f.read())))
    out = []
    for name in names:
        other = name[len("md_docs_"):] if name.startswith("md_docs_") else "md_docs_" + name
        if not any(os.path.isfile(os.path.join(html_dir, n)) for n in (name, other)):
            out.append(f"README.md names docs/html/{name}, which the site does not have (nor {other})")
    return out


# The glossary's terms: anchor (glossary_NAME in docs/glossary.md) and what a use of the term looks
# like in a lesson's text (a term may break across lines). Words are matched case-insensitively,
# abbreviations and names as written.
I = re.I
GLOSSARY = {
    "work_item": (r"\bwork-items?\b", I),
    "work_group": (r"\bwork-groups?\b", I),
    "ndrange": (r"\bNDRanges?\b", 0),
    "compute_unit": (r"\bcompute\s+units?\b", I),
    "local_memory": (r"\blocal[-\s]memory\b(?!\s+padding)", I),
    "registers": (r"\bprivate\s+memory\b|\bregisters?\b", I),
    "vstore": (r"\bv(?:store|load)(?:N|\d+)?\b", 0),
    "pocl": (r"\bPoCL\b", 0),
    "icd": (r"\bICD\b", 0),
    "warp": (r"\bwarps?\b", I),
    "wave": (r"\bwaves?\b", I),
    "occupancy": (r"\boccupancy\b", I),
    "coalescing": (r"\bcoalesc(?:e|es|ed|ing)\b", I),
    "bank_conflict": (r"\bbank\s+conflicts?\b", I),
    "cache": (r"\bL[12]\b", 0),
    "tensor_core": (r"\btensor[-\s]cores?\b", I),
    "compute_capability": (r"\bcompute\s+capability\b", I),
    "hopper": (r"\bHopper\b", 0),
    "ampere": (r"\bAmpere\b|\bA100\b", 0),
    "fma": (r"\bFMAs?\b(?!\s+(?:peak|ceiling))", 0),
    "gflops": (r"\bGFLOPS\b", 0),
    "fma_peak": (r"\bFMA\s+(?:peak|ceiling)s?\b", 0),
    "arithmetic_intensity": (r"\barithmetic\s+intensity\b", I),
    "roofline": (r"\brooflines?\b", I),
    "tile": (r"\btiles?\b", I),
    "zero_padding": (r"\bzero-pad(?:s|ded|ding)?\b", I),
    "local_padding": (r"\blocal-memory\s+padding\b", I),
    "split_k": (r"\bsplit-K\b", I),
    "predication": (r"\bpredicat(?:ed|ion)\b", I),
    "tf32": (r"\bTF32\b", 0),
    "ptx": (r"\bPTX\b", 0),
    "mma_sync": (r"\bmma\.sync\b", 0),
}
GLOSSARY_REF = re.compile(r'\\ref\s+glossary_(\w+)\s+"([^"\n]*)"')


def lesson_text(text):
    """A lesson's source with everything that is not its own prose blanked out, each character
    kept in its place: code (fenced blocks, code spans, \\code), headings, the lines that include
    snippets or images, HTML comments and tags, and the commands with their arguments (a \\ref's
    target, the text of a \\ref that is not to the glossary). A glossary \\ref keeps its text."""
    def blank(m):
        return re.sub(r"[^\n]", " ", m.group(0))
    for pattern, flags in ((r"```.*?```|~~~.*?~~~", re.S),
                           (r"\\(code|verbatim|htmlonly|latexonly)\b.*?\\end\1\b", re.S),
                           (r"<!--.*?-->", re.S),
                           (r"^[ \t]*(?:\\(?:mainpage|page|section|subsection|subsubsection|anchor|include\w*|htmlinclude|"
                            r"image|dontinclude|snippet)\b|#).*$", re.M),
                           (r"``.+?``|`[^`\n]+`", 0),
                           (r'\\(?:ref|subpage)\s+(?!glossary_)\S+(?:\s+"[^"\n]*")?', 0),
                           (r"\\ref\s+glossary_\w+\s+\"|(?<=[^\\])\"", 0),
                           (r"\\\w+", 0),
                           (r"</?[A-Za-z][^>]*>", 0),
                           (r"\]\([^)\s]*\)", 0)):
        text = re.sub(pattern, blank, text, flags=flags)
    return text


def glossary_problems(page, text, terms=None):
    """The first use of each glossary term in one lesson's source `text` (named `page`) that is not a
    \\ref to its entry, and the terms it links twice."""
    terms = GLOSSARY if terms is None else terms
    refs = [(m.start(), m.start(2), m.end(2), m.group(1)) for m in GLOSSARY_REF.finditer(text)]
    prose = lesson_text(text)
    line = lambda pos: text.count("\n", 0, pos) + 1  # noqa: E731
    out = []
    for start, _, _, name in refs:
        if name not in terms:
            out.append(f"{page}:{line(start)}: \\ref glossary_{name}, a term the glossary's check does not know")
    for name, (pattern, flags) in terms.items():
        mine = [r for r in refs if r[3] == name]
        for start, _, _, _ in mine[1:]:
            out.append(f"{page}:{line(start)}: links glossary_{name} again (only its first use is linked)")
        inside = [(a, b) for _, a, b, _ in mine]
        uses = [m for m in re.finditer(pattern, prose, flags) if not any(a <= m.start() < b for a, b in inside)]
        if uses and (not mine or uses[0].start() < mine[0][0]):
            word = " ".join(uses[0].group(0).split())
            out.append(f"{page}:{line(uses[0].start())}: the first use of '{word}' is not "
                       f"\\ref glossary_{name} \"{word}\" (docs/glossary.md)")
        for start, a, b, _ in mine[:1]:
            if not re.search(pattern, text[a:b], flags):
                out.append(f"{page}:{line(start)}: the text of \\ref glossary_{name}, '{text[a:b]}', is not the term")
    return out


def check_glossary(docs_dir):
    """The glossary's anchors against GLOSSARY, and every lesson's first uses."""
    path = os.path.join(docs_dir, "glossary.md")
    lessons = sorted(glob.glob(os.path.join(docs_dir, "step[0-9][0-9].md")))
    if not lessons:
        return []  # no lessons to check (a test's made-up site)
    if not os.path.isfile(path):
        return ["docs/glossary.md is missing"]
    with open(path, encoding="utf-8") as f:
        anchors = set(re.findall(r"^\\anchor glossary_(\w+)\s*$", f.read(), re.M))
    out = [f"glossary.md: no \\anchor glossary_{n} for a term the check knows" for n in sorted(set(GLOSSARY) - anchors)]
    out += [f"glossary.md: \\anchor glossary_{n}, which GLOSSARY in docs/sitegen/checks.py lacks"
            for n in sorted(anchors - set(GLOSSARY))]
    for lesson in lessons:
        with open(lesson, encoding="utf-8") as f:
            out += glossary_problems(os.path.basename(lesson), f.read())
    return out


def step_counts(docs_dir):
    """A path that runs from step 1 ('step 1 to step N', 'steps 1-N') to a step other than the last:
    a count written when the last step was N, left behind when a step was added."""
    numbers = [int(os.path.basename(p)[4:6]) for p in glob.glob(os.path.join(docs_dir, "step[0-9][0-9].md"))]
    if not numbers:
        return []  # no lessons (a test's made-up site)
    last, out = max(numbers), []
    paths = sorted(glob.glob(os.path.join(docs_dir, "*.md"))) + [os.path.join(docs_dir, "..", "README.md")]
    for path in paths:
        if not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for m in re.finditer(r"\bsteps?\s+1\s*(?:to|-|\u2013)\s*(?:step\s+)?(\d+)\b", text, re.I):
            if int(m.group(1)) != last:
                out.append(f"{os.path.basename(path)}:{text.count(chr(10), 0, m.start()) + 1}: "
                           f"'{' '.join(m.group(0).split())}', but the last step is {last}")
    return out


# A lesson is read in one sitting: at most about 1,600 words, counted as lesson_words() does
LESSON_WORDS = 1650


def lesson_words(path):
    """The words a lesson shows when its page opens: the text of the built page's contents, less its
    code (fragments), its diffs (with their notes and hunk lists: diffs.DIFF_BEGIN to DIFF_END), its
    tables and what is folded (<details>: the full diff, a diagram's numbers), one click away."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r'<div class="contents">(.*)', text, re.S)
    body = m.group(1) if m else text
    for pattern in (r"<!-- diff -->.*?<!-- /diff -->", r'<pre class="diff">.*?</pre>',
                    r'<div class="fragment">.*?</div><!-- fragment -->', r"<(script|style)[^>]*>.*?</\1>",
                    r"<table.*?</table>", r"<details.*?</details>"):
        body = re.sub(pattern, " ", body, flags=re.S)
    return len(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


def lesson_lengths(html_dir):
    """A lesson longer than LESSON_WORDS words (lesson_words())."""
    out = []
    for path in sorted(glob.glob(os.path.join(html_dir, "*step[0-9][0-9].html"))):
        n = lesson_words(path)
        if n > LESSON_WORDS:
            out.append(f"{os.path.basename(path)}: {n} words when the page opens, more than the "
                       f"{LESSON_WORDS} of one sitting (code, diffs, tables and folded parts not counted)")
    return out


def check_html(gen_dir, html_dir, docs_dir):
    """Every check; returns the exit status."""
    problems = [f"plot generated but shown on no page: {os.path.basename(p)}"
                for p in sorted(glob.glob(os.path.join(gen_dir, "*.svg")))
                if not os.path.isfile(os.path.join(html_dir, os.path.basename(p)))]
    problems += missing_pages(os.path.join(docs_dir, "..", "README.md"), html_dir)
    sources = sorted(glob.glob(os.path.join(docs_dir, "*.md")) + glob.glob(os.path.join(gen_dir, "*.md")))
    problems += check_site(sources, html_dir)
    problems += check_glossary(docs_dir)
    problems += step_counts(docs_dir)
    # a reader's own records add a line per device to every lesson: the length of one sitting is that
    # of the site on the committed records (docs.build); docs/test_reader_path.sh sets this
    if not os.environ.get("GEMM_DOCS_OWN_RECORDS"):
        problems += lesson_lengths(html_dir)
    for p in problems:
        print(f"render.py: error: {p}", file=sys.stderr)
    return 1 if problems else 0
