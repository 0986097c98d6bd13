"""nn4: F.adaptive_max_pool1d/2d and nn.AdaptiveMaxPool1d/2d against PyTorch (values, indices with ties and
NaN, gradients, graph, create_graph node, reprs, errors)."""

from __future__ import annotations

import numpy as np
import pytest
from nn_graphs import graph

import minigrad

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

CASES = [
    ("2d", (2, 3, 5, 7), (3, 4)), ("2d", (3, 5, 7), (2, None)), ("2d", (2, 3, 6, 6), 3), ("2d", (1, 1, 4, 4), (1, 1)),
    ("2d", (1, 2, 3, 3), (5, 4)), ("2d", (2, 1, 4, 5), (None, 2)), ("1d", (2, 3, 5), 3), ("1d", (3, 7), (4,)),
    ("1d", (2, 2, 9), 9),
]


def _run(lib, kind, shape, size, dtype, ties):
    rng = np.random.default_rng(0)
    data = rng.integers(0, 4, shape).astype(np.float64) if ties else rng.standard_normal(shape)
    x = lib.tensor(data, dtype=getattr(lib, dtype), requires_grad=True)
    y, i = getattr(lib.nn.functional, "adaptive_max_pool" + kind)(x, size, return_indices=True)
    (g,) = lib.autograd.grad((y * y * y).sum(), x, create_graph=True)
    (gg,) = lib.autograd.grad((g * g).sum(), x)
    return y, i, g, gg, graph(y), graph(g)


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(("kind", "shape", "size"), CASES, ids=range(len(CASES)))
def test_adaptive_max_pool_matches_pytorch(kind, shape, size, dtype, ties):
    ours, theirs = _run(minigrad, kind, shape, size, dtype, ties), _run(torch, kind, shape, size, dtype, ties)
    assert ours[4:] == theirs[4:]
    assert ours[1].dtype == minigrad.int64
    for a, b in zip(ours[:4], theirs[:4]):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-6, atol=1e-6)


def test_saved_values_nan_and_gradcheck():
    x = np.random.default_rng(1).standard_normal((2, 3, 4, 5))
    res = []
    for lib in (minigrad, torch):
        y, i = lib.nn.functional.adaptive_max_pool2d(lib.tensor(x, requires_grad=True), (2, 3), return_indices=True)
        res.append((sorted(a for a in dir(y.grad_fn) if a.startswith("_saved")), y.grad_fn._saved_result1.numpy(),
                    i.numpy()))
        nan = lib.tensor([[[1.0, float("nan"), 3.0, float("nan"), 2.0]]])
        res.append(lib.nn.functional.adaptive_max_pool1d(nan, 2, True)[1].numpy())
    assert res[0][0] == res[2][0]
    np.testing.assert_array_equal(res[0][1], res[2][1])
    np.testing.assert_array_equal(res[1], res[3])
    from minigrad.autograd import gradcheck, gradgradcheck

    t = minigrad.tensor(x, requires_grad=True)
    assert gradcheck(lambda t: minigrad.nn.functional.adaptive_max_pool2d(t, (3, 2)), (t,))
    assert gradgradcheck(lambda t: minigrad.nn.functional.adaptive_max_pool2d(t, (3, 2)), (t,))


def test_modules_match_pytorch():
    x = np.random.default_rng(2).standard_normal((2, 3, 6, 5)).astype(np.float32)
    for build, inp in ((lambda nn: nn.AdaptiveMaxPool2d((3, None)), x), (lambda nn: nn.AdaptiveMaxPool2d(2, True), x),
                       (lambda nn: nn.AdaptiveMaxPool1d(3), x[0]), (lambda nn: nn.AdaptiveMaxPool1d(4, True), x[0])):
        m, t = build(minigrad.nn), build(torch.nn)
        assert repr(m) == repr(t)
        assert m.return_indices == t.return_indices
        ours, theirs = m(minigrad.tensor(inp)), t(torch.tensor(inp))
        if t.return_indices:
            np.testing.assert_array_equal(ours[1].numpy(), theirs[1].numpy())
            ours, theirs = ours[0], theirs[0]
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


ERRORS = [("2d", (2, 3), 3), ("2d", (2, 3, 0, 4), (1, 2)), ("2d", (2, 3, 4, 4), (1, 2, 3)), ("1d", (2, 3, 4, 4), 3),
          ("1d", (3,), 2), ("1d", (2, 3, 4), (1, 2))]


@pytest.mark.parametrize(("kind", "shape", "size"), ERRORS, ids=range(len(ERRORS)))
def test_errors_match_pytorch(kind, shape, size):
    with pytest.raises(Exception) as theirs:  # noqa: PT011 - whatever PyTorch raises, minigrad must too
        getattr(torch.nn.functional, "adaptive_max_pool" + kind)(torch.ones(shape), size)
    with pytest.raises(type(theirs.value)) as ours:
        getattr(minigrad.nn.functional, "adaptive_max_pool" + kind)(minigrad.ones(shape), size)
    assert str(ours.value) == str(theirs.value)
