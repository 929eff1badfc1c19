#!/usr/bin/env python3
"""Tests of the benchmark tools (run by CTest, label `bench`), on whatever device the build's
tests use (PoCL on a machine without a GPU). Standard library only.

    test_bench.py peak BUILD_DIR [program options]    peak's CSV is sane
    test_bench.py sweep BUILD_DIR [program options]   bench.py end to end (plan, estimate, ETA), and table.py
    test_bench.py guard BUILD_DIR                     the time guard stops a run (TIMEOUT), skips larger problems
    test_bench.py plan BUILD_DIR                      the sizes bench.py chooses for a CPU and for a GPU
    test_bench.py pipe BUILD_DIR                      table.py | head ends without a traceback
    test_bench.py tour BUILD_DIR [program options]    the tour's header and exit code, with a wrong device too
    test_bench.py accuracy BUILD_DIR                  the error column, the TF32 peer's FAIL as its accuracy,
                                                      old files (no normwise_error, no TF32 peak) still read
    test_bench.py env BUILD_DIR                       the programs' environment: PoCL's threads pinned
                                                      where every CPU may be used, the caller's choice kept

guard, plan and accuracy run bench.py on stand-in programs (FAKE_PROGRAM) that answer at once like a step
on a device of a given kind and speed, so that what they check does not depend on the device.
"""
import csv
import io
import json
import math
import os
import re
import stat
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from gemmrun import COLUMNS, PEERS, find_programs, program_env, run_program  # noqa: E402
from table import peak_path  # noqa: E402

PEAK_COLUMNS = ["platform", "device", "driver", "fma_gflops", "fma_gflops_best", "fma_vector", "copy_gbps",
                "copy_gbps_best", "copy_mib", "warmup", "repeat", "date", "fma_chains", "tf32_gflops",
                "tf32_gflops_best"]
QUICK = ["--repeat", "1", "--warmup", "0"]
QUICK_PEAK = ["--fma-ms", "2", "--copy-mib", "4"]
ANY_SIZE = ("kernel01_naive", "kernel06_padding", "cpu_blas")  # the programs that take every size

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print(f"FAILED: {what}")


def run(cmd, timeout=120):
    print("$ " + " ".join(cmd))
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        check(False, f"{os.path.basename(cmd[1] if cmd[0] == sys.executable else cmd[0])} finished within {timeout} s")
        proc = subprocess.CompletedProcess(cmd, -1, "", "")
    sys.stdout.write(proc.stderr)
    return proc


def number(text):
    """The finite number in text, else None."""
    try:
        v = float(text)
    except ValueError:
        return None
    return v if math.isfinite(v) else None


def positive(text):
    v = number(text)
    return v is not None and v > 0


def check_peak_rows(rows, copy_mib, repeat, warmup):
    check(len(rows) == 1, f"peak CSV has one row (got {len(rows)})")
    for row in rows:
        check(list(row.keys()) == PEAK_COLUMNS, f"peak CSV columns are {PEAK_COLUMNS} (got {list(row.keys())})")
        for col in ("fma_gflops", "fma_gflops_best", "copy_gbps", "copy_gbps_best"):
            check(positive(row.get(col, "")), f"peak {col} is a positive number (got {row.get(col)!r})")
        # The best run is never slower than the median; a CPU gives well under a PFLOPS or TB/s.
        if all(positive(row.get(c, "")) for c in ("fma_gflops", "fma_gflops_best", "copy_gbps", "copy_gbps_best")):
            check(float(row["fma_gflops_best"]) >= float(row["fma_gflops"]), "peak: best FMA run >= median")
            check(float(row["copy_gbps_best"]) >= float(row["copy_gbps"]), "peak: best copy run >= median")
            check(float(row["fma_gflops"]) < 1e6 and float(row["copy_gbps"]) < 1e5, "peak: figures in a sane range")
        check(row.get("fma_vector") in ("float4", "float8", "float16"),
              f"peak fma_vector (got {row.get('fma_vector')!r})")
        check(row.get("fma_chains") in ("8", "16"), f"peak fma_chains (got {row.get('fma_chains')!r})")
        check(row.get("copy_mib") == f"{copy_mib:.3f}", f"peak copy_mib is {copy_mib} (got {row.get('copy_mib')!r})")
        check(row.get("repeat") == str(repeat) and row.get("warmup") == str(warmup), "peak repeat/warmup echoed")
        check(row.get("device", "") != "", "peak names the device")
        # The TF32 tensor cores: measured only on an NVIDIA GPU of compute capability 8.0 or later
        if "NVIDIA" in row.get("platform", ""):
            check(row.get("tf32_gflops") == "" or positive(row.get("tf32_gflops", "")),
                  f"peak tf32_gflops is empty or positive (got {row.get('tf32_gflops')!r})")
        else:
            check(row.get("tf32_gflops") == "" and row.get("tf32_gflops_best") == "",
                  f"peak measures no TF32 tensor cores off NVIDIA (got {row.get('tf32_gflops')!r})")


