/* The runner: gemm_step_main() is the table of contents of every step's run. Each phase is a
 * function in a file named after it (run_options.c ... run_report.c); they hand on one struct,
 * #gemm_run (gemm_run.h), whose fields say which phase fills them. */
#include <stdlib.h>
#include <string.h>

#include "gemm_progress.h"
#include "gemm_run.h"
#include "gemm_watchdog.h"

/* [phases] */
int gemm_step_main(const gemm_step *step, int argc, char **argv)
{
    gemm_run r;
    memset(&r, 0, sizeof r);
    r.step = step;
    gemm_set_program_name(step->name);

    int rc = run_options(&r, argc, argv); /*  1. the command line, the kernel file */
    if (r.finished)
        return rc; /* --help, --version, --list-devices, or a bad option: said already */
    if (!rc)
        rc = run_device(&r); /*  2. which OpenCL device */
    if (!rc)
        rc = run_params(&r); /*  3. the step's parameters and the problem */
    if (!rc)
        rc = run_plan(&r); /*  4. the step's launches, or its refusal */
    if (!rc)
        rc = run_checks(&r); /*  5. the plan against the device and the host's memory */
    if (!rc) {
        run_report_head(&r); /*     what will run, printed before the long part */
        rc = run_build(&r);  /*  6. context, queue, program, kernels */
    }
    if (!rc)
        rc = run_data(&r); /*  7. random matrices, the reference, device buffers */
    if (!rc)
        rc = run_timed(&r); /*  8. warm-up and timed runs, C read back */
    if (!rc)
        rc = run_verify(&r); /*  9. guards, inputs, every element of C */
    if (!rc)
        rc = run_exact(&r); /* 9b. twice more, on integers and 14-bit values: every element exact */
    if (!rc)
        rc = run_report(&r); /* 10. the report and its exit code */

    gemm_progress_stop();
    if (rc && rc != GEMM_EXIT_VERIFY_FAILED)
        gemm_error("%s", r.msg.text);
    gemm_run_release(&r);
    gemm_watchdog_stop();
    return gemm_output_finish(rc);
}
/* [phases] */

void gemm_run_release(gemm_run *r)
{
    /* A run that failed part-way may have left launches queued (a later one refused, or the
     * arguments of one wrong): they must finish before their kernels and buffers go, within the
     * limit of a run (a queued kernel may never end) */
    if (r->cl.queue) {
        gemm_running_set("the work left on the device's queue");
        gemm_msg ignored;
        gemm_watchdog_arm(&ignored); /* without its thread, the wait is merely unwatched */
        clFinish(r->cl.queue);
        gemm_watchdog_disarm();
    }
    for (int i = 0; i < GEMM_MAX_LAUNCHES; i++) {
        if (r->kernel[i])
            clReleaseKernel(r->kernel[i]);
        free(r->part[i]);
    }
    for (int b = 0; b < GEMM_BUF_COUNT; b++)
        gemm_buffer_release(&r->buf[b]);
    if (r->c_initial)
        clReleaseMemObject(r->c_initial);
    gemm_cl_close(&r->cl);
    gemm_host_data_free(&r->data);
    gemm_reference_free(&r->ref);
    free(r->result);
    free(r->times);
    free(r->file_source);
}
