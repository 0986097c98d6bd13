"""Every self-check of the course passes on the intended answer and fails, with a hint, on wrong ones."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest


def passes(check: Callable[..., Any], *args: Any, capsys: pytest.CaptureFixture[str]) -> None:
    assert check(*args) is None
    assert "✔ Correct." in capsys.readouterr().out


def fails(check: Callable[..., Any], *args: Any, match: str) -> None:
    with pytest.raises(AssertionError, match=match) as info:
        check(*args)
    assert len(str(info.value)) > 20, "a failing check explains what is wrong"


# ----------------------------------------------------------------- 01 tensors and requires_grad

TABLE = {"a": (True, False), "b": (False, True), "c": (False, True), "d": (False, True), "e": (True, False)}


def test_requires_grad_table(checks: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_requires_grad_table, TABLE, capsys=capsys)


@pytest.mark.parametrize(("answer", "match"), [
    ({**TABLE, "d": (True, False)}, "requires_grad of d"),
    ({**TABLE, "b": (False, False)}, "is_leaf of b"),
    ({**TABLE, "c": (True, False)}, "requires_grad of c.*detach"),
    ({k: v for k, v in TABLE.items() if k != "e"}, "missing the key"),
    ({**TABLE, "a": True}, "should be a pair"),
    ([True, False], "should be a dict"),
])
def test_requires_grad_table_wrong(checks: ModuleType, answer: Any, match: str) -> None:
    fails(checks.check_requires_grad_table, answer, match=match)


NEXT = {"t": ["AddBackward0"], "add": ["MulBackward0", None], "mul": ["AccumulateGrad", None]}


def test_next_functions(checks: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_next_functions, NEXT, capsys=capsys)
    passes(checks.check_next_functions, {**NEXT, "add": ("MulBackward0", None)}, capsys=capsys)


@pytest.mark.parametrize(("answer", "match"), [
    ({**NEXT, "add": ["MulBackward0", "ExpBackward0"]}, "no node for exp"),
    ({**NEXT, "mul": ["AccumulateGrad", "AccumulateGrad"]}, "w gets no AccumulateGrad"),
    ({**NEXT, "mul": ["AccumulateGrad"]}, "one entry per input"),
    ({**NEXT, "add": [None, "MulBackward0"]}, "wrong order"),
    ({**NEXT, "t": ["MulBackward0"]}, "sum's only input"),
    ({**NEXT, "mul": "AccumulateGrad"}, "should be a list"),
])
def test_next_functions_wrong(checks: ModuleType, answer: Any, match: str) -> None:
    fails(checks.check_next_functions, answer, match=match)


def _exercise_01_3(lib: ModuleType) -> tuple[Any, Any, Any]:
    inp = lib.tensor([1.0, -1.0])
    weight = lib.tensor([2.0, 3.0], requires_grad=True)
    bias = lib.tensor(0.5, requires_grad=True)
    out = ((inp * weight).sum() + bias).tanh()
    return out, weight, bias


def test_accumulate_grad(checks: ModuleType, lib: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    out, _, bias = _exercise_01_3(lib)
    passes(checks.check_accumulate_grad, out.grad_fn.next_functions[0][0].next_functions[1][0], bias,
           capsys=capsys)


def test_accumulate_grad_wrong(checks: ModuleType, lib: ModuleType) -> None:
    out, _, bias = _exercise_01_3(lib)
    add = out.grad_fn.next_functions[0][0]
    fails(checks.check_accumulate_grad, add, bias, match="AddBackward0, not the AccumulateGrad")
    fails(checks.check_accumulate_grad, add.next_functions[1], bias, match="pair")
    weight_acc = add.next_functions[0][0].next_functions[0][0].next_functions[1][0]
    fails(checks.check_accumulate_grad, weight_acc, bias, match="another leaf")
    fails(checks.check_accumulate_grad, None, bias, match="next_functions")


# ----------------------------------------------------------------- 02 chain rule


def test_hand_gradients(checks: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_hand_gradients, {"x": 8.0, "y": -12.0, "z": -4.0}, capsys=capsys)


@pytest.mark.parametrize(("answer", "match"), [
    ({"x": 4.0, "y": -6.0, "z": -2.0}, "uses r twice"),          # forgot the second use of r
    ({"x": 8.0, "y": 12.0, "z": -4.0}, "answer\\['y'\\]"),
    ({"x": -12.0, "y": 8.0, "z": -4.0}, "answer\\['x'\\]"),
    ({"x": 8.0, "y": -12.0}, "missing"),
])
def test_hand_gradients_wrong(checks: ModuleType, answer: Any, match: str) -> None:
    fails(checks.check_hand_gradients, answer, match=match)


EDGES = {"s → r (1st)": -2.0, "s → r (2nd)": -2.0, "r → q": -4.0, "r → z": -4.0, "q → x": 8.0, "q → y": -12.0}


def test_edge_gradients(checks: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_edge_gradients, EDGES, capsys=capsys)


@pytest.mark.parametrize(("answer", "match"), [
    ({**EDGES, "s → r (1st)": -4.0, "s → r (2nd)": -4.0}, "the \\*sum\\*"),       # summed too early
    ({**EDGES, "s → r (1st)": 1.0}, "other factor"),
    ({**EDGES, "r → q": -2.0, "r → z": -2.0}, "sum of both edges"),               # one edge only
    ({**EDGES, "q → x": -12.0, "q → y": 8.0}, "swapped"),
    ({**EDGES, "q → x": 4.0}, "q → x"),
])
def test_edge_gradients_wrong(checks: ModuleType, answer: Any, match: str) -> None:
    fails(checks.check_edge_gradients, answer, match=match)


def _walk(t: Any) -> list[Any]:
    found, stack, seen = [], [t.grad_fn], {t.grad_fn}
    while stack:
        node = stack.pop()
        if type(node).__name__ == "AccumulateGrad":
            found.append(node.variable)
        for child, _ in node.next_functions:
            if child is not None and child not in seen:
                seen.add(child)
                stack.append(child)
    return found


def test_leaves_function(checks: ModuleType, lib: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_leaves_function, _walk, lib, capsys=capsys)


def _first_only(t: Any) -> list[Any]:
    node, found = t.grad_fn, []
    while node is not None:
        if type(node).__name__ == "AccumulateGrad":
            found.append(node.variable)
            break
        node = node.next_functions[0][0] if node.next_functions else None
    return found


def _with_duplicates(t: Any) -> list[Any]:
    found, stack = [], [t.grad_fn]
    while stack:
        node = stack.pop()
        if type(node).__name__ == "AccumulateGrad":
            found.append(node.variable)
        stack += [child for child, _ in node.next_functions if child is not None]
    return found


def _acc_nodes(t: Any) -> list[Any]:
    out, stack, seen = [], [t.grad_fn], {t.grad_fn}
    while stack:
        node = stack.pop()
        if type(node).__name__ == "AccumulateGrad":
            out.append(node)
        for child, _ in node.next_functions:
            if child is not None and child not in seen:
                seen.add(child)
                stack.append(child)
    return out


@pytest.mark.parametrize(("leaves", "match"), [
    (_first_only, "every entry"),
    (_with_duplicates, "more than once"),
    (_acc_nodes, "not the AccumulateGrad nodes"),
    (lambda t: [None], "contains None"),
])
def test_leaves_function_wrong(checks: ModuleType, lib: ModuleType, leaves: Any, match: str) -> None:
    fails(checks.check_leaves_function, leaves, lib, match=match)


def test_mul_rule(checks: ModuleType, lib: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    def mul_rule(node: Any, grad: float) -> tuple[float, float]:
        return grad * node._saved_other.item(), grad * node._saved_self.item()

    passes(checks.check_mul_rule, mul_rule, lib, capsys=capsys)


@pytest.mark.parametrize(("rule", "match"), [
    (lambda node, g: (node._saved_other.item(), node._saved_self.item()), "incoming gradient"),
    (lambda node, g: (g * node._saved_self.item(), g * node._saved_other.item()), "swapped"),
    (lambda node, g: (g, g), "not yet"),
    (lambda node, g: g, "return a pair"),
])
def test_mul_rule_wrong(checks: ModuleType, lib: ModuleType, rule: Any, match: str) -> None:
    fails(checks.check_mul_rule, rule, lib, match=match)


# ----------------------------------------------------------------- 03 vector outputs


def test_vjp(checks: ModuleType, lib: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_vjp, [2.0, 11.0, 60.0], capsys=capsys)
    passes(checks.check_vjp, lib.tensor([2.0, 11.0, 60.0]), capsys=capsys)


@pytest.mark.parametrize(("answer", "match"), [
    ([2.0, 2.0, 6.0], "v = \\[1, 1\\]"),
    ([2.0, 1.0, 0.0], "only the first row"),
    ([1.0, 10.0], "3 entries"),
    ([2.0, 11.0, 6.0], "not right yet"),
    ("2, 11, 60", "should be a number"),
    (None, "is None"),
])
def test_vjp_wrong(checks: ModuleType, answer: Any, match: str) -> None:
    fails(checks.check_vjp, answer, match=match)


def _jacobian_rows(lib: ModuleType, reset: bool = True, clone: bool = True, transpose: bool = False,
                   own_leaf: bool = True, retain: bool = True, square: bool = False) -> Any:
    def jacobian_rows(f: Any, x: Any) -> Any:
        if own_leaf:
            x = x.detach().requires_grad_()
        out = f(x)
        m = x.shape[0] if square else out.shape[0]
        rows = []
        for i in range(m):
            seed = lib.zeros(out.shape[0])
            seed[i] = 1.0
            if reset and x.grad is not None:
                x.grad.zero_()
            out.backward(seed, retain_graph=retain)
            rows.append(x.grad.clone() if clone else x.grad)
        J = lib.stack(rows)
        return J.T if transpose else J

    return jacobian_rows


def test_jacobian_function(checks: ModuleType, lib: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_jacobian_function, _jacobian_rows(lib), lib, capsys=capsys)


@pytest.mark.parametrize(("options", "match"), [
    ({"reset": False}, "rows 0..i added up"),
    ({"clone": False}, "every row equals the last"),
    ({"transpose": True}, "transpose"),
    ({"own_leaf": False}, "make your own leaf"),
    ({"retain": False}, "retain_graph"),
    ({"square": True}, "as many outputs as inputs"),
])
def test_jacobian_function_wrong(checks: ModuleType, lib: ModuleType, options: dict[str, bool], match: str) -> None:
    fails(checks.check_jacobian_function, _jacobian_rows(lib, **options), lib, match=match)


def _mm(lib: ModuleType, x: Any, times: int = 1) -> Any:
    y = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    z = lib.mm(x, y)
    for _ in range(times):
        z.backward(lib.tensor([[1.0, 0.0]]), retain_graph=True)
    return y


def test_mm_fix(checks: ModuleType, lib: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    x = lib.tensor([[2.0, 1.0]], requires_grad=True)
    y = _mm(lib, x)
    passes(checks.check_mm_fix, x, y, capsys=capsys)


def test_mm_fix_wrong(checks: ModuleType, lib: ModuleType) -> None:
    view = lib.tensor([2.0, 1.0], requires_grad=True).view(1, 2)
    fails(checks.check_mm_fix, view, _mm(lib, view), match="still not a leaf.*ViewBackward0")
    x = lib.tensor([[2.0, 1.0]], requires_grad=True)
    fails(checks.check_mm_fix, x, None, match="x.grad is None")
    x = lib.tensor([[2.0, 1.0]], requires_grad=True)
    y = _mm(lib, x, times=2)
    fails(checks.check_mm_fix, x, y, match="accumulate")


# ----------------------------------------------------------------- 04 accumulation, hooks, autograd.grad


def test_accumulated_grad(checks: ModuleType, lib: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_accumulated_grad, 11.0, capsys=capsys)
    passes(checks.check_accumulated_grad, lib.tensor(11.0), capsys=capsys)


@pytest.mark.parametrize(("answer", "match"),
                         [(5.0, "second call"), (6.0, "first call"), (30.0, "not right")])
def test_accumulated_grad_wrong(checks: ModuleType, answer: Any, match: str) -> None:
    fails(checks.check_accumulated_grad, answer, match=match)


def _clip(grad: Any) -> Any:
    norm = grad.norm()
    return grad / norm if norm > 1 else grad


def test_norm_clip_hook(checks: ModuleType, lib: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_norm_clip_hook, _clip, lib, capsys=capsys)
    passes(checks.check_norm_clip_hook, lambda g: g * (1 / g.norm()).clamp(max=1) if g.norm() > 0 else g,
           lib, capsys=capsys)


def _in_place(grad: Any) -> Any:
    norm = grad.norm()
    if norm > 1:
        grad.div_(norm)
    return grad


def _forgets_to_return(grad: Any) -> None:
    norm = grad.norm()
    if norm > 1:
        grad = grad / norm


@pytest.mark.parametrize(("hook", "match"), [
    (lambda grad: grad.clamp(-1, 1), "each entry"),                         # the old exercise's answer
    (lambda grad: grad / grad.norm(), "nan|stretched"),                     # always normalises
    (lambda grad: grad.clamp_(-1, 1), "in place"),                          # in-place clamp_
    (_in_place, "in place"),
    (_forgets_to_return, "returned None"),
    (lambda grad: grad / 5, "your hook sent on"),
])
def test_norm_clip_hook_wrong(checks: ModuleType, lib: ModuleType, hook: Any, match: str) -> None:
    fails(checks.check_norm_clip_hook, hook, lib, match=match)


def _paths(lib: ModuleType, detach: bool = False) -> tuple[Any, Any, Any, Any]:
    a = lib.tensor(3.0, requires_grad=True)
    b = lib.tensor(4.0, requires_grad=True)
    h = a * b
    loss = (h.detach().requires_grad_() if detach else h) ** 2 + a
    return a, b, h, loss


def test_autograd_grad_paths(checks: ModuleType, lib: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    a, b, h, loss = _paths(lib)
    passes(checks.check_autograd_grad_paths, 97.0, lib.autograd.grad(loss, [h, a, b]), a, capsys=capsys)


def test_autograd_grad_paths_wrong(checks: ModuleType, lib: ModuleType) -> None:
    a, b, h, loss = _paths(lib)
    answer = lib.autograd.grad(loss, [h, a, b])
    fails(checks.check_autograd_grad_paths, 96.0, answer, a, match="only the path through h")
    fails(checks.check_autograd_grad_paths, 1.0, answer, a, match="only the direct path")
    fails(checks.check_autograd_grad_paths, 97.0, answer[1:], a, match="tuple of three")
    a, b, h, loss = _paths(lib)
    fails(checks.check_autograd_grad_paths, 97.0, lib.autograd.grad(loss, [a, b, a]), a, match="dloss/dh")
    a, b, h, loss = _paths(lib)
    loss.backward(retain_graph=True)
    fails(checks.check_autograd_grad_paths, 97.0, lib.autograd.grad(loss, [h, a, b]), a,
          match="does not touch .grad")


# ----------------------------------------------------------------- 05 turning tracking off

TRACKING = {"a": False, "b": True, "c": True, "d": False, "e": False, "f": True}


def test_tracking_quiz(checks: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_tracking_quiz, TRACKING, capsys=capsys)


@pytest.mark.parametrize("name", sorted(TRACKING))
def test_tracking_quiz_wrong(checks: ModuleType, name: str) -> None:
    fails(checks.check_tracking_quiz, {**TRACKING, name: not TRACKING[name]}, match=f"^{name} is wrong")


def _frozen_net(lib: ModuleType, freeze_head_too: bool = False, n_out: int = 3, freeze: bool = True) -> Any:
    nn = lib.nn
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
    if freeze:
        model.requires_grad_(False)
    model[2] = nn.Linear(8, n_out)
    if freeze_head_too:
        model[2].requires_grad_(False)
    return model


def test_frozen_model(checks: ModuleType, lib: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_frozen_model, _frozen_net(lib), 3, capsys=capsys)


def test_frozen_model_wrong(checks: ModuleType, lib: ModuleType) -> None:
    fails(checks.check_frozen_model, _frozen_net(lib, n_out=2), 3, match="3 outputs")
    fails(checks.check_frozen_model, _frozen_net(lib, freeze_head_too=True), 3, match="does not require grad")
    fails(checks.check_frozen_model, _frozen_net(lib, freeze=False), 3, match="still requires grad")


# ----------------------------------------------------------------- 06 in-place operations

INPLACE = {"A": "error", "B": "ok", "C": "error", "D": "ok", "E": "error"}


def test_inplace_quiz(checks: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_inplace_quiz, INPLACE, capsys=capsys)
    passes(checks.check_inplace_quiz, {k: v.upper() for k, v in INPLACE.items()}, capsys=capsys)


@pytest.mark.parametrize("key", sorted(INPLACE))
def test_inplace_quiz_wrong(checks: ModuleType, key: str) -> None:
    flipped = "ok" if INPLACE[key] == "error" else "error"
    fails(checks.check_inplace_quiz, {**INPLACE, key: flipped}, match=f"snippet {key} is wrong")


def test_inplace_quiz_bad_value(checks: ModuleType) -> None:
    fails(checks.check_inplace_quiz, {**INPLACE, "A": "maybe"}, match="'ok' or 'error'")


def _tanh_repair(lib: ModuleType, how: str) -> Any:
    x = lib.tensor([0.5, -1.0, 2.0], requires_grad=True)
    h = x.tanh()
    y = h * 3
    y += 1
    if how == "out of place":
        h = h * 2
    elif how == "data":
        h.data *= 2
    elif how == "detach":
        h = h.detach() * 2
    (y + h).sum().backward()
    return x.grad


def test_inplace_repair(checks: ModuleType, lib: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_inplace_repair, "h *= 2", _tanh_repair(lib, "out of place"), capsys=capsys)


def test_inplace_repair_wrong(checks: ModuleType, lib: ModuleType) -> None:
    good = _tanh_repair(lib, "out of place")
    fails(checks.check_inplace_repair, "y += 1", good, match="nothing saved y")
    fails(checks.check_inplace_repair, "x.tanh()", good, match="one of the two")
    fails(checks.check_inplace_repair, "h *= 2", _tanh_repair(lib, "removed"), match="doubling of h is gone")
    fails(checks.check_inplace_repair, "h *= 2", _tanh_repair(lib, "data"), match=".data hid")
    fails(checks.check_inplace_repair, "h *= 2", _tanh_repair(lib, "detach"), match="cut")
    fails(checks.check_inplace_repair, "h *= 2", good * 2, match="not right yet")


# ----------------------------------------------------------------- 07 higher-order derivatives


def _penalty_grads(lib: ModuleType) -> dict[str, Any]:
    w = lib.tensor([0.5, -1.0, 2.0], requires_grad=True)
    x = lib.tensor([1.0, 0.5, -0.3], requires_grad=True)
    (g,) = lib.autograd.grad((w * x).tanh().sum(), x, create_graph=True)
    P = (g**2).sum()
    dw, dx = lib.autograd.grad(P, [w, x], retain_graph=True)
    (norm_dw,) = lib.autograd.grad(P.sqrt(), w, retain_graph=True)
    (inner,) = lib.autograd.grad(g.sum(), w)
    return {"right": dw, "dP/dx": dx, "norm": norm_dw, "g": g.detach(), "inner": inner}


def test_penalty_gradient(checks: ModuleType, lib: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_penalty_gradient, _penalty_grads(lib)["right"], capsys=capsys)


@pytest.mark.parametrize(("which", "match"), [
    ("dP/dx", "with respect to the input"),
    ("norm", "not of its square"),
    ("g", "inside of the penalty"),
    ("inner", "not right yet"),
])
def test_penalty_gradient_wrong(checks: ModuleType, lib: ModuleType, which: str, match: str) -> None:
    fails(checks.check_penalty_gradient, _penalty_grads(lib)[which], match=match)


def test_newton_minimum(checks: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_newton_minimum, 1.1309011, capsys=capsys)


@pytest.mark.parametrize(("answer", "match"), [
    (1.5, "not a stationary point"),
    (2.0, "not a stationary point"),
    (0.1699384, "maximum"),
    (-1.3008396, "not the one"),
])
def test_newton_minimum_wrong(checks: ModuleType, answer: float, match: str) -> None:
    fails(checks.check_newton_minimum, answer, match=match)


def test_newton_points_are_what_the_test_says() -> None:
    for root in (0.1699384, -1.3008396):
        assert abs(4 * root**3 - 6 * root + 1) < 1e-3


# ----------------------------------------------------------------- 08 dynamic graphs


def test_doubling_loop(checks: ModuleType, lib: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_doubling_loop, 9, lib.tensor([512.0, 512.0, 512.0]), capsys=capsys)


@pytest.mark.parametrize(("n", "grad", "match"), [
    (8, [512.0] * 3, "missed one"),
    (10, [512.0] * 3, "not right"),
    (9, [256.0] * 3, "x_grad"),
])
def test_doubling_loop_wrong(checks: ModuleType, n: int, grad: Any, match: str) -> None:
    fails(checks.check_doubling_loop, n, grad, match=match)


def test_branch_grads(checks: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_branch_grads, {-2.0: -3.0, 1.5: 3.0, 0.0: -3.0}, capsys=capsys)


@pytest.mark.parametrize(("answer", "match"), [
    ({-2.0: -3.0, 1.5: 3.0, 0.0: 0.0}, "x = 0.0"),
    ({-2.0: -4.0, 1.5: 3.0, 0.0: -3.0}, "x = -2.0"),
    ({-2.0: -3.0, 1.5: 3.0}, "at x = 0.0"),
    ([-3.0, 3.0, -3.0], "dict"),
])
def test_branch_grads_wrong(checks: ModuleType, answer: Any, match: str) -> None:
    fails(checks.check_branch_grads, answer, match=match)


# ----------------------------------------------------------------- 09 training


def test_bce_bias_grad(checks: ModuleType, lib: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    z = lib.tensor([0.5, -1.0, 2.0])
    y = lib.zeros(3)
    passes(checks.check_bce_bias_grad, (lib.sigmoid(z) - y) / 3, z, y, capsys=capsys)


def test_bce_bias_grad_wrong(checks: ModuleType, lib: ModuleType) -> None:
    z = lib.tensor([0.5, -1.0, 2.0])
    y = lib.zeros(3)
    fails(checks.check_bce_bias_grad, lib.sigmoid(z) - y, z, y, match="divide by their number")
    fails(checks.check_bce_bias_grad, (z - y) / 3, z, y, match="not right yet")


def _train_step(lib: ModuleType, zero: bool = True, step: bool = True, loss_fn: Any = None,
                order: str = "zero forward backward step") -> Any:
    F = lib.nn.functional

    def train_step(model: Any, optimizer: Any, xb: Any, yb: Any) -> Any:
        loss = None
        for action in order.split():
            if action == "zero" and zero:
                optimizer.zero_grad()
            elif action == "forward":
                loss = (loss_fn or F.cross_entropy)(model(xb), yb)
            elif action == "backward":
                loss.backward()
            elif action == "step" and step:
                optimizer.step()
        return loss

    return train_step


def test_train_step(checks: ModuleType, lib: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_train_step, _train_step(lib), lib, capsys=capsys)


def test_train_step_wrong(checks: ModuleType, lib: ModuleType) -> None:
    fails(checks.check_train_step, _train_step(lib, zero=False), lib, match="accumulated")
    fails(checks.check_train_step, _train_step(lib, step=False), lib, match="never called")
    # the misleading case of the old check: zero_grad between backward and step
    fails(checks.check_train_step, _train_step(lib, order="forward backward zero step"), lib,
          match="zero_grad\\(\\) ran between")
    fails(checks.check_train_step, _train_step(lib, order="zero step forward backward"), lib,
          match="ran before loss.backward")
    fails(checks.check_train_step, _train_step(lib, loss_fn=lambda out, y: out.sum()), lib,
          match="not those of the batch")

    def no_return(model: Any, optimizer: Any, xb: Any, yb: Any) -> None:
        _train_step(lib)(model, optimizer, xb, yb)

    fails(checks.check_train_step, no_return, lib, match="return the loss")


def _accumulated_step(lib: ModuleType, zero: str = "before", scale: bool = True, steps: str = "once") -> Any:
    F = lib.nn.functional

    def accumulated_step(model: Any, optimizer: Any, micro_batches: Any) -> float:
        if zero == "before":
            optimizer.zero_grad()
        total = 0.0
        for xb, yb in micro_batches:
            if zero == "inside":
                optimizer.zero_grad()
            loss = F.cross_entropy(model(xb), yb) / (len(micro_batches) if scale else 1)
            loss.backward()
            total += loss.item()
            if steps == "each":
                optimizer.step()
        if steps == "once":
            optimizer.step()
        return total

    return accumulated_step


def test_accumulation_step(checks: ModuleType, lib: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_accumulation_step, _accumulated_step(lib), lib, capsys=capsys)


@pytest.mark.parametrize(("options", "match"), [
    ({"scale": False}, "3 times too big"),
    ({"zero": "inside"}, "only the last micro-batch"),
    ({"zero": "never"}, "left over from before"),
    ({"steps": "each"}, "ran 3 times"),
    ({"steps": "never"}, "never called"),
])
def test_accumulation_step_wrong(checks: ModuleType, lib: ModuleType, options: dict[str, Any], match: str) -> None:
    fails(checks.check_accumulation_step, _accumulated_step(lib, **options), lib, match=match)


def _deep(lib: ModuleType, activation: str, kaiming: bool = False, depth: int = 6) -> Any:
    nn = lib.nn
    lib.manual_seed(0)
    layers: list[Any] = []
    features = 64
    for _ in range(depth):
        layers += [nn.Linear(features, 32), getattr(nn, activation)()]
        features = 32
    net = nn.Sequential(*layers, nn.Linear(features, 10))
    if kaiming:
        for layer in net:
            if isinstance(layer, nn.Linear):
                nn.init.kaiming_normal_(layer.weight, nonlinearity="relu")
    return net


@pytest.fixture(scope="module")
def digits() -> tuple[np.ndarray, np.ndarray]:
    sklearn = pytest.importorskip("sklearn.datasets")
    data = sklearn.load_digits()
    return (data.data[:256] / 16.0).astype(np.float32), data.target[:256].astype(np.int64)


def test_gradient_reaches_input(checks: ModuleType, lib: ModuleType, digits: Any,
                                capsys: pytest.CaptureFixture[str]) -> None:
    X, y = lib.tensor(digits[0]), lib.tensor(digits[1])
    passes(checks.check_gradient_reaches_input, _deep(lib, "ReLU", kaiming=True), X, y, capsys=capsys)


@pytest.mark.parametrize(("activation", "kaiming", "depth", "match"), [
    ("Sigmoid", False, 6, "at most 1/4"),
    ("ReLU", False, 6, "default initialisation"),
    ("Tanh", False, 6, "tanh"),
    ("ReLU", True, 2, "keep the depth"),
])
def test_gradient_reaches_input_wrong(checks: ModuleType, lib: ModuleType, digits: Any, activation: str,
                                      kaiming: bool, depth: int, match: str) -> None:
    X, y = lib.tensor(digits[0]), lib.tensor(digits[1])
    fails(checks.check_gradient_reaches_input, _deep(lib, activation, kaiming, depth), X, y, match=match)


# ----------------------------------------------------------------- 10 custom Function


def _softplus(lib: ModuleType, backward: Callable[[Any, Any], Any]) -> Any:
    class Softplus(lib.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.save_for_backward(x)
            return (1 + x.exp()).log()

        @staticmethod
        def backward(ctx: Any, grad_output: Any) -> Any:
            (x,) = ctx.saved_tensors
            return backward(x, grad_output)

    return Softplus


def test_softplus_function(checks: ModuleType, lib: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_softplus_function, _softplus(lib, lambda x, g: g * x.sigmoid()), lib, capsys=capsys)


def test_softplus_function_wrong(checks: ModuleType, lib: ModuleType) -> None:
    fails(checks.check_softplus_function, _softplus(lib, lambda x, g: x.sigmoid()), lib,
          match="multiply by the incoming gradient")
    fails(checks.check_softplus_function, _softplus(lib, lambda x, g: g * x.exp()), lib, match="x.grad")

    class WrongForward(lib.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            return x.exp()

        @staticmethod
        def backward(ctx: Any, grad_output: Any) -> Any:
            return grad_output

    fails(checks.check_softplus_function, WrongForward, lib, match="forward\\(x\\)")
    fails(checks.check_softplus_function, lambda x: x, lib, match="Function class")


def _scaled_square(lib: ModuleType, with_k: bool, with_none: bool = True) -> Any:
    class ScaledSquare(lib.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any, k: float) -> Any:
            ctx.save_for_backward(x)
            ctx.k = k
            return k * x * x

        @staticmethod
        def backward(ctx: Any, grad_output: Any) -> Any:
            (x,) = ctx.saved_tensors
            grad = grad_output * 2 * (ctx.k if with_k else 1.0) * x
            return (grad, None) if with_none else grad

    return ScaledSquare


def test_fixed_function(checks: ModuleType, lib: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_fixed_function, _scaled_square(lib, with_k=True), lib, capsys=capsys)


def test_fixed_function_wrong(checks: ModuleType, lib: ModuleType) -> None:
    fails(checks.check_fixed_function, _scaled_square(lib, with_k=False), lib, match=re.escape("k = 3.0"))
    # forgetting the None for k: the check's message, not the engine's raw error
    fails(checks.check_fixed_function, _scaled_square(lib, with_k=True, with_none=False), lib,
          match="one gradient per input of forward.*None for the number k")


# ----------------------------------------------------------------- the module itself


def test_an_open_exercise_says_so_in_one_line(checks: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    """A blanked answer (``...``, a stub function or class) prints one line and raises nothing."""
    def stub(a: Any, b: Any) -> None:
        """A learner's stub."""
        # TODO: your code

    class Stub:
        @staticmethod
        def forward(ctx: Any, x: Any) -> None: ...

    for name in checks.__all__:
        check = getattr(checks, name)
        required = [p for p in inspect.signature(check).parameters.values() if p.default is p.empty]
        for blank in (..., stub, Stub, {"a": ...}):
            assert check(blank, *[None] * (len(required) - 1)) is None
            out = capsys.readouterr().out
            assert out.count("\n") == 1, out
            assert out.startswith(f"✎ Still open ({name})"), out


