"""docs.kernel_header_defaults: a host written from a step's kernel header alone (issue 36) finds there
every default parameter the step's own host would use, so the header must say the same as the table
the harness reads, common/src/gemm_params.c (as docs/sitegen/params.py reads it; docs.geometry checks
that reading against the harness itself):
  - the header comment of every kernelNN_*/*.cl has one section "Defaults" with a line for each
    class of device, "CPU:", "NVIDIA GPU:" and "other GPUs:", of NAME=VALUE pairs (continued on
    the lines below it), and those are the class's defaults, every parameter the step's main.c
    declares and no other;
  - where a default lets the host choose (SLICES=0 and SPLIT_ROWS=0 of steps 9 and 10, step 10's
    COPY=2), the header names the function and constants that choose it, and the constants'
    values it quotes (or the header of the step it refers to: step 10's, step 9's) are the ones
    the host compiles with;
  - and the check fails on a header that gives one value wrong.
Usage: test_kernel_headers.py SOURCE_DIR          the test
       test_kernel_headers.py SOURCE_DIR --print  the Defaults section every header should have"""
import glob
import os
import re
import sys
import textwrap
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from sitegen import params, stepdefs  # noqa: E402
from sitegen.sources import discover_steps  # noqa: E402

SOURCE = None

# The header's label of each class of params.CLASSES
LABELS = {"cpu": "CPU:", "nvidia-gpu": "NVIDIA GPU:", "gpu": "other GPUs:"}
INDENT = "//" + " " * 13  # a continued line of a header section: "// Parameters  " is 15 wide
WIDTH = 100

# Where the header names the host's choice of a parameter: the words it must hold
SPLIT_WORDS = ("gemm_split_k_choose()", "gemm_split_k_cost()", "common/src/gemm_step_rules.c",
               "common/include/gemm_step_rules.h") + stepdefs.SPLIT_DEFINES
STEP12_CONSTANT = "GEMM_SPLIT_CODE_COST"  # in step 12's cost alone (in_place)
COPY_WORDS = ("COPY=2", "compute capability 8.0")  # and the step's own main.c, whose plan() chooses

PAIR = re.compile(r"\b([A-Z][A-Z0-9_]*)=(-?[0-9]+)\b")


def header(path):
    """The comment block at the top of a kernel file, as its lines."""
    lines = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.startswith("//"):
                break
            lines.append(line.rstrip("\n"))
    return lines


def read_header_defaults(lines):
    """{class: [(NAME, value), ...]} from the section "Defaults" of a header's lines; ValueError where
    there is none, or more than one, or a class's line is missing or given twice."""
    starts = [i for i, line in enumerate(lines) if line.startswith("// Defaults ")]
    if len(starts) != 1:
        raise ValueError(f"{len(starts)} sections '// Defaults' (one wanted)")
    section = [lines[starts[0]][len("// Defaults"):]]
    for line in lines[starts[0] + 1:]:  # its lines continued below it
        if not line.startswith(INDENT):
            break
        section.append(line[2:])
    text = " ".join(section)
    found = {cls: [m.start() for m in re.finditer(re.escape(label), text)] for cls, label in LABELS.items()}
    for cls, at in found.items():
        if len(at) != 1:
            raise ValueError(f"{len(at)} lines '{LABELS[cls]}' in the section Defaults (one wanted)")
    order = sorted((at[0], cls) for cls, at in found.items())
    out = {}
    for i, (at, cls) in enumerate(order):
        end = order[i + 1][0] if i + 1 < len(order) else len(text)
        out[cls] = [(name, int(value)) for name, value in PAIR.findall(text[at + len(LABELS[cls]):end])]
    return out


