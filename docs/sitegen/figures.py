"""The figures drawn by matplotlib from the recorded results and tuning runs, with the snippets
that show them (SVG; Markdown for \\includedoc):
  - roofline_NAME.svg (every step, for the results page: rooflines.md) and roofline_NAME_stepNN.svg
    (step NN highlighted, for its page: ceilings.py writes the sentence beside it): per device with a
    NAME.peak.csv, each step at its arithmetic intensity and measured GFLOPS under the roof of the
    copy bandwidth and the FMA peak, the peers as horizontal lines;
  - stepNN_vs_prev.svg, stepNN_vs_prev.md: step NN over the step before it (the ratio of their
    GFLOPS) at every square size both ran, a bar from 1.0 per size, a panel per device, on a linear
    scale: the gains of a few percent of steps 8 to 10 show;
  - compare_stepNN.svg, stepNN_sizes.md: step NN against the step before it at every square size
    of each sweep, GFLOPS on a log scale, one panel per device, and the ratios as a list;
    stepNN_compare.md is stepNN_vs_prev.md's figure followed by stepNN_sizes.md. For step 1 the
    base is a tuned library (cuBLAS on a GPU, else CLBlast) instead of a step before it;
  - spread_stepNN.svg, spread_stepNN.md: for a step whose tuning run covers many sizes, the two
    settings with the highest lowest rate, every measurement of them in every committed run, and
    how much the same setting moved between runs, against the difference the choice rests on
    (figure_spread.py).
Every label is placed where it meets no other (drawing.Placer); docs/tests/test_figures.py checks
every figure as drawn (figure_checks.layout_faults, figure_checks.hidden_series).
"""
import os
import textwrap

from . import drawing, local_reads, tables
from .attribution import Attribution
from .common import fmt_gflops, fmt_num, fmt_ratio, md_escape, previous_step, size_text, write
from .ceilings import TENSOR, ceilings_for, local_roof

STEP_COLOUR, PREV_COLOUR, PEER_COLOUR, LOSS_COLOUR = "#1f5fa8", "#9a9a9a", "#e07b1a", "#c0392b"
PEER_NAMES = {"cublas": "cuBLAS", "clblast": "CLBlast", "cpu_blas": "CPU BLAS (host CPU)"}


def _plt():
    return drawing.pyplot()


def LogLocator(**kw):
    from matplotlib.ticker import LogLocator as locator
    return locator(**kw)


def FuncFormatter(fn):
    from matplotlib.ticker import FuncFormatter as formatter
    return formatter(fn)


save = drawing.save


def numbers_text(numbers):
    """Step numbers as a label: runs of consecutive numbers joined, '5, 6' or '7\u201310'."""
    numbers = sorted(numbers)
    runs, start = [], numbers[0]
    for a, b in zip(numbers, numbers[1:] + [None]):
        if b != a + 1:
            runs.append(f"{start}" if start == a else f"{start}, {a}" if a == start + 1 else f"{start}\u2013{a}")
            start = b
    return ", ".join(runs)


def clusters(points, xy_px, radius_px):
    """The points whose markers touch, grouped (indices into points), in the order of the points."""
    parent = list(range(len(points)))

    def root(i):
        while parent[i] != i:
            i = parent[i]
        return i
    for i in range(len(points)):
        for j in range(i):
            if ((xy_px[i][0] - xy_px[j][0]) ** 2 + (xy_px[i][1] - xy_px[j][1]) ** 2) ** 0.5 < radius_px:
                parent[root(i)] = root(j)
    groups = {}
    for i in range(len(points)):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


