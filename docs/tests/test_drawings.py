"""docs.drawings: the diagrams as drawn (docs/sitegen/diagram_drawing.py, with matplotlib), for every
class's defaults of every step and every set a page names:
  - no two labels overlap, none runs across a shape's edge or a line or off the figure, none is
    longer than three lines (the numbers are in the page's text), and the figure fits the text
    column at 1024 pixels (docs/sitegen/figure_checks.py: layout_faults, as for every figure);
  - each highlighted work-item's colour shows in the tiles' panel (its reads are not hidden under
    another work-item's).
The geometry they draw is checked against the plans and the kernels by docs.geometry
(test_geometry.py); this test is apart so that it runs with the Python that has matplotlib, and
is skipped with the reason (exit 77) where none has it: the site then draws no diagrams either.
Usage: test_drawings.py SOURCE_DIR"""
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
from fixture import load_steps, main_with_matplotlib  # noqa: E402
from sitegen import diagram_drawing, diagrams, stepdefs  # noqa: E402

SOURCE = None


def drawn(d, P, size, device=None, width=None):
    """The figure diagram_drawing.draw() makes (drawn into a scratch file), kept open for a look."""
    import matplotlib.pyplot as plt
    figs, close = [], plt.close
    plt.close = lambda fig=None: figs.append(fig) if hasattr(fig, "texts") else close(fig)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            diagram_drawing.draw(d, P, size, os.path.join(tmp, "d.svg"), "Step: a title", device, width)
    finally:
        plt.close = close
    return figs[0]


def close(fig):
    import matplotlib.pyplot as plt
    plt.close(fig)


def layout_faults(fig):
    """What is wrong with a drawn diagram's layout (docs/sitegen/figure_checks.py, the checks of every figure:
    two texts that overlap, a text across a shape's edge or a line, off the figure, longer than three
    lines, a figure wider than the text column at 1024 pixels)."""
    from sitegen import figure_checks
    return figure_checks.layout_faults(fig)


def hidden_items(fig):
    """The highlighted work-items whose colour shows nowhere in the tiles' panel (fig.axes[1]), drawn
    finely enough for a stripe of a float (400 dpi); their reads would be hidden under another's."""
    import matplotlib.colors
    import numpy
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    fig.set_dpi(400)
    FigureCanvasAgg(fig).draw()
    box = fig.axes[1].get_window_extent()
    pixels = numpy.asarray(fig.canvas.buffer_rgba())[::-1][int(box.y0):int(box.y1), int(box.x0):int(box.x1), :3]
    # a pixel shows a colour where each of its channels is within 3 of the colour's (0-255): looked up
    # per channel in a table of the 256 values a channel can take (the same comparison, made 256
    # times instead of once per pixel of a panel of millions)
    channels = [numpy.ascontiguousarray(pixels[..., i]) for i in range(3)]
    hidden = []
    for _, color, label in diagram_drawing.ITEMS:
        rgb = numpy.array(matplotlib.colors.to_rgb(color)) * 255
        near = numpy.ones(channels[0].shape, bool)
        for channel, value in zip(channels, rgb):
            near &= (abs(numpy.arange(256) - value) < 3)[channel]
        if not near.any():
            hidden.append(label)
    return hidden


class Drawings(unittest.TestCase):
    """The diagrams as drawn: their labels legible, the highlighted work-items' reads all visible.
    Each diagram is drawn once, for both (setUpClass)."""

    @classmethod
    def setUpClass(cls):
        cls.steps, cls.defaults = load_steps(SOURCE)
        # (step, P, size, layout faults, hidden work-items or None where the step has no tiles)
        cls.drawn = []
        for s, P, size, device, width in cls.cases():
            d = stepdefs.get(s.name)
            fig = drawn(d, P, size, device, width)
            faults = layout_faults(fig)
            # a work-item that reads nothing at the k drawn has nothing to show: step 11's lanes read
            # rows q and q+4 of each 8 (q = lane % 4), so at one k only some of them read
            g = d.geometry(P, size, device)
            kk = min(1, (g.k_tile or 1) - 1)  # the k-slice the diagram draws (diagram_drawing.View.kk)
            idle = {label for (lx, ly), _, label in diagram_drawing.ITEMS if not any(g.reads(lx, ly, kk).values())}
            hidden = ([x for x in hidden_items(fig) if x not in idle]
                      if d.tiles(d.resolve(P, size, device)) else None)
            close(fig)
            cls.drawn.append((s, P, size, faults, hidden))

    @classmethod
    def cases(cls):
        """(step, P, size, device, width): every class's defaults (step 9 and 10 split on a device of
        132 compute units), and every set a page of docs/ names, at the width it is drawn (None: the
        text column's)."""
        device = stepdefs.Device(132, 20 * 2**30, "a device")
        out = []
        for s in cls.steps:
            d = stepdefs.get(s.name)
            for c in ("cpu", "nvidia-gpu", "gpu"):
                P = cls.defaults[s.name][c]
                size = diagrams.split_example(d, P, device) if d.chosen else diagrams.example_size(d, P)
                out.append((s, P, size, device if d.chosen else None, None))
        by_number = {s.number: s for s in cls.steps}
        for number, values, size, width in diagrams.requested(os.path.join(SOURCE, "docs")).values():
            s = by_number[number]
            d = stepdefs.get(s.name)
            P = dict(cls.defaults[s.name]["gpu"], **values)
            out.append((s, P, size or diagrams.example_size(d, P), None, width))
        return out

    def test_labels_do_not_overlap(self):
        for s, P, size, faults, _ in self.drawn:
            with self.subTest(step=s.name, P=P, size=size):
                self.assertEqual(faults, [])

    def test_every_highlighted_work_item_shows_in_the_tiles(self):
        for s, P, size, _, hidden in self.drawn:
            if hidden is None:
                continue
            with self.subTest(step=s.name, P=P, size=size):
                self.assertEqual(hidden, [], "their reads are hidden in the tiles")


if __name__ == "__main__":
    SOURCE = sys.argv[1]
    main_with_matplotlib("diagrams")
