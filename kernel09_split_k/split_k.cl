// Step 9 - split-K: step 8 with one idea added to its sgemm kernel. When the blocks of C are too
// few to keep every compute unit busy (a 1024 x 1024 C is 64 blocks of 128 x 128, for 132
// multiprocessors on an H100), or leave the last wave of work-groups nearly empty (4097: 33 x 33
// blocks, one row of blocks more than four full waves), the work along K is split too: for the
// rows of blocks that do not make whole waves (all of them when there are fewer blocks than the
// device runs at once), SLICES work-groups compute the same block of C, each over its own range of
// K's tiles, and write their partial sums into SLICES separate copies of those rows; the helper
// that un-pads C now also adds those copies up (and, when C needs no zero-padding, is launched on
// the split rows alone). The other rows are computed whole and written into C, as in step 8.
// Everything else is step 8's: warp tiles, two local tiles with the next loaded from global memory
// while the current one is used, and step 6's helper kernels for any M, N, K >= 1 (zero-padding the
// inputs up to multiples of the tiles). "Padding" here means zero-padding of the matrices;
// TRANSPOSE_PAD is the other kind, local-memory padding against bank conflicts.
// Kp, Mp, Np are K, M, N rounded up to TSK, TSM, TSN; a matrix that needs no padding is used as it is.
// The host chooses how many rows of blocks to split and SLICES (1 = no split) from the number of
// blocks, the depth Kp/TSK and the number of work-groups the device runs at once; the sgemm takes
// the first as an argument and reads the second from its launch geometry.
//
//   C = alpha * A * B + beta * C      A is M x K, B is K x N, C is M x N, all row-major:
//                                     element (row, col) of a matrix with `cols` columns is
//                                     at index row*cols + col.
//
// Kernel 1 of 4: transpose
// Arguments   (int rows, int cols, int paddedRows, int paddedCols, const global float *in,
//              global float *out)
//             out (paddedCols x paddedRows) = in (rows x cols) transposed, zero-padded;
//             here in = A (M x K), out = A^T padded (Kp x Mp).
// Launch      global = (paddedCols, paddedRows) each rounded up to TRANSPOSE_TILE,
//             local = (TRANSPOSE_TILE, TRANSPOSE_TILE)
// Parameters  TRANSPOSE_TILE: side of the square tile staged in local memory.
//             TRANSPOSE_PAD: extra floats per row of that tile (local-memory padding against
//             bank conflicts: 0 or 1).
// Constraints any rows <= paddedRows, cols <= paddedCols; TRANSPOSE_TILE^2 <= the maximum
//             work-group size.
//
// Kernel 2 of 4: pad
// Arguments   (int rows, int cols, int paddedRows, int paddedCols, const global float *in,
//              global float *out)
//             out (paddedRows x paddedCols) = in (rows x cols), zeros below and right; here in = B.
//             Each work-item writes WIDTH floats of a row of out as one vector.
// Launch      global = (paddedCols/WIDTH, paddedRows) each rounded up to TRANSPOSE_TILE,
//             local = (TRANSPOSE_TILE, TRANSPOSE_TILE)
// Parameters  TRANSPOSE_TILE: side of the square work-groups.
//             WIDTH: floats per vector, as in sgemm (1, 2, 4 or 8).
// Constraints paddedCols a multiple of WIDTH; out aligned to WIDTH floats;
//             TRANSPOSE_TILE^2 <= the maximum work-group size.
//
// Kernel 3 of 4: sgemm, warp-tiled and double-buffered, on the padded sizes Mp, Np, Kp, the last
//                splitRows rows of blocks over one slice of K per work-group
// Arguments   (int M, int N, int K, float alpha, float beta,
//              const global float *AT, const global float *B, global float *C,
//              global float *copies, int splitRows)
//             AT is A transposed (K x M). The block rows of C (TSM rows each) are fullRows =
//             M/TSM - splitRows computed whole, then splitRows computed in SLICES slices of K.
//             A whole block row is written into C (M x N) as alpha*A*B + beta*C, as in step 8.
//             A split one is written into `copies`, which holds SLICES*splitRows*TSM rows of N:
//             one copy of the split rows per slice, slice s of block row fullRows + r writing
//             alpha times its partial product (no beta) at rows (s*splitRows + r)*TSM and on.
//             With splitRows = 0 nothing is split and `copies` is not used. The kernel declares
//             AT, B, C and copies as arrays of floatN: the buffers are ordinary float arrays, read
//             and written WIDTH floats at a time.
// Launch      2D NDRange of work-items, each computing a WPTM x WPTN block of C: dimension 0
//             runs along the columns of C (N/WPTN work-items), dimension 1 along the rows: the
//             fullRows whole rows of blocks, then the splitRows split ones SLICES times over.
//             global = (N/WPTN, (fullRows + SLICES*splitRows)*TSM/WPTM), local = (TSN/WPTN, TSM/WPTM)
//             Work-group row g < fullRows computes block row g over all of K's K/TSK tiles; row
//             g >= fullRows computes block row fullRows + (g - fullRows) % splitRows over slice
//             s = (g - fullRows) / splitRows: tiles s*(K/TSK)/SLICES up to (s+1)*(K/TSK)/SLICES
//             (rounded down), and writes it at block row g - fullRows of copies. The whole rows
//             come first: they fill the device's first waves, the shorter slices its last.
// Parameters  TSM, TSN: the work-group is TSN/WPTN x TSM/WPTM work-items and computes a TSM x TSN
//             block of C; it walks along K one TSK-deep tile of A^T and of B at a time.
//             TSK: the tile depth along K.
//             WTM, WTN: the warp tile. The work-group's work-items, taken in order of their linear
//             index get_local_id(1)*(TSN/WPTN) + get_local_id(0), form warps of
//             (WTM/WPTM)*(WTN/WPTN) consecutive work-items; warp w computes the WTM x WTN sub-tile
//             in row w/(TSN/WTN), column w%(TSN/WTN) of the block. Fast when a warp is exactly a
//             sub-group of the hardware (32 work-items on NVIDIA); correct for any sizes.
//             LANE_SQUARES: 0 or 1, how the work-items of a warp stand in its tile. 0: in rows,
//             lane l in row l/(WTN/WPTN), column l%(WTN/WPTN). 1: in squares of 2 x 2, lane bit 0
//             along N, bit 1 along M, the squares in rows, so that lanes l and l^1 read the same
//             vector of A^T and lanes l and l^2 the same vector of B: neighbouring lanes reading
//             one vector is the one kind of sharing that makes a read from local memory cheaper on
//             the recorded NVIDIA GPU (bench/peak --local-reads), and in rows it helps A^T only.
//             WPTM, WPTN: each work-item computes WPTM rows x WPTN columns of C ("work per
//             thread"), as WPTN/WIDTH vectors in each of WPTM rows; the work-items of a warp
//             stand WTM/WPTM along M by WTN/WPTN along N.
//             WIDTH: the vector width, 1, 2, 4 or 8.
// Constraints M a multiple of TSM, N of TSN, K of TSK (true of the padded sizes by construction);
//             0 <= splitRows <= M/TSM; SLICES >= 1 (a slice left without a tile, when
//             SLICES > K/TSK, writes zeros); (M + (SLICES-1)*splitRows*TSM)*N < 2^31 (C and the copies, indexed
//             as rows that continue C's) and SLICES*(K/TSK) < 2^31;
//             TSM a multiple of WTM, TSN of WTN, WTM of WPTM, WTN of WPTN, WPTM and WPTN
//             multiples of WIDTH; with LANE_SQUARES = 1, WTM/WPTM and WTN/WPTN even;
//             AT, B, C and copies start at addresses aligned to WIDTH floats;
//             (TSM/WPTM)*(TSN/WPTN) <= the device's maximum work-group size;
//             TSK*TSM/WIDTH and TSK*TSN/WIDTH multiples of (TSM/WPTM)*(TSN/WPTN) (each work-item
//             loads the same number of vectors of every tile);
//             2*(TSM + TSN)*TSK*4 bytes <= the device's local memory (two tiles of each).
// When beta == 0, C is only written, never read: it may hold anything, even NaN.
// Every kernel declares its work-group shape (reqd_work_group_size), so the compiler can fit its
// use of registers to it.
//
// Kernel 4 of 4: unpad, which also adds up the slices
// Arguments   (int rows, int cols, int paddedRows, int paddedCols, int firstRow, int splitFrom,
//              int slices, float beta, const global float *in, const global float *copies,
//              global float *out)
//             Rows firstRow to rows-1 of out (rows x cols) become X + beta * out, where X is, for a
//             row r < splitFrom, row r of the paddedRows x paddedCols matrix in (its top-left
//             corner), and for a row r >= splitFrom the sum of the slices copies of it: rows
//             (r - splitFrom) + s*(paddedRows - splitFrom) of copies, s = 0 to slices-1. Here
//             in = the padded C that sgemm wrote with beta = 0, copies = sgemm's copies,
//             splitFrom = fullRows*TSM, out = C and firstRow = 0; when C needs no padding, sgemm
//             wrote the whole rows into C itself, and firstRow = splitFrom (in is not read). Each
//             work-item reads WIDTH floats of a row of each matrix as one vector.
// Launch      global = (ceil(cols/WIDTH), rows - firstRow) each rounded up to TRANSPOSE_TILE,
//             local = (TRANSPOSE_TILE, TRANSPOSE_TILE)
// Parameters  TRANSPOSE_TILE: side of the square work-groups.
//             WIDTH: floats per vector, as in sgemm (1, 2, 4 or 8).
// Constraints paddedCols a multiple of WIDTH; in and copies aligned to WIDTH floats;
//             0 <= firstRow <= splitFrom <= paddedRows, firstRow < rows <= paddedRows;
//             paddedRows*paddedCols < 2^31 and slices*(paddedRows - splitFrom)*paddedCols < 2^31;
//             TRANSPOSE_TILE^2 <= the maximum work-group size.
// When beta == 0, out is only written, never read.
//
// Which kernel applies beta: sgemm writes the whole block rows with the caller's alpha and beta
// straight into C when M and N are multiples of TSM and TSN (C needs no padding), and with beta = 0
// into the padded C otherwise; it writes the copies of the split rows with beta = 0. unpad applies
// the caller's beta to every row it writes: all of C when C is padded, the split rows alone when
// not; it is not launched when C is neither padded nor split.
// B is padded only when K or N is not a multiple of TSK or TSN; A is always transposed.
//
// Defaults    from common/src/gemm_params.c; -D NAME=VALUE overrides. NVIDIA's row is for a GPU
//             whose CL_DEVICE_VENDOR contains "NVIDIA"; a device that is no GPU takes the CPU's.
//             CPU:        TSM=32 TSN=64 TSK=16 WTM=32 WTN=64 LANE_SQUARES=0 WPTM=8 WPTN=8 WIDTH=8
//                         TRANSPOSE_TILE=16 TRANSPOSE_PAD=1 SLICES=0 SPLIT_ROWS=0 GROUPS_PER_CU=1
//             NVIDIA GPU: TSM=128 TSN=128 TSK=16 WTM=64 WTN=64 LANE_SQUARES=1 WPTM=16 WPTN=8
//                         WIDTH=4 TRANSPOSE_TILE=16 TRANSPOSE_PAD=1 SLICES=0 SPLIT_ROWS=0
//                         GROUPS_PER_CU=2
//             other GPUs: TSM=64 TSN=64 TSK=16 WTM=16 WTN=64 LANE_SQUARES=0 WPTM=4 WPTN=8 WIDTH=4
//                         TRANSPOSE_TILE=16 TRANSPOSE_PAD=1 SLICES=0 SPLIT_ROWS=0 GROUPS_PER_CU=2
//
// How the host chooses SLICES and SPLIT_ROWS where they are 0 (the defaults): gemm_split_k_choose()
// and its cost model gemm_split_k_cost(), in common/src/gemm_step_rules.c and
// common/include/gemm_step_rules.h (docs/sitegen/stepdefs.py has a Python copy). With R = Mp/TSM
// rows of blocks, cols = Np/TSN blocks per row, T = Kp/TSK tiles of K and
// W = CL_DEVICE_MAX_COMPUTE_UNITS x GROUPS_PER_CU (at least 1) work-groups running at once:
// - split rows: the last q = R - (R*cols/W)*W/cols (integer divisions), the rows left over after
//   whole waves of W blocks; all R when R*cols < W. q = 0: no split (SLICES=1, SPLIT_ROWS=0).
// - SLICES: the s from 1 (no split: q = 0) to min(64, T) with the lowest cost, the smallest of
//   equal ones; the top lowered while s*q*TSM*Np floats (the copies) exceed 2^31 - 1 or
//   CL_DEVICE_MAX_MEM_ALLOC_SIZE/4, (Mp + (s-1)*q*TSM)*Np (C's rows and the copies after them)
//   exceeds 2^31 - 1, or s*T does (the kernels' int indices).
// - cost(s), in tiles of the sgemm's loop: the time the last work-group ends when W slots run the
//   (R - q)*cols whole work-groups of T + G tiles, then the q*cols*s split ones of ceil(T/s) + G
//   tiles, each on the first slot free; plus unpad's traffic,
//   (c + (s + 1)*q*cols) * (4*F/(2*TSK)) / W, with c = 2*(R - q)*cols where C is padded, else 0.
//   F = GEMM_SPLIT_FLOPS_PER_BYTE = 15 (a GPU's flops per byte of memory bandwidth),
//   G = GEMM_SPLIT_GROUP_TILES = 1 (a work-group's first load and last store). The costs are
//   compared exactly: compute them in doubles, in this order.
// -D SLICES=n forces n slices (and at least one split row); -D SPLIT_ROWS=n, the last min(n, R).

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
    const int blockRow = split ? fullRows + (get_group_id(1) - fullRows) % splitRows : get_group_id(1);
    const int slice = split ? (get_group_id(1) - fullRows) / splitRows : 0;
    const int slices = split ? (get_num_groups(1) - fullRows) / splitRows : 1;
    const int firstTile = slice*(K/TSK)/slices, numTiles = (slice + 1)*(K/TSK)/slices - firstTile;
    AT += firstTile*TSK*(M/WIDTH) + blockRow*(TSM/WIDTH);
    B += firstTile*TSK*(N/WIDTH);

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