def test_solved_remembers_passed_checks(checks: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    checks._PASSED.discard("check_accumulated_grad")
    assert not checks.solved("check_accumulated_grad", "Exercise 1")
    assert capsys.readouterr().out == ("⏸ This cell needs Exercise 1 (check_accumulated_grad) solved first: "
                                       "finish it, then run this cell again.\n")
    with pytest.raises(AssertionError):
        checks.check_accumulated_grad(6.0)
    assert not checks.solved(checks.check_accumulated_grad, "Exercise 1")
    checks.check_accumulated_grad(11.0)
    capsys.readouterr()
    assert checks.solved(checks.check_accumulated_grad, "Exercise 1")
    assert capsys.readouterr().out == ""


def test_is_open_tells_stubs_from_answers(checks: ModuleType) -> None:
    def stub(x: Any) -> None:
        pass

    def returns_none(x: Any) -> None:
        return None

    def answer(x: Any) -> Any:
        return x

    assert checks.is_open(...)
    assert checks.is_open(stub)
    assert checks.is_open([1, ...])
    assert checks.is_open(returns_none)      # does nothing either: not an answer
    assert not checks.is_open(answer)
    assert not checks.is_open({"a": 1})
    assert not checks.is_open(0)


def test_every_check_is_exported_and_tested(checks: ModuleType) -> None:
    names = {n for n in dir(checks) if n.startswith("check_")}
    assert names == set(checks.__all__)
    assert {"solved", "is_open", "CheckFailed"} <= set(dir(checks))
    tested = {n.removeprefix("test_").removesuffix("_wrong") for n in globals() if n.startswith("test_")}
    assert {n.removeprefix("check_") for n in names} <= tested


# ----------------------------------------------------------------- 11 forward and reverse mode

PASSES = {"loss": {"forward": 1_000_000, "reverse": 1}, "layer": {"forward": 512, "reverse": 512},
          "curve": {"forward": 1, "reverse": 1000}, "gradient": "reverse"}


def test_pass_counts(checks: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_pass_counts, PASSES, capsys=capsys)


@pytest.mark.parametrize(("answer", "match"), [
    ({**PASSES, "loss": {"forward": 1, "reverse": 1_000_000}}, "swapped"),
    ({**PASSES, "curve": {"forward": 1000, "reverse": 1}}, "swapped"),
    ({**PASSES, "layer": {"forward": 512, "reverse": 1}}, "one pass per output"),
    ({**PASSES, "gradient": "forward"}, "which mode needs one pass per output"),
    ({**PASSES, "loss": 1}, "should be a dict"),
])
def test_pass_counts_wrong(checks: ModuleType, answer: Any, match: str) -> None:
    fails(checks.check_pass_counts, answer, match=match)


def _f11(lib: ModuleType) -> Any:
    return lambda x: lib.stack([x[0] * x[1], x[1].sin() + x[2]])


def test_jvp_column(checks: ModuleType, lib: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    x0 = lib.tensor([1.0, 2.0, 3.0])
    _, column = lib.autograd.functional.jvp(_f11(lib), x0, lib.tensor([0.0, 0.0, 1.0]))
    passes(checks.check_jvp_column, column, capsys=capsys)


def test_jvp_column_wrong(checks: ModuleType, lib: ModuleType) -> None:
    f, x0 = _f11(lib), lib.tensor([1.0, 2.0, 3.0])
    _, row = lib.autograd.functional.vjp(f, x0, lib.tensor([0.0, 1.0]))
    fails(checks.check_jvp_column, row, match="that is a row of J")
    _, column1 = lib.autograd.functional.jvp(f, x0, lib.tensor([0.0, 1.0, 0.0]))
    fails(checks.check_jvp_column, column1, match="column 1")
    fails(checks.check_jvp_column, lib.autograd.functional.jvp(f, x0, lib.tensor([0.0, 0.0, 1.0])),
          match="take the second element")


# ----------------------------------------------------------------- 12 what the articles got wrong


def test_trap_optimizer(checks: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_trap_optimizer, {"a": 6.0, "b": 6.0, "c": 0.4}, capsys=capsys)


@pytest.mark.parametrize(("answer", "match"), [
    ({"a": 3.0, "b": 3.0, "c": 0.7}, "even without any optimizer"),
    ({"a": 6.0, "b": 0.0, "c": 0.4}, "only reads .grad"),
    ({"a": 6.0, "b": 12.0, "c": 0.4}, "only reads .grad"),
    ({"a": 6.0, "b": 6.0, "c": 0.7}, "accumulated .grad"),
])
def test_trap_optimizer_wrong(checks: ModuleType, answer: Any, match: str) -> None:
    fails(checks.check_trap_optimizer, answer, match=match)


EVAL = {"a": True, "b": False, "c": False, "d": True}


def test_trap_eval(checks: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_trap_eval, EVAL, capsys=capsys)


@pytest.mark.parametrize(("answer", "match"), [
    ({**EVAL, "a": False}, "does it tell autograd"),                   # "eval() stops gradients"
    ({**EVAL, "d": False}, "still in training mode"),                  # "no_grad() is inference mode"
    ({**EVAL, "c": True}, "passes everything through"),
    ({**EVAL, "b": "no"}, "True or False"),
])
def test_trap_eval_wrong(checks: ModuleType, answer: Any, match: str) -> None:
    fails(checks.check_trap_eval, answer, match=match)


KINKS = {"relu": 0.0, "abs": 0.0, "sqrt": float("inf"), "max": [0.5, 0.5, 0.0]}


def test_trap_kinks(checks: ModuleType, lib: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_trap_kinks, KINKS, capsys=capsys)
    t = lib.tensor([2.0, 2.0, 1.0], requires_grad=True)
    t.max().backward()
    passes(checks.check_trap_kinks, {**KINKS, "max": t.grad}, capsys=capsys)


@pytest.mark.parametrize(("answer", "match"), [
    ({**KINKS, "relu": 0.5}, "subgradient 0"),
    ({**KINKS, "abs": float("nan")}, "never answers 'undefined'"),
    ({**KINKS, "sqrt": 0.0}, "1 / 0"),
    ({**KINKS, "max": [1.0, 0.0, 0.0]}, "max\\(dim=...\\)"),
    ({**KINKS, "max": [1.0, 1.0, 0.0]}, "split"),
])
def test_trap_kinks_wrong(checks: ModuleType, answer: Any, match: str) -> None:
    fails(checks.check_trap_kinks, answer, match=match)


def test_trap_broadcast(checks: ModuleType, lib: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    b = lib.zeros(2, requires_grad=True)
    (lib.ones(5, 3) @ lib.ones(3, 2, requires_grad=True) + b).sum().backward()
    passes(checks.check_trap_broadcast, b.grad, capsys=capsys)


@pytest.mark.parametrize(("answer", "match"), [
    ([1.0, 1.0], "each of the 5 rows"),
    ([3.0, 3.0], "W's entries"),
    (np.ones((5, 2)).tolist(), "b's shape"),
    ([5.0, 4.0], "not right yet"),
])
def test_trap_broadcast_wrong(checks: ModuleType, answer: Any, match: str) -> None:
    fails(checks.check_trap_broadcast, answer, match=match)
