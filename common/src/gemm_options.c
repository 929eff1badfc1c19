#include "gemm_options.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum opt_id {
    OPT_M, OPT_N, OPT_K, OPT_SIZE, OPT_ALPHA, OPT_BETA, OPT_PLATFORM, OPT_DEVICE, OPT_LIST,
    OPT_REPEAT, OPT_WARMUP, OPT_TIMEOUT, OPT_SEED, OPT_DATA, OPT_NO_VERIFY, OPT_NO_EXACT, OPT_DEFINE, OPT_KERNEL_FILE,
    OPT_DEFAULTS_FOR, OPT_CSV,
    OPT_NO_HEADER, OPT_BRIEF,
    OPT_HELP, OPT_VERSION
};

/* The one table of options: the parser and --help both read it. */
static const struct opt_spec {
    enum opt_id id;
    char short_name;       /* 0 if none */
    const char *long_name; /* NULL if none */
    const char *metavar;   /* NULL: the option takes no value */
    const char *help;
} specs[] = {
    {OPT_M, 'm', NULL, "M", "rows of A and C"},
    {OPT_N, 'n', NULL, "N", "columns of B and C"},
    {OPT_K, 'k', NULL, "K", "columns of A and rows of B"},
    {OPT_SIZE, 0, "size", "S", "square problem: M = N = K = S"},
    {OPT_ALPHA, 0, "alpha", "A", "scalar alpha in C = alpha*A*B + beta*C (default 1)"},
    {OPT_BETA, 0, "beta", "B", "scalar beta (default 0; C is then never read)"},
    {OPT_PLATFORM, 0, "platform", "P", "OpenCL platform: index or part of its name"},
    {OPT_DEVICE, 0, "device", "D", "device: index (see --list-devices) or part of its name;\n"
                                   "default: the first GPU, else the first device"},
    {OPT_LIST, 0, "list-devices", NULL, "list the OpenCL platforms and devices, then exit"},
    {OPT_REPEAT, 0, "repeat", "R", "timed runs (default 20 on a GPU, 3 otherwise)"},
    {OPT_WARMUP, 0, "warmup", "W", "untimed runs before timing (default 3 on a GPU, 1 otherwise)"},
    {OPT_TIMEOUT, 0, "timeout", "SECONDS", "a run's kernels must end within SECONDS, else exit 3;\n"
                                           "0: none; default: 30 s + 2*M*N*K flops at 0.05 GFLOPS\n"
                                           "(73 s at 1024^3); none under Oclgrind"},
    {OPT_SEED, 0, "seed", "S", "seed of the random matrices (default 20261122)"},
    {OPT_DATA, 0, "data", "DIST", "the random matrices' values (every one but grid with all 24 bits\n"
                                  "of a float's significand, nonzero ones in [2^-23, 1)):\n"
                                  "spread (default): magnitudes log-uniform in [2^-8, 1);\n"
                                  "uniform: uniform in (-1, 1); normal: standard deviation 1/4;\n"
                                  "wide: magnitudes log-uniform in [2^-23, 1);\n"
                                  "grid: multiples of 2^-23 (at most 23 bits: the old data)"},
    {OPT_NO_VERIFY, 0, "no-verify", NULL, "skip the comparison with the double-precision reference"},
    {OPT_NO_EXACT, 0, "no-exact", NULL,
     "skip the exact checks (two more runs after the timed ones: on integers, and on\n"
     "14-bit values, the precision check); the tolerance checks still run"},
    {OPT_DEFINE, 'D', NULL, "NAME=VALUE", "override a kernel parameter (see the step's parameters)"},
    {OPT_KERNEL_FILE, 0, "kernel-file", "PATH", "build this .cl file instead of the built-in kernel"},
    {OPT_DEFAULTS_FOR, 0, "defaults-for", "CLASS", "use the default parameters of another class of device:\n"
                                                   "cpu, nvidia-gpu or gpu (e.g. to try NVIDIA's tuning on PoCL);\n"
                                                   "default: $GEMM_DEFAULTS_FOR if set, else the device's own"},
    {OPT_CSV, 0, "csv", NULL, "print a CSV header and one line per run on stdout\n"
                              "(the human-readable report then goes to stderr); the header is left\n"
                              "out where stdout is a file that holds data already (the runs of a\n"
                              "loop sent to one file get one header)"},
    {OPT_NO_HEADER, 0, "no-header", NULL, "with --csv: print no CSV header line"},
    {OPT_BRIEF, 0, "brief", NULL, "print one line per run: PASS, FAIL or UNVERIFIED, GFLOPS, the error\n"
                                  "against its bound, the problem and the parameters (and on a\n"
                                  "failure the first wrong element)"},
    {OPT_HELP, 'h', "help", NULL, "print this help and exit"},
    {OPT_VERSION, 0, "version", NULL, "print the version and exit"},
};
#define NSPECS (sizeof specs / sizeof specs[0])

