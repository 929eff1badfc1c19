/* 3. Parameters: the step's defaults for the device's class (gemm_params.h), then the user's
 * -D overrides, each in its range; and the problem the plan is made for. */
#include <stdlib.h>
#include <string.h>

#include "gemm_params.h"
#include "gemm_run.h"

/* Parameters: the step's defaults for this device, then the user's overrides, each in range. */
static int resolve_params(const gemm_step *step, const gemm_options *opt, const gemm_device_info *dev,
                          gemm_defines *params, gemm_msg *msg)
{
    memset(params, 0, sizeof *params);
    gemm_device_class cls = dev->cls;
    /* --defaults-for, else GEMM_DEFAULTS_FOR (how the whole test suite runs with another class's
     * defaults, tests/run.sh --small-gpu), else the device's own class */
    const char *defaults_for = opt->defaults_for;
    if (!defaults_for) {
        const char *env = getenv("GEMM_DEFAULTS_FOR");
        if (env && *env) {
            if (strcmp(env, "cpu") != 0 && strcmp(env, "nvidia-gpu") != 0 && strcmp(env, "gpu") != 0)
                return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "GEMM_DEFAULTS_FOR expects cpu, nvidia-gpu or gpu, got '%s'",
                                 env);
            defaults_for = env;
        }
    }
    if (defaults_for)
        cls = strcmp(defaults_for, "nvidia-gpu") == 0 ? GEMM_DEVICE_NVIDIA_GPU
              : strcmp(defaults_for, "gpu") == 0      ? GEMM_DEVICE_GPU
                                                       : GEMM_DEVICE_CPU;
    int rc = gemm_params_defaults(step->name, cls, params, msg);
    if (rc)
        return rc;
    for (int i = 0; i < opt->defines.count; i++) {
        const gemm_define *d = &opt->defines.item[i];
        int known = 0;
        for (int j = 0; j < step->nparams; j++)
            known |= strcmp(step->params[j].name, d->name) == 0;
        if (!known) {
            char list[256] = "";
            for (int j = 0; j < step->nparams; j++) {
                strncat(list, j ? ", " : "", sizeof list - strlen(list) - 1);
                strncat(list, step->params[j].name, sizeof list - strlen(list) - 1);
            }
            if (step->nparams == 0)
                return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "-D %s: %s has no parameters", d->name, step->name);
            return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "-D %s: %s has no parameter named %s (its parameters: %s)",
                             d->name, step->name, d->name, list);
        }
        rc = gemm_defines_set(params, d->name, d->value, msg);
        if (rc)
            return rc;
    }
    for (int j = 0; j < step->nparams; j++) {
        const gemm_param_info *pi = &step->params[j];
        long v;
        if (!gemm_defines_find(params, pi->name, &v))
            return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "parameter %s has no default for this device; give it with -D %s=VALUE",
                             pi->name, pi->name);
        if (v < pi->min || v > pi->max)
            return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "%s=%ld is out of range: %s must be from %ld to %ld (%s)", pi->name,
                             v, pi->name, pi->min, pi->max, pi->help);
    }
    return 0;
}

int run_params(gemm_run *r)
{
    const gemm_options *opt = &r->opt;
    int rc = resolve_params(r->step, opt, &r->dev, &r->params, &r->msg);
    if (rc)
        return rc;
    gemm_defines_format(&r->params, r->params_text, sizeof r->params_text);
    const long size = gemm_default_size(r->dev.cls);
    gemm_problem *prob = &r->prob;
    prob->step = r->step->name;
    prob->m = opt->m ? opt->m : size;
    prob->n = opt->n ? opt->n : size;
    prob->k = opt->k ? opt->k : size;
    prob->alpha = (float)opt->alpha;
    prob->beta = (float)opt->beta;
    prob->params = &r->params;
    prob->device = &r->dev;
    r->repeat = opt->repeat ? opt->repeat : gemm_default_repeat(r->dev.cls);
    r->warmup = opt->warmup >= 0 ? opt->warmup : gemm_default_warmup(r->dev.cls);
    return 0;
}
