"""The tables drawn from the tuning records (Markdown for \\includedoc):
  - padding_waves.md: step 6 one below, at and one above a square size: padded sizes, work-groups,
    waves, and where the time goes;
  - tuning_step04.md, tuning_step05.md, tuning_step06.md: the fastest combination of each kind;
  - step04_vs_step03.md: why step 4 can be slower than step 3;
  - transpose_tile.md: TRANSPOSE_TILE and TRANSPOSE_PAD against the transpose's time;
  - wgsize.md: combinations refused for CL_KERNEL_WORK_GROUP_SIZE, measured later;
  - tuning_step09.md: step 9's SLICES against the problem size, the host's choice beside every
    value forced and step 8, and SPLIT_ROWS forced beside the host's rows (the tuning runs, with
    the labels of their logs);
  - step09_model.md: the host's model of the waves (gemm_split_k_cost(), stepdefs.SplitK.cost())
    at a few sizes of the runs of the current kernel, beside what each split measured;
  - step09_choice.md, step10_choice.md: what the host chooses for step 9 (step 10) on each recorded
    device at each size of its results file;
  - step08_grids.md: steps 7 and 8 with the same blocks, at grids of one and two work-groups per
    multiprocessor and at sizes whose last wave is partly full (the runs NAME-step8-grids.csv);
  - step10_gap.md: step 10 (the last FP32 step) against cuBLAS at every size of each sweep,
    its sgemm kernel and its helper kernels apart;
  - step10_copies.md: step 10 with one change at a time against its defaults and step 9 (the runs
    NAME-async-copy.csv), with each build's registers;
  - step10_blocks.md: step 10 with smaller blocks than its defaults at each size, beside step 9 and
    cuBLAS (the runs NAME-tiles-by-size.csv): what a block chosen by problem size could give;
  - step11_fragment_reads.md, step11_a_rows.md, step11_stores.md, step11_store_forms.md,
    step11_a_scalar.md, step11_two_acc.md, step11_ldmatrix.md: step 11's variants beside the
    kernel, from the logs NAME-step11-fragments.log, -a-rows.log, -stores.log, -store-forms.log,
    -a-scalar.log, -two-acc.log and -ldmatrix.log of bench/exp_step11_costs.sh: its fragments read
    two floats at a time; A read as it is instead of transposed; C stored two or four floats at a
    time; the float2 stores written other ways, beside the kernel before them; A as it is, read one
    float at a time; two sets of accumulators; A as it is, read by ldmatrix.
"""
import glob
import os
import re

from . import stepdefs
from .arithmetic import workgroup_size
from .common import (InputError, fmt_gflops, fmt_num, fmt_pct, fmt_ratio, md_escape, parse_params, parse_parts,
                     previous_step, round_up,
                     size_short, size_text, write)
from .params import device_class
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
                               f"listing in `bench/tuning/{log}`) times g work-groups resident on each; the columns "
                               "give ceil(work-groups / (units·g)) for a few g, and how many work-groups the last "
                               "wave holds.")
                if cus and fit:
                    g, name, regs, smem = fit
                    lim = SM_LIMITS[report["arch"]]
                    out.append(f"\n**This kernel: g = {g}.** The compiler report (`bench/tuning/"
                               f"{os.path.basename(report_path)}`, same parameters) gives the sgemm kernel {regs} "
                               f"registers per work-item and {smem} bytes of local memory per work-group of "
                               f"{work_items} work-items. One multiprocessor of this architecture ({report['arch']}) "
                               f"holds {lim['registers']} registers, {lim['warps']} warps, {lim['groups']} work-groups "
                               f"and {lim['smem'] // 1024} KiB of local memory; the limit here is the {name}: "
                               f"{g} work-groups at once, {g * cus} on the whole device.")
                out.append("")
    return ("\n".join(out) + "\n") if out else "No results file holds step 6 just below and above a square size.\n"


# Tuning files of bench/variants.py's kernel variants: NAME-plain.csv (the kernel as it is),
# NAME-unroll.csv, NAME-prefetch.csv
VARIANT_FILE = re.compile(r"(.+)-(plain|unroll|prefetch)\.csv$")


