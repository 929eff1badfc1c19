/* Host memory between inaccessible pages, and the handler that names a fault in them
 * (gemm_memory.h). */
#define _GNU_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE, sigaction */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gemm_memory.h"

size_t gemm_page_size(void)
{
    const long page = sysconf(_SC_PAGESIZE);
    return page > 0 ? (size_t)page : 4096;
}

static size_t round_pages(size_t bytes)
{
    const size_t page = gemm_page_size();
    return (bytes + page - 1) / page * page;
}

int gemm_fenced_alloc(gemm_fenced *f, size_t bytes, size_t fence, gemm_msg *msg)
{
    memset(f, 0, sizeof *f);
    const size_t usable = round_pages(bytes ? bytes : 1), guard = round_pages(fence);
    /* Reserve everything inaccessible (no memory is committed to PROT_NONE pages), then open
     * the middle. */
    void *map = mmap(NULL, usable + 2 * guard, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (map == MAP_FAILED)
        return gemm_msgf(msg, GEMM_EXIT_RUNTIME, "cannot reserve %zu bytes of address space for a buffer: %s",
                         usable + 2 * guard, strerror(errno));
    char *middle = (char *)map + guard;
    if (mprotect(middle, usable, PROT_READ | PROT_WRITE) != 0) {
        const int e = errno;
        munmap(map, usable + 2 * guard);
        return gemm_msgf(msg, GEMM_EXIT_RUNTIME, "out of host memory for a buffer of %zu bytes: %s", usable,
                         strerror(e));
    }
    f->map = map;
    f->map_len = usable + 2 * guard;
    f->usable = middle;
    f->usable_len = usable;
    f->fence = guard;
    return 0;
}

void gemm_fenced_free(gemm_fenced *f)
{
    if (f->map)
        munmap(f->map, f->map_len);
    memset(f, 0, sizeof *f);
}

/* ---------------------------------------------------------------------------------------------
 * The fault handler. It may only use async-signal-safe calls: write() and _exit(), with numbers
 * formatted by hand.
 * ------------------------------------------------------------------------------------------- */

static struct watch {
    volatile sig_atomic_t used;
    uintptr_t lo, hi;      /* the whole mapping */
    uintptr_t matrix;      /* element 0 */
    uintptr_t usable_lo, usable_hi;
    size_t elems;
    const char *label;
} watches[GEMM_FAULT_WATCH_MAX];

void gemm_fault_watch(int slot, const gemm_fenced *f, const char *label, const float *matrix, size_t elems)
{
    if (slot < 0 || slot >= GEMM_FAULT_WATCH_MAX || !f->map)
        return;
    struct watch *w = &watches[slot];
    w->used = 0;
    w->lo = (uintptr_t)f->map;
    w->hi = w->lo + f->map_len;
    w->usable_lo = (uintptr_t)f->usable;
    w->usable_hi = w->usable_lo + f->usable_len;
    w->matrix = (uintptr_t)matrix;
    w->elems = elems;
    w->label = label;
    w->used = 1;
}

void gemm_fault_unwatch(int slot)
{
    if (slot >= 0 && slot < GEMM_FAULT_WATCH_MAX)
        watches[slot].used = 0;
}

static size_t put(char *buf, size_t at, size_t cap, const char *s)
{
    while (*s && at + 1 < cap)
        buf[at++] = *s++;
    return at;
}

static size_t put_number(char *buf, size_t at, size_t cap, long long v)
{
    char digits[24];
    int n = 0;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do {
        digits[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u && n < (int)sizeof digits);
    if (v < 0 && at + 1 < cap)
        buf[at++] = '-';
    while (n > 0 && at + 1 < cap)
        buf[at++] = digits[--n];
    return at;
}

/* Set by the first thread whose access faults: the device's threads can fault together, and the
 * report is one line (the others wait for the _exit() that ends the process). */
static atomic_flag fault_reported = ATOMIC_FLAG_INIT;

static void on_fault(int sig, siginfo_t *info, void *context)
{
    (void)context;
    const uintptr_t addr = (uintptr_t)info->si_addr;
    for (int i = 0; i < GEMM_FAULT_WATCH_MAX; i++) {
        const struct watch *w = &watches[i];
        if (!w->used || addr < w->lo || addr >= w->hi || (addr >= w->usable_lo && addr < w->usable_hi))
            continue;
        if (atomic_flag_test_and_set(&fault_reported))
            for (;;)
                pause();
        /* An element index relative to the matrix: -1 is just before it, elems just after it. */
        const long long index = addr >= w->matrix ? (long long)((addr - w->matrix) / sizeof(float))
                                                  : -(long long)((w->matrix - addr + sizeof(float) - 1) / sizeof(float));
        char line[512];
        size_t at = 0;
        at = put(line, at, sizeof line, gemm_program_name());
        at = put(line, at, sizeof line, ": error: out-of-bounds access: a kernel read or wrote ");
        at = put(line, at, sizeof line, w->label);
        at = put(line, at, sizeof line, " at index ");
        at = put_number(line, at, sizeof line, index);
        if (index < 0) {
            at = put(line, at, sizeof line, " (");
            at = put_number(line, at, sizeof line, -index);
            at = put(line, at, sizeof line, " before its start)");
        } else {
            at = put(line, at, sizeof line, " (");
            at = put_number(line, at, sizeof line, index - (long long)w->elems + 1);
            at = put(line, at, sizeof line, " past the end of its ");
            at = put_number(line, at, sizeof line, (long long)w->elems);
            at = put(line, at, sizeof line, " elements)");
        }
        at = put(line, at, sizeof line, ", beyond its guard region: the access hit the inaccessible pages around it ");
        at = put(line, at, sizeof line, sig == SIGBUS ? "(SIGBUS)\n" : "(SIGSEGV)\n");
        ssize_t ignored = write(STDERR_FILENO, line, at);
        (void)ignored;
        _exit(GEMM_EXIT_VERIFY_FAILED);
    }
    /* Not ours: the default action, as if there were no handler (the fault happens again). */
    signal(sig, SIG_DFL);
}

static char abort_line[256];
static size_t abort_len;
static struct sigaction abort_prev; /* the handler ours replaced (LLVM's, in PoCL), if any */

static void on_abort(int sig)
{
    /* LLVM's handler removes its temporary files; it returns for SIGABRT */
    if (!(abort_prev.sa_flags & SA_SIGINFO) && abort_prev.sa_handler != SIG_DFL && abort_prev.sa_handler != SIG_IGN &&
        abort_prev.sa_handler != on_abort)
        abort_prev.sa_handler(sig);
    ssize_t ignored = write(STDERR_FILENO, abort_line, abort_len);
    (void)ignored;
    _exit(GEMM_EXIT_RUNTIME);
}

void gemm_abort_install(void)
{
    /* The line is made now: the handler may only write it. */
    gemm_memory_limits lim;
    gemm_memory_read_limits(&lim);
    size_t at = put(abort_line, 0, sizeof abort_line, gemm_program_name());
    at = put(abort_line, at, sizeof abort_line, ": error: the OpenCL driver aborted the program (its words are above)");
    if (lim.address_limit < INFINITY) {
        at = put(abort_line, at, sizeof abort_line, "; an address-space limit is in force, ");
        at = put(abort_line, at, sizeof abort_line, lim.address_from);
        at = put(abort_line, at, sizeof abort_line, " = ");
        at = put_number(abort_line, at, sizeof abort_line, (long long)(lim.address_limit / 1048576.0));
        at = put(abort_line, at, sizeof abort_line, " MiB: the driver could not get the memory or threads it needs");
    }
    abort_len = put(abort_line, at, sizeof abort_line, "\n");
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_abort;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGABRT, &sa, &old) == 0 && !(!(old.sa_flags & SA_SIGINFO) && old.sa_handler == on_abort))
        abort_prev = old;
}

void gemm_fault_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
}
