"""Step 9's lesson: how the host chooses its split, worked at three sizes (step09_split_example.md).

From the first recorded NVIDIA GPU's results file (its compute units from its `--list-devices`
listing in lab/tuning/) and the step's NVIDIA defaults, at 256, 1024 and 4097: how many blocks C
has and how many work-groups run at once, which rows of blocks the host splits, and the host's
model (stepdefs.SplitK.model, the C's gemm_split_k_choose() operation for operation, which
docs/tests/test_geometry.py checks against the host) for a few numbers of slices around the one
it chooses: the work-groups, the tiles one of them walks, the model's time in tiles walked one
after another, and the cost of the copies in the same unit. A table per size and one sentence each.
"""
import os

from . import stepdefs
from .common import md_escape, size_short, write
from .params import record_class
from .records import device_listing

STEP = "kernel09_split_k"
SIZES = (256, 1024, 4097)


def example(d, P, size, dev):
    """(sentence, table) of the split the host chooses at `size` (a square)."""
    s3 = (size,) * 3
    mp, np_, kp = d.padded(P, s3)
    rows, cols, depth = mp // P["TSM"], np_ // P["TSN"], kp // P["TSK"]
    at_once = dev.compute_units * P["GROUPS_PER_CU"]
    costs, (slices, split) = d.model(P, s3, dev)
    blocks = rows * cols
    if not costs:
        return (f"**{size}**: C is {rows} x {cols} = {blocks} blocks, {blocks // at_once} whole waves of "
                f"{at_once}: no row is left over, and the host splits nothing.", "")
    if split == rows:
        why = f"fewer than the {at_once} places of one wave, so every row of blocks is split"
    else:
        whole = (rows - split) * cols
        why = (f"{whole // at_once} whole waves of {at_once} take the first {rows - split} rows, and the last "
               f"{split} row{'s' if split > 1 else ''} ({split * cols} blocks) would make a short last wave: "
               f"{'they are' if split > 1 else 'it is'} split")
    shown = sorted({c.slices for c in costs if c.slices in (1, slices // 2, slices, slices * 2, slices + 1)})
    lines = ["| SLICES | work-groups | tiles a split one walks | time, in tiles walked | copies, in tiles | "
             "model's cost |", "|---:|---:|---:|---:|---:|---:|"]
    for c in costs:
        if c.slices in shown:
            mark = "**" if c.slices == slices else ""
            lines.append(f"| {mark}{c.slices}{mark} | {int(c.whole + c.parts)} | {int(c.tiles)} | {c.time:.0f} | "
                         f"{c.copies:.1f} | {mark}{c.cost:.1f}{mark} |")
    after = next((c for c in costs if c.slices == slices + 1), None)
    chosen = next(c for c in costs if c.slices == slices)
    waves = -(-int(chosen.whole + chosen.parts) // at_once)
    if after is None:
        more = f"{slices} slices give each split work-group one tile, the most K's {depth} tiles allow"
    elif -(-int(after.whole + after.parts) // at_once) > waves:
        more = (f"one slice more makes {int(after.whole + after.parts)} work-groups, more than "
                f"{waves} wave{'s' if waves > 1 else ''} of {at_once} hold, and the time grows")
    else:
        more = "one slice more shortens the walk less than its copies cost"
    text = (f"**{size}**: C is {rows} x {cols} = {blocks} blocks of {P['TSM']} x {P['TSN']}, and K is {depth} "
            f"tiles deep; {why}. The host picks **{slices} slices**, the cheapest in its model: {more}.")
    return text, "\n".join(lines)


def snippet(results, tuning_dir, defaults):
    d = stepdefs.get(STEP)
    for r in results:
        if record_class(r) != "nvidia-gpu":
            continue
        listing = device_listing(tuning_dir, r.device, r.driver, prefer=f"{r.stem}-bench.log")
        P = dict(defaults.get(STEP, {}).get("nvidia-gpu", {}))
        if not listing or not P:
            continue
        dev = stepdefs.Device(listing[0], listing[1])
        parts = [f"With the NVIDIA defaults on **{md_escape(r.stem)}**: {listing[0]} compute units x "
                 f"GROUPS_PER_CU = {P['GROUPS_PER_CU']}, {listing[0] * P['GROUPS_PER_CU']} work-groups at once. "
                 "The model's time is the tiles of K walked one after another; the copies are priced in tiles too."]
        for size in SIZES:
            text, table = example(d, P, size, dev)
            parts.append(text + ("\n\n" + table if table else ""))
        return "\n\n".join(parts) + "\n"
    return ("No recorded NVIDIA GPU with its `--list-devices` listing in `lab/tuning/`: the worked example "
            f"needs one ({size_short((256,) * 3)} and up).\n")


def render(ctx):
    write(os.path.join(ctx.out, "step09_split_example.md"), snippet(ctx.results, ctx.tuning_dir, ctx.defaults))
