"""docs.figures: every figure the site's build draws, from the committed records (docs/results/,
lab/tuning/), read at a glance (docs/sitegen/figure_checks.py says what each check means):
  - no text over another text, or beside another closer than a space between two words, across a
    line, a marker, an axes' frame or a shape's edge, or off the figure; no legend over the data;
    no text rotated at a slant or longer than three lines, none that lines up its parts with spaces,
    none that ends in a separator (a clause left out); no ratio axis below zero;
  - every legend entry (a line with a label) shows: not hidden under the others, as a whole or at a
    quarter of its points or more (under the line drawn after it);
  - no line of data spikes (4095, 4096 and 4097 joined on a log axis: straight up and down);
  - no text smaller than 10 px on the page (its font size in the SVG at the width a page shows it);
  - a step bound by local memory has its local-memory roof on its roofline, from the bandwidth
    `peak --local-reads` measured on its device (where one is recorded, else the documented one);
  - every local-memory roof a roofline draws is the ceiling of its lesson's table (roof_checks.py),
    shown failing on the old form (step 2's table with the documented 8287 GFLOPS on the H100, its
    roofline with the measured 8180);
  - no figure wider than the text column of a 1024-pixel window (its SVG width attribute), less the
    indent of the list items and answer folds a page shows it in, so that none is scaled down or cut
    at 1024 or 1280 pixels;
  - every caption the generator writes (\\image html NAME "caption") at most three lines in that
    column.
And the checks themselves, each on a figure made to break it (a check that cannot fail is no check).
Skipped with the reason (exit 77) where the Python that runs it has no matplotlib.
Usage: test_figures.py SOURCE_DIR [--built GEN_DIR]
With --built, the figures are those the site's build drew into GEN_DIR with GEMM_DOCS_FIGURE_FAULTS
set to GEN_DIR/figure_faults.json (the test docs.build: sitegen/cli.py checks each figure as it is
saved, with the same checks, and writes their findings there), so that the site is drawn once for
both tests; without it, this test draws them itself."""
import argparse
import glob
import json
import os
import re
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
from fixture import main_with_matplotlib  # noqa: E402

SOURCE = BUILT = None


