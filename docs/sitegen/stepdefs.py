"""One descriptor per step: the step's formulas as functions of its parameters and the problem,
written from its kernel file and main.c. Everything the site computes about a step (the
arithmetic tables, the ceilings, the diagrams) reads them from here, so adding a step means adding
one descriptor to this file.

The formulas must match the kernels and the hosts exactly: docs/test_sitegen.py checks the
geometry of every descriptor against each step's own plan() (run through docs/plan_dump.c) and
against the index expressions read from its kernel file.
"""
from .common import round_up


class StepDef:
    """What every descriptor provides. `P` is {parameter: value}, `size` is (M, N, K)."""
    name = ""

    def arithmetic(self, P, size):
        """{quantity: value} for the rows of arithmetic.ARITH_ROWS that apply to this step."""
        raise NotImplementedError


class Naive(StepDef):
    name = "kernel01_naive"

    def arithmetic(self, P, size):
        m, n, _ = size
        ts = P["TS"]
        return {"work-items": round_up(m, ts) * round_up(n, ts), "work-group": ts * ts, "local": 0, "bpf": 4,
                "reuse": 1, "lpf": 0, "acc": 1}


class Tiled(StepDef):
    name = "kernel02_tiled"

    def arithmetic(self, P, size):
        m, n, _ = size
        ts = P["TS"]
        return {"work-items": m * n, "work-group": ts * ts, "local": 8 * ts * ts, "bpf": 4 / ts, "reuse": ts,
                "lpf": 2, "acc": 1}


class Vectorized(StepDef):
    name = "kernel03_vectorized"

    def arithmetic(self, P, size):
        m, n, _ = size
        ts, w = P["TS"], P["WIDTH"]
        return {"work-items": m * n // w, "work-group": ts * ts // w, "local": 8 * ts * ts, "bpf": 4 / ts,
                "reuse": ts, "lpf": (1 + w) / w, "acc": w}


class Transpose(StepDef):
    name = "kernel04_transpose"

    def arithmetic(self, P, size):
        m, n, _ = size
        tsm, tsn, tsk, w = P["TSM"], P["TSN"], P["TSK"], P["WIDTH"]
        return {"work-items": m * n // w, "work-group": tsm * tsn // w, "local": 4 * (tsm + tsn) * tsk,
                "bpf": 2 * (tsm + tsn) / (tsm * tsn), "reuse": f"A: {tsn}, B: {tsm}", "lpf": (1 + w) / w, "acc": w}


class RegisterBlocking(StepDef):
    name = "kernel05_register_blocking"

    def padded(self, P, size):
        """The sizes the sgemm kernel runs on."""
        return size

    def arithmetic(self, P, size):
        tsm, tsn, tsk = P["TSM"], P["TSN"], P["TSK"]
        wm, wn = P["WPTM"], P["WPTN"]
        mp, np_, _ = self.padded(P, size)
        return {"work-items": mp * np_ // (wm * wn), "work-group": (tsm // wm) * (tsn // wn),
                "local": 4 * (tsm + tsn) * tsk, "bpf": 2 * (tsm + tsn) / (tsm * tsn),
                "reuse": f"A: {tsn}, B: {tsm}", "lpf": (wm + wn) / (wm * wn), "acc": wm * wn}


class Padding(RegisterBlocking):
    name = "kernel06_padding"

    def padded(self, P, size):
        m, n, k = size
        return round_up(m, P["TSM"]), round_up(n, P["TSN"]), round_up(k, P["TSK"])

    def arithmetic(self, P, size):
        out = super().arithmetic(P, size)
        mp, np_, kp = self.padded(P, size)
        out["useful"] = (size[0] * size[1] * size[2]) / (mp * np_ * kp)
        return out


STEPS = {d.name: d for d in (Naive(), Tiled(), Vectorized(), Transpose(), RegisterBlocking(), Padding())}


def get(name):
    """The descriptor of step `name` (kernel02_tiled), or None."""
    return STEPS.get(name)
