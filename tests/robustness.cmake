# The harness's defences (issue 13): a check that a wrong result cannot pass at any K, out-of-bounds
# writes and accesses caught at every distance the harness claims, kernel files that are not files,
# memory that is short, scalars that leave float's range, lost output, ambiguous devices, and the
# smaller refusals. Included by tests/CMakeLists.txt after gemm_expect(); situations that need
# more than a command line (a FIFO, ulimit, a cgroup, ICD files) are prepared by robustness.sh,
# which skips (exit 77) with the reason where they cannot be made. Every test has a timeout.

set(ROBUST ${CMAKE_CURRENT_SOURCE_DIR}/robustness.sh)
set(quick --repeat 1 --warmup 0)
set(N1 kernel01_naive)
set(T2 kernel02_tiled)

# gemm_expect() of tests/CMakeLists.txt, labelled `robustness` too
function(gemm_expect_robust name)
  gemm_expect(${name} ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS "expect;robustness" TIMEOUT 150)
endfunction()

# gemm_robust(<test name> <mode and its arguments...> -- <exit code> <regex> <step> [args...])
function(gemm_robust name)
  list(FIND ARGN "--" sep)
  list(SUBLIST ARGN 0 ${sep} mode)
  math(EXPR first "${sep} + 1")
  list(SUBLIST ARGN ${first} 3 expect)
  math(EXPR rest "${sep} + 4")
  list(LENGTH ARGN count)
  set(args "")
  if(rest LESS count)
    list(SUBLIST ARGN ${rest} -1 args)
  endif()
  list(GET expect 2 step)
  list(GET expect 0 code)
  list(GET expect 1 regex)
  add_test(NAME ${name} COMMAND ${ROBUST} ${mode} ${code} ${regex} $<TARGET_FILE:${step}> ${args})
  set_tests_properties(${name} PROPERTIES LABELS "expect;robustness" TIMEOUT 150 SKIP_RETURN_CODE 77)
  if(GEMM_SANITIZE)
    set_tests_properties(${name} PROPERTIES ENVIRONMENT GEMM_SANITIZED=1)
  endif()
endfunction()

# --- Unit tests: normwise check, sample, scalars, memory plan, messages, white space, fences, -----
# --- crashes, the watchdog ----------------------------------------------------------------------
add_executable(test_robustness test_robustness.c)
target_link_libraries(test_robustness PRIVATE gemm_core gemm_warnings)
foreach(group normwise sample scalars memory printable whitespace fence exact precision crash watchdog)
  add_test(NAME harness.${group} COMMAND test_robustness ${group})
  set_tests_properties(harness.${group} PROPERTIES LABELS "unit;robustness" TIMEOUT 120)
endforeach()
# ... and the reference's groups again without the CPU BLAS, where the build has one: its portable
# loop, which a build without a BLAS relies on, is otherwise never run (a loop that left out the
# last product of K passed every test)
if(TARGET gemm_core_portable)
  add_executable(test_robustness_portable test_robustness.c)
  target_link_libraries(test_robustness_portable PRIVATE gemm_core_portable gemm_warnings)
  foreach(group normwise sample exact precision)
    add_test(NAME harness.${group}.portable COMMAND test_robustness_portable ${group})
    set_tests_properties(harness.${group}.portable PROPERTIES LABELS "unit;robustness" TIMEOUT 120)
  endforeach()
endif()

# --- 1. A wrong result fails at every K ----------------------------------------------------------
# The element-wise worst-case bound grows like K^2 on random data, the result like sqrt(K): a
# kernel that writes zeros, skips half of K or one tile of it, or leaves a tile of C unwritten
# passes that bound at large K. The normwise check must fail each, up to K = 4,000,000 (small M and
# N keep the data and the double-precision reference small).
# (At 65536 the element-wise bound may still catch a few elements of a wrong result on the default data,
# whose magnitudes spread over 8 binades; the normwise check's FAIL must be there either way.)
set(normwise_fail "check +FAIL.*normwise error.* times its bound")
foreach(case "writes_zeros:16x16x65536" "writes_zeros:16x16x131072" "writes_zeros:16x16x262144"
             "writes_zeros:4x4x1000000" "writes_zeros:4x4x4000000" "half_k:16x16x65536" "half_k:4x4x1000000"
             "half_k:4x4x4000000" "dropped_k_tile:16x16x65536" "dropped_k_tile:8x8x1000000"
             "dropped_k_tile:8x8x4000000")
  string(REPLACE ":" ";" kv ${case})
  list(GET kv 0 kernel)
  list(GET kv 1 size)
  string(REPLACE "x" ";" mnk ${size})
  list(GET mnk 0 m)
  list(GET mnk 1 n)
  list(GET mnk 2 k)
  gemm_expect_robust(fails.${kernel}.${size} 1 "${normwise_fail}" ${N1} -m ${m} -n ${n} -k ${k} ${quick}
                     --kernel-file ${KERNELS}/${kernel}.cl)
endforeach()
# with beta != 0: C's old values are finite, only the size of the error tells
gemm_expect_robust(fails.writes_zeros_beta.4x4x1000000 1 "${normwise_fail}" ${N1} -m 4 -n 4 -k 1000000 --alpha -1.5
                   --beta 0.25 ${quick} --kernel-file ${KERNELS}/writes_zeros.cl)
gemm_expect_robust(fails.dropped_c_tile.16x16x65536 1 "${normwise_fail}" ${N1} -m 16 -n 16 -k 65536 -D TS=8 --beta 0.5
                   ${quick} --kernel-file ${KERNELS}/dropped_c_tile.cl)
gemm_expect_robust(fails.dropped_c_tile.8x8x4000000 1 "${normwise_fail}" ${N1} -m 8 -n 8 -k 4000000 -D TS=4 --beta 0.5
                   ${quick} --kernel-file ${KERNELS}/dropped_c_tile.cl)
# Errors as small as the rounding a correct kernel may make pass the tolerance checks on random data
# (alpha*A*B below the rounding of beta*C, a result scaled by 1 + 1e-4 at K = 262144, one element
# 2 % off, the last of 3,999,985 terms left out); the exact check on integer data fails each
# (gemm_exact.h), and says where. The wrong kernels are step 1's (and step 10's) with one
# replacement each (gemm_kernel_mutant(), tests/CMakeLists.txt)
set(naive kernel01_naive/naive.cl)
set(naive_store "C[idx] = (beta == 0.0f) ? alpha*acc : alpha*acc + beta*C[idx];")
gemm_kernel_mutant(exact_ignores_ab ${naive} "${naive_store}" "C[idx] = (beta == 0.0f) ? 0.0f : beta*C[idx];")
gemm_kernel_mutant(exact_scaled ${naive} "${naive_store}"
                   "C[idx] = 1.0001f * ((beta == 0.0f) ? alpha*acc : alpha*acc + beta*C[idx]);")
