// Peer: the CPU BLAS's cblas_sgemm on the host (all cores), with the same options, data, runs,
// check and report as the steps. Timed with a monotonic host clock, since there are no OpenCL
// events on the host; C is restored before every run, outside the timed region.
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemm_options.h"
#include "gemm_report.h"
#include "gemm_verify.h"

#define NAME "cpu_blas"

static void cpu_name(char *out, size_t len)
{
    char line[256];
    snprintf(out, len, "host CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        const char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) == 0 && colon) {
            snprintf(out, len, "%s", colon + 2);
            out[strcspn(out, "\n")] = '\0';
            break;
        }
    }
    fclose(f);
}

int main(int argc, char **argv)
{
    gemm_options opt;
    gemm_msg msg = {{0}};
    gemm_set_program_name(NAME);
    switch (gemm_options_parse(&opt, argc, argv, &msg)) {
    case GEMM_PARSE_HELP:
        gemm_options_usage(stdout, NAME, "The CPU BLAS's cblas_sgemm on the host, for comparison. "
                                         "--platform, --device, -D and --kernel-file do not apply.");
        return GEMM_EXIT_OK;
    case GEMM_PARSE_VERSION:
        printf("%s (OpenCL SGEMM tutorial) %s\n", NAME, gemm_version());
        return GEMM_EXIT_OK;
    case GEMM_PARSE_ERROR:
        gemm_error("%s", msg.text);
        return GEMM_EXIT_BAD_INPUT;
    default:
        break;
    }
    if (opt.list_devices || opt.platform || opt.device || opt.kernel_file || opt.defines.count) {
        gemm_error("%s runs on the host CPU: --list-devices, --platform, --device, --kernel-file and -D do not apply",
                   NAME);
        return GEMM_EXIT_BAD_INPUT;
    }
    const long m = opt.m ? opt.m : 1024, n = opt.n ? opt.n : 1024, k = opt.k ? opt.k : 1024;
    const int repeat = opt.repeat ? opt.repeat : 3, warmup = opt.warmup >= 0 ? opt.warmup : 1;
    gemm_host_data d = {0};
    gemm_reference ref = {0};
    gemm_report rep;
    memset(&rep, 0, sizeof rep);
    int rc = gemm_host_data_create(&d, m, n, k, opt.alpha, opt.beta, opt.seed, &msg);
    if (!rc && opt.verify)
        rc = gemm_reference_compute(&d, &ref, &msg);
    float *c = malloc((size_t)m * (size_t)n * sizeof(float));
    double *times = malloc((size_t)repeat * sizeof(double));
    if (!rc && (!c || !times))
        rc = gemm_msgf(&msg, GEMM_EXIT_RUNTIME, "out of host memory");
    for (int run = 0; !rc && run < warmup + repeat; run++) {
        memcpy(c, d.c0, (size_t)m * (size_t)n * sizeof(float)); // BLAS ignores C when beta = 0
        const double t0 = gemm_host_seconds();
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)k, d.alpha, d.a, (int)k, d.b,
                    (int)n, d.beta, c, (int)n);
        const double t1 = gemm_host_seconds();
        if (run >= warmup)
            times[run - warmup] = (t1 - t0) * 1e3;
    }
    if (!rc) {
        rep.step = NAME;
        rep.summary = "the CPU BLAS's cblas_sgemm on the host";
        snprintf(rep.platform, sizeof rep.platform, "host");
        cpu_name(rep.device, sizeof rep.device);
#ifdef OPENBLAS_VERSION
        snprintf(rep.driver, sizeof rep.driver, "%s", OPENBLAS_VERSION);
#else
        snprintf(rep.driver, sizeof rep.driver, "CBLAS");
#endif
        rep.device_type = "CPU";
        rep.m = m;
        rep.n = n;
        rep.k = k;
        rep.alpha = d.alpha;
        rep.beta = d.beta;
        rep.warmup = warmup;
        rep.repeat = repeat;
        rep.timing = "host wall-clock time of the cblas_sgemm call (monotonic clock)";
        rep.median_ms = gemm_median(times, repeat);
        rep.best_ms = gemm_min(times, repeat);
        rep.nparts = 1;
        rep.part[0].label = "cblas_sgemm";
        rep.part[0].median_ms = rep.median_ms;
        rep.part[0].best_ms = rep.best_ms;
        rep.reference = gemm_reference_method();
        if (opt.verify) {
            rep.verified = 1;
            // NaN-poisoning does not apply to a host library; the check still covers every element.
            gemm_check_result(c, &ref, &rep.check);
        }
        gemm_report_print(opt.csv ? stderr : stdout, &rep);
        if (opt.csv) {
            gemm_report_csv_header(stdout);
            gemm_report_csv_line(stdout, &rep);
        }
        rc = gemm_report_exit_code(&rep);
    } else {
        gemm_error("%s", msg.text);
    }
    free(c);
    free(times);
    gemm_reference_free(&ref);
    gemm_host_data_free(&d);
    return rc;
}
