"""The diagrams of the site can never disagree with the kernels: for every step, several parameter
sets and sizes (awkward ones included), the geometry its descriptor gives (docs/sitegen/stepdefs.py,
what the diagrams draw) is compared with
  - the step's own plan() in its main.c, run through docs/tests/plan_dump.c: refused or not, the
    sgemm launch's global and local sizes, its local memory, the sizes it is called with;
  - the step's kernel file, run work-item by work-item by cltrace.py: which elements of C each
    work-item stores (every element of C exactly once; with K split, step 9, every element of C
    and of each further slice's copy of the split rows exactly once, where the descriptor puts it),
    which element of A or B each tile element is loaded from (every tile element once per tile),
    which tiles of K each work-group walks through (all of them in a whole row, its slice's in a
    split one; the work-groups of a block together every tile exactly once), which tiles are on
    their way into local memory while a tile is read and how (what the diagrams' captions of the
    buffers say: step 10's ring of copies, steps 7-9's next tile through registers), and which tile
    elements each work-item reads at each k, with no data race in local memory (a write, or an
    asynchronous copy in flight, that no barrier or wait separates from another work-item's access:
    cltrace.py's model, which also finds the races of exercise 7.1 and of step 10 with its barrier
    or waits misplaced, which PoCL hides); where the plan un-pads C or adds up its split rows,
    which element each work-item of `unpad` writes (each of C's rows it covers once: all of them
    where C is padded, the split rows alone where not) and which it adds up (that element of the
    padded C or, in a split row, of every slice's copy);
  - step 9's choice of SLICES and SPLIT_ROWS (0: the host's): the descriptor's model against the
    host's own choice, on devices of several sizes;
and the defaults read from common/src/gemm_params.c with the ones the harness itself gives. The
drawings themselves are checked by docs.drawings (test_drawings.py).

    python3 docs/tests/test_geometry.py SOURCE_DIR PLAN_DUMP_DIR   (the test docs.geometry)
PLAN_DUMP_DIR holds plan_dump_<step> for every step (docs/CMakeLists.txt builds them).
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
import cltrace  # noqa: E402
from fixture import load_steps  # noqa: E402
from sitegen import stepdefs  # noqa: E402

SOURCE = PLAN_DUMP_DIR = None

# Parameter sets beyond each class's defaults: small tiles (so that a trace covers several
# work-groups), shapes the exercises name, and each step's corner cases
EXTRA_PARAMS = {
    "kernel01_naive": [{"TS": 4}, {"TS": 1}],
    "kernel02_tiled": [{"TS": 4}, {"TS": 12}],
    "kernel03_vectorized": [{"TS": 8, "WIDTH": 2}, {"TS": 8, "WIDTH": 8}, {"TS": 12, "WIDTH": 4}],
    "kernel04_transpose": [{"TSM": 16, "TSN": 8, "TSK": 4, "WIDTH": 4}, {"TSM": 8, "TSN": 16, "TSK": 8, "WIDTH": 1}],
    "kernel05_register_blocking": [
        {"TSM": 16, "TSN": 32, "TSK": 8, "WPTM": 8, "WPTN": 4, "WIDTH": 4},
        {"TSM": 32, "TSN": 64, "TSK": 16, "WPTM": 8, "WPTN": 8, "WIDTH": 8},   # exercise 5.1
        {"TSM": 32, "TSN": 64, "TSK": 16, "WPTM": 8, "WPTN": 8, "WIDTH": 4},   # exercise 5.1
        {"TSM": 16, "TSN": 16, "TSK": 4, "WPTM": 2, "WPTN": 2, "WIDTH": 2}],
    "kernel06_padding": [
        {"TSM": 32, "TSN": 64, "TSK": 16},                                     # exercise 6.2
        {"TSM": 16, "TSN": 32, "TSK": 8, "WPTM": 8, "WPTN": 4, "WIDTH": 4}],
    "kernel07_double_buffering": [
        {"TSM": 16, "TSN": 32, "TSK": 8, "WPTM": 4, "WPTN": 4, "WIDTH": 4},
        {"TSM": 32, "TSN": 32, "TSK": 4, "WPTM": 4, "WPTN": 8, "WIDTH": 4},   # uneven tile loads: refused
        {"TSM": 16, "TSN": 16, "TSK": 8, "WPTM": 2, "WPTN": 2, "WIDTH": 2}],
    "kernel08_warp_tiling": [
        {"TSM": 32, "TSN": 32, "TSK": 8, "WTM": 16, "WTN": 16, "WPTM": 4, "WPTN": 4, "WIDTH": 4},
        {"TSM": 32, "TSN": 64, "TSK": 8, "WTM": 16, "WTN": 32, "WPTM": 4, "WPTN": 8, "WIDTH": 4},
        {"TSM": 32, "TSN": 64, "TSK": 8, "WTM": 32, "WTN": 16, "WPTM": 8, "WPTN": 4, "WIDTH": 4},
        {"TSM": 64, "TSN": 64, "TSK": 16, "WTM": 24, "WTN": 64, "WPTM": 4, "WPTN": 8, "WIDTH": 4}],  # refused
    "kernel09_split_k": [
        {"TSM": 32, "TSN": 32, "TSK": 8, "WTM": 16, "WTN": 16, "WPTM": 4, "WPTN": 4, "WIDTH": 4, "SLICES": 1},
        {"TSM": 32, "TSN": 32, "TSK": 8, "WTM": 16, "WTN": 16, "WPTM": 4, "WPTN": 4, "WIDTH": 4, "SLICES": 2},
        {"TSM": 32, "TSN": 64, "TSK": 8, "WTM": 32, "WTN": 16, "WPTM": 8, "WPTN": 4, "WIDTH": 4, "SLICES": 3},
        {"TSM": 16, "TSN": 16, "TSK": 8, "WTM": 8, "WTN": 8, "WPTM": 2, "WPTN": 2, "WIDTH": 2, "SLICES": 64}],
}

# Step 10: rings of 2 and 4 tiles, with either kind of copy, and K split (slices shorter than the ring)
EXTRA_PARAMS["kernel10_async_copy"] = [
    {"TSM": 32, "TSN": 32, "TSK": 8, "WTM": 16, "WTN": 16, "WPTM": 4, "WPTN": 4, "WIDTH": 4, "STAGES": 2, "SLICES": 1},
    {"TSM": 32, "TSN": 32, "TSK": 8, "WTM": 16, "WTN": 16, "WPTM": 4, "WPTN": 4, "WIDTH": 4, "STAGES": 4, "SLICES": 3},
    {"TSM": 32, "TSN": 64, "TSK": 8, "WTM": 32, "WTN": 16, "WPTM": 8, "WPTN": 4, "WIDTH": 4, "STAGES": 3, "COPY": 1,
     "SLICES": 2},
    {"TSM": 16, "TSN": 16, "TSK": 8, "WTM": 8, "WTN": 8, "WPTM": 2, "WPTN": 2, "WIDTH": 2, "STAGES": 3, "COPY": 1,
     "SLICES": 64}]

# Step 11: small warp tiles (one fragment of A, two of B), padded tile rows, either path, K split
EXTRA_PARAMS["kernel11_tensor_cores"] = [
    {"TSM": 32, "TSN": 32, "TSK": 8, "WTM": 16, "WTN": 16, "WPTM": 2, "WPTN": 4, "WIDTH": 2, "STAGES": 2, "TILE_PAD": 4,
     "TC": 0, "SLICES": 1},
    {"TSM": 32, "TSN": 64, "TSK": 16, "WTM": 32, "WTN": 16, "WPTM": 4, "WPTN": 4, "WIDTH": 4, "STAGES": 3, "TILE_PAD": 8,
     "TC": 1, "SLICES": 2},
    {"TSM": 32, "TSN": 32, "TSK": 8, "WTM": 16, "WTN": 16, "WPTM": 4, "WPTN": 4, "WIDTH": 4, "STAGES": 2}]  # 16 lanes: refused

# Step 12: as step 11's, and vectors of 2 against its edges, K split in 3
EXTRA_PARAMS["kernel12_predication"] = [dict(p) for p in EXTRA_PARAMS["kernel11_tensor_cores"]] + [
    {"TSM": 32, "TSN": 64, "TSK": 8, "WTM": 16, "WTN": 32, "WPTM": 2, "WPTN": 8, "WIDTH": 2, "STAGES": 2, "TC": 0,
     "COPY": 0, "SLICES": 3}]

# Steps whose kernel cltrace.py cannot run, so test_kernel_stores_loads_and_reads_what_the_descriptor_says
# leaves them out (their launch, local memory and refusals are still checked against the plan):
# step 11's fragments are read through casts of the tiles to float pointers, split by bit
# operations in functions that return values, and multiplied by inline PTX (mma.sync) or through
# the portable path's per-warp local arrays, none of which the tracer translates yet. Its ownership
# of C and its reads are the fragment layout of mma.sync m16n8k8 written in tensor_cores.cl's header;
# the kernel's own tests (verification at awkward sizes, a swapped fragment failing) cover the rest.
# Step 12 reads its fragments as step 11 does, and adds its slices with an atomic counter and
# volatile reads, which the tracer does not translate either; its tests at awkward sizes, its
# mutants (a load past a row, a store past M, a slice dropped, the counter kept) and Oclgrind's
# race checker on the portable path cover it.
NOT_TRACED = {"kernel11_tensor_cores", "kernel12_predication"}

# Step 9 traced where the slices of K are uneven, start at an odd tile (the buffers count from the
# slice's first tile) and outnumber the tiles, and where whole rows of blocks come before split
# ones: (parameters beyond the `gpu` defaults, problem). Without compute units (plan_dump's device)
# the host splits the last row of blocks alone when SLICES is forced.
SPLIT_SMALL = {"TSM": 32, "TSN": 32, "TSK": 8, "WTM": 16, "WTN": 16, "WPTM": 4, "WPTN": 4, "WIDTH": 4}
EXTRA_TRACES = {
    "kernel09_split_k": [
        (dict(SPLIT_SMALL, SLICES=2), (31, 29, 37)),     # 5 tiles: 2 + 3
        (dict(SPLIT_SMALL, SLICES=3), (33, 32, 39)),     # 5 tiles: 1 + 2 + 2, slice 1 from tile 1; 1 whole row
        (dict(SPLIT_SMALL, SLICES=4), (32, 32, 48)),     # 6 tiles: 1 + 2 + 1 + 2 (exercise 9.1's case)
        (dict(SPLIT_SMALL, SLICES=7), (20, 30, 17)),     # 3 tiles: 4 slices without one
        (dict(SPLIT_SMALL, SLICES=2, SPLIT_ROWS=1), (90, 32, 24)),   # 2 whole rows of 3, 3 tiles: 1 + 2
        (dict(SPLIT_SMALL, SLICES=3, SPLIT_ROWS=2), (96, 40, 40)),   # 1 whole row, 2 split ones, 5 tiles
        (dict(SPLIT_SMALL, SLICES=2, SPLIT_ROWS=4096), (64, 32, 17))],  # every row (the first version)
}

# Devices for step 9's choice of SLICES: (compute units, largest allocation in bytes)
SPLIT_DEVICES = [(132, 20 * 2**30), (2, 4 * 2**30), (16, 2**30), (1, 64 * 2**20), (132, 2**18), (0, 0)]
SPLIT_SIZES = [(256,) * 3, (512,) * 3, (1024,) * 3, (2048,) * 3, (4095,) * 3, (4097,) * 3, (8192,) * 3,
               (1000, 3000, 500), (1024, 1024, 8192), (31, 60, 300), (1, 1, 1), (64, 64, 100000), (100, 100, 4096),
               (3000, 5000, 2000), (20000, 20000, 64)]
# Forced values beside the host's choice: (SLICES, SPLIT_ROWS), 0 for the host's
SPLIT_FORCED = [(0, 0), (2, 0), (0, 1), (0, 4096), (3, 2)]


def sizes_for(geometry_params, d):
    """Problems to try: multiples of the tiles (2 or 3 along each side), one that is not, and for
    the steps that take any size, awkward ones."""
    P = geometry_params
    tm = P.get("TSM", P.get("TS", 1))
    tn = P.get("TSN", P.get("TS", 1))
    tk = P.get("TSK", P.get("TS", 1))
    out = [(2 * tm, 3 * tn, 2 * tk), (3 * tm, 2 * tn, tk), (2 * tm + 1, 2 * tn, 2 * tk), (tm, tn + 3, tk + 1),
           (1, 1, 1), (tm - 1 or 1, 2 * tn - 5 if tn > 5 else tn + 1, 3)]
    if d.chosen:  # step 9: K deep enough for several slices, a number of tiles no slice count divides
        out += [(tm + 1, tn, 7 * tk - 3), (2 * tm, tn, 5 * tk)]
    return list(dict.fromkeys(out))


# The tracer runs about 100 000 tile or global reads a second: a trace stays under this many
TRACE_BUDGET = 60_000


def trace_size(d, P):
    """A problem for a trace: 2 x 2 work-groups and 2 tiles deep where the budget allows, fewer for
    large tiles; for the steps that take any size, an awkward one that pads to it."""
    tm = P.get("TSM", P.get("TS", 1))
    tn = P.get("TSN", P.get("TS", 1))
    tk = P.get("TSK", P.get("TS", 1))
    for gm, gn, gk in ((2, 2, 2), (2, 1, 2), (1, 2, 1), (1, 1, 1)):
        size = (gm * tm, gn * tn, gk * tk)
        if d.refusal(P, (gm * tm - 1, gn * tn - 1, gk * tk - 1)) is None:
            size = (gm * tm - 1, gn * tn - (tn > 3) * 3, gk * tk - 1)   # any size: make it awkward
        if d.refusal(P, size) is not None:
            return None
        reads = d.arithmetic(d.resolve(P, size), size).get("lpf") or 2
        if size[0] * size[1] * size[2] * reads <= TRACE_BUDGET or (gm, gn, gk) == (1, 1, 1):
            return size


def plan(step, size, P, device=None, compute_capability=None):
    """The step's plan, from plan_dump_<step>, on a device with `device` = (compute units, largest
    allocation in bytes), or none of either, and NVIDIA's compute capability (major*10 + minor; 0:
    not an NVIDIA GPU) where given, else plan_dump's 9.0."""
    dev = ["--compute-units", str(device[0]), "--max-alloc", str(device[1])] if device else []
    if compute_capability is not None:
        dev += ["--compute-capability", str(compute_capability)]
    proc = PLAN_DUMPS.get(step)
    if proc is None:  # one process per step answers every plan asked of it, a line each (--batch)
        proc = PLAN_DUMPS[step] = subprocess.Popen([os.path.join(PLAN_DUMP_DIR, f"plan_dump_{step}"), "--batch"],
                                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                                   stderr=subprocess.PIPE, text=True)
    proc.stdin.write(" ".join([*dev, *map(str, size), *(f"{k}={v}" for k, v in P.items())]) + "\n")
    proc.stdin.flush()
    line = proc.stdout.readline()
    if not line:
        del PLAN_DUMPS[step]
        raise RuntimeError(f"plan_dump_{step} failed: {proc.communicate()[1]}")
    return json.loads(line)


