"""Conv2d, MaxPool2d and AvgPool2d against PyTorch: values, gradients, graphs, reprs, errors, gradcheck."""

from __future__ import annotations

import math

import numpy as np
import pytest

import minigrad
from minigrad import nn
from minigrad.autograd import gradcheck, gradgradcheck

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

F, TF = minigrad.nn.functional, torch.nn.functional


def graph(tensor) -> list:
    def walk(node):
        if node is None:
            return None
        return [type(node).__name__, [walk(f) for f, _ in node.next_functions]]

    return walk(tensor.grad_fn)


def pair(*arrays, requires_grad=True):
    """The same float64 arrays as (minigrad tensors, torch tensors)."""
    ours = [minigrad.tensor(a, requires_grad=requires_grad) for a in arrays]
    theirs = [torch.tensor(a, requires_grad=requires_grad) for a in arrays]
    return ours, theirs


def assert_close(ours, theirs, tol=1e-12):
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=tol, atol=tol)


CONV_CASES = {
    "plain": ((2, 3, 7, 8), (4, 3, 3, 2), {}),
    "stride padding dilation groups": ((2, 4, 9, 8), (6, 2, 3, 3), {"stride": 2, "padding": 1, "dilation": 2,
                                                                    "groups": 2}),
    "pair arguments": ((1, 2, 5, 6), (3, 2, 2, 3), {"stride": (2, 1), "padding": (1, 2), "dilation": (1, 2)}),
    "depthwise": ((2, 3, 6, 6), (3, 1, 3, 3), {"groups": 3, "padding": 1}),
    "same odd kernel": ((2, 2, 5, 6), (3, 2, 3, 3), {"padding": "same"}),
    "same even kernel": ((2, 2, 5, 6), (3, 2, 2, 4), {"padding": "same"}),
    "valid": ((2, 2, 5, 6), (3, 2, 3, 3), {"padding": "valid"}),
    "unbatched": ((2, 5, 6), (3, 2, 2, 2), {"padding": 1}),
}


@pytest.mark.filterwarnings("ignore:Using padding='same'")
@pytest.mark.parametrize("name", CONV_CASES)
@pytest.mark.parametrize("bias", [True, False])
def test_conv2d_values_grads_and_graph_match_pytorch(name, bias):
    x_shape, w_shape, kwargs = CONV_CASES[name]
    rng = np.random.default_rng(0)
    arrays = rng.normal(size=x_shape), rng.normal(size=w_shape), rng.normal(size=w_shape[0])
    (x, w, b), (tx, tw, tb) = pair(*arrays)
    y = F.conv2d(x, w, b if bias else None, **kwargs)
    ty = TF.conv2d(tx, tw, tb if bias else None, **kwargs)
    assert tuple(y.shape) == tuple(ty.shape)
    assert_close(y, ty)
    assert graph(y) == graph(ty)
    g = rng.normal(size=tuple(ty.shape))
    y.backward(minigrad.tensor(g))
    ty.backward(torch.tensor(g))
    for ours, theirs in [(x, tx), (w, tw)] + ([(b, tb)] if bias else []):
        assert_close(ours.grad, theirs.grad)
    if not bias:
        assert b.grad is None


def test_conv2d_node_saves_what_pytorch_saves():
    (x, w, b), (tx, tw, tb) = pair(np.ones((1, 2, 5, 5)), np.ones((4, 1, 3, 3)), np.ones(4))
    node = F.conv2d(x, w, b, stride=2, padding=1, groups=2).grad_fn
    tnode = TF.conv2d(tx, tw, tb, stride=2, padding=1, groups=2).grad_fn
    for attr in ("stride", "padding", "dilation", "groups", "transposed", "output_padding", "bias_sym_sizes_opt"):
        assert getattr(node, "_saved_" + attr) == getattr(tnode, "_saved_" + attr), attr
    assert node._saved_input is x
    assert node._saved_weight is w
    no_bias = F.conv2d(x, w, None, groups=2).grad_fn._saved_bias_sym_sizes_opt
    assert no_bias == TF.conv2d(tx, tw, None, groups=2).grad_fn._saved_bias_sym_sizes_opt == (0,)


