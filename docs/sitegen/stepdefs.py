"""One descriptor per step: the step's formulas as functions of its parameters and the problem,
written from its kernel file and main.c. Everything the site computes about a step (the
arithmetic tables, the ceilings, the diagrams) reads them from here, so adding a step means adding
one descriptor (to stepdefs_core.py, steps 1 to 8 and what they share, or stepdefs_split.py, steps
9 to 12) and listing it in STEPS below.

The formulas must match the kernels and the hosts exactly: docs/tests/test_geometry.py checks the
geometry of every descriptor against each step's own plan() (run through docs/tests/plan_dump.c),
step 9's choice of SLICES and SPLIT_ROWS against the host's, and the kernel file itself, traced
work-item by work-item.
"""
from .common import InputError
# the descriptors, and what the rest of the site reads of them as stepdefs.NAME
from .stepdefs_core import (VECTOR_WIDTHS, DoubleBuffering, Geometry, Naive, Padding, RegisterBlocking,  # noqa: F401
                            StepDef, Tile, Tiled, Transpose, Vectorized, WarpTiling, multiples)
from .stepdefs_split import (INT_MAX, SPLIT_DEFINES, SPLIT_HEADER, AsyncCopy, Device, SplitCost, SplitK,  # noqa: F401
                             Predication, TensorCores, read_split_defines, split_k_time)

STEPS = {d.name: d for d in (Naive(), Tiled(), Vectorized(), Transpose(), RegisterBlocking(), Padding(),
                             DoubleBuffering(), WarpTiling(), SplitK(), AsyncCopy(), TensorCores(),
                             Predication())}


def configure(source):
    """Reads what the descriptors take from the sources rather than restate: the constants of step
    9's model (SPLIT_DEFINES, common/include/gemm_step_rules.h)."""
    values = read_split_defines(source)
    missing = [name for name in SPLIT_DEFINES if name not in values]
    if missing:
        raise InputError(f"{SPLIT_HEADER}: no #define {', '.join(missing)}")
    SplitK.flops_per_byte = values["GEMM_SPLIT_FLOPS_PER_BYTE"]
    SplitK.group_tiles = values["GEMM_SPLIT_GROUP_TILES"]
    Predication.code_cost = values["GEMM_SPLIT_CODE_COST"]


def get(name):
    """The descriptor of step `name` (kernel02_tiled), or None."""
    return STEPS.get(name)
