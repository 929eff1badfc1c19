#!/usr/bin/env python3
"""The benchmark: every step present and every peer built (CPU BLAS, CLBlast, cuBLAS), over a
sweep of problem sizes, after measuring the device's peaks once with `peak`.

    python3 bench/bench.py --build-dir build --out results/h200.csv [options] [program options]

Writes:
- OUT: one CSV with exactly the harness's columns (step,platform,...,status,date), one row per
  program and size. A program that ran gives its own row (PASS, FAIL or UNVERIFIED). Otherwise
  the numeric fields are empty, `status` says why and `parts` holds the reason:
    REFUSED  the program refused the size (exit 2), e.g. a step that needs tile multiples;
    ERROR    a runtime error (exit 3) or anything unexpected;
    SKIPPED  the time guard (below) kept it from running.
- OUT with .csv replaced by .peak.csv: peak's CSV (FMA GFLOPS, copy GB/s, median and best).
Then prints one table per size (bench/table.py re-prints them from the files).

Sizes, smallest problem first: the squares of --sizes (up to --max-size), plus the
--odd-sizes (default 4095, 4097 and 1000x3000x500) for every program.

Verification: every program checks its result against a double-precision reference, which it
computes on the host (a CPU BLAS dgemm when the build found one, else a portable loop, far
slower at large sizes); --verify-max-size N leaves it out above N (status UNVERIFIED).

Time guard: once a program's run (one size, the whole process) takes more than --guard-seconds
of wall-clock time, the program is SKIPPED at every larger problem (more multiply-adds).

Options this script does not know go to every program, e.g. --repeat 10 --warmup 2, --device 1,
--platform NVIDIA, --no-verify, --alpha 0.5 --beta 2; peak gets --platform, --device, --repeat
and --warmup from them. The CPU peer ignores --platform/--device; cuBLAS takes --cuda-device.
Exit status: 0 if no row is FAIL or ERROR and peak ran, 1 otherwise, 2 for bad options.
"""
import argparse
import csv
import datetime
import os
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gemmrun import (COLUMNS, cuda_peer_applies, find_programs, last_error_line, keep_options, option_names,  # noqa: E402
                     program_args, run_program, run_with_progress)
from table import peak_path, render  # noqa: E402

DEFAULT_SIZES = "256,512,1024,2048,3072,4096,5120,6144,7168,8192"
DEFAULT_ODD_SIZES = "4095,4097,1000x3000x500"
# Options the sweep sets itself.
OWN_PROGRAM_OPTIONS = {"-m", "-n", "-k", "--size", "--csv", "--list-devices", "--help", "-h", "--version"}
PEAK_OPTIONS = {"--platform", "--device", "--repeat", "--warmup"}


def parse_sizes(text, what):
    """"256,512" -> [(256,256,256), (512,512,512)]; "1000x3000x500" -> [(1000,3000,500)]; "none" -> []."""
    if text.strip().lower() == "none":
        return []
    out = []
    for item in text.split(","):
        parts = item.strip().lower().split("x")
        try:
            dims = [int(p) for p in parts]
        except ValueError:
            dims = []
        if len(dims) == 1:
            dims *= 3
        if len(dims) != 3 or min(dims) < 1:
            raise argparse.ArgumentTypeError(f"{what}: '{item}' is not a size (N or MxNxK)")
        out.append(tuple(dims))
    return out


def utc_now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def status_row(name, mnk, status, reason):
    """A row for a program that did not run at this size: numbers empty, the reason in `parts`."""
    row = dict.fromkeys(COLUMNS, "")
    row.update(step=name, m=str(mnk[0]), n=str(mnk[1]), k=str(mnk[2]), status=status, parts=reason, date=utc_now())
    return row


