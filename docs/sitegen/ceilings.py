"""The arithmetic of each step turned into speed limits on each recorded device, beside what it
measured (Markdown for \\includedoc):
  - stepNN_ceiling.md: for step NN and the one before, on every device, the ceiling each resource
    sets (global memory: the copy bandwidth of NAME.peak.csv over the bytes the kernel requests per
    FLOP, caches not counted; local memory: the bandwidth of local memory `peak --local-reads`
    measured on the device (lab/tuning/NAME-local-reads.csv) over the bytes per FLOP the step reads
    there, or where no run is recorded the bytes per clock the architecture's documentation gives,
    marked so; the measured FMA peak), the lowest of them, the measured rate, and sentences saying
    which binds and what the rest means;
  - stepNN_roofline.md: one sentence per device placing the step on that device's roofline, and
    the picture (figures.py draws it, its local-memory roof the table's ceiling: local_roof());
  - ceilings_sources.md: where the local-memory ceilings come from, said once, on the results page
    (each stepNN_ceiling.md links there).
The per-clock figures of the architecture come from devices.py; everything else from the results,
peak, local-reads and compiler-report files.
"""
import os

from . import local_reads
from .arithmetic import arithmetic
from .common import (column_tables, fmt_gflops, fmt_num, fmt_pct, fmt_ratio, md_escape, parse_params, previous_step,
                     write)
from .devices import architecture
from .params import record_class

# The floats step 1 reads per multiply-add (a row of A, a column of B), all from global memory
NAIVE_LOADS = 2
# Step 11's ceiling on the tensor cores: the measured TF32 peak over its products per multiply-add
TENSOR = "tensor-core (TF32 peak / 3)"
TF32_PRODUCTS = 3


class Ceiling:
    """The limits of one step on one device, at the results file's headline size."""

    def __init__(self, r, step, arch, local=None):
        self.r, self.step = r, step
        self.local = local  # the run of `peak --local-reads` on r's device (measured_local()), or None
        row = r.row(step.name)
        self.params = row["params"] if row else ""
        self.measured = r.gflops(step.name)
        a = arithmetic(step.name, parse_params(self.params), r.headline) if row else {}
        self.bpf, self.lpf = a.get("bpf"), a.get("lpf")
        self.arch = arch
        self.bounds = {}
        # Step 11 on the tensor cores (TC=1) does its multiply-adds there, three TF32 products each:
        # its arithmetic's ceiling is the measured TF32 peak over three, not the FMA peak, and the
        # local-memory ceiling (floats per FMA against the FMA units' rate) does not apply to it
        self.tensor = bool(row and "TC=1" in self.params.split() and r.peak and r.peak.tf32)
        if r.peak and self.bpf:
            self.bounds["global memory"] = r.peak.copy / self.bpf
        if r.peak and self.lpf and not self.tensor and self.local_bound(self.lpf):
            self.bounds["local memory"] = self.local_bound(self.lpf)
        if self.tensor:
            self.bounds[TENSOR] = r.peak.tf32 / TF32_PRODUCTS
        elif r.peak:  # the measured peak, or a faster rate a library reached on the same hardware
            self.bounds["FMA"] = r.ceiling or r.peak.fma
        # step 1 on an architecture whose L1 is the local memory: its loads, if all hit L1
        self.l1 = (self.local_bound(NAIVE_LOADS) if r.peak and arch and arch.get("l1_is_local") and self.lpf == 0
                   else None)

    def local_bound(self, floats_per_fma):
        """The rate a kernel reading `floats_per_fma` floats from local memory per multiply-add (2 FLOP:
        2 * floats_per_fma bytes per FLOP) can reach: the bandwidth `peak --local-reads` measured on
        the device over those bytes, where a run is recorded; else from the architecture's documented
        bytes per clock (onchip()); else None, and on a CPU (cpu_local_fact() says why)."""
        if record_class(self.r) == "cpu":
            return None
        if self.local:
            return self.local.bandwidth() / (2.0 * floats_per_fma)
        return self.onchip(floats_per_fma) if self.arch and self.r.peak else None

    def local_cell(self):
        """The table's cell of the local-memory ceiling: GFLOPS (% of the compute ceiling), marked
        where it is the documented figure, not a measured one."""
        value = self.bounds.get("local memory") or self.l1
        if not value:
            return "- (a CPU)" if self.lpf and record_class(self.r) == "cpu" else "-"
        return (f"{fmt_gflops(value)} ({self.pct(value)})" + ("" if self.local else ", documented")
                + (" if every load hits L1" if self.l1 else ""))

    def onchip(self, floats_per_fma):
        """The rate a kernel reading `floats_per_fma` floats from local memory per multiply-add can
        reach: the multiply-adds per clock that the local memory feeds, over those the unit does,
        times the measured FMA peak."""
        fed = self.arch["local_bytes_per_clock"] / (4.0 * floats_per_fma)
        return self.r.peak.fma * fed / self.arch["fma_per_clock"]

    def compute(self):
        """The ceiling of the arithmetic: the FMA ceiling (the measured peak, or the faster rate a
        library reached on the same hardware), or on the tensor cores the TF32 peak over three."""
        return self.bounds.get(TENSOR) or self.bounds.get("FMA", self.r.peak.fma)

    def pct(self, x):
        """x as a share of the compute ceiling, so that every percentage of a column has one base."""
        return fmt_pct(100.0 * x / self.compute())

    def tensor_cell(self):
        if not self.tensor:
            return "-"
        return f"{fmt_gflops(self.bounds[TENSOR])} ({fmt_gflops(self.r.peak.tf32)} / {TF32_PRODUCTS})"

    def fma_cell(self):
        if "FMA" not in self.bounds:
            return "- (on the tensor cores)" if self.tensor else "-"
        by = self.r.ceiling_by
        return fmt_gflops(self.bounds["FMA"]) + (f" (`{by[0]}`'s, faster than the peak's)" if by else "")

    @property
    def intensity(self):
        return 1.0 / self.bpf if self.bpf else None

    @property
    def binding(self):
        """(resource, ceiling) of the lowest ceiling, or (None, None)."""
        if not self.bounds:
            return None, None
        # on a tie the FMA peak binds: a resource that allows as much as the peak does not limit
        name = min(self.bounds, key=lambda k: (self.bounds[k], k != "FMA"))
        return name, self.bounds[name]



