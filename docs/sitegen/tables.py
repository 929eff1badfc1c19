"""The results tables and sentences (Markdown for \\includedoc), from docs/results/*.csv:
  - path.md: the path from the first step to the last, with each device's GFLOPS and links to the
    pages that exist;
  - results_summary.md: the table of devices (device, driver, date, headline size and how it was
    chosen, measured peaks);
  - results_headline.md: per device, every program at the headline size: GFLOPS, gain over the
    previous step and over step 1, % of the measured FMA peak (programs on the measured device;
    never cpu_blas, which runs on the host CPU), ratios to cuBLAS and CLBlast;
  - results_details.md: per device, every row at the headline size, and for a sweep the GFLOPS of
    every program at every size (UNVERIFIED in italics, a status where there is no measurement);
  - stepNN_gain.md: sentences for a step's pages: its GFLOPS and gains on each recorded device;
  - stepNN_buys.md: the one table of step NN's lesson: the step against the step before it (step 1:
    against a tuned library) on each recorded device, at the headline size and at one awkward
    size (awkward_size());
  - odd_sizes.md: the rates one below and one above a square size.
"""
import html
import os

from .common import (NO_RESULTS, fmt_gflops, fmt_pct, fmt_ratio, is_step, md_escape, parse_parts, previous_step,
                     short_name, size_short, size_text, write)
from .attribution import Attribution, note_text
from .results import NOT_FMA, NOT_RUN, RAN, REFERENCES, UNSTEADY

# What the peers are, for the tables (a peer not listed here is shown by its name)
PEER_SUMMARY = {
    "cpu_blas": "the CPU BLAS's cblas_sgemm on the host CPU",
    "clblast": "CLBlast's tuned OpenCL SGEMM on the same device",
    "cublas": "NVIDIA's cuBLAS SGEMM through CUDA on the same GPU",
    "cublas_tf32": "cuBLAS's SGEMM in its TF32 mode (tensor cores), on the same GPU: not FP32-accurate, so it "
                   "fails the check by design",
}


def status_cell(r, program, size=None):
    """The GFLOPS of a verified run, else what happened: never a number that was not measured."""
    g = r.gflops(program, size)
    if g is not None:
        return fmt_gflops(g)
    row = r.row(program, size)
    return row["status"] if row else "-"


def gain_cell(ratio_text, note):
    """A gain as a table shows it: '2.82x', or '2.82x, not its idea<sup>a</sup>' with the letter of
    the note under the table that gives the reason."""
    return f"{ratio_text}, not its idea<sup>{note}</sup>" if note else ratio_text


def notes_text(notes):
    """The notes under a table for the gains in it that are not the steps' ideas (attribution.py)."""
    if not notes:
        return ""
    return ("\nNot the step's idea (a gain is the idea's only where the experiment that takes the idea away "
            "takes the gain with it):\n\n"
            + "\n".join(f"- <sup>{letter}</sup> {text}" for letter, text in notes) + "\n")


class Notes:
    """The lettered notes of one table: note(r, step, ratio_text) gives the letter of the note that
    says why that gain is not the step's idea, or None where it is."""

    def __init__(self, attribution):
        self.attribution, self.items = attribution, []

    def note(self, r, step, ratio_text, size=None):
        reason = self.attribution.not_idea(r, step, size) if self.attribution else None
        if not reason:
            return None
        letter = "abcdefghijklmnopqrstuvwxyz"[len(self.items) % 26]
        self.items.append((letter, note_text(r, step, ratio_text, reason)))
        return letter

    def text(self):
        return notes_text(self.items)


