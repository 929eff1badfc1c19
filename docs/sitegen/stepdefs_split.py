"""The step descriptors of steps 9 to 12 (SplitK, AsyncCopy, TensorCores, Predication, each built on the one
before and on step 8's WarpTiling in stepdefs_core.py), with what step 9's host choice reads and
computes: Device, SplitCost, split_k_time() and the constants of its model read from
common/include/gemm_step_rules.h (read_split_defines()). Written from the kernel files, main.c and
common/src/gemm_step_rules.c; the registry of every step is stepdefs.py."""
import math
import os
import re

from .stepdefs_core import Tile, WarpTiling


class Device:
    """What step 9's host reads of the device to choose SLICES and SPLIT_ROWS (gemm_split_k_choose()):
    its compute units and its largest allocation in bytes (0 where unknown, as in
    docs/tests/plan_dump.c)."""

    def __init__(self, compute_units=0, max_alloc=0, name=""):
        self.compute_units, self.max_alloc, self.name = compute_units, max_alloc, name


# The header that holds the constants of gemm_split_k_cost()'s model, and their names
SPLIT_HEADER = "common/include/gemm_step_rules.h"
SPLIT_DEFINES = ("GEMM_SPLIT_FLOPS_PER_BYTE", "GEMM_SPLIT_GROUP_TILES", "GEMM_SPLIT_CODE_COST")
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
    in_place = False  # the copies continue C's rows (step 12's workspace is a buffer of its own)
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

        def too_large(n):  # n copies of the split rows (after C's rows, but in step 12), or n slices of the tiles
            floats = float(n * rows * P["TSM"]) * float(np_)
            after_c = not self.in_place and (mp + (n - 1) * rows * P["TSM"]) * float(np_) > INT_MAX
            return floats > INT_MAX or floats > max_alloc_floats or after_c or float(n) * float(depth) > INT_MAX

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
        if size[2] < 8:  # a product of split values keeps about 21 bits: below K = 8 FP32's bound may not cover it
            return (f"K={size[2]}: step 11 needs K >= 8; below, products of values split into TF32 halves (about 21 "
                    f"of a float's 24 bits) may miss FP32's accuracy: step 10 computes it in FP32")
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

    def fragment_ks(self, q):
        """The two values of k (of the 8 of a step) at which lane q's fragments read the tiles."""
        return q, q + 4

    def reads(self, P, lx, ly, kk, t=0):
        """{tile: float paths} that work-item (lx, ly) reads at row kk of the t-th tile of its walk:
        rows k0 + fragment_ks(q) of each 8-deep step k0 (none at the other rows)."""
        wr, wc, g, q = self.lane(P, lx, ly)
        fm, fn = self.fragments(P)
        if kk % self.MMA_K not in self.fragment_ks(q):
            fm = fn = 0
        rows = {wr * P["WTM"] + i * 16 + g + h * 8 for i in range(fm) for h in (0, 1)}
        cols = {wc * P["WTN"] + j * 8 + g for j in range(fn)}
        return {tile.name: {tile.cell(i, kk, t) for i in (rows if tile.operand == "A" else cols)}
                for tile in self.tiles(P)}

    def warp_items(self, P):
        return 32


