// Step 11 - tensor cores: step 10 with one idea added to its sgemm kernel. Its multiply-adds move
// from the FP32 units to the tensor cores, which compute a 16 x 8 x 8 matrix product per warp and
// instruction, many times faster, but on TF32 values: floats cut to 10 bits of mantissa. To keep the
// answer as accurate as FP32's, every value x of A and B is split into two TF32 values, x = hi + lo
// (hi rounded to TF32, lo the remainder, of which the tensor cores read the TF32 bits), each product
// becomes three on the tensor cores, lo*hi + hi*lo + hi*hi (lo*lo, at most 2^-22 of it, is left out), and
// each 8-deep partial sum leaves the tensor cores and is added into FP32 accumulators by an
// ordinary add (the tensor cores would truncate a long sum). TC = 1 reaches the tensor cores with NVIDIA's mma.sync instruction (inline
// PTX, compute capability 8.0 and later); TC = 0 is the portable path for every other device: the
// same fragments, split and products, the instruction written out in OpenCL C through local memory,
// for correctness only (many times slower than step 10).
// Everything else is step 10's: the ring of STAGES tiles filled by asynchronous copies, warp tiles,
// K split where the blocks of C leave the last wave short, and step 6's helper kernels for any
// M, N, K >= 1 (zero-padding the inputs up to multiples of the tiles). "Padding" here means
// zero-padding of the matrices; TRANSPOSE_PAD and TILE_PAD are the other kind, local-memory
// padding against bank conflicts.
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
// Kernel 3 of 4: sgemm on the tensor cores (or the portable path), warp-tiled, with a ring of STAGES
//                tiles filled by asynchronous copies, on the padded sizes Mp, Np, Kp, the last
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
//             With splitRows = 0 nothing is split and `copies` is neither read nor written: pass any
//             buffer (the host passes the buffer it passes as C). The kernel declares
//             AT and B as arrays of floatN: the buffers are ordinary float arrays, copied WIDTH
//             floats at a time.
// Launch      2D NDRange of work-items, WPTM*WPTN values of C each (in fragments, see WPTM): dimension 0
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
//             in row w/(TSN/WTN), column w%(TSN/WTN) of the block. A warp must be 32 work-items,
//             the lanes of the tensor cores' operation, and with TC = 1 exactly a warp of the
//             hardware (as on NVIDIA, where consecutive linear indices form its warps).
//             The warp computes its sub-tile as (WTM/16) x (WTN/8) blocks of 16 x 8, lane l holding
//             one fragment of C for each: acc[i][j][r] is row i*16 + l/4 + (r/2)*8, column
//             j*8 + 2*(l%4) + r%2 of the sub-tile. The fragments of A and B are read from the
//             ring's tiles in the layout written out below, above mma().
//             WPTM, WPTN: they only shape the work-group now: (WTM/WPTM)*(WTN/WPTN) = 32 work-items
//             per warp, each holding WPTM*WPTN = WTM*WTN/32 values of C in the fragments above.
//             WIDTH: the vector width of the copies into local memory, 1, 2, 4 or 8.
//             TILE_PAD: local-memory padding: floats added to every row of the ring's tiles. A
//             fragment's read takes 8 neighbouring floats of each of 4 rows of a tile (k = q, then
//             q+4), which fall in the same 8 memory banks when a row is a multiple of 32 floats
//             long; 8 more floats move each row 8 banks on, and the read fills the 32 banks.
//             TC: 1 the tensor cores, with NVIDIA's mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
//             (inline PTX: NVIDIA GPUs of compute capability 8.0 or higher only; the host refuses it
//             elsewhere); 0 the portable path (any device: the same fragments and arithmetic, the
//             instruction written out in OpenCL C, through STAGES-independent local memory of
//             2*(WTM + WTN)*8 floats per warp, with two barriers per 8-deep step). The host's TC = 2
//             (its NVIDIA default) never reaches this file: it builds 1 where the GPU has tensor
//             cores for TF32 (compute capability 8.0 or higher), else 0.
//             PRODUCTS: 3 (lo*hi + hi*lo + hi*hi: close to FP32's accuracy) or 1 (hi*hi alone: a TF32 GEMM,
//             about 2^-11 relative error; for an exercise, never a default).
//             PROMOTE: 1 each 8-deep step's three products are summed on the tensor cores from zero
//             and added into acc in FP32; 0 (for an exercise, never a default) they accumulate on
//             the tensor cores over all of K, whose truncating sums lose accuracy as K grows.
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
//             the caller's K, before padding, at least 8: with fewer terms the products of two split
//             values (about 21 of a float's 24 bits) may miss FP32's worst-case bound, and the host
//             refuses K < 8 (step 10 computes those in FP32);
//             0 <= splitRows <= M/TSM; SLICES >= 1 (a slice left without a tile, when
//             SLICES > K/TSK, writes zeros); (M + (SLICES-1)*splitRows*TSM)*N < 2^31 (C and the copies, indexed
//             as rows that continue C's) and SLICES*(K/TSK) < 2^31;
//             TSM a multiple of WTM, TSN of WTN, WTM of WPTM, WTN of WPTN, WPTM and WPTN
//             multiples of WIDTH; WTM a multiple of 16, WTN and TSK of 8, (WTM/WPTM)*(WTN/WPTN) = 32;
//             TILE_PAD a multiple of WIDTH; AT and B start at addresses aligned to WIDTH floats,
//             C and copies at addresses aligned to 2 floats (C is stored two floats at a time);
//             (TSM/WPTM)*(TSN/WPTN) <= the device's maximum work-group size;
//             TSK*TSM/WIDTH and TSK*TSN/WIDTH multiples of (TSM/WPTM)*(TSN/WPTN) (each work-item
//             copies the same number of vectors of every tile);
//             STAGES*(TSM + TSN + 2*TILE_PAD)*TSK*4 bytes, and with TC = 0 the portable path's
//             (TSM/WTM)*(TSN/WTN)*2*(WTM + WTN)*8*4 more, <= the device's local memory.
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
//             CPU:        TSM=32 TSN=64 TSK=16 WTM=32 WTN=64 WPTM=8 WPTN=8 WIDTH=8 STAGES=2 COPY=0
//                         TILE_PAD=0 TC=0 PRODUCTS=3 PROMOTE=1 TRANSPOSE_TILE=16 TRANSPOSE_PAD=1
//                         SLICES=0 SPLIT_ROWS=0 GROUPS_PER_CU=1
//             NVIDIA GPU: TSM=128 TSN=128 TSK=8 WTM=64 WTN=64 WPTM=16 WPTN=8 WIDTH=4 STAGES=4 COPY=2
//                         TILE_PAD=8 TC=2 PRODUCTS=3 PROMOTE=1 TRANSPOSE_TILE=16 TRANSPOSE_PAD=1
//                         SLICES=0 SPLIT_ROWS=0 GROUPS_PER_CU=2
//             other GPUs: TSM=64 TSN=64 TSK=8 WTM=16 WTN=64 WPTM=4 WPTN=8 WIDTH=4 STAGES=2 COPY=0
//                         TILE_PAD=0 TC=0 PRODUCTS=3 PROMOTE=1 TRANSPOSE_TILE=16 TRANSPOSE_PAD=1
//                         SLICES=0 SPLIT_ROWS=0 GROUPS_PER_CU=2
//
// Host-only parameters: SLICES, SPLIT_ROWS and GROUPS_PER_CU are no macros of this file. The host
// reads them (-D sets them like the others) to choose the sgemm's split of K, which reaches the
// kernels as their launch geometry and their splitRows and slices arguments:
//   SLICES: 0 (the default) lets the host choose, n > 0 forces n slices and at least one split row;
//   SPLIT_ROWS: 0 (the default) lets the host choose, n > 0 splits the last min(n, Mp/TSM) rows;
//   GROUPS_PER_CU: work-groups a compute unit runs at once, in the host's model of the device.
// How the host chooses them where SLICES and SPLIT_ROWS are 0 (gemm_split_k_choose() and its cost
// model gemm_split_k_cost(), common/src/gemm_step_rules.c and common/include/gemm_step_rules.h; the
// same rule as step 9's). With R =
// Mp/TSM rows of blocks, cols = Np/TSN blocks per row, T = Kp/TSK tiles of K and
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
// With a split, the copies take SLICES*splitRows*TSM rows of Np floats (a helper buffer), and unpad
// runs even where C needs no padding, over the split rows alone.
//
// How the host builds COPY=2 and TC=2 (NVIDIA's defaults), in plan() of
// kernel11_tensor_cores/main.c: as COPY=1 and TC=1 where the GPU reports compute capability 8.0 or
// higher through cl_nv_device_attribute_query (queries 0x4000 and 0x4001: major*10 + minor >= 80),
// else as COPY=0 and TC=0.

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

