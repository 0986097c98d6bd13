"""The activations beyond the classic ones (relu6, selu, celu, prelu, hardswish, mish, glu, rrelu, the shrinks...)
against PyTorch: values, gradients, grad_fn chains, the gradient's own graph and second derivatives,
module reprs and defaults, the RNG draw of rrelu, and PyTorch's errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

X = np.random.RandomState(0).randn(6, 4) * 3
X[0, :4] = [-3.0, 3.0, 0.5, -0.5]               # on the kinks of hardswish and the shrinks
GY = np.random.RandomState(1).randn(6, 4)
SLOPES = np.array([0.25, -0.1, 0.3, 0.5])


def _names(fn, depth=0):
    if fn is None or depth > 5:
        return []
    out = [fn.name().replace("torch::autograd::", "")]
    for f, _ in fn.next_functions:
        out += _names(f, depth + 1)
    return out


def _run(lib, f, arrays, dtype, create_graph):
    ts = [lib.tensor(a, dtype=getattr(lib, dtype), requires_grad=True) for a in arrays]
    y = f(lib, *ts)
    gy = lib.tensor(np.resize(GY, tuple(y.shape)), dtype=getattr(lib, dtype))
    grads = lib.autograd.grad(y, ts, gy, create_graph=create_graph, allow_unused=True)
    out = {"value": y.detach().numpy(), "names": _names(y.grad_fn),
           "grads": [None if g is None else g.detach().numpy() for g in grads]}
    if create_graph:
        out["grad_names"] = [None if g is None or g.grad_fn is None else _names(g.grad_fn)[:2] for g in grads]
        wanted = [g for g in grads if g is not None and g.requires_grad]
        if wanted:
            gg = lib.autograd.grad(sum((g * g).sum() for g in wanted), ts[:1], allow_unused=True)[0]
            out["gg"] = None if gg is None else gg.detach().numpy()
    return out


def _close(a, b, tol):
    if a is None or b is None:
        return (a is None and b is None) or bool(np.all((a if b is None else b) == 0))
    return a.shape == b.shape and np.allclose(a, b, rtol=tol, atol=tol, equal_nan=True)


def compare(f, arrays=(X,), dtype="float64", create_graph=True, graph=True, tol=None):
    expected = _run(torch, f, arrays, dtype, create_graph)
    got = _run(minigrad, f, arrays, dtype, create_graph)
    tol = tol or (1e-12 if dtype == "float64" else 2e-6)
    assert _close(expected["value"], got["value"], tol)
    assert got["names"] == expected["names"]
    for e, g in zip(expected["grads"], got["grads"]):
        assert _close(e, g, tol)
    if create_graph:
        if graph:
            assert got["grad_names"] == expected["grad_names"]
        assert _close(expected.get("gg"), got.get("gg"), tol * 100)


def F(lib):
    return lib.nn.functional


CASES = {
    "relu6": lambda L, a: F(L).relu6(a * 3),
    "selu": lambda L, a: F(L).selu(a),
    "celu": lambda L, a: F(L).celu(a),
    "celu_alpha": lambda L, a: F(L).celu(a, 0.7),
    "elu_scale_attrs": lambda L, a: F(L).elu(a, 0.5),
    "hardswish": lambda L, a: F(L).hardswish(a),
    "mish": lambda L, a: F(L).mish(a),
    "softsign": lambda L, a: F(L).softsign(a),
    "softmin": lambda L, a: F(L).softmin(a, 1),
    "softmin_dim0": lambda L, a: F(L).softmin(a, dim=0),
    "softshrink": lambda L, a: F(L).softshrink(a),
    "softshrink_1": lambda L, a: F(L).softshrink(a, 1.0),
    "hardshrink": lambda L, a: F(L).hardshrink(a),
    "hardshrink_2": lambda L, a: F(L).hardshrink(a, 2.0),
    "tanhshrink": lambda L, a: F(L).tanhshrink(a),
    "glu": lambda L, a: F(L).glu(a),
    "glu_dim0": lambda L, a: F(L).glu(a, 0),
    "glu_3d": lambda L, a: F(L).glu(a.view(2, 3, 4), -1),
    "rrelu_eval": lambda L, a: F(L).rrelu(a),
    "rrelu_train": lambda L, a: (L.manual_seed(3), F(L).rrelu(a, training=True))[1],
    "rrelu_train_bounds": lambda L, a: (L.manual_seed(4), F(L).rrelu(a, 0.1, 0.9, True))[1],
    "softmax2d": lambda L, a: L.nn.Softmax2d()(a.view(2, 3, 4)),
    "softmax2d_4d": lambda L, a: L.nn.Softmax2d()(a.view(1, 2, 3, 4)),
    "threshold_module": lambda L, a: L.nn.Threshold(0.1, 20.0)(a),
    "selu_module": lambda L, a: L.nn.Sequential(L.nn.SELU(), L.nn.CELU(0.5), L.nn.Mish(), L.nn.GLU())(a),
    "rrelu_module_train": lambda L, a: (L.manual_seed(5), L.nn.RReLU()(a))[1],
    "rrelu_module_eval": lambda L, a: L.nn.RReLU(0.2, 0.4).eval()(a),
}
# In-place forms: PyTorch's derivative graph reads the saved result (its edge is the in-place node itself),
# minigrad's reads the input as it was: the same values, another edge; the grad's graph is not compared.
INPLACE = {
    "elu_": lambda L, a: F(L).elu_(a * 1),
    "elu_inplace": lambda L, a: F(L).elu(a * 1, 0.5, inplace=True),
    "selu_": lambda L, a: F(L).selu_(a * 1),
    "selu_inplace_module": lambda L, a: L.nn.SELU(inplace=True)(a * 1),
    "celu_": lambda L, a: F(L).celu_(a * 1, 2.0),
    "rrelu_": lambda L, a: F(L).rrelu_(a * 1),
    "rrelu_train_": lambda L, a: (L.manual_seed(4), F(L).rrelu_(a * 1, 0.1, 0.9, training=True))[1],
    "hardtanh_": lambda L, a: F(L).hardtanh_(a * 1),
    "leaky_relu_": lambda L, a: F(L).leaky_relu_(a * 1, 0.2),
    "relu6_inplace": lambda L, a: F(L).relu6(a * 1, inplace=True),
    "hardswish_inplace": lambda L, a: F(L).hardswish(a * 1, inplace=True),
    "mish_inplace": lambda L, a: F(L).mish(a * 1, inplace=True),
}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_activation_matches_torch(name, dtype):
    compare(CASES[name], dtype=dtype, tol=None if name != "mish" or dtype == "float64" else 1e-5)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", sorted(INPLACE))
def test_inplace_activation_matches_torch(name, dtype):
    compare(INPLACE[name], dtype=dtype, graph=False)
    x = [lib.tensor(X, requires_grad=True) * 1 for lib in (torch, minigrad)]
    outs = [INPLACE[name](lib, t) for lib, t in zip((torch, minigrad), x)]
    assert outs[1].grad_fn.name() == outs[0].grad_fn.name()


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_hardsigmoid(dtype):
    # PyTorch has no derivative for hardsigmoid_backward (NotImplemented under create_graph): first order only
    compare(lambda L, a: F(L).hardsigmoid(a), dtype=dtype, create_graph=False)
    compare(lambda L, a: L.nn.Hardsigmoid()(a), dtype=dtype, create_graph=False)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize(("shape", "slopes"), [((6, 4), SLOPES), ((6, 4), SLOPES[:1]), ((2, 4, 3), SLOPES),
                                          ((4,), SLOPES[:1]), ((6,), SLOPES[:1])])
def test_prelu(shape, slopes, dtype):
    # PyTorch's PreluKernelBackwardBackward0 under create_graph is a composite here: first order graphs only
    compare(lambda L, a, w: F(L).prelu(a.reshape(shape), w), (X.ravel()[: int(np.prod(shape))], slopes),
            dtype=dtype, create_graph=False)


def test_prelu_module_init_and_training():
    for lib in (torch, minigrad):
        lib.manual_seed(0)
    mods = [lib.nn.PReLU(4) for lib in (torch, minigrad)]
    assert repr(mods[1]) == repr(mods[0]) == "PReLU(num_parameters=4)"
    assert list(mods[1].state_dict()) == ["weight"]
    np.testing.assert_array_equal(mods[1].weight.detach().numpy(), mods[0].weight.detach().numpy())
    assert minigrad.nn.PReLU(2, init=0.1).weight.tolist() == pytest.approx([0.1, 0.1])
    grads = []
    for lib, m in zip((torch, minigrad), mods):
        m(lib.tensor(X, dtype=lib.float32)).sum().backward()
        grads.append(m.weight.grad.numpy())
    np.testing.assert_allclose(grads[1], grads[0], rtol=1e-6)
    assert minigrad.nn.PReLU(dtype=minigrad.float64).weight.dtype == minigrad.float64


def test_saved_attributes():
    for lib in (torch, minigrad):
        x = lib.tensor([-1.0, 2.0], requires_grad=True)
        y = F(lib).selu(x)
        assert y.grad_fn._saved_alpha == pytest.approx(1.6732632423543772)
        assert y.grad_fn._saved_scale == pytest.approx(1.0507009873554805)
        assert y.grad_fn._saved_input_scale == 1
        assert F(lib).celu(x, 0.5).grad_fn._saved_alpha == 0.5
        assert F(lib).softshrink(x, 0.3).grad_fn._saved_lambd == pytest.approx(0.3)
        assert F(lib).glu(lib.ones(2, 4, requires_grad=True), 1).grad_fn._saved_dim == 1
        assert F(lib).rrelu(x).grad_fn._saved_training is False


MODULES = [
    lambda nn: nn.ReLU6(), lambda nn: nn.ReLU6(True), lambda nn: nn.SELU(), lambda nn: nn.SELU(True),
    lambda nn: nn.CELU(), lambda nn: nn.CELU(0.5, True), lambda nn: nn.PReLU(), lambda nn: nn.PReLU(3, 0.1),
    lambda nn: nn.Hardswish(), lambda nn: nn.Hardswish(True), lambda nn: nn.Hardsigmoid(True),
    lambda nn: nn.Mish(), lambda nn: nn.Mish(True), lambda nn: nn.Softsign(), lambda nn: nn.Softmin(),
    lambda nn: nn.Softmin(1), lambda nn: nn.Softshrink(), lambda nn: nn.Hardshrink(0.3), lambda nn: nn.Tanhshrink(),
    lambda nn: nn.GLU(), lambda nn: nn.GLU(0), lambda nn: nn.RReLU(), lambda nn: nn.RReLU(0.1, 0.3, True),
    lambda nn: nn.Threshold(0.1, 20), lambda nn: nn.Threshold(0.1, 2.0, True), lambda nn: nn.Softmax2d(),
]


@pytest.mark.parametrize("k", range(len(MODULES)))
def test_module_repr(k):
    assert repr(MODULES[k](minigrad.nn)) == repr(MODULES[k](torch.nn))


def test_relu6_is_a_hardtanh():
    m = minigrad.nn.ReLU6()
    assert isinstance(m, minigrad.nn.Hardtanh)
    assert (m.min_val, m.max_val) == (0.0, 6.0)


ERRORS = [
    lambda L: F(L).glu(L.randn(3, 5)),
    lambda L: F(L).glu(L.tensor(1.0)),
    lambda L: F(L).glu(L.randn(3, 4), dim=3),
    lambda L: F(L).softshrink(L.randn(3), -1.0),
    lambda L: F(L).softshrink(L.randn(3, dtype=L.float64), -1.0),
    lambda L: F(L).prelu(L.randn(3, 5), L.ones(3)),
    lambda L: F(L).prelu(L.randn(3, 5), L.ones(1, 1)),
    lambda L: F(L).prelu(L.tensor(1.0), L.ones(2)),
    lambda L: F(L).prelu(L.randn(3, 5), L.ones(5, dtype=L.float64)),
    lambda L: F(L).rrelu(L.randn(3), 0.5, 0.1, training=True),
    lambda L: F(L).celu(L.randn(3), 0.0),
    lambda L: L.nn.Softmax2d()(L.randn(3)),
    lambda L: F(L).elu_(L.randn(3, requires_grad=True)),
    lambda L: F(L).hardswish(L.tensor([1, 2])),
    lambda L: F(L).hardsigmoid(L.tensor([1, 2])),
    lambda L: F(L).mish(L.tensor([1, 2])),
    lambda L: F(L).selu(L.tensor([1, 2])),
    lambda L: F(L).celu(L.tensor([1, 2])),
    lambda L: F(L).glu(L.tensor([1, 2])),
    lambda L: F(L).hardshrink(L.tensor([1, 2])),
    lambda L: F(L).softshrink(L.tensor([1, 2])),
    lambda L: F(L).rrelu(L.tensor([1, 2])),
    lambda L: F(L).prelu(L.tensor([1, 2]), L.tensor([1])),
]


@pytest.mark.parametrize("k", range(len(ERRORS)))
def test_errors_in_pytorch_words(k):
    with pytest.raises(Exception) as expected:  # noqa: PT011 - whatever PyTorch raises, minigrad must too
        ERRORS[k](torch)
    with pytest.raises(type(expected.value)) as got:
        ERRORS[k](minigrad)
    assert str(got.value) == str(expected.value).split("\n")[0]


def test_softmin_implicit_dim_warns():
    for lib in (torch, minigrad):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            F(lib).softmin(lib.ones(2, 3))
        assert "Implicit dimension choice for softmin has been deprecated" in str(caught[0].message)


def test_every_new_name_exists():
    names = ["relu6", "selu", "selu_", "celu", "celu_", "elu_", "hardtanh_", "leaky_relu_", "hardswish",
             "hardsigmoid", "mish", "softsign", "softmin", "softshrink", "hardshrink", "tanhshrink", "glu", "prelu",
             "rrelu", "rrelu_"]
    for n in names:
        assert callable(getattr(minigrad.nn.functional, n)), n
        assert n in minigrad.nn.functional.__all__
