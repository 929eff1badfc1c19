// Step 4 - transpose: a helper kernel first transposes A, so that A's tile, like B's, is a set of
// rows running along the output (A^T is K x M). Both tiles are then loaded the same way, along
// long contiguous rows, and the tiles become rectangular: TSM x TSK of A and TSK x TSN of B,
// with the tile depth TSK chosen independently of the output tile TSM x TSN.
//
//   C = alpha * A * B + beta * C      A is M x K, B is K x N, C is M x N, all row-major:
//                                     element (row, col) of a matrix with `cols` columns is
//                                     at index row*cols + col.
//
// Kernel 1 of 2: transpose
// Arguments   (int rows, int cols, const global float *in, global float *out)
//             out (cols x rows) = in (rows x cols) transposed; here in = A (M x K), out = A^T.
// Launch      global = (cols, rows) each rounded up to TRANSPOSE_TILE,
//             local = (TRANSPOSE_TILE, TRANSPOSE_TILE)
// Parameters  TRANSPOSE_TILE: side of the square tile staged in local memory.
//             TRANSPOSE_PAD: extra floats per row of that tile (local-memory padding against
//             bank conflicts: 0 or 1).
// Constraints any rows, cols >= 1; TRANSPOSE_TILE^2 <= the maximum work-group size.
//
// Kernel 2 of 2: sgemm
// Arguments   (int M, int N, int K, float alpha, float beta,
//              const global float *AT, const global float *B, global float *C)
//             AT is A transposed (K x M). The kernel declares AT, B and C as arrays of floatN:
//             the buffers are ordinary float arrays, read and written WIDTH floats at a time.
// Launch      2D NDRange. Dimension 0 runs along the columns of C in steps of WIDTH (one vector
//             per work-item), dimension 1 along the rows.
//             global = (N/WIDTH, M), local = (TSN/WIDTH, TSM)
// Parameters  TSM, TSN: the work-group is TSN/WIDTH x TSM work-items and computes a TSM x TSN
//             block of C; it walks along K one TSK-deep tile of A^T and of B at a time.
//             TSK: the tile depth along K.
//             WIDTH: the vector width, 1, 2, 4 or 8.
// Constraints M a multiple of TSM, N of TSN, K of TSK (no bounds checks: see step 6);
//             TSM and TSN multiples of WIDTH;
//             AT, B and C start at addresses aligned to WIDTH floats;
//             TSM*TSN/WIDTH <= the device's maximum work-group size;
//             (TSM + TSN)*TSK*4 bytes <= the device's local memory.
// When beta == 0, C is only written, never read: it may hold anything, even NaN.
// Every kernel declares its work-group shape (reqd_work_group_size), so the compiler can fit its
// use of registers to it.
//
// Defaults    from common/src/gemm_params.c; -D NAME=VALUE overrides. NVIDIA's row is for a GPU
//             whose CL_DEVICE_VENDOR contains "NVIDIA"; a device that is no GPU takes the CPU's.
//             CPU:        TSM=64 TSN=64 TSK=16 WIDTH=8 TRANSPOSE_TILE=16 TRANSPOSE_PAD=1
//             NVIDIA GPU: TSM=64 TSN=32 TSK=32 WIDTH=8 TRANSPOSE_TILE=16 TRANSPOSE_PAD=1
//             other GPUs: TSM=64 TSN=32 TSK=32 WIDTH=8 TRANSPOSE_TILE=16 TRANSPOSE_PAD=1

#if WIDTH == 1
    typedef float floatX;
#elif WIDTH == 2
    typedef float2 floatX;
#elif WIDTH == 4
    typedef float4 floatX;
#elif WIDTH == 8
    typedef float8 floatX;
#endif

// Work-items per work-group of sgemm
#define THREADS ((TSM)*(TSN)/(WIDTH))

