"""1-d pooling, InstanceNorm and RMSNorm against PyTorch: values, gradients, graphs, reprs, running stats, errors."""

from __future__ import annotations

import numpy as np
import pytest
from nn_graphs import graph

import minigrad

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

RNG = np.random.default_rng(0)


def both(fn, *shapes):
    arrays = [RNG.standard_normal(s).astype(np.float32) for s in shapes]
    out = []
    for lib in (minigrad, torch):
        xs = [lib.tensor(a, requires_grad=True) for a in arrays]
        try:
            y = fn(lib, *xs)
        except Exception as e:
            out.append((type(e).__name__, str(e)))
            continue
        y = y[0] if isinstance(y, tuple) else y
        w = lib.tensor(np.arange(y.numel(), dtype=np.float32).reshape(tuple(y.shape)) % 5)
        (y * w).sum().backward()
        out.append((graph(y), y.detach().numpy().copy(), [x.grad.numpy().copy() for x in xs]))
    return out


def check(ours, theirs):
    if isinstance(theirs[0], str):
        assert ours == theirs
        return
    assert ours[0] == theirs[0]
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-5, atol=1e-5)
    for a, b in zip(ours[2], theirs[2], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


POOLS = [
    (lambda lib, x: lib.nn.functional.max_pool1d(x, 2), (2, 3, 7)),
    (lambda lib, x: lib.nn.functional.max_pool1d(x, 3, 2, 1, ceil_mode=True), (2, 3, 8)),
    (lambda lib, x: lib.nn.functional.max_pool1d(x, 2, 1, dilation=2), (3, 7)),
    (lambda lib, x: lib.nn.functional.max_pool1d(x, (2,), return_indices=True)[1].float() + x[..., :3], (1, 2, 6)),
    (lambda lib, x: lib.nn.functional.avg_pool1d(x, 3), (2, 3, 7)),
    (lambda lib, x: lib.nn.functional.avg_pool1d(x, 3, 2, 1, True, False), (2, 3, 8)),
    (lambda lib, x: lib.nn.functional.adaptive_avg_pool1d(x, 3), (2, 3, 7)),
    (lambda lib, x: lib.nn.functional.adaptive_avg_pool1d(x, 1), (3, 7)),
    (lambda lib, x: lib.nn.MaxPool1d(3, 2)(x), (2, 3, 7)),
    (lambda lib, x: lib.nn.AvgPool1d(2, padding=1)(x), (2, 3, 7)),
    (lambda lib, x: lib.nn.AdaptiveAvgPool1d(4)(x), (2, 3, 9)),
    # errors
    (lambda lib, x: lib.nn.functional.max_pool1d(x, 2), (5,)),
    (lambda lib, x: lib.nn.functional.max_pool1d(x.detach(), (2, 2)), (1, 2, 5)),
    (lambda lib, x: lib.nn.functional.max_pool1d(x.detach(), 2, 0), (1, 2, 5)),
    (lambda lib, x: lib.nn.functional.max_pool1d(x.detach(), 6), (1, 2, 5)),
    (lambda lib, x: lib.nn.functional.max_pool1d(x.detach(), 2, padding=2), (1, 2, 5)),
    (lambda lib, x: lib.nn.functional.avg_pool1d(x, 2), (5,)),
    (lambda lib, x: lib.nn.functional.avg_pool1d(x, (2, 2)), (1, 2, 5)),
    (lambda lib, x: lib.nn.functional.avg_pool1d(x, 6), (1, 2, 5)),
    (lambda lib, x: lib.nn.functional.avg_pool1d(x, 2, padding=2), (1, 2, 5)),
    (lambda lib, x: lib.nn.functional.adaptive_avg_pool1d(x, 2), (5,)),
    (lambda lib, x: lib.nn.functional.adaptive_avg_pool1d(x, (2, 2)), (1, 2, 5)),
]


@pytest.mark.parametrize(("fn", "shape"), POOLS)
def test_pool1d_matches_pytorch(fn, shape):
    check(*both(fn, shape))


@pytest.mark.parametrize("args", [(2,), (3, 1, 1, 2, True, True), ((2,),)])
def test_pool1d_reprs(args):
    for name in ("MaxPool1d", "AvgPool1d"):
        a = args[:5] if name == "AvgPool1d" else args
        assert repr(getattr(minigrad.nn, name)(*a)) == repr(getattr(torch.nn, name)(*a))
    assert repr(minigrad.nn.AdaptiveAvgPool1d(args[0])) == repr(torch.nn.AdaptiveAvgPool1d(args[0]))


NORMS = [
    (lambda lib, x: lib.nn.functional.instance_norm(x), (2, 3, 5)),
    (lambda lib, x: lib.nn.functional.instance_norm(x, eps=1e-3), (2, 3, 4, 4)),
    (lambda lib, x, w, b: lib.nn.functional.instance_norm(x, weight=w, bias=b), (2, 3, 5), (3,), (3,)),
    (lambda lib, x: lib.nn.functional.instance_norm(x), (2, 3, 1)),
    (lambda lib, x: lib.nn.functional.rms_norm(x, (5,)), (2, 3, 5)),
    (lambda lib, x, w: lib.nn.functional.rms_norm(x, (3, 5), w, 1e-3), (2, 3, 5), (3, 5)),
    (lambda lib, x: lib.nn.functional.rms_norm(x, (4,)), (2, 3, 5)),
    (lambda lib, x, w: lib.nn.functional.rms_norm(x, (5,), w), (2, 3, 5), (4,)),
    (lambda lib, x: lib.nn.RMSNorm([3, 5])(x), (2, 3, 5)),
    (lambda lib, x: lib.nn.RMSNorm(5, eps=1e-2, elementwise_affine=False)(x), (2, 3, 5)),
]


@pytest.mark.parametrize("case", NORMS)
def test_norms_match_pytorch(case):
    fn, *shapes = case
    check(*both(fn, *shapes))


@pytest.mark.parametrize("name", ["InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d"])
@pytest.mark.parametrize("kw", [{}, {"affine": True}, {"track_running_stats": True, "momentum": 0.3},
                                {"affine": True, "track_running_stats": True, "eps": 1e-3}])
@pytest.mark.parametrize("batched", [True, False])
def test_instance_norm_layers(name, kw, batched):
    spatial = {"InstanceNorm1d": (5,), "InstanceNorm2d": (4, 3), "InstanceNorm3d": (2, 3, 2)}[name]
    shape = ((2,) if batched else ()) + (3, *spatial)
    a = RNG.standard_normal(shape).astype(np.float32)
    results = []
    for lib in (minigrad, torch):
        m = getattr(lib.nn, name)(3, **kw)
        x = lib.tensor(a, requires_grad=True)
        y = m(x)
        (y * y).sum().backward()
        m.eval()
        z = m(x)
        results.append((repr(m), list(m.state_dict()), graph(y), y.detach().numpy(), x.grad.numpy(),
                        z.detach().numpy(), [v.numpy().copy() for v in m.state_dict().values()]))
    ours, theirs = results
    assert ours[:3] == theirs[:3]
    for p, q in zip(ours[3:6], theirs[3:6], strict=True):
        np.testing.assert_allclose(p, q, rtol=1e-4, atol=1e-5)
    for p, q in zip(ours[6], theirs[6], strict=True):
        np.testing.assert_allclose(p, q, rtol=1e-5, atol=1e-6)


def test_instance_norm_errors_and_warning():
    for lib in (minigrad, torch):
        with pytest.raises(ValueError, match=r"expected 3D or 4D input \(got 2D input\)"):
            lib.nn.InstanceNorm2d(3)(lib.randn(3, 4))
        with pytest.raises(ValueError, match=r"expected input's size at dim=1 to match num_features \(3\), but got: 4"):
            lib.nn.InstanceNorm1d(3, affine=True)(lib.randn(2, 4, 5))
        with pytest.warns(UserWarning, match="input's size at dim=1 does not match num_features"):
            lib.nn.InstanceNorm1d(3)(lib.randn(2, 4, 5))
    assert repr(minigrad.nn.RMSNorm((2, 3), 1e-4)) == repr(torch.nn.RMSNorm((2, 3), 1e-4))
    assert list(minigrad.nn.RMSNorm(3).state_dict()) == list(torch.nn.RMSNorm(3).state_dict())
