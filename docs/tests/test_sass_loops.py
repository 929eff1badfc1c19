"""docs.sass_loops: the count of a main loop's machine code (sitegen/sass_loops.py, lab12's table)
on a made-up listing in cuobjdump's format: two backward branches, the longer holding the HMMA;
the loop found is the one with the HMMA, its instructions counted by kind, the never-executed
`@!PT` padding left out, and the instructions between its barrier and its first LDS counted.
A file whose loop holds no HMMA is refused. Shown failing on a count that keeps the padding.
Usage: test_sass_loops.py"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from sitegen import sass_loops  # noqa: E402
from sitegen.common import InputError  # noqa: E402

LISTING = """
        /*0000*/                   MOV R1, c[0x0][0x28] ;                  /* 0x00000a0000017a02 */
        /*0010*/                   IADD3 R2, R2, 0x1, RZ ;                 /* 0x0000000102027810 */
        /*0020*/                   ISETP.GE.AND P0, PT, R2, 0x4, PT ;      /* 0x000000040200780c */
        /*0030*/               @P0 BRA 0x10 ;                              /* 0x00000000000f0947 */
        /*0040*/                   DEPBAR.LE SB0, 0x2 ;                    /* 0x000080000000791a */
        /*0050*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;           /* 0x0000000000007b1d */
        /*0060*/                   IMAD R4, R3, 0x8, R5 ;                  /* 0x0000000803047824 */
        /*0070*/              @!PT LDS RZ, [RZ] ;                          /* 0x00000000ff00f984 */
        /*0080*/                   LDGSTS.E.BYPASS.128 [R6], desc[UR8][R8.64] ; /* 0x0000000008067fae */
        /*0090*/                   LDGDEPBAR ;                             /* 0x00000000000079af */
        /*00a0*/                   LDS.64 R10, [R0] ;                      /* 0x0000000000007984 */
        /*00b0*/                   LOP3.LUT R12, R10, 0xffffe000, RZ, 0xc0, !PT ; /* 0x0000000000007812 */
        /*00c0*/                   FADD R13, R10, -R12 ;                   /* 0x0000000000007221 */
        /*00d0*/                   HMMA.1688.F32.TF32 R16, R12, R14, RZ ;  /* 0x0000000000107237 */
        /*00e0*/                   HMMA.1688.F32.TF32 R16, R13, R14, R16 ; /* 0x0000000000107237 */
        /*00f0*/                   FADD R20, R20, R16 ;                    /* 0x0000000000147221 */
        /*0100*/               @P1 BRA 0x40 ;                              /* 0x00000000000f1947 */
        /*0110*/                   EXIT ;                                  /* 0x000000000000794d */
"""


def main():
    failures = []
    c = sass_loops.counts(sass_loops.main_loop(sass_loops.instructions(LISTING.splitlines())))
    want = {"tensor cores (HMMA)": 2, "FP32 arithmetic (FADD, FFMA, FMUL)": 2, "local-memory reads (LDS)": 1,
            "copies and their waits (LDGSTS, LDGDEPBAR, DEPBAR)": 3, "integer arithmetic (IADD3, LOP3, IMAD, LEA, ...)": 2,
            "control (BAR, BRA, ...)": 2, "all": 12, "before the first read": 3}
    failures += [f"{k}: {c.get(k, 0)}, expected {v}" for k, v in want.items() if c.get(k, 0) != v]
    # the same count with the padding kept (what the filter prevents) must differ from the expectation
    kept = [line.replace("@!PT LDS", "LDS") for line in LISTING.splitlines()]
    wrong = sass_loops.counts(sass_loops.main_loop(sass_loops.instructions(kept)))
    if wrong["local-memory reads (LDS)"] == want["local-memory reads (LDS)"] or wrong["all"] == want["all"]:
        failures.append("the padding kept is not told from the padding left out: the check cannot fail")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "loops.txt")
        with open(path, "w", encoding="utf-8") as f:
            f.write("# made up\n== good\n" + LISTING + "== no tensor cores\n" + LISTING.replace("HMMA.1688.F32.TF32", "FFMA"))
        try:
            sass_loops.table(path)
            failures.append("a loop without HMMA was counted, not refused")
        except InputError as e:
            if "no tensor cores" not in str(e):
                failures.append(f"refused for another reason: {e}")
        with open(path, "w", encoding="utf-8") as f:
            f.write("== a\n" + LISTING + "== b\n" + LISTING)
        table = sass_loops.table(path)
        if "| all | 12 | 12 |" not in table or "| before the first read | 3 | 3 |" not in table:
            failures.append(f"the table's columns are not the sections' counts:\n{table}")
    for f in failures:
        print("FAIL:", f)
    print("PASS" if not failures else f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