def measured_local(r, files):
    """The local_reads.LocalReads of results file r's device (`peak --local-reads` on the same platform
    and device), or None where none is recorded: then no local-memory roof is drawn (none invented)."""
    return next((f for f in files if (f.platform, f.device) == (r.platform, r.device)), None)


def local_roof(c):
    """Step c's local-memory roof on its device: the local-memory ceiling of its table (Ceiling.
    local_bound(): from the bandwidth `peak --local-reads` measured there, else documented), so that
    the figure and the table give one figure: (GFLOPS, its name, the run or None where documented),
    or None. Step 1 reads nothing from local memory, but on an architecture whose L1 is the local
    memory (devices.py) its loads, if every one hit L1, meet the same bandwidth (NAIVE_LOADS floats per
    multiply-add). None where the step has no such ceiling, on the tensor cores (the FMA units' rate is
    not step 11's), and where the roof is not below the compute ceiling."""
    value = c.bounds.get("local memory") or c.l1
    if not value or c.tensor or not c.r.peak or value >= c.compute():
        return None
    name = (f"step {c.step.number}'s local-memory roof" if c.lpf else f"step {c.step.number}'s roof if every load "
            "hits L1") + ("" if c.local else " (documented)")
    return value, name, c.local


def ceilings_for(step, results, ptxas, local=()):
    """The Ceiling of the step on each results file that has it, with the device's run of `peak
    --local-reads` among `local` (local_reads.load()), where one is recorded."""
    out = []
    for r in results:
        if r.gflops(step.name) is None:
            continue
        _, arch = architecture(r, ptxas)
        out.append(Ceiling(r, step, arch, measured_local(r, local)))
    return out


