"""One descriptor per step: the step's formulas as functions of its parameters and the problem,
written from its kernel file and main.c. Everything the site computes about a step (the
arithmetic tables, the ceilings, the diagrams) reads them from here, so adding a step means adding
one descriptor to this file.

The formulas must match the kernels and the hosts exactly: docs/tests/test_geometry.py checks the
geometry of every descriptor against each step's own plan() (run through docs/tests/plan_dump.c),
step 9's choice of SLICES against the host's, and the kernel file itself, traced work-item by
work-item.
"""
import math
import os
import re

from .common import InputError, round_up

VECTOR_WIDTHS = (1, 2, 4, 8)


class Tile:
    """A tile of A or B staged in local memory, as the kernel declares it: `dims` in elements of
    `width` floats (Asub[TSK][TSM/WIDTH] of floatX: dims (TSK, TSM/WIDTH), width WIDTH). The last
    two dimensions hold the k-slice and the rows (A) or columns (B) of the work-group's block:
    `axes` says which is which, ("k", "m") for a k-major tile of A. A leading dimension, if any,
    counts buffers (step 7's two)."""

    def __init__(self, name, operand, dims, width, axes):
        self.name, self.operand, self.dims, self.width, self.axes = name, operand, tuple(dims), width, axes
        self.buffers = dims[0] if len(dims) == 3 else 1

    @property
    def float_shape(self):
        """(rows, columns) of one buffer, in floats."""
        return self.dims[-2], self.dims[-1] * self.width

    def cell(self, i, kk, t=0):
        """Where element i (a row of the block for A, a column for B) of k-slice kk of the t-th tile
        of the work-group's walk along K is stored: the index path in floats (the last index counts
        floats, not vectors). The walk's t-th tile is in buffer t%2: for steps 7 and 8 tile t, for
        step 9 tile t of its slice."""
        path = (kk, i) if self.axes[0] == "k" else (i, kk)
        return ((t % self.buffers,) if len(self.dims) == 3 else ()) + path


