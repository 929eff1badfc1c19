#!/usr/bin/env python3
"""Writes a timing experiment of step 11 (bench/exp_step11_costs.sh fragments runs it; lab11 has the
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
    bench/exp_step11_fragments.py KERNEL OUT [--a-only]"""
import sys

kernel, out = sys.argv[1], sys.argv[2]
a_only = "--a-only" in sys.argv[3:]
text = open(kernel, encoding="utf-8").read()


def swap(old, new, count=1):
    global text
    if text.count(old) != count:
        sys.exit(f"exp_step11_fragments.py: expected {count} of {old!r}, found {text.count(old)}")
    text = text.replace(old, new)


# The reads: A's fragment values of rows 2g and 2g+1 (r%2) at k = q and q+4 (r/2), as two float2
swap("""            UNROLL
            for (int i = 0; i < FRAGS_M; i++)
                UNROLL
                for (int r = 0; r < 4; r++)  // A(m, k) is A^T's row k, column m
                    splitTF32(As[(k + q + (r/2)*4)*(ROWA*WIDTH) + rowBase + i*MMA_M + (r%2)*8],
                              &aFrag[HI][i][r], &aFrag[LO][i][r]);
""", """            UNROLL
            for (int i = 0; i < FRAGS_M; i++)
                UNROLL
                for (int h = 0; h < 2; h++) {  // (experiment) rows 2g and 2g+1 at k = q + 4h, one float2
                    const float2 pair = vload2(0, &As[(k + q + h*4)*(ROWA*WIDTH) + warpRow*WTM + i*MMA_M + 2*g]);
                    splitTF32(pair.x, &aFrag[HI][i][2*h], &aFrag[LO][i][2*h]);
                    splitTF32(pair.y, &aFrag[HI][i][2*h + 1], &aFrag[LO][i][2*h + 1]);
                }
""")
if not a_only:
    swap("""            UNROLL
            for (int j = 0; j < FRAGS_N; j++)
                UNROLL
                for (int r = 0; r < 2; r++)
                    splitTF32(Bs[(k + q + r*4)*(ROWB*WIDTH) + colBase + j*MMA_N], &bFrag[HI][j][r], &bFrag[LO][j][r]);
""", """            UNROLL
            for (int j = 0; j < FRAGS_N; j += 2)
                UNROLL
                for (int r = 0; r < 2; r++) {  // (experiment) blocks j and j+1, columns 2g and 2g+1 of the pair
                    const float2 pair = vload2(0, &Bs[(k + q + r*4)*(ROWB*WIDTH) + warpCol*WTN + j*MMA_N + 2*g]);
                    splitTF32(pair.x, &bFrag[HI][j][r], &bFrag[LO][j][r]);
                    splitTF32(pair.y, &bFrag[HI][j + 1][r], &bFrag[LO][j + 1][r]);
                }
""")
# The stores: the fragment's row g + (r/2)*8 is row 2g + r/2 of the block; column 2q + r%2 of block
# j is column 2*(2q + r%2) + j%2 of the pair of blocks j/2
swap("""                const int row = get_group_id(1)*TSM + rowBase + i*MMA_M + (r/2)*8;""",
     """                const int row = get_group_id(1)*TSM + warpRow*WTM + i*MMA_M + 2*g + r/2;""")
if not a_only:
    swap("""                const int col = get_group_id(0)*TSN + warpCol*WTN + j*MMA_N + 2*q + r%2;""",
         """                const int col = get_group_id(0)*TSN + warpCol*WTN + (j/2)*2*MMA_N + 2*(2*q + r%2) + j%2;""")
swap("#define HI 0 ", "#if FRAGS_N % 2\n#error the experiment pairs B's blocks: WTN must be a multiple of 16\n#endif\n#define HI 0 ")
open(out, "w", encoding="utf-8").write(text)
