/* 8. Timed runs: --warmup untimed runs, then --repeat timed ones, each from a fresh C; then C
 * read back. A run's time is the device time from the start of its first kernel to the end of
 * its last (OpenCL profiling events); each kernel's own time is kept too. Every wait on the device
 * is watched: it ends within --timeout or the program does (gemm_watchdog.h). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "gemm_memory.h"
#include "gemm_progress.h"
#include "gemm_run.h"
#include "gemm_watchdog.h"

static int set_args(gemm_run *r, const gemm_launch *l, cl_kernel k, gemm_msg *msg)
{
    for (int a = 0; a < l->nargs; a++) {
        const gemm_arg *arg = &l->arg[a];
        cl_int err;
        switch (arg->kind) {
        case GEMM_ARG_INT: {
            cl_int v = arg->i;
            err = clSetKernelArg(k, (cl_uint)a, sizeof v, &v);
            break;
        }
        case GEMM_ARG_FLOAT: {
            cl_float v = arg->f;
            err = clSetKernelArg(k, (cl_uint)a, sizeof v, &v);
            break;
        }
        default:
            err = clSetKernelArg(k, (cl_uint)a, sizeof(cl_mem), &r->buf[arg->buffer].view);
            break;
        }
        if (err == CL_INVALID_ARG_SIZE || err == CL_INVALID_ARG_VALUE || err == CL_INVALID_MEM_OBJECT ||
            err == CL_INVALID_ARG_INDEX)
            return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT,
                             "kernel '%s' does not take what the step passes as argument %d (%s): %s; its signature "
                             "must be the step's",
                             l->kernel, a, arg->kind == GEMM_ARG_INT ? "an int" : arg->kind == GEMM_ARG_FLOAT ? "a float" : "a buffer",
                             gemm_cl_error_name(err));
        if (err != CL_SUCCESS) {
            char what[128];
            snprintf(what, sizeof what, "clSetKernelArg('%s', argument %d)", l->kernel, a);
            return gemm_cl_fail(msg, what, err);
        }
    }
    return 0;
}

/* The commands of the run the watchdog watches, for its probe: the preparation's last event, then
 * one event per launch, published as each launch is enqueued */
static struct {
    const gemm_plan *plan;     /* set before the watchdog is armed, NULL for a library's call */
    _Atomic(cl_event) prep;    /* NULL until the preparation is enqueued */
    cl_event ev[GEMM_MAX_LAUNCHES];
    atomic_int enqueued;       /* ev[0 .. enqueued-1] are set */
} watched;

/* Fills buffer view @p buf (@p what, for messages) with the poison pattern; the event in *ev.
 * Oclgrind's checker of uninitialized values takes memory that clEnqueueFillBuffer wrote for
 * uninitialized (a second run of a correct kernel was reported, row after row), so there the
 * pattern is written from the host. */
static int poison_buffer(gemm_run *r, cl_mem buf, size_t elems, const char *what, cl_event *ev)
{
    const cl_uint poison = GEMM_POISON_PATTERN;
    char call[96];
    cl_int err;
    if (!gemm_device_checks_accesses(&r->dev)) {
        snprintf(call, sizeof call, "clEnqueueFillBuffer(%s)", what);
        err = clEnqueueFillBuffer(r->cl.queue, buf, &poison, sizeof poison, 0, elems * sizeof(float), 0, NULL, ev);
    } else {
        snprintf(call, sizeof call, "clEnqueueWriteBuffer(%s)", what);
        cl_uint *host = malloc(elems * sizeof *host);
        if (!host)
            return gemm_msgf(&r->msg, GEMM_EXIT_RUNTIME, "out of host memory poisoning %s", what);
        for (size_t i = 0; i < elems; i++)
            host[i] = poison;
        err = clEnqueueWriteBuffer(r->cl.queue, buf, CL_TRUE, 0, elems * sizeof(float), host, 0, NULL, ev);
        free(host);
    }
    return err == CL_SUCCESS ? 0 : gemm_cl_fail(&r->msg, call, err);
}

