// Exercise 11.3 of the exercises page (docs/exercises.md). Launch, parameters and constraints:
// those of kernel11_tensor_cores/tensor_cores.cl. The page's commands:
//   build/kernel11_tensor_cores/kernel11_tensor_cores --kernel-file docs/exercises/step11_bug.cl --size 64
//   build/kernel11_tensor_cores/kernel11_tensor_cores --kernel-file docs/exercises/step11_bug.cl -m 17 -n 33 -k 65

#if WIDTH == 1
    typedef float floatX;
    #define vstoreX(v, i, p) ((p)[i] = (v))
    #define vloadX(i, p) ((p)[i])
#elif WIDTH == 2
    typedef float2 floatX;
    #define vstoreX vstore2
    #define vloadX vload2
#elif WIDTH == 4
    typedef float4 floatX;
    #define vstoreX vstore4
    #define vloadX vload4
#elif WIDTH == 8
    typedef float8 floatX;
    #define vstoreX vstore8
    #define vloadX vload8
#endif

#define RTSM ((TSM)/(WPTM))
#define RTSN ((TSN)/(WPTN))
#define THREADS (RTSM*RTSN)

#define LANESM ((WTM)/(WPTM))
#define LANESN ((WTN)/(WPTN))
#define WARP (LANESM*LANESN)

__kernel __attribute__((reqd_work_group_size(TRANSPOSE_TILE, TRANSPOSE_TILE, 1)))
void transpose(const int rows, const int cols,
               const int paddedRows, const int paddedCols,
               const __global float* in,
               __global float* out)
{
    const int tx = get_local_id(0);
    const int ty = get_local_id(1);

    __local float tile[TRANSPOSE_TILE][TRANSPOSE_TILE + TRANSPOSE_PAD];
    const int inCol = get_group_id(0)*TRANSPOSE_TILE + tx;
    const int inRow = get_group_id(1)*TRANSPOSE_TILE + ty;
    tile[ty][tx] = (inRow < rows && inCol < cols) ? in[inRow*cols + inCol] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);

    const int outCol = get_group_id(1)*TRANSPOSE_TILE + tx;
    const int outRow = get_group_id(0)*TRANSPOSE_TILE + ty;
    if (outRow < paddedCols && outCol < paddedRows)
        out[outRow*paddedRows + outCol] = tile[tx][ty];
}

__kernel __attribute__((reqd_work_group_size(TRANSPOSE_TILE, TRANSPOSE_TILE, 1)))
void pad(const int rows, const int cols,
         const int paddedRows, const int paddedCols,
         const __global float* in,
         __global floatX* out)
{
    const int vcol = get_global_id(0);
    const int row = get_global_id(1);
    if (row >= paddedRows || vcol >= paddedCols/WIDTH)
        return;
    float value[WIDTH];
    #pragma unroll
    for (int i = 0; i < WIDTH; i++) {
        const int col = vcol*WIDTH + i;
        value[i] = (row < rows && col < cols) ? in[row*cols + col] : 0.0f;
    }
    out[row*(paddedCols/WIDTH) + vcol] = vloadX(0, value);
}

__kernel __attribute__((reqd_work_group_size(TRANSPOSE_TILE, TRANSPOSE_TILE, 1)))
void unpad(const int rows, const int cols, const int paddedRows, const int paddedCols,
           const int firstRow, const int splitFrom, const int slices, const float beta,
           const __global floatX* in, const __global floatX* copies,
           __global float* out)
{
    const int vcol = get_global_id(0);
    const int row = firstRow + get_global_id(1);
    if (row >= rows || vcol*WIDTH >= cols)
        return;
    floatX sum;
    if (row < splitFrom) {
        sum = in[row*(paddedCols/WIDTH) + vcol];
    } else {
        sum = 0.0f;
        for (int s = 0; s < slices; s++)
            sum += copies[(row - splitFrom + s*(paddedRows - splitFrom))*(paddedCols/WIDTH) + vcol];
    }
    float value[WIDTH];
    vstoreX(sum, 0, value);
    #pragma unroll
    for (int i = 0; i < WIDTH; i++) {
        const int col = vcol*WIDTH + i;
        if (col < cols) {
            const int idx = row*cols + col;
            out[idx] = (beta == 0.0f) ? value[i] : value[i] + beta*out[idx];
        }
    }
}

