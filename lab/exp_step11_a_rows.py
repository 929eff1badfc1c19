#!/usr/bin/env python3
"""Writes a timing experiment of step 11 (lab/exp_step11_costs.sh a_rows runs it; lab11 has the
result): its kernel with A read as it is, row-major, instead of transposed, and the fragments read
two floats at a time. The host is step 11's own, so it still launches its `transpose` helper: here
that kernel copies A, zero-padded, into the same buffer (Mp x Kp, row-major, instead of Kp x Mp),
and the sgemm reads it as A. The result is verified as the kernel's is; the sgemm's time is what a
step without the transpose would have, and the copy's time what padding A would cost where it is
needed (at a multiple of the tiles, nothing: a step built so would use A as it is).
  - A's tile is TSM rows of TSK floats (no local-memory padding); B's as in the kernel.
  - The 8 depths of a step are taken in the order 0 4 1 5 2 6 3 7, for A and B alike: lane q's depths
    q and q+4 are then the tile's columns 2q and 2q+1, side by side in a row of A (one float2 read),
    and rows 2q and 2q+1 of B.
  - B's columns are paired over two neighbouring 8-wide blocks as in exp_step11_fragments.py (one
    float2 read for blocks j and j+1), and C's columns follow: a lane then holds four neighbouring
    columns of a row of C, stored as one float4.
With TILE_PAD = 4 (-D TILE_PAD=4: 132 floats a row of B) both kinds of float2 reads meet 32 banks in
each half of a warp. COPY = 0 and 1 only; FRAGS_N even. Written for the kernel of commit 524b781,
whose stores were one float at a time (`git show 524b781:kernel11_tensor_cores/tensor_cores.cl`).
--scalar: for the kernel since, which stores C two floats at a time: A read as it is, but as the
kernel reads A^T, one float at a time, in the instruction's order of depths; B and the stores the
kernel's. A's tile rows are TSK + WIDTH floats (local-memory padding: 12 with the NVIDIA defaults,
so the 32 lanes' reads, rows g and depths q, meet 32 banks).
--ldmatrix: as --scalar, but each 16 x 8 block of A read by the warp with one ldmatrix.x4 (NVIDIA's
PTX, compute capability 7.5 and later; the portable path keeps --scalar's reads): the instruction
loads four 8 x 8 matrices of 16-bit values, which, read as 8 rows of 4 floats each, are exactly the
four values a lane holds of A's fragment (rows g and g+8, depths q and q+4). 4 instructions per lane
and 8-deep step instead of 16 reads. Rows of 12 floats keep its 16-byte rows aligned and its eight
rows of each matrix in 32 different banks.
--ldmatrix-memory: --ldmatrix with the asm not volatile, a "memory" clobber in its place (it still
stays after the barrier before it), so that the compiler may schedule it like any other read.
    lab/exp_step11_a_rows.py KERNEL OUT [--scalar | --ldmatrix | --ldmatrix-memory]"""
import sys

from exp_step11_fragments import A_READS, B_PAIRS, B_READS, PAIRS_GUARD, STORE4, STORE_LOOP, swap


def edit(text, old, new, count=1):
    return swap(text, old, new, count, who="exp_step11_a_rows.py")


