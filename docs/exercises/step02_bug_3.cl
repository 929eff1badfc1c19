// Exercise 2.4 of the exercises page (docs/exercises.md). Launch, parameters and constraints:
// those of kernel01_naive/naive.cl. The page's commands:
//   build/kernel01_naive/kernel01_naive --kernel-file docs/exercises/step02_bug_3.cl -m 64 -n 48 -k 80 -D TS=16
//   build/kernel01_naive/kernel01_naive --kernel-file docs/exercises/step02_bug_3.cl -m 50 -n 40 -k 77 -D TS=16

__kernel void sgemm(const int M, const int N, const int K,
                    const float alpha, const float beta,
                    const __global float* A,
                    const __global float* B,
                    __global float* C)
{
    const int localCol = get_local_id(0);
    const int localRow = get_local_id(1);
    const int col = get_group_id(0)*TS + localCol;
    const int row = get_group_id(1)*TS + localRow;

    __local float Asub[TS][TS];
    __local float Bsub[TS][TS];

    float acc = 0.0f;
    const int numTiles = (K + TS - 1) / TS;
    for (int t = 0; t < numTiles; t++) {
        Asub[localRow][localCol] = A[row*K + t*TS + localCol];
        Bsub[localRow][localCol] = B[(t*TS + localRow)*N + col];

        barrier(CLK_LOCAL_MEM_FENCE);

        for (int k = 0; k < TS; k++)
            acc += Asub[localRow][k] * Bsub[k][localCol];

        barrier(CLK_LOCAL_MEM_FENCE);
    }

    if (row < M && col < N) {
        const int idx = row*N + col;
        C[idx] = (beta == 0.0f) ? alpha*acc : alpha*acc + beta*C[idx];
    }
}
