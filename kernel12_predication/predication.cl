// Step 12 - predication: step 11 with one idea added. Its helper kernels go: there is one kernel,
// sgemm, and one launch for any M, N and K (K >= 8). Step 11 copied A transposed and B and C
// zero-padded to multiples of the tiles before and after its sgemm, and added split-K's slices in a
// fourth launch; each was a launch and a pass over memory, which cost most at small sizes. Here the
// sgemm reads A and B as the caller stores them (row-major), loads a tile that runs past an edge of
// A or B with zeros in place of the elements beyond it (predicated loads: NVIDIA's cp.async with a
// source size, bytes past it arriving as zeros; elsewhere loads guarded by an if), stores only the
// elements of C inside M x N, and adds split-K's slices itself: each slice writes its partial block
// to a workspace, and the last slice of a block to finish, told by a counter, adds them in slice
// order and writes C. Everything else is step 11's: the tensor cores with three TF32 products and
// FP32 promotion (TC = 1) or the portable path (TC = 0), the ring of STAGES tiles, the warp tiles,
// and the host's choice of the split. "Padding" here is local-memory padding against bank conflicts
// only (TILE_PAD, of B's tiles): no matrix is zero-padded any more. Because A's tile now keeps A's
// rows, a lane's two values of a row of A are read as one float2 (the order of k in a fragment, below).
//
//   C = alpha * A * B + beta * C      A is M x K, B is K x N, C is M x N, all row-major:
//                                     element (row, col) of a matrix with `cols` columns is
//                                     at index row*cols + col.
//
// Kernel 1 of 1: sgemm on the tensor cores (or the portable path), warp-tiled, with a ring of STAGES
//                tiles filled by predicated copies, on the caller's M, N, K, the last splitRows rows
//                of blocks over one slice of K per work-group
// Arguments   (int M, int N, int K, float alpha, float beta,
//              const global float *A, const global float *B, global float *C,
//              global float *partials, global int *counters, int splitRows)
//             With R = ceil(M/TSM) rows of blocks and cols = ceil(N/TSN) blocks in a row, the
//             block rows fullRows = R - splitRows are computed whole and written into C as
//             alpha*A*B + beta*C. The last splitRows block rows are computed in SLICES slices of
//             K. Slice s of block (fullRows + r, c) writes its partial product (no alpha, no beta),
//             all TSM x TSN of it, to partials at ((s*splitRows + r)*cols + c)*TSM*TSN, row by
//             row; then one work-item adds 1 to counters[r*cols + c] (atomic_inc). The work-group
//             that sees SLICES-1 there is the block's last: it sets the counter back to 0, adds the
//             SLICES partial blocks in slice order, 0 to SLICES-1, and writes alpha*sum + beta*C.
//             The others end. So the sum has the same bits on every run, whichever slice ends last.
//             counters holds splitRows*cols ints, 0 before the launch, and 0 again after it (the
//             host makes it zero once, when it creates it). With splitRows = 0 nothing is split
//             and neither partials nor counters is read or written: pass any buffer (the host
//             passes the one it passes as C).
// Launch      2D NDRange of work-items, WPTM*WPTN values of C each (in fragments, see WPTM): dimension 0
//             runs along the columns of C, dimension 1 along the rows: the fullRows whole rows of
//             blocks, then the splitRows split ones SLICES times over.
//             global = (cols*TSN/WPTN, (fullRows + SLICES*splitRows)*TSM/WPTM), local = (TSN/WPTN, TSM/WPTM)
//             Work-group row g < fullRows computes block row g over all of K's ceil(K/TSK) tiles; row
//             g >= fullRows computes block row fullRows + r, r = (g - fullRows) % splitRows, over slice
//             s = (g - fullRows) / splitRows: tiles s*T/SLICES up to (s+1)*T/SLICES (rounded down),
//             T = ceil(K/TSK). The whole rows come first: they fill the device's first waves, the
//             shorter slices its last.
// Parameters  TSM, TSN: the work-group is TSN/WPTN x TSM/WPTM work-items and computes a TSM x TSN
//             block of C; it walks along K one TSK-deep tile of A and of B at a time.
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
//             ring's tiles in the layout written out below, above mma(), with k taken in the order
//             written out there too.
//             WPTM, WPTN: they only shape the work-group: (WTM/WPTM)*(WTN/WPTN) = 32 work-items
//             per warp, each holding WPTM*WPTN = WTM*WTN/32 values of C in the fragments above.
//             WIDTH: the floats one copy moves into local memory, 1, 2, 4 or 8, where the rows of
//             the matrix allow it: A's when K is a multiple of WIDTH, B's when N is (a vector must
//             start at an address that is a multiple of its size); the other matrix's copies move
//             one float at a time. The kernel tests this itself, from K and N.
//             TILE_PAD: local-memory padding: floats added to every row of the ring's tiles of B. A
//             fragment of B reads 4 rows of a tile at once (k = 2q of the 8, q = 0..3), which fall
//             in one memory bank when a row is a multiple of 32 floats long; with 4 more floats
//             they start 8 banks apart, and a fragment's 8 columns fill the 32 banks.
//             A's tiles are stored as A is, a row of TSK floats for each row of A, with no padding:
//             a lane reads its two values of a row of A as one float2, and with TSK = 8 a half-warp's
//             16 reads (rows g = 0..3, columns 2q and 2q+1) are 32 consecutive floats, 32 banks.
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
//             STAGES: local tiles of A and of B in the ring, 2 or more; tile t lives in buffer
//             t%STAGES, and the copies of the next STAGES-1 tiles are in flight while it is used.
//             COPY: how a tile reaches local memory, each work-item copying its share. 0: ordinary
//             loads, an element past an edge of A or B replaced by 0 (any device; the copy is done
//             when the loads are). 1: NVIDIA's cp.async with a source size (inline PTX), which
//             completes on its own and writes zeros for the bytes past the source size: 0 for a
//             vector wholly past an edge. One commit group per tile, waited for with
//             cp.async.wait_group (NVIDIA GPUs of compute capability 8.0 or higher only: the host
//             refuses it elsewhere). The host's COPY = 2 (its NVIDIA default) never reaches this
//             file: it builds it with 1 where the GPU has cp.async and 0 elsewhere.
// Constraints K >= 8 (the host refuses fewer: step 11 says why); M, N >= 1;
//             M*K, K*N, M*N < 2^31 and SLICES*splitRows*cols*TSM*TSN < 2^31 (int indices);
//             0 <= splitRows <= ceil(M/TSM), and splitRows = 0 where HAS_SPLIT_ROWS = 0;
//             SLICES >= 1 (a slice left without a tile, when SLICES > ceil(K/TSK), writes zeros);
//             TSM a multiple of WTM, TSN of WTN, WTM of WPTM, WTN of WPTN, WPTM and WPTN
//             multiples of WIDTH; WTM a multiple of 16, WTN and TSK of 8, (WTM/WPTM)*(WTN/WPTN) = 32;
//             TILE_PAD a multiple of WIDTH; A, B and C start at addresses aligned to WIDTH floats
//             (OpenCL buffers are);
//             (TSM/WPTM)*(TSN/WPTN) <= the device's maximum work-group size;
//             TSK*TSM/WIDTH and TSK*TSN/WIDTH multiples of (TSM/WPTM)*(TSN/WPTN) (each work-item
//             copies the same number of vectors of every tile);
//             STAGES*(TSM*TSK + TSK*(TSN + TILE_PAD))*4 bytes, and with TC = 0 the portable
//             path's (TSM/WTM)*(TSN/WTN)*2*(WTM + WTN)*8*4 more, <= the device's local memory.
// When beta == 0, C is only written, never read: it may hold anything, even NaN.
// The kernel declares its work-group shape (reqd_work_group_size), so the compiler can fit its use
// of registers to it.
//
// Why the last slice's sum cannot deadlock, on any OpenCL device: no work-group ever waits for
// another. Each slice writes its block and leaves, the last one counted does the sum. OpenCL
// promises nothing about which work-groups run at once, so a kernel in which one work-group waits
// for another's result (a spin on a flag) can hang where the one waited for has not started and
// cannot start until the waiter leaves; here nothing waits. What the sum needs is that the partial
// blocks are in memory, visible to the last work-group, before it reads them: every work-item
// fences its stores of the partial block (a device-wide fence) before the barrier after which one
// of them counts, and the last work-group fences again after the count, before it reads (PTX's
// fence.acq_rel.gpu on NVIDIA, where COPY = 1; mem_fence(CLK_GLOBAL_MEM_FENCE) elsewhere), and
// reads the partials through volatile pointers, from memory, not from a cache that another compute
// unit's stores do not reach.
//
// Defaults    from common/src/gemm_params.c; -D NAME=VALUE overrides. NVIDIA's row is for a GPU
//             whose CL_DEVICE_VENDOR contains "NVIDIA"; a device that is no GPU takes the CPU's.
//             CPU:        TSM=32 TSN=64 TSK=16 WTM=32 WTN=64 WPTM=8 WPTN=8 WIDTH=8 STAGES=2 COPY=0
//                         TILE_PAD=0 TC=0 PRODUCTS=3 PROMOTE=1 SLICES=0 SPLIT_ROWS=0 GROUPS_PER_CU=1
//                         TILE_BY_SIZE=0
//             NVIDIA GPU: TSM=128 TSN=128 TSK=8 WTM=64 WTN=64 WPTM=16 WPTN=8 WIDTH=4 STAGES=4 COPY=2
//                         TILE_PAD=4 TC=2 PRODUCTS=3 PROMOTE=1 SLICES=0 SPLIT_ROWS=0 GROUPS_PER_CU=2
//                         TILE_BY_SIZE=1
//             other GPUs: TSM=64 TSN=64 TSK=8 WTM=16 WTN=64 WPTM=4 WPTN=8 WIDTH=4 STAGES=2 COPY=0
//                         TILE_PAD=0 TC=0 PRODUCTS=3 PROMOTE=1 SLICES=0 SPLIT_ROWS=0 GROUPS_PER_CU=2
//                         TILE_BY_SIZE=0
//
// Host-only parameters: SLICES, SPLIT_ROWS, GROUPS_PER_CU and TILE_BY_SIZE are no macros of this
// file. The host reads them (-D sets them like the others) to choose the split of K, which reaches
// the kernel as its launch geometry and its splitRows argument, and the tile:
//   SLICES: 0 (the default) lets the host choose, n > 0 forces n slices and at least one split row;
//   SPLIT_ROWS: 0 (the default) lets the host choose, n > 0 splits the last min(n, R) rows;
//   GROUPS_PER_CU: work-groups a compute unit runs at once, in the host's model of the device;
//   TILE_BY_SIZE: 1 (NVIDIA's default) halves TSM, TSN, WTM, WTN, WPTM and WPTN where even a tile of
//     half the sides makes no more blocks of C than the device has compute units,
//     ceil(M/(TSM/2))*ceil(N/(TSN/2)) <= compute units (at 256 and 512 on a GPU of 132), if the
//     halved values meet the constraints above; the kernel is then built with the halved values
//     and TILE_BY_SIZE=0, which the host reports (gemm_tile_by_size(), common/src/gemm_step_rules.c).
//     The work-group keeps its work-items and each warp its 32 lanes; there are four times as many
//     blocks, each a quarter of the work. 0: the tile as given, at every size.
// How the host chooses them where SLICES and SPLIT_ROWS are 0: step 11's rule (gemm_split_k_choose(),
// common/src/gemm_step_rules.c, written out in kernel11_tensor_cores/tensor_cores.cl), with
// Mp = R*TSM, Np = cols*TSN and Kp = ceil(K/TSK)*TSK, and one change in its cost: no C is padded
// and there is no unpad; instead each split block's last work-group reads the SLICES partial blocks
// and writes C, alone, after the slices: cost(s) = the time the last work-group ends (as step 11's,
// times 1 + GEMM_SPLIT_CODE_COST where s > 1, GEMM_SPLIT_CODE_COST = 0.03: the kernel built with
// the split's code, HAS_SPLIT_ROWS below) + (s + 1)*4*F/(2*TSK) tiles (a block of TSM x TSN floats read at one slot's share of the
// memory bandwidth), with F = GEMM_SPLIT_FLOPS_PER_BYTE and the work-group's fixed cost G =
// GEMM_SPLIT_GROUP_TILES of common/include/gemm_step_rules.h, as in step 11's gemm_split_k_cost():
// split_k_cost() there, with in_place = 1.
//
// HAS_SPLIT_ROWS: no parameter, a fact of the launch that the host builds in (gemm_plan_predicated(),
// which reports it): 1 where it launches split rows (splitRows > 0), 0 where it launches none. With 0
// the kernel has no code for the split (the partial blocks, the count, the last slice's sum): never
// run there, that code still took registers from the loop over K, which ran slower with it on an
// H100 (docs/lab12.md measures it). A host that leaves it undefined gets 1, right for any splitRows.
//
// How the host builds COPY=2 and TC=2 (NVIDIA's defaults), in plan() of
// kernel12_predication/main.c: as COPY=1 and TC=1 where the GPU reports compute capability 8.0 or
// higher through cl_nv_device_attribute_query (queries 0x4000 and 0x4001: major*10 + minor >= 80),
// else as COPY=0 and TC=0.

