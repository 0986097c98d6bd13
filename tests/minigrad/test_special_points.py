"""Gradients at the points where an op is not differentiable follow PyTorch (reference §12)."""

from __future__ import annotations

import math

import pytest


def grad_of(lib, fn, values):
    x = lib.tensor(values, requires_grad=True)
    fn(x).sum().backward()
    return x.grad.tolist()


@pytest.mark.parametrize(
    ("name", "fn", "values", "expected"),
    [
        ("relu", lambda x: x.relu(), [-1.0, 0.0, 1.0], [0.0, 0.0, 1.0]),
        ("abs", lambda x: x.abs(), [-1.0, 0.0, 1.0], [-1.0, 0.0, 1.0]),
        ("sign", lambda x: x.sign(), [1.0], [0.0]),
        ("clamp boundaries", lambda x: x.clamp(0, 1), [-1.0, 0.0, 0.5, 1.0, 2.0], [0.0, 1.0, 1.0, 1.0, 0.0]),
        ("max() ties share", lambda x: x.max(), [1.0, 3.0, 3.0], [0.0, 0.5, 0.5]),
        ("min() ties share", lambda x: x.min(), [2.0, 1.0, 1.0, 5.0], [0.0, 0.5, 0.5, 0.0]),
        ("max(dim) takes the first", lambda x: x.max(dim=0).values, [1.0, 3.0, 3.0], [0.0, 1.0, 0.0]),
        ("sqrt at 0", lambda x: x.sqrt(), [0.0, 4.0], [math.inf, 0.25]),
        ("x ** 0 at 0", lambda x: x**0, [0.0], [0.0]),
        ("norm at 0", lambda x: x.norm(), [0.0, 0.0], [0.0, 0.0]),
        ("std uses n - 1", lambda x: x.std(), [1.0, 2.0, 3.0], [-0.5, 0.0, 0.5]),
        ("log at 0", lambda x: x.log(), [0.0, 1.0], [math.inf, 1.0]),
        ("prod with a zero", lambda x: x.prod(), [2.0, 0.0, 3.0], [0.0, 6.0, 0.0]),
        ("prod with two zeros", lambda x: x.prod(), [0.0, 0.0, 3.0], [0.0, 0.0, 0.0]),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_special_points(lib, name, fn, values, expected):
    assert grad_of(lib, fn, values) == pytest.approx(expected)


def test_maximum_ties_split_the_gradient(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = lib.tensor([1.0, 1.0], requires_grad=True)
    lib.maximum(x, y).sum().backward()
    assert (x.grad.tolist(), y.grad.tolist()) == ([0.5, 1.0], [0.5, 0.0])


def test_where_does_not_mask_a_nan_from_the_other_branch(lib):
    x = lib.tensor([-1.0, 4.0], requires_grad=True)
    lib.where(x > 0, x.sqrt(), lib.zeros_like(x)).sum().backward()
    g = x.grad.tolist()
    assert math.isnan(g[0])
    assert g[1] == 0.25


def test_classic_tutorial(lib):
    x = lib.ones(2, 2, requires_grad=True)
    out = ((x + 2) * (x + 2) * 3).mean()
    assert repr(out) == "tensor(27., grad_fn=<MeanBackward0>)"
    out.backward()
    assert repr(x.grad) == "tensor([[4.5000, 4.5000],\n        [4.5000, 4.5000]])"


def test_relu_backward_gives_exact_zeros_where_it_is_off(lib):
    """Where relu is off the gradient is 0, even an infinite or nan incoming one (not inf * 0 = nan)."""
    x = lib.tensor([-1.0, 0.0, 2.0, -3.0], requires_grad=True)
    x.relu().backward(lib.tensor([math.inf, math.nan, 1.0, -math.inf]))
    assert x.grad.tolist() == [0.0, 0.0, 1.0, 0.0]
