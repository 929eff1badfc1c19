"""The command line of the site generator (docs/render.py): loads the inputs once, then lets every
output module write its files."""
import argparse
import json
import os
import sys

from . import __doc__ as DESCRIPTION
from . import (arithmetic, ceilings, diagrams, diffs, drawing, exercises, figure_checks, figures, fragments,
               local_reads, params, plots, predication, prose, sass_loops, split_example, stepdefs, tables, tuning_ablation,
               tuning_grids, tuning_split_k, tuning_step11, tuning_step12)
from .checks import check_html
from .common import InputError, ToolError
from .records import load_ptxas, load_tuning
from .results import load_results
from .sources import discover_steps

class Context:
    """What every output module's render(ctx) reads: the inputs, loaded once, and where to write."""

    def __init__(self, args):
        self.source = args.source
        self.out = args.out
        self.docs_dir = os.path.join(args.source, "docs")
        self.steps = discover_steps(args.source)
        stepdefs.configure(args.source)
        self.results_dir = args.results
        self.results = load_results(args.results)
        self.tuning_dir = args.tuning if args.tuning is not None else os.path.join(args.source, "lab", "tuning")
        self.tuning = load_tuning(self.tuning_dir)
        self.ptxas = load_ptxas(self.tuning_dir, self.results)
        self.defaults = params.read_defaults(args.source)


# Where set, the file to which every figure's faults are written, the figure checked as it is saved
# (figure_checks.check_every_figure(): the checks of docs.figures, which reads the file): the test
# docs.build sets it, so that the site is drawn once for both tests
FIGURE_FAULTS = "GEMM_DOCS_FIGURE_FAULTS"

# The modules that write the site's generated files, each with a render(ctx). A new kind of table
# or picture goes into one of them (or a new module listed here).
OUTPUTS = (diffs, params, diagrams, tables, arithmetic, ceilings, figures, tuning_grids, tuning_split_k, tuning_ablation,
           tuning_step11, tuning_step12, local_reads, plots, prose, exercises, fragments, split_example, predication,
           sass_loops)


def main():
    ap = argparse.ArgumentParser(description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--source", required=True, help="the repository root")
    ap.add_argument("--results", required=True, help="directory of results CSV files")
    ap.add_argument("--out", required=True, help="output directory (created)")
    ap.add_argument("--tuning", help="directory of tuning records and compiler reports "
                                     "(default: SOURCE/lab/tuning)")
    ap.add_argument("--gnuplot", help=argparse.SUPPRESS)  # no longer used (matplotlib draws every plot): accepted
    #                                                      so that an older build directory's command still runs
    ap.add_argument("--check-html", metavar="DIR",
                    help="instead: check Doxygen's output DIR (every plot generated in --out shown, no %% lost, "
                         "no table wider than the page, no two sentences joined: sitegen/checks.py)")
    args = ap.parse_args()
    if args.check_html:
        return check_html(args.out, args.check_html, os.path.join(args.source, "docs"))
    try:
        os.makedirs(args.out, exist_ok=True)
        ctx = Context(args)
        faults_file = os.environ.get(FIGURE_FAULTS)
        faults = figure_checks.check_every_figure() if faults_file else None
        for module in OUTPUTS:
            module.render(ctx)
        if faults_file:
            with open(faults_file, "w", encoding="utf-8") as f:
                json.dump(faults, f, indent=1, sort_keys=True)
    except InputError as e:
        sys.stderr.write(f"render.py: error: {e}\n")
        return 2
    except (ToolError, OSError) as e:
        sys.stderr.write(f"render.py: error: {e}\n")
        return 3
    return 0
