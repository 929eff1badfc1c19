// Exercise 4.2 - find the bug: step 4's kernels with one line of the transpose kernel removed.
//   build/kernel04_transpose/kernel04_transpose --kernel-file docs/exercises/step04_bug_transpose_barrier.cl -m 64 -n 64 -k 64
//   tests/oclgrind_check.sh --data-races build/kernel04_transpose/kernel04_transpose --kernel-file docs/exercises/step04_bug_transpose_barrier.cl --size 32 -D TSM=32 -D TSN=32 -D TSK=16 --repeat 1 --warmup 0
// (32 x 32 tiles: with step 4's default 64 x 64 ones a 32 x 32 problem is refused)
// Launch, parameters and constraints: those of kernel04_transpose/transpose.cl.

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
