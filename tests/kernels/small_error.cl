// A deliberately wrong kernel: step 1's naive kernel with a small but real error in one element
// of C: 0.002 added to one dot product. With the test's inputs (uniform in [-1, 1), K = 80) a
// dot product is typically about 3 in size, so this is an error of less than 0.1 %, yet about
// 1000 times float's rounding error. The harness must report FAIL (exit 1).
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
    if (row == M - 1 && col == N - 1)
        acc += 0.002f;  // the bug
    const int idx = row*N + col;
    C[idx] = (beta == 0.0f) ? alpha*acc : alpha*acc + beta*C[idx];
}
