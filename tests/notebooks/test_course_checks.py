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
    ({**TABLE, "a": ...}, "still `...`"),
    ({**TABLE, "a": True}, "should be a pair"),
    ([True, False], "should be a dict"),
])
def test_requires_grad_table_wrong(checks: ModuleType, answer: Any, match: str) -> None:
    fails(checks.check_requires_grad_table, answer, match=match)


NAMES = {"x * w": "MulBackward0", "x.exp()": "ExpBackward0", "x.sum()": "SumBackward0",
         "x / 2": "DivBackward0", "w * 2": None}


def test_grad_fn_names(checks: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_grad_fn_names, NAMES, capsys=capsys)


@pytest.mark.parametrize(("answer", "match"), [
    ({**NAMES, "w * 2": "MulBackward0"}, "does anything in it require grad"),
    ({**NAMES, "x / 2": "MulBackward0"}, "'x / 2'"),
    ({**NAMES, "x.sum()": "SumBackward"}, "'x.sum\\(\\)'"),
])
def test_grad_fn_names_wrong(checks: ModuleType, answer: Any, match: str) -> None:
    fails(checks.check_grad_fn_names, answer, match=match)


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
    (lambda t: None, "returned None"),
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
    (..., "still `...`"),
    (None, "is None"),
])
def test_vjp_wrong(checks: ModuleType, answer: Any, match: str) -> None:
    fails(checks.check_vjp, answer, match=match)


JAC = [[2.0, 1.0, 0.0], [0.0, 3.0, 2.0], [3.0, 0.0, 1.0]]


def test_jacobian(checks: ModuleType, lib: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_jacobian, lib.tensor(JAC), capsys=capsys)


@pytest.mark.parametrize(("answer", "match"), [
    (np.array(JAC).T.tolist(), "transpose"),
    ([[2.0, 1.0, 0.0], [0.0, 3.0, 2.0]], "3×3"),
    (np.ones((3, 3)).tolist(), "not right yet"),
])
def test_jacobian_wrong(checks: ModuleType, answer: Any, match: str) -> None:
    fails(checks.check_jacobian, answer, match=match)


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


def test_clip_hook(checks: ModuleType, lib: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_clip_hook, lambda grad: grad.clamp(-1, 1), lib, capsys=capsys)


@pytest.mark.parametrize(("hook", "match"), [
    (lambda grad: None, "must \\*return\\*"),
    (lambda grad: grad.clamp(-2, 2), "not right yet"),
    (lambda grad: grad.clamp(0, 1), "not right yet"),
])
def test_clip_hook_wrong(checks: ModuleType, lib: ModuleType, hook: Any, match: str) -> None:
    fails(checks.check_clip_hook, hook, lib, match=match)


