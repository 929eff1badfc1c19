// peak: the measured ceilings of an OpenCL device, against which the benchmark puts the SGEMM
// steps: (a) FP32 multiply-add throughput and (b) device-memory bandwidth (kernels in peak.cl).
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
// Each result is checked: the FMA sums must be finite and the copy must reproduce the source
// (both ends of the buffer are read back); a failure exits with 1, like a failed SGEMM check.
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

/* The copy's source holds 0, 1, ..., 31 over and over; the check reads it back from dst. */
#define COPY_PATTERN 32
#define COPY_CHECK_BYTES ((size_t)64 << 10)

typedef struct peak_config {
    long copy_mib;  /* 0 = default for the device */
    long fma_ms;    /* target time of one FMA run */
    int repeat, warmup;
} peak_config;

typedef struct peak_result {
    double fma_median[NFMA], fma_best[NFMA]; /* GFLOPS per width */
    size_t fma_items;                        /* work-items of the FMA runs */
    int fma_iterations[NFMA];                /* calibrated loop counts */
    double copy_median, copy_best;           /* GB/s */
    size_t copy_bytes;                       /* bytes of each buffer */
} peak_result;

static void print_help(FILE *out, const void *ctx)
{
    (void)ctx;
    fprintf(out,
            "usage: %s [options]\n\n"
            "Measures two ceilings of an OpenCL device, to compare the SGEMM steps with:\n"
            "  FP32 multiply-add throughput in GFLOPS (2 flops per multiply-add; float4, float8 and\n"
            "  float16 kernels with 8 or 16 independent chains, the best one is the device's FMA peak),\n"
            "  and device-memory bandwidth in GB/s (a float4 copy between two large buffers; bytes read\n"
            "  + bytes written).\n"
            "Device time from OpenCL profiling events; median and best of the timed runs.\n\n"
            "options:\n"
            "  --platform P         OpenCL platform: index or part of its name\n"
            "  --device D           device: index (see --list-devices) or part of its name;\n"
            "                       default: the first GPU, else the first device\n"
            "  --list-devices       list the OpenCL platforms and devices, then exit\n"
            "  --repeat R           timed runs (default 20 on a GPU, 3 otherwise)\n"
            "  --warmup W           untimed runs before timing (default 3 on a GPU, 1 otherwise)\n"
            "  --fma-ms MS          calibrate the FMA loop until one run takes about MS ms (default 20)\n"
            "  --copy-mib MIB       size of each copy buffer (default 1024 on a GPU, 128 otherwise;\n"
            "                       at most a quarter of the device memory and the largest allocation)\n"
            "  --csv                print a CSV header and one line on stdout (the report goes to stderr):\n"
            "                       platform,device,driver,fma_gflops,fma_gflops_best,fma_vector,\n"
            "                       copy_gbps,copy_gbps_best,copy_mib,warmup,repeat,date,fma_chains\n"
            "                       (fma_gflops and copy_gbps from the median run)\n"
            "  -h, --help           print this help and exit\n"
            "  --version            print the version and exit\n\n"
            "exit codes:\n"
            "  0  measured\n"
            "  1  a sanity check failed (non-finite FMA result, or the copy did not reproduce its source)\n"
            "  2  bad option\n"
            "  3  OpenCL or runtime error\n",
            NAME);
}

/* Takes peak's own options (--fma-ms, --copy-mib) out of argv; the rest goes to the shared parser. */
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

