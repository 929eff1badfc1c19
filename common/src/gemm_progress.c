/* The live progress line (gemm_progress.h). POSIX: a terminal test, a monotonic clock and one
 * background thread that redraws the line while the main thread waits on a build, a reference
 * or a kernel. */
#define _POSIX_C_SOURCE 200809L

#include "gemm_progress.h"

#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "gemm_common.h"

#define TICK_NS 200000000L /* redraws five times a second: the tenths of a second move */
#define LINE_CHARS 200

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* guards pg and the line on the screen */
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;   /* wakes the redrawing thread to stop */

static struct {
    pthread_t thread;
    int started;     /* the clock runs (gemm_progress_start was called) */
    int thread_live; /* the redrawing thread exists */
    int stopping;    /* asks the thread to end */
    int held;        /* a diagnostic is being printed: do not draw */
    int visible_now; /* GEMM_PROGRESS_DELAY=0: every change of phase is drawn at once */
    double start;    /* monotonic seconds at gemm_progress_start */
    double delay;    /* seconds before the line first appears */
    size_t shown;    /* columns the line takes on the screen now (0: nothing drawn) */
    char phase[128];
} pg;

/* For gemm_progress_abandon(), which a signal handler calls without the lock: the columns the
 * line takes, and whether it may ever be drawn again. */
static volatile sig_atomic_t shown_cols, abandoned;

static double monotonic_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The terminal's width, so that the line never wraps (a wrapped line cannot be erased with \r). */
static size_t terminal_columns(void)
{
#ifdef TIOCGWINSZ
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
        return ws.ws_col;
#endif
    return 80;
}

static void erase_locked(void)
{
    if (!pg.shown)
        return;
    fputc('\r', stderr);
    for (size_t i = 0; i < pg.shown; i++)
        fputc(' ', stderr);
    fputc('\r', stderr);
    fflush(stderr);
    pg.shown = 0;
    shown_cols = 0;
}

/* "kernel02_tiled: timed run 3 of 20 ... 12.4 s", over whatever was there before. */
static void draw_locked(void)
{
    if (abandoned)
        return;
    char line[LINE_CHARS];
    int n = snprintf(line, sizeof line, "%s: %s ... %.1f s", gemm_program_name(), pg.phase,
                     monotonic_seconds() - pg.start);
    if (n < 0)
        return;
    size_t len = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    const size_t cols = terminal_columns() - 1;
    if (len > cols)
        len = cols;
    fputc('\r', stderr);
    fwrite(line, 1, len, stderr);
    for (size_t i = len; i < pg.shown; i++) /* blank the rest of a longer line drawn before */
        fputc(' ', stderr);
    fflush(stderr);
    if (len > pg.shown)
        pg.shown = len;
    shown_cols = (sig_atomic_t)pg.shown;
}

static void *redraw_loop(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&lock);
    while (!pg.stopping) {
        if (!pg.held && monotonic_seconds() - pg.start >= pg.delay)
            draw_locked();
        struct timespec deadline;
        clock_gettime(CLOCK_REALTIME, &deadline); /* the condition variable's clock */
        deadline.tv_nsec += TICK_NS;
        if (deadline.tv_nsec >= 1000000000L) {
            deadline.tv_sec++;
            deadline.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&wake, &lock, &deadline);
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

/* gemm_error() and gemm_note() call this around their line: erase, then let the line come back. */
static void around_message(int before)
{
    pthread_mutex_lock(&lock);
    pg.held = before;
    if (before)
        erase_locked();
    pthread_mutex_unlock(&lock);
}

void gemm_progress_start(void)
{
    if (pg.started)
        return;
    pg.started = 1;
    pg.start = monotonic_seconds();
    pg.delay = 1.0;
    const char *delay = getenv("GEMM_PROGRESS_DELAY");
    if (delay && *delay) {
        char *end = NULL;
        const double d = strtod(delay, &end);
        if (end && !*end && d >= 0.0)
            pg.delay = d;
    }
    snprintf(pg.phase, sizeof pg.phase, "starting");
    if (!isatty(STDERR_FILENO))
        return;
    gemm_set_message_hook(around_message);
    pg.visible_now = pg.delay <= 0.0;
    if (pthread_create(&pg.thread, NULL, redraw_loop, NULL) == 0)
        pg.thread_live = 1;
}

void gemm_progress_set(const char *fmt, ...)
{
    pthread_mutex_lock(&lock);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pg.phase, sizeof pg.phase, fmt, ap);
    va_end(ap);
    if (pg.visible_now && pg.thread_live && !pg.held)
        draw_locked();
    pthread_mutex_unlock(&lock);
}

void gemm_progress_run_name(char *out, size_t len, int run, int warmup, int repeat)
{
    if (run < warmup)
        snprintf(out, len, "warm-up run %d of %d", run + 1, warmup);
    else
        snprintf(out, len, "timed run %d of %d", run - warmup + 1, repeat);
}

void gemm_progress_run(int run, int warmup, int repeat)
{
    char name[64];
    gemm_progress_run_name(name, sizeof name, run, warmup, repeat);
    gemm_progress_set("%s", name);
}

void gemm_progress_stop(void)
{
    if (pg.thread_live) {
        pthread_mutex_lock(&lock);
        pg.stopping = 1;
        pthread_cond_signal(&wake);
        pthread_mutex_unlock(&lock);
        pthread_join(pg.thread, NULL);
        pg.thread_live = 0;
        gemm_set_message_hook(NULL);
    }
    pthread_mutex_lock(&lock);
    erase_locked();
    pthread_mutex_unlock(&lock);
}

void gemm_progress_abandon(void)
{
    abandoned = 1;
    /* write() alone: the redrawing thread may hold the lock and stderr's own, and never let go */
    char blank[LINE_CHARS + 2];
    size_t cols = (size_t)shown_cols, at = 0;
    if (cols == 0)
        return;
    if (cols > LINE_CHARS - 1)
        cols = LINE_CHARS - 1;
    blank[at++] = '\r';
    while (at <= cols)
        blank[at++] = ' ';
    blank[at++] = '\r';
    ssize_t ignored = write(STDERR_FILENO, blank, at);
    (void)ignored;
}
