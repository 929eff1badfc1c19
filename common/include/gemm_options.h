/**
 * @file gemm_options.h
 * @brief The command-line options shared by every step and peer, and their parser.
 *
 * One table (in gemm_options.c) describes every option; `--help` is generated from it, so the
 * help text, the parser and the README cannot disagree. The parser never prints and never
 * exits: it fills a #gemm_options and, on a problem, a one-line #gemm_msg. That keeps it
 * testable (tests/test_options.c) and fuzzable.
 */
#ifndef GEMM_OPTIONS_H
#define GEMM_OPTIONS_H

#include <stdio.h>

#include "gemm_common.h"
#include "gemm_verify.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Most `-D NAME=VALUE` overrides (and most parameters a step may have). */
#define GEMM_MAX_DEFINES 24
/** @brief Longest parameter name, including the terminating NUL. */
#define GEMM_DEFINE_NAME_MAX 32

/** @brief One kernel parameter: an OpenCL C preprocessor name and its integer value. */
typedef struct gemm_define {
    char name[GEMM_DEFINE_NAME_MAX]; /**< e.g. "TS" */
    long value;                      /**< e.g. 32 */
} gemm_define;

/** @brief An ordered set of kernel parameters; a name appears at most once. */
typedef struct gemm_defines {
    int count;                           /**< number of entries used */
    gemm_define item[GEMM_MAX_DEFINES]; /**< the entries */
} gemm_defines;

/** @brief Everything the user can say on the command line. Zero/negative means "not given". */
typedef struct gemm_options {
    long m;                         /**< rows of A and C (`-m`), 0 = device default */
    long n;                         /**< columns of B and C (`-n`), 0 = device default */
    long k;                         /**< columns of A, rows of B (`-k`), 0 = device default */
    double alpha;                   /**< `--alpha`, default 1 */
    double beta;                    /**< `--beta`, default 0 */
    const char *platform;           /**< `--platform`: index or name substring, NULL = any */
    const char *device;             /**< `--device`: index or name substring, NULL = first GPU else first device */
    int list_devices;               /**< `--list-devices` */
    int repeat;                     /**< `--repeat`: timed runs, 0 = device default */
    int warmup;                     /**< `--warmup`: untimed runs first, -1 = device default */
    double timeout;                 /**< `--timeout`: seconds a run may take, 0 = no limit, -1 = the default (gemm_watchdog.h) */
    unsigned long long seed;        /**< `--seed`: random data seed */
    gemm_data data;                 /**< `--data`: the random data's distribution, default #GEMM_DATA_SPREAD */
    int verify;                     /**< 0 after `--no-verify` */
    int exact;                      /**< 0 after `--no-exact` (and with `--no-verify`): no exact check */
    gemm_defines defines;           /**< `-D NAME=VALUE` overrides, in order */
    const char *kernel_file;        /**< `--kernel-file`: build this .cl instead of the embedded source */
    const char *defaults_for;       /**< `--defaults-for`: take the default parameters of this device class */
    int csv;                        /**< `--csv`: machine-readable output on stdout */
    int no_header;                  /**< `--no-header`: with `--csv`, no header line */
    int brief;                      /**< `--brief`: one line per run (verdict, GFLOPS, error, problem) */
} gemm_options;

/** @brief What gemm_options_parse() found. */
enum gemm_parse_result {
    GEMM_PARSE_OK = 0,  /**< options parsed; go on */
    GEMM_PARSE_HELP,    /**< `--help` was given: print gemm_options_usage() and exit 0 */
    GEMM_PARSE_VERSION, /**< `--version` was given: print the version and exit 0 */
    GEMM_PARSE_ERROR    /**< a problem, described in the message: exit #GEMM_EXIT_BAD_INPUT */
};

/** @brief The default random seed (fixed, so every run of every step sees the same matrices). */
#define GEMM_DEFAULT_SEED 20261122ULL

