"""What every figure of the site shares (plots.py, figures.py, diagrams.py): matplotlib set up for
SVG, the saving, the placing of labels where nothing else is drawn, and what a drawn figure holds
(Scene: its texts, lines, markers, shapes and legends in display coordinates), which the checks of
a drawn figure read (figure_checks.py).

Thin lines of a grid (a LineCollection thinner than THIN points, an axes' grid) are the paper the
figure is drawn on: a text may cross them."""
import os
import re

import numpy

# The text column in a 1024-pixel window (Chromium): the 989 px of sitegen/checks.py at 1280, less
# the 256 px fewer of the window; an SVG's width in px is its width in pt x 4/3
WIDTH_PX = 733
MAX_WIDTH_IN = WIDTH_PX * 0.75 / 72
# A figure inside a list item, or inside an exercise's answer fold, has less: the browser indents a
# list item by 40 px (the default padding of <ul> and <ol>), and docs/extra.css's details.solution
# takes 3 px of border and 2 x 12 px of padding (measured in Chromium at 1024 and 1280 pixels: a figure
# of WIDTH_PX was drawn 708 px wide in a list item, 721 px in a fold)
LIST_INDENT_PX = 40
FOLD_INDENT_PX = 27


def width_px(lists=0, folds=0):
    """The widest a figure may be, in px, inside `lists` nested list items and `folds` answer folds."""
    return WIDTH_PX - LIST_INDENT_PX * lists - FOLD_INDENT_PX * folds


def width_in(lists=0, folds=0):
    """width_px() in inches, for matplotlib's figsize."""
    return width_px(lists, folds) * 0.75 / 72


IMAGE = re.compile(r"\\image html (\S+)")
INCLUDE = re.compile(r"\\includedoc (\S+)")
LIST_ITEM = re.compile(r"^( *)(?:[-*+]|\d+\.) ")


def markdown_places(text):
    """[(line, lists, folds)] of a Markdown page or snippet: for each line, how many list items and
    answer folds (<details> ... </details>) it stands in."""
    out, lists, folds = [], [], 0
    for line in text.split("\n"):
        if line.strip():
            indent = len(line) - len(line.lstrip(" "))
            while lists and indent <= lists[-1] and not (LIST_ITEM.match(line) and indent > lists[-1]):
                lists.pop()
            m = LIST_ITEM.match(line)
            if m:
                lists.append(len(m.group(1)))
        folds -= line.count("</details>")
        out.append((line, len(lists), folds))
        folds += line.count("<details")
    return out


def figure_places(pages, snippets):
    """{figure file name: [(lists, folds, where)]}: every place a page shows a figure, directly or
    through a snippet it \\includedoc's (pages, snippets: {name: Markdown text})."""
    out = {}

    def walk(name, text, lists0, folds0, seen):
        for line, lists, folds in markdown_places(text):
            for m in IMAGE.finditer(line):
                out.setdefault(m.group(1), []).append((lists0 + lists, folds0 + folds, name))
            for m in INCLUDE.finditer(line):
                inner = m.group(1)
                if inner in snippets and inner not in seen:
                    walk(f"{name} > {inner}", snippets[inner], lists0 + lists, folds0 + folds, seen | {inner})
    for name, text in pages.items():
        walk(name, text, 0, 0, frozenset())
    return out
SPIKE_DX = 0.01
THIN = 0.6
SLACK = 1.0  # px: boxes that meet by less than this each way do not overlap
# Two texts side by side must stand further apart than this part of their size (an em): a space
# between two words of DejaVu Sans is 0.32 em, so closer than 0.4 em two labels read as one
RUN_TOGETHER = 0.4

_HOOKS = []


def pyplot():
    import matplotlib
    matplotlib.use("svg")
    matplotlib.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "sgemm-tutorial", "font.size": 9,
                                "font.family": "DejaVu Sans", "hatch.linewidth": 0.6})
    import matplotlib.pyplot as plt
    return plt


def on_save(hook):
    """Calls hook(fig, path) on every figure before it is saved (the tests' checks); returns a function
    that removes it."""
    _HOOKS.append(hook)
    return lambda: _HOOKS.remove(hook)


