// Exercise 7.3 - write it yourself: step 7's kernels with the double-buffered walk along K of the
// sgemm kernel left out. Copy this file to my_double_buffer.cl in the repository root, write the
// missing code where the copy says YOUR CODE HERE, and check it with the commands of exercise 7.3
// in docs/exercises.md, for example
//   build/kernel07_double_buffering/kernel07_double_buffering --kernel-file my_double_buffer.cl -m 65 -n 70 -k 33 --brief
// As given, the file builds, runs and fails verification (exit 1).
// Launch, parameters and constraints: those of kernel07_double_buffering/double_buffering.cl, whose
// code is the solution: write yours before you read it.

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
    const int vcol = get_global_id(0);  // vector column of out: 0..paddedCols/WIDTH-1, and beyond
    const int row = get_global_id(1);   // 0..paddedRows-1, and beyond it in the last work-groups
    if (row >= paddedRows || vcol >= paddedCols/WIDTH)
        return;
    // A row of `in` may start anywhere (cols is any number), so it is read float by float;
    // out's rows are multiples of WIDTH long, so each work-item writes one aligned vector.
    float value[WIDTH];
    #pragma unroll
    for (int i = 0; i < WIDTH; i++) {
        const int col = vcol*WIDTH + i;
        value[i] = (row < rows && col < cols) ? in[row*cols + col] : 0.0f;
    }
    out[row*(paddedCols/WIDTH) + vcol] = vloadX(0, value);
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

// Vectors of one tile of A^T (LPTA) and of B (LPTB) that each work-item loads
#define LPTA ((TSK*(TSM/WIDTH))/THREADS)
#define LPTB ((TSK*(TSN/WIDTH))/THREADS)

// This work-item's share of tile t of A^T and of B, from global memory into registers. The
// work-group loads the tiles vector by vector, neighbouring work-items taking neighbouring
// vectors of a row (coalesced); work-item tid takes vectors tid, tid + THREADS, ...
void loadTiles(const int t, const int tid, const int M, const int N,
                const __global floatX* AT, const __global floatX* B,
                floatX Anext[LPTA], floatX Bnext[LPTB])
{
    #pragma unroll
    for (int l = 0; l < LPTA; l++) {
        const int i = tid + l*THREADS, k = i / (TSM/WIDTH), m = i % (TSM/WIDTH);
        Anext[l] = AT[(t*TSK + k)*(M/WIDTH) + get_group_id(1)*(TSM/WIDTH) + m];
    }
    #pragma unroll
    for (int l = 0; l < LPTB; l++) {
        const int i = tid + l*THREADS, k = i / (TSN/WIDTH), n = i % (TSN/WIDTH);
        Bnext[l] = B[(t*TSK + k)*(N/WIDTH) + get_group_id(0)*(TSN/WIDTH) + n];
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

    // Two tiles of A^T (TSK x TSM) and two of B (TSK x TSN), shared by the whole work-group,
    // stored as vectors: tile t lives in buffer t%2
    __local floatX Asub[2][TSK][TSM/WIDTH];
    __local floatX Bsub[2][TSK][TSN/WIDTH];

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

    // The next tiles, on their way from global to local memory: tile 0 first
    floatX Anext[LPTA], Bnext[LPTB];
    // ---- YOUR CODE HERE (1 of 2): start loading tile 0 ------------------------------------------
    // Before the loop: start loading tile 0 into this work-item's registers Anext and Bnext.
    // loadTiles(t, tid, M, N, AT, B, Anext, Bnext) loads this work-item's share of tile t from
    // global memory: vector i = tid + l*THREADS of the tile of A^T into Anext[l] (l = 0..LPTA-1),
    // and likewise LPTB vectors of the tile of B into Bnext.
    // ---- END OF YOUR CODE -----------------------------------------------------------------------

    // Walk along K one tile at a time
    const int numTiles = K/TSK;
    for (int t = 0; t < numTiles; t++) {
        // ---- YOUR CODE HERE (2 of 2): store tile t, wait, start loading tile t+1 ----------------
        // Tile t is in Anext and Bnext (loaded in the previous iteration, or before the loop).
        // Here:
        //  - set buf to the buffer that holds tile t (the comment of Asub says which);
        //  - store Anext and Bnext into Asub[buf] and Bsub[buf]: vector i of the tile of A^T goes
        //    to row i / (TSM/WIDTH), column i % (TSM/WIDTH) of Asub[buf]; for B, TSN instead of
        //    TSM;
        //  - make the work-group wait until all of tile t is stored, with one barrier, the only one
        //    in the loop (why is one enough with two buffers, and not with one?);
        //  - start loading tile t+1, if there is one, into Anext and Bnext: its loads then run
        //    while the multiply-adds below compute with tile t.
        // In scope: t, numTiles, tid, M, N, AT, B, Anext, Bnext, Asub, Bsub, loadTiles; THREADS,
        // LPTA, LPTB, TSM, TSN, WIDTH. Replace the placeholder below.
        // As given, nothing reaches local memory and the multiply-adds read whatever is there.
        const int buf = 0;  // placeholder
        // ---- END OF YOUR CODE -------------------------------------------------------------------

        // Partial dot products: for each k, copy the WPTM values of A and WPTN/WIDTH vectors of B
        // this work-item needs into registers, then do all WPTM x WPTN multiply-adds from there.
        // The loops are unrolled so that the arrays are indexed by constants and stay in registers.
        for (int k = 0; k < TSK; k++) {
            float Areg[WPTM];
            #pragma unroll
            for (int i = 0; i < WPTM/WIDTH; i++)
                vstoreX(Asub[buf][k][localRow + i*RTSM], i, Areg);
            floatX Breg[WPTN/WIDTH];
            #pragma unroll
            for (int wn = 0; wn < WPTN/WIDTH; wn++)
                Breg[wn] = Bsub[buf][k][localCol + wn*RTSN];
            #pragma unroll
            for (int wm = 0; wm < WPTM; wm++)
                #pragma unroll
                for (int wn = 0; wn < WPTN/WIDTH; wn++)
                    acc[wm][wn] += Areg[wm] * Breg[wn];
        }
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
