#define _POSIX_C_SOURCE 200809L /* fdopen, fstat */
#include "gemm_step.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

#include "gemm_memory.h"
#include "gemm_params.h"
#include "gemm_progress.h"
#include "gemm_report.h"
#include "gemm_verify.h"

/* ---------------------------------------------------------------------------------------------
 * Helpers for the steps' plan functions
 * ------------------------------------------------------------------------------------------- */

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

int gemm_require_vector_tiles(gemm_msg *msg, const gemm_problem *p)
{
    const long tsm = gemm_param(p, "TSM"), tsn = gemm_param(p, "TSN"), width = gemm_param(p, "WIDTH");
    int rc = gemm_require_width(msg, p, width);
    if (!rc)
        rc = gemm_require(msg, tsm % width == 0 && tsn % width == 0,
                          "TSM=%ld and TSN=%ld must be multiples of WIDTH=%ld", tsm, tsn, width);
    return rc;
}

int gemm_require_register_blocks(gemm_msg *msg, const gemm_problem *p)
{
    const long tsm = gemm_param(p, "TSM"), tsn = gemm_param(p, "TSN"), width = gemm_param(p, "WIDTH");
    const long wptm = gemm_param(p, "WPTM"), wptn = gemm_param(p, "WPTN");
    int rc = gemm_require_vector_tiles(msg, p);
    if (!rc)
        rc = gemm_require(msg, wptm % width == 0 && wptn % width == 0,
                          "WPTM=%ld and WPTN=%ld must be multiples of WIDTH=%ld", wptm, wptn, width);
    if (!rc)
        rc = gemm_require(msg, tsm % wptm == 0 && tsn % wptn == 0,
                          "TSM=%ld must be a multiple of WPTM=%ld and TSN=%ld a multiple of WPTN=%ld", tsm, wptm,
                          tsn, wptn);
    return rc;
}

int gemm_require_even_tile_loads(gemm_msg *msg, const gemm_problem *p)
{
    const long tsm = gemm_param(p, "TSM"), tsn = gemm_param(p, "TSN"), tsk = gemm_param(p, "TSK");
    const long width = gemm_param(p, "WIDTH"), wptm = gemm_param(p, "WPTM"), wptn = gemm_param(p, "WPTN");
    const long threads = (tsm / wptm) * (tsn / wptn), a = tsk * (tsm / width), b = tsk * (tsn / width);
    const int rc = gemm_require_register_blocks(msg, p);
    if (rc)
        return rc;
    return gemm_require(msg, a % threads == 0 && b % threads == 0,
                        "a tile of A^T (TSK*TSM/WIDTH = %ld vectors) and of B (TSK*TSN/WIDTH = %ld) must divide evenly "
                        "among the (TSM/WPTM)*(TSN/WPTN) = %ld work-items that load them",
                        a, b, threads);
}

int gemm_require_warp_tiles(gemm_msg *msg, const gemm_problem *p)
{
    const long tsm = gemm_param(p, "TSM"), tsn = gemm_param(p, "TSN"), wtm = gemm_param(p, "WTM");
    const long wtn = gemm_param(p, "WTN"), wptm = gemm_param(p, "WPTM"), wptn = gemm_param(p, "WPTN");
    int rc = gemm_require_even_tile_loads(msg, p);
    if (!rc)
        rc = gemm_require(msg, tsm % wtm == 0 && tsn % wtn == 0,
                          "TSM=%ld must be a multiple of WTM=%ld and TSN=%ld a multiple of WTN=%ld", tsm, wtm, tsn, wtn);
    if (!rc)
        rc = gemm_require(msg, wtm % wptm == 0 && wtn % wptn == 0,
                          "WTM=%ld must be a multiple of WPTM=%ld and WTN=%ld a multiple of WPTN=%ld", wtm, wptm, wtn,
                          wptn);
    if (!rc && gemm_param(p, "LANE_SQUARES"))
        rc = gemm_require(msg, (wtm / wptm) % 2 == 0 && (wtn / wptn) % 2 == 0,
                          "LANE_SQUARES=1 needs an even number of work-items each way in a warp: WTM/WPTM=%ld and "
                          "WTN/WPTN=%ld",
                          wtm / wptm, wtn / wptn);
    return rc;
}

size_t gemm_double_buffer_bytes(const gemm_problem *p)
{
    return 2 * (size_t)((gemm_param(p, "TSM") + gemm_param(p, "TSN")) * gemm_param(p, "TSK")) * sizeof(float);
}

