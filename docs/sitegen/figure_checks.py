"""The checks of a drawn figure that the tests run on every figure the build draws
(docs/tests/test_figures.py, docs/tests/test_drawings.py; the figures of plots.py, figures.py and
diagrams.py, read through drawing.py's Scene); it renders no file:

  layout_faults(fig): what makes a figure hard to read at a glance:
    - a text over another text (tick labels, titles and legend entries included), or beside another
      on the same line closer than a space between two words (the two read as one);
    - a text across a line or over a marker of the data (a Line2D: curves, the roofline, the peers'
      dashed lines, leader lines), across an axes' frame, or across the edge of a shape (a
      rectangle: a bar, a matrix, a work-item's cell; a text may lie inside a shape, as on a
      background, but not over its edge or over a smaller shape);
    - a legend over a line or a marker of its axes;
    - a text off the figure (a title cut off);
    - a text rotated other than by a right angle (its box would not be its shape) or of more than
      MAX_LINES lines (a caption that long belongs in the page's text);
    - a text that lines up its parts with runs of spaces ("a0  a1  a2" over a key's swatches): the
      browser's font is not matplotlib's, and the parts drift from what they name;
    - a text that ends in a separator (';', ',' or ':'): a clause left dangling, something the
      text generation meant to add and did not;
    - a figure wider than WIDTH_PX: the text column of a 1024-pixel window beside the navigation
      tree, so that no figure is scaled down or cut at 1024 or 1280 pixels;
    - a line of data (three points or more) that spikes: a segment less than SPIKE_DX of its axes'
      width across that rises or falls SPIKE_DY px or more (sizes 4095, 4096 and 4097 on a log axis,
      drawn as one line, go straight up and down);
    - a ratio axis (its label a quotient, 'step 11 / step 10', or names a ratio: RATIO_AXIS) that
      runs below zero: no ratio is negative, so the reader would look for bars or points that cannot
      be there (a linear ratio axis starts at 0 or above; a log one cannot go below).
  small_texts(svg, display_px): the texts of a saved SVG smaller than MIN_TEXT_PX on the page: its
    font size in the SVG's units, times the width the page shows it at over its viewBox's width (a
    mathtext superscript, '10' with a smaller '3', included).
  hidden_series(fig): the legend entries (lines with a label) that cannot be seen: at least VISIBLE
    of the pixels a line colours when it is drawn alone must look the same with every line drawn; and
    the lines of data (those and the unlabelled ones with markers beside them) hidden at HIDDEN_POINTS
    of their points or more: around a point (its marker), less than VISIBLE of what the line draws
    there shows, under the line drawn after it that covers the most of it (named in the fault).

SPIKE_DX, THIN (the thin lines of a grid, which a text may cross) and SLACK are drawing.py's."""
import html
import os
import re

import numpy

from .drawing import SPIKE_DX, WIDTH_PX, Scene, _meet, _segments_hit, describe, on_save, renderer

MAX_LINES = 3
SPIKE_DY = 3.0
# The smallest text a figure may show, in px on the page (matplotlib's 7.5 pt in a figure shown at
# its own width)
MIN_TEXT_PX = 10.0
# An axis of ratios: its label a quotient of two names ('step 11 / step 10'; not 'GB/s') or that
# names a ratio, a speed-up or a factor ('x')
RATIO_AXIS = re.compile(r"\S / \S|\bratio\b|\bspeed-?up\b|\(x\)", re.I)
VISIBLE = 0.3
# A line of data hidden at this share of its points or more is reported (hidden_series); around a
# point without a marker, POINT_PX each way is what it draws there
HIDDEN_POINTS = 0.25
POINT_PX = 3.0


def check_every_figure():
    """Checks every figure saved from now on as docs.figures does (layout_faults and hidden_series,
    before it is saved, which leaves the file unchanged): returns the dict it fills, {file name:
    faults}, the first figure saved under each name."""
    found = {}
    on_save(lambda fig, path: found.setdefault(os.path.basename(path), layout_faults(fig) + hidden_series(fig)))
    return found


def spikes(scene):
    """The lines of data of a drawn figure that spike (module docstring), one fault each."""
    out = []
    for line in scene.lines:
        if line.axes is None or getattr(line, "_leader_of", None) is not None or len(line.get_xydata()) < 3 \
                or line.get_linestyle() in ("None", " ", "", "none") or line.get_linewidth() <= 0:
            continue
        data = numpy.asarray(line.get_xydata(), float)
        xy = line.get_transform().transform(data)
        width = line.axes.bbox.width
        found = []
        for i in range(len(xy) - 1):
            dx, dy = abs(xy[i + 1][0] - xy[i][0]), abs(xy[i + 1][1] - xy[i][1])
            if numpy.isfinite([dx, dy]).all() and dx < SPIKE_DX * width and dy >= SPIKE_DY:
                found.append(f"{data[i][0]:g} to {data[i + 1][0]:g} ({dx:.1f} px across, {dy:.0f} px up or down)")
        if found:
            out.append(f"{describe(line)} spikes: " + ", ".join(found) + ": points this close along x belong "
                       "apart (markers, a panel of their own), not joined")
    return out


