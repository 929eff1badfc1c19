/* 2. Device: the one --platform and --device name, or the first GPU, else the first device
 * (gemm_cl.h). */
#include "gemm_run.h"

int run_device(gemm_run *r) { return gemm_select_device(r->opt.platform, r->opt.device, &r->dev, &r->msg); }
