"""The two pages made from the exercise page, docs/exercises.md, so that neither can drift from it:
  - docs/exercises_handout.md: the handout, every exercise with its goal, its procedure and its
    expected outcome (what to observe and report), without the answers, to print and give to a
    class (docs/extra.css has its print rules);
  - docs/exercises_key.md: the teacher's key, for every exercise the expected outcome, the answer
    (the outcome in full and the solution) and the CTest tests that check it.
Both are written under OUT/docs/, so that Doxygen (STRIP_FROM_PATH) names their HTML files as it
names the pages of docs/: md_docs_exercises_handout.html (Doxygen 1.9.4), exercises_handout.html
(later versions).

What the page must look like (InputError where it does not): every exercise is a \\subsection
exercises_N_M of a \\section exercises_stepN; its text holds a paragraph starting
"**Expected outcome.**", after which the procedure ends; the answer, where there is one, is the
fold that follows it,
    \\htmlonly[block]<details class="solution"><summary>Answer (click to show)</summary>\\endhtmlonly
    **Outcome.** what a run shows that would answer the exercise's question (optional)
    **Solution.** the rest (optional; one of the two at least)
    \\htmlonly[block]</details>\\endhtmlonly
The handout leaves out the folds, and refuses (InputError) to hold any sentence of a fold
(leaks()): an answer copied into a neutral outcome or a procedure fails the docs build. Nor may it
point to an answer (handout_problems()): a solution file (docs/key/ holds them), a path to the
solutions, or a page that holds the answers; and no file of docs/exercises/ may say it is a solution.

The tests of each exercise come from docs/exercises/CMakeLists.txt, where each block of
registrations (gemm_exercise_command, gemm_exercise_untested, gemm_exercise) follows a comment
that starts with the number of its exercise ("# 2.1 ..."), and from the add_test() names in tests/
that end in exercise_N_M (exercise_ctest.py). A test of a command the page shows must run one of its
exercise's commands, and a kernel file a test names must be named in its exercise's text."""
import glob
import os
import re

from .common import InputError
from .exercise_ctest import exercise_tests
from .exercise_solutions import write_solutions
from .exercise_timings import snippet_name, timing_numbers, write_timings

PAGE = "exercises.md"
FOLD_OPEN = '\\htmlonly[block]<details class="solution"><summary>Answer (click to show)</summary>\\endhtmlonly'
FOLD_CLOSE = "\\htmlonly[block]</details>\\endhtmlonly"
OUTCOME, KEY_OUTCOME, SOLUTION = "**Expected outcome.**", "**Outcome.**", "**Solution.**"
HANDOUT, KEY = "exercises_handout", "exercises_key"
# A sentence or clause of a fold at least this many words long must not be in the handout
LEAK_WORDS = 6


class Exercise:
    """One exercise of the page: its number ("2.1"), label, title, and its text in three parts:
    the task (goal and procedure), the expected outcome, and the fold's outcome and solution."""

    def __init__(self, number, label, title):
        self.number, self.label, self.title = number, label, title
        self.task, self.outcome, self.key_outcome, self.solution = [], [], [], []

    def commands(self):
        return page_commands(self.task)


class Section:
    def __init__(self, label, title):
        self.label, self.title, self.exercises = label, title, []


def page_commands(lines):
    """The commands of the ```sh blocks of `lines` (tests/page_commands.py reads the page with this
    too): a line, with the lines that follow it while a `do` waits for its `done` or a line ends in
    a backslash; comments and blank lines between commands are not commands."""
    commands, current, in_block = [], [], False
    for line in lines:
        line = line.rstrip()
        if line.startswith("```"):
            in_block = line == "```sh" and not in_block
            continue
        if not in_block or (not current and (not line.strip() or line.lstrip().startswith("#"))):
            continue
        current.append(line)
        words = re.findall(r"[\w-]+", "\n".join(current))
        if words.count("do") <= words.count("done") and not line.endswith("\\"):
            commands.append("\n".join(current))
            current = []
    return commands