def test_peak(build, extra):
    proc = run([os.path.join(build, "bench", "peak"), "--csv"] + QUICK + QUICK_PEAK + extra)
    check(proc.returncode == 0, f"peak exits 0 (got {proc.returncode})")
    check_peak_rows(list(csv.DictReader(io.StringIO(proc.stdout))), 4, 1, 0)
    check("peak: " in proc.stderr and "GB/s" in proc.stderr, "peak prints its human-readable report on stderr")
    # The TF32 tensor cores: measured on an NVIDIA GPU of compute capability 8.0 or later (a kernel that
    # did not build, failed or summed wrong is "not measured" and fails this test), else skipped with the reason
    rows = list(csv.DictReader(io.StringIO(proc.stdout)))
    old_nvidia = re.search(r"TF32 tensor cores skipped: not an NVIDIA GPU of compute capability 8\.0 or later "
                           r"\(compute capability [0-7]\.[0-9]\)", proc.stderr)
    if rows and "NVIDIA" in rows[0]["platform"] and not old_nvidia:
        check(positive(rows[0].get("tf32_gflops", "")) and "TF32 tensor cores skipped" not in proc.stderr,
              f"peak measures the TF32 tensor cores (got {rows[0].get('tf32_gflops')!r}; "
              f"{[l for l in proc.stderr.splitlines() if 'TF32' in l]})")
    elif rows:
        check("TF32 tensor cores skipped: " in proc.stderr, "peak says why it skips the TF32 tensor cores")


def sweep(build, out, args, extra, quick=QUICK):
    return run([sys.executable, os.path.join(HERE, "bench.py"), "--build-dir", build, "--out", out] + args + quick +
               extra)


def read_rows(path):
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        check(reader.fieldnames == COLUMNS, f"sweep CSV columns are the harness's (got {reader.fieldnames})")
        return list(reader)


