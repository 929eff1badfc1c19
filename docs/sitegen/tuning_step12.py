"""The tables of step 12's experiments drawn from its records in lab/tuning/, Markdown for
\\includedoc:
  - lab12_copies.md: lab/exp_step12_copies.sh's log (NAME-step12-copies.log): step 12 beside the
    variants of its copies (lab/exp_step12_copies.py) and beside no split of K, with step 11, each
    over cuBLAS, and each kernel's registers.
  - lab12_depth.md: lab/exp_step12_depth.sh's log (NAME-step12-depth.log): steps 11 and 12 at their
    defaults and at TSK = 16, step 11's sgemm alone, step 12 with its copies through L1, each over
    cuBLAS, and step 12 over step 11's sgemm alone at each depth.
  - lab12_pairs.md: lab/exp_step12_pairs.sh's log (NAME-step12-pairs.log): step 12 beside its
    variant that reads A's fragments two floats at a time, with step 11, each over cuBLAS, and each
    kernel's registers.
  - lab12_pairs_pad.md: the same from that script's second run (NAME-step12-pairs-pad.log), which
    adds step 12 with the pairs' padding alone.
  - lab12_split_settings.md: lab/exp_step12_split.sh's log (NAME-step12-split-settings.log): step 12
    with the host's model of the device changed (GROUPS_PER_CU) and with K not split, beside step 11,
    each over cuBLAS, at 4096 and 8192.
  - lab12_order.md: lab/exp_step12_order.sh's second log (NAME-step12-order-copieslast.log): step 12
    beside its variants that read a tile's fragments before they start the next tile's copies
    (readsfirst), that start those copies after the tile's mma (copieslast), and that have no bound
    (nobounds), with step 11, each over cuBLAS, and each kernel's registers.
  - lab12_live.md: lab/exp_step12_live.sh's log (NAME-step12-live.log): step 12 at its defaults and
    with K not split, beside its variants without the split's code (nosum) and without the one-float
    copies too (nosum_vector1), both unsplit, with step 11, each over cuBLAS; then the variants over
    step 12 unsplit, round by round; and each kernel's registers.
"""
import os
import re

from .common import InputError, median, write

COPIES = "nvidia-h100-step12-copies.log"  # lab/exp_step12_copies.sh on the H100
# The runs of each size's block of that log, in the script's order; nobounds only where it is right
COPIES_RUNS = ("cuBLAS", "step 11", "step 12", "hoisted", "nobounds", "step 12, SLICES = 1")
COPIES_NAMES = {"hoisted": "step 12, sources and bounds worked out once (hoisted)",
                "nobounds": "step 12 with no bounds (nobounds; right only at multiples of the tiles)"}


def read_rounds(path, label, need_compiled=True):
    """The timings of a log of rounds (`== round R, M N K`, then one line per run): {(size, run):
    [GFLOPS, one per round]}. label(program, line, seen) names a run (seen: the runs before it in
    its block), or None for a line that is none of the script's runs: an error. A step 11 line
    that gives its sgemm's time adds the run "<its name>, sgemm alone": the size's flops over that
    time. Also the compiler's reports (`== ptxas NAME` then its lines): {NAME: (registers, spill
    stores)}."""
    lines = open(path, encoding="utf-8").read().splitlines()
    compiled = {m.group(1): (m.group(3), m.group(2)) for m in re.finditer(
        r"^== ptxas (.+)\n.*?(\d+) bytes spill stores.*\n.*?Used (\d+) registers", "\n".join(lines), re.M)}
    runs, block = {}, None
    for line in lines:
        m = re.match(r"== round \d+, (\d+)(?: (\d+) (\d+))?$", line)  # M N K, or one size: square
        if m:
            block = (tuple(int(x or m.group(1)) for x in m.groups()), [])
            continue
        m = re.match(r"(?:PASS|UNVERIFIED) (\S+) .*?: ([\d.]+) GFLOPS", line)
        if not (m and block):
            continue
        size, seen = block
        run = label(m.group(1), line, seen)
        if run is None:
            raise InputError(f"{path}: a run that is none of the script's: {line}")
        seen.append(run)
        runs.setdefault((size, run), []).append(float(m.group(2)))
        alone = re.search(r"sgemm ([\d.]+) ms", line)
        if m.group(1) == "kernel11_tensor_cores" and alone:
            flops = 2.0 * size[0] * size[1] * size[2]
            runs.setdefault((size, run + ", sgemm alone"), []).append(flops / (float(alone.group(1)) * 1e6))
    if not runs or (need_compiled and not compiled):
        raise InputError(f"{path}: not a log of the script that writes it")
    return runs, compiled


