// Unit tests of the harness: option parsing, the tolerance and the element check, the reference,
// the constraint checks, the report's figures and the build log's positions. No OpenCL device is
// needed. Run one group: test_harness <group>.
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemm_cl.h"
#include "gemm_report.h"
#include "gemm_step.h"
#include "gemm_step_rules.h"
#include "gemm_verify.h"
#include "test_groups.h"

// Parses a NULL-terminated argument list (argv[0] is added).
static int parse(gemm_options *opt, gemm_msg *msg, const char *const *args)
{
    char *argv[32] = {"prog"};
    int argc = 1;
    for (; args[argc - 1]; argc++)
        argv[argc] = (char *)args[argc - 1];
    return gemm_options_parse(opt, argc, argv, msg);
}

#define PARSE(...) parse(&opt, &msg, (const char *const[]){__VA_ARGS__, NULL})

// An error parse must fail and say something that contains `needle`.
static void expect_error(const char *const *args, const char *needle)
{
    gemm_options opt;
    gemm_msg msg;
    int rc = parse(&opt, &msg, args);
    if (rc != GEMM_PARSE_ERROR || !strstr(msg.text, needle)) {
        fprintf(stderr, "expected a parse error containing '%s' for '%s ...', got rc=%d msg='%s'\n", needle, args[0],
                rc, msg.text);
        failures++;
    }
}
#define EXPECT_ERROR(needle, ...) expect_error((const char *const[]){__VA_ARGS__, NULL}, needle)

