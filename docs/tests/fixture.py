"""What the tests of the diagrams start from: the steps of a source tree and their defaults, with
the step descriptors configured for that tree (test_geometry.py, test_drawings.py)."""
from sitegen import stepdefs
from sitegen.params import read_defaults
from sitegen.sources import discover_steps


def load_steps(source):
    """(steps, {step: {device class: parameters}})"""
    stepdefs.configure(source)
    return discover_steps(source), read_defaults(source)