def parse_page(text, name=PAGE):
    """(intro lines, [Section]) of the exercise page's text."""
    lines = text.split("\n")
    if not lines or not lines[0].startswith("\\page exercises "):
        raise InputError(f"{name}: does not start with '\\page exercises'")
    intro, sections, ex, part = [], [], None, None
    i = 1
    while i < len(lines):
        line = lines[i]
        m = re.match(r"\\section (exercises_step(\d+)) (.*)$", line)
        n = re.match(r"\\subsection (exercises_(\d+)_(\d+)) (.*)$", line)
        if m:
            sections.append(Section(m.group(1), m.group(3)))
            ex = None
        elif n:
            if not sections:
                raise InputError(f"{name}:{i + 1}: exercise {n.group(1)} outside a \\section")
            ex = Exercise(f"{n.group(2)}.{n.group(3)}", n.group(1), n.group(4))
            sections[-1].exercises.append(ex)
            part = ex.task
        elif line.startswith(("\\section", "\\subsection")):
            raise InputError(f"{name}:{i + 1}: not a section of the page's form (exercises_stepN, "
                             f"exercises_N_M): {line}")
        elif ex is None:
            if sections and line.strip():
                raise InputError(f"{name}:{i + 1}: text between a \\section and its first exercise")
            intro.append(line)
        elif line.startswith(OUTCOME):
            if ex.outcome:
                raise InputError(f"{name}:{i + 1}: exercise {ex.number} has two '{OUTCOME}'")
            part = ex.outcome
            part.append(line)
        elif line == FOLD_OPEN:
            if not ex.outcome:
                raise InputError(f"{name}:{i + 1}: exercise {ex.number}: its answer comes before '{OUTCOME}'")
            if ex.key_outcome or ex.solution:
                raise InputError(f"{name}:{i + 1}: exercise {ex.number} has two answers")
            i = parse_fold(lines, i + 1, ex, name)
            part = None
        elif "<details" in line or "</details>" in line:
            raise InputError(f"{name}:{i + 1}: a fold that is not the page's answer fold:\n  {line}\n"
                             f"(the answer is folded by\n  {FOLD_OPEN}\n  ...\n  {FOLD_CLOSE})")
        elif part is None:
            if line.strip():
                raise InputError(f"{name}:{i + 1}: exercise {ex.number}: text after its answer")
        else:
            part.append(line)
        i += 1
    for s in sections:
        for e in s.exercises:
            if not e.outcome:
                raise InputError(f"{name}: exercise {e.number} has no paragraph '{OUTCOME}'")
    if not sections:
        raise InputError(f"{name}: no exercises")
    return intro, sections


def parse_fold(lines, i, ex, name):
    """Reads the fold that starts at line i into ex; returns the index of its closing line."""
    part = None
    while i < len(lines) and lines[i] != FOLD_CLOSE:
        line = lines[i]
        if line.startswith(KEY_OUTCOME):
            if part is not None:
                raise InputError(f"{name}:{i + 1}: exercise {ex.number}: '{KEY_OUTCOME}' must open its answer")
            part = ex.key_outcome
        elif line.startswith(SOLUTION):
            if part is ex.solution:
                raise InputError(f"{name}:{i + 1}: exercise {ex.number}: two '{SOLUTION}'")
            part = ex.solution
        elif part is None and line.strip():
            raise InputError(f"{name}:{i + 1}: exercise {ex.number}: its answer must start with "
                             f"'{KEY_OUTCOME}' or '{SOLUTION}'")
        if part is not None:
            part.append(line)
        i += 1
    if i == len(lines):
        raise InputError(f"{name}: exercise {ex.number}: its answer is not closed by {FOLD_CLOSE}")
    return i


def relabel(lines, prefix):
    """The page's lines with its labels (exercises_step1, exercises_1_1) renamed for another page."""
    return [re.sub(r"(\\(?:sub)?section|\\ref) exercises_(step\d+|\d+_\d+)\b", rf"\1 {prefix}_\2", line)
            for line in lines]


def trim(lines):
    """lines without the blank lines at either end."""
    lines = list(lines)
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def paragraphs_of(lines):
    out, cur = [], []
    for line in lines + [""]:
        if line.strip():
            cur.append(line)
        elif cur:
            out.append(cur)
            cur = []
    return out