def test_sweep(build, extra):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "sub", "sweep.csv")
        proc = sweep(build, out, ["--sizes", "32", "--odd-sizes", "31,24x40x16", "--exclude", "clblast,cublas,cublas_tf32",
                                  "--verify-max-size", "32", "--peak-args", " ".join(QUICK_PEAK)], extra)
        check(proc.returncode == 0, f"bench.py exits 0 (got {proc.returncode})")
        # The plan and its estimate come before the sweep proper, an ETA with the runs, the time at the end
        plan = proc.stderr.find("bench: plan: ")
        check(plan >= 0 and "bench: estimated " in proc.stderr[plan:], "bench.py prints its plan and an estimate")
        check(plan < proc.stderr.find("] 31x31x31 kernel01_naive"), "the plan comes before the sweep's later sizes")
        check("sizes 24x40x16, 31, 32 (as given)" in proc.stderr, "the plan lists the sizes given")
        check(" left] " in proc.stderr, "the progress lines give the time left")
        check(proc.stdout.rstrip().split("\n")[-1].split(" in ")[-1].endswith(" s"), "bench.py says how long it took")
        rows = read_rows(out)
        programs = [p[0] for p in find_programs(build) if p[0] not in ("clblast", "cublas", "cublas_tf32")]
        # Smallest problem first: 24x40x16 (15360), 31^3 (29791), 32^3 (32768); every program once each.
        expected = [(s, p) for s in [("24", "40", "16"), ("31", "31", "31"), ("32", "32", "32")] for p in programs]
        got = [((r["m"], r["n"], r["k"]), r["step"]) for r in rows]
        check(got == expected, f"sweep rows are every program at every size, in order\n  expected {expected}\n"
                               f"  got      {got}")
        numeric = ["median_ms", "best_ms", "gflops", "gflops_best", "warmup", "repeat"]
        for r in rows:
            where = f"{r['step']} at {r['m']}x{r['n']}x{r['k']}"
            if r["status"] == "REFUSED":
                # Only the steps that need tile multiples may refuse; the refusal line is kept.
                check(r["step"] not in ANY_SIZE, f"{where} runs at any size (got REFUSED: {r['parts']})")
                check(r["parts"] != "", f"{where} keeps the refusal line")
                check(all(r[c] == "" for c in numeric), f"{where} has empty numeric fields")
            elif r["m"] == "24":  # N=40 is above --verify-max-size: runs, unverified
                check(r["status"] == "UNVERIFIED" and r["max_err_over_bound"] == "" and r["normwise_over_bound"] == ""
                      and r["normwise_error"] == "", f"{where} is UNVERIFIED (got {r['status']}: {r['parts']})")
                check(all(positive(r[c]) for c in ("median_ms", "best_ms", "gflops")), f"{where} has its times")
            else:
                check(r["status"] == "PASS", f"{where} is PASS (got {r['status']}: {r['parts']})")
                check(all(positive(r[c]) for c in ("median_ms", "best_ms", "gflops")), f"{where} has its times")
                err = number(r["max_err_over_bound"])
                check(err is not None and 0.0 <= err <= 1.0,
                      f"{where} is within its error bound (got {r['max_err_over_bound']!r})")
                normwise = number(r["normwise_over_bound"])
                check(normwise is not None and 0.0 <= normwise <= 1.0,
                      f"{where} is within its normwise bound (got {r['normwise_over_bound']!r})")
                # the normwise error itself: FP32's rounding at K = 31 or 32 (a few times 1e-8 to 1e-7)
                error = number(r["normwise_error"])
                check(error is not None and 0.0 <= error < 1e-5,
                      f"{where} has a normwise error of FP32's size (got {r['normwise_error']!r})")
            check(r["date"].endswith("Z"), f"{where} has a date")
        # 31 is prime: a step that needs tile multiples refuses it, and says so.
        tiled = [r for r in rows if r["step"] == "kernel02_tiled" and r["m"] == "31"]
        check(not tiled or (tiled[0]["status"] == "REFUSED" and "is not a multiple of TS" in tiled[0]["parts"]),
              f"kernel02_tiled refuses 31 with its refusal line (got {tiled[0] if tiled else None})")
        check(os.path.exists(peak_path(out)), "the peaks are written beside the sweep")
        if os.path.exists(peak_path(out)):
            with open(peak_path(out), newline="") as f:
                check_peak_rows(list(csv.DictReader(f)), 4, 1, 0)
        for label in ("M=24 N=40 K=16", "M=N=K=31", "M=N=K=32", "REFUSED: M=31 is not a multiple", "% peak",
                      "UNVERIFIED", "     error  status"):
            check(label in proc.stdout, f"the tables show '{label}'")
        # a verified row shows its normwise error in scientific notation, an unverified one "-"
        naive = [l for l in proc.stdout.splitlines() if l.startswith("kernel01_naive ")]
        check(len(naive) == 3 and all(re.search(r" [0-9]\.[0-9]e-[0-9]{2}  PASS$", l) for l in naive[1:])
              and re.search(r" -  UNVERIFIED$", naive[0]), f"the tables show each run's error ({naive})")
        # table.py renders the very same tables from the files alone.
        again = run([sys.executable, os.path.join(HERE, "table.py"), out])
        check(again.returncode == 0, "table.py exits 0")
        tables = proc.stdout[:proc.stdout.rindex("\nWrote ")]
        check(again.stdout.rstrip("\n") == tables.rstrip("\n"), "table.py prints the same tables as bench.py")
        check(tables.index("M=24 N=40 K=16") < tables.index("M=N=K=31") < tables.index("M=N=K=32"),
              "the tables come smallest problem first")
        # Options the sweep sets itself are refused, before anything runs.
        bad = sweep(build, os.path.join(tmp, "bad.csv"), ["--sizes", "32", "--size", "64"], [])
        check(bad.returncode == 2 and "the sweep sets sizes" in bad.stderr, "bench.py refuses --size")
        check(not os.path.exists(os.path.join(tmp, "bad.csv")), "a refused sweep writes nothing")