// The split's code is kept unless the host says that the launch has no split rows (see above)
#ifndef HAS_SPLIT_ROWS
#define HAS_SPLIT_ROWS 1
#endif

// Work-items per work-group of sgemm: RTSN along N times RTSM along M
#define RTSM ((TSM)/(WPTM))
#define RTSN ((TSN)/(WPTN))
#define THREADS (RTSM*RTSN)

// A warp: LANESN work-items along N times LANESM along M compute a WTM x WTN sub-tile of C
#define LANESM ((WTM)/(WPTM))
#define LANESN ((WTN)/(WPTN))
#define WARP (LANESM*LANESN)

// Vectors of WIDTH floats of one tile of A (TSM x TSK: LPTA) and of B (TSK x TSN: LPTB) that each
// work-item copies
#define LPTA ((TSM*(TSK/WIDTH))/THREADS)
#define LPTB ((TSK*(TSN/WIDTH))/THREADS)

// A row of a tile in the ring, in floats: A's tile keeps A's rows (TSK floats each), B's keeps
// B's (TSN floats, TILE_PAD more of local-memory padding)
#define ROWA (TSK)
#define ROWB (TSN + TILE_PAD)

#if COPY == 1
// `bytes` of the 4*n at src (n = 1, 2 or 4 floats) to local memory with cp.async (NVIDIA, compute
// capability 8.0 and later), the rest of the 4*n at dst filled with zeros: the instruction's source
// size. The copy bypasses the registers and completes on its own. A local pointer's value is its
// address in the shared (local) memory window, which is what the instruction's first operand
// takes; 16-byte copies can skip the L1 cache (.cg), smaller ones cannot (.ca).
inline void copyPredicated(__local float *dst, const __global float *src, const int n, const uint bytes)
{
    if (n == 4)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;"
                     :: "r"((uint)(size_t)dst), "l"(src), "r"(bytes) : "memory");
    else if (n == 2)
        asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;"
                     :: "r"((uint)(size_t)dst), "l"(src), "r"(bytes) : "memory");
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;"
                     :: "r"((uint)(size_t)dst), "l"(src), "r"(bytes) : "memory");
}
#endif

