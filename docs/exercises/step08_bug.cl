// Exercise 8.1 of the exercises page (docs/exercises.md). Launch, parameters and constraints:
// those of kernel08_warp_tiling/warp_tiling.cl. The page's commands:
//   build/kernel08_warp_tiling/kernel08_warp_tiling --kernel-file docs/exercises/step08_bug.cl --size 128 -D TSM=64 -D TSN=64 -D TSK=16 -D WTM=32 -D WTN=32 -D WPTM=8 -D WPTN=8 -D WIDTH=8
//   build/kernel08_warp_tiling/kernel08_warp_tiling --kernel-file docs/exercises/step08_bug.cl --size 128 -D TSM=64 -D TSN=64 -D TSK=16 -D WTM=32 -D WTN=64 -D WPTM=8 -D WPTN=8 -D WIDTH=8

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
void unpad(const int rows, const int cols, const int paddedCols,
           const float beta,
           const __global floatX* in,
           __global float* out)
{
    const int vcol = get_global_id(0);
    const int row = get_global_id(1);
    if (row >= rows || vcol*WIDTH >= cols)
        return;
    float value[WIDTH];
    vstoreX(in[row*(paddedCols/WIDTH) + vcol], 0, value);
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

void loadTiles(const int t, const int tid, const int M, const int N,
                const __global floatX* AT, const __global floatX* B,
                floatX Anext[LPTA], floatX Bnext[LPTB])
{
    #pragma unroll
    for (int l = 0; l < LPTA; l++) {
        const int i = tid + l*THREADS, k = i / (TSM/WIDTH), m = i % (TSM/WIDTH);
        Anext[l] = AT[(t*TSK + k)*(M/WIDTH) + get_group_id(1)*(TSM/WIDTH) + m];
    }
    #pragma unroll
    for (int l = 0; l < LPTB; l++) {
        const int i = tid + l*THREADS, k = i / (TSN/WIDTH), n = i % (TSN/WIDTH);
        Bnext[l] = B[(t*TSK + k)*(N/WIDTH) + get_group_id(0)*(TSN/WIDTH) + n];
    }
}

__kernel __attribute__((reqd_work_group_size(RTSN, RTSM, 1)))
void sgemm(const int M, const int N, const int K,
           const float alpha, const float beta,
           const __global floatX* AT,
           const __global floatX* B,
           __global floatX* C)
{
    const int localCol = get_local_id(0);
    const int localRow = get_local_id(1);
    const int tid = localRow*RTSN + localCol;

    const int warp = tid / WARP, lane = tid % WARP;
    const int warpRow = warp / (TSN/WTN), warpCol = warp % (TSM/WTM);
#if LANE_SQUARES
    const int square = lane / 4;
    const int laneRow = (square / (LANESN/2))*2 + (lane / 2) % 2;
    const int laneCol = (square % (LANESN/2))*2 + lane % 2;
#else
    const int laneRow = lane / LANESN, laneCol = lane % LANESN;
#endif
    const int rowBase = warpRow*(WTM/WIDTH) + laneRow;
    const int colBase = warpCol*(WTN/WIDTH) + laneCol;

    __local floatX Asub[2][TSK][TSM/WIDTH];
    __local floatX Bsub[2][TSK][TSN/WIDTH];

    floatX acc[WPTM][WPTN/WIDTH];
    #pragma unroll
    for (int wm = 0; wm < WPTM; wm++)
        #pragma unroll
        for (int wn = 0; wn < WPTN/WIDTH; wn++)
            acc[wm][wn] = 0.0f;

    floatX Anext[LPTA], Bnext[LPTB];
    loadTiles(0, tid, M, N, AT, B, Anext, Bnext);

    const int numTiles = K/TSK;
    for (int t = 0; t < numTiles; t++) {
        const int buf = t % 2;

        #pragma unroll
        for (int l = 0; l < LPTA; l++) {
            const int i = tid + l*THREADS;
            Asub[buf][i / (TSM/WIDTH)][i % (TSM/WIDTH)] = Anext[l];
        }
        #pragma unroll
        for (int l = 0; l < LPTB; l++) {
            const int i = tid + l*THREADS;
            Bsub[buf][i / (TSN/WIDTH)][i % (TSN/WIDTH)] = Bnext[l];
        }

        barrier(CLK_LOCAL_MEM_FENCE);

        if (t + 1 < numTiles)
            loadTiles(t + 1, tid, M, N, AT, B, Anext, Bnext);

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

    #pragma unroll
    for (int wm = 0; wm < WPTM; wm++) {
        const int row = get_group_id(1)*TSM + (rowBase + (wm/WIDTH)*LANESM)*WIDTH + wm%WIDTH;
        #pragma unroll
        for (int wn = 0; wn < WPTN/WIDTH; wn++) {
            const int col = get_group_id(0)*(TSN/WIDTH) + colBase + wn*LANESN;
            const int idx = row*(N/WIDTH) + col;
            C[idx] = (beta == 0.0f) ? alpha*acc[wm][wn] : alpha*acc[wm][wn] + beta*C[idx];
        }
    }
}