def handout(intro, sections):
    """The handout page's Markdown."""
    out = [f"\\page {HANDOUT} Exercises: the handout", "",
           "Every exercise of the tutorial with its goal, its procedure and what to observe, without the",
           "answers: the page to print and give to a class (each step starts a new printed page). It is",
           "made from `docs/exercises.md` when the site is built.", ""]
    # the page's introduction, less the paragraph that presents the page itself and its folds
    for para in paragraphs_of(intro):
        if any("\\subpage" in line for line in para):
            continue
        out += para + [""]
    for s in sections:
        out += [f"\\section handout_{s.label[len('exercises_'):]} {s.title}", ""]
        for e in s.exercises:
            out += [f"\\subsection handout_{e.label[len('exercises_'):]} {e.title}", ""]
            out += relabel(trim(e.task), "handout") + [""]
            out += relabel(trim(e.outcome), "handout") + [""]
    return "\n".join(out)


def key(sections, tests):
    """The teacher's key's Markdown; tests: {number: ExerciseTests}."""
    out = [f"\\page {KEY} Exercises: the teacher's key", "",
           "The answers to \\ref exercises \"the exercises\", made from that page when the site is built:",
           "for each exercise, the expected outcome that \\ref exercises_handout \"the handout\" gives, the",
           "outcome in full where the handout's would give the answer away, the solution, and the tests",
           "that check them. The tests run in the build directory: the line under each exercise runs its",
           "own, and `ctest -L exercises` those labelled exercises. Each test of a command of the page runs",
           "it exactly as the page shows it. Where a find-the-bug kernel is a step's kernel with one line changed,",
           "`diff` against the step's kernel file finds that line: ask the class for what the runs show",
           "and why, not for the line alone.", ""]
    for s in sections:
        out += [f"\\section key_{s.label[len('exercises_'):]} {s.title}", ""]
        for e in s.exercises:
            out += [f"\\subsection key_{e.label[len('exercises_'):]} {e.title}", ""]
            neutral = trim(e.outcome)
            neutral[0] = "**Expected outcome, as the handout gives it.**" + neutral[0][len(OUTCOME):]
            out += relabel(neutral, "key") + [""]
            cpu = f"\\includedoc {snippet_name(e.number, 'cpu')}"
            if cpu in (line.strip() for line in e.task):
                out += ["**The figures recorded on a CPU, as the handout gives them.**", "", cpu, ""]
            if e.key_outcome:
                full = trim(e.key_outcome)
                full[0] = "**The outcome in full.**" + full[0][len(KEY_OUTCOME):]
                out += relabel(full, "key") + [""]
            if e.solution:
                out += relabel(trim(e.solution), "key") + [""]
            out += tests[e.number].markdown() + [""]
    return "\n".join(out)


def sentences(lines):
    """The sentences and clauses of some Markdown lines, at least LEAK_WORDS words long, with their
    white space made single spaces; commands' lines (\\includedoc, \\image, \\htmlonly) left out."""
    text = " ".join(line.strip() for line in lines if not line.lstrip().startswith("\\"))
    for label in (OUTCOME, KEY_OUTCOME, SOLUTION):
        text = text.replace(label, "")
    text = re.sub(r"\s+", " ", text)
    out = []
    for part in re.split(r"(?:(?<=[.;:!?])|(?<=[.;:!?]\)))\s+", text):
        part = part.strip()
        if len(part.split()) >= LEAK_WORDS:
            out.append(part)
    return out


# --- what the handout must not point to -------------------------------------------------------------
# The solutions a teacher's key names are kept in docs/key/, out of docs/exercises/ (the files the
# handout gives the student); the solutions of the write-it-yourself exercises are made at build time
# into a folder named solutions/. The handout names none of them, and links no page that holds the
# answers (the exercises page, whose answers are folds, and the key).
KEY_DIR = os.path.join("docs", "key")
# the title line of a file that says it is a solution ("// Exercise 1.2 - solution. ...")
SOLUTION_TITLE = re.compile(r"^\s*//.*\bsolution\b", re.I)
# a path or a file name with "solution" in it (build/docs/exercises/solutions/..., my_solution.cl)
SOLUTION_PATH = re.compile(r"[\w.-]*(?:/[\w.-]*)*solutions?[\w.-]*(?:/[\w.-]+|\.\w+)+|[\w.-]+(?:/[\w.-]+)*/[\w.-]*solutions?\b", re.I)
ANSWER_PAGES = re.compile(r"\\ref (exercises_key|key_\w+|exercises(?:_\w+)?)\b")


