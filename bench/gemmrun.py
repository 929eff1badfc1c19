"""Running the tutorial's programs from Python: shared by the tour (tour.py) and the benchmark
(bench.py, table.py). Standard library only.

- find_programs(): which steps and peers a build directory holds, in the tutorial's order;
- run_program(): runs one of them with --csv and returns its exit code, its CSV row (a dict with
  the harness's columns, COLUMNS) and its diagnostics;
- the option helpers: the options every program understands, and how to adapt them to a peer
  that runs on the host (cpu_blas) or through CUDA (cublas).
"""
import csv
import io
import os
import subprocess
import sys
import time

STEPS = ["kernel01_naive", "kernel02_tiled", "kernel03_vectorized", "kernel04_transpose",
         "kernel05_register_blocking", "kernel06_padding"]
PEERS = [("cpu_blas", "bench/peer_cpublas"), ("clblast", "bench/peer_clblast"), ("cublas", "bench/peer_cublas")]

# The harness's CSV columns (common/include/gemm_report.h), in order.
COLUMNS = ["step", "platform", "device", "driver", "m", "n", "k", "alpha", "beta", "params", "warmup", "repeat",
           "median_ms", "best_ms", "gflops", "gflops_best", "parts", "max_err_over_bound", "status", "date",
           "normwise_over_bound"]

EXIT_MEANING = {1: "FAIL", 2: "refused", 3: "error"}

# Options of the shared parser (common/src/gemm_options.c) that take a value.
VALUE_OPTIONS = {"-m", "-n", "-k", "--size", "--alpha", "--beta", "--platform", "--device", "--repeat", "--warmup",
                 "--seed", "-D", "--kernel-file"}


def find_programs(build_dir, peers=None):
    """The steps present, in order, then the peers that were built (all, or those named in peers),
    as (name, path, is_peer)."""
    found = []
    for step in STEPS:
        path = os.path.join(build_dir, step, step)
        if os.access(path, os.X_OK):
            found.append((step, path, False))
    for name, rel in PEERS:
        path = os.path.join(build_dir, rel)
        if (peers is None or name in peers) and os.access(path, os.X_OK):
            found.append((name, path, True))
    return found


def cuda_peer_applies(platform):
    """cuBLAS compares with the steps only where they ran on an NVIDIA GPU (the same device)."""
    return "NVIDIA" in (platform or "")


def last_error_line(text):
    """The message of the last "name: error: message" line, else the last line."""
    lines = [l for l in text.splitlines() if ": error: " in l]
    if lines:
        return lines[-1].split(": error: ", 1)[1]
    rest = text.strip().splitlines()
    return rest[-1] if rest else ""


def split_options(args):
    """Groups a command line into options: [(name, [its words])], e.g. "--device 1" ->
    ("--device", ["--device", "1"]); "--device=1", "-m64" and "-DTS=16" are one word each."""
    out, i = [], 0
    while i < len(args):
        a = args[i]
        name = a.split("=", 1)[0] if a.startswith("--") else (a[:2] if a.startswith("-") and len(a) > 1 else a)
        if name in VALUE_OPTIONS and a == name and i + 1 < len(args):
            out.append((name, [a, args[i + 1]]))
            i += 2
        else:
            out.append((name, [a]))
            i += 1
    return out


def drop_options(args, names):
    """args without the options in names (with their values)."""
    return [w for name, words in split_options(args) if name not in names for w in words]


def keep_options(args, names):
    """Only the options of args that are in names (with their values)."""
    return [w for name, words in split_options(args) if name in names for w in words]


def option_names(args):
    """The option names given in args."""
    return [name for name, _ in split_options(args)]


def program_args(name, args, cuda_device=None):
    """The options for one program: the CPU peer runs on the host, so OpenCL's --platform and
    --device mean nothing to it; cuBLAS numbers devices its own way (CUDA), so it gets
    cuda_device instead, if one was given."""
    if name == "cpu_blas":
        return drop_options(args, {"--platform", "--device"})
    if name == "cublas":
        rest = drop_options(args, {"--platform", "--device"})
        return rest + (["--device", str(cuda_device)] if cuda_device is not None else [])
    return list(args)


def run_program(path, args):
    """Runs path --csv args. Returns a dict: rc, row (the last CSV row as a dict, or None),
    stdout, stderr, seconds (wall clock)."""
    cmd = [path, "--csv"] + list(args)
    t0 = time.monotonic()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True)
        rc, out, err = proc.returncode, proc.stdout, proc.stderr
    except OSError as e:
        rc, out, err = 127, "", f"{os.path.basename(path)}: error: cannot run {path}: {e}\n"
    seconds = time.monotonic() - t0
    rows = list(csv.DictReader(io.StringIO(out)))
    return {"rc": rc, "row": rows[-1] if rows else None, "stdout": out, "stderr": err, "seconds": seconds}


def run_with_progress(label, path, args):
    """run_program(), with a progress line on stderr: "label ... 123.45 GFLOPS, PASS (1.2 s)",
    or what went wrong (the whole stderr for a runtime error, e.g. a build log)."""
    sys.stderr.write(f"{label} ... ")
    sys.stderr.flush()
    r = run_program(path, args)
    row = r["row"]
    if r["rc"] == 0 and row:
        sys.stderr.write(f"{float(row['gflops']):.2f} GFLOPS, {row['status']} ({r['seconds']:.1f} s)\n")
    else:
        what = EXIT_MEANING.get(r["rc"], f"exit {r['rc']}")
        sys.stderr.write(f"{what} ({r['seconds']:.1f} s): {last_error_line(r['stderr'])}\n")
        if r["rc"] == 3:  # show the whole story of a runtime error (e.g. a build log)
            sys.stderr.write(r["stderr"])
    return r
