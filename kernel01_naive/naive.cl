// Step 1 - naive: one work-item computes one element of C, reading A and B straight from
// global memory.
//
//   C = alpha * A * B + beta * C      A is M x K, B is K x N, C is M x N, all row-major:
//                                     element (row, col) of a matrix with `cols` columns is
//                                     at index row*cols + col.
//
// Arguments   (int M, int N, int K, float alpha, float beta,
//              const global float *A, const global float *B, global float *C)
// Launch      2D NDRange. Dimension 0 runs along the columns of C, dimension 1 along the rows,
//             so neighbouring work-items read neighbouring elements of B and write neighbouring
//             elements of C (coalesced), and all read the same element of A (a broadcast).
//             global = (N rounded up to TS, M rounded up to TS), local = (TS, TS)
//             The kernel declares this work-group shape (reqd_work_group_size), so the compiler
//             can fit its use of registers to it.
// Parameters  TS: the work-group is TS x TS work-items and computes a TS x TS block of C.
// Constraints any M, N, K >= 1 (work-items beyond the edge of C return at once);
//             TS*TS <= the device's maximum work-group size.
// When beta == 0, C is only written, never read: it may hold anything, even NaN.
//
// Defaults    from common/src/gemm_params.c; -D NAME=VALUE overrides. NVIDIA's row is for a GPU
//             whose CL_DEVICE_VENDOR contains "NVIDIA"; a device that is no GPU takes the CPU's.
//             CPU:        TS=16
//             NVIDIA GPU: TS=32
//             other GPUs: TS=16

__kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void sgemm(const int M, const int N, const int K,
           const float alpha, const float beta,
           const __global float* A,
           const __global float* B,
           __global float* C)
{
    const int col = get_global_id(0);  // column of C: 0..N-1, and beyond it in the last work-groups
    const int row = get_global_id(1);  // row of C: 0..M-1, and beyond it in the last work-groups
    if (row >= M || col >= N)
        return;

    // One dot product: row `row` of A with column `col` of B, all from global memory
    float acc = 0.0f;
    for (int k = 0; k < K; k++)
        acc += A[row*K + k] * B[k*N + col];

    // Store the result
    const int idx = row*N + col;
    C[idx] = (beta == 0.0f) ? alpha*acc : alpha*acc + beta*C[idx];
}
