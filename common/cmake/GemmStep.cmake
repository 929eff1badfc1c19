# gemm_add_step(<name> KERNEL <file.cl> [TEST_SIZES MxNxK ...] [GPU_TEST_SIZES MxNxK ...]
#               [OCLGRIND_SIZE MxNxK] [RACE_TEST_SIZE MxNxK])
#
# Adds one step of the tutorial in one line: the executable <name> built from main.c in the
# current directory with <file.cl> embedded into it (so the binary runs from any directory),
# linked to the harness, and
#  - one CTest per test size and (alpha, beta) pair that runs it verified on the default device
#    (PoCL on a machine without a GPU, else the GPU; GEMM_TEST_ARGS may choose another), label
#    `verify`. Whether a size suits a step depends on its tiles, so every test pins its
#    parameters rather than take the device's: TEST_SIZES run with the CPU parameters
#    (--defaults-for cpu), GPU_TEST_SIZES with those tuned for NVIDIA GPUs (--defaults-for
#    nvidia-gpu, test names `.verify.nvidia-params.`) and with the generic GPU parameters, the
#    defaults of every other GPU (--defaults-for gpu, `.verify.gpu-params.`), so the three sets are
#    verified on every device, CI's PoCL included. Each size must be a multiple of the tiles of
#    its sets. The generic set fits a GPU of 256 work-items per work-group and 32 KiB of local
#    memory (common/src/gemm_params.c), so on any GPU at least it runs. A test whose
#    parameters exceed the device's limits (work-group size, local memory: the refusal names the
#    CL_DEVICE_* limit) is skipped, not failed, with the refusal line as the reason;
#  - with RACE_TEST_SIZE, one more at that size with each of the two GPU sets, run only where the
#    test device is a GPU (gemm_add_race_tests, below: a data race shows only there);
#  - two CTests (beta = 0 and beta != 0) that run it verified under Oclgrind with its checkers
#    for data races, uninitialized values, invalid accesses and API errors (tests/oclgrind.sh),
#    label `oclgrind`, at OCLGRIND_SIZE (default: the first TEST_SIZES entry), with the generic
#    GPU parameters (--defaults-for gpu: those of Oclgrind's simulated GPU), so that size must be
#    a multiple of their tiles too. Oclgrind simulates every work-item one by one: keep that size
#    small, a few tiles at most.
# GEMM_TEST_ARGS (the test device; not under Oclgrind, whose device is the only one it shows) come
# first on the command line: where an option is given twice the last one counts, so a test's own
# options (its pinned parameters, a device it selects) always win.

set(GEMM_EMBED_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/embed_file.cmake)

# gemm_embed_file(<out_var> <input> <symbol>): generates a .c file defining
# `const char <symbol>[]` with the bytes of <input>; regenerated when the input changes.
function(gemm_embed_file out_var input symbol)
  get_filename_component(base ${input} NAME)
  set(output ${CMAKE_CURRENT_BINARY_DIR}/embedded_${base}.c)
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DINPUT=${input} -DOUTPUT=${output} -DSYMBOL=${symbol} -P ${GEMM_EMBED_SCRIPT}
    DEPENDS ${input} ${GEMM_EMBED_SCRIPT}
    COMMENT "Embedding ${base}"
    VERBATIM)
  set(${out_var} ${output} PARENT_SCOPE)
endfunction()

# The (alpha, beta) pairs every step is verified with: plain product, scaled with accumulation,
# negative alpha with a negative fractional beta (a kernel that applies beta only where it is
# positive, `beta <= 0.0f` for `beta == 0.0f`, passed every test while the third beta was 0.25).
set(GEMM_TEST_SCALARS "1:0" "0.5:2" "-1.5:-0.25")

# What a step prints when parameters exceed a limit of the device, or need an instruction it does
# not have (step 10's cp.async): the verification and exercise tests are skipped on it (their
# parameters do not fit this device), never passed
set(GEMM_DEVICE_LIMIT_REFUSAL
    "but this device (allows|has) [0-9]+ \\(CL_DEVICE_|CL_KERNEL_WORK_GROUP_SIZE\\)|needs an NVIDIA GPU of compute capability 8\\.0 or higher")

