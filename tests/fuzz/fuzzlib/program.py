"""Programs as data, and the interpreter that runs them against either library.

A *program* is a dict ``{"seed": int, "steps": [step, ...]}``. A *step* is a dict:

``code``
    One or more lines of Python in PyTorch's spelling (``t3 = t1.sum(dim=0)``), executed with
    ``torch`` bound to the library under test and ``F`` to its ``nn.functional``.
``op``
    The op variant's name (``"sum_dim"``), used to attribute a mismatch to a root cause.
``kind``
    ``leaf`` | ``op`` | ``inplace`` | ``hook`` | ``plan`` (a backward plan: ``backward()``,
    ``autograd.grad(...)``, ...).
``outs`` / ``uses``
    Names the step defines / reads. The minimiser drops a step together with every step that uses
    what it defines.
``observe``
    Names whose state is recorded right after the step (its outputs, or an in-place op's target).

:func:`execute` runs the steps one by one. For each step it records an exception (type, message,
whether it is an *internal crash* -- raised by numpy or by a Python operation inside minigrad
rather than by one of minigrad's ``raise`` statements), the warnings it emitted, and a snapshot of
every observed name: dtype, shape, values, ``requires_grad``, ``is_leaf``, ``grad_fn``'s class
name. After the last step it snapshots every tensor again (values, and ``.grad`` of leaves and of
tensors that retain their grad): in-place ops on bases and views show up there.

A step that raises leaves its outputs undefined; the generator never lets a later step use them,
so both libraries run the same remaining steps.
"""

from __future__ import annotations

import linecache
import math
import re
import traceback
import warnings
from typing import Any

import numpy as np

PRELUDE = "import torch\nimport torch.nn.functional as F\n"

_CODE_CACHE: dict[str, Any] = {}


def _compile(code: str):
    obj = _CODE_CACHE.get(code)
    if obj is None:
        obj = _CODE_CACHE[code] = compile(code, "<fuzz step>", "exec")
    return obj


def render(program: dict, comments: bool = True) -> str:
    """The program as a standalone Python script (``import torch``; run it under either library)."""
    lines = [PRELUDE.rstrip("\n")]
    for step in program["steps"]:
        if comments and step.get("note"):
            lines.append("# " + step["note"])
        lines.append(step["code"])
    return "\n".join(lines) + "\n"


def namespace(lib) -> dict:
    return {"torch": lib, "F": lib.nn.functional}


# ------------------------------------------------------------------ snapshots


def _dtype_name(dtype) -> str:
    return str(dtype).replace("torch.", "").replace("minigrad.", "")


def snapshot(value) -> Any:
    """A library-independent picture of ``value`` (a tensor, a tuple of them, a number, None).

    Reading a tensor can raise (PyTorch refuses ``grad_fn`` of a multi-output view modified in
    place); the exception is then the picture.
    """
    try:
        return _snapshot(value)
    except Exception as exc:
        return {"error": (type(exc).__name__, str(exc).strip(), internal_crash(exc))}


def _snapshot(value) -> Any:
    if value is None:
        return None
    if isinstance(value, (tuple, list)):
        return [_snapshot(v) for v in value]
    if isinstance(value, (bool, int, float)):
        return {"py": type(value).__name__, "value": value}
    if not _is_tensor(value):
        return {"py": type(value).__name__}
    gf = value.grad_fn
    try:
        plain = value.detach()
        if hasattr(plain, "resolve_neg"):  # PyTorch may hand out lazily negated views (abs' backward)
            plain = plain.resolve_neg().resolve_conj()
        if getattr(plain, "_is_zerotensor", None) and plain._is_zerotensor():
            # PyTorch's _efficientzerotensor (sgn/abs' double backward) can reach a leaf's .grad: its values
            # are zeros, but numpy()/tolist() refuse it -- an internal representation leaking, which PyTorch's
            # maintainers call a bug (pytorch/pytorch#89034: "we are returning a ZeroTensor instead of a
            # materialized zero tensor"). minigrad materialises the zeros; compare them as zeros.
            data = np.zeros(tuple(plain.shape), dtype=plain.numpy(force=True).dtype)
        else:
            data = np.array(plain.numpy(), copy=True)
    except Exception as exc:  # pragma: no cover - reported as a difference
        data = "<numpy() failed: %s>" % type(exc).__name__
    return {
        "dtype": _dtype_name(value.dtype),
        "shape": tuple(int(s) for s in value.shape),
        "value": data,
        "requires_grad": bool(value.requires_grad),
        "is_leaf": bool(value.is_leaf),
        "grad_fn": None if gf is None else type(gf).__name__,
    }


def _is_tensor(value) -> bool:
    return any(c.__name__ == "Tensor" for c in type(value).__mro__)


# ------------------------------------------------------------------ exceptions and warnings