gemm_launch *gemm_plan_transpose(gemm_plan *plan, const char *label, long rows, long cols, long tile, long pad,
                                 gemm_buffer_id in, gemm_buffer_id out)
{
    gemm_launch *l = gemm_plan_add(plan, "transpose", label, gemm_round_up((size_t)cols, (size_t)tile),
                                   gemm_round_up((size_t)rows, (size_t)tile), (size_t)tile, (size_t)tile);
    if (!l)
        return NULL;
    gemm_arg_int(l, rows);
    gemm_arg_int(l, cols);
    gemm_arg_buffer(l, in);
    gemm_arg_buffer(l, out);
    l->local_mem_bytes = (size_t)(tile * (tile + pad)) * sizeof(float);
    return l;
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

/** Longest build options (the -D defines and GEMM_CL_OPTIONS) the harness passes on. */
#define GEMM_BUILD_OPTIONS_MAX 4096

/* ---------------------------------------------------------------------------------------------
 * The runner
 * ------------------------------------------------------------------------------------------- */

static const char *const buffer_names[GEMM_BUF_COUNT] = {"A", "B", "C", "helper buffer 0", "helper buffer 1",
                                                          "helper buffer 2", "helper buffer 3"};
_Static_assert(GEMM_MAX_TEMPS == GEMM_BUF_COUNT - GEMM_BUF_T0, "one helper buffer per GEMM_BUF_T*");

static void print_step_help(FILE *out, const void *ctx)
{
    const gemm_step *step = ctx;
    if (step->nparams == 0)
        return;
    fprintf(out, "\nparameters of %s (override with -D NAME=VALUE):\n", step->name);
    static const gemm_device_class classes[] = {GEMM_DEVICE_CPU, GEMM_DEVICE_NVIDIA_GPU, GEMM_DEVICE_GPU};
    /* Columns as wide as the longest name and range (TRANSPOSE_TILE, 1..256) */
    int name_width = 0, range_width = 0;
    for (int i = 0; i < step->nparams; i++) {
        char range[48];
        const int nw = (int)strlen(step->params[i].name);
        const int rw = snprintf(range, sizeof range, "%ld..%ld", step->params[i].min, step->params[i].max);
        name_width = nw > name_width ? nw : name_width;
        range_width = rw > range_width ? rw : range_width;
    }
    for (int i = 0; i < step->nparams; i++) {
        const gemm_param_info *pi = &step->params[i];
        char range[48];
        snprintf(range, sizeof range, "%ld..%ld", pi->min, pi->max);
        fprintf(out, "  %-*s %-*s  %s\n  %*s default:", name_width, pi->name, range_width, range, pi->help, name_width,
                "");
        for (size_t c = 0; c < sizeof classes / sizeof classes[0]; c++) {
            gemm_defines d = {0};
            gemm_msg msg;
            long v = 0;
            if (gemm_params_defaults(step->name, classes[c], &d, &msg) == 0 && gemm_defines_find(&d, pi->name, &v))
                fprintf(out, " %ld on %s%s", v, gemm_device_class_name(classes[c]), c + 1 < 3 ? "," : "");
        }
        fprintf(out, "\n");
    }
}

/* What a file is, for a refusal: a kernel file must be a regular file. */
static const char *file_kind(mode_t mode)
{
    return S_ISFIFO(mode)   ? "a FIFO (named pipe)"
           : S_ISSOCK(mode) ? "a socket"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
                            : "not a regular file";
}

static int read_text_file(const char *path, char **out, gemm_msg *msg)
{
    *out = NULL;
    /* Refused at once unless it is a regular file: opening a FIFO for reading would wait for a
     * writer, reading a device might never end. stat() names it without opening it; the open is
     * non-blocking and checked again (the path may change in between). */
    struct stat st;
    if (stat(path, &st) != 0)
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "cannot read kernel file '%s': %s", path, strerror(errno));
    if (S_ISDIR(st.st_mode))
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "cannot read kernel file '%s': %s", path, strerror(EISDIR));
    if (!S_ISREG(st.st_mode))
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "kernel file '%s' is %s, not a regular file", path,
                         file_kind(st.st_mode));
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "cannot read kernel file '%s': %s", path, strerror(errno));
    FILE *f = NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || fcntl(fd, F_SETFL, 0) != 0 || !(f = fdopen(fd, "rb"))) {
        close(fd);
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "kernel file '%s' is not a regular file", path);
    }
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 4096 + 1 > cap) {
            cap = cap ? 2 * cap : 65536;
            if (cap > (size_t)16 << 20) {
                free(text);
                fclose(f);
                return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "kernel file '%s' is larger than 16 MiB", path);
            }
            char *grown = realloc(text, cap);
            if (!grown) {
                free(text);
                fclose(f);
                return gemm_msgf(msg, GEMM_EXIT_RUNTIME, "out of host memory reading '%s'", path);
            }
            text = grown;
        }
        errno = 0;
        size_t got = fread(text + len, 1, 4096, f);
        len += got;
        if (got < 4096) {
            if (ferror(f)) {
                const int e = errno;
                free(text);
                fclose(f);
                return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "cannot read kernel file '%s': %s", path,
                                 e ? strerror(e) : "read error");
            }
            break;
        }
    }
    fclose(f);
    text[len] = '\0';
    if (len == 0 || strlen(text) != len) {
        free(text);
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "kernel file '%s' is empty or not text", path);
    }
    *out = text;
    return 0;
}

