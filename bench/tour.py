#!/usr/bin/env python3
"""The tour: run every step of the tutorial in order, then the peers, on one device, and print
one table (GFLOPS, speedup over the previous step and over step 1, worst error vs its bound,
PASS/FAIL). Progress goes to stderr, the table to stdout.

Every program is run with --csv plus the options given here (e.g. --size 2048 --device 1), so
each measures itself with the harness's own rules; this script only collects and compares.
"""
import argparse
import csv
import io
import os
import subprocess
import sys
import time

STEPS = ["kernel01_naive", "kernel02_tiled", "kernel03_vectorized", "kernel04_transpose",
         "kernel05_register_blocking", "kernel06_padding"]
PEERS = [("cpu_blas", "bench/peer_cpublas"), ("clblast", "bench/peer_clblast")]

EXIT_MEANING = {1: "FAIL", 2: "refused", 3: "error"}


def find_programs(build_dir):
    """The steps present, in order, then the peers that were built."""
    found = []
    for step in STEPS:
        path = os.path.join(build_dir, step, step)
        if os.access(path, os.X_OK):
            found.append((step, path, False))
    for name, rel in PEERS:
        path = os.path.join(build_dir, rel)
        if os.access(path, os.X_OK):
            found.append((name, path, True))
    return found


def last_error_line(text):
    """The message of the last "name: error: message" line, else the last line."""
    lines = [l for l in text.splitlines() if ": error: " in l]
    if lines:
        return lines[-1].split(": error: ", 1)[1]
    rest = text.strip().splitlines()
    return rest[-1] if rest else ""


def run(name, path, args, peer, index, total):
    # The CPU peer runs on the host: device options mean nothing to it.
    if peer and name == "cpu_blas":
        args = strip_device_args(args)
    cmd = [path, "--csv"] + args
    sys.stderr.write(f"[{index}/{total}] {name} ... ")
    sys.stderr.flush()
    t0 = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.monotonic() - t0
    row = None
    rows = list(csv.DictReader(io.StringIO(proc.stdout)))
    if rows:
        row = rows[-1]
    if proc.returncode == 0 and row:
        sys.stderr.write(f"{float(row['gflops']):.2f} GFLOPS, {row['status']} ({seconds:.1f} s)\n")
    else:
        what = EXIT_MEANING.get(proc.returncode, f"exit {proc.returncode}")
        detail = last_error_line(proc.stderr)
        sys.stderr.write(f"{what} ({seconds:.1f} s): {detail}\n")
        if proc.returncode == 3:  # show the whole story of a runtime error (e.g. a build log)
            sys.stderr.write(proc.stderr)
    return {"name": name, "peer": peer, "rc": proc.returncode, "row": row, "stderr": proc.stderr}


def strip_device_args(args):
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a in ("--platform", "--device"):
            skip = True
            continue
        if a.startswith("--platform=") or a.startswith("--device="):
            continue
        out.append(a)
    return out


def fmt_ratio(x):
    return f"{x:.2f}x" if x else "-"


def print_table(results, out):
    steps = [r for r in results if not r["peer"]]
    gpu_row = next((r["row"] for r in results if r["row"] and not r["peer"]), None) or \
        next((r["row"] for r in results if r["row"]), None)
    if gpu_row:
        out.write(f"\nDevice: {gpu_row['device']} ({gpu_row['platform']}, driver {gpu_row['driver']})\n")
        out.write(f"Problem: C = alpha*A*B + beta*C, M={gpu_row['m']} N={gpu_row['n']} K={gpu_row['k']}, "
                  f"alpha={gpu_row['alpha']} beta={gpu_row['beta']}, float, row-major\n")
        out.write("Time: median of the timed runs; GFLOPS = 2*M*N*K / time; steps and CLBlast on the device "
                  "above, cpu_blas on the host CPU\n\n")
    header = f"{'step':<28}{'GFLOPS':>10}{'vs previous':>13}{'vs step 1':>11}{'err/bound':>11}  result"
    out.write(header + "\n" + "-" * len(header) + "\n")
    first = prev = None
    for r in results:
        row = r["row"]
        if r["rc"] in (0, 1) and row:
            g = float(row["gflops"])
            vs_prev = g / prev if (prev and not r["peer"]) else None
            vs_first = g / first if first else (1.0 if not r["peer"] else None)
            err = row["max_err_over_bound"] or "-"
            try:
                err = f"{float(err):.3g}"
            except ValueError:
                pass
            out.write(f"{r['name']:<28}{g:>10.2f}{fmt_ratio(vs_prev):>13}{fmt_ratio(vs_first):>11}"
                      f"{err:>11}  {row['status']}\n")
            if not r["peer"]:
                if first is None:
                    first = g
                prev = g
        else:
            what = EXIT_MEANING.get(r["rc"], f"exit {r['rc']}")
            detail = last_error_line(r["stderr"])
            out.write(f"{r['name']:<28}{'-':>10}{'-':>13}{'-':>11}{'-':>11}  {what.upper()}: {detail}\n")
    if not steps:
        out.write("(no steps were built)\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", required=True, help="the CMake build directory")
    ap.add_argument("--list-devices", action="store_true", help="only list the OpenCL devices")
    args, passthrough = ap.parse_known_args()

    programs = find_programs(args.build_dir)
    if not programs:
        sys.exit(f"tour: nothing built in {args.build_dir}")
    # Say which devices exist (and whether an NVIDIA GPU is installed but not registered).
    listing = subprocess.run([programs[0][1], "--list-devices"], capture_output=True, text=True)
    sys.stderr.write(listing.stdout + listing.stderr)
    if args.list_devices or listing.returncode != 0:
        sys.exit(listing.returncode)
    sys.stderr.write("\n")
    results = [run(n, p, passthrough, peer, i + 1, len(programs)) for i, (n, p, peer) in enumerate(programs)]
    print_table(results, sys.stdout)
    bad = [r for r in results if r["rc"] not in (0,)]
    # Refusals (exit 2) of a size a step cannot do are expected with odd sizes; failures are not.
    failed = [r for r in bad if r["rc"] != 2]
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
