// Exercise 12.2 of the exercises page (docs/exercises.md). Launch, parameters and constraints:
// those of kernel12_predication/predication.cl. The page's commands:
//   build/kernel12_predication/kernel12_predication --kernel-file docs/exercises/step12_bug.cl --size 64
//   build/kernel12_predication/kernel12_predication --kernel-file docs/exercises/step12_bug.cl -m 17 -n 64 -k 64
//   build/kernel12_predication/kernel12_predication --kernel-file docs/exercises/step12_bug.cl -m 17 -n 33 -k 65

#ifndef HAS_SPLIT_ROWS
#define HAS_SPLIT_ROWS 1
#endif

#define RTSM ((TSM)/(WPTM))
#define RTSN ((TSN)/(WPTN))
#define THREADS (RTSM*RTSN)

#define LANESM ((WTM)/(WPTM))
#define LANESN ((WTN)/(WPTN))
#define WARP (LANESM*LANESN)

#define LPTA ((TSM*(TSK/WIDTH))/THREADS)
#define LPTB ((TSK*(TSN/WIDTH))/THREADS)

#define ROWA (TSK)
#define ROWB (TSN + TILE_PAD)

#if COPY == 1

inline void copyPredicated(__local float *dst, const __global float *src, const int n, const uint bytes)
{
    if (n == 4)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;"
                     :: "r"((uint)(size_t)dst), "l"(src), "r"(bytes) : "memory");
    else if (n == 2)
        asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;"
                     :: "r"((uint)(size_t)dst), "l"(src), "r"(bytes) : "memory");
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;"
                     :: "r"((uint)(size_t)dst), "l"(src), "r"(bytes) : "memory");
}
#endif

inline void copyRow(__local float *dst, const __global float *matrix, const int rows, const int cols,
                    const int row, const int col, const int vector)
{
    const int inside = row < rows ? min(max(cols - col + 1, 0), WIDTH) : 0;
    const __global float *src = inside > 0 ? &matrix[row*cols + col] : matrix;
#if COPY == 1
    if (vector) {
        #pragma unroll
        for (int h = 0; h < (WIDTH + 3)/4; h++) {
            const int piece = min(WIDTH - 4*h, 4);
            const int have = clamp(inside - 4*h, 0, piece);
            copyPredicated(dst + 4*h, have > 0 ? src + 4*h : matrix, piece, (uint)(4*have));
        }
    } else {
        #pragma unroll
        for (int i = 0; i < WIDTH; i++)
            copyPredicated(dst + i, i < inside ? src + i : matrix, 1, i < inside ? 4u : 0u);
    }
#else
    (void)vector;
    #pragma unroll
    for (int i = 0; i < WIDTH; i++)
        dst[i] = i < inside ? src[i] : 0.0f;
#endif
}

void copyTiles(const int t, const int tid, const int M, const int N, const int K, const int firstRow,
               const int firstCol, const __global float* A, const __global float* B,
               __local float Asub[TSM][ROWA], __local float Bsub[TSK][ROWB])
{
    const int vectorA = K % WIDTH == 0, vectorB = N % WIDTH == 0;
    #pragma unroll
    for (int l = 0; l < LPTA; l++) {
        const int i = tid + l*THREADS, m = i / (TSK/WIDTH), k = (i % (TSK/WIDTH))*WIDTH;
        copyRow(&Asub[m][k], A, M, K, firstRow + m, t*TSK + k, vectorA);
    }
    #pragma unroll
    for (int l = 0; l < LPTB; l++) {
        const int i = tid + l*THREADS, k = i / (TSN/WIDTH), n = (i % (TSN/WIDTH))*WIDTH;
        copyRow(&Bsub[k][n], B, K, N, t*TSK + k, firstCol + n, vectorB);
    }
}

inline void commitTiles(void)
{
#if COPY == 1
    asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}