def ceiling_snippet(steps, step, results, ptxas, local=()):
    prev = previous_step(steps, step)
    cols = []
    for s in (prev, step):
        if s:
            cols += [(c.r, s, c) for c in ceilings_for(s, results, ptxas, local)]
    cols.sort(key=lambda x: (results.index(x[0]), x[1].number))
    if not any(c.bounds for _, _, c in cols):
        return "No recorded run of this step has its device's measured peaks to compute ceilings from.\n"
    heads = [f"step {s.number} on {md_escape(r.stem)}" for r, s, _ in cols]
    rows = []

    def row(label, values):
        rows.append((label, values))

    row("global-memory bytes requested per FLOP (sgemm; caches not counted)",
        [fmt_num(c.bpf) if c.bpf else "-" for _, _, c in cols])
    row("global-memory ceiling: copy bandwidth / bytes per FLOP, GFLOPS",
        [fmt_gflops(c.bounds["global memory"]) if "global memory" in c.bounds else "-" for _, _, c in cols])
    row("local-memory floats read per multiply-add", [fmt_num(c.lpf) if c.lpf else "-" for _, _, c in cols])
    row("local-memory ceiling: its measured bandwidth (or the documented one, so marked) / bytes per FLOP read there, "
        "GFLOPS (% of the compute ceiling)",
        [c.local_cell() for _, _, c in cols])
    row("FMA ceiling: the measured peak (or a faster rate measured on the same hardware), GFLOPS",
        [c.fma_cell() for _, _, c in cols])
    if any(c.tensor for _, _, c in cols):
        row("tensor-core ceiling: the measured TF32 peak over step 11's three products, GFLOPS",
            [c.tensor_cell() for _, _, c in cols])
    row("**lowest ceiling**", [f"{fmt_gflops(c.binding[1])}: {c.binding[0]}" if c.binding[0] else "-"
                               for _, _, c in cols])
    row("**measured**, GFLOPS (% of the compute ceiling)",
        [f"{fmt_gflops(c.measured)} ({c.pct(c.measured)})" if c.r.peak else fmt_gflops(c.measured) for _, _, c in cols])
    row("measured / lowest ceiling", [fmt_ratio(c.measured / c.binding[1]) if c.binding[0] else "-" for _, _, c in cols])
    text = column_tables("", heads, rows)
    notes = [n for n in (sentences(c, [x for x in cols if x[0] is c.r and x[1] is prev]) for r, s, c in cols
                         if s is step) if n]
    foot = ["The compute ceiling is the FMA ceiling" + (", and for step 11 on the tensor cores the tensor-core "
            "ceiling: its multiply-adds are three TF32 products each (the measured TF32 peak is `bench/peak`'s "
            "mma.sync rate)" if any(c.tensor for _, _, c in cols) else "") + "."]
    # where the local-memory ceilings come from is said once, on the results page (sources_snippet)
    if any(c.lpf for _, _, c in cols):
        foot.append("Where each device's local-memory ceiling comes from: \\ref results_ceilings \"the results page\".")
    return text + "\n" + "\n\n".join(notes + foot) + "\n"


def sources_snippet(results, ptxas, local=(), steps=()):
    """ceilings_sources.md, for the results page: where every step's local-memory ceiling comes from
    on each recorded device, said once: the run of `peak --local-reads` (`local`) on it, or the
    figures per clock of its architecture (devices.py), or why it has none."""
    out = []
    for r in results:
        f = measured_local(r, local)
        _, arch = architecture(r, ptxas)
        if record_class(r) == "cpu":
            text = f"no local-memory ceiling: {cpu_local_fact(r, local, steps, ptxas)}."
        elif f:
            text = (f"the bandwidth of local memory that `peak --local-reads` measured, {fmt_gflops(f.bandwidth())} "
                    f"GB/s (every work-item of a warp reading its own float4; `lab/tuning/{md_escape(f.name)}`, "
                    f"{f.dates[0][:10]}), over the bytes per FLOP a step reads there.")
        elif arch:
            text = ("no run of `peak --local-reads` is recorded: the bytes of local memory and the multiply-adds a "
                    f"compute unit serves per clock that the documentation gives, {arch['name']}: {arch['source']} "
                    "(`docs/sitegen/devices.py`), against the measured FMA peak; the tables mark it documented.")
        else:
            text = ("no local-memory ceiling: no run of `peak --local-reads` is recorded, and the table of "
                    "architectures (`docs/sitegen/devices.py`) has no entry for it.")
        if arch and arch.get("l1_is_local") and record_class(r) != "cpu":
            text += (f" On {arch['name']} L1 and local memory are one unit, so step 1's loads, if every one hit L1, "
                     f"meet the same bandwidth; the source: {arch['source']}.")
        out.append(f"- **{md_escape(r.stem)}**: {text}")
    return "\n".join(out or ["No recorded device has a local-memory ceiling."]) + "\n"