@pytest.mark.parametrize("bias", [True, False])
def test_conv_transpose2d_node_saves_what_pytorch_saves(bias):
    (x, w, b), (tx, tw, tb) = pair(np.ones((1, 1, 3, 3)), np.ones((1, 2, 2, 2)), np.ones(2))
    node = F.conv_transpose2d(x, w, b if bias else None, stride=2, padding=1, output_padding=1).grad_fn
    tnode = TF.conv_transpose2d(tx, tw, tb if bias else None, stride=2, padding=1, output_padding=1).grad_fn
    assert type(node).__name__ == type(tnode).__name__ == "ConvolutionBackward0"
    for attr in ("stride", "padding", "dilation", "groups", "transposed", "output_padding", "bias_sym_sizes_opt"):
        assert getattr(node, "_saved_" + attr) == getattr(tnode, "_saved_" + attr), attr


def test_conv2d_float32_stays_float32():
    x, w = minigrad.ones(1, 1, 4, 4), minigrad.ones(2, 1, 3, 3, requires_grad=True)
    y = F.conv2d(x, w)
    assert y.dtype == minigrad.float32
    y.sum().backward()
    assert w.grad.dtype == minigrad.float32
    tw = torch.ones(2, 1, 3, 3, requires_grad=True)
    TF.conv2d(torch.ones(1, 1, 4, 4), tw).sum().backward()
    assert w.grad.tolist() == tw.grad.tolist()


def test_conv2d_create_graph_second_derivatives_match_pytorch():
    rng = np.random.default_rng(1)
    (x, w), (tx, tw) = pair(rng.normal(size=(2, 2, 5, 5)), rng.normal(size=(2, 1, 3, 3)))
    results = []
    for lib, f, a, b in [(minigrad, F, x, w), (torch, TF, tx, tw)]:
        y = f.conv2d(a, b, stride=2, padding=1, groups=2)
        gx, gw = lib.autograd.grad((y * y).sum(), (a, b), create_graph=True)
        (gx.pow(2).sum() + gw.pow(2).sum()).backward()
        results.append((a.grad.detach().numpy(), b.grad.detach().numpy()))
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-10)


GRADCHECK = {
    "conv2d": lambda x, w, b: F.conv2d(x, w, b, stride=(2, 1), padding=1, dilation=(1, 2), groups=2),
    "conv2d no bias": lambda x, w, b: F.conv2d(x, w, padding="same"),
    "max_pool2d": lambda x, w, b: F.max_pool2d(x, 3, 2, 1, ceil_mode=True),
    "max_pool2d dilation": lambda x, w, b: F.max_pool2d(x, 2, 1, 0, 2),
    "avg_pool2d": lambda x, w, b: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False),
}


@pytest.mark.parametrize("name", GRADCHECK)
@pytest.mark.parametrize("seed", [0, 1])
def test_gradcheck_float64(name, seed):
    rng = np.random.default_rng(seed)
    # distinct values a few apart, so no max-pool window is near a tie
    x = rng.permutation(2 * 2 * 5 * 6).reshape(2, 2, 5, 6) * 0.1 + rng.normal(size=(2, 2, 5, 6)) * 0.01
    inputs = tuple(
        minigrad.tensor(a, dtype=minigrad.float64, requires_grad=True)
        for a in (x, rng.normal(size=(4, 1, 3, 3)), rng.normal(size=4))
    )
    if name == "conv2d no bias":
        inputs = (inputs[0], minigrad.tensor(rng.normal(size=(3, 2, 2, 3)), requires_grad=True), inputs[2])
    assert gradcheck(GRADCHECK[name], inputs)
    assert gradgradcheck(GRADCHECK[name], inputs)


# -- pooling -----------------------------------------------------------------------------------------

POOL_CASES = {
    "kernel 2": ((2, 3, 8, 8), (2,), {}),
    "stride padding": ((2, 3, 7, 9), (3, 2, 1), {}),
    "ceil_mode": ((2, 3, 7, 9), (3, 2, 1), {"ceil_mode": True}),
    "pairs, unbatched": ((3, 7, 9), ((2, 3), (1, 2), (1, 1)), {"ceil_mode": True}),
    "overlapping windows with ties": ((2, 3, 8, 8), (3, 1, 1), {}),
}


