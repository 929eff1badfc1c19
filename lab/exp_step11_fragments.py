#!/usr/bin/env python3
"""Writes a timing experiment of step 11 (lab/exp_step11_costs.sh fragments runs it; lab11 has the
result): its kernel with each lane's fragments read from local memory as float2 pairs instead of
one float at a time, half the reads.
  A: a lane's two rows of a 16 x 8 block of A, g and g+8 in the instruction's layout, are taken from
     the block's rows 2g and 2g+1, which lie side by side in a row of the tile of A^T; C's rows are
     permuted the same way (a fragment's rows g and g+8 are stored at 2g and 2g+1), so the product is
     the same.
  B: with B's columns permuted alike over two neighbouring 8-wide blocks (block j's column n is the
     pair's column 2n + j%2), a lane's values of blocks j and j+1 lie side by side in a row of the
     tile of B; C's columns follow.
Both paths (TC = 0 and 1) compute the same product, so the harness verifies it; the reads of 8
bytes hit 32 different banks in each half of a warp with the defaults' TILE_PAD = 8 (136 floats a
row). Needs FRAGS_N even.
--a-only: A's pairs alone (B read as the kernel does, C's columns where they are): the stores of C
then stay as they are, neighbouring lanes' values side by side.
--store4: A's and B's pairs, and C stored four floats at a time: with B's columns paired, a lane
holds four neighbouring columns of a row of C (two of block j, two of block j+1, interleaved).
--store2: the kernel's reads, and C stored two floats at a time (a lane's two neighbouring columns).
    lab/exp_step11_fragments.py KERNEL OUT [--a-only | --store4 | --store2]"""
import sys

# The kernel's own text that the experiments replace
A_READS = """            UNROLL
            for (int i = 0; i < FRAGS_M; i++)
                UNROLL
                for (int r = 0; r < 4; r++)  // A(m, k) is A^T's row k, column m
                    splitTF32(As[(k + q + (r/2)*4)*(ROWA*WIDTH) + rowBase + i*MMA_M + (r%2)*8],
                              &aFrag[HI][i][r], &aFrag[LO][i][r]);
"""
B_READS = """            UNROLL
            for (int j = 0; j < FRAGS_N; j++)
                UNROLL
                for (int r = 0; r < 2; r++)
                    splitTF32(Bs[(k + q + r*4)*(ROWB*WIDTH) + colBase + j*MMA_N], &bFrag[HI][j][r], &bFrag[LO][j][r]);
"""
STORE_LOOP = """        for (int j = 0; j < FRAGS_N; j++)
            #pragma unroll
            for (int r = 0; r < 4; r++) {
                const int row = get_group_id(1)*TSM + rowBase + i*MMA_M + (r/2)*8;
                const int col = get_group_id(0)*TSN + warpCol*WTN + j*MMA_N + 2*q + r%2;
                const int idx = row*N + col;
                if (toCopies)
                    copies[idx - fullRows*TSM*N] = alpha*acc[i][j][r];
                else
                    C[idx] = (beta == 0.0f) ? alpha*acc[i][j][r] : alpha*acc[i][j][r] + beta*C[idx];
            }"""
# ... and what they put there: B's blocks j and j+1 read in pairs (@ROW@: the tile's row of depth q
# for r = 0, of q+4 for r = 1), and the four neighbouring columns a lane then holds stored at once
# (@ROW@: the row of C of the fragment's row g for h = 0, g+8 for h = 1)
B_PAIRS = """            UNROLL
            for (int j = 0; j < FRAGS_N; j += 2)
                UNROLL
                for (int r = 0; r < 2; r++) {  // (experiment) blocks j and j+1, columns 2g and 2g+1 of the pair
                    const float2 pair = vload2(0, &Bs[(@ROW@)*(ROWB*WIDTH) + warpCol*WTN + j*MMA_N + 2*g]);
                    splitTF32(pair.x, &bFrag[HI][j][r], &bFrag[LO][j][r]);
                    splitTF32(pair.y, &bFrag[HI][j + 1][r], &bFrag[LO][j + 1][r]);
                }
"""
STORE4 = """        for (int j = 0; j < FRAGS_N; j += 2)
            #pragma unroll
            for (int h = 0; h < 2; h++) {  // (experiment) blocks j and j+1 give 4 neighbouring columns
                const int row = get_group_id(1)*TSM + @ROW@;
                const int col = get_group_id(0)*TSN + warpCol*WTN + j*MMA_N + 4*q;
                const int idx = row*N + col;
                const float4 v = alpha*(float4)(acc[i][j][2*h], acc[i][j + 1][2*h], acc[i][j][2*h + 1], acc[i][j + 1][2*h + 1]);
                if (toCopies)
                    *(__global float4 *)&copies[idx - fullRows*TSM*N] = v;
                else
                    *(__global float4 *)&C[idx] = (beta == 0.0f) ? v : v + beta*(*(__global float4 *)&C[idx]);
            }"""