static void test_options(void)
{
    gemm_options opt;
    gemm_msg msg;
    char *argv0[] = {"prog", NULL};
    CHECK(gemm_options_parse(&opt, 1, argv0, &msg) == GEMM_PARSE_OK);
    CHECK(opt.m == 0 && opt.n == 0 && opt.k == 0);
    CHECK(opt.alpha == 1.0 && opt.beta == 0.0 && opt.verify == 1 && opt.csv == 0);
    CHECK(opt.seed == GEMM_DEFAULT_SEED && opt.warmup == -1 && opt.repeat == 0);

    CHECK(PARSE("-m", "5", "-n", "6", "-k", "7") == GEMM_PARSE_OK);
    CHECK(opt.m == 5 && opt.n == 6 && opt.k == 7);
    CHECK(PARSE("-m5", "-n6", "-k7") == GEMM_PARSE_OK);
    CHECK(opt.m == 5 && opt.n == 6 && opt.k == 7);
    CHECK(PARSE("--size", "64") == GEMM_PARSE_OK);
    CHECK(opt.m == 64 && opt.n == 64 && opt.k == 64);
    // --size fills only the dimensions not given, whatever the order
    CHECK(PARSE("-k", "8", "--size", "64") == GEMM_PARSE_OK);
    CHECK(opt.m == 64 && opt.n == 64 && opt.k == 8);
    CHECK(PARSE("--size=32", "-m", "3") == GEMM_PARSE_OK);
    CHECK(opt.m == 3 && opt.n == 32 && opt.k == 32);
    CHECK(PARSE("-m", "2147483647") == GEMM_PARSE_OK && opt.m == INT_MAX);
    CHECK(PARSE("--alpha", "-1.5", "--beta=0.25") == GEMM_PARSE_OK);
    CHECK(opt.alpha == -1.5 && opt.beta == 0.25);
    CHECK(PARSE("--alpha", "0", "--beta", "1e-3") == GEMM_PARSE_OK && opt.alpha == 0.0 && opt.beta == 1e-3);
    CHECK(PARSE("--platform", "Portable", "--device", "1", "--list-devices") == GEMM_PARSE_OK);
    CHECK(strcmp(opt.platform, "Portable") == 0 && strcmp(opt.device, "1") == 0 && opt.list_devices);
    CHECK(PARSE("--repeat", "7", "--warmup", "0", "--seed", "42", "--no-verify", "--csv") == GEMM_PARSE_OK);
    CHECK(opt.repeat == 7 && opt.warmup == 0 && opt.seed == 42 && !opt.verify && opt.csv);
    CHECK(!opt.no_header && !opt.brief);
    CHECK(PARSE("--csv", "--no-header") == GEMM_PARSE_OK && opt.csv && opt.no_header);
    CHECK(PARSE("--brief") == GEMM_PARSE_OK && opt.brief && !opt.csv);
    CHECK(PARSE("-D", "TS=16", "-DWIDTH=4", "-D", "TS=32") == GEMM_PARSE_OK);
    CHECK(opt.defines.count == 2);
    long v = 0;
    CHECK(gemm_defines_find(&opt.defines, "TS", &v) && v == 32); // the later value wins
    CHECK(gemm_defines_find(&opt.defines, "WIDTH", &v) && v == 4);
    CHECK(!gemm_defines_find(&opt.defines, "TSM", &v));
    CHECK(PARSE("--kernel-file", "x.cl") == GEMM_PARSE_OK && strcmp(opt.kernel_file, "x.cl") == 0);
    CHECK(PARSE("--defaults-for", "nvidia-gpu") == GEMM_PARSE_OK && strcmp(opt.defaults_for, "nvidia-gpu") == 0);
    CHECK(PARSE("--help") == GEMM_PARSE_HELP);
    CHECK(PARSE("-h") == GEMM_PARSE_HELP);
    CHECK(PARSE("--version") == GEMM_PARSE_VERSION);

    EXPECT_ERROR("positive integer", "-m", "0");
    EXPECT_ERROR("positive integer", "-n", "-3");
    EXPECT_ERROR("positive integer", "-k", "abc");
    EXPECT_ERROR("option -k needs a value (-k K), got an empty one", "-k", "");
    EXPECT_ERROR("positive integer", "-m", "1.5");
    EXPECT_ERROR("positive integer", "-m", "12x");
    EXPECT_ERROR("positive integer", "--size", " 4");
    EXPECT_ERROR("too large", "-m", "2147483648");
    EXPECT_ERROR("too large", "--size", "99999999999999999999999");
    EXPECT_ERROR("finite", "--alpha", "nan");
    EXPECT_ERROR("finite", "--beta", "inf");
    EXPECT_ERROR("finite", "--alpha", "1e400");
    EXPECT_ERROR("does not fit in a float", "--beta", "1e39");
    EXPECT_ERROR("too small for a float", "--alpha", "1e-400"); // underflows double
    EXPECT_ERROR("too small for a float", "--beta", "1e-50");   // underflows float
    CHECK(PARSE("--alpha", "1e-40") == GEMM_PARSE_OK && opt.alpha == 1e-40); // a float denormal: kept
    EXPECT_ERROR("expects a number", "--alpha", "one");
    EXPECT_ERROR("unknown option '--bogus'", "--bogus");
    EXPECT_ERROR("unknown option '-x'", "-x", "3");
    EXPECT_ERROR("unexpected argument 'extra'", "extra");
    EXPECT_ERROR("needs a value", "-m");
    EXPECT_ERROR("needs a value", "--alpha");
    EXPECT_ERROR("needs a value", "-D");
    EXPECT_ERROR("takes no value", "--csv=1");
    EXPECT_ERROR("from 1 to", "--repeat", "0");
    EXPECT_ERROR("from 0 to", "--warmup", "-1");
    EXPECT_ERROR("non-negative", "--seed", "-1");
    EXPECT_ERROR("NAME=VALUE", "-D", "TS");
    EXPECT_ERROR("NAME=VALUE", "-D", "=4");
    EXPECT_ERROR("identifier", "-D", "1X=3");
    EXPECT_ERROR("integer value", "-D", "TS=abc");
    EXPECT_ERROR("out of range: a value must fit an int", "-D", "TS=99999999999");
    EXPECT_ERROR("too long", "-D", "ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGH=1");
    EXPECT_ERROR("needs a value", "--kernel-file", "");
    EXPECT_ERROR("needs a value", "--kernel-file=");
    EXPECT_ERROR("option --platform needs a value", "--platform", "");
    EXPECT_ERROR("option --device needs a value", "--device=");
    EXPECT_ERROR("option -D needs a value", "-D", "");
    EXPECT_ERROR("expects cpu, nvidia-gpu or gpu", "--defaults-for", "amd");
    EXPECT_ERROR("--brief and --csv are two output formats", "--csv", "--brief");
    EXPECT_ERROR("--brief and --csv are two output formats", "--brief", "--csv", "--no-header");
    EXPECT_ERROR("--no-header leaves out the header of the CSV output: it needs --csv", "--no-header");
    EXPECT_ERROR("takes no value", "--brief=1");

    // The defaults-table format
    gemm_defines d = {0};
    char text[128];
    CHECK(gemm_defines_apply_list(&d, "TSM=64  TSN=32 WIDTH=4", &msg) == 0 && d.count == 3);
    gemm_defines_format(&d, text, sizeof text);
    CHECK(strcmp(text, "TSM=64 TSN=32 WIDTH=4") == 0);
    CHECK(gemm_defines_apply_list(&d, "TSM", &msg) == GEMM_EXIT_BAD_INPUT);
}

