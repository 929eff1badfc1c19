/* POSIX for clock_gettime(CLOCK_MONOTONIC): C11's timespec_get only has the wall clock, which
 * an NTP adjustment during a run would move. */
#define _POSIX_C_SOURCE 200809L

#include "gemm_report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double gemm_median(const double *x, int n)
{
    double small[64];
    double *s = n <= 64 ? small : malloc((size_t)n * sizeof(double));
    if (!s)
        return x[0]; /* out of memory for a copy: the first value is still a measurement */
    memcpy(s, x, (size_t)n * sizeof(double));
    qsort(s, (size_t)n, sizeof(double), cmp_double);
    const double med = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    if (s != small)
        free(s);
    return med;
}

double gemm_min(const double *x, int n)
{
    double m = x[0];
    for (int i = 1; i < n; i++)
        if (x[i] < m)
            m = x[i];
    return m;
}

double gemm_host_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double gemm_gflops(long m, long n, long k, double ms)
{
    return ms > 0.0 ? 2.0 * (double)m * (double)n * (double)k / (ms * 1e6) : 0.0;
}

const char *gemm_report_status(const gemm_report *r)
{
    if (!r->verified)
        return "UNVERIFIED";
    return r->check.pass && !r->failure[0] && (!r->exact.ran || r->exact.pass) &&
                   (!r->precision.ran || r->precision.pass)
               ? "PASS"
               : "FAIL";
}

int gemm_report_exit_code(const gemm_report *r)
{
    return strcmp(gemm_report_status(r), "FAIL") == 0 ? GEMM_EXIT_VERIFY_FAILED : GEMM_EXIT_OK;
}

void gemm_report_print_head(FILE *out, const gemm_report *r)
{
    fprintf(out, "== %s%s%s ==\n", r->step, r->summary ? ": " : "", r->summary ? r->summary : "");
    fprintf(out, "problem     C = alpha*A*B + beta*C  M=%ld N=%ld K=%ld  alpha=%g beta=%g  (float, row-major)\n", r->m,
            r->n, r->k, r->alpha, r->beta);
    fprintf(out, "device      %s (%s) on %s, driver %s\n", r->device, r->device_type ? r->device_type : "?",
            r->platform, r->driver);
    if (r->params[0])
        fprintf(out, "parameters  %s\n", r->params);
    if (r->kernel_file)
        fprintf(out, "kernels     %s (--kernel-file), built instead of the step's own\n", r->kernel_file);
    fprintf(out, "data        --data %s: %s; seed %llu\n", gemm_data_name(r->data), gemm_data_text(r->data), r->seed);
    fprintf(out, "timing      %d warm-up + %d timed run%s; %s\n", r->warmup, r->repeat, r->repeat == 1 ? "" : "s",
            r->timing);
}

void gemm_report_announce(gemm_report *r, const gemm_options *opt)
{
    if (opt->brief)
        return;
    FILE *out = opt->csv ? stderr : stdout;
    gemm_report_print_head(out, r);
    fflush(out);
    r->head_printed = 1;
}

void gemm_report_print_exact(FILE *out, const gemm_exact *x, int run_failed)
{
    if (!x->ran)
        return;
    char data[200];
    if (x->precision)
        snprintf(data, sizeof data, "14-bit values, which TF32, half and bfloat16 round%s, alpha = %g, beta = %g",
                 x->stride > 1 ? ", A's rows sparse" : "", (double)x->alpha, (double)x->beta);
    else
        snprintf(data, sizeof data, "integers of A, B, C in [-%ld, %ld]%s, alpha = %g, beta = %g", x->range, x->range,
                 x->stride > 1 ? ", A's rows sparse" : "", (double)x->alpha, (double)x->beta);
    const char *label = x->precision ? "precision" : "exact";
    if (x->pass) /* no PASS on a run that failed another check: its verdict is FAIL */
        fprintf(out, "%-11s %s: all %zu elements equal the exact answer on %s (%.2f s)\n", label,
                run_failed ? "equal" : "PASS", x->total, data, x->seconds);
    else
        fprintf(out, "%-11s FAIL: %zu of %zu elements differ from the exact answer on %s; first at (row %ld, col "
                     "%ld): got %.9g, exact %.9g%s\n",
                label, x->wrong, x->total, data, x->first_row, x->first_col, (double)x->first_got,
                (double)x->first_want,
                x->precision && fabs((double)x->first_got) < fabs((double)x->first_want)
                    ? " (smaller in magnitude: inputs rounded to fewer bits, a product of a split left out, or small "
                      "values skipped give that)"
                    : "");
}

