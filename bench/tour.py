#!/usr/bin/env python3
"""The tour: run every step of the tutorial in order, then the peers, on one device, and print
one table (GFLOPS, speedup over the previous step and over step 1, worst error vs its bound,
PASS/FAIL). Progress goes to stderr, the table to stdout.

Every program is run with --csv plus the options given here (e.g. --size 2048 --device 1), so
each measures itself with the harness's own rules; this script only collects and compares.
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gemmrun import (EXIT_MEANING, cuda_peer_applies, find_programs, last_error_line, program_args,  # noqa: E402
                     run_with_progress)

# The tour compares the steps with the peers that were built: the CPU BLAS and CLBlast (Debian
# packages), and cuBLAS where the CUDA toolkit was found.
TOUR_PEERS = ("cpu_blas", "clblast", "cublas")


def run(name, path, args, peer, index, total):
    r = run_with_progress(f"[{index}/{total}] {name}", path, program_args(name, args))
    return {"name": name, "peer": peer, "rc": r["rc"], "row": r["row"], "stderr": r["stderr"]}


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
        out.write("Time: median of the timed runs; GFLOPS = 2*M*N*K / time; the steps, CLBlast and cuBLAS on "
                  "the device above, cpu_blas on the host CPU\n\n")
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

    programs = find_programs(args.build_dir, TOUR_PEERS)
    if not programs:
        sys.exit(f"tour: nothing built in {args.build_dir}")
    # Say which devices exist (and whether an NVIDIA GPU is installed but not registered).
    listing = subprocess.run([programs[0][1], "--list-devices"], capture_output=True, text=True)
    sys.stderr.write(listing.stdout + listing.stderr)
    if args.list_devices or listing.returncode != 0:
        sys.exit(listing.returncode)
    sys.stderr.write("\n")
    results = []
    for i, (name, path, peer) in enumerate(programs):
        platform = next((r["row"]["platform"] for r in results if r["row"] and not r["peer"]), "")
        if name == "cublas" and not cuda_peer_applies(platform):
            # the steps ran elsewhere (PoCL, another vendor): cuBLAS would not be the same device
            sys.stderr.write(f"[{i + 1}/{len(programs)}] cublas ... not run: the steps did not run on an NVIDIA GPU\n")
            continue
        results.append(run(name, path, passthrough, peer, i + 1, len(programs)))
    print_table(results, sys.stdout)
    bad = [r for r in results if r["rc"] not in (0,)]
    # Refusals (exit 2) of a size a step cannot do are expected with odd sizes; failures are not.
    failed = [r for r in bad if r["rc"] != 2]
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
