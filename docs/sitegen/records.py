"""The tuning records and compiler reports, from lab/tuning/: lab/tune.py CSVs, the
`-cl-nv-verbose` build logs (NAME-ptxas.txt) and the device listings in the logs."""
import fnmatch
import glob
import os
import re

from .common import NEEDED, InputError, md_escape, parse_params, read_csv_rows, size_key

class TuningFile:
    """One lab/tune.py record: rows in the harness's columns, one per parameter combination
    (UNVERIFIED: measured with --no-verify; "PASS (verified best)": the best one, re-run with
    verification; REFUSED: the step refused the combination, numbers empty). A run of another
    kernel file through a step's host (--kernel-file: the last column, kernel_file, names it; files
    recorded before the column have none) is not the step's: its rows are kept apart, in
    kernel_file_rows, which only the exercises read (sitegen/exercises.py)."""

    def __init__(self, path):
        self.path = path
        self.name = os.path.basename(path)
        self.rows, self.kernel_file_rows = [], []
        for r in read_csv_rows(path, NEEDED, "the harness's CSV format"):
            if r["status"].startswith("PASS") or r["status"] == "UNVERIFIED":
                try:
                    r["_gflops"] = float(r["gflops"])
                    r["_size"] = size_key(r)
                    r["_params"] = parse_params(r["params"])
                except ValueError:
                    raise InputError(f"{path}: a measured row has a malformed number") from None
                (self.kernel_file_rows if r.get("kernel_file") else self.rows).append(r)
        self.device = {(r["platform"], r["device"]) for r in self.rows}


# The timing exercises' runs on a CPU (lab/exercises_cpu.sh: NAME.csv, and NAME-local-reads.csv
# of peak --local-reads), at sizes of their own: only the exercises read them (sitegen/exercises.py),
# beside each exercise's paragraph on what a CPU shows, and no lesson's table does (the local reads
# are quoted once more, where the ceilings say why a CPU has no local-memory roof: sitegen/ceilings.py)
CPU_EXERCISES = "pocl-*-exercises*.csv"


def is_cpu_exercises(path):
    return fnmatch.fnmatch(os.path.basename(path), CPU_EXERCISES)


def load_tuning(directory):
    if not directory or not os.path.isdir(directory):
        return []
    # peak --local-reads's files have columns of their own (sitegen/local_reads.py reads them), and
    # so do the peaks bench.py records beside a sweep (NAME.peak.csv, as in docs/results/) and step
    # 11's accuracy experiment (a variant column first; sitegen/fragments.py reads it). NAME-results-COMMIT.csv
    # is an earlier results file of docs/results/, kept for a lab record's comparison with the one
    # there now (lab12's table of the two sweeps): its runs were the site's results, not tuning records
    return [TuningFile(p) for p in sorted(glob.glob(os.path.join(directory, "*.csv")))
            if not p.endswith(("-local-reads.csv", ".peak.csv", "-step11-accuracy.csv")) and not is_cpu_exercises(p)
            and not re.search(r"-results-[0-9a-f]{7,}\.csv$", p)]


def tuning_for(tuning, r):
    """The tuning files measured on the device of results file r."""
    return [t for t in tuning if t.device == {(r.platform, r.device)}]


def device_groups(results, tuning):
    """(label, device, tuning files) for each results file, then for each device that only tuning
    files were measured on (labelled by its name: device_heading()
    names it once)"""
    out = [(r.stem, r.device, tuning_for(tuning, r)) for r in results]
    seen = {(r.platform, r.device) for r in results}
    for t in tuning:
        for key in sorted(t.device - seen):
            seen.add(key)
            out.append((key[1], key[1], [x for x in tuning if x.device == {key}]))
    return out


def device_heading(label, device):
    """A device's name at the head of its paragraph (Markdown): the results file's name and the device,
    or the device alone where only tuning files were measured on it (its label is its name)."""
    return f"**{md_escape(label)}**" + (f", {md_escape(device)}" if device != label else "")


