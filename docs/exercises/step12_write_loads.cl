// Exercise 12.1 - write it yourself: step 12's kernel with its predicated load left out. Copy this
// file to my_loads.cl in the repository root, write the missing code where the copy says YOUR CODE
// HERE, and check it with the commands of exercise 12.1 in docs/exercises.md, for example
//   build/kernel12_predication/kernel12_predication --kernel-file my_loads.cl -m 17 -n 33 -k 65 --brief
// As given, the file builds, runs and fails verification (exit 1).
// Launch, parameters and constraints: those of kernel12_predication/predication.cl, whose code is
// the solution: write yours before you read it.

// The split's code is kept unless the host says that the launch has no split rows (HAS_SPLIT_ROWS:
// kernel12_predication/predication.cl's header says what it is)
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
    // ---- YOUR CODE HERE (1 of 2): how many floats of this copy lie inside the matrix ----------
    // Set `inside`, the number of the WIDTH floats from element (row, col) on that lie inside the
    // rows x cols matrix (0 to WIDTH: none where the row is past the last, fewer than WIDTH where the
    // copy runs past the row's end), and `src`, where they start: &matrix[row*cols + col] where
    // inside > 0, else the matrix's first element (an address that stays inside it, never read).
    // In scope: dst, matrix, rows, cols, row, col, WIDTH, min, max.
    int inside = 0;
    const __global float *src = matrix;
    // ---- END OF YOUR CODE -----------------------------------------------------------------------
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
    // ---- YOUR CODE HERE (2 of 2): the guarded load (COPY = 0) -------------------------------------
    // Write the WIDTH floats at dst: src[i] for the floats inside the matrix, 0 for the others. Read
    // nothing past `inside` (it may be past the end of the matrix's memory).
    // In scope: dst, src, inside, WIDTH; `#pragma unroll` before a loop unrolls it.
    // ---- END OF YOUR CODE -----------------------------------------------------------------------
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
