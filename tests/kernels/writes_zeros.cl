// A deliberately wrong kernel: it ignores A and B and writes 0 to every element of C. The
// element-wise worst-case bound grows like K^2 on random data while the result grows like
// sqrt(K), so from K ~ 65536 that bound exceeds the result and this kernel would pass it; the
// normwise check (gemm_verify.h) must fail it at every K (tests/robustness.cmake).
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
    C[row*N + col] = 0.0f;
}
