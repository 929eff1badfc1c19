"""What the tests of the diagrams start from: the steps of a source tree and their defaults, with
the step descriptors configured for that tree (test_geometry.py, test_drawings.py); and how the
tests of drawn figures run (test_drawings.py, test_figures.py)."""
import sys
import unittest

from sitegen import stepdefs
from sitegen.params import read_defaults
from sitegen.sources import discover_steps


def load_steps(source):
    """(steps, {step: {device class: parameters}})"""
    stepdefs.configure(source)
    return discover_steps(source), read_defaults(source)


def main_with_matplotlib(what):
    """The tests of the module run as __main__ (its arguments after the first), or, where this Python
    has no matplotlib, exit 77 (CTest: skipped) with the reason: the site then draws no `what` either."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print(f"SKIPPED: {sys.executable} has no matplotlib (Debian: apt-get install python3-matplotlib): "
              f"the site draws no {what} either")
        sys.exit(77)
    unittest.main(module="__main__", argv=sys.argv[:1] + sys.argv[2:], verbosity=1)
