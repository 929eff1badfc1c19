/**
 * @file gemm_watchdog.h
 * @brief What the program waits on now, and a limit on how long it may wait.
 *
 * A kernel that never ends (an endless loop, a barrier some work-items never reach) would make
 * clFinish() wait forever. The runner therefore arms a watchdog before every wait on the device
 * (each warm-up, timed and exact run, each blocking read back) and disarms it after: a wait that
 * outlasts the limit (`--timeout`, else gemm_timeout_default()) ends the program with one line
 * naming what it waited on and the limit, and exit code 3 (#GEMM_EXIT_RUNTIME). The line comes from
 * a thread of the watchdog's own; _exit() then ends every thread of the process, the driver's too.
 *
 * The same record of what runs names the kernel in the line of the fault handler (gemm_memory.h),
 * which reads it from a signal handler: gemm_running_now() is async-signal-safe.
 */
#ifndef GEMM_WATCHDOG_H
#define GEMM_WATCHDOG_H

#include "gemm_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @name The default limit of one run: fixed seconds plus its flops at a deliberately slow rate
 * The naive kernel, the slowest step, ran the suite's largest problems (1024^3, 8x8x4000000,
 * 8192x8192x32, 1000x1001x999) on PoCL on 2 cores at 0.30 to 3.5 GFLOPS, the lower end with the
 * machine's load average at 11: the rate below is 6 times slower than that, 24 times the unloaded
 * 1.2. The fixed part covers the driver compiling a kernel at its first launch.
 * @{
 */
/** @brief Seconds every run is allowed on top of its flops (the driver compiling at its first launch). */
#define GEMM_TIMEOUT_FIXED_S 30.0
/** @brief The rate at which a run's 2*M*N*K flops must be done, in GFLOPS. */
#define GEMM_TIMEOUT_GFLOPS 0.05
/** @} */

/**
 * @brief The default limit of one run of an @p m x @p n x @p k problem, in seconds:
 * #GEMM_TIMEOUT_FIXED_S + 2*m*n*k flops at #GEMM_TIMEOUT_GFLOPS; 0 (none) where @p simulator is
 * nonzero. A simulator that checks every access (Oclgrind) takes a time that follows its checkers
 * and the kernels' padded tiles more than m*n*k, and slows down many times more in a sanitized
 * build: a run of 65x70x17 (step 6) took 42 s there on a loaded machine (3.7 kFLOPS), 14 s in the
 * plain build, 3 s unloaded.
 */
double gemm_timeout_default(long m, long n, long k, int simulator);

/**
 * @brief Sets the limit of every wait armed from now on: @p seconds (0: none), and @p why, a few
 * words on where it comes from for the line (e.g. "--timeout 2"); @p why is copied.
 */
void gemm_watchdog_set_limit(double seconds, const char *why);

/**
 * @brief Names what the program waits on from now on (printf-formatted, e.g. "kernel 'sgemm'
 * (sgemm)"), for the watchdog's line and the fault handler's; NULL: nothing.
 */
void gemm_running_set(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/** @brief What gemm_running_set() named last, or NULL; async-signal-safe. */
const char *gemm_running_now(void);

/**
 * @brief Starts the clock of one wait (nothing if the limit is 0): unless gemm_watchdog_disarm()
 * comes first, the program ends at the limit with one line and exit code 3.
 * @return 0, or #GEMM_EXIT_RUNTIME with @p msg filled if the watchdog's thread cannot start.
 */
int gemm_watchdog_arm(gemm_msg *msg);

/**
 * @brief Where the time of a wait went, as far as the program can tell: called by the watchdog's
 * thread when a wait passes its limit, before its line. It writes into @p buf (@p len bytes) a
 * reason that replaces the line's guess ("an endless loop?") and returns 1, or returns 0 to leave
 * the guess. The runner's probe (run_timed.c) says when the kernel waited on had not started: the
 * time then went to preparing it, which is where PoCL compiles a kernel at its first launch.
 */
typedef int (*gemm_watchdog_probe)(char *buf, size_t len);

/** @brief The probe of the waits armed from now on (NULL: none); kept until set again. */
void gemm_watchdog_set_probe(gemm_watchdog_probe probe);

/** @brief Stops the clock and forgets what runs (gemm_running_set(NULL)). */
void gemm_watchdog_disarm(void);

/** @brief Ends the watchdog's thread (before the program returns); safe in any state. */
void gemm_watchdog_stop(void);

/**
 * @brief 1 for the first caller only, of all the threads and signal handlers that would end the
 * program with a line of their own (the watchdog, the fault handler), so that one line is printed;
 * async-signal-safe. A caller that gets 0 waits for the _exit() that is coming.
 */
int gemm_fatal_claim(void);

#ifdef __cplusplus
}
#endif

#endif /* GEMM_WATCHDOG_H */