def grid_best(files, step_name, keys, size=None):
    """The fastest row of each kind (the values of `keys`) of a step in tuning files, {kind: (row,
    file name)}: the grids at one size (a file's rows of the step at several sizes, such as the
    reference rows of step 8 beside step 9's sweep, are not ranked with them), the kernel as it is
    (not a variant of bench/variants.py); only at `size` where one is given. The table of kinds and
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
                   f"over the tuning runs `bench/tuning/{{{', '.join(runs)}}}` "
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
    """The kernel variants of bench/variants.py against the kernels as they are: for every group
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
            out.append(f"**{md_escape(device)}**, step {s.number}, `bench/tuning/{prefix}-{{{','.join(variants)}}}.csv` "
                       "(measured without verification): GFLOPS of each combination as the kernel is (plain) and as "
                       "each variant of `bench/variants.py`" + (f"; the fastest {limit} plain ones" if len(cells) > limit
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
                   f"`bench/tuning/{md_escape(t.name)}` ({dates[0][:10]}, {when} UTC, "
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
        out.append(f"**{md_escape(r.stem)}**, {md_escape(r.device)}, `bench/tuning/{t.name}` (measured without "
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
    out.append(f"**{md_escape(r.stem)}**, {md_escape(r.device)}, `bench/tuning/{t.name}` (measured without "
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
STEP3_KINDS = ("TS", "WIDTH")
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
        kinds3 = grid_best(files, s3.name, STEP3_KINDS, r.headline)
        if kinds3 and kinds4:
            b4 = max(kinds4.values(), key=lambda b: b[0]["_gflops"])
            b3 = max(kinds3.values(), key=lambda b: b[0]["_gflops"])
            line += (f". In the tuning runs at this size, the fastest of the {len(kinds4)} kinds of step-4 tile "
                     f"({', '.join(STEP4_KINDS)}) measured, {md_escape(b4[0]['params'])} in `{b4[1]}`, ran at "
                     f"{fmt_gflops(b4[0]['_gflops'])} GFLOPS, {fmt_ratio(b4[0]['_gflops'] / b3[0]['_gflops'])} the "
                     f"fastest step-3 combination ({md_escape(b3[0]['params'])}, `{b3[1]}`, "
                     f"{fmt_gflops(b3[0]['_gflops'])} GFLOPS)")
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
        out.append(f"**{md_escape(r.stem)}**, {md_escape(r.device)}, `bench/tuning/{t.name}`: step 4 at "
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
        lines.append(f"| `bench/tuning/{log}` | {len(combos)} | {values} | {len(measured)} | "
                     f"{max((w for w in wgs if isinstance(w, int)), default='-')} | {'; '.join(verified) or '-'} |")
    return "\n".join(lines) + "\n"



# bench/tune.py's log: a sweep's heading, and a combination that ran
SWEEP_LINE = re.compile(r"tune: (\w+), \d+ combinations at (\S+)$")
COMBO_LINE = re.compile(r"  (\S.*?)\s+([0-9.]+) GFLOPS  \(")


def tuning_labels(t):
    """The combination each measured row of tuning file t ran as, as bench/tune.py's log beside it
    (NAME.log) names it: its -D values, `SLICES=0` where the row's params report the host's choice.
    {id(row): label}, or {} where there is no log. The log's combinations are paired with the CSV's
    rows of the same step and size in order, and must agree with them to the log's 0.1 GFLOPS."""
    log = t.path[:-len(".csv")] + ".log"
    if not os.path.isfile(log):
        return {}
    entries, key = {}, None
    with open(log, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = SWEEP_LINE.match(line.rstrip("\n"))
            if m:
                dims = [int(x) for x in m.group(2).split("x")]
                key = (m.group(1), tuple(dims * 3 if len(dims) == 1 else dims))
                continue
            m = COMBO_LINE.match(line) if key else None
            if m:
                entries.setdefault(key, []).append((m.group(1), float(m.group(2))))
            elif not line.startswith("  "):
                key = None
    out = {}
    for (step, size), combos in entries.items():
        rows = [row for row in t.rows if row["step"] == step and row["_size"] == size
                and "verified best" not in row["status"]]
        if len(rows) != len(combos) or any(abs(row["_gflops"] - g) > 0.051 for row, (_, g) in zip(rows, combos)):
            raise InputError(f"{log}: its combinations of {step} at {size_short(size)} are not the rows of "
                             f"{t.name} (bench/tune.py writes both)")
        for row, (label, _) in zip(rows, combos):
            out[id(row)] = label
    return out


class SplitRun:
    """One tuning run of a step whose host chooses SLICES and SPLIT_ROWS (step 9) over several sizes,
    with the step before it. `cells`: {size: {"prev": GFLOPS of the step before, "host": (SLICES,
    SPLIT_ROWS or None, GFLOPS) of the host's choice, s: GFLOPS with SLICES=s forced and the host's
    rows, ("rows", q, s): GFLOPS with SPLIT_ROWS=q forced too (q at most Mp/TSM)}}; `first_version`:
    the run's params lack SPLIT_ROWS (the kernel before it, which split every row of blocks);
    `listing`: the device's (compute units, largest allocation, log) or None; `split_rows`: {size: the
    SPLIT_ROWS its rows with the host's rows and more than one slice report}."""

    def __init__(self, label, device, t, step, prev, cells, listing, split_rows):
        self.label, self.device, self.t, self.step, self.prev = label, device, t, step, prev
        self.cells, self.listing, self.split_rows = cells, listing, split_rows
        self.P = next(row["_params"] for row in t.rows if row["step"] == step.name)
        self.first_version = "SPLIT_ROWS" not in self.P
        self.date = max(row["date"] for row in t.rows)

    def block_rows(self, size):
        return round_up(size[0], self.P["TSM"]) // self.P["TSM"]

    def blocks(self, size):
        return self.block_rows(size) * (round_up(size[1], self.P["TSN"]) // self.P["TSN"])

    def dev(self):
        return stepdefs.Device(self.listing[0], self.listing[1]) if self.listing else None


def split_runs(results, tuning, steps):
    """The SplitRuns of the tuning records, the newest first. Which row ran as what comes from the
    log beside each CSV (tuning_labels()): `SLICES=0` (and `SPLIT_ROWS=0`) is the host's choice."""
    out = []
    groups = device_groups(results, tuning)
    for s in steps:
        d = stepdefs.get(s.name)
        if not d or "SLICES" not in d.chosen or s.name != "kernel09_split_k":  # step 10's runs: step10_copies.md
            continue
        prev = previous_step(steps, s)
        for label, device, files in groups:
            for t in files:
                rows = [row for row in t.rows if row["step"] == s.name]
                if len({row["_size"] for row in rows}) < 2:
                    continue
                labels = tuning_labels(t)
                table, split_rows = {}, {}
                for row in t.rows:
                    if "verified best" in row["status"]:
                        continue
                    cell = table.setdefault(row["_size"], {})
                    if prev and row["step"] == prev.name:
                        cell["prev"] = max(cell.get("prev", 0), row["_gflops"])
                        continue
                    if row["step"] != s.name:
                        continue
                    asked = parse_params(labels[id(row)]) if id(row) in labels else None
                    got = row["_params"]
                    if asked is not None and set(asked) - {"SLICES", "SPLIT_ROWS"}:
                        continue  # a grid over other parameters: not this table's
                    if asked is not None and asked.get("SLICES") == 0 and not asked.get("SPLIT_ROWS"):
                        cell["host"] = (got["SLICES"], got.get("SPLIT_ROWS"), row["_gflops"])
                    elif asked is not None and asked.get("SPLIT_ROWS"):
                        block_rows = round_up(row["_size"][0], got["TSM"]) // got["TSM"]
                        key = ("rows", min(asked["SPLIT_ROWS"], block_rows), got["SLICES"])
                        cell[key] = max(cell.get(key, 0), row["_gflops"])
                    elif asked is None or asked.get("SLICES", 0) > 0:
                        cell[got["SLICES"]] = max(cell.get(got["SLICES"], 0), row["_gflops"])
                        if got["SLICES"] > 1 and "SPLIT_ROWS" in got:
                            split_rows[row["_size"]] = got["SPLIT_ROWS"]
                cells = {k: v for k, v in table.items() if len(v) > 1}
                if not cells:  # e.g. step 9 only as the reference of a later step's run (run 17)
                    continue
                first = rows[0]
                listing = device_listing(os.path.dirname(t.path), first["device"], first["driver"])
                out.append(SplitRun(label, device, t, s, prev, cells, listing, split_rows))
    out.sort(key=lambda run: run.date, reverse=True)
    return out


def recorded_when(t):
    dates = sorted(row["date"] for row in t.rows)
    return dates[0][:10] + (f", {dates[0][11:16]} to {dates[-1][11:16]} UTC" if dates[0][:10] == dates[-1][:10]
                            else f" to {dates[-1][:10]}")


def host_text(slices, rows):
    """A choice of the host as a cell: SLICES, and the rows it split where there are (and the run
    reports them)."""
    return f"{slices} ({rows} row{'s' if rows > 1 else ''})" if rows and slices > 1 else f"{slices}"


def split_snippet(runs):
    """tuning_step09.md: for each run, a row per size: step 8, the host's choice, and every SLICES
    forced; then, where the run forced SPLIT_ROWS too, those rates beside the host's rows; and
    where the host of a run of the current kernel chose other than the model now does, which."""
    out = []
    for run in runs:
        s, prev, P, listing = run.step, run.prev, run.P, run.listing
        pn = prev.number if prev else "-"
        values = sorted({v for cell in run.cells.values() for v in cell if isinstance(v, int)})
        at_once = listing[0] * P["GROUPS_PER_CU"] if listing else None
        what = ("the first version of the step, which split every row of blocks of C (its params have no "
                "SPLIT_ROWS), with the host's choice by the first model" if run.first_version else
                "the host's rows of blocks (SPLIT_ROWS=0: those left over by whole waves; the column 'rows split' "
                "gives how many of Mp/TSM)")
        out.append(f"{device_heading(run.label, run.device)}, `bench/tuning/{run.t.name}`, recorded "
                   f"{recorded_when(run.t)} (measured without verification; which row is the host's choice, from the "
                   f"log beside it): GFLOPS of step {pn} and of step {s.number} with the host's choice (SLICES=0: the "
                   f"number it chose{'' if run.first_version else ', with the rows it split'}, then its rate) and "
                   f"with each number of slices forced (the columns 1 to {values[-1] if values else '-'}), {what}; "
                   "**bold**: the fastest at each size. Blocks: the work-groups of TSM x TSN without a split"
                   + (f", against the {at_once} the host's model takes to run at once ({listing[0]} compute units x "
                      f"GROUPS_PER_CU = {P['GROUPS_PER_CU']})" if listing else "") + ":\n")
        rows_col = not run.first_version
        out.append("| M x N x K | blocks | " + ("rows split | " if rows_col else "") + f"step {pn} | host's choice | "
                   f"vs step {pn} | " + " | ".join(str(v) for v in values) + " |")
        out.append("|---|---:|" + ("---:|" if rows_col else "") + "---:|---:|---:|" + "---:|" * len(values))
        for size, cell in run.cells.items():
            measured = ([g for k, g in cell.items() if isinstance(k, int)]
                        + ([cell["host"][2]] if "host" in cell else []))
            best = max(measured) if measured else None
            bold = lambda g: f"**{fmt_gflops(g)}**" if g == best else fmt_gflops(g)  # noqa: E731
            host = cell.get("host")
            split = run.split_rows.get(size)
            out.append(f"| {size_short(size)} | {run.blocks(size)} | "
                       + (f"{split if split is not None else '-'} of {run.block_rows(size)} | " if rows_col else "")
                       + (fmt_gflops(cell["prev"]) if "prev" in cell else "-") + " | "
                       + (f"{host_text(*host[:2])}: {bold(host[2])}" if host else "-") + " | "
                       + (fmt_ratio(host[2] / cell["prev"]) if host and cell.get("prev") else "-") + " | "
                       + " | ".join(bold(cell[v]) if v in cell else "-" for v in values) + " |")
        out.append("")
        out += every_row_lines(run)
        out += model_differs_lines(run)
    return ("\n".join(out) + "\n") if out else "No tuning run of step 9 over several sizes is recorded.\n"


def every_row_lines(run):
    """The rates a run measured with SPLIT_ROWS forced beside those with the host's rows, per size and
    number of slices (bench/tune_nvidia.sh's split_rows part forces every row, the first version's split)."""
    lines = []
    for size, cell in run.cells.items():
        for key in sorted(k for k in cell if isinstance(k, tuple)):
            _, q, v = key
            forced = "every row" if q == run.block_rows(size) else f"the last {q}"
            host_rows = run.split_rows.get(size)
            lines.append(f"| {size_short(size)} | {v} | {host_rows if host_rows is not None else '-'} of "
                         f"{run.block_rows(size)}: " + (fmt_gflops(cell[v]) if v in cell else "-") + f" | {forced}: "
                         f"{fmt_gflops(cell[key])} | " + (fmt_ratio(cell[v] / cell[key]) if v in cell else "-") + " |")
    if not lines:
        return []
    return [f"The same run with SPLIT_ROWS forced as well (`bench/tuning/{run.t.name}`): GFLOPS with the rows the host "
            "splits beside those with the rows forced, for the same number of slices:\n",
            "| M x N x K | SLICES | rows split by the host: GFLOPS | rows forced: GFLOPS | host's rows / forced |",
            "|---|---:|---:|---:|---:|"] + lines + [""]


def model_differs_lines(run):
    """Where the host of a run of the current kernel chose other than the model as it is now."""
    if run.first_version or not run.listing:
        return []
    d, dev = stepdefs.get(run.step.name), run.dev()
    odd = []
    for size, cell in run.cells.items():
        host = cell.get("host")
        if host is None:
            continue
        now = d.model(dict(run.P, SLICES=0, SPLIT_ROWS=0), size, dev)[1]
        if (host[0], host[1] or 0) != now:
            odd.append(f"{size_short(size)}: {host_text(*host[:2])} then, {host_text(*now)} now")
    if not odd:
        return []
    return [f"Where the run's host chose other than the model as it is now (`common/src/gemm_step_rules.c`: the model "
            f"changed after the run): {'; '.join(odd)}.\n"]


# The sizes at which step09_model.md sets the host's model beside the measurements, where a run of the
# current kernel has them: every row split (1024), the last one (4097), the last few (8192)
MODEL_SIZES = ((1024, 1024, 1024), (4097, 4097, 4097), (8192, 8192, 8192))


def split_model_snippet(runs):
    """step09_model.md: at MODEL_SIZES, for each number of slices a run of the current kernel forced
    with the host's rows, the model's parts and cost beside the measured rate; and with the rows
    forced as well, where the run has them."""
    out = []
    for size in MODEL_SIZES:
        # per device, the run with the most numbers of slices at this size (the newest of equals)
        shown = {}
        for run in runs:
            cell = run.cells.get(size, {})
            n = sum(isinstance(k, int) for k in cell)
            if run.listing and not run.first_version and n > 1 and n > shown.get(run.label, (0, None))[0]:
                shown[run.label] = (n, run)
        for _, run in shown.values():
            out += model_table(run, size)
    return ("\n".join(out) + "\n") if out else "No tuning run of step 9 at the sizes this table shows.\n"


def model_table(run, size):
    d, dev, P, listing = stepdefs.get(run.step.name), run.dev(), run.P, run.listing
    P0 = dict(P, SLICES=0, SPLIT_ROWS=0)
    cell = run.cells[size]
    choice = d.model(P0, size, dev)[1]
    rows = d.rows_rule(P0, size, dev)
    host = cell.get("host")
    block_rows = run.block_rows(size)
    forced = sorted({k for k in cell if isinstance(k, tuple)})
    one = cell.get(1)
    base = d.cost(P0, size, dev, 1, 0)
    chose = (f"{choice[0]} slices of the last {choice[1]}" if choice[0] > 1 else "no split")
    lines = [f"**{md_escape(run.label)}**, {size_text(size)} (`bench/tuning/{run.t.name}`): {run.blocks(size)} blocks "
             f"of C in {block_rows} rows, {round_up(size[2], P['TSK']) // P['TSK']} tiles of K, "
             f"{listing[0] * P['GROUPS_PER_CU']} work-groups at once ({listing[0]} compute units x GROUPS_PER_CU = {P['GROUPS_PER_CU']}); the rows left "
             f"over by whole waves: {rows} of {block_rows}; the model chooses {chose}"
             + (", as the run's host did" if host and (host[0], host[1] or 0) == choice else
                f", the run's host chose {host_text(*host[:2])}" if host else "") + ":\n",
             "| SLICES | work-groups, whole + split | tiles per split work-group | waves, tiles | copies, tiles "
             "| model's cost, tiles | model: time vs SLICES=1 | measured GFLOPS | measured: time vs SLICES=1 |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for v in sorted(k for k in cell if isinstance(k, int)):
        c = d.cost(P0, size, dev, v, rows if v > 1 else 0)
        lines.append(model_row(c, base, cell[v], one))
    lines.append("")
    if forced:
        lines.append(f"The same with SPLIT_ROWS forced (`bench/tuning/{run.t.name}`):\n")
        lines.append(lines[1].replace("| SLICES |", "| SLICES, rows split |"))
        lines.append("|---" + lines[2][len("|---:"):])
        for _, q, v in forced:
            c = d.cost(P0, size, dev, v, q)
            lines.append(model_row(c, base, cell[("rows", q, v)], one,
                                   f"{v}, {'every row' if q == block_rows else f'the last {q}'}"))
        lines.append("")
    return lines


def fmt_tiles(x):
    """A time of the model in tiles: whole as it is, else to a tenth (a hundredth below 10)."""
    return f"{int(x)}" if float(x).is_integer() else f"{x:.1f}" if x >= 10 else f"{x:.2f}"


def model_row(c, base, measured, one, label=None):
    """A line of model_table(): the parts of cost `c` (a SplitCost), against `base` (one slice)."""
    return (f"| {label or c.slices} | {fmt_num(c.whole)} + {fmt_num(c.parts)} | "
            + (fmt_num(c.tiles) if c.parts else "-") + f" | {fmt_tiles(c.time)} | {fmt_tiles(c.copies)} | "
            f"{fmt_tiles(c.cost)} | {fmt_ratio(c.cost / base.cost)} | {fmt_gflops(measured)} | "
            + (fmt_ratio(one / measured) if one else "-") + " |")


def split_choice_snippet(results, steps, tuning_dir, defaults, ptxas, only=None):
    """step09_choice.md (step 10's: step10_choice.md; `only` names the step, else every step that
    splits K): the SLICES and SPLIT_ROWS the host chooses with each recorded device's
    defaults at each size of its results file (the model, checked against the host by
    docs/tests/test_geometry.py), what a recorded run of the step reports where there is one, and
    how many work-groups of the sgemm fit on a compute unit by the compiler report, against
    GROUPS_PER_CU."""
    out = []
    for s in steps:
        d = stepdefs.get(s.name)
        if not d or "SLICES" not in d.chosen or (only and s.name != only):
            continue
        prev = previous_step(steps, s)
        for r in results:
            listing = device_listing(tuning_dir, r.device, r.driver, prefer=f"{r.stem}-bench.log")
            cls = device_class(r, defaults)
            P = defaults.get(s.name, {}).get(cls)
            if not listing or not P:
                continue
            dev = stepdefs.Device(listing[0], listing[1])
            chosen = []  # (size, (SLICES, SPLIT_ROWS) chosen, rows of blocks, the run's report or None)
            for size in r.sizes:
                if d.refusal(dict(P, SLICES=1), size):
                    continue
                row = r.row(s.name, size)
                got = parse_params(row["params"]) if row and row["params"] else None
                picked = d.resolve(P, size, dev)
                chosen.append((size, (picked["SLICES"], picked["SPLIT_ROWS"]), d.block_rows(P, size), got))
            at_once = listing[0] * P["GROUPS_PER_CU"]
            blocks = min((round_up(x[0][0], P["TSM"]) // P["TSM"]) * (round_up(x[0][1], P["TSN"]) // P["TSN"])
                         for x in chosen) if chosen else 0
            if chosen and all(c[0] == 1 for _, c, _, _ in chosen):
                whole = all(d.rows_rule(P, size, dev) == 0 for size, _, _, _ in chosen)
                what = (f"SLICES=1 at every size of its results file ({', '.join(size_short(x[0]) for x in chosen)}): "
                        + (f"the blocks of C there (at least {blocks}) make whole waves of the {at_once} work-groups "
                           "at once, no row of blocks is left over" if whole else
                           "the model finds no split cheaper than none"))
            else:
                what = ("SLICES (the rows of blocks split, of Mp/TSM) by size: "
                        + "; ".join(f"{size_short(size)}: {c[0]}" + (f" ({c[1]} of {rows})" if c[0] > 1 else "")
                                    for size, c, rows, _ in chosen))
            odd, before = [], 0
            for size, (cs, cq), rows, got in chosen:
                if got is None:
                    continue
                if "SPLIT_ROWS" not in got:  # recorded before the parameter: every row split
                    before += 1
                    same = got.get("SLICES") == cs and (cs == 1 or cq == rows)
                else:
                    same = (got.get("SLICES"), got.get("SPLIT_ROWS")) == (cs, cq)
                if not same:
                    odd.append(f"at {size_short(size)} the run reports SLICES={got.get('SLICES')}"
                               + (f" SPLIT_ROWS={got['SPLIT_ROWS']}" if "SPLIT_ROWS" in got else ""))
            recorded = sum(got is not None for _, _, _, got in chosen)
            reported = (f" (but {'; '.join(odd)}" + (f": {'all' if before == recorded else before} of its runs "
                                                   "predate SPLIT_ROWS and the current model, and split every row"
                                                   if before else "") + ")" if odd else
                      f"; the runs of `docs/results/{r.stem}.csv` report the same at all {recorded} sizes they ran"
                      if recorded else "")
            line = (f"- **{md_escape(r.stem)}** ({listing[0]} compute units in `bench/tuning/{listing[2]}`; the "
                    f"`{cls}` defaults: GROUPS_PER_CU = {P['GROUPS_PER_CU']}, {at_once} work-groups at once, blocks "
                    f"of TSM x TSN = {P['TSM']} x {P['TSN']}, TSK = {P['TSK']}): {what}{reported}.")
            # how many of these work-groups one unit holds, by the compiler (step 9's report, else step 8's
            # sgemm with the same tiles: step 9's loop is step 8's)
            path, report = ptxas.get(r.stem, (None, {}))
            tiles = {k: P[k] for k in ("TSM", "TSN", "TSK", "WTM", "WTN", "WPTM", "WPTN", "WIDTH")}
            for name in (s.name, prev.name if prev else None):
                rep = report.get(name) if name else None
                if not rep or any(parse_params(rep["params"]).get(k) != v for k, v in tiles.items()):
                    continue
                items = (P["TSM"] // P["WPTM"]) * (P["TSN"] // P["WPTN"])
                fit = resident_groups(rep, "sgemm", items)
                if fit:
                    g, limit, regs, smem = fit
                    line += (f" The compiler report (`bench/tuning/{os.path.basename(path)}`, "
                             f"{'this step' if name == s.name else f'step {prev.number}'}'s sgemm with these tiles) "
                             f"gives {regs} registers per work-item and {smem} bytes of local memory per work-group of "
                             f"{items}: {g} such work-groups fit on one unit (the {limit} limits)"
                             + (", the GROUPS_PER_CU of the defaults." if g == P["GROUPS_PER_CU"] else
                                f", where the defaults say GROUPS_PER_CU = {P['GROUPS_PER_CU']}."))
                break
            out.append(line)
    return ("\n".join(out) + "\n") if out else "No recorded device has its compute units listed.\n"


COPIES_FILE = re.compile(r".+-async-copy\.csv$")
COPIES_REGISTERS = re.compile(r"registers with (.+?): .*Used (\d+) registers")
CHOSEN = ("SLICES", "SPLIT_ROWS")  # chosen by the host per problem: not part of a configuration's label


def log_registers(t):
    """[(configuration, registers)] from the log beside tuning file t, whose lines 'registers with
    -D K=V ...: ... Used N registers' (or 'with the defaults') bench/tune_nvidia.sh writes."""
    log = os.path.splitext(t.path)[0] + ".log"
    if not os.path.exists(log):
        return []
    with open(log, encoding="utf-8") as f:
        return [(m.group(1), int(m.group(2))) for m in COPIES_REGISTERS.finditer(f.read())]


def copy_resolved(D, rows):
    """Step 10's defaults D as built on the device of a tuning file's rows: COPY=2 (cp.async where
    the device has it, else async_work_group_copy) is the 1 the host chose where any row of step 10
    ran with COPY=1 (the host refuses COPY=1 on a device without cp.async), else 0. Without this a
    run of the defaults, which reports the COPY it built, would not be recognized as one."""
    if D.get("COPY") != 2:
        return D
    has = any(r["step"] == "kernel10_async_copy" and r["_params"].get("COPY") == 1 for r in rows)
    return dict(D, COPY=1 if has else 0)


def copies_snippet(tuning, steps, defaults):
    """Step 10's run against one change at a time (bench/tune_nvidia.sh OUT async_copy): GFLOPS at
    each size for step 9 and for step 10 with its NVIDIA defaults and each change, the registers of
    each build from the run's log."""
    names = {s.name: s.number for s in steps}
    base = defaults.get("kernel10_async_copy", {}).get("nvidia-gpu", {})
    out = []
    for t in tuning:
        if not COPIES_FILE.match(t.name) or not base:
            continue
        registers = {("the defaults" if c == "the defaults" else c.replace("-D ", "")): n
                     for c, n in log_registers(t)}
        cols, cells = [], {}
        built = copy_resolved(base, t.rows)
        for row in t.rows:
            if row["step"] not in names:
                continue
            P = row["_params"]
            if row["step"] == "kernel10_async_copy":
                diff = [f"{k}={v}" for k, v in P.items() if k not in CHOSEN and built.get(k) != v]
                label = " ".join(diff) or "the defaults"
            else:
                label = f"step {names[row['step']]}"
            if label not in cols:
                cols.append(label)
            cells.setdefault(row["_size"], {})[label] = row
        if not cells:
            continue
        dates = sorted(row["date"] for row in t.rows)
        first = t.rows[0]
        out.append(f"**{md_escape(first['device'])}**, driver {md_escape(first['driver'])}, "
                   f"`bench/tuning/{md_escape(t.name)}` ({dates[0][:10]}, {dates[0][11:16]} to {dates[-1][11:16]} UTC; "
                   "GFLOPS, median of the timed runs; `*` not verified): step 10 with its NVIDIA defaults ("
                   + md_escape(" ".join(f"{k}={v}" for k, v in base.items() if k not in CHOSEN))
                   + ") and with one change each, beside step 9; the host chooses SLICES and SPLIT_ROWS in every "
                   "column. The last row: the sgemm's registers per work-item (the compiler's report in the "
                   "run's log):\n")
        out.append("| M=N=K | " + " | ".join(md_escape(c) for c in cols) + " |")
        out.append("|---:|" + "---:|" * len(cols))
        for size, got in sorted(cells.items(), key=lambda kv: kv[0][0] * kv[0][1] * kv[0][2]):
            line = []
            for c in cols:
                row = got.get(c)
                line.append("-" if not row else fmt_gflops(row["_gflops"]) + ("" if row["status"].startswith("PASS") else "*"))
            out.append(f"| {size_short(size)} | " + " | ".join(line) + " |")
        out.append("| registers | " + " | ".join(str(registers[c]) if c in registers else "-" for c in cols) + " |")
        out.append("")
    return ("\n".join(out) + "\n") if out else "No run of step 10 against its variations is recorded.\n"


ALONE_FILE = re.compile(r".+-ablation\.csv$")
ALONE_REGISTERS = re.compile(r"registers of (\S+) with ([^:]*): .*Used (\d+) registers")
ALONE_FIRST = 7  # the first step whose page has the table (steps 7-10 were tuned again after their idea)


IDEA_SWITCHES = {"LANE_SQUARES"}  # parameters that turn a part of a step's idea off at 0


def alone_label(own, other, diff, other_defaults):
    """The row label of a configuration of step `own` that differs from its NVIDIA defaults by
    `diff`: its defaults, or the other step's parameters (every parameter that both steps have set
    as in the other's defaults; parameters of `own`'s idea alone may take any value), or one of its
    IDEA_SWITCHES set to 0 and nothing else changed, else None."""
    if not diff:
        return f"step {own.number}, its defaults"
    shared = {k: v for k, v in diff.items() if k in other_defaults}
    if not shared and len(diff) == 1 and diff.get(next(iter(diff))) == 0 and next(iter(diff)) in IDEA_SWITCHES:
        # a part of the step's own idea turned off (step 8's LANE_SQUARES=0)
        return f"step {own.number} with {next(iter(diff))}=0"
    if not shared or any(other_defaults[k] != v for k, v in shared.items()):
        return None
    return f"step {own.number} with step {other.number}'s parameters"


def alone_configs(t, prev, step, defaults):
    """The rows of ablation file t for the pair of steps (prev, step): {label: {size: [rows]}} in
    the order of the table, labelled by what each ran with against the NVIDIA defaults of both."""
    d = {s.name: copy_resolved({k: v for k, v in defaults.get(s.name, {}).get("nvidia-gpu", {}).items()
                                if k not in CHOSEN}, t.rows)
         for s in (prev, step)}
    out = {}
    for row in t.rows:
        if row["step"] not in d:
            continue
        own, other = (prev, step) if row["step"] == prev.name else (step, prev)
        P = {k: v for k, v in row["_params"].items() if k not in CHOSEN}
        diff = {k: v for k, v in P.items() if d[own.name].get(k) != v}
        label = alone_label(own, other, diff, d[other.name])
        if label:
            out.setdefault(label, {}).setdefault(row["_size"], []).append(row)
    # Steps whose host chooses SLICES: the file also forces step 9's defaults to one slice
    # (SLICES=1), which reports the same parameters as the host's own choice where that is one
    # slice too. Where a size has rows with both, those with one slice are the forced ones.
    for s in (prev, step):
        label = f"step {s.number}, its defaults"
        for size, rows in out.get(label, {}).items():
            chosen = {tuple(r["_params"].get(k) for k in CHOSEN) for r in rows}
            if "SLICES" not in rows[0]["_params"]:
                continue
            one = [r for r in rows if r["_params"]["SLICES"] == 1]
            if s is step and step.number == 9:
                out.setdefault("step 9 with one slice (no split)", {})[size] = one or rows
            if len(chosen) > 1:
                rows[:] = [r for r in rows if r["_params"]["SLICES"] != 1]
    switched_off = sorted(k for k in out if k.startswith(f"step {step.number} with ") and k.endswith("=0"))
    order = [f"step {prev.number}, its defaults", f"step {prev.number} with step {step.number}'s parameters",
             f"step {step.number} with step {prev.number}'s parameters", *switched_off,
             "step 9 with one slice (no split)", f"step {step.number}, its defaults"]
    return {k: out[k] for k in order if k in out}


def alone_registers(t, prev, step, defaults):
    """{label: registers} from the run's log ('registers of NAME with -D K=V ...: ... Used N registers')."""
    log = os.path.splitext(t.path)[0] + ".log"
    if not os.path.exists(log):
        return {}
    d = {s.name: {k: v for k, v in defaults.get(s.name, {}).get("nvidia-gpu", {}).items() if k not in CHOSEN}
         for s in (prev, step)}
    out = {}
    with open(log, encoding="utf-8") as f:
        for m in ALONE_REGISTERS.finditer(f.read()):
            if m.group(1) not in d:
                continue
            own, other = (prev, step) if m.group(1) == prev.name else (step, prev)
            diff = {k: v for k, v in parse_params(m.group(2).replace("-D ", "")).items() if k not in CHOSEN}
            label = alone_label(own, other, diff, d[other.name])
            if label:
                out[label] = int(m.group(3))
            if "SLICES=1" in m.group(2).split():
                out["step 9 with one slice (no split)"] = int(m.group(3))
    return out


def run_commit(t):
    """The commit of the kernels a tuning run measured, from a line 'commit HASH' near the top of
    its log (NAME.log beside NAME.csv), else None."""
    log = os.path.splitext(t.path)[0] + ".log"
    if not os.path.exists(log):
        return None
    with open(log, encoding="utf-8") as f:
        for line in f.readlines()[:5]:
            m = re.match(r"commit ([0-9a-f]{7,40})\b", line)
            if m:
                return m.group(1)
    return None


def median(values):
    v = sorted(values)
    return v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2


def alone_snippet(tuning, steps, defaults, number):
    """stepNN_alone.md: step `number` and the step before it, each with its own NVIDIA defaults and
    with the other's parameters (bench/tune_nvidia.sh OUT ablation), so that the idea's gain at the
    same parameters is told apart from what its new parameters add: GFLOPS at each size (the median
    of the rounds' medians, and their spread), against the previous step with its defaults."""
    step = next((s for s in steps if s.number == number), None)
    prev = previous_step(steps, step) if step else None
    out = []
    for t in tuning:
        if not ALONE_FILE.match(t.name) or not prev:
            continue
        configs = alone_configs(t, prev, step, defaults)
        base_label = f"step {prev.number}, its defaults"
        if base_label not in configs or len(configs) < 2:
            continue
        registers = alone_registers(t, prev, step, defaults)
        commit = run_commit(t)
        sizes = sorted({s for c in configs.values() for s in c}, key=lambda x: x[0] * x[1] * x[2])
        mine = [r for c in configs.values() for rows in c.values() for r in rows]
        dates = sorted(r["date"] for r in mine)
        rounds = min(len(rows) for c in configs.values() for rows in c.values())
        out.append(f"**{md_escape(mine[0]['device'])}**, driver {md_escape(mine[0]['driver'])}, "
                   f"`bench/tuning/{md_escape(t.name)}` ({dates[0][:10]}, {dates[0][11:16]} to {dates[-1][11:16]} "
                   f"UTC; " + (f"the kernels of commit {commit}; " if commit else "")
                   + f"every configuration once in each of {rounds} rounds; `*` not verified). GFLOPS, the "
                   "median of the rounds (each the median of its timed runs), and the ratio to "
                   f"step {prev.number} with its defaults; the rounds' spread, (highest - lowest) / median, "
                   "in the last column; the host chooses SLICES and SPLIT_ROWS in every row where the step has them. "
                   "Two rows with the same parameters differ by the idea alone:\n")
        out.append("| configuration | registers | " + " | ".join(size_short(s) for s in sizes) + " | spread |")
        out.append("|---|---:|" + "---:|" * len(sizes) + "---:|")
        base = {s: median([r["_gflops"] for r in rows]) for s, rows in configs[base_label].items()}
        for label, cells in configs.items():
            line, spread = [], 0.0
            for s in sizes:
                rows = cells.get(s)
                if not rows:
                    line.append("-")
                    continue
                g = [r["_gflops"] for r in rows]
                m = median(g)
                spread = max(spread, (max(g) - min(g)) / m)
                mark = "" if all(r["status"].startswith("PASS") for r in rows) else "*"
                ratio = f" ({m / base[s]:.3f})" if s in base else ""
                line.append(f"{fmt_gflops(m)}{mark}{ratio}")
            out.append(f"| {md_escape(label)} | {registers.get(label, '-')} | " + " | ".join(line)
                       + f" | {fmt_pct(100 * spread)} |")
        out.append("")
    tables = sum(1 for line in out if line.startswith("|---"))
    if tables > 1:
        out.insert(0, f"{tables} runs of these configurations, one table each (device, date and the commit of the "
                      "kernels above each): runs of the same kernels on the same kind of GPU show how far two runs "
                      "agree, runs of different kernels what changed.\n")
    return ("\n".join(out) + "\n") if out else f"No run of step {number}'s idea alone is recorded.\n"


def gap_snippet(results, steps, reference="cublas", label="cuBLAS"):
    """stepNN_gap.md for the last step: on each recorded device with the reference library (cuBLAS),
    at every size of the sweep where both ran, the step's time against the library's, split into its
    sgemm kernel and its helper kernels (the `parts`): how close the sgemm alone comes, and what the
    helpers cost on top of it."""
    last = max(steps, key=lambda s: s.number) if steps else None
    out = []
    for r in results:
        if not last or last.name not in r.steps:
            continue
        lines = []
        for size in r.sizes:
            g, verified = r.measured(last.name, size)
            ref, ref_verified = r.measured(reference, size)
            if g is None or ref is None:
                continue
            row, ref_row = r.row(last.name, size), r.row(reference, size)
            parts = parse_parts(row["parts"])
            sgemm = sum(t for name, t, _ in parts if name == "sgemm")
            helpers = [(name, t) for name, t, _ in parts if name != "sgemm"]
            if not sgemm:
                continue
            total, ref_ms = float(row["median_ms"]), float(ref_row["median_ms"])
            mark = "" if verified and ref_verified else "*"
            helper_ms = sum(t for _, t in helpers)
            between = total - sgemm - helper_ms
            lines.append(f"| {size_short(size)}{mark} | {ref_ms:.4g} | {total:.4g} ({ref_ms / total:.3f}) | "
                         f"{sgemm:.4g} ({ref_ms / sgemm:.3f}) | {helper_ms:.3g} ({fmt_pct(100.0 * helper_ms / total)}) | "
                         + (", ".join(f"{md_escape(name)} {t:.3g}" for name, t in helpers) or "none")
                         + f" | {between:.2g} ({fmt_pct(100.0 * between / total)}) |")
        if lines:
            out.append(f"**{md_escape(r.stem)}**, {r.where()}: {label} and step {last.number} "
                       f"(`{md_escape(last.name)}`) in the same sweep, median times in ms (`*`: not verified at "
                       f"that size). In brackets, {label}'s time over the step's, or over its sgemm kernel's "
                       "alone (above 1: faster than the library), and the helper kernels' share of the step's "
                       "time. The last column is the step's time less its kernels' (each a median of its own): "
                       "the time between one kernel's end and the next one's start, where the device runs "
                       "none of them:\n")
            out.append(f"| size | {label}, ms | step {last.number}, ms | its sgemm kernel, ms | its helper kernels, "
                       "ms | each helper kernel, ms | between the kernels, ms |")
            out.append("|---|---:|---:|---:|---:|---|---:|")
            out += lines
            out.append("")
    return ("\n".join(out) + "\n") if out else f"No recorded sweep has {label} beside the last step.\n"


SIZES_FILE = re.compile(r".+-tiles-by-size\.csv$")
BLOCK_KEYS = ("TSM", "TSN", "WPTM", "WPTN")  # a block of C and its block per work-item


def block_label(P):
    """A configuration of step 10 told by its block, its block per work-item and the model's
    GROUPS_PER_CU, e.g. '128 x 64, 8 x 8 per work-item, 4 per unit'."""
    return (f"{P['TSM']} x {P['TSN']}, {P['WPTM']} x {P['WPTN']} per work-item, "
            f"{P['GROUPS_PER_CU']} per unit")


def block_sizes_snippet(tuning, defaults):
    """step10_blocks.md: step 10 with its NVIDIA defaults against smaller blocks and a 32 x 32
    transpose tile, beside step 9 and cuBLAS, at each size (bench/tune_nvidia.sh OUT tiles_by_size):
    each configuration's median over the rounds of its median time; the fastest configuration
    other than the defaults; the registers of each block from the run's log."""
    base = {k: v for k, v in defaults.get("kernel10_async_copy", {}).get("nvidia-gpu", {}).items()
            if k not in CHOSEN}
    out = []
    for t in tuning:
        if not SIZES_FILE.match(t.name) or not base:
            continue
        times, verified = {}, {}
        built = copy_resolved(base, t.rows)
        # Each configuration apart: one label per configuration, so that no two share a median (a
        # change besides the block is named after it, the warp tile where two differ by it alone);
        # the defaults' block with another change is not another block, and is left out
        runs, warps = [], {}
        for row in t.rows:
            if row["step"] == "kernel10_async_copy":
                P = {k: v for k, v in row["_params"].items() if k not in CHOSEN}
                diff = {k: v for k, v in P.items() if built.get(k) != v}
                if not diff:
                    label = "defaults"
                elif diff == {"TRANSPOSE_TILE": 32}:
                    label = "transpose"
                elif all(P.get(k) == built.get(k) for k in BLOCK_KEYS):
                    continue
                else:
                    label = block_label(P) + "".join(f", {k}={v}" for k, v in diff.items()
                                                     if k not in BLOCK_KEYS + ("WTM", "WTN", "GROUPS_PER_CU"))
                    warps.setdefault(label, set()).add((P.get("WTM"), P.get("WTN")))
                    label = (label, P.get("WTM"), P.get("WTN"))
            elif row["step"] in ("kernel09_split_k", "cublas"):
                label = row["step"]
            else:
                continue
            runs.append((row, label))
        for row, label in runs:
            if isinstance(label, tuple):
                label = label[0] + (f", warp tile {label[1]} x {label[2]}" if len(warps[label[0]]) > 1 else "")
            key = (row["_size"], label)
            times.setdefault(key, []).append(float(row["median_ms"]))
            verified[key] = verified.get(key, True) and row["status"].startswith("PASS")
        sizes = sorted({s for s, _ in times}, key=lambda s: (s[0] * s[1] * s[2], s))
        if not any((s, "defaults") in times for s in sizes):
            continue
        registers = {}
        for c, n in log_registers(t):
            P = dict(base)
            if c != "the defaults":
                P.update(parse_params(c.replace("-D ", "")))
            registers.setdefault(f"{P['TSM']} x {P['TSN']}, {P['WPTM']} x {P['WPTN']} per work-item", n)
        dates = sorted(row["date"] for row in t.rows)
        first = next(row for row in t.rows if row["step"] == "kernel10_async_copy")
        rounds = max(len(v) for v in times.values())
        out.append(f"**{md_escape(first['device'])}**, driver {md_escape(first['driver'])}, "
                   f"`bench/tuning/{md_escape(t.name)}` ({dates[0][:10]}, {dates[0][11:16]} to "
                   f"{dates[-1][11:16]} UTC; " + ("one round, each configuration's median" if rounds == 1 else
                                                   f"{rounds} rounds, each configuration's median of the rounds' medians")
                   + "; "
                   "`*` not verified). GFLOPS of step 10 with its NVIDIA defaults, then the rate of the others "
                   "over it (above 1: faster): the fastest of the smaller blocks at that size, the defaults with "
                   "a 32 x 32 transpose tile, step 9 and cuBLAS. The host chooses SLICES and SPLIT_ROWS for "
                   "every configuration by its model with the GROUPS_PER_CU given:\n")
        out.append("| M x N x K | step 10, defaults | fastest other block | its rate | 32 x 32 transpose | "
                   "step 9 | cuBLAS |")
        out.append("|---:|---:|---|---:|---:|---:|---:|")

        def rate(size, label):
            return 2.0 * size[0] * size[1] * size[2] / median(times[(size, label)]) / 1e6

        for size in sizes:
            if (size, "defaults") not in times:
                continue
            d = rate(size, "defaults")
            mark = "" if verified[(size, "defaults")] else "*"
            others = [lab for (s, lab) in times if s == size and lab not in
                      ("defaults", "transpose", "kernel09_split_k", "cublas")]
            cells = [f"{size_short(size)}", fmt_gflops(d) + mark]
            if others:
                best = max(others, key=lambda lab: rate(size, lab))
                cells += [md_escape(best), f"{rate(size, best) / d:.3f}x"]
            else:
                cells += ["-", "-"]
            for lab in ("transpose", "kernel09_split_k", "cublas"):
                cells.append(f"{rate(size, lab) / d:.3f}x" if (size, lab) in times else "-")
            out.append("| " + " | ".join(cells) + " |")
        out.append("")
        if registers:
            out.append("Registers per work-item of the sgemm (the compiler's report in the run's log): "
                       + "; ".join(f"{md_escape(k)}: {v}" for k, v in registers.items()) + ".\n")
    return ("\n".join(out) + "\n") if out else "No run of step 10 with other blocks by problem size is recorded.\n"


# bench/exp_step11_costs.sh fragments, a_rows, stores, a_scalar, ldmatrix, store_forms and two_acc: what each variant is, by the kernel file and
# options its log names it with
STEP11_VARIANTS = (
    ("a_rows.cl -D TILE_PAD=4", "A as it is, depths reordered, reads and C's stores vectorized, TILE_PAD = 4"),
    ("a_rows.cl", "the same, TILE_PAD = 8"),
    ("fragments_a.cl", "A alone read two floats at a time"),
    ("fragments.cl", "A and B read two floats at a time"),
    ("store2.cl", "C stored two floats at a time"),
    ("store4.cl", "A and B read in pairs, C stored four floats at a time"),
    ("a_scalar.cl", "A as it is, read one float at a time"),
    ("ldmatrix_memory.cl", "the same, its asm not volatile (a memory clobber)"),
    ("ldmatrix.cl", "A as it is, a 16 x 8 block read by one ldmatrix.x4"),
    ("before.cl", "the kernel before, C stored one float at a time"),
    ("pointers.cl", "C seen as float2 arrays once"),
    ("three-loops.cl", "the store loop written three times"),
    ("two_acc.cl -D WTN=32 -D WPTN=4 -D TSN=64", "two sets of accumulators, warp tiles 64 x 32, 4 warps"),
    ("two_acc.cl -D WTN=32 -D WPTN=4", "two sets of accumulators, warp tiles 64 x 32, 8 warps"),
    ("-D WTN=32 -D WPTN=4 -D TSN=64", "the kernel, warp tiles 64 x 32, 4 warps"),
    ("-D WTN=32 -D WPTN=4", "the kernel, warp tiles 64 x 32, 8 warps"),
    ("", "the kernel"),
)


def step11_variant(label):
    label = label.replace("--kernel-file ", "").replace("bench/exp/", "").replace("kernel11_tensor_cores/tensor_cores.cl", "")
    return next(name for key, name in STEP11_VARIANTS if label.strip().startswith(key))


def step11_layout_snippet(tuning_dir, phase):
    """Step 11's variants of one phase of bench/exp_step11_costs.sh (fragments, a-rows, stores) beside
    the kernel: for each *-step11-PHASE.log, the medians of its rounds (GFLOPS of the whole step, and
    the change from the kernel), the sgemm's own time at 4096, and each build's registers."""
    out = []
    for path in sorted(glob.glob(os.path.join(tuning_dir, f"*-step11-{phase}.log"))):
        lines = open(path, encoding="utf-8").read().splitlines()
        device, driver = (x.strip() for x in lines[0].split(",", 1))
        names, registers = [], []
        for m in re.finditer(r"^registers of \[?(.*?)\]?: .*?(\d+) bytes spill stores.*?Used (\d+) registers",
                             "\n".join(lines), re.M):
            names.append(step11_variant(m.group(1)))
            registers.append(m.group(3) + (f" ({m.group(2)} B spilled)" if int(m.group(2)) else ""))
        runs, size, i = {}, None, 0
        for line in lines:
            m = re.match(r"== round \d+, (.*)", line)
            if m:
                size, i = m.group(1), 0
            elif size and line.startswith(("PASS", "FAIL")):
                if not line.startswith("PASS") or i >= len(names):
                    raise InputError(f"{path}: a run of round '{size}' that is not one of its verified variants")
                runs.setdefault(size, [[] for _ in names])[i].append(
                    (float(re.search(r": ([\d.]+) GFLOPS", line).group(1)),
                     float(re.search(r"sgemm ([\d.]+) ms", line).group(1))))
                i += 1
        if not names or not runs:
            raise InputError(f"{path}: not a log of bench/exp_step11_costs.sh {phase}")
        sizes = list(runs)
        label = {s: " x ".join(re.findall(r"-[mnk] (\d+)", s)) or s.split()[-1] for s in sizes}
        square = next((s for s in sizes if label[s] == "4096"), None)
        out.append(f"{device} (driver {driver}, {lines[1].strip()}; `{os.path.basename(path)}`), GFLOPS of the "
                   f"whole step, medians of {len(runs[sizes[0]][0])} rounds, each variant's change from the kernel "
                   f"in brackets:\n")
        out.append("| variant | " + " | ".join(label[s] for s in sizes)
                   + (" | sgemm at 4096 (ms)" if square else "") + " | registers |")
        out.append("|---" * (len(sizes) + 2 + bool(square)) + "|")
        base = [median([g for g, _ in runs[s][0]]) for s in sizes]
        for v, name in enumerate(names):
            cells = []
            for s, b in zip(sizes, base):
                g = median([g for g, _ in runs[s][v]])
                cells.append(fmt_gflops(g) if v == 0 else f"{fmt_gflops(g)} ({(g / b - 1) * 100:+.1f}\\%)")
            if square:
                cells.append(f"{median([t for _, t in runs[square][v]]):.3f}")
            out.append(f"| {name} | " + " | ".join(cells) + f" | {registers[v]} |")
        out.append("")
    return "\n".join(out) if out else f"(no run of `bench/exp_step11_costs.sh DEB_DIR {phase}` is recorded)\n"


def render(ctx):
    r, t = ctx.results, ctx.tuning
    runs = split_runs(r, t, ctx.steps)
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
        "tuning_step09.md": split_snippet(runs),
        "step09_model.md": split_model_snippet(runs),
        "step09_choice.md": split_choice_snippet(r, ctx.steps, ctx.tuning_dir, ctx.defaults, ctx.ptxas,
                                                 "kernel09_split_k"),
        "step10_choice.md": split_choice_snippet(r, ctx.steps, ctx.tuning_dir, ctx.defaults, ctx.ptxas,
                                                 "kernel10_async_copy"),
        "step10_copies.md": copies_snippet(t, ctx.steps, ctx.defaults),
        "step10_blocks.md": block_sizes_snippet(t, ctx.defaults),
        "step11_fragment_reads.md": step11_layout_snippet(ctx.tuning_dir, "fragments"),
        "step11_a_rows.md": step11_layout_snippet(ctx.tuning_dir, "a-rows"),
        "step11_stores.md": step11_layout_snippet(ctx.tuning_dir, "stores"),
        "step11_store_forms.md": step11_layout_snippet(ctx.tuning_dir, "store-forms"),
        "step11_a_scalar.md": step11_layout_snippet(ctx.tuning_dir, "a-scalar"),
        "step11_two_acc.md": step11_layout_snippet(ctx.tuning_dir, "two-acc"),
        "step11_ldmatrix.md": step11_layout_snippet(ctx.tuning_dir, "ldmatrix"),
    }
    # step 10 against cuBLAS, for step 10's lab record (the last FP32 step: step 11's own comparison,
    # with the tensor cores, is on its page), whatever later steps the results files hold
    snippets["step10_gap.md"] = gap_snippet(r, [s for s in ctx.steps if s.number <= 10])
    for number in range(ALONE_FIRST, 11):
        snippets[f"step{number:02d}_alone.md"] = alone_snippet(t, ctx.steps, ctx.defaults, number)
    for name, text in snippets.items():
        write(os.path.join(ctx.out, name), text)