void gemm_report_print(FILE *out, const gemm_report *r)
{
    if (!r->head_printed)
        gemm_report_print_head(out, r);
    for (int i = 0; i < r->nparts && r->nparts > 1; i++)
        fprintf(out, "            %-22s median %10.4f ms   best %10.4f ms\n", r->part[i].label, r->part[i].median_ms,
                r->part[i].best_ms);
    fprintf(out, "            %-22s median %10.4f ms   best %10.4f ms   %.2f GFLOPS (best %.2f)\n",
            r->nparts > 1 ? "whole step" : (r->nparts == 1 ? r->part[0].label : "time"), r->median_ms, r->best_ms,
            gemm_gflops(r->m, r->n, r->k, r->median_ms), gemm_gflops(r->m, r->n, r->k, r->best_ms));
    if (!r->verified) {
        fprintf(out, "check       not verified (--no-verify)\n");
        return;
    }
    const gemm_check *c = &r->check;
    const int elements_pass = c->bad == 0, all_pass = strcmp(gemm_report_status(r), "PASS") == 0;
    if (r->failure[0])
        fprintf(out, "check       FAIL: %s\n", r->failure);
    if (elements_pass) {
        char which[96]; /* a sample says so in the verdict itself */
        if (c->checked < c->total)
            snprintf(which, sizeof which, "the %zu sampled elements of %zu", c->checked, c->total);
        else
            snprintf(which, sizeof which, "all %zu elements", c->checked);
        fprintf(out, "check       %s: %s within tolerance; worst error %.3g of its bound at (%ld, %ld)\n",
                all_pass ? "PASS" : "element-wise", which, c->worst_ratio, c->worst_row, c->worst_col);
    } else {
        fprintf(out, "check       FAIL: %zu of %zu elements outside tolerance (%zu NaN/Inf); first at (row %ld, col %ld): "
                     "got %.9g, expected %.9g, tolerance %.3g\n",
                c->bad, c->total, c->nonfinite, c->first_bad_row,
                c->first_bad_col, c->first_bad_got, c->first_bad_ref, c->first_bad_tol);
        fprintf(out, "            worst error %.3g of its bound at (%ld, %ld)\n", c->worst_ratio, c->worst_row,
                c->worst_col);
    }
    /* The normwise figure: a check line of its own only when it alone fails (the element-wise
     * failure above already says FAIL, and where). */
    const double bound = c->normwise_bound;
    if (c->normwise_pass || !elements_pass)
        fprintf(out, "            normwise error %.3g: %.3g %s its bound %.3g (||got-ref|| / (||alpha*A*B|| + ||beta*C||), "
                     "Frobenius)\n",
                c->normwise, c->normwise_ratio, c->normwise_pass ? "of" : "times", bound);
    else
        fprintf(out, "check       FAIL: normwise error ||got-ref|| / (||alpha*A*B|| + ||beta*C||) = %.3g, %.3g times its bound "
                     "%.3g: the result is wrong beyond rounding\n",
                c->normwise, c->normwise_ratio, bound);
    gemm_report_print_exact(out, &r->exact, strcmp(gemm_report_status(r), "FAIL") == 0);
    gemm_report_print_exact(out, &r->precision, strcmp(gemm_report_status(r), "FAIL") == 0);
    if (c->checked < c->total)
        fprintf(out, "            sample: the reference covers %zu of the %zu elements (%s); every element was checked "
                     "for NaN and Inf\n",
                c->checked, c->total, r->sample ? r->sample : "a sample of rows and columns");
    fprintf(out, "            bounds: element |got-ref| <= %.0f*K*eps*|alpha|*|A||B| + %.0f*eps*|beta*C|, the worst case; "
                 "normwise ||got-ref|| <= %.0f*sqrt(K)*eps*||alpha*A*B|| + %.0f*eps*||beta*C||, as rounding behaves; "
                 "reference: %s\n",
            GEMM_TOLERANCE_C, GEMM_BETA_C, GEMM_NORMWISE_C, GEMM_BETA_C, r->reference ? r->reference : "?");
    if (r->guards[0])
        fprintf(out, "guards      %s\n", r->guards);
}

