/* Host memory between inaccessible pages, and the handler of fatal signals that names a fault in
 * them, or the kernel that was running when the program crashed (gemm_memory.h). */
#define _GNU_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE, sigaction */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gemm_memory.h"
#include "gemm_progress.h"
#include "gemm_watchdog.h"

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
 * The fault handler. It may only use async-signal-safe calls: write(), sigaction(), raise() and
 * _exit(), with numbers formatted by hand.
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

static size_t put_hex(char *buf, size_t at, size_t cap, uintptr_t v)
{
    char digits[2 * sizeof v];
    int n = 0;
    do {
        digits[n++] = "0123456789abcdef"[v % 16];
        v /= 16;
    } while (v && n < (int)sizeof digits);
    at = put(buf, at, cap, "0x");
    while (n > 0 && at + 1 < cap)
        buf[at++] = digits[--n];
    return at;
}

/* "-300 (300 before its start)" or "1299 (300 past the end of its 1000 elements)" */
static size_t put_where(char *buf, size_t at, size_t cap, long long index, size_t elems)
{
    at = put_number(buf, at, cap, index);
    at = put(buf, at, cap, " (");
    if (index < 0) {
        at = put_number(buf, at, cap, -index);
        return put(buf, at, cap, " before its start)");
    }
    at = put_number(buf, at, cap, index - (long long)elems + 1);
    at = put(buf, at, cap, " past the end of its ");
    at = put_number(buf, at, cap, (long long)elems);
    return put(buf, at, cap, " elements)");
}

/* The watched buffer whose matrix is nearest to an address, and where the address is from it. */
typedef struct nearest {
    const struct watch *w;   /* NULL: no buffer is watched */
    long long index;         /* an element index relative to the matrix: -1 is just before it, elems just after */
    unsigned long long away; /* floats from the matrix's nearer end (1: the adjacent element; 0: inside) */
} nearest;

/* By distance, not by whose mapping holds the address: mappings lie side by side, and an address
 * in one buffer's inaccessible pages may be far nearer the next buffer. */
static nearest find_nearest(uintptr_t addr)
{
    nearest best = {NULL, 0, 0};
    for (int i = 0; i < GEMM_FAULT_WATCH_MAX; i++) {
        const struct watch *w = &watches[i];
        if (!w->used)
            continue;
        nearest here = {w, 0, 0};
        if (addr < w->matrix) {
            here.away = (w->matrix - addr + sizeof(float) - 1) / sizeof(float);
            here.index = -(long long)here.away;
        } else {
            here.index = (long long)((addr - w->matrix) / sizeof(float));
            if ((unsigned long long)here.index >= w->elems)
                here.away = (unsigned long long)here.index - w->elems + 1;
        }
        if (!best.w || here.away < best.away)
            best = here;
    }
    return best;
}

/* 1 if the address is in the inaccessible pages of a watched buffer */
static int in_fence(uintptr_t addr)
{
    for (int i = 0; i < GEMM_FAULT_WATCH_MAX; i++) {
        const struct watch *w = &watches[i];
        if (w->used && addr >= w->lo && addr < w->hi && !(addr >= w->usable_lo && addr < w->usable_hi))
            return 1;
    }
    return 0;
}

static const char *signal_name(int sig)
{
    return sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : sig == SIGFPE ? "SIGFPE" : "SIGILL";
}

/* A fault in the inaccessible pages: the buffer nearest to it, and the index (exit code 1). */
static size_t out_of_bounds_line(char *line, size_t cap, int sig, nearest near, const char *running)
{
    size_t at = put(line, 0, cap, gemm_program_name());
    at = put(line, at, cap, ": error: out-of-bounds access: a kernel read or wrote ");
    at = put(line, at, cap, near.w->label);
    at = put(line, at, cap, " at index ");
    at = put_where(line, at, cap, near.index, near.w->elems);
    at = put(line, at, cap, ", beyond its guard region: the access hit the inaccessible pages around it (");
    at = put(line, at, cap, signal_name(sig));
    if (running) {
        at = put(line, at, cap, ", while ");
        at = put(line, at, cap, running);
        at = put(line, at, cap, " ran");
    }
    return put(line, at, cap, ")\n");
}

