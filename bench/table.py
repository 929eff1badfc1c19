#!/usr/bin/env python3
"""Prints the benchmark's tables from its CSV files, without running anything: one table per
problem size with each program's GFLOPS (median), its share of the device's measured FMA peak,
its ratio to cuBLAS and to CLBlast at the same size, its normwise error against the double-precision
reference, and its status.

    bench/table.py results.csv                 # reads results.peak.csv too, when it exists
    bench/table.py results.csv --peak other.peak.csv

bench.py prints the same tables during a sweep, each as soon as its size is done (Tables below).
"""
import argparse
import csv
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gemmrun import NOT_FP32, error_text, status_text  # noqa: E402

RUN_STATUSES = ("PASS", "FAIL", "UNVERIFIED")  # rows with measurements (the others: REFUSED, ERROR,
                                               # TIMEOUT, SKIPPED, with the reason in `parts`)
REFERENCE_STATUSES = ("PASS", "UNVERIFIED")    # rows good enough to compare others with


def peak_path(out):
    """Where the peaks of a sweep written to out are kept: results.csv -> results.peak.csv."""
    base = out[:-4] if out.endswith(".csv") else out
    return base + ".peak.csv"


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def size_label(m, n, k):
    return f"M=N=K={m}" if m == n == k else f"M={m} N={n} K={k}"


def _median_ms(row):
    """The median time of a row that ran, else None."""
    try:
        ms = float(row["median_ms"]) if row["status"] in RUN_STATUSES else None
    except (KeyError, ValueError):
        return None
    return ms if ms and ms > 0 else None


def _ratio(ms, ref_ms):
    """Speed relative to a reference at the same size: the inverse ratio of the times."""
    return f"{ref_ms / ms:.2f}x" if ms and ref_ms else "-"


def same_hardware(row, peak):
    """True for a row that ran on the hardware peak measured: the same OpenCL device, or the host
    CPU's BLAS where that device is the host CPU (PoCL and other CPU drivers name their device
    after the CPU, e.g. "pthread-skylake-avx512-AMD EPYC" for the CPU "AMD EPYC")."""
    if not peak or not row.get("device"):
        return False
    if row["step"] == "cpu_blas":
        return row.get("platform") == "host" and peak["device"].endswith(row["device"])
    return row["device"] == peak["device"]


