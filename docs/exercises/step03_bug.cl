// Exercise 3.2 of the exercises page (docs/exercises.md). Launch, parameters and constraints:
// those of kernel03_vectorized/vectorized.cl. The page's commands:
//   build/kernel03_vectorized/kernel03_vectorized --kernel-file docs/exercises/step03_bug.cl -m 64 -n 128 -k 192 -D TS=16 -D WIDTH=4
//   build/kernel03_vectorized/kernel03_vectorized --kernel-file docs/exercises/step03_bug.cl -m 64 -n 128 -k 192 -D TS=16 -D WIDTH=1

#if WIDTH == 1
    typedef float floatX;
#elif WIDTH == 2
    typedef float2 floatX;
#elif WIDTH == 4
    typedef float4 floatX;
#elif WIDTH == 8
    typedef float8 floatX;
#endif

__kernel __attribute__((reqd_work_group_size(TS/WIDTH, TS, 1)))
void sgemm(const int M, const int N, const int K,
           const float alpha, const float beta,
           const __global floatX* A,
           const __global floatX* B,
           __global floatX* C)
{
    const int localCol = get_local_id(0);
    const int localRow = get_local_id(1);
    const int col = get_group_id(0)*(TS/WIDTH) + localCol;
    const int row = get_group_id(1)*TS + localRow;

    __local floatX Asub[TS][TS/WIDTH];
    __local floatX Bsub[TS][TS/WIDTH];

    floatX acc = 0.0f;
    for (int t = 0; t < K/TS; t++) {

        Asub[localRow][localCol] = A[row*(K/WIDTH) + t*(TS/WIDTH) + localCol];
        Bsub[localRow][localCol] = B[(t*TS + localRow)*(N/WIDTH) + col];

        barrier(CLK_LOCAL_MEM_FENCE);

        for (int k = 0; k < TS; k++)
            acc += Asub[localRow][k/WIDTH] * Bsub[k][localCol];

        barrier(CLK_LOCAL_MEM_FENCE);
    }

    const int idx = row*(N/WIDTH) + col;
    C[idx] = (beta == 0.0f) ? alpha*acc : alpha*acc + beta*C[idx];
}
