/* A step's own plan() and default parameters, printed as JSON, without a device: what the test of
 * the site's diagrams (docs/tests/test_geometry.py) compares the step descriptors with. Built once
 * per step by docs/CMakeLists.txt with GEMM_PLAN_DUMP_MAIN set to the step's main.c, which is
 * included here with GEMM_STEP_MAIN redefined to keep the step's parameters and plan instead of
 * defining main(): the plan that runs is the step's, unchanged.
 *
 *   plan_dump_<step> --defaults
 *       {"cpu": {"TS": 32}, "nvidia-gpu": {...}, "gpu": {...}}: the step's defaults per device class
 *       (common/src/gemm_params.c), the parameters listed in main.c
 *   plan_dump_<step> [--compute-units N] [--max-alloc BYTES] [--compute-capability CC] M N K [NAME=VALUE ...]
 *       {"launches": [{"kernel", "label", "global", "local", "local_mem", "args"}], "temps": [...],
 *        "chosen": {"NAME": value}} for the plan with the "gpu" defaults overridden by NAME=VALUE
 *       (ranges are not checked: the runner does that before a plan runs), or {"refused": "message"}
 *       and exit 2; "chosen" holds the parameters the plan chose itself (step 9's SLICES=0, SPLIT_ROWS=0, step 10's COPY=2), if any.
 *   plan_dump_<step> --batch
 *       the same for each line of stdin, which holds the arguments above (without --defaults), one JSON
 *       line each; a wrong line ends the run as it would end a single one (test_geometry.py runs
 *       thousands of plans through one process per step)
 * The device the plan sees guarantees every alignment and, unless --compute-capability says otherwise
 * (major*10 + minor; 0: not an NVIDIA GPU), has every instruction a step may need (an NVIDIA compute
 * capability of 9.0), so only the step's own rules refuse; it has the compute units and the largest
 * allocation given (0 by default), which step 9's choice of SLICES reads. */
#include "gemm_params.h"
#include "gemm_step.h"
#include "gemm_step_rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*plan_fn)(const gemm_problem *p, gemm_plan *plan, gemm_msg *msg);

#undef GEMM_STEP_MAIN
#define GEMM_STEP_MAIN(summary, params_, plan_)                                                             \
    static const char dump_summary[] = summary;                                                             \
    static const gemm_param_info *const dump_params = params_;                                              \
    static const int dump_nparams = (int)(sizeof(params_) / sizeof((params_)[0]));                          \
    static const plan_fn dump_plan = plan_;

#include GEMM_PLAN_DUMP_MAIN

static void print_json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            putchar('\\');
        putchar(*s);
    }
    putchar('"');
}

static int print_defaults(void)
{
    static const gemm_device_class classes[] = {GEMM_DEVICE_CPU, GEMM_DEVICE_NVIDIA_GPU, GEMM_DEVICE_GPU};
    printf("{");
    for (size_t c = 0; c < sizeof classes / sizeof classes[0]; c++) {
        gemm_defines d = {0};
        gemm_msg msg;
        if (gemm_params_defaults(GEMM_STEP_NAME, classes[c], &d, &msg) != 0) {
            fprintf(stderr, "plan_dump: %s\n", msg.text);
            return GEMM_EXIT_RUNTIME;
        }
        printf("%s\"%s\": {", c ? ", " : "", gemm_device_class_name(classes[c]));
        for (int i = 0; i < dump_nparams; i++) {
            long v = 0;
            if (!gemm_defines_find(&d, dump_params[i].name, &v)) {
                fprintf(stderr, "plan_dump: no default for %s on %s\n", dump_params[i].name,
                        gemm_device_class_name(classes[c]));
                return GEMM_EXIT_RUNTIME;
            }
            printf("%s\"%s\": %ld", i ? ", " : "", dump_params[i].name, v);
        }
        printf("}");
    }
    printf("}\n");
    return 0;
}

static void print_launch(const gemm_launch *l)
{
    printf("{\"kernel\": ");
    print_json_string(l->kernel);
    printf(", \"label\": ");
    print_json_string(l->label);
    printf(", \"global\": [%zu, %zu], \"local\": [%zu, %zu], \"local_mem\": %zu, \"args\": [", l->global[0],
           l->global[1], l->local[0], l->local[1], l->local_mem_bytes);
    for (int i = 0; i < l->nargs; i++) {
        const gemm_arg *a = &l->arg[i];
        if (a->kind == GEMM_ARG_INT)
            printf("%s%d", i ? ", " : "", a->i);
        else if (a->kind == GEMM_ARG_FLOAT)
            printf("%s%.9g", i ? ", " : "", (double)a->f);
        else
            printf("%s\"buffer %d\"", i ? ", " : "", (int)a->buffer);
    }
    printf("]}");
}

