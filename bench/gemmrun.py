"""Running the tutorial's programs from Python: shared by the tour (tour.py) and the benchmark
(bench.py, table.py). Standard library only.

- find_programs(): which steps and peers a build directory holds, in the tutorial's order (the
  steps from the list CMake writes, <build>/gemm_steps.txt, so a new step needs no change here);
- run_program(): runs one of them with --csv and returns its exit code, its CSV row (a dict with
  the harness's columns, COLUMNS) and its diagnostics; it can stop a run that takes too long;
- run_with_progress(): the same with a line on stderr, live on a terminal;
- program_env(): the environment they run in: PoCL's CPU threads pinned, one to a CPU, unless the
  caller says otherwise;
- the option helpers: the options every program understands, and how to adapt them to a peer
  that runs on the host (cpu_blas) or through CUDA (cublas, cublas_tf32);
- error_text(): a row's normwise error for the tables, and the peers whose results are not meant
  to be FP32-accurate (NOT_FP32), whose FAIL is their accuracy, not a failure of the benchmark.
"""
import csv
import glob
import io
import os
import re
import subprocess
import sys
import time

STEP_LIST = "gemm_steps.txt"  # written by gemm_add_step() (common/cmake/GemmStep.cmake)
PEERS = [("cpu_blas", "bench/peer_cpublas"), ("clblast", "bench/peer_clblast"), ("cublas", "bench/peer_cublas"),
         ("cublas_tf32", "bench/peer_cublas_tf32")]
# The peers that run through CUDA (the same GPU as the steps only where these run on an NVIDIA GPU)
CUDA_PEERS = ("cublas", "cublas_tf32")
# Peers whose results are not FP32-accurate by design: cuBLAS on the TF32 tensor cores (10-bit
# mantissas). The harness's check fails them (status FAIL); the tables show that as their accuracy,
# and the benchmark and the tour do not count it as a failure.
NOT_FP32 = ("cublas_tf32",)

# The harness's CSV columns (common/include/gemm_report.h), in order.
COLUMNS = ["step", "platform", "device", "driver", "m", "n", "k", "alpha", "beta", "params", "warmup", "repeat",
           "median_ms", "best_ms", "gflops", "gflops_best", "parts", "max_err_over_bound", "status", "date",
           "normwise_over_bound", "exact", "normwise_error", "precision", "data", "kernel_file"]

EXIT_MEANING = {1: "FAIL", 2: "refused", 3: "error"}

# Options of the shared parser (common/src/gemm_options.c) that take a value.
VALUE_OPTIONS = {"-m", "-n", "-k", "--size", "--alpha", "--beta", "--platform", "--device", "--repeat", "--warmup", "--data",
                 "--seed", "-D", "--kernel-file"}


def step_names(build_dir):
    """The steps of the build, in the tutorial's order: CMake's list, or (for a build directory
    configured before the list existed) the kernelNN_* directories in name order."""
    try:
        with open(os.path.join(build_dir, STEP_LIST)) as f:
            return [line.strip() for line in f if line.strip()]
    except OSError:
        return sorted(os.path.basename(d) for d in glob.glob(os.path.join(build_dir, "kernel[0-9][0-9]_*")))


def find_programs(build_dir, peers=None):
    """The steps present, in order, then the peers that were built (all, or those named in peers),
    as (name, path, is_peer)."""
    found = []
    for step in step_names(build_dir):
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


def device_type(text):
    """"CPU", "GPU" or "accelerator" from a program's human-readable report (its "device" line), else None."""
    m = re.search(r"^device +.* \((CPU|GPU|accelerator)\) on ", text or "", re.M)
    return m.group(1) if m else None


def duration(seconds):
    """12.3 -> "12 s", 161 -> "2 min 41 s", 3725 -> "1 h 2 min"."""
    s = int(round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60} s"
    return f"{s // 3600} h {s % 3600 // 60} min"


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
    if name in CUDA_PEERS:
        rest = drop_options(args, {"--platform", "--device"})
        return rest + (["--device", str(cuda_device)] if cuda_device is not None else [])
    return list(args)


def error_text(row):
    """A row's normwise error ||got-ref||/||ref|| in scientific notation ("1.2e-07"), "-" where it
    has none (not verified, did not run, or a file written before the column existed)."""
    try:
        return f"{float(row.get('normwise_error') or ''):.1e}"
    except ValueError:
        return "-"


def expected_failure(name, row):
    """True for the FAIL of a peer that is not FP32-accurate by design (NOT_FP32): its accuracy,
    not a failure of the benchmark."""
    return name in NOT_FP32 and bool(row) and row.get("status") == "FAIL"


def status_text(name, row):
    """The status a table shows for a row: "FAIL (not FP32-accurate: TF32)" for a NOT_FP32 peer's FAIL."""
    return "FAIL (not FP32-accurate: TF32)" if expected_failure(name, row) else row["status"]


