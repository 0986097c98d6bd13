"""Layers against PyTorch: Linear's graph and initialisation, containers, activations, Dropout, Embedding."""

from __future__ import annotations

import math
from collections import OrderedDict

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad
from minigrad import nn
from minigrad.autograd import gradcheck, gradgradcheck

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

RNG = np.random.default_rng(0)


def graph(tensor) -> list:
    def walk(node):
        if node is None:
            return None
        return [type(node).__name__, [walk(f) for f, _ in node.next_functions]]

    return walk(tensor.grad_fn)


def copy_parameters(source, target, lib):
    """Copy a torch module's parameters into the same-shaped minigrad module (or back)."""
    with lib.no_grad():
        for p, q in zip(source.parameters(), target.parameters()):
            q.copy_(lib.from_numpy(p.detach().numpy().copy()))


# -- Linear -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("shape", [(3,), (4, 3), (5, 4, 3), (2, 1, 2, 3)])
@pytest.mark.parametrize("input_grad", [False, True])
def test_linear_graph_values_and_grads_match_pytorch(bias, shape, input_grad):
    x_np = RNG.standard_normal(shape).astype(np.float32)
    results = []
    theirs = torch.nn.Linear(3, 2, bias=bias)
    ours = nn.Linear(3, 2, bias=bias)
    copy_parameters(theirs, ours, minigrad)
    for lib, layer in ((minigrad, ours), (torch, theirs)):
        x = lib.tensor(x_np, requires_grad=input_grad)
        y = layer(x)
        (y * y).sum().backward()
        results.append(
            (
                graph(y),
                y.detach().numpy().copy(),
                [p.grad.numpy().copy() for p in layer.parameters()],
                None if x.grad is None else x.grad.numpy().copy(),
            )
        )
    (graph_a, y_a, grads_a, xg_a), (graph_b, y_b, grads_b, xg_b) = results
    assert graph_a == graph_b
    np.testing.assert_allclose(y_a, y_b, rtol=1e-5, atol=1e-6)
    for a, b in zip(grads_a, grads_b):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)
    if input_grad:
        np.testing.assert_allclose(xg_a, xg_b, rtol=1e-5, atol=1e-6)


def test_linear_2d_is_one_addmm_node():
    layer = nn.Linear(3, 2)
    out = layer(minigrad.ones(4, 3))
    edges = out.grad_fn.next_functions
    assert type(out.grad_fn).__name__ == "AddmmBackward0"
    assert [type(f).__name__ if f else None for f, _ in edges] == ["AccumulateGrad", None, "TBackward0"]
    assert edges[0][0].variable is layer.bias
    assert edges[2][0].next_functions[0][0].variable is layer.weight


def test_linear_default_initialisation_bounds_and_order():
    minigrad.manual_seed(0)
    big = nn.Linear(1000, 500)
    bound = 1 / math.sqrt(1000)
    assert big.weight.abs().max().item() <= bound
    assert big.bias.abs().max().item() <= bound
    assert abs(big.weight.std().item() - bound / math.sqrt(3)) < 1e-3
    # weight first, then bias, from the default generator: the same seed gives the same values
    minigrad.manual_seed(0)
    weight = minigrad.empty(500, 1000).uniform_(-bound, bound)
    bias = minigrad.empty(500).uniform_(-bound, bound)
    assert np.array_equal(weight.numpy(), big.weight.detach().numpy())
    assert np.array_equal(bias.numpy(), big.bias.detach().numpy())
    assert big.weight.is_leaf
    assert big.weight.requires_grad
    assert big.weight.grad is None


def test_linear_attributes_and_repr():
    layer = nn.Linear(3, 2)
    assert (layer.in_features, layer.out_features) == (3, 2)
    assert tuple(layer.weight.shape) == (2, 3)
    assert tuple(layer.bias.shape) == (2,)
    assert type(layer.weight).__name__ == "Parameter"
    assert repr(layer) == repr(torch.nn.Linear(3, 2)) == "Linear(in_features=3, out_features=2, bias=True)"
    assert nn.Linear(3, 2, bias=False).bias is None
    assert nn.Linear(2, 2, dtype=minigrad.float64).weight.dtype is minigrad.float64


