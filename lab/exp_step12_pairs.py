#!/usr/bin/env python3
"""Writes the timing experiment of step 12's reads of its fragments into lab/exp/ (git ignores it;
lab/exp_step12_pairs.sh runs it, lab12 has the result): step 12's kernel with one change.
  pairs  a lane's two values of A along k read as one float2. The tensor cores' operation fixes
         which lane holds which row and column of A and B, but not which k is which: any order of
         the 8 values of k gives the same products, if A and B use the same order (their sum may
         differ in the order the tensor cores add them). With k = 2q and 2q+1
         in place of q and q+4 (q = lane%4), a lane's values of one row of A are neighbours in the
         tile, which keeps A's rows as A stores them: one float2 read where there were two floats,
         half the local-memory reads of A. B's rows 2q and 2q+1 are read as before, one float each.
         The local-memory padding changes with the reads: A's rows lose their 4 floats (a
         half-warp's float2 reads of rows g..g+3, 8 floats each, then fill the 32 banks once), and
         B's must be 4 floats past a multiple of 32 (rows 2q of the four q then start 8 banks
         apart): run it with -D TILE_PAD=4. Right at any size and on either path (TC = 0 puts the
         fragments back into local memory in the layout above, so it multiplies the same
         reordered k).
  Step 12 has read its fragments this way since the experiment ran (2026-12-07): KERNEL is the kernel
  before it, git show a3efea4:kernel12_predication/predication.cl (lab/exp_step12_pairs.sh gets it).
    lab/exp_step12_pairs.py KERNEL OUT_DIR"""
from exp_step12_copies import swap, write_variants


def pairs(text):
    text = swap(text, "#define ROWA (TSK + 4)", "#define ROWA (TSK)", "pairs")
    text = swap(text, '''                for (int r = 0; r < 4; r++)  // A(m, k) is the tile's row m, column k
                    splitTF32(As[(rowBase + i*MMA_M + (r%2)*8)*ROWA + k + q + (r/2)*4],
                              &aFrag[HI][i][r], &aFrag[LO][i][r]);''',
                '''                for (int h = 0; h < 2; h++) {  // rows g and g+8; k + 2q and k + 2q + 1 in place of q, q + 4
                    const float2 v = *(const __local float2 *)&As[(rowBase + i*MMA_M + h*8)*ROWA + k + 2*q];
                    splitTF32(v.x, &aFrag[HI][i][h], &aFrag[LO][i][h]);
                    splitTF32(v.y, &aFrag[HI][i][h + 2], &aFrag[LO][i][h + 2]);
                }''', "pairs")
    return swap(text, "splitTF32(Bs[(k + q + r*4)*ROWB + colBase + j*MMA_N]",
                "splitTF32(Bs[(k + 2*q + r)*ROWB + colBase + j*MMA_N]", "pairs")


def main():
    write_variants(__doc__, (("pairs", pairs),))


if __name__ == "__main__":
    main()
