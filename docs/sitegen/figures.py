"""The figures drawn by matplotlib from the recorded results and tuning runs, with the snippets
that show them (SVG; Markdown for \\includedoc):
  - roofline_NAME.svg (every step, for the results page: rooflines.md) and roofline_NAME_stepNN.svg
    (step NN highlighted, for its page: ceilings.py writes the sentence beside it): per device with a
    NAME.peak.csv, each step at its arithmetic intensity and measured GFLOPS under the roof of the
    copy bandwidth and the FMA peak, the peers as horizontal lines;
  - compare_stepNN.svg, stepNN_compare.md: step NN against the step before it at every square size
    of each sweep, one panel per device;
  - spread_stepNN.svg, spread_stepNN.md: for a step whose tuning run covers many sizes, the two
    settings with the highest lowest rate, every measurement of them in every committed run, and
    how much the same setting moved between runs, against the difference the choice rests on.
"""
import os
import statistics

from . import stepdefs
from .attribution import Attribution
from .common import fmt_gflops, fmt_num, fmt_pct, fmt_ratio, md_escape, previous_step, size_short, size_text, write
from .ceilings import ceilings_for
from .records import tuning_for

STEP_COLOUR, PREV_COLOUR, PEER_COLOUR = "#1f5fa8", "#9a9a9a", "#e07b1a"
PEER_NAMES = {"cublas": "cuBLAS", "clblast": "CLBlast", "cpu_blas": "CPU BLAS (host CPU)"}


def _plt():
    import matplotlib
    matplotlib.use("svg")
    matplotlib.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "sgemm-tutorial", "font.size": 9,
                                "font.family": "DejaVu Sans"})
    import matplotlib.pyplot as plt
    return plt


def LogLocator(**kw):
    from matplotlib.ticker import LogLocator as locator
    return locator(**kw)


def FuncFormatter(fn):
    from matplotlib.ticker import FuncFormatter as formatter
    return formatter(fn)


def save(fig, path):
    fig.savefig(path, format="svg", metadata={"Date": None})
    _plt().close(fig)


def roofline(r, steps, ptxas, path, highlight=None):
    """The roofline of results file r: the steps as points, the peers as lines; `highlight`, a
    step, drawn large with its local-memory ceiling."""
    plt = _plt()
    points = [c for s in steps for c in ceilings_for(s, [r], ptxas) if c.bpf]
    fig, ax = plt.subplots(figsize=(8.2, 4.6))
    ridge = r.peak.fma / r.peak.copy
    xs = [c.intensity for c in points] or [1.0]
    x0, x1 = min(xs + [ridge]) / 4, max(xs + [ridge]) * 6
    grid = [x0 * (x1 / x0) ** (i / 200) for i in range(201)]
    ax.plot(grid, [min(r.peak.fma, r.peak.copy * x) for x in grid], color="#333333", lw=2, zorder=3)
    ax.text(x0 * 1.15, r.peak.copy * x0 * 1.5, f"copy bandwidth {fmt_gflops(r.peak.copy)} GB/s x intensity",
            rotation=0, fontsize=8, color="#333333", va="bottom")
    ax.text(x1 / 1.1, r.peak.fma * 1.08, f"FMA peak {fmt_gflops(r.peak.fma)} GFLOPS", ha="right", fontsize=8,
            va="bottom")
    ax.axvline(ridge, color="#bbbbbb", lw=0.8, ls=":", zorder=1)
    ax.text(ridge * 1.05, r.peak.fma / 40, f"ridge {fmt_num(ridge)}", fontsize=7.5, color="#777777", rotation=90,
            va="bottom")
    for p, label in ((p, PEER_NAMES.get(p, p)) for p in r.programs if p in PEER_NAMES):
        g = r.gflops(p)
        if g is None or not r.same_hardware(r.row(p)):  # the CPU BLAS only where the device is the host CPU
            continue
        ax.axhline(g, color=PEER_COLOUR, lw=1, ls="--", zorder=2)
        ax.text(x0 * 1.1, g * 1.04, f"{label} {fmt_gflops(g)}", fontsize=7.5, color="#a85400", va="bottom")
    for c in points:
        mine = highlight is not None and c.step is highlight
        colour = STEP_COLOUR if (highlight is None or mine) else PREV_COLOUR
        ax.plot([c.intensity], [c.measured], "o", ms=9 if mine else 6, color=colour, zorder=5,
                markeredgecolor="white")
        ax.annotate(str(c.step.number), (c.intensity, c.measured), textcoords="offset points", xytext=(6, -3),
                    fontsize=9 if mine else 8, weight="bold" if mine else "normal", color=colour, zorder=6)
        if mine:
            for name, value in (("local-memory ceiling", c.bounds.get("local memory")), ("L1 if every load hits", c.l1)):
                if value and value < c.bounds.get("FMA", float("inf")):
                    ax.plot([c.intensity / 1.6, c.intensity * 1.6], [value, value], color="#7a55b0", lw=2.2, zorder=4)
                    ax.text(c.intensity * 1.7, value, f"step {c.step.number}'s {name} {fmt_gflops(value)}",
                            fontsize=7.5, color="#5a3d8a", va="center")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(x0, x1)
    low = min([c.measured for c in points] + [r.peak.copy * x0]) / 2
    ax.set_ylim(low, r.peak.fma * 1.6)
    ax.set_xlabel("arithmetic intensity: FLOP per byte requested from global memory (sgemm kernel; caches not counted)")
    ax.set_ylabel("GFLOPS (median)")
    ax.grid(True, which="major", color="#e4e4e4", lw=0.6)
    ax.set_title(f"Roofline of {r.stem} at {size_text(r.headline)}: steps as points, peers dashed", fontsize=10,
                 loc="left")
    fig.tight_layout()
    save(fig, path)


