"""nn3's layers against PyTorch: ParameterList / ParameterDict (registration, indexing, repr, state_dict)."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest
from nn_graphs import graph

import minigrad

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

RNG = np.random.default_rng(0)


# -- ParameterList / ParameterDict -------------------------------------------------------------------


def _plist(lib):
    nn = lib.nn
    lst = nn.ParameterList([nn.Parameter(lib.ones(2, 3)), lib.zeros(4), "text"])
    lst.append(lib.ones(1, dtype=lib.float64))
    lst.extend([nn.Parameter(lib.zeros(2, 2))])
    lst += [lib.ones(5)]
    lst[1] = lib.full((3,), 2.0)
    lst.append(nn.Linear(2, 1))
    return lst


def _pdict(lib):
    nn = lib.nn
    d = nn.ParameterDict({"b": lib.ones(2), "a": nn.Parameter(lib.zeros(3, 1)), "c": 3})
    d["z"] = lib.ones(1, dtype=lib.float64)
    d.update([("y", lib.zeros(2)), ("x", lib.ones(1))])
    d.setdefault("w", lib.ones(4))
    d.setdefault("b", lib.zeros(9))
    del d["x"]
    return d


def _summary(c):
    return (
        repr(c),
        len(c),
        list(c.state_dict().keys()),
        [(n, tuple(p.shape), str(p.dtype)) for n, p in c.named_parameters()],
        [type(v).__name__ for v in (c if isinstance(c, type(c)) and not hasattr(c, "keys") else c.values())],
    )


@pytest.mark.parametrize("make", [_plist, _pdict], ids=["list", "dict"])
def test_parameter_containers_match_pytorch(make):
    ours, theirs = _summary(make(minigrad)), _summary(make(torch))
    assert ours == theirs


def test_parameter_containers_in_a_model_and_training():
    for lib in (minigrad, torch):
        lib.manual_seed(0)

    def run(lib):
        nn = lib.nn

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.ws = nn.ParameterList([nn.Parameter(lib.randn(3, 3)) for _ in range(2)])
                self.bs = nn.ParameterDict({"first": lib.randn(3), "second": lib.randn(3)})

            def forward(self, x):
                for w, b in zip(self.ws, self.bs.values()):
                    x = x @ w + b
                return x

        lib.manual_seed(0)
        net = Net()
        x = lib.randn(4, 3)
        out = net(x).sum()
        out.backward()
        return (
            repr(net),
            list(net.state_dict().keys()),
            [p.grad.numpy().copy() for p in net.parameters()],
            graph(out),
        )

    a, b = run(minigrad), run(torch)
    assert a[0] == b[0]
    assert a[1] == b[1]
    assert a[3] == b[3]
    for ga, gb in zip(a[2], b[2]):
        np.testing.assert_allclose(ga, gb, rtol=1e-5, atol=1e-6)


def test_parameter_containers_indexing_and_errors():
    def run(lib):
        nn = lib.nn
        out = []
        lst = nn.ParameterList([lib.zeros(1), lib.ones(2), lib.zeros(3)])
        out.append([tuple(p.shape) for p in lst[1:]])
        out.append(type(lst[::2]).__name__)
        out.append(tuple(lst[-1].shape))
        out.append(isinstance(lst[0], nn.Parameter))
        d = nn.ParameterDict([("k", lib.zeros(1)), ("j", lib.ones(2))])
        out.append(list(d))
        out.append(list(reversed(d)))
        out.append(list((d | nn.ParameterDict({"m": lib.ones(1)})).keys()))
        out.append(d.popitem()[0])
        out.append(d.get("nope", 7))
        out.append("k" in d)
        out.append(list(d.fromkeys(["p", "q"]).keys()))
        out.append(list(d.copy().keys()))
        for bad in (
            lambda: lst[3],
            lambda: lst.extend(lib.ones(2)),
            lambda: lst(1),
            lambda: d[1],
            lambda: d(1),
            lambda: d.update(3),
            lambda: d.update([(1, 2, 3)]),
            lambda: d.update([3]),
            lambda: d.pop("absent"),
        ):
            try:
                bad()
                out.append("no error")
            except Exception as e:
                out.append((type(e).__name__, str(e)))
        d.clear()
        out.append(len(d))
        return out

    assert run(minigrad) == run(torch)


# -- GroupNorm / F.group_norm ------------------------------------------------------------------------

GN_CASES = [
    ((2, 4, 3), 2, True, True), ((3, 6), 3, True, True), ((2, 6, 2, 3), 2, True, False),
    ((2, 4, 2, 2, 2), 4, False, False),
    ((1, 4, 5), 1, True, True), ((2, 3, 4), 3, True, True),
]


@pytest.mark.parametrize(("shape", "groups", "affine", "bias"), GN_CASES)
def test_group_norm_matches_pytorch(shape, groups, affine, bias):
    a = RNG.standard_normal(shape).astype(np.float32) * 3 + 1
    res = []
    for lib in (minigrad, torch):
        lib.manual_seed(0)
        m = lib.nn.GroupNorm(groups, shape[1], eps=1e-3, affine=affine, bias=bias)
        if affine:
            with lib.no_grad():
                m.weight.copy_(lib.tensor(np.linspace(0.5, 2, shape[1], dtype=np.float32)))
        x = lib.tensor(a, requires_grad=True)
        y = m(x)
        w = lib.tensor(np.arange(y.numel(), dtype=np.float32).reshape(shape) % 5)
        node = y.grad_fn
        saved = [node._saved_result1.detach().numpy().copy(), node._saved_result2.detach().numpy().copy()]
        (y * w).sum().backward()
        res.append((repr(m), list(m.state_dict().keys()), graph(y), y.detach().numpy(), x.grad.numpy(),
                    [p.grad.numpy() for p in m.parameters()],
                    (node._saved_N, node._saved_C, node._saved_HxW, node._saved_group, node._saved_eps),
                    *saved))
    ours, theirs = res
    assert ours[:3] == theirs[:3]
    assert ours[6] == theirs[6]
    for i in (3, 4, 7, 8):
        np.testing.assert_allclose(ours[i], theirs[i], rtol=1e-4, atol=1e-4)
    for ga, gb in zip(ours[5], theirs[5]):
        np.testing.assert_allclose(ga, gb, rtol=1e-4, atol=1e-4)


def test_group_norm_functional_and_gradcheck():
    from minigrad.autograd import gradcheck, gradgradcheck

    a = RNG.standard_normal((2, 4, 3))
    x = minigrad.tensor(a, requires_grad=True)
    w = minigrad.tensor(RNG.standard_normal(4), requires_grad=True)
    b = minigrad.tensor(RNG.standard_normal(4), requires_grad=True)
    fn = minigrad.nn.functional.group_norm
    assert gradcheck(lambda x, w, b: fn(x, 2, w, b, 1e-5), (x, w, b))
    assert gradgradcheck(lambda x, w, b: fn(x, 2, w, b, 1e-5), (x, w, b))
    assert gradcheck(lambda x: fn(x, 4), (x,))
    y_ours = fn(x, 2)
    y_torch = torch.nn.functional.group_norm(torch.tensor(a, requires_grad=True), 2)
    assert graph(y_ours) == graph(y_torch)
    np.testing.assert_allclose(y_ours.detach().numpy(), y_torch.detach().numpy(), rtol=1e-10, atol=1e-10)


def _error(fn):
    try:
        fn()
    except Exception as e:
        return type(e).__name__, _sorted_sets(str(e))
    return "no error"


def _sorted_sets(message):
    """A message that prints a set (``{'zeros', 'reflect', ...}``) with its items sorted: a set's printed order
    depends on the hash seed and on how its module was compiled (torch's .pyc stores the literal's frozenset)."""
    return re.sub(r"\{('[^{}]*')\}", lambda m: "{%s}" % ", ".join(sorted(m.group(1).split(", "))), message)


@pytest.mark.parametrize("bad", [
    lambda lib: lib.nn.GroupNorm(3, 4),
    lambda lib: lib.nn.functional.group_norm(lib.ones(2, 4, 3), 3),
    lambda lib: lib.nn.functional.group_norm(lib.ones(4), 2),
    lambda lib: lib.nn.functional.group_norm(lib.ones(2, 4, 3), 2, lib.ones(3)),
    lambda lib: lib.nn.functional.group_norm(lib.ones(2, 4, 3), 2, None, lib.ones(2, 2)),
    lambda lib: lib.nn.functional.group_norm(lib.ones(2, 4, 3), 2, lib.ones(4), lib.ones(3)),
    lambda lib: lib.nn.functional.group_norm(lib.ones(1, 2), 2),
])
def test_group_norm_errors_match_pytorch(bad):
    assert _error(lambda: bad(minigrad)) == _error(lambda: bad(torch))


# -- Conv1d / F.conv1d -------------------------------------------------------------------------------

CONV_CASES = [
    {"in_channels": 3, "out_channels": 4, "kernel_size": 3},
    {"in_channels": 4, "out_channels": 6, "kernel_size": 2, "stride": 2, "padding": 1, "dilation": 2, "groups": 2},
    {"in_channels": 2, "out_channels": 2, "kernel_size": 3, "padding": "same", "bias": False},
    {"in_channels": 2, "out_channels": 3, "kernel_size": 4, "padding": "valid", "dilation": (1,)},
    {"in_channels": 2, "out_channels": 2, "kernel_size": 3, "padding": 2, "padding_mode": "reflect"},
    {"in_channels": 2, "out_channels": 2, "kernel_size": 3, "padding": 1, "padding_mode": "circular"},
    {"in_channels": 2, "out_channels": 2, "kernel_size": (3,), "padding": (1,), "padding_mode": "replicate",
     "stride": (2,)},
    {"in_channels": 4, "out_channels": 4, "kernel_size": 3, "groups": 4, "padding": "same", "dilation": 2},
]


@pytest.mark.parametrize("kwargs", CONV_CASES, ids=range(len(CONV_CASES)))
@pytest.mark.parametrize("batched", [True, False])
def test_conv1d_layer_matches_pytorch(kwargs, batched):
    shape = (2, kwargs["in_channels"], 9) if batched else (kwargs["in_channels"], 9)
    a = RNG.standard_normal(shape).astype(np.float32)
    res = []
    for lib in (minigrad, torch):
        lib.manual_seed(0)
        m = lib.nn.Conv1d(**kwargs)
        x = lib.tensor(a, requires_grad=True)
        y = m(x)
        w = lib.tensor(np.arange(y.numel(), dtype=np.float32).reshape(tuple(y.shape)) % 5)
        node = y.grad_fn
        saved = (node._saved_stride, node._saved_padding, node._saved_dilation, node._saved_groups,
                 node._saved_transposed, node._saved_output_padding, node._saved_bias_sym_sizes_opt,
                 tuple(node._saved_weight.shape), tuple(node._saved_input.shape)) if batched else None
        (y * w).sum().backward()
        res.append((repr(m), list(m.state_dict().keys()), graph(y), saved,
                    [p.detach().numpy() for p in m.parameters()], y.detach().numpy(), x.grad.numpy(),
                    [p.grad.numpy() for p in m.parameters()]))
    ours, theirs = res
    assert ours[:4] == theirs[:4]
    for pa, pb in zip(ours[4], theirs[4]):
        np.testing.assert_array_equal(pa, pb)          # the same initialisation from the seed, bit for bit
    np.testing.assert_allclose(ours[5], theirs[5], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(ours[6], theirs[6], rtol=1e-5, atol=1e-5)
    for ga, gb in zip(ours[7], theirs[7]):
        np.testing.assert_allclose(ga, gb, rtol=1e-4, atol=1e-4)


def test_conv1d_same_even_kernel_warns_and_pads_right(monkeypatch):
    """PyTorch warns once per process (TORCH_WARN_ONCE): an earlier test may have used torch's warning up."""
    import minigrad.nn._functional_nn3 as nn3

    monkeypatch.setattr(nn3, "_warned_same_even", [])
    a = RNG.standard_normal((1, 2, 7))
    wa = RNG.standard_normal((3, 2, 4))
    res, said = [], []
    for lib in (minigrad, torch):
        x, w = lib.tensor(a, requires_grad=True), lib.tensor(wa, requires_grad=True)
        with warnings.catch_warnings(record=True) as rec:
            warnings.simplefilter("always")
            y = lib.nn.functional.conv1d(x, w, padding="same")
            lib.nn.functional.conv1d(x, w, padding="same")          # the second time: no warning
        y.sum().backward()
        said.append([str(r.message) for r in rec if "even kernel lengths and odd dilation" in str(r.message)])
        res.append((graph(y), y.detach().numpy(), x.grad.numpy(), w.grad.numpy()))
    assert len(said[0]) == 1
    assert said[1] in ([], said[0])                   # torch's, unless it was already used up in this process
    assert res[0][0] == res[1][0]
    for i in (1, 2, 3):
        np.testing.assert_allclose(res[0][i], res[1][i], rtol=1e-10, atol=1e-10)