static void test_tolerance(void)
{
    CHECK(gemm_tolerance(1000, 3.0) == GEMM_TOLERANCE_C * 1000.0 * FLT_EPSILON * 3.0);
    CHECK(gemm_tolerance(1, 0.0) == 0.0);

    // A 2x3 "reference" with known magnitudes, checked against perturbed results.
    double value[6] = {1, -2, 3, 0, 5, 6}, magnitude[6] = {10, 10, 10, 0, 10, 10};
    // norm_ab large enough that the normwise check passes: it has its own group (robustness.cmake)
    gemm_reference ref = {2, 3, 100, value, magnitude, 0, 0, 0, NULL, NULL, 1e4, 0.0};
    const double tol = gemm_tolerance(100, 10.0);
    float got[6];
    gemm_check c;
    for (int i = 0; i < 6; i++)
        got[i] = (float)value[i];
    gemm_check_result(got, &ref, &c);
    CHECK(c.pass && c.bad == 0 && c.worst_ratio == 0.0);

    got[4] = (float)(value[4] + 0.5 * tol); // inside the bound
    gemm_check_result(got, &ref, &c);
    CHECK(c.pass && c.worst_ratio > 0.3 && c.worst_ratio < 0.7 && c.worst_row == 1 && c.worst_col == 1);

    got[4] = (float)(value[4] + 3.0 * tol); // outside: fails, and says where
    gemm_check_result(got, &ref, &c);
    CHECK(!c.pass && c.bad == 1 && c.first_bad_row == 1 && c.first_bad_col == 1 && c.worst_ratio > 2.0);
    got[4] = (float)value[4];

    got[2] = NAN; // a NaN is never within a bound
    gemm_check_result(got, &ref, &c);
    CHECK(!c.pass && c.nonfinite == 1 && isinf(c.worst_ratio) && c.first_bad_row == 0 && c.first_bad_col == 2);
    got[2] = INFINITY;
    gemm_check_result(got, &ref, &c);
    CHECK(!c.pass && c.nonfinite == 1);
    got[2] = (float)value[2];

    got[3] = 1e-30f; // where the bound is 0 (alpha = beta = 0 or zero rows), only an exact 0 passes
    gemm_check_result(got, &ref, &c);
    CHECK(!c.pass && c.first_bad_row == 1 && c.first_bad_col == 0);
    got[3] = (float)value[3];

    // The bound is the one the report prints, not a multiple of it: just inside passes, just
    // outside fails (a check of diff <= 2*tol passed every other test; a float step at 5 is
    // 4.8e-7, 1% of tol 2.4e-6)
    got[4] = (float)(value[4] + 0.99 * tol);
    gemm_check_result(got, &ref, &c);
    CHECK(c.pass && c.bad == 0);
    got[4] = (float)(value[4] + 1.01 * tol);
    gemm_check_result(got, &ref, &c);
    CHECK(!c.pass && c.bad == 1 && c.first_bad_row == 1 && c.first_bad_col == 1);
    got[4] = (float)value[4];

    // The normwise error is ||got-ref|| / (||alpha*A*B|| + ||beta*C||), both norms (the report's
    // formula: a denominator with 2*||beta*C|| passed every other test); its bound charges
    // alpha*A*B with 2*sqrt(K)*eps and beta*C with 2*eps (its two roundings); it passes up to
    // the bound and not beyond
    ref.norm_ab = 3.0;
    ref.norm_c = 1.0;
    const double bound = gemm_normwise_bound(100), err = 0.5 * tol; // within the element-wise bound
    got[1] = (float)(value[1] + err);
    const double e1 = (double)got[1] - value[1], bound_abs = 3.0 * bound + GEMM_BETA_C * FLT_EPSILON;
    gemm_check_result(got, &ref, &c);
    CHECK(c.bad == 0 && c.normwise == fabs(e1) / 4.0 && c.normwise_ratio == fabs(e1) / bound_abs);
    CHECK(c.normwise_bound == bound_abs / 4.0);
    CHECK(c.normwise_pass == (c.normwise_ratio <= 1.0) && c.pass == c.normwise_pass);
    ref.norm_ab = (fabs(e1) / 0.99 - GEMM_BETA_C * FLT_EPSILON * ref.norm_c) / bound; // ratio 0.99: passes
    gemm_check_result(got, &ref, &c);
    CHECK(c.bad == 0 && c.normwise_ratio > 0.98 && c.normwise_ratio < 1.0 && c.normwise_pass && c.pass);
    ref.norm_ab = (fabs(e1) / 1.01 - GEMM_BETA_C * FLT_EPSILON * ref.norm_c) / bound; // ratio 1.01: fails
    gemm_check_result(got, &ref, &c);
    CHECK(c.bad == 0 && c.normwise_ratio > 1.0 && c.normwise_ratio < 1.02 && !c.normwise_pass && !c.pass);
    // beta*C alone (alpha*A*B = 0) is charged two roundings, not sqrt(K) of them: an error of
    // 3*eps*||beta*C|| fails, though it is far below 2*sqrt(K)*eps*||beta*C|| (K = 100: 20*eps)
    ref.norm_ab = 0.0;
    ref.norm_c = fabs(e1) / (3.0 * FLT_EPSILON);
    gemm_check_result(got, &ref, &c);
    CHECK(c.normwise_ratio > 1.4 && c.normwise_ratio < 1.6 && !c.normwise_pass);
    ref.norm_c = fabs(e1) / (1.5 * FLT_EPSILON);
    gemm_check_result(got, &ref, &c);
    CHECK(c.normwise_ratio > 0.7 && c.normwise_ratio < 0.8 && c.normwise_pass);
}