def test_autograd_grad(checks: ModuleType, lib: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    a = lib.tensor(3.0, requires_grad=True)
    b = lib.tensor(4.0, requires_grad=True)
    passes(checks.check_autograd_grad, lib.autograd.grad(a**2 * b, [a, b]), a, capsys=capsys)


def test_autograd_grad_wrong(checks: ModuleType, lib: ModuleType) -> None:
    a = lib.tensor(3.0, requires_grad=True)
    b = lib.tensor(4.0, requires_grad=True)
    fails(checks.check_autograd_grad, lib.autograd.grad(a**2 * b, a), a, match="one gradient per input")
    fails(checks.check_autograd_grad, (lib.tensor(12.0), lib.tensor(9.0)), a, match="dz/da")
    (a**2 * b).backward()
    fails(checks.check_autograd_grad, (a.grad, b.grad), a, match="does not touch .grad")


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


def _sigmoid_grad(lib: ModuleType, factor: float) -> Any:
    x = lib.tensor([0.0, 1.0, -1.0], requires_grad=True)
    (x.sigmoid() * factor).sum().backward()
    return x.grad


def test_inplace_fix(checks: ModuleType, lib: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_inplace_fix, _sigmoid_grad(lib, 2.0), capsys=capsys)


def test_inplace_fix_wrong(checks: ModuleType, lib: ModuleType) -> None:
    fails(checks.check_inplace_fix, _sigmoid_grad(lib, 1.0), match="factor of 2")
    fails(checks.check_inplace_fix, _sigmoid_grad(lib, 4.0), match="not right yet")
    fails(checks.check_inplace_fix, None, match="None")


# ----------------------------------------------------------------- 07 higher-order derivatives


def test_second_derivative(checks: ModuleType, lib: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    x = lib.tensor(1.0, requires_grad=True)
    (d1,) = lib.autograd.grad(x.sin() * x**2, x, create_graph=True)
    (d2,) = lib.autograd.grad(d1, x)
    passes(checks.check_second_derivative, d2, capsys=capsys)


def test_second_derivative_wrong(checks: ModuleType) -> None:
    first = 2 * np.sin(1.0) + np.cos(1.0)
    fails(checks.check_second_derivative, first, match="that is f'\\(1\\)")
    fails(checks.check_second_derivative, 2.0, match="not right yet")


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


def _train_step(lib: ModuleType, zero: bool = True, step: bool = True, loss_fn: Any = None) -> Any:
    F = lib.nn.functional

    def train_step(model: Any, optimizer: Any, xb: Any, yb: Any) -> Any:
        if zero:
            optimizer.zero_grad()
        loss = (loss_fn or F.cross_entropy)(model(xb), yb)
        loss.backward()
        if step:
            optimizer.step()
        return loss

    return train_step


def test_train_step(checks: ModuleType, lib: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_train_step, _train_step(lib), lib, capsys=capsys)


def test_train_step_wrong(checks: ModuleType, lib: ModuleType) -> None:
    fails(checks.check_train_step, _train_step(lib, zero=False), lib, match="accumulated")
    fails(checks.check_train_step, _train_step(lib, step=False), lib, match="optimizer.step")
    fails(checks.check_train_step, _train_step(lib, loss_fn=lambda out, y: out.sum()), lib,
          match="not those of the batch")

    def no_return(model: Any, optimizer: Any, xb: Any, yb: Any) -> None:
        _train_step(lib)(model, optimizer, xb, yb)

    fails(checks.check_train_step, no_return, lib, match="return the loss")


def test_accuracy(checks: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_accuracy, 0.95, capsys=capsys)


@pytest.mark.parametrize(("answer", "match"), [(0.85, "below 0.9"), (95.0, "fraction")])
def test_accuracy_wrong(checks: ModuleType, answer: float, match: str) -> None:
    fails(checks.check_accuracy, answer, match=match)


class _Param:
    def __init__(self, grad: Any) -> None:
        self.grad = None if grad is None else np.asarray(grad, dtype=float)
        self.requires_grad = True


GRADS = [("0.weight", _Param([1e-6, -2e-6])), ("0.bias", _Param([1e-9])),
         ("2.weight", _Param([1e-4, 1e-4])), ("4.weight", _Param([1e-2, -3e-2]))]


def test_vanishing_layer(checks: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_vanishing_layer, "0.weight", GRADS, capsys=capsys)


@pytest.mark.parametrize(("answer", "params", "match"), [
    ("4.weight", GRADS, "not the smallest"),
    ("0.bias", GRADS, "not one of the weights"),
    ("0.weight", [("0.weight", _Param(None))], "no weight has a gradient"),
])
def test_vanishing_layer_wrong(checks: ModuleType, answer: str, params: Any, match: str) -> None:
    fails(checks.check_vanishing_layer, answer, params, match=match)


def test_vanishing_layer_on_a_real_network(checks: ModuleType, lib: ModuleType,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    nn = lib.nn
    lib.manual_seed(0)
    layers: list[Any] = []
    for i in range(5):
        layers += [nn.Linear(8 if i == 0 else 16, 16), nn.Sigmoid()]
    net = nn.Sequential(*layers, nn.Linear(16, 3))
    lib.nn.functional.cross_entropy(net(lib.randn(32, 8)), lib.tensor([0, 1, 2, 0] * 8)).backward()
    passes(checks.check_vanishing_layer, "0.weight", net.named_parameters(), capsys=capsys)


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


def _scaled_square(lib: ModuleType, with_k: bool) -> Any:
    class ScaledSquare(lib.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any, k: float) -> Any:
            ctx.save_for_backward(x)
            ctx.k = k
            return k * x * x

        @staticmethod
        def backward(ctx: Any, grad_output: Any) -> Any:
            (x,) = ctx.saved_tensors
            return grad_output * 2 * (ctx.k if with_k else 1.0) * x, None

    return ScaledSquare


def test_fixed_function(checks: ModuleType, lib: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    passes(checks.check_fixed_function, _scaled_square(lib, with_k=True), lib, capsys=capsys)


def test_fixed_function_wrong(checks: ModuleType, lib: ModuleType) -> None:
    fails(checks.check_fixed_function, _scaled_square(lib, with_k=False), lib, match=re.escape("k = 3.0"))


# ----------------------------------------------------------------- the module itself


def test_a_blanked_answer_asks_to_be_filled_in(checks: ModuleType) -> None:
    for name in checks.__all__:
        check = getattr(checks, name)
        required = [p for p in inspect.signature(check).parameters.values() if p.default is p.empty]
        with pytest.raises(AssertionError, match=re.escape("still `...`")):
            check(..., *[None] * (len(required) - 1))


def test_every_check_is_exported_and_tested(checks: ModuleType) -> None:
    names = {n for n in dir(checks) if n.startswith("check_")}
    assert names == set(checks.__all__)
    tested = {n.removeprefix("test_").removesuffix("_wrong") for n in globals() if n.startswith("test_")}
    assert {n.removeprefix("check_") for n in names} <= tested
