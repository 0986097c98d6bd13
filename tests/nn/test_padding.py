"""F.pad's reflect / replicate / circular modes and the padding layers against PyTorch: values, gradients,
the recorded graph (``ReflectionPad2DBackward0``..., ``CopySlices`` for circular), reprs and errors."""

from __future__ import annotations

import numpy as np
import pytest
from nn_graphs import graph

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

RNG = np.random.default_rng(0)


def both(fn, shape):
    """``fn(lib, x)`` on both libraries: (graph, value, grad) or (error type, message)."""
    a = RNG.standard_normal(shape).astype(np.float32)
    out = []
    for lib in (minigrad, torch):
        x = lib.tensor(a, requires_grad=True)
        try:
            y = fn(lib, x)
        except Exception as e:
            out.append((type(e).__name__, str(e)))
            continue
        w = lib.tensor(np.arange(y.numel(), dtype=np.float32).reshape(tuple(y.shape)) % 7)
        (y * w).sum().backward()
        out.append((graph(y), y.detach().numpy().copy(), x.grad.numpy().copy()))
    return out


SHAPES_AND_PADS = [
    ((2, 5), (2, 1)), ((1, 2, 5), (2, 1)), ((1, 2, 5), (-1, 2)), ((3, 4, 5), (1, 2, 0, 3)),
    ((1, 3, 4, 5), (1, 2, 3, 1)), ((1, 3, 4, 4, 5), (1, 2, 0, 1, 2, 1)), ((2, 3, 4, 4), (1, 1, 1, 1, 1, 1)),
    ((1, 3, 4, 5), (-1, 2, 1, -2)),
]
BAD = [
    ((1, 2, 5), (5, 1)), ((1, 2, 5), (6, 1)), ((5,), (1, 1)), ((1, 2, 5), (-6, 1)), ((1, 2, 3, 3), (3, 0, 1, 1)),
    ((1, 2, 3, 3), (0, 0, 3, 1)), ((1, 2, 5), (1, 1, 1)), ((2, 0, 5), (1, 1)), ((1, 2, 3, 3), (-2, -2, 1, 0)),
    ((1, 2, 3, 3, 3), (-2, -2, 0, 0, 0, 0)), ((1, 2, 5), (1, 1, 1, 1, 1, 1, 1, 1)), ((2, 3, 2, 2, 2, 2), (1, 1)),
    ((1, 2, 5), (1, 1, 1, 1, 1, 1)),
]


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
@pytest.mark.parametrize(("shape", "pad"), SHAPES_AND_PADS + BAD)
def test_pad_modes_match_pytorch(mode, shape, pad):
    ours, theirs = both(lambda lib, x: lib.nn.functional.pad(x, pad, mode=mode), shape)
    if isinstance(theirs[0], str):
        assert ours == theirs
        return
    assert ours[0] == theirs[0]
    np.testing.assert_allclose(ours[1], theirs[1])
    np.testing.assert_allclose(ours[2], theirs[2])


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular", "wrap"])
def test_pad_value_and_mode_errors(mode):
    ours, theirs = both(lambda lib, x: lib.nn.functional.pad(x, (1, 1), mode=mode, value=1.0), (1, 2, 3))
    assert ours == theirs


@pytest.mark.parametrize("mode", ["reflect", "replicate"])
@pytest.mark.parametrize(("shape", "pad"), [((2, 5), (2, 1)), ((1, 4, 4), (1, 2, 3, 0)),
                                            ((1, 3, 3, 4), (1, 1, 2, 0, 1, 2)), ((1, 2, 5), (-1, 2))])
def test_pad_gradcheck_and_double_backward_node(mode, shape, pad):
    x = minigrad.randn(*shape, dtype=minigrad.float64, requires_grad=True)

    def f(x):
        return minigrad.nn.functional.pad(x, pad, mode=mode)

    assert gradcheck(f, (x,))
    assert gradgradcheck(f, (x,))
    results = []
    for lib in (minigrad, torch):
        t = lib.tensor(x.detach().numpy(), requires_grad=True)
        y = lib.nn.functional.pad(t, pad, mode=mode)
        (g,) = lib.autograd.grad(y, t, lib.ones_like(y, requires_grad=True), create_graph=True)
        saved = tuple(v - 2**64 if v >= 2**63 else v for v in y.grad_fn._saved_padding)   # (PyTorch shows
        results.append((type(y.grad_fn).__name__, saved, graph(g)))                    # -1 as 2**64 - 1)
    assert results[0] == results[1]


LAYERS = [
    ("ZeroPad1d", (2,), (1, 2, 4)), ("ZeroPad2d", ((1, 0, 2, 1),), (1, 2, 3, 4)), ("ZeroPad3d", (1,), (1, 2, 2, 3, 4)),
    ("ConstantPad1d", ((1, 2), 3.5), (2, 4)), ("ConstantPad2d", (1, -1.0), (1, 2, 3, 4)),
    ("ConstantPad3d", ((1, 0, 0, 1, 1, 0), 2), (2, 2, 3, 4)),
    ("ReflectionPad1d", (2,), (1, 2, 4)), ("ReflectionPad2d", ((1, 0, 2, 1),), (2, 3, 4)),
    ("ReflectionPad3d", (1,), (1, 2, 2, 3, 4)), ("ReplicationPad1d", ((3, 1),), (2, 4)),
    ("ReplicationPad2d", (2,), (1, 2, 3, 4)), ("ReplicationPad3d", ((1, 0, 0, 1, 1, 0),), (2, 2, 3, 4)),
    ("CircularPad1d", (2,), (1, 2, 4)), ("CircularPad2d", ((1, 0, 2, 1),), (1, 2, 3, 4)),
    ("CircularPad3d", (1,), (1, 2, 2, 3, 4)), ("CircularPad2d", (1,), (4, 4)),
]


@pytest.mark.parametrize(("name", "args", "shape"), LAYERS)
def test_padding_layers_match_pytorch(name, args, shape):
    assert repr(getattr(minigrad.nn, name)(*args)) == repr(getattr(torch.nn, name)(*args))
    ours, theirs = both(lambda lib, x: getattr(lib.nn, name)(*args)(x), shape)
    if isinstance(theirs[0], str):
        assert ours == theirs
        return
    assert ours[0] == theirs[0]
    np.testing.assert_allclose(ours[1], theirs[1])
    np.testing.assert_allclose(ours[2], theirs[2])