def test_conv1d_gradcheck():
    from minigrad.autograd import gradcheck, gradgradcheck

    x = minigrad.tensor(RNG.standard_normal((2, 4, 7)), requires_grad=True)
    w = minigrad.tensor(RNG.standard_normal((6, 2, 3)), requires_grad=True)
    b = minigrad.tensor(RNG.standard_normal(6), requires_grad=True)
    fn = minigrad.nn.functional.conv1d
    assert gradcheck(lambda x, w, b: fn(x, w, b, 2, 1, 2, 2), (x, w, b))
    assert gradgradcheck(lambda x, w, b: fn(x, w, b, 1, 1, 1, 2), (x, w, b))


_X = (2, 4, 9)


@pytest.mark.parametrize(("xs", "ws", "kw"), [
    ((4,), (2, 4, 3), {}), ((1, 2, 4, 9), (2, 4, 3), {}), (_X, (2, 4), {}), (_X, (2, 4, 3, 3), {}),
    (_X, (2, 3, 3), {}), (_X, (2, 4, 3), {"stride": 0}), (_X, (2, 4, 3), {"padding": -1}),
    (_X, (2, 4, 3), {"dilation": 0}), (_X, (2, 4, 30), {}), (_X, (2, 4, 3), {"padding": "same", "stride": 2}),
    (_X, (2, 4, 3), {"padding": "foo"}), (_X, (3, 2, 3), {"groups": 2}), (_X, (1, 2, 3), {"groups": 2}),
    (_X, (2, 4, 3), {"stride": (1, 1)}), (_X, (2, 4, 3), {"padding": (1, 1)}), (_X, (2, 4, 3), {"groups": 0}),
    (_X, (2, 4, 3), {"bias": (3,)}),
])
def test_conv1d_errors_match_pytorch(xs, ws, kw):
    def run(lib):
        kwargs = dict(kw)
        if "bias" in kwargs:
            kwargs["bias"] = lib.ones(kwargs["bias"])
        return _error(lambda: lib.nn.functional.conv1d(lib.ones(xs), lib.ones(ws), **kwargs))

    assert run(minigrad) == run(torch)


