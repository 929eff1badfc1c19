"""The tables of step 11's variants drawn from the logs of lab/exp_step11_costs.sh in the tuning
records (lab/tuning/), Markdown for \\includedoc:
  - step11_fragment_reads.md, step11_a_rows.md, step11_stores.md, step11_store_forms.md,
    step11_a_scalar.md, step11_two_acc.md, step11_ldmatrix.md: step 11's variants beside the
    kernel, from the logs NAME-step11-fragments.log, -a-rows.log, -stores.log, -store-forms.log,
    -a-scalar.log, -two-acc.log and -ldmatrix.log of lab/exp_step11_costs.sh: its fragments read
    two floats at a time; A read as it is instead of transposed; C stored two or four floats at a
    time; the float2 stores written other ways, beside the kernel before them; A as it is, read one
    float at a time; two sets of accumulators; A as it is, read by ldmatrix;
  - step11_costs.md, step11_promote16.md: the same for the phases costs (timing-only variants, wrong
    on purpose: what the split, the promotion's adds and the products cost) and promote16;
  - step11_split_k_plans.md, step11_helpers.md: the plans of the split of K, and the transpose's
    work-groups, each setting's runs (-step11-split-k.log, -step11-helpers.log).
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


def step11_layout_snippet(tuning_dir, phase, variants=None):
    """Step 11's variants of one phase of lab/exp_step11_costs.sh (fragments, a-rows, stores, ...)
    beside the kernel: for each *-step11-PHASE.log, the medians of its rounds (GFLOPS of the whole
    step, and the change from the kernel), the sgemm's own time at 4096, and each build's registers.
    The variants are named by the log's lines of registers, or, where the log runs variants that
    those lines do not name (the phases costs and promote16), by `variants`: (name, the registers
    line's file or None, timed only) in the order each round runs them; a timed-only variant's runs
    are UNVERIFIED (wrong on purpose), every other run must pass. Runs after a round's last variant
    (the verification runs at the end of promote16's log) are not timings and are left out."""
    out = []
    for path in sorted(glob.glob(os.path.join(tuning_dir, f"*-step11-{phase}.log"))):
        lines = open(path, encoding="utf-8").read().splitlines()
        device, driver = (x.strip() for x in lines[0].split(",", 1))
        names, registers, timed_only = [], [], []
        reports = {m.group(1): m.group(3) + (f" ({m.group(2)} B spilled)" if int(m.group(2)) else "")
                   for m in re.finditer(r"^registers of \[?(.*?)\]?: .*?(\d+) bytes spill stores.*?Used (\d+) registers",
                                        "\n".join(lines), re.M)}
        if variants is None:
            names, registers = [step11_variant(k) for k in reports], list(reports.values())
            timed_only = [False] * len(names)
        else:
            for name, report, timed in variants:
                names.append(name + (" (timed only: wrong on purpose)" if timed else ""))
                # by the file's name (the scripts' files moved from bench/exp/ to lab/exp/)
                registers.append(next((v for k, v in reports.items()
                                       if report and os.path.basename(k.split()[0]) == report), "-"))
                timed_only.append(timed)
        runs, size, i = {}, None, 0
        for line in lines:
            m = re.match(r"== round \d+, (.*)", line)
            if m:
                size, i = m.group(1), 0
            elif size and line.startswith(("PASS", "FAIL", "UNVERIFIED")):
                if variants is not None and i >= len(names):
                    continue
                expect = "UNVERIFIED" if i < len(names) and timed_only[i] else "PASS"
                if not line.startswith(expect) or i >= len(names):
                    raise InputError(f"{path}: a run of round '{size}' that is not one of its variants as it "
                                     f"should have run (expected {expect})")
                err = re.search(r"([\d.e+-]+) \(normwise\)", line)
                runs.setdefault(size, [[] for _ in names])[i].append(
                    (float(re.search(r": ([\d.]+) GFLOPS", line).group(1)),
                     float(re.search(r"sgemm ([\d.]+) ms", line).group(1)),
                     float(err.group(1)) if err else None))
                i += 1
        if not names or not runs:
            raise InputError(f"{path}: not a log of lab/exp_step11_costs.sh {phase}")
        sizes = list(runs)
        label = {s: " x ".join(re.findall(r"-[mnk] (\d+)", s)) or s.split()[-1] for s in sizes}
        square = next((s for s in sizes if label[s] == "4096"), None)
        out.append(f"{device} (driver {driver}, {lines[1].strip()}; `{os.path.basename(path)}`), GFLOPS of the "
                   f"whole step, medians of {len(runs[sizes[0]][0])} rounds, each variant's change from the kernel "
                   f"in brackets:\n")
        # the normwise error (over its bound) at 4096 where the variants differ in how they add
        # (the phase promote16); the other phases' variants all pass the same check
        errors = square and phase == "promote16"
        shown = any(r != "-" for r in registers)  # the phase costs has no report of its builds
        out.append("| variant | " + " | ".join(label[s] for s in sizes) + (" | sgemm at 4096 (ms)" if square else "")
                   + (" | normwise error / bound at 4096" if errors else "") + (" | registers |" if shown else " |"))
        out.append("|---" * (len(sizes) + 1 + bool(square) + bool(errors) + shown) + "|")
        base = [median([g for g, _, _ in runs[s][0]]) for s in sizes]
        for v, name in enumerate(names):
            cells = []
            for s, b in zip(sizes, base):
                g = median([g for g, _, _ in runs[s][v]])
                cells.append(fmt_gflops(g) if v == 0 else f"{fmt_gflops(g)} ({(g / b - 1) * 100:+.1f}\\%)")
            if square:
                cells.append(f"{median([t for _, t, _ in runs[square][v]]):.3f}")
            if errors:
                e = [x for _, _, x in runs[square][v] if x is not None]
                cells.append(f"{median(e):.3g}" if e else "-")
            out.append(f"| {name} | " + " | ".join(cells + ([registers[v]] if shown else [])) + " |")
        out.append("")
    return "\n".join(out) if out else f"(no run of `lab/exp_step11_costs.sh DEB_DIR {phase}` is recorded)\n"


# lab/tune_step11.sh split_k (and its H100 run): the settings it runs, by the plans they make
STEP11_COSTS = (("the kernel", None, False),
                ("the split made nearly free (hi = x, lo = −x)", None, True),
                ("no promotion (PROMOTE = 0)", None, True),
                ("neither", None, True),
                ("one product (PRODUCTS = 1)", None, True))
STEP11_PROMOTE16 = (("the kernel (TSK = 8, a ring of 4 tiles)", None, False),
                    ("the kernel with TSK = 16 (a ring of 2)", "tensor_cores.cl", False),
                    ("TSK = 16, B's fragments of both 8-deep steps held, promoting every 8", "every8.cl", False),
                    ("TSK = 16, each block's six products chained, promoting every 16", "promote16.cl", False))
SPLIT_KEYS = ("SLICES", "SPLIT_ROWS", "GROUPS_PER_CU")
HELPERS_PART = ("the transpose of A", r"transpose A|transpose\+pad A")


def step11_settings_snippet(tuning_dir, phase, keys, part=None, first="the host's plan"):
    """Settings of step 11 tried by lab/tune_step11.sh (*-step11-PHASE.log, each setting run in
    several rounds): each setting's runs at each size, their median, and its change from the first
    setting run at that size (`first`): GFLOPS of the whole step, or, with `part` = (its name, a
    pattern of its name in the log's lines), that kernel's own time in ms. The plans of the split of K (keys SLICES, SPLIT_ROWS, GROUPS_PER_CU), the helpers'
    work-groups (TRANSPOSE_TILE, the transpose's time)."""
    out = []
    for path in sorted(glob.glob(os.path.join(tuning_dir, f"*-step11-{phase}.log"))):
        lines = open(path, encoding="utf-8").read().splitlines()
        device, driver = (x.strip() for x in lines[0].split(",", 1))
        runs = {}
        for line in lines:
            m = re.match(r"PASS kernel11_tensor_cores M=(\d+) N=(\d+) K=(\d+) .*?: ([\d.]+) GFLOPS", line)
            if m:
                size = " x ".join(dict.fromkeys(m.group(1, 2, 3))) if len(set(m.group(1, 2, 3))) > 1 else m.group(1)
                setting = " ".join(re.search(rf"\b{k}=\d+", line).group(0) for k in keys)
                value = float(re.search(rf"(?:{part[1]}) ([\d.]+) ms", line).group(1)) if part else float(m.group(4))
                runs.setdefault(size, {}).setdefault(setting, []).append(value)
            elif line.startswith(("FAIL", "UNVERIFIED")):
                raise InputError(f"{path}: a run that did not pass: {line[:80]}")
        if not runs:
            raise InputError(f"{path}: no runs of step 11")
        what = f"the time of {part[0]} (ms)" if part else "GFLOPS of the whole step"
        out.append(f"{device} (driver {driver}, {lines[1].strip()}; `{os.path.basename(path)}`), {what}, each run, "
                   f"their median, and the change from {first} (the first row of each size):\n")
        out.append(f"| size | {'plan' if keys == SPLIT_KEYS else 'setting'} | runs | median | change |")
        out.append("|---|---|---|---:|---:|")
        for size, settings in runs.items():
            base = median(next(iter(settings.values())))
            for j, (setting, g) in enumerate(settings.items()):
                change = first if j == 0 else f"{(median(g) / base - 1) * 100:+.1f}\\%"
                show = (lambda x: f"{x:.4f}") if part else fmt_gflops
                out.append(f"| {size} | {setting} | {', '.join(show(x) for x in g)} | {show(median(g))} | {change} |")
        out.append("")
    return "\n".join(out) if out else f"(no run of lab/tune_step11.sh's {phase} is recorded)\n"


def render(ctx):
    for name, phase in (("step11_fragment_reads.md", "fragments"), ("step11_a_rows.md", "a-rows"),
                        ("step11_stores.md", "stores"), ("step11_store_forms.md", "store-forms"),
                        ("step11_a_scalar.md", "a-scalar"), ("step11_two_acc.md", "two-acc"),
                        ("step11_ldmatrix.md", "ldmatrix")):
        write(os.path.join(ctx.out, name), step11_layout_snippet(ctx.tuning_dir, phase))
    write(os.path.join(ctx.out, "step11_costs.md"), step11_layout_snippet(ctx.tuning_dir, "costs", STEP11_COSTS))
    write(os.path.join(ctx.out, "step11_promote16.md"),
          step11_layout_snippet(ctx.tuning_dir, "promote16", STEP11_PROMOTE16))
    write(os.path.join(ctx.out, "step11_split_k_plans.md"), step11_settings_snippet(ctx.tuning_dir, "split-k", SPLIT_KEYS))
    write(os.path.join(ctx.out, "step11_helpers.md"),
          step11_settings_snippet(ctx.tuning_dir, "helpers", ("TRANSPOSE_TILE",), HELPERS_PART, "the default, 16"))
