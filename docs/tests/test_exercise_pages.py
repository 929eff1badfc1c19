"""docs.exercise_pages: the handout and the teacher's key that docs/render.py makes from
docs/exercises.md (docs/sitegen/exercises.py):
  - the handout holds every exercise's goal, procedure and expected outcome, and no answer: no fold,
    and no sentence of any answer (the outcome in full, the solution);
  - the key holds every answer, and tests for every exercise;
  - the check can fail: a sentence of an answer copied into an exercise's expected outcome, or into
    its procedure, makes the generator refuse the page (and so fails the docs build);
  - every exercise that times kernels runs each variant five times, says what a CPU will and will not
    show, followed by the figures recorded on a CPU (lab/exercises_cpu.sh), and gives in its answer
    the recorded GPU figures, each variant's spread beside a ratio read only where the spreads do not
    overlap;
  - the solution of each write-it-yourself exercise, made from it and its step's kernel, is that
    kernel with the regions to write marked, and an exercise that no longer matches its kernel is
    refused;
  - the handout points students to no answer: it names no solution file (docs/key/) and no path to
    the solutions, links no page that holds the answers, and docs/exercises/ holds no solution;
  - every lesson lists its step's exercises, all of them in the page's order, and no other;
  - with a build directory, the key's tests are the build's: every test `ctest -N` lists under
    exercises.* is in the key of exactly one exercise (the tests of the exercise files themselves
    aside), and the line under each exercise selects at least the tests it lists.
Usage: test_exercise_pages.py SOURCE_DIR [CTEST BUILD_DIR]"""
import os
import re
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from sitegen import exercise_solutions, exercise_timings, exercises  # noqa: E402
from sitegen.common import InputError  # noqa: E402

SOURCE, CTEST, BUILD = None, None, None
# the tests of the exercise files rather than of an exercise (docs/exercises/CMakeLists.txt)
FILE_TESTS = re.compile(r"^exercises\.(page_commands|bug_kernel_headers|step\d\d_bug(_\d+)?\.(one|two)_\w+)$")


def flat(text):
    return re.sub(r"\s+", " ", text)