gemm_kernel_mutant(exact_one_element_off ${naive} "${naive_store}"
                   "C[idx] = (row == M - 1 && col == N - 1 ? 1.02f : 1.0f) * ((beta == 0.0f) ? alpha*acc : alpha*acc + beta*C[idx]);")
gemm_kernel_mutant(exact_off_the_sample ${naive} "${naive_store}"
                   "C[idx] = (row == 1 && col == 1 ? 1001.0f : 1.0f) * ((beta == 0.0f) ? alpha*acc : alpha*acc + beta*C[idx]);")
gemm_kernel_mutant(exact_last_term_dropped ${naive} "for (int k = 0; k < K; k++)" "for (int k = 0; k < K - 1; k++)")
gemm_kernel_mutant(exact_async_copy_ignores_ab kernel10_async_copy/async_copy.cl
                   "C[idx] = (beta == 0.0f) ? alpha*acc[wm][wn] : alpha*acc[wm][wn] + beta*C[idx];"
                   "C[idx] = (beta == 0.0f) ? 0.0f : beta*C[idx];")
set(MUTANTS ${CMAKE_CURRENT_BINARY_DIR}/mutants)
set(exact_fail "exact +FAIL: [0-9]+ of [0-9]+ elements differ from the exact answer")
gemm_expect_robust(fails.exact.ignores_ab.64x64x65536 1 "${exact_fail}.*first at \\(row 0, col 0\\)" ${N1} -m 64
                   -n 64 -k 65536 --alpha 1e-7 --beta 1 ${quick} --kernel-file ${MUTANTS}/exact_ignores_ab.cl)
gemm_expect_robust(fails.exact.ignores_ab.8x8x4000000 1 "${exact_fail}" ${N1} -m 8 -n 8 -k 4000000 --alpha 1e-7
                   --beta 1 ${quick} --kernel-file ${MUTANTS}/exact_ignores_ab.cl)
gemm_expect_robust(fails.exact.step10_ignores_ab.64x64x65536 1 "${exact_fail}" kernel10_async_copy -m 64 -n 64
                   -k 65536 --alpha 1e-7 --beta 1 -D SLICES=1 ${quick}
                   --kernel-file ${MUTANTS}/exact_async_copy_ignores_ab.cl)
gemm_expect_robust(fails.exact.scaled.16x16x262144 1 "${exact_fail}" ${N1} -m 16 -n 16 -k 262144 ${quick}
                   --kernel-file ${MUTANTS}/exact_scaled.cl)
gemm_expect_robust(fails.exact.one_element_off.64x64x2048 1 "exact +FAIL: 1 of 4096 elements.*\\(row 63, col 63\\)"
                   ${N1} -m 64 -n 64 -k 2048 --beta -0.5 ${quick} --kernel-file ${MUTANTS}/exact_one_element_off.cl)
# The last term dropped fails on every seed alike: at K = 3999985 A's rows are sparse with stride 2,
# so the last term of K (an even k) is a nonzero integer in each even row, times a nonzero element
# of B, and 32 of the 64 elements differ whatever the data (seeds 1 to 8 all gave exactly that, when
# each had a test of its own): two seeds are kept, and they require those 32
foreach(seed 1 2)
  gemm_expect_robust(fails.exact.last_term_dropped.8x8x3999985.seed${seed} 1
                     "exact +FAIL: 32 of 64 elements differ from the exact answer" ${N1} -m 8 -n 8
                     -k 3999985 --seed ${seed} ${quick} --kernel-file ${MUTANTS}/exact_last_term_dropped.cl)
endforeach()
# --no-exact leaves the exact check out (Oclgrind's clean runs use it): the scaled result then passes
gemm_expect_robust(passes.no_exact.scaled.16x16x262144 0 "check +PASS" ${N1} -m 16 -n 16 -k 262144 --no-exact ${quick}
                   --kernel-file ${MUTANTS}/exact_scaled.cl)
# ... while correct kernels pass at the same K (the bound is not merely tight)
gemm_expect_robust(passes.large_k.4x4x4000000 0 "check +PASS: all 16 elements" ${N1} -m 4 -n 4 -k 4000000 ${quick})
gemm_expect_robust(passes.large_k_beta.4x4x1000000 0 "check +PASS: all 16 elements" ${N1} -m 4 -n 4 -k 1000000
                   --alpha -1.5 --beta 0.25 ${quick})
gemm_expect_robust(passes.large_k_tiled.16x16x1000000 0 "check +PASS: all 256 elements" ${T2} -m 16 -n 16 -k 1000000
                   -D TS=16 ${quick})

# --- 2. Out-of-bounds writes and accesses ---------------------------------------------------------
# Guards of at least a row and 64 KiB (16384 floats) around every buffer, on every device: a
# write at any distance within them fails the run and says where. out_of_bounds_at.cl touches
# buffer OOB_BUFFER (0 A, 1 B, 2 C) at OOB_DISTANCE (-d: d before the start; +d: d past the end).
set(small -m 64 -n 48 -k 80 ${quick})
# oob_where(<out> <distance>): how the report names that element, as a regex
function(oob_where out distance)
  if(distance LESS 0)
    math(EXPR before "0 - ${distance}")
    set(${out} "at index ${distance} \\(${before} before its start\\)" PARENT_SCOPE)
  else()
    set(${out} "at index [0-9]+ \\(${distance} past the end of its" PARENT_SCOPE)
  endif()
endfunction()
foreach(case "C:2:128" "C:2:300" "C:2:2000" "C:2:16384" "C:2:-129" "C:2:-300" "C:2:-16384" "A:0:-300" "A:0:2000"
             "B:1:300" "B:1:-2000")
  string(REPLACE ":" ";" v ${case})
  list(GET v 0 buffer)
  list(GET v 1 id)
  list(GET v 2 distance)
  oob_where(where ${distance})
  gemm_expect_robust(fails.write_outside.${buffer}.${distance} 1
                     "out-of-bounds write: 1 guard element\\(s\\) of ${buffer} changed, the first ${where}" ${N1} ${small}
                     --kernel-file ${KERNELS}/out_of_bounds_at.cl)
  set_tests_properties(fails.write_outside.${buffer}.${distance} PROPERTIES
                       ENVIRONMENT "GEMM_CL_OPTIONS=-D OOB_BUFFER=${id} -D OOB_DISTANCE=${distance}")
