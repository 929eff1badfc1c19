"""The step descriptors of steps 1 to 8 (Naive up to WarpTiling) and what every descriptor shares:
Tile (a tile in local memory), Geometry (what a diagram draws) and StepDef, each step's formulas
as functions of its parameters and the problem, written from its kernel file and main.c. The
registry of every step, and the module the rest of the site reads them from, is stepdefs.py;
steps 9 to 11 are in stepdefs_split.py."""
from .common import round_up

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
        depth = -(-self.kernel_size[2] // self.k_tile) if self.k_tile else 0  # the last one partial in step 12
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
    in_place = False       # step 12: the sgemm adds split-K's slices itself (a workspace of partial blocks), no unpad
    chosen = ()            # parameters whose value 0 lets the host choose (the report shows the choice)
    built_in = ()          # no parameters: values the host builds into the kernel from its plan (and reports)
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