def ratio_rows(runs, rows, names, base="cuBLAS"):
    """A Markdown table: a column per size (by flops), a row per run of `rows`, each cell the run's
    median GFLOPS over the median of `base` at that size ("-" where either is missing)."""
    sizes = sorted({size for size, _ in runs}, key=lambda s: (s[0] * s[1] * s[2], s))
    out = ["| run | " + " | ".join(" x ".join(map(str, s)) for s in sizes) + " |", "|---" * (len(sizes) + 1) + "|"]
    for run in rows:
        cells = []
        for size in sizes:
            mine, over = runs.get((size, run)), runs.get((size, base))
            cells.append(f"{median(mine) / median(over):.2f}" if mine and over else "-")
        out.append(f"| {names.get(run, run)} | " + " | ".join(cells) + " |")
    return out


def registers(compiled, keys, names, title):
    out = ["", f"| kernel ({title}) | registers | spilled (stores) |", "|---|---:|---:|"]
    return out + [f"| {names.get(key, key)} | {compiled[key][0]} | {compiled[key][1]} B |" for key in keys if key in compiled]


def missing(name):
    return f"<div class=\"para\">No `{name}` in this site's tuning records.</div>\n"


def copies_table(tuning_dir, name=COPIES):
    """lab/exp_step12_copies.sh's log: each run's GFLOPS over cuBLAS's at the same size, both the
    median of the log's rounds, and each kernel's registers and spills."""
    path = os.path.join(tuning_dir, name)
    if not os.path.isfile(path):
        return missing(name)

    def label(program, line, seen):
        kernel_file = re.search(r"lab/exp/step12_(\w+)\.cl", line)
        run = {"cublas": "cuBLAS", "kernel11_tensor_cores": "step 11"}.get(program)
        if program == "kernel12_predication":
            run = kernel_file.group(1) if kernel_file else ("step 12" if "step 12" not in seen else "step 12, SLICES = 1")
        return run if run in COPIES_RUNS else None
    runs, compiled = read_rounds(path, label)
    out = ratio_rows(runs, COPIES_RUNS[1:], COPIES_NAMES)
    out += registers(compiled, ("kernel", "hoisted", "nobounds"), dict(COPIES_NAMES, kernel="step 12"),
                     "at 1024, as it runs at the large sizes")
    return "\n".join(out) + "\n"


DEPTH = "nvidia-h100-step12-depth.log"  # lab/exp_step12_depth.sh on the H100
DEPTH_ROWS = ("step 11", "step 11, sgemm alone", "step 11, TSK = 16", "step 11, TSK = 16, sgemm alone",
              "step 12", "step 12, TSK = 16", "step 12, copies through L1")


def depth_label(program, line, seen):
    """A run of lab/exp_step12_depth.sh's log, named as depth_table's rows."""
    deep = ", TSK = 16" if " TSK=16 " in line else ""
    if program == "cublas":
        return "cuBLAS"
    if program == "kernel11_tensor_cores":
        return "step 11" + deep
    if program == "kernel12_predication":
        return "step 12, copies through L1" if "lab/exp/step12_cached.cl" in line else "step 12" + deep
    return None


def depth_table(tuning_dir, name=DEPTH):
    """lab/exp_step12_depth.sh's log: each run over cuBLAS (medians of the rounds), then step 12
    over step 11's sgemm alone at TSK = 8 and at TSK = 16: the gap the experiment asks about."""
    path = os.path.join(tuning_dir, name)
    if not os.path.isfile(path):
        return missing(name)
    runs, compiled = read_rounds(path, depth_label)
    out = ratio_rows(runs, DEPTH_ROWS, {})
    gap = ratio_rows(runs, ("step 12",), {"step 12": "step 12 over step 11's sgemm alone, TSK = 8"},
                     base="step 11, sgemm alone")
    gap16 = ratio_rows(runs, ("step 12, TSK = 16",), {"step 12, TSK = 16": "the same at TSK = 16"},
                       base="step 11, TSK = 16, sgemm alone")
    out += ["", gap[0], gap[1], gap[2], gap16[2]]
    names = {f"kernel1{s}_{p} {o}": f"step 1{s}{', TSK = 16, STAGES = 2' if 'TSK' in o else ''}"
             for s, p in (("1", "tensor_cores"), ("2", "predication")) for o in ("(defaults)", "-D TSK=16 -D STAGES=2")}
    out += registers(compiled, list(names), names, "at 1024")
    return "\n".join(out) + "\n"


