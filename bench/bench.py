#!/usr/bin/env python3
"""The benchmark: every step present and every peer built (CPU BLAS, CLBlast, cuBLAS, and cuBLAS
on the TF32 tensor cores), over a sweep of problem sizes chosen for the device, after measuring the
device's peaks once with `peak`.

    python3 bench/bench.py --build-dir build --out results.csv [options] [program options]

Writes:
- OUT: one CSV with exactly the harness's columns (step,platform,...,status,date), one row per
  program and size, written (and flushed) as each run ends. A program that ran gives its own row
  (PASS, FAIL or UNVERIFIED). Otherwise the numeric fields are empty, `status` says why and
  `parts` holds the reason:
    REFUSED  the program refused the size (exit 2), e.g. a step that needs tile multiples;
    ERROR    a runtime error (exit 3) or anything unexpected;
    TIMEOUT  the time guard (below) stopped the run;
    SKIPPED  the time guard kept it from running.
- OUT with .csv replaced by .peak.csv: peak's CSV (FMA GFLOPS, copy GB/s, median and best; the
  TF32 tensor-core GFLOPS on an NVIDIA GPU of compute capability 8.0 or later).
Each size's table is printed as soon as that size is done (bench/table.py re-prints them from
the files), and the whole run's time at the end.

Plan. Every program first runs at the smallest size (256 unless --sizes has a smaller one), and
from those runs the sweep is planned and its duration estimated: each program's time at a size is
its fixed cost (start, build, data) plus its runs, scaled by the multiply-adds from its rate,
plus the double-precision reference (scaled from the CPU BLAS's rate); the estimate is refined,
and an ETA printed, as sizes finish. Sizes, smallest problem first:
- --sizes and --odd-sizes when given (with --sizes alone on a CPU, the odd sizes are L-1 and L+1
  for the largest square L given, and 1000x3000x500);
- otherwise, on a GPU: the squares 256 ... 8192 and the odd sizes 4095, 4097, 1000x3000x500 and
  3000x1000x5000 (deep K, as a training step's weight gradient has it);
- on any other device (a CPU): the squares from 256 up, stopping before the first one at which
  the median program's run would take more than --size-seconds (5 s), and the odd sizes L-1 and
  L+1 (L the largest square) and 1000x3000x500, each only within that limit too.

Verification: every program checks its result against a double-precision reference, which it
computes on the host (a CPU BLAS dgemm when the build found one, else a portable loop, far
slower at large sizes); --verify-max-size N leaves it out above N (status UNVERIFIED). The tables
show each run's normwise error ||got-ref||/||ref|| (column `error`, CSV `normwise_error`). The
TF32 peer (cublas_tf32) is not FP32-accurate by design: its FAIL is shown as its accuracy
("FAIL (not FP32-accurate: TF32)") and does not make the sweep fail; 'vs cuBLAS' is the FP32 one.

Time guard: a run (one program at one size, the whole process) still going after
--guard-seconds of wall-clock time (default 30 on a CPU, 120 on a GPU; 0: no guard) is stopped
(TIMEOUT), and that program is SKIPPED at every larger problem (more multiply-adds).

Options this script does not know go to every program, e.g. --repeat 10 --warmup 2, --device 1,
--platform NVIDIA, --no-verify, --alpha 0.5 --beta 2; peak gets --platform, --device, --repeat
and --warmup from them. The CPU peer ignores --platform/--device; cuBLAS takes --cuda-device.
Exit status: 0 if no row is FAIL (but the TF32 peer's) or ERROR and peak ran, 1 otherwise, 2 for
bad options.
"""
import argparse
import csv
import datetime
import os
import shlex
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gemmrun import (COLUMNS, CUDA_PEERS, cuda_peer_applies, device_type, duration, expected_failure,  # noqa: E402
                     find_programs, last_error_line, keep_options, option_names, program_args, run_program,
                     run_with_progress)
from table import Tables, peak_path  # noqa: E402

