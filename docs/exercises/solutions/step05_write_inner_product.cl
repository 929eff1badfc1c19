// Exercise 5.3 - solution: step 5's kernels, kernel05_register_blocking/register_blocking.cl, with
// the code that docs/exercises/step05_write_inner_product.cl leaves out between the lines SOLUTION
// and END OF THE SOLUTION. Outside those lines the two files have the same code, and this file is
// the step's kernel (the test exercises.step05_write_inner_product.same_code checks both).

// Step 5 - register blocking: each work-item computes a WPTM x WPTN block of C instead of one
// vector. For each k it copies the WPTM values of A and the WPTN values of B it needs from local
// memory into registers, once, and does WPTM*WPTN multiply-adds with them: each value read from
// local memory is used WPTN (or WPTM) times. Loads and stores stay WIDTH wide, as in step 3.
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
// Launch      2D NDRange of work-items, each computing a WPTM x WPTN block of C: dimension 0
//             runs along the columns of C (N/WPTN work-items), dimension 1 along the rows (M/WPTM).
//             global = (N/WPTN, M/WPTM), local = (TSN/WPTN, TSM/WPTM)
// Parameters  TSM, TSN: the work-group is TSN/WPTN x TSM/WPTM work-items and computes a TSM x TSN
//             block of C; it walks along K one TSK-deep tile of A^T and of B at a time.
//             TSK: the tile depth along K.
//             WPTM, WPTN: each work-item computes WPTM rows x WPTN columns of C ("work per
//             thread"), as WPTN/WIDTH vectors in each of WPTM rows.
//             WIDTH: the vector width, 1, 2, 4 or 8.
// Constraints M a multiple of TSM, N of TSN, K of TSK (no bounds checks: see step 6);
//             TSM a multiple of WPTM, TSN of WPTN, WPTM and WPTN multiples of WIDTH;
//             AT, B and C start at addresses aligned to WIDTH floats;
//             (TSM/WPTM)*(TSN/WPTN) <= the device's maximum work-group size;
//             (TSM + TSN)*TSK*4 bytes <= the device's local memory.
// When beta == 0, C is only written, never read: it may hold anything, even NaN.
// Every kernel declares its work-group shape (reqd_work_group_size), so the compiler can fit its
// use of registers to it.
//
// Defaults    from common/src/gemm_params.c; -D NAME=VALUE overrides. NVIDIA's row is for a GPU
//             whose CL_DEVICE_VENDOR contains "NVIDIA"; a device that is no GPU takes the CPU's.
//             CPU:        TSM=32 TSN=64 TSK=16 WPTM=8 WPTN=8 WIDTH=8 TRANSPOSE_TILE=16
//                         TRANSPOSE_PAD=1
//             NVIDIA GPU: TSM=128 TSN=64 TSK=32 WPTM=8 WPTN=8 WIDTH=4 TRANSPOSE_TILE=16
//                         TRANSPOSE_PAD=1
//             other GPUs: TSM=64 TSN=64 TSK=16 WPTM=4 WPTN=8 WIDTH=4 TRANSPOSE_TILE=16
//                         TRANSPOSE_PAD=1

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

        // ---- SOLUTION: the register-blocked inner product ---------------------------------------
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
        // ---- END OF THE SOLUTION ----------------------------------------------------------------

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
