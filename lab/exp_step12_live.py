#!/usr/bin/env python3
"""Writes the timing experiment of what step 12 keeps live beside its loop into lab/exp/ (git ignores
it; lab/exp_step12_live.sh runs it, lab12 has the result): step 12's kernel with code taken out that a
run at 4096 or 8192 with K not split never executes, but that the compiler must still fit into the
kernel's registers:
  nosum          the split of K's code taken out (the partial blocks, the count, the last slice's
                 sum): `split` is 0 for every work-group. Right only where the host does not split K
                 (-D SLICES=1: one slice, which then computes its block row whole; the tests' awkward
                 sizes verify it so).
  nosum_vector1  nosum, and each copy a whole vector (lab/exp_step12_copies.py's vector1: the one-float
                 copies for odd K or N taken out). Right only where K and N are multiples of WIDTH
                 and K is not split.
    lab/exp_step12_live.py KERNEL OUT_DIR"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from exp_step12_copies import swap, vector1, write_variants  # noqa: E402


def nosum(text):
    return swap(text, "const int split = get_group_id(1) >= fullRows;",
                "const int split = 0;  // right only with one slice (-D SLICES=1)", "nosum")


if __name__ == '__main__':
    write_variants(__doc__, (('nosum', nosum), ('nosum_vector1', lambda t: vector1(nosum(t)))))