__kernel __attribute__((reqd_work_group_size(TRANSPOSE_TILE, TRANSPOSE_TILE, 1)))
void transpose(const int rows, const int cols,
               const __global float* in,
               __global float* out)
{
    const int tx = get_local_id(0);  // 0..TRANSPOSE_TILE-1
    const int ty = get_local_id(1);  // 0..TRANSPOSE_TILE-1

    // Read a tile along the rows of `in` (coalesced) ...
    __local float tile[TRANSPOSE_TILE][TRANSPOSE_TILE + TRANSPOSE_PAD];
    const int inCol = get_group_id(0)*TRANSPOSE_TILE + tx;
    const int inRow = get_group_id(1)*TRANSPOSE_TILE + ty;
    if (inRow < rows && inCol < cols)
        tile[ty][tx] = in[inRow*cols + inCol];
    barrier(CLK_LOCAL_MEM_FENCE);

    // ... and write it along the rows of `out` (coalesced too): the transposition happens in
    // local memory, where reading a column, tile[tx][ty], is cheap. Without TRANSPOSE_PAD the
    // floats of a column are TRANSPOSE_TILE apart and may all sit in the same memory bank.
    const int outCol = get_group_id(1)*TRANSPOSE_TILE + tx;  // a row of `in`
    const int outRow = get_group_id(0)*TRANSPOSE_TILE + ty;  // a column of `in`
    if (outRow < cols && outCol < rows)
        out[outRow*rows + outCol] = tile[tx][ty];
}

__kernel __attribute__((reqd_work_group_size(TSN/WIDTH, TSM, 1)))
void sgemm(const int M, const int N, const int K,
           const float alpha, const float beta,
           const __global floatX* AT,
           const __global floatX* B,
           __global floatX* C)
{
    const int localCol = get_local_id(0);                    // vector column within the tile: 0..TSN/WIDTH-1
    const int localRow = get_local_id(1);                    // row within the tile: 0..TSM-1
    const int col = get_group_id(0)*(TSN/WIDTH) + localCol;  // vector column of C: 0..N/WIDTH-1
    const int row = get_group_id(1)*TSM + localRow;          // row of C: 0..M-1
    const int tid = localRow*(TSN/WIDTH) + localCol;         // work-item within the group: 0..THREADS-1

    // One tile of A^T (TSK x TSM) and one of B (TSK x TSN), shared by the whole work-group,
    // stored as vectors
    __local floatX Asub[TSK][TSM/WIDTH];
    __local floatX Bsub[TSK][TSN/WIDTH];

    // Walk along K one tile at a time
    floatX acc = 0.0f;  // WIDTH neighbouring elements of a row of C
    for (int t = 0; t < K/TSK; t++) {

        // The work-group loads both tiles vector by vector, neighbouring work-items taking
        // neighbouring vectors of a row (coalesced). The tiles need not have as many vectors as
        // the group has work-items, so each work-item loads every THREADS-th vector.
        for (int i = tid; i < TSK*(TSM/WIDTH); i += THREADS) {
            const int k = i / (TSM/WIDTH), m = i % (TSM/WIDTH);
            Asub[k][m] = AT[(t*TSK + k)*(M/WIDTH) + get_group_id(1)*(TSM/WIDTH) + m];
        }
        for (int i = tid; i < TSK*(TSN/WIDTH); i += THREADS) {
            const int k = i / (TSN/WIDTH), n = i % (TSN/WIDTH);
            Bsub[k][n] = B[(t*TSK + k)*(N/WIDTH) + get_group_id(0)*(TSN/WIDTH) + n];
        }

        // Wait until the whole work-group has loaded its tiles
        barrier(CLK_LOCAL_MEM_FENCE);

        // Partial dot products from local memory: one element of A times a vector of B
        for (int k = 0; k < TSK; k++) {
            const __local float* Ak = (const __local float*)Asub[k];
            acc += Ak[localRow] * Bsub[k][localCol];
        }

        // Wait until everyone is done with the tiles before the next loads overwrite them
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    // Store the result
    const int idx = row*(N/WIDTH) + col;
    C[idx] = (beta == 0.0f) ? alpha*acc : alpha*acc + beta*C[idx];
}
