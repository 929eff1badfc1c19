#!/usr/bin/env python3
"""Writes variants of a step's kernel file for tuning experiments (lab/tune_nvidia.sh), so that
what was tried on the GPU is reproducible from the repository. Each variant changes one thing in
the sgemm kernel's inner loop over k and keeps everything else, including the kernel's arguments
and parameters, so the step's own host program runs it with --kernel-file.

    lab/variants.py KERNEL.cl OUT_DIR      writes OUT_DIR/<variant>_<name of KERNEL.cl>

Variants:
  unroll    the loop over k inside a tile fully unrolled (#pragma unroll): TSK is a compile-time
            constant, so the compiler can schedule the local-memory reads of k+1 during the
            multiply-adds of k
  prefetch  unrolled, and the fragments of A and B for k+1 read from local memory into a second set
            of registers before the multiply-adds of k ("double buffering in registers")
"""
import os
import re
import sys

LOOP = re.compile(
    r"(?P<indent> *)for \(int k = 0; k < TSK; k\+\+\) \{\n"
    r" *float Areg\[WPTM\];\n"
    r" *#pragma unroll\n"
    r" *for \(int i = 0; i < WPTM/WIDTH; i\+\+\)\n"
    r" *vstoreX\((?P<a>Asub\[buf\]\[k\]\[[^\]]+\]), i, Areg\);\n"
    r" *floatX Breg\[WPTN/WIDTH\];\n"
    r" *#pragma unroll\n"
    r" *for \(int wn = 0; wn < WPTN/WIDTH; wn\+\+\)\n"
    r" *Breg\[wn\] = (?P<b>Bsub\[buf\]\[k\]\[[^\]]+\]);\n")


def prefetch(match):
    ind = match["indent"]
    a0, b0 = match["a"].replace("[k]", "[0]"), match["b"].replace("[k]", "[0]")
    a1, b1 = match["a"].replace("[k]", "[k + 1]"), match["b"].replace("[k]", "[k + 1]")
    return (f"{ind}floatX Afrag[2][WPTM/WIDTH], Bfrag[2][WPTN/WIDTH];\n"
            f"{ind}#pragma unroll\n{ind}for (int i = 0; i < WPTM/WIDTH; i++)\n{ind}    Afrag[0][i] = {a0};\n"
            f"{ind}#pragma unroll\n{ind}for (int wn = 0; wn < WPTN/WIDTH; wn++)\n{ind}    Bfrag[0][wn] = {b0};\n"
            f"{ind}#pragma unroll\n{ind}for (int k = 0; k < TSK; k++) {{\n"
            f"{ind}    if (k + 1 < TSK) {{\n"
            f"{ind}        #pragma unroll\n{ind}        for (int i = 0; i < WPTM/WIDTH; i++)\n"
            f"{ind}            Afrag[(k + 1) % 2][i] = {a1};\n"
            f"{ind}        #pragma unroll\n{ind}        for (int wn = 0; wn < WPTN/WIDTH; wn++)\n"
            f"{ind}            Bfrag[(k + 1) % 2][wn] = {b1};\n"
            f"{ind}    }}\n"
            f"{ind}    float Areg[WPTM];\n{ind}    #pragma unroll\n{ind}    for (int i = 0; i < WPTM/WIDTH; i++)\n"
            f"{ind}        vstoreX(Afrag[k % 2][i], i, Areg);\n"
            f"{ind}    floatX Breg[WPTN/WIDTH];\n{ind}    #pragma unroll\n{ind}    for (int wn = 0; wn < WPTN/WIDTH; wn++)\n"
            f"{ind}        Breg[wn] = Bfrag[k % 2][wn];\n")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src, out_dir = sys.argv[1], sys.argv[2]
    text = open(src).read()
    if not LOOP.search(text):
        sys.exit(f"variants: {src} has no inner loop over k of the expected shape")
    os.makedirs(out_dir, exist_ok=True)
    variants = {
        "unroll": LOOP.sub(lambda m: m["indent"] + "#pragma unroll\n" + m.group(0), text, count=1),
        "prefetch": LOOP.sub(prefetch, text, count=1),
    }
    for name, body in variants.items():
        path = os.path.join(out_dir, f"{name}_{os.path.basename(src)}")
        with open(path, "w") as f:
            f.write(body)
        print(path)


if __name__ == "__main__":
    main()
