// peak: the measured ceilings of an OpenCL device, against which the benchmark puts the SGEMM
// steps: (a) FP32 multiply-add throughput, (b) device-memory bandwidth and (d) on NVIDIA GPUs of
// compute capability 8.0 and later, TF32 tensor-core throughput (kernels in peak.cl).
//
// Both are measured like the steps: the harness chooses the device (--platform, --device), a
// profiling queue times each kernel on the device (END - START of its event), warm-up runs come
// first and the report gives the median and the best of the timed runs.
//
// (a) The FMA kernels (float4, float8, float16 accumulators; 8 or 16 independent chains per
//     work-item, peak.cl says why both) run on 16 work-groups per compute unit; their loop count is
//     calibrated until one run takes about --fma-ms milliseconds, so that launch overhead does not
//     count. GFLOPS = 2 flops per multiply-add / time. The best kernel's median is the device's
//     "FMA peak".
// (b) The copy kernel moves one buffer into another, float4 per work-item; GB/s counts the bytes
//     read plus the bytes written. Buffers of 1 GiB on a GPU (far beyond its L2), 128 MiB on
//     other devices, or --copy-mib, within a quarter of the device memory and the largest
//     allocation.
// (c) With --local-reads, instead of (a) and (b): the cost of a float4 read from local memory for
//     each way the work-items of a warp of 32 can share the vectors they read (the patterns of
//     read_patterns[] below; peak.cl's local_reads says how the kernel reads). Steps 7 and 8 differ
//     only in such a pattern; their pages show what it costs on the recorded GPU. The loop count is
//     calibrated as in (a); cycles per read = time x the device's reported clock / the warp reads
//     each compute unit made, an estimate that assumes the clock the device reports.
// (d) The TF32 kernel (peak.cl's tf32_mma: mma.sync m16n8k8 from inline PTX, 8 independent
//     accumulators per warp) runs like (a), calibrated the same way; GFLOPS = 2*16*8*8 flops per
//     mma per warp / time. peak.cl is built with -DPEAK_TF32 only where the device reports compute
//     capability 8.0 or later, so no other compiler sees the PTX; elsewhere the report says why it
//     was skipped. It comes last and cannot fail the run: a TF32 kernel that does not build (peak.cl
//     is then built again without it), fails or sums wrong is reported as not measured, with (a)
//     and (b) as measured.
// Each result is checked: the FMA sums must be finite, the copy must reproduce the source (both
// ends of the buffer are read back) and every work-item's sum of local reads must be the one the
// host computes for its lane; a failure exits with 1, like a failed SGEMM check.
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gemm_cl.h"
#include "gemm_options.h"
#include "gemm_params.h"
#include "gemm_progress.h"
#include "gemm_report.h"

#define NAME "peak"

extern const char peak_kernel_source[];

/* The FMA kernels: the vector width and the number of independent chains each one uses. */
static const struct {
    const char *kernel;
    const char *type;
    int width;
    int chains;
} fma_kernels[] = {{"fma_float4", "float4", 4, 8},       {"fma_float8", "float8", 8, 8},
                   {"fma_float16", "float16", 16, 8},    {"fma16_float4", "float4", 4, 16},
                   {"fma16_float8", "float8", 8, 16},    {"fma16_float16", "float16", 16, 16}};
#define NFMA (sizeof fma_kernels / sizeof fma_kernels[0])
#define FMA_PER_ITERATION 64 /* vector multiply-adds per loop iteration per work-item (peak.cl) */
#define FMA_GROUPS_PER_CU 16
#define TF32_ACCS 8                        /* mma per loop iteration per warp: peak.cl's TF32_ACCS */
#define TF32_FLOPS_PER_MMA (2.0 * 16 * 8 * 8) /* m16n8k8: 16 x 8 outputs, 8 multiply-adds each */
#define TF32_VALUE 0.0009765625f           /* 2^-10, every element of A and B (exact in TF32) */
#define TF32_MIN_CC 80                     /* mma.sync with TF32 operands: compute capability 8.0 */

/* The local-read patterns, in the order of peak.cl's switch in local_reads: the column of the tile
 * that the work-item in place `lane` of a warp of 32 reads (read_column()), as the kernel writes it. */
static const struct {
    const char *index;
    const char *what;
} read_patterns[] = {
    {"lane", "32 different neighbouring vectors"},
    {"lane % 16", "lanes 16 apart share a vector (a warp of 2 x 16, along N)"},
    {"lane % 8", "lanes 8 apart share a vector (a warp of 4 x 8, along N)"},
    {"lane / 16", "16 neighbouring lanes share a vector (2 x 16, along M)"},
    {"lane / 8", "8 neighbouring lanes share a vector (4 x 8, along M)"},
    {"lane / 2", "pairs of neighbouring lanes share a vector"},
    {"lane % 4", "lanes 4 apart share a vector"},
    {"0", "the whole warp reads one vector"},
    {"lane*8 % 64 + lane/8", "32 different vectors 128 bytes apart (bank conflicts)"},
    {"lane/4 % 4*2 + lane%2", "lanes l and l^2 share a vector (4 x 8 in 2 x 2 squares, along N)"},
    {"lane/16*2 + lane/2 % 2", "lanes l and l^1 share a vector (4 x 8 in 2 x 2 squares, along M)"},
};
#define NREAD (sizeof read_patterns / sizeof read_patterns[0])
#define READ_ROWS 16 /* the tile of peak.cl's local_reads: READ_ROWS x READ_COLS float4 */
#define READ_COLS 64
#define READ_GROUPS_PER_CU 8
#define READS_PER_ITERATION 8