endforeach()
# A row longer than 16384 floats makes the guard a whole row: with N = 20000, a write 19999 floats
# past the end of C (the last element of a row more) is still a guard write, named as one
gemm_expect_robust(fails.write_outside.C.row_past_end 1
                   "out-of-bounds write: 1 guard element\\(s\\) of C changed, the first at index [0-9]+ \\(19999 past the end of its"
                   ${N1} -m 2 -n 20000 -k 16 ${quick} --kernel-file ${KERNELS}/out_of_bounds_at.cl)
set_tests_properties(fails.write_outside.C.row_past_end PROPERTIES
                     ENVIRONMENT "GEMM_CL_OPTIONS=-D OOB_BUFFER=2 -D OOB_DISTANCE=19999")
# Beyond the guards, where buffers are host memory (PoCL): 16 GiB of inaccessible pages on each side,
# as far as a 32-bit index reaches, so that any read or write there faults: one line, exit 1.
# 16 GiB on each side (2^32 floats, as far as an unsigned 32-bit index reaches), and the buffer
# named is the nearest one: 3e9 floats past C was once named "B ... before its start"
foreach(case "C:2:16385" "C:2:1000000" "C:2:-16385" "C:2:-1000000" "C:2:1073741824" "C:2:3000000000"
             "C:2:-3000000000" "A:0:-16385" "B:1:400000" "read.A:0:-20000" "read.B:1:20000" "read.C:2:-2000000000")
  string(REPLACE ":" ";" v ${case})
  list(GET v 0 buffer)
  list(GET v 1 id)
  list(GET v 2 distance)
  set(options "-D OOB_BUFFER=${id} -D OOB_DISTANCE=${distance}")
  if(buffer MATCHES "^read\\.")
    string(APPEND options " -D OOB_READ")
    string(REPLACE "read." "" buffer ${buffer})
  endif()
  oob_where(where ${distance})
  gemm_robust(fails.access_beyond_guard.${case} pocl --
              1 "out-of-bounds access: a kernel read or wrote ${buffer} ${where}.*inaccessible pages" ${N1} ${small}
              --platform Portable --kernel-file ${KERNELS}/out_of_bounds_at.cl)
  set_tests_properties(fails.access_beyond_guard.${case} PROPERTIES ENVIRONMENT "GEMM_CL_OPTIONS=${options}")
endforeach()

# Farther away, or through a null pointer, or any other fatal signal while a kernel runs: one line
# naming the kernel and what the signal usually means, exit 3 (each was a bare SIGSEGV or SIGILL)
set(crashed "error: the program crashed with")
foreach(case "far_index:2:68719476736" "far_before:2:-68719476736" "index_2_40:2:1099511627776")
  string(REPLACE ":" ";" v ${case})
  list(GET v 0 what)
  list(GET v 1 id)
  list(GET v 2 distance)
  gemm_robust(fails.crash.${what} pocl --
              3 "${crashed} SIGSEGV while kernel 'sgemm' \\(sgemm\\) in timed run 1 of 1 ran: a read or write at (address 0x[0-9a-f]+, outside every buffer|an address no pointer may hold)"
              ${N1} ${small} --platform Portable --kernel-file ${KERNELS}/out_of_bounds_at.cl)
  set_tests_properties(fails.crash.${what} PROPERTIES
                       ENVIRONMENT "GEMM_CL_OPTIONS=-D OOB_BUFFER=${id} -D OOB_DISTANCE=${distance}")
endforeach()
foreach(case "null_write@OOB_NULL@SIGSEGV while kernel 'sgemm' \\(sgemm\\) in timed run 1 of 1 ran: a read or write at address 0x0, through a null pointer"
             "illegal_instruction@OOB_TRAP@SIGILL while kernel 'sgemm' \\(sgemm\\) in timed run 1 of 1 ran: an illegal instruction")
  string(REPLACE "@" ";" v "${case}")
  list(GET v 0 what)
  list(GET v 1 define)
  list(GET v 2 line)
  gemm_robust(fails.crash.${what} pocl -- 3 "${crashed} ${line}" ${N1} ${small} --platform Portable
              --kernel-file ${KERNELS}/out_of_bounds_at.cl)
  set_tests_properties(fails.crash.${what} PROPERTIES ENVIRONMENT "GEMM_CL_OPTIONS=-D ${define}")
endforeach()
# Under an address-space limit the inaccessible pages shrink to 64 KiB: the report says how far
# they reach and that a stray access farther away is not caught (it once said "an access faults").
# Two PoCL threads, so that the driver's share of the limit is the same on every machine.
gemm_robust(memory.ulimit_guards_reach ulimit-pocl 2000000 --
            0 "guards +at least 16384 floats .*beyond them only 64 KiB of inaccessible pages \\(16384 floats. an address-space limit is in force\\): an access there faults, one farther away may land in other memory and is not caught"
            ${N1} ${small})
set_property(TEST memory.ulimit_guards_reach APPEND PROPERTY ENVIRONMENT POCL_MAX_PTHREAD_COUNT=2)

# --- 2b. A kernel that never ends: the watchdog --------------------------------------------------
# --timeout 2: exit 3 and the line naming the kernel and the limit, within seconds, and no process
# or thread of the run left (_exit() ends the driver's threads too); on a terminal the progress line
# is erased before the line. (--timeout was unknown before, exit 2; without it the run never ends.)
set(endless --platform Portable --kernel-file ${KERNELS}/endless_loop.cl --timeout 2)
set(did_not_finish "did not finish within 2 s \\(--timeout 2\\): an endless loop\\?")
set(in_the_run "error: kernel 'sgemm' \\(sgemm\\) in timed run 1 of 1 ${did_not_finish}")
gemm_robust(fails.timeout.endless_loop session 20 -- 3 "${in_the_run}" ${N1} ${small} ${endless})
gemm_robust(fails.timeout.endless_loop_terminal terminal -- 3 "kernel01_naive: ${in_the_run}" ${N1} ${small}
            ${endless})
# ... in the exact check's run too (the loop spins only on its integer data: the run before passes,
# its first launch's compilation included, within 5 s on a loaded machine)
gemm_robust(fails.timeout.exact_check session 30 --
            3 "error: kernel 'sgemm' \\(sgemm\\) in the exact check's run did not finish within 5 s" ${N1} ${small}
            --platform Portable --kernel-file ${KERNELS}/endless_loop.cl --timeout 5)
set_tests_properties(fails.timeout.exact_check PROPERTIES ENVIRONMENT "GEMM_CL_OPTIONS=-D ONLY_ON_INTEGERS")
# ... and in the precision check's, after the exact check's (the loop spins only on its data)
gemm_robust(fails.timeout.precision_check session 30 --
            3 "error: kernel 'sgemm' \\(sgemm\\) in the precision check's run did not finish within 5 s" ${N1} ${small}
            --platform Portable --kernel-file ${KERNELS}/endless_loop.cl --timeout 5)
