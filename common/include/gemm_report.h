/**
 * @file gemm_report.h
 * @brief Timing statistics and the two report formats: a human-readable block and CSV.
 *
 * Every program (steps and peers) fills one #gemm_report and prints it the same way, so the
 * tour and the benchmark can read any of them: the human-readable block (the default), one line
 * (`--brief`: gemm_report_brief()) or CSV (`--csv`). CSV columns, in order:
 *
 * `step,platform,device,driver,m,n,k,alpha,beta,params,warmup,repeat,median_ms,best_ms,gflops,`
 * `gflops_best,parts,max_err_over_bound,status,date,normwise_over_bound,exact,normwise_error,precision,data,`
 * `kernel_file`
 *
 * - `median_ms`, `best_ms`: the whole step per run (all of its kernels, helpers included);
 * - `gflops` = 2*M*N*K / median time (`gflops_best` uses the best time);
 * - `parts`: each kernel on its own, as `label:median_ms/best_ms` separated by `;`;
 * - `max_err_over_bound`: the worst |got-ref| / element-wise tolerance (<= 1 passes), empty if not
 *   verified;
 * - `status`: PASS, FAIL or UNVERIFIED; `date`: UTC, ISO 8601;
 * - `normwise_over_bound`: the normwise error ||got-ref||/||ref|| over its bound (<= 1 passes),
 *   empty if not verified (gemm_verify.h). Added last, so that readers of older files, which
 *   select columns by name, still read them;
 * - `exact`: PASS or FAIL of the exact check on integer data (gemm_exact.h), empty if it did not run.
 * - `normwise_error`: the normwise error itself, ||got-ref||/||ref|| (gemm_check's `normwise`: over
 *   ||alpha*A*B|| + ||beta*C0||), empty if not verified; what the accuracy columns of bench/bench.py
 *   and bench/tour.py show. Added last, like `normwise_over_bound`.
 * - `precision`: PASS or FAIL of the precision check on 14-bit values (gemm_exact.h), empty if it
 *   did not run; `data`: the random data's distribution (`--data`, gemm_verify.h), on which the
 *   errors above were measured. Both added last: a file without them was recorded on the data of
 *   before December 2026 (`grid`), with no precision check.
 * - `kernel_file`: the `--kernel-file` built instead of the step's own kernels, as given, or empty
 *   (the step's own). Added last.
 */
#ifndef GEMM_REPORT_H
#define GEMM_REPORT_H

#include <stdio.h>

#include "gemm_exact.h"
#include "gemm_options.h"
#include "gemm_verify.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Most kernels a step may time separately. */
#define GEMM_MAX_PARTS 6

/** @brief Median of @p n values (n >= 1); does not modify @p x. */
double gemm_median(const double *x, int n);

/** @brief Smallest of @p n values (n >= 1). */
double gemm_min(const double *x, int n);

/** @brief Seconds on a monotonic host clock (for the CPU peer, which has no OpenCL events). */
double gemm_host_seconds(void);

/** @brief One kernel's share of a step's time. */
typedef struct gemm_report_part {
    const char *label; /**< e.g. "sgemm", "transpose A" */
    double median_ms;  /**< median over the timed runs */
    double best_ms;    /**< best over the timed runs */
} gemm_report_part;

/** @brief Everything a run reports. */
typedef struct gemm_report {
    const char *step;            /**< e.g. "kernel02_tiled" or "clblast" */
    const char *summary;         /**< one line: what the step adds */
    char platform[128];          /**< platform name */
    char device[128];            /**< device name */
    char driver[64];             /**< driver version */
    const char *device_type;     /**< "CPU", "GPU", ... */
    long m;                      /**< rows of A and C */
    long n;                      /**< columns of B and C */
    long k;                      /**< columns of A, rows of B */
    double alpha;                /**< alpha as used (a float value) */
    double beta;                 /**< beta as used (a float value) */
    char params[256];            /**< "NAME=VALUE ..." or "" */
    int warmup;                  /**< untimed runs */
    int repeat;                  /**< timed runs */
    const char *timing;          /**< what the time covers, one line */
    double median_ms;            /**< the step per run: median over the timed runs */
    double best_ms;              /**< the step per run: best of the timed runs */
    int nparts;                  /**< kernels timed on their own */
    gemm_report_part part[GEMM_MAX_PARTS]; /**< per-kernel times */
    int verified;                /**< 1 if compared with the reference */
    gemm_check check;            /**< the comparison, when verified */
    char failure[512];           /**< extra reason for FAIL (e.g. an out-of-bounds write), or "" */
    const char *reference;       /**< how the reference was computed */
    int head_printed;            /**< 1 once gemm_report_announce() printed the head */
    const char *sample;          /**< why the reference is a sample of rows and columns, or NULL */
    char guards[384];            /**< what the guard regions catch, for the report, or "" (no buffers) */
    gemm_exact exact;            /**< the exact check on integers (gemm_exact.h), when it ran */
    gemm_exact precision;        /**< the precision check (gemm_exact.h), when it ran */
    gemm_data data;              /**< the random data's distribution (`--data`) */
    const char *kernel_file;     /**< `--kernel-file`: the file built instead of the step's own kernels, or NULL */
    unsigned long long seed;     /**< the random data's seed (`--seed`) */
} gemm_report;