PLAN_DUMPS = {}


def close_plan_dumps():
    """Ends the plan_dump processes: each must exit 0 (in a sanitized build, with no leak reported)."""
    failed = []
    for step, proc in PLAN_DUMPS.items():
        err = proc.communicate()[1]
        if proc.returncode != 0:
            failed.append(f"plan_dump_{step} --batch exited with {proc.returncode}: {err}")
    PLAN_DUMPS.clear()
    if failed:
        raise RuntimeError("\n".join(failed))


def element(buffer_rows_cols, flat):
    rows, cols = buffer_rows_cols
    return divmod(flat, cols)


class Geometry(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.steps, cls.defaults = load_steps(SOURCE)

    def cases(self, step):
        """(P, size) pairs: every class's defaults and the extra sets, with the sizes above."""
        seen = []
        for P in [self.defaults[step.name][c] for c in ("cpu", "nvidia-gpu", "gpu")]:
            if P not in seen:
                seen.append(P)
        for extra in EXTRA_PARAMS.get(step.name, []):
            P = dict(self.defaults[step.name]["gpu"], **extra)
            if P not in seen:
                seen.append(P)
        d = stepdefs.get(step.name)
        return [(P, size) for P in seen for size in sizes_for(P, d)]

    def test_every_step_has_a_descriptor(self):
        for s in self.steps:
            self.assertIsNotNone(stepdefs.get(s.name), f"docs/sitegen/stepdefs.py has no descriptor for {s.name}")

    def test_defaults_are_the_harness_defaults(self):
        for s in self.steps:
            proc = subprocess.run([os.path.join(PLAN_DUMP_DIR, f"plan_dump_{s.name}"), "--defaults"],
                                  capture_output=True, text=True, check=True)
            self.assertEqual(json.loads(proc.stdout), self.defaults[s.name], s.name)

    def test_launch_matches_the_plan(self):
        for s in self.steps:
            d = stepdefs.get(s.name)
            for P, size in self.cases(s):
                with self.subTest(step=s.name, P=P, size=size):
                    got = plan(s.name, size, P)
                    self.assertEqual("refused" in got, d.refusal(P, size) is not None, got.get("refused"))
                    if "refused" in got:
                        continue
                    g = d.geometry(P, size)
                    sgemm = [launch for launch in got["launches"] if launch["kernel"] == "sgemm"]
                    self.assertEqual(len(sgemm), 1)
                    sgemm = sgemm[0]
                    self.assertEqual(tuple(sgemm["global"]), g.global_size)
                    self.assertEqual(tuple(sgemm["local"]), g.local_size)
                    self.assertEqual(tuple(sgemm["args"][:3]), g.kernel_size)
                    self.assertEqual(g.items, g.local_size[0] * g.local_size[1])
                    if sgemm["local_mem"]:  # steps 1's plan declares none, and has no tiles
                        self.assertEqual(sgemm["local_mem"], g.local_bytes)
                    else:
                        self.assertEqual(g.tiles, [])
                    # the work-groups tile the grid, which covers C (with step 6's zero-padding)
                    self.assertEqual(g.grid, (g.block_rows * g.block[0], g.groups[0] * g.block[1]))
                    self.assertGreaterEqual(g.grid[0], g.kernel_size[0])
                    self.assertGreaterEqual(g.grid[1], g.kernel_size[1])
                    self.assertEqual(g.per_item[0] * g.per_item[1] * g.items, g.block[0] * g.block[1])
                    # step 9: a work-group row per whole row of blocks and SLICES per split one, the
                    # split row count passed as the sgemm's argument after the copies of the split
                    # rows: a helper buffer of their own (buffer 6) when K is split, else C again
                    self.assertEqual(g.groups[1], g.full_rows + g.slices * g.split_rows)
                    self.check_sgemm_args(sgemm, g)
                    if g.slices > 1 and d.in_place:  # step 12: the partial blocks, a workspace (buffer 3)
                        self.assertEqual(got["temps"][0], g.slices * g.split_rows * g.block[0] * g.grid[1])
                        self.assertEqual(got["temps"][1], g.split_rows * g.groups[0])  # a counter per split block
                    elif g.slices > 1:
                        self.assertEqual(got["temps"][3], (g.buffer_rows - g.copies_from) * g.kernel_size[1])
                    # step 8: the work-items of warp w (consecutive linear ids) own warp tile w
                    if g.sub_tiles:
                        self.assertEqual(len(g.sub_tiles) * g.warp_items, g.items)
                        for ly in range(g.local_size[1]):
                            for lx in range(g.local_size[0]):
                                r0, c0, rows, cols = g.sub_tiles[(ly * g.local_size[0] + lx) // g.warp_items]
                                for r, c in g.owned(lx, ly):
                                    self.assertTrue(r0 <= r < r0 + rows and c0 <= c < c0 + cols, (lx, ly, r, c))

    def test_kernel_stores_loads_and_reads_what_the_descriptor_says(self):
        for s in self.steps:
            if s.name in NOT_TRACED:  # why: NOT_TRACED
                continue
            d = stepdefs.get(s.name)
            kernel = os.path.join(SOURCE, s.kernel)
            traces = []
            for P in dict.fromkeys(json.dumps(P, sort_keys=True) for P, _ in self.cases(s)):
                P = json.loads(P)
                size = trace_size(d, P)
                if size is not None:  # None: parameters the step refuses at every size
                    traces.append((P, size))
            traces += [(dict(self.defaults[s.name]["gpu"], **extra), size)
                       for extra, size in EXTRA_TRACES.get(s.name, [])]
            for P, size in traces:
                with self.subTest(step=s.name, P=P, size=size):
                    self.assertIsNone(d.refusal(d.resolve(P, size), size))
                    g = d.geometry(P, size)
                    self.check_trace(kernel, d, g)
                    unpad = [launch for launch in plan(s.name, size, P)["launches"] if launch["kernel"] == "unpad"]
                    if unpad:
                        self.check_unpad(kernel, g, unpad[0])

    def test_trace_catches_slices_that_miss_tiles(self):
        """Exercise 9.1's kernel (the slices' bounds rounded down) fails the check of the walk along K."""
        s = next((s for s in self.steps if s.name == "kernel09_split_k"), None)
        if s is None:
            self.skipTest("no step 9")
        bug = os.path.join(SOURCE, "docs", "exercises", "step09_bug.cl")
        d = stepdefs.get(s.name)
        P, size = dict(self.defaults[s.name]["gpu"], **SPLIT_SMALL, SLICES=4), (32, 32, 48)
        self.assertEqual(d.geometry(P, size).split_rows, 1)  # its one row of blocks is split
        self.check_trace(os.path.join(SOURCE, s.kernel), d, d.geometry(P, size))  # the step's own kernel passes
        with self.assertRaisesRegex(AssertionError, "every tile of K exactly once"):
            self.check_trace(bug, d, d.geometry(P, size))

    def test_trace_catches_a_copy_into_the_tile_in_use(self):
        """Exercise 10.1's kernel (the copy of tile t+STAGES-1 started into tile t's buffer) fails the
        check of where each tile lies in local memory, with either kind of copy."""
        s = next((s for s in self.steps if s.name == "kernel10_async_copy"), None)
        if s is None:
            self.skipTest("no step 10")
        bug = os.path.join(SOURCE, "docs", "exercises", "step10_bug.cl")
        d = stepdefs.get(s.name)
        for copy in (0, 1):
            P, size = dict(self.defaults[s.name]["gpu"], **SPLIT_SMALL, STAGES=2, SLICES=1, COPY=copy), (32, 32, 40)
            with self.subTest(COPY=copy):
                self.check_trace(os.path.join(SOURCE, s.kernel), d, d.geometry(P, size))  # the step's own passes
                with self.assertRaisesRegex(AssertionError, r": (Asub|Bsub) element \("):  # the tile's place check
                    self.check_trace(bug, d, d.geometry(P, size))

    def test_ring_check_catches_wrong_buffers(self):
        """The check of what each buffer holds (check_ring) fails where the geometry says what the
        diagrams of step 10 once said: tile t+1 only, through registers (step 7's schedule), or a
        ring whose copies run one tile less ahead than the kernel's."""
        s = next((s for s in self.steps if s.name == "kernel10_async_copy"), None)
        if s is None:
            self.skipTest("no step 10")
        d = stepdefs.get(s.name)
        P, size = dict(self.defaults[s.name]["gpu"], **SPLIT_SMALL, STAGES=3, SLICES=1), (32, 32, 48)
        kernel = os.path.join(SOURCE, s.kernel)
        for copy in (0, 1):
            with self.subTest(COPY=copy):
                g = d.geometry(dict(P, COPY=copy), size)
                self.check_trace(kernel, d, g)  # as the descriptor says: passes
                g.staging = "registers"
                with self.assertRaisesRegex(AssertionError, "while tile [0-9]+ is read"):
                    self.check_trace(kernel, d, g)
                g = d.geometry(dict(P, COPY=copy), size)
                g.buffer_tiles = lambda group, t, real=g.buffer_tiles: {
                    b: ((u, "done") if state == "ahead" and u == t + 2 else (u, state))
                    for b, (u, state) in real(group, t).items()}
                with self.assertRaisesRegex(AssertionError, "while tile [0-9]+ is read"):
                    self.check_trace(kernel, d, g)

    def races(self, kernel, g):
        """The data races in local memory the tracer finds in `kernel` run with g's launch."""
        m, n, k = g.kernel_size
        args = dict({"M": m, "N": n, "K": k, "alpha": 1.0, "beta": 0.0}, **g.kernel_args)
        return cltrace.trace(kernel, g.params, args, g.global_size, g.local_size).races()

    def test_trace_catches_races(self):
        """The tracer's model of barriers and asynchronous copies finds the races that PoCL hides (its
        work-items run one after another between barriers): exercise 7.1's single buffer, and step 10
        with its barrier after the next copy is started (a copy into the buffer others still read),
        without its wait for a tile (every tile's, or tile 0's), waiting on the next buffer's event,
        and with cp.async told to wait for one tile too few; the steps' own kernels have none
        (check_trace)."""
        cases = []
        s7 = next((s for s in self.steps if s.name == "kernel07_double_buffering"), None)
        if s7:
            P = dict(self.defaults[s7.name]["gpu"], TSM=32, TSN=32, TSK=8, WPTM=4, WPTN=4, WIDTH=4)
            with open(os.path.join(SOURCE, "docs", "exercises", "step07_bug.cl"), encoding="utf-8") as f:
                cases.append(("exercise 7.1", s7, P, f.read()))
        s10 = next((s for s in self.steps if s.name == "kernel10_async_copy"), None)
        if s10:
            with open(os.path.join(SOURCE, s10.kernel), encoding="utf-8") as f:
                source = f.read()
            barrier = "        barrier(CLK_LOCAL_MEM_FENCE);\n"
            copy_ahead = "        commitTiles();\n\n        // Partial dot products"
            wait0 = "        wait_group_events(1, &copied[buf]);\n"
            wait1 = '"n"(STAGES - 2)'
            for text in (barrier, copy_ahead, wait0, wait1):
                self.assertEqual(source.count(text), 1, f"step 10's kernel no longer has {text!r}: update this test")
            late_barrier = source.replace(barrier, "").replace(copy_ahead, "        commitTiles();\n" + barrier
                                                               + "\n        // Partial dot products")
            for copy in (0, 1):
                P = dict(self.defaults[s10.name]["gpu"], **SPLIT_SMALL, STAGES=3, SLICES=1, COPY=copy)
                cases.append((f"step 10, COPY={copy}, the barrier after the next copy starts", s10, P, late_barrier))
            P = dict(self.defaults[s10.name]["gpu"], **SPLIT_SMALL, STAGES=3, SLICES=1)
            cases.append(("step 10, COPY=0, no wait", s10, dict(P, COPY=0), source.replace(wait0, "")))
            # (tests/CMakeLists.txt runs these two, and the late barrier, with COPY=3: fails.step10_ring_*)
            cases.append(("step 10, COPY=0, no wait for tile 0", s10, dict(P, COPY=0),
                          source.replace(wait0, wait0.replace("wait_group", "if (t > 0) wait_group"))))
            cases.append(("step 10, COPY=0, a wait on the next buffer's event", s10, dict(P, COPY=0),
                          source.replace(wait0, wait0.replace("[buf]", "[(buf + 1) % STAGES]"))))
            cases.append(("step 10, COPY=1, waiting for one group too few", s10, dict(P, COPY=1),
                          source.replace(wait1, '"n"(STAGES - 1)')))
        if not cases:
            self.skipTest("no step 7 or 10")
        size = (32, 32, 48)  # 6 tiles of 8: the walk is longer than the ring
        with tempfile.TemporaryDirectory() as tmp:
            for label, s, P, text in cases:
                with self.subTest(label):
                    d = stepdefs.get(s.name)
                    g = d.geometry(P, size)
                    self.assertEqual(self.races(os.path.join(SOURCE, s.kernel), g), [])  # the step's own: none
                    path = os.path.join(tmp, "bug.cl")
                    with open(path, "w", encoding="utf-8") as f:
                        f.write(text)
                    found = self.races(path, g)
                    self.assertTrue(found, f"{label}: no race found")
                    self.assertRegex(found[0], "race|never waited")

    def test_cp_async_needs_compute_capability_8(self):
        """COPY=1 (cp.async) is planned on an NVIDIA GPU of compute capability 8.0 or higher and
        refused, with the step's one line, on 7.5 and where the device reports none; COPY=0 runs on all;
        COPY=2 chooses 1 or 0 by the same test."""
        # ... and step 11's TC (the tensor cores' mma.sync) by the same rules
        with_copy = [(s, name) for s in self.steps for name in ("COPY", "TC") if name in self.defaults[s.name]["gpu"]]
        if not with_copy:
            self.skipTest("no step with a COPY parameter")
        for s, name in with_copy:
            P = dict(self.defaults[s.name]["gpu"])
            for cc, copy, refused in ((90, 1, False), (80, 1, False), (75, 1, True), (0, 1, True), (0, 0, False),
                                      (75, 0, False)):
                with self.subTest(step=s.name, compute_capability=cc, **{name: copy}):
                    got = plan(s.name, (256, 256, 256), dict(P, **{name: copy}), compute_capability=cc)
                    self.assertEqual("refused" in got, refused, got.get("refused"))
                    if refused:
                        self.assertRegex(got["refused"], f"{name}=1 .*compute capability 8.0 or higher")
                        self.assertIn("none" if cc == 0 else "an older one", got["refused"])
            # COPY=2 (the NVIDIA default): the plan chooses 1 where cp.async exists, else 0, and runs on all
            for cc, chosen in ((90, 1), (80, 1), (75, 0), (0, 0)):
                with self.subTest(step=s.name, compute_capability=cc, **{name: 2}):
                    got = plan(s.name, (256, 256, 256), dict(P, **{name: 2}), compute_capability=cc)
                    self.assertNotIn("refused", got)
                    self.assertEqual(got["chosen"].get(name), chosen, got["chosen"])

    def test_host_choice_of_slices(self):
        """SLICES=0 and SPLIT_ROWS=0: the descriptor's model (what the diagrams and tables say the host
        chooses) against the host's own gemm_split_k_choose(), through the step's plan, on devices large
        and small, with each or both chosen and the other forced."""
        for s in self.steps:
            d = stepdefs.get(s.name)
            if not d.chosen:
                continue
            for cls in ("cpu", "nvidia-gpu", "gpu"):
                for groups_per_cu in (None, 1):
                    base = dict(self.defaults[s.name][cls])
                    if groups_per_cu:
                        base["GROUPS_PER_CU"] = groups_per_cu
                    for cus, max_alloc in SPLIT_DEVICES:
                        device = stepdefs.Device(cus, max_alloc)
                        for size in SPLIT_SIZES:
                            for slices, rows in SPLIT_FORCED:
                                P = dict(base, SLICES=slices, SPLIT_ROWS=rows)
                                with self.subTest(step=s.name, P=P, device=(cus, max_alloc), size=size):
                                    got = plan(s.name, size, P, (cus, max_alloc))
                                    if "refused" in got:  # a forced split too large for the indices
                                        self.assertIsNotNone(d.refusal(d.resolve(P, size, device), size))
                                        continue
                                    self.assertIsNone(d.refusal(d.resolve(P, size, device), size))
                                    # (steps 10-11's COPY=2 and step 11's TC=2, chosen by the plan too, are
                                    # test_cp_async_needs_compute_capability_8's)
                                    split = {k: v for k, v in got.get("chosen", {}).items() if k not in ("COPY", "TC")}
                                    self.assertEqual(split, d.chosen_values(P, size, device))
                                    g = d.geometry(P, size, device)
                                    sgemm = [x for x in got["launches"] if x["kernel"] == "sgemm"][0]
                                    self.assertEqual(tuple(sgemm["global"]), g.global_size)
                                    self.check_sgemm_args(sgemm, g)

    def test_host_only_parameters_are_not_in_the_kernels(self):
        """A parameter the descriptor calls host-only (step 9's SLICES, SPLIT_ROWS, GROUPS_PER_CU) appears nowhere in
        the kernel file's code: a compiler report holds whatever its value (arithmetic.py relies on it)."""
        for s in self.steps:
            d = stepdefs.get(s.name)
            with open(os.path.join(SOURCE, s.kernel), encoding="utf-8") as f:
                words = set(re.findall(r"[A-Za-z_]\w*", cltrace.strip_comments(f.read())))
            for name in d.host_only:
                self.assertNotIn(name, words, f"{s.kernel} uses {name}")

    def check_sgemm_args(self, sgemm, g):
        """The sgemm's arguments after (M, N, K, alpha, beta, AT, B, C) as the plan passes them: step
        9's copies (helper buffer 3, "buffer 6", when K is split; C's own buffer, unused, when not),
        then the scalars of the descriptor's kernel_args."""
        if "splitRows" in g.kernel_args and g.step.in_place:  # step 12: partials, counters (buffers 3, 4)
            self.assertEqual(sgemm["args"][8:10], ["buffer 3", "buffer 4"] if g.split_rows else [sgemm["args"][7]] * 2)
            self.assertEqual(sgemm["args"][10:], list(g.kernel_args.values()))
        elif "splitRows" in g.kernel_args:
            self.assertEqual(sgemm["args"][8], "buffer 6" if g.split_rows else sgemm["args"][7])
            self.assertEqual(sgemm["args"][9:], list(g.kernel_args.values()))
        else:
            self.assertEqual(sgemm["args"][8:], list(g.kernel_args.values()))

    # The checks of a trace run millions of times: where they hold, a comparison alone (unittest's
    # assertions, and their messages, only where one fails)
    def same(self, got, want, message=None):
        """assertEqual(got, want, message())"""
        if not got == want:
            self.assertEqual(got, want, message() if message else None)

    def check(self, holds, assertion):
        """assertion() (an assertion that fails) where `holds` is false"""
        if not holds:
            assertion()
            self.fail("the assertion passed where the condition did not hold")

    def check_trace(self, kernel, d, g):
        m, n, k = g.kernel_size
        sgemm_args = dict({"M": m, "N": n, "K": k, "alpha": 1.0, "beta": 0.0}, **g.kernel_args)
        tr = cltrace.trace(kernel, g.params, sgemm_args, g.global_size, g.local_size)
        # C: who stores what, against the descriptor's ownership, and every element exactly once;
        # with K split (step 9), C's whole rows of blocks and every element of the slices' copies of
        # the split rows, counted as rows of one buffer from copies_from on (slice s of a split row of
        # blocks s*SPLIT_ROWS rows of blocks below it)
        stored = {}
        for (buffer, first, width), items in tr.stores.items():
            self.check(buffer in ("C", "copies"), lambda: self.assertIn(buffer, ("C", "copies")))
            self.same(len(items), 1, lambda: f"{buffer}[{first}] stored by {items}")
            for lane in range(width):
                e = divmod(first + lane, n)
                if buffer == "copies":
                    e = (e[0] + g.copies_from, e[1])
                else:
                    self.check(e[0] < g.copies_from, lambda: self.assertLess(
                        e[0], g.copies_from, f"C[{first + lane}]: a split row's partial sums go to the copies"))
                self.check(e not in stored, lambda: self.assertNotIn(e, stored))
                stored[e] = items[0]
        copies = g.buffer_rows - g.grid[0]  # rows of the split rows' further copies, under C
        self.assertEqual(set(stored), {(r, c) for r in range(m + copies) for c in range(n)})
        br, bc = g.block
        owners = g.owner_map()
        self.assertEqual(len(owners), br * bc)
        for e, (group, item) in stored.items():
            r0, c0 = g.store_origin(group)
            self.same(owners.get((e[0] - r0, e[1] - c0)), item,
                      lambda: f"element {e} of the buffer, stored by work-group {group}")
        for gy in range(g.groups[1]):
            for gx in range(g.groups[0]):
                r0, c0 = g.store_origin((gx, gy))
                for (r, c), item in owners.items():
                    e = (r0 + r, c0 + c)
                    self.same(g.stored(e), e in stored, lambda: f"element {e}")
        # the tiles: each element loaded from the element of A (or A^T) or B the descriptor places there
        tiles = {t.name: t for t in g.tiles}
        a_shape = (k, m) if d.a_transposed else (m, k)
        loaded = []
        walked = {}  # work-group -> the tiles of K it loaded, from the elements' own k
        for (array, group, t, path), sources in tr.loads.items():
            self.check(array in tiles, lambda: self.assertIn(array, tiles))
            self.same(len(sources), 1, lambda: f"{array}{path} loaded from {sources}")
            (buffer, flat), = sources
            tile = tiles[array]
            r0, c0 = g.origin(group)
            if tile.operand == "A":
                self.same(buffer, "AT" if d.a_transposed else "A")
                row, kk = element(a_shape, flat)
                if d.a_transposed:
                    row, kk = kk, row
                i = row - r0
            else:
                self.same(buffer, "B")
                kk, col = element((k, n), flat)
                i = col - c0
            loaded.append((array, group, t, path, tile, i, kk))
            walked.setdefault(group, set()).add(kk // g.k_tile)
        # the walk along K, from what the kernel loaded alone: the work-groups of one block of C (one,
        # or one per slice of K) together load every tile of K exactly once
        if g.tiles:
            by_block = {}
            for gy in range(g.groups[1]):
                for gx in range(g.groups[0]):
                    by_block.setdefault((gx, g.slice_of((gx, gy))[1]), []).append(walked.get((gx, gy), set()))
            for block, sets in by_block.items():
                self.assertEqual(sorted(t for tiles_k in sets for t in tiles_k), list(range(k // g.k_tile)),
                                 f"the work-groups of block {block} must load every tile of K exactly once: {sets}")
            for group, tiles_k in walked.items():
                self.assertEqual(tiles_k, set(g.tile_range(group)), f"the tiles of K of work-group {group}")
        filled = {}
        for array, group, t, path, tile, i, kk in loaded:
            first = g.tile_of(group, t)
            self.same(tile.cell(i, kk - first * g.k_tile, t), path, lambda: f"{array} element {path}")
            filled.setdefault((array, group, t), set()).add(path)
        for (array, group, t), paths in filled.items():
            rows, cols = tiles[array].data_shape  # the padding of a row (TILE_PAD) is never loaded
            self.assertEqual(len(paths), rows * cols, f"{array} of tile {t} not filled")
        # the reads at each k: the rows of A and columns of B of what the work-item owns
        for (group, item), reads in tr.reads.items():
            at = {}
            for array, t, kk, path in reads:
                at.setdefault((t, kk), {}).setdefault(array, set()).add(path)
            for (t, kk), got in at.items():
                self.same(got, g.reads(*item, kk, t), lambda: f"work-item {item} at k = {kk}")
        self.check_ring(tr, g)
        # and nothing in local memory is read while it is being written, or written twice at once
        self.assertEqual(tr.races(), [], "data races in local memory")

    def check_ring(self, tr, g):
        """What the diagram says each local buffer holds while a tile is computed (Geometry.buffer_tiles:
        the tiles on their way and how they travel), against the kernel: the tiles whose store or copy
        into local memory has started when tile t is read (in an epoch before the first read of it, or
        in that epoch before the same work-item's read). With "copy" (step 10), exactly the tiles the
        geometry calls ahead, copied asynchronously; with "registers" (steps 7-9), none: the next tile
        waits in registers and is stored after the reads, by plain stores."""
        if max((tile.buffers for tile in g.tiles), default=1) < 2:
            return
        reads = {}
        for ((group, lid), t), at in tr.tile_read.items():
            reads.setdefault((group, t), {})[lid] = at
        for (group, t), by_item in reads.items():
            first = min(epoch for epoch, _ in by_item.values())
            started = set()
            for ((grp, lid), u), (epoch, count, _) in tr.tile_loaded.items():
                mine = by_item.get(lid)
                if grp == group and u > t and (epoch < first or (mine and (epoch, count) < mine)):
                    started.add(u)
            held = g.buffer_tiles(group, t)
            self.assertEqual(held[t % len(held)], (t, "read"), f"work-group {group}, tile {t}")
            ahead = {u for u, state in held.values() if state == "ahead"}
            self.assertEqual(started, ahead if g.staging == "copy" else set(),
                             f"work-group {group}: the tiles on their way into local memory while tile {t} is read, "
                             f"by the kernel; the geometry ({g.staging}) says {sorted(ahead)}")
        kinds = {kind for (_, _, kind) in tr.tile_loaded.values()}
        self.assertEqual(kinds, {"async" if g.staging == "copy" else "write"}, "how the tiles reach local memory")

    def check_unpad(self, kernel, g, launch):
        """`unpad` as the plan launches it: each element of C written once, by the work-item that reads
        that element's vector from the padded C and, in a split row of blocks (step 9), from every
        further slice's copy of it."""
        params = cltrace.kernel_params(kernel, "unpad")
        args = {name: value for (name, is_global, _), value in zip(params, launch["args"]) if not is_global}
        rows, cols = g.size[:2]
        mp, np_, _ = g.kernel_size
        w = g.width
        self.assertEqual((args["rows"], args["cols"], args["paddedCols"]), (rows, cols, np_))
        self.assertEqual(args.get("paddedRows", mp), mp)
        self.assertEqual(args.get("slices", 1), g.slices)
        split_from = args.get("splitFrom", mp)
        self.assertEqual(split_from, g.copies_from if g.slices > 1 else mp)
        # every row of C where C is padded; where not, only the split rows (the sgemm wrote the others)
        first_row = args.get("firstRow", 0)
        self.assertEqual(first_row, 0 if (mp, np_) != (rows, cols) else split_from)
        tr = cltrace.trace(kernel, g.params, args, tuple(launch["global"]), tuple(launch["local"]), kernel="unpad")
        written = {}
        for (buffer, first, width), items in tr.stores.items():
            self.same((buffer, width), ("out", 1))
            self.same(len(items), 1, lambda: f"C[{first}] written by {items}")
            written.setdefault(items[0], set()).add(divmod(first, cols))
        self.assertEqual(sorted(e for es in written.values() for e in es),
                         [(r, c) for r in range(first_row, rows) for c in range(cols)])
        for item in set(written) | set(tr.global_reads):
            es = written.get(item, set())
            self.same(len({(r, c // w) for r, c in es}), 1, lambda: f"work-item {item} writes {es}")
            row, vcol = next(iter(es))[0], next(iter(es))[1] // w
            self.same(es, {(row, c) for c in range(vcol * w, min(cols, vcol * w + w))})
            # a row before splitFrom from the padded C (in), a split row from each slice's copy
            self.same(sorted(tr.global_reads.get(item, [])),
                      sorted(("in", (r * np_ // w + vcol) * w, w) if r < split_from else
                             ("copies", ((r - split_from) * np_ // w + vcol) * w, w) for r in g.copy_rows(row)),
                      lambda: f"what work-item {item} adds up for row {row}, vector column {vcol}")


if __name__ == "__main__":
    SOURCE, PLAN_DUMP_DIR = sys.argv[1], sys.argv[2]
    unittest.addModuleCleanup(close_plan_dumps)
    unittest.main(argv=sys.argv[:1] + sys.argv[3:], verbosity=1)
