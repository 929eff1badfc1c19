#!/usr/bin/env python3
"""Writes a timing experiment of step 11 (lab/exp_step11_costs.sh runs it; lab11 has the result):
its kernel with 16-deep tiles whose two 8-deep steps are chained into one partial sum per block
before the promotion, half the FP32 adds of promoting every 8 products. The tensor-core path
only (TC=1), run with -D TSK=16 -D STAGES=2.
    lab/exp_step11_promote16.py KERNEL OUT [--every8]
--every8: the same loop, but each 8-deep step's three products promoted on their own, as the kernel
does (the loop's new order alone)."""
import sys

kernel, out = sys.argv[1], sys.argv[2]
every8 = "--every8" in sys.argv[3:]
text = open(kernel, encoding="utf-8").read()
start = text.index("        UNROLL\n        for (int k = 0; k < TSK; k += MMA_K) {")
end = text.index("    // Store the block")
end = text.rindex("    }\n", start, end)  # the tile loop's closing brace stays
loop = """        // (experiment) the tile's two 8-deep steps: B's fragments of both held, A's of one row of
        // blocks at a time; each block's six products chained from zero, then promoted once
        float bFrag[2][2][FRAGS_N][2];
        #pragma unroll
        for (int s = 0; s < 2; s++)
            #pragma unroll
            for (int j = 0; j < FRAGS_N; j++)
                #pragma unroll
                for (int r = 0; r < 2; r++)
                    splitTF32(Bs[(s*MMA_K + q + r*4)*(ROWB*WIDTH) + colBase + j*MMA_N],
                              &bFrag[s][HI][j][r], &bFrag[s][LO][j][r]);
        #pragma unroll
        for (int i = 0; i < FRAGS_M; i++) {
            float aFrag[2][2][4];
            #pragma unroll
            for (int s = 0; s < 2; s++)
                #pragma unroll
                for (int r = 0; r < 4; r++)
                    splitTF32(As[(s*MMA_K + q + (r/2)*4)*(ROWA*WIDTH) + rowBase + i*MMA_M + (r%2)*8],
                              &aFrag[s][HI][r], &aFrag[s][LO][r]);
            #pragma unroll
            for (int j = 0; j < FRAGS_N; j++) {
                float part[4] = {0.0f, 0.0f, 0.0f, 0.0f};
                mma(part, aFrag[0][LO], bFrag[0][HI][j]);
                mma(part, aFrag[0][HI], bFrag[0][LO][j]);
                mma(part, aFrag[1][LO], bFrag[1][HI][j]);
                mma(part, aFrag[1][HI], bFrag[1][LO][j]);
                mma(part, aFrag[0][HI], bFrag[0][HI][j]);
                mma(part, aFrag[1][HI], bFrag[1][HI][j]);
                #pragma unroll
                for (int r = 0; r < 4; r++)
                    acc[i][j][r] += part[r];
            }
        }
"""
if every8:
    loop = loop.replace("""                float part[4] = {0.0f, 0.0f, 0.0f, 0.0f};
                mma(part, aFrag[0][LO], bFrag[0][HI][j]);
                mma(part, aFrag[0][HI], bFrag[0][LO][j]);
                mma(part, aFrag[1][LO], bFrag[1][HI][j]);
                mma(part, aFrag[1][HI], bFrag[1][LO][j]);
                mma(part, aFrag[0][HI], bFrag[0][HI][j]);
                mma(part, aFrag[1][HI], bFrag[1][HI][j]);
                #pragma unroll
                for (int r = 0; r < 4; r++)
                    acc[i][j][r] += part[r];""", """                #pragma unroll
                for (int s = 0; s < 2; s++) {
                    float part[4] = {0.0f, 0.0f, 0.0f, 0.0f};
                    mma(part, aFrag[s][LO], bFrag[s][HI][j]);
                    mma(part, aFrag[s][HI], bFrag[s][LO][j]);
                    mma(part, aFrag[s][HI], bFrag[s][HI][j]);
                    #pragma unroll
                    for (int r = 0; r < 4; r++)
                        acc[i][j][r] += part[r];
                }""")
guard = "#if TSK != 16 || TC != 1\n#error this experiment needs -D TSK=16 and the tensor cores (TC=1)\n#endif\n"
open(out, "w", encoding="utf-8").write(guard + text[:start] + loop + text[end:])