// A row of a tile in the ring, in vectors: TSM (TSN) floats and TILE_PAD more, the local-memory
// padding that puts the four rows one fragment reads (below) in different banks
#define ROWA ((TSM + TILE_PAD)/WIDTH)
#define ROWB ((TSN + TILE_PAD)/WIDTH)

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
    __local floatX (*Asub)[ROWA], (*Bsub)[ROWB];           // the buffer of the ring it goes to
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
               __local floatX Asub[TSK][ROWA], __local floatX Bsub[TSK][ROWB], event_t *copied)
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

// ---- The tensor cores' operation, and the operands it takes -------------------------------------
// One warp of 32 work-items (lanes) computes D = A*B + C for a 16 x 8 block of C at a time, with
// A 16 x 8 and B 8 x 8 (NVIDIA's mma.sync.m16n8k8 with TF32 inputs and FP32 results). No lane holds
// a whole matrix: each holds a fragment, four values of A, two of B, four of C, at places fixed by
// the instruction. With g = lane/4 and q = lane%4 (PTX's groupID and threadID_in_group):
//   A: a[0] = A(g, q), a[1] = A(g+8, q), a[2] = A(g, q+4), a[3] = A(g+8, q+4)
//   B: b[0] = B(q, g), b[1] = B(q+4, g)
//   C and D: c[0] = C(g, 2q), c[1] = C(g, 2q+1), c[2] = C(g+8, 2q), c[3] = C(g+8, 2q+1)
// TF32 keeps float's 8 exponent bits and the top 10 of its 23 mantissa bits: a product of two TF32
// values is exact in FP32, but a float rounded to TF32 keeps only about 3 decimal digits.
#define MMA_M 16
#define MMA_N 8
#define MMA_K 8
#define FRAGS_M (WTM/MMA_M)   // fragments of A per warp tile, along M
#define FRAGS_N (WTN/MMA_N)   // fragments of B per warp tile, along N
// The loops over a warp tile's fragments are unrolled (the fragments then stay in registers), except
// on the portable path with more than 16 fragments of C per lane (a CPU's compiler would take minutes)
#if TC == 1 || FRAGS_M*FRAGS_N <= 16
#define UNROLL _Pragma("unroll")
#else
#define UNROLL
#endif
#define HI 0                  // a fragment of TF32 values (x rounded to TF32)
#define LO 1                  // the fragment of the remainders (x - hi)