static int read_column(size_t pattern, int lane)
{
    switch (pattern) {
    case 0: return lane;
    case 1: return lane % 16;
    case 2: return lane % 8;
    case 3: return lane / 16;
    case 4: return lane / 8;
    case 5: return lane / 2;
    case 6: return lane % 4;
    case 7: return 0;
    case 8: return lane * 8 % READ_COLS + lane / 8;
    case 9: return lane / 4 % 4 * 2 + lane % 2;
    default: return lane / 16 * 2 + lane / 2 % 2;
    }
}

/* The copy's source holds 0, 1, ..., 31 over and over; the check reads it back from dst. */
#define COPY_PATTERN 32
#define COPY_CHECK_BYTES ((size_t)64 << 10)

typedef struct peak_config {
    long copy_mib;  /* 0 = default for the device */
    long fma_ms;    /* target time of one FMA run (and of one local-read run) */
    int repeat, warmup;
    int local_reads; /* --local-reads: measure the local-read patterns instead of (a) and (b) */
} peak_config;

typedef struct peak_result {
    double fma_median[NFMA], fma_best[NFMA]; /* GFLOPS per width */
    size_t fma_items;                        /* work-items of the FMA runs */
    int fma_iterations[NFMA];                /* calibrated loop counts */
    double copy_median, copy_best;           /* GB/s */
    size_t copy_bytes;                       /* bytes of each buffer */
    double read_median[NREAD], read_best[NREAD]; /* ms per run of each local-read pattern */
    size_t read_items;                           /* work-items of the local-read runs */
    int read_iterations[NREAD];                  /* calibrated loop counts */
    double tf32_median, tf32_best;               /* TF32 tensor-core GFLOPS, 0 if not measured */
    size_t tf32_items;                           /* work-items of the TF32 runs */
    int tf32_iterations;                         /* calibrated loop count */
    char tf32_skipped[600];                      /* why the TF32 tensor cores were not measured */
} peak_result;

static void print_help(FILE *out, const void *ctx)
{
    (void)ctx;
    fprintf(out,
            "usage: %s [options]\n\n"
            "Measures the ceilings of an OpenCL device, to compare the SGEMM steps with:\n"
            "  FP32 multiply-add throughput in GFLOPS (2 flops per multiply-add; float4, float8 and\n"
            "  float16 kernels with 8 or 16 independent chains, the best one is the device's FMA peak),\n"
            "  device-memory bandwidth in GB/s (a float4 copy between two large buffers; bytes read\n"
            "  + bytes written) and, on NVIDIA GPUs of compute capability 8.0 or later, TF32 tensor-core\n"
            "  throughput in GFLOPS (mma.sync m16n8k8, 2*16*8*8 flops per mma; skipped elsewhere, with\n"
            "  the reason). With --local-reads, the cost of reading local memory instead (below).\n"
            "Device time from OpenCL profiling events; median and best of the timed runs.\n\n"
            "options:\n"
            "  --platform P         OpenCL platform: index or part of its name\n"
            "  --device D           device: index (see --list-devices) or part of its name;\n"
            "                       default: the first GPU, else the first device\n"
            "  --list-devices       list the OpenCL platforms and devices, then exit\n"
            "  --repeat R           timed runs (default 20 on a GPU, 3 otherwise)\n"
            "  --warmup W           untimed runs before timing (default 3 on a GPU, 1 otherwise)\n"
            "  --fma-ms MS          calibrate the FMA loop (with --local-reads: the read loop) until one\n"
            "                       run takes about MS ms (default 20)\n"
            "  --copy-mib MIB       size of each copy buffer (default 1024 on a GPU, 128 otherwise;\n"
            "                       at most a quarter of the device memory and the largest allocation)\n"
            "  --csv                print a CSV header and one line on stdout (the report goes to stderr):\n"
            "                       platform,device,driver,fma_gflops,fma_gflops_best,fma_vector,\n"
            "                       copy_gbps,copy_gbps_best,copy_mib,warmup,repeat,date,fma_chains,\n"
            "                       tf32_gflops,tf32_gflops_best (fma_gflops, copy_gbps and tf32_gflops\n"
            "                       from the median run; the tf32 ones empty where not measured); the header is left out\n"
            "                       where stdout is a file that holds data already\n"
            "  --no-header          with --csv: print no CSV header line\n"
            "  --local-reads        measure instead how long a float4 read from local memory takes for\n"
            "                       each way the 32 work-items of a warp share the vectors they read\n"
            "                       (col = lane, lane %% 8, lane / 8, ...: steps 7 and 8 differ in these);\n"
            "                       with --csv one line per pattern: platform,device,driver,clock_mhz,\n"
            "                       compute_units,work_items,col,vectors,iterations,median_ms,best_ms,\n"
            "                       cycles_per_read,relative,warmup,repeat,date\n"
            "  -h, --help           print this help and exit\n"
            "  --version            print the version and exit\n\n"
            "exit codes:\n"
            "  0  measured\n"
            "  1  a sanity check failed (non-finite FMA result, the copy did not reproduce its source, or\n"
            "     a work-item's sum of local reads differs from the host's)\n"
            "  2  bad option\n"
            "  3  OpenCL or runtime error\n",
            NAME);
}

