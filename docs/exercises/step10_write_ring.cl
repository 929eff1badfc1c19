// Exercise 10.2 - write it yourself: step 10's kernels with the ring of asynchronous copies of the
// sgemm kernel left out. Copy this file to my_ring.cl in the repository root, write the missing
// code where the copy says YOUR CODE HERE, and check it with the commands of exercise 10.2 in
// docs/exercises.md, for example
//   build/kernel10_async_copy/kernel10_async_copy --kernel-file my_ring.cl -m 65 -n 70 -k 100 -D SLICES=1 -D COPY=0 -D STAGES=3 --brief
// As given, the file builds, runs and fails verification (exit 1).
// Launch, parameters and constraints: those of kernel10_async_copy/async_copy.cl, whose code is the
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

#if COPY == 1
// One vector from global to local memory with cp.async (NVIDIA, compute capability 8.0 and later):
// the copy bypasses the registers and completes on its own. A local pointer's value is its
// address in the shared (local) memory window, which is what the instruction's first operand
// takes; 16-byte copies can skip the L1 cache (.cg), smaller ones cannot (.ca).
inline void copyVector(__local floatX *dst, const __global floatX *src)
{
#if WIDTH == 1
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"((uint)(size_t)dst), "l"(src) : "memory");
#elif WIDTH == 2
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"((uint)(size_t)dst), "l"(src) : "memory");
#else
    #pragma unroll
    for (int h = 0; h < WIDTH/4; h++)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;"
                     :: "r"((uint)(size_t)((__local float4*)dst + h)), "l"((const __global float4*)src + h)
                     : "memory");
#endif
}
#endif

#if COPY == 3
// COPY = 3, for the tests only: the sgemm's COPY = 0 code, its events and waits included, with copies
// that complete as late as OpenCL allows, their buffer undefined until then: event_t stands for a
// record of the copy (lateTiles), and wait_group_events() for waitLate(). Starting a tile's copy fills
// this work-item's share of the buffer with NaN at once; the tile arrives only at the wait on its
// event, each work-item copying its own share there (the vectors COPY = 1 gives it: the barrier after
// the wait shares them, as with cp.async). A tile never waited for, or a wait on another buffer's
// event, then leaves NaN in C on any device, PoCL included, where with COPY = 0 they verify (PoCL's
// copies complete inside the call). A copy started before the barrier that frees its buffer writes
// NaN into a tile other work-items still read: a data race that Oclgrind reports, and wrong numbers
// where work-items interleave (not on PoCL, which ends each pass of a loop holding a barrier with a
// barrier of its own). As in OpenCL, an event no copy returned must not be waited for.
typedef struct {
    const __global floatX *A, *B;                          // the tile's first row in A^T, in B; 0 once arrived
    int rowA, rowB;                                        // a row of A^T, of B, in vectors
    __local floatX (*Asub)[TSM/WIDTH], (*Bsub)[TSN/WIDTH]; // the buffer of the ring it goes to
} lateTiles;
#define event_t lateTiles
#undef wait_group_events  // (some implementations, PoCL's among them, define the built-in's name as a macro)
#define wait_group_events waitLate

// This work-item's share of a tile's copy: NaN when the copy starts, the tile when it is waited for
void lateShare(const lateTiles *c, const int arrived)
{
    const int tid = get_local_id(1)*RTSN + get_local_id(0);
    for (int l = 0; l < LPTA; l++) {
        const int i = tid + l*THREADS, k = i / (TSM/WIDTH), m = i % (TSM/WIDTH);
        c->Asub[k][m] = arrived ? c->A[k*c->rowA + m] : (floatX)NAN;
    }
    for (int l = 0; l < LPTB; l++) {
        const int i = tid + l*THREADS, k = i / (TSN/WIDTH), n = i % (TSN/WIDTH);
        c->Bsub[k][n] = arrived ? c->B[k*c->rowB + n] : (floatX)NAN;
    }
}