def cpu_local_fact(r, local, steps, ptxas):
    """Why a CPU (params.record_class()) has no local-memory ceiling or roof, as a clause: PoCL's local
    memory there is ordinary memory; where `peak --local-reads` ran on the device (`local`), what it
    measured against the fastest rate at which a step read local memory (its measured GFLOPS times
    the bytes per FLOP it reads there), which such a roof would have to bound."""
    text = "on a CPU, PoCL's local memory is ordinary memory behind the caches, with no bandwidth of its own"
    f = measured_local(r, local)
    reads = [(c.measured * 2 * c.lpf, c) for s in steps for c in ceilings_for(s, [r], ptxas) if c.lpf]
    if f and reads:
        rate, c = max(reads, key=lambda x: x[0])
        text += (f" (`peak --local-reads` measured {fmt_gflops(f.bandwidth())} GB/s on this device, "
                 f"`lab/tuning/{md_escape(f.name)}`, yet step {c.step.number} read local memory at "
                 f"{fmt_gflops(rate)} GB/s: {fmt_gflops(c.measured)} GFLOPS at {fmt_num(2 * c.lpf)} bytes per FLOP)")
    return text


def sentences(c, prev_cols):
    """What the numbers of step c on its device say."""
    if not c.binding[0]:
        return ""
    r, n = c.r, c.step.number
    name, bound = c.binding
    what = (("the measured FMA peak" if not r.ceiling_by else
             f"the FMA ceiling (`{r.ceiling_by[0]}`'s rate, faster than the measured peak)")
            if name == "FMA" else
            f"the tensor cores' ceiling, the measured TF32 peak ({fmt_gflops(r.peak.tf32)} GFLOPS) over the "
            f"{TF32_PRODUCTS} products of each multiply-add" if name == TENSOR else f"the {name} ceiling")
    base = name in ("FMA", TENSOR)
    out = [f"**{md_escape(r.stem)}**: step {n}'s lowest ceiling is {what}, {fmt_gflops(bound)} GFLOPS"
           + (f" ({c.pct(bound)} of the compute ceiling)" if not base else "") + f"; it measured {fmt_gflops(c.measured)} ({c.pct(c.measured)}), "
           f"{fmt_ratio(c.measured / bound)} that ceiling."]
    dram = c.bounds.get("global memory")
    if dram and c.measured > 1.05 * dram:
        requested = c.measured * c.bpf
        out.append(f"That is above the global-memory ceiling, which counts every byte the kernel requests as if it "
                   f"came from DRAM at the copy bandwidth: at {fmt_gflops(c.measured)} GFLOPS the kernel requests "
                   f"{fmt_gflops(requested)} GB/s, {fmt_ratio(requested / r.peak.copy)} the {fmt_gflops(r.peak.copy)} "
                   f"GB/s that `bench/peak`'s copy measured, so at least "
                   f"{fmt_pct(100.0 * (1 - r.peak.copy / requested))} of the requests were served by the caches "
                   "(L1 and L2) and never reached DRAM: neighbouring work-items read the same element of A and "
                   "neighbouring elements of B, and the rows and columns they read are read again by other "
                   "work-groups soon after.")
        if c.l1:
            out.append(f"If every load hit L1 (on {c.arch['name']} the same unit as local memory, with the same "
                       f"bandwidth), {NAIVE_LOADS} floats per multiply-add "
                       f"would allow {fmt_gflops(c.l1)} GFLOPS ({c.pct(c.l1)} of the FMA ceiling): step {n} reaches "
                       f"{fmt_ratio(c.measured / c.l1)} of that.")
    for _, _, p in prev_cols:
        if p.l1 and name == "local memory" and abs(p.l1 - bound) < 1e-6 * bound and p.measured:
            out.append(f"**Why step {n} gains only {fmt_ratio(c.measured / p.measured)} over step "
                       f"{p.step.number} here.** Step {p.step.number}'s loads were already served mostly by the "
                       f"caches, and on {c.arch['name']} L1 and local memory are one unit with one bandwidth: "
                       f"step {p.step.number} reading {NAIVE_LOADS} floats per multiply-add through L1 and step {n} "
                       f"reading {fmt_num(c.lpf)} from local memory meet the same ceiling, {fmt_gflops(bound)} GFLOPS. "
                       f"Step {p.step.number} ran at {fmt_ratio(p.measured / bound)} of it, step {n} at "
                       f"{fmt_ratio(c.measured / bound)}: tiling removed global traffic the caches were absorbing "
                       "anyway, and made the on-chip traffic explicit and a little more regular; the next steps "
                       "gain by reading fewer floats per multiply-add.")
    return " ".join(out)