/* Parameters: the step's defaults for this device, then the user's overrides, each in range. */
static int resolve_params(const gemm_step *step, const gemm_options *opt, const gemm_device_info *dev,
                          gemm_defines *params, gemm_msg *msg)
{
    memset(params, 0, sizeof *params);
    gemm_device_class cls = dev->cls;
    /* --defaults-for, else GEMM_DEFAULTS_FOR (how the whole test suite runs with another class's
     * defaults, tests/run.sh --small-gpu), else the device's own class */
    const char *defaults_for = opt->defaults_for;
    if (!defaults_for) {
        const char *env = getenv("GEMM_DEFAULTS_FOR");
        if (env && *env) {
            if (strcmp(env, "cpu") != 0 && strcmp(env, "nvidia-gpu") != 0 && strcmp(env, "gpu") != 0)
                return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "GEMM_DEFAULTS_FOR expects cpu, nvidia-gpu or gpu, got '%s'",
                                 env);
            defaults_for = env;
        }
    }
    if (defaults_for)
        cls = strcmp(defaults_for, "nvidia-gpu") == 0 ? GEMM_DEVICE_NVIDIA_GPU
              : strcmp(defaults_for, "gpu") == 0      ? GEMM_DEVICE_GPU
                                                       : GEMM_DEVICE_CPU;
    int rc = gemm_params_defaults(step->name, cls, params, msg);
    if (rc)
        return rc;
    for (int i = 0; i < opt->defines.count; i++) {
        const gemm_define *d = &opt->defines.item[i];
        int known = 0;
        for (int j = 0; j < step->nparams; j++)
            known |= strcmp(step->params[j].name, d->name) == 0;
        if (!known) {
            char list[256] = "";
            for (int j = 0; j < step->nparams; j++) {
                strncat(list, j ? ", " : "", sizeof list - strlen(list) - 1);
                strncat(list, step->params[j].name, sizeof list - strlen(list) - 1);
            }
            if (step->nparams == 0)
                return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "-D %s: %s has no parameters", d->name, step->name);
            return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "-D %s: %s has no parameter named %s (its parameters: %s)",
                             d->name, step->name, d->name, list);
        }
        rc = gemm_defines_set(params, d->name, d->value, msg);
        if (rc)
            return rc;
    }
    for (int j = 0; j < step->nparams; j++) {
        const gemm_param_info *pi = &step->params[j];
        long v;
        if (!gemm_defines_find(params, pi->name, &v))
            return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "parameter %s has no default for this device; give it with -D %s=VALUE",
                             pi->name, pi->name);
        if (v < pi->min || v > pi->max)
            return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "%s=%ld is out of range: %s must be from %ld to %ld (%s)", pi->name,
                             v, pi->name, pi->min, pi->max, pi->help);
    }
    return 0;
}

static double gib(double bytes) { return bytes / 1073741824.0; }

/* Floats per row of buffer b, for the size of its guards: A is m x k, B k x n, C m x n; a helper
 * buffer's shape is the plan's, so its guards take the longest of the three. */