void waitLate(const int num, lateTiles *events)
{
    for (int e = 0; e < num; e++)
        if (events[e].A) {
            lateShare(&events[e], 1);
            events[e].A = 0;
        }
}
#endif

// Start copying tile t of A^T and of B into one buffer of the ring, without waiting for it.
// COPY = 1: this work-item's share, vector by vector, neighbouring work-items taking neighbouring
// vectors of a row (coalesced). COPY = 0: the whole work-group copies the tile row by row, the
// copies attached to one event, *copied. COPY = 3: the copy recorded in *copied, its buffer NaN.
void copyTiles(const int t, const int tid, const int M, const int N,
               const __global floatX* AT, const __global floatX* B,
               __local floatX Asub[TSK][TSM/WIDTH], __local floatX Bsub[TSK][TSN/WIDTH], event_t *copied)
{
#if COPY == 1
    #pragma unroll
    for (int l = 0; l < LPTA; l++) {
        const int i = tid + l*THREADS, k = i / (TSM/WIDTH), m = i % (TSM/WIDTH);
        copyVector(&Asub[k][m], &AT[(t*TSK + k)*(M/WIDTH) + m]);  // AT points to the block row's first column
    }
    #pragma unroll
    for (int l = 0; l < LPTB; l++) {
        const int i = tid + l*THREADS, k = i / (TSN/WIDTH), n = i % (TSN/WIDTH);
        copyVector(&Bsub[k][n], &B[(t*TSK + k)*(N/WIDTH) + get_group_id(0)*(TSN/WIDTH) + n]);
    }
#elif COPY == 3
    const lateTiles tile = {&AT[t*TSK*(M/WIDTH)], &B[t*TSK*(N/WIDTH) + get_group_id(0)*(TSN/WIDTH)], M/WIDTH, N/WIDTH,
                            Asub, Bsub};
    *copied = tile;
    lateShare(copied, 0);
#else
    event_t tile = 0;
    for (int k = 0; k < TSK; k++)
        tile = async_work_group_copy(Asub[k], &AT[(t*TSK + k)*(M/WIDTH)], TSM/WIDTH, tile);
    for (int k = 0; k < TSK; k++)
        tile = async_work_group_copy(Bsub[k], &B[(t*TSK + k)*(N/WIDTH) + get_group_id(0)*(TSN/WIDTH)],
                                     TSN/WIDTH, tile);
    *copied = tile;
#endif
}

