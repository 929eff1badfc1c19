// Peer: cuBLAS's SGEMM on an NVIDIA GPU through CUDA, with the same options, data, runs, check
// and report as the steps, so the benchmark can put the vendor's own library beside them.
//
// Host code only (compiled by the C compiler, linked with cuBLAS and the CUDA runtime).
//
// Row-major through a column-major library: cuBLAS, like every BLAS, stores matrices by
// columns. A row-major matrix read by columns is its transpose, with the same leading dimension
// (its number of columns). So our row-major C (M x N, leading dimension N) is, to cuBLAS, the
// column-major matrix C^T (N x M). Since C^T = (A B)^T = B^T A^T, we ask cuBLAS for the
// column-major product B^T A^T: its first operand is our B (to cuBLAS: B^T, N x K, leading
// dimension N), its second our A (to cuBLAS: A^T, K x M, leading dimension K), both without
// transposition, with the sizes given as (N, M, K). No data is moved or transposed; the
// result lands in C exactly as the steps write it.
//
// FP32 only (the program `cublas`). cublasSgemm computes in FP32 (compute type CUBLAS_COMPUTE_32F)
// unless the handle's math mode or the environment lets it use TF32 tensor cores, whose 10-bit
// mantissas would make the comparison meaningless (and might still pass the tolerance at large K).
// We set CUBLAS_DEFAULT_MATH explicitly rather than rely on the default: it is cuBLAS's fastest
// mode that keeps at least FP32 precision in every operation, i.e. the fair baseline for FP32
// kernels. CUBLAS_PEDANTIC_MATH would also keep FP32 but is meant for numerical studies and
// debugging ("standardized arithmetic for all phases"); it may rule out some of cuBLAS's fast
// paths and so understate what the library does in normal use. Two environment variables can
// still override the handle's mode (NVIDIA_TF32_OVERRIDE for TF32, CUBLAS_EMULATE_SINGLE_PRECISION
// for the BF16x9 emulation of FP32): the program refuses to run if either is set to a value
// other than 0.
//
// TF32 (the program `cublas_tf32`, this file built with GEMM_CUBLAS_TF32): the same cublasSgemm
// with the handle's math mode CUBLAS_TF32_TENSOR_OP_MATH, which lets cuBLAS round A and B to TF32
// (10-bit mantissas) and multiply them on the tensor cores, accumulating in FP32: what a library
// reaches when FP32 accuracy is given up, beside step 11, which reaches the tensor cores and keeps
// it. Its result is not FP32-accurate: the harness's check fails it (FAIL, exit 1), and the
// benchmark and the tour show that as its accuracy. NVIDIA_TF32_OVERRIDE=0 would turn TF32 off
// (it overrides the handle's mode in every NVIDIA library) and CUBLAS_EMULATE_SINGLE_PRECISION
// would change what is computed: this program refuses the first set to 0 and the second set to
// anything but 0. (NVIDIA_TF32_OVERRIDE set to another value changes nothing here: TF32 is on.)
//
// Timing: CUDA events recorded on the stream just before and just after the cublasSgemm call;
// the time between them is the device time of cuBLAS's work for that call. C is restored before
// every run outside that interval (a device-to-device copy of the pristine C when beta != 0,
// all bytes 0xFF, a NaN, when beta = 0), exactly like the steps.
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemm_params.h"
#include "gemm_peer.h"

#ifdef GEMM_CUBLAS_TF32
#define NAME "cublas_tf32"
#define MATH_MODE CUBLAS_TF32_TENSOR_OP_MATH
#define MATH_MODE_NAME "CUBLAS_TF32_TENSOR_OP_MATH"
#define MATH_TEXT "TF32 tensor cores (CUBLAS_TF32_TENSOR_OP_MATH), not FP32-accurate"
#else
#define NAME "cublas"
#define MATH_MODE CUBLAS_DEFAULT_MATH
#define MATH_MODE_NAME "CUBLAS_DEFAULT_MATH"
#define MATH_TEXT "FP32 (CUBLAS_DEFAULT_MATH, no TF32)"
#endif

static int cuda_fail(gemm_msg *msg, const char *what, cudaError_t err)
{
    return gemm_msgf(msg, GEMM_EXIT_RUNTIME, "%s failed: %s (%s)", what, cudaGetErrorName(err),
                     cudaGetErrorString(err));
}

static int cublas_fail(gemm_msg *msg, const char *what, cublasStatus_t status)
{
    return gemm_msgf(msg, GEMM_EXIT_RUNTIME, "%s failed: %s", what, cublasGetStatusString(status));
}

