"""The bugs issue 11 lists, as predicates on (program, differences): does the fuzzer reach them?

``python -m fuzzlib hits -n 2000`` counts, for each listed bug, the programs whose differences
match it (and names one). A fuzzer that cannot find the listed bugs is not done; once a bug is
fixed its count drops to 0, which is the point.
"""

from __future__ import annotations

import re


def _code(program) -> str:
    return "\n".join(s["code"] for s in program["steps"])


def _any(diffs, pred) -> bool:
    return any(pred(d) for d in diffs)


def _empty_leaf(program) -> bool:
    return bool(re.search(r"torch\.tensor\(\[\]|torch\.zeros\([^)]*\b0\b", _code(program)))


def _nan_leak(d) -> bool:
    """minigrad has more NaNs than PyTorch in a gradient."""
    return d.category == "grad_nonfinite" and str(d.minigrad).count("nan") > str(d.torch).count("nan")


def _retained_then_inplace(program) -> set[str]:
    """Names that retain their grad and are then modified in place."""
    retained, out = set(), set()
    for s in program["steps"]:
        if s["code"].endswith(".retain_grad()"):
            retained.add(s["uses"][0])
        elif s["kind"] == "inplace" and s["uses"] and s["uses"][0] in retained:
            out.add(s["uses"][0])
    return out


def _hooked_grad_inputs(program) -> bool:
    hooked = {s["uses"][0] for s in program["steps"] if s["kind"] == "hook" and "register_hook" in s["code"]}
    return any(s["op"] == "grad" and hooked.intersection(s.get("leaves", ())) for s in program["steps"])


LISTED = {
    "0-d tensor with dim= crashes (AxisError)": lambda p, ds: _any(
        ds, lambda d: d.category == "internal_crash" and "dimension 0" in str(d.minigrad)),
    "gather broadcasts its index": lambda p, ds: _any(ds, lambda d: d.op == "gather"),
    "masked gradients leak NaN (clamp/where/maximum/hardtanh: inf*0)": lambda p, ds: _any(ds, _nan_leak) and bool(
        re.search(r"clamp|clip|where|maximum|minimum|hardtanh|relu", _code(p))),
    "std/var/norm of constants: NaN gradient": lambda p, ds: _any(ds, _nan_leak) and bool(
        re.search(r"\.std\(|\.var\(|\.norm\(", _code(p))),
    "elu overflow: NaN gradient": lambda p, ds: _any(ds, _nan_leak) and "F.elu" in _code(p) and "100.0" in _code(p),
    "stale views after in-place on the base": lambda p, ds: _any(
        ds, lambda d: "AsStridedBackward0" in str(d.torch) or d.op.startswith("view_inplace")),
    "numpy RuntimeWarnings escape": lambda p, ds: _any(ds, lambda d: d.category == "numpy_warning"),
    "retain_grad then in-place: wrong retained grad": lambda p, ds: _any(
        ds, lambda d: d.category.startswith("grad") and d.where.startswith("end: t")
        and d.where[5:-5] in _retained_then_inplace(p)),
    "x[i].add_() on an integer-indexed element": lambda p, ds: _any(ds, lambda d: d.op == "inplace_item_add_"),
    "var/std with correction >= N": lambda p, ds: _any(
        ds, lambda d: d.op in ("var", "std") and d.category in ("value", "nonfinite", "warning")),
    "sign(nan)": lambda p, ds: _any(ds, lambda d: d.op == "sign" and d.category == "nonfinite"),
    "addmm(beta=0) propagates nan": lambda p, ds: _any(ds, lambda d: d.op == "addmm"),
    "retained .grad overwritten in place by the next backward": lambda p, ds: _any(
        ds, lambda d: d.where == "end: gk"),
    "autograd.grad with a hook on a non-leaf input": lambda p, ds: _hooked_grad_inputs(p) and _any(
        ds, lambda d: d.op == "grad" and d.category.startswith("grad")),
    "in-place on a saved output not version-protected": lambda p, ds: _any(
        ds, lambda d: d.category == "silent_success" and "modified by an inplace operation" in str(d.torch)),
    "in-place on split/chunk/unbind outputs accepted": lambda p, ds: _any(
        ds, lambda d: "returns multiple views" in str(d.torch)),
    "empty tensors (softmax, logsumexp, max...)": lambda p, ds: bool(ds) and _empty_leaf(p),
    "grad_fn names": lambda p, ds: _any(ds, lambda d: d.category.endswith("grad_fn_name")),
    "requires_grad of create_graph results": lambda p, ds: _any(
        ds, lambda d: "requires_grad" in d.category and d.op in ("create_graph", "backward_create_graph",
                                                                 "second_backward")),
    "error type / message": lambda p, ds: _any(ds, lambda d: d.category in ("error_type", "error_message")),
    "in-place PyTorch refuses, accepted": lambda p, ds: _any(ds, lambda d: d.category == "inplace_accepted"),
}


def hits(results) -> dict[str, list[int]]:
    """{listed bug: [program indices]} over ``results`` = [(k, program, diffs)]."""
    out = {name: [] for name in LISTED}
    for k, program, diffs in results:
        if not diffs:
            continue
        for name, pred in LISTED.items():
            try:
                if pred(program, diffs):
                    out[name].append(k)
            except Exception:
                pass
    return out
