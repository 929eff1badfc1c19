# A newcomer's first steps, tested (issue 14): the live progress line on a terminal and its absence
# elsewhere, the tour's exit code and header, the benchmark's plan, estimate and time guard, tables
# piped into head, the Oclgrind commands of the exercises, --help's columns, and the outputs the
# docs suggest writing kept out of git. Included from tests/CMakeLists.txt (gemm_expect and
# Python3 come from there). Every test here takes a few seconds at most.

set(NEWCOMER ${CMAKE_CURRENT_SOURCE_DIR}/newcomer.sh)

# Progress: head of the report first, then "NAME: timed run 1 of ..." on a pseudo-terminal; nothing on
# stderr without one (tests/newcomer.sh progress). Every kind of program: a step, the OpenCL
# library peer, the host peer, peak.
set(head "problem     C = alpha*A*B + beta*C")
set(small --size 64 --repeat 3 --warmup 1 ${GEMM_TEST_EXTRA})
add_test(NAME newcomer.progress.step COMMAND ${NEWCOMER} progress kernel01_naive "timed run 1 of " "${head}"
                                             "check       PASS" $<TARGET_FILE:kernel01_naive> ${small})
set(progress_tests newcomer.progress.step)
if(TARGET peer_clblast)
  add_test(NAME newcomer.progress.clblast COMMAND ${NEWCOMER} progress clblast "timed run 1 of " "${head}"
                                                  "check       PASS" $<TARGET_FILE:peer_clblast> ${small})
  list(APPEND progress_tests newcomer.progress.clblast)
endif()
if(TARGET peer_cpublas)
  add_test(NAME newcomer.progress.cpu_blas COMMAND ${NEWCOMER} progress cpu_blas "timed run 1 of " "${head}"
                                                   "check       PASS" $<TARGET_FILE:peer_cpublas> --size 64)
  list(APPEND progress_tests newcomer.progress.cpu_blas)
endif()
add_test(NAME newcomer.progress.peak COMMAND ${NEWCOMER} progress peak "fma_float4 (8 chains): timed run 1 of "
                                             "device      " "bandwidth   " $<TARGET_FILE:peak> --fma-ms 2
                                             --copy-mib 4 --repeat 1 --warmup 1 ${GEMM_TEST_EXTRA})
list(APPEND progress_tests newcomer.progress.peak)
set_tests_properties(${progress_tests} PROPERTIES LABELS newcomer TIMEOUT 120 SKIP_RETURN_CODE 77)

# --help: the parameter table's columns line up, long names (TRANSPOSE_TILE) included ([^[:print:]]
# is the line break: expect.sh's grep would take a newline in the pattern for two patterns)
gemm_expect(newcomer.help_columns 0
            "[^[:print:]]  TSM            1\\.\\.256  tile height[[:print:]]*[^[:print:]]                 default: .*[^[:print:]]  TRANSPOSE_TILE 1\\.\\.64   side[[:print:]]*[^[:print:]]                 default: "
            kernel06_padding --help)
set_tests_properties(newcomer.help_columns PROPERTIES LABELS "expect;newcomer")

# The Oclgrind commands of exercises 2.1, 4.2 and 7.1 (tests/oclgrind_check.sh --data-races): the
# first report on the terminal, the others counted, exit 6 (docs/exercises.md)
set(ASAN_UNDER_OCLGRIND "ASAN_OPTIONS=string_append::verify_asan_link_order=0") # as in tests/oclgrind.sh
set(X ${PROJECT_SOURCE_DIR}/docs/exercises)
add_test(NAME newcomer.oclgrind_check.exercise_2_1
         COMMAND ${NEWCOMER} oclgrind-check
                 "Read-write data race at local memory.*First entity.*At line [0-9]+ .*of input\\.cl.*Asub"
                 $<TARGET_FILE:kernel02_tiled> --kernel-file ${X}/step02_bug_1.cl --size 32 -D TS=16
                 --repeat 1 --warmup 0)
add_test(NAME newcomer.oclgrind_check.exercise_4_2
         COMMAND ${NEWCOMER} oclgrind-check "Read-write data race at local memory.*Kernel: transpose.*tile\\["
                 $<TARGET_FILE:kernel04_transpose> --kernel-file ${X}/step04_bug_2.cl --size 32
                 -D TSM=32 -D TSN=32 -D TSK=16 --repeat 1 --warmup 0)
add_test(NAME newcomer.oclgrind_check.exercise_7_1
         COMMAND ${NEWCOMER} oclgrind-check "Read-write data race at local memory.*Kernel: sgemm.*Asub"
                 $<TARGET_FILE:kernel07_double_buffering> --kernel-file ${X}/step07_bug.cl -m 32 -n 64
                 -k 48 -D TSM=32 -D TSN=64 -D TSK=16 -D WPTM=8 -D WPTN=8 -D WIDTH=8 --repeat 1 --warmup 0)
set_tests_properties(newcomer.oclgrind_check.exercise_2_1 newcomer.oclgrind_check.exercise_4_2
                     newcomer.oclgrind_check.exercise_7_1 PROPERTIES
                     LABELS "newcomer;oclgrind" TIMEOUT 120 SKIP_RETURN_CODE 77
                     ENVIRONMENT_MODIFICATION "${ASAN_UNDER_OCLGRIND}")

# What the docs suggest writing (bench.py --out results.csv, docs/results/my-device.csv) is ignored
add_test(NAME newcomer.outputs_ignored
         COMMAND ${NEWCOMER} ignored ${PROJECT_SOURCE_DIR} results.csv results.peak.csv results/sweep.csv
                 docs/results/my-device.csv docs/results/my-device.peak.csv docs/results/my-gpu.csv results-runs.csv)
set_tests_properties(newcomer.outputs_ignored PROPERTIES LABELS newcomer TIMEOUT 60 SKIP_RETURN_CODE 77)

# The benchmark's plan for a CPU and a GPU, its time guard and the tour (bench/test_bench.py), and
# table.py | head
if(Python3_Interpreter_FOUND)
  foreach(group plan pipe tour)
    add_test(NAME bench.${group}
             COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/bench/test_bench.py ${group} ${PROJECT_BINARY_DIR}
                     ${GEMM_TEST_EXTRA})
    set_tests_properties(bench.${group} PROPERTIES LABELS "bench;newcomer" TIMEOUT 120)
  endforeach()
endif()