def path_snippet(steps, results, docs_dir, attribution=None):
    # one column per device, the gain over the previous step in brackets: with a column each, the
    # table grew wider than the page once a reader's own results joined the recorded ones
    lines = ["| step | the idea it adds | page |" + "".join(f" {r.stem}: GFLOPS (vs previous) |" for r in results),
             "|---|---|---|" + "---:|" * len(results)]
    notes = Notes(attribution)
    for s in steps:
        page = (f"\\ref {s.page} \"step {s.number}\"" if os.path.isfile(os.path.join(docs_dir, s.page + ".md"))
                else "(to come)")
        cells = [f"{s.number}: `{s.name}`", md_escape(s.summary) or "-", page]
        prev = previous_step(steps, s)
        for r in results:
            g = r.gflops(s.name)
            p = r.gflops(prev.name) if prev else None
            if g and p:
                ratio = fmt_ratio(g / p)
                cells.append(status_cell(r, s.name) + f" ({gain_cell(ratio, notes.note(r, s, ratio))})")
            else:
                cells.append(status_cell(r, s.name))
        lines.append("| " + " | ".join(cells) + " |")
    peers = []
    for r in results:
        for p in r.programs:
            if not is_step(p) and p not in peers:
                peers.append(p)
    for p in peers:
        cells = [f"peer: `{p}`", md_escape(PEER_SUMMARY.get(p, p)), "-"]
        for r in results:
            cells.append(status_cell(r, p))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n" + notes.text()


def headline_snippet(results, steps=None, attribution=None):
    """Per device, every program at the headline size: GFLOPS, gains, % of the measured peak,
    ratios to cuBLAS and CLBlast; under each table, why a gain in it is not its step's idea, where
    one is not (attribution.py; `steps`, the step descriptors, name the steps)."""
    by_name = {s.name: s for s in steps or []}
    if not results:
        return NO_RESULTS
    out = []
    for r in results:
        peak = (f"measured FMA peak {fmt_gflops(r.peak.fma)} GFLOPS (`bench/peak`, {md_escape(r.peak.vector)})"
                + r.ceiling_text() if r.peak else "no measured peak in this file")
        tensor = [{"kernel11_tensor_cores": "step 11", "cublas_tf32": "cuBLAS's TF32 mode"}.get(p, f"`{p}`")
                  for p in r.programs if p in NOT_FMA]
        on_tensor = [p for p in r.programs if r.tensor_ceiling(p)]
        if r.peak and on_tensor:
            peak += (f"; * on the tensor cores, of their measured TF32 peak ({fmt_gflops(r.peak.tf32)} GFLOPS, "
                     "mma.sync), for step 11 over its three TF32 products per multiply-add")
        elif r.peak and tensor:
            peak += (f"; {' and '.join(tensor)} {'are' if len(tensor) > 1 else 'is'} made for the tensor cores: "
                     "no percentage of the FMA peak")
        out.append(f"**{md_escape(r.stem)}**: {r.where()}; {size_text(r.headline)}; {peak}.\n")
        refs = [(p, label) for p, label in REFERENCES if r.gflops(p) is not None]
        out.append("| program | GFLOPS | vs previous step | vs step 1 | % of ceiling (FMA peak, * tensor cores) |"
                   + "".join(f" vs {label} |" for _, label in refs))
        out.append("|---|---:|---:|---:|---:|" + "---:|" * len(refs))
        first = r.steps[0] if r.steps else None
        notes = Notes(attribution)
        for i, p in enumerate(r.programs):
            g = r.gflops(p)
            prev = r.steps[i - 1] if is_step(p) and i > 0 else None
            cells = [f"`{p}`", status_cell(r, p)]
            if g and prev and r.gflops(prev):
                ratio = fmt_ratio(g / r.gflops(prev))
                cells.append(gain_cell(ratio, notes.note(r, by_name[p], ratio) if p in by_name else None))
            else:
                cells.append("-")
            cells.append(fmt_ratio(g / r.gflops(first)) if g and is_step(p) and p != first and r.gflops(first)
                         else "-")
            pct, on_tensor = r.pct_ceiling(p)
            cells.append(fmt_pct(pct) + ("*" if on_tensor else "") if pct is not None else "-")
            for ref, _ in refs:
                v = r.vs(p, ref)
                cells.append(fmt_ratio(v) if v is not None and p != ref else "-")
            out.append("| " + " | ".join(cells) + " |")
        out.append(notes.text())
    return "\n".join(out) + "\n"


