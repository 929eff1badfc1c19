#!/usr/bin/env python3
"""Writes a timing experiment of step 11 (lab/exp_step11_costs.sh two_acc runs it; lab11 has the
result): each lane keeps two sets of accumulators, as Ootomo and Yokota (2022) do. The two small
products, lo*hi and hi*lo, are chained on the tensor cores into the second set, corr, along all of
K: their sum is about 2^-10 of the result, so the tensor cores' truncating additions cost it about
2^-10 of what they would cost the whole sum. The large product, hi*hi, is summed from zero for each
8-deep step and promoted into acc by an FP32 add, as in the kernel. acc + corr is stored.
Why try it: the kernel's promotion chains three mma into a temporary before each add, and the
temporaries compete with the accumulators for registers; here only hi*hi needs one, and the other
two mma of a block go straight into corr. It costs 4 more registers per block of 16 x 8, so a warp
tile of 64 x 32 (-D WTN=32 -D WPTN=4) holds 16 blocks' acc and corr in the registers that 64 x 64
gives acc alone.
    lab/exp_step11_two_acc.py KERNEL OUT"""
import sys

from exp_step11_fragments import swap


def edit(text, old, new):
    return swap(text, old, new, who="exp_step11_two_acc.py")


def main(argv):
    kernel, out = argv[1], argv[2]
    text = open(kernel, encoding="utf-8").read()
    zero = """    float acc[FRAGS_M][FRAGS_N][4];
    #pragma unroll
    for (int i = 0; i < FRAGS_M; i++)
        #pragma unroll
        for (int j = 0; j < FRAGS_N; j++)
            #pragma unroll
            for (int r = 0; r < 4; r++)
                acc[i][j][r] = 0.0f;
"""
    text = edit(text, zero, zero + zero.replace("acc", "corr").replace(
        "    float corr", "    // (experiment) the small products' sums, on the tensor cores along all of K\n    float corr"))
    text = edit(text, """#if PROMOTE
                    float part[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#else
                    __private float *part = acc[i][j];  // PROMOTE = 0 (an exercise): accumulate on the tensor cores
#endif
#if PRODUCTS == 3
                    MMA(part, LO, i, HI, j);
                    MMA(part, HI, i, LO, j);
#endif
                    MMA(part, HI, i, HI, j);
""", """                    // (experiment) lo*hi and hi*lo into corr, hi*hi from zero and promoted
                    MMA(corr[i][j], LO, i, HI, j);
                    MMA(corr[i][j], HI, i, LO, j);
                    float part[4] = {0.0f, 0.0f, 0.0f, 0.0f};
                    MMA(part, HI, i, HI, j);
""")
    text = edit(text, "    // Store the block: a whole one into C,", """    // (experiment) the two sums, added once
    #pragma unroll
    for (int i = 0; i < FRAGS_M; i++)
        #pragma unroll
        for (int j = 0; j < FRAGS_N; j++)
            #pragma unroll
            for (int r = 0; r < 4; r++)
                acc[i][j][r] += corr[i][j][r];

    // Store the block: a whole one into C,""")
    text = edit(text, "#define HI 0 ", "#if !PROMOTE || PRODUCTS != 3\n#error the experiment has three products and promotes\n#endif\n#define HI 0 ")
    open(out, "w", encoding="utf-8").write(text)


if __name__ == "__main__":
    main(sys.argv)
