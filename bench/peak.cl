// Kernels of the peak microbenchmark (bench/peak.c): what the device can do at best, to put the
// SGEMM steps' GFLOPS in proportion.

// ---- FP32 multiply-add throughput ------------------------------------------------------------
// Each work-item runs 8 independent chains acc = acc * mul + add on vectors of type T, so that a
// multiply-add never waits for the one before it (on a GPU a float4 is 4 independent scalar
// chains, so a work-item has 8 * width of them). The body of the loop, 8 steps of the 8 chains,
// is written out by the preprocessor: 64 multiply-adds per loop test. mul and add are kernel
// arguments (the compiler cannot fold them) with mul < 1 and add > 0, so the values settle near
// add / (1 - mul): no overflow, no denormals. The lanes start from different values, so a
// compiler cannot compute one lane and copy it. One store of the sum at the end keeps the work
// alive; there is no other memory traffic.

#define CHAINS(m, c)                                                                               \
    a0 = mad(a0, m, c);                                                                            \
    a1 = mad(a1, m, c);                                                                            \
    a2 = mad(a2, m, c);                                                                            \
    a3 = mad(a3, m, c);                                                                            \
    a4 = mad(a4, m, c);                                                                            \
    a5 = mad(a5, m, c);                                                                            \
    a6 = mad(a6, m, c);                                                                            \
    a7 = mad(a7, m, c);
#define EIGHT_STEPS(m, c) CHAINS(m, c) CHAINS(m, c) CHAINS(m, c) CHAINS(m, c) \
                          CHAINS(m, c) CHAINS(m, c) CHAINS(m, c) CHAINS(m, c)

// LANES: a vector of type T with different values in its lanes.
#define FMA_KERNEL(name, T, LANES)                                                                 \
    __kernel void name(int iterations, float mul, float add, __global T *out)                      \
    {                                                                                              \
        const T m = (T)(mul), c = (T)(add);                                                        \
        const T x = (T)((float)get_global_id(0) * 1e-7f) + LANES;                                  \
        T a0 = x, a1 = x + 0.125f, a2 = x + 0.25f, a3 = x + 0.375f;                                \
        T a4 = x + 0.5f, a5 = x + 0.625f, a6 = x + 0.75f, a7 = x + 0.875f;                         \
        for (int i = 0; i < iterations; i++) {                                                     \
            EIGHT_STEPS(m, c)                                                                      \
        }                                                                                          \
        out[get_global_id(0)] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;                            \
    }

#define L4 (float4)(0.0f, 0.01f, 0.02f, 0.03f)
#define L8 (float8)(L4, L4 + 0.04f)
#define L16 (float16)(L8, L8 + 0.08f)

FMA_KERNEL(fma_float4, float4, L4)
FMA_KERNEL(fma_float8, float8, L8)
FMA_KERNEL(fma_float16, float16, L16)

// ---- Device-memory bandwidth -------------------------------------------------------------------
// One float4 (16 bytes) per work-item, read from src and written to dst: a plain streaming copy of
// buffers far larger than any cache, so every byte goes to and from device memory.
__kernel void copy_float4(__global const float4 *src, __global float4 *dst)
{
    const size_t i = get_global_id(0);
    dst[i] = src[i];
}