# A stand-in for a step or a peer: answers at once like one (its report's device line and its CSV
# row) on a device of the kind and speed that fake.json, beside its directory, gives (its platform,
# "Fake" unless given; a program's own rate in "gflops_of"); from the problem "hang_from"
# (multiply-adds) on, it hangs instead; a program named in "fail" fails its check (FAIL, exit 1).
FAKE_PROGRAM = """#!/usr/bin/env python3
import json, os, sys, time
cfg = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fake.json")))
args = sys.argv[1:]
if "--list-devices" in args:
    sys.exit(print("platform 0: Fake"))
def value(name, default):
    return args[args.index(name) + 1] if name in args else default
m, n, k = (int(value(o, 64)) for o in ("-m", "-n", "-k"))
warmup, repeat = int(value("--warmup", 1)), int(value("--repeat", 3))
name = os.path.basename(sys.argv[0])
name = name[len("peer_"):] if name.startswith("peer_") else name
if m * n * k >= cfg.get("hang_from", float("inf")):
    time.sleep(60)
g = cfg.get("gflops_of", {}).get(name, cfg["gflops"])
ms, platform = 2.0 * m * n * k / (g * 1e6), cfg.get("platform", "Fake")
fail = name in cfg.get("fail", [])
status, ratio, error = ("FAIL", "40.5", "3.1e-04") if fail else ("PASS", "0.01", "1.2e-07")
sys.stderr.write(f"== {name}: a stand-in ==\\ndevice      Fake Device ({cfg['type']}) on {platform}, driver 1\\n")
print("COLUMNS")
print(f"{name},{platform},Fake Device,1,{m},{n},{k},1,0,,{warmup},{repeat},{ms:.6f},{ms:.6f},{g},{g},"
      f"sgemm:{ms:.6f}/{ms:.6f},{ratio},{status},2026-01-01T00:00:00Z,{ratio},,{error}")
sys.exit(1 if fail else 0)
""".replace("COLUMNS", ",".join(COLUMNS))


def fake_build(tmp, config, steps=("kernel01_naive", "kernel02_tiled"), peers=()):
    """A build directory of stand-ins for the steps and peers (FAKE_PROGRAM), configured by config."""
    build = os.path.join(tmp, "fake-build")
    os.makedirs(build)
    with open(os.path.join(build, "gemm_steps.txt"), "w") as f:
        f.write("\n".join(steps) + "\n")
    paths = dict(PEERS)
    for step in list(steps) + list(peers):
        where = step if step in steps else os.path.dirname(paths[step])  # bench/ for a peer
        name = step if step in steps else os.path.basename(paths[step])
        if not os.path.isdir(os.path.join(tmp, where)):
            os.makedirs(os.path.join(tmp, where))
            os.symlink(os.path.join(tmp, where), os.path.join(build, where))
        path = os.path.join(tmp, where, name)
        with open(path, "w") as f:
            f.write(FAKE_PROGRAM)
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    with open(os.path.join(tmp, "fake.json"), "w") as f:
        json.dump(config, f)
    return build