/** @brief Fills @p opt with the defaults (nothing given, alpha 1, beta 0, verify on, default seed, default timeout). */
void gemm_options_defaults(gemm_options *opt);

/**
 * @brief Parses argv into @p opt (which it first resets with gemm_options_defaults()).
 *
 * Accepts `--name value`, `--name=value`, and for the short options `-m 5` or `-m5`,
 * `-D NAME=VALUE` or `-DNAME=VALUE`. No value may start or end with white space. Sizes must be
 * integers in [1, 2^31-1]; alpha and beta
 * finite numbers that a float holds (neither overflowing it nor underflowing it to 0);
 * `--repeat` >= 1; `--warmup` >= 0; `--timeout` seconds from 0 to a year; no value may be empty;
 * `--brief` and `--csv` are two output formats (not both), and `--no-header` needs `--csv`.
 * Messages quote what was typed, with
 * control characters replaced (one printable line).
 *
 * @return a #gemm_parse_result; on #GEMM_PARSE_ERROR, @p msg holds one line naming the option and value.
 */
int gemm_options_parse(gemm_options *opt, int argc, char *const argv[], gemm_msg *msg);

/** @brief Prints the generated usage text, including the exit codes. */
void gemm_options_usage(FILE *out, const char *program, const char *summary);

/** @brief gemm_options_main()'s return value when the program should go on running. */
#define GEMM_OPTIONS_GO_ON (-1)

/** @brief Prints a program's own part of `--help` (see gemm_options_main()); @p ctx is passed through. */
typedef void (*gemm_help_fn)(FILE *out, const void *ctx);

/**
 * @brief Parses the options and handles the outcomes that end every program the same way.
 *
 * - `--help`: prints gemm_options_usage() for @p summary (skipped when @p summary is NULL, for
 *   a program that writes all of its help itself), then calls @p more_help if it is not NULL;
 * - `--version`: prints "<program> (OpenCL SGEMM tutorial) <version>";
 * - a bad option: prints its one "<program>: error: ..." line.
 *
 * The program's name is the one given to gemm_set_program_name().
 * Every outcome but a bad option writes on standard output, which must be open
 * (gemm_output_check()); help and version are checked as written (gemm_output_finish()).
 * @return #GEMM_OPTIONS_GO_ON if main() should go on with @p opt filled; otherwise the exit
 * code main() returns (#GEMM_EXIT_OK after help and version, #GEMM_EXIT_BAD_INPUT on an error,
 * #GEMM_EXIT_RUNTIME if standard output is closed or a write to it fails).
 */
int gemm_options_main(gemm_options *opt, int argc, char *const argv[], const char *summary, gemm_help_fn more_help,
                      const void *ctx);

/**
 * @brief Parses "NAME=VALUE" (NAME a C identifier of at most 31 characters, VALUE an integer).
 * @return 0 on success, #GEMM_EXIT_BAD_INPUT with @p msg filled otherwise.
 */
int gemm_define_parse(const char *text, gemm_define *out, gemm_msg *msg);

/** @brief Sets (adds or replaces) a parameter. @return 0, or #GEMM_EXIT_BAD_INPUT if the set is full. */
int gemm_defines_set(gemm_defines *set, const char *name, long value, gemm_msg *msg);

/** @brief Looks a parameter up. @return 1 and the value in @p value if present, else 0. */
int gemm_defines_find(const gemm_defines *set, const char *name, long *value);

/**
 * @brief Applies a whitespace-separated list of "NAME=VALUE" items (the format of the defaults table).
 * @return 0, or #GEMM_EXIT_BAD_INPUT with @p msg filled.
 */
int gemm_defines_apply_list(gemm_defines *set, const char *list, gemm_msg *msg);

/** @brief Writes "NAME=VALUE NAME=VALUE ..." into @p buf (empty string for an empty set). */
void gemm_defines_format(const gemm_defines *set, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* GEMM_OPTIONS_H */