// Copy `count` floats (WIDTH or fewer) of a row of a matrix, from element `col` of its row `row`,
// into local memory at dst; the floats past the matrix's edge, col + i >= cols or row >= rows,
// become 0. `vector`: the row's length is a multiple of WIDTH, so the copy may move WIDTH floats
// at once (COPY = 1: in pieces of at most 16 bytes, each with its own source size). Where a float
// is past the edge its source address is never read (cp.async reads only `bytes`; the loads are
// guarded), but it is kept inside the matrix all the same: src is the matrix's first element then.
inline void copyRow(__local float *dst, const __global float *matrix, const int rows, const int cols,
                    const int row, const int col, const int vector)
{
    const int inside = row < rows ? min(max(cols - col, 0), WIDTH) : 0;  // floats inside the matrix
    const __global float *src = inside > 0 ? &matrix[row*cols + col] : matrix;
#if COPY == 1
    if (vector) {
        #pragma unroll
        for (int h = 0; h < (WIDTH + 3)/4; h++) {
            const int piece = min(WIDTH - 4*h, 4);          // floats in this piece: 4, or WIDTH < 4
            const int have = clamp(inside - 4*h, 0, piece);  // of which inside
            copyPredicated(dst + 4*h, have > 0 ? src + 4*h : matrix, piece, (uint)(4*have));
        }
    } else {
        #pragma unroll
        for (int i = 0; i < WIDTH; i++)
            copyPredicated(dst + i, i < inside ? src + i : matrix, 1, i < inside ? 4u : 0u);
    }
#else
    (void)vector;
    #pragma unroll
    for (int i = 0; i < WIDTH; i++)
        dst[i] = i < inside ? src[i] : 0.0f;
#endif
}