// COPY = 1: close the commit group of the copies started since the last one (one group per tile,
// empty where there was no tile left to copy, so that tile t is always in the same group number)
inline void commitTiles(void)
{
#if COPY == 1
    asm volatile("cp.async.commit_group;" ::: "memory");
#endif
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
    // block row), so that the loop's addresses are step 8's: with the offsets inside every address of the
    // loop instead, it ran slower on an H100. With the block row computed as in step 9 (a remainder)
    // and C moved by the slice before the loop, this kernel's sgemm ran slower there too (the tuning
    // record in lab/README.md has both).
    const int fullRows = M/TSM - splitRows;
    const int split = get_group_id(1) >= fullRows;
    const int slice = split ? (get_group_id(1) - fullRows) / splitRows : 0;
    const int blockRow = get_group_id(1) - slice*splitRows;
    const int slices = split ? (get_num_groups(1) - fullRows) / splitRows : 1;
    const int firstTile = slice*(K/TSK)/slices, numTiles = (slice + 1)*(K/TSK)/slices - firstTile;
    AT += firstTile*TSK*(M/WIDTH) + blockRow*(TSM/WIDTH);
    B += firstTile*TSK*(N/WIDTH);

    // A ring of STAGES tiles of A^T (TSK x TSM) and of B (TSK x TSN), shared by the whole
    // work-group, stored as vectors: tile t lives in buffer t%STAGES
    __local floatX Asub[STAGES][TSK][TSM/WIDTH];
    __local floatX Bsub[STAGES][TSK][TSN/WIDTH];

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

    // Start the copies of the slice's first STAGES-1 tiles (fewer if the slice has fewer)
    event_t copied[STAGES];  // COPY = 0: the event of the tile in each buffer
    // ---- YOUR CODE HERE (1 of 2): start the first copies ----------------------------------------
    // Before the loop: start the copies of the slice's first tiles, so that the copies of tiles 0
    // to STAGES-2 are under way when the loop starts (those the slice has: numTiles may be anything
    // from 0 up). Tile t lives in buffer t % STAGES (the comment of Asub says so).
    // copyTiles(t, tid, M, N, AT, B, Asub[b], Bsub[b], &copied[b]) starts copying tile t of the
    // slice into buffer b and returns without waiting for the copy; with COPY = 0 it keeps the
    // copy's event in copied[b]. With COPY = 1 (cp.async) there are no events: the copies of a
    // work-item are counted in commit groups, each closed by commitTiles(). Call commitTiles() once
    // for each tile you might start, whether or not the slice has it, so that the copy of tile t is
    // always group t (with COPY = 0, commitTiles() does nothing).
    // In scope: numTiles, tid, M, N, AT, B, Asub, Bsub, copied, copyTiles, commitTiles; STAGES.
    // ---- END OF YOUR CODE -----------------------------------------------------------------------

    // Walk along the slice of K one tile at a time (t counts the slice's tiles)
    for (int t = 0; t < numTiles; t++) {
        // ---- YOUR CODE HERE (2 of 2): wait for tile t, start the next copy ----------------------
        // At the top of iteration t:
        //  - set buf to the buffer that holds tile t;
        //  - wait until tile t has arrived. COPY = 0: wait_group_events(1, &e) waits for the copies
        //    whose event is e. COPY = 1: each work-item waits for its own copies, with the
        //    instruction
        //        asm volatile("cp.async.wait_group %0;" :: "n"(W) : "memory");
        //    which returns once at most the W newest commit groups of this work-item are still
        //    under way: which W? Write it in #if COPY == 1 ... #else ... #endif (PoCL and most
        //    devices run COPY = 0 only);
        //  - one barrier, the only one in the loop: after it, every work-item's copies of tile t
        //    have arrived, and every work-item has finished computing with tile t-1;
        //  - start the copy of the next tile that is not under way yet, if the slice has it, into
        //    the buffer that tile lives in (which must be free by then); then commitTiles(), as
        //    before the loop.
        // In scope: t, numTiles, tid, M, N, AT, B, Asub, Bsub, copied, copyTiles, commitTiles;
        // STAGES, COPY. Replace the placeholder below.
        // As given, nothing is copied and the multiply-adds read whatever local memory holds.
        const int buf = 0;  // placeholder
        // ---- END OF YOUR CODE -------------------------------------------------------------------

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
    // toCopies is split computed again: with split itself, or with the buffer and its row chosen
    // first (out = split ? copies : C), NVIDIA's compiler laid out this kernel's loop over K
    // differently (the same registers, its reads of local memory issued later) and the sgemm ran
    // slower on an H100. A compiler's choice, measured, not a rule (lab/README.md, run 20).
    const int toCopies = get_group_id(1) >= fullRows;
    #pragma unroll
    for (int wm = 0; wm < WPTM; wm++) {
        const int row = get_group_id(1)*TSM + (rowBase + (wm/WIDTH)*LANESM)*WIDTH + wm%WIDTH;
        #pragma unroll
        for (int wn = 0; wn < WPTN/WIDTH; wn++) {
            const int col = get_group_id(0)*(TSN/WIDTH) + colBase + wn*LANESN;  // 0..N/WIDTH-1
            const int idx = row*(N/WIDTH) + col;
            if (toCopies)
                copies[idx - fullRows*TSM*(N/WIDTH)] = alpha*acc[wm][wn];
            else
                C[idx] = (beta == 0.0f) ? alpha*acc[wm][wn] : alpha*acc[wm][wn] + beta*C[idx];
        }
    }
}
