"""The plots of the results, drawn by gnuplot as SVG: results_all.svg (all devices, log scale),
results_NAME.svg (bars at the headline size), sweep_NAME.svg (GFLOPS against the size, log-log,
for a sweep); results_all.md and results_plot.md show them.
"""
import os
import subprocess

from .common import NO_RESULTS, ToolError, fmt_gflops, is_step, md_escape, short_name, size_text, write

SVG_TERMINAL = 'set terminal svg size {w},{h} dynamic font "Helvetica,13" background "#ffffff"'


def gp_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def run_gnuplot(gnuplot, script_path, out_dir):
    proc = subprocess.run([gnuplot, os.path.basename(script_path)], cwd=out_dir, capture_output=True, text=True)
    if proc.returncode != 0 or proc.stderr.strip():
        raise ToolError(f"gnuplot {script_path} failed: {proc.stderr.strip()}")


def plot_device(r, out_dir, gnuplot):
    """Bars: GFLOPS of each program at the headline size on one device (linear scale)."""
    data = []
    for i, p in enumerate(r.programs):
        g = r.gflops(p)
        if g is not None:
            data.append(f"{len(data)}\t{g}\t{gp_string(short_name(p))}\t{0 if is_step(p) else 1}\t"
                        f"{gp_string(fmt_gflops(g))}")
    write(os.path.join(out_dir, f"results_{r.stem}.dat"), "\n".join(data) + "\n")
    peak, top = "", "*"
    if r.peak:  # the measured FMA peak as a dashed line, the scale up to it
        top = repr(1.12 * max([r.peak.fma] + [r.gflops(p) or 0 for p in r.programs]))
        peak = (f'set arrow from graph 0, first {r.peak.fma!r} to graph 1, first {r.peak.fma!r} nohead dt 2 lw 1.5 '
                f'lc rgb "#555555"\nset label {gp_string(f"measured FMA peak {fmt_gflops(r.peak.fma)} (bench/peak)")} '
                f'at graph 0.01, first {r.peak.fma!r} offset 0,0.6 font ",10" tc rgb "#555555" noenhanced')
    script = f"""{SVG_TERMINAL.format(w=760, h=400)}
set output "results_{r.stem}.svg"
set title {gp_string(f"{r.device} ({r.platform}, driver {r.driver}), {r.dates}")} noenhanced font ",12"
set ylabel "GFLOPS (median)"
set xlabel {gp_string(size_text(r.headline) + "; blue: steps, orange: peers")} noenhanced
set style fill solid 0.85 border -1
set boxwidth 0.65
set grid ytics lc rgb "#dddddd"
set yrange [0:{top}]
set xrange [-0.6:{len(data) - 0.4}]
set offsets 0, 0, graph 0.12, 0
{peak}
set xtics noenhanced rotate by -25
set key off
plot "results_{r.stem}.dat" using 1:2:($4 == 0 ? 0x3b6ea5 : 0xe8862a):xtic(3) with boxes lc rgb variable, \\
     "" using 1:2:5 with labels offset 0,0.8 font ",11"
"""
    path = os.path.join(out_dir, f"results_{r.stem}.gp")
    write(path, script)
    run_gnuplot(gnuplot, path, out_dir)


def plot_all(results, out_dir, gnuplot):
    """All devices on one plot, log scale: one line of points per device across steps and peers."""
    programs = []
    for r in results:
        for p in r.programs:
            if p not in programs:
                programs.append(p)
    programs.sort(key=lambda p: (not is_step(p), p if is_step(p) else ""))
    rows = []
    for i, p in enumerate(programs):
        cells = [str(i)]
        for r in results:
            g = r.gflops(p)
            cells.append(repr(g) if g is not None else "NaN")
        rows.append("\t".join(cells))
    write(os.path.join(out_dir, "results_all.dat"), "\n".join(rows) + "\n")
    nsteps = sum(1 for p in programs if is_step(p))
    plots = []
    for j, r in enumerate(results):
        col = 2 + j
        title = f"{r.stem}: {r.device}, {size_text(r.headline)}"
        plots.append(f'"results_all.dat" using 1:{col} every ::0::{nsteps - 1} with linespoints '
                     f'lw 2 pt 7 ps 1.2 lc {j + 1} title {gp_string(title)}')
        if nsteps < len(programs):
            plots.append(f'"results_all.dat" using 1:{col} every ::{nsteps} with points pt 5 ps 1.4 '
                         f'lc {j + 1} notitle')
    xtics = ", ".join(f"{gp_string(short_name(p))} {i}" for i, p in enumerate(programs))
    separator = (f"set arrow from {nsteps - 0.5}, graph 0 to {nsteps - 0.5}, graph 1 nohead dt 2 lc rgb '#888888'"
                 if nsteps < len(programs) else "")
    script = f"""{SVG_TERMINAL.format(w=760, h=440 + 18 * len(results))}
set output "results_all.svg"
set title "GFLOPS of each step (lines) and peer (squares, right of the dashed line) on every recorded device"\
 font ",12"
set ylabel "GFLOPS (median, log scale)"
set logscale y
set format y "%g"
set grid ytics mytics lc rgb "#dddddd"
set xtics ({xtics}) noenhanced rotate by -25
set offsets 0.4, 0.4, 0, 0
set datafile missing "NaN"
set key noenhanced below left Left reverse font ",11"
{separator}
plot {", ".join(plots)}
"""
    path = os.path.join(out_dir, "results_all.gp")
    write(path, script)
    run_gnuplot(gnuplot, path, out_dir)