// x rounded to the nearest TF32 value, ties away from zero (PTX's cvt.rna.tf32.f32), as a float
// whose low 13 mantissa bits are 0
inline float toTF32(const float x)
{
    return as_float((as_uint(x) + 0x1000u) & 0xffffe000u);
}

// x = hi + lo exactly, hi a TF32 value and lo the remainder (at most 2^-11 of x). lo is not
// rounded to TF32: the tensor cores read only the TF32 bits of an operand and ignore its low 13
// bits, so what they multiply is lo cut to TF32. lo has up to 12 significant bits and TF32 keeps 11:
// the cut leaves out at most lo's last bit, up to 2^-23 of x. Rounding lo first would cost two more
// instructions per value; what cutting it costs in accuracy, on data with all 24 bits of a float,
// is measured in docs/lab11.md (on data of at most 23 bits, the harness's before December 2026, lo
// is a TF32 value already and the two are the same).
inline void splitTF32(const float x, float *hi, float *lo)
{
    *hi = toTF32(x);
    *lo = x - *hi;
}

// What the tensor cores read of an operand: its TF32 bits, the low 13 bits of the float dropped
inline float tf32Bits(const float x)
{
    return as_float(as_uint(x) & 0xffffe000u);
}

#if TC == 1
// d = a*b + d on the tensor cores (NVIDIA GPUs of compute capability 8.0 and later, inline PTX)
inline void mma(float d[4], const float a[4], const float b[2])
{
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%10,%11,%12,%13};"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(as_uint(a[0])), "r"(as_uint(a[1])), "r"(as_uint(a[2])), "r"(as_uint(a[3])),
          "r"(as_uint(b[0])), "r"(as_uint(b[1])),
          "f"(d[0]), "f"(d[1]), "f"(d[2]), "f"(d[3]));
}
#define MMA(d, sa, i, sb, j) mma(d, aFrag[sa][i], bFrag[sb][j])
#else
// TC = 0, the portable path: the same operation written out in OpenCL C, for devices without
// tensor cores. A lane cannot read another lane's registers, so the warp's fragments go through
// local memory: shareFragments() writes every lane's fragments of one 8-deep step where the layout
// above puts them, in its warp's matrices of A (16 x 8) and B (8 x 8), and mmaPortable() computes
// this lane's four values of D from those matrices. A fragment read from the wrong place of the
// tile, or a value of D stored to the wrong place of C, then gives wrong numbers here too.
// Each mma's 8 products are summed in FP32 as usual (rounded to nearest), and that sum is added into
// D rounded toward zero: a model of the tensor cores' own accumulation, which truncates (Ootomo and
// Yokota, 2022); its bits differ from the hardware's, its kind of error does not.
inline float addTowardZero(const float a, const float b)
{
    const float s = a + b;                                   // rounded to nearest
    const float bs = s - a, e = (a - (s - bs)) + (b - bs);  // s + e == a + b exactly (TwoSum)
    // rounded away from zero where the error has the other sign: then one step back (the float
    // whose bits are one less in magnitude)
    return as_float(as_uint(s) - ((as_uint(e) ^ as_uint(s)) >> 31) * (uint)(e != 0.0f));
}