# gemm_split_size(<MxNxK> <m> <n> <k>): the three sizes of "MxNxK" into the variables named.
macro(gemm_split_size size m_var n_var k_var)
  string(REPLACE "x" ";" _gemm_mnk ${size})
  list(GET _gemm_mnk 0 ${m_var})
  list(GET _gemm_mnk 1 ${n_var})
  list(GET _gemm_mnk 2 ${k_var})
endmacro()

# gemm_params_label(<var> <options>): "params-ROW" where the options pin a row of defaults
# (--defaults-for ROW), else nothing. Such a test runs the same whatever GEMM_DEFAULTS_FOR says, so
# CI's suites with another row (tests/run.sh --small-gpu, --nvidia-defaults) leave out the rows that
# would only repeat the first suite (.ci/run).
function(gemm_params_label out_var options)
  list(FIND options "--defaults-for" at)
  set(label "")
  if(at GREATER -1)
    math(EXPR at "${at} + 1")
    list(GET options ${at} row)
    set(label "params-${row}")
  endif()
  set(${out_var} ${label} PARENT_SCOPE)
endfunction()

# One verification test per (alpha, beta) pair for one size "MxNxK".
function(gemm_add_verify_tests name size suffix options)
  separate_arguments(extra UNIX_COMMAND "${GEMM_TEST_ARGS}")
  gemm_split_size(${size} m n k)
  gemm_params_label(params "${options}")
  foreach(pair IN LISTS GEMM_TEST_SCALARS)
    string(REPLACE ":" ";" ab ${pair})
    list(GET ab 0 alpha)
    list(GET ab 1 beta)
    set(test ${name}.verify${suffix}.${size}.alpha=${alpha},beta=${beta})
    add_test(NAME ${test}
             COMMAND ${name} ${extra} -m ${m} -n ${n} -k ${k} --alpha ${alpha} --beta ${beta} --repeat 1
                     --warmup 0 ${options})
    set_tests_properties(${test} PROPERTIES LABELS "verify;${name};${params}"
                         SKIP_REGULAR_EXPRESSION "${GEMM_DEVICE_LIMIT_REFUSAL}")
  endforeach()
endfunction()

# gemm_add_race_tests(<name> <MxNxK> <suffix> <options>): like gemm_add_verify_tests, with one
# (alpha, beta) pair that is not (1, 0), label `race`, through tests/on_gpu.sh: only where the test
# device is a GPU, else skipped with the reason. A barrier or a wait missing or misplaced between
# the work-items of a work-group (a data race in local memory) gives wrong results only where they
# run at the same time and their order varies: not on PoCL, which runs them one after another
# between barriers, and on a GPU only where a work-group walks many tiles (on the H100, step 10
# with its barrier after the next copy passed at 512 and 1024 and failed at 2048:
# lab/tuning/nvidia-h100-late-barrier-experiment.log). docs.geometry finds such races everywhere
# by reasoning; these tests check the compiled kernels on the reader's GPU.
function(gemm_add_race_tests name size suffix options)
  separate_arguments(extra UNIX_COMMAND "${GEMM_TEST_ARGS}")
  gemm_split_size(${size} m n k)
  gemm_params_label(params "${options}")
  set(test ${name}.race${suffix}.${size})
  add_test(NAME ${test}
           COMMAND ${PROJECT_SOURCE_DIR}/tests/on_gpu.sh "a data race in local memory shows only where work-items run at once"
                   $<TARGET_FILE:${name}> ${extra} -m ${m} -n ${n} -k ${k} --alpha -1.5 --beta 0.25 --repeat 3
                   --warmup 1 ${options})
  set_tests_properties(${test} PROPERTIES LABELS "verify;race;${name};${params}" SKIP_RETURN_CODE 77 TIMEOUT 120
                       SKIP_REGULAR_EXPRESSION "${GEMM_DEVICE_LIMIT_REFUSAL}")
endfunction()