def test_guard(build, extra):
    """The guard stops a run that takes too long (TIMEOUT) and skips its program at larger problems."""
    with tempfile.TemporaryDirectory() as tmp:
        fake = fake_build(tmp, {"type": "CPU", "gflops": 1e6, "hang_from": 32 ** 3})
        out = os.path.join(tmp, "guard.csv")
        t0 = time.monotonic()
        proc = sweep(fake, out, ["--sizes", "16,32,64", "--odd-sizes", "16x16x8", "--guard-seconds", "1",
                                 "--no-peak"], [])
        seconds = time.monotonic() - t0
        check(proc.returncode == 0, f"a sweep with stopped and skipped runs exits 0 (got {proc.returncode})")
        check(seconds < 20, f"the guard stopped the hanging runs (the sweep took {seconds:.0f} s)")
        rows = read_rows(out)
        got = [(r["step"], r["m"], r["status"]) for r in rows]
        expected = [(p, m, status) for m, status in [("16", "PASS"), ("16", "PASS"), ("32", "TIMEOUT"), ("64", "SKIPPED")]
                    for p in ("kernel01_naive", "kernel02_tiled")]
        check(got == expected, f"guard rows: expected {expected}, got {got}")
        for r in rows:
            if r["status"] == "TIMEOUT":
                check(r["parts"].startswith("time guard: stopped after 1 s"), f"a TIMEOUT row says why ({r['parts']!r})")
            if r["status"] == "SKIPPED":
                check(r["parts"].startswith("time guard: its run at 32x32x32 was stopped"),
                      f"a SKIPPED row says why ({r['parts']!r})")
        check("TIMEOUT: time guard: stopped after" in proc.stdout, "the table shows the TIMEOUT and why")
        check(not os.path.exists(peak_path(out)), "--no-peak writes no peaks")
        # The guard is for runs, not for bad options
        bad = sweep(fake, os.path.join(tmp, "bad.csv"), ["--guard-seconds", "-1"], [])
        check(bad.returncode == 2 and "--guard-seconds must be" in bad.stderr, "bench.py refuses a negative guard")


def test_plan(build, extra):
    """Without --sizes: on a CPU, the squares stop where the median program's run would take more
    than --size-seconds (estimated from the runs at 256); on a GPU, the full default sweep."""
    with tempfile.TemporaryDirectory() as tmp:
        # 1 GFLOPS, 1 warm-up + 3 timed runs: 4 * 2 * 512^3 flops = 1.1 s at 512, 8.6 s at 1024
        fake = fake_build(tmp, {"type": "CPU", "gflops": 1.0})
        out = os.path.join(tmp, "cpu.csv")
        proc = sweep(fake, out, ["--no-peak"], [], quick=[])
        check(proc.returncode == 0, f"the CPU sweep exits 0 (got {proc.returncode})")
        check("sizes 256, 511, 512, 513 (chosen for a CPU: the squares stop before 1024, where the median "
              "program's run would take about 9 s" in proc.stderr, "the CPU plan stops before 1024 and says why")
        estimate = [l for l in proc.stderr.splitlines() if l.startswith("bench: estimated ")]
        check(len(estimate) == 1, "bench.py prints one estimate")
        rows = read_rows(out)
        check([(r["m"], r["step"]) for r in rows] == [(m, p) for m in ("256", "511", "512", "513")
                                                      for p in ("kernel01_naive", "kernel02_tiled")],
              f"the CPU sweep runs the planned sizes (got {[(r['m'], r['step']) for r in rows]})")
        check("the time guard stops any run after 30 s" in proc.stderr, "the guard is 30 s on a CPU")
        # A GPU: 256 to 8192 and the odd sizes 4095, 4097, 1000x3000x500, 3000x1000x5000
        os.makedirs(os.path.join(tmp, "gpu"))
        fake = fake_build(os.path.join(tmp, "gpu"), {"type": "GPU", "gflops": 1e5})
        proc = sweep(fake, os.path.join(tmp, "gpu.csv"), ["--no-peak"], [], quick=[])
        check(proc.returncode == 0, f"the GPU sweep exits 0 (got {proc.returncode})")
        check("sizes 256, 512, 1024, 1000x3000x500, 2048, 3000x1000x5000, 3072, 4095, 4096, 4097, 5120, 6144, 7168, 8192 (the "
              "defaults for a GPU)" in proc.stderr, "the GPU plan is the full default sweep")
        check("the time guard stops any run after 120 s" in proc.stderr, "the guard is 120 s on a GPU")
        check(len(read_rows(os.path.join(tmp, "gpu.csv"))) == 28, "the GPU sweep runs 14 sizes x 2 programs")