def devices_snippet(results):
    if not results:
        return NO_RESULTS
    lines = ["| results file | device | platform | driver | headline problem | sizes run | measured peaks (bench/peak) "
             "| date (UTC) |",
             "|---|---|---|---|---|---|---|---|"]
    for r in results:
        sizes = ", ".join(size_short(s) for s in r.sizes)
        peaks = (f"FMA {fmt_gflops(r.peak.fma)} GFLOPS, copy {fmt_gflops(r.peak.copy)} GB/s" if r.peak else "-")
        lines.append(f"| `docs/results/{r.stem}.csv` | {md_escape(r.device)} | {md_escape(r.platform)} | "
                     f"{md_escape(r.driver)} | {size_text(r.headline)}, alpha={r.alpha}, beta={r.beta}: "
                     f"{r.headline_rule} | {sizes} | {peaks} | {r.dates} |")
    text = "\n".join(lines) + "\n"
    notes = []
    for r in results:
        for p in r.programs:
            row = r.row(p)
            if not is_step(p) and row and row["status"] in RAN and row["device"] != r.device:
                notes.append(f"`{p}` in `{r.stem}` ran on {md_escape(row['device'])} "
                             f"({md_escape(row['platform'])}, {md_escape(row['driver'])})")
        if r.verify_limit:
            notes.append(f"in `{r.stem}`, the runs above {r.verify_limit} are UNVERIFIED (bench.py "
                         f"`--verify-max-size {r.verify_limit}`: not checked against the reference)")
    if notes:
        text += "\nNotes: " + "; ".join(notes) + ".\n"
    return text


def reasons_text(r):
    """The programs that did not run (or failed) at some size, with the reason the file gives."""
    seen = {}
    for s in r.sizes:
        for p in r.programs:
            row = r.row(p, s)
            if row and row["status"] in NOT_RUN + ("FAIL",):
                key = (p, row["status"])
                if key not in seen:
                    seen[key] = ([], row["parts"] if row["status"] in NOT_RUN else "")
                seen[key][0].append(size_short(s))
    out = []
    for (p, status), (sizes, reason) in seen.items():
        text = f"- `{p}`, {status} at {', '.join(sizes)}"
        if reason:
            text += f": {md_escape(reason)}"
            if len(sizes) > 1:
                text += " (the reason at the first size)"
        out.append(text)
    return "\n".join(out)


# Sizes per table of a sweep's rates: more columns would not fit the page
SIZES_PER_TABLE = 7