DEFAULT_SIZES = "256,512,1024,2048,3072,4096,5120,6144,7168,8192"
DEFAULT_ODD_SIZES = "4095,4097,1000x3000x500,3000x1000x5000"
CALIBRATION = (256, 256, 256)  # the first runs, which plan the sweep
ODD_SHAPE = (1000, 3000, 500)  # a rectangle that no tile divides, on every device
# Options the sweep sets itself.
OWN_PROGRAM_OPTIONS = {"-m", "-n", "-k", "--size", "--csv", "--list-devices", "--help", "-h", "--version"}
PEAK_OPTIONS = {"--platform", "--device", "--repeat", "--warmup"}
RAN = ("PASS", "FAIL", "UNVERIFIED")
# The CPU BLAS's SGEMM rate assumed for the reference where no cpu_blas run measured it: with a
# CBLAS (the reports say "reference: CBLAS"), and without one (the portable loop, one thread).
CBLAS_GFLOPS_GUESS, LOOP_GFLOPS_GUESS = 50.0, 2.0


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


def volume(mnk):
    return mnk[0] * mnk[1] * mnk[2]


def label_of(mnk):
    return "x".join(str(d) for d in mnk)


def utc_now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def status_row(name, mnk, status, reason):
    """A row for a program that did not run at this size: numbers empty, the reason in `parts`."""
    row = dict.fromkeys(COLUMNS, "")
    row.update(step=name, m=str(mnk[0]), n=str(mnk[1]), k=str(mnk[2]), status=status, parts=reason, date=utc_now())
    return row


def result_row(name, mnk, r, guard):
    """The CSV row for one finished (or stopped) run of a program."""
    if r["timed_out"]:
        return status_row(name, mnk, "TIMEOUT", f"time guard: stopped after {r['seconds']:.0f} s "
                                                f"(--guard-seconds {guard:g})")
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
    chains = f" x {row['fma_chains']} chains" if row.get("fma_chains") else ""
    tf32 = f"TF32 tensor cores {float(row['tf32_gflops']):.1f} GFLOPS, " if row.get("tf32_gflops") else ""
    sys.stderr.write(f"FMA {float(row['fma_gflops']):.1f} GFLOPS ({row['fma_vector']}{chains}), {tf32}copy "
                     f"{float(row['copy_gbps']):.1f} GB/s ({r['seconds']:.1f} s)\n")
    return True


class Model:
    """How long a program's run takes at a size, from its runs so far (the largest problem that
    ran): a fixed cost (process start, OpenCL set-up, build, data) + its warm-up and timed runs at
    its measured rate + the double-precision reference, scaled from the CPU BLAS's rate."""

    def __init__(self, verify_max, verify=True):
        self.verify_max, self.verify = verify_max, verify
        self.fits = {}  # name -> (fixed seconds, GFLOPS, runs per process)
        self.blas_gflops = None
        self.cblas = True

    def verified(self, mnk):
        return self.verify and (not self.verify_max or max(mnk) <= self.verify_max)

    def reference_seconds(self, mnk):
        """Two dgemms (A*B and |A|*|B|) on the host, at about half the CPU BLAS's SGEMM rate."""
        rate = self.blas_gflops or (CBLAS_GFLOPS_GUESS if self.cblas else LOOP_GFLOPS_GUESS)
        return 8.0 * volume(mnk) / (rate * 1e9) if self.verified(mnk) else 0.0

    def learn(self, name, mnk, r):
        row = r["row"]
        if "reference: portable" in r["stderr"]:
            self.cblas = False
        if r["timed_out"] or not row or row.get("status") not in RAN:
            if name not in self.fits and not r["timed_out"]:  # refused or failed: it costs its start at least
                self.fits[name] = (r["seconds"], None, 0)
            return
        try:
            gflops, runs = float(row["gflops"]), int(row["warmup"]) + int(row["repeat"])
        except ValueError:
            return
        if gflops <= 0:
            return
        if name == "cpu_blas":
            self.blas_gflops = gflops
        per_run = 2.0 * volume(mnk) / (gflops * 1e9)
        reference = self.reference_seconds(mnk) if row["status"] != "UNVERIFIED" else 0.0
        self.fits[name] = (max(0.0, r["seconds"] - runs * per_run - reference), gflops, runs)

    def seconds(self, name, mnk, guard=None):
        """The estimate (at most the guard, which stops a longer run), or None if unknown."""
        fit = self.fits.get(name)
        if not fit:
            return None
        fixed, gflops, runs = fit
        t = fixed
        if gflops:
            t += runs * 2.0 * volume(mnk) / (gflops * 1e9) + self.reference_seconds(mnk)
        return min(t, guard) if guard else t