def read_ptxas(path):
    """A compiler report (lab/tuning/*-ptxas.txt: each step's `-cl-nv-verbose` build log after a
    line '== step') -> {step: {'params': text, 'kernels': [(kernel, registers, smem bytes,
    spill stores, spill loads)]}}."""
    out, step, kernel, spills = {}, None, None, (0, 0)
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"== (\S+)", line)
            if m:
                step = m.group(1)
                out[step] = {"params": "", "kernels": [], "arch": ""}
                continue
            if step is None:
                continue
            m = re.search(r"Compiling entry function '(\w+)' for '(sm_\d+)", line)
            if m:
                kernel = m.group(1)
                out[step]["arch"] = m.group(2)
            m = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line)
            if m:
                spills = (int(m.group(1)), int(m.group(2)))
            m = re.search(r"Used (\d+) registers(?:, used \d+ barriers)?(?:, (\d+) bytes smem)?", line)
            if m and kernel:
                out[step]["kernels"].append((kernel, int(m.group(1)), int(m.group(2) or 0)) + spills)
                kernel, spills = None, (0, 0)
            m = re.match(r"parameters\s+(.*)", line)
            if m:
                out[step]["params"] = m.group(1).strip()
    return out


def load_ptxas(directory, results):
    """{results stem: (report path, report)} for the results files whose device a report in
    `directory` names in its file name (nvidia-h200-ptxas.txt goes with nvidia-h200.csv)."""
    out = {}
    for r in results:
        path = os.path.join(directory or "", f"{r.stem}-ptxas.txt")
        if directory and os.path.isfile(path):
            out[r.stem] = (path, read_ptxas(path))
    return out


def compute_units(directory, r):
    """The compute-unit count of r's device, from a committed `--list-devices` listing in
    lab/tuning/*.log, else None."""
    listing = device_listing(directory, r.device, r.driver, prefer=f"{r.stem}-bench.log")
    return (listing[0], listing[2]) if listing else (None, None)


def device_listing(directory, device, driver, prefer=""):
    """(compute units, largest buffer in bytes, log file name) of a device and driver, from the
    first committed `--list-devices` listing in lab/tuning/*.log that names them (`prefer` first),
    else None. The listing gives the largest buffer in GiB to one decimal."""
    paths = sorted(glob.glob(os.path.join(directory or "", "*.log")), key=lambda p: (os.path.basename(p) != prefer, p))
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        m = re.search(r"device \d+: " + re.escape(device) + r" \[.*\]\n.*driver " + re.escape(driver)
                      + r"; (\d+) compute units.*\n(?:.*largest buffer ([0-9.]+) GiB)?", text)
        if m:
            return int(m.group(1)), int(float(m.group(2) or 0) * 2**30), os.path.basename(path)
    return None


# What one multiprocessor of an NVIDIA GPU holds at once, by compute capability (the CUDA C++
# Programming Guide's table of technical specifications): 32-bit registers, allocated to each warp
# in units of `reg_unit`; resident warps and work-groups; shared (local) memory, of which
# `smem_reserved` bytes go to the system for every resident work-group.
SM_LIMITS = {"sm_90": {"registers": 65536, "reg_unit": 256, "warps": 64, "groups": 32,
                       "smem": 228 * 1024, "smem_reserved": 1024}}


def resident_groups(report, kernel, work_items):
    """How many work-groups of `kernel`, `work_items` each, one NVIDIA multiprocessor holds at once,
    from the compiler report of one step (read_ptxas) -> (groups, the resource that limits it,
    registers, local memory bytes), or None where the report or the architecture's limits are
    unknown."""
    lim = SM_LIMITS.get(report.get("arch", ""))
    k = next((k for k in report["kernels"] if k[0] == kernel), None)
    if not lim or not k:
        return None
    regs, smem = k[1], k[2]
    warps = -(-work_items // 32)
    per_warp = -(-regs * 32 // lim["reg_unit"]) * lim["reg_unit"]
    limits = {"register file": lim["registers"] // (per_warp * warps), "warp slots": lim["warps"] // warps,
              "work-group slots": lim["groups"], "local memory": lim["smem"] // (smem + lim["smem_reserved"])}
    name = min(limits, key=limits.get)
    return limits[name], name, regs, smem

