// Step 3 - vectorized: wider data types. Each work-item loads, computes and stores WIDTH-wide
// vectors (floatN), so it computes WIDTH neighbouring elements of a row of C, and every load
// and store moves WIDTH floats in one instruction.
//
//   C = alpha * A * B + beta * C      A is M x K, B is K x N, C is M x N, all row-major:
//                                     element (row, col) of a matrix with `cols` columns is
//                                     at index row*cols + col.
//
// Arguments   (int M, int N, int K, float alpha, float beta,
//              const global float *A, const global float *B, global float *C)
//             The kernel declares A, B and C as arrays of floatN: the buffers are ordinary
//             float arrays, read and written WIDTH floats at a time.
// Launch      2D NDRange. Dimension 0 runs along the columns of C in steps of WIDTH (one vector
//             per work-item), dimension 1 along the rows.
//             global = (N/WIDTH, M), local = (TS/WIDTH, TS)
//             The kernel declares this work-group shape (reqd_work_group_size), so the compiler
//             can fit its use of registers to it.
// Parameters  TS: the work-group is TS/WIDTH x TS work-items and computes a TS x TS block of C;
//             it walks along K one TS x TS tile of A and of B at a time.
//             WIDTH: the vector width, 1, 2, 4 or 8.
// Constraints M, N and K multiples of TS (no bounds checks: see step 6 for any size);
//             TS a multiple of WIDTH;
//             A, B and C start at addresses aligned to WIDTH floats;
//             TS*TS/WIDTH <= the device's maximum work-group size;
//             2*TS*TS*4 bytes <= the device's local memory.
// When beta == 0, C is only written, never read: it may hold anything, even NaN.
//
// Defaults    from common/src/gemm_params.c; -D NAME=VALUE overrides. NVIDIA's row is for a GPU
//             whose CL_DEVICE_VENDOR contains "NVIDIA"; a device that is no GPU takes the CPU's.
//             CPU:        TS=32 WIDTH=8
//             NVIDIA GPU: TS=64 WIDTH=4
//             other GPUs: TS=32 WIDTH=4

#if WIDTH == 1
    typedef float floatX;
#elif WIDTH == 2
    typedef float2 floatX;
#elif WIDTH == 4
    typedef float4 floatX;
#elif WIDTH == 8
    typedef float8 floatX;
#endif

__kernel __attribute__((reqd_work_group_size(TS/WIDTH, TS, 1)))
void sgemm(const int M, const int N, const int K,
           const float alpha, const float beta,
           const __global floatX* A,
           const __global floatX* B,
           __global floatX* C)
{
    const int localCol = get_local_id(0);                   // vector column within the tile: 0..TS/WIDTH-1
    const int localRow = get_local_id(1);                   // row within the tile: 0..TS-1
    const int col = get_group_id(0)*(TS/WIDTH) + localCol;  // vector column of C: 0..N/WIDTH-1
    const int row = get_group_id(1)*TS + localRow;          // row of C: 0..M-1

    // One tile of A and one of B, shared by the whole work-group, stored as vectors
    __local floatX Asub[TS][TS/WIDTH];
    __local floatX Bsub[TS][TS/WIDTH];

    // Walk along K one tile at a time
    floatX acc = 0.0f;  // WIDTH neighbouring elements of a row of C
    for (int t = 0; t < K/TS; t++) {

        // Each work-item loads one vector of each tile (both loads are coalesced)
        Asub[localRow][localCol] = A[row*(K/WIDTH) + t*(TS/WIDTH) + localCol];
        Bsub[localRow][localCol] = B[(t*TS + localRow)*(N/WIDTH) + col];

        // Wait until the whole work-group has loaded its tiles
        barrier(CLK_LOCAL_MEM_FENCE);

        // Partial dot products from local memory: one element of A times a vector of B
        const __local float* Arow = (const __local float*)Asub[localRow];
        for (int k = 0; k < TS; k++)
            acc += Arow[k] * Bsub[k][localCol];

        // Wait until everyone is done with the tiles before the next loads overwrite them
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    // Store the result
    const int idx = row*(N/WIDTH) + col;
    C[idx] = (beta == 0.0f) ? alpha*acc : alpha*acc + beta*C[idx];
}