static void test_reference(void)
{
    // A = [1 2; 3 4; 5 6] (3x2), B = [1 -1 2; 0 1 -2] (2x3), C0 = all 1, alpha = 2, beta = -0.5
    gemm_host_data d = {0};
    gemm_msg msg;
    CHECK(gemm_host_data_create(&d, 3, 3, 2, 2.0, -0.5, GEMM_DATA_SPREAD, 1, &msg) == 0);
    const float a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {1, -1, 2, 0, 1, -2};
    memcpy(d.a, a, sizeof a);
    memcpy(d.b, b, sizeof b);
    for (int i = 0; i < 9; i++)
        d.c0[i] = 1.0f;
    gemm_reference ref;
    CHECK(gemm_reference_compute(&d, 0, &ref, &msg) == 0);
    // A*B = [1 1 -2; 3 1 -2; 5 1 -2]; 2*A*B - 0.5 = ...
    const double expect[9] = {1.5, 1.5, -4.5, 5.5, 1.5, -4.5, 9.5, 1.5, -4.5};
    // |A||B| = [1 3 6; 3 7 14; 5 11 22]; magnitude = 2*|A||B| + 0.5/K (beta*C meets two roundings, not K)
    const double mag[9] = {2.25, 6.25, 12.25, 6.25, 14.25, 28.25, 10.25, 22.25, 44.25};
    for (int i = 0; i < 9; i++) {
        CHECK(ref.value[i] == expect[i]);
        CHECK(ref.magnitude[i] == mag[i]);
    }
    gemm_reference_free(&ref);

    // beta = 0: C0 is not read, so a NaN in it cannot leak into the reference
    d.beta = 0.0f;
    d.c0[4] = NAN;
    CHECK(gemm_reference_compute(&d, 0, &ref, &msg) == 0);
    CHECK(ref.value[4] == 2.0 && isfinite(ref.magnitude[4]));
    gemm_reference_free(&ref);
    gemm_host_data_free(&d);

    // Random data: reproducible, in [-1, 1), different streams differ
    float x[1000], y[1000], z[1000];
    gemm_fill_uniform(x, 1000, 7, 0);
    gemm_fill_uniform(y, 1000, 7, 0);
    gemm_fill_uniform(z, 1000, 7, 1);
    CHECK(memcmp(x, y, sizeof x) == 0);
    CHECK(memcmp(x, z, sizeof x) != 0);
    double sum = 0;
    for (int i = 0; i < 1000; i++) {
        CHECK(x[i] >= -1.0f && x[i] < 1.0f);
        sum += x[i];
    }
    CHECK(fabs(sum / 1000) < 0.1);

    const double t[5] = {5, 1, 4, 2, 3}, t2[4] = {4, 1, 3, 2};
    CHECK(gemm_median(t, 5) == 3.0 && gemm_min(t, 5) == 1.0);
    CHECK(gemm_median(t2, 4) == 2.5);
    CHECK(fabs(gemm_gflops(1000, 1000, 1000, 1.0) - 2000.0) < 1e-9);
}

