"""nn4: F.interpolate / nn.Upsample against PyTorch: values, gradients, the node and what it saves,
the create_graph node (``...BackwardBackward0``), reprs and errors."""

from __future__ import annotations

import numpy as np
import pytest
from nn_graphs import graph

import minigrad

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

_SAVED = ("_saved_output_size", "_saved_scales", "_saved_scales_d", "_saved_scales_h", "_saved_scales_w",
          "_saved_align_corners", "_saved_self_sym_sizes")

CASES = [
    ("nearest", (1, 2, 3), {"scale_factor": 2}),
    ("nearest", (2, 1, 5), {"size": 3}),
    ("nearest", (1, 2, 3, 4), {"size": (5, 7)}),
    ("nearest", (1, 2, 3, 4), {"scale_factor": 1.7}),
    ("nearest", (1, 2, 3, 3), {"scale_factor": (2, 3)}),
    ("nearest", (1, 1, 3, 4, 2), {"scale_factor": (2, 0.5, 3)}),
    ("nearest-exact", (1, 2, 3, 4), {"size": (5, 3)}),
    ("nearest-exact", (1, 2, 5), {"scale_factor": 0.6}),
    ("nearest-exact", (1, 1, 2, 3, 4), {"size": (3, 5, 2)}),
    ("linear", (1, 2, 3), {"scale_factor": 2.5}),
    ("linear", (1, 2, 3), {"size": 7, "align_corners": True}),
    ("linear", (1, 2, 4), {"size": 1, "align_corners": True}),
    ("bilinear", (2, 2, 3, 4), {"scale_factor": 2}),
    ("bilinear", (2, 2, 5, 4), {"size": (3, 9), "align_corners": True}),
    ("bilinear", (1, 1, 4, 4), {"scale_factor": 0.5}),
    ("bilinear", (1, 1, 3, 4), {"scale_factor": 1.7, "recompute_scale_factor": True}),
    ("bicubic", (1, 2, 3, 4), {"size": (5, 6)}),
    ("bicubic", (1, 2, 4, 4), {"scale_factor": 1.5, "align_corners": True}),
    ("bicubic", (1, 1, 6, 5), {"size": (3, 2)}),
    ("trilinear", (1, 2, 3, 4, 2), {"size": (5, 6, 3)}),
    ("trilinear", (1, 1, 2, 3, 4), {"scale_factor": 2, "align_corners": True}),
    ("area", (1, 2, 6, 4), {"size": (3, 2)}),
    ("area", (1, 2, 6), {"scale_factor": 0.5}),
]


def _run(lib, mode, shape, kw, dtype, rng_seed=0):
    rng = np.random.default_rng(rng_seed)
    x = lib.tensor(rng.standard_normal(shape), dtype=getattr(lib, dtype), requires_grad=True)
    y = lib.nn.functional.interpolate(x, mode=mode, **kw)
    node = y.grad_fn
    saved = {a: getattr(node, a) for a in _SAVED if hasattr(node, a)}
    w = lib.tensor(rng.standard_normal(tuple(y.shape)), dtype=getattr(lib, dtype))
    (y * w).sum().backward()
    return y, x.grad, graph(y), {k: tuple(v) if isinstance(v, (list, tuple)) else v for k, v in saved.items()}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(("mode", "shape", "kw"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_interpolate_matches_pytorch(mode, shape, kw, dtype):
    ours, theirs = _run(minigrad, mode, shape, kw, dtype), _run(torch, mode, shape, kw, dtype)
    assert ours[2] == theirs[2]
    assert ours[3] == theirs[3]
    tol = 1e-5 if dtype == "float32" else 1e-12
    for a, b in zip(ours[:2], theirs[:2]):
        assert tuple(a.shape) == tuple(b.shape)
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=tol, atol=tol)


@pytest.mark.parametrize(("mode", "shape", "kw"), [c for c in CASES if c[0] != "area"],
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES) if c[0] != "area"])
def test_interpolate_create_graph_matches_pytorch(mode, shape, kw):
    def run(lib):
        x = lib.tensor(np.random.default_rng(1).standard_normal(shape), dtype=lib.float64, requires_grad=True)
        y = lib.nn.functional.interpolate(x, mode=mode, **kw)
        (g,) = lib.autograd.grad((y * y).sum(), x, create_graph=True)
        saved = {a: getattr(g.grad_fn, a) for a in _SAVED if hasattr(g.grad_fn, a)}
        (g * g).sum().backward()
        return g, x.grad, graph(g), saved

    ours, theirs = run(minigrad), run(torch)
    assert ours[2] == theirs[2]
    assert ours[3] == theirs[3]
    for a, b in zip(ours[:2], theirs[:2]):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-10, atol=1e-12)