inline void fenceDevice(void)
{
#if COPY == 1
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
#else
    mem_fence(CLK_GLOBAL_MEM_FENCE);
#endif
}

#define MMA_M 16
#define MMA_N 8
#define MMA_K 8
#define FRAGS_M (WTM/MMA_M)
#define FRAGS_N (WTN/MMA_N)

#if TC == 1 || FRAGS_M*FRAGS_N <= 16
#define UNROLL _Pragma("unroll")
#else
#define UNROLL
#endif

#if TC == 1
#define UNROLL_STORE _Pragma("unroll")
#else
#define UNROLL_STORE
#endif
#define HI 0
#define LO 1

inline float toTF32(const float x)
{
    return as_float((as_uint(x) + 0x1000u) & 0xffffe000u);
}

inline void splitTF32(const float x, float *hi, float *lo)
{
    *hi = toTF32(x);
    *lo = x - *hi;
}

inline float tf32Bits(const float x)
{
    return as_float(as_uint(x) & 0xffffe000u);
}

#if TC == 1

inline void mma(float d[4], const float a[4], const float b[2])
{
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%10,%11,%12,%13};"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(as_uint(a[0])), "r"(as_uint(a[1])), "r"(as_uint(a[2])), "r"(as_uint(a[3])),
          "r"(as_uint(b[0])), "r"(as_uint(b[1])),
          "f"(d[0]), "f"(d[1]), "f"(d[2]), "f"(d[3]));
}
#define MMA(d, sa, i, sb, j) mma(d, aFrag[sa][i], bFrag[sb][j])
#else

inline float addTowardZero(const float a, const float b)
{
    const float s = a + b;
    const float bs = s - a, e = (a - (s - bs)) + (b - bs);

    return as_float(as_uint(s) - ((as_uint(e) ^ as_uint(s)) >> 31) * (uint)(e != 0.0f));
}

inline void mmaPortable(float d[4], const __local float *A, const __local float *B, const int lane)
{
    const int g = lane / 4, q = lane % 4;
    #pragma unroll
    for (int r = 0; r < 4; r++) {
        const int row = g + (r / 2)*8, col = 2*q + r % 2;
        float sum = 0.0f;
        #pragma unroll
        for (int k = 0; k < MMA_K; k++)
            sum += tf32Bits(A[row*MMA_K + k]) * tf32Bits(B[k*MMA_N + col]);
        d[r] = addTowardZero(d[r], sum);
    }
}

inline void shareFragments(__local float *warpA, __local float *warpB,
                           const float aFrag[2][FRAGS_M][4], const float bFrag[2][FRAGS_N][2], const int lane)
{
    const int g = lane / 4, q = lane % 4;
    for (int s = 0; s < 2; s++) {
        for (int i = 0; i < FRAGS_M; i++)
            for (int r = 0; r < 4; r++)
                warpA[(s*FRAGS_M + i)*MMA_M*MMA_K + (g + (r % 2)*8)*MMA_K + q + (r / 2)*4] = aFrag[s][i][r];
        for (int j = 0; j < FRAGS_N; j++)
            for (int r = 0; r < 2; r++)
                warpB[(s*FRAGS_N + j)*MMA_K*MMA_N + (q + r*4)*MMA_N + g] = bFrag[s][j][r];
    }
}
#define MMA(d, sa, i, sb, j) mmaPortable(d, &warpA[((sa)*FRAGS_M + (i))*MMA_M*MMA_K], \
                                         &warpB[((sb)*FRAGS_N + (j))*MMA_K*MMA_N], lane)
#endif

