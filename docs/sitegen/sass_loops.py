"""The machine code of an sgemm's main loop, counted: from a file of loop listings that
lab/sass_loop.py writes (cuobjdump -sass's lines of each kernel's main loop, each kernel's under a
line `== NAME`), the table lab12_sass.md: per kernel, its instructions in the loop by kind, and how
many come between the loop's barrier and its first read of local memory. Counts are of the code
(static): where the loop branches (step 12's copies have a way for whole vectors and one for single
floats, chosen by K and N), both ways are counted, though a run takes one. The instructions
cuobjdump shows as `@!PT ...` (predicated on "never": padding the compiler places after some
instructions) are not counted."""
import os
import re
from collections import Counter

from .common import InputError, write

SASS_LOOPS = "nvidia-h100-step12-sass-loops.txt"  # lab/sass_loop.py's excerpt of the H100's code
LINE = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
KINDS = [  # (row of the table, base opcodes it counts), in the table's order
    ("tensor cores (HMMA)", {"HMMA"}),
    ("FP32 arithmetic (FADD, FFMA, FMUL)", {"FADD", "FFMA", "FMUL"}),
    ("integer arithmetic (IADD3, LOP3, IMAD, LEA, ...)",
     {"LOP3", "IADD3", "IMAD", "LEA", "SHF", "IABS", "IMNMX", "VIMNMX", "VIADD", "VIADDMNMX", "ISCADD",
      "PRMT", "SGXT", "FLO", "POPC", "IMUL"}),
    ("conditions (ISETP, SEL, ...)", {"ISETP", "SEL", "PLOP3", "FSEL", "FSETP", "P2R", "R2P"}),
    ("local-memory reads (LDS)", {"LDS", "LDSM"}),
    ("copies and their waits (LDGSTS, LDGDEPBAR, DEPBAR)", {"LDGSTS", "LDGDEPBAR", "DEPBAR"}),
    ("spills (LDL, STL)", {"LDL", "STL"}),
    ("moves and constants (MOV, S2R, LDC, ...)", {"MOV", "CS2R", "S2R", "S2UR", "UMOV", "R2UR", "LDC"}),
    ("control (BAR, BRA, ...)", {"BAR", "BRA", "BSSY", "BSYNC", "WARPSYNC", "NOP", "EXIT", "YIELD"}),
]


def instructions(lines):
    """[(address, opcode, text)] of cuobjdump -sass lines, the never-executed `@!PT` ones left out."""
    out = []
    for line in lines:
        m = LINE.search(line)
        if not m or m.group(2).startswith("@!PT "):
            continue
        words = [w for w in m.group(2).split() if not w.startswith("@")]
        if words:
            out.append((int(m.group(1), 16), words[0], m.group(2)))
    return out


def main_loop(ins):
    """The instructions of the backward branch whose body holds the most HMMA (the shortest such
    body where several hold as many): an sgemm's loop over the tiles of K."""
    best = None
    for addr, op, text in ins:
        m = re.search(r"\bBRA\b.*?(0x[0-9a-f]+)", text)
        if op.split(".")[0] != "BRA" or not m or int(m.group(1), 16) >= addr:
            continue
        body = [i for i in ins if int(m.group(1), 16) <= i[0] <= addr]
        key = (sum(o.startswith("HMMA") for _, o, _ in body), -len(body))
        if best is None or key > best[0]:
            best = (key, body)
    return best[1] if best else []


def kind(op):
    base = op.split(".")[0]
    return next((name for name, ops in KINDS if base in ops), "other")


def counts(body):
    """Counter of the loop's instructions by kind, with 'all' and 'before the first read' (from the
    loop's barrier, exclusive, to its first LDS)."""
    c = Counter(kind(op) for _, op, _ in body)
    c["all"] = len(body)
    ops = [op for _, op, _ in body]
    bar = next((i for i, op in enumerate(ops) if op.startswith("BAR")), None)
    lds = next((i for i, op in enumerate(ops) if op.startswith("LDS") and bar is not None and i > bar), None)
    if bar is not None and lds is not None:
        c["before the first read"] = lds - bar - 1
    return c


def read_loops(path):
    """{NAME: [lines]} of a file of `== NAME` sections, in the file's order."""
    loops, name = {}, None
    for line in open(path, encoding="utf-8"):
        if line.startswith("== "):
            name = line[3:].strip()
            loops[name] = []
        elif name is not None:
            loops[name].append(line)
    if not loops:
        raise InputError(f"{path}: no `== NAME` section of loop listings")
    return loops


def table_of(loops, where):
    """The table of {NAME: [listing lines]}, one column per name; `where` names the input in errors."""
    cols = {name: counts(main_loop(instructions(lines))) for name, lines in loops.items()}
    for name, c in cols.items():
        if not c["all"] or not c["tensor cores (HMMA)"]:
            raise InputError(f"{where}: '{name}' has no loop with HMMA in it")
    rows = [n for n, _ in KINDS] + ["other", "all", "before the first read"]
    out = ["| instructions in the main loop | " + " | ".join(cols) + " |", "|---" + "|---:" * len(cols) + "|"]
    for r in rows:
        out.append(f"| {r} | " + " | ".join(str(c.get(r, 0)) for c in cols.values()) + " |")
    return "\n".join(out) + "\n"


def table(path):
    return table_of(read_loops(path), path)


def render(ctx):
    path = os.path.join(ctx.tuning_dir, SASS_LOOPS)
    text = table(path) if os.path.isfile(path) else f"<div class=\"para\">No `{SASS_LOOPS}` in this site's tuning records.</div>\n"
    write(os.path.join(ctx.out, "lab12_sass.md"), text)