def compare(steps, step, results, path):
    """Step `step` against the step before it at every square size of each sweep; None when no
    file has both at two sizes or more."""
    prev = previous_step(steps, step)
    if prev is None:
        return None
    panels = []
    for r in results:
        squares = [s for s in r.sizes if s[0] == s[1] == s[2]]
        series = {}
        for s_ in (prev, step):
            series[s_.name] = [(s[0], *r.measured(s_.name, s)) for s in squares if r.measured(s_.name, s)[0]]
        if len(series[step.name]) > 1 and len(series[prev.name]) > 1:
            panels.append((r, series))
    if not panels:
        return None
    plt = _plt()
    fig, axes = plt.subplots(1, len(panels), figsize=(min(10.0, 4.8 * len(panels) + 0.4), 3.7), squeeze=False)
    ratios = []
    for ax, (r, series) in zip(axes[0], panels):
        for s_, colour in ((prev, PREV_COLOUR), (step, STEP_COLOUR)):
            pts = series[s_.name]
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "-", color=colour, lw=1.8,
                    label=f"step {s_.number}")
            for x, g, verified in pts:
                ax.plot([x], [g], "o", color=colour, ms=5, markerfacecolor=colour if verified else "white")
        both = {x: (g, v) for x, g, v in series[prev.name]}
        # (size, ratio, both runs verified)
        ratios.append((r, [(x, g / both[x][0], verified and both[x][1])
                           for x, g, verified in series[step.name] if x in both]))
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("M = N = K")
        ax.set_ylabel("GFLOPS (median)")
        ticks = []
        for x in sorted({p[0] for p in series[step.name] + series[prev.name]}):
            if not ticks or x >= ticks[-1] * 1.2:  # no two labels on top of each other
                ticks.append(x)
        ax.set_xticks(ticks)
        ax.set_xticklabels([str(x) for x in ticks], rotation=45, fontsize=7.5)
        ax.minorticks_off()
        ax.yaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:g}"))
        ax.grid(True, color="#e4e4e4", lw=0.6)
        ax.set_title(f"{r.stem}: {r.device}", fontsize=9, loc="left")
        ax.legend(fontsize=8, frameon=False)
    fig.suptitle(f"Step {step.number} against step {prev.number} at every size of the sweep"
                 + ("\n" if len(panels) == 1 else " ") + "(open points: UNVERIFIED)",  # one panel: too narrow
                 fontsize=10, x=0.01, ha="left")
    fig.tight_layout()
    save(fig, path)
    return ratios


