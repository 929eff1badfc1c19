#!/usr/bin/env python3
"""The site generator's command line: `docs/render.py --help`. The code is the package docs/sitegen/."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sitegen.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
