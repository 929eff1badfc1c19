/**
 * @file gemm_memory.h
 * @brief Host memory: what a run needs against what the system allows, and buffers between
 * inaccessible pages.
 *
 * **Before allocating**, every program compares the host memory its run needs with what it may
 * use, and refuses a run that cannot fit with one line and exit code 2, giving the figures:
 *
 * - physical memory: `MemAvailable` (/proc/meminfo), or less where the process's memory cgroup
 *   (v2 `memory.max`, v1 `memory.limit_in_bytes`, of its own group and every ancestor) leaves
 *   less; this bounds what the run touches: A, B, C and the result, the device buffers where
 *   the device's memory is host memory (a CPU device), the reference, and an allowance for the
 *   OpenCL driver, the kernel compiler and the CPU BLAS;
 * - address space: RLIMIT_AS (`ulimit -v`) less what the process has mapped (VmSize), and
 *   RLIMIT_DATA (`ulimit -d`) less VmData; this also bounds what libraries merely reserve:
 *   each thread of PoCL or OpenBLAS reserves tens of MiB.
 *
 * When everything but the full double-precision reference fits, or when the full reference
 * would take too long (M*N*K above 2^40 multiply-adds), the reference covers a sample of rows
 * and columns instead (gemm_reference_compute()), and the report says so.
 *
 * The first check runs before the OpenCL driver and the CPU BLAS are loaded (they reserve
 * memory as they load, and some retry a failed reservation forever), with the sizes given on the
 * command line; the second once the device is known, before any buffer is made.
 *
 * **Fenced buffers.** Where the device's buffers are host memory (a CPU device with unified
 * memory, such as PoCL's), the harness makes them itself (`CL_MEM_USE_HOST_PTR`) between
 * inaccessible pages: a kernel that reads or writes beyond a buffer's guard regions (gemm_cl.h)
 * then faults, and gemm_fault_install()'s handler reports it as an out-of-bounds access: one
 * line, exit code 1 (#GEMM_EXIT_VERIFY_FAILED), naming the buffer nearest to the address.
 *
 * **Crashes.** Any other SIGSEGV, SIGBUS, SIGFPE or SIGILL while a kernel runs (gemm_running_now()
 * of gemm_watchdog.h: a write through a null pointer, a 64-bit index far from every buffer, an
 * integer division by zero, a compiler's trap) ends the program with one line naming the kernel
 * and what the signal usually means, and exit code 3 (#GEMM_EXIT_RUNTIME).
 */
#ifndef GEMM_MEMORY_H
#define GEMM_MEMORY_H

#include <stddef.h>

#include "gemm_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief What this process may still use, read from the system (INFINITY where there is no limit). */
typedef struct gemm_memory_limits {
    double physical;          /**< bytes of physical memory available to the process */
    char physical_from[96];   /**< where that figure comes from, e.g. "MemAvailable" */
    double address_limit;     /**< bytes of address space the process may map in all */
    double address_used;      /**< bytes it has mapped already (VmSize, or VmData under RLIMIT_DATA) */
    char address_from[64];    /**< e.g. "RLIMIT_AS (ulimit -v)" */
} gemm_memory_limits;

/** @brief Reads the limits now (MemAvailable, the memory cgroup, RLIMIT_AS, RLIMIT_DATA). */
void gemm_memory_read_limits(gemm_memory_limits *lim);

/** @brief 1 if an address-space limit (RLIMIT_AS or RLIMIT_DATA) is in force. */
int gemm_memory_address_limited(void);

/** @brief What a run will allocate besides the reference, in bytes. */
typedef struct gemm_memory_use {
    double host;          /**< host arrays: A, B, C0, the result, staging copies */
    double device;        /**< device buffers that live in host memory (0 on a GPU) */
    double reserved;      /**< address space reserved without memory (inaccessible pages) */
    int driver_loaded;    /**< 1 once the OpenCL driver is loaded (its reservations are then in VmSize) */
    int blas;             /**< 1 if the CPU BLAS will be loaded for the reference */
} gemm_memory_use;

/**
 * @name Allowances for what the libraries allocate themselves
 * Measured with PoCL 3.1 and OpenBLAS 0.3.21 on Debian 12 (x86-64): PoCL reserves ~300 MiB of
 * address space as it loads, ~75 MiB more per worker thread, ~64 MiB more to compile and run,
 * and has ~80 MiB resident after a small run; OpenBLAS with one thread reserves ~150 MiB.
 * @{
 */
/**
 * @brief Address space for the OpenCL driver before it is loaded: PoCL's, 320 MiB and 80 MiB per
 * worker thread (one per CPU, or POCL_MAX_PTHREAD_COUNT). Used only under an address-space limit.
 */
double gemm_memory_driver_reserve(void);
/** @brief Address space for compiling and running once the driver is loaded. */
#define GEMM_MEM_RUN_RESERVE (128.0 * 1048576.0)
/** @brief Resident memory for the driver, the compiler and the runs. */
#define GEMM_MEM_DRIVER_RESIDENT (192.0 * 1048576.0)
/** @brief Address space (and at most this much memory) for the CPU BLAS with one thread. */
#define GEMM_MEM_BLAS (192.0 * 1048576.0)
/** @} */