def declared_params(source, step_dir):
    """The names of the parameters a step's main.c declares, in its order (its --help's): literal
    {"NAME", ...} entries and GEMM_PARAM_X macros, looked up in common/include."""
    macros = {}
    for h in glob.glob(os.path.join(source, "common", "include", "**", "*.h"), recursive=True):
        with open(h, encoding="utf-8") as f:
            macros.update(re.findall(r'#define\s+(GEMM_PARAM_\w+)\s*\\?\s*\{\s*"(\w+)"', f.read()))
    with open(os.path.join(source, step_dir, "main.c"), encoding="utf-8") as f:
        m = re.search(r"gemm_param_info\s+params\[\]\s*=\s*\{(.*?)\};", f.read(), re.S)
    if not m:
        raise ValueError(f"{step_dir}/main.c: no 'gemm_param_info params[] = {{...}};'")
    names = []
    for literal, macro in re.findall(r'\{\s*"(\w+)"|\b(GEMM_PARAM_\w+)\b', m.group(1)):
        if macro and macro not in macros:
            raise ValueError(f"{step_dir}/main.c: {macro} is defined in no header of common/include")
        names.append(literal or macros[macro])
    return names


def expected_section(names, table):
    """The section Defaults a header should have, from the names in main.c's order and the
    {class: {NAME: value}} of params.read_defaults()."""
    out = ["// Defaults    from common/src/gemm_params.c; -D NAME=VALUE overrides. NVIDIA's row is for a GPU",
           "//             whose CL_DEVICE_VENDOR contains \"NVIDIA\"; a device that is no GPU takes the CPU's."]
    for cls, label in LABELS.items():
        pairs = " ".join(f"{n}={table[cls][n]}" for n in names)
        wrapped = textwrap.wrap(pairs, WIDTH - len(INDENT) - 12)
        out.append(f"{INDENT}{label:<11} {wrapped[0]}")
        out += [f"{INDENT}{'':<11} {w}" for w in wrapped[1:]]
    return out


def differences(got, want, names):
    """What a header's {class: [(NAME, value)]} gets wrong against the table's {class: {NAME: value}},
    and where the table and the `names` main.c declares disagree, one line each."""
    out = []
    for cls, label in LABELS.items():
        given, table = dict(got.get(cls, [])), want[cls]
        seen = [n for n, _ in got.get(cls, [])]
        out += [f"{label} {n} given {seen.count(n)} times" for n in given if seen.count(n) > 1]
        for n in dict.fromkeys(list(given) + list(table) + list(names)):
            if n in given and n in table and given[n] != table[n]:
                out.append(f"{label} {n}={given[n]}, but gemm_params.c gives {n}={table[n]}")
            elif n in given and n not in table:
                out.append(f"{label} {n}={given[n]}, but gemm_params.c gives the step no {n}")
            elif n in table and n not in given:
                out.append(f"{label} {n} missing (gemm_params.c: {table[n]})")
            if (n in names) != (n in table):
                out.append(f"{label} {n}: " + ("main.c declares it, gemm_params.c gives no default" if n in names
                                               else "gemm_params.c gives a default, main.c does not declare it"))
    return out


