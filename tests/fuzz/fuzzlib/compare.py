"""Compare two executions of a program and name every difference.

A :class:`Diff` has a *category* (what differs) and the *op* of the step where it shows (the op
variant, or the backward plan for gradients); ``(category, op)`` is the root-cause key the
summary groups by and the minimiser preserves. Categories:

=====================  ==================================================================
internal_crash         minigrad crashed inside itself (numpy AxisError, ZeroDivisionError...)
silent_success         PyTorch raised, minigrad did not (``inplace_accepted`` for in-place)
spurious_error         minigrad raised a clean error where PyTorch succeeds
error_type             both raised, different exception types
error_message          same type, different message (PyTorch's words are the spec)
value / nonfinite      values differ (beyond tolerance / in the NaN, +inf, -inf pattern)
shape, dtype           of a result
grad_fn_name           ``type(t.grad_fn).__name__`` differs
requires_grad, is_leaf of a result
structure              None vs tensor, tuple lengths, Python type
numpy_warning          a numpy RuntimeWarning escaped from minigrad
warning                PyTorch's warnings (category, message) not matched
final_value            a tensor's value at the end (in-place ops on bases and views)
grad, grad_nonfinite   a ``.grad`` at the end, or an ``autograd.grad`` result, differs
=====================  ==================================================================

Tolerances: NaN / +inf / -inf positions must match exactly; finite values are compared with
``|a - b| <= atol + rtol * |b|`` where (rtol, atol) are (1e-4, 1e-5) for float32 and
(1e-9, 1e-12) for float64, plus a term proportional to the largest magnitude in the tensor (a
sum of large values may lose the small ones in either library).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import known
from .program import execute

TOL = {"float32": (1e-4, 1e-5), "float64": (1e-9, 1e-12), "float16": (1e-2, 1e-3)}


@dataclass
class Diff:
    category: str
    op: str
    where: str          # "step 7 (t5)", "end: x1.grad"
    torch: Any = None   # short descriptions of both sides
    minigrad: Any = None
    step: int = -1
    extra: dict = field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str]:
        return (self.category, self.op)

    def describe(self) -> str:
        return "%s [%s] at %s:\n    torch:    %s\n    minigrad: %s" % (
            self.category, self.op, self.where, _short(self.torch), _short(self.minigrad))


def _short(v, limit: int = 300) -> str:
    s = repr(v) if not isinstance(v, str) else v
    s = s.replace("\n", " ")
    return s if len(s) <= limit else s[:limit] + "..."


# ------------------------------------------------------------------ values


def values_match(t: np.ndarray, m: np.ndarray, dtype: str) -> tuple[bool, str]:
    """(ok, kind): kind is 'nonfinite' when the NaN/inf pattern differs, else 'value'."""
    t = np.asarray(t)
    m = np.asarray(m)
    if t.dtype.kind not in "fc" or m.dtype.kind not in "fc":
        return bool(t.shape == m.shape and np.array_equal(t, m)), "value"
    if t.shape != m.shape:
        return False, "value"
    tn, mn = np.isnan(t), np.isnan(m)
    tpi, mpi = np.isposinf(t), np.isposinf(m)
    tmi, mmi = np.isneginf(t), np.isneginf(m)
    if not (np.array_equal(tn, mn) and np.array_equal(tpi, mpi) and np.array_equal(tmi, mmi)):
        # a float32 value that overflows to inf in one library, and is within 1% of the largest
        # float in the other, is a rounding difference, not a semantic one
        finfo = np.finfo(t.dtype if t.dtype.kind == "f" else np.float64)
        odd = (tn != mn) | (tpi != mpi) | (tmi != mmi)
        one_finite = np.isfinite(t) ^ np.isfinite(m)
        finite_side = np.where(np.isfinite(t), t, m)
        with np.errstate(invalid="ignore"):
            near = (one_finite & ~tn & ~mn & (np.abs(finite_side) > finfo.max * 0.5)
                    & (np.sign(t) == np.sign(m)))
        if not np.all(near[odd]):
            return False, "nonfinite"
    fin = np.isfinite(t) & np.isfinite(m)
    if not fin.any():
        return True, "value"
    rtol, atol = TOL.get(dtype, TOL["float32"])
    tf, mf = t[fin].astype(np.float64), m[fin].astype(np.float64)
    scale = float(np.max(np.abs(tf))) if tf.size else 0.0
    ok = np.abs(tf - mf) <= atol + rtol * np.abs(tf) + rtol * 1e-2 * scale
    return bool(ok.all()), "value"


def compare_snapshots(t, m, prefix: str, low: bool = False) -> list[tuple[str, Any, Any]]:
    """Differences between two snapshots: [(category, torch side, minigrad side)]."""
    if t is None or m is None:
        if (t is None) != (m is None):
            return [("structure", _desc(t), _desc(m))]
        return []
    if isinstance(t, list) or isinstance(m, list):
        if not (isinstance(t, list) and isinstance(m, list)) or len(t) != len(m):
            return [("structure", _desc(t), _desc(m))]
        out = []
        for a, b in zip(t, m):
            out += compare_snapshots(a, b, prefix, low)
        return out
    if "py" in t or "py" in m:
        if t.get("py") != m.get("py") or t.get("value") != m.get("value"):
            return [("structure", t, m)]
        return []
    if "error" in t or "error" in m:
        if t.get("error") == m.get("error"):
            return []
        return [("structure", t.get("error") or _desc(t), m.get("error") or _desc(m))]
    out = []
    if t["shape"] != m["shape"]:
        return [("shape", t["shape"], m["shape"])]
    if t["dtype"] != m["dtype"]:
        out.append(("dtype", t["dtype"], m["dtype"]))
    if isinstance(m["value"], str) or isinstance(t["value"], str):
        out.append(("structure", t["value"], m["value"]))
    else:
        ok, kind = values_match(t["value"], m["value"], "float32" if low else t["dtype"])
        if not ok:
            out.append((kind, _arr(t["value"]), _arr(m["value"])))
    for attr in ("grad_fn", "requires_grad", "is_leaf"):
        if t[attr] != m[attr]:
            out.append((attr + "_name" if attr == "grad_fn" else attr, t[attr], m[attr]))
    return out


def _arr(a) -> str:
    a = np.asarray(a)
    with np.printoptions(precision=6, threshold=40, linewidth=10_000):
        return np.array2string(a, separator=", ")


def _desc(s) -> str:
    if s is None:
        return "None"
    if isinstance(s, list):
        return "tuple of %d: [%s]" % (len(s), ", ".join(_desc(x) for x in s))
    if "shape" in s:
        return "tensor%s %s %s" % (list(s["shape"]), s["dtype"], _arr(s["value"]))
    return repr(s)


# ------------------------------------------------------------------ executions


_TRIGGERED = re.compile(r"\s*\(Triggered internally at [^)]*\)\s*$")


def _user_warnings(rec: dict) -> list[tuple[str, str]]:
    """A step's warnings other than numpy's, less PyTorch's C++ source location."""
    return sorted((c, _TRIGGERED.sub("", m.split("\n")[0])) for c, m, from_numpy in rec.get("warnings", [])
                  if not from_numpy)


