"""RNN, LSTM, GRU and their cells against PyTorch: init from the seed, repr, state_dict keys, values,
gradients (parameters, input, initial states), the recorded graph step by step, and PyTorch's errors.

PyTorch's float32 CPU LSTM runs a fused oneDNN kernel (one ``MkldnnRnnLayerBackward0`` node); the graph
is compared with the one PyTorch records without it (``mkldnn.flags(enabled=False)``), the values with both.
"""

from __future__ import annotations

import contextlib

import numpy as np
import pytest

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def graph(tensor) -> list:
    seen: set[int] = set()

    def walk(node):
        if node is None:
            return None
        if id(node) in seen:
            return "@" + type(node).__name__
        seen.add(id(node))
        return [type(node).__name__, [walk(f) for f, _ in node.next_functions]]

    return walk(tensor.grad_fn)


def _flat(out) -> list:
    if isinstance(out, tuple):
        return [t for o in out for t in _flat(o)]
    return [out]


def run(lib, cls, args, kw, shape, hx_shapes=None, train=False, dtype="float32"):
    lib.manual_seed(0)
    m = getattr(lib.nn, cls)(*args, **kw)
    if dtype == "float64":
        m = m.double()
    m.train(train)
    rng = np.random.default_rng(1)
    x = lib.tensor(rng.standard_normal(shape).astype(dtype), requires_grad=True)
    hs = [lib.tensor(rng.standard_normal(s).astype(dtype), requires_grad=True) for s in hx_shapes or ()]
    hx = None if not hs else (tuple(hs) if len(hs) == 2 else hs[0])
    lib.manual_seed(1)                                  # the dropout masks
    outs = _flat(m(x) if hx is None else m(x, hx))
    sum((o * o).sum() * (i + 1) for i, o in enumerate(outs)).backward()
    return {
        "repr": repr(m),
        "keys": list(m.state_dict().keys()),
        "init": [p.detach().numpy().copy() for p in m.parameters()],
        "values": [o.detach().numpy().copy() for o in outs],
        "graphs": [graph(o) for o in outs],
        "grads": [p.grad.numpy().copy() for p in m.parameters()] + [t.grad.numpy().copy() for t in (x, *hs)],
    }


@contextlib.contextmanager
def no_mkldnn(cls):
    """``torch.backends.mkldnn.flags(enabled=False)`` without its TF32 warning."""
    before = torch._C._get_mkldnn_enabled()
    torch._C._set_mkldnn_enabled(cls != "LSTM" and before)
    try:
        yield
    finally:
        torch._C._set_mkldnn_enabled(before)


CONFIGS = [
    ((3, 4), {}, (5, 2, 3), None, False),
    ((3, 4, 2), {"bias": False}, (4, 2, 3), None, False),
    ((3, 4), {"batch_first": True}, (2, 5, 3), None, False),
    ((3, 4), {"bidirectional": True, "num_layers": 2}, (3, 2, 3), None, False),
    ((3, 4), {"num_layers": 2, "dropout": 0.5}, (3, 2, 3), None, True),
    ((3, 4), {"num_layers": 2, "dropout": 0.5}, (3, 2, 3), None, False),
    ((3, 4), {}, (5, 3), None, False),                                  # unbatched
    ((3, 4, 2), {"batch_first": True, "bidirectional": True}, (2, 3, 3), "h0", False),
]


