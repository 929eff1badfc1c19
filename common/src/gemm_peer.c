#include "gemm_peer.h"

#include "gemm_memory.h"

#include <stdlib.h>
#include <string.h>

/* The report's fields known before the runs: the program, the problem and the run counts */
static void peer_report_start(gemm_report *rep, const gemm_host_peer *peer, const gemm_options *opt, long m, long n,
                              long k, int warmup, int repeat)
{
    memset(rep, 0, sizeof *rep);
    rep->step = peer->name;
    rep->summary = peer->summary;
    rep->m = m;
    rep->n = n;
    rep->k = k;
    rep->alpha = (float)opt->alpha;
    rep->beta = (float)opt->beta;
    rep->warmup = warmup;
    rep->repeat = repeat;
    rep->data = opt->data;
    rep->seed = opt->seed;
}

/* The report's fields known after the runs: the times (the library call is the one part) and how
 * the result was checked */
static void peer_report_times(gemm_report *rep, const gemm_host_peer *peer, const double *times, int repeat,
                              const char *sample_why)
{
    rep->median_ms = gemm_median(times, repeat);
    rep->best_ms = gemm_min(times, repeat);
    rep->nparts = 1;
    rep->part[0].label = peer->label;
    rep->part[0].median_ms = rep->median_ms;
    rep->part[0].best_ms = rep->best_ms;
    rep->reference = gemm_reference_method();
    rep->sample = sample_why[0] ? sample_why : NULL;
}

int gemm_host_peer_main(const gemm_host_peer *peer, int argc, char **argv)
{
    gemm_options opt;
    gemm_msg msg = {{0}};
    gemm_set_program_name(peer->name);
    int rc = gemm_options_main(&opt, argc, argv, peer->help, NULL, NULL);
    if (rc != GEMM_OPTIONS_GO_ON)
        return rc;
    const long m = opt.m ? opt.m : peer->default_size, n = opt.n ? opt.n : peer->default_size,
               k = opt.k ? opt.k : peer->default_size;
    long sample = 0;
    char sample_why[256] = "";
    rc = gemm_report_csv_start(&opt, &msg); /* the CSV's header and stream, before anything runs */
    if (!rc)
        rc = peer->check ? peer->check(&opt, &msg) : 0;
    if (!rc && opt.timeout >= 0.0) /* the watchdog times waits on an OpenCL queue (gemm_watchdog.h) */
        rc = gemm_msgf(&msg, GEMM_EXIT_BAD_INPUT, "--timeout does not apply to %s, which makes no OpenCL run",
                       peer->name);
    if (!rc)
        rc = gemm_check_scalars(k, opt.alpha, opt.beta, &msg);
    if (!rc) /* the peer's library is loaded already: only its runs remain to be counted */
        rc = gemm_memory_check_host(m, n, k, opt.verify, 1, &sample, sample_why, sizeof sample_why, &msg);
    if (rc) {
        gemm_error("%s", msg.text);
        return rc;
    }
    const int repeat = opt.repeat ? opt.repeat : peer->default_repeat;
    const int warmup = opt.warmup >= 0 ? opt.warmup : peer->default_warmup;
    gemm_host_data d = {0};
    gemm_reference ref = {0};
    gemm_report rep;
    peer_report_start(&rep, peer, &opt, m, n, k, warmup, repeat);
    if (peer->describe) {
        rc = peer->describe(&opt, &rep, &msg);
        if (!rc)
            gemm_report_announce(&rep, &opt);
    }
    gemm_progress_start();
    gemm_progress_set("making the random matrices");
    if (!rc)
        rc = gemm_host_data_create(&d, m, n, k, opt.alpha, opt.beta, opt.data, opt.seed, &msg);
    float *c = malloc((size_t)m * (size_t)n * sizeof(float));
    double *times = malloc((size_t)repeat * sizeof(double));
    if (!rc && (!c || !times))
        rc = gemm_msgf(&msg, GEMM_EXIT_RUNTIME, "out of host memory");
    if (!rc)
        rc = peer->run(&opt, &d, warmup, repeat, times, c, &rep, &msg);
    if (!rc && opt.verify) {
        gemm_progress_set("computing the double-precision reference");
        if (gemm_memory_address_limited())
            gemm_reference_threads(1); /* see gemm_reference_threads() */
        rc = gemm_reference_compute(&d, sample, &ref, &msg);
    }
    gemm_progress_set("checking the result");
    if (!rc) {
        peer_report_times(&rep, peer, times, repeat, sample_why);
        rep.verified = opt.verify;
        if (opt.verify)
            gemm_check_result(c, &ref, &rep.check);
        gemm_progress_stop();
        rc = gemm_report_emit(&rep, &opt);
    } else {
        gemm_progress_stop();
        gemm_error("%s", msg.text);
    }
    free(c);
    free(times);
    gemm_reference_free(&ref);
    gemm_host_data_free(&d);
    return gemm_output_finish(rc);
}