/** @brief "PASS", "FAIL" or "UNVERIFIED". */
const char *gemm_report_status(const gemm_report *r);

/** @brief 2*M*N*K / time, in GFLOPS. */
double gemm_gflops(long m, long n, long k, double ms);

/**
 * @brief Prints the human-readable block (without its head when gemm_report_announce() printed
 * it already).
 */
void gemm_report_print(FILE *out, const gemm_report *r);

/**
 * @brief Prints the head of the block: the lines known before anything runs (title, problem,
 * device, parameters, timing). Needs the fields up to @c timing.
 */
void gemm_report_print_head(FILE *out, const gemm_report *r);

/**
 * @brief Prints the head now, where the report will go (stdout, or stderr with `--csv`), so a
 * reader sees the problem, the device and the parameters before a long run; the report at the
 * end then continues from there, so the whole block is the same as without it. With `--brief`
 * it prints nothing (the one line comes at the end).
 */
void gemm_report_announce(gemm_report *r, const gemm_options *opt);

/**
 * @brief Prints the one line of `--brief`: the verdict (PASS, FAIL or UNVERIFIED), the step, the
 * problem and the parameters, GFLOPS from the median time (and each kernel's median time, where
 * a step runs several), the worst element-wise and the
 * normwise error over their bounds, and on a failure the first wrong element (row, column, got,
 * expected) or the reason (e.g. an out-of-bounds write).
 */
void gemm_report_brief(FILE *out, const gemm_report *r);

/** @brief Prints an exact check's line of the report (nothing if it did not run): the integers'
 *  or the precision check's; its verdict word is PASS only where the whole run passes (@p run_failed 0). */
void gemm_report_print_exact(FILE *out, const gemm_exact *x, int run_failed);

/**
 * @brief With `--csv`, before anything runs: decides whether the CSV gets its header (not where
 * standard output is a file that holds data already, nor with `--no-header`), and keeps standard
 * output for the CSV alone: the CSV goes to a copy of it, and whatever else is written to standard
 * output from then on (a kernel's printf, which the OpenCL driver writes there) goes to standard
 * error. Without `--csv` it does nothing.
 * @return 0, or #GEMM_EXIT_RUNTIME with @p msg filled.
 */
int gemm_report_csv_start(const gemm_options *opt, gemm_msg *msg);

/** @brief Prints the CSV header line (see the file comment). */
void gemm_report_csv_header(FILE *out);

/**
 * @brief Whether a CSV header goes before the lines written to @p out: not with `--no-header`,
 * and not where @p out is a regular file that holds data already (the later runs of a loop whose
 * output goes to one file, `for ...; do step --csv; done > runs.csv`, or `>>` to an earlier
 * file). A pipe, a terminal or an empty file gets it. Flushes @p out first.
 */
int gemm_report_csv_wants_header(FILE *out, const gemm_options *opt);

/** @brief Prints one CSV line. */
void gemm_report_csv_line(FILE *out, const gemm_report *r);

/** @brief Writes one CSV field, quoted (RFC 4180) if it holds a comma, a quote or a newline. */
void gemm_csv_field(FILE *out, const char *s);

/** @brief The current UTC date and time in ISO 8601 ("2026-11-22T10:00:00Z"), or "unknown". */
void gemm_utc_date(char *buf, size_t len);

/**
 * @brief Prints a finished report the way every program does, as @p opt says: the
 * human-readable block on stdout, and then on a failed check the one-line error; with `--csv`
 * the block on stderr and the CSV header (gemm_report_csv_wants_header()) and line on stdout;
 * with `--brief` only gemm_report_brief()'s line on stdout (it says FAIL itself).
 * @return gemm_report_exit_code().
 */
int gemm_report_emit(const gemm_report *r, const gemm_options *opt);

/** @brief Exit code for a finished run: #GEMM_EXIT_OK or #GEMM_EXIT_VERIFY_FAILED. */
int gemm_report_exit_code(const gemm_report *r);

#ifdef __cplusplus
}
#endif

#endif /* GEMM_REPORT_H */
