#!/usr/bin/env python3
"""Parameter sweep for one step: run it with every combination of -D values from a grid, on one
size, and rank the combinations by measured GFLOPS. Combinations the step refuses (a constraint
the host checks: divisibility, work-group size, local memory...) cost nothing and are recorded
as REFUSED. The best combination is then re-run with verification, so a tuned default is never
one that computes the wrong result.

    lab/tune.py --build-dir build --step kernel05_register_blocking --size 4096 \\
        --grid "TSM=64,128 TSN=64,128 TSK=8,16 WPTM=4,8 WPTN=4,8 WIDTH=4" --out tuning.csv -- --repeat 5

Everything after "--" goes to every run (e.g. --device 1). The CSV has the harness's columns.

    lab/tune.py --summary lab/tuning/nvidia-h200-run4.csv

prints, from a CSV that earlier sweeps wrote, each step's combinations ranked by GFLOPS at each
size, with the time of every kernel on its own and the refusals counted.
"""
import argparse
import csv
import io
import itertools
import os
import subprocess
import sys
import time


def parse_grid(text):
    """'A=1,2 B=3' -> [('A', ['1','2']), ('B', ['3'])]"""
    axes = []
    for item in text.split():
        name, _, values = item.partition("=")
        if not name or not values:
            sys.exit(f"tune: bad grid item '{item}' (want NAME=V1,V2,...)")
        axes.append((name, values.split(",")))
    return axes


def run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True)
    rows = list(csv.DictReader(io.StringIO(proc.stdout)))
    return proc.returncode, (rows[-1] if rows else None), proc.stderr


def refusal(stderr):
    lines = [l.split(": error: ", 1)[1] for l in stderr.splitlines() if ": error: " in l]
    return lines[-1] if lines else stderr.strip()[-200:]


def sweep(exe, args, size, combos, extra):
    """Runs every combination at one size; returns [(gflops or None, label, csv row)]."""
    dims = size.split("x") if "x" in size else [size] * 3
    size_args = ["-m", dims[0], "-n", dims[1], "-k", dims[2]]
    results = []
    sys.stderr.write(f"tune: {args.step}, {len(combos)} combinations at {size}\n")
    t0 = time.monotonic()
    for combo in combos:
        label = " ".join(combo)
        rc, row, err = run([exe, "--csv", "--no-verify"] + size_args + [f"-D{d}" for d in combo] + extra)
        if rc == 0 and row:
            results.append((float(row["gflops"]), label, row))
            sys.stderr.write(f"  {label:<60} {float(row['gflops']):10.1f} GFLOPS  ({row['parts']})\n")
        else:
            status = "REFUSED" if rc == 2 else f"ERROR(exit {rc})"
            sys.stderr.write(f"  {label:<60} {status}: {refusal(err)}\n")
            results.append((None, label, {"step": args.step, "params": label, "status": status,
                                          "parts": refusal(err)}))
    sys.stderr.write(f"tune: {time.monotonic() - t0:.0f} s\n")

    ranked = sorted((r for r in results if r[0] is not None), key=lambda r: -r[0])
    print(f"\n{args.step} at {size}: {len(ranked)} of {len(combos)} combinations ran")
    for g, label, row in ranked[:10]:
        print(f"  {g:10.1f} GFLOPS  median {float(row['median_ms']):9.4f} ms  {label}")
    if ranked and not args.no_verify_best:
        rc, row, err = run([exe, "--csv"] + size_args + [f"-D{d}" for d in ranked[0][1].split()] + extra)
        status = row["status"] if row else f"exit {rc}"
        print(f"  best re-run with verification: {status}"
              + (f", {float(row['gflops']):.1f} GFLOPS, worst error {row['max_err_over_bound']} of the bound"
                 if row else f": {refusal(err)}"))
        if row:
            results.append((float(row["gflops"]), ranked[0][1], dict(row, status=row["status"] + " (verified best)")))
    if ranked and args.best_out:
        with open(args.best_out, "w") as f:
            f.write(" ".join(f"-D{d}" for d in ranked[0][1].split()) + "\n")
    return results


def summary(path, top):
    """Ranks the combinations of every (step, size) in a tuning CSV."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    groups, refused = {}, {}
    for row in rows:
        if row["status"] == "REFUSED":  # refusals carry no size: count them per step
            refused[row["step"]] = refused.get(row["step"], 0) + 1
            continue
        groups.setdefault((row["step"], row["m"], row["n"], row["k"]), []).append(row)
    for (step, m, n, k), group in groups.items():
        ran = [r for r in group if r["gflops"] and "verified best" not in r["status"]]
        ran.sort(key=lambda r: -float(r["gflops"]))
        print(f"\n{step} at {m}x{n}x{k} on {group[0]['device']}: {len(ran)} ran "
              f"({refused.get(step, 0)} combinations of this step refused in the file)")
        for r in ran[:top]:
            print(f"  {float(r['gflops']):10.1f} GFLOPS  {r['params']:<70} {r['parts']}")
        for r in group:
            if "verified best" in r["status"]:
                print(f"  verified: {r['status']} at {float(r['gflops']):.1f} GFLOPS, worst error "
                      f"{r['max_err_over_bound']} of the bound ({r['params']})")


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "--summary":
        for path in sys.argv[2:]:
            summary(path, 10)
        return
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--step", required=True)
    ap.add_argument("--grid", required=True, action="append",
                    help='e.g. "TSM=64,128 TSN=64,128 TSK=8,16"; several --grid options add up')
    ap.add_argument("--size", default="4096", help="M=N=K, or MxNxK; several separated by commas")
    ap.add_argument("--out", help="append the results to this CSV")
    ap.add_argument("--no-verify-best", action="store_true", help="do not re-run the best with verification")
    ap.add_argument("--best-out", help="write the best combination as -D options to this file")
    args, extra = ap.parse_known_args()
    extra = [a for a in extra if a != "--"]
    exe = os.path.join(args.build_dir, args.step, args.step)
    if not os.access(exe, os.X_OK):
        sys.exit(f"tune: {exe} not found")
    combos = []
    for grid in args.grid:
        axes = parse_grid(grid)
        combos += [[f"{n}={v}" for (n, _), v in zip(axes, values)]
                   for values in itertools.product(*[v for _, v in axes])]
    results = []
    for size in args.size.split(","):
        results += sweep(exe, args, size, combos, extra)
    if args.out:
        from_harness = ["step", "platform", "device", "driver", "m", "n", "k", "alpha", "beta", "params", "warmup",
                        "repeat", "median_ms", "best_ms", "gflops", "gflops_best", "parts", "max_err_over_bound",
                        "status", "date"]
        new = not os.path.exists(args.out)
        with open(args.out, "a", newline="") as f:
            w = csv.DictWriter(f, fieldnames=from_harness, extrasaction="ignore")
            if new:
                w.writeheader()
            for _, _, row in results:
                w.writerow(row)


if __name__ == "__main__":
    main()