def roofline_snippet(steps, step, results, ptxas, local=()):
    """One sentence per device placing the step on that device's roofline, with the picture; where the
    step has a local-memory roof (local_roof(): its table's ceiling, from the run of `peak --local-reads`
    among `local` on its device, else documented), what it is, and where it has none, why."""
    out = []
    for c in ceilings_for(step, results, ptxas, local):
        r = c.r
        if not r.peak or not c.bpf:
            continue
        ridge = r.peak.fma / r.peak.copy
        roof = min(r.peak.fma, r.peak.copy * c.intensity)
        side = ("left of the ridge point" if c.intensity < ridge else "right of the ridge point")
        under = ("below the sloped line, where global memory would limit it" if c.intensity < ridge else
                 "under the flat line of the FMA peak")
        if c.tensor:  # its own roof: the tensor-core ceiling, above the FMA peak
            roof = min(c.bounds[TENSOR], r.peak.copy * c.intensity)
            under = (f"its multiply-adds on the tensor cores, whose ceiling for it (the measured TF32 peak over "
                     f"three products, {fmt_gflops(c.bounds[TENSOR])} GFLOPS) is drawn as its own line, above the "
                     "FMA peak")
        if c.measured > roof:
            where = (f"above the roof at {fmt_gflops(roof)} GFLOPS: the caches serve what the roof counts as DRAM "
                     "traffic (the ceilings below)")
        else:
            where = f"{fmt_ratio(c.measured / roof)} the roof above it ({fmt_gflops(roof)} GFLOPS)"
        text = (f"- **{md_escape(r.stem)}**: step {step.number} is the point at {fmt_num(c.intensity)} FLOP per "
                f"byte of global-memory traffic, {side} ({fmt_num(ridge)} FLOP per byte, where the copy bandwidth "
                f"meets the FMA peak), {under}; its {fmt_gflops(c.measured)} GFLOPS are {where}.")
        roof = local_roof(c)
        if roof:
            value, name, f = roof
            floats = c.lpf or NAIVE_LOADS
            source = (f"the bandwidth of local memory that `peak --local-reads` measured on this device "
                      f"({fmt_gflops(f.bandwidth())} GB/s, every work-item of a warp reading its own float4: "
                      f"`lab/tuning/{md_escape(f.name)}`)" if f else
                      "the bandwidth of local memory that the architecture's documentation gives (no run of `peak "
                      "--local-reads` is recorded for this device)")
            text += (f" The dashed purple line is {name}, the local-memory ceiling of the lesson's table: {source} "
                     f"over the {fmt_num(2 * floats)} bytes per FLOP it reads there ({fmt_num(floats)} floats per "
                     f"multiply-add), {fmt_gflops(value)} GFLOPS; it measured {fmt_ratio(c.measured / value)} that.")
        elif c.lpf and not c.tensor and record_class(r) == "cpu":
            text += f" No local-memory roof is drawn: {cpu_local_fact(r, local, steps, ptxas)}."
        elif c.lpf and not c.tensor and "local memory" not in c.bounds:
            text += (" No local-memory roof is drawn: no run of `peak --local-reads` is recorded for this device "
                     "(`lab/tuning/`), and the table of architectures (`docs/sitegen/devices.py`) has no entry for "
                     "it; none is made up.")
        out.append(text)
        out.append(f"\n  \\image html roofline_{r.stem}_{step.page}.svg \"The roofline of {md_escape(r.stem)}, "
                   f"step {step.number} highlighted" + (", with its local-memory roof" if roof else "") + "\"\n")
    if not out:
        return "No recorded run of this step has its device's measured peaks to draw a roofline from.\n"
    return ("Each point is a step at its arithmetic intensity (FLOP per byte the sgemm kernel requests from global "
            "memory, from its tiles as in the arithmetic above; caches not counted) and its measured GFLOPS; the "
            "roof is the lower of the copy bandwidth times the intensity and the measured FMA peak; the "
            "horizontal lines are the peers on the same device; steps whose points lie on top of each other share "
            "one label (7\u201310: steps 7 to 10).\n\n" + "\n".join(out) + "\n")


def render(ctx):
    local = local_reads.load(ctx.tuning_dir, cpu=True)
    write(os.path.join(ctx.out, "ceilings_sources.md"), sources_snippet(ctx.results, ctx.ptxas, local, ctx.steps))
    for s in ctx.steps:
        write(os.path.join(ctx.out, f"{s.page}_ceiling.md"),
              ceiling_snippet(ctx.steps, s, ctx.results, ctx.ptxas, local))
        write(os.path.join(ctx.out, f"{s.page}_roofline.md"),
              roofline_snippet(ctx.steps, s, ctx.results, ctx.ptxas, local))
