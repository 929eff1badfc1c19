#!/usr/bin/env python3
"""The tour: run every step of the tutorial in order, then the peers, on one device, and print
one table (GFLOPS, speedup over the previous step and over step 1, worst error vs its bound, the
normwise error ||got-ref||/||ref|| against the double-precision reference, PASS/FAIL). Progress goes
to stderr, the table to stdout.

Every program is run with --csv plus the options given here (e.g. --size 2048 --device 1), so
each measures itself with the harness's own rules; this script only collects and compares.

Exit status: 0 if every program ran and passed; 1 if any failed verification, was refused (e.g.
a size a step cannot do, or a --device that does not exist) or could not run. cuBLAS on the TF32
tensor cores (cublas_tf32) is not FP32-accurate by design: its FAIL is shown as its accuracy and
is not counted.
"""
import argparse
import os
import re
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gemmrun import (CUDA_PEERS, EXIT_MEANING, cuda_peer_applies, error_text, expected_failure,  # noqa: E402
                     find_programs, last_error_line, program_args, run_with_progress, status_text)

# The tour compares the steps with the peers that were built: the CPU BLAS and CLBlast (Debian
# packages), and cuBLAS where the CUDA toolkit was found (FP32, and on the TF32 tensor cores).
TOUR_PEERS = ("cpu_blas", "clblast", "cublas", "cublas_tf32")


# Programs on the host or through CUDA: not the OpenCL device the steps run on
NOT_OPENCL = ("cpu_blas",) + CUDA_PEERS


def run(name, path, args, peer, index, total, same_error):
    r = run_with_progress(f"[{index}/{total}] {name}", path, program_args(name, args), same_error=same_error)
    return {"name": name, "peer": peer, "rc": r["rc"], "row": r["row"], "stderr": r["stderr"],
            "error": last_error_line(r["stderr"]) if r["rc"] != 0 else None}


def fmt_ratio(x):
    return f"{x:.2f}x" if x else "-"


def print_table(results, out):
    steps = [r for r in results if not r["peer"]]
    # The header names the OpenCL device the steps ran on (never the host CPU of cpu_blas)
    device_row = next((r["row"] for r in results if r["row"] and r["name"] not in NOT_OPENCL), None)
    any_row = next((r["row"] for r in results if r["row"]), None)
    if device_row:
        out.write(f"\nDevice: {device_row['device']} ({device_row['platform']}, driver {device_row['driver']})\n")
    else:
        out.write("\nDevice: none (no OpenCL program ran; the reasons are below)\n")
    if any_row:
        out.write(f"Problem: C = alpha*A*B + beta*C, M={any_row['m']} N={any_row['n']} K={any_row['k']}, "
                  f"alpha={any_row['alpha']} beta={any_row['beta']}, float, row-major\n")
        out.write("Time: median of the timed runs; GFLOPS = 2*M*N*K / time; the steps, CLBlast and cuBLAS on "
                  "the device above, cpu_blas on the host CPU\n")
        out.write("Accuracy: err/bound = the worst element's error over its bound (<= 1 passes); error = the normwise "
                  "error ||got-ref||/||ref|| against the double-precision reference\n")
        # A class's defaults taken from the environment would otherwise change every figure unseen
        defaults_for = os.environ.get("GEMM_DEFAULTS_FOR")
        if defaults_for:
            out.write(f"Parameters: the steps' defaults for '{defaults_for}' devices (GEMM_DEFAULTS_FOR), not necessarily "
                      "the device's own\n")
    out.write("\n")
    header = f"{'step':<28}{'GFLOPS':>10}{'vs previous':>13}{'vs step 1':>11}{'err/bound':>11}{'error':>10}  result"
    out.write(header + "\n" + "-" * len(header) + "\n")
    first = prev = None
    shown_error = None
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
                      f"{err:>11}{error_text(row):>10}  {status_text(r['name'], row)}\n")
            if not r["peer"]:
                if first is None:
                    first = g
                prev = g
        else:
            what = EXIT_MEANING.get(r["rc"], f"exit {r['rc']}")
            detail = r["error"] if r["error"] != shown_error else "the same error as above"
            shown_error = r["error"]
            out.write(f"{r['name']:<28}{'-':>10}{'-':>13}{'-':>11}{'-':>11}{'-':>10}  {what.upper()}: {detail}\n")
    if not steps:
        out.write("(no steps were built)\n")
    # The plain verdict where the path stops paying (on a CPU through PoCL, after the vectors). A
    # split-K step that split nothing is left out of that comparison and spoken of on its own: its
    # rate there is not split-K's (step 9's page shows the experiment)
    ran = [r for r in steps if r["rc"] == 0 and r["row"]]
    # step 11 without tensor cores runs its portable path (TC=0): a check of its fragments, not a rate
    portable = [r for r in ran if re.search(r"(^| )TC=0( |$)", r["row"].get("params", ""))]
    for r in portable:
        out.write(f"\n{r['name']} ran its portable path (TC=0): this device has no tensor cores, so the step "
                  "performs the tensor cores' operation in OpenCL C, to check its fragments and its arithmetic; "
                  "its rate says nothing about the tensor cores.\n")
    ran = [r for r in ran if r not in portable]
    if device_row and ran and "Portable Computing Language" in device_row["platform"]:
        unsplit = unsplit_step(ran)
        others = [r for r in ran if r is not unsplit]
        best = max(others, key=lambda r: float(r["row"]["gflops"])) if others else None
        if best is not None and best is not others[-1]:
            out.write(f"\nOn this CPU no step after {best['name']} gets back to its rate: PoCL runs a work-group's "
                      "work-items as loops on the cores, local memory is ordinary cached memory, and the vectors "
                      "already fill the SIMD registers, so the later steps' transposes, register blocks, padding "
                      "and double buffering add work without removing a limit the CPU has.\n")
        if unsplit is not None:
            faster = best is not None and float(unsplit["row"]["gflops"]) > float(best["row"]["gflops"])
            out.write(f"{'' if best is not None and best is not others[-1] else chr(10)}{unsplit['name']} chose not "
                      "to split K here (its report: SLICES=1): the blocks of C fill the cores' waves evenly enough"
                      + (", so its higher rate is not split-K's: it comes from how PoCL compiles the step's index "
                         "arithmetic (step 9's page shows the experiment)" if faster else "") + ".\n")


def unsplit_step(ran):
    """The split-K step's result when it ran without splitting (its report: SLICES=1), or None."""
    return next((r for r in ran if re.search(r"(^| )SLICES=1( |$)", r["row"].get("params", ""))), None)


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `tour.py ... | head` ends quietly
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
        if name in CUDA_PEERS and not cuda_peer_applies(platform):
            # the steps ran elsewhere (PoCL, another vendor): cuBLAS would not be the same device
            sys.stderr.write(f"[{i + 1}/{len(programs)}] {name} ... not run: the steps did not run on an NVIDIA GPU\n")
            continue
        previous = next((r["error"] for r in reversed(results) if r["error"]), None)
        results.append(run(name, path, passthrough, peer, i + 1, len(programs), previous))
    print_table(results, sys.stdout)
    # the TF32 peer's FAIL is its accuracy (the table says so), not a failure
    bad = [r for r in results if r["rc"] != 0 and not (r["rc"] == 1 and expected_failure(r["name"], r["row"]))]
    if bad:
        sys.stdout.write(f"\n{len(bad)} of {len(results)} programs did not pass: "
                         + ", ".join(f"{r['name']} ({EXIT_MEANING.get(r['rc'], 'exit ' + str(r['rc']))})" for r in bad)
                         + "\n")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