def result_row(name, mnk, r):
    """The CSV row for one finished run of a program."""
    row = r["row"]
    if r["rc"] in (0, 1) and row:
        if list(row.keys()) != COLUMNS:
            return status_row(name, mnk, "ERROR", f"unexpected CSV columns: {','.join(row.keys())}")
        return row
    reason = last_error_line(r["stderr"]) or f"exit status {r['rc']} and no CSV row"
    return status_row(name, mnk, "REFUSED" if r["rc"] == 2 else "ERROR", reason)


def run_peak(path, args, out_path):
    """Runs peak --csv once and writes its CSV to out_path. Returns True if it ran."""
    sys.stderr.write(f"peak {' '.join(args)} ... ")
    sys.stderr.flush()
    r = run_program(path, args)
    if r["rc"] != 0 or not r["row"]:
        sys.stderr.write(f"failed (exit {r['rc']}): {last_error_line(r['stderr'])}\n")
        return False
    with open(out_path, "w", newline="") as f:
        f.write(r["stdout"])
    row = r["row"]
    sys.stderr.write(f"FMA {float(row['fma_gflops']):.1f} GFLOPS ({row['fma_vector']}), copy "
                     f"{float(row['copy_gbps']):.1f} GB/s ({r['seconds']:.1f} s)\n")
    return True


