// Exercise 1.1 - find the bug. This kernel is step 1 (kernel01_naive/naive.cl) with one
// character changed. It passes verification on square matrices and fails on others:
//   build/kernel01_naive/kernel01_naive --kernel-file docs/exercises/step01_bug_index.cl --size 64
//   build/kernel01_naive/kernel01_naive --kernel-file docs/exercises/step01_bug_index.cl -m 64 -n 48 -k 80
// Launch and arguments: as kernel01_naive/naive.cl.

__kernel void sgemm(const int M, const int N, const int K,
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
