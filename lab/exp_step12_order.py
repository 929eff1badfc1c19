#!/usr/bin/env python3
"""Writes the timing experiment of step 12's order in a tile into lab/exp/ (git ignores it;
lab/exp_step12_order.sh runs it, lab12 has the result): step 12's kernel with one change:
  readsfirst  each tile's fragments read from local memory (and split) before the copies of the tile
              STAGES-1 ahead are started, not after. In the machine code of the kernel as it is, no
              read of local memory comes before the last cp.async of a tile (the compiler does not move
              a read of local memory above a copy that writes it), so the fragments' reads, and the
              tensor cores after them, wait behind the copies' address and bound arithmetic (about 120
              instructions a tile; lab/sass_loop.py counts them). The copy fills the buffer of tile t-1,
              which the barrier has freed; the reads are of tile t: either order is right. Right at
              any size (the tests' awkward sizes verify it).
  copieslast  the copies of the tile STAGES-1 ahead started after the tile's multiply-adds, at the end
              of the loop's body, not before its reads: the reads then follow the barrier at once,
              as in readsfirst, but no fragment is held while the copies' arithmetic runs; each copy
              then has one tile's compute less to arrive in (STAGES-2 tiles' instead of STAGES-1).
              Right at any size, for the same reason.
    lab/exp_step12_order.py KERNEL OUT_DIR"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from exp_step12_copies import swap, write_variants  # noqa: E402


def copy_ahead(text):
    """The loop's start of the copies STAGES-1 tiles ahead, as the kernel writes it: from its comment
    to the commit after it."""
    start = text.index("        // Start copying tile t+STAGES-1 into the buffer of tile t-1")
    end = text.index("        commitTiles();\n", start) + len("        commitTiles();\n")
    return text[start:end]


AFTER_READS = '''#if TC == 0
            shareFragments(warpA, warpB, aFrag, bFrag, lane);'''


def readsfirst(text):
    text = swap(text, copy_ahead(text), '', 'readsfirst')
    return swap(text, AFTER_READS, '''            if (k == 0) {  // the first 8-deep step's fragments are read: now the copies
                const int ahead = t + STAGES - 1;
                if (ahead < numTiles)
                    copyTiles(firstTile + ahead, tid, M, N, K, firstRow, firstCol, A, B, Asub[ahead % STAGES],
                              Bsub[ahead % STAGES]);
                commitTiles();
            }
''' + AFTER_READS, 'readsfirst')


END_OF_TILE = '''            }
#if TC == 0
            barrier(CLK_LOCAL_MEM_FENCE);  // every lane is done with its warp's matrices
#endif
        }
    }
'''

COPIES_LAST = '''
        // The tile's multiply-adds are issued: now the copies of tile t+STAGES-1, into the buffer of
        // tile t-1, which the barrier at the top of this tile freed
        const int ahead = t + STAGES - 1;
        if (ahead < numTiles)
            copyTiles(firstTile + ahead, tid, M, N, K, firstRow, firstCol, A, B, Asub[ahead % STAGES],
                      Bsub[ahead % STAGES]);
        commitTiles();
    }
'''


def copieslast(text):
    text = swap(text, copy_ahead(text), '', 'copieslast')
    return swap(text, END_OF_TILE, END_OF_TILE[:-len('    }\n')] + COPIES_LAST, 'copieslast')


if __name__ == '__main__':
    write_variants(__doc__, (('readsfirst', readsfirst), ('copieslast', copieslast)))
