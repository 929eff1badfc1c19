// A deliberately wrong kernel: step 1's naive kernel that forgets one element of C.
// The harness must report FAIL (exit 1): C is filled with NaN before the run when beta == 0,
// and keeps its old value otherwise, so the forgotten element cannot match the reference.
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
    if (row == M/2 && col == N/3)
        return;  // the bug
    float acc = 0.0f;
    for (int k = 0; k < K; k++)
        acc += A[row*K + k] * B[k*N + col];
    const int idx = row*N + col;
    C[idx] = (beta == 0.0f) ? alpha*acc : alpha*acc + beta*C[idx];
}