def roofline(r, steps, ptxas, path, highlight=None, width=drawing.MAX_WIDTH_IN, local=()):
    """The roofline of results file r: the steps as points, the peers as lines; `highlight`, a step,
    drawn large with its local-memory roof where it has one (ceilings.local_roof(): the ceiling of its
    table, from its device's run of `peak --local-reads` among `local`, else documented); `width` in
    inches.
    Points whose markers touch share one label ("7\u201310"); every label is placed where it meets
    nothing else (drawing.Placer)."""
    if drawing.stub(path):
        return
    plt = _plt()
    points = [c for s in steps for c in ceilings_for(s, [r], ptxas, local) if c.bpf]
    fig, ax = plt.subplots(figsize=(width, 4.4))
    ridge = r.peak.fma / r.peak.copy
    xs = [c.intensity for c in points] or [1.0]
    # (right of the highest point, room for the FMA peak's label beside a tensor-core roof above it)
    tensor_roof = any(c.tensor and c.step is highlight for c in points)
    x0, x1 = min(xs + [ridge]) / 4, max(xs + [ridge]) * (8 if tensor_roof else 6)
    grid = [x0 * (x1 / x0) ** (i / 200) for i in range(201)]
    ax.plot(grid, [min(r.peak.fma, r.peak.copy * x) for x in grid], color="#333333", lw=2, zorder=3, gid="the roof")
    ax.axvline(ridge, color="#bbbbbb", lw=0.8, ls=":", zorder=1, gid="the ridge line")
    peers = []
    for p, label in ((p, PEER_NAMES.get(p, p)) for p in r.programs if p in PEER_NAMES):
        g = r.gflops(p)
        if g is None or not r.same_hardware(r.row(p)):  # the CPU BLAS only where the device is the host CPU
            continue
        ax.axhline(g, color=PEER_COLOUR, lw=1, ls="--", zorder=2, gid=f"the line of {label}")
        peers.append((g, f"{label} {fmt_gflops(g)}"))
    marks = []  # (ceiling, its value, its label)
    tensor = None  # the highlighted step's tensor-core ceiling: (its value, its label)
    for c in points:
        mine = highlight is not None and c.step is highlight
        colour = STEP_COLOUR if (highlight is None or mine) else PREV_COLOUR
        ax.plot([c.intensity], [c.measured], "o", ms=9 if mine else 6, color=colour, zorder=6 if mine else 5,
                markeredgecolor="white", gid=f"the point of step {c.step.number}")
        if mine and c.tensor:  # step 11 on the tensor cores: its own ceiling, above the FMA roof
            value = c.bounds[TENSOR]
            # its roof: the copy bandwidth's slope on from the FMA ridge, up to the tensor-core ceiling
            top = [x for x in grid if x >= ridge]
            ax.plot(top, [min(value, r.peak.copy * x) for x in top], color="#7a55b0", lw=2.2, zorder=4,
                    gid=f"step {c.step.number}'s tensor-core ceiling")
            tensor = (value, f"TF32 peak / 3 {fmt_gflops(value)} GFLOPS")
        roof = local_roof(c) if mine else None
        if roof:  # its local-memory roof, the table's ceiling: across the whole figure, as the
            #       local traffic per FLOP does not change with the global intensity
            value, name, _ = roof
            ax.plot([x0, x1], [value, value], color="#7a55b0", lw=1.6, ls=(0, (5, 3)), zorder=4, gid=name)
            marks.append((c, value, f"{name} {fmt_gflops(value)}"))
    ax.set_xscale("log")
    ax.set_yscale("log")
    for axis in (ax.xaxis, ax.yaxis):  # plain numbers: 10 with a superscript 3 prints the 3 at 8 px
        axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:.10g}"))
    ax.set_xlim(x0, x1)
    low = min([c.measured for c in points] + [r.peak.copy * x0]) / 2
    ax.set_ylim(low, max([r.peak.fma] + [c.bounds[TENSOR] for c in points if c.tensor and c.step is highlight]) * 1.6)
    ax.set_xlabel("arithmetic intensity: FLOP per byte requested from global memory\n"
                  "(sgemm kernel; caches not counted)")
    ax.set_ylabel("GFLOPS (median)")
    ax.grid(True, which="major", color="#e4e4e4", lw=0.6)
    ax.set_title(f"Roofline of {r.stem} at {size_text(r.headline)}: steps as points, peers dashed", fontsize=10,
                 loc="left")
    fig.tight_layout()
    # the labels, once the axes are where they will be: the lines' first, then the points'
    place = drawing.Placer(fig)
    logs = [x0 * (x1 / x0) ** (i / 16) for i in range(0, 16)]
    place.add(ax, None, f"FMA peak {fmt_gflops(r.peak.fma)} GFLOPS",
              [(-4, dy, "right", va, None, (x, r.peak.fma)) for x in [x1] + logs[::-1] if x > ridge
               for dy, va in ((3, "bottom"), (-3, "top"))], fontsize=8)
    if tensor:  # along its line, as the FMA peak's label is along the roof
        place.add(ax, None, tensor[1], [(-4, dy, "right", va, None, (x, tensor[0])) for x in [x1] + logs[::-1]
                                        if x > ridge for dy, va in ((3, "bottom"), (-3, "top"))]
                  + [(4, dy, "left", va, None, (x, tensor[0])) for x in logs if x > ridge
                     for dy, va in ((3, "bottom"), (-3, "top"))], fontsize=8, color="#5a3d8a")
    slope = [x for x in logs if r.peak.copy * x < r.peak.fma / 1.2] or [x0]
    place.add(ax, None, f"copy bandwidth {fmt_gflops(r.peak.copy)} GB/s x intensity",
              [(dx, dy, ha, va, None, (x, r.peak.copy * x)) for x in slope
               for dx, dy, ha, va in ((6, -4, "left", "top"), (-6, 4, "right", "bottom"))], fontsize=8,
              color="#333333")
    ys = [low * (r.peak.fma * 1.6 / low) ** (i / 12) for i in range(12)]
    place.add(ax, None, f"ridge {fmt_num(ridge)}", [(3, 0, "left", "bottom", None, (ridge, y)) for y in ys] +
              [(-3, 0, "right", "bottom", None, (ridge, y)) for y in ys], fontsize=7.5, color="#777777", rotation=90)
    for g, text in peers:
        place.add(ax, None, text, [(4, dy, "left", va, None, (x, g)) for x in logs
                                   for dy, va in ((2, "bottom"), (-2, "top"))], fontsize=7.5, color="#a85400")
    for c, value, text in marks:  # along its line, as the peers' labels are along theirs
        place.add(ax, None, text, [(4, dy, "left", va, None, (x, value)) for x in logs
                                   for dy, va in ((2, "bottom"), (-2, "top"))], fontsize=7.5, color="#5a3d8a")
    # the points: those whose markers touch share a label (the highlighted step keeps its own), in
    # the axes as tight_layout() left them
    px = [ax.transData.transform((c.intensity, c.measured)) for c in points]
    touching = 0.6 * 6 * fig.dpi / 72  # px: markers 6 points wide that overlap by more than half
    mine = [i for i, c in enumerate(points) if highlight is not None and c.step is highlight]
    rest = [i for i in range(len(points)) if i not in mine]
    for group in [[i] for i in mine] + [[rest[j] for j in g] for g in clusters(rest, [px[i] for i in rest], touching)]:
        c = points[group[0]]
        big = group == mine
        colour = STEP_COLOUR if (highlight is None or big) else PREV_COLOUR
        place.add(ax, (c.intensity, c.measured), numbers_text([points[i].step.number for i in group]),
                  drawing.ring(start=7 if big else 5.5), fontsize=9 if big else 8, weight="bold" if big else "normal",
                  color=colour, leader_colour=colour)
    place.place()
    save(fig, path)