# Where set (docs/test_reader_path.sh sets it), the rooflines and the comparisons of a step with the
# one before, the slowest figures to draw, are written as empty stubs: that test follows the pages
# from a reader's sweep to the built site, and docs.build, in the same suite, draws and checks every
# figure from the same code
STUBS = "GEMM_DOCS_FIGURE_STUBS"


def stub(path):
    """Writes an empty figure to path and returns True where STUBS is set; False elsewhere."""
    if not os.environ.get(STUBS):
        return False
    with open(path, "w", encoding="utf-8") as f:
        f.write('<svg xmlns="http://www.w3.org/2000/svg" width="16pt" height="16pt" viewBox="0 0 16 16"/>\n')
    return True


def save(fig, path):
    for hook in list(_HOOKS):
        hook(fig, path)
    fig.savefig(path, format="svg", metadata={"Date": None})
    pyplot().close(fig)


def renderer(fig):
    """Draws fig with Agg (the layout as saved: the same fonts and sizes) and returns the renderer."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    # the canvas of the draw before, where there was one: its renderer, kept while the figure's size
    # is the same, keeps what it has laid out (a new one would parse every log-scale label again)
    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    canvas.draw()
    return canvas.get_renderer()


# ---------------------------------------------------------------------------------------------
# What a drawn figure holds, in display coordinates (pixels, y upwards)

def _box(b):
    return numpy.array([b.x0, b.y0, b.x1, b.y1], dtype=float)


def _meet(a, b, slack=SLACK):
    """Two boxes overlap by more than `slack` each way."""
    return min(a[2], b[2]) - max(a[0], b[0]) > slack and min(a[3], b[3]) - max(a[1], b[1]) > slack


def _inside(a, b, slack=SLACK):
    """Box a lies within box b (give or take `slack`)."""
    return a[0] >= b[0] - slack and a[1] >= b[1] - slack and a[2] <= b[2] + slack and a[3] <= b[3] + slack


def _liang_barsky(segs, box):
    """For segments (N, 2, 2) and a box: which meet it, and the parameters t0 <= t1 along each of
    where it enters and leaves (Liang-Barsky)."""
    p0, d = segs[:, 0, :], segs[:, 1, :] - segs[:, 0, :]
    t0, t1 = numpy.zeros(len(segs)), numpy.ones(len(segs))
    meets = numpy.ones(len(segs), bool)
    for axis, lo, hi in ((0, box[0], box[2]), (1, box[1], box[3])):
        for p, q in ((-d[:, axis], p0[:, axis] - lo), (d[:, axis], hi - p0[:, axis])):
            with numpy.errstate(divide="ignore", invalid="ignore"):
                r = q / p
            parallel = p == 0
            meets &= ~(parallel & (q < 0))
            t0 = numpy.where((p < 0) & ~parallel, numpy.maximum(t0, r), t0)
            t1 = numpy.where((p > 0) & ~parallel, numpy.minimum(t1, r), t1)
    return meets & (t0 <= t1), t0, t1


def _clip_segments(segs, box):
    """The parts of segments (N, 2, 2) inside box; segments wholly outside dropped."""
    if not len(segs):
        return segs
    meets, t0, t1 = _liang_barsky(segs, box)
    p0, d = segs[:, 0, :], segs[:, 1, :] - segs[:, 0, :]
    return numpy.stack([p0 + t0[:, None] * d, p0 + t1[:, None] * d], axis=1)[meets]


def _segments_hit(segs, box, slack=SLACK):
    """Which of the segments (N, 2, 2) cross box shrunk by `slack`."""
    inner = box + numpy.array([slack, slack, -slack, -slack])
    if not len(segs) or inner[0] >= inner[2] or inner[1] >= inner[3]:
        return numpy.zeros(len(segs), bool)
    return _liang_barsky(segs, inner)[0]


def _run_together(a, abox, b, bbox, dpi):
    """Two level texts side by side on one line, closer than RUN_TOGETHER of the smaller one's size:
    no further apart than the words inside a label, they read as one ("CPU BLAS CLBlast", "78")."""
    if a.get_rotation() % 180 > 0.01 or b.get_rotation() % 180 > 0.01:
        return False
    overlap = min(abox[3], bbox[3]) - max(abox[1], bbox[1])
    if overlap < 0.5 * min(abox[3] - abox[1], bbox[3] - bbox[1]):
        return False
    gap = max(abox[0], bbox[0]) - min(abox[2], bbox[2])
    return -SLACK <= gap < RUN_TOGETHER * min(a.get_fontsize(), b.get_fontsize()) * dpi / 72


def _finite_segments(xy):
    """Consecutive points of a polyline (M, 2) as segments (M-1, 2, 2), none through a NaN."""
    if len(xy) < 2:
        return numpy.zeros((0, 2, 2))
    segs = numpy.stack([xy[:-1], xy[1:]], axis=1)
    return segs[numpy.isfinite(segs).all(axis=(1, 2))]


def _visible_colour(c, lw=1.0):
    return c is not None and len(c) == 4 and c[3] > 0 and lw > 0


class Scene:
    """Every text, line, marker, shape and legend of a drawn figure, in display coordinates."""

    def __init__(self, fig):
        from matplotlib.collections import LineCollection
        from matplotlib.patches import Rectangle
        from matplotlib.text import Text
        self.fig = fig
        self.texts = []  # (Text, box)
        drawn = []
        original = Text.draw

        def draw(text, r):
            original(text, r)
            drawn.append(text)
        Text.draw = draw
        try:
            self.renderer = renderer(fig)
        finally:
            Text.draw = original
        r = self.renderer
        seen = set()
        for t in drawn:
            if id(t) in seen or not t.get_visible() or not t.get_text().strip():
                continue
            seen.add(id(t))
            self.texts.append((t, _box(t.get_window_extent(r))))
        self.figure_box = numpy.array([0, 0, fig.bbox.width, fig.bbox.height], dtype=float)
        segs, owners = [], []
        self.markers, self.marker_owners = [], []
        self.shapes = []  # (patch, box)
        self.legends = []  # (legend, box, axes or None)
        self.lines = []  # the Line2D of the data, in draw order

        def add_segments(s, owner, clip):
            if clip is not None:
                s = _clip_segments(s, clip)
            for x in s:
                segs.append(x)
                owners.append(owner)

        scale = fig.dpi / 72.0
        for ax in fig.axes:
            if not ax.get_visible():
                continue
            abox = _box(ax.bbox)
            for line in ax.lines:
                if not line.get_visible():
                    continue
                self.lines.append(line)
                xy = line.get_transform().transform(numpy.asarray(line.get_xydata(), float))
                clip = _box(line.get_clip_box()) if line.get_clip_on() and line.get_clip_box() is not None else None
                if line.get_linestyle() not in ("None", " ", "", "none") and line.get_linewidth() > 0:
                    add_segments(_finite_segments(xy), line, clip)
                if line.get_marker() not in (None, "None", " ", "", "none") and line.get_markersize() > 0:
                    half = (line.get_markersize() + line.get_markeredgewidth()) * scale / 2
                    for x, y in xy:
                        if not (numpy.isfinite(x) and numpy.isfinite(y)):
                            continue
                        if clip is not None and not (clip[0] <= x <= clip[2] and clip[1] <= y <= clip[3]):
                            continue
                        self.markers.append(numpy.array([x - half, y - half, x + half, y + half]))
                        self.marker_owners.append(line)
            for coll in ax.collections:
                if isinstance(coll, LineCollection) and coll.get_visible():
                    widths = coll.get_linewidths()
                    if len(widths) and max(widths) >= THIN:
                        tr = coll.get_transform()
                        for seg in coll.get_segments():
                            add_segments(_finite_segments(tr.transform(numpy.asarray(seg, float))), coll,
                                         abox if coll.get_clip_on() else None)
            if ax.axison:
                for name, spine in ax.spines.items():
                    if spine.get_visible():
                        xy = spine.get_transform().transform(spine.get_path().vertices)
                        add_segments(_finite_segments(xy), spine, None)
            for p in ax.patches:
                if not p.get_visible() or not isinstance(p, Rectangle):
                    continue
                fill = _visible_colour(p.get_facecolor()) if p.get_fill() else False
                edge = _visible_colour(p.get_edgecolor(), p.get_linewidth())
                if not (fill or edge):
                    continue
                box = _box(p.get_window_extent(r))
                if p.get_clip_on() and p.get_clip_box() is not None:
                    c = _box(p.get_clip_box())
                    box = numpy.array([max(box[0], c[0]), max(box[1], c[1]), min(box[2], c[2]), min(box[3], c[3])])
                    if box[0] >= box[2] or box[1] >= box[3]:
                        continue
                self.shapes.append((p, box))
            legend = ax.get_legend()
            if legend is not None and legend.get_visible():
                self.legends.append((legend, _box(legend.get_window_extent(r)), ax))
        for legend in fig.legends:
            if legend.get_visible():
                self.legends.append((legend, _box(legend.get_window_extent(r)), None))
        self.segments = numpy.array(segs).reshape(-1, 2, 2)
        self.segment_owners = owners
        self.markers = numpy.array(self.markers).reshape(-1, 4)

    def legend_of(self, text):
        for legend, _, _ in self.legends:
            if text in legend.get_texts() or text is legend.get_title():
                return legend
        return None

    def conflicts(self, text, box, ignore=()):
        """What the text `text` drawn in `box` runs into (a list of words), leaving out the artists
        in `ignore` (its own leader line, and itself)."""
        out = []
        ignore = set(map(id, ignore))
        for other, obox in self.texts:
            if other is text or id(other) in ignore:
                continue
            if _meet(box, obox):
                out.append(f"overlaps the text {other.get_text()!r}")
            elif _run_together(text, box, other, obox, self.fig.dpi):
                out.append(f"runs into the text {other.get_text()!r} (closer than a space between two words)")
        own_legend = self.legend_of(text)
        for legend, lbox, _ in self.legends:
            if legend is not own_legend and id(legend) not in ignore and _meet(box, lbox):
                out.append("overlaps a legend")
        if len(self.segments):
            names = set()
            for i in numpy.nonzero(_segments_hit(self.segments, box))[0]:
                owner = self.segment_owners[i]
                if id(owner) in ignore or getattr(owner, "_leader_of", None) is text:
                    continue
                names.add(describe(owner))
            out += [f"crosses {n}" for n in sorted(names)]
        if len(self.markers):
            names = set()
            for i in numpy.nonzero(_meet_many(box, self.markers))[0]:
                owner = self.marker_owners[i]
                if id(owner) not in ignore:
                    names.add(describe(owner))
            out += [f"covers a marker of {n}" for n in sorted(names)]
        if self.shapes:
            boxes = self.shape_boxes()
            crossed = _meet_many(box, boxes) & ~_inside_of_many(box, boxes)
            crossed = [i for i in numpy.nonzero(crossed)[0] if id(self.shapes[i][0]) not in ignore]
            if crossed:
                out.append(f"crosses the edge of {len(crossed)} shape{'s' if len(crossed) > 1 else ''}")
        if not _inside(box, self.figure_box, slack=0.5):
            out.append("runs off the figure")
        return out

    def shape_boxes(self):
        if getattr(self, "_shape_boxes", None) is None or len(self._shape_boxes) != len(self.shapes):
            self._shape_boxes = numpy.array([b for _, b in self.shapes]).reshape(-1, 4)
        return self._shape_boxes


def _meet_many(box, boxes, slack=SLACK):
    """Which of boxes (N, 4) overlap box by more than `slack` each way."""
    return ((numpy.minimum(box[2], boxes[:, 2]) - numpy.maximum(box[0], boxes[:, 0]) > slack) &
            (numpy.minimum(box[3], boxes[:, 3]) - numpy.maximum(box[1], boxes[:, 1]) > slack))


def _inside_of_many(box, boxes, slack=SLACK):
    """Whether box lies within each of boxes (N, 4)."""
    return ((box[0] >= boxes[:, 0] - slack) & (box[1] >= boxes[:, 1] - slack) & (box[2] <= boxes[:, 2] + slack) &
            (box[3] <= boxes[:, 3] + slack))


def describe(artist):
    """A name for a line in a fault: its gid or label, else its kind."""
    label = artist.get_label() if hasattr(artist, "get_label") else ""
    kind = type(artist).__name__
    if artist.get_gid():
        return artist.get_gid()
    if kind == "Spine":
        return "an axes' frame"
    if getattr(artist, "_leader_of", None) is not None:
        return f"the leader line of {artist._leader_of.get_text()!r}"
    if label and not label.startswith("_"):
        return f"the line {label!r}"
    return f"a {kind}"


# ---------------------------------------------------------------------------------------------
# Placing labels where nothing else is drawn

def ring(start=5.0, step=7.0, rings=8, directions=16):
    """Candidate offsets (points) around a point, nearest first, and at each distance right, left,
    above and below before the diagonals: (dx, dy, ha, va)."""
    import math
    out = []
    for k in range(rings):
        radius = start + k * step
        # the angles in the order tried: 0, 180, 90, 270, then halfway between those tried, ...
        angles = [0, 180, 90, 270]
        step_deg = 90.0
        while len(angles) < directions:
            step_deg /= 2
            angles += [a + step_deg for a in angles]
        for deg in angles[:directions]:
            a = math.radians(deg)
            dx, dy = radius * math.cos(a), radius * math.sin(a)
            ha = "left" if dx > 0.3 * radius else "right" if dx < -0.3 * radius else "center"
            va = "bottom" if dy > 0.3 * radius else "top" if dy < -0.3 * radius else "center"
            out.append((dx, dy, ha, va))
    return out


class Placer:
    """Labels placed once the figure's layout is final: each at the first of its candidate places
    where it meets no other text, line, marker, legend or shape edge and stays inside its axes (a
    thin leader line back to its point when it is far from it). Candidates in points from the
    point: (dx, dy, ha, va), with optionally a fifth item, another wording to try there (None: the
    label's), and a sixth, another point to place it from (data coordinates: a label along a line)."""

    def __init__(self, fig):
        self.fig = fig
        self.pending = []

    def add(self, ax, xy, text, candidates, leader_from=10.0, leader_colour="#888888", inside_axes=True,
            optional=False, **kw):
        """A label to place (`optional`: left out where no candidate fits)."""
        self.pending.append((ax, xy, text, candidates, leader_from, leader_colour, inside_axes, optional, kw))

    def place(self):
        """Places every pending label; returns the labels no candidate fitted (each placed where it
        met the fewest things: the tests report it)."""
        if not self.pending:
            return []
        scene = Scene(self.fig)
        r = scene.renderer
        misfits = []
        for ax, xy, text, candidates, leader_from, leader_colour, inside_axes, optional, kw in self.pending:
            abox = _box(ax.bbox)
            best = None
            for cand in candidates:
                dx, dy, ha, va = cand[:4]
                words = cand[4] if len(cand) > 4 and cand[4] is not None else text
                at = cand[5] if len(cand) > 5 else xy
                point = ax.transData.transform(at)
                t = ax.annotate(words, at, xytext=(dx, dy), textcoords="offset points", ha=ha, va=va,
                                annotation_clip=False, **kw)
                box = _box(t.get_window_extent(r))
                problems = scene.conflicts(t, box)
                if inside_axes and not _inside(box, abox, slack=-1.0):
                    problems.append("outside its axes")
                leader = None
                far = (dx * dx + dy * dy) ** 0.5 > leader_from
                if far:
                    end = numpy.array([min(max(point[0], box[0]), box[2]), min(max(point[1], box[1]), box[3])])
                    seg = numpy.array([[point, end]])
                    for other, obox in scene.texts:
                        if _segments_hit(seg, obox).any():
                            problems.append("its leader crosses a text")
                    leader = end
                if not problems:
                    if best is not None:
                        best[0].remove()
                    best = (t, box, leader, [], point)
                    break
                if best is None or len(problems) < len(best[3]):
                    if best is not None:
                        best[0].remove()
                    best = (t, box, leader, problems, point)
                else:
                    t.remove()
            t, box, leader, problems, point = best
            if problems and optional:
                t.remove()
                continue
            if problems:
                misfits.append(f"{text!r}: {', '.join(problems)}")
            scene.texts.append((t, box))
            if leader is not None:
                inv = ax.transData.inverted()
                (x0, y0), (x1, y1) = inv.transform(point), inv.transform(leader)
                (line,) = ax.plot([x0, x1], [y0, y1], color=leader_colour, lw=0.6, zorder=t.get_zorder() - 0.5)
                line._leader_of = t
                seg = numpy.array([[point, leader]])
                scene.segments = numpy.concatenate([scene.segments, seg])
                scene.segment_owners.append(line)
        self.pending = []
        return misfits


def size_ticks(sizes):
    """The sizes to label on a log axis: powers of two and the largest, none closer than 1.3x to the
    one before (4095, 4096 and 4097 would print on top of each other); thin_ticks() drops those that
    still meet once drawn."""
    out = []
    for x in sorted(sizes):
        if (x & (x - 1) == 0 or x == max(sizes)) and (not out or x >= out[-1] * 1.3):
            out.append(x)
    return out or sorted(sizes)[:1]


def _closeness(sizes, log, near):
    """The sizes sorted, and whether two of them stand closer than `near` of the axis spanning them."""
    sizes = sorted(set(sizes))
    pos = numpy.log2 if log else float
    span = pos(sizes[-1]) - pos(sizes[0]) if len(sizes) > 1 else 0
    return sizes, lambda x, y: abs(pos(x) - pos(y)) < near * span


def odd_sizes(sizes, log=True, near=SPIKE_DX):
    """The sizes that stand beside a rounder one (divisible by a higher power of two) closer than `near`
    of the axis that spans them (log or linear): 4095 and 4097 beside 4096 among 256 to 8192. A line
    through them goes straight up and down (spikes()): draw them apart. Sorted."""
    sizes, close = _closeness(sizes, log, near)
    return [x for x in sizes if any(y != x and close(x, y) and (y & -y) > (x & -x) for y in sizes)]


def odd_clusters(sizes, log=True, near=SPIKE_DX):
    """odd_sizes() with the rounder sizes they stand beside, in groups: [[4095, 4096, 4097]]."""
    odd = odd_sizes(sizes, log, near)
    sizes, close = _closeness(sizes, log, near)
    groups = []
    for x in sizes:
        if x in odd or any(y in odd and close(x, y) for y in sizes):
            if groups and close(x, groups[-1][-1]):
                groups[-1].append(x)
            else:
                groups.append([x])
    return groups


def place_legend(ax, locations=("upper left", "lower right", "upper right", "lower left", "center right",
                                "center left", "lower center", "upper center"), **kw):
    """The axes' legend at the first of `locations` where it covers no line, marker or text (else at
    the first: the tests report it)."""
    for loc in locations:
        legend = ax.legend(loc=loc, frameon=False, **kw)
        scene = Scene(ax.figure)
        box = _box(legend.get_window_extent(scene.renderer))
        mine = set(legend.get_texts())
        clear = not any(_meet(box, b) for t, b in scene.texts if t not in mine)
        if clear and len(scene.segments):
            owners = [o for o, hit in zip(scene.segment_owners, _segments_hit(scene.segments, box)) if hit]
            clear = not any(getattr(o, "axes", None) is ax and type(o).__name__ != "Spine" for o in owners)
        if clear:
            clear = not any(o.axes is ax and _meet(box, m) for o, m in zip(scene.marker_owners, scene.markers))
        if clear:
            return legend
    return ax.legend(loc=locations[0], frameon=False, **kw)


def thin_ticks(fig, gap=3.0):
    """Drops the x tick labels that meet the one before them once drawn (keeping the last)."""
    r = renderer(fig)
    for ax in fig.axes:
        ticks = list(ax.get_xticks())
        labels = ax.get_xticklabels()
        lo, hi = sorted(ax.get_xlim())
        shown = [(x, l) for x, l in zip(ticks, labels) if lo <= x <= hi and l.get_text()]
        if len(shown) < 2:
            continue
        boxes = [_box(l.get_window_extent(r)) for _, l in shown]
        keep = [0]
        for i in range(1, len(shown)):
            if boxes[i][0] > boxes[keep[-1]][2] + gap:
                keep.append(i)
            elif i == len(shown) - 1:
                keep[-1] = i  # the largest stays: it closes the axis
                while len(keep) > 1 and boxes[keep[-1]][0] <= boxes[keep[-2]][2] + gap:
                    del keep[-2]
        if len(keep) < len(shown):
            ax.set_xticks([shown[i][0] for i in keep])
            ax.set_xticklabels([shown[i][1].get_text() for i in keep], fontsize=shown[0][1].get_fontsize())