def test_pipe(build, extra):
    """table.py's output cut short by its reader (| head) ends it quietly, without a traceback."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "many.csv")
        with open(path, "w", newline="") as f:  # tables far larger than a pipe's buffer
            writer = csv.DictWriter(f, fieldnames=COLUMNS)
            writer.writeheader()
            for size in range(1, 3001):
                writer.writerow(dict(dict.fromkeys(COLUMNS, ""), step="kernel01_naive", m=size, n=size, k=size,
                                     median_ms="1", status="PASS"))
        table = subprocess.Popen([sys.executable, os.path.join(HERE, "table.py"), path], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE)
        head = subprocess.run(["head", "-n", "3"], stdin=table.stdout, capture_output=True, text=True)
        table.stdout.close()
        err = table.stderr.read().decode()
        table.wait(timeout=60)
        check(head.stdout.startswith("No measured peaks"), f"head got the start of the tables ({head.stdout!r})")
        check(err == "", f"table.py | head prints nothing on stderr (got {err[-300:]!r})")


def test_tour(build, extra):
    """The tour names the OpenCL device, exits 0 when every program passed, and with a device that
    does not exist exits non-zero and says the error once."""
    # 128: a multiple of every step's tiles on every device class (NVIDIA's steps 5, 7, 8 take 128)
    tour = [sys.executable, os.path.join(HERE, "tour.py"), "--build-dir", build, "--size", "128"] + QUICK
    proc = run(tour + extra)
    check(proc.returncode == 0, f"the tour exits 0 when every program passes (got {proc.returncode})")
    # step 11 on a device without tensor cores (its portable path, TC=0) is named as such, not read as a rate
    step11 = next((l for l in proc.stdout.splitlines() if l.startswith("kernel11_tensor_cores ")), "")
    if step11 and "PASS" in step11 and "TC=0" in run([os.path.join(build, "kernel11_tensor_cores",
                                                                    "kernel11_tensor_cores"), "--size", "64",
                                                       "--repeat", "1", "--warmup", "0", "--no-verify"] + extra).stdout:
        check("kernel11_tensor_cores ran its portable path (TC=0)" in proc.stdout,
              "the tour says that step 11 ran its portable path where the device has no tensor cores")
    step = next((l for l in proc.stdout.splitlines() if l.startswith("kernel01_naive ")), "")
    check("PASS" in step, f"the tour runs step 1 ({step!r})")
    devices = [l for l in proc.stdout.splitlines() if l.startswith("Device: ")]
    check(len(devices) == 1 and "(host" not in devices[0], f"the header names the OpenCL device ({devices})")
    # GEMM_DEFAULTS_FOR (set by tests/run.sh --small-gpu) changes every step's parameters: said in the header
    said = any(l.startswith("Parameters: ") for l in proc.stdout.splitlines())
    env = os.environ.get("GEMM_DEFAULTS_FOR", "")
    check(said == bool(env), f"the header says GEMM_DEFAULTS_FOR ({env!r}) exactly when it is set (said: {said})")
    wrong = run(tour + ["--device", "no-such-device"])
    message = "no OpenCL device matches 'no-such-device'"
    check(wrong.returncode not in (0, None), f"the tour exits non-zero when every step is refused "
                                            f"(got {wrong.returncode})")
    check(wrong.stdout.count(message) == 1, f"the table says the error once (got {wrong.stdout.count(message)})")
    check(wrong.stderr.count(message) == 1, f"the progress says the error once (got {wrong.stderr.count(message)})")
    check("(host" not in wrong.stdout, "the header does not present the CPU BLAS as the device")


def test_accuracy(build, extra):
    """The error column; cuBLAS on the TF32 tensor cores (cublas_tf32), whose check fails by design:
    its FAIL is shown as its accuracy and fails neither the sweep nor the tour, and 'vs cuBLAS' is
    the FP32 cuBLAS; a step's FAIL still fails both; files written before the column still read."""
    check(("cublas_tf32", "bench/peer_cublas_tf32") in PEERS, "cublas_tf32 is a peer (gemmrun.PEERS)")
    with tempfile.TemporaryDirectory() as tmp:
        # An NVIDIA GPU: cuBLAS at 100 GFLOPS, its TF32 mode at 200, the step at 50
        config = {"type": "GPU", "platform": "NVIDIA CUDA", "gflops": 50.0,
                  "gflops_of": {"cublas": 100.0, "cublas_tf32": 200.0}, "fail": ["cublas_tf32"]}
        fake = fake_build(tmp, config, steps=("kernel01_naive",), peers=("cublas", "cublas_tf32"))
        out = os.path.join(tmp, "tf32.csv")
        proc = sweep(fake, out, ["--sizes", "64", "--odd-sizes", "none", "--no-peak"], [])
        check(proc.returncode == 0, f"a sweep whose only FAIL is cublas_tf32's exits 0 (got {proc.returncode})")
        rows = {r["step"]: r for r in read_rows(out)}
        check(rows.get("cublas_tf32", {}).get("status") == "FAIL" and rows["cublas_tf32"]["normwise_error"] == "3.1e-04",
              f"the CSV keeps cublas_tf32's FAIL and its error ({rows.get('cublas_tf32')})")
        lines = {l.split()[0]: l for l in proc.stdout.splitlines() if l.split()}
        tf32 = lines.get("cublas_tf32", "")
        check(tf32.endswith("3.1e-04  FAIL (not FP32-accurate: TF32)"),
              f"the table shows cublas_tf32's error and that it is not FP32-accurate ({tf32!r})")
        check(" 2.00x " in tf32 and " 0.50x " in lines.get("kernel01_naive", "") and " 1.00x " in lines.get("cublas", ""),
              f"'vs cuBLAS' is the FP32 cuBLAS ({tf32!r}, {lines.get('kernel01_naive')!r})")
        check(lines.get("kernel01_naive", "").endswith("1.2e-07  PASS"), "the table shows a step's error")
        check("FAIL/ERROR" not in proc.stdout, "the sweep counts no FAIL")
        check("cublas_tf32 ... 200.00 GFLOPS, FAIL (not FP32-accurate: TF32), error 3.1e-04" in proc.stderr,
              "the progress line shows cublas_tf32's rate and accuracy")
        # The tour: the same
        tour = run([sys.executable, os.path.join(HERE, "tour.py"), "--build-dir", fake, "--size", "64"])
        check(tour.returncode == 0, f"a tour whose only FAIL is cublas_tf32's exits 0 (got {tour.returncode})")
        line = next((l for l in tour.stdout.splitlines() if l.startswith("cublas_tf32 ")), "")
        check(line.endswith("3.1e-04  FAIL (not FP32-accurate: TF32)"), f"the tour shows cublas_tf32's accuracy ({line!r})")
        check(" error  result" in tour.stdout, "the tour's table has the error column")
        # A step's FAIL still fails both
        config["fail"] = ["cublas_tf32", "kernel01_naive"]
        with open(os.path.join(tmp, "fake.json"), "w") as f:
            json.dump(config, f)
        bad = sweep(fake, os.path.join(tmp, "bad.csv"), ["--sizes", "64", "--odd-sizes", "none", "--no-peak"], [])
        check(bad.returncode == 1 and "1 FAIL/ERROR" in bad.stdout, f"a step's FAIL fails the sweep ({bad.returncode})")
        bad = run([sys.executable, os.path.join(HERE, "tour.py"), "--build-dir", fake, "--size", "64"])
        check(bad.returncode == 1 and "1 of 3 programs did not pass: kernel01_naive" in bad.stdout,
              f"a step's FAIL fails the tour ({bad.returncode})")
        # Files written before normwise_error and the TF32 peak: read, the error shown as "-"
        old_csv, old_peak = os.path.join(tmp, "old.csv"), os.path.join(tmp, "old.peak.csv")
        old_columns = COLUMNS[:COLUMNS.index("normwise_over_bound") + 1]
        with open(old_csv, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=old_columns)
            writer.writeheader()
            writer.writerow(dict(dict.fromkeys(old_columns, ""), step="kernel01_naive", device="D", m=64, n=64, k=64,
                                 median_ms="1", status="PASS", max_err_over_bound="0.01"))
        with open(old_peak, "w") as f:
            f.write(",".join(PEAK_COLUMNS[:PEAK_COLUMNS.index("fma_chains") + 1]) + "\n"
                    "P,D,1,100,110,float4,50,55,4.000,0,1,2026-01-01T00:00:00Z,8\n")
        again = run([sys.executable, os.path.join(HERE, "table.py"), old_csv])
        line = next((l for l in again.stdout.splitlines() if l.startswith("kernel01_naive ")), "")
        check(again.returncode == 0 and re.search(r" 0\.52 +0\.5% .* -  PASS$", line) is not None
              and "TF32" not in again.stdout.splitlines()[0],
              f"table.py reads files written before the error column and the TF32 peak ({line!r})")
        # A peak with the TF32 tensor cores: in the header
        with open(old_peak, "w") as f:
            f.write(",".join(PEAK_COLUMNS) + "\nP,D,1,100,110,float4,50,55,4.000,0,1,2026-01-01T00:00:00Z,8,400,420\n")
        again = run([sys.executable, os.path.join(HERE, "table.py"), old_csv])
        check("FP32 FMA 100.0 GFLOPS (float4 x 8 chains), TF32 tensor cores 400.0 GFLOPS, copy 50.0" in again.stdout,
              "table.py shows the TF32 tensor-core peak")