void gemm_report_brief(FILE *out, const gemm_report *r)
{
    fprintf(out, "%s %s M=%ld N=%ld K=%ld%s%s", gemm_report_status(r), r->step, r->m, r->n, r->k,
            r->params[0] ? " " : "", r->params);
    if (r->kernel_file) /* a student's kernel and the step's own must not read alike */
        fprintf(out, " (kernel file %s)", r->kernel_file);
    fprintf(out, ": %.2f GFLOPS", gemm_gflops(r->m, r->n, r->k, r->median_ms));
    for (int i = 0; i < r->nparts && r->nparts > 1; i++) /* which kernels ran, and their share */
        fprintf(out, "%s%s %.4f ms%s", i ? ", " : " (", r->part[i].label, r->part[i].median_ms,
                i + 1 < r->nparts ? "" : ")");
    if (!r->verified) {
        fputs("; not verified (--no-verify)\n", out);
        return;
    }
    const gemm_check *c = &r->check;
    fprintf(out, "; error/bound %.3g (worst element), %.3g (normwise)", c->worst_ratio, c->normwise_ratio);
    if (c->bad) {
        fprintf(out, "; %zu of %zu elements wrong", c->bad, c->total);
        if (c->nonfinite)
            fprintf(out, " (%zu NaN/Inf)", c->nonfinite);
        fprintf(out, ", the first at (row %ld, col %ld): got %.9g, expected %.9g", c->first_bad_row, c->first_bad_col,
                c->first_bad_got, c->first_bad_ref);
    } else if (!c->normwise_pass) {
        fputs("; every element within its bound, but the normwise error beyond its own", out);
    }
    if (r->failure[0])
        fprintf(out, "; %s", r->failure);
    for (int i = 0; i < 2; i++) { /* the failures the other checks missed */
        const gemm_exact *x = i ? &r->precision : &r->exact;
        if (x->ran && !x->pass && !c->bad && !r->failure[0])
            fprintf(out, "; %s check: %zu of %zu elements differ, the first at (row %ld, col %ld): got %.9g, exact %.9g",
                    i ? "precision" : "exact", x->wrong, x->total, x->first_row, x->first_col, (double)x->first_got,
                    (double)x->first_want);
    }
    if (c->checked < c->total)
        fprintf(out, "; reference for %zu of the %zu elements", c->checked, c->total);
    fputc('\n', out);
}

