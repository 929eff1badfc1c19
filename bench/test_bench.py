#!/usr/bin/env python3
"""Tests of the benchmark tools (run by CTest, label `bench`), on whatever device the build's
tests use (PoCL on a machine without a GPU). Standard library only.

    test_bench.py peak BUILD_DIR [program options]    peak's CSV is sane
    test_bench.py sweep BUILD_DIR [program options]   bench.py end to end, and table.py
    test_bench.py guard BUILD_DIR [program options]   the time guard skips larger problems
"""
import csv
import io
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from gemmrun import COLUMNS, find_programs  # noqa: E402
from table import peak_path  # noqa: E402

PEAK_COLUMNS = ["platform", "device", "driver", "fma_gflops", "fma_gflops_best", "fma_vector", "copy_gbps",
                "copy_gbps_best", "copy_mib", "warmup", "repeat", "date"]
QUICK = ["--repeat", "1", "--warmup", "0"]
QUICK_PEAK = ["--fma-ms", "2", "--copy-mib", "4"]
ANY_SIZE = ("kernel01_naive", "kernel06_padding", "cpu_blas")  # the programs that take every size

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print(f"FAILED: {what}")


def run(cmd, timeout=120):
    print("$ " + " ".join(cmd))
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        check(False, f"{os.path.basename(cmd[1] if cmd[0] == sys.executable else cmd[0])} finished within {timeout} s")
        proc = subprocess.CompletedProcess(cmd, -1, "", "")
    sys.stdout.write(proc.stderr)
    return proc


def number(text):
    """The finite number in text, else None."""
    try:
        v = float(text)
    except ValueError:
        return None
    return v if math.isfinite(v) else None


def positive(text):
    v = number(text)
    return v is not None and v > 0


def check_peak_rows(rows, copy_mib, repeat, warmup):
    check(len(rows) == 1, f"peak CSV has one row (got {len(rows)})")
    for row in rows:
        check(list(row.keys()) == PEAK_COLUMNS, f"peak CSV columns are {PEAK_COLUMNS} (got {list(row.keys())})")
        for col in ("fma_gflops", "fma_gflops_best", "copy_gbps", "copy_gbps_best"):
            check(positive(row.get(col, "")), f"peak {col} is a positive number (got {row.get(col)!r})")
        # The best run is never slower than the median; a CPU gives well under a PFLOPS or TB/s.
        if all(positive(row.get(c, "")) for c in ("fma_gflops", "fma_gflops_best", "copy_gbps", "copy_gbps_best")):
            check(float(row["fma_gflops_best"]) >= float(row["fma_gflops"]), "peak: best FMA run >= median")
            check(float(row["copy_gbps_best"]) >= float(row["copy_gbps"]), "peak: best copy run >= median")
            check(float(row["fma_gflops"]) < 1e6 and float(row["copy_gbps"]) < 1e5, "peak: figures in a sane range")
        check(row.get("fma_vector") in ("float4", "float8", "float16"),
              f"peak fma_vector (got {row.get('fma_vector')!r})")
        check(row.get("copy_mib") == f"{copy_mib:.3f}", f"peak copy_mib is {copy_mib} (got {row.get('copy_mib')!r})")
        check(row.get("repeat") == str(repeat) and row.get("warmup") == str(warmup), "peak repeat/warmup echoed")
        check(row.get("device", "") != "", "peak names the device")


def test_peak(build, extra):
    proc = run([os.path.join(build, "bench", "peak"), "--csv"] + QUICK + QUICK_PEAK + extra)
    check(proc.returncode == 0, f"peak exits 0 (got {proc.returncode})")
    check_peak_rows(list(csv.DictReader(io.StringIO(proc.stdout))), 4, 1, 0)
    check("peak: " in proc.stderr and "GB/s" in proc.stderr, "peak prints its human-readable report on stderr")


def sweep(build, out, args, extra):
    return run([sys.executable, os.path.join(HERE, "bench.py"), "--build-dir", build, "--out", out] + args + QUICK +
               extra)


def read_rows(path):
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        check(reader.fieldnames == COLUMNS, f"sweep CSV columns are the harness's (got {reader.fieldnames})")
        return list(reader)