class Geometry:
    """What a diagram draws for one step, parameter set and problem, as plain data: the launch,
    the work-groups, the block of C each computes and which of its elements each work-item owns,
    the tiles in local memory. Built by StepDef.geometry(); checked by docs/tests/test_geometry.py
    against the step's plan() and kernel."""

    def __init__(self, d, P, size, device=None):
        P = d.resolve(P, size, device)                     # a parameter the host chooses (SLICES=0), chosen
        self.step, self.params, self.size = d, dict(P), tuple(size)
        self.kernel_size = d.kernel_size(P, size)          # (M, N, K) the sgemm kernel is called with
        self.global_size, self.local_size = d.launch(P, size)
        self.groups = (self.global_size[0] // self.local_size[0], self.global_size[1] // self.local_size[1])
        self.items = self.local_size[0] * self.local_size[1]  # work-items per work-group
        self.block = d.block(P)                              # (rows, columns) of C per work-group
        self.slices = d.slices(P)                            # step 9: work-groups per block of C, one per slice of K
        self.block_rows = self.groups[1] // self.slices      # work-group rows of one slice
        self.grid = (self.block_rows * self.block[0], self.groups[0] * self.block[1])  # C's extent the groups cover
        self.per_item = d.per_item(P)                        # (rows, columns) of C per work-item
        self.width = d.width(P)
        self.tiles = d.tiles(P)
        self.k_tile = d.k_tile(P)                            # the depth of a k-slice (TSK), or None
        self.sub_tiles = d.sub_tiles(P)                      # step 8's warp tiles: (row, column, rows, columns)
        self.warp_items = d.warp_items(P)                    # work-items per warp tile, or None
        self.local_bytes = d.local_bytes(P)

    def owned(self, lx, ly):
        """The (row, column) elements of the block that work-item (lx, ly) stores, in the order of
        its registers."""
        return self.step.owned(self.params, lx, ly)

    def owner_map(self):
        """{(row, column) of the block: (lx, ly)}, raising ValueError if two work-items own one."""
        owners = {}
        for ly in range(self.local_size[1]):
            for lx in range(self.local_size[0]):
                for e in self.owned(lx, ly):
                    if e in owners:
                        raise ValueError(f"element {e} owned by {owners[e]} and {(lx, ly)}")
                    owners[e] = (lx, ly)
        return owners

    def stored(self, e):
        """Whether the kernel stores element e = (row, column) of the grid: outside M x N only the
        padded kernels of step 6 do (into a padded C); step 1's extra work-items return. With K split
        (step 9), C's copies lie one under the other and e's row counts through all of them."""
        m, n, _ = self.kernel_size
        return e[0] % self.grid[0] < m and e[1] < n

    def slice_of(self, group):
        """(slice of K, row of blocks) of work-group `group` = (g0, g1): the work-group rows are the
        block rows SLICES times over."""
        return divmod(group[1], self.block_rows)

    def origin(self, group):
        """The (row, column) of C where the block of work-group `group` starts."""
        return self.slice_of(group)[1] * self.block[0], group[0] * self.block[1]

    def tile_range(self, group):
        """The tiles of K that work-group `group` walks through, as range(first, end)."""
        depth = self.kernel_size[2] // self.k_tile if self.k_tile else 0
        s = self.slice_of(group)[0]
        return range(s * depth // self.slices, (s + 1) * depth // self.slices)

    def tile_of(self, group, t):
        """Which tile of K is the t-th of work-group `group`'s walk (t counts from 0 in the walk)."""
        return self.tile_range(group)[0] + t if len(self.tile_range(group)) else None

    def reads(self, lx, ly, kk, t=0):
        """{tile name: set of float paths} that work-item (lx, ly) reads at step kk of the k-slice
        of the t-th tile of its walk along K: the rows of A and columns of B of the elements it owns."""
        rows = {r for r, _ in self.owned(lx, ly)}
        cols = {c for _, c in self.owned(lx, ly)}
        return {tile.name: {tile.cell(i, kk, t) for i in (rows if tile.operand == "A" else cols)}
                for tile in self.tiles}


class StepDef:
    """What every descriptor provides. `P` is {parameter: value}, `size` is (M, N, K)."""
    name = ""
    a_transposed = False   # the sgemm kernel reads A transposed (K x M), written by a helper kernel
    chosen = ()            # parameters whose value 0 lets the host choose (the report shows the choice)
    host_only = ()         # parameters only the host reads: the kernels' code does not depend on them

    def resolve(self, P, size, device=None):
        """P with every parameter of `chosen` that is 0 replaced by what the host chooses for this
        problem on `device` (a Device, or None: the device of docs/tests/plan_dump.c, no compute
        units); P itself where there is none."""
        return P

    def slices(self, P):
        """Work-groups per block of C (step 9's SLICES, after resolve())."""
        return 1

    def same_build(self, a, b):
        """Whether two parameter sets ({name: value}) build the same kernels: equal but for
        `host_only` (a compiler report of one holds for the other)."""
        return ({k: v for k, v in a.items() if k not in self.host_only}
                == {k: v for k, v in b.items() if k not in self.host_only})

    def same_params(self, recorded, defaults):
        """Whether parameters a run reports are `defaults`: equal, except that a parameter of
        `chosen` whose default is 0 reports the host's choice."""
        keys = set(recorded) | set(defaults)
        return all(recorded.get(k) == defaults.get(k) or (k in self.chosen and defaults.get(k) == 0
                                                          and recorded.get(k, 0) > 0) for k in keys)

    def arithmetic(self, P, size):
        """{quantity: value} for the rows of arithmetic.ARITH_ROWS that apply to this step."""
        raise NotImplementedError

    def refusal(self, P, size):
        """Why the step's plan refuses this problem, or None."""
        return None

    def kernel_size(self, P, size):
        return tuple(size)

    def geometry(self, P, size, device=None):
        return Geometry(self, P, size, device)

    def width(self, P):
        return P.get("WIDTH", 1)

    def sub_tiles(self, P):
        return []

    def ownership_text(self, P):
        """How a work-item's elements are spread over the block, for the diagram."""
        w = self.width(P)
        return f"one vector of WIDTH = {w}" if w > 1 else ""

    def warp_items(self, P):
        return None

    def tiles(self, P):
        return []

    def k_tile(self, P):
        return None

    def local_bytes(self, P):
        return sum(4 * t.float_shape[0] * t.float_shape[1] * t.buffers for t in self.tiles(P))


def multiples(size, tiles):
    """The refusal of a step without bounds checks: M, N, K must be multiples of their tiles."""
    for dim, value, (param, tile) in zip("MNK", size, tiles):
        if value % tile:
            return f"{dim}={value} is not a multiple of {param}={tile}"
    return None


class Naive(StepDef):
    name = "kernel01_naive"

    def tile_sizes(self, P):
        """(rows, columns, depth) of the work-group's block and k-slice, with their names."""
        return ("TS", P["TS"]), ("TS", P["TS"]), ("TS", P["TS"])

    def block(self, P):
        (_, rows), (_, cols), _ = self.tile_sizes(P)
        return rows, cols

    def arithmetic(self, P, size):
        m, n, _ = size
        ts = P["TS"]
        return {"work-items": round_up(m, ts) * round_up(n, ts), "work-group": ts * ts, "local": 0, "bpf": 4,
                "reuse": 1, "lpf": 0, "acc": 1}

    # global = (N, M) rounded up to TS, local = (TS, TS); work-item (lx, ly) of group (gx, gy) is
    # element (gy*TS + ly, gx*TS + lx), and returns at once outside C
    def launch(self, P, size):
        m, n, _ = size
        ts = P["TS"]
        return (round_up(n, ts), round_up(m, ts)), (ts, ts)

    def per_item(self, P):
        return 1, self.width(P)

    # work-item (lx, ly) stores vector lx of row ly of the block (a vector of 1 before step 3)
    def owned(self, P, lx, ly):
        w = self.width(P)
        return [(ly, lx * w + lane) for lane in range(w)]


class Tiled(Naive):
    name = "kernel02_tiled"

    def arithmetic(self, P, size):
        m, n, _ = size
        ts = P["TS"]
        return {"work-items": m * n, "work-group": ts * ts, "local": 8 * ts * ts, "bpf": 4 / ts, "reuse": ts,
                "lpf": 2, "acc": 1}

    def refusal(self, P, size):
        w = self.width(P)
        (pm, tm), (pn, tn), _ = self.tile_sizes(P)
        if w not in VECTOR_WIDTHS:
            return f"WIDTH={w} is not a vector width"
        if tm % w or tn % w:
            return f"{pm}={tm} and {pn}={tn} must be multiples of WIDTH={w}"
        return multiples(size, self.tile_sizes(P))

    # global = (N/WIDTH, M), local = (TSN/WIDTH, TSM): one vector of C per work-item
    def launch(self, P, size):
        m, n, _ = size
        w, (rows, cols) = self.width(P), self.block(P)
        return (n // w, m), (cols // w, rows)

    # Asub[TS][TS]: row m of the block, column k (m-major, as A lies); Bsub[TS][TS]: row k
    def tiles(self, P):
        (_, tm), (_, tn), (_, tk) = self.tile_sizes(P)
        w = self.width(P)
        return [Tile("Asub", "A", (tm, tk // w), w, ("m", "k")), Tile("Bsub", "B", (tk, tn // w), w, ("k", "n"))]

    def k_tile(self, P):
        return self.tile_sizes(P)[2][1]


class Vectorized(Tiled):
    name = "kernel03_vectorized"

    def arithmetic(self, P, size):
        m, n, _ = size
        ts, w = P["TS"], P["WIDTH"]
        return {"work-items": m * n // w, "work-group": ts * ts // w, "local": 8 * ts * ts, "bpf": 4 / ts,
                "reuse": ts, "lpf": (1 + w) / w, "acc": w}


class Transpose(Tiled):
    name = "kernel04_transpose"
    a_transposed = True

    def tile_sizes(self, P):
        return ("TSM", P["TSM"]), ("TSN", P["TSN"]), ("TSK", P["TSK"])

    def arithmetic(self, P, size):
        m, n, _ = size
        tsm, tsn, tsk, w = P["TSM"], P["TSN"], P["TSK"], P["WIDTH"]
        return {"work-items": m * n // w, "work-group": tsm * tsn // w, "local": 4 * (tsm + tsn) * tsk,
                "bpf": 2 * (tsm + tsn) / (tsm * tsn), "reuse": f"A: {tsn}, B: {tsm}", "lpf": (1 + w) / w, "acc": w}

    # Asub[TSK][TSM/WIDTH]: k-major, row k holds the TSM rows of the block at that k (from A^T);
    # Bsub[TSK][TSN/WIDTH]
    def tiles(self, P):
        tsm, tsn, tsk, w = P["TSM"], P["TSN"], P["TSK"], P["WIDTH"]
        return [Tile("Asub", "A", (tsk, tsm // w), w, ("k", "m")), Tile("Bsub", "B", (tsk, tsn // w), w, ("k", "n"))]


class RegisterBlocking(Transpose):
    name = "kernel05_register_blocking"

    def padded(self, P, size):
        """The sizes the sgemm kernel runs on."""
        return size

    def kernel_size(self, P, size):
        return tuple(self.padded(P, size))

    def refusal(self, P, size):
        tsm, tsn, w, wm, wn = P["TSM"], P["TSN"], P["WIDTH"], P["WPTM"], P["WPTN"]
        if wm % w or wn % w:
            return f"WPTM={wm} and WPTN={wn} must be multiples of WIDTH={w}"
        if tsm % wm or tsn % wn:
            return f"TSM={tsm} must be a multiple of WPTM={wm} and TSN={tsn} of WPTN={wn}"
        return super().refusal(P, self.padded(P, size))

    # global = (N/WPTN, M/WPTM), local = (TSN/WPTN, TSM/WPTM) = (RTSN, RTSM)
    def launch(self, P, size):
        m, n, _ = self.padded(P, size)
        return (n // P["WPTN"], m // P["WPTM"]), (P["TSN"] // P["WPTN"], P["TSM"] // P["WPTM"])

    def per_item(self, P):
        return P["WPTM"], P["WPTN"]

    def ownership_text(self, P):
        return (f"a WPTM x WPTN register block, WIDTH = {P['WIDTH']} rows at a time, RTSM = TSM/WPTM = "
                f"{P['TSM'] // P['WPTM']} vectors of rows apart, and vectors RTSN = TSN/WPTN = {P['TSN'] // P['WPTN']} "
                "apart")

    # acc[wm][wn] is row (localRow + (wm/WIDTH)*RTSM)*WIDTH + wm%WIDTH of the block and vector
    # column localCol + wn*RTSN (register_blocking.cl): WIDTH rows at a time, RTSM vectors of rows
    # apart, and vectors RTSN apart, so that neighbouring work-items hold neighbouring vectors
    def owned(self, P, lx, ly):
        w, rtsm, rtsn = P["WIDTH"], P["TSM"] // P["WPTM"], P["TSN"] // P["WPTN"]
        return [((ly + (wm // w) * rtsm) * w + wm % w, (lx + wn * rtsn) * w + lane)
                for wm in range(P["WPTM"]) for wn in range(P["WPTN"] // w) for lane in range(w)]

    def arithmetic(self, P, size):
        tsm, tsn, tsk = P["TSM"], P["TSN"], P["TSK"]
        wm, wn = P["WPTM"], P["WPTN"]
        mp, np_, _ = self.padded(P, size)
        return {"work-items": mp * np_ // (wm * wn), "work-group": (tsm // wm) * (tsn // wn),
                "local": 4 * (tsm + tsn) * tsk, "bpf": 2 * (tsm + tsn) / (tsm * tsn),
                "reuse": f"A: {tsn}, B: {tsm}", "lpf": (wm + wn) / (wm * wn), "acc": wm * wn}


class Padding(RegisterBlocking):
    name = "kernel06_padding"

    def padded(self, P, size):
        m, n, k = size
        return round_up(m, P["TSM"]), round_up(n, P["TSN"]), round_up(k, P["TSK"])

    def arithmetic(self, P, size):
        out = super().arithmetic(P, size)
        mp, np_, kp = self.padded(P, size)
        out["useful"] = (size[0] * size[1] * size[2]) / (mp * np_ * kp)
        return out


class DoubleBuffering(Padding):
    """Step 6 with two local buffers of each tile: tile t in buffer t%2, tile t+1 loaded from global
    memory into registers while tile t is computed (double_buffering.cl)."""
    name = "kernel07_double_buffering"

    def arithmetic(self, P, size):
        out = super().arithmetic(P, size)
        out["local"] *= 2
        return out

    def refusal(self, P, size):
        why = super().refusal(P, size)
        if why:
            return why
        threads = (P["TSM"] // P["WPTM"]) * (P["TSN"] // P["WPTN"])
        if (P["TSK"] * (P["TSM"] // P["WIDTH"])) % threads or (P["TSK"] * (P["TSN"] // P["WIDTH"])) % threads:
            return "a tile does not divide evenly among the work-items that load it"
        return None

    # Asub[2][TSK][TSM/WIDTH], Bsub[2][TSK][TSN/WIDTH]
    def tiles(self, P):
        return [Tile(t.name, t.operand, (2,) + t.dims, t.width, t.axes) for t in super().tiles(P)]


class WarpTiling(DoubleBuffering):
    """Step 7 with warp tiles: the work-items of a warp (WARP = (WTM/WPTM)*(WTN/WPTN) consecutive
    ones) compute one WTM x WTN sub-tile of the block (warp_tiling.cl)."""
    name = "kernel08_warp_tiling"

    def refusal(self, P, size):
        why = super().refusal(P, size)
        if why:
            return why
        if P["TSM"] % P["WTM"] or P["TSN"] % P["WTN"]:
            return f"TSM={P['TSM']} must be a multiple of WTM={P['WTM']} and TSN={P['TSN']} of WTN={P['WTN']}"
        if P["WTM"] % P["WPTM"] or P["WTN"] % P["WPTN"]:
            return f"WTM={P['WTM']} must be a multiple of WPTM={P['WPTM']} and WTN={P['WTN']} of WPTN={P['WPTN']}"
        return None

    # tid = localRow*RTSN + localCol; warp = tid / WARP, lane = tid % WARP; the warp's sub-tile is
    # row warp/(TSN/WTN), column warp%(TSN/WTN) of the block; inside it the lanes stand LANESM x
    # LANESN and spread their blocks LANESM vectors of rows and LANESN vectors apart
    def owned(self, P, lx, ly):
        w = P["WIDTH"]
        lanes_m, lanes_n = P["WTM"] // P["WPTM"], P["WTN"] // P["WPTN"]
        tid = ly * (P["TSN"] // P["WPTN"]) + lx
        warp, lane = divmod(tid, lanes_m * lanes_n)
        warp_row, warp_col = divmod(warp, P["TSN"] // P["WTN"])
        lane_row, lane_col = divmod(lane, lanes_n)
        row_base = warp_row * (P["WTM"] // w) + lane_row
        col_base = warp_col * (P["WTN"] // w) + lane_col
        return [((row_base + (wm // w) * lanes_m) * w + wm % w, (col_base + wn * lanes_n) * w + lane)
                for wm in range(P["WPTM"]) for wn in range(P["WPTN"] // w) for lane in range(w)]

    def warp_items(self, P):
        return (P["WTM"] // P["WPTM"]) * (P["WTN"] // P["WPTN"])

    def ownership_text(self, P):
        lm, ln = P["WTM"] // P["WPTM"], P["WTN"] // P["WPTN"]
        return (f"a WPTM x WPTN register block inside its warp's WTM x WTN tile, the warp's {lm * ln} work-items "
                f"standing LANESM x LANESN = {lm} x {ln}, WIDTH = {P['WIDTH']} rows at a time, LANESM vectors of rows "
                "apart, and vectors LANESN apart")

    def sub_tiles(self, P):
        """The warp tiles: (first row, first column, rows, columns) in the block, warp by warp."""
        per_row = P["TSN"] // P["WTN"]
        return [((wi // per_row) * P["WTM"], (wi % per_row) * P["WTN"], P["WTM"], P["WTN"])
                for wi in range((P["TSM"] // P["WTM"]) * per_row)]


class Device:
    """What step 9's host reads of the device to choose SLICES (gemm_split_k_slices()): its compute
    units and its largest allocation in bytes (0 where unknown, as in docs/tests/plan_dump.c)."""

    def __init__(self, compute_units=0, max_alloc=0, name=""):
        self.compute_units, self.max_alloc, self.name = compute_units, max_alloc, name


# The header that holds GEMM_SPLIT_FLOPS_PER_BYTE, the flops per byte gemm_split_k_slices() assumes
SPLIT_HEADER = "common/include/gemm_step.h"
INT_MAX = 2**31 - 1


def read_flops_per_byte(source):
    """GEMM_SPLIT_FLOPS_PER_BYTE from common/include/gemm_step.h, or None."""
    with open(os.path.join(source, SPLIT_HEADER), encoding="utf-8") as f:
        m = re.search(r"#define\s+GEMM_SPLIT_FLOPS_PER_BYTE\s+([0-9.eE+-]+)", f.read())
    return float(m.group(1)) if m else None


class SplitK(WarpTiling):
    """Step 8 with K split into SLICES slices (split_k.cl): work-group row g computes block row
    g % (Mp/TSM) of C over slice g / (Mp/TSM) of K's Kp/TSK tiles, tiles s*T/S up to (s+1)*T/S
    (T = Kp/TSK, S = SLICES, rounded down), into the s-th of S copies of C, which `unpad` adds up.
    SLICES = 0 lets the host choose (gemm_split_k_slices() in common/src/gemm_padded.c: model())."""
    name = "kernel09_split_k"
    chosen = ("SLICES",)
    host_only = ("SLICES", "GROUPS_PER_CU")  # the sgemm reads its slices from its launch geometry
    flops_per_byte = None  # GEMM_SPLIT_FLOPS_PER_BYTE, read from the header by configure()

    def slices(self, P):
        if P["SLICES"] < 1:
            raise ValueError("SLICES=0 must be resolved first (resolve())")
        return P["SLICES"]

    def model(self, P, size, device=None):
        """gemm_split_k_slices(): [(s, waves, tiles per slice, cost)] for every s the host
        considers, and the s it chooses (the cheapest, the smallest of equals). The cost counts
        TSK-deep tiles of the sgemm's loop: waves of work-groups times the tiles of one slice, plus
        the reading and writing of the s + 1 copies of C (when C is padded or split) at the
        flops per byte GEMM_SPLIT_FLOPS_PER_BYTE."""
        device = device or Device()
        mp, np_, kp = self.padded(P, size)
        depth = kp // P["TSK"]
        pad_c = mp != size[0] or np_ != size[1]
        blocks = (mp / P["TSM"]) * (np_ / P["TSN"])
        at_once = float(device.compute_units * P["GROUPS_PER_CU"]) or 1.0
        max_alloc_floats = device.max_alloc / 4
        most = min(depth, 64)
        while most > 1 and (most * mp * np_ > INT_MAX or most * mp * np_ > max_alloc_floats
                            or most * depth > INT_MAX):
            most -= 1
        if most > 1 and self.flops_per_byte is None:
            raise ValueError("stepdefs.configure(source) reads GEMM_SPLIT_FLOPS_PER_BYTE: call it first")
        per_copy = 4.0 * (self.flops_per_byte or 0.0) / (2.0 * P["TSK"])
        rows, best, best_cost = [], 1, 0.0
        for s in range(1, most + 1):
            waves = math.ceil(blocks * s / at_once)
            tiles = -(-depth // s)
            copies = s + 1 if s > 1 or pad_c else 0
            cost = waves * tiles + copies * per_copy * blocks / at_once
            rows.append((s, waves, tiles, cost))
            if s == 1 or cost < best_cost:
                best, best_cost = s, cost
        return rows, best

    def resolve(self, P, size, device=None):
        if P.get("SLICES", 0) > 0:
            return P
        return dict(P, SLICES=self.model(P, size, device)[1])

    def refusal(self, P, size):
        why = super().refusal(P, size)
        if why:
            return why
        depth = self.padded(P, size)[2] // P["TSK"]
        if P["SLICES"] * depth > INT_MAX:
            return f"SLICES={P['SLICES']} times the {depth} tiles of K must stay below 2^31"
        return None

    # global = (Np/WPTN, SLICES*Mp/WPTM), local = (TSN/WPTN, TSM/WPTM)
    def launch(self, P, size):
        (g0, g1), local = super().launch(P, size)
        return (g0, self.slices(P) * g1), local

    def arithmetic(self, P, size):
        out = super().arithmetic(P, size)
        s = self.slices(P)
        mp, np_, kp = self.padded(P, size)
        depth = kp // P["TSK"]
        split = s > 1
        out["work-items"] *= s
        out["slices"] = s
        out["groups"] = s * (mp // P["TSM"]) * (np_ // P["TSN"])
        out["walk"] = -(-depth // s)
        # the copies of C beyond the one result: written by the sgemm, read by unpad
        out["copies"] = 8 * s * mp * np_ / (2.0 * mp * np_ * kp) if split else 0
        return out


STEPS = {d.name: d for d in (Naive(), Tiled(), Vectorized(), Transpose(), RegisterBlocking(), Padding(),
                             DoubleBuffering(), WarpTiling(), SplitK())}


def configure(source):
    """Reads what the descriptors take from the sources rather than restate: step 9's
    GEMM_SPLIT_FLOPS_PER_BYTE (common/include/gemm_step.h)."""
    value = read_flops_per_byte(source)
    if value is None:
        raise InputError(f"{SPLIT_HEADER}: no #define GEMM_SPLIT_FLOPS_PER_BYTE")
    SplitK.flops_per_byte = value


def get(name):
    """The descriptor of step `name` (kernel02_tiled), or None."""
    return STEPS.get(name)