// Start copying tile t of A (rows of the block, TSK columns from t*TSK) and of B (TSK rows from
// t*TSK, the block's TSN columns) into one buffer of the ring, without waiting for it: this
// work-item's share, vector by vector, neighbouring work-items taking neighbouring vectors of a row
// (coalesced). firstRow and firstCol: the block's first row of A (and C) and first column of B.
void copyTiles(const int t, const int tid, const int M, const int N, const int K, const int firstRow,
               const int firstCol, const __global float* A, const __global float* B,
               __local float Asub[TSM][ROWA], __local float Bsub[TSK][ROWB])
{
    const int vectorA = K % WIDTH == 0, vectorB = N % WIDTH == 0;
    #pragma unroll
    for (int l = 0; l < LPTA; l++) {
        const int i = tid + l*THREADS, m = i / (TSK/WIDTH), k = (i % (TSK/WIDTH))*WIDTH;
        copyRow(&Asub[m][k], A, M, K, firstRow + m, t*TSK + k, vectorA);
    }
    #pragma unroll
    for (int l = 0; l < LPTB; l++) {
        const int i = tid + l*THREADS, k = i / (TSN/WIDTH), n = (i % (TSN/WIDTH))*WIDTH;
        copyRow(&Bsub[k][n], B, K, N, t*TSK + k, firstCol + n, vectorB);
    }
}

