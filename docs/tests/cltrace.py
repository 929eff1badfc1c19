"""Runs a step's sgemm kernel, as written in its .cl file, work-item by work-item in Python and
records where it reads and writes, not what: which elements of C each work-item stores, which
global element each local-memory tile element is loaded from, and which tile elements each
work-item reads at each step of its loops, and which global elements it reads. The test of the
diagrams (test_geometry.py) compares that with the step descriptors in docs/sitegen/stepdefs.py.

C's block scopes are kept: a declaration that shadows a visible one (step 9's `const int i` inside
its loop over `i`) gets a Python name of its own. A pointer to global memory may be moved
(`C += offset`): stores and reads through it are recorded at the element they reach. The loop whose
body holds a barrier is the work-group's walk along K: its counter is recorded as `t` (the position
in the walk), whatever the kernel names it; `k` is the loop over a tile's depth. A helper function
given a tile `t` (step 10's copyTiles, which starts copying tile t+STAGES-1 during the walk's
iteration t) records what it puts into local memory as tile t's. The preprocessor's #if/#elif/#else
is followed with the parameters, so only the code the parameters build is traced. Step 10's copies:
OpenCL's async_work_group_copy() is made once per work-group (recorded as work-item (0, 0)'s), and
copyVector, written in NVIDIA's inline assembly, is traced by its model (ASM_MODELS: one vector
from global into local memory); cp.async's commit_group and wait_group are followed, other `asm`
statements are skipped.

Races in local memory (Tracer.races()): every access to a local element is recorded with the
work-item and its epoch, the number of barriers that work-item has passed (the work-items of a
work-group pass the same barriers: the kernels' control flow around them is uniform). A plain write
races with an access by another work-item in the same epoch; an asynchronous copy into local memory
(async_work_group_copy, cp.async) is in flight from the epoch it is started in to the epoch of the
wait that completes it (wait_group_events on its event; cp.async.wait_group N for all but the N
newest commit groups of the work-item), and races with any access in between (the starting
work-item's own accesses in its starting epoch excepted, which come before it in program order).
This is stricter than OpenCL, where a work-item may read its own completed copy before the next
barrier; the tutorial's kernels never do.

The kernel is translated into a Python function: the subset of OpenCL C the tutorial's sgemm
kernels use (declarations, for, if, return, assignments, calls; integer index arithmetic, with
the conditional operator at the top level of an expression) and
nothing else; anything outside it raises Unsupported, so a kernel that outgrows the subset fails
the test loudly instead of being traced wrongly. Values are not computed: a load gives a token
naming the element it came from, and arithmetic on values gives 0.
"""
import keyword
import re


class Unsupported(Exception):
    """The kernel uses C that this tracer does not translate."""


TOKEN = re.compile(r"\s*(?:(\d+\.\d*f?|\d+f?|\.\d+f?)|([A-Za-z_]\w*)|(\+\+|--|\+=|-=|\*=|/=|<=|>=|==|!=|&&|\|\||"
                   r"[-+*/%<>=!?:;,()\[\]{}&|^~.])|(\"(?:[^\"\\\\]|\\\\.)*\"))")  # the last: a string (inline asm)
TYPE_WORDS = {"const", "int", "float", "floatX", "float2", "float4", "float8", "__local", "__global", "unsigned",
              "size_t", "uint", "local", "global", "__private", "private", "volatile", "event_t"}
VECTOR_TYPES = {"float2": 2, "float4": 4, "float8": 8}


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def tokenize(text):
    out, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise Unsupported(f"cannot read the kernel near {text[pos:pos + 30]!r}")
        out.append(m.group(m.lastindex))
        pos = m.end()
    return out


