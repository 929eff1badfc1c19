// Step 2 - tiled: the work-group stages TS x TS tiles of A and B in local memory, so each value
// fetched from global memory is used TS times instead of once.
//
//   C = alpha * A * B + beta * C      A is M x K, B is K x N, C is M x N, all row-major:
//                                     element (row, col) of a matrix with `cols` columns is
//                                     at index row*cols + col.
//
// Arguments   (int M, int N, int K, float alpha, float beta,
//              const global float *A, const global float *B, global float *C)
// Launch      2D NDRange. Dimension 0 runs along the columns of C, dimension 1 along the rows.
//             global = (N, M), local = (TS, TS)
//             The kernel declares this work-group shape (reqd_work_group_size), so the compiler
//             can fit its use of registers to it.
// Parameters  TS: the work-group is TS x TS work-items and computes a TS x TS block of C;
//             it walks along K one TS x TS tile of A and of B at a time.
// Constraints M, N and K multiples of TS (no bounds checks: see step 6 for any size);
//             TS*TS <= the device's maximum work-group size;
//             2*TS*TS*4 bytes <= the device's local memory.
// When beta == 0, C is only written, never read: it may hold anything, even NaN.
//
// Defaults    from common/src/gemm_params.c; -D NAME=VALUE overrides. NVIDIA's row is for a GPU
//             whose CL_DEVICE_VENDOR contains "NVIDIA"; a device that is no GPU takes the CPU's.
//             CPU:        TS=32
//             NVIDIA GPU: TS=32
//             other GPUs: TS=16

__kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void sgemm(const int M, const int N, const int K,
           const float alpha, const float beta,
           const __global float* A,
           const __global float* B,
           __global float* C)
{
    const int localCol = get_local_id(0);           // column within the tile: 0..TS-1
    const int localRow = get_local_id(1);           // row within the tile: 0..TS-1
    const int col = get_group_id(0)*TS + localCol;  // column of C: 0..N-1
    const int row = get_group_id(1)*TS + localRow;  // row of C: 0..M-1

    // One tile of A and one of B, shared by the whole work-group
    __local float Asub[TS][TS];
    __local float Bsub[TS][TS];

    // Walk along K one tile at a time
    float acc = 0.0f;
    for (int t = 0; t < K/TS; t++) {

        // Each work-item loads one element of each tile (both loads are coalesced)
        Asub[localRow][localCol] = A[row*K + t*TS + localCol];
        Bsub[localRow][localCol] = B[(t*TS + localRow)*N + col];

        // Wait until the whole work-group has loaded its tiles
        barrier(CLK_LOCAL_MEM_FENCE);

        // Partial dot product from local memory
        for (int k = 0; k < TS; k++)
            acc += Asub[localRow][k] * Bsub[k][localCol];

        // Wait until everyone is done with the tiles before the next loads overwrite them
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    // Store the result
    const int idx = row*N + col;
    C[idx] = (beta == 0.0f) ? alpha*acc : alpha*acc + beta*C[idx];
}