void gemm_options_defaults(gemm_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->alpha = 1.0;
    opt->beta = 0.0;
    opt->warmup = -1;
    opt->timeout = -1.0;
    opt->seed = GEMM_DEFAULT_SEED;
    opt->data = GEMM_DATA_SPREAD;
    opt->verify = 1;
    opt->exact = 1;
}

static const char *spec_label(const struct opt_spec *s, char *buf, size_t len)
{
    if (s->long_name)
        snprintf(buf, len, "--%s", s->long_name);
    else
        snprintf(buf, len, "-%c", s->short_name);
    return buf;
}

static int parse_size(const char *label, const char *text, long *out, gemm_msg *msg)
{
    char *end = NULL;
    errno = 0;
    if (!isdigit((unsigned char)text[0]) && text[0] != '-' && text[0] != '+')
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "%s expects a positive integer, got '%s'", label, text);
    long long v = strtoll(text, &end, 10);
    if (end == text || *end != '\0')
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "%s expects a positive integer, got '%s'", label, text);
    if (errno == ERANGE || v > INT_MAX)
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "%s=%s is too large (at most %d)", label, text, INT_MAX);
    if (v <= 0)
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "%s expects a positive integer, got '%s'", label, text);
    *out = (long)v;
    return 0;
}

/* strtol and strtod skip leading white space; the values of every option are refused with it,
 * as the sizes always were (trailing white space is left unparsed, and refused too). */
static int leading_space(const char *text) { return isspace((unsigned char)text[0]); }

static int parse_count(const char *label, const char *text, long min, long max, int *out, gemm_msg *msg)
{
    char *end = NULL;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (leading_space(text) || end == text || *end != '\0' || errno == ERANGE || v < min || v > max)
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "%s expects an integer from %ld to %ld, got '%s'",
                         label, min, max, text);
    *out = (int)v;
    return 0;
}

static int parse_scalar(const char *label, const char *text, double *out, gemm_msg *msg)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (leading_space(text) || end == text || *end != '\0')
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "%s expects a number, got '%s'", label, text);
    const int range = errno == ERANGE;
    if (!isfinite(v) || (range && fabs(v) > 1.0))
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "%s must be a finite number, got '%s'", label, text);
    /* The kernels compute in float: a value that overflows float is as bad as infinity, and one
     * that underflows it would silently become 0. */
    if (fabs(v) > 3.4028234663852886e38)
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "%s=%s does not fit in a float", label, text);
    if (range || (v != 0.0 && (float)v == 0.0f))
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "%s=%s is too small for a float (it would become 0)", label,
                         text);
    *out = v;
    return 0;
}

/* Seconds: 0 (no limit) or more, at most a year */
static int parse_seconds(const char *label, const char *text, double *out, gemm_msg *msg)
{
    char *end = NULL;
    errno = 0;
    const double v = strtod(text, &end);
    if (leading_space(text) || end == text || *end != '\0' || errno == ERANGE || !(v >= 0.0 && v <= 31536000.0))
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "%s expects seconds from 0 (no limit) to 31536000, got '%s'", label,
                         text);
    *out = v;
    return 0;
}

static int parse_seed(const char *text, unsigned long long *out, gemm_msg *msg)
{
    char *end = NULL;
    errno = 0;
    if (!isdigit((unsigned char)text[0]))
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "--seed expects a non-negative integer, got '%s'", text);
    unsigned long long v = strtoull(text, &end, 10);
    if (*end != '\0' || errno == ERANGE)
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "--seed expects a non-negative integer below 2^64, got '%s'", text);
    *out = v;
    return 0;
}