_SIGNATURE = re.compile(r"unexpected keyword argument|required positional argument|positional arguments? but")


def internal_crash(exc: BaseException) -> bool:
    """True when ``exc`` escaped from numpy or a plain Python operation inside minigrad.

    minigrad's own errors come from a ``raise`` statement in minigrad; anything raised by numpy
    (``AxisError``, a broadcasting ``ValueError``), by Python itself inside minigrad
    (``ZeroDivisionError``, ``AttributeError``, ``StopIteration``, ``KeyError``...) is a crash.
    """
    if isinstance(exc, TypeError) and _SIGNATURE.search(str(exc)):
        return False  # Python refused the call's arguments: the wrong words, not a crash
    frames = traceback.extract_tb(exc.__traceback__)
    inside = [f for f in frames if "/minigrad/" in f.filename.replace("\\", "/")]
    if not inside:
        return False  # raised in the step's own code (e.g. a failed unpacking): not minigrad's doing
    last = frames[-1]
    fname = last.filename.replace("\\", "/")
    if "/numpy/" in fname:
        return True
    if type(exc).__name__ in ("AxisError", "ZeroDivisionError", "StopIteration", "UnboundLocalError",
                              "NameError", "RecursionError", "KeyError", "AssertionError"):
        return True
    if "/minigrad/" not in fname:
        return False
    line = (last.line or linecache.getline(last.filename, last.lineno)).strip()
    return not line.startswith("raise")


def _warning_record(w: warnings.WarningMessage) -> tuple[str, str, bool]:
    fname = (w.filename or "").replace("\\", "/")
    # numpy warns with RuntimeWarning ("invalid value encountered in ...", "Mean of empty slice");
    # PyTorch's Python layer does not use that category for anything we run
    from_numpy = "/numpy/" in fname or issubclass(w.category, RuntimeWarning)
    return (w.category.__name__, str(w.message).strip(), from_numpy)


# ------------------------------------------------------------------ the interpreter


def execute(program: dict, lib) -> list[dict]:
    """Run ``program`` against ``lib``; return one record per step plus a final ``"end"`` record."""
    ns = namespace(lib)
    records = []
    for i, step in enumerate(program["steps"]):
        rec: dict[str, Any] = {"i": i}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                exec(_compile(step["code"]), ns)
            except Exception as exc:
                rec["error"] = (type(exc).__name__, str(exc).strip(), internal_crash(exc))
                for name in step.get("outs", ()):
                    ns.pop(name, None)
            else:
                rec["obs"] = {name: snapshot(ns.get(name)) for name in step.get("observe", ())}
        rec["warnings"] = [_warning_record(w) for w in caught]
        records.append(rec)
    records.append(_final(ns))
    return records


def _final(ns: dict) -> dict:
    """Values of every tensor at the end, and the ``.grad`` of leaves / grad-retaining tensors."""
    values, grads = {}, {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for name, value in list(ns.items()):
            if name in ("torch", "F") or name.startswith("__") or not _is_tensor(value):
                continue
            try:
                values[name] = snapshot(value)
                if value.is_leaf or getattr(value, "retains_grad", False):
                    grads[name] = snapshot(value.grad)
            except Exception as exc:
                values[name] = {"error": (type(exc).__name__, str(exc).strip(), internal_crash(exc))}
    return {"i": "end", "values": values, "grads": grads, "warnings": [_warning_record(w) for w in caught]}


# ------------------------------------------------------------------ literals


def fmt_float(v: float) -> str:
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if v == 0 and math.copysign(1, v) < 0:
        return "-0.0"
    r = repr(float(v))
    return r


def literal(values: np.ndarray, dtype: str, requires_grad: bool = False) -> str:
    """``torch.tensor([...], dtype=torch.float32, requires_grad=True)`` for ``values``."""
    def nested(a):
        if a.ndim == 0:
            return fmt_float(float(a)) if dtype.startswith("float") else (
                repr(bool(a)) if dtype == "bool" else repr(int(a)))
        return "[" + ", ".join(nested(x) for x in a) + "]"

    body = nested(np.asarray(values))
    body = body.replace("-inf", "-torch.inf").replace("nan", "torch.nan")
    body = _replace_word(body, "inf", "torch.inf")
    extra = ""
    if np.asarray(values).size == 0 and np.asarray(values).ndim > 1:
        return "torch.zeros(%s, dtype=torch.%s%s)" % (
            ", ".join(str(s) for s in np.asarray(values).shape), dtype,
            ", requires_grad=True" if requires_grad else "")
    if dtype != "int64":
        extra += ", dtype=torch.%s" % dtype
    if requires_grad:
        extra += ", requires_grad=True"
    return "torch.tensor(%s%s)" % (body, extra)


def _replace_word(text: str, word: str, new: str) -> str:
    import re
    return re.sub(r"(?<![\w.])%s(?![\w])" % word, new, text)