@pytest.mark.parametrize(
    "make",
    [
        lambda lib: lib.nn.Linear(5, 2)(lib.ones(4, 3)),
        lambda lib: lib.nn.Linear(5, 2)(lib.ones(3)),
        lambda lib: lib.nn.Linear(5, 2)(lib.ones(2, 4, 3)),
        lambda lib: lib.nn.Linear(5, 2, bias=False)(lib.ones(4, 3)),
        lambda lib: lib.nn.Linear(5, 2, bias=False)(lib.ones(3)),
        lambda lib: lib.nn.Linear(2, 1)(lib.ones(1, 2, dtype=lib.float64)),
        lambda lib: lib.nn.Linear(2, 1)(lib.tensor(1.0)),
    ],
    ids=["2-D", "1-D", "3-D", "no bias", "no bias 1-D", "dtype", "0-D"],
)
def test_linear_errors_match_pytorch(make):
    with pytest.raises(RuntimeError) as ours:
        make(minigrad)
    with pytest.raises(RuntimeError) as theirs:
        make(torch)
    assert str(ours.value) == str(theirs.value)


def test_linear_wrong_width_names_the_shapes():
    with pytest.raises(RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied \(4x3 and 5x2\)"):
        nn.Linear(5, 2)(minigrad.ones(4, 3))


def test_bilinear_matches_pytorch():
    theirs = torch.nn.Bilinear(2, 3, 4)
    ours = nn.Bilinear(2, 3, 4)
    copy_parameters(theirs, ours, minigrad)
    a_np, b_np = (
        RNG.standard_normal((5, 2)).astype(np.float32),
        RNG.standard_normal((5, 3)).astype(np.float32),
    )
    results = []
    for lib, layer in ((minigrad, ours), (torch, theirs)):
        a, b = lib.tensor(a_np, requires_grad=True), lib.tensor(b_np, requires_grad=True)
        y = layer(a, b)
        y.pow(2).sum().backward()
        results.append(
            [graph(y), y.detach().numpy().copy(), a.grad.numpy().copy(), b.grad.numpy().copy()]
            + [p.grad.numpy().copy() for p in layer.parameters()]
        )
    assert results[0][0] == results[1][0]
    assert repr(ours) == repr(theirs)
    for x, y in zip(results[0][1:], results[1][1:]):
        np.testing.assert_allclose(x, y, rtol=1e-5, atol=1e-5)


# -- containers ----------------------------------------------------------------------------------------


def test_sequential_indexing_slicing_and_growth():
    model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    assert len(model) == 3
    assert isinstance(model[1], nn.ReLU)
    assert model[-1] is model[2]
    tail = model[1:]
    assert type(tail) is nn.Sequential
    assert [n for n, _ in tail.named_parameters()] == ["2.weight", "2.bias"]
    assert [type(m).__name__ for m in model] == ["Linear", "ReLU", "Linear"]
    assert model.append(nn.Sigmoid()) is model
    assert len(model) == 4
    model[3] = nn.Tanh()
    assert isinstance(model[3], nn.Tanh)
    del model[1]
    assert [n for n, _ in model.named_children()] == ["0", "1", "2"]
    assert isinstance(model[1], nn.Linear)
    model.insert(1, nn.ReLU())
    assert [type(m).__name__ for m in model] == ["Linear", "ReLU", "Linear", "Tanh"]
    named = nn.Sequential(OrderedDict([("fc", nn.Linear(1, 1)), ("act", nn.ReLU())]))
    assert [n for n, _ in named.named_children()] == ["fc", "act"]
    assert isinstance(named[1], nn.ReLU)
    assert repr(named) == repr(
        torch.nn.Sequential(OrderedDict([("fc", torch.nn.Linear(1, 1)), ("act", torch.nn.ReLU())]))
    )


def test_sequential_forward_matches_pytorch():
    theirs = torch.nn.Sequential(
        torch.nn.Linear(2, 3),
        torch.nn.ReLU(),
        torch.nn.Linear(3, 3),
        torch.nn.Tanh(),
        torch.nn.Linear(3, 1),
        torch.nn.Sigmoid(),
    )
    ours = nn.Sequential(
        nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 3), nn.Tanh(), nn.Linear(3, 1), nn.Sigmoid()
    )
    copy_parameters(theirs, ours, minigrad)
    x = RNG.standard_normal((4, 2)).astype(np.float32)
    a, b = ours(minigrad.from_numpy(x)), theirs(torch.from_numpy(x))
    assert graph(a) == graph(b)
    assert repr(ours) == repr(theirs)
    np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-5, atol=1e-6)