class Checks(unittest.TestCase):
    """Each check of figure_checks.py catches what it is for, and passes a figure without it."""

    def figure(self, width=6.0):
        from sitegen import drawing
        plt = drawing.pyplot()
        fig, ax = plt.subplots(figsize=(width, 3.0))
        ax.set_xlim(0, 10)
        ax.set_ylim(0, 10)
        self.addCleanup(plt.close, fig)
        return fig, ax

    def faults(self, fig):
        from sitegen import figure_checks
        return figure_checks.layout_faults(fig)

    def test_clean_figure(self):
        fig, ax = self.figure()
        ax.plot([0, 10], [1, 2], "o-")
        ax.text(5, 8, "far from the line")
        self.assertEqual(self.faults(fig), [])

    def test_text_over_text(self):
        fig, ax = self.figure()
        ax.text(5, 5, "seven")
        ax.text(5.1, 5, "eight")
        self.assertIn("'seven' overlaps the text 'eight'", self.faults(fig))

    def test_texts_run_together(self):
        """Two labels side by side closer than a space between words read as one; a space and more
        apart, or one above the other, they do not."""
        from sitegen import drawing
        fig, ax = self.figure()
        first = ax.text(1, 5, "CPU BLAS", fontsize=8)
        right = ax.transData.inverted().transform((first.get_window_extent(drawing.renderer(fig)).x1 + 1.5, 0))[0]
        ax.text(right, 5, "CLBlast", fontsize=8)
        ax.text(1, 2, "apart", fontsize=8)
        ax.text(3, 2, "enough", fontsize=8)
        ax.text(7, 8.6, "above", fontsize=8)
        ax.text(7, 8, "below", fontsize=8)
        faults = self.faults(fig)
        self.assertEqual(faults, ["'CPU BLAS' runs into the text 'CLBlast' (closer than a space between two words)"])

    def test_text_across_a_line(self):
        fig, ax = self.figure()
        ax.plot([0, 10], [0, 10], gid="the roof")
        ax.text(5, 5, "copy bandwidth", ha="center", va="center")
        self.assertIn("'copy bandwidth' crosses the roof", self.faults(fig))

    def test_text_over_a_marker(self):
        fig, ax = self.figure()
        ax.plot([5], [5], "o", ms=8, gid="step 7")
        ax.text(5, 5, "7", ha="center", va="center")
        self.assertIn("'7' covers a marker of step 7", self.faults(fig))

    def test_text_across_a_shape_edge_but_not_inside(self):
        from matplotlib.patches import Rectangle
        fig, ax = self.figure()
        ax.add_patch(Rectangle((2, 2), 2, 2, facecolor="#dddddd"))
        ax.add_patch(Rectangle((6, 1), 3.5, 8, facecolor="#eeeeee"))
        ax.text(4, 3, "work-group (2, 2)", ha="center", va="center")
        ax.text(7.75, 5, "inside", ha="center", va="center")
        self.assertEqual(self.faults(fig), ["'work-group (2, 2)' crosses the edge of 1 shape"])

    def test_text_off_the_figure(self):
        fig, ax = self.figure()
        ax.set_title("a title far too long for the panel it names, cut off at the right edge of the figure" * 2)
        self.assertTrue(any("runs off the figure" in f for f in self.faults(fig)), self.faults(fig))

    def test_slanted_and_long_texts(self):
        fig, ax = self.figure()
        ax.text(2, 2, "4095", rotation=45)
        ax.text(6, 3, "one\ntwo\nthree\nfour")
        faults = self.faults(fig)
        self.assertIn("'4095' is rotated by 45 degrees: draw it level or upright", faults)
        self.assertIn("'one\\ntwo\\nthree\\nfour' has 4 lines (at most 3: the rest belongs in the page's text)", faults)

    def test_parts_lined_up_with_spaces(self):
        """A text that lines up its parts with runs of spaces (a key's names over its swatches) drifts
        in another font; one space between words is prose."""
        fig, ax = self.figure()
        ax.text(1, 2, "a0  a1  a2")
        ax.text(1, 6, "one space between words")
        self.assertEqual([f.split(" lines up")[0] for f in self.faults(fig)], ["'a0  a1  a2'"])

    def test_dangling_separator(self):
        """A text that ends in a separator left a clause out ('K=512;': the host's choice that was not
        there); one that ends in a word or a full stop does not."""
        fig, ax = self.figure()
        ax.set_title("an example problem M=1024 N=1024 K=512;")
        ax.text(1, 2, "one, two: three.")
        self.assertEqual(self.faults(fig), ["'an example problem M=1024 N=1024 K=512;' ends in ';': a clause left "
                                            "dangling"])

    def test_ratio_axis_below_zero(self):
        """A ratio axis (a quotient as its label) that runs below zero is a fault; one from 0 up, one on
        a log scale, and an axis of another quantity (GB/s) that runs below zero are not."""
        fig, ax = self.figure()
        ax.set_ylabel("step 11 / step 10")
        ax.set_ylim(-0.25, 1.25)
        self.assertEqual(self.faults(fig), ["the ratio axis 'step 11 / step 10' (y) runs below zero, to -0.25: "
                                            "start it at 0 or above (or draw it on a log scale)"])
        ax.set_ylim(0, 1.25)
        ax.set_xlabel("GB/s")
        ax.set_xlim(-1, 10)
        fig.tight_layout()
        self.assertEqual(self.faults(fig), [])
        ax.set_yscale("log")
        ax.set_ylim(0.01, 2)
        self.assertEqual(self.faults(fig), [])

    def test_legend_over_the_data(self):
        fig, ax = self.figure()
        ax.plot([0, 10], [9.5, 9.5], label="a line along the top")
        ax.legend(loc="upper left")
        self.assertIn("the legend covers the line 'a line along the top'", self.faults(fig))

    def test_figure_too_wide(self):
        fig, _ = self.figure(width=10.0)
        self.assertEqual(self.faults(fig), ["the figure is 960 px wide: wider than the text column of a 1024-pixel "
                                            "window (733 px)"])

    def test_line_hidden_under_another(self):
        from sitegen import figure_checks
        fig, ax = self.figure()
        ax.plot([0, 5, 10], [2, 6, 7], "o-", color="#1f77b4", label="nvidia-h100")
        ax.plot([0, 5, 10], [2, 6, 7.05], "o-", color="#2ca02c", label="nvidia-h200")
        self.assertEqual([f.split(":")[0] for f in figure_checks.hidden_series(fig)],
                         ["'nvidia-h100' is hidden under the other lines",
                          "'nvidia-h100' is hidden at 3 of its 3 points, under 'nvidia-h200' (at 0, 5, 10)"])
        # ... and shown, drawn wider and with larger open markers under the other
        ax.lines[0].set(lw=4, marker="s", ms=10, mfc="none")
        self.assertEqual(figure_checks.hidden_series(fig), [])

    def test_small_text(self):
        """A text under 10 px on the page is a fault: 7 pt in a figure shown at its own width (9.3 px),
        a log axis's superscripts (10 with a smaller 3), or 7.5 pt in a figure shown scaled down;
        7.5 pt at the figure's own width (10 px) is not."""
        import io
        from sitegen import figure_checks
        fig, ax = self.figure()
        ax.text(1, 2, "slice 0", fontsize=7)
        ax.text(1, 6, "slice 1", fontsize=7.5)
        ax.set_yscale("log")
        ax.set_ylim(10, 10000)
        ax.tick_params(labelsize=9)
        svg = io.StringIO()
        fig.savefig(svg, format="svg")
        small = figure_checks.small_texts(svg.getvalue())
        self.assertIn("'slice 0' (9.3 px)", small)
        self.assertIn("'10 3' (8.4 px)", small)
        self.assertNotIn("'slice 1' (10.0 px)", small)
        shown = 0.9 * figure_checks.svg_width_px(svg.getvalue())
        self.assertIn("'slice 1' (9.0 px)", figure_checks.small_texts(svg.getvalue(), shown))

    def test_spike(self):
        """A line of data through sizes 4095, 4096 and 4097 on a log axis goes straight up and down: a
        fault; the same line through the round sizes only, with the odd ones as markers apart, and a
        vertical line of two points (a ridge line), are not."""
        from sitegen import drawing
        fig, ax = self.figure()
        ax.set_xscale("log", base=2)
        ax.set_xlim(200, 10000)
        sizes = [256, 1024, 4095, 4096, 4097, 8192]
        rates = [2, 5, 6, 8, 5, 8.5]
        ax.plot(sizes, rates, "o-", label="step 7")
        fig.tight_layout()
        faults = self.faults(fig)
        self.assertEqual(len(faults), 1, faults)
        self.assertRegex(faults[0], r"^the line 'step 7' spikes: 4095 to 4096 \(0\.\d px across, \d+ px up or down\), "
                                    r"4096 to 4097 \(0\.\d px across, \d+ px up or down\)")
        ax.lines[0].remove()
        odd = drawing.odd_sizes(sizes)
        self.assertEqual(odd, [4095, 4097])
        ax.plot([x for x in sizes if x not in odd], [g for x, g in zip(sizes, rates) if x not in odd], "o-")
        ax.plot(odd, [g for x, g in zip(sizes, rates) if x in odd], "<", ls="none")
        ax.plot([3000, 3000], [1, 9], color="#bbbbbb")
        self.assertEqual(self.faults(fig), [])

    def test_points_hidden_under_a_later_line(self):
        """A line that shows as a whole (step 7 below 2048) but whose points from some size up lie under
        the line drawn after it (step 8's) is hidden there: a quarter of its points or more hidden is a
        fault, naming the line over them; the earlier one's markers larger and open (rings around the
        later one's), both show."""
        from sitegen import figure_checks
        fig, ax = self.figure()
        xs = [1, 2, 3, 4, 5, 6, 7, 8]
        ax.plot(xs, [1, 2, 3, 6, 7, 7.5, 8, 8.2], "o-", color="#e377c2", label="step 7")
        ax.plot(xs, [0.5, 1, 1.5, 6, 7, 7.5, 8, 8.2], "o-", color="#17becf", label="step 8")
        self.assertEqual([f.split(":")[0] for f in figure_checks.hidden_series(fig)],
                         ["'step 7' is hidden at 5 of its 8 points, under 'step 8' (at 4, 5, 6, 7, 8)"])
        ax.lines[0].set(marker="o", ms=11, mfc="none", mew=1.5, lw=3)
        self.assertEqual(figure_checks.hidden_series(fig), [])

    def test_caption_length(self):
        from sitegen import drawing
        self.assertEqual(caption_lines("Step 8 over step 7 at each size (linear scale)", drawing.WIDTH_PX), 1)
        long = ("NDRange 48 x 24 work-items in work-groups of 16 x 8 = 128 (dimension 0 along the columns of C); "
                "3 x 3 work-groups. Each work-item stores 16 x 8 = 128 elements of C: a WPTM x WPTN register block "
                "inside its warp's WTM x WTN tile, the warp's 32 work-items standing LANESM x LANESN = 4 x 8 in "
                "squares of 2 x 2")
        self.assertGreater(caption_lines(long, drawing.WIDTH_PX), 3)

    def test_places_of_figures(self):
        """A figure's place: in a list item (and its nested items), in an answer fold, through an
        included snippet; and the width it may take there."""
        from sitegen import drawing
        snippet = "- **a**: text\n\n  \\image html in_list.svg \"c\"\n\nplain\n\n\\image html plain.svg \"c\"\n"
        page = ("\\htmlonly[block]<details class=\"solution\"><summary>A</summary>\\endhtmlonly\n\n"
                "\\includedoc snip.md\n\n\\htmlonly[block]</details>\\endhtmlonly\n\n\\includedoc snip.md\n\n"
                "- one\n  - two\n\n    \\image html nested.svg\n")
        places = drawing.figure_places({"page.md": page}, {"snip.md": snippet})
        self.assertEqual(sorted(p[:2] for p in places["in_list.svg"]), [(1, 0), (1, 1)])
        self.assertEqual(sorted(p[:2] for p in places["plain.svg"]), [(0, 0), (0, 1)])
        self.assertEqual(places["nested.svg"][0][:2], (2, 0))
        self.assertEqual(drawing.width_px(1, 1), drawing.WIDTH_PX - drawing.LIST_INDENT_PX - drawing.FOLD_INDENT_PX)

    def test_placer_keeps_labels_apart(self):
        from sitegen import drawing
        fig, ax = self.figure()
        ax.plot([0, 10], [5.2, 5.2], gid="a peer's line")
        place = drawing.Placer(fig)
        for n, y in enumerate((5.0, 5.1, 5.2, 5.3), start=7):
            ax.plot([5], [y], "o", ms=6)
            place.add(ax, (5, y), str(n), drawing.ring())
        self.assertEqual(place.place(), [])
        self.assertEqual(self.faults(fig), [])