def pairs(steps, step, results):
    """For each results file, (file, [(size, GFLOPS of the base, of the step, both verified)], the
    base's label) at every square size where both were measured, files without such a size left out;
    and the base in words. The base is the step before; for the first step, the tuned library each
    file holds (tables.reference(): cuBLAS on a GPU, else CLBlast), so that step 1 too has its
    figure."""
    prev = previous_step(steps, step)
    out = []
    for r in results:
        if prev:
            base, label = prev.name, f"step {prev.number}"
        else:
            ref = tables.reference(r)
            if not ref:
                continue
            base, label = ref
        rows = []
        for s in sorted({s for s in r.sizes if s[0] == s[1] == s[2]}):
            (g0, v0), (g1, v1) = r.measured(base, s), r.measured(step.name, s)
            if g0 and g1:
                rows.append((s[0], g0, g1, v0 and v1))
        if rows:
            out.append((r, rows, label))
    return (f"step {prev.number}" if prev else "a tuned library"), out


def panel_title(r, width_in, fontsize):
    """A panel's title: the file's name, then its device wrapped to the panel's width."""
    chars = max(12, int(width_in * 72 / (fontsize * 0.62)))
    lines = textwrap.wrap(r.device, chars, break_on_hyphens=True)
    if len(lines) > 2:  # (three lines of title in all at most)
        lines = [lines[0], textwrap.shorten(" ".join(lines[1:]), chars, placeholder="...")]
    return "\n".join([r.stem] + lines)


