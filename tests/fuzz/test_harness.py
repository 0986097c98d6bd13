"""The fuzzer's own machinery: the comparer must see differences, the minimiser must shrink.

These tests need no minigrad bug to exist: they feed the comparer synthetic records and run the
minimiser against a deliberately wrong "library" (PyTorch with perturbed leaf values).
"""

from __future__ import annotations

import types

import numpy as np
import pytest
from fuzzlib.compare import compare_runs, values_match
from fuzzlib.minimize import minimize, without
from fuzzlib.program import literal


def _snap(value, dtype="float32", grad_fn=None, requires_grad=False, is_leaf=True):
    value = np.asarray(value, dtype=dtype)
    return {"dtype": dtype, "shape": value.shape, "value": value, "requires_grad": requires_grad,
            "is_leaf": is_leaf, "grad_fn": grad_fn}


def _run(obs=None, error=None, warnings=()):
    rec = {"i": 0, "warnings": list(warnings)}
    if error is not None:
        rec["error"] = error
    else:
        rec["obs"] = obs or {}
    return [rec, {"i": "end", "values": {}, "grads": {}, "warnings": []}]


PROGRAM = {"seed": 0, "steps": [{"kind": "op", "op": "exp", "code": "t1 = x0.exp()", "outs": ["t1"], "uses": ["x0"],
                                 "observe": ["t1"]}]}


def _categories(T, M):
    return [d.category for d in compare_runs(PROGRAM, T, M)]


def test_values_match():
    assert values_match(np.array([1.0, np.nan, np.inf]), np.array([1.0, np.nan, np.inf]), "float64")[0]
    assert values_match(np.array([0.0]), np.array([-0.0]), "float64")[0]
    assert values_match(np.array([1.0], np.float32), np.array([1.00001], np.float32), "float32")[0]
    assert not values_match(np.array([1.0]), np.array([1.00001]), "float64")[0]
    assert values_match(np.array([0.0]), np.array([np.nan]), "float64") == (False, "nonfinite")
    assert values_match(np.array([np.inf]), np.array([-np.inf]), "float64") == (False, "nonfinite")
    assert not values_match(np.array([1, 2]), np.array([1, 3]), "int64")[0]


def test_comparer_names_each_difference():
    same = _run({"t1": _snap([1.0], grad_fn="ExpBackward0", requires_grad=True, is_leaf=False)})
    assert _categories(same, same) == []
    other = _run({"t1": _snap([1.0], grad_fn="MulBackward0", requires_grad=True, is_leaf=False)})
    assert _categories(same, other) == ["grad_fn_name"]
    assert _categories(same, _run({"t1": _snap([np.nan], grad_fn="ExpBackward0", requires_grad=True,
                                               is_leaf=False)})) == ["nonfinite"]
    assert _categories(same, _run({"t1": _snap([1.0], "float64", "ExpBackward0", True, False)})) == ["dtype"]
    raised = _run(error=("RuntimeError", "boom", False))
    assert _categories(raised, same) == ["silent_success"]
    assert _categories(same, raised) == ["spurious_error"]
    assert _categories(same, _run(error=("AxisError", "axis 1", True))) == ["internal_crash"]
    assert _categories(raised, _run(error=("RuntimeError", "bang", False))) == ["error_message"]
    assert _categories(raised, _run(error=("IndexError", "boom", False))) == ["error_type"]
    assert _categories(raised, raised) == []
    warned = _run({"t1": _snap([1.0], grad_fn="ExpBackward0", requires_grad=True, is_leaf=False)},
                  warnings=[("RuntimeWarning", "overflow encountered in exp", True)])
    assert _categories(same, warned) == ["numpy_warning"]


@pytest.mark.parametrize("value", [0.0, -0.0, 1.5, float("inf"), float("-inf"), float("nan"), 1e30, 1e-30])
@pytest.mark.torch
def test_literals_round_trip(value):
    import torch
    for dtype in ("float32", "float64"):
        code = literal(np.array([value, 2.0]), dtype)
        t = eval(code, {"torch": torch})
        got = t.numpy()[0]
        expected = np.array(value, dtype=dtype)
        assert (np.isnan(got) and np.isnan(expected)) or (got == expected and np.signbit(got) == np.signbit(expected))


def test_without_drops_dependents():
    steps = [{"outs": ["a"], "uses": []}, {"outs": ["b"], "uses": ["a"]}, {"outs": ["c"], "uses": []},
             {"outs": [], "uses": ["b", "c"]}]
    assert without(steps, {0}) == [steps[2]]
    assert without(steps, {2}) == steps[:2]


@pytest.mark.torch
def test_minimiser_shrinks_against_a_wrong_library():
    """A 'library' whose torch.tensor perturbs float values: minimising keeps one leaf."""
    import torch
    from fuzzlib.generate import generate

    def wrong_tensor(data, *args, **kwargs):
        t = torch.tensor(data, *args, **kwargs)
        return t if not t.is_floating_point() else (t.detach() * 1.01).requires_grad_(t.requires_grad)

    wrong = types.SimpleNamespace(**{k: getattr(torch, k) for k in dir(torch) if not k.startswith("__")})
    wrong.tensor = wrong_tensor
    program = generate(3)
    from fuzzlib.compare import check
    diffs = check(program, torch, wrong)
    assert diffs
    assert diffs[0].key == ("value", "leaf")
    small = minimize(program, diffs[0].key, budget=200, torch_module=torch, minigrad_module=wrong)
    assert len(small["steps"]) == 1
    assert small["steps"][0]["kind"] == "leaf"
