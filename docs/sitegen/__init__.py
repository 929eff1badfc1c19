"""docs/render.py: generates everything the documentation site shows that comes from the code or
from measured data, so that no page can drift from either. Run by the `docs` build target
(docs/CMakeLists.txt) before Doxygen; writes only into --out.

Inputs: the source tree (every kernelNN_*/ directory with a gemm_add_step() line is a step; the
idea it adds is the summary string of its main.c), the recorded results (docs/results/NAME.csv,
one device's run each: the harness's --csv lines or a bench/bench.py sweep, with NAME.peak.csv
beside it when bench/peak measured the device) and the tuning records (lab/tuning/, or --tuning:
lab/tune.py CSVs, compiler reports NAME-ptxas.txt, logs).

Outputs, one module of the package docs/sitegen/ per kind, each with a render(ctx) that cli.py
calls and a docstring naming the files it writes:
  diffs.py          the diff of each step against the previous one
  tables.py         the results tables and the per-step sentences
  arithmetic.py     the arithmetic of each step with each device's parameters; compiler reports
  tuning_grids.py, tuning_split_k.py, tuning_ablation.py, tuning_step11.py, tuning_step12.py
                    the tables drawn from the tuning records: steps 4 to 8, the split of K,
                    one change at a time, step 11's variants, step 12's copies
  plots.py          the plots of the results
  figures.py        the rooflines, each step against the one before, the spread of the tuning runs
  diagrams.py       the diagram of each step's work-group, tiles and work-items (drawn by
                    diagram_drawing.py)
  exercises.py      the exercises' handout and teacher's key, two pages made from docs/exercises.md
                    (with exercise_solutions.py, the write-it-yourself solutions, and
                    exercise_timings.py, the timing exercises' recorded figures)
The formulas of every step are its descriptor in stepdefs.py. What every figure shares (matplotlib,
SVG as wide as the text column at 1024 pixels, labels placed where nothing else is drawn) is in
drawing.py; the checks of a drawn figure that docs/tests/test_figures.py runs on every figure are in
figure_checks.py, and roof_checks.py holds the built rooflines' local-memory roofs to the tables of
ceilings.
attribution.py judges whether each step's gain on each device is its idea's (the tables and
sentences mark it where it is not), and claims.py checks what the pages say against the data (the
test docs.claims), with hand_figures.py (figures typed by hand) and lesson_figures.py (every figure a
lesson shows for a step, size and device is its results file's).

Exit status: 0, or 2 with one line "render.py: error: ..." when an input is malformed (a CSV
without the harness's columns, a file that mixes devices, a malformed number, an unknown status,
peaks of another device) and 3 when diff fails.
"""