def test_module_list_and_dict():
    layers = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
    assert len(layers) == 3
    assert len(list(layers.parameters())) == 6
    assert isinstance(layers[-1], nn.Linear)
    layers.append(nn.ReLU())
    layers.extend([nn.Tanh()])
    layers += [nn.Sigmoid()]
    assert [type(m).__name__ for m in layers[3:]] == ["ReLU", "Tanh", "Sigmoid"]
    assert type(layers[1:3]) is nn.ModuleList
    del layers[0]
    assert [n for n, _ in layers.named_children()] == ["0", "1", "2", "3", "4"]
    heads = nn.ModuleDict({"a": nn.Linear(2, 1), "b": nn.Identity()})
    heads["c"] = nn.ReLU()
    assert list(heads) == ["a", "b", "c"]
    assert "b" in heads
    assert len(heads) == 3
    assert [n for n, _ in heads.named_parameters()] == ["a.weight", "a.bias"]
    assert heads.pop("b") is not None
    assert list(heads.keys()) == ["a", "c"]
    with pytest.raises(
        NotImplementedError, match='Module \\[ModuleList\\] is missing the required "forward"'
    ):
        layers(minigrad.ones(1))


def test_module_list_repr_groups_repeats_like_pytorch():
    def make(lib):
        n = lib.nn
        return n.ModuleList(
            [
                n.Linear(2, 2),
                n.Linear(2, 2),
                n.ReLU(),
                n.ReLU(),
                n.ReLU(),
                n.Tanh(),
                n.Sequential(n.Linear(1, 1)),
            ]
        )

    assert repr(make(minigrad)) == repr(make(torch))


def test_identity_flatten_unflatten():
    x = minigrad.ones(2, 3, 4)
    assert nn.Identity(3, unused=True)(x) is x
    assert nn.Flatten()(x).shape == (2, 12)
    assert nn.Flatten(0, 1)(x).shape == (6, 4)
    y = minigrad.ones(2, 3)
    assert nn.Flatten()(y) is y  # nothing to merge: the input itself, as in PyTorch
    assert nn.Unflatten(1, (2, 2))(minigrad.ones(3, 4)).shape == (3, 2, 2)
    z = nn.Flatten()(minigrad.ones(2, 3, 4, requires_grad=True))
    assert type(z.grad_fn).__name__ == "ViewBackward0"


# -- activations -------------------------------------------------------------------------------------

ACTIVATIONS = {
    "ReLU": lambda lib: lib.nn.ReLU(),
    "LeakyReLU": lambda lib: lib.nn.LeakyReLU(0.2),
    "Tanh": lambda lib: lib.nn.Tanh(),
    "Sigmoid": lambda lib: lib.nn.Sigmoid(),
    "GELU": lambda lib: lib.nn.GELU(),
    "GELU tanh": lambda lib: lib.nn.GELU("tanh"),
    "Softmax": lambda lib: lib.nn.Softmax(dim=1),
    "LogSoftmax": lambda lib: lib.nn.LogSoftmax(dim=0),
    "Hardtanh": lambda lib: lib.nn.Hardtanh(-0.5, 0.5),
    "LogSigmoid": lambda lib: lib.nn.LogSigmoid(),
    "F.leaky_relu default": lambda lib: lambda x: lib.nn.functional.leaky_relu(x),
    "F.gelu at 0": lambda lib: lambda x: lib.nn.functional.gelu(x * 0),
    "F.relu in place": lambda lib: lambda x: lib.nn.functional.relu(x * 1, inplace=True),
    "F.leaky_relu in place": lambda lib: lambda x: lib.nn.functional.leaky_relu(x * 1, 0.3, inplace=True),
    "F.hardtanh in place": lambda lib: lambda x: lib.nn.functional.hardtanh(x * 1, inplace=True),
    "F.sigmoid": lambda lib: lib.nn.functional.sigmoid,
    "F.tanh": lambda lib: lib.nn.functional.tanh,
    "F.softmax float64": lambda lib: lambda x: lib.nn.functional.softmax(x, dim=-1, dtype=lib.float64),
}