static size_t buffer_row(const gemm_problem *p, int b)
{
    if (b == GEMM_BUF_A)
        return (size_t)p->k;
    if (b == GEMM_BUF_B || b == GEMM_BUF_C)
        return (size_t)p->n;
    const long longest = p->m > p->n ? (p->m > p->k ? p->m : p->k) : (p->n > p->k ? p->n : p->k);
    return (size_t)longest;
}

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
        const char *name = b < GEMM_BUF_T0 ? buffer_names[b] : plan->temp_label[b - GEMM_BUF_T0];
        if (b >= GEMM_BUF_T0 && elems[b] == 0)
            continue;
        if (elems[b] > (size_t)INT_MAX)
            return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT,
                             "%s would have %zu elements, more than the 2^31-1 that the kernels' 32-bit int "
                             "indices can address", name, elems[b]);
        const double bytes = (double)gemm_buffer_bytes(dev, elems[b], buffer_row(p, b));
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
 * host memory, the reserved inaccessible pages around them; then the plan for the reference. */
/* Before the OpenCL driver loads, with the sizes given: the host arrays alone must fit. */
static int check_memory_early(const gemm_options *opt, gemm_msg *msg)
{
    long sample = 0;
    char why[8];
    return gemm_memory_check_host(opt->m, opt->n, opt->k, opt->verify, 0, &sample, why, sizeof why, msg);
}

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
        const double bytes = (double)gemm_buffer_bytes(dev, elems[b], buffer_row(p, b)) + (double)gemm_page_size();
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

typedef struct runner {
    gemm_cl cl;
    cl_kernel kernel[GEMM_MAX_LAUNCHES];
    size_t kernel_wg[GEMM_MAX_LAUNCHES]; /* CL_KERNEL_WORK_GROUP_SIZE of each */
    const char *params;                   /* the parameters as text, for messages */
    gemm_buffer buf[GEMM_BUF_COUNT];
    cl_mem c_initial;
    gemm_host_data data;
    gemm_reference ref;
    float *result;
    double *times;                    /* per timed run: the whole step */
    double *part[GEMM_MAX_LAUNCHES];  /* per timed run: each launch */
    char *file_source;
} runner;

/* Whether the kernels left input buffer b (A or B) as it was written: read back in chunks and
 * compared with `expect`. 0: unchanged; 1: changed (the reason in failure); else a runtime error. */