@pytest.mark.parametrize("cls", ["RNN", "LSTM", "GRU"])
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "%s-%s-%s" % (c[0], c[1], c[2]))
def test_layer_matches_pytorch(cls, config):
    args, kw, shape, h0, train = config
    hx_shapes = None
    if h0:
        layers = args[2] * (2 if kw.get("bidirectional") else 1)
        batch = shape[0] if kw.get("batch_first") else shape[1]
        hx_shapes = [(layers, batch, args[1])] * (2 if cls == "LSTM" else 1)
    with no_mkldnn(cls):
        theirs = run(torch, cls, args, kw, shape, hx_shapes, train)
    ours = run(minigrad, cls, args, kw, shape, hx_shapes, train)
    assert ours["repr"] == theirs["repr"]
    assert ours["keys"] == theirs["keys"]
    for a, b in zip(ours["init"], theirs["init"], strict=True):
        np.testing.assert_array_equal(a, b)                          # bit-identical from the seed
    assert ours["graphs"] == theirs["graphs"]
    for a, b in zip(ours["values"] + ours["grads"], theirs["values"] + theirs["grads"], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("kw", [{"nonlinearity": "relu"}, {"num_layers": 3, "bidirectional": True}])
def test_rnn_options_and_float64(kw):
    theirs = run(torch, "RNN", (3, 4), kw, (4, 2, 3), dtype="float64")
    ours = run(minigrad, "RNN", (3, 4), kw, (4, 2, 3), dtype="float64")
    assert ours["repr"] == theirs["repr"]
    assert ours["graphs"] == theirs["graphs"]
    for a, b in zip(ours["values"] + ours["grads"], theirs["values"] + theirs["grads"], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("kw", [{"proj_size": 2, "num_layers": 2}, {"proj_size": 3, "bidirectional": True}])
def test_lstm_projections(kw):
    with no_mkldnn("LSTM"):
        theirs = run(torch, "LSTM", (3, 5), kw, (4, 2, 3))
    ours = run(minigrad, "LSTM", (3, 5), kw, (4, 2, 3))
    assert ours["repr"] == theirs["repr"]
    assert ours["keys"] == theirs["keys"]
    assert ours["graphs"] == theirs["graphs"]
    for a, b in zip(ours["values"] + ours["grads"], theirs["values"] + theirs["grads"], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)


def test_lstm_values_match_pytorchs_fused_kernel_too():
    theirs = run(torch, "LSTM", (3, 4), {"num_layers": 2}, (6, 2, 3))       # MkldnnRnnLayerBackward0
    ours = run(minigrad, "LSTM", (3, 4), {"num_layers": 2}, (6, 2, 3))
    assert theirs["graphs"][0][0] == "MkldnnRnnLayerBackward0"
    assert ours["graphs"][0][0] == "StackBackward0"
    for a, b in zip(ours["values"] + ours["grads"], theirs["values"] + theirs["grads"], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("cls", ["RNNCell", "LSTMCell", "GRUCell"])
@pytest.mark.parametrize(("kw", "shape", "hx"), [({}, (2, 3), False), ({"bias": False}, (3,), False),
                                                 ({}, (2, 3), True), ({}, (3,), True)])
def test_cell_matches_pytorch(cls, kw, shape, hx):
    hx_shapes = [(*shape[:-1], 4)] * (2 if cls == "LSTMCell" else 1) if hx else None
    theirs = run(torch, cls, (3, 4), kw, shape, hx_shapes)
    ours = run(minigrad, cls, (3, 4), kw, shape, hx_shapes)
    assert ours["repr"] == theirs["repr"]
    assert ours["keys"] == theirs["keys"]
    for a, b in zip(ours["init"], theirs["init"], strict=True):
        np.testing.assert_array_equal(a, b)
    assert ours["graphs"] == theirs["graphs"]
    for a, b in zip(ours["values"] + ours["grads"], theirs["values"] + theirs["grads"], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)


def test_rnn_cell_relu_repr():
    assert repr(minigrad.nn.RNNCell(3, 4, nonlinearity="relu")) == repr(torch.nn.RNNCell(3, 4, nonlinearity="relu"))


@pytest.mark.parametrize("cls", ["RNN", "LSTM", "GRU"])
def test_gradcheck_float64(cls):
    minigrad.manual_seed(0)
    m = getattr(minigrad.nn, cls)(2, 3, num_layers=2, bidirectional=True).double()
    x = minigrad.randn(3, 2, 2, dtype=minigrad.float64, requires_grad=True)

    def f(x):
        return _flat(m(x))

    assert gradcheck(f, (x,))
    assert gradgradcheck(lambda x: m(x)[0], (x,))


def _error(lib, build, call):
    lib.manual_seed(0)
    try:
        call(lib, build(lib))
    except Exception as e:
        return type(e).__name__, str(e)
    return None


ERRORS = [
    (lambda lib: lib.nn.RNN(3, 4), lambda lib, m: m(lib.randn(2, 3, 5))),
    (lambda lib: lib.nn.RNN(3, 4), lambda lib, m: m(lib.randn(2, 3, 3, 1))),
    (lambda lib: lib.nn.GRU(3, 4), lambda lib, m: m(lib.randn(5))),
    (lambda lib: lib.nn.GRU(3, 4), lambda lib, m: m(lib.randn(2, 3, 3), lib.randn(1, 2, 4))),
    (lambda lib: lib.nn.RNN(3, 4), lambda lib, m: m(lib.randn(2, 3, 3), lib.randn(3, 4))),
    (lambda lib: lib.nn.RNN(3, 4), lambda lib, m: m(lib.randn(2, 3), lib.randn(1, 1, 4))),
    (lambda lib: lib.nn.LSTM(3, 4), lambda lib, m: m(lib.randn(2, 3, 3), (lib.randn(1, 3, 4), lib.randn(1, 2, 4)))),
    (lambda lib: lib.nn.LSTM(3, 4), lambda lib, m: m(lib.randn(2, 3, 3), (lib.randn(2, 3, 4), lib.randn(1, 3, 4)))),
    (lambda lib: lib.nn.LSTM(3, 4), lambda lib, m: m(lib.randn(2, 3, 3), (lib.randn(3, 4), lib.randn(3, 4)))),
    (lambda lib: lib.nn.LSTM(3, 4), lambda lib, m: m(lib.randn(4, 5, 3, 2))),
    (lambda lib: lib.nn.RNN(3, 4), lambda lib, m: m(lib.randn(2, 3, 3, dtype=lib.float64))),
    (lambda lib: lib.nn.RNNCell(3, 4), lambda lib, m: m(lib.randn(2, 5))),
    (lambda lib: lib.nn.RNNCell(3, 4), lambda lib, m: m(lib.randn(2, 2, 3))),
    (lambda lib: lib.nn.GRUCell(3, 4), lambda lib, m: m(lib.randn(2, 3), lib.randn(3, 4))),
    (lambda lib: lib.nn.GRUCell(3, 4), lambda lib, m: m(lib.randn(2, 3), lib.randn(2, 5))),
    (lambda lib: lib.nn.LSTMCell(3, 4), lambda lib, m: m(lib.randn(2, 3), (lib.randn(2, 4), lib.randn(1, 2, 4)))),
    (lambda lib: lib.nn.LSTMCell(3, 4), lambda lib, m: m(lib.randn(2, 3), (lib.randn(2, 4), lib.randn(2, 5)))),
    (lambda lib: lib.nn.RNN(3, 4, nonlinearity="sigmoid"), None),
    (lambda lib: lib.nn.GRU(3, 4, proj_size=2), None),
    (lambda lib: lib.nn.LSTM(3, 4, proj_size=4), None),
    (lambda lib: lib.nn.LSTM(3, 4, dropout=1.5), None),
    (lambda lib: lib.nn.LSTM(3, 0), None),
    (lambda lib: lib.nn.LSTM(3.0, 4), None),
    (lambda lib: lib.nn.LSTM(3, 4, num_layers=0), None),
    (lambda lib: lib.nn.LSTM(3, 4, bias=1), None),
]


@pytest.mark.parametrize(("build", "call"), ERRORS)
def test_errors_in_pytorchs_words(build, call):
    call = call or (lambda lib, m: None)
    theirs = _error(torch, build, call)
    assert theirs is not None
    assert _error(minigrad, build, call) == theirs


def test_dropout_with_one_layer_warns_as_pytorch():
    with pytest.warns(UserWarning, match="non-zero dropout expects num_layers greater than 1"):
        minigrad.nn.GRU(3, 4, dropout=0.2)


def test_all_weights_and_flatten_parameters():
    m = minigrad.nn.LSTM(3, 4, num_layers=2, bidirectional=True)
    t = torch.nn.LSTM(3, 4, num_layers=2, bidirectional=True)
    m.flatten_parameters()
    assert [[tuple(p.shape) for p in ps] for ps in m.all_weights] == [
        [tuple(p.shape) for p in ps] for ps in t.all_weights
    ]
    assert m._flat_weights_names == t._flat_weights_names
