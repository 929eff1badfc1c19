/* What the program waits on now, and the watchdog that ends a wait past its limit
 * (gemm_watchdog.h). POSIX: one thread that sleeps on a monotonic clock until the deadline. */
#define _POSIX_C_SOURCE 200809L

#include "gemm_watchdog.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double gemm_timeout_default(long m, long n, long k, int simulator)
{
    if (simulator)
        return 0.0;
    return GEMM_TIMEOUT_FIXED_S + 2.0 * (double)m * (double)n * (double)k / (GEMM_TIMEOUT_GFLOPS * 1e9);
}

static atomic_flag fatal_claimed = ATOMIC_FLAG_INIT;

int gemm_fatal_claim(void) { return !atomic_flag_test_and_set(&fatal_claimed); }

/* ---------------------------------------------------------------------------------------------
 * What runs. A signal handler may read it at any moment, so the text is written into a slot that
 * is not the one published, then published with one atomic store.
 * ------------------------------------------------------------------------------------------- */

#define RUNNING_SLOTS 4
static char running_text[RUNNING_SLOTS][192];
static _Atomic(const char *) running;
static unsigned running_next;

void gemm_running_set(const char *fmt, ...)
{
    if (!fmt) {
        atomic_store(&running, NULL);
        return;
    }
    char *slot = running_text[running_next++ % RUNNING_SLOTS];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(slot, sizeof running_text[0], fmt, ap);
    va_end(ap);
    atomic_store(&running, slot);
}

const char *gemm_running_now(void) { return atomic_load(&running); }

/* ---------------------------------------------------------------------------------------------
 * The watchdog
 * ------------------------------------------------------------------------------------------- */

static pthread_mutex_t wd_lock = PTHREAD_MUTEX_INITIALIZER; /* guards wd */
static pthread_cond_t wd_wake;                              /* on CLOCK_MONOTONIC (init_wake) */
static pthread_once_t wd_once = PTHREAD_ONCE_INIT;

static struct {
    gemm_watchdog_probe probe; /* where the time went, or NULL */
    double limit;   /* seconds; 0: none */
    char why[192];  /* where the limit comes from, for the line */
    int thread_live;
    int stopping;   /* asks the thread to end */
    int armed;      /* a wait is being timed */
    struct timespec deadline;
    pthread_t thread;
} wd;

static void init_wake(void)
{
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC); /* a change of the wall clock moves no deadline */
    pthread_cond_init(&wd_wake, &attr);
    pthread_condattr_destroy(&attr);
}

void gemm_watchdog_set_limit(double seconds, const char *why)
{
    pthread_mutex_lock(&wd_lock);
    wd.limit = seconds > 0.0 ? seconds : 0.0;
    snprintf(wd.why, sizeof wd.why, "%s", why ? why : "");
    pthread_mutex_unlock(&wd_lock);
}

void gemm_watchdog_set_probe(gemm_watchdog_probe probe)
{
    pthread_mutex_lock(&wd_lock);
    wd.probe = probe;
    pthread_mutex_unlock(&wd_lock);
}

static int passed(const struct timespec *deadline)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec > deadline->tv_sec || (now.tv_sec == deadline->tv_sec && now.tv_nsec >= deadline->tv_nsec);
}

/* The limit as the line gives it: whole seconds from 10 on, else as given ("0.5"). */
static void format_seconds(double s, char *out, size_t len)
{
    snprintf(out, len, s >= 10.0 || s == floor(s) ? "%.0f" : "%g", s);
}

/* Called by the watchdog's thread with wd_lock held: a gemm_watchdog_disarm() that comes now waits
 * for the _exit(), so a run that ends at the deadline cannot go on under a line that says it did not. */
