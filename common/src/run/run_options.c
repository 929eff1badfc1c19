/* 1. Options: the command line, --help and --list-devices, the kernel file, and what can be
 * checked before the OpenCL driver loads. */
#define _POSIX_C_SOURCE 200809L /* fdopen, fstat */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gemm_memory.h"
#include "gemm_params.h"
#include "gemm_run.h"

/* --help's part of a step: its parameters, their ranges and their defaults on each class of device */
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

/* Before the OpenCL driver loads, with the sizes given: the host arrays alone must fit (gemm_memory.h;
 * run_checks() checks the whole run's memory once the plan is known). */
static int check_memory_early(const gemm_options *opt, gemm_msg *msg)
{
    long sample = 0;
    char why[8];
    return gemm_memory_check_host(opt->m, opt->n, opt->k, opt->verify, 0, &sample, why, sizeof why, msg);
}

int run_options(gemm_run *r, int argc, char **argv)
{
    const gemm_step *step = r->step;
    int rc = gemm_options_main(&r->opt, argc, argv, step->summary, print_step_help, step);
    if (rc != GEMM_OPTIONS_GO_ON) {
        r->finished = 1; /* help, version, or a bad option, said already */
        return rc;
    }
    if (r->opt.list_devices) {
        r->finished = 1;
        rc = gemm_list_devices(stdout, &r->msg);
        if (rc)
            gemm_error("%s", r->msg.text);
        return gemm_output_finish(rc);
    }
    rc = gemm_report_csv_start(&r->opt, &r->msg); /* the CSV's header and stream, before anything runs */
    if (rc)
        return rc;
    if (r->opt.kernel_file) {
        if (step->library)
            return gemm_msgf(&r->msg, GEMM_EXIT_BAD_INPUT, "--kernel-file does not apply to %s, which calls a library",
                             step->name);
        rc = read_text_file(r->opt.kernel_file, &r->file_source, &r->msg);
        if (rc)
            return rc;
    }
    /* The scalars against K, and the host memory of the sizes given (gemm_memory.h) */
    const gemm_options *opt = &r->opt;
    rc = opt->k ? gemm_check_scalars(opt->k, opt->alpha, opt->beta, &r->msg) : 0;
    if (!rc && opt->m && opt->n && opt->k)
        rc = check_memory_early(opt, &r->msg);
    return rc;
}
