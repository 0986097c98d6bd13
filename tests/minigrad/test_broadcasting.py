"""Broadcasting: each operand's gradient is summed back to that operand's shape (NOTE [broadcast]).

The reference without PyTorch: run the op on operands expanded to the broadcast shape by hand
(no broadcasting left for the engine to undo), then sum their gradients down with numpy. With
PyTorch installed, the same programs are compared with it too.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad

OPS = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / (b * b + 1),
    "pow": lambda a, b: (a * a + 1) ** b,
    "maximum": lambda a, b: a.maximum(b * 0.5 + 0.25),  # ties only on a measure-zero set
    "where": lambda a, b: minigrad_or_torch(a).where(a > b, a * 2, b * 3),
    "chain": lambda a, b: ((a * b).exp() - a / (1 + b * b)).tanh() + b,
}

TRIPLE = {
    "a*b+c": lambda a, b, c: a * b + c,
    "where(a>0, b, c)": lambda a, b, c: minigrad_or_torch(a).where(a > 0, b, c),
    "addcmul-like": lambda a, b, c: a + 0.5 * b * c,
}


def minigrad_or_torch(t):
    import sys

    return sys.modules[type(t).__module__.split(".")[0]]


FLOATS = st.floats(-2, 2, allow_subnormal=False)


def shapes_of(n):
    return hnp.mutually_broadcastable_shapes(num_shapes=n, min_dims=0, max_dims=4, max_side=3)


def sum_to(grad, shape):
    """numpy: sum a broadcast gradient down to ``shape`` (an independent re-statement of _sum_to)."""
    lead = grad.ndim - len(shape)
    grad = grad.sum(axis=tuple(range(lead)))
    return grad.sum(axis=tuple(i for i, s in enumerate(shape) if s == 1), keepdims=True).reshape(shape)


def run(module, fn, arrays, seed):
    leaves = [module.tensor(a, dtype=module.float64, requires_grad=True) for a in arrays]
    out = fn(*leaves)
    out.backward(module.tensor(seed, dtype=module.float64))
    return out.detach().numpy(), [None if t.grad is None else t.grad.numpy() for t in leaves]


def draw_inputs(data, n):
    bshapes = data.draw(shapes_of(n), label="shapes")
    arrays = [
        data.draw(hnp.arrays(np.float64, s, elements=FLOATS), label="operand %d" % i)
        for i, s in enumerate(bshapes.input_shapes)
    ]
    seed = data.draw(hnp.arrays(np.float64, bshapes.result_shape, elements=FLOATS), label="seed")
    return bshapes, arrays, seed


def expanded_reference(fn, arrays, shape, seed):
    """Gradients w.r.t. operands already expanded to ``shape``, summed back with numpy."""
    full = [np.array(np.broadcast_to(a, shape)) for a in arrays]
    _, grads = run(minigrad, fn, full, seed)
    return [None if g is None else sum_to(g, a.shape) for g, a in zip(grads, arrays)]


@pytest.mark.parametrize("name", sorted(OPS))
@settings(max_examples=25)
@given(data=st.data())
def test_binary_grads_are_summed_to_each_operand(name, data):
    bshapes, arrays, seed = draw_inputs(data, 2)
    out, grads = run(minigrad, OPS[name], arrays, seed)
    assert out.shape == bshapes.result_shape
    for g, a in zip(grads, arrays):
        assert g.shape == a.shape
        assert g.dtype == np.float64
    for g, ref in zip(grads, expanded_reference(OPS[name], arrays, bshapes.result_shape, seed)):
        np.testing.assert_allclose(g, ref, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", sorted(TRIPLE))
@settings(max_examples=20)
@given(data=st.data())
def test_three_operands(name, data):
    bshapes, arrays, seed = draw_inputs(data, 3)
    _, grads = run(minigrad, TRIPLE[name], arrays, seed)
    for g, ref in zip(grads, expanded_reference(TRIPLE[name], arrays, bshapes.result_shape, seed)):
        assert (g is None) == (ref is None)  # where's condition gets no gradient at all
        if g is not None:
            assert g.shape == ref.shape
            np.testing.assert_allclose(g, ref, rtol=1e-10, atol=1e-12)


@settings(max_examples=25)
@given(shapes=hnp.broadcastable_shapes(shape=(2, 3, 4), min_dims=0, max_dims=3), data=st.data())
def test_inplace_add_broadcasts_the_other_operand(shapes, data):
    """``y += b`` with a smaller ``b``: b's gradient is summed to its shape, y keeps its own."""
    a = data.draw(hnp.arrays(np.float64, (2, 3, 4), elements=FLOATS))
    b = data.draw(hnp.arrays(np.float64, shapes, elements=FLOATS))
    x, w = (minigrad.tensor(v, dtype=minigrad.float64, requires_grad=True) for v in (a, b))
    y = x * 2
    y += w
    (y * y).sum().backward()
    g = 2 * (2 * a + b)
    np.testing.assert_allclose(x.grad.numpy(), 2 * g, rtol=1e-12)
    np.testing.assert_allclose(w.grad.numpy(), sum_to(g, b.shape), rtol=1e-12)


def test_mismatch_names_both_sizes():
    with pytest.raises(
        RuntimeError,
        match=r"The size of tensor a \(3\) must match the size of tensor b \(4\) "
        r"at non-singleton dimension 1",
    ):
        minigrad.ones(2, 3) + minigrad.ones(4)


@pytest.mark.torch
@pytest.mark.parametrize("name", sorted(OPS) + sorted(TRIPLE))
@settings(max_examples=10)
@given(data=st.data())
def test_matches_torch(name, data):
    torch = pytest.importorskip("torch")
    fn, n = (OPS[name], 2) if name in OPS else (TRIPLE[name], 3)
    _, arrays, seed = draw_inputs(data, n)
    ours, theirs = run(minigrad, fn, arrays, seed), run(torch, fn, arrays, seed)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-10, atol=1e-12)
    for g, h in zip(ours[1], theirs[1]):
        assert (g is None) == (h is None)
        if g is not None:
            assert g.shape == h.shape
            np.testing.assert_allclose(g, h, rtol=1e-9, atol=1e-12)