set_tests_properties(fails.timeout.precision_check PROPERTIES ENVIRONMENT "GEMM_CL_OPTIONS=-D ONLY_ON_PRECISION")
# A kernel that takes far longer to compile than the limit: PoCL compiles it at its first launch
# (here the warm-up run), with the command submitted but not running; the line says the time went
# to compiling, not that the kernel loops. A cache of PoCL's own, emptied first, so that the kernel
# is compiled afresh (on a GPU the compiler runs before the first launch: skipped there).
add_test(NAME fails.timeout.compiling
         COMMAND sh -c [[rm -rf "$0" && mkdir -p "$0" && POCL_CACHE_DIR="$0" exec "$@"]] ${CMAKE_CURRENT_BINARY_DIR}/pocl-cache-compiling
                 ${CMAKE_CURRENT_SOURCE_DIR}/on_platform.sh "Portable Computing Language" "a driver that compiles a kernel at its first launch" 3
                 "error: kernel 'sgemm' \\(sgemm\\) in warm-up run 1 of 1 did not finish within 2 s \\(--timeout 2\\): the time went to compiling, not to running: kernel 'sgemm' had not started, every command before it done"
                 $<TARGET_FILE:${N1}> --size 32 --warmup 1 --repeat 1 --kernel-file ${KERNELS}/slow_to_compile.cl --timeout 2)
set_tests_properties(fails.timeout.compiling PROPERTIES LABELS "expect;robustness" TIMEOUT 60 SKIP_RETURN_CODE 77)
# With no warm-up run, the report says that the first timed run's time includes compiling the kernels
# after the first where a driver compiles at a kernel's first launch (PoCL: step 6 spent 0.35 s there
# on a 64^3 problem whose kernels take 0.2 ms); with a warm-up run, or one kernel, no compilation is timed
set(first_launch "no warm-up run: where a driver compiles a kernel at its first launch, as PoCL does, the first timed run's time includes compiling every kernel after the first")
gemm_expect_robust(timing.warmup_0_says_compilation 0 "timing +0 warm-up \\+ 1 timed run. .*${first_launch}"
                   kernel06_padding --size 64 --warmup 0 --repeat 1)
gemm_expect_robust(timing.warmup_1_no_compilation 0 "timing +1 warm-up \\+ 1 timed run. .*no transfers, no compilation\\)"
                   kernel06_padding --size 64 --warmup 1 --repeat 1)
gemm_expect_robust(timing.one_kernel_no_compilation 0 "timing +0 warm-up \\+ 1 timed run. .*no transfers, no compilation\\)"
                   ${N1} --size 64 --warmup 0 --repeat 1)
# The default, from the problem's size (harness.watchdog tests the formula), in --help
gemm_expect_robust(cli.help_timeout 0
                   "--timeout SECONDS +a run's kernels must end within SECONDS, else exit 3.[^[:print:]] +0: none. default: 30 s \\+ 2\\*M\\*N\\*K flops at 0\\.05 GFLOPS.*crash \\(SIGSEGV, SIGBUS, SIGFPE, SIGILL\\)"
                   ${N1} --help)
gemm_expect_robust(bad.timeout_negative 2 "--timeout expects seconds from 0 \\(no limit\\) to 31536000, got '-1'" ${N1}
                   --timeout -1)
gemm_expect_robust(passes.timeout_off 0 "check +PASS" ${N1} ${small} --timeout 0)
# ... and refused where nothing waits on an OpenCL queue: peak, the host peers
gemm_expect_robust(bad.timeout_peak 2 "--brief and --timeout do not apply" peak --timeout 5)
if(TARGET peer_cpublas)
  gemm_expect_robust(bad.timeout_cpu_peer 2 "--timeout does not apply to cpu_blas, which makes no OpenCL run"
                     peer_cpublas --size 64 --timeout 5)
endif()

# --- 3. A kernel file must be a regular file: refused at once, never a wait ----------------------
gemm_robust(bad.kernel_file_fifo fifo -- 2 "kernel file '.*kernel.cl' is a FIFO \\(named pipe\\), not a regular file"
            ${T2} --size 64)
gemm_robust(bad.kernel_file_socket socket -- 2 "kernel file '.*kernel.cl' is a socket, not a regular file" ${T2}
            --size 64)
gemm_expect_robust(bad.kernel_file_device 2 "kernel file '/dev/zero' is a character device, not a regular file" ${T2}
                   --size 64 --kernel-file /dev/zero)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/empty.cl "")
gemm_expect_robust(bad.kernel_file_empty_regular 2 "kernel file '.*empty.cl' is empty or not text" ${T2} --size 64
                   --kernel-file ${CMAKE_CURRENT_BINARY_DIR}/empty.cl)

# --- 4. Memory that is short: one line and exit 2 (or a stated sample), never a hang or an abort ---
set(big -m 8192 -n 8192 -k 32 ${quick})
# Far too little address space for anything: refused before the OpenCL driver and the BLAS load
gemm_robust(memory.ulimit_100MB ulimit 100000 -- 2 "not enough memory for 8192x8192x32: .*RLIMIT_AS \\(ulimit -v\\) allows 0\\.10 GiB"
            ${T2} ${big})
gemm_robust(memory.ulimit_150MB_list ulimit 150000 -- 2 "not enough address space to load the OpenCL driver.*RLIMIT_AS"
            ${T2} --list-devices)
gemm_robust(memory.ulimit_150MB_small ulimit 150000 -- 2 "not enough memory for 64x64x64: .*RLIMIT_AS" ${T2}
            --size 64 ${quick})
gemm_robust(memory.prlimit_as prlimit --as=300000000 -- 2 "not enough memory for 8192x8192x32: .*RLIMIT_AS" ${T2}
            ${big})
gemm_robust(memory.prlimit_data prlimit --data=60000000 -- 2 "RLIMIT_DATA \\(ulimit -d\\) allows 0\\.06 GiB" ${T2}
            ${big})
gemm_robust(memory.prlimit_data_small prlimit --data=60000000 -- 2 "RLIMIT_DATA \\(ulimit -d\\)" ${T2} --size 64
            ${quick})
# The issue's values: each ends with a PASS (of the whole result, or of a stated sample) or one line
# and exit 2 or 3, whatever the machine's core count makes PoCL need
foreach(kb 300000 1000000 1500000 2000000 2500000)
  gemm_robust(memory.ulimit_${kb}KB limited ${kb} -- 0 "not enough (memory|address space)|could be loaded|driver aborted"
              ${T2} ${big})
