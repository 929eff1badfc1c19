"""The plots of the results, drawn by matplotlib as SVG (drawing.py: the layout the tests check):
results_all.svg (all devices, log scale), results_NAME.svg (bars at the headline size),
sweep_NAME.svg (GFLOPS against the size, log-log, for a sweep); results_all.md and results_plot.md
show them. On the x axis a step is its number (the pages name the steps by number), a peer its name.
cuBLAS's TF32 mode (cublas_tf32) is not drawn: it is a different product, not FP32-accurate (it fails
the harness's check by design), and the plots compare FP32 SGEMMs; the tables show its rows.
"""
import os

from . import drawing
from .common import NO_RESULTS, fmt_gflops, is_step, md_escape, size_text, write

STEP_COLOUR, PEER_COLOUR = "#3b6ea5", "#e8862a"
PEER_NAMES = {"cublas": "cuBLAS", "clblast": "CLBlast", "cpu_blas": "CPU BLAS"}
NOT_FP32 = {"cublas_tf32"}  # peers left out of the plots (module docstring)


def fp32_programs(programs):
    return [p for p in programs if p not in NOT_FP32]


# The peers' order along an x axis of programs: the two-line "CPU BLAS" between the two long
# one-word names, which side by side ran into each other once the twelfth step took its place
PEER_AXIS_ORDER = ("clblast", "cpu_blas", "cublas")


def axis_order(programs):
    """The programs in the order of an x axis: the steps as given, then the peers (PEER_AXIS_ORDER,
    any other after them)."""
    rank = {p: i for i, p in enumerate(PEER_AXIS_ORDER)}
    return ([p for p in programs if is_step(p)]
            + sorted((p for p in programs if not is_step(p)), key=lambda p: rank.get(p, len(rank))))


# One look per device on the plot of every device, so that two devices with the same numbers (the
# H100 and the H200) both show: the first's line under the second's, its larger open markers around
# the second's filled ones
DEVICE_LOOKS = [dict(color="#1f77b4", marker="s", ms=9, mfc="none", mew=1.6, ls="-", lw=2.2),
                dict(color="#2ca02c", marker="o", ms=5, mfc="#2ca02c", mew=0, ls=(0, (4, 2)), lw=1.4),
                dict(color="#d62728", marker="^", ms=7, mfc="white", mew=1.4, ls="-.", lw=1.6),
                dict(color="#9467bd", marker="D", ms=5, mfc="#9467bd", mew=0, ls=":", lw=1.8),
                dict(color="#8c564b", marker="v", ms=7, mfc="none", mew=1.4, ls="-", lw=1.0)]

# Line colours and markers of the sweep plot: one per step (eleven distinct ones before any repeats),
# and the peers in greys and black, dashed
PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22",
           "#7f3c8d", "#ff00ff"]
MARKERS = ["o", "s", "D", "^", "v", "<", ">", "p", "h", "d", "8"]
PEER_LOOKS = {"cublas": ("#000000", "x", (0, (5, 2))), "clblast": ("#555555", "+", (0, (5, 2, 1, 2))),
              "cpu_blas": ("#999999", "1", (0, (2, 2)))}


def program_tick(program):
    """A program on an x axis: a step by its number, a peer by its name."""
    return str(int(program[6:8])) if is_step(program) else PEER_NAMES.get(program, program)


def tick_label(program):
    """program_tick() for a tick under a bar or a column: a name of two words on two lines, so that
    it does not run into its neighbour's ("CPU BLAS CLBlast" read as one)."""
    return program_tick(program).replace(" ", "\n")


def ordered_programs(results):
    programs = []
    for r in results:
        for p in r.programs:
            if p not in programs:
                programs.append(p)
    return axis_order(sorted(fp32_programs(programs), key=lambda p: (not is_step(p), p if is_step(p) else "")))


