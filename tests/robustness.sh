#!/usr/bin/env bash
# robustness.sh MODE [MODE ARGS] CODE REGEX COMMAND [ARGS...]
# Runs COMMAND through expect.sh (exit code CODE, output matching REGEX, one error line for a
# refusal, no PASS in a run that must fail) in a situation that MODE prepares. Exits 77 (CTest:
# skipped) with the reason when the situation cannot be made here. Used by tests/robustness.cmake.
#
#   pocl                 only where PoCL is a platform (the COMMAND's --list-devices says so): the
#                        tests of PoCL's own behaviour, or of what only buffers in host memory
#                        allow, pin it with --platform Portable
#   printf FORMAT        appends one argument made by printf FORMAT (bytes a CMake list cannot hold)
#   fifo | socket        appends --kernel-file NODE, a named pipe or a Unix socket made here
#   output full|closed   standard output to /dev/full, or closed; COMMAND must end with exit
#                        CODE and exactly one error line matching REGEX (stderr may hold a report)
#   csv-runs HOW RUNS    RUNS runs of COMMAND in one loop whose standard output goes (HOW) to a new
#                        file (`done > file`), to a file that holds a line already (`done >> file`)
#                        or into a pipe (`done | cat`); REGEX is matched against what the loop wrote
#                        there (the file, or what came through the pipe), each run must exit 0
#   ulimit KB            under `ulimit -v KB` (this and the three below with PoCL as the only driver)
#   ulimit-pocl KB       the same, skipped where the loader does not show PoCL then
#   prlimit OPTION       under prlimit OPTION (e.g. --as=150000000, --data=50000000)
#   limited KB           under `ulimit -v KB`, where the outcome depends on the machine's core
#                        count: passes if COMMAND prints PASS and exits 0, or refuses with exit 2
#                        or 3 and exactly one error line matching REGEX; never a hang, a signal or
#                        an abort (CODE is ignored)
#   cgroup BYTES         in a new memory cgroup (v2, or v1) limited to BYTES
#   icd dup|two          OCL_ICD_VENDORS: PoCL's .icd file twice, or PoCL's and Oclgrind's; each
#                        @DEVICEn@ in REGEX becomes the name that --list-devices gives device n
#                        with those drivers (the loader decides their order), so that a test of
#                        an index can require the run to name the device that index lists;
#                        with GEMM_FAULT_SHIM set, the run under test is given it (as fault), and
#                        GEMM_FAULT_PLATFORM=NAME (a part of its name, as written) makes that
#                        platform's clGetDeviceIDs fail there; two skips where Oclgrind is not seen
#   fault                COMMAND with GEMM_FAULT_SHIM (tests/fault_inject.c) preloaded, set up
#                        by the GEMM_FAULT_* variables of the environment
#   session SECONDS      (PoCL, as pocl) COMMAND in a session of its own, judged by expect.sh; it
#                        must end within SECONDS, and leave no process of that session behind
#   terminal             (PoCL, as pocl) COMMAND on a pseudo-terminal (script -q), its progress
#                        line shown at once: exit CODE, and its last line matches REGEX and stands
#                        alone (the progress line erased before it, never drawn after it)
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
expect=$here/expect.sh
mode=$1
shift
skip() {
  echo "SKIPPED: $*"
  exit 77
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# OCL_ICD_VENDORS with PoCL's .icd file alone: the memory tests must not depend on which other
# drivers the machine has (each reserves its own address space as the loader loads it).
pocl_only() {
  local pocl
  pocl=$(grep -ls pocl /etc/OpenCL/vendors/*.icd 2>/dev/null | head -n 1)
  [ -n "$pocl" ] || skip "no PoCL .icd file in /etc/OpenCL/vendors"
  mkdir -p "$tmp/pocl-only"
  cp "$pocl" "$tmp/pocl-only/"
  export OCL_ICD_VENDORS=$tmp/pocl-only
  # Khronos' loader adds the drivers named in OCL_ICD_FILENAMES to the directory's (NVIDIA's
  # container images set it to NVIDIA's library), and OPENCL_LAYERS adds layers
  unset OCL_ICD_FILENAMES OPENCL_LAYERS
}
# After pocl_only or the icd mode's directory: skip unless the loader now shows PoCL through STEP's
# --list-devices (a loader that takes its drivers from elsewhere, e.g. one that ignores
# OCL_ICD_VENDORS, cannot be given a set of drivers of ours)
require_pocl_visible() {
  local listing
  listing=$(env -u POCL_CACHE_DIR -u POCL_DEVICES "$1" --list-devices 2>&1)
  grep -q "Portable Computing Language" <<<"$listing" ||
    skip "the OpenCL loader does not take the drivers this test gives it (OCL_ICD_VENDORS=$OCL_ICD_VENDORS); it shows: $(head -n 2 <<<"$listing" | tr '\n' ' ')"
}
# Address-space limits and AddressSanitizer do not mix: ASan reserves terabytes of shadow memory.
address_limits_apply() {
  [ "${GEMM_SANITIZED:-0}" = 1 ] && skip "a sanitized build reserves terabytes of address space: ulimit -v / -d do not apply"
  pocl_only
}
# GEMM_FAULT_SHIM: tests/fault_inject.c, loaded in front of the ICD loader, with the GEMM_FAULT_*
# settings of the test's environment (a driver that fails or misbehaves as they say)
preload_fault_shim() {
  export LD_PRELOAD=$GEMM_FAULT_SHIM${LD_PRELOAD:+ $LD_PRELOAD}
  export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
}
# The modes pinned to PoCL: skip where STEP's --list-devices shows no PoCL platform
require_pocl_platform() {
  env -u POCL_CACHE_DIR -u POCL_DEVICES -u GEMM_CL_OPTIONS "$1" --list-devices 2>/dev/null |
    grep -q "Portable Computing Language" || skip "PoCL is not an OpenCL platform here"
}
case "$mode" in
  pocl)
    require_pocl_platform "$3"
    timeout 120 "$expect" "$@"
    ;;
  session)
    seconds=$1
    shift
    require_pocl_platform "$3"
    code=$1 regex=$2
    shift 2
    start=$SECONDS
    # the session's id is the pid of its leader, which becomes COMMAND (exec)
    timeout -s KILL 120 "$expect" "$code" "$regex" setsid -w bash -c 'echo $$ >"$0" && exec "$@"' "$tmp/sid" "$@"
    status=$?
    took=$((SECONDS - start))
    sid=$(cat "$tmp/sid" 2>/dev/null)
    if [ -z "$sid" ]; then
      echo "FAILED: the command's session did not start"
      exit 1
    fi
    if left=$(pgrep -s "$sid"); then
      echo "FAILED: processes of the run's session remain after it ended: $(ps -o pid=,args= -p "$(tr '\n' ',' <<<"$left" | sed 's/,$//')")"
      pkill -KILL -s "$sid"
      status=1
    fi
    [ "$took" -le "$seconds" ] || { echo "FAILED: the run took $took s, more than $seconds"; status=1; }
    exit $status
    ;;
  terminal)
    require_pocl_platform "$3"
    script -q -e -c true /dev/null >/dev/null 2>&1 || skip "no util-linux 'script' here to give the program a terminal"
    code=$1 regex=$2
    shift 2
    out=$(GEMM_PROGRESS_DELAY=0 timeout 120 script -q -e -c "$(printf '%q ' "$@")" /dev/null </dev/null)
    rc=$?
    printf '%s\n' "$out" | cat -v | cut -c1-400
    status=0
    [ "$rc" -eq "$code" ] || { echo "FAILED: expected exit code $code, got $rc"; status=1; }
    last=${out%$'\r'}
    last=${last##*$'\r'} # what the terminal shows on the last line: the text after its last carriage return
    grep -Eq -- "^$regex" <<<"$last" ||
      { echo "FAILED: the last line does not start with /$regex/ on its own: '$(cat -v <<<"$last")'"; status=1; }
    exit $status
    ;;
  printf)
    arg=$(printf -- "$1")
    shift
    "$expect" "$@" "$arg"
    ;;
  fifo)
    mkfifo "$tmp/kernel.cl" || skip "cannot make a FIFO"
    timeout 20 "$expect" "$@" --kernel-file "$tmp/kernel.cl"
    ;;
  socket)
    python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$tmp/kernel.cl" ||
      skip "cannot make a Unix socket"
    timeout 20 "$expect" "$@" --kernel-file "$tmp/kernel.cl"
    ;;
  output)
    how=$1 code=$2 regex=$3
    shift 3
    case "$how" in
      full) "$@" >/dev/full 2>"$tmp/err" ;;
      closed) "$@" >&- 2>"$tmp/err" ;;
    esac
    rc=$?
    cat "$tmp/err"
    status=0
    [ "$rc" -eq "$code" ] || { echo "FAILED: expected exit code $code, got $rc"; status=1; }
    n=$(grep -c ': error: ' "$tmp/err")
    [ "$n" -eq 1 ] || { echo "FAILED: expected exactly one error line, found $n"; status=1; }
    grep -Eq -- "$regex" "$tmp/err" || { echo "FAILED: stderr does not match /$regex/"; status=1; }
    exit $status
    ;;
  csv-runs)
    how=$1 runs=$2 code=$3 regex=$4
    shift 4
    # the runs' reports go to stderr and are left out: REGEX sees only what the loop wrote
    loop='n=$1; shift; for i in $(seq "$n"); do "$@" 2>/dev/null || exit; done'
    case "$how" in
      file) script="$loop >\"\$0\"; cat \"\$0\"" ;;
      append) script="echo 'an earlier run' >\"\$0\"; $loop >>\"\$0\"; cat \"\$0\"" ;;
      pipe) script="set -o pipefail; $loop | cat" ;;
      *) echo "robustness.sh: csv-runs: unknown HOW '$how'" >&2; exit 2 ;;
    esac
    timeout 120 "$expect" "$code" "$regex" bash -c "$script" "$tmp/runs.csv" "$runs" "$@"
    ;;
  ulimit | ulimit-pocl)
    address_limits_apply
    kb=$1
    shift
    code=$1 regex=$2
    shift 2
    # ulimit-pocl: a test of what PoCL's host-memory buffers do under the limit, so PoCL must load
    [ "$mode" = ulimit-pocl ] && require_pocl_visible "$1"
    timeout 120 "$expect" "$code" "$regex" bash -c 'ulimit -v "$0" && exec "$@"' "$kb" "$@"
    ;;
  prlimit)
    address_limits_apply
    command -v prlimit >/dev/null || skip "prlimit (util-linux) is not installed"
    option=$1
    shift
    code=$1 regex=$2
    shift 2
    timeout 120 "$expect" "$code" "$regex" prlimit "$option" "$@"
    ;;
  limited)
    address_limits_apply
    kb=$1 regex=$3
    shift 3
    out=$(timeout 120 bash -c 'ulimit -v "$0" && exec "$@"' "$kb" "$@" 2>&1)
    rc=$?
    echo "--- under ulimit -v $kb: exit $rc: $* ---"
    echo "$out"
    errors=$(grep -c ': error: ' <<<"$out")
    if [ "$rc" -eq 0 ] && grep -q "PASS" <<<"$out" && [ "$errors" -eq 0 ]; then
      exit 0
    elif { [ "$rc" -eq 2 ] || [ "$rc" -eq 3 ]; } && [ "$errors" -eq 1 ] && grep -Eq -- "$regex" <<<"$out" &&
         ! grep -q "PASS" <<<"$out"; then
      exit 0
    fi
    echo "FAILED: expected a PASS (exit 0) or one error line matching /$regex/ with exit 2 or 3"
    exit 1
    ;;
  cgroup)
    pocl_only
    bytes=$1
    shift
    require_pocl_visible "$3"
    name=gemm-test-$$
    if [ -f /sys/fs/cgroup/cgroup.controllers ] && grep -qw memory /sys/fs/cgroup/cgroup.controllers; then
      group=/sys/fs/cgroup/$name # v2
      mkdir "$group" 2>/dev/null && echo "$bytes" >"$group/memory.max" 2>/dev/null && echo 0 >"$group/memory.swap.max" 2>/dev/null
      ok=$?
    else
      group=/sys/fs/cgroup/memory/$name # v1
      mkdir "$group" 2>/dev/null && echo "$bytes" >"$group/memory.limit_in_bytes" 2>/dev/null
      ok=$?
    fi
    if [ "$ok" -ne 0 ]; then
      rmdir "$group" 2>/dev/null
      skip "cannot make a memory cgroup here (needs root and a writable cgroup file system)"
    fi
    code=$1 regex=$2
    shift 2
    timeout 120 "$expect" "$code" "$regex" sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$group" "$@"
    status=$?
    rmdir "$group" 2>/dev/null
    exit $status
    ;;
  icd)
    kind=$1
    shift
    pocl=$(grep -ls pocl /etc/OpenCL/vendors/*.icd 2>/dev/null | head -n 1)
    [ -n "$pocl" ] || skip "no PoCL .icd file in /etc/OpenCL/vendors"
    mkdir "$tmp/vendors"
    cp "$pocl" "$tmp/vendors/a-pocl.icd"
    case "$kind" in
      dup) cp "$pocl" "$tmp/vendors/b-pocl-again.icd" ;;
      two)
        lib=/usr/lib/oclgrind/liboclgrind-rt-icd.so
        [ -f "$lib" ] || skip "Oclgrind's ICD library ($lib) is not installed"
        echo "$lib" >"$tmp/vendors/b-oclgrind.icd"
        ;;
    esac
    unset OCL_ICD_FILENAMES OPENCL_LAYERS # as in pocl_only
    export OCL_ICD_VENDORS=$tmp/vendors
    require_pocl_visible "$3"
    # and Oclgrind beside it (a loader that ignores OCL_ICD_VENDORS shows the machine's own drivers)
    if [ "$kind" = two ] && ! env -u POCL_CACHE_DIR -u POCL_DEVICES "$3" --list-devices 2>&1 | grep -q '^platform [0-9]*: Oclgrind'; then
      skip "the OpenCL loader does not take the drivers this test gives it (OCL_ICD_VENDORS=$OCL_ICD_VENDORS): no Oclgrind"
    fi
    code=$1 regex=$2
    shift 2
    while [[ $regex =~ @DEVICE([0-9]+)@ ]]; do
      n=${BASH_REMATCH[1]}
      name=$(env -u POCL_CACHE_DIR -u POCL_DEVICES "$1" --list-devices 2>&1 | sed -n "s/^  device $n: \(.*\) \[.*/\1/p")
      [ -n "$name" ] || { echo "FAILED: --list-devices lists no device $n with these drivers"; exit 1; }
      name=$(sed 's/[][\.*^$(){}?+|]/\\&/g' <<<"$name") # as a literal in an extended regex
      regex=${regex//"@DEVICE$n@"/"$name"}
    done
    # GEMM_FAULT_PLATFORM=NAME: the clGetDeviceIDs of the platform --list-devices lists under NAME
    # fails (the loader decides the order; the harness asks each platform once, in that order)
    if [ -n "${GEMM_FAULT_PLATFORM:-}" ]; then
      index=$(env -u POCL_CACHE_DIR -u POCL_DEVICES "$1" --list-devices 2>&1 | while IFS= read -r line; do
        # the name as a literal (a platform's name may hold '.', '(' or '/')
        if [[ $line =~ ^platform\ ([0-9]+):\ (.*)$ && ${BASH_REMATCH[2]} == *"$GEMM_FAULT_PLATFORM"* ]]; then
          echo "${BASH_REMATCH[1]}"
          break
        fi
      done)
      [ -n "$index" ] || { echo "FAILED: --list-devices lists no platform '$GEMM_FAULT_PLATFORM' with these drivers"; exit 1; }
      export GEMM_FAULT_NAME=clGetDeviceIDs GEMM_FAULT_AT=$((index + 1))
    fi
    # the run under test only: the checks above must see every platform
    [ -n "${GEMM_FAULT_SHIM:-}" ] && preload_fault_shim
    timeout 120 "$expect" "$code" "$regex" "$@"
    ;;
  fault)
    [ -n "${GEMM_FAULT_SHIM:-}" ] || { echo "robustness.sh: fault needs GEMM_FAULT_SHIM" >&2; exit 2; }
    preload_fault_shim
    timeout 120 "$expect" "$@"
    ;;
  *)
    echo "robustness.sh: unknown mode '$mode'" >&2
    exit 2
    ;;
esac