@pytest.mark.parametrize("name", ACTIVATIONS)
def test_activations_match_pytorch(name):
    x_np = np.concatenate([RNG.standard_normal((3, 4)) * 3, [[0.0, -0.5, 0.5, 20.0]]]).astype(np.float32)
    results = []
    for lib in (minigrad, torch):
        x = lib.tensor(x_np, requires_grad=True)
        y = ACTIVATIONS[name](lib)(x)
        (y * lib.arange(16.0).view(4, 4)).sum().backward()
        results.append((graph(y), str(y.dtype), y.detach().numpy().copy(), x.grad.numpy().copy()))
    assert results[0][:2] == results[1][:2]
    np.testing.assert_allclose(results[0][2], results[1][2], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(results[0][3], results[1][3], rtol=1e-5, atol=1e-5)


def test_activation_reprs_match_pytorch():
    for make in ACTIVATIONS.values():
        ours, theirs = make(minigrad), make(torch)
        if isinstance(theirs, torch.nn.Module):
            assert repr(ours) == repr(theirs)
    assert repr(nn.ReLU(inplace=True)) == "ReLU(inplace=True)"
    assert repr(nn.LeakyReLU(0.1, inplace=True)) == repr(torch.nn.LeakyReLU(0.1, inplace=True))


def test_softmax_without_dim_warns_like_pytorch():
    for lib in (minigrad, torch):
        with pytest.warns(UserWarning, match="Implicit dimension choice for softmax has been deprecated"):
            out = lib.nn.Softmax()(lib.zeros(2, 3))
        assert np.allclose(out.numpy(), 1 / 3)


OP_GRADCHECK = {
    "gelu": lambda x: minigrad.nn.functional.gelu(x),
    "gelu tanh": lambda x: minigrad.nn.functional.gelu(x, approximate="tanh"),
    "leaky_relu": lambda x: minigrad.nn.functional.leaky_relu(x, 0.1),
    "logsigmoid": minigrad.nn.functional.logsigmoid,
    "hardtanh": lambda x: minigrad.nn.functional.hardtanh(x, -2.5, 2.5),
    "pad": lambda x: minigrad.nn.functional.pad(x, (1, 2, -1, 1), value=3.0),
    "embedding": lambda w: minigrad.nn.functional.embedding(minigrad.tensor([[0, 2], [2, 1]]), w),
    "linear 3-D": lambda x: minigrad.nn.functional.linear(x.view(2, 1, 3), x, x[:, 0]),
    "bilinear": lambda x: minigrad.nn.functional.bilinear(
        x, x * 2, minigrad.stack([x.t().mm(x), x.t() @ x.exp()])
    ),
    "normalize": lambda x: minigrad.nn.functional.normalize(x),
    "normalize p=3 dim=0": lambda x: minigrad.nn.functional.normalize(x, p=3, dim=0),
    "cosine_similarity": lambda x: minigrad.nn.functional.cosine_similarity(x, x.flip(1).exp()),
    "cosine_similarity broadcast": lambda x: minigrad.nn.functional.cosine_similarity(x, x[0], dim=-1),
}


@pytest.mark.parametrize("name", OP_GRADCHECK)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**16))
def test_gradcheck_float64(name, seed):
    x = minigrad.tensor(
        np.random.default_rng(seed).normal(size=(2, 3)) * 2, dtype=minigrad.float64, requires_grad=True
    )
    x_away_from_kinks = minigrad.tensor(
        np.where(abs(x.detach().numpy()) < 0.05, 0.5, x.detach().numpy()), requires_grad=True
    )
    inputs = (x_away_from_kinks if name in ("leaky_relu", "hardtanh") else x,)
    if name == "embedding":
        inputs = (minigrad.tensor(np.random.default_rng(seed).normal(size=(3, 2)), requires_grad=True),)
    assert gradcheck(OP_GRADCHECK[name], inputs)
    assert gradgradcheck(OP_GRADCHECK[name], inputs)


def test_erf_is_accurate_to_double_precision():
    from minigrad.ops.nn_ops import _erf

    x = np.concatenate([np.linspace(-7, 7, 2001), [0.0, -0.0, 1.0, -1.0, 30.0, np.inf, -np.inf]])
    np.testing.assert_allclose(_erf(x), torch.erf(torch.from_numpy(x)).numpy(), rtol=1e-14, atol=1e-16)
    assert np.isnan(_erf(np.array([np.nan]))).all()


