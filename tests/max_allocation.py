#!/usr/bin/env python3
"""max_allocation.py STEP [DEVICE OPTIONS...]

The largest-allocation refusal on the test device, whatever it is: asks STEP (kernel02_tiled) for
a matrix A just above the largest buffer the device reports (CL_DEVICE_MAX_MEM_ALLOC_SIZE, as
--list-devices prints it) and passes if the step refuses it with exit 2 and its one line
(tests/expect.sh), names the same limit, and refused before allocating anything: the step's
peak memory stays far below the size of A, which it fills before creating any buffer.
Exits 77 (CTest: skipped) where the largest buffer holds more than the 2^31-1 floats a matrix
may have (the kernels' int indices; bad.int_index_range tests that refusal), as on big GPUs.
"""
import csv
import io
import math
import os
import re
import resource
import subprocess
import sys

GIB = 1 << 30
INT_MAX = (1 << 31) - 1
K = 16384  # a multiple of every tile; M grows until A = M x K exceeds the limit
SKIP = 77


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60)


def largest_buffer_gib(step, extra):
    """The largest buffer of the device the tests use: the CSV of a tiny run names the device,
    --list-devices gives its limit (in GiB, one decimal)."""
    probe = run([step] + extra + ["--size", "16", "-D", "TS=16", "--repeat", "1", "--warmup", "0", "--csv"])
    rows = list(csv.DictReader(io.StringIO(probe.stdout)))
    if probe.returncode != 0 or len(rows) != 1:
        sys.exit(f"FAILED: a 16x16x16 run to name the test device exited {probe.returncode}:\n"
                 f"{probe.stdout}{probe.stderr}")
    platform, device = rows[0]["platform"], rows[0]["device"]
    listing = run([step, "--list-devices"]).stdout
    current, found = None, False
    for line in listing.splitlines():
        m = re.match(r"platform \d+: (.*)$", line)
        if m:
            current, found = m.group(1), False
        m = re.match(r"\s+device \d+: (.*) \[", line)
        if m:
            found = current == platform and m.group(1) == device
        m = re.search(r"largest buffer ([0-9.]+) GiB", line)
        if m and found:
            return device, float(m.group(1))
    sys.exit(f"FAILED: --list-devices does not show the largest buffer of '{device}' on '{platform}':\n{listing}")


def main():
    step, extra = sys.argv[1], sys.argv[2:]
    device, limit = largest_buffer_gib(step, extra)
    # 0.1 GiB above the printed figure: above the true limit, which the rounding puts within 0.05 GiB
    elems = math.ceil((limit + 0.1) * GIB / 4)
    m = math.ceil(elems / K / 16) * 16
    if m * K > INT_MAX:
        print(f"SKIPPED: the largest buffer of {device} ({limit} GiB) holds more than the 2^31-1 floats a matrix "
              "may have here, so no matrix can exceed it (bad.int_index_range tests the refusal of larger ones)")
        return SKIP
    a_gib = m * K * 4 / GIB
    regex = (rf"A needs {a_gib:.2f} GiB but this device's largest buffer is ([0-9.]+) GiB "
             r"\(CL_DEVICE_MAX_MEM_ALLOC_SIZE\)")
    expect = os.path.join(os.path.dirname(os.path.abspath(__file__)), "expect.sh")
    cmd = [expect, "2", regex, step] + extra + ["-m", str(m), "-n", "16", "-k", str(K), "-D", "TS=16", "--no-verify",
                                                "--repeat", "1", "--warmup", "0"]
    proc = run(cmd)
    print(proc.stdout + proc.stderr)
    ok = proc.returncode == 0
    said = re.search(regex, proc.stdout)
    if said and abs(float(said.group(1)) - limit) > 0.051:
        print(f"FAILED: the refusal names a largest buffer of {said.group(1)} GiB, --list-devices {limit} GiB")
        ok = False
    peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    if peak_mib > a_gib * 1024 / 2:
        print(f"FAILED: the step used {peak_mib:.0f} MiB of memory before refusing a {a_gib:.2f} GiB matrix: "
              "it allocated before checking the device's limit")
        ok = False
    print(f"{device}: largest buffer {limit} GiB; A = {m} x {K} ({a_gib:.2f} GiB) "
          f"{'refused before any allocation' if ok else 'NOT refused as it must be'}; peak memory {peak_mib:.0f} MiB")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