/* One FMA kernel: calibrate the loop count, time it, check that the sums are finite. */
static int measure_fma(gemm_cl *cl, size_t w, const peak_config *cfg, peak_result *res, gemm_msg *msg)
{
    cl_kernel kernel = NULL;
    cl_mem out = NULL;
    float *sums = NULL;
    size_t local = 0;
    int rc = gemm_cl_kernel(cl, fma_kernels[w].kernel, &kernel, msg);
    if (!rc)
        rc = local_size(cl, kernel, &local, msg);
    const size_t items = (size_t)cl->dev.compute_units * FMA_GROUPS_PER_CU * local;
    const size_t out_bytes = items * (size_t)fma_kernels[w].width * sizeof(float);
    cl_int err = CL_SUCCESS;
    if (!rc) {
        out = clCreateBuffer(cl->context, CL_MEM_WRITE_ONLY, out_bytes, NULL, &err);
        if (err != CL_SUCCESS)
            rc = gemm_cl_fail(msg, "clCreateBuffer(FMA sums)", err);
    }
    cl_int iterations = 1;
    const cl_float mul = 0.999f, add = 0.001f;
    if (!rc) {
        err = clSetKernelArg(kernel, 1, sizeof mul, &mul);
        if (err == CL_SUCCESS)
            err = clSetKernelArg(kernel, 2, sizeof add, &add);
        if (err == CL_SUCCESS)
            err = clSetKernelArg(kernel, 3, sizeof out, &out);
        if (err != CL_SUCCESS)
            rc = gemm_cl_fail(msg, "clSetKernelArg(FMA kernel)", err);
    }
    /* Calibration: grow the loop count until one run takes at least half the target time. */
    char label[64];
    snprintf(label, sizeof label, "%s (%d chains)", fma_kernels[w].kernel, fma_kernels[w].chains);
    gemm_progress_set("%s: calibrating the loop count", label);
    for (int tries = 0; !rc && tries < 30; tries++) {
        double ms = 0;
        err = clSetKernelArg(kernel, 0, sizeof iterations, &iterations);
        if (err != CL_SUCCESS) {
            rc = gemm_cl_fail(msg, "clSetKernelArg(iterations)", err);
            break;
        }
        rc = timed_run(cl, kernel, items, local, &ms, msg);
        if (rc || ms >= 0.5 * (double)cfg->fma_ms || iterations >= (1 << 24))
            break;
        double grow = ms > 0 ? (double)cfg->fma_ms / ms : 64.0;
        grow = grow < 2.0 ? 2.0 : (grow > 64.0 ? 64.0 : grow);
        iterations = (cl_int)ceil(iterations * grow);
        if (iterations > (1 << 24))
            iterations = 1 << 24;
    }
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
}

static void report_csv(FILE *out, const gemm_device_info *dev, const peak_config *cfg, const peak_result *res)
{
    char date[32];
    gemm_utc_date(date, sizeof date);
    const size_t b = best_width(res);
    fprintf(out, "platform,device,driver,fma_gflops,fma_gflops_best,fma_vector,copy_gbps,copy_gbps_best,copy_mib,"
                 "warmup,repeat,date,fma_chains\n");
    gemm_csv_field(out, dev->platform_name);
    fputc(',', out);
    gemm_csv_field(out, dev->name);
    fputc(',', out);
    gemm_csv_field(out, dev->driver);
    fprintf(out, ",%.3f,%.3f,%s,%.3f,%.3f,%.3f,%d,%d,%s,%d\n", res->fma_median[b], res->fma_best[b],
            fma_kernels[b].type, res->copy_median, res->copy_best, (double)res->copy_bytes / 1048576.0, cfg->warmup,
            cfg->repeat, date, fma_kernels[b].chains);
}

int main(int argc, char **argv)
{
    gemm_options opt;
    gemm_msg msg = {{0}};
    peak_config cfg = {0, 20, 0, 0};
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
        !opt.verify || opt.defines.count || opt.kernel_file) {
        gemm_error("%s measures the device, not an SGEMM: -m, -n, -k, --size, --alpha, --beta, --seed, --no-verify, "
                   "-D and --kernel-file do not apply (see --help)",
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
    if (!rc) {
        gemm_progress_set("building the kernels");
        rc = gemm_cl_build(&cl, peak_kernel_source, "", &msg); /* no -cl-std: as the steps (gemm_step.c) */
    }
    for (size_t w = 0; w < NFMA && !rc; w++)
        rc = measure_fma(&cl, w, &cfg, &res, &msg);
    if (!rc)
        rc = measure_copy(&cl, &cfg, &res, &msg);
    gemm_progress_stop();
    if (!rc) {
        report(opt.csv ? stderr : stdout, &res);
        if (opt.csv)
            report_csv(stdout, &dev, &cfg, &res);
    } else {
        gemm_error("%s", msg.text);
    }
    gemm_cl_close(&cl);
    return gemm_output_finish(rc);
}