def details_snippet(results):
    out = []
    for r in results:
        # (\\section inside an \\includedoc'd file silently drops the rest: HTML headings do not)
        out.append(f"<h2>{html.escape(r.stem)}: {html.escape(r.device)}</h2>\n")
        out.append(f"{md_escape(r.label())}; recorded {r.dates}; file `docs/results/{r.stem}.csv`. "
                   f"All runs at the headline size, {size_text(r.headline)} ({r.headline_rule}), "
                   f"alpha={r.alpha}, beta={r.beta} (time: median of the timed runs, and the best; errors on "
                   f"{r.data_text()}):\n")
        out.append("| program | parameters | runs (warm-up + timed) | ms: median (best) | GFLOPS | best GFLOPS "
                   "| worst error / bound | time per kernel, median ms (parts) | result |")
        out.append("|---|---|---|---:|---:|---:|---:|---|---|")
        for p in r.programs:
            row = r.row(p)
            if not row:
                continue
            params = (md_escape(row["params"]) or "-") + r.choice_text(p)
            if row["status"] not in RAN:
                out.append(f"| `{p}` | {params} | - | - | - | - | - | {md_escape(row['parts'])} | {row['status']} |")
                continue
            err = row["max_err_over_bound"] or "-"
            try:
                err = f"{float(err):.3g}"
            except ValueError:
                pass
            parts = "; ".join(f"{md_escape(name)} {median:.4g}" for name, median, _ in parse_parts(row["parts"])) or "-"
            out.append(f"| `{p}` | {params} | {row['warmup']} + {row['repeat']} | {float(row['median_ms']):.4g} "
                       f"({float(row['best_ms']):.4g}) | {fmt_gflops(float(row['gflops']))} | "
                       f"{fmt_gflops(float(row['gflops_best']))} | {err} | {parts} | {row['status']} |")
        out.append(f"\n\\image html results_{r.stem}.svg \"GFLOPS of each step and peer on {md_escape(r.stem)}, "
                   f"{size_text(r.headline)}\"\n")
        if len(r.sizes) > 1:
            out.append("GFLOPS (median) at every size the file holds; *italics*: measured but UNVERIFIED; "
                       "a status where the program has no measurement:\n")
            for part in range(0, len(r.sizes), SIZES_PER_TABLE):  # tables that fit the page
                sizes = r.sizes[part:part + SIZES_PER_TABLE]
                out.append("| program | " + " | ".join(size_short(s) for s in sizes) + " |")
                out.append("|---|" + "---:|" * len(sizes))
                for p in r.programs:
                    cells = []
                    for s in sizes:
                        g, verified = r.measured(p, s)
                        if g is not None and not verified:
                            cells.append(f"*{fmt_gflops(g)}*")
                        else:
                            cells.append(status_cell(r, p, s))
                        if r.unsteady(p, s) is not None:
                            cells[-1] += " (~)"
                    out.append(f"| `{p}` | " + " | ".join(cells) + " |")
                out.append("")
            unsteady = [(p, s, r.unsteady(p, s)) for p in r.programs for s in r.sizes if r.unsteady(p, s) is not None]
            if unsteady:
                out.append(f"(~): unsteady: the best timed run was more than {UNSTEADY * 100:.0f} % faster than the "
                           "median. The runs varied that much (a load beside them, the clocks, or, for the smallest "
                           "problems, the launches themselves), so that median says less about the program than "
                           "the others do: "
                           + "; ".join(f"`{p}` at {size_short(s)}, best {spread * 100:+.0f} %" for p, s, spread in unsteady)
                           + ".\n")
            reasons = reasons_text(r)
            if reasons:
                out.append("\nThe programs without a measurement at some size, and why:\n\n" + reasons)
            if any(s[0] == s[1] == s[2] for s in r.sizes):
                out.append(f"\n\\image html sweep_{r.stem}.svg \"GFLOPS against the square problem size on "
                           f"{md_escape(r.stem)} (log-log; open points: UNVERIFIED)\"\n")
    if not out:
        out.append(NO_RESULTS)
    return "\n".join(out) + "\n"


def gain_snippet(steps, step, results, attribution=None):
    """Sentences for a step's page: what it measured on each recorded device, and where its gain
    there is not its idea, why (attribution.py)."""
    prev = previous_step(steps, step)
    first = steps[0]
    out = []
    for r in results:
        row = r.row(step.name)
        # the device, its driver, the date and the parameters are the results page's: a lesson names
        # the file and the size
        where = f"**{md_escape(r.stem)}**, {size_text(r.headline)}"
        if row is None:
            out.append(f"- {where}: not in this results file.")
            continue
        g = r.gflops(step.name)
        if g is None:
            out.append(f"- {where}: {row['status']} (see the results page).")
            continue
        text = f"- {where}: **{fmt_gflops(g)} GFLOPS**"
        if prev:
            p = r.gflops(prev.name)
            text += (f", **{fmt_ratio(g / p)}** step {prev.number}'s {fmt_gflops(p)} GFLOPS" if p
                     else f" (step {prev.number} has no verified run at this size)")
        if step is not first and prev is not first:
            f1 = r.gflops(first.name)
            if f1:
                text += f", {fmt_ratio(g / f1)} step {first.number}'s {fmt_gflops(f1)}"
        pct, on_tensor = r.pct_ceiling(step.name)
        if on_tensor:
            text += (f"; {fmt_pct(pct)} of its tensor-core ceiling (the measured TF32 peak, "
                     f"{fmt_gflops(r.peak.tf32)} GFLOPS, over its three products)")
        elif pct is not None:
            text += (f"; {fmt_pct(pct)} of the measured FMA peak" if not r.ceiling_by else
                     f"; {fmt_pct(pct)} of the fastest rate measured there (`{r.ceiling_by[0]}`'s)")
        refs = [f"{fmt_ratio(r.vs(step.name, ref))} {label}" for ref, label in REFERENCES
                if r.vs(step.name, ref) is not None]
        if refs:
            text += "; " + ", ".join(refs)
        reason = attribution.not_idea(r, step) if attribution and prev else None
        if reason:
            text += f". Its gain over step {prev.number} there is not this step's idea: {reason}"
        v = stall(r, steps, attribution)
        if v and step.name in v[1]:
            text += (f". Like every step after step {number(v[0])}, it does not get back to step {number(v[0])}'s rate "
                     "on this device at this size (the verdict on the \\ref index \"main page\")")
        out.append(text + ".")
    if not results:
        out.append("- " + NO_RESULTS.strip())
    return "\n".join(out) + "\n"


