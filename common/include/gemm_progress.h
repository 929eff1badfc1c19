/**
 * @file gemm_progress.h
 * @brief A live progress line on the terminal while a program works: what it is doing (building
 * the program, computing the reference, warm-up run 1 of 3, timed run 2 of 20, ...) and the time
 * so far.
 *
 * The line goes to standard error, only when standard error is a terminal, and only once the work
 * has taken more than about a second (GEMM_PROGRESS_DELAY seconds, default 1: a quick run shows
 * nothing). A background thread redraws it a few times a second, so it moves during one long
 * kernel, build or reference too. It is erased before anything else is printed: gemm_error() and
 * gemm_note() erase it (and it comes back after them), and gemm_progress_stop() erases it for
 * good before the report. Standard output and `--csv` are never touched, so what a script reads
 * does not depend on whether a terminal is attached.
 *
 * One progress line per process; every function may be called in any state (before start, after
 * stop, twice).
 */
#ifndef GEMM_PROGRESS_H
#define GEMM_PROGRESS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Starts the clock and, when standard error is a terminal, the line (after the delay). */
void gemm_progress_start(void);

/** @brief What is happening now, printf-formatted (e.g. "computing the double-precision reference"). */
void gemm_progress_set(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/**
 * @brief The phase of run @p run (0-based) of @p warmup untimed and @p repeat timed runs:
 * "warm-up run 1 of 2", then "timed run 3 of 20".
 */
void gemm_progress_run(int run, int warmup, int repeat);

/** @brief The name gemm_progress_run() gives run @p run, written into @p out (@p len bytes). */
void gemm_progress_run_name(char *out, size_t len, int run, int warmup, int repeat);

/** @brief Erases the line and stops the background thread; call before printing the report. */
void gemm_progress_stop(void);

/**
 * @brief For a signal handler about to print its line and end the program: erases the line with
 * write() alone and keeps it from being drawn again; async-signal-safe.
 */
void gemm_progress_abandon(void);

#ifdef __cplusplus
}
#endif

#endif /* GEMM_PROGRESS_H */