def test_env(build, extra):
    """program_env(): POCL_AFFINITY=1 added where the caller left it unset and the process may use
    CPUs 0 to n-1, never where it is held to some of them, the caller's own value kept; and
    run_program() runs the programs in it (a stand-in program reports what it got)."""
    del build, extra  # the environment does not depend on the build or the device
    env = program_env({"PATH": "/bin"}, allowed_cpus={0, 1}, cpu_count=2)
    check(env == {"PATH": "/bin", "POCL_AFFINITY": "1"}, f"every CPU allowed: PoCL's threads pinned ({env})")
    env = program_env({"PATH": "/bin"}, allowed_cpus={1}, cpu_count=2)
    check("POCL_AFFINITY" not in env, f"held to CPU 1 of 0-1: nothing pinned, thread 0 would name CPU 0 ({env})")
    env = program_env({"PATH": "/bin"}, allowed_cpus={0, 1, 2}, cpu_count=4)
    check("POCL_AFFINITY" not in env, f"held to CPUs 0-2 of 0-3: nothing pinned ({env})")
    env = program_env({"POCL_MAX_PTHREAD_COUNT": "4"}, allowed_cpus={0, 1}, cpu_count=2)
    check("POCL_AFFINITY" not in env, f"the caller's own thread count: nothing pinned ({env})")
    for value in ("0", "1"):
        env = program_env({"POCL_AFFINITY": value}, allowed_cpus={0, 1}, cpu_count=2)
        check(env == {"POCL_AFFINITY": value}, f"the caller's POCL_AFFINITY={value} is kept ({env})")
    with tempfile.TemporaryDirectory() as tmp:
        stand_in = os.path.join(tmp, "prints_env")
        with open(stand_in, "w") as f:
            f.write("#!/bin/sh\necho \"affinity=${POCL_AFFINITY-unset}\" >&2\n")
        os.chmod(stand_in, 0o755)
        got = run_program(stand_in, [])["stderr"].strip()
        want = f"affinity={program_env().get('POCL_AFFINITY', 'unset')}"
        check(got == want, f"run_program() runs a program in program_env() (got {got!r}, want {want!r})")


def main():
    tests = {"peak": test_peak, "sweep": test_sweep, "guard": test_guard, "plan": test_plan, "pipe": test_pipe,
             "tour": test_tour, "accuracy": test_accuracy, "env": test_env}
    if len(sys.argv) < 3 or sys.argv[1] not in tests:
        sys.exit(__doc__)
    tests[sys.argv[1]](sys.argv[2], sys.argv[3:])
    if failures:
        print(f"{len(failures)} check(s) failed")
        sys.exit(1)
    print("all checks passed")


if __name__ == "__main__":
    main()
