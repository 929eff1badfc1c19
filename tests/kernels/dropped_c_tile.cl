// A deliberately wrong kernel: step 1's naive kernel whose work-group (0, 0) writes nothing, so
// one TS x TS tile of C keeps what it held before the run. With beta != 0 that is C's initial
// values, which are finite: only the size of the error can tell. The normwise check must fail
// it at every K (tests/robustness.cmake).
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
    if (get_group_id(0) == 0 && get_group_id(1) == 0)
        return;  // the bug: the first tile of C is never written
    float acc = 0.0f;
    for (int k = 0; k < K; k++)
        acc += A[row*K + k] * B[k*N + col];
    const int idx = row*N + col;
    C[idx] = (beta == 0.0f) ? alpha*acc : alpha*acc + beta*C[idx];
}