static void test_constraints(void)
{
    gemm_device_info dev;
    memset(&dev, 0, sizeof dev);
    dev.max_work_group = 256;
    dev.max_item[0] = dev.max_item[1] = dev.max_item[2] = 256;
    dev.local_mem = 48 * 1024;
    dev.global_mem = (cl_ulong)8 << 30;
    dev.max_alloc = (cl_ulong)2 << 30;
    dev.base_align = 128;
    gemm_defines params = {0};
    gemm_problem p = {"kernel02_tiled", 1024, 1024, 1024, 1.0f, 0.0f, &params, &dev};
    gemm_msg msg;

    CHECK(gemm_require_multiple(&msg, &p, "M", 1024, "TS", 32) == 0);
    CHECK(gemm_require_multiple(&msg, &p, "M", 1000, "TS", 32) == GEMM_EXIT_BAD_INPUT);
    CHECK(strstr(msg.text, "M=1000") && strstr(msg.text, "TS=32") && strstr(msg.text, "kernel06_padding"));
    p.k = 48;
    CHECK(gemm_require_tiles(&msg, &p, "TSM", 64, "TSN", 64, "TSK", 32) == GEMM_EXIT_BAD_INPUT);
    CHECK(strstr(msg.text, "K=48") && strstr(msg.text, "TSK=32"));
    p.k = 1024;
    CHECK(gemm_round_up(1000, 32) == 1024 && gemm_round_up(1024, 32) == 1024 && gemm_round_up(1, 16) == 16);

    gemm_plan plan;
    memset(&plan, 0, sizeof plan);
    gemm_launch *l = gemm_plan_add(&plan, "sgemm", "sgemm", 1024, 1024, 16, 16);
    gemm_arg_sgemm(l, 1024, 1024, 1024, 1.0f, 0.0f, GEMM_BUF_A, GEMM_BUF_B, GEMM_BUF_C);
    l->local_mem_bytes = 2 * 16 * 16 * 4;
    CHECK(l->nargs == 8);
    CHECK(gemm_check_plan(&p, &plan, "TS=16", &msg) == 0);

    // Steps 9 and 10: a C too large for the kernels' int indices is refused as such, not as "fewer
    // SLICES" (with SLICES=1 there is nothing to split)
    {
        gemm_defines split_params = {0};
        CHECK(gemm_defines_apply_list(&split_params, "TSM=128 TSN=128 TSK=16 SLICES=1 SPLIT_ROWS=0 GROUPS_PER_CU=2",
                                      &msg) == 0);
        dev.compute_units = 132;
        gemm_problem big = {"kernel09_split_k", 65536, 32768, 64, 1.0f, 0.0f, &split_params, &dev};
        gemm_plan split_plan;
        memset(&split_plan, 0, sizeof split_plan);
        CHECK(gemm_plan_split_k_auto(&big, &split_plan, 0, &msg) == GEMM_EXIT_BAD_INPUT);
        CHECK(strstr(msg.text, "C would have 2147483648 elements") && !strstr(msg.text, "SLICES"));
        big.m = 46340; // 46340 x 46340 fits, padded to 46464 x 46464 it does not
        big.n = 46340;
        CHECK(gemm_plan_split_k_auto(&big, &split_plan, 0, &msg) == GEMM_EXIT_BAD_INPUT);
        CHECK(strstr(msg.text, "C zero-padded to 46464 x 46464") && !strstr(msg.text, "fewer SLICES"));
        // The host's own choice of the split must fit the kernels' indices: C's rows and the copies
        // that continue them (steps 9 to 11). At 46081 x 46081 x 4096 with 64 work-groups per unit
        // the model once chose slices whose copies, after C's rows, passed 2^31 floats, and then
        // refused its own choice ("fewer SLICES or SPLIT_ROWS", where the user had set neither)
        CHECK(gemm_defines_apply_list(&split_params, "SLICES=0 SPLIT_ROWS=0 GROUPS_PER_CU=64 WPTM=16 WPTN=8 WIDTH=4 "
                                      "TRANSPOSE_TILE=16 TRANSPOSE_PAD=1", &msg) == 0);
        big.m = big.n = 46081;
        big.k = 4096;
        memset(&split_plan, 0, sizeof split_plan);
        const gemm_split_k chosen = gemm_split_k_choose(&big); // 1 here: no copy fits after C's rows
        CHECK((46208.0 + (double)(chosen.slices - 1) * (double)chosen.rows * 128.0) * 46208.0 <= 2147483647.0);
        CHECK(gemm_plan_split_k_auto(&big, &split_plan, 0, &msg) == 0);
    }

    l->local[0] = l->local[1] = 32; // 1024 work-items > 256
    CHECK(gemm_check_plan(&p, &plan, "TS=32", &msg) == GEMM_EXIT_BAD_INPUT);
    CHECK(strstr(msg.text, "CL_DEVICE_MAX_WORK_GROUP_SIZE") && strstr(msg.text, "1024") && strstr(msg.text, "TS=32"));
    l->local[0] = 512; // one dimension beyond the work-item limit
    l->local[1] = 1;
    CHECK(gemm_check_plan(&p, &plan, "X=1", &msg) == GEMM_EXIT_BAD_INPUT);
    CHECK(strstr(msg.text, "CL_DEVICE_MAX_WORK_ITEM_SIZES"));
    l->local[0] = l->local[1] = 16;
    l->local_mem_bytes = 64 * 1024; // more than 48 KiB
    CHECK(gemm_check_plan(&p, &plan, "TS=128", &msg) == GEMM_EXIT_BAD_INPUT);
    CHECK(strstr(msg.text, "CL_DEVICE_LOCAL_MEM_SIZE"));
    l->local_mem_bytes = 2048;
    l->global[0] = 1000; // a plan bug: global not a multiple of local
    CHECK(gemm_check_plan(&p, &plan, "", &msg) == GEMM_EXIT_RUNTIME);
    l->global[0] = 1024;

    p.m = p.k = 30000; // A: 900M floats = 3.4 GiB > 2 GiB largest allocation
    CHECK(gemm_check_plan(&p, &plan, "", &msg) == GEMM_EXIT_BAD_INPUT);
    CHECK(strstr(msg.text, "CL_DEVICE_MAX_MEM_ALLOC_SIZE"));
    p.m = 80000; // A: 2.4G elements > 2^31-1: the kernels' int indices cannot reach them
    CHECK(gemm_check_plan(&p, &plan, "", &msg) == GEMM_EXIT_BAD_INPUT);
    CHECK(strstr(msg.text, "2^31-1"));
    dev.max_alloc = (cl_ulong)4 << 30;
    p.m = 22000; // A and C: 660M floats = 2.46 GiB each; B: 900M floats = 3.35 GiB;
    p.n = 30000; // each fits in one 4 GiB buffer, but together they need more than 8 GiB
    CHECK(gemm_check_plan(&p, &plan, "", &msg) == GEMM_EXIT_BAD_INPUT);
    CHECK(strstr(msg.text, "CL_DEVICE_GLOBAL_MEM_SIZE"));

    // Each limit at its edge, where a check that allows twice the limit, or leaves out the guards
    // or the copy of C kept when beta != 0, passed every other test:
    // - work-groups of 16x17 = 272 work-items, 16 above the limit
    p.m = p.n = p.k = 1024;
    dev.max_alloc = (cl_ulong)2 << 30;
    l->global[1] = 17 * 64;
    l->local[1] = 17;
    CHECK(gemm_check_plan(&p, &plan, "TS=16", &msg) == GEMM_EXIT_BAD_INPUT);
    CHECK(strstr(msg.text, "CL_DEVICE_MAX_WORK_GROUP_SIZE") && strstr(msg.text, "272"));
    l->global[1] = 1024;
    l->local[1] = 16;
    CHECK(gemm_check_plan(&p, &plan, "TS=16", &msg) == 0);
    // - A of exactly the largest allocation, 2^29 floats: its guard regions make it too large
    p.m = 524288; // x K = 1024
    p.n = 16;
    CHECK(gemm_check_plan(&p, &plan, "", &msg) == GEMM_EXIT_BAD_INPUT);
    CHECK(strstr(msg.text, "A needs") && strstr(msg.text, "CL_DEVICE_MAX_MEM_ALLOC_SIZE") &&
          strstr(msg.text, "its guard regions"));
    p.m = 524288 - 2 * 16384 / 1024; // room for the guards (16384 floats before and after)
    CHECK(gemm_check_plan(&p, &plan, "", &msg) == 0);
    // - A, B and C fit in the global memory, with half of C to spare: with beta != 0 the copy of C
    //   that restores it before each run does not
    p.m = p.n = p.k = 4096;
    const size_t mat = (size_t)4096 * 4096;
    dev.global_mem = (cl_ulong)(3 * gemm_buffer_bytes(&dev, mat, 4096) + mat * sizeof(float) / 2);
    CHECK(gemm_check_plan(&p, &plan, "", &msg) == 0);
    p.beta = 0.5f;
    CHECK(gemm_check_plan(&p, &plan, "", &msg) == GEMM_EXIT_BAD_INPUT);
    CHECK(strstr(msg.text, "CL_DEVICE_GLOBAL_MEM_SIZE"));
    p.beta = 0.0f;
    // - vectors of WIDTH floats need buffers aligned to WIDTH*4 bytes (CL_DEVICE_MEM_BASE_ADDR_ALIGN)
    CHECK(gemm_require_width(&msg, &p, 8) == 0); // 128 bytes
    dev.base_align = 8;
    CHECK(gemm_require_width(&msg, &p, 2) == 0);
    CHECK(gemm_require_width(&msg, &p, 4) == GEMM_EXIT_BAD_INPUT);
    CHECK(strstr(msg.text, "WIDTH=4 needs buffers aligned to 16 bytes") && strstr(msg.text, "CL_DEVICE_MEM_BASE_ADDR_ALIGN"));
    CHECK(gemm_require_width(&msg, &p, 3) == GEMM_EXIT_BAD_INPUT);
}