def compare_snippet(steps, step, results, out, attribution=None):
    name = f"compare_{step.page}.svg"
    ratios = compare(steps, step, results, os.path.join(out, name))
    if ratios is None:
        return "No results file holds this step and the one before at two square sizes or more.\n"
    prev = previous_step(steps, step)
    lines = []
    for r, rs in ratios:
        if not rs:
            continue
        checked = [x for x in rs if x[2]]
        unchecked = [x[0] for x in rs if not x[2]]
        line = f"- **{md_escape(r.stem)}**: step {step.number} over step {prev.number} "
        if checked:
            lo, hi = min(checked, key=lambda x: x[1]), max(checked, key=lambda x: x[1])
            line += (f"from {fmt_ratio(lo[1])} (at {lo[0]}) to {fmt_ratio(hi[1])} (at {hi[0]}) over the "
                     f"{len(checked)} sizes where both were verified")
        if unchecked:
            lo, hi = min((x for x in rs if not x[2]), key=lambda x: x[1]), max((x for x in rs if not x[2]),
                                                                             key=lambda x: x[1])
            line += ("; " if checked else "") + (
                f"{fmt_ratio(lo[1])} to {fmt_ratio(hi[1])} at the {len(unchecked)} UNVERIFIED sizes "
                f"({', '.join(str(x) for x in unchecked)}: measured, not checked; open points)")
        # where the gain at a size is not the step's idea (attribution.py), why, sizes grouped by reason
        why = {}
        for x, _, verified in rs:
            reason = attribution.not_idea(r, step, (x, x, x)) if attribution and verified else None
            if reason:
                why.setdefault(reason, []).append(x)
        for reason, sizes in why.items():
            where = ("at every one of these sizes" if len(sizes) == len(checked) and len(sizes) > 1
                     else "at " + ", ".join(str(x) for x in sizes))
            line += f". {where[0].upper() + where[1:]} the difference is not this step's idea: {reason}"
        lines.append(line + ".")
    return (f"\\image html {name} \"Step {step.number} against step {prev.number}, every square size of each sweep\"\n\n"
            + "\n".join(lines) + "\n")


def measurements(r, tuning, step_name):
    """Every measurement of a step on r's device, in the tuning runs and in r itself:
    {(params, size): [(file, GFLOPS)]}."""
    out = {}
    for t in tuning_for(tuning, r):
        for row in t.rows:
            if row["step"] == step_name:
                out.setdefault((row["params"], row["_size"]), []).append((t.name, row["_gflops"]))
    for row in r.rows:
        if row["step"] == step_name and row["status"] in ("PASS", "UNVERIFIED"):
            key = (row["params"], (int(row["m"]), int(row["n"]), int(row["k"])))
            out.setdefault(key, []).append((f"{r.stem}.csv", float(row["gflops"])))
    return out


def spread(step, results, tuning, out):
    """The snippet of spread_stepNN.md (and its figure), or None where no tuning run of the step covers
    more than 6 sizes. Not for a step whose host chooses a parameter per problem (step 9's SLICES and SPLIT_ROWS):
    one setting of it over every size is not what the step runs, and its page has its own table."""
    d = stepdefs.get(step.name)
    if d and d.chosen:
        return None
    text = []
    for r in results:
        runs = [t for t in tuning_for(tuning, r)
                if len({row["_size"] for row in t.rows if row["step"] == step.name}) > 6]
        if not runs:
            continue
        t = runs[-1]  # the latest such run
        table = {}
        for row in t.rows:
            if row["step"] == step.name:
                cell = table.setdefault(row["params"], {})
                cell[row["_size"]] = max(cell.get(row["_size"], 0), row["_gflops"])
        ranked = sorted(table.items(), key=lambda kv: -min(kv[1].values()))[:2]
        if len(ranked) < 2:
            continue
        (pa, ca), (pb, cb) = ranked
        low_a, low_b = min(ca, key=ca.get), min(cb, key=cb.get)
        gap = ca[low_a] / cb[low_b] - 1
        all_m = measurements(r, tuning, step.name)
        repeats = []
        for (params, size), values in all_m.items():
            vals = [v for _, v in values]
            if len(vals) > 1:
                repeats.append((max(vals) / min(vals) - 1, params, size, values))
        repeats.sort(key=lambda x: -x[0])
        name = f"spread_{step.page}_{r.stem}.svg"
        spread_figure(r, step, [pa, pb], all_m, (min(ca)[0], max(ca)[0]), os.path.join(out, name))
        short = lambda p: " ".join(x for x in p.split() if not x.startswith(("WIDTH", "TRANSPOSE")))  # noqa: E731
        text.append(f"**{md_escape(r.stem)}**: in `bench/tuning/{t.name}`, the two settings with the highest lowest "
                    f"rate over its {len(ca)} sizes are {md_escape(short(pa))} (lowest {fmt_gflops(ca[low_a])} GFLOPS, "
                    f"at {size_short(low_a)}) and {md_escape(short(pb))} (lowest {fmt_gflops(cb[low_b])}, at "
                    f"{size_short(low_b)}): **{fmt_pct(100 * gap)} apart**.")
        if repeats:
            spreads = [x[0] for x in repeats]
            worst = repeats[0]
            text.append(f"The committed runs measured the same parameters at the same size more than once "
                        f"{len(repeats)} times (the tuning runs and `docs/results/{r.stem}.csv`): the runs differ by "
                        f"{fmt_pct(100 * statistics.median(spreads))} in the median case and by up to "
                        f"{fmt_pct(100 * worst[0])} ({md_escape(short(worst[1]))} at {size_short(worst[2])}: "
                        + ", ".join(f"{fmt_gflops(v)} in `{f}`" for f, v in worst[3]) + "). Not all of that is noise: "
                        "the code of the helper kernels changed between some runs (`bench/README.md`, \"Tuning "
                        "record\").")
            verdict = ("within" if 100 * gap <= 100 * statistics.median(spreads) * 2 else "beyond")
            text.append(f"A difference of {fmt_pct(100 * gap)} between the lowest rates is **{verdict}** the spread "
                        "between runs of one setting, so "
                        + ("the lowest rate alone does not separate the two settings; where they differ by more than "
                           "the runs do is what decides (the table of every size above, and the waves below)."
                           if verdict == "within" else "the ranking by lowest rate is larger than what runs move."))
        sizes_both = sorted(set(ca) & set(cb), key=lambda s: s[0])
        diffs = [(s, ca[s] / cb[s] - 1) for s in sizes_both]
        big = [d for d in diffs if abs(d[1]) > 2 * (statistics.median([x[0] for x in repeats]) if repeats else 0)]
        if big:
            text.append("Sizes where the two differ by more than twice that median spread: "
                        + ", ".join(f"{size_short(s)} ({'+' if d > 0 else ''}{fmt_pct(100 * d)} for the first)"
                                    for s, d in big) + ".")
        text.append(f"\n\\image html {name} \"Every committed measurement of the two settings on {md_escape(r.stem)}, "
                    "run by run\"\n")
    return ("\n\n".join(text) + "\n") if text else None


