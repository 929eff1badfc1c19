/**
 * @file gemm_run.h
 * @brief Inside the runner: its phases, and the one struct they hand on.
 *
 * gemm_step_main() (`common/src/run/gemm_step.c`) is a table of contents: it calls the phases below
 * in this order, each a function in a file of `common/src/run/` named after what it does. Each phase
 * fills its own fields of #gemm_run (each field says which phase) and reads only those of the
 * phases before it. A phase returns 0 to go on, or an exit code (gemm_common.h) with one line in
 * gemm_run::msg; gemm_step_main() then prints that line, releases what the phases acquired
 * (gemm_run_release()) and returns the code. A step never sees this header: it sees gemm_step.h.
 * Nor does a service (the files of `common/src/` outside `run/`, the headers of `common/include`):
 * the runner uses the services, never the other way round (tests/harness_layers.py).
 */
#ifndef GEMM_RUN_H
#define GEMM_RUN_H

#include "gemm_report.h"
#include "gemm_step.h"
#include "gemm_verify.h"

/** @brief Longest build options (the -D defines and GEMM_CL_OPTIONS) the harness passes on. */
#define GEMM_BUILD_OPTIONS_MAX 4096

/** @brief Everything one run of a step hands from phase to phase; each field names its phase. */
typedef struct gemm_run {
    const gemm_step *step; /**< gemm_step_main(): the step (or library peer) being run */
    gemm_msg msg;          /**< any phase: the one line a failed phase leaves for the error report */

    gemm_options opt;  /**< 1, run_options(): the command line */
    int finished;      /**< 1, run_options(): 1 once nothing is left to do (--help, --list-devices, a bad option) */
    char *file_source; /**< 1, run_options(): the text of `--kernel-file`, or NULL for the step's own kernels */

    gemm_device_info dev; /**< 2, run_device(): the chosen device */

    gemm_defines params;   /**< 3, run_params(): every parameter of the step with its value (4 adds the plan's choices) */
    char params_text[256]; /**< 3, run_params(): the same as "NAME=VALUE ...", for the report and messages */
    gemm_problem prob;     /**< 3, run_params(): M, N, K, alpha, beta, the parameters and the device */
    int warmup;            /**< 3, run_params(): untimed runs */
    int repeat;            /**< 3, run_params(): timed runs */

    gemm_plan plan; /**< 4, run_plan(): the step's launches and helper buffers */

    size_t elems[GEMM_BUF_COUNT]; /**< 5, run_checks(): floats in each buffer: A, B, C, then the helpers (0: unused) */
    long sample;                  /**< 5, run_checks(): rows and columns of the reference when it is sampled, else 0 */
    char sample_why[256];         /**< 5, run_checks(): why it is sampled, or "" */

    gemm_cl cl;                          /**< 6, run_build(): context, queue, program */
    cl_kernel kernel[GEMM_MAX_LAUNCHES]; /**< 6, run_build(): one kernel per launch of the plan */
    size_t kernel_wg[GEMM_MAX_LAUNCHES]; /**< 6, run_build(): CL_KERNEL_WORK_GROUP_SIZE of each */

    gemm_host_data data;             /**< 7, run_data(): the random A, B and C */
    gemm_reference ref;              /**< 7, run_data(): the double-precision reference (unless `--no-verify`) */
    gemm_buffer buf[GEMM_BUF_COUNT]; /**< 7, run_data(): the device buffers, each with guard regions */
    cl_mem c_initial;                /**< 7, run_data(): C as it starts, restored before each run when beta != 0 */

    double *times;                   /**< 8, run_timed(): per timed run, the whole step, in ms */
    double *part[GEMM_MAX_LAUNCHES]; /**< 8, run_timed(): per timed run, each launch, in ms */
    float *result;                   /**< 8, run_timed(): C as read back after the last run */

    gemm_report rep; /**< the report: its head from run_report_head() after 5, the checks' verdicts
                          from 9, run_verify(), the times from 10, run_report(), which prints it */
} gemm_run;