class KernelHeaderDefaults(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        stepdefs.configure(SOURCE)
        cls.steps = discover_steps(SOURCE)
        cls.defaults = params.read_defaults(SOURCE)

    def check_step(self, s, lines):
        names = declared_params(SOURCE, s.directory)
        want = self.defaults.get(s.name)
        self.assertIsNotNone(want, f"{params.PARAMS_C} has no rows for {s.name}")
        try:
            got = read_header_defaults(lines)
        except ValueError as e:
            self.fail(f"{s.kernel}: {e}; it should end with\n" + "\n".join(expected_section(names, want)))
        wrong = differences(got, want, names)
        self.assertFalse(wrong, f"{s.kernel}, section Defaults:\n  " + "\n  ".join(wrong)
                         + "\nwhat it should say:\n" + "\n".join(expected_section(names, want)))

    def test_headers_give_the_defaults(self):
        """Every step's header gives the table's defaults of every class, for every declared parameter."""
        self.assertTrue(self.steps)
        for s in self.steps:
            with self.subTest(step=s.name):
                self.check_step(s, header(os.path.join(SOURCE, s.kernel)))

    def test_headers_say_how_the_host_chooses(self):
        """A step whose defaults let the host choose SLICES and SPLIT_ROWS (0) names gemm_split_k_choose(),
        its model and constants, and quotes the constants' values as the host has them, or names the
        kernel file of another step whose header quotes them; one whose defaults say COPY=2 names
        the test of the compute capability."""
        constants = stepdefs.read_split_defines(SOURCE)
        texts = {s.kernel: " ".join(line[2:].strip() for line in header(os.path.join(SOURCE, s.kernel)))
                 for s in self.steps}

        def quotes(text):  # {constant: the value quoted} of the constants the text quotes
            found = {n: re.search(re.escape(n) + r"\s*=\s*([0-9.eE+-]+)", text) for n in constants}
            return {n: float(m.group(1)) for n, m in found.items() if m}

        for s in self.steps:
            table, d, text = self.defaults.get(s.name, {}), stepdefs.get(s.name), texts[s.kernel]
            words = ()
            if d and any(table[cls].get(p) == 0 for cls in table for p in d.chosen):
                # GEMM_SPLIT_CODE_COST is step 12's alone (its kernel built with or without the split's code)
                needed = {n: v for n, v in constants.items() if n != STEP12_CONSTANT or d.in_place}
                words += tuple(w for w in SPLIT_WORDS if w in needed or w not in constants)
                quoted = quotes(text)
                if set(quoted) != set(needed):  # the rule is another step's: its header must quote the rest
                    named = [k for k in texts if k != s.kernel and k in text and quotes(texts[k])]
                    self.assertTrue(named, f"{s.kernel} neither quotes {', '.join(needed)} nor names a "
                                           "kernel file whose header does")
                    quoted = dict(quotes(texts[named[0]]), **quoted)
                with self.subTest(step=s.name):
                    self.assertEqual(quoted, needed, f"{s.kernel}: the constants as quoted")
            if any(table[cls].get("COPY") == 2 for cls in table):
                words += COPY_WORDS + (f"{s.name}/main.c",)
            if any(table[cls].get("TC") == 2 for cls in table):  # step 11: TC=2 chooses as COPY=2 does
                words += ("TC=2",)
            for w in words:
                with self.subTest(step=s.name, word=w):
                    self.assertIn(w, text, f"{s.kernel}'s header does not name {w}")

    def test_a_wrong_value_fails(self):
        """The check fails where a header gives one value other than the table's, or lacks a class."""
        s = next(s for s in reversed(self.steps) if s.name in self.defaults)
        lines = header(os.path.join(SOURCE, s.kernel))
        at = next(i for i, line in enumerate(lines) if LABELS["nvidia-gpu"] in line)
        name, value = PAIR.search(lines[at]).groups()
        wrong = list(lines)
        wrong[at] = lines[at].replace(f"{name}={value}", f"{name}={int(value) + 1}", 1)
        with self.assertRaisesRegex(AssertionError, rf"NVIDIA GPU: {name}={int(value) + 1}, but gemm_params.c"):
            self.check_step(s, wrong)
        with self.assertRaisesRegex(AssertionError, "0 lines 'NVIDIA GPU:'"):
            self.check_step(s, [line.replace(LABELS["nvidia-gpu"], "NVIDIA:") for line in lines])


if __name__ == "__main__":
    SOURCE = sys.argv[1]
    if sys.argv[2:] == ["--print"]:
        defaults = params.read_defaults(SOURCE)
        for s in discover_steps(SOURCE):
            print(f"{s.kernel}:")
            print("\n".join(expected_section(declared_params(SOURCE, s.directory), defaults[s.name])))
        sys.exit(0)
    unittest.main(argv=sys.argv[:1] + sys.argv[2:], verbosity=1)