def median(values):
    v = sorted(values)
    return (v[len(v) // 2] + v[(len(v) - 1) // 2]) / 2.0 if v else None


def choose_sizes(model, names, limit, max_size):
    """For a device that is not a GPU: the squares of DEFAULT_SIZES while the median program's
    run is estimated within limit seconds, then L-1, L+1 and ODD_SHAPE within it too.
    Returns (squares, odd sizes, the first square left out and its estimate, or None)."""
    def typical(mnk):  # over the programs that ran (the others' runs cost their start only)
        times = [model.seconds(n, mnk) for n in names if model.fits.get(n, (0, None))[1]]
        return median(times) if times else float("inf")

    squares, stop = [], None
    for mnk in parse_sizes(DEFAULT_SIZES, "sizes"):
        if max_size and mnk[0] > max_size:
            break
        if squares and typical(mnk) > limit:
            stop = (mnk, typical(mnk))
            break
        squares.append(mnk)
    side = squares[-1][0]
    odd = [mnk for mnk in [(side - 1,) * 3, (side + 1,) * 3, ODD_SHAPE]
           if typical(mnk) <= limit and (not max_size or max(mnk) <= max_size)]
    return squares, odd, stop


def main():
    # No abbreviations: "--size 64" must reach the clash check, not pass for --sizes.
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                 allow_abbrev=False)
    ap.add_argument("--build-dir", required=True, help="the CMake build directory")
    ap.add_argument("--out", required=True, help="the CSV to write (the peaks go to its name with .peak.csv)")
    ap.add_argument("--sizes", type=lambda t: parse_sizes(t, "--sizes"),
                    help=f"square sizes N or MxNxK, comma-separated (default: chosen for the device; on a GPU "
                         f"{DEFAULT_SIZES})")
    ap.add_argument("--odd-sizes", type=lambda t: parse_sizes(t, "--odd-sizes"),
                    help=f"sizes that not every step supports, for every program (default: chosen for the device; "
                         f"on a GPU {DEFAULT_ODD_SIZES}; 'none' for none)")
    ap.add_argument("--size-seconds", type=float, default=5.0,
                    help="without --sizes, on a device that is not a GPU: stop the squares before the first one at "
                         "which the median program's run is estimated to take longer than this (default 5)")
    ap.add_argument("--max-size", type=int, help="leave out the sizes with a dimension larger than this")
    ap.add_argument("--programs", help="run only these programs (comma-separated names, e.g. kernel02_tiled,cublas)")
    ap.add_argument("--exclude", help="do not run these programs (comma-separated names)")
    ap.add_argument("--guard-seconds", type=float,
                    help="stop a run still going after this many seconds (TIMEOUT) and skip its program at larger "
                         "problems (default 30 on a CPU, 120 on a GPU; 0: no guard)")
    ap.add_argument("--verify-max-size", type=int,
                    help="verify only problems whose largest dimension is at most this; larger ones run with "
                         "--no-verify (status UNVERIFIED). Default: verify all")
    ap.add_argument("--cuda-device", type=int, help="CUDA device index for cuBLAS (default: its own default, 0)")
    ap.add_argument("--peak-args", default="", help="extra options for peak only, e.g. \"--copy-mib 256\"")
    ap.add_argument("--no-peak", action="store_true", help="do not run peak (no '%% peak' column)")
    args, passthrough = ap.parse_known_args()
    started = time.monotonic()

    clash = sorted(set(option_names(passthrough)) & OWN_PROGRAM_OPTIONS)
    if clash:
        ap.error(f"{', '.join(clash)}: the sweep sets sizes and output itself (use --sizes, --odd-sizes, --max-size)")
    if args.guard_seconds is not None and args.guard_seconds < 0:
        ap.error("--guard-seconds must be 0 (no guard) or more")
    given = [p for p in dict.fromkeys((args.sizes or []) + (args.odd_sizes or []))
             if not args.max_size or max(p) <= args.max_size]
    if args.sizes is not None and args.odd_sizes is not None and not given:
        ap.error("no sizes left to run")
    chosen = set(args.programs.split(",")) if args.programs else None
    excluded = set(args.exclude.split(",")) if args.exclude else set()
    programs = [p for p in find_programs(args.build_dir)
                if (chosen is None or p[0] in chosen) and p[0] not in excluded]
    if chosen and chosen - {p[0] for p in programs}:
        ap.error(f"not built in {args.build_dir}: {', '.join(sorted(chosen - {p[0] for p in programs}))}")
    if not programs:
        ap.error(f"no programs to run in {args.build_dir}")
    # The problem to plan from: the sweep's smallest when that is no larger than CALIBRATION (its
    # runs are then the sweep's own), else CALIBRATION (runs for the plan only)
    smallest = min(given, key=volume) if given else None
    calibration = smallest if smallest and volume(smallest) <= volume(CALIBRATION) else CALIBRATION

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
    peaks = None
    if peak_ok and os.path.exists(peak_path(args.out)):
        with open(peak_path(args.out), newline="") as pf:
            peaks = list(csv.DictReader(pf))[-1]

    # cuBLAS (both) is the same device's peer only where the OpenCL device is an NVIDIA GPU; on any
    # other device (PoCL, another vendor) it is left out unless asked for by name.
    if peaks and not cuda_peer_applies(peaks.get("platform", "")):
        for cuda in CUDA_PEERS:
            if any(p[0] == cuda for p in programs) and not (chosen and cuda in chosen):
                sys.stderr.write(f"bench: {cuda} left out: the OpenCL device is not an NVIDIA GPU "
                                 f"({peaks['platform']})\n")
                programs = [p for p in programs if p[0] != cuda]
    names = [p[0] for p in programs]

    model = Model(args.verify_max_size, "--no-verify" not in passthrough)
    state = {"guard": args.guard_seconds, "index": 0, "total": 0}
    slow = {}  # slow[name] = problem at which the guard stopped its run

    def size_args(mnk):
        extra = ["-m", str(mnk[0]), "-n", str(mnk[1]), "-k", str(mnk[2])]
        if model.verify and not model.verified(mnk):
            extra.append("--no-verify")
        return extra

    def skipped(name, mnk):
        return name in slow and volume(mnk) > volume(slow[name])

    def remaining_seconds(todo):
        """The estimate of the runs still to do (pairs of program and problem)."""
        total = 0.0
        for name, mnk in todo:
            if not skipped(name, mnk):
                total += model.seconds(name, mnk, state["guard"]) or 0.0
        return total

    def run_one(name, path, mnk, todo):
        """Runs name at mnk (or skips it) and returns its row; todo: what is left after it, for the ETA."""
        if skipped(name, mnk):
            reason = (f"time guard: its run at {label_of(slow[name])} was stopped after "
                      f"{state['guard']:g} s (--guard-seconds)")
            sys.stderr.write(f"[{state['index']}/{state['total']}] {label_of(mnk)} {name} ... skipped ({reason})\n")
            return {"row": status_row(name, mnk, "SKIPPED", reason), "stderr": ""}
        eta = ""
        if state["total"]:
            left = remaining_seconds([(name, mnk)] + todo)
            eta = f", about {duration(left)} left"
        r = run_with_progress(f"[{state['index']}/{state['total']}{eta}] {label_of(mnk)} {name}", path,
                              program_args(name, passthrough, args.cuda_device) + size_args(mnk),
                              timeout=state["guard"] or None)
        model.learn(name, mnk, r)
        if r["timed_out"] and name not in slow:
            slow[name] = mnk
        return {"row": result_row(name, mnk, r, state["guard"] or 0), "stderr": r["stderr"]}

    # --- Plan: every program at the calibration size --------------------------------------------
    sys.stderr.write(f"bench: {len(programs)} programs ({', '.join(names)}); each runs first at "
                     f"{label_of(calibration)}, to plan the sweep for this device\n")
    state["guard"] = args.guard_seconds if args.guard_seconds is not None else 30.0  # until the device is known
    first = {}
    kind = None
    for i, (name, path, _) in enumerate(programs):
        state["index"], state["total"] = i + 1, len(programs)
        first[name] = run_one(name, path, calibration, [])
        if kind is None and name not in ("cpu_blas",) + CUDA_PEERS:
            kind = device_type(first[name]["stderr"])
    gpu = kind == "GPU"
    if kind is None:
        sys.stderr.write(f"bench: no OpenCL program ran at {label_of(calibration)} (see above), so the device is "
                         "unknown: planned as for a CPU\n")
    if args.guard_seconds is None:
        state["guard"] = 120.0 if gpu else 30.0
    if args.sizes is not None or args.odd_sizes is not None:
        squares, odd = args.sizes, args.odd_sizes
        if squares is None:
            squares = parse_sizes(DEFAULT_SIZES, "") if gpu else choose_sizes(model, names, args.size_seconds,
                                                                                args.max_size)[0]
        if odd is None and gpu:
            odd = parse_sizes(DEFAULT_ODD_SIZES, "")
        elif odd is None:  # one below and one above the largest square given, and the rectangle
            sides = [p[0] for p in squares if p[0] == p[1] == p[2] and p[0] > 1]
            odd = ([(max(sides) - 1,) * 3, (max(sides) + 1,) * 3] if sides else []) + [ODD_SHAPE]
        why = "as given" if args.sizes is not None and args.odd_sizes is not None else "as given, and the defaults"
    elif gpu:
        squares, odd = parse_sizes(DEFAULT_SIZES, ""), parse_sizes(DEFAULT_ODD_SIZES, "")
        why = "the defaults for a GPU"
    else:
        squares, odd, stop = choose_sizes(model, names, args.size_seconds, args.max_size)
        why = (f"chosen for a {kind or 'device that is not a GPU'}: the squares stop "
               + (f"before {stop[0][0]}, where the median program's run would take about "
                  f"{duration(stop[1])} (> --size-seconds {args.size_seconds:g})" if stop else "at the largest default")
               + "; --sizes and --odd-sizes to choose")
    problems = [p for p in dict.fromkeys(squares + odd) if not args.max_size or max(p) <= args.max_size]
    problems.sort(key=volume)  # stable: equal products keep their order
    if not problems:
        ap.error("no sizes left to run")
    plan = [(mnk, name) for mnk in problems for name in names]
    todo = [(name, mnk) for mnk, name in plan if not (mnk == calibration and name in first)]
    done_seconds = time.monotonic() - started
    estimate = remaining_seconds(todo)
    sizes_text = ", ".join(label_of(p) if len(set(p)) > 1 else str(p[0]) for p in problems)
    sys.stderr.write(
        f"bench: plan: {len(names)} programs x {len(problems)} sizes = {len(plan)} runs; sizes {sizes_text} ({why})\n"
        f"bench: estimated {duration(done_seconds + estimate)} in all, about {duration(estimate)} from now (from "
        f"the runs so far: each program's time scaled by the multiply-adds, the reference by the CPU BLAS's rate; "
        f"refined as sizes finish); "
        + (f"the time guard stops any run after {state['guard']:g} s" if state["guard"] else "no time guard")
        + "\n\n")

    # --- The sweep: one table per size, as soon as it is done ---------------------------------------
    rows = []
    tables = Tables(peaks, sys.stdout)
    state["total"], state["index"] = len(plan), 0
    with open(args.out, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS)
        writer.writeheader()
        f.flush()
        for mnk in problems:
            here = []
            for name, path, _ in programs:
                state["index"] += 1
                if mnk == calibration and name in first:
                    result = first[name]
                else:
                    todo.remove((name, mnk))
                    result = run_one(name, path, mnk, todo)
                writer.writerow(result["row"])
                f.flush()
                here.append(result["row"])
            rows += here
            tables.size(here)

    # The TF32 peer's FAIL is its accuracy (shown in the tables), not a failure of the sweep
    bad = [r for r in rows if r["status"] in ("FAIL", "ERROR") and not expected_failure(r["step"], r)]
    if not any(r["status"] in RAN for r in rows if r["step"] not in ("cpu_blas",) + CUDA_PEERS):
        sys.stderr.write("bench: error: no OpenCL program ran at any size (see the reasons in the tables)\n")
        peak_ok = False
    # The same mark as the site's tables (UNSTEADY in docs/sitegen/results.py): a median that the best
    # run beat by more than 10 % came from runs that varied; say so while the machine is still there
    unsteady = [r for r in rows if (r["status"] in ("PASS", "UNVERIFIED") or expected_failure(r["step"], r))
                and r["gflops"] and r["gflops_best"]
                and float(r["gflops_best"]) > 1.10 * float(r["gflops"])]
    if unsteady:
        sys.stdout.write(f"\nUnsteady (the best run more than 10 % faster than the median; the site marks them (~); "
                         f"--programs and --sizes re-measure them): "
                         + "; ".join(f"{r['step']} at {r['m']}x{r['n']}x{r['k']} "
                                     f"({float(r['gflops_best']) / float(r['gflops']) * 100 - 100:+.0f} %)"
                                     for r in unsteady) + "\n")
    sys.stdout.write(f"\nWrote {args.out} ({len(rows)} rows"
                     + (f", {len(bad)} FAIL/ERROR" if bad else "") + ")"
                     + (f" and {peak_path(args.out)}" if peaks else "")
                     + f" in {duration(time.monotonic() - started)}\n")
    sys.exit(1 if bad or not peak_ok else 0)


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `bench.py ... | head` ends quietly
    main()