/**
 * @brief 1. Options (`run_options.c`): the command line (gemm_options.h); `--help`, `--version`,
 * `--list-devices` and a bad option finish here (gemm_run::finished). Then the text of
 * `--kernel-file`, alpha and beta against K, and the host memory of the sizes given: what can be
 * checked before the OpenCL driver loads.
 */
int run_options(gemm_run *r, int argc, char **argv);
/** @brief 2. Device (`run_device.c`): the one `--platform` and `--device` name, else the first GPU, else the first device. */
int run_device(gemm_run *r);
/**
 * @brief 3. Parameters (`run_params.c`): the step's defaults for the device's class (gemm_params.h),
 * then the `-D` overrides, each in its range; the problem and the number of runs.
 */
int run_params(gemm_run *r);
/** @brief 4. Plan (`run_plan.c`): the step's launches and helper buffers for this problem, or its refusal. */
int run_plan(gemm_run *r);
/**
 * @brief 5. Checks (`run_checks.c`): every launch and buffer against the device's limits and the
 * kernels' 32-bit indices (gemm_check_plan()), and the host memory the run needs (gemm_memory.h).
 */
int run_checks(gemm_run *r);
/**
 * @brief After 5 (`run_report.c`): the head of the report (problem, device, parameters, runs),
 * printed before the long part, and the progress line started (gemm_progress.h).
 */
void run_report_head(gemm_run *r);
/**
 * @brief 6. Build (`run_build.c`): context and queue, the program built with the parameters as
 * `-D` defines (the build log printed if it fails), each kernel checked against its launch.
 */
int run_build(gemm_run *r);
/** @brief 7. Data (`run_data.c`): random A, B and C, the reference, the device buffers with guard regions. */
int run_data(gemm_run *r);
/**
 * @brief 8. Timed runs (`run_timed.c`): `--warmup` untimed then `--repeat` timed runs, each from a
 * fresh C (NaN when beta = 0) and helpers of NaN, timed by profiling events; then C read back.
 * Every wait on the device from here on must end within `--timeout` (gemm_watchdog.h), and a
 * crash names the kernel that ran (gemm_memory.h).
 */
int run_timed(gemm_run *r);
/** @brief 9. Verify (`run_verify.c`): the guard regions, the inputs unchanged, every element of C against the reference. */
int run_verify(gemm_run *r);
/** @brief 10. Report (`run_report.c`): the times, the checks, human-readable or CSV (gemm_report.h); the exit code. */
int run_report(gemm_run *r);

/**
 * @brief 9b. The exact check (`run_exact.c`): one more run on integer data whose answer every
 * correct kernel computes exactly (gemm_exact.h), compared element by element.
 */
int run_exact(gemm_run *r);

/**
 * @brief One run of @p plan for problem @p p (run_timed.c): with @p prepare, C restored (NaN when
 * beta = 0) and the helpers poisoned first; the step's device time in @p total and each launch's
 * in @p part_ms, in ms. Watched from the first command to the end of clFinish (gemm_watchdog.h),
 * where a line names the kernel and @p run ("timed run 2 of 3", "the exact check's run").
 */
int gemm_run_once(gemm_run *r, const gemm_problem *p, const gemm_plan *plan, int prepare, const char *run,
                  double *total, double *part_ms);

/**
 * @brief A blocking read of @p bytes of @p buf from @p offset into @p dst, watched like a run
 * (gemm_watchdog.h); @p what names the data in messages ("C"). 0, or #GEMM_EXIT_RUNTIME with
 * gemm_run::msg filled.
 */
int gemm_run_read(gemm_run *r, cl_mem buf, size_t offset, size_t bytes, void *dst, const char *what);

/** @brief Releases everything the phases acquired; safe after any of them. */
void gemm_run_release(gemm_run *r);

#endif /* GEMM_RUN_H */
