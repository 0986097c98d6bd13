"""nn4: F.pairwise_distance (NormBackward1), F.pdist (PdistBackward0), the triplet losses and their modules,
against PyTorch (values, gradients, graph, saved attrs, reprs, errors)."""

from __future__ import annotations

import numpy as np
import pytest
from nn_graphs import graph

import minigrad

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

CASES = [
    ("pd", (3, 4), {}), ("pd", (4,), {}), ("pd", (3, 4), {"p": 1.0}), ("pd", (3, 4), {"p": 3.0, "keepdim": True}),
    ("pd", (2, 3, 4), {"p": float("inf")}), ("pd", (3, 4), {"p": 0.5, "eps": 0.1}),
    ("pdist", (4, 3), {}), ("pdist", (4, 3), {"p": 1}), ("pdist", (5, 2), {"p": 3}), ("pdist", (2, 3), {"p": 0.5}),
    ("tml", (3, 4), {}), ("tml", (3, 4), {"swap": True, "reduction": "none"}),
    ("tml", (3, 4), {"p": 1, "margin": 0.5, "reduction": "sum"}), ("tml", (4,), {"margin": 2.0}),
    ("twd", (3, 4), {}), ("twd", (3, 4), {"swap": True, "reduction": "sum"}), ("twd", (3, 4), {"distance": "cos"}),
]


def _run(lib, kind, shape, kw, dtype):
    F = lib.nn.functional
    rng = np.random.default_rng(0)
    x, y, z = (lib.tensor(rng.standard_normal(shape), dtype=getattr(lib, dtype), requires_grad=True) for _ in range(3))
    k = dict(kw)
    if k.pop("distance", None) == "cos":
        k["distance_function"] = lambda a, b: 1 - F.cosine_similarity(a, b)
    if kind == "pd":
        out = F.pairwise_distance(x, y, **k)
    elif kind == "pdist":
        out = F.pdist(x, **k)
    elif kind == "tml":
        out = F.triplet_margin_loss(x, y, z, **k)
    else:
        out = F.triplet_margin_with_distance_loss(x, y, z, **k)
    saved = {a: getattr(out.grad_fn, a) for a in ("_saved_p", "_saved_dim", "_saved_keepdim")
             if kind in ("pd", "pdist") and hasattr(out.grad_fn, a)}
    (out * out).sum().backward()
    grads = [t.grad for t in (x, y, z) if t.grad is not None]
    return [out, *grads], graph(out), saved


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(("kind", "shape", "kw"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_distances_match_pytorch(kind, shape, kw, dtype):
    ours, theirs = _run(minigrad, kind, shape, kw, dtype), _run(torch, kind, shape, kw, dtype)
    assert ours[1:] == theirs[1:]
    tol = 1e-5 if dtype == "float32" else 1e-12
    assert len(ours[0]) == len(theirs[0])
    for a, b in zip(ours[0], theirs[0]):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=tol, atol=tol)


def test_pdist_edge_cases_and_gradcheck():
    from minigrad.autograd import gradcheck, gradgradcheck

    for lib in (minigrad, torch):
        assert tuple(lib.nn.functional.pdist(lib.ones(1, 3)).shape) == (0,)
        with pytest.raises(RuntimeError, match="pdist only supports 2D tensors, got: 1D"):
            lib.nn.functional.pdist(lib.ones(3))
    x = minigrad.tensor(np.random.default_rng(1).standard_normal((4, 3)), requires_grad=True)
    for p in (1.0, 2.0, 3.0):
        assert gradcheck(lambda x, p=p: minigrad.nn.functional.pdist(x, p), (x,))
        assert gradgradcheck(lambda x, p=p: minigrad.nn.functional.pdist(x, p), (x,))
    y = minigrad.tensor(np.random.default_rng(2).standard_normal((4, 3)), requires_grad=True)
    assert gradgradcheck(lambda x, y: minigrad.nn.functional.triplet_margin_loss(x, y, 2 * y, swap=True), (x, y))


def test_modules_and_errors_match_pytorch():
    for build in (lambda nn: nn.PairwiseDistance(), lambda nn: nn.PairwiseDistance(p=1.0, keepdim=True),
                  lambda nn: nn.TripletMarginLoss(margin=0.3, swap=True), lambda nn: nn.TripletMarginWithDistanceLoss(),
                  lambda nn: nn.TripletMarginWithDistanceLoss(distance_function=nn.PairwiseDistance(p=1.0))):
        m, t = build(minigrad.nn), build(torch.nn)
        assert repr(m) == repr(t)
        for attr in ("norm", "eps", "keepdim", "margin", "p", "swap", "reduction"):
            assert getattr(m, attr, None) == getattr(t, attr, None), attr
    a = np.random.default_rng(3).standard_normal((3, 4)).astype(np.float32)
    ours = minigrad.nn.TripletMarginLoss()(*(minigrad.tensor(a * k) for k in (1, 2, 3)))
    theirs = torch.nn.TripletMarginLoss()(*(torch.tensor(a * k) for k in (1, 2, 3)))
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)
    calls = [
        lambda lib: lib.nn.functional.triplet_margin_loss(lib.ones(2, 3), lib.ones(3), lib.ones(2, 3)),
        lambda lib: lib.nn.functional.triplet_margin_loss(lib.ones(2, 3), lib.ones(2, 3), lib.ones(2, 3), margin=0),
        lambda lib: lib.nn.functional.triplet_margin_with_distance_loss(lib.ones(2, 3), lib.ones(2, 3),
                                                                        lib.ones(3), margin=1.0),
        lambda lib: lib.nn.functional.triplet_margin_with_distance_loss(lib.ones(2, 3), lib.ones(2, 3),
                                                                        lib.ones(2, 3), reduction="avg"),
        lambda lib: lib.nn.TripletMarginLoss(margin=-1.0),
        lambda lib: lib.nn.TripletMarginWithDistanceLoss(margin=0.0),
        lambda lib: lib.nn.functional.pairwise_distance(lib.ones(3, 4), lib.ones(3, 5)),
    ]
    for call in calls:
        with pytest.raises(Exception) as theirs_err:  # noqa: PT011 - whatever PyTorch raises, minigrad must too
            call(torch)
        with pytest.raises(type(theirs_err.value)) as ours_err:
            call(minigrad)
        assert str(ours_err.value) == str(theirs_err.value)
