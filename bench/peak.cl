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

// ---- Local-memory reads (peak --local-reads) ---------------------------------------------------
// How the cost of a float4 read from local memory depends on which work-items of a warp read which
// vector. Every work-item takes a column of a READ_ROWS x READ_COLS tile of float4 from its lane,
// get_local_id(0) % 32 (its place in a warp of 32, as on NVIDIA), in the way `pattern` names,
// and reads that column from 8 rows per loop iteration (rows 2 apart, so no two reads of an
// iteration are the same and a compiler cannot merge them), adding each into its own accumulator:
// 8 independent local reads and 32 additions per iteration, nothing else. The loop is not
// unrolled, so that every iteration reads local memory again. The host computes the same sums
// (bench/peak.c, read_column() and the check) and compares every work-item's result.
// The patterns, in the order of bench/peak.c's read_patterns[] (keep both in step):
//   0 lane               32 different neighbouring vectors, 512 bytes
//   1 lane % 16          16 vectors, lanes 16 apart read the same one (a warp of 2 x 16, along N)
//   2 lane % 8           8 vectors, lanes 8 apart read the same one (a warp of 4 x 8, along N)
//   3 lane / 16          2 vectors, 16 neighbouring lanes read the same one (2 x 16, along M)
//   4 lane / 8           4 vectors, 8 neighbouring lanes read the same one (4 x 8, along M)
//   5 lane / 2           16 vectors, pairs of neighbouring lanes read the same one
//   6 lane % 4           4 vectors, lanes 4 apart read the same one
//   7 0                  1 vector for the whole warp
//   8 lane*8 % 64 + lane/8   32 different vectors 128 bytes apart: the same banks (conflicts)
//   9 lane/4 % 4*2 + lane%2  8 vectors, lanes l and l^2 read the same one (a warp of 4 x 8 in
//                            squares of 2 x 2, LANE_SQUARES, along N)
//  10 lane/16*2 + lane/2 % 2 4 vectors, lanes l and l^1 read the same one (the same, along M)
#define READ_ROWS 16
#define READ_COLS 64
__kernel void local_reads(int iterations, int pattern, __global float4 *out)
{
    __local float4 tile[READ_ROWS * READ_COLS];
    for (int i = get_local_id(0); i < READ_ROWS * READ_COLS; i += get_local_size(0))
        tile[i] = (float4)((float)i, (float)(i + 1), (float)(i + 2), (float)(i + 3)) * 1e-6f;
    barrier(CLK_LOCAL_MEM_FENCE);
    const int lane = get_local_id(0) % 32;
    int col;
    switch (pattern) {
    case 0: col = lane; break;
    case 1: col = lane % 16; break;
    case 2: col = lane % 8; break;
    case 3: col = lane / 16; break;
    case 4: col = lane / 8; break;
    case 5: col = lane / 2; break;
    case 6: col = lane % 4; break;
    case 7: col = 0; break;
    case 8: col = lane * 8 % READ_COLS + lane / 8; break;
    case 9: col = lane / 4 % 4 * 2 + lane % 2; break;
    default: col = lane / 16 * 2 + lane / 2 % 2; break;
    }
    float4 acc[8];
    for (int r = 0; r < 8; r++)
        acc[r] = 0.0f;
    #pragma unroll 1
    for (int it = 0; it < iterations; it++) {
        #pragma unroll
        for (int r = 0; r < 8; r++)
            acc[r] += tile[((it + 2 * r) % READ_ROWS) * READ_COLS + col];
    }
    float4 sum = acc[0];
    for (int r = 1; r < 8; r++)
        sum += acc[r];
    out[get_global_id(0)] = sum;
}

// ---- TF32 tensor-core throughput (NVIDIA GPUs of compute capability 8.0 and later) -------------
// Compiled only with -DPEAK_TF32, which bench/peak.c passes where the device reports compute
// capability 8.0 or later (cl_nv_device_attribute_query): no other compiler (PoCL) sees the PTX.
// Every warp issues NVIDIA's mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 (D = A*B + D with
// A 16 x 8 and B 8 x 8 in TF32, D 16 x 8 in FP32: 2*16*8*8 flops per mma) on TF32_ACCS independent
// accumulators, so that no mma waits for the one before it; each lane holds 4 registers of A, 2 of
// B and 4 of every D (the same fragments as step 11's mma()). asm volatile: the compiler may
// neither drop nor merge an mma. A and B hold `value` everywhere (2^-10 from the host, exact in
// TF32), so every element of D grows by exactly 8 * value^2 = 2^-17 per mma (up to 2^24 iterations:
// at most 128, within FP32's 24 bits) and ends at iterations * 2^-17; the host adds the 4 * TF32_ACCS
// elements of a work-item in the same order and compares every work-item's sum with its own.
#ifdef PEAK_TF32
#define TF32_ACCS 8

inline void mma_tf32(float d[4], const uint a, const uint b)
{
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%10,%11,%12,%13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a), "r"(a), "r"(a), "r"(a), "r"(b), "r"(b),
                   "f"(d[0]), "f"(d[1]), "f"(d[2]), "f"(d[3]));
}

__kernel void tf32_mma(int iterations, float value, __global float *out)
{
    const uint a = as_uint(value), b = as_uint(value);
    float d[TF32_ACCS][4];
    #pragma unroll
    for (int j = 0; j < TF32_ACCS; j++) {
        #pragma unroll
        for (int e = 0; e < 4; e++)
            d[j][e] = 0.0f;
    }
    for (int i = 0; i < iterations; i++) {
        #pragma unroll
        for (int j = 0; j < TF32_ACCS; j++)
            mma_tf32(d[j], a, b);
    }
    float sum = 0.0f;
    #pragma unroll
    for (int j = 0; j < TF32_ACCS; j++) {
        #pragma unroll
        for (int e = 0; e < 4; e++)
            sum += d[j][e];
    }
    out[get_global_id(0)] = sum;
}
#endif
