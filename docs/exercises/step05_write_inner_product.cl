// Exercise 5.3 - write it yourself: step 5's kernels with the register-blocked inner product of the
// sgemm kernel left out. Copy this file to my_inner_product.cl in the repository root, write the
// missing code where the copy says YOUR CODE HERE, and check it with the commands of exercise 5.3
// in docs/exercises.md, for example
//   build/kernel05_register_blocking/kernel05_register_blocking --kernel-file my_inner_product.cl -m 128 -n 192 -k 64 --brief
// As given, the file builds, runs and fails verification (exit 1).
// Launch, parameters and constraints: those of kernel05_register_blocking/register_blocking.cl,
// whose code is the solution: write yours before you read it.

#if WIDTH == 1
    typedef float floatX;
    #define vstoreX(v, i, p) ((p)[i] = (v))
#elif WIDTH == 2
    typedef float2 floatX;
    #define vstoreX vstore2
#elif WIDTH == 4
    typedef float4 floatX;
    #define vstoreX vstore4
#elif WIDTH == 8
    typedef float8 floatX;
    #define vstoreX vstore8
#endif

// Work-items per work-group of sgemm: RTSN along N times RTSM along M
#define RTSM ((TSM)/(WPTM))
#define RTSN ((TSN)/(WPTN))
#define THREADS (RTSM*RTSN)

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

__kernel __attribute__((reqd_work_group_size(RTSN, RTSM, 1)))
void sgemm(const int M, const int N, const int K,
           const float alpha, const float beta,
           const __global floatX* AT,
           const __global floatX* B,
           __global floatX* C)
{
    const int localCol = get_local_id(0);                    // 0..RTSN-1
    const int localRow = get_local_id(1);                    // 0..RTSM-1
    const int tid = localRow*RTSN + localCol;                // work-item within the group: 0..THREADS-1

    // One tile of A^T (TSK x TSM) and one of B (TSK x TSN), shared by the whole work-group,
    // stored as vectors
    __local floatX Asub[TSK][TSM/WIDTH];
    __local floatX Bsub[TSK][TSN/WIDTH];

    // This work-item's WPTM x WPTN block of C, in registers. Its rows and vector columns are
    // spread over the tile, RTSM rows (of WIDTH-vectors) and RTSN vectors apart, so that
    // neighbouring work-items read neighbouring vectors of the tiles and of C.
    //   acc[wm][wn] is row (localRow + (wm/WIDTH)*RTSM)*WIDTH + wm%WIDTH of the tile,
    //   vector column localCol + wn*RTSN.
    floatX acc[WPTM][WPTN/WIDTH];
    #pragma unroll
    for (int wm = 0; wm < WPTM; wm++)
        #pragma unroll
        for (int wn = 0; wn < WPTN/WIDTH; wn++)
            acc[wm][wn] = 0.0f;

    // Walk along K one tile at a time
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

        // ---- YOUR CODE HERE: the register-blocked inner product ---------------------------------
        // Multiply the two tiles now in local memory into this work-item's block of C: for each k =
        // 0..TSK-1, add to every acc[wm][wn] (wm = 0..WPTM-1, wn = 0..WPTN/WIDTH-1) its element of
        // A at k times its vector of B at k.
        //   Asub[k][v] is vector v of row k of the tile of A^T: WIDTH neighbouring rows of the
        //   block.
        //   Bsub[k][v] is vector v of row k of the tile of B: WIDTH neighbouring columns of the
        //   block.
        //   Which row and which vector column acc[wm][wn] stands for: the comment above acc.
        // Read each value from local memory once per k: first copy the WPTM floats of A and the
        // WPTN/WIDTH vectors of B that this work-item needs into private arrays, then do all the
        // multiply-adds from there (a float times a floatX multiplies every lane). Unroll the loops
        // over wm and wn (#pragma unroll), so that the arrays are indexed by constants and can stay
        // in registers. vstoreX(v, i, p) stores the vector v into p[i*WIDTH] .. p[i*WIDTH +
        // WIDTH-1].
        // In scope: localRow, localCol, Asub, Bsub, acc; RTSM, RTSN, TSK, WPTM, WPTN, WIDTH,
        // floatX.
        // As given, acc stays 0 and the kernel computes C = beta*C.
        // ---- END OF YOUR CODE -------------------------------------------------------------------

        // Wait until everyone is done with the tiles before the next loads overwrite them
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    // Store the block
    #pragma unroll
    for (int wm = 0; wm < WPTM; wm++) {
        const int row = get_group_id(1)*TSM + (localRow + (wm/WIDTH)*RTSM)*WIDTH + wm%WIDTH;  // 0..M-1
        #pragma unroll
        for (int wn = 0; wn < WPTN/WIDTH; wn++) {
            const int col = get_group_id(0)*(TSN/WIDTH) + localCol + wn*RTSN;  // 0..N/WIDTH-1
            const int idx = row*(N/WIDTH) + col;
            C[idx] = (beta == 0.0f) ? alpha*acc[wm][wn] : alpha*acc[wm][wn] + beta*C[idx];
        }
    }
}