endforeach()
gemm_robust(memory.ulimit_small_sizes limited 700000 -- 0 "not enough (memory|address space)|could be loaded|driver aborted"
            ${T2} --size 64 ${quick})
# A memory cgroup of 1.5 GiB: the full reference (1 GiB more) does not fit, a sample does
gemm_robust(memory.cgroup_1536MB cgroup 1610612736 --
            0 "check +PASS: the 1044480 sampled elements of 67108864 within tolerance.*exact +PASS: all 67108864 elements.*sample: the reference covers 1044480 of the 67108864 elements \\(a full reference needs 1\\.00 GiB more than the memory cgroup"
            ${T2} ${big})
# ... and there an element outside the sample, 1001 times too large, fails the exact check, which
# covers every element (naive.cl with one wrong element, at (1, 1): a mutant made above)
gemm_robust(memory.cgroup_1536MB_exact cgroup 1610612736 --
            1 "check +element-wise: the 1044480 sampled elements of 67108864 within tolerance.*exact +FAIL: 1 of 67108864 elements differ.*first at \\(row 1, col 1\\)"
            kernel01_naive ${big} -D TS=16 --kernel-file ${MUTANTS}/exact_off_the_sample.cl)
# ... and one of 512 MiB is too small even for that: refused before allocating
gemm_robust(memory.cgroup_512MB cgroup 536870912 -- 2 "not enough memory for 8192x8192x32: .*but the memory cgroup \\(limit 0\\.50 GiB"
            ${T2} ${big})
# The CPU BLAS peer is checked the same way
if(TARGET peer_cpublas)
  gemm_robust(memory.ulimit_cpu_peer ulimit 200000 -- 2 "not enough memory for 8192x8192x32: .*RLIMIT_AS" peer_cpublas
              ${big})
endif()
# Too long for a full reference: above 2^40 multiply-adds, a sample (unverified here: the run
# itself would take hours on a CPU; the unit test harness.memory checks the decision)

# --- 5. alpha and beta that leave float's range: refused, both ends ------------------------------
gemm_expect_robust(bad.alpha_overflow 2 "alpha=3e\\+38 and beta=0 could overflow float at K=64" ${T2} --size 64
                   --alpha 3e38)
gemm_expect_robust(bad.alpha_overflow_k 2 "could overflow float at K=128: \\|alpha\\|\\*K \\+ \\|beta\\| = 2\\.56e\\+38" ${N1}
                   -m 8 -n 8 -k 128 --alpha 2e36 --beta 0.5 ${quick}) # 2.56e38 > FLT_MAX/2
# ... also where K is the device's default size, known only once the device is (an -m and -n alone:
# without the second check, the run went on)
gemm_expect_robust(bad.alpha_overflow_default_k 2 "alpha=2e\\+35 and beta=0 could overflow float at K=(1024|4096)" ${N1}
                   -m 8 -n 8 --alpha 2e35 ${quick})
gemm_expect_robust(bad.alpha_subnormal 2 "alpha=1e-44 is too small to check.*2\\^-80" ${T2} --size 64 --alpha 1e-44)
gemm_expect_robust(bad.beta_subnormal 2 "beta=1e-44 is too small to check.*2\\^-103" ${T2} --size 64 --alpha 0 --beta 1e-44)
gemm_expect_robust(bad.alpha_below_normal 2 "alpha=1e-30 is too small to check" ${T2} --size 64 --alpha 1e-30)
gemm_expect_robust(passes.alpha_large 0 "check +PASS" ${N1} -m 8 -n 8 -k 80 --alpha 1e36 ${quick})
gemm_expect_robust(passes.alpha_small 0 "check +PASS" ${N1} -m 8 -n 8 -k 80 --alpha 1e-24 --beta 1e-30 ${quick})
gemm_expect_robust(passes.beta_small 0 "check +PASS" ${N1} -m 8 -n 8 -k 80 --alpha 0 --beta 1e-31 ${quick})
if(TARGET peer_cpublas)
  gemm_expect_robust(bad.cpu_peer_alpha_overflow 2 "alpha=3e\\+38 and beta=0 could overflow float" peer_cpublas --size 64
                     --alpha 3e38)
  gemm_expect_robust(bad.cpu_peer_alpha_subnormal 2 "alpha=1e-44 is too small to check" peer_cpublas --size 64 --alpha 1e-44)
endif()

# --- 6. Output that cannot be written: exit 3 and one line ---------------------------------------
set(cannot_write "error: cannot write the output to standard output: No space left on device")
set(closed "error: standard output is closed: the output would be lost")
foreach(case "report:--size;32;--repeat;1;--warmup;0" "csv:--size;32;--repeat;1;--warmup;0;--csv" "help:--help"
             "version:--version" "list_devices:--list-devices")
  string(FIND "${case}" ":" colon)
  string(SUBSTRING "${case}" 0 ${colon} what)
  math(EXPR colon "${colon} + 1")
  string(SUBSTRING "${case}" ${colon} -1 args)
  gemm_robust(output.full.${what} output full -- 3 "${cannot_write}" ${T2} ${args})
  gemm_robust(output.closed.${what} output closed -- 3 "${closed}" ${T2} ${args})
endforeach()
if(TARGET peer_cpublas)
  gemm_robust(output.full.cpu_peer output full -- 3 "${cannot_write}" peer_cpublas --size 32 ${quick})
endif()
gemm_robust(output.full.peak output full -- 3 "${cannot_write}" peak --list-devices)

# --- 6b. The output formats a student uses: --brief, and --csv's header -------------------------
# --brief: one line and nothing else (no head, no explanatory lines, no second error line), on a
# pass, on a wrong element (where it is, got and expected), on a write into a guard, unverified
# (a regex here matches the line's semicolons with `.`: CMake would take them for list separators)
set(brief "M=64 N=48 K=80 TS=16: [0-9.]+ GFLOPS. error/bound [0-9.e+-]+ \\(worst element\\), [0-9.e+-]+ \\(normwise\\)")
# ... and where the kernels come from a --kernel-file, the line names it (a student's kernel and the
# step's own must not read alike), as the CSV's last column does
macro(brief_file file)
  set(brief_from "M=64 N=48 K=80 TS=16 \\(kernel file [^[:cntrl:]]*/${file}\\): [0-9.]+ GFLOPS. error/bound [0-9.e+-]+ \\(worst element\\), [0-9.e+-]+ \\(normwise\\)")
