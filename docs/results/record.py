#!/usr/bin/env python3
"""Records one results file for the documentation: runs every step and peer that is built (the
tour's programs, in the tour's order) on one device, at one or several sizes, and writes the
harness's CSV rows, unchanged, to one file. docs/render.py turns such files into the site's
tables and plots; docs/results/README.md lists the command that produced each committed file.

  docs/results/record.py --build-dir build --out docs/results/pocl-cpu.csv --sizes 256,512,1024
  docs/results/record.py --build-dir build --out docs/results/nvidia-h100.csv --sizes 4096 -- --device 0

Options after `--` go to every program (e.g. --device, --platform, --repeat). A size that a step
refuses (exit 2, e.g. not a multiple of its tiles) is left out of the file with a note; a
verification failure or runtime error stops the recording and writes nothing, because a results
file holds only verified runs.
"""
import argparse
import csv
import io
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
import tour  # noqa: E402  (the tour's list of programs and its way of running one)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", required=True, help="the CMake build directory")
    ap.add_argument("--out", required=True, help="the CSV file to write")
    ap.add_argument("--sizes", default="", help="comma-separated square sizes (default: each program's default)")
    ap.add_argument("args", nargs="*", help="options for every program (after --)")
    a = ap.parse_args()
    try:
        sizes = [int(s) for s in a.sizes.split(",") if s] or [None]
    except ValueError:
        ap.error(f"--sizes expects comma-separated integers, got '{a.sizes}'")
    programs = tour.find_programs(a.build_dir)
    if not programs:
        sys.exit(f"record.py: error: nothing built in {a.build_dir}")

    fields, rows = None, []
    total = len(programs) * len(sizes)
    index = 0
    for size in sizes:
        extra = (["--size", str(size)] if size else []) + a.args
        for name, path, peer in programs:
            index += 1
            r = tour.run(name, path, extra, peer, index, total)
            if r["rc"] == 2:
                sys.stderr.write(f"record.py: note: {name} refused size {size}; left out\n")
                continue
            if r["rc"] != 0 or not r["row"]:
                sys.stderr.write(r["stderr"])
                sys.exit(f"record.py: error: {name} failed (exit {r['rc']}); nothing written")
            if fields is None:
                fields = list(r["row"].keys())
            rows.append(r["row"])
    if not rows:
        sys.exit("record.py: error: no program produced a result; nothing written")
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    with open(a.out, "w", encoding="utf-8") as f:
        f.write(buf.getvalue())
    sys.stderr.write(f"record.py: wrote {len(rows)} rows to {a.out}\n")


if __name__ == "__main__":
    main()
