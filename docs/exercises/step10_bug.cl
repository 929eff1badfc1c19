// Exercise 10.1 of the exercises page (docs/exercises.md). Launch, parameters and constraints:
// those of kernel10_async_copy/async_copy.cl. The page's commands:
//   build/kernel10_async_copy/kernel10_async_copy --kernel-file docs/exercises/step10_bug.cl -m 128 -n 128 -k 32 -D TSM=32 -D TSN=64 -D TSK=16 -D WTM=32 -D WTN=64 -D WPTM=8 -D WPTN=8 -D WIDTH=8 -D COPY=0 -D STAGES=3 -D SLICES=1
//   build/kernel10_async_copy/kernel10_async_copy --kernel-file docs/exercises/step10_bug.cl -m 128 -n 128 -k 128 -D TSM=32 -D TSN=64 -D TSK=16 -D WTM=32 -D WTN=64 -D WPTM=8 -D WPTN=8 -D WIDTH=8 -D COPY=0 -D STAGES=3 -D SLICES=1
//   build/kernel10_async_copy/kernel10_async_copy --kernel-file docs/exercises/step10_bug.cl -m 128 -n 128 -k 128 -D TSM=32 -D TSN=64 -D TSK=16 -D WTM=32 -D WTN=64 -D WPTM=8 -D WPTN=8 -D WIDTH=8 -D COPY=0 -D STAGES=4 -D SLICES=1

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
    __local floatX (*Asub)[TSM/WIDTH], (*Bsub)[TSN/WIDTH];
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
               __local floatX Asub[TSK][TSM/WIDTH], __local floatX Bsub[TSK][TSN/WIDTH], event_t *copied)
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

__kernel __attribute__((reqd_work_group_size(RTSN, RTSM, 1)))
void sgemm(const int M, const int N, const int K,
           const float alpha, const float beta,
           const __global floatX* AT,
           const __global floatX* B,
           __global floatX* C,
           __global floatX* copies,
           const int splitRows)
{
    const int localCol = get_local_id(0);
    const int localRow = get_local_id(1);
    const int tid = localRow*RTSN + localCol;

    const int warp = tid / WARP, lane = tid % WARP;
    const int warpRow = warp / (TSN/WTN), warpCol = warp % (TSN/WTN);
#if LANE_SQUARES
    const int square = lane / 4;
    const int laneRow = (square / (LANESN/2))*2 + (lane / 2) % 2;
    const int laneCol = (square % (LANESN/2))*2 + lane % 2;
#else
    const int laneRow = lane / LANESN, laneCol = lane % LANESN;
#endif
    const int rowBase = warpRow*(WTM/WIDTH) + laneRow;
    const int colBase = warpCol*(WTN/WIDTH) + laneCol;

    const int fullRows = M/TSM - splitRows;
    const int split = get_group_id(1) >= fullRows;
    const int slice = split ? (get_group_id(1) - fullRows) / splitRows : 0;
    const int blockRow = get_group_id(1) - slice*splitRows;
    const int slices = split ? (get_num_groups(1) - fullRows) / splitRows : 1;
    const int firstTile = slice*(K/TSK)/slices, numTiles = (slice + 1)*(K/TSK)/slices - firstTile;
    AT += firstTile*TSK*(M/WIDTH) + blockRow*(TSM/WIDTH);
    B += firstTile*TSK*(N/WIDTH);

    __local floatX Asub[STAGES][TSK][TSM/WIDTH];
    __local floatX Bsub[STAGES][TSK][TSN/WIDTH];

    floatX acc[WPTM][WPTN/WIDTH];
    #pragma unroll
    for (int wm = 0; wm < WPTM; wm++)
        #pragma unroll
        for (int wn = 0; wn < WPTN/WIDTH; wn++)
            acc[wm][wn] = 0.0f;

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
            copyTiles(ahead, tid, M, N, AT, B, Asub[buf], Bsub[buf], &copied[ahead % STAGES]);
        commitTiles();

        for (int k = 0; k < TSK; k++) {
            float Areg[WPTM];
            #pragma unroll
            for (int i = 0; i < WPTM/WIDTH; i++)
                vstoreX(Asub[buf][k][rowBase + i*LANESM], i, Areg);
            floatX Breg[WPTN/WIDTH];
            #pragma unroll
            for (int wn = 0; wn < WPTN/WIDTH; wn++)
                Breg[wn] = Bsub[buf][k][colBase + wn*LANESN];
            #pragma unroll
            for (int wm = 0; wm < WPTM; wm++)
                #pragma unroll
                for (int wn = 0; wn < WPTN/WIDTH; wn++)
                    acc[wm][wn] += Areg[wm] * Breg[wn];
        }
    }

    const int toCopies = get_group_id(1) >= fullRows;
    #pragma unroll
    for (int wm = 0; wm < WPTM; wm++) {
        const int row = get_group_id(1)*TSM + (rowBase + (wm/WIDTH)*LANESM)*WIDTH + wm%WIDTH;
        #pragma unroll
        for (int wn = 0; wn < WPTN/WIDTH; wn++) {
            const int col = get_group_id(0)*(TSN/WIDTH) + colBase + wn*LANESN;
            const int idx = row*(N/WIDTH) + col;
            if (toCopies)
                copies[idx - fullRows*TSM*(N/WIDTH)] = alpha*acc[wm][wn];
            else
                C[idx] = (beta == 0.0f) ? alpha*acc[wm][wn] : alpha*acc[wm][wn] + beta*C[idx];
        }
    }
}
