// Exercise 9.2 - write it yourself: step 9's kernels with the choice of block row and slice of K in
// the sgemm kernel left out. Copy this file to my_slices.cl in the repository root, write the
// missing code where the copy says YOUR CODE HERE, and check it with the commands of exercise 9.2
// in docs/exercises.md, for example
//   build/kernel09_split_k/kernel09_split_k --kernel-file my_slices.cl -m 65 -n 70 -k 100 -D SLICES=3 --brief
// As given, the file builds, runs and fails verification (exit 1).
// Launch, parameters and constraints: those of kernel09_split_k/split_k.cl, whose code is the
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

// A warp: LANESN work-items along N times LANESM along M compute a WTM x WTN sub-tile of C
#define LANESM ((WTM)/(WPTM))
#define LANESN ((WTN)/(WPTN))
#define WARP (LANESM*LANESN)

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
void unpad(const int rows, const int cols, const int paddedRows, const int paddedCols,
           const int firstRow, const int splitFrom, const int slices, const float beta,
           const __global floatX* in, const __global floatX* copies,
           __global float* out)
{
    const int vcol = get_global_id(0);             // vector column: 0..ceil(cols/WIDTH)-1, and beyond
    const int row = firstRow + get_global_id(1);   // firstRow..rows-1, and beyond it in the last work-groups
    if (row >= rows || vcol*WIDTH >= cols)
        return;
    // The mirror image of pad: one aligned vector read from the padded C or, in a split row, from
    // each slice's copy, added up; floats written to out one by one.
    floatX sum;
    if (row < splitFrom) {
        sum = in[row*(paddedCols/WIDTH) + vcol];
    } else {
        sum = 0.0f;
        for (int s = 0; s < slices; s++)
            sum += copies[(row - splitFrom + s*(paddedRows - splitFrom))*(paddedCols/WIDTH) + vcol];
    }
    float value[WIDTH];
    vstoreX(sum, 0, value);
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
        Anext[l] = AT[(t*TSK + k)*(M/WIDTH) + m];  // AT points to the block row's first column
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
           __global floatX* C,
           __global floatX* copies,
           const int splitRows)
{
    const int localCol = get_local_id(0);                    // 0..RTSN-1
    const int localRow = get_local_id(1);                    // 0..RTSM-1
    const int tid = localRow*RTSN + localCol;                // work-item within the group: 0..THREADS-1

    // Which warp this work-item belongs to, where that warp's sub-tile lies in the block, and
    // where the work-item stands in the warp
    const int warp = tid / WARP, lane = tid % WARP;
    const int warpRow = warp / (TSN/WTN), warpCol = warp % (TSN/WTN);
#if LANE_SQUARES
    const int square = lane / 4;                             // 2 x 2 lanes each, LANESN/2 in a row
    const int laneRow = (square / (LANESN/2))*2 + (lane / 2) % 2;
    const int laneCol = (square % (LANESN/2))*2 + lane % 2;
#else
    const int laneRow = lane / LANESN, laneCol = lane % LANESN;
#endif
    const int rowBase = warpRow*(WTM/WIDTH) + laneRow;       // first row of WIDTH-vectors in the tile
    const int colBase = warpCol*(WTN/WIDTH) + laneCol;       // first vector column in the tile

    // Which block row of C this work-group computes, and over which slice of K's tiles: the first
    // fullRows work-group rows are block rows computed whole, the others the last splitRows block
    // rows SLICES times over. AT and B are moved once to the slice's first tile (and AT to the
    // block row), so that the loop's addresses are step 8's: with the offsets inside every address of
    // the loop instead, it ran slower on an H100 (the tuning record in lab/README.md).
    const int fullRows = M/TSM - splitRows;
    const int split = get_group_id(1) >= fullRows;
    // ---- YOUR CODE HERE: this work-group's block row and slice of K -----------------------------
    // Work-group row g = get_group_id(1) computes block row g of C (rows g*TSM to g*TSM + TSM-1)
    // over all of K's K/TSK tiles when g < fullRows (split is then 0). The others (split is 1)
    // compute the last splitRows block rows, each SLICES times, once per slice of K's tiles: the
    // work-group rows from fullRows to fullRows + splitRows-1 compute slice 0 of those block rows
    // in order, the next splitRows rows slice 1, and so on (that is where the store below writes
    // them, and where unpad finds them). SLICES is no parameter of this kernel: the launch gives
    // it, as get_num_groups(1) = fullRows + SLICES*splitRows.
    // Set firstTile and numTiles: the first of the tiles this work-group walks, and how many. A
    // whole row walks them all. The slices of a split row must together walk every tile exactly
    // once, and their numbers of tiles differ by at most one, whatever SLICES and K/TSK (a slice
    // may get no tile at all, when SLICES > K/TSK).
    // Then move AT and B so that loadTiles(t, ...), which reads AT[(t*TSK + k)*(M/WIDTH) + m] and
    // B[(t*TSK + k)*(N/WIDTH) + get_group_id(0)*(TSN/WIDTH) + n], loads tile t of this work-group's
    // slice, and m counts the vectors of this block row's TSM columns of A^T.
    // In scope: M, N, K, splitRows, fullRows, split, AT, B; TSM, TSK, WIDTH.
    // Replace the placeholders below.
    // As given, numTiles is 0: nothing is added up, and the kernel computes C = beta*C.
    int firstTile = 0, numTiles = 0;  // placeholders
    // ---- END OF YOUR CODE -----------------------------------------------------------------------

    // Two tiles of A^T (TSK x TSM) and two of B (TSK x TSN), shared by the whole work-group,
    // stored as vectors: tile t lives in buffer t%2
    __local floatX Asub[2][TSK][TSM/WIDTH];
    __local floatX Bsub[2][TSK][TSN/WIDTH];

    // This work-item's WPTM x WPTN block of C, in registers. Its rows and vector columns are
    // spread over the warp's sub-tile, LANESM rows (of WIDTH-vectors) and LANESN vectors apart,
    // so that the work-items of a warp read neighbouring vectors of the tiles and of C.
    //   acc[wm][wn] is row (rowBase + (wm/WIDTH)*LANESM)*WIDTH + wm%WIDTH of the tile,
    //   vector column colBase + wn*LANESN.
    floatX acc[WPTM][WPTN/WIDTH];
    #pragma unroll
    for (int wm = 0; wm < WPTM; wm++)
        #pragma unroll
        for (int wn = 0; wn < WPTN/WIDTH; wn++)
            acc[wm][wn] = 0.0f;

    // The next tiles, on their way from global to local memory: the slice's first tile first
    floatX Anext[LPTA], Bnext[LPTB];
    loadTiles(0, tid, M, N, AT, B, Anext, Bnext);

    // Walk along the slice of K one tile at a time (t counts the slice's tiles)
    for (int t = 0; t < numTiles; t++) {
        const int buf = t % 2;

        // Store tile t into buffer buf. Nobody reads that buffer now: its last reader was
        // tile t-2, and every work-item passed the barrier of tile t-1 after computing with it.
        #pragma unroll
        for (int l = 0; l < LPTA; l++) {
            const int i = tid + l*THREADS;
            Asub[buf][i / (TSM/WIDTH)][i % (TSM/WIDTH)] = Anext[l];
        }
        #pragma unroll
        for (int l = 0; l < LPTB; l++) {
            const int i = tid + l*THREADS;
            Bsub[buf][i / (TSN/WIDTH)][i % (TSN/WIDTH)] = Bnext[l];
        }

        // Wait until the whole work-group has stored tile t: the only barrier per tile
        barrier(CLK_LOCAL_MEM_FENCE);

        // Start loading tile t+1: the loads are in flight while the multiply-adds below run,
        // and their registers are read only at the top of the next iteration
        if (t + 1 < numTiles)
            loadTiles(t + 1, tid, M, N, AT, B, Anext, Bnext);

        // Partial dot products: for each k, copy the WPTM values of A and WPTN/WIDTH vectors of B
        // this work-item needs into registers, then do all WPTM x WPTN multiply-adds from there.
        // The loops are unrolled so that the arrays are indexed by constants and stay in registers.
        for (int k = 0; k < TSK; k++) {
            float Areg[WPTM];
            #pragma unroll
            for (int i = 0; i < WPTM/WIDTH; i++)
                vstoreX(Asub[buf][k][rowBase + i*LANESM], i, Areg);
            floatX Breg[WPTN/WIDTH];
            #pragma unroll
            for (int wn = 0; wn < WPTN/WIDTH; wn++)
                Breg[wn] = Bsub[buf][k][colBase + wn*LANESN];
            #pragma unroll
            for (int wm = 0; wm < WPTM; wm++)
                #pragma unroll
                for (int wn = 0; wn < WPTN/WIDTH; wn++)
                    acc[wm][wn] += Areg[wm] * Breg[wn];
        }
    }

    // Store the block: a whole one into C, as step 8 does; a split one, without beta, into its
    // slice's copy of the split rows. The copies continue C's rows: work-group row g writes rows
    // g*TSM and on of C, or of the copies less C's first fullRows*TSM rows; unpad adds them up.
    #pragma unroll
    for (int wm = 0; wm < WPTM; wm++) {
        const int row = get_group_id(1)*TSM + (rowBase + (wm/WIDTH)*LANESM)*WIDTH + wm%WIDTH;
        #pragma unroll
        for (int wn = 0; wn < WPTN/WIDTH; wn++) {
            const int col = get_group_id(0)*(TSN/WIDTH) + colBase + wn*LANESN;  // 0..N/WIDTH-1
            const int idx = row*(N/WIDTH) + col;
            if (split)
                copies[idx - fullRows*TSM*(N/WIDTH)] = alpha*acc[wm][wn];
            else
                C[idx] = (beta == 0.0f) ? alpha*acc[wm][wn] : alpha*acc[wm][wn] + beta*C[idx];
        }
    }
}
