/* 7. Data: the random A, B and C (fixed seed), the double-precision reference, and the device
 * buffers, each with guard regions; A, B and C start as the first run needs them. */
#include <stdlib.h>

#include "gemm_memory.h"
#include "gemm_progress.h"
#include "gemm_run.h"

/* The device buffers: A, B and C as the first run needs them (C poisoned when beta = 0, its
 * starting values otherwise, with a pristine copy to restore it from), the helpers poisoned, except
 * counters, which start at zero. */
static int make_buffers(gemm_run *r)
{
    const int keep_c = r->prob.beta != 0.0f;
    for (int b = 0; b < GEMM_BUF_COUNT; b++) {
        if (r->elems[b] == 0)
            continue;
        /* counters (gemm_plan_counters()) start at zero: the kernels keep them so from then on */
        const int counters = b >= GEMM_BUF_T0 && r->plan.temp_counters[b - GEMM_BUF_T0];
        float *zeros = counters ? calloc(r->elems[b], sizeof *zeros) : NULL;
        if (counters && !zeros)
            return gemm_msgf(&r->msg, GEMM_EXIT_RUNTIME, "out of host memory for %s",
                             gemm_plan_buffer_name(&r->plan, b));
        const float *init = b == GEMM_BUF_A            ? r->data.a
                            : b == GEMM_BUF_B          ? r->data.b
                            : b == GEMM_BUF_C && keep_c ? r->data.c0
                                                        : zeros;
        int rc = gemm_buffer_create(&r->cl, &r->buf[b], gemm_plan_buffer_name(&r->plan, b), r->elems[b],
                                    gemm_buffer_row(&r->prob, b), init, &r->msg);
        free(zeros);
        if (rc)
            return rc;
    }
    if (!keep_c)
        return 0;
    cl_int err;
    r->c_initial = clCreateBuffer(r->cl.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                  r->elems[GEMM_BUF_C] * sizeof(float), r->data.c0, &err);
    if (err != CL_SUCCESS) {
        r->c_initial = NULL;
        return gemm_cl_fail(&r->msg, "clCreateBuffer(initial C)", err);
    }
    return 0;
}

int run_data(gemm_run *r)
{
    gemm_progress_set("making the random matrices");
    const gemm_options *opt = &r->opt;
    int rc = gemm_host_data_create(&r->data, r->prob.m, r->prob.n, r->prob.k, opt->alpha, opt->beta, opt->data, opt->seed,
                                   &r->msg);
    if (rc)
        return rc;
    if (opt->verify) {
        gemm_progress_set("computing the double-precision reference");
        if (gemm_memory_address_limited())
            gemm_reference_threads(1); /* see gemm_reference_threads() */
        rc = gemm_reference_compute(&r->data, r->sample, &r->ref, &r->msg);
        if (rc)
            return rc;
    }
    gemm_progress_set("copying A, B and C to the device");
    return make_buffers(r);
}