/* Return #GEMM_EXIT_RUNTIME with one line in msg if a CUDA / cuBLAS call fails. */
#define CHECK_CUDA(what, call)                                                                             \
    do {                                                                                                   \
        cudaError_t err_ = (call);                                                                         \
        if (err_ != cudaSuccess)                                                                           \
            return cuda_fail(msg, what, err_);                                                             \
    } while (0)
#define CHECK_CUBLAS(what, call)                                                                           \
    do {                                                                                                   \
        cublasStatus_t status_ = (call);                                                                   \
        if (status_ != CUBLAS_STATUS_SUCCESS)                                                              \
            return cublas_fail(msg, what, status_);                                                        \
    } while (0)

/* Refuses a variable that would change what this program measures: one that lets cuBLAS trade FP32
 * precision for speed (cublas), or one that turns TF32 off or emulates FP32 (cublas_tf32). */
static int check_environment(gemm_msg *msg)
{
    const char *tf32 = getenv("NVIDIA_TF32_OVERRIDE"), *emulate = getenv("CUBLAS_EMULATE_SINGLE_PRECISION");
#ifdef GEMM_CUBLAS_TF32
    if (tf32 && strcmp(tf32, "0") == 0)
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT,
                         "NVIDIA_TF32_OVERRIDE=0 turns TF32 off in every NVIDIA library, so %s would measure FP32 "
                         "(the program cublas does); unset it to measure the TF32 tensor cores",
                         NAME);
    if (emulate && *emulate && strcmp(emulate, "0") != 0)
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT,
                         "CUBLAS_EMULATE_SINGLE_PRECISION=%s may change what cuBLAS computes; unset it (or set it to "
                         "0) to measure the TF32 tensor cores",
                         emulate);
#else
    const char *const vars[] = {"NVIDIA_TF32_OVERRIDE", "CUBLAS_EMULATE_SINGLE_PRECISION"};
    const char *const values[] = {tf32, emulate};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = values[i];
        if (v && *v && strcmp(v, "0") != 0)
            return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT,
                             "%s=%s may let cuBLAS compute FP32 products in lower precision; unset it (or set it "
                             "to 0) to compare FP32 with FP32",
                             vars[i], v);
    }
#endif
    return 0;
}

/* --device as a CUDA device index (default 0). */
static int device_index(const char *sel, long *want, gemm_msg *msg)
{
    *want = 0;
    if (!sel)
        return 0;
    char *end = NULL;
    errno = 0;
    *want = strtol(sel, &end, 10);
    if (!isdigit((unsigned char)sel[0]) || *end || errno == ERANGE || *want > INT_MAX)
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT,
                         "--device takes a CUDA device index for %s (0, 1, ... in the CUDA runtime's order), got '%s'",
                         NAME, sel);
    return 0;
}

/* The CUDA device for --device. */
static int choose_device(const char *sel, int *index, struct cudaDeviceProp *prop, gemm_msg *msg)
{
    long want = 0;
    int rc = device_index(sel, &want, msg);
    if (rc)
        return rc;
    int count = 0;
    CHECK_CUDA("cudaGetDeviceCount (is there an NVIDIA GPU and driver?)", cudaGetDeviceCount(&count));
    if (want >= count)
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "CUDA device index %ld does not exist (%d device%s)", want, count,
                         count == 1 ? "" : "s");
    *index = (int)want;
    CHECK_CUDA("cudaSetDevice", cudaSetDevice(*index));
    CHECK_CUDA("cudaGetDeviceProperties", cudaGetDeviceProperties(prop, *index));
    return 0;
}

/* "580.159.04 (CUDA 13.0)": the kernel module's version when the system shows it, and the
 * CUDA version the driver supports (cudaDriverGetVersion). */
static int driver_version(char *out, size_t len, gemm_msg *msg)
{
    int v = 0;
    CHECK_CUDA("cudaDriverGetVersion", cudaDriverGetVersion(&v));
    char module[64] = "";
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    if (f) {
        char line[256];
        const char *tag = "Kernel Module";
        /* "... x86_64 Kernel Module  580.159.04  ..." or, for the open module, "... Open Kernel
         * Module for x86_64  580.159.04  ...": the version is the first word after the tag that
         * starts with a digit and has a dot. */
        if (fgets(line, sizeof line, f) && strstr(line, tag)) {
            const char *p = strstr(line, tag) + strlen(tag);
            char word[64];
            int used = 0;
            while (sscanf(p, " %63s%n", word, &used) == 1) {
                if (word[0] >= '0' && word[0] <= '9' && strchr(word, '.')) {
                    snprintf(module, sizeof module, "%s", word);
                    break;
                }
                p += used;
            }
        }
        fclose(f);
    }
    snprintf(out, len, "%s%sCUDA %d.%d%s", module, module[0] ? " (" : "", v / 1000, v % 1000 / 10,
             module[0] ? ")" : "");
    return 0;
}