def read_md(*dirs):
    """{file name: text} of the Markdown files in dirs."""
    out = {}
    for d in dirs:
        for path in sorted(glob.glob(os.path.join(d, "*.md"))):
            with open(path, encoding="utf-8") as f:
                out[os.path.basename(path)] = f.read()
    return out


def svg_width_px(path):
    from sitegen import figure_checks
    with open(path, encoding="utf-8") as f:
        return figure_checks.svg_width_px(f.read(4000))


def caption_lines(text, width_px):
    """About how many lines a caption takes in a column width_px wide (the table font's character
    widths of sitegen/checks.py: the caption is set in the same font)."""
    from sitegen.checks import word_px
    lines, used = 1, 0.0
    space = word_px(" ", False)
    for word in text.split():
        w = word_px(word, False)
        if used and used + space + w > width_px:
            lines, used = lines + 1, w
        else:
            used += (space if used else 0) + w
    return lines


class BuiltFigures(unittest.TestCase):
    """Every figure and caption the build writes from the committed records."""

    @classmethod
    def setUpClass(cls):
        if BUILT:  # the site as the test docs.build drew it, each figure checked as it was saved
            cls.gen = BUILT
            with open(os.path.join(BUILT, "figure_faults.json"), encoding="utf-8") as f:
                cls.faults = json.load(f)
            return
        from sitegen import cli, figure_checks
        cls.tmp = tempfile.TemporaryDirectory()
        cls.addClassCleanup(cls.tmp.cleanup)
        cls.gen = cls.tmp.name
        cls.faults = figure_checks.check_every_figure()
        args = argparse.Namespace(source=SOURCE, results=os.path.join(SOURCE, "docs", "results"), out=cls.gen,
                                  tuning=None, gnuplot=None)
        ctx = cli.Context(args)
        for module in cli.OUTPUTS:
            module.render(ctx)

    def test_every_figure_checked(self):
        svgs = sorted(os.path.basename(p) for p in glob.glob(os.path.join(self.gen, "*.svg")))
        self.assertTrue(svgs)
        self.assertEqual(svgs, sorted(self.faults), "a figure not drawn through drawing.save()")

    def test_layout(self):
        for name, faults in sorted(self.faults.items()):
            with self.subTest(figure=name):
                self.assertEqual(faults, [])

    def test_width(self):
        """No figure wider than the column it stands in at 1024 pixels: the text column, less a list
        item's indent or an answer fold's where a page shows it inside one (drawing.figure_places(),
        from the pages and the snippets they include)."""
        from sitegen import drawing
        places = drawing.figure_places(read_md(os.path.join(SOURCE, "docs"), os.path.join(self.gen, "docs")),
                                       read_md(self.gen))
        for path in sorted(glob.glob(os.path.join(self.gen, "*.svg"))):
            px = svg_width_px(path)
            name = os.path.basename(path)
            with self.subTest(figure=name):
                self.assertLessEqual(px, drawing.WIDTH_PX + 0.5,
                                     "wider than the text column at 1024 pixels: scaled down or cut there")
                for lists, folds, where in places.get(name, []):
                    self.assertLessEqual(px, drawing.width_px(lists, folds) + 0.5,
                                         f"{px:.0f} px wide, but {where} shows it in {lists} list item(s) and "
                                         f"{folds} answer fold(s), {drawing.width_px(lists, folds)} px wide at 1024 "
                                         "pixels: scaled down there")

    def test_text_size(self):
        """No text smaller than 10 px on the page (figure_checks.MIN_TEXT_PX): its font size times the width a
        page shows the figure at (its own, or the narrowest place that shows it, drawing.figure_places())
        over its viewBox's width."""
        from sitegen import drawing, figure_checks
        places = drawing.figure_places(read_md(os.path.join(SOURCE, "docs"), os.path.join(self.gen, "docs")),
                                       read_md(self.gen))
        for path in sorted(glob.glob(os.path.join(self.gen, "*.svg"))):
            with open(path, encoding="utf-8") as f:
                svg = f.read()
            name = os.path.basename(path)
            shown = min([figure_checks.svg_width_px(svg)] + [drawing.width_px(lists, folds)
                                                       for lists, folds, _ in places.get(name, [])])
            with self.subTest(figure=name):
                self.assertEqual(figure_checks.small_texts(svg, shown), [], f"shown {shown:.0f} px wide")

    def test_local_memory_roofs(self):
        """Where a step's lowest ceiling is local memory (the lesson's table: steps 2 to 4 on the GPUs),
        the step's roofline draws that roof: a line across the whole plot at the table's local-memory
        ceiling (ceilings.local_roof(): the bandwidth `peak --local-reads` measured on the device,
        lab/tuning/NAME-local-reads.csv, over the bytes per FLOP the step reads there, else the
        documented one), named with its value. A CPU gets none (ceilings.cpu_local_fact() says why)."""
        from sitegen import ceilings, cli, local_reads, params
        from sitegen.common import fmt_gflops
        args = argparse.Namespace(source=SOURCE, results=os.path.join(SOURCE, "docs", "results"), out=self.gen,
                                  tuning=None, gnuplot=None)
        ctx = cli.Context(args)
        files = local_reads.load(ctx.tuning_dir, cpu=True)
        checked = 0
        for s in ctx.steps:
            for c in ceilings.ceilings_for(s, ctx.results, ctx.ptxas, files):
                if c.lpf and not c.tensor and params.record_class(c.r) == "cpu":  # none, and the page says why
                    with open(os.path.join(self.gen, f"{s.page}_roofline.md"), encoding="utf-8") as f:
                        text = f.read()
                    with self.subTest(step=s.number, device=c.r.stem):
                        self.assertIn("No local-memory roof is drawn: "
                                      + ceilings.cpu_local_fact(c.r, files, ctx.steps, ctx.ptxas), text)
                        self.assertIsNone(ceilings.local_roof(c))
                if c.binding[0] != "local memory":
                    continue
                name = f"roofline_{c.r.stem}_{s.page}.svg"
                with open(os.path.join(self.gen, name), encoding="utf-8") as svg_file:
                    svg = svg_file.read()
                value, roof, _ = ceilings.local_roof(c)
                value = fmt_gflops(value)
                with self.subTest(figure=name):
                    self.assertTrue(f">{roof} {value}<" in svg, f"no {roof} at {value} GFLOPS")
                    line = re.search(rf'<g id="{re.escape(roof)}">\s*<path d="M ([\d.]+) ([\d.]+)\s+L ([\d.]+) '
                                     r'([\d.]+)', svg)
                    frame = re.search(r'<g id="patch_2">\s*<path d="M ([\d.]+) [\d.]+\s+L ([\d.]+)', svg)
                    self.assertTrue(line and frame, "no line of the roof, or no axes")
                    x0, y0, x1, y1 = map(float, line.groups())
                    self.assertAlmostEqual(y0, y1, places=3, msg="the roof is not level")
                    self.assertLessEqual(x0, float(frame.group(1)) + 0.5, "the roof does not start at the left")
                    self.assertGreaterEqual(x1, float(frame.group(2)) - 0.5, "the roof does not reach the right")
                checked += 1
        self.assertGreater(checked, 0, "no step binds on local memory on a recorded device")

    def test_roofs_agree_with_tables(self):
        """Every local-memory roof a roofline draws is the ceiling its lesson's table gives, and every
        such ceiling below the compute ceiling is drawn (roof_checks.roof_faults()); the check fails on
        the old form, the table of step 2 giving the H100 the documented figure (the architecture's
        bytes per clock: 8287 GFLOPS) where the roofline drew the measured one (8180)."""
        import shutil
        from sitegen import ceilings, cli, local_reads, roof_checks
        from sitegen.common import fmt_gflops
        self.assertEqual(roof_checks.roof_faults(self.gen), [])
        args = argparse.Namespace(source=SOURCE, results=os.path.join(SOURCE, "docs", "results"), out=self.gen,
                                  tuning=None, gnuplot=None)
        ctx = cli.Context(args)
        step = next(s for s in ctx.steps if s.number == 2)
        c = next(c for c in ceilings.ceilings_for(step, ctx.results, ctx.ptxas, local_reads.load(ctx.tuning_dir))
                 if c.local and c.arch)
        documented = c.onchip(c.lpf)
        with tempfile.TemporaryDirectory() as d:
            shutil.copy(os.path.join(self.gen, f"roofline_{c.r.stem}_{step.page}.svg"), d)
            with open(os.path.join(self.gen, f"{step.page}_ceiling.md"), encoding="utf-8") as f:
                table = f.read()
            self.assertIn(f"| {c.local_cell()} |", table)
            with open(os.path.join(d, f"{step.page}_ceiling.md"), "w", encoding="utf-8") as f:
                f.write(table.replace(f"| {c.local_cell()} |", f"| {fmt_gflops(documented)} ({c.pct(documented)}) |"))
            faults = roof_checks.roof_faults(d)
        self.assertTrue(any(f"draws a local-memory roof at {fmt_gflops(c.bounds['local memory'])} GFLOPS, the table "
                            f"gives {fmt_gflops(documented)}" in x for x in faults), faults)
        print(f"\nthe old form of step 2's table fails: {faults[0]}")

    def test_every_figure_shown(self):
        """Every figure drawn is shown by a page (so that test_width knows where it stands)."""
        from sitegen import drawing
        places = drawing.figure_places(read_md(os.path.join(SOURCE, "docs"), os.path.join(self.gen, "docs")),
                                       read_md(self.gen))
        for path in sorted(glob.glob(os.path.join(self.gen, "*.svg"))):
            with self.subTest(figure=os.path.basename(path)):
                self.assertIn(os.path.basename(path), places)

    def test_captions(self):
        from sitegen import drawing
        for path in sorted(glob.glob(os.path.join(self.gen, "*.md"))):
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for m in re.finditer(r'\\image html (\S+) "([^"]*)"', text):
                with self.subTest(figure=m.group(1)):
                    self.assertLessEqual(caption_lines(m.group(2), drawing.WIDTH_PX), 3, m.group(2))


if __name__ == "__main__":
    SOURCE = os.path.abspath(sys.argv[1])
    if len(sys.argv) > 3 and sys.argv[2] == "--built":
        BUILT = os.path.abspath(sys.argv[3])
        del sys.argv[2:4]
    main_with_matplotlib("figures")