def layout_faults(fig):
    """The faults of fig's layout (module docstring), one line each."""
    scene = Scene(fig)
    out = []
    texts = scene.texts
    for n, (t, box) in enumerate(texts):
        name = repr(t.get_text())
        rotation = t.get_rotation() % 90
        if rotation > 0.01 and rotation < 89.99:
            out.append(f"{name} is rotated by {t.get_rotation():g} degrees: draw it level or upright")
        if re.search(r"\S {2,}\S", t.get_text()):
            out.append(f"{name} lines up its parts with runs of spaces, which the reader's font does not keep: "
                       "give each part its own text, where it belongs")
        if re.search(r"[;,:]\s*$", t.get_text()):
            out.append(f"{name} ends in {t.get_text().rstrip()[-1]!r}: a clause left dangling")
        lines = t.get_text().count("\n") + 1
        if lines > MAX_LINES:
            out.append(f"{name} has {lines} lines (at most {MAX_LINES}: the rest belongs in the page's text)")
        # (each pair of texts once: against the texts after it)
        out += [f"{name} {problem}" for problem in scene.conflicts(t, box, ignore=[x for x, _ in texts[:n]])]
    for legend, lbox, ax in scene.legends:
        if ax is None:
            continue
        covered = set()
        if len(scene.segments):
            for i in numpy.nonzero(_segments_hit(scene.segments, lbox))[0]:
                owner = scene.segment_owners[i]
                if type(owner).__name__ != "Spine" and getattr(owner, "axes", None) is ax:
                    covered.add(describe(owner))
        for i, m in enumerate(scene.markers):
            owner = scene.marker_owners[i]
            if owner.axes is ax and _meet(lbox, m):
                covered.add(describe(owner))
        out += [f"the legend covers {c}" for c in sorted(covered)]
    out += spikes(scene)
    for ax in fig.axes:
        for which, label, limits in (("y", ax.get_ylabel(), ax.get_ylim()), ("x", ax.get_xlabel(), ax.get_xlim())):
            if ax.get_visible() and RATIO_AXIS.search(label) and min(limits) < 0:
                out.append(f"the ratio axis {label!r} ({which}) runs below zero, to {min(limits):.3g}: start it at 0 "
                           "or above (or draw it on a log scale)")
    width_px = fig.get_figwidth() * 96
    if width_px > WIDTH_PX + 0.5:
        out.append(f"the figure is {width_px:.0f} px wide: wider than the text column of a 1024-pixel window "
                   f"({WIDTH_PX} px)")
    return out


SVG_HEAD = re.compile(r'<svg[^>]*?\swidth="([\d.]+)(pt|px)?"[^>]*?\sviewBox="[-\d.]+ [-\d.]+ ([\d.]+) ', re.S)
SVG_TEXT = re.compile(r"<text\b[^>]*>(.*?)</text>", re.S)
SVG_FONT = re.compile(r"font:[^;\"]*?([\d.]+)px|font-size:\s*([\d.]+)(?:px)?")


def svg_width_px(svg):
    """The width attribute of an SVG (its text) in px (matplotlib writes pt: 4/3 px each)."""
    m = SVG_HEAD.search(svg)
    if not m:
        raise ValueError("no <svg> with a width and a viewBox")
    return float(m.group(1)) * (4 / 3 if m.group(2) in ("pt", None) else 1)


def small_texts(svg, display_px=None):
    """The texts of an SVG (its text) drawn smaller than MIN_TEXT_PX on the page where it is shown
    display_px wide (default: its width attribute): ['text' (N px), ...], one per text."""
    m = SVG_HEAD.search(svg)
    if not m:
        raise ValueError("no <svg> with a width and a viewBox")
    scale = (display_px or svg_width_px(svg)) / float(m.group(3))
    out = []
    for t in SVG_TEXT.finditer(svg):
        words = re.sub(r"<[^>]+>", "", t.group(1))
        sizes = [float(a or b) for a, b in SVG_FONT.findall(t.group(0))]
        if sizes and min(sizes) * scale < MIN_TEXT_PX - 1e-6:
            out.append(f"{' '.join(html.unescape(words).split())!r} ({min(sizes) * scale:.1f} px)")
    return out


def _drawn_points(line):
    """The display coordinates of the points a line marks (its markers, markevery respected; its
    vertices where it has no marker), with their x data: [(x, y, x of the data)]."""
    xy = line.get_transform().transform(numpy.asarray(line.get_xydata(), float))
    data_x = numpy.asarray(line.get_xdata(), float)
    which = range(len(xy))
    every = line.get_markevery()
    if _has_marker(line) and isinstance(every, (list, tuple)) and all(isinstance(i, (int, numpy.integer))
                                                                      for i in every):
        which = every
    return [(xy[i][0], xy[i][1], data_x[i]) for i in which if numpy.isfinite(xy[i]).all()]