def awkward_size(r):
    """The size a lesson's table shows beside the headline size: the file's largest verified problem
    whose M, N and K all differ (a multiple of no tile of the steps), else None. Verified: a table of
    UNVERIFIED rows (3000x1000x5000 beyond a sweep's --verify-max-size) would show no errors."""
    odd = [s for s in r.sizes if len(set(s)) == 3 and any(r.measured(p, s)[1] for p in r.programs)]
    return max(odd, key=lambda s: (s[0] * s[1] * s[2], s)) if odd else None


def reference(r, size=None):
    """The tuned library that step 1 is set against on r: the first of REFERENCES (cuBLAS, then
    CLBlast) that the file holds at that size, as (program, label), else None."""
    return next(((p, label) for p, label in REFERENCES if r.row(p, size)), None)


def buys_snippet(steps, step, results, attribution=None):
    """The table of what a step buys, for its lesson: per recorded device, at the headline size and at
    awkward_size(), the step's GFLOPS beside the previous step's and the ratio, a gain that is not the
    step's idea marked with its lettered note (attribution.py); for step 1, beside a tuned library
    (reference()) and the share of the measured FMA peak. A program that did not run shows its status."""
    if not results:
        return NO_RESULTS
    prev = previous_step(steps, step)
    notes = Notes(attribution if prev else None)
    odd = sorted({s for s in (awkward_size(r) for r in results) if s})
    if prev:
        head = (f"| device | problem | step {prev.number}, GFLOPS | step {step.number}, GFLOPS "
                f"| step {step.number} over step {prev.number} |")
        lines = [head, "|---|---|---:|---:|---:|"]
    else:
        lines = [f"| device | problem | step {step.number}, GFLOPS | of the FMA peak | the library, GFLOPS "
                 f"| step {step.number} over the library |", "|---|---|---:|---:|---:|---:|"]
    for r in results:
        for size in (r.headline, awkward_size(r)):
            if size is None:
                continue
            cells = [f"`{md_escape(r.stem)}`", size_text(size) if size == r.headline else size_short(size)]
            g = r.gflops(step.name, size)
            if prev:
                p = r.gflops(prev.name, size)
                cells += [status_cell(r, prev.name, size), status_cell(r, step.name, size)]
                if g and p:
                    ratio = fmt_ratio(g / p)
                    cells.append(gain_cell(ratio, notes.note(r, step, ratio, None if size == r.headline else size)))
                else:
                    cells.append("-")
            else:
                ref = reference(r, size)
                pct, on_tensor = r.pct_ceiling(step.name, size)
                cells += [status_cell(r, step.name, size),
                          fmt_pct(pct) + (" of TF32 peak / 3" if on_tensor else "") if pct is not None else "-",
                          f"{ref[1]}: {status_cell(r, ref[0], size)}" if ref else "-",
                          fmt_ratio(g / r.gflops(ref[0], size)) if ref and g and r.gflops(ref[0], size) else "-"]
            lines.append("| " + " | ".join(cells) + " |")
    what = (f"Step {step.number} against step {prev.number}" if prev else
            f"Step {step.number} against a tuned library on the same device (cuBLAS on a GPU, else CLBlast)")
    where = ("at the device's headline size (the largest square size at which every step passed)"
             + "".join(f" and at {size_short(s)}, an awkward size (M, N and K all different"
                       + (", none a multiple of 16)" if all(x % 16 for x in s) else ")") for s in odd))
    refused = any("REFUSED" in line for line in lines[2:])
    text = (f"{what} on each recorded device, in GFLOPS (the median of the timed runs), {where}."
            + (" REFUSED: the step does not take that size." if refused else "")
            + "\n\n" + "\n".join(lines) + "\n" + notes.text())
    return text