/* Takes peak's own options (--fma-ms, --copy-mib, --local-reads) out of argv; the rest goes to the shared parser. */
static int take_own_options(int argc, char **argv, int *rest_argc, char **rest, peak_config *cfg, gemm_msg *msg)
{
    static const struct {
        const char *name;
        long min, max;
    } own[] = {{"--fma-ms", 1, 100000}, {"--copy-mib", 1, 1 << 20}};
    *rest_argc = 0;
    rest[(*rest_argc)++] = argv[0];
    for (int i = 1; i < argc; i++) {
        int which = -1;
        const char *value = NULL;
        for (int o = 0; o < 2; o++) {
            const size_t len = strlen(own[o].name);
            if (strncmp(argv[i], own[o].name, len) == 0 && (argv[i][len] == '\0' || argv[i][len] == '=')) {
                which = o;
                value = argv[i][len] == '=' ? argv[i] + len + 1 : (i + 1 < argc ? argv[++i] : NULL);
            }
        }
        if (which < 0 && strcmp(argv[i], "--local-reads") == 0) {
            cfg->local_reads = 1;
            continue;
        }
        if (which < 0) {
            rest[(*rest_argc)++] = argv[i];
            continue;
        }
        if (!value)
            return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "option %s needs a value", own[which].name);
        char *end = NULL;
        errno = 0;
        const long v = strtol(value, &end, 10);
        if (!isdigit((unsigned char)value[0]) || *end || errno == ERANGE || v < own[which].min || v > own[which].max)
            return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "%s expects an integer from %ld to %ld, got '%s'",
                             own[which].name, own[which].min, own[which].max, value);
        *(which == 0 ? &cfg->fma_ms : &cfg->copy_mib) = v;
    }
    rest[*rest_argc] = NULL;
    return 0;
}

/* Enqueues one run of @p kernel over @p global work-items and returns its device time. */
static int timed_run(gemm_cl *cl, cl_kernel kernel, size_t global, size_t local, double *ms, gemm_msg *msg)
{
    cl_event ev = NULL;
    cl_int err = clEnqueueNDRangeKernel(cl->queue, kernel, 1, NULL, &global, &local, 0, NULL, &ev);
    if (err != CL_SUCCESS)
        return gemm_cl_fail(msg, "clEnqueueNDRangeKernel", err);
    err = clWaitForEvents(1, &ev);
    int rc = err == CL_SUCCESS ? gemm_event_ms(ev, ms, msg) : gemm_cl_fail(msg, "clWaitForEvents", err);
    clReleaseEvent(ev);
    return rc;
}

/* Warm-up and timed runs of what @p label names; median and best of the timed ones in ms. */
static int timed_runs(gemm_cl *cl, const char *label, cl_kernel kernel, size_t global, size_t local,
                      const peak_config *cfg, double *median, double *best, gemm_msg *msg)
{
    double *t = malloc((size_t)cfg->repeat * sizeof(double));
    if (!t)
        return gemm_msgf(msg, GEMM_EXIT_RUNTIME, "out of host memory");
    int rc = 0;
    for (int run = 0; run < cfg->warmup + cfg->repeat && !rc; run++) {
        double ms = 0;
        if (run < cfg->warmup)
            gemm_progress_set("%s: warm-up run %d of %d", label, run + 1, cfg->warmup);
        else
            gemm_progress_set("%s: timed run %d of %d", label, run - cfg->warmup + 1, cfg->repeat);
        rc = timed_run(cl, kernel, global, local, &ms, msg);
        if (run >= cfg->warmup)
            t[run - cfg->warmup] = ms;
    }
    if (!rc) {
        *median = gemm_median(t, cfg->repeat);
        *best = gemm_min(t, cfg->repeat);
    }
    free(t);
    return rc;
}

/* Work-group size for a kernel: 256 or what the device and the compiled kernel allow. */
static int local_size(gemm_cl *cl, cl_kernel kernel, size_t *local, gemm_msg *msg)
{
    size_t kernel_wg = 0;
    cl_int err = clGetKernelWorkGroupInfo(kernel, cl->dev.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kernel_wg,
                                          &kernel_wg, NULL);
    if (err != CL_SUCCESS)
        return gemm_cl_fail(msg, "clGetKernelWorkGroupInfo", err);
    *local = 256;
    if (*local > kernel_wg)
        *local = kernel_wg;
    if (*local > cl->dev.max_item[0])
        *local = cl->dev.max_item[0];
    return 0;
}

/* A kernel that loops (FMA, local reads, TF32): kernel @p name of the built program, its work-group
 * size (local_size()), @p groups_per_cu work-groups per compute unit (@p items work-items), and its
 * output, a buffer of @p out_bytes_per_item bytes per work-item set as argument @p out_arg. What it
 * created is the caller's to release, on a failure too. */
static int loop_kernel(gemm_cl *cl, const char *name, size_t groups_per_cu, size_t out_bytes_per_item, cl_uint out_arg,
                       cl_kernel *kernel, cl_mem *out, size_t *local, size_t *items, gemm_msg *msg)
{
    int rc = gemm_cl_kernel(cl, name, kernel, msg);
    if (!rc)
        rc = local_size(cl, *kernel, local, msg);
    if (rc)
        return rc;
    *items = (size_t)cl->dev.compute_units * groups_per_cu * *local;
    cl_int err;
    *out = clCreateBuffer(cl->context, CL_MEM_WRITE_ONLY, *items * out_bytes_per_item, NULL, &err);
    if (err != CL_SUCCESS) {
        *out = NULL;
        return gemm_cl_fail(msg, "clCreateBuffer(the kernel's results)", err);
    }
    err = clSetKernelArg(*kernel, out_arg, sizeof *out, out);
    return err == CL_SUCCESS ? 0 : gemm_cl_fail(msg, "clSetKernelArg(the kernel's results)", err);
}

/* Calibration: grows the loop count (argument 0 of @p kernel) until one run takes at least half of
 * the target time, --fma-ms. */
