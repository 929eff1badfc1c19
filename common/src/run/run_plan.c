/* 4. Plan: the step's launches and helper buffers for this problem, or its refusal in one line
 * (gemm_plan.h). A library peer has no launches of ours: it gets a plan of one stand-in. */
#include "gemm_run.h"

int run_plan(gemm_run *r)
{
    gemm_plan *plan = &r->plan;
    if (r->step->library) {
        gemm_plan_temp(plan, GEMM_BUF_T0, NULL, 0);
        plan->nlaunches = 1;
        plan->launch[0].kernel = r->step->name;
        plan->launch[0].label = r->step->name;
        plan->launch[0].global[0] = plan->launch[0].global[1] = 1;
        plan->launch[0].local[0] = plan->launch[0].local[1] = 1;
        return 0;
    }
    int rc = r->step->plan(&r->prob, plan, &r->msg);
    /* the parameters the plan chose (step 9's SLICES=0 ...): reported and built with their values */
    for (int i = 0; !rc && i < GEMM_MAX_CHOSEN && plan->chosen[i]; i++)
        rc = gemm_defines_set(&r->params, plan->chosen[i], plan->chosen_value[i], &r->msg);
    if (!rc)
        gemm_defines_format(&r->params, r->params_text, sizeof r->params_text);
    return rc;
}