def test_interpolate_gradcheck_and_gradgradcheck():
    from minigrad.autograd import gradcheck, gradgradcheck

    x = minigrad.tensor(np.random.default_rng(2).standard_normal((1, 2, 3, 4)), requires_grad=True)
    for mode in ("nearest", "nearest-exact", "bilinear", "bicubic"):
        assert gradcheck(lambda x, m=mode: minigrad.nn.functional.interpolate(x, size=(5, 3), mode=m), (x,))
        assert gradgradcheck(lambda x, m=mode: minigrad.nn.functional.interpolate(x, size=(5, 3), mode=m), (x,))


def test_upsample_modules_match_pytorch():
    builds = [
        lambda nn: nn.Upsample(scale_factor=2),
        lambda nn: nn.Upsample(size=(3, 4), mode="bilinear", align_corners=True),
        lambda nn: nn.Upsample(scale_factor=(2, 1.5), mode="bicubic"),
        lambda nn: nn.Upsample(size=5, mode="nearest-exact"),
        lambda nn: nn.UpsamplingNearest2d(scale_factor=2),
        lambda nn: nn.UpsamplingBilinear2d(size=(5, 6)),
    ]
    x = np.random.default_rng(3).standard_normal((2, 3, 4, 4)).astype(np.float32)
    for build in builds:
        m, t = build(minigrad.nn), build(torch.nn)
        assert repr(m) == repr(t)
        assert (m.size, m.scale_factor, m.mode, m.align_corners, m.recompute_scale_factor, m.name) == \
            (t.size, t.scale_factor, t.mode, t.align_corners, t.recompute_scale_factor, t.name)
        np.testing.assert_allclose(m(minigrad.tensor(x)).numpy(), t(torch.tensor(x)).numpy(), rtol=1e-5, atol=1e-6)


ERRORS = [
    ((1, 1, 2, 3), {"size": (0, 3)}),
    ((1, 1, 2, 3), {"scale_factor": 0.1}),
    ((1, 1, 3), {"size": 0}),
    ((1, 1, 2, 3, 2), {"size": (1, 0, 2)}),
    ((1, 1, 2, 3), {"size": (2, 3, 4)}),
    ((1, 1, 2, 3), {"scale_factor": (2, 3, 4)}),
    ((1, 1, 2, 3), {"size": (2, 3), "scale_factor": 2}),
    ((1, 1, 2, 3), {}),
    ((1, 1, 2, 3), {"scale_factor": 2, "mode": "linear"}),
    ((1, 1, 2), {"scale_factor": 2, "mode": "bilinear"}),
    ((1, 1, 2, 2, 2), {"scale_factor": 2, "mode": "bilinear"}),
    ((1, 1, 2, 3), {"scale_factor": 2, "mode": "trilinear"}),
    ((1, 1, 2, 3), {"scale_factor": 2, "align_corners": True}),
    ((1, 1, 2, 3), {"size": (2.5, 3)}),
    ((1, 1, 2, 3), {"scale_factor": 2, "mode": "foo"}),
    ((1, 2), {"scale_factor": 2}),
    ((1, 1, 2, 3), {"size": (4, 4), "recompute_scale_factor": True}),
    ((1, 1, 2, 3), {"scale_factor": -1.0}),
    ((1, 1, 2), {"scale_factor": 2, "mode": "bicubic", "antialias": True}),
]


@pytest.mark.parametrize(("shape", "kw"), ERRORS, ids=range(len(ERRORS)))
def test_interpolate_errors_match_pytorch(shape, kw):
    with pytest.raises(Exception) as theirs:  # noqa: PT011 - whatever PyTorch raises, minigrad must too
        torch.nn.functional.interpolate(torch.ones(shape), **kw)
    with pytest.raises(type(theirs.value)) as ours:
        minigrad.nn.functional.interpolate(minigrad.ones(shape), **kw)
    assert str(ours.value) == str(theirs.value)