static int calibrate(gemm_cl *cl, cl_kernel kernel, size_t items, size_t local, const peak_config *cfg,
                     const char *label, cl_int *iterations, gemm_msg *msg)
{
    gemm_progress_set("%s: calibrating the loop count", label);
    *iterations = 1;
    for (int tries = 0; tries < 30; tries++) {
        double ms = 0;
        cl_int err = clSetKernelArg(kernel, 0, sizeof *iterations, iterations);
        if (err != CL_SUCCESS)
            return gemm_cl_fail(msg, "clSetKernelArg(iterations)", err);
        int rc = timed_run(cl, kernel, items, local, &ms, msg);
        if (rc || ms >= 0.5 * (double)cfg->fma_ms || *iterations >= (1 << 24))
            return rc;
        double grow = ms > 0 ? (double)cfg->fma_ms / ms : 64.0;
        grow = grow < 2.0 ? 2.0 : (grow > 64.0 ? 64.0 : grow);
        *iterations = (cl_int)ceil(*iterations * grow);
        if (*iterations > (1 << 24))
            *iterations = 1 << 24;
    }
    return 0;
}

/* One FMA kernel: calibrate the loop count, time it, check that the sums are finite. */
static int measure_fma(gemm_cl *cl, size_t w, const peak_config *cfg, peak_result *res, gemm_msg *msg)
{
    cl_kernel kernel = NULL;
    cl_mem out = NULL;
    float *sums = NULL;
    size_t local = 0, items = 0;
    int rc = loop_kernel(cl, fma_kernels[w].kernel, FMA_GROUPS_PER_CU, (size_t)fma_kernels[w].width * sizeof(float), 3,
                         &kernel, &out, &local, &items, msg);
    cl_int err = CL_SUCCESS;
    cl_int iterations = 1;
    const cl_float mul = 0.999f, add = 0.001f;
    if (!rc) {
        err = clSetKernelArg(kernel, 1, sizeof mul, &mul);
        if (err == CL_SUCCESS)
            err = clSetKernelArg(kernel, 2, sizeof add, &add);
        if (err != CL_SUCCESS)
            rc = gemm_cl_fail(msg, "clSetKernelArg(FMA kernel)", err);
    }
    char label[64];
    snprintf(label, sizeof label, "%s (%d chains)", fma_kernels[w].kernel, fma_kernels[w].chains);
    if (!rc)
        rc = calibrate(cl, kernel, items, local, cfg, label, &iterations, msg);
    double median = 0, best = 0;
    if (!rc)
        rc = timed_runs(cl, label, kernel, items, local, cfg, &median, &best, msg);
    if (!rc) {
        const double flops = 2.0 * (double)items * iterations * FMA_PER_ITERATION * fma_kernels[w].width;
        res->fma_median[w] = flops / (median * 1e6);
        res->fma_best[w] = flops / (best * 1e6);
        res->fma_items = items;
        res->fma_iterations[w] = iterations;
        /* Sanity: the sums of the first work-items are finite and positive. */
        const size_t check = (size_t)fma_kernels[w].width * (items < 64 ? items : 64);
        sums = malloc(check * sizeof(float));
        if (!sums)
            rc = gemm_msgf(msg, GEMM_EXIT_RUNTIME, "out of host memory");
        else if ((err = clEnqueueReadBuffer(cl->queue, out, CL_TRUE, 0, check * sizeof(float), sums, 0, NULL,
                                            NULL)) != CL_SUCCESS)
            rc = gemm_cl_fail(msg, "clEnqueueReadBuffer(FMA sums)", err);
        for (size_t i = 0; !rc && i < check; i++)
            if (!isfinite(sums[i]) || !(sums[i] > 0.0f))
                rc = gemm_msgf(msg, GEMM_EXIT_VERIFY_FAILED,
                               "%s: sum %zu of the FMA chains is %g, not a positive number", fma_kernels[w].kernel, i,
                               (double)sums[i]);
    }
    free(sums);
    if (out)
        clReleaseMemObject(out);
    if (kernel)
        clReleaseKernel(kernel);
    return rc;
}