// The figures the report prints: the median is a median, GFLOPS come from the median (best in
// parentheses), and the seed reaches the data.
static void test_figures(void)
{
    const double odd[3] = {1, 2, 100}, even[4] = {100, 1, 3, 2};
    CHECK(gemm_median(odd, 3) == 2.0 && gemm_median(even, 4) == 2.5); // the means are 34.3 and 26.5
    gemm_report r;
    memset(&r, 0, sizeof r);
    r.step = "s";
    r.m = r.n = r.k = 1000;
    r.median_ms = 2.0;
    r.best_ms = 1.0;
    r.nparts = 1;
    r.part[0].label = "sgemm";
    r.head_printed = 1;
    char text[4096] = "";
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (f) {
        gemm_report_print(f, &r);
        rewind(f);
        text[fread(text, 1, sizeof text - 1, f)] = '\0';
        fclose(f);
    }
    CHECK(strstr(text, "median     2.0000 ms   best     1.0000 ms   1000.00 GFLOPS (best 2000.00)") != NULL);
    float x[64], y[64];
    gemm_fill_uniform(x, 64, 7, 0);
    gemm_fill_uniform(y, 64, 8, 0);
    CHECK(memcmp(x, y, sizeof x) != 0); // another seed, other data
}

// A build log's positions given in the reader's file: the names each compiler gives the source,
// PoCL 3's severity first, and what must stay as it is (the -D defines' <built-in>, a source line)
static void test_build_log(void)
{
    static const struct {
        const char *log, *named;
    } cases[] = {
        {"<kernel>:83:16: error: use of undeclared identifier 'x'\n", "my.cl:83:16: error: use of undeclared identifier 'x'\n"},
        {"error: /root/.cache/pocl/kcache/tempfile_jMSKWj.cl:8:12: use of undeclared identifier 'x'",
         "my.cl:8:12: error: use of undeclared identifier 'x'"},
        {"/tmp/pocl/kcache/AB/tempfile_q1.cl:3:1: warning: unused\n  float y;\n  ^\n",
         "my.cl:3:1: warning: unused\n  float y;\n  ^\n"},
        {"input.cl:35:49: error: a\ninput.cl:35:24: error: b\n", "my.cl:35:49: error: a\nmy.cl:35:24: error: b\n"},
        {"<program source>:2:3: error: e", "my.cl:2:3: error: e"},
        {"error: /x/kcache/tempfile_e6.cl:23:24 <Spelling=<command line>:6:15>: expected ')'",
         "my.cl:23:24 <Spelling=<command line>:6:15>: error: expected ')'"},
        {"<kernel>:1:2 <x:1:2: y", "<kernel>:1:2 <x:1:2: y"},
        {"<built-in>:1:9: note: previous definition is here\n", "<built-in>:1:9: note: previous definition is here\n"},
        {"  a ? b:1:2: c\nDevice x failed to build the program\n\n", "  a ? b:1:2: c\nDevice x failed to build the program\n\n"},
        {"other.h:4:5: error: e\n", "other.h:4:5: error: e\n"},
        {"", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *named = gemm_cl_name_log(cases[i].log, "my.cl");
        CHECK(named != NULL && strcmp(named, cases[i].named) == 0);
        if (named && strcmp(named, cases[i].named) != 0)
            fprintf(stderr, "  log '%s' became '%s'\n", cases[i].log, named);
        free(named);
    }
}

int main(int argc, char **argv)
{
    static const test_group groups[] = {{"options", test_options},
                                        {"tolerance", test_tolerance},
                                        {"reference", test_reference},
                                        {"constraints", test_constraints},
                                        {"figures", test_figures},
                                        {"build_log", test_build_log}};
    return run_groups(groups, sizeof groups / sizeof groups[0], argc, argv);
}