int gemm_define_parse(const char *text, gemm_define *out, gemm_msg *msg)
{
    const char *eq = strchr(text, '=');
    size_t len = eq ? (size_t)(eq - text) : strlen(text);
    if (!eq || len == 0)
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "-D expects NAME=VALUE, got '%s'", text);
    if (len >= GEMM_DEFINE_NAME_MAX)
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "-D parameter name is too long (at most %d characters): '%s'",
                         GEMM_DEFINE_NAME_MAX - 1, text);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (!(isalpha(c) || c == '_' || (i > 0 && isdigit(c))))
            return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "-D parameter name must be an identifier, got '%.*s'",
                             (int)len, text);
    }
    const char *value = eq + 1;
    char *end = NULL;
    errno = 0;
    long long v = strtoll(value, &end, 10);
    if (leading_space(value) || end == value || *end != '\0')
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "-D %.*s expects an integer value, got '%s'", (int)len, text,
                         value);
    if (errno == ERANGE || v < INT_MIN || v > INT_MAX)
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "-D %.*s=%s is out of range: a value must fit an int (at most %d)",
                         (int)len, text, value, INT_MAX);
    memcpy(out->name, text, len);
    out->name[len] = '\0';
    out->value = (long)v;
    return 0;
}

int gemm_defines_set(gemm_defines *set, const char *name, long value, gemm_msg *msg)
{
    for (int i = 0; i < set->count; i++) {
        if (strcmp(set->item[i].name, name) == 0) {
            set->item[i].value = value;
            return 0;
        }
    }
    if (set->count >= GEMM_MAX_DEFINES)
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "too many -D parameters (at most %d)", GEMM_MAX_DEFINES);
    if (strlen(name) >= GEMM_DEFINE_NAME_MAX)
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "parameter name '%s' is too long", name);
    strcpy(set->item[set->count].name, name);
    set->item[set->count].value = value;
    set->count++;
    return 0;
}

int gemm_defines_find(const gemm_defines *set, const char *name, long *value)
{
    for (int i = 0; i < set->count; i++) {
        if (strcmp(set->item[i].name, name) == 0) {
            if (value)
                *value = set->item[i].value;
            return 1;
        }
    }
    return 0;
}

int gemm_defines_apply_list(gemm_defines *set, const char *list, gemm_msg *msg)
{
    char word[128];
    const char *p = list;
    while (*p) {
        while (*p == ' ')
            p++;
        size_t len = strcspn(p, " ");
        if (len == 0)
            break;
        if (len >= sizeof word)
            return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "parameter list item too long: '%s'", p);
        memcpy(word, p, len);
        word[len] = '\0';
        gemm_define d;
        int rc = gemm_define_parse(word, &d, msg);
        if (rc)
            return rc;
        rc = gemm_defines_set(set, d.name, d.value, msg);
        if (rc)
            return rc;
        p += len;
    }
    return 0;
}

