"""The tests of each exercise, for the teacher's key that exercises.py writes (key()) and for the
checks of docs/tests/test_exercise_pages.py: exercise_tests() reads them from
docs/exercises/CMakeLists.txt, where each block of registrations (gemm_exercise_command,
gemm_exercise_untested, gemm_exercise) follows a comment that starts with the number of its
exercise ("# 2.1 ..."), and from the add_test() names in tests/ that end in exercise_N_M."""
import os
import re

from .common import InputError

CALLS = ("gemm_exercise_command", "gemm_exercise_untested", "gemm_exercise", "gemm_write_exercise_same_code",
         "gemm_write_exercise_wrong")


class Test:
    def __init__(self, name, kind, command=None, why=None):
        self.name, self.kind, self.command, self.why = name, kind, command, why


class ExerciseTests:
    def __init__(self, exercise):
        self.exercise = exercise
        self.tests = []

    def regex(self):
        """A ctest -R regular expression that matches the names of the tests and no other: the names
        grouped by their first two parts (exercises.step01_ts), a `*` of a name matching anything."""
        groups = {}
        for t in self.tests:
            if t.kind != "untested":
                parts = t.name.split(".")
                groups.setdefault(".".join(parts[:2]), []).append(".".join(parts[2:]))

        def rx(text):
            return re.escape(text).replace(r"\*", ".*")

        alternatives = []
        for head, rests in groups.items():
            tails = ["\\." + rx(r) for r in rests if r]
            tail = tails[0] if len(tails) == 1 and len(rests) == 1 else "(" + "|".join(tails) + ")" if tails else ""
            alternatives.append(rx(head) + tail + ("?" if tails and "" in rests else ""))
        return "^(" + "|".join(alternatives) + ")$"

    def describe(self, t):
        commands = self.exercise.commands()
        if t.kind in ("page", "untested"):
            which = f"the page's command {commands.index(t.command) + 1}" if len(commands) > 1 else "the page's command"
            if t.kind == "untested":
                return f"{which} is run by no test: {t.why}"
            return f"`{t.name}`: runs {which}"
        if t.kind == "wrong":
            return f"`{t.name}`: a plausible wrong answer, which the page's commands reject"
        if t.kind == "newcomer":
            return f"`{t.name}`: the Oclgrind report as the terminal shows it"
        return f"`{t.name}`: another case"

    def markdown(self):
        run = [t for t in self.tests if t.kind != "untested"]
        head = "**Tests**" + (" (a name with `*` stands for one test per value of a loop)"
                              if any("*" in t.name for t in run) else "")
        out = [head + ":" if run else "**Tests:** none.", ""]
        out += [f"- {self.describe(t)}" for t in self.tests]
        if run:
            out += ["", "```sh", f"ctest -R '{self.regex()}'", "```"]
        return out


def cmake_calls(text, names):
    """[(offset, function, [arguments])] of the calls of the functions `names` in CMake text; an
    argument keeps its [[...]] or "..." quoting."""
    out = []
    for m in re.finditer(r"^[ \t]*(" + "|".join(names) + r")\(", text, re.M):
        i, depth, args, cur = m.end(), 1, [], ""
        while depth:
            if i >= len(text):
                raise InputError(f"a call of {m.group(1)} is not closed")
            c = text[i]
            if text.startswith("[[", i):
                j = text.index("]]", i) + 2
                cur += text[i:j]
                i = j
                continue
            if c == '"':
                j = i + 1
                while text[j] != '"':
                    j += 2 if text[j] == "\\" else 1
                cur += text[i:j + 1]
                i = j + 1
                continue
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            if c.isspace() or depth == 0:
                if cur:
                    args.append(cur)
                cur = ""
            else:
                cur += c
            i += 1
        out.append((m.start(), m.group(1), args))
    return out


def unquote(arg, variables):
    if arg.startswith("[["):
        return arg[2:-2]
    if arg.startswith('"'):
        arg = arg[1:-1]
    return re.sub(r"\$\{(\w+)\}", lambda m: variables.get(m.group(1), m.group(0)), arg)


