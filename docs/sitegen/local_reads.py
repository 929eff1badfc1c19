"""What a read from local memory costs, from `peak --local-reads` (lab/tuning/NAME-local-reads.csv):
  - step08_local_reads.md: for each recorded device, the cycles a read of a warp of 32 work-items
    takes for each way its work-items share the vectors they read (the file's column `col`, the
    vector a work-item reads as a function of its place in the warp, `lane`), and which of those
    ways steps 7 and 8 read in; then, for steps 7 and 8 with their NVIDIA defaults and step 7 with
    step 8's block, the cycles of local-memory reads a warp needs per k against the cycles of its
    multiply-adds (from the same device's bench/peak FMA peak, where a results file has one).
The steps' reads come from their descriptors (stepdefs: which element of the block each work-item
owns, as the kernels compute it), so a change of layout or of the defaults changes the table."""
import glob
import os
import re
import statistics

from . import stepdefs
from .common import InputError, fmt_pct, md_escape, read_csv_rows, write
from .records import is_cpu_exercises

SUFFIX = "-local-reads.csv"
COLUMNS = ["platform", "device", "driver", "clock_mhz", "compute_units", "work_items", "col", "vectors",
           "iterations", "median_ms", "best_ms", "cycles_per_read", "relative", "date"]
WARP = 32
# What each work-item of peak.cl's local_reads reads per loop iteration: 8 float4 (bandwidth())
READS_PER_ITERATION, VECTOR_BYTES = 8, 16
COL_EXPR = re.compile(r"^[lane0-9 %/*+()-]+$")


def code(col):
    """A col as a code span (COL_EXPR keeps | and ` out of it; Doxygen shows a code span as written)."""
    return f"`{col}`"


def column_function(text, path):
    """The file's `col` (C integer arithmetic on `lane`, e.g. 'lane*8 % 64 + lane/8') as a function
    of the lane: only `lane`, digits and + - * / % ( ) are accepted."""
    if not COL_EXPR.match(text) or re.search(r"[a-z]+", text.replace("lane", "")):
        raise InputError(f"{path}: col '{text}' is not arithmetic on lane")
    expr = text.replace("/", "//")
    try:
        cols = [eval(expr, {"__builtins__": {}}, {"lane": lane}) for lane in range(WARP)]  # noqa: S307
    except (SyntaxError, ZeroDivisionError, NameError):
        raise InputError(f"{path}: col '{text}' is not arithmetic on lane") from None
    return tuple(cols)


class LocalReads:
    """One file of `peak --local-reads --csv` runs on one device: {col: [cycles per read, ...]}."""

    def __init__(self, path):
        self.path, self.name = path, os.path.basename(path)
        rows = read_csv_rows(path, COLUMNS, "peak --local-reads's CSV format")
        if not rows:
            raise InputError(f"{path}: no measurement")
        if len({(r["platform"], r["device"]) for r in rows}) != 1:
            raise InputError(f"{path}: rows of more than one device")
        first = rows[0]
        self.platform, self.device, self.driver = first["platform"], first["device"], first["driver"]
        self.dates = sorted(r["date"] for r in rows)
        self.cycles, self.columns, self.vectors = {}, {}, {}
        try:
            self.clock_mhz, self.compute_units = int(first["clock_mhz"]), int(first["compute_units"])
            self.work_items = int(first["work_items"])
            self.lane_gbps = []  # the bytes each run with col = lane read per second, GB/s (bandwidth())
            for r in rows:
                self.cycles.setdefault(r["col"], []).append(float(r["cycles_per_read"]))
                self.vectors[r["col"]] = int(r["vectors"])
                if r["col"] == "lane":
                    self.lane_gbps.append(int(r["work_items"]) * int(r["iterations"]) * READS_PER_ITERATION
                                          * VECTOR_BYTES / (float(r["median_ms"]) * 1e6))
        except ValueError:
            raise InputError(f"{path}: a row has a malformed number") from None
        for col in self.cycles:
            self.columns[col] = column_function(col, path)
            if len(set(self.columns[col])) != self.vectors[col]:
                raise InputError(f"{path}: col '{col}' gives {len(set(self.columns[col]))} different vectors to a "
                                 f"warp, the file says {self.vectors[col]}")
        if "lane" not in self.cycles:
            raise InputError(f"{path}: no row with col = lane, which the others are compared with")
        self.runs = min(len(v) for v in self.cycles.values())

    def median(self, col):
        return statistics.median(self.cycles[col])

    def bandwidth(self):
        """The bandwidth of local memory the runs measured, GB/s (the median of the runs): with col =
        lane every work-item of a warp reads its own float4, no two the same bank at once, so the
        bytes read over the time (median_ms) is the most the whole device's local memory served. From
        the time alone: the clock the device reports, behind cycles_per_read, does not enter it."""
        return statistics.median(self.lane_gbps)

    def find(self, lane_cols):
        """The col of this file that reads as lane_cols does (the same vectors, shifted), or None."""
        shifted = tuple(c - min(lane_cols) for c in lane_cols)
        for col, cols in self.columns.items():
            if tuple(c - min(cols) for c in cols) == shifted:
                return col
        return None


