#!/usr/bin/env python3
"""Fault injection: every OpenCL call site of a program made to fail, one run each.

    fault_injection.py [--all | --first] [--library NAME:CALL] [--ok REGEX] SHIM PROGRAM [ARGS...]

SHIM is the library built from fault_inject.c. PROGRAM runs once under it as is (it must pass, and
release every OpenCL object), which lists its OpenCL calls, numbered in the order made; then once
for each call chosen below, with that call failing (GEMM_FAULT_AT=N: CL_OUT_OF_HOST_MEMORY, or NULL
and that error from a create function). Each such run must:

- end on its own (no signal, no sanitizer report, within the timeout: no hang);
- exit 3, the documented code of an OpenCL error (gemm_common.h), with exactly one error line,
  which names the call that failed (clBuildProgram: "did not build", and the build log if the
  driver gave one), and no PASS anywhere;
- release every OpenCL object it created (the shim's count at exit), and, in a sanitized build,
  every byte of host memory (LeakSanitizer, on in the sanitize preset).

The exceptions, which may pass (exit 0) as well: the queries whose failure the harness tolerates by
design, a name or version string shown as "?" (clGetPlatformInfo(CL_PLATFORM_NAME), clGetDeviceInfo
of CL_DEVICE_NAME, CL_DRIVER_VERSION, CL_DEVICE_VERSION; not CL_DEVICE_VENDOR or _EXTENSIONS, which
choose NVIDIA's parameters and step 10's copies), and the clFinish of
the cleanup after the report, whose result nothing is left to change. And where the machine has
more than one platform (a GPU's driver and PoCL), a clGetDeviceIDs or clGetDeviceInfo of the
enumeration may pass too, with a note that names the call: the platform or device is left out and
the program runs on another (a failure is the error only where it leaves no device). A name that
could not be read cannot match a --platform or --device NAME either: that refusal (exit 2) is taken.

Which calls: the first and the last call made from each call site (a function and the address it is
called from), so that every site fails once with the least done before it and once with the most
(a later run: events and buffers of the earlier runs made); --first: the first call of each site
only; --all: every call. Deterministic: the same program and arguments choose the same calls.

--library NAME:CALL: calls made from within the shared library NAME (e.g. libclblast) are reported
by the program as a failure of CALL (the library's own entry point, e.g. CLBlastSgemm), which the
error line must name instead. --ok REGEX: what a run that went well prints, where it is not PASS.
"""
import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

TIMEOUT = 60
TOLERATED = {("clGetPlatformInfo", "0x902"), ("clGetDeviceInfo", "0x102b"), ("clGetDeviceInfo", "0x102d"),
             ("clGetDeviceInfo", "0x102f")}
SANITIZER = re.compile(r"(ERROR|SUMMARY): [A-Za-z]*Sanitizer|: runtime error: ")
ERROR_LINE = re.compile(r": error: ")
NOTE_LINE = re.compile(r": note: ")
ENUMERATION = ("clGetDeviceIDs", "clGetDeviceInfo")


def read_log(path):
    """(calls, failed, live): calls as (n, name, detail, site) in order, the failed one, the live counts."""
    calls, failed, live = [], None, None
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                word = line.split()
                if word and word[0] in ("call", "fail") and len(word) == 5:
                    call = (int(word[1]), word[2], word[3], word[4])
                    calls.append(call)
                    if word[0] == "fail":
                        failed = call
                elif word and word[0] == "live":
                    live = dict(w.split("=", 1) for w in word[1:])
    except FileNotFoundError:
        pass
    return calls, failed, live


def run(shim, command, log, fail_at):
    env = dict(os.environ)
    env["LD_PRELOAD"] = shim + (" " + env["LD_PRELOAD"] if env.get("LD_PRELOAD") else "")
    env["GEMM_FAULT_LOG"] = log
    env["GEMM_FAULT_AT"] = str(fail_at)
    # a sanitized program: the shim is loaded before ASan's runtime, which ASan refuses by default
    env["ASAN_OPTIONS"] = ":".join(filter(None, [env.get("ASAN_OPTIONS"), "verify_asan_link_order=0"]))
    if os.path.exists(log):
        os.unlink(log)
    start = time.monotonic()
    try:
        p = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT,
                           stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as e:
        return None, (e.stdout or b"").decode(errors="replace"), (e.stderr or b"").decode(errors="replace"), TIMEOUT
    return (p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace"),
            time.monotonic() - start)


def leaked(live):
    if live is None:
        return "the shim's count at exit is missing (the program did not exit normally)"
    left = {k: v for k, v in live.items() if v != "0"}
    return "OpenCL objects not released: " + ", ".join(f"{k} {v}" for k, v in left.items()) if left else None


