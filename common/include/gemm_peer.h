/**
 * @file gemm_peer.h
 * @brief The runner of the peers that call a library from the host: the CPU BLAS and cuBLAS.
 *
 * Such a peer cannot use gemm_step_main() (it has no OpenCL queue, buffers or events), but it
 * must treat the problem exactly like the steps: the same options, random data, warm-up and
 * timed runs, reference, check and report. gemm_host_peer_main() does all of that; the peer
 * supplies one function that runs its library on the data and hands back the times and the
 * result.
 */
#ifndef GEMM_PEER_H
#define GEMM_PEER_H

#include "gemm_options.h"
#include "gemm_progress.h"
#include "gemm_report.h"
#include "gemm_verify.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief A peer that calls a library from the host. */
typedef struct gemm_host_peer {
    const char *name;    /**< program and report name, e.g. "cpu_blas" */
    const char *summary; /**< one line for the report's title, e.g. "the CPU BLAS's cblas_sgemm on the host" */
    const char *help;    /**< for `--help`: what it runs, how it is timed, which options do not apply */
    const char *label;   /**< the timed call, e.g. "cblas_sgemm" */
    long default_size;   /**< M = N = K when not given */
    int default_repeat;  /**< timed runs when `--repeat` is not given */
    int default_warmup;  /**< untimed runs when `--warmup` is not given */
    /**
     * Refuses options (or an environment) that do not apply: one line in @p msg and
     * #GEMM_EXIT_BAD_INPUT; 0 to go on. Called before any data is made. May be NULL.
     */
    int (*check)(const gemm_options *opt, gemm_msg *msg);
    /**
     * Runs the library @p warmup + @p repeat times on @p data, restoring C before every run
     * outside the timed region (to @p data->c0; to NaN where the library allows, when beta = 0),
     * stores the timed runs' milliseconds in @p times_ms[0 .. repeat-1] and the last result
     * (m x n, row-major) in @p result, and fills @p rep's platform, device, driver, device_type
     * and timing (and may replace its summary). @return 0, or an exit code with @p msg filled.
     */
    int (*run)(const gemm_options *opt, const gemm_host_data *data, int warmup, int repeat, double *times_ms,
               float *result, gemm_report *rep, gemm_msg *msg);
    /**
     * Fills @p rep's platform, device, driver, device_type and timing before the runs, so that the
     * head of the report is printed before they start (gemm_report_announce()); run() then need
     * not fill them. NULL where they are known only once the library has started (the head is
     * then printed with the report). @return 0, or an exit code with @p msg filled.
     */
    int (*describe)(const gemm_options *opt, gemm_report *rep, gemm_msg *msg);
} gemm_host_peer;

/**
 * @brief Runs a host peer: options (gemm_options_main()), the peer's check, its description (the
 * head of the report, printed at once), random data, the runs (the peer reports each one with
 * gemm_progress_run()), then the reference and the element check (after the runs, so that a runtime error is
 * reported before the costly reference is made), and the report (gemm_report_emit()).
 * @return the process exit code.
 */
int gemm_host_peer_main(const gemm_host_peer *peer, int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif /* GEMM_PEER_H */
