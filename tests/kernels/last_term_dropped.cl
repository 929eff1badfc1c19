// A deliberately wrong kernel for the exact check (gemm_exact.h): step 1's naive kernel with
// the last term of each dot product left out (the loop stops one short): one term
// of K.
// Its error is as small as the rounding a correct kernel may make, so the tolerance checks on
// random data pass it at the sizes of its tests; the exact check must fail it (exit 1).
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
    for (int k = 0; k < K - 1; k++)  // the bug: K - 1
        acc += A[row*K + k] * B[k*N + col];
    const int idx = row*N + col;
    C[idx] = (beta == 0.0f) ? alpha*acc : alpha*acc + beta*C[idx];
}
