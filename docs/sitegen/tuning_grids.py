"""The tables of steps 4 to 8 drawn from the tuning records (lab/tuning/: lab/tune.py's and
lab/variants.py's CSVs, the compiler reports NAME-ptxas.txt, the logs) and the results files
(docs/results/), Markdown for \\includedoc:
  - padding_waves.md: step 6 one below, at and one above a square size: padded sizes, work-groups,
    waves, and where the time goes;
  - tuning_step04.md, tuning_step05.md, tuning_step06.md: the fastest combination of each kind;
  - step04_vs_step03.md: why step 4 can be slower than step 3;
  - transpose_tile.md: TRANSPOSE_TILE and TRANSPOSE_PAD against the transpose's time;
  - wgsize.md: combinations refused for CL_KERNEL_WORK_GROUP_SIZE, measured later;
  - step08_grids.md: steps 7 and 8 with the same blocks, at grids of one and two work-groups per
    multiprocessor and at sizes whose last wave is partly full (the runs NAME-step8-grids.csv);
  - tuning_step07.md, tuning_step08.md: the fastest combination of each kind;
  - step08_variants.md: step 8's kernel variants (NAME-plain.csv, -unroll.csv, -prefetch.csv of
    lab/variants.py).
"""
import glob
import os
import re

from .arithmetic import workgroup_size
from .common import (fmt_gflops, fmt_num, fmt_pct, fmt_ratio, md_escape, median, parse_params, parse_parts, round_up,
                     size_short, size_text, write)
from .records import (SM_LIMITS, compute_units, device_groups, device_heading, device_listing, resident_groups,
                      tuning_for)

WAVE_G = (1, 2, 4, 8)  # work-groups resident per compute unit, for the waves of padding_snippet