/* Before every run but the first (gemm_buffer_create() left the buffers as the first run needs
 * them): C back to its start (NaN when beta = 0), helpers to NaN but for counters, which every run
 * must leave at zero (run_verify() checks). Returns the last event. */
static int prepare_run(gemm_run *r, const gemm_problem *p, cl_event *last, gemm_msg *msg)
{
    cl_event ev = NULL;
    gemm_buffer *c = &r->buf[GEMM_BUF_C];
    int rc = 0;
    if (p->beta != 0.0f) {
        cl_int err = clEnqueueCopyBuffer(r->cl.queue, r->c_initial, c->view, 0, 0, c->elems * sizeof(float), 0, NULL,
                                         &ev);
        if (err != CL_SUCCESS)
            return gemm_cl_fail(msg, "clEnqueueCopyBuffer(restoring C)", err);
    } else {
        rc = poison_buffer(r, c->view, c->elems, "restoring C", &ev);
    }
    for (int b = GEMM_BUF_T0; b < GEMM_BUF_COUNT && !rc; b++) {
        if (!r->buf[b].view || r->plan.temp_counters[b - GEMM_BUF_T0]) /* counters stay as the kernels left them */
            continue;
        if (ev)
            clReleaseEvent(ev);
        ev = NULL;
        rc = poison_buffer(r, r->buf[b].view, r->buf[b].elems, "helper buffer", &ev);
    }
    if (rc) {
        if (ev)
            clReleaseEvent(ev);
        return rc;
    }
    *last = ev;
    atomic_store(&watched.prep, ev); /* for the watchdog's probe */
    return 0;
}

/* What the watchdog and the fault handler name while launch i of a run runs */
static void name_launch(const gemm_step *step, const gemm_plan *plan, int i, const char *run)
{
    if (step->library)
        gemm_running_set("the library call of %s in %s", step->name, run);
    else
        gemm_running_set("kernel '%s' (%s) in %s", plan->launch[i].kernel, plan->launch[i].label, run);
}

int gemm_run_read(gemm_run *r, cl_mem buf, size_t offset, size_t bytes, void *dst, const char *what)
{
    gemm_running_set("reading %s back", what);
    int rc = gemm_watchdog_arm(&r->msg);
    const cl_int err = rc ? CL_SUCCESS : clEnqueueReadBuffer(r->cl.queue, buf, CL_TRUE, offset, bytes, dst, 0, NULL, NULL);
    gemm_watchdog_disarm();
    if (!rc && err != CL_SUCCESS) {
        char call[96];
        snprintf(call, sizeof call, "clEnqueueReadBuffer(%s)", what);
        rc = gemm_cl_fail(&r->msg, call, err);
    }
    return rc;
}


/* The watchdog's probe (gemm_watchdog.h), on its thread: if every command before the first launch
 * not yet complete has completed, and that launch has not started (or not even been taken by the
 * driver), the time went to preparing it: where PoCL compiles a kernel at its first launch, which
 * it does with the command submitted, not running, and outside the kernel's own profiled time. */
