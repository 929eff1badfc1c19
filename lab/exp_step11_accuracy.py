#!/usr/bin/env python3
"""Where step 11's error comes from at short K (lab/tuning/*-step11-accuracy.csv; see lab11).

At 256 x 256 x 256 the recorded sweeps have step 11's normwise error a little above step 10's. Step 11
leaves two parts of the split out: lo is passed unrounded, so the tensor cores read lo cut to TF32,
and the product lo*lo is dropped. This runs, on the same data (the programs' default seed), step 10
and step 11 beside variants of step 11 that put each part back, made from the kernel by text
substitution (into a temporary directory):
  round_lo   lo rounded to TF32 before the tensor cores read it (splitTF32: lo = toTF32(x - hi));
  four       a fourth product, lo*lo, chained first (the smallest);
  both       the two together.
What is left once both are back is the tensor cores' own truncating sums inside each 8-deep step.
Each size runs as the host plans it (K split in slices where it chooses to), and 256 once more with
no split (-D SLICES=1) for both steps, where each sum over K runs inside one work-group.

    python3 lab/exp_step11_accuracy.py BUILD_DIR OUT.csv [--squares 256,512] [program options]

--squares: the square sizes (default 256,512,1024,2048,4096; 256 also runs without the split). The
program options go to both steps (step 11's TC to step 11 alone), e.g. NVIDIA's parameters on
PoCL: -D TC=0 -D COPY=0 --defaults-for nvidia-gpu (on an NVIDIA GPU they need TC=1: the portable
path's warp matrices do not fit its local memory beside NVIDIA's tiles).

OUT.csv: a column `variant`, then the programs' own CSV columns (`normwise_error` among them).
Verified runs only (the check must pass, or the variant is wrong, not less accurate); exit 1 if one
fails.
"""
import csv
import io
import os
import shutil
import subprocess
import sys
import tempfile

KERNEL = "kernel11_tensor_cores/tensor_cores.cl"
EDITS = {
    "round_lo": [("    *lo = x - *hi;\n", "    *lo = toTF32(x - *hi);\n")],
    "four": [("                    MMA(part, LO, i, HI, j);\n",
              "                    MMA(part, LO, i, LO, j);\n                    MMA(part, LO, i, HI, j);\n")],
}
EDITS["both"] = EDITS["round_lo"] + EDITS["four"]
SQUARES = "256,512,1024,2048,4096"


def variant_file(name, root, directory):
    text = open(os.path.join(root, KERNEL), encoding="utf-8").read()
    for old, new in EDITS[name]:
        if text.count(old) != 1:
            sys.exit(f"exp_step11_accuracy: '{old.strip()}' is not in {KERNEL} exactly once")
        text = text.replace(old, new)
    path = os.path.join(directory, f"accuracy_{name}.cl")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.split("\n\n")[-2])
    build, out, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
    squares = SQUARES
    if "--squares" in extra:
        i = extra.index("--squares")
        squares, extra = extra[i + 1], extra[:i] + extra[i + 2:]
    sizes = [["--size", s] for s in squares.split(",")]
    sizes += [["--size", "256", "-D", "SLICES=1"]] if "256" in squares.split(",") else []
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    k10 = os.path.join(build, "kernel10_async_copy", "kernel10_async_copy")
    k11 = os.path.join(build, "kernel11_tensor_cores", "kernel11_tensor_cores")
    # step 10 takes the program options that are not step 11's own parameters (TC)
    extra10 = [a for i, a in enumerate(extra) if not (a.startswith("TC=") or (a == "-D" and
                                                      i + 1 < len(extra) and extra[i + 1].startswith("TC=")))]
    runs = [("step 10", [k10] + extra10), ("step 11", [k11] + extra)]
    directory = tempfile.mkdtemp(prefix="exp_step11_accuracy.")
    try:
        return run(runs + [(f"step 11, {name}", [k11] + extra + ["--kernel-file", variant_file(name, root, directory)])
                           for name in EDITS], sizes, out)
    finally:
        shutil.rmtree(directory)


def run(runs, sizes, out):
    header, rows, failed = None, [], False
    for size in sizes:
        for name, command in runs:
            # 3 timed runs after 1 untimed unless the program options say otherwise (they come later)
            done = subprocess.run(command[:1] + ["--repeat", "3", "--warmup", "1"] + command[1:] + size
                                  + ["--no-exact", "--csv"],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            table = list(csv.reader(io.StringIO(done.stdout)))
            if done.returncode not in (0, 1) or len(table) != 2:
                sys.stderr.write(done.stderr)
                sys.exit(f"exp_step11_accuracy: {name} {' '.join(size)} exited {done.returncode}")
            header = header or ["variant"] + table[0]
            row = dict(zip(table[0], table[1]))
            failed |= row["status"] != "PASS"
            rows.append([name] + table[1])
            print(f"{' '.join(size):28} {name:22} {row['status']:5} error {row['normwise_error']:>12} "
                  f"({row['params']})", flush=True)
    with open(out, "w", newline="", encoding="utf-8") as f:
        csv.writer(f, lineterminator="\n").writerows([header] + rows)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