@pytest.mark.parametrize("kwargs", [
    {"groups": 0}, {"groups": 2, "in_channels": 3}, {"groups": 2, "out_channels": 3}, {"padding": "full"},
    {"padding": "same", "stride": 2}, {"padding_mode": "mirror"},
])
def test_conv1d_constructor_errors_match_pytorch(kwargs):
    args = {"in_channels": 4, "out_channels": 4, "kernel_size": 3}
    args.update(kwargs)
    assert _error(lambda: minigrad.nn.Conv1d(**args)) == _error(lambda: torch.nn.Conv1d(**args))


# -- F.scaled_dot_product_attention ------------------------------------------------------------------

_ATT = RNG.standard_normal((3, 5)).astype(np.float32)
SDPA_CASES = [
    ({}, ((2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 3))),
    ({"is_causal": True}, ((2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 3))),
    ({"attn_mask": np.tril(np.ones((3, 5), bool))}, ((2, 3, 4), (2, 5, 4), (2, 5, 3))),
    ({"attn_mask": _ATT}, ((2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 3))),
    ({"scale": 0.7}, ((3, 4), (5, 4), (5, 2))),
    ({"scale": -0.3}, ((2, 3, 4), (2, 5, 4), (2, 5, 3))),
    ({"attn_mask": np.zeros((3, 5), bool)}, ((2, 3, 4), (2, 5, 4), (2, 5, 3))),   # fully masked rows give 0
    ({"attn_mask": np.eye(3, 5, dtype=bool) | np.eye(3, 5, 1, dtype=bool)}, ((1, 2, 3, 4), (1, 2, 5, 4),
                                                                              (1, 2, 5, 3))),
]


