/* 6. Build: the OpenCL context and queue, the program built with the parameters as -D defines
 * (its build log printed if it fails), and each kernel checked against its launch. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "gemm_progress.h"
#include "gemm_run.h"

/* The parameters as -D defines, plus GEMM_CL_OPTIONS from the environment (e.g. -cl-nv-verbose);
 * refused (exit 2) rather than cut if they do not fit. No -cl-std: PoCL 5.0 (Ubuntu 24.04's), given
 * -cl-std=CL1.2, builds a kernel that calls wait_group_events() (step 10) into a binary that does not
 * load. Without it, each driver builds its default OpenCL C: the highest 1.x, as the OpenCL API
 * specifies, on NVIDIA's (whose compiler report is the same as with -cl-std=CL1.2 for every kernel:
 * lab/tuning/nvidia-h100-cl-std.txt), 3.0 on PoCL's. The kernels are OpenCL C 1.2, which is
 * valid OpenCL C 3.0 too. */
static int build_options(const gemm_defines *params, char *out, size_t len, gemm_msg *msg)
{
    const char *extra = getenv("GEMM_CL_OPTIONS");
    /* A parameter defined again there would reach the kernel unchecked by the host (and disagree
     * with the plan made from the checked value): parameters go through -D on the command line */
    for (const char *d = extra ? strstr(extra, "-D") : NULL; d; d = strstr(d + 2, "-D")) {
        const char *name = d + 2;
        /* the compiler takes -D NAME=8, -DNAME=8 and -D"NAME"=8 (the shell's quotes, written out) alike */
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

/* A compiled kernel against its launch: the work-group it declares (reqd_work_group_size), if any,
 * and the local memory it uses; its own work-group limit is kept for run_timed()'s messages. */
static int check_kernel(gemm_run *r, int i)
{
    const gemm_launch *l = &r->plan.launch[i];
    size_t kernel_wg = 0, declared[3] = {0, 0, 0}; /* reqd_work_group_size, or zeros */
    cl_ulong kernel_local = 0;
    cl_int err = clGetKernelWorkGroupInfo(r->kernel[i], r->dev.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kernel_wg,
                                          &kernel_wg, NULL);
    if (err == CL_SUCCESS)
        err = clGetKernelWorkGroupInfo(r->kernel[i], r->dev.device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof kernel_local,
                                       &kernel_local, NULL);
    if (err == CL_SUCCESS)
        err = clGetKernelWorkGroupInfo(r->kernel[i], r->dev.device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                       sizeof declared, declared, NULL);
    if (err != CL_SUCCESS)
        return gemm_cl_fail(&r->msg, "clGetKernelWorkGroupInfo", err);
    /* A kernel that declares its work-group (reqd_work_group_size) and a plan that launches
     * another one disagree about the kernel: an error of the kernel file, not a device limit
     * (the launch would fail with CL_INVALID_WORK_GROUP_SIZE, as a too large group does) */
    if (declared[0] && (declared[0] != l->local[0] || declared[1] != l->local[1] || declared[2] != 1))
        return gemm_msgf(&r->msg, GEMM_EXIT_BAD_INPUT,
                         "kernel '%s' declares work-groups of %zux%zux%zu (reqd_work_group_size) but this step "
                         "launches %zux%zux1 with these parameters: the kernel file does not match its host; "
                         "parameters: %s",
                         l->kernel, declared[0], declared[1], declared[2], l->local[0], l->local[1], r->params_text);
    /* CL_KERNEL_WORK_GROUP_SIZE is where a compiled kernel's own limit (registers) shows up,
     * but some drivers report a conservative value there (NVIDIA's says 256 for every kernel
     * and runs 1024), so it does not refuse the run: the launch decides, and a refused launch
     * is reported with this number (run_timed.c). */
    r->kernel_wg[i] = kernel_wg;
    if (kernel_local > r->dev.local_mem)
        return gemm_msgf(&r->msg, GEMM_EXIT_BAD_INPUT,
                         "compiled kernel '%s' uses %lu bytes of local memory but the device has %lu; parameters: %s",
                         l->kernel, (unsigned long)kernel_local, (unsigned long)r->dev.local_mem, r->params_text);
    return 0;
}

int run_build(gemm_run *r)
{
    gemm_progress_set("setting up the OpenCL device");
    int rc = gemm_cl_open(&r->cl, &r->dev, &r->msg);
    if (rc || r->step->library)
        return rc;
    char options[GEMM_BUILD_OPTIONS_MAX];
    rc = build_options(&r->params, options, sizeof options, &r->msg);
    if (rc)
        return rc;
    gemm_progress_set("building the OpenCL program");
    rc = gemm_cl_build(&r->cl, r->file_source ? r->file_source : r->step->source,
                       r->file_source ? r->opt.kernel_file : r->step->source_file, options, &r->msg);
    for (int i = 0; !rc && i < r->plan.nlaunches; i++) {
        const gemm_launch *l = &r->plan.launch[i];
        rc = gemm_cl_kernel(&r->cl, l->kernel, &r->kernel[i], &r->msg);
        if (!rc)
            rc = gemm_cl_kernel_args(r->kernel[i], l->kernel, l->nargs, r->step->name, &r->msg);
        if (!rc)
            rc = check_kernel(r, i);
    }
    return rc;
}