def solution_files(source):
    """(names of the solution files, problems): the files of docs/key/, and those of docs/exercises/
    whose title line says they are a solution, which is a problem: the handout sends students there."""
    names, problems = [], []
    key = os.path.join(source, KEY_DIR)
    if os.path.isdir(key):
        names += sorted(os.listdir(key))
    for path in sorted(glob.glob(os.path.join(source, "docs", "exercises", "*.cl"))):
        with open(path, encoding="utf-8") as f:
            title = f.readline().rstrip("\n")
        if SOLUTION_TITLE.match(title):
            names.append(os.path.basename(path))
            problems.append(f"docs/exercises/{os.path.basename(path)} says it is a solution ('{title[:60]}...'), in the "
                            f"folder the handout gives students: move it to {KEY_DIR}/ (git mv), which only the key names")
    return names, problems


def handout_problems(source, handout_text):
    """What the handout points to that a student must not be given: a solution file, a path to the
    solutions, a page with the answers; and a solution kept where the handout sends students."""
    names, problems = solution_files(source)
    for name in names:
        if re.search(r"(?<![\w.-])" + re.escape(name) + r"(?![\w.-])", handout_text):
            problems.append(f"the handout names the solution {name}")
    for path in sorted(set(m.group(0) for m in SOLUTION_PATH.finditer(handout_text))):
        problems.append(f"the handout names a solution's path: {path}")
    if KEY_DIR + "/" in handout_text:
        problems.append(f"the handout names the key's folder, {KEY_DIR}/")
    for page in sorted(set(ANSWER_PAGES.findall(handout_text))):
        problems.append(f"the handout links \\ref {page}, a page with the answers")
    return problems


def leaks(sections, handout_text):
    """The sentences of the answers (outcome in full, solution) that the handout holds, as
    (exercise number, sentence)."""
    flat = re.sub(r"\s+", " ", handout_text)
    return [(e.number, sent) for s in sections for e in s.exercises
            for sent in sentences(e.key_outcome + e.solution) if sent in flat]


# --- the lessons' lists of exercises ----------------------------------------------------------------
# Each lesson, docs/stepNN.md, ends with a section stepNN_exercises that lists its exercises, each by a
# \\ref exercises_N_M: all of its step's exercises on the page, in the page's order, and no other.

def lesson_list_problems(source, sections):
    """What the lessons' lists of exercises lack or hold wrongly, against the page's numbering."""
    problems = []
    for s in sections:
        n = int(s.label[len("exercises_step"):])
        name = f"docs/step{n:02d}.md"
        path = os.path.join(source, name)
        if not os.path.exists(path):
            problems.append(f"{name} does not exist, and the exercises page has a section for step {n}")
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        m = re.search(rf"^\\section step{n:02d}_exercises .*?(?=^\\section |\Z)", text, re.M | re.S)
        if not m:
            problems.append(f"{name} has no section step{n:02d}_exercises listing its exercises")
            continue
        listed = [f"{a}.{b}" for a, b in re.findall(r"\\ref exercises_(\d+)_(\d+)\b", m.group(0))]
        wanted = [e.number for e in s.exercises]
        if listed != wanted:
            missing = [x for x in wanted if x not in listed]
            extra = [x for x in listed if x not in wanted]
            problems.append(f"{name} lists exercises {', '.join(listed) or 'none'} under step{n:02d}_exercises; the "
                            f"exercises page has {', '.join(wanted)}"
                            + (f" (missing: {', '.join(missing)})" if missing else "")
                            + (f" (not step {n}'s: {', '.join(extra)})" if extra else "")
                            + (" (out of order)" if not missing and not extra else ""))
    return problems


# What makes an exercise a timing exercise (its goal, procedure or expected outcome compares times)
TIMED = re.compile(r"\b(GFLOPS|speed|timing|cycles|faster|slower|time them|times of)\b")
ROUNDS = "for run in 1 2 3 4 5; do"
ON_A_CPU = "On a CPU (PoCL)"


