// Kernels of the peak microbenchmark (bench/peak.c): what the device can do at best, to put the
// SGEMM steps' GFLOPS in proportion.

// ---- FP32 multiply-add throughput ------------------------------------------------------------
// Each work-item runs 8 or 16 independent chains acc = acc * mul + add on vectors of type T, so
// that a multiply-add never waits for the one before it. A GPU hides the latency of a chain with
// other work-items, and 8 chains are plenty there (a float4 is 4 independent scalar chains, so a
// work-item has 8 * width of them). A CPU runs the work-items of a group one after the other in
// one thread (PoCL vectorizes across them at best), so its latency is hidden only by the chains
// of one work-item: a core with two vector FMA units of 4-cycle latency needs 8 vectors in flight,
// and 16 chains leave it no gaps; on a CPU with few vector registers 16 chains may spill, so both
// counts run and the best wins. The loop body, 64 multiply-adds, is written out by the
// preprocessor (8 steps of the 8 chains, or 4 of the 16). mul and add are kernel arguments (the
// compiler cannot fold them) with mul < 1 and add > 0, so the values settle near add / (1 - mul):
// no overflow, no denormals. The lanes start from different values, so a compiler cannot compute
// one lane and copy it. One store of the sum at the end keeps the work alive; there is no other
// memory traffic.

// One step of the 8 chains p0 ... p7 (p: a or b)
#define CHAINS8(p, m, c)                                                                           \
    p##0 = mad(p##0, m, c);                                                                        \
    p##1 = mad(p##1, m, c);                                                                        \
    p##2 = mad(p##2, m, c);                                                                        \
    p##3 = mad(p##3, m, c);                                                                        \
    p##4 = mad(p##4, m, c);                                                                        \
    p##5 = mad(p##5, m, c);                                                                        \
    p##6 = mad(p##6, m, c);                                                                        \
    p##7 = mad(p##7, m, c);
#define CHAINS16(m, c) CHAINS8(a, m, c) CHAINS8(b, m, c)
// 64 multiply-adds per loop iteration with either count
#define BODY8(m, c) CHAINS8(a, m, c) CHAINS8(a, m, c) CHAINS8(a, m, c) CHAINS8(a, m, c) \
                    CHAINS8(a, m, c) CHAINS8(a, m, c) CHAINS8(a, m, c) CHAINS8(a, m, c)
#define BODY16(m, c) CHAINS16(m, c) CHAINS16(m, c) CHAINS16(m, c) CHAINS16(m, c)

// LANES: a vector of type T with different values in its lanes. The b chains exist in every
// kernel (b0 = a0 + 1/16, ...); with BODY8 they are never updated and their sum is folded away.
#define FMA_KERNEL(name, T, LANES, BODY)                                                           \
    __kernel void name(int iterations, float mul, float add, __global T *out)                      \
    {                                                                                              \
        const T m = (T)(mul), c = (T)(add);                                                        \
        const T x = (T)((float)get_global_id(0) * 1e-7f) + LANES;                                  \
        T a0 = x, a1 = x + 0.125f, a2 = x + 0.25f, a3 = x + 0.375f;                                \
        T a4 = x + 0.5f, a5 = x + 0.625f, a6 = x + 0.75f, a7 = x + 0.875f;                         \
        T b0 = a0 + 0.0625f, b1 = a1 + 0.0625f, b2 = a2 + 0.0625f, b3 = a3 + 0.0625f;              \
        T b4 = a4 + 0.0625f, b5 = a5 + 0.0625f, b6 = a6 + 0.0625f, b7 = a7 + 0.0625f;              \
        for (int i = 0; i < iterations; i++) {                                                     \
            BODY(m, c)                                                                             \
        }                                                                                          \
        out[get_global_id(0)] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 +                            \
                                (b0 + b1 + b2 + b3 + b4 + b5 + b6 + b7);                           \
    }

#define L4 (float4)(0.0f, 0.01f, 0.02f, 0.03f)
#define L8 (float8)(L4, L4 + 0.04f)
#define L16 (float16)(L8, L8 + 0.08f)

FMA_KERNEL(fma_float4, float4, L4, BODY8)
FMA_KERNEL(fma_float8, float8, L8, BODY8)
FMA_KERNEL(fma_float16, float16, L16, BODY8)
FMA_KERNEL(fma16_float4, float4, L4, BODY16)
FMA_KERNEL(fma16_float8, float8, L8, BODY16)
FMA_KERNEL(fma16_float16, float16, L16, BODY16)

// ---- Device-memory bandwidth -------------------------------------------------------------------
// One float4 (16 bytes) per work-item, read from src and written to dst: a plain streaming copy of
// buffers far larger than any cache, so every byte goes to and from device memory.
__kernel void copy_float4(__global const float4 *src, __global float4 *dst)
{
    const size_t i = get_global_id(0);
    dst[i] = src[i];
}