def number(program):
    """The number of a step, from its name: kernel03_vectorized -> 3."""
    return int(short_name(program).split()[0])


def stall(r, steps=None, attribution=None):
    """(fastest step, later steps below it, later steps above it only through gains that are not
    their ideas) at the headline size (the size a reader's tour runs), as program names, where some
    step comes after the fastest one whose rate rests on no such gain; else None. Without
    `attribution`, every gain counts as its idea's."""
    by_name = {s.name: s for s in steps or []}
    ran = [p for p in r.steps if r.gflops(p) is not None]
    if len(ran) < 2:
        return None
    rests = {p: bool(attribution and p in by_name and attribution.rests_on(r, by_name[p])) for p in ran}
    best = max((p for p in ran if not rests[p]), key=r.gflops)
    later = ran[ran.index(best) + 1:]
    if not later:
        return None
    return (best, [p for p in later if r.gflops(p) <= r.gflops(best)],
            [p for p in later if r.gflops(p) > r.gflops(best)])


def span(nums):
    """Step numbers in words: 'step 5', 'steps 9 and 10', 'steps 4 to 8', 'steps 4, 6 and 8'."""
    if len(nums) == 1:
        return f"step {nums[0]}"
    if len(nums) > 2 and nums == list(range(nums[0], nums[-1] + 1)):
        return f"steps {nums[0]} to {nums[-1]}"
    return "steps " + ", ".join(str(n) for n in nums[:-1]) + f" and {nums[-1]}"


# Why the steps that target a GPU's memory do not pay on a CPU through PoCL, for the verdict: how
# PoCL runs a work-group, and what its compiler does to the loop over k (attribution.py reads the
# experiment behind it)
POCL_REASON = ("PoCL runs the work-items of a work-group as loops on the CPU's cores, and where it can show that "
               "every work-item runs a loop of the kernel the same number of times, PoCL 3.1 puts its loop over the "
               "work-items inside that loop (an implicit barrier, meant for vectorizing across work-items): from "
               "step 5 on, that is the loop over k, so at every k each work-item's block of C is stored to memory "
               "and loaded back, which costs more than the block saves")


def other_pocl(r, best, steps, attribution):
    """Where a tour recorded on another PoCL (lab/tuning/*-tour.txt) has a later step above `best`:
    a sentence that says so, with both rates, else ""."""
    out = ""
    for name, version, rates in (attribution.tours if attribution else []):
        if best not in rates:
            continue
        above = [s.name for s in steps or [] if number(s.name) > number(best) and rates.get(s.name, 0) > rates[best]]
        if above:
            first = above[0]
            out += (f" A CPU through another PoCL can differ: the tour `lab/tuning/{name}`, on {version}, has step "
                    f"{number(first)} at {fmt_gflops(rates[first])} GFLOPS against step {number(best)}'s "
                    f"{fmt_gflops(rates[best])}, so which step a CPU's path ends at depends on its PoCL.")
    return out