endmacro()
set(one_line "[[:space:]]*$") # (the end of the output: the regex starts with ^, no line break before)
set(brief_args -m 64 -n 48 -k 80 -D TS=16 ${quick} --brief)
gemm_expect_robust(output.brief.pass 0 "^PASS ${N1} ${brief}${one_line}" ${N1} ${brief_args})
brief_file(small_error.cl)
gemm_expect_robust(output.brief.fail 1
                   "^FAIL ${N1} ${brief_from}. 1 of 3072 elements wrong, the first at \\(row 63, col 47\\): got 0\\.340[0-9]*, expected 0\\.338[0-9]*${one_line}"
                   ${N1} ${brief_args} --kernel-file ${KERNELS}/small_error.cl)
gemm_expect_robust(output.brief.nan 1
                   "^FAIL ${N1} M=64 N=48 K=80 TS=16 \\(kernel file [^[:cntrl:]]*/unwritten_element.cl\\): [^[:cntrl:]]*. 1 of 3072 elements wrong \\(1 NaN/Inf\\), the first at \\(row 32, col 16\\): got nan, expected [0-9.e+-]+${one_line}"
                   ${N1} ${brief_args} --kernel-file ${KERNELS}/unwritten_element.cl)
brief_file(write_before_start.cl)
gemm_expect_robust(output.brief.guard 1
                   "^FAIL ${N1} ${brief_from}. out-of-bounds write: 1 guard element\\(s\\) of C changed, the first at index -1 [^[:cntrl:]]*${one_line}"
                   ${N1} ${brief_args} --kernel-file ${KERNELS}/write_before_start.cl)
gemm_expect_robust(output.brief.unverified 0 "^UNVERIFIED ${N1} M=64 N=48 K=80 TS=16: [0-9.]+ GFLOPS. not verified \\(--no-verify\\)${one_line}"
                   ${N1} ${brief_args} --no-verify)
# ... with the time of each kernel where a step runs several
gemm_expect_robust(output.brief.parts 0
                   "^PASS kernel06_padding M=100 N=50 K=77 [^:]*: [0-9.]+ GFLOPS \\(transpose\\+pad A [0-9.]+ ms, pad B [0-9.]+ ms, sgemm [0-9.]+ ms, unpad C [0-9.]+ ms\\). error/bound [^[:cntrl:]]*${one_line}"
                   kernel06_padding -m 100 -n 50 -k 77 ${quick} --brief)
# ... and a refusal is its one error line, as without --brief
gemm_expect_robust(output.brief.refused 2 "^${N1}: error: [^[:cntrl:]]*TS=0[^[:cntrl:]]*${one_line}" ${N1} ${brief_args} -D TS=0)
if(TARGET peer_cpublas)
  gemm_expect_robust(output.brief.cpu_peer 0
                     "^PASS cpu_blas M=32 N=32 K=32: [0-9.]+ GFLOPS. error/bound [0-9.e+-]+ \\(worst element\\), [0-9.e+-]+ \\(normwise\\)${one_line}"
                     peer_cpublas --size 32 ${quick} --brief)
endif()
gemm_expect_robust(bad.brief_with_csv 2 "--brief and --csv are two output formats: give one" ${N1} --brief --csv)
gemm_expect_robust(bad.brief_peak 2 "--kernel-file, --brief and --timeout do not apply" peak --brief)
gemm_expect_robust(bad.no_header_without_csv 2 "--no-header leaves out the header of the CSV output: it needs --csv"
                   ${N1} --no-header)
# --csv: one header for a loop of runs into one file, none added to a file that holds data or with
# --no-header; a pipe gets one per run, as before
set(csv_line "kernel01_naive,[^[:cntrl:]]*,PASS,[^[:cntrl:]]*[[:space:]]")
set(csv_args ${N1} ${GEMM_TEST_EXTRA} --size 16 ${quick} --csv)
gemm_robust(output.csv_header.loop_into_file csv-runs file 2 -- 0 "^step,platform,[^[:cntrl:]]*[[:space:]](${csv_line}){2}$"
            ${csv_args})
gemm_robust(output.csv_header.appended_to_data csv-runs append 2 -- 0 "^an earlier run[[:space:]](${csv_line}){2}$" ${csv_args})
gemm_robust(output.csv_header.pipe csv-runs pipe 2 -- 0 "^(step,platform,[^[:cntrl:]]*[[:space:]]${csv_line}){2}$" ${csv_args})
gemm_robust(output.csv_header.none_asked csv-runs file 2 -- 0 "^(${csv_line}){2}$" ${csv_args} --no-header)
gemm_robust(output.csv_header.none_asked_pipe csv-runs pipe 1 -- 0 "^${csv_line}$" ${csv_args} --no-header)
# ... and a kernel that prints (OpenCL's printf) neither costs the file its header nor puts its lines
# into the CSV: the header is decided before anything runs, and what the kernel prints goes to stderr
set(prints --kernel-file ${KERNELS}/prints.cl)
gemm_robust(output.csv_kernel_printf.file csv-runs file 2 -- 0 "^step,platform,[^[:cntrl:]]*[[:space:]](${csv_line}){2}$"
            ${csv_args} ${prints})
gemm_expect_robust(output.csv_kernel_printf.stderr 0 "hello from the kernel: M=16 N=16 K=16" ${csv_args} ${prints})
# The CSV's last column names the --kernel-file, empty for the step's own kernels
gemm_robust(output.csv_kernel_file csv-runs file 1 -- 0 "^step,[^[:cntrl:]]*,data,kernel_file[[:space:]]kernel01_naive,[^[:cntrl:]]*,PASS,spread,[^[:cntrl:]]*/tests/kernels/prints\\.cl[[:space:]]*$"
            ${csv_args} ${prints})
gemm_robust(output.csv_own_kernel csv-runs file 1 -- 0 "^step,[^[:cntrl:]]*[[:space:]]kernel01_naive,[^[:cntrl:]]*,PASS,spread,[[:space:]]*$"
            ${csv_args})
gemm_robust(output.csv_header.peak csv-runs file 2 -- 0
            "^platform,device,[^[:cntrl:]]*[[:space:]]([^[:cntrl:]]*,float[0-9]+,[^[:cntrl:]]*[[:space:]]){2}$"
            peak ${GEMM_TEST_EXTRA} --csv --fma-ms 2 --copy-mib 4 ${quick})

# --- 7. Device indices as --list-devices prints them; one platform registered twice; ambiguity ---
gemm_robust(devices.duplicate_icd_list icd dup -- 0 "platform 0: Portable.*device 0: .*reported 1 platform twice" ${N1}
            --list-devices)
gemm_robust(devices.duplicate_icd_no_platform_1 icd dup -- 2 "platform index 1 does not exist \\(there is 1" ${N1}
            --platform 1 --device 0 --size 16)