def object_macros(text, env):
    """The object-like #define lines whose value is an integer expression of known names, e.g.
    `#define RTSM ((TSM)/(WPTM))`, evaluated in order with `env` (the parameters)."""
    values = {}
    for name, body in re.findall(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+([^\n]+)$", text, flags=re.M):
        try:
            value = eval(translate_expr(tokenize(body)), {"__builtins__": {}}, {**env, **values})
        except Exception:  # not an integer expression (e.g. `#define vstoreX vstore4`): not needed
            continue
        if isinstance(value, int):
            values[name] = value
    return values


def active_lines(text, env):
    """The lines of `text` that the preprocessor keeps with the parameters `env`: #if, #elif, #else
    and #endif are followed (conditions on the parameters and object-like macros, `defined(NAME)`
    for a name in env), and every directive line itself is dropped (as #define lines always were)."""
    out, stack = [], []  # stack: (this branch is kept, some branch of this #if was taken, outer kept)

    def value(expr):
        expr = re.sub(r"\bdefined\s*\(\s*(\w+)\s*\)|\bdefined\s+(\w+)",
                      lambda m: "1" if (m.group(1) or m.group(2)) in env else "0", expr)
        try:
            return bool(eval(translate_expr(tokenize(expr)), {"__builtins__": {}}, dict(env)))
        except Exception as e:
            raise Unsupported(f"a preprocessor condition this tracer cannot evaluate: {expr!r} ({e})") from None

    for line in text.splitlines():
        m = re.match(r"\s*#\s*(\w+)\s*(.*)$", line)
        outer = all(kept for kept, _, _ in stack)
        if not m:
            if outer:
                out.append(line)
            continue
        word, rest = m.group(1), m.group(2)
        if word in ("if", "ifdef", "ifndef"):
            cond = (value(rest) if word == "if" else (rest.strip() in env) == (word == "ifdef")) if outer else False
            stack.append((cond, cond, outer))
        elif word == "elif":
            kept, taken, up = stack.pop()
            cond = up and not taken and value(rest)
            stack.append((cond, taken or cond, up))
        elif word == "else":
            kept, taken, up = stack.pop()
            stack.append((up and not taken, True, up))
        elif word == "endif":
            stack.pop()
    return "\n".join(out)


def conditional(tokens):
    """(condition, then, else) of a C conditional expression `c ? a : b` at the top level of
    `tokens` (right-associative: `b` may be another), or None where there is none."""
    depth, ask = 0, None
    for i, t in enumerate(tokens):
        depth += t in ("(", "[")
        depth -= t in (")", "]")
        if depth:
            continue
        if t == "?" and ask is None:
            ask, nested = i, 0
        elif t == "?":
            nested += 1
        elif t == ":" and ask is not None:
            if nested == 0:
                return tokens[:ask], tokens[ask + 1:i], tokens[i + 1:]
            nested -= 1
    return None


def closing_bracket(tokens, k):
    """The index of the `]` that closes the `[` at tokens[k]."""
    depth = 0
    while True:
        depth += tokens[k] == "["
        depth -= tokens[k] == "]"
        if depth == 0:
            return k
        k += 1


def translate_expr(tokens):
    """A C expression (tokens) as Python: integer division, logical operators, casts, the
    conditional operator at the top level (step 9's choice between a whole and a split row)."""
    parts = conditional(tokens)
    if parts:
        cond, then, other = (translate_expr(x) for x in parts)
        return f"(({then}) if ({cond}) else ({other}))"
    out, i = [], 0
    while i < len(tokens):
        t = tokens[i]
        if t == "&" and (i == 0 or tokens[i - 1] in ("(", ",", "=")) and i + 2 < len(tokens) and tokens[i + 2] == "[":
            # &X[e] (or &X[a][b]: X[a]'s element b): the address of an element (step 10's copies)
            subs, k = [], i + 1
            while k + 1 < len(tokens) and tokens[k + 1] == "[":
                start, k = k + 2, closing_bracket(tokens, k + 1)
                subs.append((start, k))
            base = tokens[i + 1] + "".join(f"[{translate_expr(tokens[a:b])}]" for a, b in subs[:-1])
            out.append(f"_addr({base}, ({translate_expr(tokens[subs[-1][0]:subs[-1][1]])}))")
            i = k + 1
            continue
        if t == "(" and i + 1 < len(tokens) and tokens[i + 1] in TYPE_WORDS:
            j = i + 1
            while j < len(tokens) and (tokens[j] in TYPE_WORDS or tokens[j] == "*"):
                j += 1
            if j >= len(tokens) or tokens[j] != ")":
                raise Unsupported("a cast this tracer does not read: " + " ".join(tokens[i:j + 1]))
            pointer = "*" in tokens[i:j]
            out.append("_float_view" if pointer and "float" in tokens[i:j] else "_same")
            # the operand: an identifier or a parenthesized expression, then its subscripts
            k = j + 1
            depth, start = 0, k
            while k < len(tokens):
                if tokens[k] in "([":
                    depth += 1
                elif tokens[k] in ")]":
                    depth -= 1
                if depth == 0 and (k + 1 >= len(tokens) or tokens[k + 1] != "["):
                    break
                k += 1
            out.append("(" + translate_expr(tokens[start:k + 1]) + ")")
            i = k + 1
            continue
        if t == "?" or t == ":":
            raise Unsupported("the conditional operator inside parentheses")
        if t in ("++", "--"):
            raise Unsupported(f"'{t}' inside an expression")
        if re.fullmatch(r"\d+\.\d*f?|\.\d+f?", t):
            out.append(t.rstrip("f"))
        elif re.fullmatch(r"\d+f", t):
            out.append(t[:-1])
        else:
            out.append({"/": "//", "&&": " and ", "||": " or ", "!": " not ", "true": "True",
                        "false": "False"}.get(t, t))
        i += 1
    return " ".join(out)


def py_name(name):
    """A C identifier as a Python one: a Python keyword (unpad's `in`) gets a trailing underscore."""
    return name + "_" if keyword.iskeyword(name) or name in ("range", "True", "False", "None") else name


class Translator:
    """The kernel's body as the source of a Python function."""

    def __init__(self, tokens, globals_, params=()):
        self.toks, self.pos, self.globals = tokens, 0, globals_
        self.lines = []
        self.scopes = [{p: py_name(p) for p in params}]   # C name -> Python name, innermost last
        self.used = set(self.scopes[0].values())

    def declare(self, name):
        """The Python name of a new variable `name` in the current scope: its own name, unless a
        visible declaration already has it (a shadowing one gets a fresh name)."""
        py = py_name(name)
        if any(name in scope for scope in self.scopes):
            n = 1
            while f"{py}_{n}" in self.used:
                n += 1
            py = f"{py}_{n}"
        self.scopes[-1][name] = py
        self.used.add(py)
        return py

    def lookup(self, name):
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return name

    def expr(self, tokens):
        """translate_expr() with the variables renamed as their scopes say (not a member after '.')."""
        return translate_expr([self.lookup(t) if re.fullmatch(r"[A-Za-z_]\w*", t) and (i == 0 or tokens[i - 1] != ".")
                               else t for i, t in enumerate(tokens)])

    def body_has(self, word):
        """Whether the statement starting at the current token contains `word`."""
        if self.peek() != "{":
            j = self.pos
            while j < len(self.toks) and self.toks[j] != ";":
                if self.toks[j] == word:
                    return True
                j += 1
            return False
        depth = 0
        for j in range(self.pos, len(self.toks)):
            depth += self.toks[j] == "{"
            depth -= self.toks[j] == "}"
            if self.toks[j] == word:
                return True
            if depth == 0:
                return False
        return False

    def peek(self, k=0):
        return self.toks[self.pos + k] if self.pos + k < len(self.toks) else None

    def take(self, expect=None):
        t = self.peek()
        if expect is not None and t != expect:
            raise Unsupported(f"expected {expect!r}, found {t!r}")
        self.pos += 1
        return t

    def until(self, stop):
        """Tokens up to the first `stop` at depth 0 (not consumed)."""
        out, depth = [], 0
        while True:
            t = self.peek()
            if t is None:
                raise Unsupported(f"missing {stop!r}")
            if depth == 0 and t in stop:
                return out
            depth += t in "([{"
            depth -= t in ")]}"
            out.append(self.take())

    def emit(self, indent, text):
        self.lines.append("    " * indent + text)

    def statement(self, ind):
        t = self.peek()
        if t == "{":
            self.take()
            start = len(self.lines)
            self.scopes.append({})
            while self.peek() != "}":
                self.statement(ind)
            self.take()
            self.scopes.pop()
            if len(self.lines) == start:
                self.emit(ind, "pass")
        elif t == ";":
            self.take()
        elif t == "for":
            self.for_loop(ind)
        elif t == "if":
            self.take()
            self.take("(")
            cond = self.until((")",))
            self.take(")")
            self.emit(ind, f"if {self.expr(cond)}:")
            self.statement(ind + 1)
            if self.peek() == "else":
                self.take()
                self.emit(ind, "else:")
                self.statement(ind + 1)
        elif t == "return":
            self.take()
            self.take(";")
            self.emit(ind, "return")
        elif t == "asm":  # inline assembly (step 10's cp.async): copies are in ASM_MODELS
            depth, toks = 0, []
            while not (self.peek() == ";" and depth == 0):
                t = self.take()
                toks.append(t)
                depth += t == "("
                depth -= t == ")"
            self.take(";")
            code = next((x for x in toks if x.startswith('"')), "")
            if "cp.async.commit_group" in code:
                self.emit(ind, "_tr.cp_async_commit()")
            elif "cp.async.wait_all" in code:
                self.emit(ind, "_tr.cp_async_wait(0)")
            elif "cp.async.wait_group" in code:  # its operand: "n"(expression)
                k = toks.index('"n"') if '"n"' in toks else -1
                if k < 0 or toks[k + 1] != "(":
                    raise Unsupported("cp.async.wait_group without an \"n\"(count) operand")
                end, depth = k + 1, 0
                while True:
                    depth += toks[end] == "("
                    depth -= toks[end] == ")"
                    if depth == 0:
                        break
                    end += 1
                self.emit(ind, f"_tr.cp_async_wait({self.expr(toks[k + 2:end])})")
            else:
                self.emit(ind, "pass")
        elif t in TYPE_WORDS:
            self.declaration(ind)
        elif t in ("while", "do", "switch", "goto", "break", "continue"):
            raise Unsupported(f"'{t}'")
        else:
            self.expression_statement(ind, self.until((";",)))
            self.take(";")

    def for_loop(self, ind):
        self.take("for")
        self.take("(")
        init = self.until((";",))
        self.take(";")
        cond = self.until((";",))
        self.take(";")
        step = self.until((")",))
        self.take(")")
        declared = bool(init) and init[0] in TYPE_WORDS
        while init and init[0] in TYPE_WORDS:
            init = init[1:]
        if len(init) < 3 or init[1] != "=":
            raise Unsupported("a for loop without `int v = start`")
        name = init[0]
        start = self.expr(init[2:])
        self.scopes.append({})  # the scope of the loop's variable: the loop
        var = self.declare(name) if declared else self.lookup(name)
        self.emit(ind, f"{var} = {start}")
        self.emit(ind, f"while {self.expr(cond)}:")
        self.emit(ind + 1, f"_tr.at({var!r}, {var})")
        if self.body_has("barrier"):  # the walk along K, one tile per iteration
            self.emit(ind + 1, f"_tr.at('t', {var})")
        self.statement(ind + 1)
        if step in ([name, "++"], ["++", name]):
            self.emit(ind + 1, f"{var} += 1")
        elif len(step) > 2 and step[0] == name and step[1] in ("+=", "-="):
            self.emit(ind + 1, f"{var} {step[1]} {self.expr(step[2:])}")
        else:
            raise Unsupported("a for loop step other than v++ or v += e")
        self.scopes.pop()

    def declaration(self, ind):
        words = []
        while self.peek() in TYPE_WORDS or self.peek() == "*":
            words.append(self.take())
        local = "__local" in words or "local" in words
        width = "WIDTH" if "floatX" in words else next((str(VECTOR_TYPES[w]) for w in words if w in VECTOR_TYPES), "1")
        while True:
            c_name = self.take()
            dims = []
            while self.peek() == "[":
                self.take()
                dims.append(self.expr(self.until(("]",))))
                self.take("]")
            init = None
            if self.peek() == "=":
                self.take()
                init = self.expr(self.until((",", ";")))
            name = self.declare(c_name)  # after its initializer, which sees the outer variable
            if dims and init is not None:
                raise Unsupported(f"an initialized array {name}")
            if dims and local:
                self.emit(ind, f"{name} = _tr.local_array({c_name!r}, [{', '.join(dims)}], {width})")
            elif dims:
                self.emit(ind, f"{name} = _private_array([{', '.join(dims)}])")
            else:
                self.emit(ind, f"{name} = {init if init is not None else 0}")
            if self.take() == ";":
                return

    def expression_statement(self, ind, toks):
        if toks and toks[0] == "*" and "=" in toks:  # *event = e: step 10's event handles
            i = toks.index("=")
            self.emit(ind, f"{self.expr(toks[1:i])}.set({self.expr(toks[i + 1:])})")
            return
        ops = [i for i, t in enumerate(toks) if t in ("=", "+=", "-=", "*=", "/=")]
        if not ops:
            self.emit(ind, self.expr(toks))
            return
        i = ops[0]
        lhs, op, rhs = toks[:i], toks[i], toks[i + 1:]
        if lhs[0] in self.globals and self.lookup(lhs[0]) == self.scopes[0].get(lhs[0]):
            buf = self.lookup(lhs[0])
            if len(lhs) == 1 and op in ("+=", "-="):  # the pointer moved: C += slice*(M/WIDTH)*N
                self.emit(ind, f"{buf} = {buf}.shifted({'-' if op == '-=' else ''}({self.expr(rhs)}))")
                return
            if op != "=" or len(lhs) < 4 or lhs[1] != "[" or lhs[-1] != "]":
                raise Unsupported(f"a store to {lhs[0]} other than {lhs[0]}[index] = value")
            self.emit(ind, f"_tr.store({buf}, {self.expr(lhs[2:-1])})")
            return
        self.emit(ind, f"{self.expr(lhs)} {op} {self.expr(rhs)}")


class Value:
    """A value the kernel computes with: only where it came from matters (a global element), and
    arithmetic on it gives 0."""

    def __init__(self, source=None):
        self.source = source

    def _zero(self, *_):
        return 0.0

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __neg__ = _zero


class GlobalBuffer:
    """A __global pointer: the buffer's name, its element width, and how many elements it was
    moved by (`C += ...`)."""

    def __init__(self, tracer, name, width, offset=0):
        self.tracer, self.name, self.width, self.offset = tracer, name, width, offset

    def shifted(self, n):
        return GlobalBuffer(self.tracer, self.name, self.width, self.offset + n)

    def __getitem__(self, index):
        source = (self.name, (self.offset + index) * self.width, self.width)
        self.tracer.global_read(source)
        return Value(source)


class LocalArray:
    """A __local array: records loads into it (element <- global source) and reads from it."""

    def __init__(self, tracer, name, dims, width):
        self.tracer, self.name, self.dims, self.width = tracer, name, dims, width

    def __getitem__(self, i):
        return LocalIndex(self, (i,))


class LocalIndex:
    def __init__(self, array, path):
        self.array, self.path = array, path

    def _check(self, path):
        for i, d in zip(path, self.array.dims):
            if not 0 <= i < d:
                raise IndexError(f"{self.array.name}{list(path)} outside {self.array.dims}")

    def __getitem__(self, i):
        path = self.path + (i,)
        self._check(path)
        if len(path) < len(self.array.dims):
            return LocalIndex(self.array, path)
        w = self.array.width
        self.array.tracer.read(self.array.name, [path[:-1] + (path[-1] * w + lane,) for lane in range(w)])
        return 0.0

    def __setitem__(self, i, value):
        path = self.path + (i,)
        self._check(path)
        w = self.array.width
        self.array.tracer.load(self.array.name, path[:-1] + (path[-1] * w,), w, value)


class FloatView:
    """`(const __local float*)Asub[r]`: a row of vectors read one float at a time."""

    def __init__(self, index):
        self.index = index

    def __getitem__(self, k):
        arr = self.index.array
        if len(self.index.path) != len(arr.dims) - 1 or not 0 <= k < arr.dims[-1] * arr.width:
            raise IndexError(f"float {k} of {arr.name}{list(self.index.path)}")
        arr.tracer.read(arr.name, [self.index.path + (k,)])
        return 0.0


def _addr(array, index):
    """&array[index]: a global pointer moved to that element, a row or an element of a local array,
    or an element of a private array (step 10's events)."""
    if isinstance(array, GlobalBuffer):
        return array.shifted(index)
    if isinstance(array, LocalArray):
        array = LocalIndex(array, ())
    if isinstance(array, LocalIndex):
        if len(array.path) + 1 == len(array.array.dims):
            return LocalElement(array, index)
        return array[index]
    if isinstance(array, list):
        return PrivateElement(array, index)
    raise Unsupported(f"&x[i] of {type(array).__name__}")


class PrivateElement:
    """&events[i]: an element of a private array, written through the pointer (*copied = tile) and
    read by wait_group_events(n, &events[i])."""

    def __init__(self, array, index):
        self.array, self.index = array, index

    def set(self, value):
        self.array[self.index] = value

    def get(self, n):
        return self.array[self.index:self.index + n]


class Event:
    """An async_work_group_copy() event: the copies attached to it (Tracer records of kind "async")."""

    def __init__(self, records):
        self.records = records


class LocalElement:
    """&Asub[k][m]: one element (a vector) of a local array, as the destination of a copy."""

    def __init__(self, row, index):
        self.row, self.index = row, index

    def set(self, value):
        self.row[self.index] = value


def _copy_vector(dst, src):
    """Step 10's copyVector (COPY = 1), whose body is NVIDIA's cp.async in inline PTX: one vector
    from global memory (src, a moved pointer) into local memory (dst, an element)."""
    tr = dst.row.array.tracer
    tr.async_sink = tr.uncommitted
    try:
        dst.set(src[0])
    finally:
        tr.async_sink = None


# Functions written in inline assembly, traced by what they do rather than translated
ASM_MODELS = {"copyVector": _copy_vector}


def _private_array(dims):
    if not dims:
        return 0.0
    return [_private_array(dims[1:]) for _ in range(dims[0])]


class Tracer:
    """The accesses of one kernel over a whole NDRange."""

    def __init__(self):
        self.stores = {}    # (buffer, first float, width) -> [(group, local id)]: who stores which vector
        self.loads = {}     # (array, group, t, float path) -> {global source (buffer, float)}
        self.reads = {}     # (group, local id) -> [(array, t, k, float path)]
        self.global_reads = {}  # (group, local id) -> [(buffer, first float, width)]
        self.item = None
        self.loops = {}
        self.access = {}    # (array, group, float path) -> [[kind, item, first epoch, last epoch or None]]
        self.async_sink = None  # while an asynchronous copy runs: the list its records go to
        # when each work-item first stores or copies tile t of the walk into local memory, and first reads
        # it: (work-item, t) -> (epoch, count, kind) and (epoch, count); the count orders one work-item's own
        # accesses (the trace runs the work-items one after another)
        self.seq = 0
        self.tile_loaded = {}
        self.tile_read = {}
        self.start_item(None)

    def start_item(self, item):
        self.item, self.loops, self.epoch = item, {}, 0
        self.uncommitted, self.committed = [], []  # cp.async: this work-item's copies and commit groups

    def at(self, var, value):
        self.loops[var] = value

    def barrier(self):
        self.epoch += 1

    def _access(self, array, path, kind):
        rec = [kind, self.item, self.epoch, None if kind == "async" else self.epoch]
        self.access.setdefault((array, self.item[0], path), []).append(rec)
        return rec

    def cp_async_commit(self):
        self.committed.append(self.uncommitted)
        self.uncommitted = []

    def cp_async_wait(self, pending):
        """cp.async.wait_group: all but the `pending` newest commit groups of this work-item complete."""
        while len(self.committed) > pending:
            self.complete(self.committed.pop(0))

    def complete(self, records):
        for rec in records:
            if rec[3] is None:
                rec[3] = self.epoch

    def races(self, limit=3):
        """Pairs of accesses to one local element that nothing orders (the module's docstring), and
        asynchronous copies never waited for: descriptions, at most `limit`."""
        found = []
        for (array, group, path), recs in self.access.items():
            readers = {}
            for kind, item, first, _ in recs:
                if kind == "read":
                    readers.setdefault(first, set()).add(item)
            writes = [r for r in recs if r[0] != "read"]
            for i, (kind, item, first, last) in enumerate(writes):
                where = f"{array}{list(path)} of work-group {group}"
                if last is None:
                    found.append(f"{where}: an asynchronous copy started by work-item {item[1]} in epoch {first} "
                                 "is never waited for")
                    last = max(readers, default=first)
                for epoch in range(first, last + 1):
                    others = {x for x in readers.get(epoch, ()) if x != item or (kind == "async" and epoch > first)}
                    if others:
                        found.append(f"{where}: {'copied into asynchronously' if kind == 'async' else 'written'} by "
                                     f"work-item {item[1]} in epochs {first}-{last}, read in epoch {epoch} by "
                                     f"work-item {sorted(others)[0][1]} (a data race: no barrier or wait between)")
                        break
                for kind2, item2, first2, last2 in writes[i + 1:]:
                    last2 = first2 if last2 is None and kind2 != "async" else last2
                    overlap = first2 <= last and (last2 is None or first <= last2)
                    if overlap and (item2 != item or "async" in (kind, kind2)):
                        found.append(f"{where}: written by work-items {item[1]} and {item2[1]} with nothing "
                                     f"ordering the two (epochs {first}-{last} and {first2}-{last2})")
                if len(found) >= limit:
                    return found[:limit]
        return found[:limit]

    def store(self, buffer, index):
        w = buffer.width
        self.stores.setdefault((buffer.name, (buffer.offset + index) * w, w), []).append(self.item)

    def global_read(self, source):
        self.global_reads.setdefault(self.item, []).append(source)

    def load(self, array, path, width, value):
        if not isinstance(value, Value) or value.source is None:
            raise Unsupported(f"a store into {array} of something other than a loaded global element")
        buffer, first, w = value.source
        if w != width:
            raise Unsupported(f"{array} takes {width}-wide elements from a {w}-wide buffer")
        for lane in range(width):
            key = (array, self.item[0], self.loops.get("t"), path[:-1] + (path[-1] + lane,))
            self.loads.setdefault(key, set()).add((buffer, first + lane))
            rec = self._access(array, path[:-1] + (path[-1] + lane,), "write" if self.async_sink is None else "async")
            self.seq += 1
            self.tile_loaded.setdefault((self.item, self.loops.get("t")), (self.epoch, self.seq, rec[0]))
            if self.async_sink is not None:
                self.async_sink.append(rec)

    def read(self, array, paths):
        entry = self.reads.setdefault(self.item, [])
        self.seq += 1
        self.tile_read.setdefault((self.item, self.loops.get("t")), (self.epoch, self.seq))
        for p in paths:
            entry.append((array, self.loops.get("t"), self.loops.get("k"), p))
            self._access(array, p, "read")

    def local_array(self, name, dims, width):
        key = (name, self.item[0])
        if key not in self.arrays:  # one array per work-group, shared by its work-items
            self.arrays[key] = LocalArray(self, name, dims, width)
        return self.arrays[key]


def functions(text):
    """Every function the file defines: {name: (parameters, body)}, where a parameter is (name,
    global buffer or not, vector width as an expression)."""
    out = {}
    for m in re.finditer(r"\bvoid\s+(\w+)\s*\(([^)]*)\)\s*\{", text):
        params = []
        for decl in m.group(2).split(","):
            if decl.strip() in ("", "void"):  # f(void): no parameters
                continue
            words = re.sub(r"\[[^\]]*\]", " ", decl).replace("*", " * ").split()
            params.append((words[-1], "__global" in words or "global" in words,
                           "WIDTH" if "floatX" in words else next((str(VECTOR_TYPES[w]) for w in words
                                                                    if w in VECTOR_TYPES), "1")))
        # the body: from the brace after the signature to its match
        start, depth = m.end() - 1, 0
        for i in range(start, len(text)):
            depth += text[i] == "{"
            depth -= text[i] == "}"
            if depth == 0:
                out[m.group(1)] = (params, text[start:i + 1])
                break
        else:
            raise Unsupported(f"function {m.group(1)} has no end")
    return out


def kernel_params(cl_path, kernel):
    """The parameters of `kernel` in the file: [(name, global buffer or not, vector width as an
    expression)], in order (to pair a plan's arguments with their names)."""
    with open(cl_path, encoding="utf-8") as f:
        text = strip_comments(f.read())
    body_text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    defined = functions(body_text)
    if kernel not in defined:
        raise Unsupported(f"no kernel {kernel}")
    return defined[kernel][0]


def trace(cl_path, P, args, global_size, local_size, kernel="sgemm", groups=None):
    """Runs `kernel` of the file over the NDRange global_size (dim 0, dim 1) in local_size
    work-groups with the scalar arguments `args` {name: value}; only the work-groups in `groups`
    (a set of (group 0, group 1)) when given. Returns the Tracer."""
    with open(cl_path, encoding="utf-8") as f:
        raw = f.read()
    text = strip_comments(raw)
    env = dict(P)
    env.update(object_macros(text, env))
    body_text = active_lines(text, env)
    defined = functions(body_text)
    if kernel not in defined:
        raise Unsupported(f"no kernel {kernel}")
    params = defined[kernel][0]
    source, todo, done = "", [kernel], set()
    while todo:  # the kernel and the functions it calls
        name = todo.pop()
        if name in done:
            continue
        done.add(name)
        if name in ASM_MODELS:
            continue
        fparams, body = defined[name]
        tokens = tokenize(body)
        todo += [t for t in tokens if t in defined]
        tr = Translator(tokens, {p for p, is_global, _ in fparams if is_global}, [p for p, _, _ in fparams])
        tr.statement(1)
        lines = tr.lines
        if name != kernel and "t" in [p for p, _, _ in fparams]:
            # a helper given the tile `t` of the walk (loadTiles, step 10's copyTiles): what it copies
            # into local memory is recorded as tile t's, whichever iteration of the walk calls it
            lines = ["    _t_saved = _tr.loops.get('t')", "    _tr.at('t', t)"] + lines + ["    _tr.at('t', _t_saved)"]
        source += f"def {name}({', '.join(py_name(p) for p, _, _ in fparams)}):\n" + "\n".join(lines) + "\n\n"
    tracer = Tracer()
    tracer.arrays = {}
    tracer.widths = {name: eval(w, {}, env) for name, is_global, w in params if is_global}
    ids = {}
    namespace = {"__builtins__": {"range": range}, "_tr": tracer, "_private_array": _private_array,
                 "_float_view": FloatView, "_same": lambda x: x, "CLK_LOCAL_MEM_FENCE": 1, "CLK_GLOBAL_MEM_FENCE": 2,
                 "barrier": lambda *_: tracer.barrier(),
                 "get_local_id": lambda d: ids["local"][d], "get_group_id": lambda d: ids["group"][d],
                 "get_global_id": lambda d: ids["group"][d] * local_size[d] + ids["local"][d],
                 "get_local_size": lambda d: local_size[d], "get_num_groups": lambda d: global_size[d] // local_size[d],
                 "get_global_size": lambda d: global_size[d]}
    for name in ("vstoreX", "vstore2", "vstore4", "vstore8", "vloadX", "vload2", "vload4", "vload8"):
        namespace[name] = lambda *_: 0.0

    def async_work_group_copy(dst, src, n, event):
        """The work-group's copy (step 10, COPY = 0), made once: recorded as work-item (0, 0)'s, and
        attached to `event` (a new one where `event` is 0)."""
        records = event.records if isinstance(event, Event) else []
        if ids["local"] == (0, 0):
            tracer.async_sink = records
            try:
                for i in range(n):
                    dst[i] = src[i]
            finally:
                tracer.async_sink = None
        return Event(records)

    def wait_group_events(n, events):
        for event in events.get(n):
            if not isinstance(event, Event):
                raise Unsupported("wait_group_events on something that is not an async_work_group_copy() event")
            tracer.complete(event.records)
    namespace.update(async_work_group_copy=async_work_group_copy, wait_group_events=wait_group_events,
                     _addr=_addr, **ASM_MODELS)
    namespace.update(env)
    try:
        exec(compile(source, cl_path, "exec"), namespace)
    except SyntaxError as e:
        raise Unsupported(f"the translation of {kernel} is not valid Python ({e}):\n{source}") from None
    fn = namespace[kernel]
    call = []
    for name, is_global, w in params:
        call.append(GlobalBuffer(tracer, name, tracer.widths[name]) if is_global else args[name])
    ngroups = (global_size[0] // local_size[0], global_size[1] // local_size[1])
    for gy in range(ngroups[1]):
        for gx in range(ngroups[0]):
            if groups is not None and (gx, gy) not in groups:
                continue
            for ly in range(local_size[1]):
                for lx in range(local_size[0]):
                    ids["group"], ids["local"] = (gx, gy), (lx, ly)
                    tracer.start_item(((gx, gy), (lx, ly)))
                    fn(*call)
    return tracer
