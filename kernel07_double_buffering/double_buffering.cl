// Step 7 - double buffering: step 6 with one idea added to its sgemm kernel. The work-group keeps
// two local tiles of A^T and two of B. While it computes with one pair, each work-item's share of
// the next tiles is already on its way from global memory into registers, and is stored into the
// other pair afterwards: the wait for global memory overlaps the multiply-adds, and one barrier
// per tile is enough where step 6 needs two. The helper kernels are step 6's, unchanged: any M,
// N, K >= 1, inputs zero-padded up to multiples of the tiles (A^T to Kp x Mp while transposing it,
// B to Kp x Np), and the M x N corner of the padded result copied into C with beta applied there.
// "Padding" here means zero-padding of the matrices; TRANSPOSE_PAD is the other kind, local-memory
// padding against bank conflicts.
// Kp, Mp, Np are K, M, N rounded up to TSK, TSM, TSN; a matrix that needs no padding is used as it is.
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
// Kernel 3 of 4: sgemm, double-buffered, on the padded sizes Mp, Np, Kp
// Arguments   (int M, int N, int K, float alpha, float beta,
//              const global float *AT, const global float *B, global float *C)
//             AT is A transposed (K x M). The kernel declares AT, B and C as arrays of floatN:
//             the buffers are ordinary float arrays, read and written WIDTH floats at a time.
// Launch      2D NDRange of work-items, each computing a WPTM x WPTN block of C: dimension 0
//             runs along the columns of C (N/WPTN work-items), dimension 1 along the rows (M/WPTM).
//             global = (N/WPTN, M/WPTM), local = (TSN/WPTN, TSM/WPTM)
// Parameters  TSM, TSN: the work-group is TSN/WPTN x TSM/WPTM work-items and computes a TSM x TSN
//             block of C; it walks along K one TSK-deep tile of A^T and of B at a time.
//             TSK: the tile depth along K.
//             WPTM, WPTN: each work-item computes WPTM rows x WPTN columns of C ("work per
//             thread"), as WPTN/WIDTH vectors in each of WPTM rows.
//             WIDTH: the vector width, 1, 2, 4 or 8.
// Constraints M a multiple of TSM, N of TSN, K of TSK (true of the padded sizes by construction);
//             TSM a multiple of WPTM, TSN of WPTN, WPTM and WPTN multiples of WIDTH;
//             AT, B and C start at addresses aligned to WIDTH floats;
//             (TSM/WPTM)*(TSN/WPTN) <= the device's maximum work-group size;
//             TSK*TSM/WIDTH and TSK*TSN/WIDTH multiples of (TSM/WPTM)*(TSN/WPTN) (each work-item
//             loads the same number of vectors of every tile);
//             2*(TSM + TSN)*TSK*4 bytes <= the device's local memory (two tiles of each).
// When beta == 0, C is only written, never read: it may hold anything, even NaN.
// Every kernel declares its work-group shape (reqd_work_group_size), so the compiler can fit its
// use of registers to it.
//
// Kernel 4 of 4: unpad
// Arguments   (int rows, int cols, int paddedCols, float beta, const global float *in,
//              global float *out)
//             out (rows x cols) = the top-left corner of in (paddedRows x paddedCols)
//             + beta * out; here in = the padded C computed by sgemm with beta = 0, out = C.
//             Each work-item reads WIDTH floats of a row of in as one vector.
// Launch      global = (ceil(cols/WIDTH), rows) each rounded up to TRANSPOSE_TILE,
//             local = (TRANSPOSE_TILE, TRANSPOSE_TILE)
// Parameters  TRANSPOSE_TILE: side of the square work-groups.
//             WIDTH: floats per vector, as in sgemm (1, 2, 4 or 8).
// Constraints paddedCols a multiple of WIDTH; in aligned to WIDTH floats;
//             TRANSPOSE_TILE^2 <= the maximum work-group size.
// When beta == 0, out is only written, never read.
//
// Which kernel applies beta: when M and N are multiples of TSM and TSN, C needs no padding, sgemm
// writes straight into C with the caller's alpha and beta and unpad is not launched; otherwise
// sgemm writes the padded C with the caller's alpha and beta = 0, and unpad applies the caller's
// beta. B is padded only when K or N is not a multiple of TSK or TSN; A is always transposed.
//
// Defaults    from common/src/gemm_params.c; -D NAME=VALUE overrides. NVIDIA's row is for a GPU
//             whose CL_DEVICE_VENDOR contains "NVIDIA"; a device that is no GPU takes the CPU's.
//             CPU:        TSM=32 TSN=64 TSK=16 WPTM=8 WPTN=8 WIDTH=8 TRANSPOSE_TILE=16
//                         TRANSPOSE_PAD=1
//             NVIDIA GPU: TSM=128 TSN=128 TSK=16 WPTM=8 WPTN=16 WIDTH=4 TRANSPOSE_TILE=16
//                         TRANSPOSE_PAD=1
//             other GPUs: TSM=64 TSN=64 TSK=16 WPTM=4 WPTN=8 WIDTH=4 TRANSPOSE_TILE=16
//                         TRANSPOSE_PAD=1

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
    loadTiles(0, tid, M, N, AT, B, Anext, Bnext);

    // Walk along K one tile at a time
    const int numTiles = K/TSK;
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
