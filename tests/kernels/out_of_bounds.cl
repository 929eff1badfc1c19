// A deliberately wrong kernel: step 1's naive kernel whose last work-item also writes one
// element past the end of C (the third after it). The values of C are right; the guard region
// after C catches the stray write and the harness must report FAIL (exit 1) and say where.
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
    if (idx == M*N - 1)
        C[idx + 3] = 0.0f;  // the bug: index M*N+2, the third element past the end
}