gemm_robust(devices.duplicate_icd_by_name icd dup -- 0 "check +PASS" ${N1} --platform Portable --size 16 ${quick})
# (the run must name the device --list-devices lists as 1: a PASS alone came as well from a step
# that checked the index and ran device 0)
gemm_robust(devices.two_platforms_index icd two -- 0 "device +@DEVICE1@ \\(.*check +PASS" ${N1} --platform 1 --device 1
            --size 16 ${quick})
gemm_robust(devices.two_platforms_wrong_platform icd two --
            2 "device 0 is on platform 0 \\(.*\\), not on platform 1 \\(.*\\): --device takes the index that --list-devices shows"
            ${N1} --platform 1 --device 0 --size 16)
gemm_robust(devices.ambiguous_platform icd two --
            2 "'o' matches 2 OpenCL platforms: 0 \\(.*\\), 1 \\(.*\\). choose one by its index" ${N1} --platform o --size 16)
gemm_robust(devices.ambiguous_device icd two --
            2 "'a' matches 2 OpenCL devices: 0 \\(.* on platform 0\\), 1 \\(.* on platform 1\\). choose one by its index"
            ${N1} --device a --size 16)
# A driver that fails to list its devices (here one of the two, made to by tests/fault_inject.c) is
# left out with a note: it must not stop a program that has another platform to run on
foreach(nth 1 2)
  gemm_robust(devices.two_platforms_one_fails_list.${nth} icd two --
              0 "note: 1 platform\\(s\\) or device\\(s\\) left out, .*platform '[^']+': clGetDeviceIDs failed: CL_OUT_OF_HOST_MEMORY"
              ${N1} --list-devices)
  gemm_robust(devices.two_platforms_one_fails_run.${nth} icd two -- 0 "left out, .*check +PASS" ${N1} --size 16 ${quick})
  set_tests_properties(devices.two_platforms_one_fails_list.${nth} devices.two_platforms_one_fails_run.${nth} PROPERTIES
                       ENVIRONMENT "GEMM_FAULT_SHIM=$<TARGET_FILE:fault_inject>;GEMM_FAULT_NAME=clGetDeviceIDs;GEMM_FAULT_AT=${nth}")
endforeach()
# ... where --platform chose it, its failure is the error (exit 3, the call named); where it chose the
# other, the run goes on there
gemm_robust(devices.chosen_platform_fails icd two -- 3 "platform 'Portable Computing Language': clGetDeviceIDs failed"
            ${N1} --platform Portable --size 16 ${quick})
gemm_robust(devices.other_platform_fails icd two -- 0 "platform 'Oclgrind': clGetDeviceIDs failed.*check +PASS"
            ${N1} --platform Portable --size 16 ${quick})
set_tests_properties(devices.chosen_platform_fails PROPERTIES
                     ENVIRONMENT "GEMM_FAULT_SHIM=$<TARGET_FILE:fault_inject>;GEMM_FAULT_PLATFORM=Portable")
set_tests_properties(devices.other_platform_fails PROPERTIES
                     ENVIRONMENT "GEMM_FAULT_SHIM=$<TARGET_FILE:fault_inject>;GEMM_FAULT_PLATFORM=Oclgrind")
# A driver whose profiling clock runs backwards (every command's end before its start, made so by
# tests/fault_inject.c): one line and exit 3, not a time of centuries reported as measured
gemm_robust(runtime.profiling_backwards fault -- 3 "the driver's profiling timestamps run backwards \\(a command ended [0-9.]+ ms before it started\\)"
            ${N1} --size 16 ${quick})
set_tests_properties(runtime.profiling_backwards PROPERTIES
                     ENVIRONMENT "GEMM_FAULT_SHIM=$<TARGET_FILE:fault_inject>;GEMM_FAULT_BACKWARDS=1")
# The vendor's name chooses NVIDIA's parameters: a driver that fails to give it leaves its device out
# (here PoCL's only one: exit 3 and the query named), not taken for another vendor's. The third
# clGetDeviceInfo is the first device's vendor (after its name's size and name); PoCL alone (icd dup)
gemm_robust(devices.vendor_query_fails icd dup --
            3 "a device of platform 'Portable Computing Language': clGetDeviceInfo\\(CL_DEVICE_VENDOR\\) failed"
            ${N1} --size 16 ${quick})
set_tests_properties(devices.vendor_query_fails PROPERTIES
                     ENVIRONMENT "GEMM_FAULT_SHIM=$<TARGET_FILE:fault_inject>;GEMM_FAULT_NAME=clGetDeviceInfo;GEMM_FAULT_AT=3")

# --- 8. The smaller points ------------------------------------------------------------------------
# an unusable PoCL cache directory is named, not reported as an empty build log
gemm_robust(runtime.pocl_cache_dir pocl --
            3 "PoCL cannot compile kernels: its cache directory '/dev/null' \\(POCL_CACHE_DIR\\) is not a writable directory"
            ${T2} --platform Portable --size 64)
set_tests_properties(runtime.pocl_cache_dir PROPERTIES ENVIRONMENT POCL_CACHE_DIR=/dev/null)
gemm_robust(runtime.pocl_cache_dir_missing pocl --
            3 "PoCL cannot start, its cache directory '/dev/null/kcache' \\(POCL_CACHE_DIR\\) cannot be created: Not a directory"
            ${T2} --platform Portable --size 64)
set_tests_properties(runtime.pocl_cache_dir_missing PROPERTIES ENVIRONMENT POCL_CACHE_DIR=/dev/null/kcache)
# a POCL_DEVICES that names no device is named, instead of "install PoCL"
gemm_robust(runtime.pocl_devices pocl -- 3 "POCL_DEVICES='bogus' names no device PoCL has" ${T2} --platform Portable
            --size 64)
set_tests_properties(runtime.pocl_devices PROPERTIES ENVIRONMENT POCL_DEVICES=bogus)
# GEMM_CL_OPTIONS too long for the build options: refused, not cut
string(REPEAT "-DX " 1200 long_options)
gemm_expect_robust(bad.cl_options_too_long 2 "GEMM_CL_OPTIONS is too long: it holds 4800 characters" ${T2} --size 64)
set_tests_properties(bad.cl_options_too_long PROPERTIES ENVIRONMENT "GEMM_CL_OPTIONS=${long_options}")
# ... and one that defines a parameter of the step again: it would reach the kernel unchecked
gemm_expect_robust(bad.cl_options_define_parameter 2 "GEMM_CL_OPTIONS defines TS, a parameter of this step: give it as -D TS=VALUE"
                   ${T2} --size 64)