/* Reads @p bytes at @p offset of dst back and checks them against the source pattern. */
static int check_copy(gemm_cl *cl, cl_mem dst, size_t offset, size_t bytes, gemm_msg *msg)
{
    float *got = malloc(bytes);
    if (!got)
        return gemm_msgf(msg, GEMM_EXIT_RUNTIME, "out of host memory");
    int rc = 0;
    cl_int err = clEnqueueReadBuffer(cl->queue, dst, CL_TRUE, offset, bytes, got, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        rc = gemm_cl_fail(msg, "clEnqueueReadBuffer(copy)", err);
    for (size_t i = 0; !rc && i < bytes / sizeof(float); i++) {
        const size_t at = offset / sizeof(float) + i;
        if (got[i] != (float)(at % COPY_PATTERN))
            rc = gemm_msgf(msg, GEMM_EXIT_VERIFY_FAILED, "the copy is wrong at float %zu: got %g, expected %g", at,
                           (double)got[i], (double)(at % COPY_PATTERN));
    }
    free(got);
    return rc;
}

/* The copy: buffer size, fill, time, check both ends. */
static int measure_copy(gemm_cl *cl, const peak_config *cfg, peak_result *res, gemm_msg *msg)
{
    const gemm_device_info *dev = &cl->dev;
    const int gpu = dev->cls == GEMM_DEVICE_NVIDIA_GPU || dev->cls == GEMM_DEVICE_GPU;
    cl_kernel kernel = NULL;
    cl_mem src = NULL, dst = NULL;
    size_t local = 0;
    int rc = gemm_cl_kernel(cl, "copy_float4", &kernel, msg);
    if (!rc)
        rc = local_size(cl, kernel, &local, msg);
    if (rc) {
        if (kernel)
            clReleaseKernel(kernel);
        return rc;
    }
    size_t bytes = (size_t)(cfg->copy_mib ? cfg->copy_mib : (gpu ? 1024 : 128)) << 20;
    if (bytes > dev->max_alloc)
        bytes = (size_t)dev->max_alloc;
    if (bytes > dev->global_mem / 4)
        bytes = (size_t)(dev->global_mem / 4);
    /* Whole work-groups of float4, and whole copies of the source's pattern: clEnqueueFillBuffer
     * refuses a size that is not a multiple of the pattern's (CL_INVALID_VALUE), which a
     * work-group of a size not a multiple of 8 (a device or kernel limit below 256) would give */
    size_t unit = local * 4 * sizeof(float);
    while (unit % (COPY_PATTERN * sizeof(float)) != 0)
        unit += local * 4 * sizeof(float);
    bytes = bytes / unit * unit;
    if (bytes < 2 * COPY_CHECK_BYTES) {
        clReleaseKernel(kernel);
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "the copy buffers would be too small (%zu bytes) on this device",
                         bytes);
    }
    if (cfg->copy_mib && bytes < ((size_t)cfg->copy_mib << 20))
        gemm_note("--copy-mib %ld reduced to %.1f MiB (device limits, whole work-groups)", cfg->copy_mib, (double)bytes / 1048576.0);
    cl_int err;
    src = clCreateBuffer(cl->context, CL_MEM_READ_ONLY, bytes, NULL, &err);
    if (err == CL_SUCCESS)
        dst = clCreateBuffer(cl->context, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
    if (err != CL_SUCCESS)
        rc = gemm_cl_fail(msg, "clCreateBuffer(copy buffers)", err);
    float pattern[COPY_PATTERN];
    const float zero = 0.0f;
    for (int i = 0; i < COPY_PATTERN; i++)
        pattern[i] = (float)i;
    if (!rc) {
        /* Fill both, so every page is in place before timing; the copy must overwrite the zeros. */
        const char *what = "clEnqueueFillBuffer(copy buffers)"; /* the call that failed, for the message */
        err = clEnqueueFillBuffer(cl->queue, src, pattern, sizeof pattern, 0, bytes, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = clEnqueueFillBuffer(cl->queue, dst, &zero, sizeof zero, 0, bytes, 0, NULL, NULL);
        if (err == CL_SUCCESS) {
            what = "clSetKernelArg(copy buffers)";
            err = clSetKernelArg(kernel, 0, sizeof src, &src);
            if (err == CL_SUCCESS)
                err = clSetKernelArg(kernel, 1, sizeof dst, &dst);
        }
        if (err == CL_SUCCESS) {
            what = "clFinish(filling the copy buffers)";
            err = clFinish(cl->queue);
        }
        if (err != CL_SUCCESS)
            rc = gemm_cl_fail(msg, what, err);
    }
    double median = 0, best = 0;
    if (!rc)
        rc = timed_runs(cl, "float4 copy", kernel, bytes / (4 * sizeof(float)), local, cfg, &median, &best, msg);
    if (!rc) {
        res->copy_bytes = bytes;
        res->copy_median = 2.0 * (double)bytes / (median * 1e6);
        res->copy_best = 2.0 * (double)bytes / (best * 1e6);
        rc = check_copy(cl, dst, 0, COPY_CHECK_BYTES, msg);
    }
    if (!rc)
        rc = check_copy(cl, dst, bytes - COPY_CHECK_BYTES, COPY_CHECK_BYTES, msg);
    if (src)
        clReleaseMemObject(src);
    if (dst)
        clReleaseMemObject(dst);
    clReleaseKernel(kernel);
    return rc;
}

/* The sum one work-item of local_reads computes, as the kernel computes it (same order of additions):
 * the column read_column() gives its lane, 8 rows per iteration. */
static void read_sum(size_t pattern, int lane, cl_int iterations, float sum[4])
{
    const int col = read_column(pattern, lane);
    float acc[READS_PER_ITERATION][4] = {{0}};
    for (cl_int it = 0; it < iterations; it++)
        for (int r = 0; r < READS_PER_ITERATION; r++) {
            const int i = ((it + 2 * r) % READ_ROWS) * READ_COLS + col;
            for (int c = 0; c < 4; c++)
                acc[r][c] += (float)(i + c) * 1e-6f;
        }
    for (int c = 0; c < 4; c++) {
        sum[c] = acc[0][c];
        for (int r = 1; r < READS_PER_ITERATION; r++)
            sum[c] += acc[r][c];
    }
}

/* Checks every work-item's sum against the host's for its lane. */
static int check_reads(gemm_cl *cl, cl_mem out, size_t items, size_t local, size_t pattern, cl_int iterations,
                       gemm_msg *msg)
{
    float expect[32][4];
    for (int lane = 0; lane < 32; lane++)
        read_sum(pattern, lane, iterations, expect[lane]);
    float *got = malloc(items * 4 * sizeof(float));
    if (!got)
        return gemm_msgf(msg, GEMM_EXIT_RUNTIME, "out of host memory");
    int rc = 0;
    cl_int err = clEnqueueReadBuffer(cl->queue, out, CL_TRUE, 0, items * 4 * sizeof(float), got, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        rc = gemm_cl_fail(msg, "clEnqueueReadBuffer(local-read sums)", err);
    for (size_t i = 0; !rc && i < items * 4; i++) {
        const int lane = (int)((i / 4) % local % 32);
        const float e = expect[lane][i % 4];
        if (got[i] != e) /* the same float additions in the same order: the same result */
            rc = gemm_msgf(msg, GEMM_EXIT_VERIFY_FAILED,
                           "local reads '%s': work-item %zu summed %.9g, the host %.9g (its lane %d reads column %d)",
                           read_patterns[pattern].index, i / 4, (double)got[i], (double)e, lane,
                           read_column(pattern, lane));
    }
    free(got);
    return rc;
}

/* (c) Every local-read pattern: calibrate, time, check. */
static int measure_reads(gemm_cl *cl, const peak_config *cfg, peak_result *res, gemm_msg *msg)
{
    cl_kernel kernel = NULL;
    cl_mem out = NULL;
    size_t local = 0, items = 0;
    int rc = loop_kernel(cl, "local_reads", READ_GROUPS_PER_CU, 4 * sizeof(float), 2, &kernel, &out, &local, &items, msg);
    cl_int err = CL_SUCCESS;
    for (size_t p = 0; p < NREAD && !rc; p++) {
        const cl_int pattern = (cl_int)p;
        cl_int iterations = 1;
        char label[64];
        snprintf(label, sizeof label, "local reads, col = %s", read_patterns[p].index);
        err = clSetKernelArg(kernel, 1, sizeof pattern, &pattern);
        if (err != CL_SUCCESS)
            rc = gemm_cl_fail(msg, "clSetKernelArg(pattern)", err);
        if (!rc)
            rc = calibrate(cl, kernel, items, local, cfg, label, &iterations, msg);
        if (!rc)
            rc = timed_runs(cl, label, kernel, items, local, cfg, &res->read_median[p], &res->read_best[p], msg);
        if (!rc)
            rc = check_reads(cl, out, items, local, p, iterations, msg);
        res->read_iterations[p] = iterations;
    }
    res->read_items = items;
    if (out)
        clReleaseMemObject(out);
    if (kernel)
        clReleaseKernel(kernel);
    return rc;
}

/* Checks every work-item's sum of the TF32 accumulators against the host's: each of its 4 * TF32_ACCS
 * elements is exactly iterations * 2^-17 (peak.cl), added in the kernel's order. */
static int check_tf32(gemm_cl *cl, cl_mem out, size_t items, cl_int iterations, gemm_msg *msg)
{
    const float element = (float)iterations * (8.0f * TF32_VALUE * TF32_VALUE);
    float expect = 0.0f;
    for (int i = 0; i < 4 * TF32_ACCS; i++)
        expect += element;
    float *got = malloc(items * sizeof(float));
    if (!got)
        return gemm_msgf(msg, GEMM_EXIT_RUNTIME, "out of host memory");
    int rc = 0;
    cl_int err = clEnqueueReadBuffer(cl->queue, out, CL_TRUE, 0, items * sizeof(float), got, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        rc = gemm_cl_fail(msg, "clEnqueueReadBuffer(TF32 sums)", err);
    for (size_t i = 0; !rc && i < items; i++)
        if (got[i] != expect)
            rc = gemm_msgf(msg, GEMM_EXIT_VERIFY_FAILED, "work-item %zu summed %.9g, expected %.9g", i, (double)got[i],
                           (double)expect);
    free(got);
    return rc;
}

/* (d) The TF32 tensor cores: calibrate, time, check (peak.cl's tf32_mma, built with -DPEAK_TF32). */
static int measure_tf32(gemm_cl *cl, const peak_config *cfg, peak_result *res, gemm_msg *msg)
{
    cl_kernel kernel = NULL;
    cl_mem out = NULL;
    size_t local = 0, items = 0;
    int rc = loop_kernel(cl, "tf32_mma", FMA_GROUPS_PER_CU, sizeof(float), 2, &kernel, &out, &local, &items, msg);
    if (!rc && local % 32 != 0) /* whole warps: an mma.sync takes all 32 lanes of one */
        rc = gemm_msgf(msg, GEMM_EXIT_RUNTIME, "work-groups of %zu work-items are not whole warps of 32", local);
    const cl_float value = TF32_VALUE;
    cl_int iterations = 1;
    if (!rc) {
        cl_int err = clSetKernelArg(kernel, 1, sizeof value, &value);
        if (err != CL_SUCCESS)
            rc = gemm_cl_fail(msg, "clSetKernelArg(TF32 value)", err);
    }
    if (!rc)
        rc = calibrate(cl, kernel, items, local, cfg, "TF32 mma.sync", &iterations, msg);
    double median = 0, best = 0;
    if (!rc)
        rc = timed_runs(cl, "TF32 mma.sync", kernel, items, local, cfg, &median, &best, msg);
    if (!rc)
        rc = check_tf32(cl, out, items, iterations, msg);
    if (!rc) {
        const double flops = (double)(items / 32) * iterations * TF32_ACCS * TF32_FLOPS_PER_MMA;
        res->tf32_median = flops / (median * 1e6);
        res->tf32_best = flops / (best * 1e6);
        res->tf32_items = items;
        res->tf32_iterations = iterations;
    }
    if (out)
        clReleaseMemObject(out);
    if (kernel)
        clReleaseKernel(kernel);
    return rc;
}

/* Different vectors the 32 lanes of a warp read in pattern @p p. */
static int read_distinct(size_t p)
{
    int seen[READ_COLS] = {0}, n = 0;
    for (int lane = 0; lane < 32; lane++)
        n += !seen[read_column(p, lane)]++;
    return n;
}

/* Clock cycles of one compute unit per warp read (a warp: 32 work-items), at the reported clock. */
static double read_cycles(const gemm_device_info *dev, const peak_result *res, size_t p)
{
    const double reads = (double)res->read_items / 32.0 * res->read_iterations[p] * READS_PER_ITERATION /
                         (double)dev->compute_units;
    return res->read_median[p] * 1e-3 * dev->clock_mhz * 1e6 / reads;
}

static size_t best_width(const peak_result *res)
{
    size_t b = 0;
    for (size_t w = 1; w < NFMA; w++)
        if (res->fma_median[w] > res->fma_median[b])
            b = w;
    return b;
}

/* The head of the report, printed before the measurements start (what is measured, where). */
static void report_head(FILE *out, const gemm_device_info *dev, const peak_config *cfg)
{
    fprintf(out, "== %s: measured peaks of the device ==\n", NAME);
    fprintf(out, "device      %s on %s, driver %s\n", dev->name, dev->platform_name, dev->driver);
    fprintf(out, "timing      %d warm-up + %d timed run%s; device time of each kernel (OpenCL profiling events)\n",
            cfg->warmup, cfg->repeat, cfg->repeat == 1 ? "" : "s");
    fflush(out);
}

static void report(FILE *out, const peak_result *res)
{
    fprintf(out, "FP32 FMA    %zu work-items, 2 flops per multiply-add\n", res->fma_items);
    for (size_t w = 0; w < NFMA; w++)
        fprintf(out, "            %-8s x %2d chains %8d iterations   median %10.1f GFLOPS   best %10.1f GFLOPS\n",
                fma_kernels[w].type, fma_kernels[w].chains, res->fma_iterations[w], res->fma_median[w],
                res->fma_best[w]);
    const size_t b = best_width(res);
    fprintf(out, "            peak: %.1f GFLOPS (%s x %d chains, median; best run %.1f)\n", res->fma_median[b],
            fma_kernels[b].type, fma_kernels[b].chains, res->fma_best[b]);
    fprintf(out, "bandwidth   float4 copy of %.0f MiB into %.0f MiB, bytes read + written\n",
            (double)res->copy_bytes / 1048576.0, (double)res->copy_bytes / 1048576.0);
    fprintf(out, "            median %.1f GB/s   best %.1f GB/s\n", res->copy_median, res->copy_best);
    if (res->tf32_skipped[0])
        fprintf(out, "TF32 tensor cores skipped: %s\n", res->tf32_skipped);
    else
        fprintf(out, "TF32 tensor cores %.1f GFLOPS (median; best run %.1f): mma.sync m16n8k8 on %zu work-items, "
                     "%d accumulators per warp, %d iterations, 2*16*8*8 flops per mma\n",
                res->tf32_median, res->tf32_best, res->tf32_items, TF32_ACCS, res->tf32_iterations);
}

static void report_csv(FILE *out, const gemm_device_info *dev, const peak_config *cfg, const peak_result *res,
                       int header)
{
    char date[32];
    gemm_utc_date(date, sizeof date);
    const size_t b = best_width(res);
    if (header)
        fprintf(out, "platform,device,driver,fma_gflops,fma_gflops_best,fma_vector,copy_gbps,copy_gbps_best,copy_mib,"
                     "warmup,repeat,date,fma_chains,tf32_gflops,tf32_gflops_best\n");
    gemm_csv_field(out, dev->platform_name);
    fputc(',', out);
    gemm_csv_field(out, dev->name);
    fputc(',', out);
    gemm_csv_field(out, dev->driver);
    fprintf(out, ",%.3f,%.3f,%s,%.3f,%.3f,%.3f,%d,%d,%s,%d,", res->fma_median[b], res->fma_best[b],
            fma_kernels[b].type, res->copy_median, res->copy_best, (double)res->copy_bytes / 1048576.0, cfg->warmup,
            cfg->repeat, date, fma_kernels[b].chains);
    if (res->tf32_skipped[0])
        fputs(",\n", out);
    else
        fprintf(out, "%.3f,%.3f\n", res->tf32_median, res->tf32_best);
}

static void report_reads(FILE *out, const gemm_device_info *dev, const peak_result *res)
{
    fprintf(out, "local reads %zu work-items in groups of %zu per compute unit; each reads float4s of a local tile "
                 "at column col of %d rows per iteration (lane = local id %% 32)\n",
            res->read_items, (size_t)READ_GROUPS_PER_CU, READS_PER_ITERATION);
    fprintf(out, "            %-22s %8s %10s %12s %12s %8s  %s\n", "col", "vectors", "iterations", "median ms",
            "cycles/read", "x lane", "who shares");
    for (size_t p = 0; p < NREAD; p++)
        fprintf(out, "            %-22s %8d %10d %12.4f %12.2f %8.2f  %s\n", read_patterns[p].index, read_distinct(p),
                res->read_iterations[p], res->read_median[p], read_cycles(dev, res, p),
                read_cycles(dev, res, p) / read_cycles(dev, res, 0), read_patterns[p].what);
    fprintf(out, "            cycles/read: clock cycles of one compute unit per read of a warp of 32 at the reported "
                 "%u MHz; x lane: against col = lane\n",
            dev->clock_mhz);
}

static void report_reads_csv(FILE *out, const gemm_device_info *dev, const peak_config *cfg, const peak_result *res,
                             int header)
{
    char date[32];
    gemm_utc_date(date, sizeof date);
    if (header)
        fprintf(out, "platform,device,driver,clock_mhz,compute_units,work_items,col,vectors,iterations,median_ms,best_ms,"
                     "cycles_per_read,relative,warmup,repeat,date\n");
    for (size_t p = 0; p < NREAD; p++) {
        gemm_csv_field(out, dev->platform_name);
        fputc(',', out);
        gemm_csv_field(out, dev->name);
        fputc(',', out);
        gemm_csv_field(out, dev->driver);
        fprintf(out, ",%u,%u,%zu,", dev->clock_mhz, dev->compute_units, res->read_items);
        gemm_csv_field(out, read_patterns[p].index);
        fprintf(out, ",%d,%d,%.5f,%.5f,%.3f,%.4f,%d,%d,%s\n", read_distinct(p), res->read_iterations[p],
                res->read_median[p], res->read_best[p], read_cycles(dev, res, p),
                read_cycles(dev, res, p) / read_cycles(dev, res, 0), cfg->warmup, cfg->repeat, date);
    }
}

int main(int argc, char **argv)
{
    gemm_options opt;
    gemm_msg msg = {{0}};
    peak_config cfg = {0, 20, 0, 0, 0};
    gemm_set_program_name(NAME);
    char **rest = malloc(((size_t)argc + 1) * sizeof(char *));
    int nrest = 0;
    if (!rest) {
        gemm_error("out of host memory");
        return GEMM_EXIT_RUNTIME;
    }
    int rc = take_own_options(argc, argv, &nrest, rest, &cfg, &msg);
    if (rc) {
        gemm_error("%s", msg.text);
        free(rest);
        return rc;
    }
    rc = gemm_options_main(&opt, nrest, rest, NULL, print_help, NULL);
    free(rest);
    if (rc != GEMM_OPTIONS_GO_ON)
        return rc;
    if (opt.m || opt.n || opt.k || opt.alpha != 1.0 || opt.beta != 0.0 || opt.seed != GEMM_DEFAULT_SEED ||
        !opt.verify || opt.defines.count || opt.kernel_file || opt.brief || opt.timeout >= 0.0) {
        gemm_error("%s measures the device, not an SGEMM: -m, -n, -k, --size, --alpha, --beta, --seed, --no-verify, "
                   "-D, --kernel-file, --brief and --timeout do not apply (see --help)",
                   NAME);
        return GEMM_EXIT_BAD_INPUT;
    }
    if (opt.list_devices) {
        rc = gemm_list_devices(stdout, &msg);
        if (rc)
            gemm_error("%s", msg.text);
        return gemm_output_finish(rc);
    }

    gemm_device_info dev;
    gemm_cl cl;
    peak_result res;
    memset(&cl, 0, sizeof cl);
    memset(&res, 0, sizeof res);
    rc = gemm_select_device(opt.platform, opt.device, &dev, &msg);
    if (!rc) {
        cfg.repeat = opt.repeat ? opt.repeat : gemm_default_repeat(dev.cls);
        cfg.warmup = opt.warmup >= 0 ? opt.warmup : gemm_default_warmup(dev.cls);
        report_head(opt.csv ? stderr : stdout, &dev, &cfg);
        gemm_progress_start();
        gemm_progress_set("setting up the OpenCL device");
        rc = gemm_cl_open(&cl, &dev, &msg);
    }
    int tf32 = 0; /* measure the TF32 tensor cores (peak.cl built with -DPEAK_TF32) */
    if (!rc && !cfg.local_reads) {
        tf32 = dev.nv_compute_capability >= TF32_MIN_CC;
        if (!dev.nv_compute_capability)
            snprintf(res.tf32_skipped, sizeof res.tf32_skipped, "not an NVIDIA GPU of compute capability 8.0 or later "
                     "(the device reports no compute capability)");
        else if (!tf32)
            snprintf(res.tf32_skipped, sizeof res.tf32_skipped, "not an NVIDIA GPU of compute capability 8.0 or later "
                     "(compute capability %u.%u)", dev.nv_compute_capability / 10, dev.nv_compute_capability % 10);
    }
    if (!rc) {
        gemm_progress_set("building the kernels");
        /* no -cl-std: as the steps (run_build.c) */
        rc = gemm_cl_build(&cl, peak_kernel_source, "bench/peak.cl", tf32 ? "-DPEAK_TF32" : "", &msg);
        if (rc && tf32) { /* the TF32 kernel did not build (the log is above): the rest without it */
            snprintf(res.tf32_skipped, sizeof res.tf32_skipped, "not measured: %s", msg.text);
            tf32 = 0;
            cl_int err = clReleaseProgram(cl.program);
            cl.program = NULL;
            rc = err != CL_SUCCESS ? gemm_cl_fail(&msg, "clReleaseProgram", err)
                                   : gemm_cl_build(&cl, peak_kernel_source, "bench/peak.cl", "", &msg);
        }
    }
    if (cfg.local_reads) {
        if (!rc)
            rc = measure_reads(&cl, &cfg, &res, &msg);
    } else {
        for (size_t w = 0; w < NFMA && !rc; w++)
            rc = measure_fma(&cl, w, &cfg, &res, &msg);
        if (!rc)
            rc = measure_copy(&cl, &cfg, &res, &msg);
        if (!rc && tf32) { /* last, and it cannot fail the run: (a) and (b) are measured */
            gemm_msg why = {{0}};
            if (measure_tf32(&cl, &cfg, &res, &why))
                snprintf(res.tf32_skipped, sizeof res.tf32_skipped, "not measured: %s", why.text);
        }
    }
    gemm_progress_stop();
    if (!rc && cfg.local_reads) {
        report_reads(opt.csv ? stderr : stdout, &dev, &res);
        if (opt.csv)
            report_reads_csv(stdout, &dev, &cfg, &res, gemm_report_csv_wants_header(stdout, &opt));
    } else if (!rc) {
        report(opt.csv ? stderr : stdout, &res);
        if (opt.csv)
            report_csv(stdout, &dev, &cfg, &res, gemm_report_csv_wants_header(stdout, &opt));
    } else {
        gemm_error("%s", msg.text);
    }
    gemm_cl_close(&cl);
    return gemm_output_finish(rc);
}
