"""docs/sitegen/common.py's write() refuses to write one name twice in a run: two generators that
chose the same snippet name once hid the lab record's table of step 11's fragment reads behind the
lesson's picture of the fragments, with no error. Exit 0 when the second write is refused."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from sitegen.common import InputError, write  # noqa: E402

with tempfile.TemporaryDirectory() as scratch:
    path = os.path.join(scratch, "snippet.md")
    write(path, "first\n")
    try:
        write(path, "second\n")
    except InputError as e:
        print(f"refused: {e}")
        sys.exit(0)
print("FAIL: a second write of one name was not refused")
sys.exit(1)