def exercise_tests(source, sections):
    """{exercise number: ExerciseTests} from docs/exercises/CMakeLists.txt and tests/."""
    from .exercises import PAGE  # (exercises.py imports this module)
    exercises = {e.number: e for s in sections for e in s.exercises}
    out = {n: ExerciseTests(e) for n, e in exercises.items()}
    path = os.path.join(source, "docs", "exercises", "CMakeLists.txt")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    where = os.path.relpath(path, source)
    variables = dict(re.findall(r'^set\((\w+) "([^"]*)"\)', text, re.M))
    # commands kept in variables as bracket arguments (the write-it-yourself exercises' loops)
    variables.update(re.findall(r'^set\((\w+) \[\[(.*?)\]\]\)', text, re.M | re.S))
    # the exercise each offset of the file is under: the last comment that starts with its number
    headers = [(m.start(), m.group(1), m.group(2)) for m in
               re.finditer(r"^# (\d+\.\d+)(,? ?\d+\.\d+)?", text, re.M)]
    # calls inside a function's definition are its body, not tests of the exercise above them
    bodies = [(m.start(), m.end()) for m in re.finditer(r"^function\(.*?^endfunction\(\)", text, re.M | re.S)]
    for offset, function, args in cmake_calls(text, CALLS):
        if any(start <= offset < end for start, end in bodies):
            continue
        line = text.count("\n", 0, offset) + 1
        above = [h for h in headers if h[0] < offset]
        if not above:
            raise InputError(f"{where}:{line}: {function}({args[0]} ...) follows no comment naming its exercise")
        _, number, more = above[-1]
        if more:
            raise InputError(f"{where}: the comment above line {line} names two exercises ({number}{more}): "
                             f"give each its own block")
        if number not in exercises:
            raise InputError(f"{where}:{line}: exercise {number} is not on {PAGE}")
        ex = exercises[number]
        name = "exercises." + re.sub(r"\$\{\w+\}", "*", args[0])
        if function == "gemm_write_exercise_wrong":  # its test is wrong.<name> (docs/exercises/CMakeLists.txt)
            name = "exercises.wrong." + re.sub(r"\$\{\w+\}", "*", args[0])
            test = Test(name, "wrong")
        elif function == "gemm_exercise_untested":
            test = Test(name, "untested", unquote(args[2], variables), unquote(args[1], variables))
        elif function == "gemm_exercise_command" and "NOT_ON_PAGE" not in args:
            test = Test(name, "page", unquote(args[4], variables))
        else:
            test = Test(name, "wrong" if args[0].startswith("wrong.") else "more")
        if test.command is not None and test.command not in ex.commands():
            raise InputError(f"{where}:{line}: {args[0]} runs a command that exercise {number} does not show "
                             f"(is it under the right comment?):\n  {test.command}")
        files = set(re.findall(r"(?:docs/exercises/|docs/key/|\$\{X\}/|\$\{KEY\}/)(\w+\.cl)", " ".join(args)))
        task = "\n".join(ex.task + ex.outcome + ex.key_outcome + ex.solution)
        for f in sorted(files):
            if f not in task:
                raise InputError(f"{where}:{line}: {args[0]} runs {f}, which exercise {number} does not name "
                                 f"(is it under the right comment?)")
        out[number].tests.append(test)
    # tests elsewhere that name their exercise: newcomer.oclgrind_check.exercise_2_1
    tests_dir = os.path.join(source, "tests")
    for fname in sorted(os.listdir(tests_dir)):
        if not fname.endswith((".cmake", ".txt")):
            continue
        with open(os.path.join(tests_dir, fname), encoding="utf-8") as f:
            for m in re.finditer(r"add_test\(NAME (\S*exercise_(\d+)_(\d+))\b", f.read()):
                number = f"{m.group(2)}.{m.group(3)}"
                if number not in exercises:
                    raise InputError(f"tests/{fname}: {m.group(1)} names exercise {number}, which is not on {PAGE}")
                out[number].tests.append(Test(m.group(1), "newcomer"))
    for n, t in out.items():
        shown = [c for c in exercises[n].commands() if c not in [x.command for x in t.tests]]
        for c in shown:
            raise InputError(f"{where}: exercise {n}'s command is run by no test and listed as untested by none "
                             f"under the comment '# {n}':\n  {c}")
    return out
