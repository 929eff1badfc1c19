#!/usr/bin/env python3
"""Writes a timing experiment of step 11 (lab/exp_step11_costs.sh store_forms runs it; lab11 has
the result): the kernel's stores of C two floats at a time, written two other ways, to see whether
the compiler's choice of registers (255 and a 4-byte spill with the kernel's form, against 254 and
none with one float at a time) moves with the form:
  --pointers: C and the copies seen as float2 arrays once (C2[idx/2]) instead of a cast per store;
  --three-loops: the store loop written three times, for the copies, for C with beta = 0 and for C
    with beta, so that no store chooses between them.
    lab/exp_step11_store_forms.py KERNEL OUT (--pointers | --three-loops)"""
import sys

from exp_step11_fragments import swap

LOOP_HEAD = """    #pragma unroll
    for (int i = 0; i < FRAGS_M; i++)
        #pragma unroll
        for (int j = 0; j < FRAGS_N; j++)
            #pragma unroll
            for (int h = 0; h < 2; h++) {  // the fragment's row g (h = 0) and row g+8 (h = 1)
                const int row = get_group_id(1)*TSM + rowBase + i*MMA_M + h*8;
                const int col = get_group_id(0)*TSN + warpCol*WTN + j*MMA_N + 2*q;
                const int idx = row*N + col;  // even: N and col are
                const float2 v = alpha*(float2)(acc[i][j][2*h], acc[i][j][2*h + 1]);
"""
STORES = """                if (toCopies)
                    *(__global float2 *)&copies[idx - fullRows*TSM*N] = v;
                else
                    *(__global float2 *)&C[idx] = (beta == 0.0f) ? v : v + beta*(*(__global float2 *)&C[idx]);
            }"""


def main(argv):
    kernel, out = argv[1], argv[2]
    text = open(kernel, encoding="utf-8").read()
    if "--pointers" in argv[3:]:
        text = swap(text, "    const int toCopies = get_group_id(1) >= fullRows;\n",
                    "    const int toCopies = get_group_id(1) >= fullRows;\n"
                    "    __global float2 *C2 = (__global float2 *)C, *copies2 = (__global float2 *)copies;  // (experiment)\n",
                    who="exp_step11_store_forms.py")
        text = swap(text, STORES, """                if (toCopies)
                    copies2[(idx - fullRows*TSM*N)/2] = v;
                else
                    C2[idx/2] = (beta == 0.0f) ? v : v + beta*C2[idx/2];
            }""", who="exp_step11_store_forms.py")
    elif "--three-loops" in argv[3:]:
        loops = []
        for cond, store in (("if (toCopies)", "*(__global float2 *)&copies[idx - fullRows*TSM*N] = v;"),
                            ("else if (beta == 0.0f)", "*(__global float2 *)&C[idx] = v;"),
                            ("else", "*(__global float2 *)&C[idx] = v + beta*(*(__global float2 *)&C[idx]);")):
            body = LOOP_HEAD.replace("\n    ", "\n        ").replace("    #pragma unroll\n", "        #pragma unroll\n", 1)
            loops.append(f"    {cond} {{  // (experiment)\n{body}                    {store}\n                }}\n    }}")
        text = swap(text, LOOP_HEAD + STORES, "\n".join(loops), who="exp_step11_store_forms.py")
    else:
        sys.exit(__doc__)
    open(out, "w", encoding="utf-8").write(text)


if __name__ == "__main__":
    main(sys.argv)
