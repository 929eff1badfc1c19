#include "gemm_params.h"

#include <string.h>

/* Which rows apply: ANY first, then the device's own class. */
#define ANY (-1)

/* The defaults table. Keep it small: one row per step for all devices, and a row per device
 * class only where measurements showed that class wants something else. */
static const struct {
    const char *step;
    int cls;              /* a gemm_device_class, or ANY */
    const char *defines;  /* "NAME=VALUE ..." */
} table[] = {
    /* ANY rows: generic values, what other GPUs (AMD, Intel, ...) start from. Each fits a GPU
     * that allows 256 work-items per work-group and 32 KiB of local memory (many AMD, Intel and
     * Apple GPUs; OpenCL's minimum local memory), so every step runs there with its defaults
     * (tests: defaults.gpu_row_fits_small_gpu.*). Step 4's is the fastest such tile of the H200
     * sweep (nvidia-h200-run4.csv: 64 x 32, 256 work-items), which is also NVIDIA's.
     * CPU rows: the best of the PoCL sweeps in lab/tuning/pocl-cpu-tune.csv (2-core Xeon, 512^3).
     * NVIDIA rows: the best of the sweeps in lab/tuning/nvidia-h200-run4.csv (H200, 4096^3) for
     * steps 1-5 and of nvidia-h100-run8.csv and -run9-plain.csv (H100, 4096^3) for steps 7 and 8,
     * except step 6, which takes smaller tiles and blocks than step 5, to waste less in
     * zero-padding and to keep the waves even above a multiple of the tiles: chosen by its lowest
     * rate over 3968-4224 in nvidia-h200-run7.csv (lab/README.md, "Tuning record"). Step 9 takes
     * step 8's tiles and chooses SLICES per problem (SLICES=0); GROUPS_PER_CU is how many of its
     * sgemm work-groups fit a compute unit: 2 on NVIDIA (221 registers x 128 work-items, in
     * 65536), 1 on a CPU (PoCL runs one work-group per core); the model was set in run 13 and
     * checked in run 14 (nvidia-h100-run13/14-split-rows.csv), its cost of unpad changed in run 20
     * (nvidia-h100-run20-direct-store.csv). Step 10 (asynchronous copies) takes TSK = 8 and a ring of 3
     * tiles, copied with cp.async on NVIDIA: 166 registers, so 3 work-groups per multiprocessor
     * (nvidia-h100-run17-async-copy.csv); elsewhere async_work_group_copy (COPY=0). The NVIDIA
     * row says COPY=2: cp.async where the GPU has it (compute capability 8.0+), else COPY=0, so
     * that older NVIDIA GPUs (Turing's T4, say) run step 10 with their defaults. */
    {"kernel01_naive", ANY, "TS=16"},
    {"kernel01_naive", GEMM_DEVICE_NVIDIA_GPU, "TS=32"},
    {"kernel02_tiled", ANY, "TS=16"},
    {"kernel02_tiled", GEMM_DEVICE_CPU, "TS=32"},
    {"kernel02_tiled", GEMM_DEVICE_NVIDIA_GPU, "TS=32"},
    {"kernel03_vectorized", ANY, "TS=32 WIDTH=4"},
    {"kernel03_vectorized", GEMM_DEVICE_CPU, "TS=32 WIDTH=8"},
    {"kernel03_vectorized", GEMM_DEVICE_NVIDIA_GPU, "TS=64 WIDTH=4"},
    {"kernel04_transpose", ANY, "TSM=64 TSN=32 TSK=32 WIDTH=8 TRANSPOSE_TILE=16 TRANSPOSE_PAD=1"},
    {"kernel04_transpose", GEMM_DEVICE_CPU, "TSM=64 TSN=64 TSK=16 WIDTH=8"},
    {"kernel05_register_blocking", ANY, "TSM=64 TSN=64 TSK=16 WPTM=4 WPTN=8 WIDTH=4 TRANSPOSE_TILE=16 TRANSPOSE_PAD=1"},
    {"kernel05_register_blocking", GEMM_DEVICE_CPU, "TSM=32 TSN=64 WPTM=8 WPTN=8 WIDTH=8"},
    {"kernel05_register_blocking", GEMM_DEVICE_NVIDIA_GPU, "TSM=128 TSN=64 TSK=32 WPTM=8 WPTN=8"},
    {"kernel06_padding", ANY, "TSM=64 TSN=64 TSK=16 WPTM=4 WPTN=8 WIDTH=4 TRANSPOSE_TILE=16 TRANSPOSE_PAD=1"},
    {"kernel06_padding", GEMM_DEVICE_CPU, "TSM=32 TSN=64 WPTM=8 WPTN=8 WIDTH=8"},
    {"kernel06_padding", GEMM_DEVICE_NVIDIA_GPU, "TSM=64 TSN=64 TSK=32 WPTM=4 WPTN=8"},
    {"kernel07_double_buffering", ANY, "TSM=64 TSN=64 TSK=16 WPTM=4 WPTN=8 WIDTH=4 TRANSPOSE_TILE=16 TRANSPOSE_PAD=1"},
    {"kernel07_double_buffering", GEMM_DEVICE_CPU, "TSM=32 TSN=64 WPTM=8 WPTN=8 WIDTH=8"},
    {"kernel07_double_buffering", GEMM_DEVICE_NVIDIA_GPU, "TSM=128 TSN=128 TSK=16 WPTM=8 WPTN=16"},
    {"kernel08_warp_tiling", ANY, "TSM=64 TSN=64 TSK=16 WTM=16 WTN=64 LANE_SQUARES=0 WPTM=4 WPTN=8 WIDTH=4 TRANSPOSE_TILE=16 TRANSPOSE_PAD=1"},
    {"kernel08_warp_tiling", GEMM_DEVICE_CPU, "TSM=32 TSN=64 WTM=32 WTN=64 WPTM=8 WPTN=8 WIDTH=8"},
    {"kernel08_warp_tiling", GEMM_DEVICE_NVIDIA_GPU, "TSM=128 TSN=128 TSK=16 WTM=64 WTN=64 LANE_SQUARES=1 WPTM=16 WPTN=8"},
    {"kernel09_split_k", ANY, "TSM=64 TSN=64 TSK=16 WTM=16 WTN=64 LANE_SQUARES=0 WPTM=4 WPTN=8 WIDTH=4 TRANSPOSE_TILE=16 TRANSPOSE_PAD=1 SLICES=0 SPLIT_ROWS=0 GROUPS_PER_CU=2"},
    {"kernel09_split_k", GEMM_DEVICE_CPU, "TSM=32 TSN=64 WTM=32 WTN=64 WPTM=8 WPTN=8 WIDTH=8 GROUPS_PER_CU=1"},
    {"kernel09_split_k", GEMM_DEVICE_NVIDIA_GPU, "TSM=128 TSN=128 TSK=16 WTM=64 WTN=64 LANE_SQUARES=1 WPTM=16 WPTN=8 GROUPS_PER_CU=2"},
    {"kernel10_async_copy", ANY, "TSM=64 TSN=64 TSK=16 WTM=16 WTN=64 LANE_SQUARES=0 WPTM=4 WPTN=8 WIDTH=4 STAGES=3 COPY=0 TRANSPOSE_TILE=16 TRANSPOSE_PAD=1 SLICES=0 SPLIT_ROWS=0 GROUPS_PER_CU=2"},
    {"kernel10_async_copy", GEMM_DEVICE_CPU, "TSM=32 TSN=64 WTM=32 WTN=64 WPTM=8 WPTN=8 WIDTH=8 STAGES=2 GROUPS_PER_CU=1"},
    {"kernel10_async_copy", GEMM_DEVICE_NVIDIA_GPU, "TSM=128 TSN=128 TSK=8 WTM=64 WTN=64 LANE_SQUARES=1 WPTM=16 WPTN=8 STAGES=3 COPY=2 GROUPS_PER_CU=3"},
    {"kernel11_tensor_cores", ANY, "TSM=64 TSN=64 TSK=8 WTM=16 WTN=64 WPTM=4 WPTN=8 WIDTH=4 STAGES=2 COPY=0 TILE_PAD=0 TC=0 PRODUCTS=3 PROMOTE=1 TRANSPOSE_TILE=16 TRANSPOSE_PAD=1 SLICES=0 SPLIT_ROWS=0 GROUPS_PER_CU=2"},
    {"kernel11_tensor_cores", GEMM_DEVICE_CPU, "TSM=32 TSN=64 TSK=16 WTM=32 WTN=64 WPTM=8 WPTN=8 WIDTH=8 STAGES=2 GROUPS_PER_CU=1"},
    {"kernel11_tensor_cores", GEMM_DEVICE_NVIDIA_GPU, "TSM=128 TSN=128 TSK=8 WTM=64 WTN=64 WPTM=16 WPTN=8 STAGES=4 COPY=2 TILE_PAD=8 TC=2 GROUPS_PER_CU=2"},
    {"kernel12_predication", ANY, "TSM=64 TSN=64 TSK=8 WTM=16 WTN=64 WPTM=4 WPTN=8 WIDTH=4 STAGES=2 COPY=0 TILE_PAD=0 TC=0 PRODUCTS=3 PROMOTE=1 SLICES=0 SPLIT_ROWS=0 GROUPS_PER_CU=2 TILE_BY_SIZE=0"},
    {"kernel12_predication", GEMM_DEVICE_CPU, "TSM=32 TSN=64 TSK=16 WTM=32 WTN=64 WPTM=8 WPTN=8 WIDTH=8 STAGES=2 GROUPS_PER_CU=1"},
    {"kernel12_predication", GEMM_DEVICE_NVIDIA_GPU, "TSM=128 TSN=128 TSK=8 WTM=64 WTN=64 WPTM=16 WPTN=8 STAGES=4 COPY=2 TILE_PAD=4 TC=2 GROUPS_PER_CU=2 TILE_BY_SIZE=1"},
};

int gemm_params_defaults(const char *step, gemm_device_class cls, gemm_defines *out, gemm_msg *msg)
{
    if (cls == GEMM_DEVICE_OTHER)
        cls = GEMM_DEVICE_CPU;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
            if (strcmp(table[i].step, step) != 0)
                continue;
            if ((pass == 0 && table[i].cls == ANY) || (pass == 1 && table[i].cls == (int)cls)) {
                int rc = gemm_defines_apply_list(out, table[i].defines, msg);
                if (rc)
                    return rc;
            }
        }
    }
    return 0;
}

long gemm_default_size(gemm_device_class cls)
{
    return cls == GEMM_DEVICE_NVIDIA_GPU || cls == GEMM_DEVICE_GPU ? 4096 : 1024;
}

int gemm_default_repeat(gemm_device_class cls)
{
    return cls == GEMM_DEVICE_NVIDIA_GPU || cls == GEMM_DEVICE_GPU ? 20 : 3;
}

int gemm_default_warmup(gemm_device_class cls)
{
    return cls == GEMM_DEVICE_NVIDIA_GPU || cls == GEMM_DEVICE_GPU ? 3 : 1;
}
