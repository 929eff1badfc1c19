"""A diagram of every step, for one work-group (drawn by diagram_drawing.py, which says what each
panel shows), and its numbers in the page's text (summary_lines()).
Files: diagram_stepNN_CLASS.svg for each parameter set a recorded device ran with (named by its
device class in common/src/gemm_params.c), shown by stepNN_diagram.md; and every
diagram_stepNN_set_NAMEVALUE_..[_size_MxNxK].svg that a page of docs/ names (an exercise's -D
values), with the `gpu` defaults for the parameters the name leaves out.
"""
import glob
import os
import re

from . import drawing, stepdefs
from .common import InputError, md_escape, parse_params, write
from .diagram_drawing import draw
from .params import device_class
from .records import device_listing

REQUEST = re.compile(r"diagram_step(\d\d)_set_((?:[A-Z][A-Z_]*\d+_?)+?)(?:_size_(\d+)x(\d+)x(\d+))?\.svg")


def example_size(d, P):
    """The problem a diagram shows: three work-groups each way and four k-slices at tile multiples;
    for the steps that take any size, an awkward one, so that the zero-padding (or the idle
    work-items) show."""
    rows, cols = d.block(P)
    depth = d.k_tile(P) or rows
    awkward = (2 * rows + rows * 3 // 4 + 1, 2 * cols + cols * 2 // 3 + 1, 3 * depth + depth // 2 + 1)
    return awkward if d.refusal(P, awkward) is None else (3 * rows, 3 * cols, 4 * depth)


def summary_lines(g, d, asked=None, device=None):
    """The numbers under the picture, from the geometry (`asked`: the parameters before the host chose
    any, `device` the device it chose them for)."""
    P = g.params
    (g0, g1), (l0, l1) = g.global_size, g.local_size
    pr, pc = g.per_item
    lines = [f"NDRange {g0} x {g1} work-items in work-groups of {l0} x {l1} = {g.items} "
             f"(dimension 0 along the columns of C); {g.groups[0]} x {g.groups[1]} work-groups."]
    own = f"Each work-item stores {pr} x {pc} = {pr * pc} element{'s' if pr * pc > 1 else ''} of C"
    lines.append(own + (": " + d.ownership_text(P) if d.ownership_text(P) else "") + ".")
    if g.sub_tiles:
        lines.append(f"The warp tiles, WTM x WTN = {g.sub_tiles[0][2]} x {g.sub_tiles[0][3]} elements of C, "
                     f"{g.warp_items} work-items each, are outlined in the top-right panel, warp 0's shaded.")
    if g.tiles and g.tiles[0].buffers > 1:
        b = g.tiles[0].buffers
        if g.staging == "copy":
            ahead = "tile t+1" if b == 2 else f"tiles t+1 to t+{b - 1}"
            lines.append(f"A ring of {b} buffers of each tile: tile t is computed from buffer t%{b} while the copies of "
                         f"{ahead} travel from global memory straight into the {'other' if b == 2 else 'others'}, without passing through "
                         "registers.")
        else:
            lines.append(f"{b} buffers of each tile: tile t is computed from buffer t%{b} while tile t+1 travels from "
                         "global memory into registers, stored into the other buffer after the next barrier.")
    if g.slices > 1:
        tiles_k = g.kernel_size[2] // g.k_tile
        sizes = sorted({len(g.tile_range(g.group_at(g.block_rows - 1, 0, s))) for s in range(g.slices)})
        how = ""
        picked = {k: P[k] for k in g.step.chosen if asked and asked.get(k) == 0}
        if picked:
            how = (" and ".join(f"{k}=0" for k in picked) + ": the host chose "
                   + " and ".join(f"{k}={v}" for k, v in picked.items()) + " for this problem"
                   + (f", from {device.compute_units} compute units ({device.name}) x GROUPS_PER_CU = "
                      f"{P['GROUPS_PER_CU']} = {device.compute_units * P['GROUPS_PER_CU']} work-groups at once. "
                      if device and device.compute_units else ". "))
        f, q = g.full_rows, g.split_rows
        if not f and q == 1:
            which, rows_text = "the one row", "work-group row g computes it over slice g"
        elif not f:
            which, rows_text = f"all {q} rows", f"work-group row g computes row g % {q} of blocks over slice g / {q}"
        elif q == 1:
            which = f"the last of the {g.block_rows} rows"
            rows_text = (f"work-group row g < {f} computes row g of blocks over all of K, row g >= {f} the last row "
                         f"over slice g - {f}")
        else:
            which = f"the last {q} of the {g.block_rows} rows"
            rows_text = (f"work-group row g < {f} computes row g of blocks over all of K, row g >= {f} row "
                         f"{f} + (g - {f}) % {q} over slice (g - {f}) / {q}")
        lines.append(how + f"K split into {g.slices} slices of its {tiles_k} tiles ("
                     + " or ".join(str(x) for x in sizes) + f" each) for {which} of blocks: {rows_text}; "
                     + ("slice s writes its partial block into a workspace (drawn as copy s of the split rows), "
                        "and the last slice of each block to finish, told by a counter, adds the slices in order, "
                        "applies alpha and beta and writes the block of C." if d.in_place else
                        "slice s writes its partial sums into its own copy of the split rows (copy s, in a helper "
                        "buffer), and unpad adds the copies up, applies beta and writes those rows of C."))
    if d.a_transposed:
        (_, tm), _, (_, tk) = d.tile_sizes(P)
        lines.append(f"The sgemm kernel reads A transposed, A^T (K x M, written by the transpose kernel): Asub holds a "
                     f"TSK x TSM = {tk} x {tm} tile of A^T, k-major, that the top-left panel draws where it lies in A.")
    if g.tiles:
        lines.append("In the tiles, a float that several of the three work-items read (a broadcast) is striped in "
                     "their colours.")
        lines.append(f"Local memory: {g.local_bytes} bytes per work-group"
                     + (f"; the sgemm kernel runs on the zero-padded {g.kernel_size[0]} x {g.kernel_size[1]} x "
                        f"{g.kernel_size[2]}" if g.kernel_size != g.size else "") + ".")
    return lines


def class_sets(step, defaults, results):
    """The parameter sets to draw for a step: the ones each recorded device ran it with, or, where a
    device did not run it, its class's defaults; named by the device classes whose defaults they
    are (a run that reports the host's choice of a parameter whose default is 0, step 9's SLICES and SPLIT_ROWS,
    ran with the defaults). Each as (label, parameters, stems of the runs, results files of the
    devices). The `gpu` defaults when no device is recorded."""
    sets = []
    table = defaults.get(step.name, {})
    d = stepdefs.get(step.name)
    for r in results:
        row = r.row(step.name)
        cls = device_class(r, defaults)
        if row is not None:
            P = parse_params(row["params"])
        elif cls and cls in table:
            P = table[cls]
        else:
            continue
        classes = [c for c, values in table.items() if d.same_params(P, values)]
        if classes:
            P = table[classes[0]]
        label = "_".join(classes) or f"as-{r.stem}"
        entry = next((x for x in sets if x[0] == label), None)
        if entry is None:
            entry = (label, P, [], [])
            sets.append(entry)
        if row is not None:
            entry[2].append(r.stem)
        entry[3].append(r)
    if not sets and "gpu" in table:
        sets.append(("gpu", table["gpu"], [], []))
    return sets


def split_example(d, P, device):
    """Step 9's problem: the first of two at which the host splits K on `device` (8 x 8 blocks 64
    tiles deep, 1024 x 1024 x 1024 with the NVIDIA defaults; a block short of a full one, 5 tiles
    deep), else example_size()'s."""
    for size in ((8 * P["TSM"], 8 * P["TSN"], 64 * P["TSK"]), (P["TSM"] - 1, P["TSN"] - 4, 5 * P["TSK"] - 5)):
        if d.resolve(P, size, device)["SLICES"] > 1:
            return size
    return example_size(d, P)


def chosen_text(d, P, size, device, where):
    """What the host chose for the parameters of `chosen` left at 0, as a clause to add to a title
    ("; the host chose ..."), or "" where it chose nothing (step 11 leaves none at 0). What the host
    builds in that is no parameter (step 12's HAS_SPLIT_ROWS) is not shown."""
    picked = {k: v for k, v in d.chosen_values(P, size, device).items() if k not in d.built_in}
    if not picked:
        return ""
    out = "; the host chose " + " and ".join(f"{k}={v}" for k, v in picked.items())
    if device and device.compute_units:
        return out + f" on {where}"
    return out + " (no compute units known: as on docs/tests/plan_dump.c's device)"


def requested(docs_dir):
    """The diagrams the pages of docs/ name: {file name: (step number, {parameter: value}, size or None,
    width in inches)}, the width that of the narrowest place a page shows it in (a list item, an
    answer fold: drawing.width_in())."""
    out = {}
    for page in sorted(glob.glob(os.path.join(docs_dir, "*.md"))):
        with open(page, encoding="utf-8") as f:
            for line, lists, folds in drawing.markdown_places(f.read()):
                for m in REQUEST.finditer(line):
                    P = {k: int(v) for k, v in re.findall(r"([A-Z][A-Z_]*?)(\d+)", m.group(2))}
                    size = tuple(int(x) for x in m.group(3, 4, 5)) if m.group(3) else None
                    width = min(drawing.width_in(lists, folds), out.get(m.group(0), (0, 0, 0, drawing.MAX_WIDTH_IN))[3])
                    out[m.group(0)] = (int(m.group(1)), P, size, width)
    return out


def set_text(P):
    return " ".join(f"{k}={v}" for k, v in P.items())


# A lesson shows a diagram's numbers folded (one click away): the picture and the lesson's text say
# what it shows, the numbers are for the reader who checks them
FOLD = ('\\htmlonly[block]<details class="numbers"><summary>The picture in numbers (click to show)</summary>'
        '\\endhtmlonly', '\\htmlonly[block]</details>\\endhtmlonly')


def diagram_text(g, d, P, device, size, extra, fold=False):
    """What a diagram shows in numbers, for the page's text under it (the figure's caption stays short):
    the parameters and the problem, then summary_lines() as a list; folded where `fold`."""
    head = (f"The diagram above: {md_escape(set_text(g.params))}, on an example problem M={size[0]} N={size[1]} "
            f"K={size[2]}{md_escape(extra)}.")
    text = head + "\n\n" + "\n".join(f"- {md_escape(line)}" for line in summary_lines(g, d, P, device)) + "\n"
    return f"{FOLD[0]}\n\n{text}\n{FOLD[1]}\n" if fold else text


def render(ctx):
    """Writes every diagram, stepNN_diagram.md (the first class set's diagram, with its numbers in
    text: the lesson's), stepNN_diagram_more.md (the other sets': the lab record's) and, beside each
    diagram a page names, NAME.md with its numbers (diagram_text())."""
    for s in ctx.steps:
        d = stepdefs.get(s.name)
        if d is None:
            raise InputError(f"docs/sitegen/stepdefs.py has no descriptor for {s.name}: add one to draw its diagram")
        out = []
        for label, P, stems, runs in class_sets(s, ctx.defaults, ctx.results):
            device, where, extra = None, "", ""
            if d.chosen:  # the host chooses a parameter for the device: that of the first run with a listing
                for r in runs:
                    listing = device_listing(ctx.tuning_dir, r.device, r.driver, prefer=f"{r.stem}-bench.log")
                    if listing:
                        device, where = stepdefs.Device(listing[0], listing[1], r.device), r.stem
                        break
                size = split_example(d, P, device)
                extra = chosen_text(d, P, size, device, where)
            else:
                size = example_size(d, P)
            name = f"diagram_{s.page}_{label}.svg"
            who = (f"the {' and '.join(label.split('_'))} defaults" if not label.startswith("as-")
                   else f"the parameters of {label[3:]}")
            g = draw(d, P, size, os.path.join(ctx.out, name),
                     f"Step {s.number} with {who}: an example problem M={size[0]} N={size[1]} K={size[2]}" + extra,
                     device)
            ran = f" (the run{'s' if len(stems) > 1 else ''} of {', '.join(stems)})" if stems else ""
            out.append(f"\\image html {name} \"Step {s.number}, {md_escape(who)}{ran}\"\n\n"
                       + diagram_text(g, d, P, device, size, extra, fold=not out))
        # the lesson draws the first set (the GPUs' where one was recorded), the lab record the others
        write(os.path.join(ctx.out, f"{s.page}_diagram.md"), out[0] if out else "")
        write(os.path.join(ctx.out, f"{s.page}_diagram_more.md"), "\n".join(out[1:]) or
              "Every recorded device ran this step with the parameters the lesson draws.\n")
    by_number = {s.number: s for s in ctx.steps}
    for name, (number, values, size, width) in requested(ctx.docs_dir).items():
        s = by_number.get(number)
        if s is None:
            raise InputError(f"a page names {name}, but there is no step {number}")
        d = stepdefs.get(s.name)
        P = dict(ctx.defaults.get(s.name, {}).get("gpu", {}), **values)
        size = size or example_size(d, P)
        if d.refusal(d.resolve(P, size), size):
            raise InputError(f"a page names {name}, which step {number} refuses: {d.refusal(d.resolve(P, size), size)}")
        extra = chosen_text(d, P, size, None, "") if any(P.get(k) == 0 for k in d.chosen) else ""
        g = draw(d, P, size, os.path.join(ctx.out, name),
                 f"Step {s.number} with {set_text(values)}: the problem M={size[0]} N={size[1]} K={size[2]}" + extra,
                 width=width)
        write(os.path.join(ctx.out, name[:-4] + ".md"), diagram_text(g, d, P, None, size, extra))
