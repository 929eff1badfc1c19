"""The recorded results, from docs/results/*.csv (one device's run each) and the NAME.peak.csv
beside them."""
import glob
import os
import re

from .common import NEEDED, InputError, fmt_gflops, is_step, md_escape, parse_params, read_csv_rows, size_key, size_text

# Statuses of the harness's CSV (gemm_report.h) and of the sweep (bench/bench.py). A row that ran
# has its numbers; a row that did not run has empty numbers and the reason in `parts`.
RAN = ("PASS", "FAIL", "UNVERIFIED")
# Programs made for the tensor cores, not the FMA units: the FMA peak is not their ceiling, so the
# tables give them no '% of FMA peak' (step 11's own ceilings are on its pages; on a device without
# tensor cores its portable path is there for correctness, not speed)
NOT_FMA = ("kernel11_tensor_cores", "cublas_tf32")


NOT_RUN = ("REFUSED", "SKIPPED", "TIMEOUT", "ERROR")


NUMERIC = ("alpha", "beta", "warmup", "repeat", "median_ms", "best_ms", "gflops", "gflops_best")


# The columns of bench/peak's CSV that the pages use
PEAK_NEEDED = ["platform", "device", "driver", "fma_gflops", "fma_vector", "copy_gbps", "copy_mib", "date"]


PEAK_SUFFIX = ".peak.csv"


# A median is marked unsteady where the best timed run was more than this much faster (0.10: 10 %):
# between two sweeps on the lent GPUs the medians of the large sizes moved by under 3 %, while the
# rows past this mark were runs during which the machine was not steady (docs/results/README.md)
UNSTEADY = 0.10


# The peers that ratios are taken against, in this order, with their label
REFERENCES = [("cublas", "cuBLAS"), ("clblast", "CLBlast")]


class Peak:
    """bench/peak's measurements on one device: FMA throughput and copy bandwidth (medians)."""

    def __init__(self, path):
        self.path = path
        rows = read_csv_rows(path, PEAK_NEEDED, "bench/peak's CSV format")
        if not rows:
            raise InputError(f"{path}: no measurement")
        r = rows[-1]  # the last measurement, as bench/table.py reads it
        try:
            self.fma = float(r["fma_gflops"])
            self.copy = float(r["copy_gbps"])
            self.copy_mib = float(r["copy_mib"])
        except ValueError:
            raise InputError(f"{path}: row {len(rows) + 1} has a malformed number") from None
        if self.fma <= 0 or self.copy <= 0:
            raise InputError(f"{path}: row {len(rows) + 1} has a peak that is not positive")
        self.platform, self.device, self.driver = r["platform"], r["device"], r["driver"]
        self.vector, self.date = r["fma_vector"], r["date"][:10]
        # the tensor cores' TF32 rate through mma.sync, where peak measured one (newer files, NVIDIA GPUs)
        try:
            self.tf32 = float(r.get("tf32_gflops") or "nan")
        except ValueError:
            raise InputError(f"{path}: row {len(rows) + 1} has a malformed tf32_gflops") from None
        self.tf32 = self.tf32 if self.tf32 > 0 else None