def load(directory, cpu=False):
    """The runs of `peak --local-reads` in `directory`: not the exercises' runs on a CPU (records.
    is_cpu_exercises()), which exercise 8.2 shows, unless `cpu` (the ceilings say with it why a CPU
    has no local-memory ceiling: ceilings.cpu_local_fact())."""
    return [LocalReads(p) for p in sorted(glob.glob(os.path.join(directory or "", "*" + SUFFIX)))
            if cpu or not is_cpu_exercises(p)]


def warp_reads(step, P):
    """The vectors the first warp (work-items 0-31 of work-group 0) reads at one k: for each read
    instruction of A^T, then of B, the vector each lane reads ({'A': [cols, ...], 'B': [...]})."""
    d, w = stepdefs.get(step), P["WIDTH"]
    rtsn = P["TSN"] // P["WPTN"]
    owned = [d.owned(P, tid % rtsn, tid // rtsn) for tid in range(WARP)]
    # owned(): element (wm, wn, lane) at index (wm*(WPTN/WIDTH) + wn)*WIDTH + lane; read i of A is
    # the vector of rows wm = i*WIDTH..., read wn of B the vector wn of the first row
    a = [[o[i * w * P["WPTN"]][0] // w for o in owned] for i in range(P["WPTM"] // w)]
    b = [[o[wn * w][1] // w for o in owned] for wn in range(P["WPTN"] // w)]
    return {"A": a, "B": b}


def configurations(defaults):
    """(label, step, parameters): steps 7 and 8 with their NVIDIA defaults, step 7 with step 8's
    block (the comparison of "the idea alone": the same block in both layouts), and step 8 with its
    work-items in rows of the warp's tile instead of squares (LANE_SQUARES=0) where its defaults
    have squares."""
    d7 = defaults.get("kernel07_double_buffering", {}).get("nvidia-gpu")
    d8 = defaults.get("kernel08_warp_tiling", {}).get("nvidia-gpu")
    if not d7 or not d8:
        return []
    cross = dict(d7, WPTM=d8["WPTM"], WPTN=d8["WPTN"])
    out = [("step 7, its NVIDIA defaults", "kernel07_double_buffering", d7),
           ("step 7 with step 8's block", "kernel07_double_buffering", cross)]
    if d8.get("LANE_SQUARES"):
        out.append(("step 8 with its work-items in rows", "kernel08_warp_tiling", dict(d8, LANE_SQUARES=0)))
    return out + [("step 8, its NVIDIA defaults", "kernel08_warp_tiling", d8)]


def fma_lanes_per_cycle(results, f):
    """Multiply-adds per cycle of one compute unit: the device's bench/peak FMA peak over its compute
    units and reported clock (None where no results file of the device has a peak)."""
    for r in results:
        if r.peak and (r.peak.platform, r.peak.device) == (f.platform, f.device):
            return r.peak.fma * 1e9 / (2.0 * f.compute_units * f.clock_mhz * 1e6)
    return None


def snippet(files, results, defaults):
    configs = configurations(defaults)
    out = []
    for f in files:
        where = {}
        reads = {label: warp_reads(step, P) for label, step, P in configs}
        for label, r in reads.items():
            for operand in ("A", "B"):
                col = f.find(tuple(r[operand][0]))
                if col is not None:
                    where.setdefault(col, []).append(f"{operand} in {label}")
        out.append(f"**{md_escape(f.device)}**, driver {md_escape(f.driver)}, `lab/tuning/{md_escape(f.name)}` "
                   f"(`peak --local-reads`, {f.dates[0][:10]} {f.dates[0][11:16]} UTC; {f.runs} run{'s' if f.runs != 1 else ''}, their "
                   f"median; {f.work_items} work-items, each making 8 independent float4 reads per loop iteration; "
                   f"cycles of one compute unit per read of a warp of {WARP}, at the {f.clock_mhz} MHz the device "
                   "reports). `lane` is a work-item's place in its warp, `col` the vector of a row of local "
                   "memory it reads:\n")
        out.append("| col | vectors the warp reads | cycles per read | against col = lane | where steps 7 and 8 "
                   "read this way (one warp, at one k) |")
        out.append("|---|---:|---:|---:|---|")
        base = f.median("lane")
        for col in f.cycles:
            out.append(f"| {code(col)} | {f.vectors[col]} | {f.median(col):.2f} | {f.median(col) / base:.2f} | "
                       + ("; ".join(md_escape(x) for x in where.get(col, [])) or "-") + " |")
        out.append("")
        lanes = fma_lanes_per_cycle(results, f)
        out.append("Per k, the reads of a warp in each layout (one per vector of WIDTH floats of its block's rows, "
                   "A, and columns, B), the cycles they keep local memory busy by the table above, and, from "
                   "the device's measured FMA peak"
                   + (f" ({lanes:.1f} multiply-adds per cycle of a compute unit)" if lanes else " (none recorded)")
                   + ", the cycles of the warp's multiply-adds:\n")
        out.append("| layout | block | warp's work-items (rows x columns) | reads of A: col | reads of B: col | "
                   "local-memory cycles per k | multiply-add cycles per k | local / multiply-add |")
        out.append("|---|---|---|---|---|---:|---:|---:|")
        for label, step, P in configs:
            r = reads[label]
            cols = {op: f.find(tuple(r[op][0])) for op in ("A", "B")}
            rows_n = len({c for c in r["A"][0]})
            shape = f"{rows_n} x {WARP // rows_n}"
            if None in cols.values():
                cyc = None
            else:
                cyc = len(r["A"]) * f.median(cols["A"]) + len(r["B"]) * f.median(cols["B"])
            fma = WARP * P["WPTM"] * P["WPTN"] / lanes if lanes else None
            cells = [md_escape(label), f"{P['WPTM']} x {P['WPTN']}", shape,
                     f"{len(r['A'])} x {code(cols['A'])}" if cols["A"] else "not measured",
                     f"{len(r['B'])} x {code(cols['B'])}" if cols["B"] else "not measured",
                     f"{cyc:.1f}" if cyc is not None else "-", f"{fma:.1f}" if fma else "-",
                     fmt_pct(100.0 * cyc / fma) if cyc is not None and fma else "-"]
            out.append("| " + " | ".join(cells) + " |")
        out.append("")
    return ("\n".join(out) + "\n") if out else "No run of `peak --local-reads` is recorded.\n"


def render(ctx):
    write(os.path.join(ctx.out, "step08_local_reads.md"), snippet(load(ctx.tuning_dir), ctx.results, ctx.defaults))