def low_precision(program: dict) -> bool:
    """True when float32 takes part anywhere: a float64 result may then have passed through float32."""
    return any("float32" in s["code"] or ".float()" in s["code"] for s in program["steps"])


def compare_runs(program: dict, T: list[dict], M: list[dict]) -> list[Diff]:
    steps = program["steps"]
    low = low_precision(program)
    diffs: list[Diff] = []
    broken: set[str] = set()  # names minigrad failed to define: steps using them are not compared
    for step, t, m in zip(steps, T, M):
        i = t["i"]
        op = step["op"]
        where = "step %d" % i
        gradish = step["kind"] == "plan"
        if broken.intersection(step.get("uses", ())):
            broken.update(step.get("outs", ()))
            continue
        if "error" in m and "error" not in t:
            broken.update(step.get("outs", ()))
            if gradish:
                broken.add("<plan>")
        if "error" in t:
            if "error" not in m:
                cat = "inplace_accepted" if step["kind"] == "inplace" else "silent_success"
                diffs.append(Diff(cat, op, where, "%s: %s" % t["error"][:2], "no error", i))
            elif m["error"][0] == t["error"][0] and _norm(m["error"][1]) == _norm(t["error"][1]):
                pass
            elif m["error"][2]:
                diffs.append(Diff("internal_crash", op, where, "%s: %s" % t["error"][:2], "%s: %s" % m["error"][:2], i))
            elif m["error"][0] != t["error"][0]:
                diffs.append(Diff("error_type", op, where, "%s: %s" % t["error"][:2], "%s: %s" % m["error"][:2], i))
            elif _norm(m["error"][1]) != _norm(t["error"][1]):
                diffs.append(Diff("error_message", op, where, t["error"][1], m["error"][1], i))
        elif "error" in m:
            cat = "internal_crash" if m["error"][2] else "spurious_error"
            diffs.append(Diff(cat, op, where, "ok", "%s: %s" % m["error"][:2], i))
        else:
            for name, ts in t["obs"].items():
                for cat, a, b in compare_snapshots(ts, m["obs"].get(name), name, low):
                    if gradish and cat in ("value", "nonfinite", "structure"):
                        cat = {"value": "grad", "nonfinite": "grad_nonfinite", "structure": "grad_structure"}[cat]
                    diffs.append(Diff(cat, op, "%s (%s)" % (where, name), a, b, i))
        numpy_warnings = [w for w in m.get("warnings", []) if w[2]]
        if numpy_warnings:
            diffs.append(Diff("numpy_warning", op, where, "no warning", numpy_warnings[0][1], i))
        tw, mw = _user_warnings(t), _user_warnings(m)
        if tw != mw:
            diffs.append(Diff("warning", op, where, tw, mw, i))
    if len(T) == len(M):
        diffs += _compare_end(program, T[-1], M[-1], broken, low)
    return [d for d in diffs if not known.is_known(d, program)]