__kernel __attribute__((reqd_work_group_size(RTSN, RTSM, 1)))
void sgemm(const int M, const int N, const int K,
           const float alpha, const float beta,
           const __global float* A,
           const __global float* B,
           __global float* C,
           __global float* partials,
           __global int* counters,
           const int splitRows)
{
    const int localCol = get_local_id(0);
    const int localRow = get_local_id(1);
    const int tid = localRow*RTSN + localCol;

    const int warp = tid / WARP, lane = tid % WARP;
    const int warpRow = warp / (TSN/WTN), warpCol = warp % (TSN/WTN);
    const int g = lane / 4, q = lane % 4;
    const int rowBase = warpRow*WTM + g;
    const int colBase = warpCol*WTN + g;
#if TC == 0

    __local float warpAll[THREADS/WARP][2*(FRAGS_M*MMA_M + FRAGS_N*MMA_N)*MMA_K];
    __local float *warpA = warpAll[warp], *warpB = &warpAll[warp][2*FRAGS_M*MMA_M*MMA_K];
#endif

    const int fullRows = (M + TSM - 1)/TSM - splitRows;
    const int split = HAS_SPLIT_ROWS && get_group_id(1) >= fullRows;
    const int slice = split ? (get_group_id(1) - fullRows) / splitRows : 0;
    const int blockRow = get_group_id(1) - slice*splitRows;
    const int slices = split ? (get_num_groups(1) - fullRows) / splitRows : 1;
    const int tiles = (K + TSK - 1)/TSK;
    const int firstTile = slice*tiles/slices, numTiles = (slice + 1)*tiles/slices - firstTile;
    const int firstRow = blockRow*TSM, firstCol = get_group_id(0)*TSN;

    __local float Asub[STAGES][TSM][ROWA] __attribute__((aligned(16)));
    __local float Bsub[STAGES][TSK][ROWB] __attribute__((aligned(16)));

    float acc[FRAGS_M][FRAGS_N][4];
    #pragma unroll
    for (int i = 0; i < FRAGS_M; i++)
        #pragma unroll
        for (int j = 0; j < FRAGS_N; j++)
            #pragma unroll
            for (int r = 0; r < 4; r++)
                acc[i][j][r] = 0.0f;

    #pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < numTiles)
            copyTiles(firstTile + s, tid, M, N, K, firstRow, firstCol, A, B, Asub[s], Bsub[s]);
        commitTiles();
    }

    for (int t = 0; t < numTiles; t++) {
        const int buf = t % STAGES;

#if COPY == 1
        asm volatile("cp.async.wait_group %0;" :: "n"(STAGES - 2) : "memory");
#endif

        barrier(CLK_LOCAL_MEM_FENCE);

        const int ahead = t + STAGES - 1;
        if (ahead < numTiles)
            copyTiles(firstTile + ahead, tid, M, N, K, firstRow, firstCol, A, B, Asub[ahead % STAGES],
                      Bsub[ahead % STAGES]);
        commitTiles();

        const __local float *As = &Asub[buf][0][0], *Bs = &Bsub[buf][0][0];
        UNROLL
        for (int k = 0; k < TSK; k += MMA_K) {
            float aFrag[2][FRAGS_M][4], bFrag[2][FRAGS_N][2];
            UNROLL
            for (int i = 0; i < FRAGS_M; i++)
                UNROLL
                for (int h = 0; h < 2; h++) {
                    const float2 pair = *(const __local float2 *)&As[(rowBase + i*MMA_M + h*8)*ROWA + k + 2*q];
                    splitTF32(pair.x, &aFrag[HI][i][h], &aFrag[LO][i][h]);
                    splitTF32(pair.y, &aFrag[HI][i][h + 2], &aFrag[LO][i][h + 2]);
                }
            UNROLL
            for (int j = 0; j < FRAGS_N; j++)
                UNROLL
                for (int r = 0; r < 2; r++)
                    splitTF32(Bs[(k + 2*q + r)*ROWB + colBase + j*MMA_N], &bFrag[HI][j][r], &bFrag[LO][j][r]);
#if TC == 0
            shareFragments(warpA, warpB, aFrag, bFrag, lane);
            barrier(CLK_LOCAL_MEM_FENCE);
#endif
            UNROLL
            for (int i = 0; i < FRAGS_M; i++)
                UNROLL
                for (int j = 0; j < FRAGS_N; j++) {
#if PROMOTE
                    float part[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#else
                    __private float *part = acc[i][j];
#endif
#if PRODUCTS == 3
                    MMA(part, LO, i, HI, j);
                    MMA(part, HI, i, LO, j);
#endif
                    MMA(part, HI, i, HI, j);
#if PROMOTE
                    UNROLL
                    for (int r = 0; r < 4; r++)
                        acc[i][j][r] += part[r];
#endif
                }
#if TC == 0
            barrier(CLK_LOCAL_MEM_FENCE);
#endif
        }
    }

    __local int last;
    if (split) {
        const int block = (blockRow - fullRows)*get_num_groups(0) + get_group_id(0);
        __global float *mine = &partials[((size_t)slice*splitRows*get_num_groups(0) + block)*(TSM*TSN)];
        #pragma unroll
        for (int i = 0; i < FRAGS_M; i++)
            #pragma unroll
            for (int j = 0; j < FRAGS_N; j++)
                #pragma unroll
                for (int h = 0; h < 2; h++) {
                    const int at = (rowBase + i*MMA_M + h*8)*TSN + warpCol*WTN + j*MMA_N + 2*q;
                    *(__global float2 *)&mine[at] = (float2)(acc[i][j][2*h], acc[i][j][2*h + 1]);
                }
        fenceDevice();
        barrier(CLK_GLOBAL_MEM_FENCE);
        if (tid == 0) {
            last = atomic_inc(&counters[block]) == slices - 1;
            if (last)
                counters[block] = 0;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (!last)
            return;
        fenceDevice();

        const volatile __global float2 *all = (const volatile __global float2 *)&partials[(size_t)block*(TSM*TSN)];
        const size_t sliceStride = (size_t)splitRows*get_num_groups(0)*(TSM*TSN/2);
        #pragma unroll
        for (int i = 0; i < FRAGS_M; i++) {
            #pragma unroll
            for (int j = 0; j < FRAGS_N; j++)
                #pragma unroll
                for (int r = 0; r < 4; r++)
                    acc[i][j][r] = 0.0f;
            for (int s = 0; s < slices; s++) {
                float2 part[FRAGS_N][2];
                #pragma unroll
                for (int j = 0; j < FRAGS_N; j++)
                    #pragma unroll
                    for (int h = 0; h < 2; h++)
                        part[j][h] = all[s*sliceStride + ((rowBase + i*MMA_M + h*8)*TSN + warpCol*WTN + j*MMA_N + 2*q)/2];
                #pragma unroll
                for (int j = 0; j < FRAGS_N; j++)
                    #pragma unroll
                    for (int h = 0; h < 2; h++) {
                        acc[i][j][2*h] += part[j][h].x;
                        acc[i][j][2*h + 1] += part[j][h].y;
                    }
            }
        }
    }

    UNROLL_STORE
    for (int i = 0; i < FRAGS_M; i++)
        UNROLL_STORE
        for (int j = 0; j < FRAGS_N; j++)
            UNROLL_STORE
            for (int h = 0; h < 2; h++) {
                const int row = firstRow + rowBase + i*MMA_M + h*8;
                const int col = firstCol + warpCol*WTN + j*MMA_N + 2*q;
                if (row >= M || col >= N)
                    continue;
                const int idx = row*N + col;
                const float2 v = alpha*(float2)(acc[i][j][2*h], acc[i][j][2*h + 1]);
                if (N % 2 == 0 && col + 1 < N) {
                    __global float2 *c = (__global float2 *)&C[idx];
                    *c = (beta == 0.0f) ? v : v + beta*(*c);
                } else {
                    C[idx] = (beta == 0.0f) ? v.x : v.x + beta*C[idx];
                    if (col + 1 < N)
                        C[idx + 1] = (beta == 0.0f) ? v.y : v.y + beta*C[idx + 1];
                }
            }
}
