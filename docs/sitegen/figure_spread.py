"""The spread of the tuning runs, for figures.py (whose render() writes it): spread_stepNN.md and
spread_stepNN_NAME.svg, for a step whose tuning run covers many sizes, the two settings with the
highest lowest rate, every measurement of them in every committed run (lab/tuning/, and
docs/results/NAME.csv), and how much the same setting moved between runs, against the difference
the choice rests on."""
import os
import re
import statistics

from . import drawing, stepdefs
from .common import fmt_gflops, fmt_pct, md_escape, size_short
from .figures import PEER_COLOUR, STEP_COLOUR, _plt, save
from .records import tuning_for


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
        text.append(f"**{md_escape(r.stem)}**: in `lab/tuning/{t.name}`, the two settings with the highest lowest "
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
                        "the code of the helper kernels changed between some runs (`lab/README.md`, \"Tuning "
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


def run_name(r, f):
    """A committed run by its place: 'the results file' for docs/results/NAME.csv, 'run 3' for
    lab/tuning/NAME-run3.csv, 'run 22, ablation' for NAME-run22-ablation.csv."""
    if f == f"{r.stem}.csv":
        return "docs/results"
    rest = f[len(r.stem) + 1:] if f.startswith(r.stem + "-") else f
    rest = rest[:-4] if rest.endswith(".csv") else rest
    m = re.match(r"run(\d+)(?:-(.+))?$", rest)
    return (f"run {m.group(1)}" + (f", {m.group(2)}" if m.group(2) else "")) if m else rest


def spread_figure(r, step, settings, all_m, span, path):
    """Every measurement of the settings at square sizes within `span` (the tuning run's range), a
    colour per setting and a marker per run: left, the runs over many sizes as lines; right, the
    sizes that runs of a few sizes measured (4095 to 4097), every run's point there side by side."""
    plt = _plt()
    from matplotlib.lines import Line2D
    markers = "osD^v<>ph"
    files = sorted({f for (p, _), vals in all_m.items() if p in settings for f, _ in vals})
    common = set.intersection(*[set(p.split()) for p in settings])
    names = [" ".join(x for x in params.split() if x not in common) for params in settings]
    series = {}  # (setting, file): [(size, GFLOPS)]
    for params in settings:
        for f in files:
            pts = sorted((size[0], v) for (p, size), vals in all_m.items()
                         if p == params and size[0] == size[1] == size[2] and span[0] <= size[0] <= span[1]
                         for ff, v in vals if ff == f)
            if pts:
                series[(params, f)] = pts
    wide = [f for f in files if max(len(pts) for (p, ff), pts in series.items() if ff == f) > 3]
    # the sizes of the runs of a few sizes, and those beside a rounder one in the runs of many (4095 and
    # 4097 beside 4096, 16 apart from the rest: joined on the left, they would go straight up and down),
    # with the round ones, go right; the lines left leave out the odd ones
    many = sorted({x for (p, f), pts in series.items() if f in wide for x, _ in pts})
    odd = drawing.odd_sizes(many, log=False) if many else []
    spots = sorted({x for (p, f), pts in series.items() if f not in wide for x, _ in pts}
                   | {x for group in (drawing.odd_clusters(many, log=False) if many else []) for x in group})
    fig, axes = plt.subplots(1, 2 if spots else 1, figsize=(drawing.MAX_WIDTH_IN, 4.6), squeeze=False, sharey=True,
                             gridspec_kw={"width_ratios": [3, 1.4]} if spots else None)
    ax = axes[0][0]
    for colour, params, label in zip((STEP_COLOUR, PEER_COLOUR), settings, names):
        for f in wide:
            pts = [(x, v) for x, v in series.get((params, f), []) if x not in odd]
            if pts:
                j = files.index(f)
                ax.plot([x for x, _ in pts], [v for _, v in pts], "-", marker=markers[j % len(markers)], color=colour,
                        ms=4, lw=1.1, label=f"{label}, {run_name(r, f)}", zorder=3)
    ax.set_xlabel("M = N = K")
    ax.set_ylabel("GFLOPS (median of each run)")
    ax.grid(True, color="#e4e4e4", lw=0.6)
    if spots:
        spot = axes[0][1]
        n = len(settings) * len(files)
        for i, (colour, params, label) in enumerate(zip((STEP_COLOUR, PEER_COLOUR), settings, names)):
            for j, f in enumerate(files):
                pts = [(spots.index(x), v) for x, v in series.get((params, f), []) if x in spots]
                if pts:
                    dodge = ((i * len(files) + j) - (n - 1) / 2) * 0.7 / n
                    spot.plot([x + dodge for x, _ in pts], [v for _, v in pts], ls="none", color=colour, ms=4,
                              marker=markers[j % len(markers)], zorder=3,
                              label=f"{label}, {run_name(r, f)} (at {', '.join(map(str, spots))})")
        spot.set_xticks(range(len(spots)))
        spot.set_xticklabels([str(x) for x in spots], fontsize=8)
        spot.set_xlim(-0.5, len(spots) - 0.5)
        spot.set_xlabel("M = N = K, every run")
        spot.grid(True, axis="y", color="#e4e4e4", lw=0.6)
    fig.suptitle(f"Step {step.number} on {r.stem}: the two settings (the rest equal), every committed run",
                 fontsize=9.5, x=0.01, ha="left")
    setting_legend = ax.legend(handles=[Line2D([], [], color=c, lw=2, label=n) for c, n in
                                        zip((STEP_COLOUR, PEER_COLOUR), names)],
                               title="setting (colour)", loc="upper left", bbox_to_anchor=(0.0, -0.14), frameon=False,
                               fontsize=7.5, title_fontsize=7.5, borderaxespad=0, alignment="left")
    ax.add_artist(setting_legend)
    ax.legend(handles=[Line2D([], [], color="#444444", ls="none", marker=markers[j % len(markers)], ms=5,
                              label=run_name(r, f)) for j, f in enumerate(files)],
              title="run (marker)", loc="upper left", bbox_to_anchor=(0.35, -0.14), frameon=False, fontsize=7.5,
              title_fontsize=7.5, ncol=3, borderaxespad=0, alignment="left")
    fig.tight_layout()
    save(fig, path)
