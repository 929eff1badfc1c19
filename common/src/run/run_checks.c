/* 5. Checks: the plan against the device (work-groups, local memory, allocations, the kernels'
 * 32-bit indices) and against the host's memory (gemm_memory.h), before anything is built. */
#include <limits.h>

#include "gemm_memory.h"
#include "gemm_run.h"

static double gib(double bytes) { return bytes / 1073741824.0; }

/* How many floats each buffer holds: A, B, C, then the plan's helper buffers (0 = unused). */
static void buffer_elems(const gemm_problem *p, const gemm_plan *plan, size_t elems[GEMM_BUF_COUNT])
{
    elems[GEMM_BUF_A] = (size_t)p->m * (size_t)p->k;
    elems[GEMM_BUF_B] = (size_t)p->k * (size_t)p->n;
    elems[GEMM_BUF_C] = (size_t)p->m * (size_t)p->n;
    for (int t = 0; t < GEMM_MAX_TEMPS; t++)
        elems[GEMM_BUF_T0 + t] = plan->temp_elems[t];
}

int gemm_check_plan(const gemm_problem *p, const gemm_plan *plan, const char *params, gemm_msg *msg)
{
    const gemm_device_info *dev = p->device;
    size_t elems[GEMM_BUF_COUNT];
    buffer_elems(p, plan, elems);
    double total = 0;
    for (int b = 0; b < GEMM_BUF_COUNT; b++) {
        const char *name = gemm_plan_buffer_name(plan, b);
        if (b >= GEMM_BUF_T0 && elems[b] == 0)
            continue;
        if (elems[b] > (size_t)INT_MAX)
            return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT,
                             "%s would have %zu elements, more than the 2^31-1 that the kernels' 32-bit int "
                             "indices can address", name, elems[b]);
        const double bytes = (double)gemm_buffer_bytes(dev, elems[b], gemm_buffer_row(p, b));
        if (bytes > (double)dev->max_alloc)
            return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT,
                             "%s needs %.2f GiB but this device's largest buffer is %.2f GiB "
                             "(CL_DEVICE_MAX_MEM_ALLOC_SIZE); use smaller sizes (in bytes: %.0f, its guard regions "
                             "%.0f of them, against %.0f)",
                             name, gib(bytes), gib((double)dev->max_alloc), bytes,
                             bytes - (double)elems[b] * sizeof(float), (double)dev->max_alloc);
        total += bytes;
    }
    if (p->beta != 0.0f)
        total += (double)elems[GEMM_BUF_C] * sizeof(float); /* the pristine copy of C */
    if (total > (double)dev->global_mem)
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT,
                         "the buffers need %.2f GiB together but this device has %.2f GiB (CL_DEVICE_GLOBAL_MEM_SIZE)",
                         gib(total), gib((double)dev->global_mem));
    if (plan->nlaunches < 1 || plan->nlaunches > GEMM_MAX_LAUNCHES)
        return gemm_msgf(msg, GEMM_EXIT_RUNTIME, "internal error: %s planned %d launches", p->step, plan->nlaunches);
    for (int i = 0; i < plan->nlaunches; i++) {
        const gemm_launch *l = &plan->launch[i];
        const size_t wg = l->local[0] * l->local[1];
        if (l->nargs > GEMM_MAX_ARGS)
            return gemm_msgf(msg, GEMM_EXIT_RUNTIME, "internal error: too many arguments for '%s'", l->kernel);
        for (int d = 0; d < 2; d++) {
            if (l->local[d] == 0 || l->global[d] == 0 || l->global[d] % l->local[d] != 0)
                return gemm_msgf(msg, GEMM_EXIT_RUNTIME,
                                 "internal error: '%s' global size %zu is not a multiple of its local size %zu",
                                 l->kernel, l->global[d], l->local[d]);
            if (l->local[d] > dev->max_item[d])
                return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT,
                                 "kernel '%s' (%s) needs %zu work-items in dimension %d of a work-group but this device "
                                 "allows %zu (CL_DEVICE_MAX_WORK_ITEM_SIZES); parameters: %s",
                                 l->kernel, l->label, l->local[d], d, dev->max_item[d], params);
        }
        if (wg > dev->max_work_group)
            return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT,
                             "kernel '%s' (%s) needs work-groups of %zux%zu = %zu work-items but this device allows %zu "
                             "(CL_DEVICE_MAX_WORK_GROUP_SIZE); parameters: %s",
                             l->kernel, l->label, l->local[0], l->local[1], wg, dev->max_work_group, params);
        if (l->local_mem_bytes > dev->local_mem)
            return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT,
                             "kernel '%s' (%s) needs %zu bytes of local memory but this device has %lu "
                             "(CL_DEVICE_LOCAL_MEM_SIZE); parameters: %s",
                             l->kernel, l->label, l->local_mem_bytes, (unsigned long)dev->local_mem, params);
    }
    return 0;
}

/* The host memory a step's run needs (gemm_memory.h): host arrays, device buffers where they are
 * host memory, the reserved inaccessible pages around them; then the plan for the reference.
 * (run_options() checked the host arrays alone, before the driver loaded.) */
static int check_memory(const gemm_problem *p, const gemm_plan *plan, int verify, long *sample, char *why,
                        size_t why_len, gemm_msg *msg)
{
    const gemm_device_info *dev = p->device;
    const double mn = (double)p->m * (double)p->n, floats = sizeof(float);
    const size_t fence = gemm_device_fenced(dev);
    gemm_memory_use use = {0};
    use.host = ((double)p->m * (double)p->k + (double)p->k * (double)p->n + 2.0 * mn) * floats; /* A, B, C0, result */
    use.driver_loaded = 1;
    use.blas = gemm_reference_blas();
    double largest = 0.0, device = p->beta != 0.0f ? mn * floats : 0.0; /* the pristine copy of C */
    size_t elems[GEMM_BUF_COUNT];
    buffer_elems(p, plan, elems);
    for (int b = 0; b < GEMM_BUF_COUNT; b++) {
        if (!elems[b])
            continue;
        const double bytes = (double)gemm_buffer_bytes(dev, elems[b], gemm_buffer_row(p, b)) + (double)gemm_page_size();
        device += bytes;
        largest = bytes > largest ? bytes : largest;
        use.reserved += 2.0 * (double)fence;
    }
    if (gemm_device_host_memory(dev))
        use.device = device;
    if (!fence)
        use.host += largest; /* the staging copy that fills a buffer */
    gemm_memory_limits lim;
    gemm_memory_read_limits(&lim);
    return gemm_memory_plan(&lim, &use, p->m, p->n, p->k, verify, sample, why, why_len, msg);
}

int run_checks(gemm_run *r)
{
    buffer_elems(&r->prob, &r->plan, r->elems);
    int rc = gemm_check_plan(&r->prob, &r->plan, r->params_text, &r->msg);
    if (!rc)
        rc = gemm_check_scalars(r->prob.k, r->opt.alpha, r->opt.beta, &r->msg);
    if (!rc)
        rc = check_memory(&r->prob, &r->plan, r->opt.verify, &r->sample, r->sample_why, sizeof r->sample_why, &r->msg);
    return rc;
}
