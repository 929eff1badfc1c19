/**
 * @file gemm_params.h
 * @brief Default kernel parameters per step and per class of device: the one table to edit
 * when tuning for new hardware.
 *
 * The table lives in gemm_params.c. A row gives a step's defaults for one device class (or for
 * all, as a fallback); the harness applies the "all" row, then the row of the device's class,
 * then the user's `-D NAME=VALUE` overrides. The values for NVIDIA GPUs were chosen by
 * measurement on an H200 (lab/README.md records what was tried); the CPU values by
 * measurement on PoCL.
 */
#ifndef GEMM_PARAMS_H
#define GEMM_PARAMS_H

#include "gemm_cl.h"
#include "gemm_options.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Adds the default parameters of @p step on a device of class @p cls to @p out.
 * @return 0, or #GEMM_EXIT_BAD_INPUT if the table has a malformed row (a bug).
 */
int gemm_params_defaults(const char *step, gemm_device_class cls, gemm_defines *out, gemm_msg *msg);

/** @brief Default matrix size (M = N = K) for a device class: 4096 on GPUs, 1024 otherwise. */
long gemm_default_size(gemm_device_class cls);

/** @brief Default timed runs for a device class. */
int gemm_default_repeat(gemm_device_class cls);

/** @brief Default warm-up runs for a device class. */
int gemm_default_warmup(gemm_device_class cls);

#ifdef __cplusplus
}
#endif

#endif /* GEMM_PARAMS_H */