# Line colours of the sweep plot, one per program (ten distinct ones before any repeats)
PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#7f7f7f", "#17becf", "#000000",
           "#e377c2"]


def plot_sweep(r, out_dir, gnuplot):
    """GFLOPS against the square problem size, one line per program, log-log; the measured rates
    only (a size a program did not run at is no point), UNVERIFIED ones as open points."""
    squares = [s for s in r.sizes if s[0] == s[1] == s[2]]
    blocks, plots = [], []
    for p in r.programs:
        points = []
        for s in squares:
            g, verified = r.measured(p, s)
            if g is not None:
                points.append(f"{s[0]}\t{g!r}\t{7 if verified else 6}")
        if points:
            plots.append((p, len(blocks)))
            blocks.append("\n".join(points))
    write(os.path.join(out_dir, f"sweep_{r.stem}.dat"), "\n\n\n".join(blocks) + "\n")
    lines = []
    for j, (p, index) in enumerate(plots):
        dash = "" if is_step(p) else " dt 2"
        lines.append(f'"sweep_{r.stem}.dat" index {index} using 1:2:3 with linespoints lw 2{dash} pt variable '
                     f'ps 0.8 lc rgb "{PALETTE[j % len(PALETTE)]}" title {gp_string(short_name(p))}')
    xtics = ", ".join(f'"{s[0]}" {s[0]}' for s in squares if s[0] & (s[0] - 1) == 0 or s == max(squares))
    # two lines: a device's name can be longer than the plot is wide
    title = gp_string(f"{r.stem}: GFLOPS against M = N = K (open points: UNVERIFIED)@NL@{r.device}, {r.dates}")
    title = title.replace("@NL@", "\\n")
    script = f"""{SVG_TERMINAL.format(w=800, h=460)}
set output "sweep_{r.stem}.svg"
set title {title} noenhanced font ",12"
set xlabel "M = N = K (log scale)"
set ylabel "GFLOPS (median, log scale)"
set logscale xy
set format y "%g"
set xtics ({xtics})
set grid xtics ytics mytics lc rgb "#dddddd"
set offsets graph 0.03, graph 0.03, 0, 0
set key noenhanced outside right font ",11"
plot {", ".join(lines)}
"""
    path = os.path.join(out_dir, f"sweep_{r.stem}.gp")
    write(path, script)
    run_gnuplot(gnuplot, path, out_dir)



def render(ctx):
    plots = []
    write(os.path.join(ctx.out, "results_all.md"), NO_RESULTS)
    if ctx.results:
        plot_all(ctx.results, ctx.out, ctx.gnuplot)
        write(os.path.join(ctx.out, "results_all.md"), '\\image html results_all.svg "GFLOPS of every step '
              'and peer on every recorded device, at each file\'s headline size (log scale)"\n')
        for r in ctx.results:
            plot_device(r, ctx.out, ctx.gnuplot)
            plots.append(f'\\image html results_{r.stem}.svg "{md_escape(r.stem)}: GFLOPS of each step and peer at '
                         f'{size_text(r.headline)}"')
            if sum(s[0] == s[1] == s[2] for s in r.sizes) > 1:
                plot_sweep(r, ctx.out, ctx.gnuplot)
                plots.append(f'\\image html sweep_{r.stem}.svg "{md_escape(r.stem)}: GFLOPS against the size '
                             '(log-log; open points: UNVERIFIED)"')
    write(os.path.join(ctx.out, "results_plot.md"), "\n\n".join(plots) + "\n")