/* Any other fatal signal while something of ours runs: what it usually means (exit code 3). */
static size_t crash_line(char *line, size_t cap, int sig, const siginfo_t *info, const char *running)
{
    const uintptr_t addr = (uintptr_t)info->si_addr;
    size_t at = put(line, 0, cap, gemm_program_name());
    at = put(line, at, cap, ": error: the program crashed with ");
    at = put(line, at, cap, signal_name(sig));
    at = put(line, at, cap, " while ");
    at = put(line, at, cap, running);
    at = put(line, at, cap, " ran: ");
    if (sig == SIGFPE)
        return put(line, at, cap, "an integer division by zero (or of the smallest int by -1)\n");
    if (sig == SIGILL)
        return put(line, at, cap, "an illegal instruction: the trap a compiler leaves where it proved undefined "
                                  "behaviour, or a bug of the kernel compiler or the driver\n");
#ifdef SI_KERNEL
    if (info->si_code == SI_KERNEL) /* Linux on x86-64: a general protection fault, no address given */
        return put(line, at, cap, "a read or write at an address no pointer may hold (a non-canonical one): a 64-bit "
                                  "index or a pointer far out of range\n");
#endif
    at = put(line, at, cap, "a read or write at address ");
    at = put_hex(line, at, cap, addr);
    if (addr < 65536)
        return put(line, at, cap, ", through a null pointer\n");
    at = put(line, at, cap, ", outside every buffer: a 64-bit index gone wrong, or a wild pointer");
    const nearest near = find_nearest(addr);
    if (near.w && near.away <= ((unsigned long long)1 << 32)) { /* as far as an index could stray */
        at = put(line, at, cap, "; the nearest buffer is ");
        at = put(line, at, cap, near.w->label);
        at = put(line, at, cap, ", index ");
        at = put_where(line, at, cap, near.index, near.w->elems);
        at = put(line, at, cap, ", beyond its guard region and the inaccessible pages around it");
    }
    return put(line, at, cap, "\n");
}

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
#define NFATAL (sizeof fatal_signals / sizeof fatal_signals[0])
static struct sigaction previous[NFATAL]; /* the handlers ours replaced (AddressSanitizer's, ...); else the default */

/* Not ours: the handler before ours takes it, as if ours were not there. */
static void pass_on(int sig, const siginfo_t *info)
{
    for (size_t i = 0; i < NFATAL; i++)
        if (fatal_signals[i] == sig)
            sigaction(sig, &previous[i], NULL);
    if (info->si_code <= 0) /* sent, not caused by an instruction: it would not come again */
        raise(sig);
    /* caused by an instruction: on return it runs again, and faults again, into that handler */
}

static void on_fatal(int sig, siginfo_t *info, void *context)
{
    (void)context;
    const uintptr_t addr = (uintptr_t)info->si_addr;
    const int fenced = (sig == SIGSEGV || sig == SIGBUS) && in_fence(addr);
    const char *running = gemm_running_now();
    if (!fenced && !running) {
        pass_on(sig, info);
        return;
    }
    /* The device's threads can fault together, and the watchdog may be ending the run: one line */
    if (!gemm_fatal_claim())
        for (;;)
            pause();
    gemm_progress_abandon();
    char line[768];
    const size_t at = fenced ? out_of_bounds_line(line, sizeof line, sig, find_nearest(addr), running)
                             : crash_line(line, sizeof line, sig, info, running);
    ssize_t ignored = write(STDERR_FILENO, line, at);
    (void)ignored;
    _exit(fenced ? GEMM_EXIT_VERIFY_FAILED : GEMM_EXIT_RUNTIME);
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
    sa.sa_sigaction = on_fatal;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NFATAL; i++) {
        struct sigaction old;
        if (sigaction(fatal_signals[i], &sa, &old) == 0 && !((old.sa_flags & SA_SIGINFO) && old.sa_sigaction == on_fatal))
            previous[i] = old;
    }
}