# -- Dropout -------------------------------------------------------------------------------------------


def test_dropout_train_and_eval():
    minigrad.manual_seed(0)
    drop = nn.Dropout(0.5)
    x = minigrad.ones(10000, requires_grad=True)
    y = drop(x)
    kept = y.detach().numpy() != 0
    assert set(np.unique(y.detach().numpy())) <= {0.0, 2.0}
    assert 0.45 < kept.mean() < 0.55
    assert type(y.grad_fn).__name__ == "MulBackward0"
    y.sum().backward()
    assert np.array_equal(x.grad.numpy(), np.where(kept, 2.0, 0.0))
    assert drop.eval()(x) is x
    assert not drop.training
    assert repr(drop) == repr(torch.nn.Dropout(0.5)) == "Dropout(p=0.5, inplace=False)"


def test_dropout_is_reproducible_with_manual_seed():
    x = minigrad.ones(20)
    minigrad.manual_seed(3)
    a = nn.functional.dropout(x, 0.3)
    minigrad.manual_seed(3)
    b = nn.functional.dropout(x, 0.3)
    assert np.array_equal(a.numpy(), b.numpy())
    assert not np.array_equal(a.numpy(), nn.functional.dropout(x, 0.3).numpy())


def test_dropout_edge_cases_match_pytorch():
    for lib in (minigrad, torch):
        x = lib.ones(4, requires_grad=True)
        assert lib.nn.functional.dropout(x, 0.0) is x
        assert lib.nn.functional.dropout(x, 0.5, training=False) is x
        zeroed = lib.nn.functional.dropout(x, 1.0)
        assert zeroed.tolist() == [0.0] * 4
        assert type(zeroed.grad_fn).__name__ == "MulBackward0"
        with pytest.raises(ValueError, match=r"dropout probability has to be between 0 and 1, but got 1\.5"):
            lib.nn.Dropout(1.5)
        with pytest.raises(ValueError, match=r"dropout probability has to be between 0 and 1, but got -0\.1"):
            lib.nn.functional.dropout(x, -0.1)