@pytest.mark.parametrize("fn", ["max_pool2d", "avg_pool2d"])
@pytest.mark.parametrize("name", POOL_CASES)
def test_pooling_values_grads_and_graph_match_pytorch(fn, name):
    shape, args, kwargs = POOL_CASES[name]
    rng = np.random.default_rng(2)
    data = rng.normal(size=shape)
    if "ties" in name:
        data = np.round(data)                   # many equal values: the gradient goes to the first maximum
    (x,), (tx,) = pair(data)
    y, ty = getattr(F, fn)(x, *args, **kwargs), getattr(TF, fn)(tx, *args, **kwargs)
    assert tuple(y.shape) == tuple(ty.shape)
    assert_close(y, ty)
    assert graph(y) == graph(ty)
    g = rng.normal(size=tuple(ty.shape))
    y.backward(minigrad.tensor(g))
    ty.backward(torch.tensor(g))
    assert_close(x.grad, tx.grad)


@pytest.mark.parametrize("kwargs", [{"count_include_pad": False}, {"divisor_override": 5}, {}])
def test_avg_pool2d_divisors_match_pytorch(kwargs):
    (x,), (tx,) = pair(np.random.default_rng(3).normal(size=(1, 2, 7, 9)))
    y, ty = F.avg_pool2d(x, 3, 2, 1, ceil_mode=True, **kwargs), TF.avg_pool2d(tx, 3, 2, 1, ceil_mode=True, **kwargs)
    assert_close(y, ty)
    y.sum().backward()
    ty.sum().backward()
    assert_close(x.grad, tx.grad)


def test_max_pool2d_indices_dilation_nan_and_saved_attrs():
    data = np.random.default_rng(4).normal(size=(2, 2, 9, 9))
    (x,), (tx,) = pair(data)
    y, index = F.max_pool2d(x, 3, 2, 1, 2, return_indices=True)
    ty, tindex = TF.max_pool2d(tx, 3, 2, 1, 2, return_indices=True)
    assert_close(y, ty)
    assert index.tolist() == tindex.tolist()
    assert index.dtype == minigrad.int64
    node, tnode = y.grad_fn, ty.grad_fn
    for attr in ("kernel_size", "stride", "padding", "dilation", "ceil_mode"):
        assert getattr(node, "_saved_" + attr) == getattr(tnode, "_saved_" + attr), attr
    assert F.max_pool2d(x, 2).grad_fn._saved_stride == TF.max_pool2d(tx, 2).grad_fn._saved_stride == ()
    data[0, 0, 0, 1] = np.nan
    assert np.isnan(F.max_pool2d(minigrad.tensor(data), 2)[0, 0, 0, 0].item())


def test_pooling_float32_and_module_reprs():
    x = minigrad.arange(16.0).reshape(1, 1, 4, 4)
    assert nn.MaxPool2d(2)(x).tolist() == [[[[5.0, 7.0], [13.0, 15.0]]]]
    assert nn.AvgPool2d(2)(x).dtype == minigrad.float32
    for ours, theirs in [
        (nn.MaxPool2d(2), torch.nn.MaxPool2d(2)),
        (nn.MaxPool2d((2, 3), 1, 1, ceil_mode=True), torch.nn.MaxPool2d((2, 3), 1, 1, ceil_mode=True)),
        (nn.AvgPool2d(2), torch.nn.AvgPool2d(2)),
        (nn.AvgPool2d(3, 1, 1, count_include_pad=False), torch.nn.AvgPool2d(3, 1, 1, count_include_pad=False)),
    ]:
        assert repr(ours) == repr(theirs)


# -- the Conv2d module ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        ((1, 6, 5), {}),
        ((2, 4, 3), {"stride": 2, "padding": 1, "dilation": 2, "groups": 2, "bias": False}),
        ((2, 4, (3, 2)), {"padding": "same"}),
        ((3, 3, 3), {"padding": "valid", "groups": 3}),
        ((3, 8, (1, 3)), {"stride": (2, 1), "padding": (0, 1)}),
    ],
)
def test_conv2d_module_shapes_attributes_and_repr_match_pytorch(args, kwargs):
    ours, theirs = nn.Conv2d(*args, **kwargs), torch.nn.Conv2d(*args, **kwargs)
    assert repr(ours) == repr(theirs)
    for attr in ("in_channels", "out_channels", "kernel_size", "stride", "padding", "dilation", "groups",
                 "transposed", "output_padding", "padding_mode"):
        assert getattr(ours, attr) == getattr(theirs, attr), attr
    assert [(n, tuple(p.shape)) for n, p in ours.named_parameters()] == [
        (n, tuple(p.shape)) for n, p in theirs.named_parameters()
    ]