def padding_snippet(results, steps, tuning_dir, ptxas):
    """Step 6 at the sizes around a multiple of its tiles: padded sizes, work-groups, the share of
    useful work, the waves, and where the time goes (the `parts`)."""
    step = next((s for s in steps if s.number == 6), None)
    out = []
    for r in results:
        if not step:
            break
        squares = {s[0] for s in r.sizes if s[0] == s[1] == s[2]}
        centres = sorted(c for c in squares if c - 1 in squares and c + 1 in squares)
        cus, log = compute_units(tuning_dir, r)
        for c in centres:
            centre = r.row(step.name, (c,) * 3)
            # The work-groups this kernel fits per unit, where the compiler report of the same
            # parameters says how many registers and how much local memory it takes
            report_path, report = ptxas.get(r.stem, (None, {}))
            report = report.get(step.name)
            fit = None
            if centre and report and report["params"] == centre["params"]:
                P = parse_params(centre["params"])
                work_items = (P["TSM"] // P["WPTM"]) * (P["TSN"] // P["WPTN"])
                fit = resident_groups(report, "sgemm", work_items)
            wave_g = sorted(set(WAVE_G) | ({fit[0]} if fit else set()))
            rows, waves = [], []
            for s in ((c - 1,) * 3, (c,) * 3, (c + 1,) * 3):
                row = r.row(step.name, s)
                if not row or row["status"] != "PASS":
                    continue
                P = parse_params(row["params"])
                try:
                    tsm, tsn, tsk = P["TSM"], P["TSN"], P["TSK"]
                except KeyError:
                    continue
                mp, np_, kp = round_up(s[0], tsm), round_up(s[1], tsn), round_up(s[2], tsk)
                groups = (mp // tsm) * (np_ // tsn)
                parts = parse_parts(row["parts"])
                sg = sum(t for name, t, _ in parts if name == "sgemm")
                helpers = sum(t for name, t, _ in parts if name != "sgemm")
                total = float(row["median_ms"])
                waves.append(f"| {s[0]} | {mp} x {np_} x {kp} | {fmt_pct(100.0 * s[0] * s[1] * s[2] / (mp * np_ * kp))} | "
                             f"{groups} | " + ("".join(f"{-(-groups // (cus * g))} ({groups - (-(-groups // (cus * g)) - 1) * cus * g}) | "
                                                       for g in wave_g) if cus else ""))
                rows.append(f"| {s[0]} | {sg:.4g} | {fmt_gflops(2.0 * mp * np_ * kp / (sg * 1e6))} | {helpers:.4g} | "
                            f"{fmt_pct(100.0 * helpers / total)} | {fmt_gflops(float(row['gflops']))} |")
            if rows:
                out.append(f"**{md_escape(r.stem)}**, {r.where()}, step 6 with "
                           f"{md_escape(r.row(step.name, (c,) * 3)['params'])}. The padded problem and its waves:\n")
                out.append("| M=N=K | padded to Mp x Np x Kp | useful share of the multiply-adds | work-groups "
                           "ceil(M/TSM)·ceil(N/TSN) | "
                           + ("".join(f"waves (groups in the last) if {g} per unit"
                                      + (", this kernel" if fit and g == fit[0] else "") + " | "
                                      for g in wave_g) if cus else ""))
                out.append("|---:|---|---:|---:|" + ("---:|" * len(wave_g) if cus else ""))
                out += waves
                out.append("\nWhere the time goes:\n")
                out.append("| M=N=K | sgemm kernel, ms | sgemm's rate on the padded problem, GFLOPS | helper kernels, ms | "
                           "helpers' share of the time | GFLOPS (2MNK / total time) |")
                out.append("|---:|---:|---:|---:|---:|---:|")
                out += rows
                if cus:
                    out.append(f"\nA wave is what the device runs at once: {cus} compute units (the `--list-devices` "
                               f"listing in `lab/tuning/{log}`) times g work-groups resident on each; the columns "
                               "give ceil(work-groups / (units·g)) for a few g, and how many work-groups the last "
                               "wave holds.")
                if cus and fit:
                    g, name, regs, smem = fit
                    lim = SM_LIMITS[report["arch"]]
                    out.append(f"\n**This kernel: g = {g}.** The compiler report (`lab/tuning/"
                               f"{os.path.basename(report_path)}`, same parameters) gives the sgemm kernel {regs} "
                               f"registers per work-item and {smem} bytes of local memory per work-group of "
                               f"{work_items} work-items. One multiprocessor of this architecture ({report['arch']}) "
                               f"holds {lim['registers']} registers, {lim['warps']} warps, {lim['groups']} work-groups "
                               f"and {lim['smem'] // 1024} KiB of local memory; the limit here is the {name}: "
                               f"{g} work-groups at once, {g * cus} on the whole device.")
                out.append("")
    return ("\n".join(out) + "\n") if out else "No results file holds step 6 just below and above a square size.\n"


# Tuning files of lab/variants.py's kernel variants: NAME-plain.csv (the kernel as it is),
# NAME-unroll.csv, NAME-prefetch.csv
VARIANT_FILE = re.compile(r"(.+)-(plain|unroll|prefetch)\.csv$")


def grid_best(files, step_name, keys, size=None):
    """The fastest row of each kind (the values of `keys`) of a step in tuning files, {kind: (row,
    file name)}: the grids at one size (a file's rows of the step at several sizes, such as the
    reference rows of step 8 beside step 9's sweep, are not ranked with them), the kernel as it is
    (not a variant of lab/variants.py); only at `size` where one is given. The table of kinds and
    the sentence that quotes their count (step 4's) both take them from here, so they count alike."""
    best = {}
    for t in files:
        m = VARIANT_FILE.match(t.name)
        if m and m.group(2) != "plain":
            continue
        if len({row["_size"] for row in t.rows if row["step"] == step_name}) > 1:
            continue
        for row in t.rows:
            if row["step"] != step_name or (size and row["_size"] != size):
                continue
            key = tuple(row["_params"].get(k) for k in keys)
            if key not in best or row["_gflops"] > best[key][0]["_gflops"]:
                best[key] = (row, t.name)
    return best


def recorded_elsewhere(results, files):
    """For tuning files measured on a device that no results file was recorded on: the sentence
    that says so and names the recorded devices of the same platform, with their headline sizes
    (a reader compares the table with the sweep beside it otherwise)."""
    platforms = {p for t in files for p, _ in t.device}
    same = [r for r in results if r.platform in platforms]
    dates = sorted(row["date"][:10] for t in files for row in t.rows)
    sizes = sorted({row["_size"] for t in files for row in t.rows}, key=lambda s: s[0] * s[1] * s[2])
    text = (f"Measured on {dates[0]}" + (f" to {dates[-1]}" if dates[-1] != dates[0] else "")
            + f" at {', '.join(size_short(s) for s in sizes)}, on a device that no results file here was recorded on")
    if same:
        text += (": not the device of " + ", ".join(f"`{r.stem}.csv` ({md_escape(r.device)}, headline size "
                                                   f"{size_short(r.headline)})" for r in same)
                 + ", so read its rates against each other, not against that file's")
    return text + "."


def tuning_grid_snippet(results, tuning, step_name, keys, title, limit=10):
    """The tuning runs of one step on each device, the fastest measurement of each value of `keys`
    (grid_best())."""
    out = []
    recorded = {(r.platform, r.device) for r in results}
    for label, device, files in device_groups(results, tuning):
        best = grid_best(files, step_name, keys)
        if not best:
            continue
        runs = sorted({name for _, name in best.values()})
        kinds = f"({', '.join(keys)})"
        out.append(f"{device_heading(label, device)}: {title}, the fastest combination for each {kinds} "
                   f"over the tuning runs `lab/tuning/{{{', '.join(runs)}}}` "
                   "(measured without verification, except each run's best; all at the size shown)."
                   + ("" if any(t.device <= recorded for t in files) else " " + recorded_elsewhere(results, files))
                   + "\n")
        if len(best) > limit:
            out.append(f"The fastest {limit} of the {len(best)} kinds {kinds} measured:\n")
            out.insert(-1, "")
        out.append("| " + " | ".join(keys) + " | GFLOPS | size | other parameters | run |")
        out.append("|" + "---:|" * len(keys) + "---:|---|---|---|")
        for key, (row, name) in sorted(best.items(), key=lambda kv: -kv[1][0]["_gflops"])[:limit]:
            others = " ".join(f"{k}={v}" for k, v in row["_params"].items() if k not in keys)
            out.append("| " + " | ".join(str(v) for v in key) + f" | {fmt_gflops(row['_gflops'])} | "
                       f"{size_short(row['_size'])} | {md_escape(others) or '-'} | {md_escape(name)} |")
        out.append("")
    return ("\n".join(out) + "\n") if out else "No tuning run of this step is recorded.\n"


def variants_snippet(tuning, steps, limit=8):
    """The kernel variants of lab/variants.py against the kernels as they are: for every group
    of tuning files NAME-plain.csv, NAME-unroll.csv, ... the GFLOPS of each combination in each."""
    groups = {}
    for t in tuning:
        m = VARIANT_FILE.match(t.name)
        if m:
            groups.setdefault(m.group(1), {})[m.group(2)] = t
    out = []
    for prefix, files in sorted(groups.items()):
        variants = [v for v in ("plain", "unroll", "prefetch") if v in files]
        device = ", ".join(sorted(d for _, d in set().union(*(f.device for f in files.values()))))
        for s in steps:
            cells = {}
            for v in variants:
                for row in files[v].rows:
                    if row["step"] == s.name:
                        key = (row["params"], row["_size"])
                        cells.setdefault(key, {})[v] = max(row["_gflops"], cells.get(key, {}).get(v, 0))
            if not cells:
                continue
            out.append(f"**{md_escape(device)}**, step {s.number}, `lab/tuning/{prefix}-{{{','.join(variants)}}}.csv` "
                       "(measured without verification): GFLOPS of each combination as the kernel is (plain) and as "
                       "each variant of `lab/variants.py`" + (f"; the fastest {limit} plain ones" if len(cells) > limit
                                                                  else "") + ":\n")
            out.append("| parameters | size | " + " | ".join(variants) + " | best variant / plain |")
            out.append("|---|---|" + "---:|" * len(variants) + "---:|")
            ranked = sorted(cells.items(), key=lambda kv: -kv[1].get("plain", 0))[:limit]
            for (params, size), got in ranked:
                best_other = max((got[v] for v in variants if v != "plain" and v in got), default=None)
                ratio = fmt_ratio(best_other / got["plain"]) if best_other and got.get("plain") else "-"
                out.append(f"| {md_escape(params)} | {size_short(size)} | "
                           + " | ".join(fmt_gflops(got[v]) if v in got else "-" for v in variants) + f" | {ratio} |")
            out.append("")
    return ("\n".join(out) + "\n") if out else "No tuning runs of kernel variants are recorded.\n"


# Runs of steps 7 and 8 with the same tiles and blocks at chosen grids: NAME-step8-grids.csv
GRIDS_FILE = re.compile(r".+-step8-grids\.csv$")


def warp_shape(step_name, P):
    """(rows, columns) of work-items that one warp of 32 covers in the work-group's block: step 8
    chooses it (WTM/WPTM x WTN/WPTN); before it, it follows from the block (32/RTSN rows of RTSN)."""
    if "WTM" in P:
        return P["WTM"] // P["WPTM"], P["WTN"] // P["WPTN"]
    across = min(P["TSN"] // P["WPTN"], 32)
    return max(32 // across, 1), across


def grids_snippet(tuning, steps):
    """Steps 7 and 8 with the same work-group tiles and WPTM x WPTN blocks, each block in step 7's
    layout and in step 8's warp tiles: the sgemm's median time at each size of a NAME-step8-grids.csv
    run, the blocks of C per compute unit, and step 8's speed over step 7's for each block."""
    names = {s.name: s.number for s in steps}
    out = []
    for t in tuning:
        if not GRIDS_FILE.match(t.name):
            continue
        rows = [row for row in t.rows if row["step"] in names]
        if not rows:
            continue
        first = rows[0]
        listing = device_listing(os.path.dirname(t.path), first["device"], first["driver"])
        cus = listing[0] if listing else None
        cols, cells = [], {}
        for row in rows:
            P = row["_params"]
            key = (row["step"], P["WPTM"], P["WPTN"])
            if key not in cols:
                cols.append(key)
            sgemm = dict((name, median) for name, median, _ in parse_parts(row["parts"])).get("sgemm")
            if sgemm:
                cells.setdefault(row["_size"], {})[key] = (sgemm, P)
        pairs = sorted({(k[1], k[2]) for k in cols if any(c[0] != k[0] and c[1:] == k[1:] for c in cols)})
        steps_in = sorted({k[0] for k in cols}, key=lambda n: names[n])
        if len(steps_in) != 2:
            continue
        older, newer = steps_in
        P0 = next(iter(next(iter(cells.values())).values()))[1]
        dates = sorted(row["date"] for row in rows)
        start, end = dates[0][11:16], dates[-1][11:16]
        when = f"at {start}" if start == end else f"{start} to {end}"
        verified = "every row verified" if all(row["status"] == "PASS" for row in rows) else "not every row verified"
        out.append(f"**{md_escape(first['device'])}**, driver {md_escape(first['driver'])}, "
                   f"`lab/tuning/{md_escape(t.name)}` ({dates[0][:10]}, {when} UTC, "
                   f"{verified}): the sgemm's median time in ms, {P0['TSM']} x {P0['TSN']} x {P0['TSK']} "
                   "tiles; each column a step and a WPTM x WPTN block, with the rows x columns of work-items "
                   "that one warp of 32 covers" + (f"; {cus} compute units" if cus else "") + ":\n")
        heads = []
        for step, wm, wn in cols:
            P = next(c[1] for c in (cell.get((step, wm, wn)) for cell in cells.values()) if c)
            r, c = warp_shape(step, P)
            heads.append(f"step {names[step]}, {wm} x {wn} (warp {r} x {c})")
        ratio_heads = [f"{wm} x {wn}: speed of step {names[newer]} / step {names[older]}" for wm, wn in pairs]
        out.append("| size | blocks | blocks per unit | " + " | ".join(heads + ratio_heads) + " |")
        out.append("|---|---:|---:|" + "---:|" * (len(heads) + len(ratio_heads)))
        for size, got in sorted(cells.items(), key=lambda kv: kv[0][0] * kv[0][1] * kv[0][2]):
            block_rows, block_cols = round_up(size[0], P0["TSM"]) // P0["TSM"], round_up(size[1], P0["TSN"]) // P0["TSN"]
            blocks = block_rows * block_cols
            per_unit = fmt_num(blocks / cus) if cus else "-"
            times = [f"{got[k][0]:.3f}" if k in got else "-" for k in cols]
            ratios = []
            for wm, wn in pairs:
                a, b = got.get((older, wm, wn)), got.get((newer, wm, wn))
                ratios.append(fmt_ratio(a[0] / b[0]) if a and b else "-")
            out.append(f"| {size_short(size)} | {block_rows} x {block_cols} = {blocks} | {per_unit} | " + " | ".join(times + ratios) + " |")
        out.append("")
    return ("\n".join(out) + "\n") if out else "No run of steps 7 and 8 at chosen grids is recorded.\n"


def tiles_by_size_snippet(results, tuning, step_name):
    """A step's tuning runs over several sizes: for a run over a few sizes, the GFLOPS of every
    combination at every size and its rate one above a square size over the rate there; for a
    run over many sizes, each combination's mean, lowest and highest rate over them."""
    out = []
    for r in results:
        files = [t for t in tuning_for(tuning, r)
                 if len({row["_size"] for row in t.rows if row["step"] == step_name}) > 1]
        for t in files:
            out += tiles_by_size_table(r, t, step_name)
    return ("\n".join(out) + "\n") if out else "No tuning run of this step covers several sizes.\n"


def tiles_by_size_table(r, t, step_name):
    """The lines of one tuning file's table for tiles_by_size_snippet()."""
    out = []
    rows = [row for row in t.rows if row["step"] == step_name]
    sizes = sorted({row["_size"] for row in rows}, key=lambda s: (s[0] * s[1] * s[2], s))
    table = {}
    for row in rows:
        cell = table.setdefault(row["params"], {})
        if row["_size"] not in cell or row["_gflops"] > cell[row["_size"]]:
            cell[row["_size"]] = row["_gflops"]
    if len(sizes) > 6:
        out.append(f"**{md_escape(r.stem)}**, {md_escape(r.device)}, `lab/tuning/{t.name}` (measured without "
                   f"verification), each combination over {len(sizes)} sizes from {size_short(sizes[0])} to "
                   f"{size_short(sizes[-1])}:\n")
        out.append("| parameters | mean GFLOPS | lowest (at) | highest (at) |")
        out.append("|---|---:|---:|---:|")
        for params, cell in sorted(table.items(), key=lambda kv: -min(kv[1].values())):
            low = min(cell, key=cell.get)
            high = max(cell, key=cell.get)
            out.append(f"| {md_escape(params)} | {fmt_gflops(sum(cell.values()) / len(cell))} | "
                       f"{fmt_gflops(cell[low])} ({size_short(low)}) | {fmt_gflops(cell[high])} ({size_short(high)}) |")
        out.append("")
        return out
    pairs = [((s[0] + d,) * 3, s) for s in sizes if s[0] == s[1] == s[2] for d in (-1, 1)
             if (s[0] + d,) * 3 in sizes and (s[0] - d,) * 3 in sizes]
    out.append(f"**{md_escape(r.stem)}**, {md_escape(r.device)}, `lab/tuning/{t.name}` (measured without "
               "verification), GFLOPS of each combination at each size:\n")
    out.append("| parameters | " + " | ".join(size_short(s) for s in sizes) + " | "
               + " | ".join(f"{size_short(a)} / {size_short(b)}" for a, b in pairs) + " |")
    out.append("|---|" + "---:|" * (len(sizes) + len(pairs)))
    for params, cell in sorted(table.items(), key=lambda kv: -max(kv[1].values())):
        ratios = [fmt_ratio(cell[a] / cell[b]) if a in cell and b in cell else "-" for a, b in pairs]
        out.append(f"| {md_escape(params)} | " + " | ".join(fmt_gflops(cell[s]) if s in cell else "-" for s in sizes)
                   + " | " + " | ".join(ratios) + " |")
    out.append("")
    return out


# The kinds of tile the tables of tuning runs rank (tuning_step04.md) and the sentence on step 4 counts
STEP4_KINDS = ("TSM", "TSN", "TSK", "WIDTH")


def step4_vs_step3_snippet(results, tuning, steps):
    """Why step 4 can be slower than step 3: its sgemm kernel alone, the transpose's time, and the
    best rate of each step in the tuning runs."""
    s3 = next((s for s in steps if s.number == 3), None)
    s4 = next((s for s in steps if s.number == 4), None)
    if not s3 or not s4:
        return "\n"
    out = []
    for r in results:
        g3, g4 = r.gflops(s3.name), r.gflops(s4.name)
        row = r.row(s4.name)
        if g3 is None or g4 is None:
            continue
        m, n, k = r.headline
        parts = parse_parts(row["parts"])
        sg = sum(t for name, t, _ in parts if name == "sgemm")
        tr = sum(t for name, t, _ in parts if name != "sgemm")
        line = (f"- **{md_escape(r.stem)}**, {r.where()}, {size_text(r.headline)}: step 3 {fmt_gflops(g3)} GFLOPS; "
                f"step 4 {fmt_gflops(g4)} GFLOPS ({fmt_ratio(g4 / g3)}), of which the transpose takes {tr:.4g} ms "
                f"({fmt_pct(100.0 * tr / float(row['median_ms']))} of its time); its sgemm kernel alone runs at "
                f"{fmt_gflops(2.0 * m * n * k / (sg * 1e6))} GFLOPS ({fmt_ratio(2.0 * m * n * k / (sg * 1e6) / g3)} "
                "step 3)")
        files = tuning_for(tuning, r)
        p3 = r.params(s3.name)
        same = [(x, t.name) for t in files for x in t.rows
                if x["step"] == s4.name and x["_size"] == r.headline and p3.get("TS")
                and all(x["_params"].get(k) == p3["TS"] for k in ("TSM", "TSN", "TSK"))
                and x["_params"].get("WIDTH") == p3.get("WIDTH")]
        if same:
            x, name = max(same, key=lambda y: y[0]["_gflops"])
            line += (f". With step 3's own tile, {md_escape(x['params'])} (`{name}`), step 4 measured "
                     f"{fmt_gflops(x['_gflops'])} GFLOPS")
        kinds4 = grid_best(files, s4.name, STEP4_KINDS, r.headline)
        if kinds4:
            # against step 3's rate above (its defaults, in the results file), not against the tuning
            # runs' own step 3, which may be an exercise's tile far from step 3's
            b4 = max(kinds4.values(), key=lambda b: b[0]["_gflops"])
            which = (f"the fastest of the {len(kinds4)} kinds of step-4 tile ({', '.join(STEP4_KINDS)}) measured"
                     if len(kinds4) > 1 else "the one step-4 tile measured")
            line += (f". In the tuning runs at this size, {which}, {md_escape(b4[0]['params'])} in `{b4[1]}`, ran "
                     f"at {fmt_gflops(b4[0]['_gflops'])} GFLOPS, {fmt_ratio(b4[0]['_gflops'] / g3)} step 3's rate above")
        out.append(line + ".")
    return ("\n".join(out) + "\n") if out else "No results file has verified runs of steps 3 and 4 at its headline size.\n"


def bank_ways(tile, pad, warp=32, banks=32):
    """How many work-items of a warp read the same local-memory bank (different words) when the
    transpose reads tile[tx][ty] (tx = get_local_id(0) fastest): the bank conflict's degree."""
    lanes = [(lane % tile, lane // tile) for lane in range(min(warp, tile * tile))]
    words = {}
    for tx, ty in lanes:
        addr = tx * (tile + pad) + ty
        words.setdefault(addr % banks, set()).add(addr)
    return max(len(v) for v in words.values())


def transpose_blocks(t):
    """Runs of consecutive step-4 rows of a tuning file that differ only in TRANSPOSE_TILE and
    TRANSPOSE_PAD (a grid over those two), each as {(tile, pad): the last row of that variant}."""
    blocks, current, current_key = [], {}, None
    for row in t.rows:
        if row["step"] != "kernel04_transpose":
            key = None
        else:
            key = (tuple(sorted((k, v) for k, v in row["_params"].items() if not k.startswith("TRANSPOSE_"))),
                   row["_size"])
        if key != current_key or key is None:
            if len(current) > 1:
                blocks.append((current_key, current))
            current, current_key = {}, key
        if key is not None:
            current[(row["_params"].get("TRANSPOSE_TILE"), row["_params"].get("TRANSPOSE_PAD"))] = row
    if len(current) > 1:
        blocks.append((current_key, current))
    return blocks


def transpose_snippet(results, tuning):
    """The transpose kernel with TRANSPOSE_TILE and TRANSPOSE_PAD varied, the rest fixed (the
    tuning run with the largest such grid): its time (the "transpose A" part), bandwidth and
    bank-conflict degree."""
    out = []
    for r in results:
        found = [(len(b[1]), i, t, b) for i, t in enumerate(tuning_for(tuning, r)) for b in transpose_blocks(t)]
        if not found:
            continue
        _, _, t, ((rest, size), variants) = max(found, key=lambda x: (x[0], x[1]))
        m, n, k = size
        out.append(f"**{md_escape(r.stem)}**, {md_escape(r.device)}, `lab/tuning/{t.name}`: step 4 at "
                   f"{size_text(size)} with {' '.join(f'{a}={b}' for a, b in rest)}; the transpose of A "
                   f"(M x K) reads and writes {fmt_num(8 * m * k / 2**20)} MiB"
                   + (f"; bench/peak's copy kernel measured {fmt_gflops(r.peak.copy)} GB/s on this device"
                      if r.peak else "") + ":\n")
        out.append("| TRANSPOSE_TILE | TRANSPOSE_PAD | local floats per tile row | work-items of a warp on one "
                   "bank when reading a column (1: no conflict) | transpose A, median ms | GB/s (read + write) |"
                   + (" % of the copy bandwidth |" if r.peak else "")
                   + " transpose's share of step 4's time | step 4 GFLOPS |")
        out.append("|---:|---:|---:|---:|---:|---:|" + ("---:|" if r.peak else "") + "---:|---:|")
        for (tile, pad), row in sorted(variants.items()):
            tr = sum(tm for name, tm, _ in parse_parts(row["parts"]) if name.startswith("transpose"))
            gbps = 8.0 * m * k / (tr * 1e6)
            out.append(f"| {tile} | {pad} | {tile + pad} | {bank_ways(tile, pad)} | {tr:.4g} | {fmt_gflops(gbps)} | "
                       + (f"{fmt_pct(100.0 * gbps / r.peak.copy)} | " if r.peak else "")
                       + f"{fmt_pct(100.0 * tr / float(row['median_ms']))} | {fmt_gflops(row['_gflops'])} |")
        out.append("")
    return ("\n".join(out) + "\n") if out else "No tuning run varies TRANSPOSE_TILE and TRANSPOSE_PAD.\n"


def wgsize_snippet(tuning_dir, tuning, results):
    """NVIDIA's CL_KERNEL_WORK_GROUP_SIZE: the combinations an early tuning run refused because of
    it (its log), what later runs measured for the same combinations (their CSVs), and which of
    them a results file ran and verified."""
    logs = sorted(glob.glob(os.path.join(tuning_dir or "", "*.log")))
    refused = {}  # log -> {(step, params)}
    reported = {}  # log -> {the CL_KERNEL_WORK_GROUP_SIZE values the refusals quote}
    for path in logs:
        step = None
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = re.match(r"tune: (\w+), \d+ combinations", line)
                if m:
                    step = m.group(1)
                m = re.match(r"\s+(.*?)\s+REFUSED: .*CL_KERNEL_WORK_GROUP_SIZE.*; parameters: (.*)$", line)
                if m and step:
                    refused.setdefault(os.path.basename(path), set()).add((step, m.group(2).strip()))
                    w = re.search(r"allows at most (\d+) work-items", line)
                    if w:
                        reported.setdefault(os.path.basename(path), set()).add(int(w.group(1)))
    if not refused:
        return "No tuning log records a refusal because of CL_KERNEL_WORK_GROUP_SIZE.\n"
    lines = ["| tuning log | combinations refused for CL_KERNEL_WORK_GROUP_SIZE | the value the driver reported "
             "| of these, measured in a later tuning run | largest work-group among those, work-items "
             "| of these, run and verified in a results file |", "|---|---:|---:|---:|---:|---|"]
    for log, combos in refused.items():
        csv_name = log[:-len(".log")] + ".csv"
        later = {(row["step"], row["params"]) for t in tuning if t.name != csv_name for row in t.rows}
        measured = [c for c in combos if c in later]
        wgs = [workgroup_size(step, parse_params(params)) for step, params in measured]
        verified = []
        devices = set().union(*[t.device for t in tuning if t.name == csv_name]) if any(
            t.name == csv_name for t in tuning) else set()
        for r in results:
            if (r.platform, r.device) not in devices:
                continue
            for step, params in sorted(combos):
                rows = [x for x in r.rows if x["step"] == step and x["params"] == params and x["status"] == "PASS"]
                if rows:
                    verified.append(f"`{step}` {md_escape(params)} ({len(rows)} sizes in `{r.stem}.csv`)")
        values = ", ".join(str(v) for v in sorted(reported.get(log, ()))) or "-"
        lines.append(f"| `lab/tuning/{log}` | {len(combos)} | {values} | {len(measured)} | "
                     f"{max((w for w in wgs if isinstance(w, int)), default='-')} | {'; '.join(verified) or '-'} |")
    return "\n".join(lines) + "\n"


def render(ctx):
    r, t = ctx.results, ctx.tuning
    snippets = {
        "padding_waves.md": padding_snippet(r, ctx.steps, ctx.tuning_dir, ctx.ptxas),
        "step04_vs_step03.md": step4_vs_step3_snippet(r, t, ctx.steps),
        "transpose_tile.md": transpose_snippet(r, t),
        "tuning_step04.md": tuning_grid_snippet(r, t, "kernel04_transpose", list(STEP4_KINDS), "step 4"),
        "tuning_step05.md": tuning_grid_snippet(r, t, "kernel05_register_blocking", ["WPTM", "WPTN", "WIDTH"],
                                                "step 5"),
        "tuning_step06.md": tiles_by_size_snippet(r, t, "kernel06_padding"),
        "tuning_step07.md": tuning_grid_snippet(r, t, "kernel07_double_buffering",
                                                ["TSM", "TSN", "TSK", "WPTM", "WPTN"], "step 7"),
        "tuning_step08.md": tuning_grid_snippet(r, t, "kernel08_warp_tiling",
                                                ["TSM", "TSN", "TSK", "WTM", "WTN", "WPTM", "WPTN"], "step 8"),
        "step08_variants.md": variants_snippet(t, ctx.steps),
        "step08_grids.md": grids_snippet(t, ctx.steps),
        "wgsize.md": wgsize_snippet(ctx.tuning_dir, t, r),
    }
    for name, text in snippets.items():
        write(os.path.join(ctx.out, name), text)
