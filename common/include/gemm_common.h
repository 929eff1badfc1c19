/**
 * @file gemm_common.h
 * @brief Exit codes and one-line diagnostics shared by every program of the tutorial.
 *
 * Every executable (the twelve steps, the peers, the benchmark helpers) ends with one of the
 * #gemm_exit codes, and reports every problem as a single line on standard error that starts
 * with the program's name, so scripts and tests can match it.
 */
#ifndef GEMM_COMMON_H
#define GEMM_COMMON_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Process exit codes, identical for every program (documented in `--help` and the README). */
enum gemm_exit {
    GEMM_EXIT_OK = 0,            /**< ran, and verified (or ran with `--no-verify`) */
    GEMM_EXIT_VERIFY_FAILED = 1, /**< ran, but the result did not match the reference */
    GEMM_EXIT_BAD_INPUT = 2,     /**< bad option, size or parameter; nothing was run */
    GEMM_EXIT_RUNTIME = 3        /**< OpenCL, driver or system error (includes kernel build failures), a run
                                      that did not finish within `--timeout`, and a fatal signal (SIGSEGV,
                                      SIGBUS, SIGFPE, SIGILL) while a kernel ran: one line names the kernel
                                      (gemm_watchdog.h, gemm_memory.h) */
};

/** @brief The tutorial's version string (from the top-level CMake project). */
const char *gemm_version(void);

/** @brief Sets the name printed in front of every diagnostic (usually the step's name). */
void gemm_set_program_name(const char *name);

/** @brief The name set by gemm_set_program_name(), or "gemm" if none was set. */
const char *gemm_program_name(void);

/** @brief Prints "name: error: <message>" on stderr (the message is printf-formatted, no newline). */
void gemm_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/** @brief Prints "name: note: <message>" on stderr. */
void gemm_note(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/**
 * @brief Registers @p hook, called with 1 just before a diagnostic is printed on stderr and with 0
 * just after it (the progress line of gemm_progress.h uses it to get out of the way); NULL: none.
 */
void gemm_set_message_hook(void (*hook)(int before));

/** @brief Brackets other output on stderr (e.g. a build log) like gemm_error() brackets its line. */
void gemm_message_begin(void);
/** @brief Ends what gemm_message_begin() began. */
void gemm_message_end(void);

/** @brief A fixed-size message buffer filled by functions that report a problem to their caller. */
typedef struct gemm_msg {
    char text[512]; /**< the message, without the program name and without a newline */
} gemm_msg;

/**
 * @brief printf into a #gemm_msg (truncates safely; control characters, e.g. a newline in a
 * quoted argument, become '?' so the message stays one line: gemm_printable()). Returns @p code
 * so callers can `return gemm_msgf(...)`.
 */
int gemm_msgf(gemm_msg *msg, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/**
 * @brief Makes @p text one printable line in place: control characters (C0, DEL, and the C1
 * range U+0080..U+009F) and bytes that are not valid UTF-8 each become '?'.
 */
void gemm_printable(char *text);

/**
 * @brief Checks, before anything is printed, that standard output is open.
 * @return 0; or #GEMM_EXIT_RUNTIME after printing one error line, if it is closed.
 */
int gemm_output_check(void);

/**
 * @brief Flushes standard output and checks that every write to it succeeded; every program
 * returns through it. @return @p rc; or, if the output was lost (a full disk, `/dev/full`, a
 * closed descriptor), #GEMM_EXIT_RUNTIME after one error line, unless @p rc is already an error
 * (2 or 3). A pipe whose reader has gone ends the program with SIGPIPE, as usual.
 */
int gemm_output_finish(int rc);

/**
 * @brief Where standard output's writes go from now on: @p out (`--csv` writes the CSV to a copy of
 * standard output, gemm_report_csv_start()), which gemm_output_finish() flushes and checks in its
 * place. NULL: stdout.
 */
void gemm_output_set_stream(FILE *out);

#ifdef __cplusplus
}
#endif

#endif /* GEMM_COMMON_H */
