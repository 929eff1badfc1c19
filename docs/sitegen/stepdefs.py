"""One descriptor per step: the step's formulas as functions of its parameters and the problem,
written from its kernel file and main.c. Everything the site computes about a step (the
arithmetic tables, the ceilings, the diagrams) reads them from here, so adding a step means adding
one descriptor to this file.

The formulas must match the kernels and the hosts exactly: docs/tests/test_geometry.py checks the
geometry of every descriptor against each step's own plan() (run through docs/tests/plan_dump.c),
step 9's choice of SLICES and SPLIT_ROWS against the host's, and the kernel file itself, traced
work-item by work-item.
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

    def __init__(self, name, operand, dims, width, axes, pad=0):
        self.name, self.operand, self.dims, self.width, self.axes = name, operand, tuple(dims), width, axes
        self.buffers = dims[0] if len(dims) == 3 else 1
        self.pad = pad  # floats of local-memory padding at the end of every row (step 11's TILE_PAD), never loaded

    @property
    def data_shape(self):
        """(rows, columns) of one buffer that hold data, in floats: float_shape less the padding."""
        rows, cols = self.float_shape
        return rows, cols - self.pad

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
        P = d.resolve(P, size, device)                     # the parameters the host chooses (SLICES=0), chosen
        self.step, self.params, self.size = d, dict(P), tuple(size)
        self.kernel_size = d.kernel_size(P, size)          # (M, N, K) the sgemm kernel is called with
        self.kernel_args = d.kernel_args(P, size)          # its scalar arguments after those, {name: value}
        self.global_size, self.local_size = d.launch(P, size)
        self.groups = (self.global_size[0] // self.local_size[0], self.global_size[1] // self.local_size[1])
        self.items = self.local_size[0] * self.local_size[1]  # work-items per work-group
        self.block = d.block(P)                              # (rows, columns) of C per work-group
        self.slices = d.slices(P)                            # step 9: work-groups per block of a split row
        self.split_rows = d.split_rows(P, size)              # step 9: the last rows of blocks split (0: none)
        # the rows of blocks of C: the work-group rows less the further slices of the split rows
        self.block_rows = self.groups[1] - (self.slices - 1) * self.split_rows
        self.full_rows = self.block_rows - self.split_rows  # rows of blocks computed whole, the first ones
        self.grid = (self.block_rows * self.block[0], self.groups[0] * self.block[1])  # C's extent the groups cover
        # rows the sgemm writes, counted as one buffer: C's whole rows of blocks, then (step 9) the
        # copies of the split rows, one per slice, which the kernel writes into a buffer of their own
        # (row full_rows*TSM + i here is its row i)
        self.copies_from = self.full_rows * self.block[0] if self.split_rows else self.grid[0]
        self.buffer_rows = self.grid[0] + (self.slices - 1) * self.split_rows * self.block[0]
        self.per_item = d.per_item(P)                        # (rows, columns) of C per work-item
        self.width = d.width(P)
        self.tiles = d.tiles(P)
        self.k_tile = d.k_tile(P)                            # the depth of a k-slice (TSK), or None
        self.sub_tiles = d.sub_tiles(P)                      # step 8's warp tiles: (row, column, rows, columns)
        self.warp_items = d.warp_items(P)                    # work-items per warp tile, or None
        self.local_bytes = d.local_bytes(P)
        self.staging = d.staging                             # how the next tiles travel: "registers" or "copy"

    def buffer_tiles(self, group, t):
        """What each local buffer of a tile holds while work-group `group` computes the t-th tile of its
        walk along K (steps 7 on; {} with one buffer): {buffer: (u, state)}, u a tile of the walk.
        Tile u lives in buffer u % buffers (Tile.cell). state "read" for tile t; "ahead" for the
        tiles on their way: with staging "registers" (steps 7-9) tile t+1, loaded into registers while
        tile t is computed and stored into its buffer after the next barrier; with "copy" (step 10's
        ring) tiles t+1 .. t+buffers-1, copied straight into their buffers. "done" where no tile is
        left to come: the buffer still holds tile u, already used."""
        buffers = max((tile.buffers for tile in self.tiles), default=1)
        if buffers < 2:
            return {}
        walk = len(self.tile_range(group)) if self.k_tile else 1
        ahead = buffers - 1 if self.staging == "copy" else 1
        out = {t % buffers: (t, "read")}
        for j in range(1, buffers):
            u = t + j if j <= ahead and t + j < walk else t + j - buffers
            out[(t + j) % buffers] = (u, "ahead" if u > t else "done")
        return out

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
        """Whether the kernel stores element e = (row, column) of the buffer it writes: outside M x N
        only the padded kernels of step 6 do (into a padded C); step 1's extra work-items return.
        With K split (step 9), the rows from copies_from on are the slices' copies of its split rows."""
        m, n, _ = self.kernel_size
        row = e[0]
        if row >= self.grid[0]:
            row = self.full_rows * self.block[0] + (row - self.grid[0]) % (self.split_rows * self.block[0])
        return row < m and e[1] < n

    def is_split(self, group):
        """Whether work-group `group` computes its block over a slice of K (step 9's split rows)."""
        return group[1] >= self.full_rows

    def slice_of(self, group):
        """(slice of K, row of blocks) of work-group `group` = (g0, g1): the first full_rows
        work-group rows are the whole rows of blocks, the others the split rows SLICES times over."""
        if not self.is_split(group):
            return 0, group[1]
        s, i = divmod(group[1] - self.full_rows, self.split_rows)
        return s, self.full_rows + i

    def group_at(self, block_row, block_col, s=0):
        """The work-group that computes slice s of K of the block (block_row, block_col) of C."""
        if block_row < self.full_rows:
            return block_col, block_row
        return block_col, self.full_rows + s * self.split_rows + block_row - self.full_rows

    def origin(self, group):
        """The (row, column) of C where the block of work-group `group` starts."""
        return self.slice_of(group)[1] * self.block[0], group[0] * self.block[1]

    def store_origin(self, group):
        """Where in the buffer the sgemm writes the block of work-group `group` starts: its block of C,
        or for slice s of a split row that block s*split_rows rows of blocks further down (in the
        copies, which begin at row copies_from)."""
        r0, c0 = self.origin(group)
        return r0 + self.slice_of(group)[0] * self.split_rows * self.block[0], c0

    def copy_rows(self, row):
        """The rows of the buffer (as store_origin() counts them) that hold row `row` of C's partial
        sums, slice by slice (one row outside the split rows)."""
        if row < self.full_rows * self.block[0] or self.slices == 1:
            return [row]
        return [row + s * self.split_rows * self.block[0] for s in range(self.slices)]

    def tile_range(self, group):
        """The tiles of K that work-group `group` walks through, as range(first, end): all of them in
        a whole row, slice s of SLICES in a split one."""
        depth = self.kernel_size[2] // self.k_tile if self.k_tile else 0
        s = self.slice_of(group)[0]
        n = self.slices if self.is_split(group) else 1
        return range(s * depth // n, (s + 1) * depth // n)

    def tile_of(self, group, t):
        """Which tile of K is the t-th of work-group `group`'s walk (t counts from 0 in the walk)."""
        return self.tile_range(group)[0] + t if len(self.tile_range(group)) else None

    def reads(self, lx, ly, kk, t=0):
        """{tile name: set of float paths} that work-item (lx, ly) reads at step kk of the k-slice
        of the t-th tile of its walk along K: the rows of A and columns of B of the elements it owns
        (step 11's fragments: its descriptor's reads())."""
        if hasattr(self.step, "reads"):
            return self.step.reads(self.params, lx, ly, kk, t)
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
    staging = None         # with several buffers of a tile: how the next tiles reach them ("registers", "copy")

    def resolve(self, P, size, device=None):
        """P with every parameter of `chosen` that is 0 replaced by what the host chooses for this
        problem on `device` (a Device, or None: the device of docs/tests/plan_dump.c, no compute
        units); P itself where there is none."""
        return P

    def slices(self, P):
        """Work-groups per block of a split row of C (step 9's SLICES, after resolve())."""
        return 1

    def split_rows(self, P, size):
        """How many of the last rows of blocks of C are split along K (step 9, after resolve()); 0: none."""
        return 0

    def kernel_args(self, P, size):
        """The sgemm's scalar arguments after (M, N, K, alpha, beta, A, B, C), {name: value}."""
        return {}

    def chosen_values(self, P, size, device=None):
        """{parameter: the host's value} for each parameter of `chosen` that is 0 in P (and, for
        step 9, that the host adjusted): what the step's report (and plan_dump's "chosen") shows."""
        picked = self.resolve(P, size, device)
        return {k: picked[k] for k in self.chosen if P.get(k) == 0}

    def same_build(self, a, b):
        """Whether two parameter sets ({name: value}) build the same kernels: equal but for
        `host_only` (a compiler report of one holds for the other)."""
        return ({k: v for k, v in a.items() if k not in self.host_only}
                == {k: v for k, v in b.items() if k not in self.host_only})

    def same_params(self, recorded, defaults):
        """Whether parameters a run reports are `defaults`: equal, except that a parameter of
        `chosen` whose default is 0 reports the host's choice, or nothing in a run recorded before
        the parameter existed (step 9's SPLIT_ROWS: the host then split every row)."""
        keys = set(recorded) | set(defaults)
        return all(recorded.get(k) == defaults.get(k) or (k in self.chosen and defaults.get(k) == 0
                                                          and recorded.get(k, 1) > 0) for k in keys)

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
    staging = "registers"

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
        if P.get("LANE_SQUARES") and ((P["WTM"] // P["WPTM"]) % 2 or (P["WTN"] // P["WPTN"]) % 2):
            return (f"LANE_SQUARES=1 needs an even number of work-items each way in a warp: WTM/WPTM={P['WTM'] // P['WPTM']} "
                    f"and WTN/WPTN={P['WTN'] // P['WPTN']}")
        return None

    # tid = localRow*RTSN + localCol; warp = tid / WARP, lane = tid % WARP; the warp's sub-tile is
    # row warp/(TSN/WTN), column warp%(TSN/WTN) of the block; inside it the lanes stand LANESM x
    # LANESN (in rows, or with LANE_SQUARES in squares of 2 x 2: lane bit 0 along N, bit 1 along M,
    # the squares in rows) and spread their blocks LANESM vectors of rows and LANESN vectors apart
    def owned(self, P, lx, ly):
        w = P["WIDTH"]
        lanes_m, lanes_n = P["WTM"] // P["WPTM"], P["WTN"] // P["WPTN"]
        tid = ly * (P["TSN"] // P["WPTN"]) + lx
        warp, lane = divmod(tid, lanes_m * lanes_n)
        warp_row, warp_col = divmod(warp, P["TSN"] // P["WTN"])
        if P.get("LANE_SQUARES"):
            square_row, square_col = divmod(lane // 4, lanes_n // 2)
            lane_row, lane_col = square_row * 2 + (lane // 2) % 2, square_col * 2 + lane % 2
        else:
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
                f"standing LANESM x LANESN = {lm} x {ln}"
                + (" in squares of 2 x 2 (LANE_SQUARES)" if P.get("LANE_SQUARES") else "")
                + f", WIDTH = {P['WIDTH']} rows at a time, LANESM vectors of rows "
                "apart, and vectors LANESN apart")

    def sub_tiles(self, P):
        """The warp tiles: (first row, first column, rows, columns) in the block, warp by warp."""
        per_row = P["TSN"] // P["WTN"]
        return [((wi // per_row) * P["WTM"], (wi % per_row) * P["WTN"], P["WTM"], P["WTN"])
                for wi in range((P["TSM"] // P["WTM"]) * per_row)]


class Device:
    """What step 9's host reads of the device to choose SLICES and SPLIT_ROWS (gemm_split_k_choose()):
    its compute units and its largest allocation in bytes (0 where unknown, as in
    docs/tests/plan_dump.c)."""

    def __init__(self, compute_units=0, max_alloc=0, name=""):
        self.compute_units, self.max_alloc, self.name = compute_units, max_alloc, name


# The header that holds the constants of gemm_split_k_cost()'s model, and their names
SPLIT_HEADER = "common/include/gemm_step_rules.h"
SPLIT_DEFINES = ("GEMM_SPLIT_FLOPS_PER_BYTE", "GEMM_SPLIT_GROUP_TILES")
INT_MAX = 2**31 - 1


def read_split_defines(source):
    """{name: value} of the SPLIT_DEFINES that common/include/gemm_step_rules.h defines."""
    with open(os.path.join(source, SPLIT_HEADER), encoding="utf-8") as f:
        text = f.read()
    out = {}
    for name in SPLIT_DEFINES:
        m = re.search(r"#define\s+" + name + r"\s+([0-9.eE+-]+)", text)
        if m:
            out[name] = float(m.group(1))
    return out


def split_k_time(whole, depth, parts, part, at_once):
    """split_k_time() of common/src/gemm_step_rules.c, operation for operation (the host's choice
    compares its costs, so they must be the C's to the bit): `whole` work-groups of `depth` tiles,
    then `parts` of `part` tiles, on `at_once` slots, each work-group on the first slot free. After
    the whole ones the slots form two sets in step: those free after the whole waves and the `busy`
    ones, free one work-group later; the parts fill whichever set is free first."""
    waves = float(math.floor(whole / at_once))
    busy = whole - waves * at_once
    free_at, free_n, busy_at = waves * depth, at_once - busy, (waves + 1.0) * depth
    end = busy_at if busy > 0.0 else free_at
    if busy == 0.0:
        return max(end, free_at + float(math.ceil(parts / free_n)) * part) if parts > 0.0 else end
    while parts > 0.0:
        if free_at <= busy_at:
            parts -= min(parts, free_n)
            free_at += part
            end = max(end, free_at)
        else:
            parts -= min(parts, busy)
            busy_at += part
            end = max(end, busy_at)
    return end


class SplitCost:
    """gemm_split_k_cost() of one split, in TSK-deep tiles of the sgemm's loop, and its parts:
    `slices` and `rows` (SPLIT_ROWS, 0 without a split); `whole` work-groups of the whole rows and
    `parts` of the split ones, `tiles` per split work-group (its slice of K); `time` the waves'
    (split_k_time()), `copies` what unpad's reading and writing of C and the copies costs, and
    `cost` their sum."""

    def __init__(self, slices, rows, whole, parts, tiles, time, copies):
        self.slices, self.rows, self.whole, self.parts, self.tiles = slices, rows, whole, parts, tiles
        self.time, self.copies, self.cost = time, copies, time + copies


class SplitK(WarpTiling):
    """Step 8 with K split for the last rows of blocks of C (split_k.cl). With R = Mp/TSM rows of
    blocks, q = SPLIT_ROWS of them split (the last ones) and S = SLICES: work-group row g < R - q
    computes block row g over all T = Kp/TSK tiles of K; row g >= R - q computes block row
    R - q + (g - R + q) % q over slice s = (g - R + q) / q, tiles s*T/S up to (s+1)*T/S (rounded
    down), and writes it into its own copy of the split rows (copy row (s*q + g - R + q)*TSM, in a
    helper buffer), which `unpad` adds up. SLICES = 0 and SPLIT_ROWS = 0 let the host choose
    (gemm_split_k_choose() in common/src/gemm_step_rules.c: model())."""
    name = "kernel09_split_k"
    chosen = ("SLICES", "SPLIT_ROWS")
    host_only = ("SLICES", "SPLIT_ROWS", "GROUPS_PER_CU")  # the sgemm takes its split as an argument and
    # from its launch geometry
    flops_per_byte = None  # GEMM_SPLIT_FLOPS_PER_BYTE, read from the header by configure()
    group_tiles = None     # GEMM_SPLIT_GROUP_TILES, likewise

    def block_rows(self, P, size):
        return self.padded(P, size)[0] // P["TSM"]

    def rows_param(self, P, size):
        """SPLIT_ROWS as the host reads it: a run recorded before the parameter existed (its params
        lack it) split every row, which SPLIT_ROWS = Mp/TSM reproduces."""
        return P.get("SPLIT_ROWS", self.block_rows(P, size))

    def slices(self, P):
        if P["SLICES"] < 1:
            raise ValueError("SLICES=0 must be resolved first (resolve())")
        return P["SLICES"]

    def split_rows(self, P, size):
        if self.slices(P) == 1:
            return 0
        rows = self.rows_param(P, size)
        if rows < 1:
            raise ValueError("SPLIT_ROWS=0 must be resolved first (resolve())")
        return min(rows, self.block_rows(P, size))

    def kernel_args(self, P, size):
        # (copies, the sgemm's argument before splitRows, is a buffer: test_geometry.py checks it)
        return {"splitRows": self.split_rows(P, size)}

    def cost(self, P, size, device, slices, rows):
        """gemm_split_k_cost() of `slices` slices of the last `rows` rows of blocks, as a SplitCost."""
        if self.flops_per_byte is None or self.group_tiles is None:
            raise ValueError("stepdefs.configure(source) reads the model's constants: call it first")
        device = device or Device()
        mp, np_, kp = self.padded(P, size)
        depth = float(kp // P["TSK"])
        pad_c, split = mp != size[0] or np_ != size[1], slices > 1
        cols = float(np_) / float(P["TSN"])
        blocks = (float(mp) / float(P["TSM"])) * cols
        at_once = max(1.0, float(device.compute_units) * float(P["GROUPS_PER_CU"]))
        s, q = float(slices), float(rows) if split else 0.0
        per_block = 4.0 * self.flops_per_byte / (2.0 * float(P["TSK"]))
        copies = (2.0 * (blocks - q * cols) if pad_c else 0.0) + (s + 1.0) * q * cols
        tiles = float(math.ceil(depth / s))
        time = split_k_time(blocks - q * cols, depth + self.group_tiles, q * cols * s, tiles + self.group_tiles,
                            at_once)
        return SplitCost(slices, rows if split else 0, blocks - q * cols, q * cols * s, tiles, time,
                         copies * per_block / at_once)

    def rows_rule(self, P, size, device=None):
        """The rows of blocks gemm_split_k_choose() splits before it looks at the slices: SPLIT_ROWS
        where forced (at most Mp/TSM), else those left over once whole waves of blocks are taken
        row by row (all of them when the blocks are fewer than a wave; 0 when they make whole waves)."""
        device = device or Device()
        mp, np_, _ = self.padded(P, size)
        block_rows, cols = mp // P["TSM"], np_ // P["TSN"]
        at_once = int(max(1.0, float(device.compute_units) * float(P["GROUPS_PER_CU"])))
        rows = self.rows_param(P, size) or block_rows - (block_rows * cols // at_once) * at_once // cols
        return min(rows, block_rows)

    def model(self, P, size, device=None):
        """gemm_split_k_choose(): ([SplitCost of every number of slices the host considers, none
        where it splits no row], (SLICES, SPLIT_ROWS) it chooses, (1, 0) for no split). The rows:
        those left over once whole waves of blocks are taken row by row (all when the blocks are
        fewer than a wave), or SPLIT_ROWS where forced; the slices: the cheapest (the smallest of
        equals), at most 64, Kp/TSK, and what one allocation and 32-bit indices hold."""
        device = device or Device()
        forced_slices = P.get("SLICES", 0)
        mp, np_, kp = self.padded(P, size)
        depth = kp // P["TSK"]
        rows = self.rows_rule(P, size, device)
        if rows < 1 and forced_slices > 1:
            rows = 1
        if rows < 1:
            return [], (1, 0)
        max_alloc_floats = device.max_alloc / 4

        def too_large(n):  # n copies of the split rows, or n slices of the tiles
            floats = float(n * rows * P["TSM"]) * float(np_)
            return floats > INT_MAX or floats > max_alloc_floats or float(n) * float(depth) > INT_MAX

        most = forced_slices or min(depth, 64)
        while not forced_slices and most > 1 and too_large(most):
            most -= 1
        costs, best, best_cost = [], (1, 0), 0.0
        first = forced_slices or 1
        for s in range(first, most + 1):
            c = self.cost(P, size, device, s, rows)
            costs.append(c)
            if s == first or c.cost < best_cost:
                best, best_cost = (s, c.rows), c.cost
        return costs, best

    def chosen_values(self, P, size, device=None):
        # the split the kernel runs with, given or chosen: SPLIT_ROWS beyond the rows there are is
        # all of them, and one slice splits none (the host reports both adjustments)
        slices, rows = self.model(P, size, device)[1]
        runs_with = {"SLICES": slices, "SPLIT_ROWS": rows}
        return {k: runs_with[k] for k in self.chosen if P.get(k) == 0 or P.get(k) != runs_with[k]}

    def resolve(self, P, size, device=None):
        if P.get("SLICES", 0) > 0 and self.rows_param(P, size) > 0:
            return P
        slices, rows = self.model(P, size, device)[1]
        out = dict(P)
        if P.get("SLICES", 0) == 0:
            out["SLICES"] = slices
        if P.get("SPLIT_ROWS") == 0:
            out["SPLIT_ROWS"] = rows
        return out

    def refusal(self, P, size):
        why = super().refusal(P, size)
        if why:
            return why
        picked = self.resolve(P, size)  # as the plan resolves it, on plan_dump's device
        mp, np_, kp = self.padded(P, size)
        depth, s, q = kp // P["TSK"], picked["SLICES"], self.split_rows(picked, size)
        if s * depth > INT_MAX:
            return f"SLICES={s} times the {depth} tiles of K must stay below 2^31"
        if s * q * P["TSM"] * np_ > INT_MAX:
            return f"the {s} copies of C's last {q} rows of blocks must stay below 2^31 floats"
        return None

    # global = (Np/WPTN, (R - q + SLICES*q)*TSM/WPTM), local = (TSN/WPTN, TSM/WPTM)
    def launch(self, P, size):
        (g0, g1), local = super().launch(P, size)
        return (g0, g1 + (self.slices(P) - 1) * self.split_rows(P, size) * local[1]), local

    def arithmetic(self, P, size):
        out = super().arithmetic(P, size)
        s, q = self.slices(P), self.split_rows(P, size)
        mp, np_, kp = self.padded(P, size)
        depth, block_rows, cols = kp // P["TSK"], mp // P["TSM"], np_ // P["TSN"]
        groups = (block_rows - q + s * q) * cols
        out["work-items"] = groups * out["work-group"]
        out["slices"] = s
        out["split rows"] = f"{q} of {block_rows}"
        out["groups"] = groups
        split_walk = -(-depth // s)
        out["walk"] = (split_walk if q == block_rows else depth if not q
                       else f"{depth} (whole rows), {split_walk} (split rows)")
        # the copies of the split rows, a helper buffer: written by the sgemm, read by unpad
        out["copies"] = 8 * s * q * P["TSM"] * np_ / (2.0 * mp * np_ * kp) if s > 1 else 0
        return out


class AsyncCopy(SplitK):
    """Step 9 with a ring of STAGES local tiles of each matrix, filled by asynchronous copies
    (async_copy.cl): tile t of the work-group's walk along K in buffer t%STAGES, the copies of tiles
    t+1 .. t+STAGES-1 in flight while it is used. COPY says how a tile is copied (0:
    async_work_group_copy, 1: NVIDIA's cp.async, 2: the host chooses 1 where the device has it,
    else 0; 3, for the tests only: 0 with copies that complete as late as allowed); the geometry is
    the same either way."""
    name = "kernel10_async_copy"
    staging = "copy"

    @staticmethod
    def copy_as_run(P, other):
        """P with COPY=2 (the NVIDIA default: cp.async where the device has it, else
        async_work_group_copy) read as the 1 or 0 that `other`, a run's parameters, reports: the
        host builds and reports the value it chose."""
        if P.get("COPY") == 2 and other.get("COPY") in (0, 1):
            return dict(P, COPY=other["COPY"])
        return P

    def same_params(self, recorded, defaults):
        return super().same_params(recorded, self.copy_as_run(defaults, recorded))

    def same_build(self, a, b):
        return super().same_build(self.copy_as_run(a, b), self.copy_as_run(b, a))

    def arithmetic(self, P, size):
        out = super().arithmetic(P, size)
        out["local"] = out["local"] // 2 * P["STAGES"]  # STAGES tiles of each instead of step 9's two
        return out

    # Asub[STAGES][TSK][TSM/WIDTH], Bsub[STAGES][TSK][TSN/WIDTH]
    def tiles(self, P):
        return [Tile(t.name, t.operand, (P["STAGES"],) + t.dims[1:], t.width, t.axes) for t in super().tiles(P)]


class TensorCores(AsyncCopy):
    """Step 10 with its multiply-adds on the tensor cores (tensor_cores.cl): mma.sync m16n8k8 TF32
    (TC = 1) or the same fragments through local memory (TC = 0, the portable path). The launch,
    the ring and the walk along K are step 10's; what changes is which elements a work-item owns
    and reads. A warp (32 consecutive work-items, lane l, g = l/4, q = l%4) computes its WTM x WTN
    tile as (WTM/16) x (WTN/8) blocks of 16 x 8; lane l holds in each block the fragment of C
    rows g and g+8, columns 2q and 2q+1, and reads at each 8-deep step k0 of a tile the rows
    k0+q and k0+q+4 of the tiles: of A^T its columns g and g+8 of each 16 rows of the warp's, of B
    its column g of each 8. TILE_PAD floats pad every row of the ring's tiles."""
    name = "kernel11_tensor_cores"
    MMA_M, MMA_N, MMA_K = 16, 8, 8

    @staticmethod
    def copy_as_run(P, other):
        """AsyncCopy.copy_as_run, and TC=2 (the tensor cores where the device has them, else the
        portable path) read as the 1 or 0 the run reports, as COPY=2 is."""
        P = AsyncCopy.copy_as_run(P, other)
        if P.get("TC") == 2 and other.get("TC") in (0, 1):
            return dict(P, TC=other["TC"])
        return P

    def fragments(self, P):
        """(FRAGS_M, FRAGS_N): the 16 x 8 blocks of a warp tile along M and N."""
        return P["WTM"] // self.MMA_M, P["WTN"] // self.MMA_N

    @staticmethod
    def tensor_cores(P):
        """TC as built on plan_dump's device (compute capability 9.0): TC = 2 builds 1 there."""
        return 1 if P.get("TC") == 2 else P.get("TC", 0)

    def refusal(self, P, size):
        lanes = (P["WTM"] // P["WPTM"]) * (P["WTN"] // P["WPTN"])
        if size[2] < 8:  # two TF32 parts keep about 21 bits: below K = 8 FP32's bound may not cover them
            return (f"K={size[2]}: step 11 needs K >= 8; below, the products of two TF32 halves (about 21 of a "
                    f"float's 24 bits) may miss FP32's accuracy: step 10 computes it in FP32")
        if lanes != 32 or P["WTM"] % 16 or P["WTN"] % 8 or P["TSK"] % 8:
            return (f"the tensor cores' operation is 16 x 8 x 8 on a warp of 32: WTM={P['WTM']} must be a multiple "
                    f"of 16, WTN={P['WTN']} and TSK={P['TSK']} of 8, and (WTM/WPTM)*(WTN/WPTN)={lanes} must be 32")
        if P.get("TILE_PAD", 0) % P["WIDTH"] or P.get("PRODUCTS", 3) == 2:
            return f"TILE_PAD={P.get('TILE_PAD', 0)} must be a multiple of WIDTH={P['WIDTH']}, and PRODUCTS 1 or 3"
        return super().refusal(P, size)

    # Asub[STAGES][TSK][(TSM + TILE_PAD)/WIDTH], Bsub[STAGES][TSK][(TSN + TILE_PAD)/WIDTH]
    def tiles(self, P):
        pad = P.get("TILE_PAD", 0)
        return [Tile(t.name, t.operand, t.dims[:-1] + (t.dims[-1] + pad // t.width,), t.width, t.axes, pad)
                for t in super().tiles(P)]

    def local_bytes(self, P):
        # the ring, and with TC = 0 the portable path's matrices of A and B: 2*(WTM + WTN)*8 floats a warp
        out = super().local_bytes(P)
        if not self.tensor_cores(P):
            out += 4 * (P["TSM"] // P["WTM"]) * (P["TSN"] // P["WTN"]) * 2 * (P["WTM"] + P["WTN"]) * self.MMA_K
        return out

    def arithmetic(self, P, size):
        out = super().arithmetic(P, size)
        out["local"] = self.local_bytes(P)
        return out

    def lane(self, P, lx, ly):
        """(warp row, warp column, g, q) of work-item (lx, ly)."""
        tid = ly * (P["TSN"] // P["WPTN"]) + lx
        warp, lane = divmod(tid, (P["WTM"] // P["WPTM"]) * (P["WTN"] // P["WPTN"]))
        warp_row, warp_col = divmod(warp, P["TSN"] // P["WTN"])
        return warp_row, warp_col, lane // 4, lane % 4

    # acc[i][j][r] is row warpRow*WTM + i*16 + g + (r/2)*8, column warpCol*WTN + j*8 + 2q + r%2
    def owned(self, P, lx, ly):
        wr, wc, g, q = self.lane(P, lx, ly)
        fm, fn = self.fragments(P)
        return [(wr * P["WTM"] + i * 16 + g + (r // 2) * 8, wc * P["WTN"] + j * 8 + 2 * q + r % 2)
                for i in range(fm) for j in range(fn) for r in range(4)]

    def ownership_text(self, P):
        fm, fn = self.fragments(P)
        return (f"a fragment of C (rows g and g+8, columns 2q and 2q+1, for lane l = 4g + q of its warp) in each of "
                f"the {fm} x {fn} blocks of 16 x 8 of its warp's WTM x WTN tile")

    def width(self, P):
        return 1  # C drawn float by float: a lane's values are fragments, not WIDTH-wide vectors (its float2
        # stores pair columns 2q and 2q+1 of a fragment); the copies into the tiles stay WIDTH wide

    def reads(self, P, lx, ly, kk, t=0):
        """{tile: float paths} that work-item (lx, ly) reads at row kk of the t-th tile of its walk:
        rows k0+q and k0+q+4 of each 8-deep step k0 (none at the other rows)."""
        wr, wc, g, q = self.lane(P, lx, ly)
        fm, fn = self.fragments(P)
        if kk % self.MMA_K not in (q, q + 4):
            fm = fn = 0
        rows = {wr * P["WTM"] + i * 16 + g + h * 8 for i in range(fm) for h in (0, 1)}
        cols = {wc * P["WTN"] + j * 8 + g for j in range(fn)}
        return {tile.name: {tile.cell(i, kk, t) for i in (rows if tile.operand == "A" else cols)}
                for tile in self.tiles(P)}

    def warp_items(self, P):
        return 32


STEPS = {d.name: d for d in (Naive(), Tiled(), Vectorized(), Transpose(), RegisterBlocking(), Padding(),
                             DoubleBuffering(), WarpTiling(), SplitK(), AsyncCopy(), TensorCores())}


def configure(source):
    """Reads what the descriptors take from the sources rather than restate: the constants of step
    9's model (SPLIT_DEFINES, common/include/gemm_step_rules.h)."""
    values = read_split_defines(source)
    missing = [name for name in SPLIT_DEFINES if name not in values]
    if missing:
        raise InputError(f"{SPLIT_HEADER}: no #define {', '.join(missing)}")
    SplitK.flops_per_byte = values["GEMM_SPLIT_FLOPS_PER_BYTE"]
    SplitK.group_tiles = values["GEMM_SPLIT_GROUP_TILES"]


def get(name):
    """The descriptor of step `name` (kernel02_tiled), or None."""
    return STEPS.get(name)