static int watched_probe(char *buf, size_t len)
{
    cl_int status;
    const cl_event prep = atomic_load(&watched.prep);
    if (prep && (clGetEventInfo(prep, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL) != CL_SUCCESS ||
                 status != CL_COMPLETE))
        return 0;
    const int enqueued = atomic_load(&watched.enqueued);
    for (int i = 0; watched.plan && i < watched.plan->nlaunches; i++) {
        const char *state = NULL;
        if (i >= enqueued) {
            state = "had not yet been taken by the driver (clEnqueueNDRangeKernel had not returned)";
        } else {
            if (clGetEventInfo(watched.ev[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL) !=
                    CL_SUCCESS ||
                status < 0 || status == CL_RUNNING)
                return 0; /* it runs (or failed): the usual guess */
            if (status == CL_COMPLETE)
                continue;
            state = "had not started, every command before it done";
        }
        snprintf(buf, len,
                 "the time went to compiling, not to running: kernel '%s' %s, which is where a driver that compiles "
                 "a kernel at its first launch, as PoCL does, compiles it (a longer --timeout gives the compiler the "
                 "time)",
                 watched.plan->launch[i].kernel, state);
        return 1;
    }
    return 0;
}

/* What the probe sees of a run (gemm_run_once()): its plan before the watchdog is armed, then its
 * preparation's last event, then each launch's event as it is enqueued; NULL once the run is over */
static void watch_plan(const gemm_plan *plan)
{
    atomic_store(&watched.enqueued, 0);
    atomic_store(&watched.prep, NULL);
    watched.plan = plan;
}

static void watch_launch(int i, cl_event ev)
{
    watched.ev[i] = ev;
    atomic_store(&watched.enqueued, i + 1);
}

/* The limit of every wait from here on: --timeout, else the default for the problem's size; and
 * the fault handler, which names the kernel of a crash on any device. */
static void watch_runs(const gemm_run *r)
{
    const gemm_problem *p = &r->prob;
    char why[192];
    double limit = r->opt.timeout;
    if (limit >= 0.0) {
        snprintf(why, sizeof why, "--timeout %g", limit);
    } else {
        /* none under Oclgrind (gemm_timeout_default()) */
        limit = gemm_timeout_default(p->m, p->n, p->k, gemm_device_checks_accesses(&r->dev));
        snprintf(why, sizeof why, "the default for %ldx%ldx%ld: %g s + 2*M*N*K flops at %g GFLOPS; --timeout "
                 "SECONDS sets another", p->m, p->n, p->k, GEMM_TIMEOUT_FIXED_S, GEMM_TIMEOUT_GFLOPS);
    }
    gemm_watchdog_set_limit(limit, why);
    gemm_watchdog_set_probe(watched_probe);
    gemm_fault_install();
}

int gemm_run_once(gemm_run *r, const gemm_problem *p, const gemm_plan *plan, int prepare, const char *run,
                  double *total, double *part_ms)
{
    const gemm_step *step = r->step;
    gemm_msg *msg = &r->msg;
    cl_event prep = NULL, ev[GEMM_MAX_LAUNCHES] = {NULL};
    int n = step->library ? 1 : plan->nlaunches;
    name_launch(step, plan, 0, run);
    watch_plan(step->library ? NULL : plan); /* a library's kernels are not ours to see */
    int rc = gemm_watchdog_arm(msg);
    /* A library call is timed from the end of the preparation, so it always gets one. */
    if (!rc && (prepare || step->library))
        rc = prepare_run(r, p, &prep, msg);
    for (int i = 0; i < n && !rc; i++) {
        name_launch(step, plan, i, run); /* the last one enqueued is the one waited on */
        if (step->library) {
            rc = step->library(p, r->cl.queue, r->buf[GEMM_BUF_A].view, r->buf[GEMM_BUF_B].view,
                               r->buf[GEMM_BUF_C].view, &ev[0], msg);
            continue;
        }
        const gemm_launch *l = &plan->launch[i];
        rc = set_args(r, l, r->kernel[i], msg);
        if (rc)
            break;
        cl_int err = clEnqueueNDRangeKernel(r->cl.queue, r->kernel[i], 2, NULL, l->global, l->local, 0, NULL, &ev[i]);
        if (err == CL_SUCCESS)
            watch_launch(i, ev[i]);
        /* CL_OUT_OF_RESOURCES is also how some drivers (NVIDIA's) report, at the next call, a kernel
         * that failed while running: it is read as this launch's limit only if all the work queued
         * before it finishes without an error. */
        cl_int earlier = err == CL_OUT_OF_RESOURCES ? clFinish(r->cl.queue) : CL_SUCCESS;
        if (earlier != CL_SUCCESS) {
            rc = gemm_msgf(msg, GEMM_EXIT_RUNTIME,
                           "clEnqueueNDRangeKernel('%s') failed: %s, and clFinish of the work queued before it "
                           "failed too: %s (a kernel failed while running)",
                           l->kernel, gemm_cl_error_name(err), gemm_cl_error_name(earlier));
        } else if (err == CL_OUT_OF_RESOURCES ||
                   (err == CL_INVALID_WORK_GROUP_SIZE && l->local[0] * l->local[1] > r->kernel_wg[i])) {
            /* The work-group is within the device's limits (checked before) but not this kernel's.
             * (CL_INVALID_WORK_GROUP_SIZE for a group the kernel reports it can take is an error
             * like any other, below: not to be read as a limit of the device.) */
            rc = gemm_msgf(msg, GEMM_EXIT_BAD_INPUT,
                           "kernel '%s' (%s) could not be launched with work-groups of %zux%zu = %zu work-items: %s "
                           "(the compiled kernel reports at most %zu, CL_KERNEL_WORK_GROUP_SIZE); use smaller tiles; "
                           "parameters: %s",
                           l->kernel, l->label, l->local[0], l->local[1], l->local[0] * l->local[1],
                           gemm_cl_error_name(err), r->kernel_wg[i], r->params_text);
        } else if (err != CL_SUCCESS) {
            char what[128];
            snprintf(what, sizeof what, "clEnqueueNDRangeKernel('%s')", l->kernel);
            rc = gemm_cl_fail(msg, what, err);
        }
    }
    if (!rc) {
        cl_int err = clFinish(r->cl.queue);
        if (err != CL_SUCCESS)
            rc = gemm_cl_fail(msg, "clFinish (a kernel failed while running)", err);
    }
    gemm_watchdog_disarm();
    watch_plan(NULL); /* its events go below */
    cl_ulong start = 0, end = 0;
    if (!rc && step->library) /* the library's first kernel is not ours to see: start where C was restored */
        rc = gemm_event_time(prep, CL_PROFILING_COMMAND_END, &start, msg);
    else if (!rc)
        rc = gemm_event_time(ev[0], CL_PROFILING_COMMAND_START, &start, msg);
    if (!rc)
        rc = gemm_event_time(ev[n - 1], CL_PROFILING_COMMAND_END, &end, msg);
    if (!rc)
        rc = gemm_elapsed_ms(start, end, total, msg);
    for (int i = 0; i < n && !rc; i++) {
        if (step->library)
            part_ms[i] = *total;
        else
            rc = gemm_event_ms(ev[i], &part_ms[i], msg);
    }
    if (prep)
        clReleaseEvent(prep);
    for (int i = 0; i < n; i++)
        if (ev[i])
            clReleaseEvent(ev[i]);
    return rc;
}

int run_timed(gemm_run *r)
{
    const int nlaunches = r->plan.nlaunches;
    r->times = malloc((size_t)r->repeat * sizeof(double));
    int parts_ok = 1;
    for (int i = 0; i < nlaunches; i++) {
        r->part[i] = malloc((size_t)r->repeat * sizeof(double));
        parts_ok &= r->part[i] != NULL;
    }
    r->result = malloc(r->elems[GEMM_BUF_C] * sizeof(float));
    if (!r->times || !r->result || !parts_ok)
        return gemm_msgf(&r->msg, GEMM_EXIT_RUNTIME, "out of host memory");
    watch_runs(r);
    for (int run = 0; run < r->warmup + r->repeat; run++) {
        double total = 0, part_ms[GEMM_MAX_LAUNCHES] = {0};
        char name[64];
        gemm_progress_run(run, r->warmup, r->repeat);
        gemm_progress_run_name(name, sizeof name, run, r->warmup, r->repeat);
        int rc = gemm_run_once(r, &r->prob, &r->plan, run > 0, name, &total, part_ms);
        if (rc)
            return rc;
        if (run >= r->warmup) {
            r->times[run - r->warmup] = total;
            for (int i = 0; i < nlaunches; i++)
                r->part[i][run - r->warmup] = part_ms[i];
        }
    }
    gemm_progress_set("reading C back and checking it");
    return gemm_run_read(r, r->buf[GEMM_BUF_C].view, 0, r->elems[GEMM_BUF_C] * sizeof(float), r->result, "C");
}