def _compare_end(program: dict, t: dict, m: dict, broken: set[str], low: bool) -> list[Diff]:
    plan = next((s["op"] for s in reversed(program["steps"]) if s["kind"] == "plan"), "no_plan")
    diffs = []
    # which op last touched a name: attribute a final-value difference to it
    last_op = {}
    for s in program["steps"]:
        for n in s.get("observe", []) + s.get("outs", []):
            last_op[n] = s["op"]
    for name, ts in t["values"].items():
        if name in broken:
            continue
        for cat, a, b in compare_snapshots(ts, m["values"].get(name), name, low):
            if cat in ("value", "nonfinite"):
                diffs.append(Diff("final_value", last_op.get(name, "?"), "end: %s" % name, a, b))
    for name, ts in t["grads"].items():
        if name in broken or "<plan>" in broken:
            continue
        for cat, a, b in compare_snapshots(ts, m["grads"].get(name), name, low):
            cat = {"value": "grad", "nonfinite": "grad_nonfinite",
                   "structure": "grad_structure"}.get(cat, "grad_" + cat)
            diffs.append(Diff(cat, plan, "end: %s.grad" % name, a, b))
    numpy_warnings = [w for w in m.get("warnings", []) if w[2]]
    if numpy_warnings:
        diffs.append(Diff("numpy_warning", "final", "end", "no warning", numpy_warnings[0][1]))
    return diffs


def _norm(msg: str) -> str:
    return " ".join(msg.split())


_SPENT: set = set()


def _spend_warn_once(lib) -> None:
    """Give the once-per-process warning of ``backward(create_graph=True)`` ("... will create a reference cycle
    ...", PyTorch's TORCH_WARN_ONCE in Engine::execute) before any program runs, in both libraries: otherwise the
    program that first reaches it decides which side warns (the generator runs its steps under PyTorch, so PyTorch
    has usually spent it already). minigrad's own warning is tested in tests/minigrad/test_engine.py.
    The same for conv1d(padding='same') with an even kernel ("... may require a zero-padded copy ...",
    TORCH_WARN_ONCE in Convolution.cpp; minigrad's is tested in tests/nn)."""
    if id(lib) in _SPENT:
        return
    _SPENT.add(id(lib))
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x = lib.ones(1, requires_grad=True)
        (x * x).sum().backward(create_graph=True)
        lib.nn.functional.conv1d(lib.ones(1, 1, 2), lib.ones(1, 1, 2), padding="same")


def check(program: dict, torch_module=None, minigrad_module=None) -> list[Diff]:
    """Run ``program`` under both libraries; the differences not listed as known."""
    if torch_module is None:
        import torch as torch_module
    if minigrad_module is None:
        import minigrad as minigrad_module
    _spend_warn_once(torch_module)
    _spend_warn_once(minigrad_module)
    T = execute(program, torch_module)
    M = execute(program, minigrad_module)
    return compare_runs(program, T, M)
