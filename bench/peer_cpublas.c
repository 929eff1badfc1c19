// Peer: the CPU BLAS's cblas_sgemm on the host (all cores), with the same options, data, runs,
// check and report as the steps. Timed with a monotonic host clock, since there are no OpenCL
// events on the host; C is restored before every run, outside the timed region.
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemm_memory.h"
#include "gemm_peer.h"

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

static int check(const gemm_options *opt, gemm_msg *msg)
{
    if (opt->list_devices || opt->platform || opt->device || opt->kernel_file || opt->defines.count)
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT,
                         "%s runs on the host CPU: --list-devices, --platform, --device, --kernel-file and -D do "
                         "not apply",
                         NAME);
    return 0;
}

static int run(const gemm_options *opt, const gemm_host_data *d, int warmup, int repeat, double *times, float *c,
               gemm_report *rep, gemm_msg *msg)
{
    (void)opt;
    (void)rep; // described before the runs (describe)
    // The BLAS is loaded now, not when the program starts (see gemm_blas_symbol()): under an
    // address-space limit with one thread.
    if (gemm_memory_address_limited())
        gemm_reference_threads(1);
    __typeof__(&cblas_sgemm) sgemm = NULL;
    void *sym = gemm_blas_symbol("cblas_sgemm");
    memcpy(&sgemm, &sym, sizeof sgemm);
    if (!sgemm)
        return gemm_msgf(msg, GEMM_EXIT_RUNTIME, "the CPU BLAS (%s) could not be loaded", gemm_reference_method());
    const size_t bytes = (size_t)d->m * (size_t)d->n * sizeof(float);
    for (int run = 0; run < warmup + repeat; run++) {
        gemm_progress_run(run, warmup, repeat);
        memcpy(c, d->c0, bytes); // BLAS ignores C when beta = 0
        const double t0 = gemm_host_seconds();
        sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)d->m, (int)d->n, (int)d->k, d->alpha, d->a,
                    (int)d->k, d->b, (int)d->n, d->beta, c, (int)d->n);
        const double t1 = gemm_host_seconds();
        if (run >= warmup)
            times[run - warmup] = (t1 - t0) * 1e3;
    }
    // NaN-poisoning does not apply to a host library; the check still covers every element.
    return 0;
}

// What runs where, known before the runs: printed first (the head of the report).
static int describe(const gemm_options *opt, gemm_report *rep, gemm_msg *msg)
{
    (void)opt;
    (void)msg;
    snprintf(rep->platform, sizeof rep->platform, "host");
    cpu_name(rep->device, sizeof rep->device);
#ifdef OPENBLAS_VERSION
    // OpenBLAS's version string has a space on each side (" OpenBLAS 0.3.21 "): keep the words.
    const char *version = OPENBLAS_VERSION + strspn(OPENBLAS_VERSION, " ");
    size_t len = strlen(version);
    while (len > 0 && version[len - 1] == ' ')
        len--;
    snprintf(rep->driver, sizeof rep->driver, "%.*s", (int)len, version);
#else
    snprintf(rep->driver, sizeof rep->driver, "CBLAS");
#endif
    rep->device_type = "CPU";
    rep->timing = "host wall-clock time of the cblas_sgemm call (monotonic clock)";
    return 0;
}

int main(int argc, char **argv)
{
    static const gemm_host_peer peer = {
        NAME, "the CPU BLAS's cblas_sgemm on the host",
        "The CPU BLAS's cblas_sgemm on the host, for comparison, timed with the host's monotonic clock. --platform, "
        "--device, -D and --kernel-file do not apply.",
        "cblas_sgemm", 1024, 3, 1, check, run, describe};
    return gemm_host_peer_main(&peer, argc, argv);
}