static int check_input_unchanged(runner *r, gemm_buffer_id b, const char *name, const float *expect, size_t n,
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
        cl_int err = clEnqueueReadBuffer(r->cl.queue, r->buf[b].view, CL_TRUE, start * sizeof(float),
                                         len * sizeof(float), got, 0, NULL, NULL);
        if (err != CL_SUCCESS) {
            rc = gemm_cl_fail(msg, "clEnqueueReadBuffer(input)", err);
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

static void runner_release(runner *r)
{
    /* A run that failed part-way may have left launches queued (a later one refused, or the
     * arguments of one wrong): they must finish before their kernels and buffers go */
    if (r->cl.queue)
        clFinish(r->cl.queue);
    for (int i = 0; i < GEMM_MAX_LAUNCHES; i++) {
        if (r->kernel[i])
            clReleaseKernel(r->kernel[i]);
        free(r->part[i]);
    }
    for (int b = 0; b < GEMM_BUF_COUNT; b++)
        gemm_buffer_release(&r->buf[b]);
    if (r->c_initial)
        clReleaseMemObject(r->c_initial);
    gemm_cl_close(&r->cl);
    gemm_host_data_free(&r->data);
    gemm_reference_free(&r->ref);
    free(r->result);
    free(r->times);
    free(r->file_source);
}

static int set_args(runner *r, const gemm_launch *l, cl_kernel k, gemm_msg *msg)
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

/* Before every run but the first (gemm_buffer_create() left the buffers as the first run needs
 * them): C back to its start (NaN when beta = 0), helpers to NaN. Returns the last event. */
static int prepare_run(runner *r, const gemm_problem *p, cl_event *last, gemm_msg *msg)
{
    const cl_uint poison = GEMM_POISON_PATTERN;
    cl_int err;
    cl_event ev = NULL;
    gemm_buffer *c = &r->buf[GEMM_BUF_C];
    if (p->beta != 0.0f)
        err = clEnqueueCopyBuffer(r->cl.queue, r->c_initial, c->view, 0, 0, c->elems * sizeof(float), 0, NULL, &ev);
    else
        err = clEnqueueFillBuffer(r->cl.queue, c->view, &poison, sizeof poison, 0, c->elems * sizeof(float), 0, NULL,
                                  &ev);
    if (err != CL_SUCCESS)
        return gemm_cl_fail(msg, p->beta != 0.0f ? "clEnqueueCopyBuffer(restoring C)" : "clEnqueueFillBuffer(restoring C)",
                            err);
    for (int b = GEMM_BUF_T0; b < GEMM_BUF_COUNT; b++) {
        if (!r->buf[b].view)
            continue;
        clReleaseEvent(ev);
        ev = NULL;
        err = clEnqueueFillBuffer(r->cl.queue, r->buf[b].view, &poison, sizeof poison, 0,
                                  r->buf[b].elems * sizeof(float), 0, NULL, &ev);
        if (err != CL_SUCCESS)
            return gemm_cl_fail(msg, "clEnqueueFillBuffer(helper buffer)", err);
    }
    *last = ev;
    return 0;
}

/* One run. Stores the step's device time and each kernel's time in *total / part_ms[]. */
static int run_once(runner *r, const gemm_step *step, const gemm_problem *p, const gemm_plan *plan, int run,
                    double *total, double *part_ms, gemm_msg *msg)
{
    cl_event prep = NULL, ev[GEMM_MAX_LAUNCHES] = {NULL};
    int n = step->library ? 1 : plan->nlaunches;
    /* A library call is timed from the end of the preparation, so it always gets one. */
    int rc = run > 0 || step->library ? prepare_run(r, p, &prep, msg) : 0;
    for (int i = 0; i < n && !rc; i++) {
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
                           gemm_cl_error_name(err), r->kernel_wg[i], r->params);
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

/* The parameters as -D defines, plus GEMM_CL_OPTIONS from the environment (e.g. -cl-nv-verbose);
 * refused (exit 2) rather than cut if they do not fit. No -cl-std: PoCL 5.0 (Ubuntu 24.04's), given
 * -cl-std=CL1.2, builds a kernel that calls wait_group_events() (step 10) into a binary that does not
 * load. Without it, each driver builds its default OpenCL C: the highest 1.x, as the OpenCL API
 * specifies, on NVIDIA's (whose compiler report is the same as with -cl-std=CL1.2 for every kernel:
 * bench/tuning/nvidia-h100-cl-std.txt), 3.0 on PoCL's. The kernels are OpenCL C 1.2, which is
 * valid OpenCL C 3.0 too. */
static int build_options(const gemm_defines *params, char *out, size_t len, gemm_msg *msg)
{
    const char *extra = getenv("GEMM_CL_OPTIONS");
    /* A parameter defined again there would reach the kernel unchecked by the host (and disagree
     * with the plan made from the checked value): parameters go through -D on the command line */
    for (const char *d = extra ? strstr(extra, "-D") : NULL; d; d = strstr(d + 2, "-D")) {
        const char *name = d + 2;
        /* the compiler takes -D TS=8, -DTS=8 and -D"TS"=8 (the shell's quotes, written out) alike */
        while (*name == ' ' || *name == '\t' || *name == '"' || *name == '\'')
            name++;
        size_t n = 0;
        while (name[n] == '_' || isalnum((unsigned char)name[n]))
            n++;
        for (int i = 0; i < params->count; i++)
            if (n && strlen(params->item[i].name) == n && strncmp(params->item[i].name, name, n) == 0)
                return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT,
                                 "GEMM_CL_OPTIONS defines %s, a parameter of this step: give it as -D %s=VALUE on the "
                                 "command line instead, where the host checks it against the kernel's constraints",
                                 params->item[i].name, params->item[i].name);
    }
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < params->count && used < len; i++) {
        int w = snprintf(out + used, len - used, "%s-D %s=%ld", used ? " " : "", params->item[i].name,
                         params->item[i].value);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    if (extra && *extra && used < len)
        used += (size_t)snprintf(out + used, len - used, "%s%s", used ? " " : "", extra);
    if (used >= len)
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT,
                         "GEMM_CL_OPTIONS is too long: it holds %zu characters, and the build options, the "
                         "parameters' -D defines included, may hold at most %zu",
                         extra ? strlen(extra) : 0, len - 1);
    return 0;
}

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
    if (fence && w > 0 && (size_t)w < len)
        snprintf(out + w, len - (size_t)w, "; beyond them %.0f %s of inaccessible pages (host memory: an access faults)",
                 fence >= ((size_t)1 << 30) ? (double)fence / 1073741824.0 : (double)fence / 1024.0,
                 fence >= ((size_t)1 << 30) ? "GiB" : "KiB");
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
                         const gemm_problem *prob, const char *params_text, int warmup, int repeat)
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
    rep->timing = step->library
                      ? "device time from the end of the command before the library call to the end of its last "
                        "kernel (OpenCL profiling events; no transfers)"
                      : "device time from the start of the first kernel to the end of the last (OpenCL profiling "
                        "events; no transfers, no compilation)";
}