def log_ticks(ax, low, high):
    """Major ticks 1, 2, 5 x 10^n between low and high, written plainly."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
    ax.yaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0) if high / low < 1e3 else (1.0,)))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:g}"))
    ax.yaxis.set_minor_formatter(NullFormatter())


def plot_device(r, path):
    """Bars: GFLOPS of each program at the headline size on one device (linear scale), the value on
    each bar, the measured FMA peak as a dashed line."""
    plt = drawing.pyplot()
    bars = [(p, r.gflops(p)) for p in axis_order(fp32_programs(r.programs)) if r.gflops(p) is not None]
    fig, ax = plt.subplots(figsize=(drawing.MAX_WIDTH_IN, 3.9))
    xs = list(range(len(bars)))
    colours = [STEP_COLOUR if is_step(p) else PEER_COLOUR for p, _ in bars]
    ax.bar(xs, [g for _, g in bars], width=0.65, color=colours, edgecolor="#333333", linewidth=0.6, zorder=3)
    top = max([g for _, g in bars] + ([r.peak.fma] if r.peak else [])) * 1.15
    if r.peak:
        ax.axhline(r.peak.fma, color="#555555", lw=1.2, ls=(0, (4, 3)), zorder=4, gid="the measured FMA peak")
    ax.set_ylim(0, top)
    ax.set_xlim(-0.6, len(bars) - 0.4)
    ax.set_xticks(xs)
    ax.set_xticklabels([tick_label(p) for p, _ in bars], fontsize=8)
    ax.set_ylabel("GFLOPS (median)")
    ax.set_xlabel(f"step (blue) or peer (orange), {size_text(r.headline)}")
    ax.grid(True, axis="y", color="#dddddd", lw=0.6, zorder=0)
    ax.set_title(f"{r.stem}: {r.device}, {r.dates}", fontsize=10, loc="left")
    fig.tight_layout()
    place = drawing.Placer(fig)
    if r.peak:
        text = f"measured FMA peak {fmt_gflops(r.peak.fma)} (bench/peak)"
        place.add(ax, None, text, [(2, dy, "left", va, None, (x, r.peak.fma)) for x in [-0.55] + xs
                                   for dy, va in ((2, "bottom"), (-2, "top"))], fontsize=7.5, color="#555555")
    for x, (_, g) in enumerate(bars):
        place.add(ax, (x, g), fmt_gflops(g), [(0, 2, "center", "bottom"), (0, -2, "center", "top")] +
                  [(0, 2 + 9 * k, "center", "bottom") for k in range(1, 4)], fontsize=7.5, leader_from=99)
    place.place()
    drawing.save(fig, path)


def together(results, programs, within=1.5):
    """The pairs of devices whose lines run together on the log scale (i, j, i < j: every step both ran
    within `within` of each other, the H100 and the H200): on one log axis the later hides what tells
    them apart, so plot_all() draws the later over the earlier in a panel of its own. Each device with
    the first it runs with."""
    pairs = []
    for j, b in enumerate(results):
        for i, a in enumerate(results[:j]):
            both = [(a.gflops(p), b.gflops(p)) for p in programs if is_step(p)
                    and a.gflops(p) is not None and b.gflops(p) is not None]
            if both and all(max(x / y, y / x) < within for x, y in both):
                pairs.append((i, j))
                break
    return pairs


def plot_all(results, path):
    """All devices on one plot, log scale: per device, a line through the steps and points for the
    peers (right of the dashed line), each device with its own colour, marker and line style. Where
    two devices' lines run together (together()), a panel below: the later over the earlier, program
    by program, on a linear scale."""
    plt = drawing.pyplot()
    programs = ordered_programs(results)
    nsteps = sum(1 for p in programs if is_step(p))
    pairs = together(results, programs)
    if pairs:
        fig, (ax, below) = plt.subplots(2, 1, sharex=True, figsize=(drawing.MAX_WIDTH_IN, 5.9 + 0.2 * len(results)),
                                        gridspec_kw={"height_ratios": [3, 1.15]})
    else:
        fig, ax = plt.subplots(figsize=(drawing.MAX_WIDTH_IN, 4.4 + 0.2 * len(results)))
        below = None
    values = []
    for j, r in enumerate(results):
        look = dict(DEVICE_LOOKS[j % len(DEVICE_LOOKS)])
        ls = look.pop("ls")
        steps = [(i, r.gflops(p)) for i, p in enumerate(programs[:nsteps]) if r.gflops(p) is not None]
        peers = [(nsteps + i, r.gflops(p)) for i, p in enumerate(programs[nsteps:]) if r.gflops(p) is not None]
        values += [g for _, g in steps + peers]
        label = f"{r.stem}: {r.device}, {size_text(r.headline)}"
        ax.plot([i for i, _ in steps], [g for _, g in steps], ls=ls, label=label, zorder=3 + j, **look)
        if peers:
            look.pop("lw")
            ax.plot([i for i, _ in peers], [g for _, g in peers], ls="none", label=f"_peers of {r.stem}",
                    zorder=3 + j, **look)
    ratios, host = [], set()
    for i, j in pairs:  # the later device over the earlier, in the later one's look
        look = dict(DEVICE_LOOKS[j % len(DEVICE_LOOKS)])
        look.pop("ls")
        look.pop("lw")
        a, b = results[i], results[j]
        # (not the CPU BLAS of two GPUs' files: it ran on each machine's host CPU, not on the devices)
        host |= {p for p in programs
                 if p == "cpu_blas" and not (a.same_hardware(a.row(p)) and b.same_hardware(b.row(p)))}
        pts = [(x, b.gflops(p) / a.gflops(p)) for x, p in enumerate(programs)
               if a.gflops(p) is not None and b.gflops(p) is not None and p not in host]
        ratios += [q for _, q in pts]
        below.plot([x for x, _ in pts], [q for _, q in pts], ls="none", label=f"{b.stem} / {a.stem}", zorder=3,
                   **look)
    for where in [ax] + ([below] if below else []):
        if nsteps < len(programs):
            where.axvline(nsteps - 0.5, color="#888888", lw=0.8, ls=(0, (3, 3)), zorder=1,
                          gid="the line between steps and peers")
        where.grid(True, axis="y", which="major", color="#dddddd", lw=0.6)
    ax.set_yscale("log")
    if values:
        ax.set_ylim(min(values) / 1.6, max(values) * 1.6)
        log_ticks(ax, min(values), max(values))
    ax.set_xlim(-0.5, len(programs) - 0.5)
    ax.set_xticks(range(len(programs)))
    last = below or ax
    last.set_xticklabels([tick_label(p) for p in programs], fontsize=8)
    last.set_xlabel("step, then the peers")
    ax.set_ylabel("GFLOPS (median, log scale)")
    ax.set_title("GFLOPS of each step (lines) and peer (points) on every recorded device", fontsize=10, loc="left")
    if below:
        below.axhline(1.0, color="#222222", lw=0.9, zorder=2, gid="the line of 1.0")
        lo, hi = min(ratios + [1.0]), max(ratios + [1.0])
        pad = 0.15 * max(hi - lo, 0.1)
        below.set_ylim(max(0.0, lo - pad), hi + pad)  # (a ratio is never below 0)
        from matplotlib.ticker import FuncFormatter
        below.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:.3g}"))
        below.set_ylabel(f"{results[pairs[0][1]].stem} /\n{results[pairs[0][0]].stem}" if len(pairs) == 1 else
                         "ratio: a device /\nthe one it runs with", fontsize=8)
        over = ", ".join(f"{results[j].stem} over {results[i].stem}" for i, j in pairs)
        below.set_title(f"Where two lines run together above: {over} (above 1: faster"
                        + ("; CPU BLAS ran on the hosts" if host else "") + ")", fontsize=8.5, loc="left")
    handles, labels = ax.get_legend_handles_labels()
    last.legend(handles, labels, loc="upper left", bbox_to_anchor=(0.0, -0.16 if not below else -0.42), frameon=False,
                fontsize=8, borderaxespad=0)
    fig.tight_layout()
    drawing.save(fig, path)


def sweep_panels(programs):
    """The panels of a sweep: one per step, then one of the peers (where there are any)."""
    return [p for p in programs if is_step(p)] + (["peers"] if any(not is_step(p) for p in programs) else [])


def plot_sweep(r, path):
    """GFLOPS against the square problem size, log-log, a panel per step (small multiples: fourteen
    lines in one panel hid each other where programs measured the same), the other steps in grey
    behind it and the tuned library (cuBLAS, else CLBlast) dashed across it; a last panel for the peers. The
    measured rates only (a size a program did not run at is no point), UNVERIFIED ones as open
    points. A size beside a rounder one (4095 and 4097 beside 4096: drawing.odd_sizes()) is not on the
    line, which it would send straight up and down at 4096: a triangle pointing away from the round
    size (left for 4095, right for 4097), apart from the line."""
    from matplotlib.lines import Line2D
    plt = drawing.pyplot()
    squares = sorted({s[0] for s in r.sizes if s[0] == s[1] == s[2]})
    odd = drawing.odd_sizes(squares)
    regular = [x for x in squares if x not in odd]
    programs = fp32_programs(r.programs)
    peers = [p for p in programs if not is_step(p)]
    # the tuned library across every step's panel (tables.reference(): cuBLAS on a GPU, else CLBlast)
    reference = next((p for p in ("cublas", "clblast") if p in peers), peers[0] if peers else None)
    cells = sweep_panels(programs)
    cols = 4
    rows = -(-len(cells) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(drawing.MAX_WIDTH_IN, 1.3 + 2.05 * rows), sharex=True, sharey=True,
                             squeeze=False)

    def points(p, sizes):
        pts = [(x, *r.measured(p, (x, x, x))) for x in sizes]
        return [(x, g, v) for x, g, v in pts if g is not None]

    def below(x):  # an odd size just below a round one (4095): its triangle points left, else right
        return any(y > x and y - x < 0.01 * x for y in regular)

    def draw(ax, p, colour, ls="-", lw=1.6, marker="o", ms=4.5, z=4, label=None, apart=True):
        pts = points(p, regular)
        checked = [i for i, (_, _, v) in enumerate(pts) if v]
        ax.plot([x for x, _, _ in pts], [g for _, g, _ in pts], ls=ls, lw=lw, color=colour, marker=marker, ms=ms,
                markevery=checked, label=label or program_tick(p), zorder=z)
        unchecked = [(x, g) for x, g, v in pts if not v]
        if unchecked:
            ax.plot([x for x, _ in unchecked], [g for _, g in unchecked], ls="none", marker=marker, ms=ms,
                    color=colour, mfc="white", label=f"_unverified {p}", zorder=z)
        for x, g, v in points(p, odd) if apart else []:  # apart from the line: a triangle pointing away from
            #                                                 the round size
            ax.plot([x], [g], ls="none", marker="<" if below(x) else ">", ms=ms, color=colour,
                    mfc=colour if v else "white", label=f"_{x} {p}", zorder=z + 0.5)
        return [g for _, g, _ in pts + (points(p, odd) if apart else [])]

    values = []
    steps = [p for p in programs if is_step(p)]
    for ax, p in zip(axes.flat, cells):
        for q in steps:  # the other steps, grey, behind: where this one stands among them
            if q != p:
                pts = points(q, regular)
                ax.plot([x for x, _, _ in pts], [g for _, g, _ in pts], color="#d4d4d4", lw=0.9, zorder=1,
                        label="_other step")
        if p == "peers":
            for q in peers:
                colour, marker, ls = PEER_LOOKS.get(q, ("#444444", "x", (0, (4, 2))))
                values += draw(ax, q, colour, ls=ls, lw=1.3, marker=marker, ms=5.5, z=4)
            ax.set_title("the peers", fontsize=9, loc="left")
        else:
            values += draw(ax, p, STEP_COLOUR, label=f"step {program_tick(p)}")
            if reference:  # across the step's line, thin: where they meet both show
                values += draw(ax, reference, "#000000", ls=(0, (4, 2)), lw=0.9, marker="None", z=5, apart=False)
            ax.set_title(f"step {program_tick(p)}", fontsize=9, loc="left")
        ax.grid(True, color="#ececec", lw=0.6, zorder=0)
    for ax in axes.flat[len(cells):]:
        ax.set_visible(False)
    ax0 = axes[0][0]
    ax0.set_xscale("log", base=2)
    ax0.set_yscale("log")
    ticks = [x for x in drawing.size_ticks(regular) if x in (regular[0], regular[-1]) or x & (x - 1) == 0]
    ax0.set_xticks(ticks)
    ax0.set_xticklabels([str(x) for x in ticks], fontsize=7.5)
    ax0.minorticks_off()
    if values:
        log_ticks(ax0, min(values), max(values))
    for ax in axes.flat:
        ax.tick_params(labelsize=7.5)
    for ax in axes[:, 0]:
        ax.set_ylabel("GFLOPS (log)", fontsize=8)
    for ax in axes[-1]:
        ax.set_xlabel("M = N = K (log)", fontsize=8)
    fig.suptitle(f"{r.stem}: GFLOPS against M = N = K, a panel per step\n{r.device}, {r.dates}", fontsize=10,
                 x=0.01, ha="left")
    key = [Line2D([], [], color=STEP_COLOUR, marker="o", ms=4.5, lw=1.6, label="the step (open: UNVERIFIED)")]
    for side, sizes in (("<", [x for x in odd if below(x)]), (">", [x for x in odd if not below(x)])):
        if sizes:  # the odd sizes, apart from the line
            key.append(Line2D([], [], color=STEP_COLOUR, ls="none", marker=side, ms=4.5,
                              label=", ".join(map(str, sizes)) + ", apart from the line"))
    if reference:
        key.append(Line2D([], [], color="#000000", ls=(0, (4, 2)), lw=0.9, label=PEER_NAMES.get(reference, reference)))
    key.append(Line2D([], [], color="#d4d4d4", lw=0.9, label="the other steps"))
    fig.legend(handles=key, loc="lower left", bbox_to_anchor=(0.0, 0.0), ncol=2, frameon=False, fontsize=8)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    drawing.thin_ticks(fig)
    drawing.save(fig, path)


def render(ctx):
    plots = []
    if not ctx.results:
        write(os.path.join(ctx.out, "results_all.md"), NO_RESULTS)
    else:
        plot_all(ctx.results, os.path.join(ctx.out, "results_all.svg"))
        below = ("; below, where two devices' lines run together, the one over the other (linear)"
                 if together(ctx.results, ordered_programs(ctx.results)) else "")
        write(os.path.join(ctx.out, "results_all.md"), '\\image html results_all.svg "GFLOPS of every step '
              f'and peer on every recorded device, at each file\'s headline size (log scale){below}"\n')
        for r in ctx.results:
            plot_device(r, os.path.join(ctx.out, f"results_{r.stem}.svg"))
            plots.append(f'\\image html results_{r.stem}.svg "{md_escape(r.stem)}: GFLOPS of each step and peer at '
                         f'{size_text(r.headline)}"')
            if sum(s[0] == s[1] == s[2] for s in r.sizes) > 1:
                plot_sweep(r, os.path.join(ctx.out, f"sweep_{r.stem}.svg"))
                plots.append(f'\\image html sweep_{r.stem}.svg "{md_escape(r.stem)}: GFLOPS against the size '
                             '(log-log; open points: UNVERIFIED)"')
    write(os.path.join(ctx.out, "results_plot.md"), "\n\n".join(plots) + "\n")