def test_conv2d_default_initialisation_bounds_and_order():
    minigrad.manual_seed(0)
    conv = nn.Conv2d(4, 6, 3, groups=2)
    bound = 1 / math.sqrt(2 * 3 * 3)
    minigrad.manual_seed(0)
    weight = minigrad.empty(6, 2, 3, 3).uniform_(-bound, bound)
    bias = minigrad.empty(6).uniform_(-bound, bound)
    np.testing.assert_allclose(weight.numpy(), conv.weight.detach().numpy(), rtol=1e-6)
    assert np.array_equal(bias.numpy(), conv.bias.detach().numpy())
    assert conv.weight.is_leaf
    assert conv.weight.requires_grad


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.nn.functional.conv2d(lib.ones(2, 3, 8, 8), lib.ones(6, 1, 5, 5)),
        lambda lib: lib.nn.functional.conv2d(lib.ones(8, 8), lib.ones(6, 1, 5, 5)),
        lambda lib: lib.nn.functional.conv2d(lib.ones(1, 1, 3, 3), lib.ones(6, 1, 5, 5)),
        lambda lib: lib.nn.functional.conv2d(lib.ones(1, 1, 8, 8), lib.ones(6, 1, 5, 5), stride=2, padding="same"),
        lambda lib: lib.nn.functional.conv2d(lib.ones(1, 1, 8, 8), lib.ones(6, 1, 5, 5), padding="foo"),
        lambda lib: lib.nn.functional.max_pool2d(lib.ones(1, 1, 8, 8), 2, padding=2),
        lambda lib: lib.nn.functional.max_pool2d(lib.ones(8, 8), 2),
        lambda lib: lib.nn.functional.max_pool2d(lib.ones(1, 1, 1, 1), 2),
        lambda lib: lib.nn.functional.avg_pool2d(lib.ones(1, 1, 8, 8), 2, padding=2),
        lambda lib: lib.nn.Conv2d(3, 4, 3, groups=2),
        lambda lib: lib.nn.Conv2d(4, 3, 3, groups=2),
    ],
)
def test_errors_match_pytorch(call):
    with pytest.raises((RuntimeError, ValueError)) as theirs:
        call(torch)
    with pytest.raises(type(theirs.value)) as ours:
        call(minigrad)
    assert str(ours.value) == str(theirs.value)


# -- a LeNet-style network ---------------------------------------------------------------------------------


def lenet(lib):
    return lib.nn.Sequential(
        lib.nn.Conv2d(1, 6, 5, padding=2), lib.nn.ReLU(), lib.nn.MaxPool2d(2),
        lib.nn.Conv2d(6, 16, 5), lib.nn.ReLU(), lib.nn.AvgPool2d(2),
        lib.nn.Flatten(), lib.nn.Linear(16 * 5 * 5, 10),
    )


def test_lenet_forward_backward_and_sgd_step_match_pytorch():
    theirs, ours = lenet(torch), lenet(minigrad)
    assert repr(ours) == repr(theirs)
    with minigrad.no_grad():
        for p, q in zip(theirs.parameters(), ours.parameters()):
            q.copy_(minigrad.from_numpy(p.detach().numpy().copy()))
    rng = np.random.default_rng(5)
    images, labels = rng.normal(size=(4, 1, 28, 28)).astype(np.float32), rng.integers(0, 10, size=4)
    opt, topt = minigrad.optim.SGD(ours.parameters(), lr=0.1), torch.optim.SGD(theirs.parameters(), lr=0.1)
    for _ in range(2):
        out, tout = ours(minigrad.from_numpy(images)), theirs(torch.from_numpy(images))
        np.testing.assert_allclose(out.detach().numpy(), tout.detach().numpy(), rtol=1e-4, atol=1e-5)
        loss = minigrad.nn.functional.cross_entropy(out, minigrad.from_numpy(labels))
        tloss = torch.nn.functional.cross_entropy(tout, torch.from_numpy(labels))
        opt.zero_grad()
        topt.zero_grad()
        loss.backward()
        tloss.backward()
        for (name, p), q in zip(ours.named_parameters(), theirs.parameters()):
            np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), rtol=1e-3, atol=1e-5, err_msg=name)
        opt.step()
        topt.step()
    assert graph(out) == graph(tout)
