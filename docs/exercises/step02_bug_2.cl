// Exercise 2.2 of the exercises page (docs/exercises.md). Launch, parameters and constraints:
// those of kernel02_tiled/tiled.cl. The page's commands:
//   build/kernel02_tiled/kernel02_tiled --kernel-file docs/exercises/step02_bug_2.cl --size 64

__kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void sgemm(const int M, const int N, const int K,
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
    for (int t = 0; t < K/TS; t++) {

        Asub[localRow][localCol] = A[row*K + t*TS + localCol];
        Bsub[localRow][localCol] = B[(t*TS + localRow)*N + col];


        for (int k = 0; k < TS; k++)
            acc += Asub[localRow][k] * Bsub[k][localCol];

    }

    const int idx = row*N + col;
    C[idx] = (beta == 0.0f) ? alpha*acc : alpha*acc + beta*C[idx];
}