// COPY = 1: close the commit group of the copies started since the last one (one group per tile,
// empty where there was no tile left to copy, so that tile t is always in the same group number)
inline void commitTiles(void)
{
#if COPY == 1
    asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}

// A fence for the stores of this work-item to global memory, seen by the whole device: before the
// count that tells the last slice, and in the last slice after it (see "Why the last slice's sum
// cannot deadlock" above)
inline void fenceDevice(void)
{
#if COPY == 1
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
#else
    mem_fence(CLK_GLOBAL_MEM_FENCE);
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
// The instruction fixes which row of A and which column of B each lane holds, not which k: any
// order of the 8 values of k gives the same products, as long as A and B take the same order (the
// tensor cores may add them in another order). This kernel gives the places "k = q" and "k = q+4"
// the tile's columns 2q and 2q+1, so that a lane's two values of a row of A are neighbours, one
// float2 read: a[0] = A(g, 2q), a[2] = A(g, 2q+1), a[1] and a[3] the same of row g+8; b[0] = B(2q, g),
// b[1] = B(2q+1, g).
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
// The store's loops, with their bounds: unrolled on the tensor cores (acc then stays in registers);
// not on the portable path, where unrolled they made PoCL's build much longer for a path
// that is there for correctness (lab/tuning/pocl-cpu-step12-unroll-store.log)
#if TC == 1
#define UNROLL_STORE _Pragma("unroll")
#else
#define UNROLL_STORE
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
           const __global float* A,
           const __global float* B,
           __global float* C,
           __global float* partials,
           __global int* counters,
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

    // Which block of C this work-group computes, and over which slice of K's tiles: the first
    // fullRows work-group rows are block rows computed whole, the others the last splitRows block
    // rows SLICES times over. The tiles of K: ceil(K/TSK), the last one partly past K's end.
    const int fullRows = (M + TSM - 1)/TSM - splitRows;
    const int split = HAS_SPLIT_ROWS && get_group_id(1) >= fullRows;  // 0 at build time: no split code
    const int slice = split ? (get_group_id(1) - fullRows) / splitRows : 0;
    const int blockRow = get_group_id(1) - slice*splitRows;
    const int slices = split ? (get_num_groups(1) - fullRows) / splitRows : 1;
    const int tiles = (K + TSK - 1)/TSK;
    const int firstTile = slice*tiles/slices, numTiles = (slice + 1)*tiles/slices - firstTile;
    const int firstRow = blockRow*TSM, firstCol = get_group_id(0)*TSN;

    // A ring of STAGES tiles of A (TSM x TSK) and of B (TSK x TSN), shared by the whole
    // work-group: tile t lives in buffer t%STAGES. Aligned to 16 bytes: a copy of a vector needs its
    // destination aligned to its size (an array of floats need only be aligned to 4)
    __local float Asub[STAGES][TSM][ROWA] __attribute__((aligned(16)));
    __local float Bsub[STAGES][TSK][ROWB] __attribute__((aligned(16)));

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
    #pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < numTiles)
            copyTiles(firstTile + s, tid, M, N, K, firstRow, firstCol, A, B, Asub[s], Bsub[s]);
        commitTiles();
    }

    // Walk along the slice of K one tile at a time (t counts the slice's tiles)
    for (int t = 0; t < numTiles; t++) {
        const int buf = t % STAGES;

        // Wait for this work-item's copies of tile t (COPY = 1: all but the STAGES-2 newest groups
        // are complete; COPY = 0: the loads are done already) ...
#if COPY == 1
        asm volatile("cp.async.wait_group %0;" :: "n"(STAGES - 2) : "memory");
#endif
        // ... then for everybody's: tile t is then in local memory, and every work-item has
        // finished computing with tile t-1, whose buffer the copy below reuses. One barrier per tile.
        barrier(CLK_LOCAL_MEM_FENCE);

        // Start copying tile t+STAGES-1 into the buffer of tile t-1: it arrives while the
        // multiply-adds below (and those of the next STAGES-2 tiles) run
        const int ahead = t + STAGES - 1;
        if (ahead < numTiles)
            copyTiles(firstTile + ahead, tid, M, N, K, firstRow, firstCol, A, B, Asub[ahead % STAGES],
                      Bsub[ahead % STAGES]);
        commitTiles();

        // The tile's multiply-adds, 8 deep at a time, on the tensor cores. Each value of A and B is
        // read from the tile into its place in a fragment and split into two TF32 values, hi + lo;
        // then, for each 16 x 8 block of the warp's sub-tile, a*b = lo*hi + hi*lo + hi*hi (lo*lo,
        // about 2^-22 of it, is left out), the three products chained on the tensor cores from zero,
        // smallest first. Their sum, 8 products deep, is then added to acc by an ordinary FP32 add:
        // the accumulation over K happens outside the tensor cores, rounded as FP32 rounds.
        const __local float *As = &Asub[buf][0][0], *Bs = &Bsub[buf][0][0];
        UNROLL
        for (int k = 0; k < TSK; k += MMA_K) {
            float aFrag[2][FRAGS_M][4], bFrag[2][FRAGS_N][2];
            UNROLL
            for (int i = 0; i < FRAGS_M; i++)
                UNROLL
                for (int h = 0; h < 2; h++) {  // rows g (h = 0) and g+8; columns 2q and 2q+1 at once
                    const float2 pair = *(const __local float2 *)&As[(rowBase + i*MMA_M + h*8)*ROWA + k + 2*q];
                    splitTF32(pair.x, &aFrag[HI][i][h], &aFrag[LO][i][h]);
                    splitTF32(pair.y, &aFrag[HI][i][h + 2], &aFrag[LO][i][h + 2]);
                }
            UNROLL
            for (int j = 0; j < FRAGS_N; j++)
                UNROLL
                for (int r = 0; r < 2; r++)
                    splitTF32(Bs[(k + 2*q + r)*ROWB + colBase + j*MMA_N], &bFrag[HI][j][r], &bFrag[LO][j][r]);
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

    // A split block: this slice's partial block, all of it, to the workspace; then the count. The
    // work-group counted last adds the slices (below); the others are done.
    __local int last;  // whether this work-group is its block's last slice
    if (split) {
        const int block = (blockRow - fullRows)*get_num_groups(0) + get_group_id(0);
        __global float *mine = &partials[((size_t)slice*splitRows*get_num_groups(0) + block)*(TSM*TSN)];
        #pragma unroll
        for (int i = 0; i < FRAGS_M; i++)
            #pragma unroll
            for (int j = 0; j < FRAGS_N; j++)
                #pragma unroll
                for (int h = 0; h < 2; h++) {  // the fragment's row g (h = 0) and row g+8 (h = 1)
                    const int at = (rowBase + i*MMA_M + h*8)*TSN + warpCol*WTN + j*MMA_N + 2*q;  // even
                    *(__global float2 *)&mine[at] = (float2)(acc[i][j][2*h], acc[i][j][2*h + 1]);
                }
        fenceDevice();                      // this work-item's stores, seen by the device ...
        barrier(CLK_GLOBAL_MEM_FENCE);      // ... and everybody's, before the count
        if (tid == 0) {
            last = atomic_inc(&counters[block]) == slices - 1;
            if (last)
                counters[block] = 0;        // ready for the next launch: nobody counts it again
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (!last)
            return;                         // the whole work-group: `last` is the same for all
        fenceDevice();
        // The sum of the slices, in slice order, at this lane's places of the block: the same bits
        // whichever slice is last. One row of fragments (i) at a time: its FRAGS_N*4 places of every
        // slice are loaded together (independent loads that overlap, where place by place each
        // would wait for the one before), then added. A whole slice at once would hold as many
        // floats again as acc and run out of registers. Read through volatile: from memory, each time.
        const volatile __global float2 *all = (const volatile __global float2 *)&partials[(size_t)block*(TSM*TSN)];
        const size_t sliceStride = (size_t)splitRows*get_num_groups(0)*(TSM*TSN/2);  // in float2
        #pragma unroll
        for (int i = 0; i < FRAGS_M; i++) {
            #pragma unroll
            for (int j = 0; j < FRAGS_N; j++)
                #pragma unroll
                for (int r = 0; r < 4; r++)
                    acc[i][j][r] = 0.0f;
            for (int s = 0; s < slices; s++) {
                float2 part[FRAGS_N][2];
                #pragma unroll
                for (int j = 0; j < FRAGS_N; j++)
                    #pragma unroll
                    for (int h = 0; h < 2; h++)
                        part[j][h] = all[s*sliceStride + ((rowBase + i*MMA_M + h*8)*TSN + warpCol*WTN + j*MMA_N + 2*q)/2];
                #pragma unroll
                for (int j = 0; j < FRAGS_N; j++)
                    #pragma unroll
                    for (int h = 0; h < 2; h++) {
                        acc[i][j][2*h] += part[j][h].x;
                        acc[i][j][2*h + 1] += part[j][h].y;
                    }
            }
        }
    }

    // Store the block into C, alpha*acc + beta*C, only where it lies inside M x N. A fragment of C
    // holds two neighbouring columns of each of its two rows (c[0] c[1], c[2] c[3]): where N is even
    // (every row of C then starts at an even index) and both columns are inside, the lane stores
    // the pair as one float2, half the stores of one float at a time; else one float at a time.
    UNROLL_STORE
    for (int i = 0; i < FRAGS_M; i++)
        UNROLL_STORE
        for (int j = 0; j < FRAGS_N; j++)
            UNROLL_STORE
            for (int h = 0; h < 2; h++) {  // the fragment's row g (h = 0) and row g+8 (h = 1)
                const int row = firstRow + rowBase + i*MMA_M + h*8;
                const int col = firstCol + warpCol*WTN + j*MMA_N + 2*q;
                if (row >= M || col >= N)
                    continue;
                const int idx = row*N + col;
                const float2 v = alpha*(float2)(acc[i][j][2*h], acc[i][j][2*h + 1]);
                if (N % 2 == 0 && col + 1 < N) {
                    __global float2 *c = (__global float2 *)&C[idx];
                    *c = (beta == 0.0f) ? v : v + beta*(*c);
                } else {
                    C[idx] = (beta == 0.0f) ? v.x : v.x + beta*C[idx];
                    if (col + 1 < N)
                        C[idx + 1] = (beta == 0.0f) ? v.y : v.y + beta*C[idx + 1];
                }
            }
}