# The steps, in the order they were added, one per line in <build>/gemm_steps.txt: the tour and
# the benchmark (bench/gemmrun.py) read it, so a new step needs no change there.
function(gemm_write_step_list)
  get_property(steps GLOBAL PROPERTY GEMM_STEPS)
  string(REPLACE ";" "\n" text "${steps}")
  file(CONFIGURE OUTPUT ${CMAKE_BINARY_DIR}/gemm_steps.txt CONTENT "${text}\n" @ONLY)
endfunction()

# DRAFT: a step being written in lab/ (its lesson not yet there): built and tested as the others,
# left out of gemm_steps.txt, so the tour and the benchmark do not run it.
function(gemm_add_step name)
  cmake_parse_arguments(ARG "DRAFT" "KERNEL;OCLGRIND_SIZE;RACE_TEST_SIZE" "TEST_SIZES;GPU_TEST_SIZES" ${ARGN})
  gemm_embed_file(embedded ${CMAKE_CURRENT_SOURCE_DIR}/${ARG_KERNEL} gemm_kernel_source)
  add_executable(${name} main.c ${embedded})
  target_link_libraries(${name} PRIVATE gemm_harness gemm_warnings)
  # the kernel file as the reader finds it from the source root: the build log's positions name it
  file(RELATIVE_PATH kernel_file ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/${ARG_KERNEL})
  target_compile_definitions(${name} PRIVATE GEMM_STEP_NAME="${name}" GEMM_KERNEL_FILE="${kernel_file}")
  if(NOT ARG_DRAFT)
    set_property(GLOBAL APPEND PROPERTY GEMM_STEPS ${name})
  endif()
  get_property(list_deferred GLOBAL PROPERTY GEMM_STEP_LIST_DEFERRED)
  if(NOT list_deferred) # written once, when the top-level CMakeLists.txt is done
    set_property(GLOBAL PROPERTY GEMM_STEP_LIST_DEFERRED TRUE)
    cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL gemm_write_step_list)
  endif()
  if(NOT BUILD_TESTING)
    return()
  endif()
  foreach(size IN LISTS ARG_TEST_SIZES)
    gemm_add_verify_tests(${name} ${size} "" "--defaults-for;cpu")
  endforeach()
  foreach(size IN LISTS ARG_GPU_TEST_SIZES)
    gemm_add_verify_tests(${name} ${size} ".nvidia-params" "--defaults-for;nvidia-gpu")
    gemm_add_verify_tests(${name} ${size} ".gpu-params" "--defaults-for;gpu")
  endforeach()
  if(ARG_RACE_TEST_SIZE)
    gemm_add_race_tests(${name} ${ARG_RACE_TEST_SIZE} ".nvidia-params" "--defaults-for;nvidia-gpu")
    gemm_add_race_tests(${name} ${ARG_RACE_TEST_SIZE} ".gpu-params" "--defaults-for;gpu")
  endif()
  # Under Oclgrind: no GEMM_TEST_ARGS (Oclgrind's simulated device is the only one it shows)
  set(size ${ARG_OCLGRIND_SIZE})
  if(NOT size AND NOT ARG_TEST_SIZES)
    message(FATAL_ERROR "gemm_add_step(${name}): give TEST_SIZES or OCLGRIND_SIZE (the size checked under Oclgrind)")
  elseif(NOT size)
    list(GET ARG_TEST_SIZES 0 size)
  endif()
  gemm_split_size(${size} m n k)
  foreach(beta 0 0.25)
    set(test ${name}.oclgrind.${size}.beta=${beta})
    add_test(NAME ${test}
             COMMAND ${PROJECT_SOURCE_DIR}/tests/oclgrind.sh clean $<TARGET_FILE:${name}> -m ${m} -n ${n} -k ${k}
                     --alpha -1.5 --beta ${beta} --repeat 1 --warmup 0 --defaults-for gpu)
    set_tests_properties(${test} PROPERTIES LABELS "oclgrind;${name}" SKIP_RETURN_CODE 77 TIMEOUT 120)
  endforeach()
endfunction()