class Predication(TensorCores):
    """Step 11 in one launch, without its helper kernels (predication.cl): the sgemm runs on the
    caller's M, N, K, its tiles past an edge of A or B loaded as zeros and C stored with bounds; the
    launch is step 11's on the sizes rounded up to the tiles (R = ceil(M/TSM) rows of blocks, cols =
    ceil(N/TSN) blocks in a row, ceil(K/TSK) tiles of K). A's tiles keep A's rows (Asub[STAGES][TSM]
    [TSK], no local-memory padding), B's are step 11's (Bsub[STAGES][TSK][TSN + TILE_PAD]), both in
    floats; a lane's fragments read k = 2q and 2q+1 of each 8-deep step (fragment_ks), A's pair as
    one float2. The split of K is step 11's, chosen by the same rule with one change
    in its cost (`in_place`: no C is padded and no unpad runs; each split block's last work-group
    reads the SLICES partial blocks, which the slices write to a workspace, and writes C; and the
    waves take 1 + GEMM_SPLIT_CODE_COST times as long where the kernel is built with the split's
    code). The host builds HAS_SPLIT_ROWS = 1 where it launches split rows, else 0, and reports it
    as a value it chose."""
    name = "kernel12_predication"
    a_transposed = False
    in_place = True
    code_cost = None  # GEMM_SPLIT_CODE_COST, read from the header by configure()
    built_in = ("HAS_SPLIT_ROWS",)
    host_only = TensorCores.host_only + ("TILE_BY_SIZE",)
    SIDES = ("TSM", "TSN", "WTM", "WTN", "WPTM", "WPTN")  # what TILE_BY_SIZE = 1 halves

    def halved(self, P, size, device=None):
        """gemm_tile_by_size(): P with TSM, TSN, WTM, WTN, WPTM and WPTN halved and TILE_BY_SIZE = 0
        where TILE_BY_SIZE = 1 and a tile of half the sides makes no more blocks of C than the device
        has compute units, if the step takes the halved values; else None."""
        device = device or Device()
        if not P.get("TILE_BY_SIZE"):
            return None
        tsm, tsn = P["TSM"] // 2, P["TSN"] // 2
        if tsm < 1 or tsn < 1 or -(-size[0] // tsm) * -(-size[1] // tsn) > device.compute_units:
            return None
        if any(P[k] % 2 for k in self.SIDES):
            return None
        out = dict(P, TILE_BY_SIZE=0, **{k: P[k] // 2 for k in self.SIDES})
        return None if TensorCores.refusal(self, out, size) else out  # the halved tile's own checks

    def resolve(self, P, size, device=None):
        return super().resolve(self.halved(P, size, device) or P, size, device)

    def chosen_values(self, P, size, device=None):
        halved = self.halved(P, size, device)
        out = super().chosen_values(halved or P, size, device)
        if halved:
            out.update({k: halved[k] for k in self.SIDES + ("TILE_BY_SIZE",)})
        slices, rows = self.model(halved or P, size, device)[1]
        out["HAS_SPLIT_ROWS"] = int(slices > 1 and rows > 0)
        return out

    def same_params(self, recorded, defaults):
        """As step 11's, and a run at a size where the host halved the tile (TILE_BY_SIZE=1 in the
        defaults, 0 with half of each side in the run) is one of the defaults too. HAS_SPLIT_ROWS,
        which the run reports (since the host builds it), follows from its split: no parameter."""
        recorded = {k: v for k, v in recorded.items() if k not in self.built_in}
        if defaults.get("TILE_BY_SIZE") == 1 and recorded.get("TILE_BY_SIZE") == 0:
            defaults = dict(defaults, TILE_BY_SIZE=0, **{k: defaults[k] // 2 for k in self.SIDES if k in defaults})
        return super().same_params(recorded, defaults)

    # padded() (step 6's): the sizes the launch covers, in whole tiles; the kernel takes the caller's
    def kernel_size(self, P, size):
        return tuple(size)

    def cost(self, P, size, device, slices, rows):
        """split_k_cost(p, split, in_place = 1): the waves as step 11's, then each split block's last
        work-group reading the SLICES partial blocks and writing C, (s + 1) blocks at one slot's share
        of the bandwidth."""
        if self.code_cost is None:
            raise ValueError("stepdefs.configure(source) reads the model's constants: call it first")
        c = super().cost(P, size, device, slices, rows)
        per_block = 4.0 * self.flops_per_byte / (2.0 * float(P["TSK"]))
        copies = (float(slices) + 1.0) * per_block if slices > 1 else 0.0
        time = c.time * (1.0 + self.code_cost) if slices > 1 else c.time  # the split's code, built in
        return SplitCost(c.slices, c.rows, c.whole, c.parts, c.tiles, time, copies)

    def refusal(self, P, size):
        m, n, k = size
        if max(float(m) * k, float(k) * n, float(m) * n) > INT_MAX:
            return "A, B or C would have more than 2^31-1 elements (the kernel's int indices)"
        return super().refusal(P, size)

    def fragment_ks(self, q):
        return 2 * q, 2 * q + 1  # neighbours: A's two values of a row in one float2 read

    # Asub[STAGES][TSM][TSK] (m-major, A's rows), Bsub[STAGES][TSK][TSN + TILE_PAD], in floats
    def tiles(self, P):
        s, tsm, tsn, tsk, pad = P["STAGES"], P["TSM"], P["TSN"], P["TSK"], P.get("TILE_PAD", 0)
        return [Tile("Asub", "A", (s, tsm, tsk), 1, ("m", "k"), 0),
                Tile("Bsub", "B", (s, tsk, tsn + pad), 1, ("k", "n"), pad)]