set_tests_properties(bad.cl_options_define_parameter PROPERTIES ENVIRONMENT "GEMM_CL_OPTIONS=-cl-mad-enable -DTS=8")
# ... also with the name in quotes, which the OpenCL compiler takes as the same define (it once
# passed the check, and step 5 then reported TSK=16 while its kernel ran with TSK=32). Step 2 at 64,
# as above: a size every device's defaults take (step 5's NVIDIA tiles refuse 64 before the check)
gemm_expect_robust(bad.cl_options_define_quoted_parameter 2
                   "GEMM_CL_OPTIONS defines TS, a parameter of this step: give it as -D TS=VALUE"
                   ${T2} --size 64)
set_tests_properties(bad.cl_options_define_quoted_parameter PROPERTIES ENVIRONMENT "GEMM_CL_OPTIONS=-D\"TS\"=8")
# The build options are the -D defines alone, no -cl-std: PoCL 5.0 (Ubuntu 24.04's), given
# -cl-std=CL1.2, leaves wait_group_events() out of step 10's binary, which then does not load (every
# test of step 10 failed there; common/src/run/run_build.c, build_options()). The PoCL of CI does not
# show that, so the options themselves are checked: the defines and nothing else, up to the closing
# parenthesis (an option after them, -cl-std=CL1.2 appended, passed a check of their start alone), with
# no GEMM_CL_OPTIONS from the environment the tests run in.
gemm_expect_robust(build.options_are_the_defines 0
                   "OpenCL build log \\(options: -D TSM=[0-9]+ -D TSN=[0-9]+( -D [A-Z_]+=-?[0-9]+)*\\) -----"
                   kernel10_async_copy --size 64 --repeat 1 --warmup 0)
set_tests_properties(build.options_are_the_defines PROPERTIES ENVIRONMENT GEMM_BUILD_LOG=1
                     ENVIRONMENT_MODIFICATION "GEMM_CL_OPTIONS=unset:")
# white space in a value is refused everywhere (it always was in sizes)
gemm_expect_robust(bad.repeat_whitespace 2 "--repeat expects an integer from 1 to 1000000, got ' 2'" ${T2} --repeat " 2")
gemm_expect_robust(bad.warmup_whitespace 2 "--warmup expects an integer from 0 to 1000000, got '1 '" ${T2} --warmup "1 ")
gemm_expect_robust(bad.define_whitespace 2 "-D TS expects an integer value, got ' 16'" ${T2} -D "TS= 16")
gemm_expect_robust(bad.alpha_whitespace 2 "--alpha expects a number, got ' 1'" ${T2} --alpha " 1")
# a kernel whose signature is not the step's is refused like a wrong kernel name (exit 2)
gemm_expect_robust(bad.kernel_file_wrong_arg_count 2 "kernel 'sgemm' takes 3 arguments but kernel02_tiled passes 8" ${T2}
                   --size 64 --kernel-file ${KERNELS}/wrong_arg_count.cl)
gemm_expect_robust(bad.kernel_file_wrong_arg_type 2 "kernel 'sgemm' does not take what the step passes as argument 0 \\(an int\\)"
                   ${T2} --size 64 --kernel-file ${KERNELS}/wrong_arg_type.cl)
# the C1 control U+009B (CSI) in an argument does not reach the terminal
gemm_robust(bad.c1_control_character printf "--fa\\302\\233st" -- 2 "unknown option '--fa\\?st' \\(see --help\\)" ${T2})

# --- 9. OpenCL calls that fail: one clear line, exit 3, everything released ----------------------
# fault_inject.c, preloaded, makes the Nth OpenCL call of a run fail; fault_injection.py runs a
# program once as is to list its calls, then fails the first and the last call of each call site,
# one run each (README: "Faults"). Not built with the sanitizers (it is preloaded ahead of ASan's
# runtime), but the programs it is loaded into are: in the sanitized build LeakSanitizer checks
# every failed run's host memory too.
add_library(fault_inject MODULE fault_inject.c)
target_include_directories(fault_inject PRIVATE $<TARGET_PROPERTY:OpenCL::OpenCL,INTERFACE_INCLUDE_DIRECTORIES>)
target_compile_definitions(fault_inject PRIVATE CL_TARGET_OPENCL_VERSION=120)
target_compile_options(fault_inject PRIVATE -Wall -Wextra $<$<BOOL:${GEMM_WERROR}>:-Werror>)
target_link_libraries(fault_inject PRIVATE ${CMAKE_DL_LIBS})
set(FAULTS ${CMAKE_CURRENT_SOURCE_DIR}/fault_injection.py)
# gemm_faults(<step> <GEMM_FAULT_DISCRETE: 0 or 1> [fault_injection.py options] -- [args...])
function(gemm_faults step discrete)
  list(FIND ARGN "--" sep)
  list(SUBLIST ARGN 0 ${sep} opts)
  math(EXPR first "${sep} + 1")
  list(SUBLIST ARGN ${first} -1 args)
  add_test(NAME faults.${step} COMMAND ${Python3_EXECUTABLE} ${FAULTS} ${opts} $<TARGET_FILE:fault_inject>
                                        $<TARGET_FILE:${step}> ${GEMM_TEST_EXTRA} ${args})
  set_tests_properties(faults.${step} PROPERTIES LABELS robustness TIMEOUT 300
                       ENVIRONMENT GEMM_FAULT_DISCRETE=${discrete})
endfunction()
# Steps 6 to 10 share their host code: 65 x 60 x 70 pads A, B and C with the CPU's tiles, and SLICES=2
# SPLIT_ROWS=1 splits K in the last row of blocks (steps 9 and 10). One warm-up run and one timed
# run: the second run restores C and re-poisons the helpers first. beta = 0.5 restores C by a copy,
# beta = 0 by a fill; GEMM_FAULT_DISCRETE=1 takes a discrete GPU's path (buffers written from the
# host, no inaccessible pages around them), 0 the path of host memory (PoCL's own).
if(Python3_Interpreter_FOUND)
  set(fault_size -m 65 -n 60 -k 70 --repeat 1 --warmup 1 --defaults-for cpu)
  gemm_faults(${N1} 0 -- --size 64 --repeat 1 --warmup 1 --defaults-for cpu)
  gemm_faults(kernel06_padding 1 -- ${fault_size} --beta 0.5)
  gemm_faults(kernel09_split_k 0 -- ${fault_size} -D SLICES=2 -D SPLIT_ROWS=1 --beta 0.5)
  gemm_faults(kernel10_async_copy 1 -- ${fault_size} -D SLICES=2 -D SPLIT_ROWS=1)
  # CLBlast's own calls through the same loader, which the harness reports as CLBlastSgemm failing:
  # the first call of each site only (the last ones are the library's again, and its runs are slow
  # under the sanitizers)
  if(TARGET peer_clblast)
    gemm_faults(peer_clblast 0 --first --library libclblast:CLBlastSgemm -- -m 65 -n 60 -k 70 --repeat 1 --warmup 1)
  endif()
endif()