inline void mmaPortable(float d[4], const __local float *A, const __local float *B, const int lane)
{
    const int g = lane / 4, q = lane % 4;
    #pragma unroll
    for (int r = 0; r < 4; r++) {
        const int row = g + (r / 2)*8, col = 2*q + r % 2;
        float sum = 0.0f;
        #pragma unroll
        for (int k = 0; k < MMA_K; k++)
            sum += tf32Bits(A[row*MMA_K + k]) * tf32Bits(B[k*MMA_N + col]);  // products of TF32 values: exact
        d[r] = addTowardZero(d[r], sum);
    }
}

// This lane's fragments of one 8-deep step, into its warp's matrices in local memory
inline void shareFragments(__local float *warpA, __local float *warpB,
                           const float aFrag[2][FRAGS_M][4], const float bFrag[2][FRAGS_N][2], const int lane)
{
    const int g = lane / 4, q = lane % 4;
    for (int s = 0; s < 2; s++) {
        for (int i = 0; i < FRAGS_M; i++)
            for (int r = 0; r < 4; r++)
                warpA[(s*FRAGS_M + i)*MMA_M*MMA_K + (g + (r % 2)*8)*MMA_K + q + (r / 2)*4] = aFrag[s][i][r];
        for (int j = 0; j < FRAGS_N; j++)
            for (int r = 0; r < 2; r++)
                warpB[(s*FRAGS_N + j)*MMA_K*MMA_N + (q + r*4)*MMA_N + g] = bFrag[s][j][r];
    }
}
#define MMA(d, sa, i, sb, j) mmaPortable(d, &warpA[((sa)*FRAGS_M + (i))*MMA_M*MMA_K], \
                                         &warpB[((sb)*FRAGS_N + (j))*MMA_K*MMA_N], lane)
#endif