typedef struct cuda_state {
    cublasHandle_t handle;
    cudaStream_t stream;
    cudaEvent_t start, stop;
    float *a, *b, *c, *c_initial;
} cuda_state;

static void cuda_release(cuda_state *s)
{
    /* Best effort on the way out: nothing useful can be done about a failure here. */
    if (s->handle)
        cublasDestroy(s->handle);
    if (s->start)
        cudaEventDestroy(s->start);
    if (s->stop)
        cudaEventDestroy(s->stop);
    if (s->stream)
        cudaStreamDestroy(s->stream);
    cudaFree(s->a);
    cudaFree(s->b);
    cudaFree(s->c);
    cudaFree(s->c_initial);
}

/* Device buffers with A, B (and the pristine C when beta != 0), a stream, events, the handle. */
static int cuda_setup(cuda_state *s, const gemm_host_data *d, const struct cudaDeviceProp *prop, gemm_msg *msg)
{
    const size_t sa = (size_t)d->m * (size_t)d->k * sizeof(float), sb = (size_t)d->k * (size_t)d->n * sizeof(float),
                 sc = (size_t)d->m * (size_t)d->n * sizeof(float);
    const double total = (double)sa + (double)sb + (double)sc * (d->beta != 0.0f ? 2.0 : 1.0);
    if (total > (double)prop->totalGlobalMem)
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT,
                         "the buffers need %.2f GiB together but %s has %.2f GiB; use smaller sizes",
                         total / 1073741824.0, prop->name, (double)prop->totalGlobalMem / 1073741824.0);
    CHECK_CUDA("cudaMalloc(A)", cudaMalloc((void **)&s->a, sa));
    CHECK_CUDA("cudaMalloc(B)", cudaMalloc((void **)&s->b, sb));
    CHECK_CUDA("cudaMalloc(C)", cudaMalloc((void **)&s->c, sc));
    CHECK_CUDA("cudaMemcpy(A)", cudaMemcpy(s->a, d->a, sa, cudaMemcpyHostToDevice));
    CHECK_CUDA("cudaMemcpy(B)", cudaMemcpy(s->b, d->b, sb, cudaMemcpyHostToDevice));
    if (d->beta != 0.0f) {
        CHECK_CUDA("cudaMalloc(initial C)", cudaMalloc((void **)&s->c_initial, sc));
        CHECK_CUDA("cudaMemcpy(initial C)", cudaMemcpy(s->c_initial, d->c0, sc, cudaMemcpyHostToDevice));
    }
    CHECK_CUDA("cudaStreamCreate", cudaStreamCreate(&s->stream));
    CHECK_CUDA("cudaEventCreate(start)", cudaEventCreate(&s->start));
    CHECK_CUDA("cudaEventCreate(stop)", cudaEventCreate(&s->stop));
    CHECK_CUBLAS("cublasCreate", cublasCreate(&s->handle));
    CHECK_CUBLAS("cublasSetStream", cublasSetStream(s->handle, s->stream));
    CHECK_CUBLAS("cublasSetMathMode(" MATH_MODE_NAME ")", cublasSetMathMode(s->handle, MATH_MODE));
    return 0;
}

/* One run: restore C (not timed), then time the cublasSgemm call alone with two events. */
static int cuda_run_once(cuda_state *s, const gemm_host_data *d, double *ms, gemm_msg *msg)
{
    const size_t sc = (size_t)d->m * (size_t)d->n * sizeof(float);
    if (d->beta != 0.0f)
        CHECK_CUDA("cudaMemcpyAsync(restore C)",
                   cudaMemcpyAsync(s->c, s->c_initial, sc, cudaMemcpyDeviceToDevice, s->stream));
    else
        CHECK_CUDA("cudaMemsetAsync(C to NaN)", cudaMemsetAsync(s->c, 0xFF, sc, s->stream));
    CHECK_CUDA("cudaEventRecord(start)", cudaEventRecord(s->start, s->stream));
    /* Row-major C = A B as column-major C^T = B^T A^T (see the file comment). */
    CHECK_CUBLAS("cublasSgemm",
                 cublasSgemm(s->handle, CUBLAS_OP_N, CUBLAS_OP_N, (int)d->n, (int)d->m, (int)d->k, &d->alpha, s->b,
                             (int)d->n, s->a, (int)d->k, &d->beta, s->c, (int)d->n));
    CHECK_CUDA("cudaEventRecord(stop)", cudaEventRecord(s->stop, s->stream));
    CHECK_CUDA("cudaEventSynchronize (the SGEMM failed while running)", cudaEventSynchronize(s->stop));
    float elapsed = 0.0f;
    CHECK_CUDA("cudaEventElapsedTime", cudaEventElapsedTime(&elapsed, s->start, s->stop));
    *ms = elapsed;
    return 0;
}