def after_cpu_caveat(task):
    """The first line of the task after the paragraph that starts ON_A_CPU (stripped; None if none)."""
    for i, line in enumerate(task):
        if line.startswith(ON_A_CPU):
            rest = task[i:]
            end = next((j for j, x in enumerate(rest) if not x.strip()), len(rest))
            return next((x.strip() for x in rest[end:] if x.strip()), None)
    return None


def timing_problems(sections):
    """What a timing exercise of the page lacks: five rounds of its runs, a paragraph that says what a
    CPU will and will not show followed by the figures recorded on a CPU, the recorded GPU figures in
    its answer; and a snippet no exercise includes, or an exercise with a snippet that does not time
    anything."""
    problems = []
    numbers = timing_numbers()
    for e in (e for s in sections for e in s.exercises):
        task = "\n".join(e.task + e.outcome)
        snippet = f"\\includedoc {snippet_name(e.number, 'gpu')}"
        cpu_snippet = f"\\includedoc {snippet_name(e.number, 'cpu')}"
        if not TIMED.search(task):
            if e.number in numbers:
                problems.append(f"exercise {e.number} has recorded GPU figures but does not time anything")
            continue
        if not any(c.startswith(ROUNDS) for c in page_commands(e.task)):
            problems.append(f"exercise {e.number} times kernels, but no command runs five rounds ('{ROUNDS} ...')")
        if not any(line.startswith(ON_A_CPU) for line in e.task):
            problems.append(f"exercise {e.number} times kernels, but no paragraph starts '{ON_A_CPU}' (what a CPU "
                            "will and will not show)")
        elif after_cpu_caveat(e.task) != cpu_snippet:
            problems.append(f"exercise {e.number} times kernels, but its paragraph '{ON_A_CPU} ...' is not followed by "
                            f"the figures recorded on a CPU ({cpu_snippet})")
        if e.number not in numbers:
            problems.append(f"exercise {e.number} times kernels, but no figures are drawn for it from the records "
                            "(sitegen/exercises.py: timings())")
        if snippet not in "\n".join(e.key_outcome + e.solution):
            problems.append(f"exercise {e.number} times kernels, but its answer does not give the recorded GPU figures "
                            f"({snippet})")
    return problems


def with_included(text, out_dir):
    """text, and after it the text of every file it \\includedoc's that out_dir holds (the snippets
    render() has written there), as Doxygen will show them."""
    parts = [text]
    for name in re.findall(r"^\s*\\includedoc (\S+)", text, re.M):
        path = os.path.join(out_dir or "", name)
        if out_dir and os.path.isfile(path):
            with open(path, encoding="utf-8") as f:
                parts.append(f.read())
    return "\n".join(parts)


def build(source, out_dir=None):
    """(handout, key) Markdown of the source tree's exercise page; with out_dir, the handout's checks
    read the snippets it includes from there too."""
    path = os.path.join(source, "docs", PAGE)
    with open(path, encoding="utf-8") as f:
        intro, sections = parse_page(f.read())
    timing = timing_problems(sections)
    if timing:
        raise InputError(f"docs/{PAGE}: " + "; ".join(timing))
    hand = handout(intro, sections)
    leaked = leaks(sections, hand)
    if leaked:
        raise InputError(f"docs/{PAGE}: the handout would hold the answers' sentences: "
                         + "; ".join(f"exercise {n}: '{s}'" for n, s in leaked))
    pointed = handout_problems(source, with_included(hand, out_dir))
    if pointed:
        raise InputError(f"docs/{PAGE}: the handout would point students to the answers: " + "; ".join(pointed))
    lists = lesson_list_problems(source, sections)
    if lists:
        raise InputError("the lessons' lists of exercises: " + "; ".join(lists))
    return hand, key(sections, exercise_tests(source, sections))


def render(ctx):
    write_solutions(ctx.source, ctx.out)
    write_timings(ctx)
    hand, k = build(ctx.source, ctx.out)
    os.makedirs(os.path.join(ctx.out, "docs"), exist_ok=True)
    for name, text in ((HANDOUT, hand), (KEY, k)):
        with open(os.path.join(ctx.out, "docs", name + ".md"), "w", encoding="utf-8") as f:
            f.write(text + "\n")
