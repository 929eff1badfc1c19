// Exercise 4.1 of the exercises page (docs/exercises.md). Launch, parameters and constraints:
// those of kernel04_transpose/transpose.cl. The page's commands:
//   build/kernel04_transpose/kernel04_transpose --kernel-file docs/exercises/step04_bug_1.cl -m 64 -n 64 -k 64
//   build/kernel04_transpose/kernel04_transpose --kernel-file docs/exercises/step04_bug_1.cl -m 128 -n 64 -k 192

#if WIDTH == 1
    typedef float floatX;
#elif WIDTH == 2
    typedef float2 floatX;
#elif WIDTH == 4
    typedef float4 floatX;
#elif WIDTH == 8
    typedef float8 floatX;
#endif

#define THREADS ((TSM)*(TSN)/(WIDTH))

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
        out[outRow*rows + outCol] = tile[ty][tx];
}

__kernel __attribute__((reqd_work_group_size(TSN/WIDTH, TSM, 1)))
void sgemm(const int M, const int N, const int K,
           const float alpha, const float beta,
           const __global floatX* AT,
           const __global floatX* B,
           __global floatX* C)
{
    const int localCol = get_local_id(0);
    const int localRow = get_local_id(1);
    const int col = get_group_id(0)*(TSN/WIDTH) + localCol;
    const int row = get_group_id(1)*TSM + localRow;
    const int tid = localRow*(TSN/WIDTH) + localCol;

    __local floatX Asub[TSK][TSM/WIDTH];
    __local floatX Bsub[TSK][TSN/WIDTH];

    floatX acc = 0.0f;
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
            const __local float* Ak = (const __local float*)Asub[k];
            acc += Ak[localRow] * Bsub[k][localCol];
        }

        barrier(CLK_LOCAL_MEM_FENCE);
    }

    const int idx = row*(N/WIDTH) + col;
    C[idx] = (beta == 0.0f) ? alpha*acc : alpha*acc + beta*C[idx];
}