int gemm_step_main(const gemm_step *step, int argc, char **argv)
{
    gemm_options opt;
    gemm_msg msg = {{0}};
    runner r;
    memset(&r, 0, sizeof r);
    gemm_set_program_name(step->name);

    int rc = gemm_options_main(&opt, argc, argv, step->summary, print_step_help, step);
    if (rc != GEMM_OPTIONS_GO_ON)
        return rc;
    if (opt.list_devices) {
        rc = gemm_list_devices(stdout, &msg);
        if (rc)
            gemm_error("%s", msg.text);
        return gemm_output_finish(rc);
    }

    rc = 0;
    gemm_defines params;
    gemm_device_info dev;
    gemm_plan plan;
    gemm_problem prob;
    gemm_report rep;
    char params_text[256], options_text[GEMM_BUILD_OPTIONS_MAX], sample_why[256] = "";
    long sample = 0;
    memset(&plan, 0, sizeof plan);
    memset(&rep, 0, sizeof rep);

    if (opt.kernel_file) {
        if (step->library) {
            gemm_error("--kernel-file does not apply to %s, which calls a library", step->name);
            return GEMM_EXIT_BAD_INPUT;
        }
        rc = read_text_file(opt.kernel_file, &r.file_source, &msg);
        if (rc)
            goto done;
    }
    /* What can be checked before the OpenCL driver loads: the scalars against K, and the host
     * memory of the sizes given (gemm_memory.h) */
    rc = opt.k ? gemm_check_scalars(opt.k, opt.alpha, opt.beta, &msg) : 0;
    if (!rc && opt.m && opt.n && opt.k)
        rc = check_memory_early(&opt, &msg);
    if (rc)
        goto done;
    rc = gemm_select_device(opt.platform, opt.device, &dev, &msg);
    if (rc)
        goto done;
    rc = resolve_params(step, &opt, &dev, &params, &msg);
    if (rc)
        goto done;
    gemm_defines_format(&params, params_text, sizeof params_text);

    const long size = gemm_default_size(dev.cls);
    prob.step = step->name;
    prob.m = opt.m ? opt.m : size;
    prob.n = opt.n ? opt.n : size;
    prob.k = opt.k ? opt.k : size;
    prob.alpha = (float)opt.alpha;
    prob.beta = (float)opt.beta;
    prob.params = &params;
    prob.device = &dev;
    const int repeat = opt.repeat ? opt.repeat : gemm_default_repeat(dev.cls);
    const int warmup = opt.warmup >= 0 ? opt.warmup : gemm_default_warmup(dev.cls);

    if (step->library) {
        gemm_plan_temp(&plan, GEMM_BUF_T0, NULL, 0);
        plan.nlaunches = 1;
        plan.launch[0].kernel = step->name;
        plan.launch[0].label = step->name;
        plan.launch[0].global[0] = plan.launch[0].global[1] = 1;
        plan.launch[0].local[0] = plan.launch[0].local[1] = 1;
    } else {
        rc = step->plan(&prob, &plan, &msg);
        /* the parameters the plan chose: reported and built with their values */
        for (int i = 0; !rc && i < GEMM_MAX_CHOSEN && plan.chosen[i]; i++)
            rc = gemm_defines_set(&params, plan.chosen[i], plan.chosen_value[i], &msg);
        if (rc)
            goto done;
        gemm_defines_format(&params, params_text, sizeof params_text);
    }
    rc = gemm_check_plan(&prob, &plan, params_text, &msg);
    if (!rc)
        rc = gemm_check_scalars(prob.k, opt.alpha, opt.beta, &msg);
    if (!rc)
        rc = check_memory(&prob, &plan, opt.verify, &sample, sample_why, sizeof sample_why, &msg);
    if (rc)
        goto done;

    /* What is known before anything runs is printed now (the head of the report); then a
     * progress line on a terminal (gemm_progress.h) */
    describe_run(&rep, step, &dev, &prob, params_text, warmup, repeat);
    gemm_report_announce(&rep, &opt);
    gemm_progress_start();
    gemm_progress_set("setting up the OpenCL device");

    /* OpenCL: context, queue, program, kernels */
    r.params = params_text;
    rc = gemm_cl_open(&r.cl, &dev, &msg);
    if (rc)
        goto done;
    if (!step->library) {
        rc = build_options(&params, options_text, sizeof options_text, &msg);
        if (rc)
            goto done;
        gemm_progress_set("building the OpenCL program");
        rc = gemm_cl_build(&r.cl, r.file_source ? r.file_source : step->source,
                           r.file_source ? opt.kernel_file : step->source_file, options_text, &msg);
        if (rc)
            goto done;
        for (int i = 0; i < plan.nlaunches; i++) {
            const gemm_launch *l = &plan.launch[i];
            size_t kernel_wg = 0;
            cl_ulong kernel_local = 0;
            rc = gemm_cl_kernel(&r.cl, l->kernel, &r.kernel[i], &msg);
            if (!rc)
                rc = gemm_cl_kernel_args(r.kernel[i], l->kernel, l->nargs, step->name, &msg);
            if (rc)
                goto done;
            size_t declared[3] = {0, 0, 0}; /* reqd_work_group_size, or zeros */
            cl_int err = clGetKernelWorkGroupInfo(r.kernel[i], dev.device, CL_KERNEL_WORK_GROUP_SIZE,
                                                  sizeof kernel_wg, &kernel_wg, NULL);
            if (err == CL_SUCCESS)
                err = clGetKernelWorkGroupInfo(r.kernel[i], dev.device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof kernel_local,
                                               &kernel_local, NULL);
            if (err == CL_SUCCESS)
                err = clGetKernelWorkGroupInfo(r.kernel[i], dev.device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                               sizeof declared, declared, NULL);
            if (err != CL_SUCCESS) {
                rc = gemm_cl_fail(&msg, "clGetKernelWorkGroupInfo", err);
                goto done;
            }
            /* A kernel that declares its work-group (reqd_work_group_size) and a plan that launches
             * another one disagree about the kernel: an error of the kernel file, not a device limit
             * (the launch would fail with CL_INVALID_WORK_GROUP_SIZE, as a too large group does) */
            if (declared[0] && (declared[0] != l->local[0] || declared[1] != l->local[1] || declared[2] != 1)) {
                rc = gemm_msgf(&msg, GEMM_EXIT_BAD_INPUT,
                               "kernel '%s' declares work-groups of %zux%zux%zu (reqd_work_group_size) but this step "
                               "launches %zux%zux1 with these parameters: the kernel file does not match its host; "
                               "parameters: %s",
                               l->kernel, declared[0], declared[1], declared[2], l->local[0], l->local[1], params_text);
                goto done;
            }
            /* CL_KERNEL_WORK_GROUP_SIZE is where a compiled kernel's own limit (registers) shows up,
             * but some drivers report a conservative value there (NVIDIA's says 256 for every kernel
             * and runs 1024), so it does not refuse the run: the launch decides, and a refused launch
             * is reported with this number (run_once). */
            r.kernel_wg[i] = kernel_wg;
            if (kernel_local > dev.local_mem) {
                rc = gemm_msgf(&msg, GEMM_EXIT_BAD_INPUT,
                               "compiled kernel '%s' uses %lu bytes of local memory but the device has %lu; "
                               "parameters: %s",
                               l->kernel, (unsigned long)kernel_local, (unsigned long)dev.local_mem, params_text);
                goto done;
            }
        }
    }

    /* Data and reference */
    gemm_progress_set("making the random matrices");
    rc = gemm_host_data_create(&r.data, prob.m, prob.n, prob.k, opt.alpha, opt.beta, opt.seed, &msg);
    if (rc)
        goto done;
    if (opt.verify) {
        gemm_progress_set("computing the double-precision reference");
        if (gemm_memory_address_limited())
            gemm_reference_threads(1); /* see gemm_reference_threads() */
        rc = gemm_reference_compute(&r.data, sample, &r.ref, &msg);
        if (rc)
            goto done;
    }

    /* Device buffers, each with guard regions */
    gemm_progress_set("copying A, B and C to the device");
    size_t elems[GEMM_BUF_COUNT];
    buffer_elems(&prob, &plan, elems);
    for (int b = 0; b < GEMM_BUF_COUNT; b++) {
        if (elems[b] == 0)
            continue;
        /* A, B and C start as the first run needs them (C poisoned when beta = 0); helpers poisoned */
        const float *init = b == GEMM_BUF_A ? r.data.a
                            : b == GEMM_BUF_B ? r.data.b
                            : b == GEMM_BUF_C && prob.beta != 0.0f ? r.data.c0
                                                                   : NULL;
        rc = gemm_buffer_create(&r.cl, &r.buf[b], b < GEMM_BUF_T0 ? buffer_names[b] : plan.temp_label[b - GEMM_BUF_T0],
                                elems[b], buffer_row(&prob, b), init, &msg);
        if (rc)
            goto done;
    }
    cl_int err;
    if (prob.beta != 0.0f) {
        r.c_initial = clCreateBuffer(r.cl.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, elems[2] * sizeof(float),
                                     r.data.c0, &err);
        if (err != CL_SUCCESS) {
            r.c_initial = NULL;
            rc = gemm_cl_fail(&msg, "clCreateBuffer(initial C)", err);
            goto done;
        }
    }

    /* Runs */
    r.times = malloc((size_t)repeat * sizeof(double));
    int parts_ok = 1;
    for (int i = 0; i < plan.nlaunches; i++) {
        r.part[i] = malloc((size_t)repeat * sizeof(double));
        parts_ok &= r.part[i] != NULL;
    }
    r.result = malloc(elems[2] * sizeof(float));
    if (!r.times || !r.result || !parts_ok) {
        rc = gemm_msgf(&msg, GEMM_EXIT_RUNTIME, "out of host memory");
        goto done;
    }
    for (int run = 0; run < warmup + repeat; run++) {
        double total = 0, part_ms[GEMM_MAX_LAUNCHES] = {0};
        gemm_progress_run(run, warmup, repeat);
        rc = run_once(&r, step, &prob, &plan, run, &total, part_ms, &msg);
        if (rc)
            goto done;
        if (run >= warmup) {
            r.times[run - warmup] = total;
            for (int i = 0; i < plan.nlaunches; i++)
                r.part[i][run - warmup] = part_ms[i];
        }
    }
    gemm_progress_set("reading C back and checking it");
    err = clEnqueueReadBuffer(r.cl.queue, r.buf[GEMM_BUF_C].view, CL_TRUE, 0, elems[2] * sizeof(float), r.result, 0,
                              NULL, NULL);
    if (err != CL_SUCCESS) {
        rc = gemm_cl_fail(&msg, "clEnqueueReadBuffer(C)", err);
        goto done;
    }

    /* Report */
    rep.median_ms = gemm_median(r.times, repeat);
    rep.best_ms = gemm_min(r.times, repeat);
    rep.nparts = plan.nlaunches < GEMM_MAX_PARTS ? plan.nlaunches : GEMM_MAX_PARTS;
    for (int i = 0; i < rep.nparts; i++) {
        rep.part[i].label = plan.launch[i].label;
        rep.part[i].median_ms = gemm_median(r.part[i], repeat);
        rep.part[i].best_ms = gemm_min(r.part[i], repeat);
    }
    rep.reference = gemm_reference_method();
    rep.sample = sample_why[0] ? sample_why : NULL;
    describe_guards(&dev, &r.buf[GEMM_BUF_C], rep.guards, sizeof rep.guards);
    if (opt.verify) {
        rep.verified = 1;
        for (int b = 0; b < GEMM_BUF_COUNT && !rep.failure[0]; b++) {
            if (!r.buf[b].view)
                continue;
            gemm_msg gmsg = {{0}};
            int g = gemm_buffer_check_guards(&r.cl, &r.buf[b], &gmsg);
            if (g == 1)
                snprintf(rep.failure, sizeof rep.failure, "%s", gmsg.text);
            else if (g) {
                rc = g;
                msg = gmsg;
                goto done;
            }
        }
        /* The inputs as well: a kernel that writes into A or B would otherwise pass while it runs
         * once, and give the next run (and the caller) other matrices */
        static const char *const input_name[2] = {"A", "B"};
        const float *const input_data[2] = {r.data.a, r.data.b};
        for (int b = GEMM_BUF_A; b <= GEMM_BUF_B && !rep.failure[0]; b++) {
            gemm_msg imsg = {{0}};
            int g = check_input_unchanged(&r, (gemm_buffer_id)b, input_name[b - GEMM_BUF_A], input_data[b - GEMM_BUF_A],
                                          elems[b], rep.failure, sizeof rep.failure, &imsg);
            if (g > 1) {
                rc = g;
                msg = imsg;
                goto done;
            }
        }
        gemm_check_result(r.result, &r.ref, &rep.check);
    }
    gemm_progress_stop();
    rc = gemm_report_emit(&rep, &opt);

done:
    gemm_progress_stop();
    if (rc && rc != GEMM_EXIT_VERIFY_FAILED)
        gemm_error("%s", msg.text);
    runner_release(&r);
    return gemm_output_finish(rc);
}