def main():
    # No abbreviations: "--size 64" must reach the clash check, not pass for --sizes.
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                 allow_abbrev=False)
    ap.add_argument("--build-dir", required=True, help="the CMake build directory")
    ap.add_argument("--out", required=True, help="the CSV to write (the peaks go to its name with .peak.csv)")
    ap.add_argument("--sizes", default=DEFAULT_SIZES, type=lambda t: parse_sizes(t, "--sizes"),
                    help=f"square sizes N or MxNxK, comma-separated (default {DEFAULT_SIZES})")
    ap.add_argument("--odd-sizes", default=DEFAULT_ODD_SIZES, type=lambda t: parse_sizes(t, "--odd-sizes"),
                    help=f"sizes that not every step supports, for every program (default {DEFAULT_ODD_SIZES}; "
                         "'none' for none)")
    ap.add_argument("--max-size", type=int, help="leave out the sizes with a dimension larger than this")
    ap.add_argument("--programs", help="run only these programs (comma-separated names, e.g. kernel02_tiled,cublas)")
    ap.add_argument("--exclude", help="do not run these programs (comma-separated names)")
    ap.add_argument("--guard-seconds", type=float, default=30.0,
                    help="skip a program at larger problems once one of its runs took longer than this (default 30)")
    ap.add_argument("--verify-max-size", type=int,
                    help="verify only problems whose largest dimension is at most this; larger ones run with "
                         "--no-verify (status UNVERIFIED). Default: verify all")
    ap.add_argument("--cuda-device", type=int, help="CUDA device index for cuBLAS (default: its own default, 0)")
    ap.add_argument("--peak-args", default="", help="extra options for peak only, e.g. \"--copy-mib 256\"")
    ap.add_argument("--no-peak", action="store_true", help="do not run peak (no '%% peak' column)")
    args, passthrough = ap.parse_known_args()

    clash = sorted(set(option_names(passthrough)) & OWN_PROGRAM_OPTIONS)
    if clash:
        ap.error(f"{', '.join(clash)}: the sweep sets sizes and output itself (use --sizes, --odd-sizes, --max-size)")
    problems = [p for p in dict.fromkeys(args.sizes + args.odd_sizes) if not args.max_size or max(p) <= args.max_size]
    problems.sort(key=lambda p: p[0] * p[1] * p[2])  # stable: equal products keep their order
    if not problems:
        ap.error("no sizes left to run")
    chosen = set(args.programs.split(",")) if args.programs else None
    excluded = set(args.exclude.split(",")) if args.exclude else set()
    programs = [p for p in find_programs(args.build_dir)
                if (chosen is None or p[0] in chosen) and p[0] not in excluded]
    if chosen and chosen - {p[0] for p in programs}:
        ap.error(f"not built in {args.build_dir}: {', '.join(sorted(chosen - {p[0] for p in programs}))}")
    if not programs:
        ap.error(f"no programs to run in {args.build_dir}")

    out_dir = os.path.dirname(os.path.abspath(args.out))
    os.makedirs(out_dir, exist_ok=True)
    peak_ok = True
    peak_bin = os.path.join(args.build_dir, "bench", "peak")
    if os.path.exists(peak_path(args.out)):
        os.remove(peak_path(args.out))  # never leave the peaks of an earlier sweep beside this one
    if not args.no_peak:
        if os.access(peak_bin, os.X_OK):
            # Say which devices exist (and whether an NVIDIA GPU is installed but not registered).
            listing = subprocess.run([peak_bin, "--list-devices"], capture_output=True, text=True)
            sys.stderr.write(listing.stdout + listing.stderr + "\n")
            peak_ok = run_peak(peak_bin, keep_options(passthrough, PEAK_OPTIONS) + shlex.split(args.peak_args),
                               peak_path(args.out))
        else:
            sys.stderr.write(f"bench: no {peak_bin}: no measured peaks\n")
            peak_ok = False

    # cuBLAS is the same device's peer only where the OpenCL device is an NVIDIA GPU; on any other
    # device (PoCL, another vendor) it is left out unless asked for by name.
    if peak_ok and os.path.exists(peak_path(args.out)) and not (chosen and "cublas" in chosen):
        with open(peak_path(args.out), newline="") as pf:
            platform = (list(csv.DictReader(pf)) or [{}])[-1].get("platform", "")
        if not cuda_peer_applies(platform):
            if any(p[0] == "cublas" for p in programs):
                sys.stderr.write(f"bench: cublas left out: the OpenCL device is not an NVIDIA GPU ({platform})\n")
            programs = [p for p in programs if p[0] != "cublas"]

    rows, slow = [], {}  # slow[name] = (seconds, problem) of the run that tripped the guard
    total, index = len(problems) * len(programs), 0
    with open(args.out, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS)
        writer.writeheader()
        for mnk in problems:
            label = "x".join(str(d) for d in mnk)
            for name, path, _ in programs:
                index += 1
                tripped = slow.get(name)
                if tripped and mnk[0] * mnk[1] * mnk[2] > tripped[1][0] * tripped[1][1] * tripped[1][2]:
                    reason = (f"time guard: the run at {'x'.join(str(d) for d in tripped[1])} took "
                              f"{tripped[0]:.1f} s > --guard-seconds {args.guard_seconds:g}")
                    sys.stderr.write(f"[{index}/{total}] {label} {name} ... skipped ({reason})\n")
                    row = status_row(name, mnk, "SKIPPED", reason)
                else:
                    size_args = ["-m", str(mnk[0]), "-n", str(mnk[1]), "-k", str(mnk[2])]
                    if args.verify_max_size and max(mnk) > args.verify_max_size and "--no-verify" not in passthrough:
                        size_args.append("--no-verify")
                    r = run_with_progress(f"[{index}/{total}] {label} {name}", path,
                                          program_args(name, passthrough, args.cuda_device) + size_args)
                    row = result_row(name, mnk, r)
                    if r["seconds"] > args.guard_seconds and name not in slow:
                        slow[name] = (r["seconds"], mnk)
                writer.writerow(row)
                f.flush()
                rows.append(row)

    peaks = None
    if peak_ok and os.path.exists(peak_path(args.out)):
        with open(peak_path(args.out), newline="") as pf:
            peaks = list(csv.DictReader(pf))[-1]
    render(rows, peaks, sys.stdout)
    bad = [r for r in rows if r["status"] in ("FAIL", "ERROR")]
    sys.stdout.write(f"\nWrote {args.out} ({len(rows)} rows"
                     + (f", {len(bad)} FAIL/ERROR" if bad else "") + ")"
                     + (f" and {peak_path(args.out)}" if peaks else "") + "\n")
    sys.exit(1 if bad or not peak_ok else 0)


if __name__ == "__main__":
    main()