/** @brief M*N*K above which the full reference would take too long and a sample is verified. */
#define GEMM_FULL_REFERENCE_MAX_MNK 1099511627776.0

/**
 * @brief Decides whether a run fits: with the full reference (@p *sample = 0), with a sampled
 * one (@p *sample = #GEMM_SAMPLE_LINES, and @p why says why in a few words), or not at all.
 * @param lim what the system allows (gemm_memory_read_limits())
 * @param use what the run allocates besides the reference
 * @param m rows of A and C
 * @param n columns of B and C
 * @param k columns of A, rows of B
 * @param verify 0 if no reference will be made (`--no-verify`)
 * @param sample set to 0 (full reference) or #GEMM_SAMPLE_LINES (sampled)
 * @param why set to the reason for a sample, in a few words ("" for a full reference)
 * @param why_len size of @p why
 * @param msg filled with one line on a refusal
 * @return 0, or #GEMM_EXIT_BAD_INPUT with one line in @p msg: what is needed, in parts, and
 * what is available, from where.
 */
int gemm_memory_plan(const gemm_memory_limits *lim, const gemm_memory_use *use, long m, long n, long k, int verify,
                     long *sample, char *why, size_t why_len, gemm_msg *msg);

/**
 * @brief gemm_memory_plan() for a run whose only large arrays are on the host: A, B, C0 and the
 * result, plus the reference. @p driver_loaded says whether the libraries that reserve memory
 * as they load (the OpenCL driver) are loaded already (see #gemm_memory_use).
 */
int gemm_memory_check_host(long m, long n, long k, int verify, int driver_loaded, long *sample, char *why,
                           size_t why_len, gemm_msg *msg);

/**
 * @brief Before the OpenCL driver loads: refuses (exit 2, one line with the figures) if an
 * address-space limit leaves less than gemm_memory_driver_reserve() for it (the driver, PoCL
 * at least, aborts or fails to load when it cannot map what it needs).
 */
int gemm_memory_check_driver(gemm_msg *msg);

/** @brief Host memory between inaccessible pages (see the file comment). */
typedef struct gemm_fenced {
    void *map;        /**< the whole mapping: fence, usable part, fence */
    size_t map_len;   /**< its length */
    void *usable;     /**< the accessible part, page-aligned */
    size_t usable_len; /**< its length, a multiple of the page size */
    size_t fence;     /**< bytes of inaccessible pages on each side */
} gemm_fenced;

/** @brief The page size. */
size_t gemm_page_size(void);

/**
 * @brief Maps @p bytes (rounded up to pages) with @p fence bytes (rounded up to pages) of
 * inaccessible pages on each side. The fences reserve address space only, no memory.
 * @return 0, or #GEMM_EXIT_RUNTIME with @p msg filled.
 */
int gemm_fenced_alloc(gemm_fenced *f, size_t bytes, size_t fence, gemm_msg *msg);

/** @brief Unmaps (safe on a zeroed struct). */
void gemm_fenced_free(gemm_fenced *f);

/** @brief Most buffers the fault handler can name. */
#define GEMM_FAULT_WATCH_MAX 8

/**
 * @brief Tells the fault handler about one buffer: a fault anywhere in @p f is reported as an
 * out-of-bounds access to @p label, at an index relative to @p matrix (@p elems floats).
 * @p slot is 0 .. #GEMM_FAULT_WATCH_MAX-1; @p label must outlive the watch.
 */
void gemm_fault_watch(int slot, const gemm_fenced *f, const char *label, const float *matrix, size_t elems);

/** @brief Forgets a buffer (before it is freed). */
void gemm_fault_unwatch(int slot);

/**
 * @brief Installs a handler of SIGABRT for the calls into the OpenCL driver: a driver that
 * aborts (PoCL does when it cannot start its threads or get memory, e.g. under `ulimit -v`) ends
 * the program with one line (after the driver's own words) and exit code 3, naming the
 * address-space limit if one is in force, instead of a core dump. Called before the driver loads
 * and again after (PoCL's LLVM installs its own handler as it loads, which ours then calls first).
 */
void gemm_abort_install(void);

/**
 * @brief Installs the handler of SIGSEGV, SIGBUS, SIGFPE and SIGILL (again after another's: safe
 * to call more than once). A fault inside a watched mapping prints "<program>: error:
 * out-of-bounds access: ..." with the nearest watched buffer and ends the process with exit code
 * 1; any other of these signals while gemm_running_now() names something prints "<program>:
 * error: the program crashed with SIG... while <it> ran: <what it usually means>" and ends it
 * with exit code 3. Otherwise the signal goes to the handler that ours replaced
 * (AddressSanitizer's in a sanitized build) or takes its default action.
 */
void gemm_fault_install(void);

#ifdef __cplusplus
}
#endif

#endif /* GEMM_MEMORY_H */