class Tables:
    """The tables, one size at a time (bench.py prints each as soon as its size is done): the
    header first, then size() for each size in sweep order.

    '% peak' is of the measured FMA peak, or of a faster rate measured on the same hardware: a
    library (e.g. the CPU BLAS) may do better than peak's kernels, and then the table says so and
    takes that rate as the ceiling from there on, so that no program is ever above 100 %. A peer
    that is not FP32-accurate (NOT_FP32: cuBLAS on the TF32 tensor cores) is put against the
    measured TF32 tensor-core peak instead, where peak measured one, and never raises the FP32
    ceiling.

    Old files are read too: peaks without the TF32 columns, rows without `normwise_error`."""

    def __init__(self, peak, out):
        self.peak, self.out = peak, out
        self.ceiling = float(peak["fma_gflops"]) if peak else None
        self.tf32 = tf32_peak(peak)
        if peak:
            chains = f" x {peak['fma_chains']} chains" if peak.get("fma_chains") else ""
            tf32 = f"TF32 tensor cores {self.tf32:.1f} GFLOPS, " if self.tf32 else ""
            out.write(f"Measured peaks of {peak['device']} ({peak['platform']}, driver {peak['driver']}): "
                      f"FP32 FMA {float(peak['fma_gflops']):.1f} GFLOPS ({peak['fma_vector']}{chains}), {tf32}"
                      f"copy {float(peak['copy_gbps']):.1f} GB/s (medians)\n")
        else:
            out.write("No measured peaks (peak did not run): the '% peak' column is empty.\n")
        out.write("GFLOPS = 2*M*N*K / median time. '% peak': of the measured FMA peak (cublas_tf32's: of the TF32 "
                  "tensor-core peak), for programs on the hardware it was measured on.\n'vs cuBLAS', 'vs CLBlast': "
                  "their median time over the program's, at the same size (> 1: faster); cuBLAS is the FP32 one.\n"
                  "'error': the normwise error ||got-ref||/||ref|| against the double-precision reference.\n")

    def size(self, here):
        """The table of one size: here holds its rows (dicts with the harness's CSV columns)."""
        out = self.out
        key = (int(here[0]["m"]), int(here[0]["n"]), int(here[0]["k"]))
        ref = {}
        for name in ("cublas", "clblast"):
            ref[name] = next((_median_ms(r) for r in here if r["step"] == name and r["status"] in REFERENCE_STATUSES),
                             None)
        gflops = {}
        for i, r in enumerate(here):
            ms = _median_ms(r)
            gflops[i] = 2.0 * key[0] * key[1] * key[2] / (ms * 1e6) if ms else None
        # A rate above the ceiling on the same hardware raises it (and is said, below the table).
        notes = []
        for i, r in enumerate(here):
            g = gflops[i]
            if (g is not None and self.ceiling and same_hardware(r, self.peak) and g > self.ceiling
                    and r["step"] not in NOT_FP32):
                notes.append(f"note: {r['step']} ran at {g:.1f} GFLOPS here, faster than the ceiling so far "
                             f"({self.ceiling:.1f}; peak's FMA kernels measured {float(self.peak['fma_gflops']):.1f}): "
                             f"from here on '% peak' is of {g:.1f}, the fastest rate measured on this hardware\n")
                self.ceiling = g
        out.write(f"\n{size_label(*key)}\n")
        header = f"{'program':<28}{'GFLOPS':>11}{'% peak':>9}{'vs cuBLAS':>11}{'vs CLBlast':>12}{'error':>10}  status"
        out.write(header + "\n" + "-" * len(header) + "\n")
        for i, r in enumerate(here):
            ms, g = _median_ms(r), gflops[i]
            pct = "-"
            ceiling = self.tf32 if r["step"] in NOT_FP32 else self.ceiling
            if g is not None and ceiling and same_hardware(r, self.peak):
                pct = f"{100.0 * g / ceiling:.1f}%"
            status = status_text(r["step"], r)
            if r["status"] not in RUN_STATUSES and r.get("parts"):
                reason = r["parts"]
                status += ": " + (reason if len(reason) <= 90 else reason[:87] + "...")
            gtext = f"{g:.2f}" if g is not None else "-"
            out.write(f"{r['step']:<28}{gtext:>11}{pct:>9}{_ratio(ms, ref['cublas']):>11}"
                      f"{_ratio(ms, ref['clblast']):>12}{error_text(r):>10}  {status}\n")
        for note in notes:
            out.write(note)
        out.flush()


def tf32_peak(peak):
    """The measured TF32 tensor-core peak in GFLOPS, or None (not measured, or an older file)."""
    try:
        value = float((peak or {}).get("tf32_gflops") or "")
    except ValueError:
        return None
    return value if value > 0 else None


def render(rows, peak, out):
    """Writes the tables for rows (dicts with the harness's CSV columns, in sweep order) and the
    peak (a dict from peak's CSV, or None) to out."""
    tables = Tables(peak, out)
    by_size = {}  # in the order of first appearance
    for r in rows:
        by_size.setdefault((r["m"], r["n"], r["k"]), []).append(r)
    for here in by_size.values():
        tables.size(here)


def main():
    # `table.py ... | head` ends quietly, like any command whose reader stopped early
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", help="the sweep's CSV (bench.py --out)")
    ap.add_argument("--peak", help="the peaks' CSV (default: the sweep's name with .peak.csv, if it exists)")
    args = ap.parse_args()
    try:
        rows = read_csv(args.csv)
        path = args.peak or peak_path(args.csv)
        peaks = read_csv(path) if (args.peak or os.path.exists(path)) else []
    except OSError as e:
        sys.exit(f"table: error: {e}")
    render(rows, peaks[-1] if peaks else None, sys.stdout)


if __name__ == "__main__":
    main()
