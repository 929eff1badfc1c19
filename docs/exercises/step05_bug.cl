// Exercise 5.1 of the exercises page (docs/exercises.md). Launch, parameters and constraints:
// those of kernel05_register_blocking/register_blocking.cl. The page's commands:
//   build/kernel05_register_blocking/kernel05_register_blocking --kernel-file docs/exercises/step05_bug.cl -m 128 -n 128 -k 64 -D TSM=32 -D TSN=64 -D TSK=16 -D WPTM=8 -D WPTN=8 -D WIDTH=8
//   build/kernel05_register_blocking/kernel05_register_blocking --kernel-file docs/exercises/step05_bug.cl -m 128 -n 128 -k 64 -D TSM=32 -D TSN=64 -D TSK=16 -D WPTM=8 -D WPTN=8 -D WIDTH=4
//   build/kernel05_register_blocking/kernel05_register_blocking --kernel-file docs/exercises/step05_bug.cl -m 128 -n 128 -k 64 -D TSM=64 -D TSN=64 -D TSK=16 -D WPTM=16 -D WPTN=8 -D WIDTH=8

#if WIDTH == 1
    typedef float floatX;
    #define vstoreX(v, i, p) ((p)[i] = (v))
#elif WIDTH == 2
    typedef float2 floatX;
    #define vstoreX vstore2
#elif WIDTH == 4
    typedef float4 floatX;
    #define vstoreX vstore4
#elif WIDTH == 8
    typedef float8 floatX;
    #define vstoreX vstore8
#endif

#define RTSM ((TSM)/(WPTM))
#define RTSN ((TSN)/(WPTN))
#define THREADS (RTSM*RTSN)

__kernel __attribute__((reqd_work_group_size(TRANSPOSE_TILE, TRANSPOSE_TILE, 1)))
void transpose(const int rows, const int cols,
               const __global float* in,
               __global float* out)
{
    const int tx = get_local_id(0);
    const int ty = get_local_id(1);

    __local float tile[TRANSPOSE_TILE][TRANSPOSE_TILE + TRANSPOSE_PAD];
    const int inCol = get_group_id(0)*TRANSPOSE_TILE + tx;
    const int inRow = get_group_id(1)*TRANSPOSE_TILE + ty;
    if (inRow < rows && inCol < cols)
        tile[ty][tx] = in[inRow*cols + inCol];
    barrier(CLK_LOCAL_MEM_FENCE);

    const int outCol = get_group_id(1)*TRANSPOSE_TILE + tx;
    const int outRow = get_group_id(0)*TRANSPOSE_TILE + ty;
    if (outRow < cols && outCol < rows)
        out[outRow*rows + outCol] = tile[tx][ty];
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

    __local floatX Asub[TSK][TSM/WIDTH];
    __local floatX Bsub[TSK][TSN/WIDTH];

    floatX acc[WPTM][WPTN/WIDTH];
    #pragma unroll
    for (int wm = 0; wm < WPTM; wm++)
        #pragma unroll
        for (int wn = 0; wn < WPTN/WIDTH; wn++)
            acc[wm][wn] = 0.0f;

    for (int t = 0; t < K/TSK; t++) {

        for (int i = tid; i < TSK*(TSM/WIDTH); i += THREADS) {
            const int k = i / (TSM/WIDTH), m = i % (TSM/WIDTH);
            Asub[k][m] = AT[(t*TSK + k)*(M/WIDTH) + get_group_id(1)*(TSM/WIDTH) + m];
        }
        for (int i = tid; i < TSK*(TSN/WIDTH); i += THREADS) {
            const int k = i / (TSN/WIDTH), n = i % (TSN/WIDTH);
            Bsub[k][n] = B[(t*TSK + k)*(N/WIDTH) + get_group_id(0)*(TSN/WIDTH) + n];
        }

        barrier(CLK_LOCAL_MEM_FENCE);

        for (int k = 0; k < TSK; k++) {
            float Areg[WPTM];
            #pragma unroll
            for (int i = 0; i < WPTM/WIDTH; i++)
                vstoreX(Asub[k][localRow + i*RTSM], i, Areg);
            floatX Breg[WPTN/WIDTH];
            #pragma unroll
            for (int wn = 0; wn < WPTN/WIDTH; wn++)
                Breg[wn] = Bsub[k][localCol + wn*RTSN];
            #pragma unroll
            for (int wm = 0; wm < WPTM; wm++)
                #pragma unroll
                for (int wn = 0; wn < WPTN/WIDTH; wn++)
                    acc[wm][wn] += Areg[wm] * Breg[wn];
        }

        barrier(CLK_LOCAL_MEM_FENCE);
    }

    #pragma unroll
    for (int wm = 0; wm < WPTM; wm++) {
        const int row = get_group_id(1)*TSM + localRow*WPTM + wm;
        #pragma unroll
        for (int wn = 0; wn < WPTN/WIDTH; wn++) {
            const int col = get_group_id(0)*(TSN/WIDTH) + localCol + wn*RTSN;
            const int idx = row*(N/WIDTH) + col;
            C[idx] = (beta == 0.0f) ? alpha*acc[wm][wn] : alpha*acc[wm][wn] + beta*C[idx];
        }
    }
}