def _series_name(line):
    """A line of data in a fault: its label, or, unlabelled, its colour."""
    label = line.get_label()
    if re.match(r"_child\d+$", label):
        from matplotlib.colors import to_hex
        return f"an unlabelled line ({to_hex(line.get_color())})"
    return label.lstrip("_")


def _has_marker(line):
    return line.get_marker() not in (None, "None", " ", "", "none") and line.get_markersize() > 0


def hidden_series(fig):
    """The lines with a label (legend entries) that are mostly hidden under others, and the lines of
    data whose points are hidden under a line drawn after them (module docstring)."""
    from matplotlib.text import Text
    out = []
    # the texts left out of these renders (they are most of a render's time): whether a label sits on
    # a line is layout_faults' question, this one is whether the lines hide each other
    texts = [t for t in fig.findobj(Text) if t.get_visible()]
    for t in texts:
        t.set_visible(False)
    scale = fig.dpi / 72.0
    shown = [a for a in fig.axes if a.get_visible()]
    for ax in fig.axes:
        labelled = [l for l in ax.lines if l.get_visible() and not l.get_label().startswith("_")]
        if len(labelled) < 2:
            continue
        # the other axes left out of these renders too, where they lie apart from this one (a panel of
        # small multiples: drawing them all for each line of each panel took most of the time)
        apart = [a for a in shown if a is not ax and not a.bbox.overlaps(ax.bbox)]
        for a in apart:
            a.set_visible(False)
        # the lines of data: the legend entries and the unlabelled lines with markers beside them (a
        # program's UNVERIFIED points), in the order they are drawn (by zorder, then as added)
        series = sorted([l for l in ax.lines if l.get_visible() and getattr(l, "_leader_of", None) is None
                         and (l in labelled or _has_marker(l))], key=lambda l: l.get_zorder())
        box = ax.bbox
        x0, y0 = int(box.x0), int(box.y0)

        def pixels():
            renderer(fig)
            img = numpy.asarray(fig.canvas.buffer_rgba())[::-1, :, :3].astype(int)
            return img[y0:int(box.y1) + 1, x0:int(box.x1) + 1]

        def change(a, b):
            return numpy.abs(a - b).sum(axis=2)

        everything = pixels()
        # each line alone, and none of them (drawn once: the same for every line)
        for l in series:
            l.set_visible(False)
        nothing = pixels()
        footprints, showing = [], []
        for line in series:
            line.set_visible(True)
            alone = pixels()
            line.set_visible(False)
            # the pixels it colours (those it changes by half its own contrast or more: not the
            # anti-aliased edges, which take the colour of whatever lies beside them), and those of them
            # that look in the whole figure as they do with it alone (give or take the part of a pixel
            # it leaves to what lies under it)
            own = change(alone, nothing)
            full = numpy.percentile(own[own > 40], 90) if (own > 40).any() else 0
            footprints.append((own > 40) & (own >= 0.5 * full))
            showing.append(footprints[-1] & (change(everything, alone) < 40 + 0.25 * own))
        for n, line in enumerate(series):
            footprint, shows = footprints[n], showing[n]
            name = _series_name(line)
            if line in labelled:
                if not footprint.any():
                    out.append(f"{name!r} draws nothing")
                    continue
                if shows.sum() < VISIBLE * footprint.sum():
                    share = 100 * shows.sum() / footprint.sum()
                    out.append(f"{name!r} is hidden under the other lines: {share:.0f} % of its pixels show "
                               f"(at least {100 * VISIBLE:.0f} %)")
            # each of its points: at least VISIBLE of what it colours around the point shows
            half = max((line.get_markersize() + line.get_markeredgewidth()) * scale / 2 if _has_marker(line) else 0,
                       POINT_PX)
            points = _drawn_points(line)
            hidden, under = [], {}
            for px, py, data_x in points:
                cols = slice(max(0, int(px - half - x0)), max(0, int(px + half - x0) + 1))
                rows = slice(max(0, int(py - half - y0)), max(0, int(py + half - y0) + 1))
                fp, sh = footprint[rows, cols], shows[rows, cols]
                if not fp.any() or sh.sum() >= VISIBLE * fp.sum():
                    continue
                hidden.append(data_x)
                lost = fp & ~sh
                # under the line drawn after it that covers the most of what does not show
                cover = max(range(n + 1, len(series)), key=lambda m: (footprints[m][rows, cols] & lost).sum(),
                            default=None)
                if cover is not None and (footprints[cover][rows, cols] & lost).any():
                    under.setdefault(_series_name(series[cover]), []).append(data_x)
                else:
                    under.setdefault("the lines around it", []).append(data_x)
            if len(points) > 1 and len(hidden) >= HIDDEN_POINTS * len(points):
                out.append(f"{name!r} is hidden at {len(hidden)} of its {len(points)} points, under "
                           + ", ".join(f"{k!r} (at {', '.join(f'{x:g}' for x in xs)})" for k, xs in under.items())
                           + f": less than {100 * VISIBLE:.0f} % of what it draws there shows")
        for l in series:
            l.set_visible(True)
        for a in apart:
            a.set_visible(True)
    for t in texts:
        t.set_visible(True)
    return out
