// A deliberately wrong kernel: step 1's naive kernel that leaves out one tile of 16 terms of
// every dot product (the one in the middle of K), as a tiled kernel that skips one step of its
// loop over K would. At K = 4,000,000 that is 16 terms of 4 million; the normwise check must
// still fail it (tests/robustness.cmake).
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
    const int skipped = (K/16)/2;  // the bug: tile `skipped` (16 values of k) is left out
    float acc = 0.0f;
    for (int k = 0; k < K; k++)
        if (k/16 != skipped)
            acc += A[row*K + k] * B[k*N + col];
    const int idx = row*N + col;
    C[idx] = (beta == 0.0f) ? alpha*acc : alpha*acc + beta*C[idx];
}