PAIRS_GUARD = ("#define HI 0 ",
              "#if FRAGS_N % 2\n#error the experiment pairs B's blocks: WTN must be a multiple of 16\n#endif\n#define HI 0 ")


def swap(text, old, new, count=1, who="exp_step11_fragments.py"):
    """text with old (found exactly count times) replaced by new"""
    if text.count(old) != count:
        sys.exit(f"{who}: expected {count} of {old!r}, found {text.count(old)}")
    return text.replace(old, new)


def main(argv):
    kernel, out = argv[1], argv[2]
    a_only, store4, store2 = ("--" + m in argv[3:] for m in ("a-only", "store4", "store2"))
    text = open(kernel, encoding="utf-8").read()
    if not store2:
        # A's fragment values of rows 2g and 2g+1 (r%2) at k = q and q+4 (r/2), as two float2
        text = swap(text, A_READS, """            UNROLL
            for (int i = 0; i < FRAGS_M; i++)
                UNROLL
                for (int h = 0; h < 2; h++) {  // (experiment) rows 2g and 2g+1 at k = q + 4h, one float2
                    const float2 pair = vload2(0, &As[(k + q + h*4)*(ROWA*WIDTH) + warpRow*WTM + i*MMA_M + 2*g]);
                    splitTF32(pair.x, &aFrag[HI][i][2*h], &aFrag[LO][i][2*h]);
                    splitTF32(pair.y, &aFrag[HI][i][2*h + 1], &aFrag[LO][i][2*h + 1]);
                }
""")
    if not a_only and not store2:
        text = swap(text, B_READS, B_PAIRS.replace("@ROW@", "k + q + r*4"))
    if store2:
        text = swap(text, STORE_LOOP, """        for (int j = 0; j < FRAGS_N; j++)
            #pragma unroll
            for (int h = 0; h < 2; h++) {  // (experiment) row g + 8h: the lane's two neighbouring columns at once
                const int row = get_group_id(1)*TSM + rowBase + i*MMA_M + h*8;
                const int col = get_group_id(0)*TSN + warpCol*WTN + j*MMA_N + 2*q;
                const int idx = row*N + col;
                const float2 v = alpha*(float2)(acc[i][j][2*h], acc[i][j][2*h + 1]);
                if (toCopies)
                    *(__global float2 *)&copies[idx - fullRows*TSM*N] = v;
                else
                    *(__global float2 *)&C[idx] = (beta == 0.0f) ? v : v + beta*(*(__global float2 *)&C[idx]);
            }""")
    elif store4:  # the fragment's row g + 8h is the block's row 2g + h
        text = swap(text, STORE_LOOP, STORE4.replace("@ROW@", "warpRow*WTM + i*MMA_M + 2*g + h"))
    else:
        # the fragment's row g + (r/2)*8 is row 2g + r/2 of the block; column 2q + r%2 of block j is
        # column 2*(2q + r%2) + j%2 of the pair of blocks j/2
        text = swap(text, "                const int row = get_group_id(1)*TSM + rowBase + i*MMA_M + (r/2)*8;",
                    "                const int row = get_group_id(1)*TSM + warpRow*WTM + i*MMA_M + 2*g + r/2;")
        if not a_only:
            text = swap(text, "                const int col = get_group_id(0)*TSN + warpCol*WTN + j*MMA_N + 2*q + r%2;",
                        "                const int col = get_group_id(0)*TSN + warpCol*WTN + (j/2)*2*MMA_N + 2*(2*q + r%2) + j%2;")
    text = swap(text, *PAIRS_GUARD)
    open(out, "w", encoding="utf-8").write(text)


if __name__ == "__main__":
    main(sys.argv)