def main(argv):
    kernel, out = argv[1], argv[2]
    clobber = "--ldmatrix-memory" in argv[3:]
    ldmatrix = "--ldmatrix" in argv[3:] or clobber
    scalar = "--scalar" in argv[3:] or ldmatrix
    text = open(kernel, encoding="utf-8").read()
    # The helper: a padded copy of A into the buffer the host calls A^T
    start = text.index("    const int tx = get_local_id(0);  // 0..TRANSPOSE_TILE-1")
    last = "        out[outRow*paddedRows + outCol] = tile[tx][ty];\n"
    end = text.index(last + "}\n") + len(last)
    text = text[:start] + """    // (experiment) not a transpose: in (rows x cols) zero-padded into out (paddedRows x paddedCols)
    const int col = get_global_id(0), row = get_global_id(1);
    if (row < paddedRows && col < paddedCols)
        out[row*paddedCols + col] = (row < rows && col < cols) ? in[row*cols + col] : 0.0f;
""" + text[end:]
    text = edit(text, "#define ROWA ((TSM + TILE_PAD)/WIDTH)",
                "#define ROWA ((TSK + WIDTH)/WIDTH)  // (experiment) a row of A's tile: TSK + WIDTH floats" if scalar
                else "#define ROWA (TSK/WIDTH)  // (experiment) a row of A's tile: TSK floats")
    text = edit(text, "#if COPY == 3\n// COPY = 3, for the tests only",
                "#if COPY == 3\n#error the experiment has no COPY = 3\n// COPY = 3, for the tests only")
    # A's tiles: TSM rows of TSK floats, copied from A's rows
    text = edit(text, "void copyTiles(const int t, const int tid, const int M, const int N,",
                "void copyTiles(const int t, const int tid, const int M, const int N, const int K,")
    text = edit(text, "__local floatX Asub[TSK][ROWA], __local floatX Bsub[TSK][ROWB], event_t *copied)",
                "__local floatX Asub[TSM][ROWA], __local floatX Bsub[TSK][ROWB], event_t *copied)")
    text = edit(text, """        const int i = tid + l*THREADS, k = i / (TSM/WIDTH), m = i % (TSM/WIDTH);
        copyVector(&Asub[k][m], &AT[(t*TSK + k)*(M/WIDTH) + m]);  // AT points to the block row's first column""",
                """        const int i = tid + l*THREADS, m = i / (TSK/WIDTH), kv = i % (TSK/WIDTH);
        copyVector(&Asub[m][kv], &AT[m*(K/WIDTH) + t*(TSK/WIDTH) + kv]);  // (experiment) A row-major""")
    text = edit(text, """    for (int k = 0; k < TSK; k++)
        tile = async_work_group_copy(Asub[k], &AT[(t*TSK + k)*(M/WIDTH)], TSM/WIDTH, tile);""",
                """    for (int m = 0; m < TSM; m++)  // (experiment) A row-major
        tile = async_work_group_copy(Asub[m], &AT[m*(K/WIDTH) + t*(TSK/WIDTH)], TSK/WIDTH, tile);""")
    text = edit(text, "copyTiles(s, tid, M, N, AT,", "copyTiles(s, tid, M, N, K, AT,")
    text = edit(text, "copyTiles(ahead, tid, M, N, AT,", "copyTiles(ahead, tid, M, N, K, AT,")
    text = edit(text, "    AT += firstTile*TSK*(M/WIDTH) + blockRow*(TSM/WIDTH);",
                "    AT += blockRow*TSM*(K/WIDTH) + firstTile*(TSK/WIDTH);  // (experiment) A row-major")
    text = edit(text, "    __local floatX Asub[STAGES][TSK][ROWA];", "    __local floatX Asub[STAGES][TSM][ROWA];")
    if scalar:  # A(m, k) is the tile's row m, column k; the rest is the kernel's
        text = edit(text, A_READS, A_READS.replace(
            "A(m, k) is A^T's row k, column m", "(experiment) A(m, k) is the tile's row m, column k").replace(
            "As[(k + q + (r/2)*4)*(ROWA*WIDTH) + rowBase + i*MMA_M + (r%2)*8]",
            "As[(rowBase + i*MMA_M + (r%2)*8)*(ROWA*WIDTH) + k + q + (r/2)*4]"))
        if ldmatrix:
            reads = A_READS.replace(
                "A(m, k) is A^T's row k, column m", "(experiment) A(m, k) is the tile's row m, column k").replace(
                "As[(k + q + (r/2)*4)*(ROWA*WIDTH) + rowBase + i*MMA_M + (r%2)*8]",
                "As[(rowBase + i*MMA_M + (r%2)*8)*(ROWA*WIDTH) + k + q + (r/2)*4]")
            text = edit(text, reads, """#if TC == 1
            // (experiment) each 16 x 8 block of A with one ldmatrix.x4: lane l gives the address of
            // row l%8 of matrix l/8; matrices 0-3 are rows 0-7 and 8-15 of depths 0-3, then of 4-7,
            // and the lane receives word q of row g of each: a[0], a[1], a[2], a[3]
            UNROLL
            for (int i = 0; i < FRAGS_M; i++) {
                uint d[4];
                const uint addr = (uint)(size_t)&As[(warpRow*WTM + i*MMA_M + lane%8 + ((lane/8)%2)*8)*(ROWA*WIDTH)
                                                    + k + (lane/16)*4];
                asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                             : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(addr)@CLOBBER@);
                UNROLL
                for (int r = 0; r < 4; r++)
                    splitTF32(as_float(d[r]), &aFrag[HI][i][r], &aFrag[LO][i][r]);
            }
#else
""" + reads + "#endif\n")
            if clobber:
                text = edit(text, 'asm volatile("ldmatrix', 'asm("ldmatrix')
            text = edit(text, "@CLOBBER@", ' : "memory"' if clobber else "")
        open(out, "w", encoding="utf-8").write(text)
        return
    # The reads: depths q and q+4 of a step are the tile's 2q and 2q+1, for A and B alike
    text = edit(text, A_READS + B_READS, """            // (experiment) depths q and q+4 of the step are the tile's 2q and 2q+1, for A and B alike
            UNROLL
            for (int i = 0; i < FRAGS_M; i++)
                UNROLL
                for (int h = 0; h < 2; h++) {  // rows g (h = 0) and g+8 of the block, one float2 each
                    const float2 pair = vload2(0, &As[(rowBase + i*MMA_M + h*8)*(ROWA*WIDTH) + k + 2*q]);
                    splitTF32(pair.x, &aFrag[HI][i][h], &aFrag[LO][i][h]);          // depth q: a[0], a[1]
                    splitTF32(pair.y, &aFrag[HI][i][h + 2], &aFrag[LO][i][h + 2]);  // depth q+4: a[2], a[3]
                }
""" + B_PAIRS.replace("@ROW@", "k + 2*q + r"))
    # The stores: the fragment's rows as they are, four neighbouring columns at once
    text = edit(text, STORE_LOOP, STORE4.replace("@ROW@", "rowBase + i*MMA_M + h*8"))
    text = edit(text, *PAIRS_GUARD)
    open(out, "w", encoding="utf-8").write(text)


if __name__ == "__main__":
    main(sys.argv)