def program_env(environ=None, allowed_cpus=None, cpu_count=None):
    """The environment the programs run in: the caller's, plus POCL_AFFINITY=1 where the caller set
    neither it nor POCL_MAX_PTHREAD_COUNT (threads beyond the CPUs) and this process may run on
    every CPU, 0 to n-1. It binds each thread of PoCL's CPU driver to its own CPU (thread i to CPU
    i); other OpenCL platforms ignore it. Unbound, PoCL's threads shared one CPU for whole runs on
    the 2-core development machine: the same program ran at half its rate in about half the runs,
    median and best alike (docs/results/README.md, the conditions of pocl-cpu, names the
    measurement). Where this process is held to some CPUs only (taskset, a container's cpuset),
    binding thread i to CPU i could name a CPU it may not use, so the environment is left as it is.
    The arguments replace os.environ and the process's CPUs (tests)."""
    env = dict(os.environ if environ is None else environ)
    if allowed_cpus is None:
        allowed_cpus = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else set()
    if cpu_count is None:
        cpu_count = os.cpu_count() or 0
    caller_chose = "POCL_AFFINITY" in env or "POCL_MAX_PTHREAD_COUNT" in env
    if not caller_chose and cpu_count > 0 and set(allowed_cpus) == set(range(cpu_count)):
        env["POCL_AFFINITY"] = "1"
    return env


def run_program(path, args, timeout=None, tick=None):
    """Runs path --csv args, in program_env(). Returns a dict: rc, row (the last CSV row as a dict,
    or None), stdout, stderr, seconds (wall clock), timed_out. With timeout (seconds), a run still
    going then is killed (timed_out True, rc None). tick(seconds so far) is called about every
    half second while it runs."""
    cmd = [path, "--csv"] + list(args)
    t0 = time.monotonic()
    timed_out = False
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=program_env())
    except OSError as e:
        proc, rc, out, err = None, 127, "", f"{os.path.basename(path)}: error: cannot run {path}: {e}\n"
    while proc:
        elapsed = time.monotonic() - t0
        wait = 0.5 if tick else None
        if timeout:
            wait = max(0.0, min(wait or timeout, timeout - elapsed))
        try:
            out, err = proc.communicate(timeout=wait)  # retrying after a timeout loses no output
            rc = proc.returncode
            break
        except subprocess.TimeoutExpired:
            if timeout and time.monotonic() - t0 >= timeout:
                proc.kill()
                out, err = proc.communicate()
                rc, timed_out = None, True
                break
            if tick:
                tick(time.monotonic() - t0)
    seconds = time.monotonic() - t0
    rows = list(csv.DictReader(io.StringIO(out))) if not timed_out else []
    return {"rc": rc, "row": rows[-1] if rows else None, "stdout": out, "stderr": err, "seconds": seconds,
            "timed_out": timed_out}


def run_with_progress(label, path, args, timeout=None, same_error=None):
    """run_program(), with a progress line on stderr: "label ... 123.45 GFLOPS, PASS (1.2 s)",
    or what went wrong (the whole stderr for a runtime error, e.g. a build log; "the same error
    as above" for an error line equal to same_error). On a terminal the line counts the seconds
    while a run is longer than a second. timeout: see run_program()."""
    live = sys.stderr.isatty()
    sys.stderr.write(f"{label} ... ")
    sys.stderr.flush()

    def tick(seconds):
        if live and seconds >= 1.0:
            sys.stderr.write(f"\r{label} ... {seconds:.1f} s ")
            sys.stderr.flush()

    r = run_program(path, args, timeout, tick)
    if live and r["seconds"] >= 1.0:
        sys.stderr.write(f"\r{label} ... ")
    row = r["row"]
    if r["timed_out"]:
        sys.stderr.write(f"stopped after {r['seconds']:.0f} s (time guard)\n")
    elif row and (r["rc"] == 0 or (r["rc"] == 1 and expected_failure(row["step"], row))):
        sys.stderr.write(f"{float(row['gflops']):.2f} GFLOPS, {status_text(row['step'], row)}, error "
                         f"{error_text(row)} ({r['seconds']:.1f} s)\n")
    else:
        what = EXIT_MEANING.get(r["rc"], f"exit {r['rc']}")
        error = last_error_line(r["stderr"])
        if same_error is not None and error == same_error:
            sys.stderr.write(f"{what} ({r['seconds']:.1f} s): the same error as above\n")
        else:
            sys.stderr.write(f"{what} ({r['seconds']:.1f} s): {error}\n")
            if r["rc"] == 3:  # show the whole story of a runtime error (e.g. a build log)
                sys.stderr.write(r["stderr"])
    return r
