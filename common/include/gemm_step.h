/**
 * @file gemm_step.h
 * @brief What a step tells the harness, and the one function that runs it.
 *
 * A step (kernel01_naive ... kernel10_async_copy) is a kernel file plus a short main.c that
 * describes it with a #gemm_step: its parameters, and a @c plan function that, for one problem
 * and one set of parameter values, either refuses (a size or parameter the kernel cannot
 * handle: one line, exit 2) or lists the kernel launches: which kernel, which arguments, what
 * global and local sizes, how much local memory, and which helper buffers they need (gemm_plan.h;
 * the checks and plans that belong to one step's idea are in gemm_step_rules.h).
 *
 * gemm_step_main() does everything else, identically for every step, in ten phases: options,
 * device, parameters, plan, checks, build, data, timed runs, verify, report. gemm_run.h lists
 * them, each in a file of its own, with the struct they hand on; the harness page walks through
 * them in the same order.
 */
#ifndef GEMM_STEP_H
#define GEMM_STEP_H

#include "gemm_cl.h"
#include "gemm_plan.h"

#ifdef __cplusplus
extern "C" {
#endif
/**
 * @brief A library peer (e.g. CLBlast) in place of a plan: enqueue C = alpha*A*B + beta*C on
 * @p queue with the given buffers and return the event of the last command in @p done.
 * Such a run is timed from the end of the command before it to the end of @p done.
 */
typedef int (*gemm_library_fn)(const gemm_problem *p, cl_command_queue queue, cl_mem a, cl_mem b, cl_mem c,
                               cl_event *done, gemm_msg *msg);

/** @brief A step (or an OpenCL library peer), as the harness sees it. */
typedef struct gemm_step {
    const char *name;                /**< "kernel02_tiled" */
    const char *summary;             /**< one line: the idea the step adds */
    const char *source;              /**< the kernel source embedded at build time */
    const gemm_param_info *params;   /**< the parameters the kernel takes as -D defines */
    int nparams;                     /**< how many */
    int (*plan)(const gemm_problem *p, gemm_plan *plan, gemm_msg *msg); /**< launches, or a refusal */
    gemm_library_fn library;         /**< instead of source and plan: a library call */
    const char *source_file;         /**< the embedded kernel's file from the source root, for the build log, or NULL */
} gemm_step;

/**
 * @brief Checks a plan against the device in @p p: every launch's work-group size, work-item
 * sizes and local memory, every buffer against the largest allocation and the 32-bit index
 * range, and all buffers together against the device's memory.
 * @param p the problem, with the chosen device
 * @param plan the launches and helper buffers the step's plan produced
 * @param params the parameters as text, quoted in messages
 * @param msg filled with one line when the plan is refused
 * @return 0, or #GEMM_EXIT_BAD_INPUT with one line in @p msg naming the limit and the values.
 */
int gemm_check_plan(const gemm_problem *p, const gemm_plan *plan, const char *params, gemm_msg *msg);

/** @brief Runs a step as described in the file comment. @return the process exit code. */
int gemm_step_main(const gemm_step *step, int argc, char **argv);

/** @brief The kernel source that CMake's gemm_add_step() embeds into every step's executable. */
extern const char gemm_kernel_source[];

#ifndef GEMM_KERNEL_FILE
/** @brief The step's kernel file from the source root (CMake's gemm_add_step() defines it). */
#define GEMM_KERNEL_FILE NULL
#endif

/**
 * @brief Defines a step's main(): the step's name comes from CMake (GEMM_STEP_NAME), the source
 * from the embedded kernel file (GEMM_KERNEL_FILE); @p summary, @p params (an array) and
 * @p plan_fn from main.c.
 */
#define GEMM_STEP_MAIN(summary, params, plan_fn)                                                          \
    int main(int argc, char **argv)                                                                       \
    {                                                                                                     \
        static const gemm_step step = {GEMM_STEP_NAME, summary, gemm_kernel_source, params,              \
                                       (int)(sizeof(params) / sizeof((params)[0])), plan_fn, NULL,        \
                                       GEMM_KERNEL_FILE};                                                 \
        return gemm_step_main(&step, argc, argv);                                                         \
    }

#ifdef __cplusplus
}
#endif

#endif /* GEMM_STEP_H */