@pytest.mark.parametrize(("kw", "shapes"), SDPA_CASES, ids=range(len(SDPA_CASES)))
def test_scaled_dot_product_attention_matches_pytorch(kw, shapes):
    arrays = [RNG.standard_normal(s).astype(np.float32) for s in shapes]
    res = []
    for lib in (minigrad, torch):
        q, k, v = (lib.tensor(a, requires_grad=True) for a in arrays)
        kwargs = {n: lib.tensor(x) if isinstance(x, np.ndarray) else x for n, x in kw.items()}
        y = lib.nn.functional.scaled_dot_product_attention(q, k, v, **kwargs)
        (y * y).sum().backward()
        res.append((graph(y), y.detach().numpy(), q.grad.numpy(), k.grad.numpy(), v.grad.numpy()))
    assert res[0][0] == res[1][0]
    for a, b in zip(res[0][1:], res[1][1:]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_scaled_dot_product_attention_gradcheck_and_errors():
    from minigrad.autograd import gradcheck, gradgradcheck

    q, k, v = (minigrad.tensor(RNG.standard_normal(s), requires_grad=True) for s in ((2, 3, 4), (2, 5, 4), (2, 5, 2)))
    fn = minigrad.nn.functional.scaled_dot_product_attention
    assert gradcheck(lambda q, k, v: fn(q, k, v, is_causal=True), (q, k, v))
    assert gradgradcheck(lambda q, k, v: fn(q, k, v, scale=0.5), (q, k, v))

    def run(lib):
        a = lib.ones(2, 3, 4)
        return [
            _error(lambda: lib.nn.functional.scaled_dot_product_attention(
                a, a, a, attn_mask=lib.ones(3, 3, dtype=lib.bool), is_causal=True)),
            _error(lambda: lib.nn.functional.scaled_dot_product_attention(
                a, a, a, attn_mask=lib.ones(3, 3, dtype=lib.long))),
        ]

    assert run(minigrad) == run(torch)


def test_safe_softmax_node():
    a = RNG.standard_normal((2, 4)).astype(np.float32)
    a[1] = -np.inf
    res = []
    for lib in (minigrad, torch):
        x = lib.tensor(a, requires_grad=True)
        y = lib._safe_softmax(x, 1) if lib is torch else __import__(
            "minigrad.ops.attention", fromlist=["SafeSoftmax"]).SafeSoftmax.apply(x, 1)
        (y * lib.arange(4.0)).sum().backward()
        res.append((type(y.grad_fn).__name__, y.grad_fn._saved_dim, y.detach().numpy(), x.grad.numpy()))
    assert res[0][:2] == res[1][:2]
    np.testing.assert_allclose(res[0][2], res[1][2], rtol=1e-6)
    np.testing.assert_allclose(res[0][3], res[1][3], rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("gqa", [True, False])
def test_scaled_dot_product_attention_gqa_and_a_learned_mask(gqa):
    arrays = [RNG.standard_normal(s).astype(np.float32) for s in ((2, 4, 3, 4), (2, 2, 5, 4), (2, 2, 5, 3), (3, 5))]
    res = []
    for lib in (minigrad, torch):
        q, k, v, m = (lib.tensor(a, requires_grad=True) for a in arrays)
        if gqa:
            y = lib.nn.functional.scaled_dot_product_attention(q, k, v, enable_gqa=True)
        else:
            y = lib.nn.functional.scaled_dot_product_attention(q[:, :2], k, v, attn_mask=m)
        (y * y).sum().backward()
        res.append((graph(y), y.detach().numpy(), q.grad.numpy(), k.grad.numpy(), v.grad.numpy(),
                    None if gqa else m.grad.numpy()))
    assert res[0][0] == res[1][0]
    for a, b in zip(res[0][1:], res[1][1:]):
        if a is not None:
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_scaled_dot_product_attention_dropout_matches_pytorch_from_the_seed():
    a = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    out = []
    for lib in (minigrad, torch):
        lib.manual_seed(0)
        q = lib.tensor(a)
        out.append(lib.nn.functional.scaled_dot_product_attention(q, q, q, dropout_p=0.5).numpy())
    np.testing.assert_allclose(out[0], out[1], rtol=1e-5, atol=1e-6)
