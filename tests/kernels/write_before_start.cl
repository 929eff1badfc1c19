// A deliberately wrong kernel: step 1's naive kernel whose first work-item also writes the
// element just before the start of C, C[-1]. The values of C are right; the guard region before
// C catches the stray write and the harness must report FAIL (exit 1) and say where.
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
        acc += A[row*K + k] * B[k*N + col];
    const int idx = row*N + col;
    C[idx] = (beta == 0.0f) ? alpha*acc : alpha*acc + beta*C[idx];
    if (idx == 0)
        C[idx - 1] = 0.0f;  // the bug: one element before the start
}
