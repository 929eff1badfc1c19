"""The tables of one change at a time drawn from the tuning records (lab/tuning/: the runs
NAME-ablation.csv, NAME-async-copy.csv, NAME-tiles-by-size.csv and the logs beside them) and the
results files (docs/results/), Markdown for \\includedoc:
  - step07_alone.md ... step10_alone.md: each step's idea alone, the step and the one before it
    each with the other's parameters (the runs NAME-ablation.csv);
  - step10_gap.md: step 10 (the last FP32 step) against cuBLAS at every size of each sweep,
    its sgemm kernel and its helper kernels apart;
  - step10_copies.md: step 10 with one change at a time against its defaults and step 9 (the runs
    NAME-async-copy.csv), with each build's registers;
  - step10_blocks.md: step 10 with smaller blocks than its defaults at each size, beside step 9 and
    cuBLAS (the runs NAME-tiles-by-size.csv): what a block chosen by problem size could give.
"""
import os
import re

from .common import fmt_gflops, fmt_pct, md_escape, median, parse_params, parse_parts, previous_step, size_short, write

COPIES_FILE = re.compile(r".+-async-copy\.csv$")
COPIES_REGISTERS = re.compile(r"registers with (.+?): .*Used (\d+) registers")
CHOSEN = ("SLICES", "SPLIT_ROWS")  # chosen by the host per problem: not part of a configuration's label


def log_registers(t):
    """[(configuration, registers)] from the log beside tuning file t, whose lines 'registers with
    -D K=V ...: ... Used N registers' (or 'with the defaults') lab/tune_nvidia.sh writes."""
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
    """Step 10's run against one change at a time (lab/tune_nvidia.sh OUT async_copy): GFLOPS at
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
                   f"`lab/tuning/{md_escape(t.name)}` ({dates[0][:10]}, {dates[0][11:16]} to {dates[-1][11:16]} UTC; "
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


def alone_snippet(tuning, steps, defaults, number):
    """stepNN_alone.md: step `number` and the step before it, each with its own NVIDIA defaults and
    with the other's parameters (lab/tune_nvidia.sh OUT ablation), so that the idea's gain at the
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
                   f"`lab/tuning/{md_escape(t.name)}` ({dates[0][:10]}, {dates[0][11:16]} to {dates[-1][11:16]} "
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
    transpose tile, beside step 9 and cuBLAS, at each size (lab/tune_nvidia.sh OUT tiles_by_size):
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
                   f"`lab/tuning/{md_escape(t.name)}` ({dates[0][:10]}, {dates[0][11:16]} to "
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


def render(ctx):
    t = ctx.tuning
    snippets = {
        "step10_copies.md": copies_snippet(t, ctx.steps, ctx.defaults),
        "step10_blocks.md": block_sizes_snippet(t, ctx.defaults),
    }
    # step 10 against cuBLAS, for step 10's lab record (the last FP32 step: step 11's own comparison,
    # with the tensor cores, is on its page), whatever later steps the results files hold
    snippets["step10_gap.md"] = gap_snippet(ctx.results, [s for s in ctx.steps if s.number <= 10])
    for number in range(ALONE_FIRST, 11):
        snippets[f"step{number:02d}_alone.md"] = alone_snippet(t, ctx.steps, ctx.defaults, number)
    for name, text in snippets.items():
        write(os.path.join(ctx.out, name), text)
