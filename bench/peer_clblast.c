// Peer: CLBlast's SGEMM on the same device, with the same buffers, data, timing and check as the
// steps (the harness runs it exactly like a step, through gemm_step_main()).
#include <clblast_c.h>

#include "gemm_step.h"

static int clblast_sgemm(const gemm_problem *p, cl_command_queue queue, cl_mem a, cl_mem b, cl_mem c,
                         cl_event *done, gemm_msg *msg)
{
    // Row-major, no transposes, leading dimensions K, N, N: the same layout as the steps.
    CLBlastStatusCode status =
        CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, (size_t)p->m, (size_t)p->n,
                     (size_t)p->k, p->alpha, a, 0, (size_t)p->k, b, 0, (size_t)p->n, p->beta, c, 0, (size_t)p->n,
                     &queue, done);
    if (status != CLBlastSuccess)
        return gemm_msgf(msg, GEMM_EXIT_RUNTIME, "CLBlastSgemm failed with status %d", (int)status);
    return 0;
}

int main(int argc, char **argv)
{
    static const gemm_step step = {"clblast", "CLBlast's SGEMM (row-major) on the same device and buffers",
                                   NULL, NULL, 0, NULL, clblast_sgemm, NULL};
    const int rc = gemm_step_main(&step, argc, argv);
    // CLBlast keeps the programs it compiled, and with them the context, until its cache is cleared
    CLBlastClearCache();
    return rc;
}