#define LPTA ((TSK*(TSM/WIDTH))/THREADS)
#define LPTB ((TSK*(TSN/WIDTH))/THREADS)

#define ROWA ((TSM + TILE_PAD)/WIDTH)
#define ROWB ((TSN + TILE_PAD)/WIDTH)

#if COPY == 1
inline void copyVector(__local floatX *dst, const __global floatX *src)
{
#if WIDTH == 1
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"((uint)(size_t)dst), "l"(src) : "memory");
#elif WIDTH == 2
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"((uint)(size_t)dst), "l"(src) : "memory");
#else
    #pragma unroll
    for (int h = 0; h < WIDTH/4; h++)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;"
                     :: "r"((uint)(size_t)((__local float4*)dst + h)), "l"((const __global float4*)src + h)
                     : "memory");
#endif
}
#endif

#if COPY == 3
typedef struct {
    const __global floatX *A, *B;
    int rowA, rowB;
    __local floatX (*Asub)[ROWA], (*Bsub)[ROWB];
} lateTiles;
#define event_t lateTiles
#undef wait_group_events
#define wait_group_events waitLate

void lateShare(const lateTiles *c, const int arrived)
{
    const int tid = get_local_id(1)*RTSN + get_local_id(0);
    for (int l = 0; l < LPTA; l++) {
        const int i = tid + l*THREADS, k = i / (TSM/WIDTH), m = i % (TSM/WIDTH);
        c->Asub[k][m] = arrived ? c->A[k*c->rowA + m] : (floatX)NAN;
    }
    for (int l = 0; l < LPTB; l++) {
        const int i = tid + l*THREADS, k = i / (TSN/WIDTH), n = i % (TSN/WIDTH);
        c->Bsub[k][n] = arrived ? c->B[k*c->rowB + n] : (floatX)NAN;
    }
}

void waitLate(const int num, lateTiles *events)
{
    for (int e = 0; e < num; e++)
        if (events[e].A) {
            lateShare(&events[e], 1);
            events[e].A = 0;
        }
}
#endif

void copyTiles(const int t, const int tid, const int M, const int N,
               const __global floatX* AT, const __global floatX* B,
               __local floatX Asub[TSK][ROWA], __local floatX Bsub[TSK][ROWB], event_t *copied)
{
#if COPY == 1
    #pragma unroll
    for (int l = 0; l < LPTA; l++) {
        const int i = tid + l*THREADS, k = i / (TSM/WIDTH), m = i % (TSM/WIDTH);
        copyVector(&Asub[k][m], &AT[(t*TSK + k)*(M/WIDTH) + m]);
    }
    #pragma unroll
    for (int l = 0; l < LPTB; l++) {
        const int i = tid + l*THREADS, k = i / (TSN/WIDTH), n = i % (TSN/WIDTH);
        copyVector(&Bsub[k][n], &B[(t*TSK + k)*(N/WIDTH) + get_group_id(0)*(TSN/WIDTH) + n]);
    }
#elif COPY == 3
    const lateTiles tile = {&AT[t*TSK*(M/WIDTH)], &B[t*TSK*(N/WIDTH) + get_group_id(0)*(TSN/WIDTH)], M/WIDTH, N/WIDTH,
                            Asub, Bsub};
    *copied = tile;
    lateShare(copied, 0);
#else
    event_t tile = 0;
    for (int k = 0; k < TSK; k++)
        tile = async_work_group_copy(Asub[k], &AT[(t*TSK + k)*(M/WIDTH)], TSM/WIDTH, tile);
    for (int k = 0; k < TSK; k++)
        tile = async_work_group_copy(Bsub[k], &B[(t*TSK + k)*(N/WIDTH) + get_group_id(0)*(TSN/WIDTH)],
                                     TSN/WIDTH, tile);
    *copied = tile;
#endif
}