def compare(steps, step, results, path):
    """Step `step` against the step before it at every square size of each sweep, GFLOPS on a log
    scale, a row per results file; None when no file has both at two sizes or more. A size beside a
    rounder one (4095 and 4097 beside 4096: drawing.odd_sizes()) is not on the lines, where it would
    stand at 4096's x: a panel of its own, right, shows it beside the round one, each size a column."""
    base, found = pairs(steps, step, results)
    panels = [(r, rows, label) for r, rows, label in found if len(rows) > 1]
    if not panels:
        return None
    if drawing.stub(path):
        return True
    plt = _plt()
    odd = [drawing.odd_sizes([x[0] for x in rows]) for _, rows, _ in panels]
    sides = any(odd)
    fig, axes = plt.subplots(len(panels), 2 if sides else 1, squeeze=False,
                             figsize=(drawing.MAX_WIDTH_IN, 0.55 + 2.05 * len(panels)),
                             gridspec_kw={"width_ratios": [3.4, 1]} if sides else None)
    for (ax, *side), (r, rows, label), odd_here in zip(axes, panels, odd):
        columns = [x for group in drawing.odd_clusters([x[0] for x in rows]) for x in group]
        # the step before wide and light under the step, so that both show where they meet
        for which, colour, name, lw, ms in ((1, "#b4b4b4", label, 4.0, 7),
                                            (2, STEP_COLOUR, f"step {step.number}", 1.5, 4)):
            for where, pts in ((ax, [(x[0], x[which], x[3]) for x in rows if x[0] not in odd_here]),
                               (side[0] if side else None,
                                [(columns.index(x[0]), x[which], x[3]) for x in rows if x[0] in columns])):
                if where is None or not pts:
                    continue
                checked = [i for i, (_, _, v) in enumerate(pts) if v]
                where.plot([x for x, _, _ in pts], [g for _, g, _ in pts], "-o", color=colour, lw=lw, ms=ms,
                           markevery=checked, label=name, zorder=2 + which)
                unchecked = [(x, g) for x, g, v in pts if not v]
                if unchecked:
                    where.plot([x for x, _ in unchecked], [g for _, g in unchecked], "o", color=colour, ms=ms,
                               mfc="white", label=f"_unverified {name}", zorder=2.5 + which)
        ax.set_xscale("log", base=2)
        ticks = drawing.size_ticks([x[0] for x in rows if x[0] not in odd_here])
        ax.set_xticks(ticks)
        ax.set_xticklabels([str(x) for x in ticks], fontsize=7.5)
        ax.set_title(f"{r.stem}: {r.device}", fontsize=8.5, loc="left")
        for a in [ax] + side:
            a.set_yscale("log")
            a.minorticks_off()
            a.yaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
            a.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:g}"))
            a.tick_params(axis="y", labelsize=7.5)
            a.grid(True, color="#e4e4e4", lw=0.6)
        ax.set_ylabel("GFLOPS (log)", fontsize=8)
        if side and columns:
            side[0].set_xticks(range(len(columns)))
            side[0].set_xticklabels([str(x) for x in columns], fontsize=7.5)
            side[0].set_xlim(-0.5, len(columns) - 0.5)
            side[0].set_ylim(ax.get_ylim())
            side[0].tick_params(axis="y", labelleft=False)
        elif side:
            side[0].set_visible(False)
    axes[-1][0].set_xlabel("M = N = K (log scale)")
    shown = [a for a in axes[:, -1] if sides and a.get_visible()]
    if shown:
        shown[-1].set_xlabel("beside a round size")
    fig.suptitle(f"Step {step.number} against {base} at every size of the sweep (open points: UNVERIFIED)",
                 fontsize=9.5, x=0.01, ha="left")
    fig.tight_layout()
    for ax in axes[:, 0]:
        drawing.place_legend(ax, fontsize=7.5)
    drawing.thin_ticks(fig)
    save(fig, path)
    return True


def change_text(ratio, percent):
    """A bar's label: the change in percent (a panel whose changes are all small), else the ratio."""
    if percent:
        return f"{100 * (ratio - 1):+.1f} %".replace("-", "\u2212")
    return f"{ratio:.2f}x"