# -- Embedding -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options", [{}, {"padding_idx": 1}, {"padding_idx": -1}, {"scale_grad_by_freq": True}, {"max_norm": 1.0}]
)
def test_embedding_matches_pytorch(options):
    theirs = torch.nn.Embedding(5, 3, **options)
    ours = nn.Embedding(5, 3, **options)
    copy_parameters(theirs, ours, minigrad)
    indices = np.array([[1, 2, 4], [4, 3, 1]])
    results = []
    for lib, layer in ((minigrad, ours), (torch, theirs)):
        y = layer(lib.from_numpy(indices))
        (y * lib.arange(18.0).view(2, 3, 3)).sum().backward()
        results.append(
            (
                graph(y),
                repr(layer),
                y.detach().numpy().copy(),
                layer.weight.grad.numpy().copy(),
                layer.weight.detach().numpy().copy(),
            )
        )
    assert results[0][:2] == results[1][:2]
    for a, b in zip(results[0][2:], results[1][2:]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_embedding_padding_row_starts_at_zero_and_from_pretrained():
    emb = nn.Embedding(4, 3, padding_idx=2)
    assert emb.weight[2].tolist() == [0.0, 0.0, 0.0]
    assert emb.weight.requires_grad
    frozen = nn.Embedding.from_pretrained(minigrad.ones(2, 2))
    assert not frozen.weight.requires_grad
    assert frozen(minigrad.tensor([1])).tolist() == [[1.0, 1.0]]


@pytest.mark.parametrize(
    "make",
    [
        lambda lib: lib.nn.Embedding(3, 2)(lib.tensor([3])),
        lambda lib: lib.nn.Embedding(3, 2)(lib.tensor([1.0])),
        lambda lib: lib.nn.Embedding(3, 2, padding_idx=5),
        lambda lib: lib.nn.functional.one_hot(lib.tensor([-1, 2])),
        lambda lib: lib.nn.functional.one_hot(lib.tensor([1, 2]), 2),
        lambda lib: lib.nn.functional.one_hot(lib.tensor([1.0])),
        lambda lib: lib.nn.functional.one_hot(lib.tensor([], dtype=lib.long)),
        lambda lib: lib.nn.functional.pad(lib.ones(2, 2), (1, 1, 1)),
        lambda lib: lib.nn.functional.pad(lib.ones(2, 2), (1, 1, 1, 1, 1, 1)),
        lambda lib: lib.nn.functional.gelu(lib.ones(1), approximate="fast"),
        lambda lib: lib.nn.functional.cosine_similarity(lib.ones(2, 3), lib.ones(2, 4)),
        lambda lib: lib.nn.functional.cosine_similarity(lib.ones(3), lib.ones(3)),
        lambda lib: lib.nn.functional.cosine_similarity(lib.tensor([1, 2]), lib.tensor([1, 2]), dim=0),
        lambda lib: lib.nn.functional.normalize(lib.ones(3)),
    ],
)
def test_errors_match_pytorch(make):
    def error(lib):
        try:
            make(lib)
        except Exception as e:
            return type(e).__name__, str(e)
        return None

    assert error(minigrad) == error(torch) is not None


def test_one_hot_and_pad_match_pytorch():
    for make in (
        lambda lib: lib.nn.functional.one_hot(lib.tensor([0, 2])),
        lambda lib: lib.nn.functional.one_hot(lib.tensor([[1], [0]]), 4),
        lambda lib: lib.nn.functional.one_hot(lib.tensor([], dtype=lib.long), 3),
        lambda lib: lib.nn.functional.pad(lib.arange(6.0).view(2, 3), (1, 2), value=-1.0),
        lambda lib: lib.nn.functional.pad(lib.arange(6.0).view(2, 3), (0, -1, 1, 0)),
    ):
        ours, theirs = make(minigrad), make(torch)
        assert str(ours.dtype) == str(theirs.dtype)
        assert ours.tolist() == theirs.tolist()


# -- cosine similarity and normalize ------------------------------------------------------------------

SIMILARITY = {
    "cosine_similarity": lambda lib, a, b: lib.nn.functional.cosine_similarity(a, b),
    "cosine_similarity dim=0 eps": lambda lib, a, b: lib.nn.functional.cosine_similarity(a, b, dim=0, eps=0.5),
    "cosine_similarity broadcast": lambda lib, a, b: lib.nn.functional.cosine_similarity(a, b[1:2], dim=-1),
    "cosine_similarity zero vector": lambda lib, a, b: lib.nn.functional.cosine_similarity(a * 0, b),
    "cosine_similarity constant x2": lambda lib, a, b: lib.nn.functional.cosine_similarity(a, b.detach()),
    "CosineSimilarity": lambda lib, a, b: lib.nn.CosineSimilarity(dim=0)(a, b),
    "normalize": lambda lib, a, b: lib.nn.functional.normalize(a),
    "normalize p=1 dim=0": lambda lib, a, b: lib.nn.functional.normalize(a, p=1, dim=0),
    "normalize zero row": lambda lib, a, b: lib.nn.functional.normalize(a * lib.tensor([[0.0], [1.0], [1.0]])),
}


@pytest.mark.parametrize("name", SIMILARITY)
def test_cosine_similarity_and_normalize_match_pytorch(name):
    """Graph (PyTorch composes both from ops), values and both inputs' gradients."""
    a_np, b_np = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    results = []
    for lib in (minigrad, torch):
        a, b = lib.tensor(a_np[:3, :3], requires_grad=True), lib.tensor(b_np[:3, :3], requires_grad=True)
        y = SIMILARITY[name](lib, a, b)
        (y * lib.arange(1.0, y.numel() + 1).view(y.shape)).sum().backward()
        grads = [None if t.grad is None else t.grad.numpy().copy() for t in (a, b)]
        results.append((graph(y), str(y.dtype), y.detach().numpy().copy(), grads))
    assert results[0][:2] == results[1][:2]
    np.testing.assert_allclose(results[0][2], results[1][2], rtol=1e-5, atol=1e-6)
    for ours, theirs in zip(results[0][3], results[1][3]):
        assert (ours is None) == (theirs is None)
        if ours is not None:
            np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-5)


def test_cosine_similarity_module_repr_and_attributes():
    for lib in (minigrad, torch):
        m = lib.nn.CosineSimilarity(dim=0, eps=1e-3)
        assert (repr(m), m.dim, m.eps) == ("CosineSimilarity()", 0, 1e-3)
