"""LayerNorm and BatchNorm1d against PyTorch: values, grads, graphs, buffers, train/eval, errors."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad
import minigrad.nn.functional as F
from minigrad import nn
from minigrad.autograd import gradcheck, gradgradcheck

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

RNG = np.random.default_rng(0)


def leaf(shape, lib=minigrad, data=None):
    data = RNG.standard_normal(shape) if data is None else data
    return lib.tensor(data, dtype=lib.float64, requires_grad=True)


def edges(out):
    return [type(f).__name__ if f is not None else None for f, _ in out.grad_fn.next_functions]


# -- gradcheck (float64) ------------------------------------------------------------------------


@pytest.mark.parametrize("affine", [True, False])
@pytest.mark.parametrize(("shape", "normalized"), [((3, 4), (4,)), ((2, 3, 4), (3, 4)), ((5,), (5,))])
def test_layer_norm_gradcheck(affine, shape, normalized):
    inputs = [leaf(shape)]
    if affine:
        inputs += [leaf(normalized), leaf(normalized)]
    fn = lambda x, *wb: F.layer_norm(x, normalized, *wb)  # noqa: E731
    assert gradcheck(fn, tuple(inputs))
    assert gradgradcheck(fn, tuple(inputs))


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("affine", [True, False])
@pytest.mark.parametrize("shape", [(4, 3), (3, 3, 2)])
def test_batch_norm_gradcheck(training, affine, shape):
    inputs = [leaf(shape)]
    if affine:
        inputs += [leaf(3), leaf(3)]
    mean, var = minigrad.zeros(3, dtype=minigrad.float64), minigrad.full((3,), 2.0, dtype=minigrad.float64)

    def fn(x, *wb):
        # fresh buffers each call: the running update must not change what gradcheck measures
        return F.batch_norm(x, mean.clone(), var.clone(), *wb, training=training)

    assert gradcheck(fn, tuple(inputs))
    assert gradgradcheck(fn, tuple(inputs))


# -- parity with PyTorch ----------------------------------------------------------------------


def run_both(make_layer, x_np, train=True):
    """Forward + backward of the same layer in both libraries; returns both results."""
    out = []
    for lib in (minigrad, torch):
        layer = make_layer(lib)
        layer.train(train)
        x = lib.tensor(x_np, requires_grad=True)
        y = layer(x)
        (y.sin() * lib.arange(y.numel()).reshape(y.shape)).sum().backward()
        out.append(
            {
                "name": y.grad_fn.name(),
                "edges": edges(y),
                "y": y.detach().numpy(),
                "x_grad": x.grad.numpy(),
                "grads": {k: p.grad.numpy() for k, p in layer.named_parameters()},
                "state": {k: v.numpy() for k, v in layer.state_dict().items()},
                "dtypes": {k: str(v.dtype) for k, v in layer.state_dict().items()},
                "repr": repr(layer),
            }
        )
    return out


def assert_same(ours, theirs):
    for key in ("name", "edges", "repr", "dtypes"):
        assert ours[key] == theirs[key], key
    assert list(ours["state"]) == list(theirs["state"])
    assert list(ours["grads"]) == list(theirs["grads"])
    np.testing.assert_allclose(ours["y"], theirs["y"], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(ours["x_grad"], theirs["x_grad"], rtol=1e-4, atol=1e-4)
    for k in ours["grads"]:
        np.testing.assert_allclose(ours["grads"][k], theirs["grads"][k], rtol=1e-4, atol=1e-4)
    for k in ours["state"]:
        np.testing.assert_allclose(ours["state"][k], theirs["state"][k], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    "kwargs", [{}, {"elementwise_affine": False}, {"bias": False}, {"eps": 1e-3}], ids=str
)
@pytest.mark.parametrize(("shape", "normalized"), [((3, 4), 4), ((2, 3, 4), (3, 4))])
def test_layer_norm_matches_pytorch(kwargs, shape, normalized):
    x_np = RNG.standard_normal(shape).astype(np.float32)
    ours, theirs = run_both(lambda lib: lib.nn.LayerNorm(normalized, **kwargs), x_np)
    assert ours["name"] == "NativeLayerNormBackward0"
    assert_same(ours, theirs)


@pytest.mark.parametrize("train", [True, False])
@pytest.mark.parametrize(
    "kwargs",
    [{}, {"affine": False}, {"bias": False}, {"momentum": None}, {"track_running_stats": False}, {"eps": 1e-3}],
    ids=str,
)
@pytest.mark.parametrize("shape", [(5, 4), (3, 4, 2)])
def test_batch_norm_matches_pytorch(train, kwargs, shape):
    x_np = (RNG.standard_normal(shape) * 2 + 1).astype(np.float32)
    ours, theirs = run_both(lambda lib: lib.nn.BatchNorm1d(4, **kwargs), x_np, train=train)
    assert ours["name"] == "NativeBatchNormBackward0"
    assert_same(ours, theirs)


def test_layer_norm_node_edges_point_at_input_weight_bias():
    ln = nn.LayerNorm(4)
    x = minigrad.randn(3, 4, requires_grad=True)
    (e_x, _), (e_w, _), (e_b, _) = ln(x).grad_fn.next_functions
    assert (e_x.variable, e_w.variable, e_b.variable) == (x, ln.weight, ln.bias)
    assert edges(F.layer_norm(x, (4,))) == ["AccumulateGrad", None, None]


def test_batch_norm_node_edges_point_at_input_weight_bias():
    bn = nn.BatchNorm1d(4)
    x = minigrad.randn(3, 4, requires_grad=True)
    (e_x, _), (e_w, _), (e_b, _) = bn(x).grad_fn.next_functions
    assert (e_x.variable, e_w.variable, e_b.variable) == (x, bn.weight, bn.bias)
    assert edges(F.batch_norm(x, None, None, training=True)) == ["AccumulateGrad", None, None]


def test_reprs_match_pytorch():
    for make in (
        lambda lib: lib.nn.LayerNorm(4),
        lambda lib: lib.nn.LayerNorm((2, 3), eps=1e-3, elementwise_affine=False),
        lambda lib: lib.nn.BatchNorm1d(4),
        lambda lib: lib.nn.BatchNorm1d(4, momentum=None, affine=False, track_running_stats=False),
    ):
        assert repr(make(minigrad)) == repr(make(torch))
    assert repr(nn.LayerNorm(4)) == "LayerNorm((4,), eps=1e-05, elementwise_affine=True, bias=True)"


def test_initial_parameters_and_buffers():
    ln, bn = nn.LayerNorm(3), nn.BatchNorm1d(3)
    for p, value in ((ln.weight, 1), (ln.bias, 0), (bn.weight, 1), (bn.bias, 0)):
        assert type(p).__name__ == "Parameter"
        assert p.tolist() == [value] * 3
    assert list(bn.state_dict()) == ["weight", "bias", "running_mean", "running_var", "num_batches_tracked"]
    assert bn.num_batches_tracked.dtype is minigrad.int64
    assert bn.num_batches_tracked.ndim == 0
    assert [name for name, _ in bn.named_buffers()] == ["running_mean", "running_var", "num_batches_tracked"]
    assert list(nn.BatchNorm1d(3, track_running_stats=False).state_dict()) == ["weight", "bias"]


# -- train / eval -------------------------------------------------------------------------------------


def test_running_stats_follow_pytorch_over_several_batches():
    ours, theirs = nn.BatchNorm1d(3, momentum=0.3), torch.nn.BatchNorm1d(3, momentum=0.3)
    for _ in range(3):
        x_np = (RNG.standard_normal((6, 3, 2)) * 3 - 1).astype(np.float32)
        ours(minigrad.tensor(x_np))
        theirs(torch.tensor(x_np))
    for key, value in theirs.state_dict().items():
        np.testing.assert_allclose(ours.state_dict()[key].numpy(), value.numpy(), rtol=1e-5, atol=1e-6)
    assert ours.num_batches_tracked.item() == 3


def test_running_var_uses_the_unbiased_batch_variance():
    bn = nn.BatchNorm1d(1, momentum=1.0)
    bn(minigrad.tensor([[1.0], [3.0]]))
    assert bn.running_mean.tolist() == [2.0]
    assert bn.running_var.tolist() == [2.0]  # biased would be 1.0


def test_eval_uses_running_stats_and_leaves_them_alone():
    bn = nn.BatchNorm1d(2).eval()
    with minigrad.no_grad():
        bn.running_mean.copy_(minigrad.tensor([1.0, -1.0]))
        bn.running_var.copy_(minigrad.tensor([4.0, 0.25]))
    y = bn(minigrad.tensor([[3.0, 0.0]]))  # one sample is fine outside training
    np.testing.assert_allclose(y.detach().numpy(), [[2 / np.sqrt(4 + 1e-5), 1 / np.sqrt(0.25 + 1e-5)]], rtol=1e-6)
    assert bn.num_batches_tracked.item() == 0
    assert bn.running_mean.tolist() == [1.0, -1.0]


def test_training_output_is_standardized_per_channel():
    bn = nn.BatchNorm1d(3)
    y = bn(minigrad.randn(64, 3, 5) * 4 + 2).detach().numpy()
    np.testing.assert_allclose(y.mean((0, 2)), 0, atol=1e-5)
    np.testing.assert_allclose(y.var((0, 2)), 1, atol=1e-3)


def test_running_stats_are_not_recorded():
    bn = nn.BatchNorm1d(2)
    bn(minigrad.randn(4, 2, requires_grad=True))
    assert not bn.running_mean.requires_grad
    assert bn.running_mean.grad_fn is None


# -- errors ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda lib: lib.nn.BatchNorm1d(4)(lib.randn(1, 4)),
        lambda lib: lib.nn.BatchNorm1d(4)(lib.randn(1, 4, 1)),
        lambda lib: lib.nn.BatchNorm1d(4)(lib.randn(4)),
        lambda lib: lib.nn.BatchNorm1d(4)(lib.randn(2, 3)),
        lambda lib: lib.nn.functional.batch_norm(lib.randn(2, 3), None, None),
        lambda lib: lib.nn.LayerNorm(4)(lib.randn(2, 3)),
        lambda lib: lib.nn.functional.layer_norm(lib.randn(3), (2, 3)),
        lambda lib: lib.nn.functional.layer_norm(lib.randn(3), ()),
    ],
    ids=["batch of 1", "batch of 1x1", "1-D", "channels", "eval without stats", "shape", "rank", "empty"],
)
def test_errors_match_pytorch(make):
    with pytest.raises((RuntimeError, ValueError)) as ours:
        make(minigrad)
    with pytest.raises((RuntimeError, ValueError)) as theirs:
        make(torch)
    assert type(ours.value) is type(theirs.value)
    assert str(ours.value) == str(theirs.value)


def test_batch_of_one_error_text():
    expected = "Expected more than 1 value per channel when training, got input size torch.Size([1, 4])"
    with pytest.raises(ValueError, match="more than 1 value") as info:
        nn.BatchNorm1d(4)(minigrad.randn(1, 4))
    assert str(info.value) == expected
