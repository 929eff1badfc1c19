// Exercise 1.1 of the exercises page (docs/exercises.md). Launch, parameters and constraints:
// those of kernel01_naive/naive.cl. The page's commands:
//   build/kernel01_naive/kernel01_naive --kernel-file docs/exercises/step01_bug.cl --size 64
//   build/kernel01_naive/kernel01_naive --kernel-file docs/exercises/step01_bug.cl -m 64 -n 48 -k 80

__kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void sgemm(const int M, const int N, const int K,
           const float alpha, const float beta,
           const __global float* A,
           const __global float* B,
           __global float* C)
{
    const int col = get_global_id(0);
    const int row = get_global_id(1);
    if (row >= M || col >= N)
        return;

    float acc = 0.0f;
    for (int k = 0; k < K; k++)
        acc += A[row*N + k] * B[k*N + col];

    const int idx = row*N + col;
    C[idx] = (beta == 0.0f) ? alpha*acc : alpha*acc + beta*C[idx];
}