PAIRS = "nvidia-h100-step12-pairs.log"  # lab/exp_step12_pairs.sh on the H100
PAIRS_PAD = "nvidia-h100-step12-pairs-pad.log"  # its second run, with the padding alone
PAIRS_NAMES = {"step 12": "step 12 before the pairs (a3efea4, TILE_PAD = 8)",
               "pairs": "step 12, A's fragments read in pairs (pairs, TILE_PAD = 4)",
               "pad": "step 12 with TILE_PAD = 4 alone (its reads as they are)"}


def pairs_label(program, line, seen):
    """A run of lab/exp_step12_pairs.sh's log, named as pairs_table's rows."""
    if program == "kernel12_predication":
        return "pairs" if "lab/exp/step12_pairs.cl" in line else "pad" if " TILE_PAD=4 " in line else "step 12"
    return {"cublas": "cuBLAS", "kernel11_tensor_cores": "step 11"}.get(program)


def pairs_table(tuning_dir, name=PAIRS):
    """lab/exp_step12_pairs.sh's log: each run over cuBLAS (medians of the rounds), and each
    kernel's registers and spills."""
    path = os.path.join(tuning_dir, name)
    if not os.path.isfile(path):
        return missing(name)
    runs, compiled = read_rounds(path, pairs_label)
    pad = ("pad",) if any(run == "pad" for _, run in runs) else ()  # logs before the run was added have none
    out = ratio_rows(runs, ("step 11", "step 11, sgemm alone", "step 12") + pad + ("pairs",), PAIRS_NAMES)
    keys = {"kernel12_predication (defaults)": PAIRS_NAMES["step 12"],
            "kernel12_predication --kernel-file lab/exp/step12_pairs.cl -D TILE_PAD=4": PAIRS_NAMES["pairs"]}
    out += registers(compiled, list(keys), keys, "at 1024")
    return "\n".join(out) + "\n"


def medians(tuning_dir, name, label):
    """{(size, run): median GFLOPS} of a log of rounds, or {} where the log is not there."""
    path = os.path.join(tuning_dir, name)
    if not os.path.isfile(path):
        return {}
    return {key: median(v) for key, v in read_rounds(path, label)[0].items()}


SPLIT_SETTINGS = "nvidia-h100-step12-split-settings.log"  # lab/exp_step12_split.sh on the H100
SPLIT_SETTING_ROWS = ("step 11", "step 11, sgemm alone", "step 12", "GROUPS_PER_CU = 1", "GROUPS_PER_CU = 3", "no split")
SPLIT_NAMES = {"step 12": "step 12 (its defaults: GROUPS_PER_CU = 2)",
               "GROUPS_PER_CU = 1": "step 12, GROUPS_PER_CU = 1", "GROUPS_PER_CU = 3": "step 12, GROUPS_PER_CU = 3",
               "no split": "step 12, K not split (SLICES = 1)"}


def peer_run(program):
    """cuBLAS's and step 11's runs, as every step 12 log's table names them (None: neither)."""
    return {"cublas": "cuBLAS", "kernel11_tensor_cores": "step 11"}.get(program)


def split_label(program, line, seen):
    """A run of lab/exp_step12_split.sh's log, named as split_table's rows."""
    if program != "kernel12_predication":
        return peer_run(program)
    settings = (("no split", " SLICES=1 "), ("GROUPS_PER_CU = 1", " GROUPS_PER_CU=1 "), ("GROUPS_PER_CU = 3", " GROUPS_PER_CU=3 "))
    return next((run for run, flag in settings if flag in line), "step 12")


def split_table(tuning_dir, name=SPLIT_SETTINGS):
    """lab/exp_step12_split.sh's log: each run over cuBLAS, medians of the rounds."""
    path = os.path.join(tuning_dir, name)
    if not os.path.isfile(path):
        return missing(name)
    runs, _ = read_rounds(path, split_label, need_compiled=False)
    return "\n".join(ratio_rows(runs, SPLIT_SETTING_ROWS, SPLIT_NAMES)) + "\n"


ORDER = "nvidia-h100-step12-order-copieslast.log"  # lab/exp_step12_order.sh on the H100, its second run
ORDER_FIRST = "nvidia-h100-step12-order.log"  # its first run, readsfirst alone
ORDER_NAMES = {"readsfirst": "step 12, the fragments read before the next tile's copies (readsfirst)",
               "copieslast": "step 12, the next tile's copies after the tile's mma (copieslast)",
               "nobounds": COPIES_NAMES["nobounds"]}