void gemm_defines_format(const gemm_defines *set, char *buf, size_t len)
{
    size_t used = 0;
    if (len == 0)
        return;
    buf[0] = '\0';
    for (int i = 0; i < set->count && used < len; i++) {
        int w = snprintf(buf + used, len - used, "%s%s=%ld", i ? " " : "", set->item[i].name, set->item[i].value);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

/* Finds the spec an argument names; *value points at an attached value ("-m5", "--size=5") or NULL. */
static const struct opt_spec *match(const char *arg, const char **attached)
{
    *attached = NULL;
    if (arg[0] != '-' || arg[1] == '\0')
        return NULL;
    if (arg[1] == '-') {
        const char *name = arg + 2;
        size_t len = strcspn(name, "=");
        for (size_t i = 0; i < NSPECS; i++) {
            if (specs[i].long_name && strlen(specs[i].long_name) == len &&
                strncmp(specs[i].long_name, name, len) == 0) {
                if (name[len] == '=')
                    *attached = name + len + 1;
                return &specs[i];
            }
        }
        return NULL;
    }
    for (size_t i = 0; i < NSPECS; i++) {
        if (specs[i].short_name && specs[i].short_name == arg[1]) {
            if (arg[2] != '\0') {
                if (!specs[i].metavar)
                    return NULL; /* "-hx" is not an option */
                *attached = arg + 2;
            }
            return &specs[i];
        }
    }
    return NULL;
}

/* One option and its value into opt: GEMM_PARSE_OK, or GEMM_PARSE_ERROR (msg filled), HELP, VERSION */
static int apply_option(gemm_options *opt, enum opt_id id, const char *value, long *size, gemm_msg *msg)
{
    int rc = 0;
    gemm_define d;
    switch (id) {
    case OPT_M: rc = parse_size("-m", value, &opt->m, msg); break;
    case OPT_N: rc = parse_size("-n", value, &opt->n, msg); break;
    case OPT_K: rc = parse_size("-k", value, &opt->k, msg); break;
    case OPT_SIZE: rc = parse_size("--size", value, size, msg); break;
    case OPT_ALPHA: rc = parse_scalar("--alpha", value, &opt->alpha, msg); break;
    case OPT_BETA: rc = parse_scalar("--beta", value, &opt->beta, msg); break;
    case OPT_PLATFORM: opt->platform = value; break;
    case OPT_DEVICE: opt->device = value; break;
    case OPT_LIST: opt->list_devices = 1; break;
    case OPT_REPEAT: rc = parse_count("--repeat", value, 1, 1000000, &opt->repeat, msg); break;
    case OPT_WARMUP: rc = parse_count("--warmup", value, 0, 1000000, &opt->warmup, msg); break;
    case OPT_TIMEOUT: rc = parse_seconds("--timeout", value, &opt->timeout, msg); break;
    case OPT_SEED: rc = parse_seed(value, &opt->seed, msg); break;
    case OPT_DATA:
        if (gemm_data_parse(value, &opt->data) != 0) {
            gemm_msgf(msg, 0, "--data expects spread, uniform, normal, wide or grid, got '%s'", value);
            return GEMM_PARSE_ERROR;
        }
        break;
    case OPT_NO_VERIFY: opt->verify = 0; break;
    case OPT_NO_EXACT: opt->exact = 0; break;
    case OPT_DEFINE:
        rc = gemm_define_parse(value, &d, msg);
        if (!rc)
            rc = gemm_defines_set(&opt->defines, d.name, d.value, msg);
        break;
    case OPT_KERNEL_FILE: opt->kernel_file = value; break;
    case OPT_DEFAULTS_FOR:
        if (strcmp(value, "cpu") != 0 && strcmp(value, "nvidia-gpu") != 0 && strcmp(value, "gpu") != 0) {
            gemm_msgf(msg, 0, "--defaults-for expects cpu, nvidia-gpu or gpu, got '%s'", value);
            return GEMM_PARSE_ERROR;
        }
        opt->defaults_for = value;
        break;
    case OPT_CSV: opt->csv = 1; break;
    case OPT_NO_HEADER: opt->no_header = 1; break;
    case OPT_BRIEF: opt->brief = 1; break;
    case OPT_HELP: return GEMM_PARSE_HELP;
    case OPT_VERSION: return GEMM_PARSE_VERSION;
    }
    return rc ? GEMM_PARSE_ERROR : GEMM_PARSE_OK;
}

int gemm_options_parse(gemm_options *opt, int argc, char *const argv[], gemm_msg *msg)
{
    gemm_options_defaults(opt);
    msg->text[0] = '\0';
    long size = 0;
    char label[48];
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value = NULL;
        const struct opt_spec *s = match(arg, &value);
        if (!s) {
            if (arg[0] == '-' && arg[1] != '\0')
                gemm_msgf(msg, 0, "unknown option '%s' (see --help)", arg);
            else
                gemm_msgf(msg, 0, "unexpected argument '%s' (see --help)", arg);
            return GEMM_PARSE_ERROR;
        }
        spec_label(s, label, sizeof label);
        if (s->metavar && !value) {
            if (i + 1 >= argc) {
                gemm_msgf(msg, 0, "option %s needs a value (%s %s)", label, label, s->metavar);
                return GEMM_PARSE_ERROR;
            }
            value = argv[++i];
        } else if (!s->metavar && value) {
            gemm_msgf(msg, 0, "option %s takes no value", label);
            return GEMM_PARSE_ERROR;
        }
        if (value && value[0] == '\0') { /* "--platform ''", "--kernel-file=" */
            gemm_msgf(msg, 0, "option %s needs a value (%s %s), got an empty one", label, label, s->metavar);
            return GEMM_PARSE_ERROR;
        }
        const int rc = apply_option(opt, s->id, value, &size, msg);
        if (rc != GEMM_PARSE_OK)
            return rc;
    }
    if (opt->brief && opt->csv) {
        gemm_msgf(msg, 0, "--brief and --csv are two output formats: give one");
        return GEMM_PARSE_ERROR;
    }
    if (opt->no_header && !opt->csv) {
        gemm_msgf(msg, 0, "--no-header leaves out the header of the CSV output: it needs --csv");
        return GEMM_PARSE_ERROR;
    }
    /* --size S sets the dimensions that were not given explicitly, whatever the order. */
    if (size) {
        if (!opt->m)
            opt->m = size;
        if (!opt->n)
            opt->n = size;
        if (!opt->k)
            opt->k = size;
    }
    return GEMM_PARSE_OK;
}

void gemm_options_usage(FILE *out, const char *program, const char *summary)
{
    fprintf(out, "usage: %s [options]\n", program);
    if (summary && *summary)
        fprintf(out, "\n%s\n", summary);
    fprintf(out, "\nComputes C = alpha*A*B + beta*C in single precision; A is MxK, B is KxN, C is MxN,\n"
                 "all row-major. Random data, timed with OpenCL profiling events, verified against a\n"
                 "double-precision reference.\n\noptions:\n");
    for (size_t i = 0; i < NSPECS; i++) {
        const struct opt_spec *s = &specs[i];
        char left[64];
        if (s->short_name && s->long_name)
            snprintf(left, sizeof left, "-%c, --%s", s->short_name, s->long_name);
        else if (s->long_name)
            snprintf(left, sizeof left, "--%s%s%s", s->long_name, s->metavar ? " " : "", s->metavar ? s->metavar : "");
        else
            snprintf(left, sizeof left, "-%c %s", s->short_name, s->metavar ? s->metavar : "");
        /* Continuation lines of a help text are indented under the first. */
        fprintf(out, "  %-20s ", left);
        for (const char *h = s->help; *h; h++) {
            fputc(*h, out);
            if (*h == '\n')
                fprintf(out, "  %-20s ", "");
        }
        fputc('\n', out);
    }
    fprintf(out, "\nDefault size: 4096 on a GPU, 1024 on other devices (M = N = K).\n"
                 "\nexit codes:\n"
                 "  0  ran, and verified (or ran with --no-verify)\n"
                 "  1  verification failed: the result does not match the reference, or a kernel\n"
                 "     wrote or read outside a buffer\n"
                 "  2  bad input: option, size or parameter refused before anything ran (also a\n"
                 "     run that would not fit in the memory or address space available)\n"
                 "  3  OpenCL or runtime error (no platform, build failure, the driver out of memory,\n"
                 "     output that cannot be written), a run that did not finish within --timeout,\n"
                 "     or a crash (SIGSEGV, SIGBUS, SIGFPE, SIGILL) while a kernel ran: one line\n"
                 "     names the kernel\n");
}

int gemm_options_main(gemm_options *opt, int argc, char *const argv[], const char *summary, gemm_help_fn more_help,
                      const void *ctx)
{
    gemm_msg msg = {{0}};
    const int parsed = gemm_options_parse(opt, argc, argv, &msg);
    if (parsed == GEMM_PARSE_ERROR) {
        gemm_error("%s", msg.text);
        return GEMM_EXIT_BAD_INPUT;
    }
    if (gemm_output_check() != 0) /* every other outcome prints on standard output */
        return GEMM_EXIT_RUNTIME;
    switch (parsed) {
    case GEMM_PARSE_HELP:
        if (summary)
            gemm_options_usage(stdout, gemm_program_name(), summary);
        if (more_help)
            more_help(stdout, ctx);
        return gemm_output_finish(GEMM_EXIT_OK);
    case GEMM_PARSE_VERSION:
        printf("%s (OpenCL SGEMM tutorial) %s\n", gemm_program_name(), gemm_version());
        return gemm_output_finish(GEMM_EXIT_OK);
    default:
        return GEMM_OPTIONS_GO_ON;
    }
}
