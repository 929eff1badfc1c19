// Step 10 - asynchronous copies: step 9 with one idea added to its sgemm kernel. Since step 7 a
// tile travels from global memory to local memory through registers: each work-item loads its share
// of the next tile into registers, computes on the current tile meanwhile, then stores the share
// into local memory. Those registers are held through the whole tile's arithmetic, and on an
// NVIDIA H100 they decide how many work-groups fit on a multiprocessor. Here the work-group asks
// for the copy, global to local, to happen on its own while it computes, without registers, and
// waits for it only when it needs the tile: COPY = 0 with OpenCL C's own async_work_group_copy(),
// COPY = 1 with the cp.async instruction of NVIDIA GPUs since the A100 (inline PTX, a vendor
// extension of the language). With the registers free, the copies can also run further ahead:
// STAGES local tiles form a ring, tiles t+1 .. t+STAGES-1 in flight while tile t is used.
// Everything else is step 9's: warp tiles, K split where the blocks of C leave the last wave short,
// and step 6's helper kernels for any M, N, K >= 1 (zero-padding the inputs up to multiples of the
// tiles). "Padding" here means zero-padding of the matrices; TRANSPOSE_PAD is the other kind,
// local-memory padding against bank conflicts.
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
// Kernel 3 of 4: sgemm, warp-tiled, with a ring of STAGES tiles filled by asynchronous copies, on the
//                padded sizes Mp, Np, Kp, the last
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
//             STAGES: local tiles of A^T and of B in the ring, 2 or more; tile t lives in buffer
//             t%STAGES, and the copies of the next STAGES-1 tiles are in flight while it is used.
//             COPY: how a tile is copied from global to local memory. 0: async_work_group_copy(),
//             one call per row of the tile, made by the whole work-group, and wait_group_events()
//             (OpenCL C 1.0 and later: any device; whether the copy overlaps the arithmetic is
//             the implementation's choice). 1: each work-item copies its share with NVIDIA's
//             cp.async (inline PTX), one commit group per tile, and waits with cp.async.wait_group
//             (NVIDIA GPUs of compute capability 8.0 or higher only: the host refuses it elsewhere).
//             The host's COPY = 2 (its NVIDIA default) never reaches this file: it builds it with
//             1 where the GPU has cp.async and 0 elsewhere. 3, for the tests only (never a
//             default): 0 with copies that complete as late as allowed, their buffer NaN from the
//             start of a copy to its wait (see lateTiles below): a wait left out or on the wrong
//             event then gives wrong numbers on any device, a copy started too early a data race
//             that Oclgrind reports.
// Constraints M a multiple of TSM, N of TSN, K of TSK (true of the padded sizes by construction);
//             0 <= splitRows <= M/TSM; SLICES >= 1 (a slice left without a tile, when
//             SLICES > K/TSK, writes zeros); (M + (SLICES-1)*splitRows*TSM)*N < 2^31 (C and the copies, indexed
//             as rows that continue C's) and SLICES*(K/TSK) < 2^31;
//             TSM a multiple of WTM, TSN of WTN, WTM of WPTM, WTN of WPTN, WPTM and WPTN
//             multiples of WIDTH; with LANE_SQUARES = 1, WTM/WPTM and WTN/WPTN even;
//             AT, B, C and copies start at addresses aligned to WIDTH floats;
//             (TSM/WPTM)*(TSN/WPTN) <= the device's maximum work-group size;
//             TSK*TSM/WIDTH and TSK*TSN/WIDTH multiples of (TSM/WPTM)*(TSN/WPTN) (each work-item
//             copies the same number of vectors of every tile);
//             STAGES*(TSM + TSN)*TSK*4 bytes <= the device's local memory (STAGES tiles of each).
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
//                         STAGES=2 COPY=0 TRANSPOSE_TILE=16 TRANSPOSE_PAD=1 SLICES=0 SPLIT_ROWS=0
//                         GROUPS_PER_CU=1
//             NVIDIA GPU: TSM=128 TSN=128 TSK=8 WTM=64 WTN=64 LANE_SQUARES=1 WPTM=16 WPTN=8 WIDTH=4
//                         STAGES=3 COPY=2 TRANSPOSE_TILE=16 TRANSPOSE_PAD=1 SLICES=0 SPLIT_ROWS=0
//                         GROUPS_PER_CU=3
//             other GPUs: TSM=64 TSN=64 TSK=16 WTM=16 WTN=64 LANE_SQUARES=0 WPTM=4 WPTN=8 WIDTH=4
//                         STAGES=3 COPY=0 TRANSPOSE_TILE=16 TRANSPOSE_PAD=1 SLICES=0 SPLIT_ROWS=0
//                         GROUPS_PER_CU=2
//
// How the host chooses SLICES and SPLIT_ROWS where they are 0 (the defaults): as step 9 does, with
// step 10's own TSM, TSN, TSK and GROUPS_PER_CU; step 9's header (kernel09_split_k/split_k.cl)
// gives the rule. It is gemm_split_k_choose() with its cost model gemm_split_k_cost() and the
// constants GEMM_SPLIT_FLOPS_PER_BYTE and GEMM_SPLIT_GROUP_TILES, in common/src/gemm_step_rules.c
// and common/include/gemm_step_rules.h.
//
// How the host builds COPY=2 (NVIDIA's default), in plan() of kernel10_async_copy/main.c: as
// COPY=1 where the GPU has cp.async, that is, reports compute capability 8.0 or higher through
// cl_nv_device_attribute_query (queries 0x4000 and 0x4001: major*10 + minor >= 80), else as COPY=0.

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
    #pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < numTiles)
            copyTiles(s, tid, M, N, AT, B, Asub[s], Bsub[s], &copied[s]);
        commitTiles();
    }

    // Walk along the slice of K one tile at a time (t counts the slice's tiles)
    for (int t = 0; t < numTiles; t++) {
        const int buf = t % STAGES;

        // Wait for this work-item's copies of tile t (COPY = 1: all but the STAGES-2 newest groups
        // are complete), or for the work-group's (COPY = 0) ...
#if COPY == 1
        asm volatile("cp.async.wait_group %0;" :: "n"(STAGES - 2) : "memory");
#else
        wait_group_events(1, &copied[buf]);
#endif
        // ... then for everybody's: tile t is then in local memory, and every work-item has
        // finished computing with tile t-1, whose buffer the copy below reuses. One barrier per tile.
        barrier(CLK_LOCAL_MEM_FENCE);

        // Start copying tile t+STAGES-1 into the buffer of tile t-1: it arrives while the
        // multiply-adds below (and those of the next STAGES-2 tiles) run
        const int ahead = t + STAGES - 1;
        if (ahead < numTiles)
            copyTiles(ahead, tid, M, N, AT, B, Asub[ahead % STAGES], Bsub[ahead % STAGES], &copied[ahead % STAGES]);
        commitTiles();

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