class ExercisePages(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(os.path.join(SOURCE, "docs", exercises.PAGE), encoding="utf-8") as f:
            cls.page = f.read()
        cls.handout, cls.key = exercises.build(SOURCE)
        _, cls.sections = exercises.parse_page(cls.page)
        cls.all = [e for s in cls.sections for e in s.exercises]

    def test_handout_has_every_exercise_and_no_answer(self):
        hand = flat(self.handout)
        self.assertNotIn("<details", self.handout)
        self.assertNotIn(exercises.KEY_OUTCOME, self.handout)
        self.assertNotIn(exercises.SOLUTION, self.handout)
        for e in self.all:
            with self.subTest(exercise=e.number):
                self.assertIn(f"\\subsection handout_{e.number.replace('.', '_')} {e.title}", self.handout)
                for part in (e.task, e.outcome):
                    self.assertIn(flat(" ".join(exercises.relabel(exercises.trim(part), "handout"))), hand)
                self.assertTrue(e.key_outcome or e.solution, f"exercise {e.number} has no answer")
                for sentence in exercises.sentences(e.key_outcome + e.solution):
                    self.assertFalse(sentence in hand, f"the handout holds '{sentence}'")

    def test_key_has_every_answer_and_tests(self):
        key = flat(self.key)
        for e in self.all:
            with self.subTest(exercise=e.number):
                for sentence in [s for part in (e.outcome, e.key_outcome, e.solution) for s in exercises.sentences(part)]:
                    self.assertTrue(sentence in key, f"the key lacks '{sentence}'")
        tests = exercises.exercise_tests(SOURCE, self.sections)
        for e in self.all:
            with self.subTest(exercise=e.number):
                self.assertTrue([t for t in tests[e.number].tests if t.kind != "untested"],
                                f"exercise {e.number}: no test")

    def leaked(self, page):
        """The generator's error on `page` (exercises.md's text), or None."""
        intro, sections = exercises.parse_page(page)
        return exercises.leaks(sections, exercises.handout(intro, sections))

    def test_check_catches_an_answer_in_the_handout(self):
        """An answer's sentence copied into the expected outcome (or the procedure) of its exercise,
        or of another one, is found, with its exercise."""
        self.assertEqual(self.leaked(self.page), [])
        e = next(e for e in self.all if e.key_outcome)
        sentence = exercises.sentences(e.key_outcome)[0]
        for where, anchor in (("outcome", exercises.OUTCOME), ("procedure", "**Procedure.**")):
            with self.subTest(into=where):
                at = self.page.index(anchor, self.page.index(f"\\subsection {e.label} "))
                mutated = self.page[:at] + sentence + "\n\n" + self.page[at:]
                self.assertEqual(self.leaked(mutated), [(e.number, sentence)])
        s = next(e for e in self.all if e.solution and e is not self.all[0])
        sentence = exercises.sentences(s.solution)[0]
        at = self.page.index(exercises.OUTCOME, self.page.index(f"\\subsection {self.all[0].label} "))
        mutated = self.page[:at] + sentence + "\n\n" + self.page[at:]
        self.assertIn((s.number, sentence), self.leaked(mutated))

    def test_generator_refuses_a_leak(self):
        e = next(e for e in self.all if e.solution)
        sentence = exercises.sentences(e.solution)[0]
        at = self.page.index(exercises.OUTCOME, self.page.index(f"\\subsection {e.label} "))
        mutated = self.page[:at] + exercises.OUTCOME + " " + sentence + "\n\n" \
            + self.page[at + len(exercises.OUTCOME):]
        source = os.path.join(BUILD or "/tmp", "test-exercise-pages")
        os.makedirs(os.path.join(source, "docs", "exercises"), exist_ok=True)
        os.makedirs(os.path.join(source, "tests"), exist_ok=True)
        with open(os.path.join(source, "docs", exercises.PAGE), "w", encoding="utf-8") as f:
            f.write(mutated)
        with self.assertRaisesRegex(InputError, re.escape(f"exercise {e.number}: '{sentence}'")):
            exercises.build(source)

    def test_handout_points_to_no_solution(self):
        """The handout names no solution file (docs/key/, or a file of docs/exercises/ whose title says
        it is a solution) and no path to the solutions, links no page with the answers, and no
        solution is kept in docs/exercises/; each of these is found, and the generator refuses it."""
        self.assertEqual(exercises.handout_problems(SOURCE, self.handout), [])
        key_files = sorted(os.listdir(os.path.join(SOURCE, exercises.KEY_DIR)))
        self.assertTrue(key_files)
        for added, message in (
                (f"take `docs/key/{key_files[0]}`", f"names the solution {key_files[0]}"),
                (f"or take `{key_files[-1]}`", f"names the solution {key_files[-1]}"),
                ("see build/docs/exercises/solutions/step05_write_inner_product.cl",
                 "a solution's path: build/docs/exercises/solutions/step05_write_inner_product.cl"),
                ("the answers are on \\ref exercises \"the exercises page\"", "links \\ref exercises,"),
                ("\\ref exercises_key \"the key\"", "links \\ref exercises_key,")):
            with self.subTest(added=added):
                problems = exercises.handout_problems(SOURCE, self.handout + "\n" + added + "\n")
                self.assertTrue(any(message in p for p in problems), problems)
        # ... or in a snippet the handout includes (the figures recorded on a CPU)
        out = os.path.join(BUILD or "/tmp", "test-exercise-snippets")
        os.makedirs(out, exist_ok=True)
        name = next(line.split()[1] for line in self.handout.splitlines() if line.startswith("\\includedoc "))
        with open(os.path.join(out, name), "w", encoding="utf-8") as f:
            f.write(f"| `docs/key/{key_files[0]}` | 5 |\n")
        problems = exercises.handout_problems(SOURCE, exercises.with_included(self.handout, out))
        self.assertTrue(any(f"names the solution {key_files[0]}" in p for p in problems), problems)
        os.remove(os.path.join(out, name))
        # a solution kept beside the exercises, named by the handout or not
        source = os.path.join(BUILD or "/tmp", "test-exercise-solution-files")
        os.makedirs(os.path.join(source, "docs", "exercises"), exist_ok=True)
        with open(os.path.join(source, "docs", "exercises", "step09_mine.cl"), "w", encoding="utf-8") as f:
            f.write("// Exercise 9.9 - solution: the kernel, right\n__kernel void sgemm() {}\n")
        problems = exercises.handout_problems(source, "nothing")
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("docs/exercises/step09_mine.cl says it is a solution", problems[0])
        # and the generator refuses a page whose procedure names a solution
        e = self.all[0]
        at = self.page.index("**Procedure.**", self.page.index(f"\\subsection {e.label} "))
        with open(os.path.join(source, "docs", exercises.PAGE), "w", encoding="utf-8") as f:
            f.write(self.page[:at] + f"Or take `docs/key/{key_files[0]}`.\n\n" + self.page[at:])
        os.remove(os.path.join(source, "docs", "exercises", "step09_mine.cl"))
        os.makedirs(os.path.join(source, "tests"), exist_ok=True)
        with self.assertRaisesRegex(InputError, "would point students to the answers: .*key's folder"):
            exercises.build(source)

    def test_lessons_list_their_exercises(self):
        """Every lesson lists all its step's exercises, in the page's order, and no other; a list
        that lacks one, or names another step's, is found."""
        import shutil
        self.assertEqual(exercises.lesson_list_problems(SOURCE, self.sections), [])
        source = os.path.join(BUILD or "/tmp", "test-exercise-lists")
        shutil.rmtree(source, ignore_errors=True)
        os.makedirs(os.path.join(source, "docs"))
        s = self.sections[-1]
        n = int(s.label[len("exercises_step"):])
        name = f"step{n:02d}.md"
        with open(os.path.join(SOURCE, "docs", name), encoding="utf-8") as f:
            text = f.read()
        last = s.exercises[-1]
        for change, message in ((f"\\ref {last.label} ", "(missing: " + last.number + ")"),
                                (f"\\ref {last.label} ", f"(not step {n}'s: 1.1)")):
            with self.subTest(message=message):
                at = text.index(change, text.index(f"\\section step{n:02d}_exercises"))
                cut = text[:at] + ("\\ref exercises_1_1 " if "not step" in message else "") + text[at + len(change):]
                for other in self.sections:
                    m = int(other.label[len("exercises_step"):])
                    if m != n:
                        shutil.copy(os.path.join(SOURCE, "docs", f"step{m:02d}.md"), os.path.join(source, "docs"))
                with open(os.path.join(source, "docs", name), "w", encoding="utf-8") as f:
                    f.write(cut)
                problems = exercises.lesson_list_problems(source, self.sections)
                self.assertEqual(len(problems), 1, problems)
                self.assertIn(f"docs/{name} lists exercises", problems[0])
                self.assertIn(message, problems[0])

    def test_page_form_is_enforced(self):
        """An answer fold that does not start with its label, or a second fold, is refused."""
        e = next(e for e in self.all if e.solution and not e.key_outcome)
        bad = self.page.replace(exercises.FOLD_OPEN + "\n\n" + e.solution[0],
                                exercises.FOLD_OPEN + "\n\n" + e.solution[0][len(exercises.SOLUTION) + 1:], 1)
        self.assertNotEqual(bad, self.page)
        with self.assertRaisesRegex(InputError, "must start with"):
            exercises.parse_page(bad)
        bad = self.page.replace(exercises.FOLD_OPEN, '\\htmlonly[block]<details><summary>Hint</summary>\\endhtmlonly', 1)
        with self.assertRaisesRegex(InputError, "a fold that is not the page's answer fold"):
            exercises.parse_page(bad)

    def test_timing_exercises(self):
        """Every exercise that times kernels runs five rounds, says what a CPU will and will not show,
        and gives the recorded GPU figures in its answer; a page without one of these is refused."""
        self.assertEqual(exercises.timing_problems(self.sections), [])
        timed = [e for e in self.all if exercises.TIMED.search("\n".join(e.task + e.outcome))]
        self.assertEqual(sorted(e.number for e in timed), sorted(exercise_timings.timing_numbers()))
        e = timed[0]
        text = self.page[self.page.index(f"\\subsection {e.label} "):]
        for what, old, new, message in (
                ("rounds", exercises.ROUNDS, "for run in 1; do", "no command runs five rounds"),
                ("cpu", exercises.ON_A_CPU, "On a laptop", "no paragraph starts 'On a CPU"),
                ("figures", f"\\includedoc exercise_{e.number.replace('.', '_')}_gpu.md", "", "does not give the recorded"),
                ("cpu figures", f"\\includedoc exercise_{e.number.replace('.', '_')}_cpu.md", "",
                 "is not followed by the figures recorded on a CPU"),
                ("cpu figures elsewhere", f"\\includedoc exercise_{e.number.replace('.', '_')}_cpu.md\n",
                 "Some words first.\n\n\\includedoc exercise_" + e.number.replace('.', '_') + "_cpu.md\n",
                 "is not followed by the figures recorded on a CPU")):
            with self.subTest(without=what):
                cut = self.page.replace(text, text.replace(old, new, 1), 1)
                self.assertNotEqual(cut, self.page)
                _, sections = exercises.parse_page(cut)
                problems = exercises.timing_problems(sections)
                self.assertTrue(any(f"exercise {e.number} " in p and message in p for p in problems), problems)

    def test_cpu_figures(self):
        """The exercises' runs on a CPU (lab/tuning/pocl-*-exercises*.csv) give each timing exercise
        its CPU table, with the size it was recorded at, and its log named; no lesson's table reads
        them (records.load_tuning(), local_reads.load() leave them out)."""
        import shutil
        from sitegen import local_reads, params, records
        from sitegen.common import NEEDED
        tuning = os.path.join(BUILD or "/tmp", "test-exercise-cpu-records")
        shutil.rmtree(tuning, ignore_errors=True)
        os.makedirs(tuning)
        t = next(t for t in exercise_timings.timings(params.read_defaults(SOURCE), cpu=True) if t.number == "1.3")
        values = {"platform": "Portable Computing Language", "device": "cpu-x", "driver": "1", "alpha": "1",
                  "beta": "0", "warmup": "2", "repeat": "5", "median_ms": "20", "best_ms": "19", "status": "PASS",
                  "parts": "sgemm:20/19"}
        head = NEEDED + ["parts", "kernel_file"]
        with open(os.path.join(tuning, "pocl-x-exercises.csv"), "w", encoding="utf-8") as f:
            f.write(",".join(head) + "\n")
            for v in t.variants:
                for rate in (2.0, 2.5):
                    row = dict(values, step=v.step, m=v.size[0], n=v.size[1], k=v.size[2], gflops=rate,
                               gflops_best=rate + 0.1, params=" ".join(f"{k}={x}" for k, x in v.params.items()))
                    f.write(",".join(str(row.get(c, "")) for c in head) + "\n")
        with open(os.path.join(tuning, "pocl-x-exercises.log"), "w", encoding="utf-8") as f:
            f.write("load before ...\n")
        shutil.copy(os.path.join(tuning, "pocl-x-exercises.csv"), os.path.join(tuning, "pocl-x-exercises-local-reads.csv"))
        rows, logs = exercise_timings.cpu_rows(tuning)
        self.assertEqual(len(rows), 2 * len(t.variants))
        text = exercise_timings.timing_snippet(t, rows, exercise_timings.ON_CPUS, logs)
        self.assertIn(f"Recorded on a CPU, through PoCL: **cpu-x**, M=N=K={exercise_timings.CPU_SIZE}", text)
        self.assertIn("`lab/tuning/pocl-x-exercises.log`", text)
        self.assertEqual(text.count("| 2 | 2.00 | 2.00 to 2.60 |"), len(t.variants), text)
        self.assertEqual(records.load_tuning(tuning), [])
        self.assertEqual(local_reads.load(tuning), [])
        self.assertIn("No run of these variants is recorded on a CPU",
                      exercise_timings.timing_snippet(t, [], exercise_timings.ON_CPUS))

    def test_timing_figures_read_a_ratio_only_apart(self):
        """The recorded figures' table gives a ratio to the first variant only where the spreads (the
        slowest median to the fastest best of each) do not overlap."""
        higher = lambda a, b: a > b  # noqa: E731
        table = exercise_timings.spread_table("variant", "GFLOPS", [
            ("a", [(100.0, 110.0), (104.0, 108.0)]),      # spread 100 to 110
            ("b", [(109.0, 115.0), (112.0, 113.0)]),      # 109 to 115: overlaps a
            ("c", [(120.0, 121.0), (122.0, 125.0)]),      # 120 to 125: apart
            ("d", []),
            ("e", [(200.0, 201.0)])], higher, exercise_timings.fmt_gflops)  # one run: no spread, no ratio
        rows = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]]
                for line in table.splitlines()[2:]}
        self.assertEqual(rows["a"][-1], "the first")
        self.assertEqual(rows["a"][2], "100 to 110")
        self.assertIn("overlap", rows["b"][-1])
        self.assertEqual(rows["c"][1:], ["120", "120 to 125", "1.20x"])
        self.assertEqual(rows["d"][1], "not recorded")
        self.assertEqual(rows["e"][1:], ["200", exercise_timings.ONE_RUN, "one run: no ratio"])
        # a first variant of one run gives no ratio to any other
        table = exercise_timings.spread_table("variant", "GFLOPS", [("a", [(100.0, 101.0)]), ("c", [(120.0, 121.0), (122.0, 125.0)])],
                                       higher, exercise_timings.fmt_gflops)
        last = [c.strip() for c in table.splitlines()[-1].split("|")[1:-1]]
        self.assertEqual(last[3:], ["120 to 125", "the first has one run: no ratio"])
        self.assertIn(exercise_timings.ONE_RUN, table.splitlines()[2])

    def test_variants_match_the_kernel_file(self):
        """A variant of a kernel file run through a step's host (--kernel-file) matches the rows that
        name that file, wherever it was, and a variant of the step's own kernels only rows that name
        none (an empty kernel_file, or a file recorded before the column)."""
        from sitegen import params
        t = next(t for t in exercise_timings.timings(params.read_defaults(SOURCE)) if t.number == "1.2")
        step, mine = t.variants
        self.assertEqual(mine.kernel_file, exercise_timings.ROWS_DIM0)
        ts = step.params["TS"]
        row = {"step": "kernel01_naive", "m": "4096", "n": "4096", "k": "4096", "params": f"TS={ts}"}
        self.assertFalse(step.matches(dict(row, params=f"TS={ts * 2}")))
        cases = ((dict(row), (True, False)), (dict(row, kernel_file=""), (True, False)),
                 (dict(row, kernel_file=f"docs/key/{exercise_timings.ROWS_DIM0}"), (False, True)),
                 (dict(row, kernel_file=exercise_timings.ROWS_DIM0), (False, True)),
                 (dict(row, kernel_file="my_rows_dim0.cl"), (False, False)),
                 (dict(row, kernel_file=f"docs/key/{exercise_timings.ROWS_DIM0}", step="kernel02_tiled"), (False, False)))
        for r, (is_step, is_mine) in cases:
            with self.subTest(row=r.get("kernel_file")):
                self.assertEqual((step.matches(r), mine.matches(r)), (is_step, is_mine))
        # a record's rows of a kernel file are kept from the lessons' tables (TuningFile.rows), and read
        # by the exercises'
        from sitegen import records
        from sitegen.common import NEEDED
        path = os.path.join(BUILD or "/tmp", "test-exercise-kernel-file.csv")
        values = {"step": "kernel01_naive", "platform": "NVIDIA CUDA", "device": "GPU", "driver": "1", "m": "4096",
                  "n": "4096", "k": "4096", "alpha": "1", "beta": "0", "params": f"TS={ts}", "warmup": "2",
                  "repeat": "5", "median_ms": "20", "best_ms": "19", "gflops": "6000", "gflops_best": "6100",
                  "parts": "sgemm:20/19", "status": "PASS"}
        head = NEEDED + [c for c in values if c not in NEEDED] + ["kernel_file"]
        with open(path, "w", encoding="utf-8") as f:
            f.write(",".join(head) + "\n")
            for kernel_file in ("", f"docs/key/{exercise_timings.ROWS_DIM0}"):
                f.write(",".join(values.get(c, kernel_file if c == "kernel_file" else "") for c in head) + "\n")
        tf = records.TuningFile(path)
        self.assertEqual([r["kernel_file"] for r in tf.rows], [""])
        self.assertEqual([r["kernel_file"] for r in tf.kernel_file_rows], [f"docs/key/{exercise_timings.ROWS_DIM0}"])
        rows = exercise_timings.recorded_rows([], [tf])
        self.assertEqual([(step.matches(r), mine.matches(r)) for _, r in rows], [(True, False), (False, True)])

    def test_solutions_are_the_kernels_marked(self):
        """The solution of each write-it-yourself exercise is its step's kernel, with as many regions
        marked as the exercise has to write; and an exercise whose kernel changed outside the
        regions is refused, with the difference."""
        import glob
        import shutil
        paths = sorted(glob.glob(os.path.join(SOURCE, "docs", "exercises", exercise_solutions.WRITE_GLOB)))
        self.assertTrue(paths)
        for path in paths:
            rel = os.path.relpath(path, SOURCE)
            with self.subTest(exercise=rel):
                text, kernel = exercise_solutions.solution(SOURCE, rel)
                with open(os.path.join(SOURCE, kernel), encoding="utf-8") as f:
                    kernel_lines = f.read().split("\n")
                segments, _ = exercise_solutions.marked_regions(text.split("\n"), exercise_solutions.SOLUTION_MARKS, "solution")
                unmarked = [line for seg in segments for line in seg]
                self.assertEqual([c for c in map(exercise_solutions.code_of, unmarked) if c],
                                 [c for c in map(exercise_solutions.code_of, kernel_lines) if c])
                with open(path, encoding="utf-8") as f:
                    asked, _ = exercise_solutions.marked_regions(f.read().split("\n"), exercise_solutions.EXERCISE_MARKS, rel)
                self.assertEqual(len(segments), len(asked))
                self.assertGreaterEqual(len(segments), 3)
        # a kernel changed outside the regions: the exercise no longer matches it
        rel = os.path.relpath(paths[0], SOURCE)
        _, kernel = exercise_solutions.solution(SOURCE, rel)
        source = os.path.join(BUILD or "/tmp", "test-exercise-solutions")
        shutil.rmtree(source, ignore_errors=True)
        os.makedirs(os.path.join(source, os.path.dirname(rel)))
        os.makedirs(os.path.join(source, os.path.dirname(kernel)))
        shutil.copy(paths[0], os.path.join(source, rel))
        with open(os.path.join(SOURCE, kernel), encoding="utf-8") as f:
            lines = f.read().split("\n")
        last = max(i for i, line in enumerate(lines) if exercise_solutions.code_of(line))
        lines[last] += " ;"
        with open(os.path.join(source, kernel), "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
        with self.assertRaisesRegex(InputError, "no longer the kernel's"):
            exercise_solutions.solution(source, rel)

    def test_key_tests_are_the_builds(self):
        if not CTEST:
            self.skipTest("no build directory given")
        listed = subprocess.run([CTEST, "-N"], cwd=BUILD, capture_output=True, text=True, check=True).stdout
        names = re.findall(r"Test +#\d+: (\S+)", listed)
        tests = exercises.exercise_tests(SOURCE, self.sections)
        regexes = {n: re.compile(t.regex()) for n, t in tests.items()}
        for name in names:
            if not name.startswith("exercises.") or FILE_TESTS.match(name):
                continue
            with self.subTest(test=name):
                owners = [n for n, rx in regexes.items() if rx.match(name)]
                self.assertEqual(len(owners), 1, f"{name} is in the key of exercises {owners}")
        for n, t in tests.items():
            with self.subTest(exercise=n):
                self.assertTrue([x for x in names if regexes[n].match(x)], f"exercise {n}'s line selects no test")


if __name__ == "__main__":
    SOURCE = sys.argv[1]
    if len(sys.argv) == 4:
        CTEST, BUILD = sys.argv[2], sys.argv[3]
    del sys.argv[1:]
    unittest.main(verbosity=2)