def vs_prev(steps, step, results, path):
    """Step `step` over the step before it (GFLOPS over GFLOPS) at every square size where both ran, a
    bar from 1.0 per size, one panel per results file, on a linear scale: a gain of a few percent
    shows as plainly as a doubling. None where no file has both at any size."""
    base, found = pairs(steps, step, results)
    if not found:
        return None
    plt = _plt()
    fig, axes = plt.subplots(len(found), 1, figsize=(drawing.MAX_WIDTH_IN, 0.5 + 2.1 * len(found)), squeeze=False)
    place = []
    for ax, (r, rows, label) in zip(axes[:, 0], found):
        ratios = [g1 / g0 for _, g0, g1, _ in rows]
        xs = list(range(len(rows)))
        colours = [STEP_COLOUR if q >= 1 else LOSS_COLOUR for q in ratios]
        bars = ax.bar(xs, [q - 1 for q in ratios], bottom=1.0, width=0.62, color=colours, edgecolor=colours,
                      linewidth=0.8, zorder=3)
        for bar, (_, _, _, verified), colour in zip(bars, rows, colours):
            if not verified:  # an UNVERIFIED run at that size: an open, hatched bar
                bar.set_facecolor("white")
                bar.set_hatch("////")
        ax.axhline(1.0, color="#222222", lw=1.0, zorder=4, gid="the line of 1.0")
        lo, hi = min(ratios + [1.0]), max(ratios + [1.0])
        span = max(hi - lo, 0.02)
        # no ratio is negative: the axis stops at 0 (a bar down to near 0 takes its label inside)
        ax.set_ylim(max(0.0, lo - 0.28 * span), hi + 0.28 * span)
        ax.set_xlim(-0.6, len(rows) - 0.4)
        ax.set_xticks(xs)
        ax.set_xticklabels([str(x[0]) for x in rows], fontsize=7.5)
        ax.tick_params(axis="y", labelsize=7.5)
        ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:.3g}"))
        ax.grid(True, axis="y", color="#e4e4e4", lw=0.6, zorder=0)
        ax.set_ylabel(f"step {step.number} / {label}", fontsize=8)
        ax.set_title(f"{r.stem}: {r.device}", fontsize=8.5, loc="left")
        place.append((ax, xs, ratios))
    axes[-1, 0].set_xlabel("M = N = K")
    fig.suptitle(f"Step {step.number} over {base} at each size: above 1.0, step {step.number} is faster "
                 "(hatched: UNVERIFIED)", fontsize=9.5, x=0.01, ha="left")
    fig.tight_layout()
    placer = drawing.Placer(fig)
    for ax, xs, ratios in place:
        percent = all(0.8 <= q <= 1.25 for q in ratios)
        for x, q in zip(xs, ratios):
            up = q >= 1
            # beyond the bar's end; for a bar down to near 0, where the axis stops, inside its end
            placer.add(ax, (x, q), change_text(q, percent), [(0, 2 if up else -2, "center", "bottom" if up else "top")] +
                       [(0, (2 + 8 * k) * (1 if up else -1), "center", "bottom" if up else "top") for k in range(1, 4)]
                       + ([] if up else [(0, 2, "center", "bottom")]),
                       fontsize=7.5, leader_from=99, color="#222222")
    placer.place()
    save(fig, path)
    return found


def sizes_snippet(steps, step, results, out, attribution=None):
    """stepNN_sizes.md: the ratios of step NN over its base (pairs()) at every square size, as a list,
    each gain at a size that is not the step's idea said so (attribution.py), and the log-scale plot
    of both (compare_stepNN.svg); None where no file holds both at a size."""
    base, found = pairs(steps, step, results)
    if not found:
        return None
    lines = []
    for r, rows, label in found:
        rs = [(x, g1 / g0, v) for x, g0, g1, v in rows]
        checked = [x for x in rs if x[2]]
        unchecked = [x[0] for x in rs if not x[2]]
        line = f"- **{md_escape(r.stem)}**: step {step.number} over {label} "
        if checked:
            lo, hi = min(checked, key=lambda x: x[1]), max(checked, key=lambda x: x[1])
            line += (f"from {fmt_ratio(lo[1])} (at {lo[0]}) to {fmt_ratio(hi[1])} (at {hi[0]}) over the "
                     f"{len(checked)} sizes where both were verified" if len(checked) > 1 else
                     f"{fmt_ratio(lo[1])} at {lo[0]}, both verified")
        if unchecked:
            lo, hi = (min((x for x in rs if not x[2]), key=lambda x: x[1]),
                      max((x for x in rs if not x[2]), key=lambda x: x[1]))
            line += ("; " if checked else "") + (
                f"{fmt_ratio(lo[1])} to {fmt_ratio(hi[1])} at the {len(unchecked)} UNVERIFIED sizes "
                f"({', '.join(str(x) for x in unchecked)}: not checked: hatched bars, open points)")
        # where the gain at a size is not the step's idea (attribution.py), why, sizes grouped by reason
        why = {}
        for x, _, verified in rs:
            reason = attribution.not_idea(r, step, (x, x, x)) if attribution and verified else None
            if reason:
                why.setdefault(reason, []).append(x)
        headline = attribution.not_idea(r, step) if attribution else None
        for reason, sizes in why.items():
            where = ("at every one of these sizes" if len(sizes) == len(checked) and len(sizes) > 1
                     else "at " + ", ".join(str(x) for x in sizes))
            # the reason at the headline size is in the lesson's sentence above: named, not repeated
            line += (f". {where[0].upper() + where[1:]} the difference is not this step's idea"
                     + (" (the reason: above)" if reason == headline else f": {reason}"))
        lines.append(line + ".")
    text = "\n".join(lines) + "\n"
    if compare(steps, step, results, os.path.join(out, f"compare_{step.page}.svg")) is not None:
        text += (f"\n\\image html compare_{step.page}.svg \"Step {step.number} and {base} in GFLOPS at "
                 "every square size of each sweep (log scale)\"\n")
    return text


