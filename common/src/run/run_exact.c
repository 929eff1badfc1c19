/* 9b. The exact checks: the same launches twice more, on integer data and on the precision check's
 * 14-bit values, whose answers every correct kernel computes exactly (gemm_exact.h), and every
 * element of C compared with each for equality. */
#include <stdio.h>
#include <string.h>

#include "gemm_exact.h"
#include "gemm_progress.h"
#include "gemm_run.h"
#include "gemm_watchdog.h"

/* The exact run's plan is the step's plan for the same problem with the exact run's alpha and
 * beta: it must launch the same kernels on the same buffers, only the float arguments differ. */
static int same_launches(const gemm_plan *a, const gemm_plan *b)
{
    if (a->nlaunches != b->nlaunches || memcmp(a->temp_elems, b->temp_elems, sizeof a->temp_elems) != 0)
        return 0;
    for (int i = 0; i < a->nlaunches; i++) {
        const gemm_launch *x = &a->launch[i], *y = &b->launch[i];
        if (strcmp(x->kernel, y->kernel) != 0 || x->nargs != y->nargs || x->local_mem_bytes != y->local_mem_bytes ||
            memcmp(x->global, y->global, sizeof x->global) != 0 || memcmp(x->local, y->local, sizeof x->local) != 0)
            return 0;
        for (int j = 0; j < x->nargs && j < GEMM_MAX_ARGS; j++)
            if (x->arg[j].kind != y->arg[j].kind || (x->arg[j].kind == GEMM_ARG_INT && x->arg[j].i != y->arg[j].i) ||
                (x->arg[j].kind == GEMM_ARG_BUFFER && x->arg[j].buffer != y->arg[j].buffer))
                return 0;
    }
    return 1;
}

/* A, B and the C that each run starts from, on the device (blocking writes, watched like the runs) */
static int upload(gemm_run *r, const char *what)
{
    cl_mem dest[3] = {r->buf[GEMM_BUF_A].view, r->buf[GEMM_BUF_B].view, r->c_initial};
    const float *src[3] = {r->data.a, r->data.b, r->data.c0};
    const size_t elems[3] = {r->elems[GEMM_BUF_A], r->elems[GEMM_BUF_B], r->elems[GEMM_BUF_C]};
    gemm_running_set("copying %s A, B and C to the device", what);
    int rc = gemm_watchdog_arm(&r->msg);
    for (int i = 0; i < 3 && !rc; i++) {
        if (!dest[i]) /* no starting C when beta = 0: the run poisons C */
            continue;
        cl_int err = clEnqueueWriteBuffer(r->cl.queue, dest[i], CL_TRUE, 0, elems[i] * sizeof(float), src[i], 0, NULL,
                                          NULL);
        if (err != CL_SUCCESS)
            rc = gemm_cl_fail(&r->msg, "clEnqueueWriteBuffer(exact check)", err);
    }
    gemm_watchdog_disarm();
    return rc;
}

/* One exact check: its data in place of the random data, one run of the step's launches, C compared
 * with the exact answer. @p what names the check's run in messages ("the exact check's") */
static int exact_check(gemm_run *r, int precision, gemm_exact *exact, const char *what)
{
    const double start = gemm_host_seconds();
    if (precision)
        gemm_precision_data_fill(&r->data, r->opt.alpha, r->opt.beta, r->opt.seed, exact);
    else
        gemm_exact_data_fill(&r->data, r->opt.alpha, r->opt.beta, r->opt.seed, exact);
    gemm_problem prob = r->prob;
    prob.alpha = exact->alpha;
    prob.beta = exact->beta;
    gemm_plan plan;
    memset(&plan, 0, sizeof plan);
    int rc = r->step->library ? 0 : r->step->plan(&prob, &plan, &r->msg);
    if (!rc && !r->step->library && !same_launches(&plan, &r->plan))
        rc = gemm_msgf(&r->msg, GEMM_EXIT_RUNTIME,
                       "internal error: %s plans other launches for %s alpha and beta", r->step->name, what);
    if (!rc)
        rc = upload(r, what);
    char run[64];
    snprintf(run, sizeof run, "%s run", what);
    double total, part_ms[GEMM_MAX_LAUNCHES];
    if (!rc)
        rc = gemm_run_once(r, &prob, r->step->library ? &r->plan : &plan, 1, run, &total, part_ms);
    if (!rc)
        rc = gemm_run_read(r, r->buf[GEMM_BUF_C].view, 0, r->elems[GEMM_BUF_C] * sizeof(float), r->result,
                           precision ? "C of the precision check" : "C of the exact check");
    if (!rc) {
        gemm_exact_expected(&r->data); /* C0 is on the device: the expected answer takes its place */
        gemm_exact_compare(r->result, r->data.c0, r->prob.m, r->prob.n, exact);
        exact->seconds = gemm_host_seconds() - start;
    }
    return rc;
}

int run_exact(gemm_run *r)
{
    if (!r->opt.verify || !r->opt.exact)
        return 0;
    gemm_reference_free(&r->ref); /* the random data's reference is done with: its memory goes first */
    gemm_progress_set("the exact check: integer data, one more run");
    int rc = exact_check(r, 0, &r->rep.exact, "the exact check's");
    if (!rc) {
        gemm_progress_set("the precision check: 14-bit values, one more run");
        rc = exact_check(r, 1, &r->rep.precision, "the precision check's");
    }
    return rc;
}
