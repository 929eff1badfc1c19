"""The tables of step 11's variants drawn from the logs of lab/exp_step11_costs.sh in the tuning
records (lab/tuning/), Markdown for \\includedoc:
  - step11_fragment_reads.md, step11_a_rows.md, step11_stores.md, step11_store_forms.md,
    step11_a_scalar.md, step11_two_acc.md, step11_ldmatrix.md: step 11's variants beside the
    kernel, from the logs NAME-step11-fragments.log, -a-rows.log, -stores.log, -store-forms.log,
    -a-scalar.log, -two-acc.log and -ldmatrix.log of lab/exp_step11_costs.sh: its fragments read
    two floats at a time; A read as it is instead of transposed; C stored two or four floats at a
    time; the float2 stores written other ways, beside the kernel before them; A as it is, read one
    float at a time; two sets of accumulators; A as it is, read by ldmatrix.
"""
import glob
import os
import re

from .common import InputError, fmt_gflops, median, write

# lab/exp_step11_costs.sh fragments, a_rows, stores, a_scalar, ldmatrix, store_forms and two_acc: what each variant is, by the kernel file and
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
    label = (label.replace("--kernel-file ", "").replace("bench/exp/", "").replace("lab/exp/", "")
             .replace("kernel11_tensor_cores/tensor_cores.cl", ""))
    return next(name for key, name in STEP11_VARIANTS if label.strip().startswith(key))


def step11_layout_snippet(tuning_dir, phase):
    """Step 11's variants of one phase of lab/exp_step11_costs.sh (fragments, a-rows, stores) beside
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
            raise InputError(f"{path}: not a log of lab/exp_step11_costs.sh {phase}")
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
    return "\n".join(out) if out else f"(no run of `lab/exp_step11_costs.sh DEB_DIR {phase}` is recorded)\n"


def render(ctx):
    for name, phase in (("step11_fragment_reads.md", "fragments"), ("step11_a_rows.md", "a-rows"),
                        ("step11_stores.md", "stores"), ("step11_store_forms.md", "store-forms"),
                        ("step11_a_scalar.md", "a-scalar"), ("step11_two_acc.md", "two-acc"),
                        ("step11_ldmatrix.md", "ldmatrix")):
        write(os.path.join(ctx.out, name), step11_layout_snippet(ctx.tuning_dir, phase))
