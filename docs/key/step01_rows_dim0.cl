// Exercise 1.2 - solution. Step 1 with the two NDRange dimensions exchanged: dimension 0 now
// runs along the rows of C. Neighbouring work-items (same get_global_id(1), consecutive
// get_global_id(0)) now read elements of A that are K floats apart, all read the same element
// of B, and write elements of C that are N floats apart: no load or store is coalesced.
//
// The host of kernel01_naive still launches global = (N, M) rounded up to TS, so dimension 0
// spans the columns' count and dimension 1 the rows' count: the kernel covers all of C only when
// those two rounded sizes are equal. Run it on square problems:
//   build/kernel01_naive/kernel01_naive --kernel-file docs/key/step01_rows_dim0.cl --size 512
// On M=64 N=48 it leaves rows 48..63 unwritten and fails verification: a kernel and its launch
// geometry (main.c's plan) must agree.

__kernel void sgemm(const int M, const int N, const int K,
                    const float alpha, const float beta,
                    const __global float* A,
                    const __global float* B,
                    __global float* C)
{
    const int row = get_global_id(0);  // row of C
    const int col = get_global_id(1);  // column of C
    if (row >= M || col >= N)
        return;

    float acc = 0.0f;
    for (int k = 0; k < K; k++)
        acc += A[row*K + k] * B[k*N + col];

    const int idx = row*N + col;
    C[idx] = (beta == 0.0f) ? alpha*acc : alpha*acc + beta*C[idx];
}