def check_fault(call, last, rc, out, err, live, failed, library, ok):
    """The problems of one run with `call` failing, as a list of strings."""
    n, name, detail, site = call
    problems = []
    if rc is None:
        return [f"no end within {TIMEOUT} s (a hang)"]
    if rc < 0 or rc > 128:
        sig = -rc if rc < 0 else rc - 128
        problems.append(f"killed by signal {sig} ({signal.Signals(sig).name if sig in signal.valid_signals() else '?'})")
    if failed is None or failed[:2] != (n, name):
        problems.append(f"call {n} was not {name} in this run ({failed}): the calls are not the same from run to run")
    if SANITIZER.search(out + err):
        problems.append("a sanitizer reported a problem")
    what = leaked(live)
    if what:
        problems.append(what)
    tolerated = (name, detail) in TOLERATED or (n == last and name == "clFinish")
    # a platform or device whose driver fails to describe it is left out, with a note naming the
    # call, where another device is left to run on (a machine with a GPU's driver and PoCL)
    left_out = name in ENUMERATION and any(
        "left out" in line and f"{name}" in line and "failed" in line for line in err.splitlines() if NOTE_LINE.search(line))
    # a name that could not be read (shown as "?") cannot match a --platform or --device NAME (a
    # reader's tests/run.sh --platform NAME): refused as no match, exit 2
    unnamed = (name, detail) in (("clGetPlatformInfo", "0x902"), ("clGetDeviceInfo", "0x102b")) and rc == 2 and \
        re.search(r": error: no OpenCL (platform|device) matches ", err)
    if unnamed:
        return problems
    if rc == 0 and (tolerated or left_out):
        if not re.search(ok, out + err):
            problems.append(f"exit 0 without {ok}")
        return problems
    if rc != 3:
        problems.append(f"exit {rc}, not 3 (an OpenCL error)" + (" : a failure that passed silently" if rc == 0 else ""))
    if re.search(ok, out):
        problems.append(f"{ok} printed by a run that failed")
    errors = [line for line in err.splitlines() if ERROR_LINE.search(line)]
    named = name
    for lib in library:
        if site.startswith(lib[0]):
            named = lib[1]
    if len(errors) != 1:
        problems.append(f"{len(errors)} error lines, not one")
    elif named not in errors[0] and not (name == "clBuildProgram" and "did not build" in errors[0]):
        problems.append(f"the error line does not name {named}")
    elif "build log above" in errors[0] and "----- OpenCL build log" not in err:
        problems.append("the error line points at a build log above, and there is none")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--all", action="store_true", help="fail every call, not the first and last of each site")
    ap.add_argument("--first", action="store_true", help="fail the first call of each site only")
    ap.add_argument("--library", action="append", default=[], metavar="NAME:CALL")
    ap.add_argument("--ok", default="PASS", metavar="REGEX",
                    help="what a run that went well prints (default PASS), a regular expression")
    ap.add_argument("shim")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    library = [tuple(x.split(":", 1)) for x in a.library]
    shim = os.path.abspath(a.shim)
    status = 0
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "calls.log")
        rc, out, err, secs = run(shim, a.command, log, 0)
        calls, _, live = read_log(log)
        print(f"--- {' '.join(a.command)}: exit {rc}, {len(calls)} OpenCL calls, {secs:.2f} s", flush=True)
        if rc != 0 or not re.search(a.ok, out + err):
            print(f"FAILED: the run without a fault did not pass (exit {rc}):\n{out}{err}")
            return 1
        if not calls:
            print("FAILED: the shim saw no OpenCL call: it is not interposed (LD_PRELOAD), so nothing was tested")
            return 1
        if leaked(live):
            print(f"FAILED: the run without a fault: {leaked(live)}")
            status = 1
        first, last_of = {}, {}
        for n, name, detail, site in calls:
            first.setdefault((name, site), n)
            last_of[(name, site)] = n
        chosen = set(first.values()) if a.first else set(first.values()) | set(last_of.values())
        chosen = sorted(c[0] for c in calls) if a.all else sorted(chosen)
        by_n = {c[0]: c for c in calls}
        print(f"{len(first)} call sites; failing {len(chosen)} of the {len(calls)} calls", flush=True)
        bad = 0
        start = time.monotonic()
        for n in chosen:
            call = by_n[n]
            rc, out, err, secs = run(shim, a.command, log, n)
            _, failed, live = read_log(log)
            problems = check_fault(call, len(calls), rc, out, err, live, failed, library, a.ok)
            errors = [line for line in err.splitlines() if ERROR_LINE.search(line)]
            said = errors[0] if errors else "(no error line)"
            print(f"{'FAILED' if problems else 'ok    '} {n:4d} {call[1]}({call[2]}) at {call[3]}: exit {rc}, "
                  f"{secs:.2f} s: {said}", flush=True)
            if n == 1 and rc == 0:
                problems.append("failing the first call changed nothing: the shim is not in effect")
            for p in problems:
                print(f"         {p}")
            if problems:
                bad += 1
                print("         --- stderr:\n" + "".join(f"         | {line}\n" for line in err.splitlines()[-20:]),
                      end="")
        print(f"--- {len(chosen)} faults, {bad} mishandled, {time.monotonic() - start:.1f} s")
        if bad:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
