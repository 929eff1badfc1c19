// Exercise 6.3 - write it yourself: step 6's kernels with the body of the zero-padding kernel `pad`
// left out. Copy this file to my_pad.cl in the repository root, write the missing code where the
// copy says YOUR CODE HERE, and check it with the commands of exercise 6.3 in docs/exercises.md,
// for example
//   build/kernel06_padding/kernel06_padding --kernel-file my_pad.cl -m 65 -n 70 -k 33 --brief
// As given, the file builds, runs and fails verification (exit 1).
// Launch, parameters and constraints: those of kernel06_padding/padding.cl, whose code is the
// solution: write yours before you read it.

#if WIDTH == 1
    typedef float floatX;
    #define vstoreX(v, i, p) ((p)[i] = (v))
    #define vloadX(i, p) ((p)[i])
#elif WIDTH == 2
    typedef float2 floatX;
    #define vstoreX vstore2
    #define vloadX vload2
#elif WIDTH == 4
    typedef float4 floatX;
    #define vstoreX vstore4
    #define vloadX vload4
#elif WIDTH == 8
    typedef float8 floatX;
    #define vstoreX vstore8
    #define vloadX vload8
#endif

// Work-items per work-group of sgemm: RTSN along N times RTSM along M
#define RTSM ((TSM)/(WPTM))
#define RTSN ((TSN)/(WPTN))
#define THREADS (RTSM*RTSN)

__kernel __attribute__((reqd_work_group_size(TRANSPOSE_TILE, TRANSPOSE_TILE, 1)))
void transpose(const int rows, const int cols,
               const int paddedRows, const int paddedCols,
               const __global float* in,
               __global float* out)
{
    const int tx = get_local_id(0);  // 0..TRANSPOSE_TILE-1
    const int ty = get_local_id(1);  // 0..TRANSPOSE_TILE-1

    // Read a tile along the rows of `in` (coalesced), with zeros beyond its edges ...
    __local float tile[TRANSPOSE_TILE][TRANSPOSE_TILE + TRANSPOSE_PAD];
    const int inCol = get_group_id(0)*TRANSPOSE_TILE + tx;
    const int inRow = get_group_id(1)*TRANSPOSE_TILE + ty;
    tile[ty][tx] = (inRow < rows && inCol < cols) ? in[inRow*cols + inCol] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);

    // ... and write it along the rows of `out` (coalesced too): the transposition happens in
    // local memory, where reading a column, tile[tx][ty], is cheap. Without TRANSPOSE_PAD the
    // floats of a column are TRANSPOSE_TILE apart and may all sit in the same memory bank.
    const int outCol = get_group_id(1)*TRANSPOSE_TILE + tx;  // a row of `in`
    const int outRow = get_group_id(0)*TRANSPOSE_TILE + ty;  // a column of `in`
    if (outRow < paddedCols && outCol < paddedRows)
        out[outRow*paddedRows + outCol] = tile[tx][ty];
}

__kernel __attribute__((reqd_work_group_size(TRANSPOSE_TILE, TRANSPOSE_TILE, 1)))
void pad(const int rows, const int cols,
         const int paddedRows, const int paddedCols,
         const __global float* in,
         __global floatX* out)
{
    // ---- YOUR CODE HERE: zero-pad B -------------------------------------------------------------
    // out is B zero-padded: paddedRows x paddedCols floats, row-major, seen as vectors of WIDTH
    // floats (paddedCols is a multiple of WIDTH: a row of out holds paddedCols/WIDTH vectors).
    // in is B itself: rows x cols floats, row-major, with rows <= paddedRows and cols <=
    // paddedCols; cols is any number, so a row of in may start anywhere: read in float by float.
    // One work-item per vector of out: get_global_id(0) is its vector column, get_global_id(1) its
    // row. The launch is rounded up to TRANSPOSE_TILE in both dimensions, so the last work-groups
    // reach beyond out: their work-items there must not write.
    // Every work-item inside out writes its whole vector: float (row, col) of out is B's element
    // (row, col) where B has one, and 0.0f everywhere else. out holds no zeros to begin with: a
    // zero that is not written is not there.
    // vloadX(0, p) reads the floats p[0] .. p[WIDTH-1] as one floatX.
    // In scope: rows, cols, paddedRows, paddedCols, in, out; WIDTH, floatX, vloadX.
    // As given, out keeps what it held (the harness fills it with NaN before each run).
    // ---- END OF YOUR CODE -----------------------------------------------------------------------
}

__kernel __attribute__((reqd_work_group_size(TRANSPOSE_TILE, TRANSPOSE_TILE, 1)))
void unpad(const int rows, const int cols, const int paddedCols,
           const float beta,
           const __global floatX* in,
           __global float* out)
{
    const int vcol = get_global_id(0);  // vector column of in: 0..ceil(cols/WIDTH)-1, and beyond
    const int row = get_global_id(1);   // 0..rows-1, and beyond it in the last work-groups
    if (row >= rows || vcol*WIDTH >= cols)
        return;
    // The mirror image of pad: one aligned vector read from in, floats written to out one by one.
    float value[WIDTH];
    vstoreX(in[row*(paddedCols/WIDTH) + vcol], 0, value);
    #pragma unroll
    for (int i = 0; i < WIDTH; i++) {
        const int col = vcol*WIDTH + i;
        if (col < cols) {
            const int idx = row*cols + col;
            out[idx] = (beta == 0.0f) ? value[i] : value[i] + beta*out[idx];
        }
    }
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

        // Partial dot products: for each k, copy the WPTM values of A and WPTN/WIDTH vectors of B
        // this work-item needs into registers, then do all WPTM x WPTN multiply-adds from there.
        // The loops are unrolled so that the arrays are indexed by constants and stay in registers.
        for (int k = 0; k < TSK; k++) {
            float Areg[WPTM];
            #pragma unroll
            for (int i = 0; i < WPTM/WIDTH; i++)
                vstoreX(Asub[k][localRow + i*RTSM], i, Areg);
            floatX Breg[WPTN/WIDTH];
            #pragma unroll
            for (int wn = 0; wn < WPTN/WIDTH; wn++)
                Breg[wn] = Bsub[k][localCol + wn*RTSN];
            #pragma unroll
            for (int wm = 0; wm < WPTM; wm++)
                #pragma unroll
                for (int wn = 0; wn < WPTN/WIDTH; wn++)
                    acc[wm][wn] += Areg[wm] * Breg[wn];
        }

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
