/* The tools a step's plan builds its launches with and refuses with (gemm_plan.h). */
#include "gemm_plan.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

long gemm_param(const gemm_problem *p, const char *name)
{
    long v = 0;
    gemm_defines_find(p->params, name, &v);
    return v;
}

gemm_launch *gemm_plan_add(gemm_plan *plan, const char *kernel, const char *label, size_t global_cols,
                           size_t global_rows, size_t local_cols, size_t local_rows)
{
    if (plan->nlaunches >= GEMM_MAX_LAUNCHES)
        return NULL; /* caught by the runner's plan check */
    gemm_launch *l = &plan->launch[plan->nlaunches++];
    memset(l, 0, sizeof *l);
    l->kernel = kernel;
    l->label = label;
    l->global[0] = global_cols;
    l->global[1] = global_rows;
    l->local[0] = local_cols;
    l->local[1] = local_rows;
    return l;
}

void gemm_plan_temp(gemm_plan *plan, gemm_buffer_id which, const char *label, size_t elems)
{
    if (which >= GEMM_BUF_T0 && which < GEMM_BUF_COUNT) {
        plan->temp_elems[which - GEMM_BUF_T0] = elems;
        plan->temp_label[which - GEMM_BUF_T0] = label;
    }
}

void gemm_plan_counters(gemm_plan *plan, gemm_buffer_id which, const char *label, size_t elems)
{
    gemm_plan_temp(plan, which, label, elems);
    if (which >= GEMM_BUF_T0 && which < GEMM_BUF_COUNT)
        plan->temp_counters[which - GEMM_BUF_T0] = 1;
}

int gemm_plan_choose(gemm_plan *plan, const char *name, long value)
{
    for (int i = 0; i < GEMM_MAX_CHOSEN; i++)
        if (!plan->chosen[i]) {
            plan->chosen[i] = name;
            plan->chosen_value[i] = value;
            return 0;
        }
    return 1;
}

static const char *const buffer_names[GEMM_BUF_COUNT] = {"A", "B", "C", "helper buffer 0", "helper buffer 1",
                                                          "helper buffer 2", "helper buffer 3"};
_Static_assert(GEMM_MAX_TEMPS == GEMM_BUF_COUNT - GEMM_BUF_T0, "one helper buffer per GEMM_BUF_T*");

const char *gemm_plan_buffer_name(const gemm_plan *plan, int b)
{
    return b < GEMM_BUF_T0 ? buffer_names[b] : plan->temp_label[b - GEMM_BUF_T0];
}

/* Floats per row of buffer b, for the size of its guards: A is m x k, B k x n, C m x n; a helper
 * buffer's shape is the plan's, so its guards take the longest of the three. */
size_t gemm_buffer_row(const gemm_problem *p, int b)
{
    if (b == GEMM_BUF_A)
        return (size_t)p->k;
    if (b == GEMM_BUF_B || b == GEMM_BUF_C)
        return (size_t)p->n;
    const long longest = p->m > p->n ? (p->m > p->k ? p->m : p->k) : (p->n > p->k ? p->n : p->k);
    return (size_t)longest;
}

static gemm_arg *next_arg(gemm_launch *l)
{
    static gemm_arg overflow; /* writes past GEMM_MAX_ARGS land here; nargs then flags the bug */
    if (l->nargs >= GEMM_MAX_ARGS) {
        l->nargs = GEMM_MAX_ARGS + 1;
        return &overflow;
    }
    return &l->arg[l->nargs++];
}

void gemm_arg_int(gemm_launch *l, long value)
{
    gemm_arg *a = next_arg(l);
    a->kind = GEMM_ARG_INT;
    a->i = (int)value;
}

void gemm_arg_float(gemm_launch *l, float value)
{
    gemm_arg *a = next_arg(l);
    a->kind = GEMM_ARG_FLOAT;
    a->f = value;
}

void gemm_arg_buffer(gemm_launch *l, gemm_buffer_id which)
{
    gemm_arg *a = next_arg(l);
    a->kind = GEMM_ARG_BUFFER;
    a->buffer = which;
}

void gemm_arg_sgemm(gemm_launch *l, long m, long n, long k, float alpha, float beta, gemm_buffer_id a,
                    gemm_buffer_id b, gemm_buffer_id c)
{
    gemm_arg_int(l, m);
    gemm_arg_int(l, n);
    gemm_arg_int(l, k);
    gemm_arg_float(l, alpha);
    gemm_arg_float(l, beta);
    gemm_arg_buffer(l, a);
    gemm_arg_buffer(l, b);
    gemm_arg_buffer(l, c);
}

size_t gemm_round_up(size_t x, size_t multiple) { return multiple ? (x + multiple - 1) / multiple * multiple : x; }

int gemm_require_multiple(gemm_msg *msg, const gemm_problem *p, const char *dim, long value, const char *param,
                          long tile)
{
    if (tile > 0 && value % tile == 0)
        return 0;
    return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT,
                     "%s=%ld is not a multiple of %s=%ld: %s needs M, N and K to be multiples of its tiles "
                     "(kernel06_padding handles any size)",
                     dim, value, param, tile, p->step);
}

int gemm_require_tiles(gemm_msg *msg, const gemm_problem *p, const char *pm, long tm, const char *pn, long tn,
                       const char *pk, long tk)
{
    int rc = gemm_require_multiple(msg, p, "M", p->m, pm, tm);
    if (!rc)
        rc = gemm_require_multiple(msg, p, "N", p->n, pn, tn);
    if (!rc)
        rc = gemm_require_multiple(msg, p, "K", p->k, pk, tk);
    return rc;
}

int gemm_require_width(gemm_msg *msg, const gemm_problem *p, long width)
{
    if (width != 1 && width != 2 && width != 4 && width != 8)
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "WIDTH=%ld is not a vector width OpenCL C offers here: use 1, 2, 4 or 8",
                         width);
    if ((long)p->device->base_align < width * (long)sizeof(float))
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT,
                         "WIDTH=%ld needs buffers aligned to %ld bytes but this device only guarantees %u "
                         "(CL_DEVICE_MEM_BASE_ADDR_ALIGN); use a smaller WIDTH",
                         width, width * (long)sizeof(float), p->device->base_align);
    return 0;
}

int gemm_require(gemm_msg *msg, int ok, const char *fmt, ...)
{
    if (ok)
        return 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg->text, sizeof msg->text, fmt, ap);
    va_end(ap);
    return GEMM_EXIT_BAD_INPUT;
}