inline void commitTiles(void)
{
#if COPY == 1
    asm volatile("cp.async.commit_group;" ::: "memory");
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
           const __global floatX* AT,
           const __global floatX* B,
           __global float* C,
           __global float* copies,
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

    const int fullRows = M/TSM - splitRows;
    const int split = get_group_id(1) >= fullRows;
    const int slice = split ? (get_group_id(1) - fullRows) / splitRows : 0;
    const int blockRow = get_group_id(1) - slice*splitRows;
    const int slices = split ? (get_num_groups(1) - fullRows) / splitRows : 1;
    const int firstTile = slice*(K/TSK)/slices, numTiles = (slice + 1)*(K/TSK)/slices - firstTile;
    AT += firstTile*TSK*(M/WIDTH) + blockRow*(TSM/WIDTH);
    B += firstTile*TSK*(N/WIDTH);

    __local floatX Asub[STAGES][TSK][ROWA];
    __local floatX Bsub[STAGES][TSK][ROWB];

    float acc[FRAGS_M][FRAGS_N][4];
    #pragma unroll
    for (int i = 0; i < FRAGS_M; i++)
        #pragma unroll
        for (int j = 0; j < FRAGS_N; j++)
            #pragma unroll
            for (int r = 0; r < 4; r++)
                acc[i][j][r] = 0.0f;

    event_t copied[STAGES];
    #pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < numTiles)
            copyTiles(s, tid, M, N, AT, B, Asub[s], Bsub[s], &copied[s]);
        commitTiles();
    }

    for (int t = 0; t < numTiles; t++) {
        const int buf = t % STAGES;

#if COPY == 1
        asm volatile("cp.async.wait_group %0;" :: "n"(STAGES - 2) : "memory");
#else
        wait_group_events(1, &copied[buf]);
#endif
        barrier(CLK_LOCAL_MEM_FENCE);

        const int ahead = t + STAGES - 1;
        if (ahead < numTiles)
            copyTiles(ahead, tid, M, N, AT, B, Asub[ahead % STAGES], Bsub[ahead % STAGES], &copied[ahead % STAGES]);
        commitTiles();

        const __local float *As = (const __local float *)Asub[buf], *Bs = (const __local float *)Bsub[buf];
        UNROLL
        for (int k = 0; k < TSK; k += MMA_K) {
            float aFrag[2][FRAGS_M][4], bFrag[2][FRAGS_N][2];
            UNROLL
            for (int i = 0; i < FRAGS_M; i++)
                UNROLL
                for (int r = 0; r < 4; r++)
                    splitTF32(As[(k + q + (r%2)*4)*(ROWA*WIDTH) + rowBase + i*MMA_M + (r/2)*8],
                              &aFrag[HI][i][r], &aFrag[LO][i][r]);
            UNROLL
            for (int j = 0; j < FRAGS_N; j++)
                UNROLL
                for (int r = 0; r < 2; r++)
                    splitTF32(Bs[(k + q + r*4)*(ROWB*WIDTH) + colBase + j*MMA_N], &bFrag[HI][j][r], &bFrag[LO][j][r]);
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

    const int toCopies = get_group_id(1) >= fullRows;
    #pragma unroll
    for (int i = 0; i < FRAGS_M; i++)
        #pragma unroll
        for (int j = 0; j < FRAGS_N; j++)
            #pragma unroll
            for (int h = 0; h < 2; h++) {
                const int row = get_group_id(1)*TSM + rowBase + i*MMA_M + h*8;
                const int col = get_group_id(0)*TSN + warpCol*WTN + j*MMA_N + 2*q;
                const int idx = row*N + col;
                const float2 v = alpha*(float2)(acc[i][j][2*h], acc[i][j][2*h + 1]);
                if (toCopies)
                    *(__global float2 *)&copies[idx - fullRows*TSM*N] = v;
                else
                    *(__global float2 *)&C[idx] = (beta == 0.0f) ? v : v + beta*(*(__global float2 *)&C[idx]);
            }
}