def spread_figure(r, step, settings, all_m, span, path):
    """Every measurement of the settings at square sizes within `span` (the tuning run's range)."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(9.6, 4.0))
    markers = "osD^v<>"
    files = sorted({f for (p, _), vals in all_m.items() if p in settings for f, _ in vals})
    common = set.intersection(*[set(p.split()) for p in settings])
    for colour, params in zip((STEP_COLOUR, PEER_COLOUR), settings):
        label = " ".join(x for x in params.split() if x not in common)
        for j, f in enumerate(files):
            pts = sorted((size[0], v) for (p, size), vals in all_m.items() if p == params and size[0] == size[1] == size[2]
                         and span[0] <= size[0] <= span[1] for ff, v in vals if ff == f)
            if not pts:
                continue
            ax.plot([x for x, _ in pts], [v for _, v in pts], markers[j % len(markers)] + "-", color=colour, ms=4,
                    lw=0.8, alpha=0.85, label=f"{label}: {f}")
    ax.set_xlabel("M = N = K")
    ax.set_ylabel("GFLOPS (median of each run)")
    ax.grid(True, color="#e4e4e4", lw=0.6)
    ax.legend(fontsize=7.5, frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.set_title(f"Step {step.number} on {r.stem}: the two settings (the rest equal), every committed run",
                 fontsize=10, loc="left")
    fig.tight_layout()
    save(fig, path)


def render(ctx):
    figured = [r for r in ctx.results if r.peak]
    lines = []
    for r in figured:
        roofline(r, ctx.steps, ctx.ptxas, os.path.join(ctx.out, f"roofline_{r.stem}.svg"))
        lines.append(f"\\image html roofline_{r.stem}.svg \"The roofline of {md_escape(r.stem)}: every step at its "
                     "arithmetic intensity and measured GFLOPS\"\n")
        for s in ctx.steps:
            if r.gflops(s.name) is not None:
                roofline(r, ctx.steps, ctx.ptxas, os.path.join(ctx.out, f"roofline_{r.stem}_{s.page}.svg"), highlight=s)
    write(os.path.join(ctx.out, "rooflines.md"), "\n".join(lines) or "No results file has its measured peaks.\n")
    attribution = Attribution.of(ctx)
    for s in ctx.steps:
        write(os.path.join(ctx.out, f"{s.page}_compare.md"),
              compare_snippet(ctx.steps, s, ctx.results, ctx.out, attribution))
        text = spread(s, ctx.results, ctx.tuning, ctx.out)
        write(os.path.join(ctx.out, f"spread_{s.page}.md"),
              text or "No tuning run of this step covers more than 6 sizes.\n")