def compare_snippet(steps, step, results, out, attribution=None, sizes=None):
    """stepNN_compare.md: the ratios (stepNN_vs_prev.md, whose figure vs_prev_snippet() drew), then
    stepNN_sizes.md's list and plot (`sizes`, its text, where it was made already)."""
    sizes = sizes_snippet(steps, step, results, out, attribution) if sizes is None else sizes
    if not sizes:
        return "No results file holds this step and the one before at the same square size.\n"
    return f"\\includedoc {step.page}_vs_prev.md\n\n" + sizes


def vs_prev_snippet(steps, step, results, out):
    """stepNN_vs_prev.md: the figure of step NN over the step before (step 1: over a tuned library),
    with what its bars are."""
    name = f"{step.page}_vs_prev.svg"
    found = vs_prev(steps, step, results, os.path.join(out, name))
    if found is None:
        return "No results file holds this step and the one before at the same size.\n"
    base, _ = pairs(steps, step, results)
    what = f"{base}'s" if previous_step(steps, step) else "the library's (cuBLAS on a GPU, else CLBlast)"
    return (f"\\image html {name} \"Step {step.number} over {base} at each size (linear scale)\"\n\n"
            f"Each bar: step {step.number}'s GFLOPS over {what} at one size (medians); above 1.0 step "
            f"{step.number} is faster; hatched: UNVERIFIED.\n")


def render(ctx):
    from .figure_spread import spread  # (figure_spread.py reads this module's colours)
    figured = [r for r in ctx.results if r.peak]
    local = local_reads.load(ctx.tuning_dir, cpu=True)  # (as ceilings.render(): the table's ceilings)
    lines = []
    for r in figured:
        roofline(r, ctx.steps, ctx.ptxas, os.path.join(ctx.out, f"roofline_{r.stem}.svg"))
        lines.append(f"\\image html roofline_{r.stem}.svg \"The roofline of {md_escape(r.stem)}: every step at its "
                     "arithmetic intensity and measured GFLOPS\"\n")
        for s in ctx.steps:
            if r.gflops(s.name) is not None:
                # each in a list item of its step's page (ceilings.roofline_snippet): narrower by its indent
                roofline(r, ctx.steps, ctx.ptxas, os.path.join(ctx.out, f"roofline_{r.stem}_{s.page}.svg"), highlight=s,
                         width=drawing.width_in(lists=1), local=local)
    write(os.path.join(ctx.out, "rooflines.md"), "\n".join(lines) or "No results file has its measured peaks.\n")
    attribution = Attribution.of(ctx)
    for s in ctx.steps:
        write(os.path.join(ctx.out, f"{s.page}_vs_prev.md"), vs_prev_snippet(ctx.steps, s, ctx.results, ctx.out))
        sizes = sizes_snippet(ctx.steps, s, ctx.results, ctx.out, attribution) or ""
        write(os.path.join(ctx.out, f"{s.page}_sizes.md"),
              sizes or "No results file holds this step and the one before at the same square size.\n")
        write(os.path.join(ctx.out, f"{s.page}_compare.md"),
              compare_snippet(ctx.steps, s, ctx.results, ctx.out, attribution, sizes))
        text = spread(s, ctx.results, ctx.tuning, ctx.out)
        write(os.path.join(ctx.out, f"spread_{s.page}.md"),
              text or "No tuning run of this step covers more than 6 sizes.\n")
