"""The tables of the split of K (steps 9 and 10) drawn from the tuning records (lab/tuning/:
lab/tune.py's CSVs and the logs beside them) and the results files (docs/results/), Markdown
for \\includedoc:
  - tuning_step09.md: step 9's SLICES against the problem size, the host's choice beside every
    value forced and step 8, and SPLIT_ROWS forced beside the host's rows (the tuning runs, with
    the labels of their logs);
  - step09_model.md: the host's model of the waves (gemm_split_k_cost(), stepdefs.SplitK.cost())
    at a few sizes of the runs of the current kernel, beside what each split measured;
  - step09_choice.md, step10_choice.md: what the host chooses for step 9 (step 10) on each recorded
    device at each size of its results file.
"""
import os
import re

from . import stepdefs
from .common import (InputError, fmt_gflops, fmt_num, fmt_ratio, md_escape, parse_params, previous_step, round_up,
                     size_short, size_text, write)
from .params import device_class
from .records import device_groups, device_heading, device_listing, resident_groups

# lab/tune.py's log: a sweep's heading, and a combination that ran
SWEEP_LINE = re.compile(r"tune: (\w+), \d+ combinations at (\S+)$")
COMBO_LINE = re.compile(r"  (\S.*?)\s+([0-9.]+) GFLOPS  \(")


def tuning_labels(t):
    """The combination each measured row of tuning file t ran as, as lab/tune.py's log beside it
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
                             f"{t.name} (lab/tune.py writes both)")
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
        out.append(f"{device_heading(run.label, run.device)}, `lab/tuning/{run.t.name}`, recorded "
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
    number of slices (lab/tune_nvidia.sh's split_rows part forces every row, the first version's split)."""
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
    return [f"The same run with SPLIT_ROWS forced as well (`lab/tuning/{run.t.name}`): GFLOPS with the rows the host "
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
    lines = [f"**{md_escape(run.label)}**, {size_text(size)} (`lab/tuning/{run.t.name}`): {run.blocks(size)} blocks "
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
        lines.append(f"The same with SPLIT_ROWS forced (`lab/tuning/{run.t.name}`):\n")
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
            line = (f"- **{md_escape(r.stem)}** ({listing[0]} compute units in `lab/tuning/{listing[2]}`; the "
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
                    line += (f" The compiler report (`lab/tuning/{os.path.basename(path)}`, "
                             f"{'this step' if name == s.name else f'step {prev.number}'}'s sgemm with these tiles) "
                             f"gives {regs} registers per work-item and {smem} bytes of local memory per work-group of "
                             f"{items}: {g} such work-groups fit on one unit (the {limit} limits)"
                             + (", the GROUPS_PER_CU of the defaults." if g == P["GROUPS_PER_CU"] else
                                f", where the defaults say GROUPS_PER_CU = {P['GROUPS_PER_CU']}."))
                break
            out.append(line)
    return ("\n".join(out) + "\n") if out else "No recorded device has its compute units listed.\n"


def render(ctx):
    r, t = ctx.results, ctx.tuning
    runs = split_runs(r, t, ctx.steps)
    snippets = {
        "tuning_step09.md": split_snippet(runs),
        "step09_model.md": split_model_snippet(runs),
        "step09_choice.md": split_choice_snippet(r, ctx.steps, ctx.tuning_dir, ctx.defaults, ctx.ptxas,
                                                 "kernel09_split_k"),
        "step10_choice.md": split_choice_snippet(r, ctx.steps, ctx.tuning_dir, ctx.defaults, ctx.ptxas,
                                                 "kernel10_async_copy"),
    }
    for name, text in snippets.items():
        write(os.path.join(ctx.out, name), text)