int gemm_report_csv_wants_header(FILE *out, const gemm_options *opt)
{
    if (opt->no_header)
        return 0;
    /* What this process wrote is in the file before its size is read */
    fflush(out);
    struct stat st;
    return fstat(fileno(out), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0;
}

/* --csv: the stream the CSV goes to (what was standard output), and whether it gets a header, both
 * decided by gemm_report_csv_start() before anything runs */
static FILE *csv_stream;
static int csv_header;

int gemm_report_csv_start(const gemm_options *opt, gemm_msg *msg)
{
    if (!opt->csv)
        return 0;
    csv_header = gemm_report_csv_wants_header(stdout, opt);
    const int fd = dup(STDOUT_FILENO);
    if (fd < 0 || !(csv_stream = fdopen(fd, "w"))) {
        const int e = errno;
        if (fd >= 0)
            close(fd);
        return gemm_msgf(msg, GEMM_EXIT_RUNTIME, "cannot keep standard output for the CSV: %s", strerror(e));
    }
    /* Whatever else is written to standard output from now on (a kernel's printf, which the driver
     * writes there) goes to standard error, with the human-readable report */
    if (dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
        return gemm_msgf(msg, GEMM_EXIT_RUNTIME, "cannot send standard output to standard error: %s", strerror(errno));
    gemm_output_set_stream(csv_stream); /* checked at the end as standard output was */
    return 0;
}

void gemm_report_csv_header(FILE *out)
{
    fprintf(out, "step,platform,device,driver,m,n,k,alpha,beta,params,warmup,repeat,median_ms,best_ms,gflops,"
                 "gflops_best,parts,max_err_over_bound,status,date,normwise_over_bound,exact,normwise_error,precision,data,"
                 "kernel_file\n");
}

void gemm_csv_field(FILE *out, const char *s)
{
    if (strpbrk(s, ",\"\n") == NULL) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

void gemm_utc_date(char *buf, size_t len)
{
    time_t now = time(NULL);
    struct tm *t = gmtime(&now);
    if (!t || strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", t) == 0)
        snprintf(buf, len, "unknown");
}

void gemm_report_csv_line(FILE *out, const gemm_report *r)
{
    char parts[512] = "", date[32];
    size_t used = 0;
    for (int i = 0; i < r->nparts && used < sizeof parts; i++) {
        int w = snprintf(parts + used, sizeof parts - used, "%s%s:%.6f/%.6f", i ? ";" : "", r->part[i].label,
                         r->part[i].median_ms, r->part[i].best_ms);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    gemm_utc_date(date, sizeof date);
    gemm_csv_field(out, r->step);
    fputc(',', out);
    gemm_csv_field(out, r->platform);
    fputc(',', out);
    gemm_csv_field(out, r->device);
    fputc(',', out);
    gemm_csv_field(out, r->driver);
    fprintf(out, ",%ld,%ld,%ld,%.9g,%.9g,", r->m, r->n, r->k, r->alpha, r->beta);
    gemm_csv_field(out, r->params);
    fprintf(out, ",%d,%d,%.6f,%.6f,%.6g,%.6g,", r->warmup, r->repeat, r->median_ms, r->best_ms,
            gemm_gflops(r->m, r->n, r->k, r->median_ms), gemm_gflops(r->m, r->n, r->k, r->best_ms));
    gemm_csv_field(out, parts);
    fputc(',', out);
    if (r->verified) {
        if (isinf(r->check.worst_ratio))
            fputs("inf", out);
        else
            fprintf(out, "%.6g", r->check.worst_ratio);
    }
    fprintf(out, ",%s,%s,", gemm_report_status(r), date);
    if (r->verified) {
        if (isinf(r->check.normwise_ratio))
            fputs("inf", out);
        else
            fprintf(out, "%.6g", r->check.normwise_ratio);
    }
    fprintf(out, ",%s,", !r->exact.ran ? "" : r->exact.pass ? "PASS" : "FAIL");
    if (r->verified) {
        if (isinf(r->check.normwise))
            fputs("inf", out);
        else
            fprintf(out, "%.6g", r->check.normwise);
    }
    fprintf(out, ",%s,%s,", !r->precision.ran ? "" : r->precision.pass ? "PASS" : "FAIL", gemm_data_name(r->data));
    gemm_csv_field(out, r->kernel_file ? r->kernel_file : "");
    fputc('\n', out);
}

int gemm_report_emit(const gemm_report *r, const gemm_options *opt)
{
    if (opt->brief)
        gemm_report_brief(stdout, r);
    else
        gemm_report_print(opt->csv ? stderr : stdout, r);
    if (opt->csv) {
        FILE *out = csv_stream ? csv_stream : stdout;
        if (csv_stream ? csv_header : gemm_report_csv_wants_header(stdout, opt))
            gemm_report_csv_header(out);
        gemm_report_csv_line(out, r);
    }
    const int rc = gemm_report_exit_code(r);
    if (rc && !opt->brief) /* the brief line says FAIL and why: one line per run */
        gemm_error("verification failed (see the report above)");
    return rc;
}
