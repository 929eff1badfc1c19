// A correct kernel that prints (OpenCL C's printf), as a student debugging one does: its work-item
// (0, 0) prints one line per run. With --csv the harness decides the CSV's header before anything
// runs and keeps what a kernel prints off the CSV's stream (it goes to standard error), so the CSV
// holds its header and its lines alone (tests/robustness.cmake, output.csv_kernel_printf.*).
__kernel void sgemm(const int M, const int N, const int K,
                    const float alpha, const float beta,
                    const __global float* A,
                    const __global float* B,
                    __global float* C)
{
    const int col = get_global_id(0);
    const int row = get_global_id(1);
    if (row == 0 && col == 0)
        printf("hello from the kernel: M=%d N=%d K=%d\n", M, N, K);
    if (row >= M || col >= N)
        return;
    float acc = 0.0f;
    for (int k = 0; k < K; k++)
        acc += A[row*K + k] * B[k*N + col];
    const int idx = row*N + col;
    C[idx] = (beta == 0.0f) ? alpha*acc : alpha*acc + beta*C[idx];
}
