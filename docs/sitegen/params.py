"""The default parameters of every step per class of device, read from the table the harness
uses, common/src/gemm_params.c, with its rule (the row for all devices, then the class's own row;
the class `other` takes the CPU's), and the table of them for each step's page:
stepNN_defaults.md. docs/tests/test_geometry.py checks this reading against gemm_params_defaults()
itself, and docs/tests/test_kernel_headers.py the section "Defaults" of every kernel's header
against this reading."""
import os
import re

from . import stepdefs
from .common import InputError, md_escape, parse_params, write

PARAMS_C = os.path.join("common", "src", "gemm_params.c")

# The classes of gemm_cl.h that get parameters, in the order of the step's --help, with what they
# cover and the C name of their rows
CLASSES = [("cpu", "GEMM_DEVICE_CPU", "CPUs (PoCL), and class `other`"),
           ("nvidia-gpu", "GEMM_DEVICE_NVIDIA_GPU", "NVIDIA GPUs"),
           ("gpu", None, "other GPUs (AMD, Intel, ...)")]

# Parameters per table of stepNN_defaults.md: more do not fit the page beside the other columns
PER_TABLE, SPLIT_AT = 10, 8

ROW = re.compile(r'\{\s*"(\w+)"\s*,\s*(ANY|GEMM_DEVICE_\w+)\s*,\s*"([^"]*)"\s*\}')


def read_defaults(source):
    """{step: {class: {parameter: value}}} from common/src/gemm_params.c."""
    path = os.path.join(source, PARAMS_C)
    with open(path, encoding="utf-8") as f:
        rows = ROW.findall(f.read())
    if not rows:
        raise InputError(f"{path}: no rows of the defaults table found")
    out = {}
    for step in dict.fromkeys(r[0] for r in rows):
        out[step] = {}
        for cls, c_name, _ in CLASSES:
            values = {}
            for row_cls in ("ANY", c_name):
                for s, c, defines in rows:
                    if s == step and c == row_cls:
                        for item in defines.split():
                            name, _, value = item.partition("=")
                            values[name] = int(value)
            out[step][cls] = values
    return out


def same(step, recorded, values):
    """Whether a run of `step` that reports the parameters `recorded` ran with `values` (a parameter
    the host chooses when its default is 0, step 9's SLICES and SPLIT_ROWS, reports the choice)."""
    d = stepdefs.get(step)
    return values is not None and (d.same_params(recorded, values) if d else recorded == values)


def device_class(r, defaults):
    """The device class whose defaults results file r ran with: the class matching the most of its
    steps' parameters, or None."""
    score = {}
    for step in r.steps:
        row = r.row(step)
        for cls, _, _ in CLASSES:
            if row is not None and same(step, parse_params(row["params"]), defaults.get(step, {}).get(cls)):
                score[cls] = score.get(cls, 0) + 1
    return max(score, key=score.get) if score else None


def record_class(r):
    """The device class of a results file's device, as gemm_cl.h classifies it: PoCL's CPU is `cpu`,
    an NVIDIA platform `nvidia-gpu`, any other `gpu`."""
    if "Portable Computing Language" in r.platform:
        return "cpu"
    return "nvidia-gpu" if "NVIDIA" in r.platform else "gpu"


def recorded_cell(step, cls, values, results):
    """The results files recorded on a device of class `cls`: each named, with the parameters in
    which its run of `step` differs from the class's defaults where it does."""
    out = []
    for r in results:
        row = r.row(step.name)
        if row is None or record_class(r) != cls:
            continue
        ran = parse_params(row["params"])
        if same(step.name, ran, values):
            out.append(f"`{md_escape(r.stem)}`")
        else:
            d = stepdefs.get(step.name)
            run_as = d.copy_as_run(values, ran) if d and hasattr(d, "copy_as_run") else values
            other = [f"{k}={v}" for k, v in ran.items() if k in run_as and run_as[k] != v]
            out.append(f"`{md_escape(r.stem)}` (with {', '.join(other) or 'other values'})")
    return ", ".join(out) or "-"


def defaults_snippet(step, defaults, results):
    """The table of a step's defaults per device class, and which recorded device ran with which."""
    table = defaults.get(step.name)
    if not table:
        return f"`{PARAMS_C}` has no defaults for this step.\n"
    names = list(dict.fromkeys(n for cls, _, _ in CLASSES for n in table[cls]))
    # more than PER_TABLE parameters do not fit the page in one table: tables of SPLIT_AT (the sgemm's
    # tiles first), the recorded runs in the last
    per = len(names) if len(names) <= PER_TABLE else SPLIT_AT if len(names) <= 2 * SPLIT_AT - 2 else SPLIT_AT - 2
    tables = []
    for start in range(0, len(names), per):
        chunk, last = names[start:start + per], start + per >= len(names)
        lines = ["| device class | " + " | ".join(chunk) + (" | recorded runs on this class |" if last else " |"),
                 "|---|" + "---:|" * len(chunk) + ("---|" if last else "")]
        for cls, _, what in CLASSES:
            lines.append(f"| `{cls}`: {what} | " + " | ".join(str(table[cls].get(n, "-")) for n in chunk)
                         + (f" | {recorded_cell(step, cls, table[cls], results)} |" if last else " |"))
        tables.append("\n".join(lines))
    return (f"From `{PARAMS_C}`, the table the programs read (a step's `--help` prints the same); "
            "`-D NAME=VALUE` overrides any of them:\n\n" + "\n\nAnd the rest of them:\n\n".join(tables) + "\n")


def render(ctx):
    for s in ctx.steps:
        write(os.path.join(ctx.out, f"{s.page}_defaults.md"), defaults_snippet(s, ctx.defaults, ctx.results))
