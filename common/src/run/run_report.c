/* 10. Report: the head printed once the checks pass, the rest at the end (human-readable or CSV,
 * gemm_report.h), and the exit code. */
#include <stdio.h>

#include "gemm_progress.h"
#include "gemm_run.h"

/* The guards line of the report: what a stray write or access can be caught at. */
static void describe_guards(const gemm_device_info *dev, const gemm_buffer *c, char *out, size_t len)
{
    if (gemm_device_checks_accesses(dev)) {
        snprintf(out, len, "none: Oclgrind reports every access outside a buffer itself");
        return;
    }
    const size_t fence = gemm_device_fenced(dev);
    int w = snprintf(out, len, "at least %zu floats before and after each buffer (%zu around C), checked after the runs",
                     gemm_guard_elems(dev, 0), c->guard);
    if (!fence || w < 0 || (size_t)w >= len)
        return;
    if (fence >= GEMM_FENCE_BYTES)
        snprintf(out + w, len - (size_t)w, "; beyond them %.0f GiB of inaccessible pages, as far as a 32-bit index "
                 "reaches (host memory: an access there faults)", (double)fence / 1073741824.0);
    else /* an address-space limit keeps them small: farther on lies memory of the process's own */
        snprintf(out + w, len - (size_t)w, "; beyond them only %.0f KiB of inaccessible pages (%zu floats; an "
                 "address-space limit is in force): an access there faults, one farther away may land in other "
                 "memory and is not caught", (double)fence / 1024.0, fence / sizeof(float));
}

static const char *device_type_name(const gemm_device_info *d)
{
    if (d->type & CL_DEVICE_TYPE_GPU)
        return "GPU";
    if (d->type & CL_DEVICE_TYPE_CPU)
        return "CPU";
    return "accelerator";
}

/* The report's fields known before anything runs: what runs, where, with which parameters. */
static void describe_run(gemm_report *rep, const gemm_step *step, const gemm_device_info *dev,
                         const gemm_problem *prob, const char *params_text, int warmup, int repeat, int nlaunches,
                         gemm_data data, unsigned long long seed, const char *kernel_file)
{
    rep->step = step->name;
    rep->summary = step->summary;
    snprintf(rep->platform, sizeof rep->platform, "%s", dev->platform_name);
    snprintf(rep->device, sizeof rep->device, "%s", dev->name);
    snprintf(rep->driver, sizeof rep->driver, "%s", dev->driver);
    rep->device_type = device_type_name(dev);
    rep->m = prob->m;
    rep->n = prob->n;
    rep->k = prob->k;
    rep->alpha = prob->alpha;
    rep->beta = prob->beta;
    snprintf(rep->params, sizeof rep->params, "%s", params_text);
    rep->warmup = warmup;
    rep->repeat = repeat;
    rep->data = data;
    rep->seed = seed;
    rep->kernel_file = kernel_file;
    /* With no warm-up run, a driver that compiles a kernel at its first launch (PoCL does, with the
     * command submitted but not started: outside that kernel's own profiled time) does it inside the
     * step's time for every kernel after the first, and a library compiles inside its call */
    const int first_launches = warmup == 0 && (step->library || nlaunches > 1);
    rep->timing = step->library
                      ? (first_launches ? "device time from the end of the command before the library call to the end "
                                          "of its last kernel (OpenCL profiling events; no transfers); no warm-up run: "
                                          "the first timed run includes what the library and the driver do at a "
                                          "first call, compiling the library's kernels among it"
                                        : "device time from the end of the command before the library call to the "
                                          "end of its last kernel (OpenCL profiling events; no transfers)")
                      : first_launches
                          ? "device time from the start of the first kernel to the end of the last (OpenCL profiling "
                            "events; no transfers); no warm-up run: where a driver compiles a kernel at its first "
                            "launch, as PoCL does, the first timed run's time includes compiling every kernel after "
                            "the first (each kernel's own time leaves it out)"
                          : "device time from the start of the first kernel to the end of the last (OpenCL profiling "
                            "events; no transfers, no compilation)";
}

void run_report_head(gemm_run *r)
{
    describe_run(&r->rep, r->step, &r->dev, &r->prob, r->params_text, r->warmup, r->repeat, r->plan.nlaunches,
                 r->opt.data, r->opt.seed, r->opt.kernel_file);
    gemm_report_announce(&r->rep, &r->opt);
    gemm_progress_start();
}

int run_report(gemm_run *r)
{
    gemm_report *rep = &r->rep;
    rep->median_ms = gemm_median(r->times, r->repeat);
    rep->best_ms = gemm_min(r->times, r->repeat);
    rep->nparts = r->plan.nlaunches < GEMM_MAX_PARTS ? r->plan.nlaunches : GEMM_MAX_PARTS;
    for (int i = 0; i < rep->nparts; i++) {
        rep->part[i].label = r->plan.launch[i].label;
        rep->part[i].median_ms = gemm_median(r->part[i], r->repeat);
        rep->part[i].best_ms = gemm_min(r->part[i], r->repeat);
    }
    rep->reference = gemm_reference_method();
    rep->sample = r->sample_why[0] ? r->sample_why : NULL;
    describe_guards(&r->dev, &r->buf[GEMM_BUF_C], rep->guards, sizeof rep->guards);
    gemm_progress_stop();
    return gemm_report_emit(rep, &r->opt);
}