/* One plan, for the arguments after argv[0] (those of the command line without --defaults or --batch):
 * prints its JSON line, sets *refused where the plan refuses, and returns 0; where the arguments are
 * wrong, prints nothing, writes a message on stderr and returns the exit code */
static int dump(int argc, char **argv, int *refused)
{
    gemm_device_info device;
    memset(&device, 0, sizeof device);
    device.base_align = 4096;
    snprintf(device.name, sizeof device.name, "plan_dump's device"); /* named in refusals */
    device.nv_compute_capability = 90; /* every instruction a step may ask for (step 10's cp.async) */
    while (argc >= 3 && (strcmp(argv[1], "--compute-units") == 0 || strcmp(argv[1], "--max-alloc") == 0 ||
                         strcmp(argv[1], "--compute-capability") == 0)) {
        if (strcmp(argv[1], "--compute-units") == 0)
            device.compute_units = (cl_uint)strtoul(argv[2], NULL, 10);
        else if (strcmp(argv[1], "--compute-capability") == 0)
            device.nv_compute_capability = (cl_uint)strtoul(argv[2], NULL, 10);
        else
            device.max_alloc = (cl_ulong)strtoull(argv[2], NULL, 10);
        argc -= 2;
        argv += 2;
    }
    if (argc < 4) {
        fprintf(stderr, "usage: plan_dump_%s --defaults | [--compute-units N] [--max-alloc BYTES] "
                "[--compute-capability CC] M N K [NAME=VALUE ...]   (%s)\n", GEMM_STEP_NAME, dump_summary);
        return GEMM_EXIT_BAD_INPUT;
    }
    gemm_msg msg = {{0}};
    gemm_defines params = {0};
    if (gemm_params_defaults(GEMM_STEP_NAME, GEMM_DEVICE_GPU, &params, &msg) != 0) {
        fprintf(stderr, "plan_dump: %s\n", msg.text);
        return GEMM_EXIT_RUNTIME;
    }
    for (int i = 4; i < argc; i++) {
        gemm_define d;
        if (gemm_define_parse(argv[i], &d, &msg) != 0 || gemm_defines_set(&params, d.name, d.value, &msg) != 0) {
            fprintf(stderr, "plan_dump: %s\n", msg.text);
            return GEMM_EXIT_BAD_INPUT;
        }
    }
    gemm_problem p = {GEMM_STEP_NAME, atol(argv[1]), atol(argv[2]), atol(argv[3]), 1.0f, 0.0f, &params, &device};
    gemm_plan plan;
    memset(&plan, 0, sizeof plan);
    if (dump_plan(&p, &plan, &msg) != 0) {
        printf("{\"refused\": ");
        print_json_string(msg.text);
        printf("}\n");
        *refused = 1;
        return 0;
    }
    printf("{\"launches\": [");
    for (int i = 0; i < plan.nlaunches; i++) {
        printf("%s", i ? ", " : "");
        print_launch(&plan.launch[i]);
    }
    printf("], \"temps\": [");
    for (int i = 0; i < GEMM_MAX_TEMPS; i++)
        printf("%s%zu", i ? ", " : "", plan.temp_elems[i]);
    printf("], \"chosen\": {");
    for (int i = 0; i < GEMM_MAX_CHOSEN && plan.chosen[i]; i++) {
        printf("%s", i ? ", " : "");
        print_json_string(plan.chosen[i]);
        printf(": %ld", plan.chosen_value[i]);
    }
    printf("}}\n");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--defaults") == 0)
        return print_defaults();
    int refused = 0;
    if (argc != 2 || strcmp(argv[1], "--batch") != 0) {
        int status = dump(argc, argv, &refused);
        return status ? status : refused ? GEMM_EXIT_BAD_INPUT : 0;
    }
    /* --batch: one query a line, its arguments separated by blanks, one JSON line each (flushed, so
     * that the test can keep one process per step for thousands of plans); a wrong line ends the run
     * with its message and code */
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        char *args[64] = {argv[0]};
        int n = 1;
        for (char *word = strtok(line, " \t\r\n"); word; word = strtok(NULL, " \t\r\n")) {
            if (n == (int)(sizeof args / sizeof args[0])) {
                fprintf(stderr, "plan_dump: more than %d arguments on a line of --batch\n", n - 1);
                return GEMM_EXIT_BAD_INPUT;
            }
            args[n++] = word;
        }
        int status = dump(n, args, &refused);
        if (status)
            return status;
        fflush(stdout);
    }
    return 0;
}