static void fire(void)
{
    if (!gemm_fatal_claim()) /* a fault handler is printing its line: its _exit() ends us too */
        for (;;)
            pause();
    const char *what = gemm_running_now();
    char limit[32], line[1280], why[512];
    format_seconds(wd.limit, limit, sizeof limit);
    if (!wd.probe || !wd.probe(why, sizeof why))
        snprintf(why, sizeof why, "an endless loop? (a loop whose condition never changes, a barrier that some "
                                  "work-items never reach, or a device that hangs)");
    int n = snprintf(line, sizeof line, "%s: error: %s did not finish within %s s (%s): %s; the run is stopped\n",
                     gemm_program_name(), what ? what : "the work queued on the device", limit, wd.why, why);
    size_t len = n < 0 ? 0 : (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    if (len && line[len - 1] != '\n')
        line[len - 1] = '\n'; /* cut short: still one line */
    gemm_message_begin(); /* the progress line erased, and held off for good */
    ssize_t ignored = write(STDERR_FILENO, line, len);
    (void)ignored;
    _exit(GEMM_EXIT_RUNTIME); /* every thread of the process ends, the driver's too */
}

static void *watch_loop(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&wd_lock);
    while (!wd.stopping) {
        if (!wd.armed)
            pthread_cond_wait(&wd_wake, &wd_lock);
        else
            pthread_cond_timedwait(&wd_wake, &wd_lock, &wd.deadline);
        /* the deadline itself decides: it may have moved while this thread slept */
        if (wd.armed && !wd.stopping && passed(&wd.deadline))
            fire();
    }
    pthread_mutex_unlock(&wd_lock);
    return NULL;
}

static int start_locked(gemm_msg *msg)
{
    if (wd.thread_live)
        return 0;
    pthread_once(&wd_once, init_wake);
    /* A small stack: under an address-space limit every thread's stack counts (gemm_memory.h) */
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    size_t stack = (size_t)256 << 10;
    if (stack < (size_t)PTHREAD_STACK_MIN)
        stack = (size_t)PTHREAD_STACK_MIN;
    pthread_attr_setstacksize(&attr, stack);
    const int err = pthread_create(&wd.thread, &attr, watch_loop, NULL);
    pthread_attr_destroy(&attr);
    if (err)
        return gemm_msgf(msg, GEMM_EXIT_RUNTIME, "cannot start the watchdog's thread (--timeout): %s", strerror(err));
    wd.thread_live = 1;
    return 0;
}

int gemm_watchdog_arm(gemm_msg *msg)
{
    pthread_mutex_lock(&wd_lock);
    int rc = 0;
    if (wd.limit > 0.0)
        rc = start_locked(msg);
    if (wd.limit > 0.0 && !rc) {
        clock_gettime(CLOCK_MONOTONIC, &wd.deadline);
        const double whole = floor(wd.limit);
        wd.deadline.tv_sec += (time_t)whole;
        wd.deadline.tv_nsec += (long)((wd.limit - whole) * 1e9);
        if (wd.deadline.tv_nsec >= 1000000000L) {
            wd.deadline.tv_sec++;
            wd.deadline.tv_nsec -= 1000000000L;
        }
        wd.armed = 1;
        pthread_cond_signal(&wd_wake);
    }
    pthread_mutex_unlock(&wd_lock);
    return rc;
}

void gemm_watchdog_disarm(void)
{
    pthread_mutex_lock(&wd_lock);
    wd.armed = 0;
    if (wd.thread_live)
        pthread_cond_signal(&wd_wake);
    pthread_mutex_unlock(&wd_lock);
    gemm_running_set(NULL);
}

void gemm_watchdog_stop(void)
{
    pthread_mutex_lock(&wd_lock);
    const int live = wd.thread_live;
    wd.armed = 0;
    wd.stopping = 1;
    if (live)
        pthread_cond_signal(&wd_wake);
    pthread_mutex_unlock(&wd_lock);
    if (live)
        pthread_join(wd.thread, NULL);
    pthread_mutex_lock(&wd_lock);
    wd.thread_live = 0;
    wd.stopping = 0;
    pthread_mutex_unlock(&wd_lock);
}