__kernel __attribute__((reqd_work_group_size(RTSN, RTSM, 1)))
void sgemm(const int M, const int N, const int K,
           const float alpha, const float beta,
           const __global floatX* AT,
           const __global floatX* B,
           __global float* C,
           __global float* copies,
           const int splitRows)
{
    const int localCol = get_local_id(0);                    // 0..RTSN-1
    const int localRow = get_local_id(1);                    // 0..RTSM-1
    const int tid = localRow*RTSN + localCol;                // work-item within the group: 0..THREADS-1

    // Which warp this work-item belongs to, where that warp's sub-tile lies in the block, and
    // which lane of the tensor cores' operation it is (g and q of the fragment layout above)
    const int warp = tid / WARP, lane = tid % WARP;
    const int warpRow = warp / (TSN/WTN), warpCol = warp % (TSN/WTN);
    const int g = lane / 4, q = lane % 4;
    const int rowBase = warpRow*WTM + g;                     // this lane's first row of A in the tile
    const int colBase = warpCol*WTN + g;                     // this lane's first column of B in the tile
#if TC == 0
    // The portable path's matrices of A and B, one set per warp: FRAGS_M of 16 x 8 and FRAGS_N of
    // 8 x 8, of the TF32 values (HI) and of the remainders (LO), as the lanes hold them
    __local float warpAll[THREADS/WARP][2*(FRAGS_M*MMA_M + FRAGS_N*MMA_N)*MMA_K];
    __local float *warpA = warpAll[warp], *warpB = &warpAll[warp][2*FRAGS_M*MMA_M*MMA_K];
#endif

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
    __local floatX Asub[STAGES][TSK][ROWA];
    __local floatX Bsub[STAGES][TSK][ROWB];

    // This work-item's share of its warp's WTM x WTN sub-tile of C, in registers: one fragment of C
    // (four floats, laid out as above) for each 16 x 8 block of the sub-tile.
    //   acc[i][j][r] is row rowBase + i*16 + (r/2)*8, column warpCol*WTN + j*8 + 2q + r%2 of the tile.
    float acc[FRAGS_M][FRAGS_N][4];
    #pragma unroll
    for (int i = 0; i < FRAGS_M; i++)
        #pragma unroll
        for (int j = 0; j < FRAGS_N; j++)
            #pragma unroll
            for (int r = 0; r < 4; r++)
                acc[i][j][r] = 0.0f;

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

        // The tile's multiply-adds, 8 deep at a time, on the tensor cores. Each value of A and B is
        // read from the tile into its place in a fragment and split into two TF32 values, hi + lo;
        // then, for each 16 x 8 block of the warp's sub-tile, a*b = lo*hi + hi*lo + hi*hi (lo*lo,
        // about 2^-22 of it, is left out), the three products chained on the tensor cores from zero,
        // smallest first. Their sum, 8 products deep, is then added to acc by an ordinary FP32 add:
        // the accumulation over K happens outside the tensor cores, rounded as FP32 rounds.
        const __local float *As = (const __local float *)Asub[buf], *Bs = (const __local float *)Bsub[buf];
        UNROLL
        for (int k = 0; k < TSK; k += MMA_K) {
            float aFrag[2][FRAGS_M][4], bFrag[2][FRAGS_N][2];
            UNROLL
            for (int i = 0; i < FRAGS_M; i++)
                UNROLL
                for (int r = 0; r < 4; r++)  // A(m, k) is A^T's row k, column m
                    splitTF32(As[(k + q + (r/2)*4)*(ROWA*WIDTH) + rowBase + i*MMA_M + (r%2)*8],
                              &aFrag[HI][i][r], &aFrag[LO][i][r]);
            UNROLL
            for (int j = 0; j < FRAGS_N; j++)
                UNROLL
                for (int r = 0; r < 2; r++)
                    splitTF32(Bs[(k + q + r*4)*(ROWB*WIDTH) + colBase + j*MMA_N], &bFrag[HI][j][r], &bFrag[LO][j][r]);
#if TC == 0
            shareFragments(warpA, warpB, aFrag, bFrag, lane);
            barrier(CLK_LOCAL_MEM_FENCE);
#endif
            UNROLL
            for (int i = 0; i < FRAGS_M; i++)
                UNROLL
                for (int j = 0; j < FRAGS_N; j++) {
#if PROMOTE
                    float part[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#else
                    __private float *part = acc[i][j];  // PROMOTE = 0 (an exercise): accumulate on the tensor cores
#endif
#if PRODUCTS == 3
                    MMA(part, LO, i, HI, j);
                    MMA(part, HI, i, LO, j);
#endif
                    MMA(part, HI, i, HI, j);
#if PROMOTE
                    UNROLL
                    for (int r = 0; r < 4; r++)
                        acc[i][j][r] += part[r];
#endif
                }
#if TC == 0
            barrier(CLK_LOCAL_MEM_FENCE);  // every lane is done with its warp's matrices
#endif
        }
    }

    // Store the block: a whole one into C, as step 8 does; a split one, without beta, into its
    // slice's copy of the split rows. The copies continue C's rows: work-group row g writes rows
    // g*TSM and on of C, or of the copies less C's first fullRows*TSM rows; unpad adds them up.
    // A fragment of C holds two neighbouring columns of each of its two rows (c[0] c[1], c[2] c[3]):
    // the lane stores each pair as one float2, half the stores of one float at a time. Where each
    // work-group's walk along K is short, the stores weigh: at 1000 x 3000 x 500 the whole step ran
    // faster on an H200 than with floats (docs/lab11.md has the runs).
    // toCopies is split computed again: with split itself, or with the buffer and its row chosen
    // first (out = split ? copies : C), NVIDIA's compiler laid out this kernel's loop over K
    // differently (the same registers, its reads of local memory issued later) and the sgemm ran
    // slower on an H100. A compiler's choice, measured, not a rule (lab/README.md, run 20).
    const int toCopies = get_group_id(1) >= fullRows;
    #pragma unroll
    for (int i = 0; i < FRAGS_M; i++)
        #pragma unroll
        for (int j = 0; j < FRAGS_N; j++)
            #pragma unroll
            for (int h = 0; h < 2; h++) {  // the fragment's row g (h = 0) and row g+8 (h = 1)
                const int row = get_group_id(1)*TSM + rowBase + i*MMA_M + h*8;
                const int col = get_group_id(0)*TSN + warpCol*WTN + j*MMA_N + 2*q;
                const int idx = row*N + col;  // even: N and col are
                const float2 v = alpha*(float2)(acc[i][j][2*h], acc[i][j][2*h + 1]);
                if (toCopies)
                    *(__global float2 *)&copies[idx - fullRows*TSM*N] = v;
                else
                    *(__global float2 *)&C[idx] = (beta == 0.0f) ? v : v + beta*(*(__global float2 *)&C[idx]);
            }
}