def verdict_snippet(results, steps=None, attribution=None):
    """One paragraph per device where the later steps never get back to an earlier one through
    their ideas: the plain verdict for a reader without a GPU."""
    out = []
    for r in results:
        v = stall(r, steps, attribution)
        if not v:
            continue
        best, below, lifted = v
        text = (f"**{md_escape(r.stem)}** ({md_escape(r.device)}): at {size_short(r.headline)}, "
                "the size of the tour there, ")
        if below:
            nums = [number(p) for p in below]
            at = ", ".join(f"step {number(p)} {fmt_gflops(r.gflops(p))}" for p in below)
            text += (f"{span(nums)} {'does' if len(nums) == 1 else 'do'} not get back to step {number(best)}'s rate: "
                     f"step {number(best)} {fmt_gflops(r.gflops(best))} GFLOPS, {at} (other sizes: the results page).")
        if lifted:
            nums = [number(p) for p in lifted]
            at = ", ".join(f"step {number(p)} {fmt_gflops(r.gflops(p))}" for p in lifted)
            text += ((" " if below else "") + f"{span(nums).capitalize()} {'passes' if len(nums) == 1 else 'pass'} "
                     f"step {number(best)}'s {fmt_gflops(r.gflops(best))} GFLOPS ({at}), but only through gains "
                     "that are not the steps' ideas (the notes under the table above).")
        if "Portable Computing Language" in r.platform:
            measured = attribution.loop_barrier_text() if attribution else ""
            text += (f" The reason: {POCL_REASON}{measured}. Step 9 computes its count of K's tiles in a branch, "
                     "which PoCL cannot show to be the same for every work-item, so its loop over k keeps the block "
                     "in registers, and so does step 10's, which is step 9's kernel with other copies. On this CPU, "
                     f"through PoCL {md_escape(r.driver)}, as these kernels are written, the path ends at step "
                     f"{number(best)} by the steps' ideas; written so that PoCL keeps the block in registers, the "
                     "register blocks would pay there too.")
            text += other_pocl(r, best, steps, attribution)
        out.append(text)
    return (("\n\n".join(out) + "\n") if out
            else "On every recorded device the later steps get back above the earlier ones through their ideas.\n")


def neighbours_snippet(results):
    """Every program's rate one below and one above a square size, over its rate at that size."""
    out = []
    for r in results:
        squares = {s[0] for s in r.sizes if s[0] == s[1] == s[2]}
        centres = sorted(c for c in squares if c - 1 in squares and c + 1 in squares)
        for c in centres:
            lo, mid, hi = (c - 1,) * 3, (c,) * 3, (c + 1,) * 3
            out.append(f"**{md_escape(r.stem)}**, {r.where()}: GFLOPS at {c - 1}, {c} and {c + 1}, and the rate "
                       f"at {c - 1} and {c + 1} over the rate at {c}:\n")
            out.append(f"| program | GFLOPS at {c - 1} | at {c} | at {c + 1} | {c - 1} / {c} | {c + 1} / {c} |")
            out.append("|---|---:|---:|---:|---:|---:|")
            for p in r.programs:
                g = r.gflops(p, mid)
                cells = [status_cell(r, p, lo), status_cell(r, p, mid), status_cell(r, p, hi)]
                for s in (lo, hi):
                    x = r.gflops(p, s)
                    cells.append(fmt_ratio(x / g) if x and g else "-")
                out.append(f"| `{p}` | " + " | ".join(cells) + " |")
            out.append("")
    return ("\n".join(out) + "\n") if out else "No results file holds sizes just below and above a square size.\n"



def render(ctx):
    attribution = Attribution.of(ctx)
    for s in ctx.steps:
        write(os.path.join(ctx.out, f"{s.page}_gain.md"), gain_snippet(ctx.steps, s, ctx.results, attribution))
        write(os.path.join(ctx.out, f"{s.page}_buys.md"), buys_snippet(ctx.steps, s, ctx.results, attribution))
    write(os.path.join(ctx.out, "path.md"), path_snippet(ctx.steps, ctx.results, ctx.docs_dir, attribution))
    write(os.path.join(ctx.out, "results_summary.md"), devices_snippet(ctx.results))
    write(os.path.join(ctx.out, "results_headline.md"), headline_snippet(ctx.results, ctx.steps, attribution))
    write(os.path.join(ctx.out, "results_details.md"), details_snippet(ctx.results))
    write(os.path.join(ctx.out, "odd_sizes.md"), neighbours_snippet(ctx.results))
    write(os.path.join(ctx.out, "verdict.md"), verdict_snippet(ctx.results, ctx.steps, attribution))
