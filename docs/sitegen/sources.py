"""The steps, from the source tree: every kernelNN_*/ directory with a gemm_add_step() line."""
import glob
import os
import re

from .common import STEP_RE, InputError

class Step:
    def __init__(self, number, name, directory, kernel, summary):
        self.number = number        # 1, 2, ...
        self.name = name            # kernel02_tiled
        self.directory = directory  # relative to the source root
        self.kernel = kernel        # kernel file, relative to the source root
        self.summary = summary      # the idea it adds (main.c)
        self.page = f"step{number:02d}"


def discover_steps(root):
    steps = []
    for directory in sorted(glob.glob(os.path.join(root, "kernel[0-9][0-9]_*"))):
        name = os.path.basename(directory)
        if not STEP_RE.match(name) or not os.path.isfile(os.path.join(directory, "CMakeLists.txt")):
            continue
        with open(os.path.join(directory, "CMakeLists.txt"), encoding="utf-8") as f:
            m = re.search(r"gemm_add_step\(\s*(\w+)\s+KERNEL\s+(\S+)", f.read())
        if not m:
            continue
        if m.group(1) != name:
            raise InputError(f"{name}/CMakeLists.txt adds a step named {m.group(1)}, not {name}")
        summary = ""
        main_c = os.path.join(directory, "main.c")
        if os.path.isfile(main_c):
            with open(main_c, encoding="utf-8") as f:
                s = re.search(r'GEMM_STEP_MAIN\(\s*((?:"(?:[^"\\]|\\.)*"\s*)+)', f.read())
            if s:  # one string literal, or several that C concatenates
                summary = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', s.group(1)))
        steps.append(Step(int(STEP_RE.match(name).group(1)), name, name, f"{name}/{m.group(2)}", summary))
    if not steps:
        raise InputError(f"no step directories (kernelNN_*/ with gemm_add_step) under {root}")
    return steps