def order_label(program, line, seen):
    """A run of lab/exp_step12_order.sh's log, named as order_table's rows: a variant by its kernel file."""
    if program != "kernel12_predication":
        return peer_run(program)
    kernel_file = re.search(r"lab/exp/step12_(\w+)\.cl", line)
    return kernel_file.group(1) if kernel_file else "step 12"


def order_table(tuning_dir, name=ORDER):
    """lab/exp_step12_order.sh's log: each run over cuBLAS (medians of the rounds), and each
    kernel's registers and spills. Only the variants the log ran have rows."""
    if not os.path.isfile(os.path.join(tuning_dir, name)):
        return missing(name)
    runs, compiled = read_rounds(os.path.join(tuning_dir, name), order_label)
    variants = [v for v in ORDER_NAMES if any(run == v for _, run in runs)]  # those the log ran
    out = ratio_rows(runs, ("step 11", "step 11, sgemm alone", "step 12", *variants), ORDER_NAMES)
    names = {"step12_kernel": "step 12", **{f"step12_{v}": ORDER_NAMES[v] for v in variants}}
    out += registers(compiled, list(names), names, "at 1024")
    return "\n".join(out) + "\n"


LIVE = "nvidia-h100-step12-live.log"  # lab/exp_step12_live.sh on the H100
LIVE_NAMES = {"step 12": "step 12 (its defaults)", "no split": "step 12, K not split (SLICES = 1)",
              "nosum": "step 12 without the split's code, K not split (nosum)",
              "nosum_vector1": "nosum with whole-vector copies only (nosum_vector1; right where K and N are multiples of 4)"}


def live_label(program, line, seen):
    """A run of lab/exp_step12_live.sh's log: a variant by its kernel file; of step 12's own two
    runs the first is its defaults, the second K not split (at 2048 the defaults split nothing
    either, so the order tells them apart, not the line)."""
    if program != "kernel12_predication":
        return peer_run(program)
    kernel_file = re.search(r"lab/exp/step12_(\w+)\.cl", line)
    if kernel_file:
        return kernel_file.group(1)
    return "no split" if "step 12" in seen else "step 12"


def live_rounds(tuning_dir, name=LIVE):
    """{(size, run): [GFLOPS per round]} and the compiler's reports of lab/exp_step12_live.sh's log,
    or None where the log is not there."""
    path = os.path.join(tuning_dir, name)
    return read_rounds(path, live_label) if os.path.isfile(path) else None


def live_table(tuning_dir, name=LIVE):
    """lab/exp_step12_live.sh's log: each run over cuBLAS (medians of the rounds); then nosum and
    nosum_vector1 over step 12 with K not split, each round's pair; each kernel's registers."""
    read = live_rounds(tuning_dir, name)
    if read is None:
        return missing(name)
    runs, compiled = read
    out = ratio_rows(runs, ("step 11", "step 11, sgemm alone", "step 12", "no split", "nosum", "nosum_vector1"),
                     LIVE_NAMES)
    sizes = sorted({size for size, _ in runs}, key=lambda s: s[0] * s[1] * s[2])
    out += ["", "| over step 12 with K not split, round by round | " + " | ".join(" x ".join(map(str, s)) for s in sizes)
            + " |", "|---" * (len(sizes) + 1) + "|"]
    for v in ("nosum", "nosum_vector1"):
        cells = [", ".join(f"{a / b:.3f}" for a, b in zip(runs[(s, v)], runs[(s, "no split")])) for s in sizes]
        out.append(f"| {v} | " + " | ".join(cells) + " |")
    names = {"step12_kernel": "step 12", "step12_nosum": "nosum", "step12_nosum_vector1": "nosum_vector1"}
    out += registers(compiled, list(names), names, "at 1024, K not split")
    return "\n".join(out) + "\n"


def render(ctx):
    write(os.path.join(ctx.out, "lab12_copies.md"), copies_table(ctx.tuning_dir))
    write(os.path.join(ctx.out, "lab12_depth.md"), depth_table(ctx.tuning_dir))
    write(os.path.join(ctx.out, "lab12_pairs.md"), pairs_table(ctx.tuning_dir))
    write(os.path.join(ctx.out, "lab12_pairs_pad.md"), pairs_table(ctx.tuning_dir, PAIRS_PAD))
    write(os.path.join(ctx.out, "lab12_split_settings.md"), split_table(ctx.tuning_dir))
    write(os.path.join(ctx.out, "lab12_order.md"), order_table(ctx.tuning_dir))
    write(os.path.join(ctx.out, "lab12_live.md"), live_table(ctx.tuning_dir))