class ResultsFile:
    """One results file: one device's run of the steps and peers, at one or several sizes: the
    harness's --csv lines, or a bench/bench.py sweep (whose rows for programs that did not run
    have empty numbers, the status REFUSED, SKIPPED, TIMEOUT or ERROR, and the reason in `parts`)."""

    def __init__(self, path):
        self.path = path
        self.stem = os.path.basename(path)[:-len(".csv")]
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]*", self.stem):
            raise InputError(f"{path}: a results file name may hold only letters, digits, '_' and '-'")
        rows = read_csv_rows(path, NEEDED, "the harness's CSV format")
        if not rows:
            raise InputError(f"{path}: no results")
        for i, r in enumerate(rows):
            where = f"{path}: row {i + 2}"
            if r["status"] not in RAN + NOT_RUN:
                raise InputError(f"{where} has the unknown status '{r['status']}' (the statuses a results "
                                 "file may hold: common/include/gemm_report.h and bench/README.md)")
            try:
                size_key(r)
                if r["status"] in RAN:
                    for c in NUMERIC:
                        float(r[c])
                    if float(r["median_ms"]) <= 0 or float(r["gflops"]) <= 0:
                        raise ValueError
            except (TypeError, ValueError):
                raise InputError(f"{where} has a malformed number") from None
            if r["status"] in RAN:
                # The pages give a run's rate (gflops) and its time (median_ms, the parts): both must
                # be the harness's 2*M*N*K / time, within the rounding of the CSV (gflops to 4 or
                # more digits, times to 1e-6 ms)
                m, n, k = size_key(r)
                for rate, ms in (("gflops", "median_ms"), ("gflops_best", "best_ms")):
                    t = float(r[ms])
                    expected = 2.0 * m * n * k / (t * 1e6) if t > 0 else float("inf")
                    if abs(float(r[rate]) - expected) > expected * (1e-3 + 1e-6 / max(t, 1e-12)):
                        raise InputError(f"{where} has {rate} {r[rate]}, but 2*M*N*K / {ms} is {expected:.4g} "
                                         "GFLOPS: the rates of a results file are the harness's (common/src/"
                                         "gemm_report.c, gemm_gflops)")
            if r["status"] in NOT_RUN and any(r[c] for c in ("median_ms", "best_ms", "gflops", "gflops_best")):
                raise InputError(f"{where} is {r['status']} but has measurements")
        ran_steps = [r for r in rows if is_step(r["step"]) and r["status"] in RAN]
        if not ran_steps:
            raise InputError(f"{path}: no row of a step (kernelNN_*) that ran: a results file is one device's run "
                             "of the steps")
        devices = {(r["platform"], r["device"], r["driver"]) for r in ran_steps}
        if len(devices) != 1:
            raise InputError(f"{path}: the steps ran on {len(devices)} different devices or drivers; "
                             "a results file is one device's run")
        self.platform, self.device, self.driver = devices.pop()
        # One operation, C = alpha*A*B + beta*C with the same alpha and beta in every row that ran: the
        # pages give them once per file, and a ratio between two programs (vs cuBLAS, vs the previous
        # step) compares like with like only then (beta != 0 reads C, beta = 0 does not)
        first = None
        for i, r in enumerate(rows):
            if r["status"] in RAN:
                op = (float(r["alpha"]), float(r["beta"]))
                if first is None:
                    first = (i, op)
                elif op != first[1]:
                    raise InputError(f"{path}: row {i + 2} computed alpha={r['alpha']}, beta={r['beta']}, but row "
                                     f"{first[0] + 2} alpha={rows[first[0]]['alpha']}, beta={rows[first[0]]['beta']}; "
                                     "a results file is one operation (run the programs with the same --alpha and "
                                     "--beta, or put the runs in separate files)")
        # The data the errors were measured on (column `data`, gemm_report.h): one distribution per
        # file; a file without the column was recorded on the data of before December 2026 (grid)
        kinds = {r.get("data") or "grid" for r in rows if r["status"] in RAN}
        if len(kinds) != 1:
            raise InputError(f"{path}: the runs used {len(kinds)} distributions of data ({', '.join(sorted(kinds))}); "
                             "a results file is one run, on one kind of data")
        self.data = kinds.pop()
        self.rows = rows
        dates = sorted(r["date"][:10] for r in rows if r["date"])
        self.dates = dates[0] if dates[0] == dates[-1] else f"{dates[0]} to {dates[-1]}"
        self.programs = []  # the steps in order, then the peers in the order of the file
        for r in sorted(rows, key=lambda r: (not is_step(r["step"]), r["step"] if is_step(r["step"]) else "")):
            if r["step"] not in self.programs:
                self.programs.append(r["step"])
        self.steps = [p for p in self.programs if is_step(p)]
        # The row shown for each program at each size: the fastest PASS, else the fastest
        # UNVERIFIED, else a FAIL, else the reason it did not run. Rows with different parameters
        # are different settings, of which the fastest is shown; rows with the same parameters are
        # runs of one setting (rows appended from another sweep, a size run again), which stand for
        # it by their median run (the slower middle one for an even count, a run that was measured),
        # not by the fastest: a best-of-N beside peers measured once is not the same measurement.
        rank = {"PASS": 0, "UNVERIFIED": 1, "FAIL": 2, "ERROR": 3, "TIMEOUT": 4, "REFUSED": 5, "SKIPPED": 6}
        self.best, self.count, self.runs, self.settings = {}, {}, {}, {}
        setting_runs = {}
        for r in rows:
            key = (r["step"], size_key(r))
            self.count[key] = self.count.get(key, 0) + 1
            if r["status"] in ("PASS", "UNVERIFIED"):
                setting_runs.setdefault((key, r["status"], r["params"]), []).append(r)
        candidates = [r for r in rows if r["status"] not in ("PASS", "UNVERIFIED")]
        for (key, _, _), runs in setting_runs.items():
            runs.sort(key=lambda r: float(r["gflops"]))
            median_run = runs[(len(runs) - 1) // 2]
            self.runs[id(median_run)] = len(runs)
            self.settings.setdefault(key, set()).add(median_run["params"])
            candidates.append(median_run)
        for r in sorted(candidates, key=rows.index):
            key = (r["step"], size_key(r))
            old = self.best.get(key)
            if (old is None or rank[r["status"]] < rank[old["status"]]
                    or (r["status"] == old["status"] and r["status"] in ("PASS", "UNVERIFIED")
                        and float(r["gflops"]) > float(old["gflops"]))):
                self.best[key] = r
        self.sizes = sorted({s for (_, s) in self.best}, key=lambda s: (s[0] * s[1] * s[2], s))
        self.verify_limit = None
        unverified = [s for (p, s), r in self.best.items() if r["status"] == "UNVERIFIED"]
        if unverified:
            verified = [s for (p, s), r in self.best.items() if r["status"] in ("PASS", "FAIL")]
            self.verify_limit = max((max(s) for s in verified), default=None)
        # The headline size: the largest square size at which every step passed; failing that,
        # the size with the most passing programs (ties: the largest problem)
        squares = [s for s in self.sizes if s[0] == s[1] == s[2]]
        full = [s for s in squares if all(self.gflops(p, s) is not None for p in self.steps)]
        if full:
            self.headline = max(full)
            self.headline_rule = "the largest square size at which every step passed verification"
        else:
            self.headline = max(self.sizes, key=lambda s: (sum(self.gflops(p, s) is not None for p in self.programs),
                                                           s[0] * s[1] * s[2]))
            self.headline_rule = "the size with the most programs that passed verification (no square size has all)"
        head = [r for r in ran_steps if size_key(r) == self.headline] or ran_steps
        self.alpha, self.beta = head[0]["alpha"], head[0]["beta"]
        # bench/peak's measurements beside the file, when there are any
        self.peak = None
        peak_path = path[:-len(".csv")] + PEAK_SUFFIX
        if os.path.isfile(peak_path):
            self.peak = Peak(peak_path)
            if (self.peak.platform, self.peak.device) != (self.platform, self.device):
                raise InputError(f"{peak_path}: measured on {self.peak.device} ({self.peak.platform}), but the steps "
                                 f"of {os.path.basename(path)} ran on {self.device} ({self.platform})")
        # '% of FMA peak' is of the measured peak, or of a faster verified rate on the same hardware
        # (a library can beat peak's kernels): never above 100 %, and the pages say which it is. A
        # program that does not run on the FMA units (NOT_FMA) has no such percentage.
        self.ceiling, self.ceiling_by = (self.peak.fma if self.peak else None), None
        for (program, size), r in self.best.items():
            g = self.gflops(program, size)
            if (g is not None and self.ceiling and self.same_hardware(r) and g > self.ceiling
                    and program not in NOT_FMA):
                self.ceiling, self.ceiling_by = g, (program, size)

    def row(self, program, size=None):
        return self.best.get((program, size or self.headline))

    def choice_text(self, program, size=None):
        """How the row shown was chosen where the file holds several rows of the program at that size:
        '(the median of 3 runs)', '(the fastest of 2 settings in 4 rows; the median of its 3 runs)', else ""."""
        key = (program, size or self.headline)
        r, n = self.best.get(key), self.count.get(key, 0)
        if not r or n < 2:
            return ""
        runs, settings = self.runs.get(id(r), 1), len(self.settings.get(key, ()))
        if runs == n:
            return f" (the median of {runs} runs)"
        text = f" (the fastest of {settings} settings in {n} rows" if settings > 1 else f" (one of {n} rows"
        return text + (f"; the median of its {runs} runs)" if runs > 1 else ")")

    def gflops(self, program, size=None):
        """GFLOPS of a run that passed verification, else None."""
        r = self.row(program, size)
        return float(r["gflops"]) if r and r["status"] == "PASS" else None

    def measured(self, program, size=None):
        """(GFLOPS, verified) of a run that passed or was not verified, else (None, False)."""
        r = self.row(program, size)
        if r and r["status"] in ("PASS", "UNVERIFIED"):
            return float(r["gflops"]), r["status"] == "PASS"
        return None, False

    def unsteady(self, program, size=None):
        """How much faster the best timed run was than the median (best/median rate - 1) where that is
        more than UNSTEADY, else None: such a median is what the runs gave, but the machine was not
        steady during them (another load, clocks), so the median says less about the kernel."""
        r = self.row(program, size)
        if not r or r["status"] not in ("PASS", "UNVERIFIED"):
            return None
        try:
            spread = float(r["gflops_best"]) / float(r["gflops"]) - 1.0
        except (KeyError, ValueError, ZeroDivisionError):
            return None
        return spread if spread > UNSTEADY else None

    def same_hardware(self, r):
        """True for a row that ran on the hardware bench/peak measured: its OpenCL device, or the host
        CPU (cpu_blas) where that device is the host CPU (PoCL names its device after the CPU)."""
        if not self.peak or not r:
            return False
        if r["step"] == "cpu_blas":
            return r["platform"] == "host" and bool(r["device"]) and self.peak.device.endswith(r["device"])
        return r["device"] == self.peak.device

    def on_peak_device(self, program):
        """True for a program that ran on the device bench/peak measured (not cpu_blas: the host CPU)."""
        r = self.row(program)
        return bool(self.peak and r and r["status"] in RAN and program != "cpu_blas"
                    and r["device"] == self.peak.device)

    def pct_peak(self, program, size=None):
        g = self.gflops(program, size)
        if g is None or program in NOT_FMA or not self.same_hardware(self.row(program, size)):
            return None
        return 100.0 * g / self.ceiling

    def tensor_ceiling(self, program, size=None):
        """The ceiling of a program made for the tensor cores, where it ran on them and bench/peak
        measured their TF32 rate: step 11 (TC=1) the TF32 peak over its three products, cuBLAS's TF32
        mode the TF32 peak itself; else None."""
        r = self.row(program, size)
        if not (r and self.peak and self.peak.tf32 and self.same_hardware(r)):
            return None
        if program == "kernel11_tensor_cores" and "TC=1" in r["params"].split():
            return self.peak.tf32 / 3
        return self.peak.tf32 if program == "cublas_tf32" else None

    def pct_ceiling(self, program, size=None):
        """(percentage, on the tensor cores?) of the program's ceiling: the FMA ceiling, or for a
        program on the tensor cores its tensor ceiling (tensor_ceiling()); (None, False) if neither."""
        g, t = self.gflops(program, size), self.tensor_ceiling(program, size)
        if g is not None and t:
            return 100.0 * g / t, True
        return self.pct_peak(program, size), False

    def ceiling_text(self):
        """What '% of FMA peak' is of, when a program was faster than bench/peak's kernels, else ""."""
        if not self.ceiling_by:
            return ""
        program, size = self.ceiling_by
        return (f"; `{program}` ran faster, {fmt_gflops(self.ceiling)} GFLOPS at {size_text(size)}, so "
                f"the column of the FMA peak gives percentages of that rate here")

    def vs(self, program, reference, size=None):
        """program's GFLOPS over the reference's, both verified at the same size, else None."""
        g, ref = self.gflops(program, size), self.gflops(reference, size)
        return g / ref if g is not None and ref else None

    def params(self, program, size=None):
        r = self.row(program, size)
        return parse_params(r["params"]) if r else {}

    def full_precision(self):
        """Whether the errors were measured on data with every bit of a float (any distribution but
        grid, the data before December 2026: at most 23 significant bits)."""
        return self.data != "grid"

    def data_text(self):
        """Which data the errors were measured on, for a sentence."""
        if self.full_precision():
            return f"`--data {md_escape(self.data)}`, values with all 24 bits of a float"
        return "the data of before December 2026 (multiples of 2^-23, at most 23 significant bits: `--data grid`)"

    def label(self):
        return f"{self.device} ({self.platform}, driver {self.driver})"

    def where(self):
        """Device, driver and date, for a sentence."""
        return f"{md_escape(self.device)} ({md_escape(self.platform)}, driver {md_escape(self.driver)}), {self.dates}"


def load_results(directory):
    paths = sorted(glob.glob(os.path.join(directory, "*.csv")))
    results = [ResultsFile(p) for p in paths if not p.endswith(PEAK_SUFFIX)]
    stems = {r.stem for r in results}
    for p in paths:
        if p.endswith(PEAK_SUFFIX) and os.path.basename(p)[:-len(PEAK_SUFFIX)] not in stems:
            raise InputError(f"{p}: peaks without a results file ({os.path.basename(p)[:-len(PEAK_SUFFIX)]}.csv)")
    return results

