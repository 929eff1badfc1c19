/* 9. Verify: the guard regions of every buffer, the inputs unchanged, and every element of C
 * against the double-precision reference (gemm_verify.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemm_run.h"

/* Whether the kernels left input buffer b (A or B) as it was written: read back in chunks and
 * compared with `expect`. 0: unchanged; 1: changed (the reason in failure); else a runtime error. */
static int check_input_unchanged(gemm_run *r, gemm_buffer_id b, const char *name, const float *expect, size_t n,
                                 char *failure, size_t failure_len, gemm_msg *msg)
{
    enum { CHUNK = 1 << 20 };
    float *got = malloc((n < CHUNK ? n : CHUNK) * sizeof *got);
    if (!got)
        return gemm_msgf(msg, GEMM_EXIT_RUNTIME, "out of host memory reading %s back", name);
    size_t changed = 0, first = 0;
    int rc = 0;
    for (size_t start = 0; start < n && !rc; start += CHUNK) {
        const size_t len = n - start < CHUNK ? n - start : CHUNK;
        rc = gemm_run_read(r, r->buf[b].view, start * sizeof(float), len * sizeof(float), got, name);
        if (rc) {
            *msg = r->msg;
            break;
        }
        for (size_t i = 0; i < len; i++)
            if (memcmp(&got[i], &expect[start + i], sizeof(float)) != 0 && changed++ == 0)
                first = start + i;
    }
    free(got);
    if (!rc && changed) {
        snprintf(failure, failure_len, "the kernels changed their input %s: %zu of its %zu elements, the first at "
                 "index %zu (an input must be read only)", name, changed, n, first);
        rc = 1;
    }
    return rc;
}

/* A stray write: every buffer's guard regions as they were written (gemm_cl.h). 0: intact or a
 * failure recorded in the report; else a runtime error. */
static int check_guards(gemm_run *r)
{
    for (int b = 0; b < GEMM_BUF_COUNT && !r->rep.failure[0]; b++) {
        if (!r->buf[b].view)
            continue;
        gemm_msg gmsg = {{0}};
        int g = gemm_buffer_check_guards(&r->cl, &r->buf[b], &gmsg);
        if (g == 1)
            snprintf(r->rep.failure, sizeof r->rep.failure, "%s", gmsg.text);
        else if (g) {
            r->msg = gmsg;
            return g;
        }
    }
    return 0;
}

/* Counters (gemm_plan_counters()) the kernels must leave at zero, for the next launch: read back.
 * 0: all zero or a failure recorded in the report; else a runtime error. */
static int check_counters(gemm_run *r)
{
    for (int t = 0; t < GEMM_MAX_TEMPS && !r->rep.failure[0]; t++) {
        const int b = GEMM_BUF_T0 + t;
        if (!r->plan.temp_counters[t] || !r->buf[b].view)
            continue;
        const size_t n = r->elems[b];
        int *got = malloc(n * sizeof *got);
        if (!got)
            return gemm_msgf(&r->msg, GEMM_EXIT_RUNTIME, "out of host memory reading %s back",
                             gemm_plan_buffer_name(&r->plan, b));
        int rc = gemm_run_read(r, r->buf[b].view, 0, n * sizeof *got, got, gemm_plan_buffer_name(&r->plan, b));
        for (size_t i = 0; !rc && i < n; i++)
            if (got[i] != 0) {
                snprintf(r->rep.failure, sizeof r->rep.failure,
                         "the kernels left %s at %d, not 0, at index %zu: the next launch would count from there",
                         gemm_plan_buffer_name(&r->plan, b), got[i], i);
                break;
            }
        free(got);
        if (rc)
            return rc;
    }
    return 0;
}

int run_verify(gemm_run *r)
{
    if (!r->opt.verify)
        return 0;
    r->rep.verified = 1;
    int rc = check_guards(r);
    if (!rc)
        rc = check_counters(r);
    if (rc)
        return rc;
    /* The inputs as well: a kernel that writes into A or B would otherwise pass while it runs
     * once, and give the next run (and the caller) other matrices */
    static const char *const input_name[2] = {"A", "B"};
    const float *const input_data[2] = {r->data.a, r->data.b};
    for (int b = GEMM_BUF_A; b <= GEMM_BUF_B && !r->rep.failure[0]; b++) {
        gemm_msg imsg = {{0}};
        int g = check_input_unchanged(r, (gemm_buffer_id)b, input_name[b - GEMM_BUF_A], input_data[b - GEMM_BUF_A],
                                      r->elems[b], r->rep.failure, sizeof r->rep.failure, &imsg);
        if (g > 1) {
            r->msg = imsg;
            return g;
        }
    }
    gemm_check_result(r->result, &r->ref, &r->rep.check);
    return 0;
}