def test_sweep(build, extra):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "sub", "sweep.csv")
        proc = sweep(build, out, ["--sizes", "32", "--odd-sizes", "31,24x40x16", "--exclude", "clblast,cublas",
                                  "--verify-max-size", "32", "--peak-args", " ".join(QUICK_PEAK)], extra)
        check(proc.returncode == 0, f"bench.py exits 0 (got {proc.returncode})")
        rows = read_rows(out)
        programs = [p[0] for p in find_programs(build) if p[0] not in ("clblast", "cublas")]
        # Smallest problem first: 24x40x16 (15360), 31^3 (29791), 32^3 (32768); every program once each.
        expected = [(s, p) for s in [("24", "40", "16"), ("31", "31", "31"), ("32", "32", "32")] for p in programs]
        got = [((r["m"], r["n"], r["k"]), r["step"]) for r in rows]
        check(got == expected, f"sweep rows are every program at every size, in order\n  expected {expected}\n"
                               f"  got      {got}")
        numeric = ["median_ms", "best_ms", "gflops", "gflops_best", "warmup", "repeat"]
        for r in rows:
            where = f"{r['step']} at {r['m']}x{r['n']}x{r['k']}"
            if r["status"] == "REFUSED":
                # Only the steps that need tile multiples may refuse; the refusal line is kept.
                check(r["step"] not in ANY_SIZE, f"{where} runs at any size (got REFUSED: {r['parts']})")
                check(r["parts"] != "", f"{where} keeps the refusal line")
                check(all(r[c] == "" for c in numeric), f"{where} has empty numeric fields")
            elif r["m"] == "24":  # N=40 is above --verify-max-size: runs, unverified
                check(r["status"] == "UNVERIFIED" and r["max_err_over_bound"] == "" and r["normwise_over_bound"] == "",
                      f"{where} is UNVERIFIED (got {r['status']}: {r['parts']})")
                check(all(positive(r[c]) for c in ("median_ms", "best_ms", "gflops")), f"{where} has its times")
            else:
                check(r["status"] == "PASS", f"{where} is PASS (got {r['status']}: {r['parts']})")
                check(all(positive(r[c]) for c in ("median_ms", "best_ms", "gflops")), f"{where} has its times")
                err = number(r["max_err_over_bound"])
                check(err is not None and 0.0 <= err <= 1.0,
                      f"{where} is within its error bound (got {r['max_err_over_bound']!r})")
                normwise = number(r["normwise_over_bound"])
                check(normwise is not None and 0.0 <= normwise <= 1.0,
                      f"{where} is within its normwise bound (got {r['normwise_over_bound']!r})")
            check(r["date"].endswith("Z"), f"{where} has a date")
        # 31 is prime: a step that needs tile multiples refuses it, and says so.
        tiled = [r for r in rows if r["step"] == "kernel02_tiled" and r["m"] == "31"]
        check(not tiled or (tiled[0]["status"] == "REFUSED" and "is not a multiple of TS" in tiled[0]["parts"]),
              f"kernel02_tiled refuses 31 with its refusal line (got {tiled[0] if tiled else None})")
        check(os.path.exists(peak_path(out)), "the peaks are written beside the sweep")
        if os.path.exists(peak_path(out)):
            with open(peak_path(out), newline="") as f:
                check_peak_rows(list(csv.DictReader(f)), 4, 1, 0)
        for label in ("M=24 N=40 K=16", "M=N=K=31", "M=N=K=32", "REFUSED: M=31 is not a multiple", "% peak",
                      "UNVERIFIED"):
            check(label in proc.stdout, f"the tables show '{label}'")
        # table.py renders the very same tables from the files alone.
        again = run([sys.executable, os.path.join(HERE, "table.py"), out])
        check(again.returncode == 0, "table.py exits 0")
        tables = proc.stdout[:proc.stdout.rindex("\nWrote ")]
        check(again.stdout.rstrip("\n") == tables.rstrip("\n"), "table.py prints the same tables as bench.py")
        # Options the sweep sets itself are refused, before anything runs.
        bad = sweep(build, os.path.join(tmp, "bad.csv"), ["--sizes", "32", "--size", "64"], [])
        check(bad.returncode == 2 and "the sweep sets sizes" in bad.stderr, "bench.py refuses --size")
        check(not os.path.exists(os.path.join(tmp, "bad.csv")), "a refused sweep writes nothing")


def test_guard(build, extra):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "guard.csv")
        # Every run takes more than 0 s: after the first size, larger problems are skipped.
        proc = sweep(build, out, ["--sizes", "16,32", "--odd-sizes", "16x16x8,16x8x16,16", "--guard-seconds", "0",
                                  "--programs", "kernel01_naive", "--no-peak"], extra)
        check(proc.returncode == 0, f"a sweep with skipped rows exits 0 (got {proc.returncode})")
        rows = read_rows(out)
        got = [(r["m"], r["n"], r["k"], r["status"]) for r in rows]
        # 16x16x8 runs and trips the guard; 16x8x16 is no larger, so it runs too; 16^3 (given twice, run
        # once) and 32^3 are larger, so they are skipped.
        expected = [("16", "16", "8", "PASS"), ("16", "8", "16", "PASS"), ("16", "16", "16", "SKIPPED"),
                    ("32", "32", "32", "SKIPPED")]
        check(got == expected, f"guard rows: expected {expected}, got {got}")
        for r in rows[2:]:
            check(r["parts"].startswith("time guard: the run at 16x16x8 took") and "--guard-seconds 0" in r["parts"],
                  f"a SKIPPED row says why (got {r['parts']!r})")
        check(not os.path.exists(peak_path(out)), "--no-peak writes no peaks")


def main():
    tests = {"peak": test_peak, "sweep": test_sweep, "guard": test_guard}
    if len(sys.argv) < 3 or sys.argv[1] not in tests:
        sys.exit(__doc__)
    tests[sys.argv[1]](sys.argv[2], sys.argv[3:])
    if failures:
        print(f"{len(failures)} check(s) failed")
        sys.exit(1)
    print("all checks passed")


if __name__ == "__main__":
    main()