/* Device, buffers, the runs, the result back: everything that needs the GPU. */
static int measure(cuda_state *s, const gemm_options *opt, const gemm_host_data *d, int warmup, int repeat,
                   double *times, float *result, gemm_report *rep, gemm_msg *msg)
{
    static char summary[160];
    int dev = 0, runtime = 0, version = 0;
    struct cudaDeviceProp prop;
    gemm_progress_set("starting CUDA and copying A, B and C to the GPU");
    int rc = choose_device(opt->device, &dev, &prop, msg);
    if (!rc)
        rc = cuda_setup(s, d, &prop, msg);
    if (!rc)
        rc = driver_version(rep->driver, sizeof rep->driver, msg);
    if (rc)
        return rc;
    CHECK_CUDA("cudaRuntimeGetVersion", cudaRuntimeGetVersion(&runtime));
    CHECK_CUBLAS("cublasGetVersion", cublasGetVersion(s->handle, &version));
    for (int i = 0; i < warmup + repeat; i++) {
        double ms = 0;
        gemm_progress_run(i, warmup, repeat);
        rc = cuda_run_once(s, d, &ms, msg);
        if (rc)
            return rc;
        if (i >= warmup)
            times[i - warmup] = ms;
    }
    CHECK_CUDA("cudaMemcpy(C back to the host)",
               cudaMemcpy(result, s->c, (size_t)d->m * (size_t)d->n * sizeof(float), cudaMemcpyDeviceToHost));
    snprintf(summary, sizeof summary, "cuBLAS %d.%d.%d cublasSgemm, " MATH_TEXT ", CUDA device %d", version / 10000,
             version / 100 % 100, version % 100, dev);
    rep->summary = summary;
    snprintf(rep->platform, sizeof rep->platform, "CUDA %d.%d", runtime / 1000, runtime % 1000 / 10);
    snprintf(rep->device, sizeof rep->device, "%.127s", prop.name);
    rep->device_type = "GPU";
    rep->timing = "device time between CUDA events recorded just before and after the cublasSgemm call (no "
                  "transfers)";
    return 0;
}

static int run(const gemm_options *opt, const gemm_host_data *d, int warmup, int repeat, double *times,
               float *result, gemm_report *rep, gemm_msg *msg)
{
    cuda_state s;
    memset(&s, 0, sizeof s);
    int rc = measure(&s, opt, d, warmup, repeat, times, result, rep, msg);
    cuda_release(&s);
    return rc;
}

/* Options that do not apply, and an environment that would let cuBLAS use less than FP32. */
static int check(const gemm_options *opt, gemm_msg *msg)
{
    if (opt->list_devices || opt->platform || opt->kernel_file || opt->defines.count)
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT,
                         "%s runs through CUDA: --list-devices, --platform, --kernel-file and -D do not apply "
                         "(--device takes a CUDA device index)",
                         NAME);
    long index;
    int rc = device_index(opt->device, &index, msg);
    return rc ? rc : check_environment(msg);
}

int main(int argc, char **argv)
{
    /* The steps' defaults for an NVIDIA GPU, so that a plain run compares like with like. */
    const gemm_host_peer peer = {
#ifdef GEMM_CUBLAS_TF32
        NAME, "cuBLAS's cublasSgemm on the TF32 tensor cores through CUDA",
        "cuBLAS's cublasSgemm on an NVIDIA GPU through CUDA, for comparison: TF32 tensor cores "
        "(CUBLAS_TF32_TENSOR_OP_MATH: A and B rounded to 10-bit mantissas, FP32 sums), so NOT FP32-accurate: the "
        "check fails it (exit 1) by design. Timed with CUDA events around the call. --device takes a CUDA device "
        "index (default 0); --platform, --list-devices, -D and --kernel-file do not apply.",
#else
        NAME, "cuBLAS's cublasSgemm through CUDA",
        "cuBLAS's cublasSgemm on an NVIDIA GPU through CUDA, for comparison: FP32 with TF32 off, timed with CUDA "
        "events around the call. --device takes a CUDA device index (default 0); --platform, --list-devices, -D "
        "and --kernel-file do not apply.",
#endif
        "cublasSgemm", gemm_default_size(GEMM_DEVICE_NVIDIA_GPU), gemm_default_repeat(GEMM_DEVICE_NVIDIA_GPU),
        gemm_default_warmup(GEMM_DEVICE_NVIDIA_GPU), check, run, NULL};
    return gemm_host_peer_main(&peer, argc, argv);
}
