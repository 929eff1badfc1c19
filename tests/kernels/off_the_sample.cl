// A deliberately wrong kernel for the exact check (gemm_exact.h): step 1's naive kernel with
// one element of C, at (1, 1), 1001 times too large: outside the rows and columns that a sampled
// reference covers (gemm_verify.h), so only the exact check, which covers every element, sees it.
// The tolerance checks of a sampled reference do not look there; the exact check must fail it.
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
    C[idx] = ((row == 1 && col == 1) ? 1001.0f : 1.0f) * ((beta == 0.0f) ? alpha*acc : alpha*acc + beta*C[idx]);  // the bug: 1001.0f
}
