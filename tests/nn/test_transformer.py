"""nn4: MultiheadAttention and the Transformer stacks against PyTorch.

Each case builds the same module in both libraries from the same seed and runs the same input: the weights
must be bit-identical (same initialisation), the repr and state_dict keys equal, the output, the attention
weights and every gradient close, and the grad_fn graph node for node the same.  PyTorch's eval-mode
no-grad fast path (fused kernels) is compared on values only.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from nn_graphs import graph

import minigrad

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def _arr(t):
    return t.detach().numpy()


def _close(a, b, tol):
    a, b = _arr(a), _arr(b)
    assert a.shape == b.shape
    np.testing.assert_allclose(a, b, rtol=tol, atol=tol)


def _bool_mask(lib, shape, seed):
    data = np.random.default_rng(seed).random(shape) < 0.3
    data[..., 0] = False                                   # every row keeps at least one key
    return lib.tensor(data)


def _float_mask(lib, shape, seed, dtype):
    return lib.tensor(np.random.default_rng(seed).standard_normal(shape), dtype=dtype)


# name: (constructor kwargs, call builder(lib, mha, dtype) -> (args, kwargs))
def _self(shape):
    def make(lib, dtype):
        x = lib.randn(*shape, dtype=dtype, requires_grad=True)
        return [x], (x, x, x), {}
    return make


def _with(shape, **extra):
    def make(lib, dtype):
        x = lib.randn(*shape, dtype=dtype, requires_grad=True)
        kwargs = {k: v(lib, dtype) for k, v in extra.items()}
        return [x], (x, x, x), kwargs
    return make


def _cross(qshape, kshape, vshape=None, same_kv=True):
    def make(lib, dtype):
        q = lib.randn(*qshape, dtype=dtype, requires_grad=True)
        k = lib.randn(*kshape, dtype=dtype, requires_grad=True)
        v = k if same_kv else lib.randn(*(vshape or kshape), dtype=dtype, requires_grad=True)
        return ([q, k] if same_kv else [q, k, v]), (q, k, v), {}
    return make


def _const(value):
    return lambda lib, dtype: value


MHA_CASES = {
    "self": ({"embed_dim": 4, "num_heads": 2}, _self((3, 2, 4))),
    "batch_first": ({"embed_dim": 6, "num_heads": 3, "batch_first": True}, _self((2, 5, 6))),
    "unbatched": ({"embed_dim": 4, "num_heads": 1}, _self((3, 4))),
    "no_bias": ({"embed_dim": 4, "num_heads": 2, "bias": False}, _self((3, 2, 4))),
    "cross_kv": ({"embed_dim": 4, "num_heads": 2}, _cross((3, 2, 4), (5, 2, 4))),
    "cross_qkv": ({"embed_dim": 4, "num_heads": 2}, _cross((3, 2, 4), (5, 2, 4), same_kv=False)),
    "cross_batch_first": ({"embed_dim": 4, "num_heads": 2, "batch_first": True},
                          _cross((2, 3, 4), (2, 5, 4), same_kv=False)),
    "kdim_vdim": ({"embed_dim": 4, "num_heads": 2, "kdim": 3, "vdim": 5},
                  _cross((3, 2, 4), (6, 2, 3), (6, 2, 5), same_kv=False)),
    "kdim_unbatched": ({"embed_dim": 4, "num_heads": 2, "kdim": 3, "vdim": 3}, _cross((3, 4), (6, 3))),
    "key_padding_bool": ({"embed_dim": 4, "num_heads": 2},
                         _with((4, 3, 4), key_padding_mask=lambda lib, d: _bool_mask(lib, (3, 4), 1))),
    "key_padding_float": ({"embed_dim": 4, "num_heads": 2},
                          _with((4, 3, 4), key_padding_mask=lambda lib, d: _float_mask(lib, (3, 4), 2, d))),
    "attn_mask_2d_bool": ({"embed_dim": 4, "num_heads": 2},
                          _with((4, 3, 4), attn_mask=lambda lib, d: _bool_mask(lib, (4, 4), 3))),
    "attn_mask_3d_float": ({"embed_dim": 4, "num_heads": 2},
                           _with((4, 3, 4), attn_mask=lambda lib, d: _float_mask(lib, (6, 4, 4), 4, d))),
    "both_masks": ({"embed_dim": 4, "num_heads": 2},
                   _with((4, 3, 4), attn_mask=lambda lib, d: _bool_mask(lib, (4, 4), 5),
                         key_padding_mask=lambda lib, d: _bool_mask(lib, (3, 4), 6))),
    "no_weights": ({"embed_dim": 4, "num_heads": 2}, _with((3, 2, 4), need_weights=_const(False))),
    "no_weights_masks": ({"embed_dim": 4, "num_heads": 2, "batch_first": True},
                         _with((3, 4, 4), need_weights=_const(False),
                               attn_mask=lambda lib, d: _bool_mask(lib, (4, 4), 7),
                               key_padding_mask=lambda lib, d: _bool_mask(lib, (3, 4), 8))),
    "no_weights_3d_mask": ({"embed_dim": 4, "num_heads": 2},
                           _with((4, 3, 4), need_weights=_const(False),
                                 attn_mask=lambda lib, d: _float_mask(lib, (6, 4, 4), 9, d))),
    "causal": ({"embed_dim": 4, "num_heads": 2},
               _with((4, 3, 4), need_weights=_const(False), is_causal=_const(True),
                     attn_mask=lambda lib, d: lib.nn.Transformer.generate_square_subsequent_mask(4, dtype=d))),
    "per_head_weights": ({"embed_dim": 4, "num_heads": 2}, _with((3, 2, 4), average_attn_weights=_const(False))),
    "unbatched_per_head": ({"embed_dim": 4, "num_heads": 2},
                           _with((3, 4), average_attn_weights=_const(False),
                                 key_padding_mask=lambda lib, d: _bool_mask(lib, (3,), 10))),
    "bias_kv": ({"embed_dim": 4, "num_heads": 2, "add_bias_kv": True},
                _with((3, 2, 4), attn_mask=lambda lib, d: _bool_mask(lib, (3, 3), 11),
                      key_padding_mask=lambda lib, d: _bool_mask(lib, (2, 3), 12))),
    "zero_attn": ({"embed_dim": 4, "num_heads": 2, "add_zero_attn": True},
                  _with((3, 2, 4), attn_mask=lambda lib, d: _float_mask(lib, (3, 3), 13, d),
                        key_padding_mask=lambda lib, d: _bool_mask(lib, (2, 3), 14))),
    "bias_kv_zero_attn": ({"embed_dim": 4, "num_heads": 2, "add_bias_kv": True, "add_zero_attn": True},
                          _self((3, 2, 4))),
    "dropout": ({"embed_dim": 4, "num_heads": 2, "dropout": 0.4}, _self((3, 2, 4))),
    "dropout_no_weights": ({"embed_dim": 4, "num_heads": 2, "dropout": 0.4},
                           _with((3, 2, 4), need_weights=_const(False))),
}


def _run_mha(lib, kwargs, make, dtype_name):
    dtype = getattr(lib, dtype_name)
    lib.manual_seed(0)
    mha = lib.nn.MultiheadAttention(**kwargs, dtype=dtype)
    leaves, args, call = make(lib, dtype)
    out, weights = mha(*args, **call)
    loss = out.sum() * 1.5 + (0 if weights is None else (weights * weights).sum())
    loss.backward()
    return mha, leaves, out, weights


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(MHA_CASES))
def test_multihead_attention_matches_pytorch(name, dtype):
    kwargs, make = MHA_CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")          # torch's own fast-path notes are not under test here
        tm, tleaves, tout, tw = _run_mha(torch, kwargs, make, dtype)
        mm, mleaves, mout, mw = _run_mha(minigrad, kwargs, make, dtype)   # (the mismatched-mask warning)
    assert repr(mm) == repr(tm)
    assert list(mm.state_dict()) == list(tm.state_dict())
    for key, value in tm.state_dict().items():       # bit-identical initialisation from the seed
        assert np.array_equal(_arr(mm.state_dict()[key]), _arr(value)), key
    tol = 2e-5 if dtype == "float32" else 1e-10
    _close(mout, tout, tol)
    assert graph(mout) == graph(tout)
    assert (mw is None) == (tw is None)
    if tw is not None:
        _close(mw, tw, tol)
        assert graph(mw) == graph(tw)
    for (_, tp), (_, mp) in zip(tm.named_parameters(), mm.named_parameters()):
        _close(mp.grad, tp.grad, tol * 10)
    for t, m in zip(tleaves, mleaves):
        _close(m.grad, t.grad, tol * 10)


def test_multihead_attention_attributes_and_baddbmm_node():
    for lib in (torch, minigrad):
        lib.manual_seed(0)
    t = torch.nn.MultiheadAttention(6, 3, kdim=2, vdim=5, add_bias_kv=True)
    m = minigrad.nn.MultiheadAttention(6, 3, kdim=2, vdim=5, add_bias_kv=True)
    for attr in ("embed_dim", "kdim", "vdim", "_qkv_same_embed_dim", "num_heads", "dropout", "batch_first",
                 "head_dim", "add_zero_attn"):
        assert getattr(m, attr) == getattr(t, attr), attr
    assert m.in_proj_weight is None
    assert t.in_proj_weight is None
    assert [n for n, _ in m.named_parameters()] == [n for n, _ in t.named_parameters()]
    assert type(m.out_proj).__name__ == "NonDynamicallyQuantizableLinear"
    assert isinstance(m.out_proj, minigrad.nn.Linear)
    # the float mask goes in through one baddbmm node that saves the scalars
    x = minigrad.randn(3, 1, 6, requires_grad=True)
    _, w = m(x, minigrad.randn(3, 1, 2), minigrad.randn(3, 1, 5), attn_mask=minigrad.zeros(3, 3))
    node = w.grad_fn.next_functions[0][0].next_functions[0][0].next_functions[0][0]
    assert type(node).__name__ == "BaddbmmBackward0"
    assert (node._saved_alpha, node._saved_beta) == (1, 1)


MHA_ERRORS = [
    (lambda nn: nn.MultiheadAttention(0, 2), None),
    (lambda nn: nn.MultiheadAttention(5, 2), None),
    (lambda nn: nn.MultiheadAttention(4, -1), None),
]


@pytest.mark.parametrize("k", range(len(MHA_ERRORS)))
def test_multihead_attention_constructor_errors(k):
    build, _ = MHA_ERRORS[k]
    with pytest.raises(Exception) as theirs:  # noqa: PT011 - whatever PyTorch raises, minigrad must too
        build(torch.nn)
    with pytest.raises(type(theirs.value)) as ours:
        build(minigrad.nn)
    assert str(ours.value) == str(theirs.value)


def _call_errors():
    def q(lib, *shape):
        return lib.randn(*shape)

    return [
        lambda lib, m: m(q(lib, 3, 2, 5), q(lib, 3, 2, 5), q(lib, 3, 2, 5)),
        lambda lib, m: m(q(lib, 3, 2, 4), q(lib, 3, 4), q(lib, 3, 4)),
        lambda lib, m: m(q(lib, 3, 4), q(lib, 3, 2, 4), q(lib, 3, 2, 4)),
        lambda lib, m: m(q(lib, 2, 3, 2, 4), q(lib, 3, 2, 4), q(lib, 3, 2, 4)),
        lambda lib, m: m(q(lib, 3, 2, 4), q(lib, 5, 2, 4), q(lib, 4, 2, 4)),
        lambda lib, m: m(q(lib, 3, 2, 4), q(lib, 3, 2, 4), q(lib, 3, 2, 4), attn_mask=lib.zeros(2, 2)),
        lambda lib, m: m(q(lib, 3, 2, 4), q(lib, 3, 2, 4), q(lib, 3, 2, 4), attn_mask=lib.zeros(3, 3, 3)),
        lambda lib, m: m(q(lib, 3, 2, 4), q(lib, 3, 2, 4), q(lib, 3, 2, 4), attn_mask=lib.zeros(1, 1, 3, 3)),
        lambda lib, m: m(q(lib, 3, 2, 4), q(lib, 3, 2, 4), q(lib, 3, 2, 4), attn_mask=lib.zeros(3, 3, dtype=lib.int64)),
        lambda lib, m: m(q(lib, 3, 2, 4), q(lib, 3, 2, 4), q(lib, 3, 2, 4), key_padding_mask=lib.zeros(2, 4)),
        lambda lib, m: m(q(lib, 3, 2, 4), q(lib, 3, 2, 4), q(lib, 3, 2, 4), key_padding_mask=lib.zeros(3, 3)),
        lambda lib, m: m(q(lib, 3, 2, 4), q(lib, 3, 2, 4), q(lib, 3, 2, 4), key_padding_mask=lib.zeros(2)),
        lambda lib, m: m(q(lib, 3, 2, 4), q(lib, 3, 2, 4), q(lib, 3, 2, 4), is_causal=True),
        lambda lib, m: m(q(lib, 3, 4), q(lib, 3, 4), q(lib, 3, 4), attn_mask=lib.zeros(3, 3, 3)),
    ]


@pytest.mark.parametrize("k", range(len(_call_errors())))
def test_multihead_attention_call_errors(k):
    call = _call_errors()[k]
    with pytest.raises(Exception) as theirs:  # noqa: PT011 - whatever PyTorch raises, minigrad must too
        call(torch, torch.nn.MultiheadAttention(4, 2))
    with pytest.raises(type(theirs.value)) as ours:
        call(minigrad, minigrad.nn.MultiheadAttention(4, 2))
    assert str(ours.value) == str(theirs.value)


def test_mismatched_mask_types_warn_as_pytorch():
    for lib in (torch, minigrad):
        m = lib.nn.MultiheadAttention(4, 2)
        x = lib.randn(3, 2, 4)
        with pytest.warns(UserWarning, match="Support for mismatched key_padding_mask and attn_mask is deprecated"):
            m(x, x, x, key_padding_mask=lib.zeros(2, 3, dtype=lib.bool), attn_mask=lib.zeros(3, 3))


def test_functional_multi_head_attention_forward_matches_pytorch():
    def run(lib):
        lib.manual_seed(1)
        q = lib.randn(3, 2, 4, requires_grad=True)
        w_in = lib.randn(12, 4, requires_grad=True)
        b_in = lib.randn(12, requires_grad=True)
        w_out = lib.randn(4, 4, requires_grad=True)
        out, weights = lib.nn.functional.multi_head_attention_forward(
            q, q, q, 4, 2, w_in, b_in, None, None, False, 0.0, w_out, None, training=False)
        (out.sum() + weights.sum()).backward()
        return out, weights, q.grad, w_in.grad, b_in.grad, w_out.grad

    for ours, theirs in zip(run(minigrad), run(torch)):
        _close(ours, theirs, 2e-5)


# -- Transformer layers --------------------------------------------------------------------------------------


def _encoder_layer(lib, **kw):
    return lib.nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, **kw)


def _decoder_layer(lib, **kw):
    return lib.nn.TransformerDecoderLayer(d_model=8, nhead=2, dim_feedforward=16, **kw)


def _src(lib, shape, dtype):
    return lib.randn(*shape, dtype=dtype, requires_grad=True)


def _mask(lib, n, dtype):
    return lib.nn.Transformer.generate_square_subsequent_mask(n, dtype=dtype)


LAYER_CASES = {
    "encoder_layer": (lambda lib, d: _encoder_layer(lib, dtype=d), lambda lib, d: [_src(lib, (5, 3, 8), d)], {}),
    "encoder_layer_norm_first_gelu": (
        lambda lib, d: _encoder_layer(lib, norm_first=True, activation="gelu", batch_first=True, dtype=d),
        lambda lib, d: [_src(lib, (3, 5, 8), d)], {}),
    "encoder_layer_callable_activation_masks": (
        lambda lib, d: _encoder_layer(lib, activation=lib.nn.functional.silu, dtype=d),
        lambda lib, d: [_src(lib, (5, 3, 8), d)],
        {"src_mask": lambda lib, d: _mask(lib, 5, d),
         "src_key_padding_mask": lambda lib, d: _bool_mask(lib, (3, 5), 20)}),
    "encoder_layer_no_bias_unbatched": (lambda lib, d: _encoder_layer(lib, bias=False, dtype=d),
                                        lambda lib, d: [_src(lib, (5, 8), d)], {}),
    "encoder_layer_causal": (lambda lib, d: _encoder_layer(lib, dtype=d), lambda lib, d: [_src(lib, (5, 3, 8), d)],
                             {"src_mask": lambda lib, d: _mask(lib, 5, d), "is_causal": lambda lib, d: True}),
    "encoder": (lambda lib, d: lib.nn.TransformerEncoder(_encoder_layer(lib, dtype=d), 2,
                                                         lib.nn.LayerNorm(8, dtype=d), enable_nested_tensor=False),
                lambda lib, d: [_src(lib, (5, 3, 8), d)], {"mask": lambda lib, d: _mask(lib, 5, d)}),
    "encoder_padding_batch_first": (
        lambda lib, d: lib.nn.TransformerEncoder(_encoder_layer(lib, batch_first=True, dtype=d), 2),
        lambda lib, d: [_src(lib, (3, 5, 8), d)],
        {"src_key_padding_mask": lambda lib, d: _bool_mask(lib, (3, 5), 21)}),
    "decoder_layer": (lambda lib, d: _decoder_layer(lib, dtype=d),
                      lambda lib, d: [_src(lib, (4, 3, 8), d), _src(lib, (5, 3, 8), d)],
                      {"tgt_mask": lambda lib, d: _mask(lib, 4, d)}),
    "decoder_layer_norm_first_masks": (
        lambda lib, d: _decoder_layer(lib, norm_first=True, batch_first=True, dtype=d),
        lambda lib, d: [_src(lib, (3, 4, 8), d), _src(lib, (3, 5, 8), d)],
        {"tgt_key_padding_mask": lambda lib, d: _bool_mask(lib, (3, 4), 22),
         "memory_key_padding_mask": lambda lib, d: _bool_mask(lib, (3, 5), 23),
         "memory_mask": lambda lib, d: _bool_mask(lib, (4, 5), 24)}),
    "decoder": (lambda lib, d: lib.nn.TransformerDecoder(_decoder_layer(lib, dtype=d), 2, lib.nn.LayerNorm(8, dtype=d)),
                lambda lib, d: [_src(lib, (4, 3, 8), d), _src(lib, (5, 3, 8), d)],
                {"tgt_mask": lambda lib, d: _mask(lib, 4, d)}),
    "transformer": (
        lambda lib, d: lib.nn.Transformer(d_model=8, nhead=2, num_encoder_layers=2, num_decoder_layers=1,
                                          dim_feedforward=16, dtype=d),
        lambda lib, d: [_src(lib, (5, 3, 8), d), _src(lib, (4, 3, 8), d)],
        {"tgt_mask": lambda lib, d: _mask(lib, 4, d)}),
    "transformer_batch_first_norm_first": (
        lambda lib, d: lib.nn.Transformer(d_model=8, nhead=4, num_encoder_layers=1, num_decoder_layers=2,
                                          dim_feedforward=12, dropout=0.0, batch_first=True, norm_first=True,
                                          activation="gelu", dtype=d),
        lambda lib, d: [_src(lib, (2, 5, 8), d), _src(lib, (2, 4, 8), d)],
        {"src_key_padding_mask": lambda lib, d: _bool_mask(lib, (2, 5), 25),
         "memory_key_padding_mask": lambda lib, d: _bool_mask(lib, (2, 5), 25)}),
}


def _run_layer(lib, name, dtype_name, train=True):
    build, inputs, extra = LAYER_CASES[name]
    dtype = getattr(lib, dtype_name)
    lib.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = build(lib, dtype)
    model.train(train)
    xs = inputs(lib, dtype)
    kwargs = {k: v(lib, dtype) for k, v in extra.items()}
    if not train:
        with lib.no_grad():
            return model, xs, model(*xs, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = model(*xs, **kwargs)
    (out * out).sum().backward()
    return model, xs, out


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(LAYER_CASES))
def test_transformer_layers_match_pytorch(name, dtype):
    tm, txs, tout = _run_layer(torch, name, dtype)
    mm, mxs, mout = _run_layer(minigrad, name, dtype)
    assert repr(mm) == repr(tm)
    assert list(mm.state_dict()) == list(tm.state_dict())
    for key, value in tm.state_dict().items():
        assert np.array_equal(_arr(mm.state_dict()[key]), _arr(value)), key
    tol = 5e-5 if dtype == "float32" else 1e-9
    _close(mout, tout, tol)                          # dropout 0.1 in training: the same masks from the seed
    assert graph(mout) == graph(tout)
    for (_, tp), (_, mp) in zip(tm.named_parameters(), mm.named_parameters()):
        _close(mp.grad, tp.grad, tol * 20)
    for t, m in zip(txs, mxs):
        _close(m.grad, t.grad, tol * 20)


@pytest.mark.parametrize("name", ["encoder_layer", "encoder_padding_batch_first", "decoder", "transformer"])
def test_eval_mode_matches_pytorchs_fast_path_values(name):
    _, _, tout = _run_layer(torch, name, "float32", train=False)
    _, _, mout = _run_layer(minigrad, name, "float32", train=False)
    assert mout.grad_fn is None
    _close(mout, tout, 5e-5)


def test_transformer_attributes_mask_and_warning():
    for lib in (torch, minigrad):
        mask = lib.nn.Transformer.generate_square_subsequent_mask(3)
        assert mask.tolist() == [[0.0, float("-inf"), float("-inf")], [0.0, 0.0, float("-inf")], [0.0, 0.0, 0.0]]
    messages = []
    for lib in (torch, minigrad):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            enc = lib.nn.TransformerEncoder(_encoder_layer(lib), 2)
        messages.append([str(w.message) for w in caught if "nested" in str(w.message)])
        assert enc.use_nested_tensor is False
        assert enc.num_layers == 2
    assert messages[0] == messages[1]
    assert len(messages[0]) == 1
    with pytest.warns(UserWarning, match="enable_nested_tensor is True"):
        t = torch.nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=4)
    with pytest.warns(UserWarning, match="enable_nested_tensor is True"):
        m = minigrad.nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1,
                                    dim_feedforward=4)
    assert (m.d_model, m.nhead, m.batch_first) == (t.d_model, t.nhead, t.batch_first)
    assert m.encoder.layers[0].activation_relu_or_gelu == t.encoder.layers[0].activation_relu_or_gelu == 1
    with pytest.raises(RuntimeError, match="activation should be relu/gelu, not tanh"):
        minigrad.nn.TransformerEncoderLayer(8, 2, activation="tanh")
    for lib, model in ((torch, t), (minigrad, m)):
        with pytest.raises(RuntimeError, match="the batch number of src and tgt must be equal"):
            model(lib.randn(3, 2, 8), lib.randn(3, 4, 8))
        with pytest.raises(RuntimeError, match="the feature number of src and tgt must be equal to d_model"):
            model(lib.randn(3, 2, 8), lib.randn(3, 2, 6))


# -- F.scaled_dot_product_attention: PyTorch's fused CPU kernel node ------------------------------------------

_FLASH = [
    ({}, ((2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 4))),
    ({"is_causal": True}, ((2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 4))),
    ({"is_causal": True}, ((1, 3, 4, 2), (1, 3, 4, 2), (1, 3, 4, 2))),
    ({"scale": 0.3}, ((1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 4))),
    ({"attn_mask": "bool2d"}, ((2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 4))),
    ({"attn_mask": "dead_rows"}, ((1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 4))),
    ({"attn_mask": "float4d"}, ((2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 4))),
    ({"enable_gqa": True}, ((2, 4, 3, 4), (2, 2, 5, 4), (2, 2, 5, 4))),
    ({"attn_mask": "grad"}, ((1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 4))),     # a learned mask: the math path
    ({"dropout_p": 0.3}, ((1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 4))),        # dropout: the math path
    ({}, ((1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 3))),                        # head sizes differ: math
    ({}, ((2, 2, 2, 3, 4), (2, 2, 2, 5, 4), (2, 2, 2, 5, 4))),               # 5-d: math
]


def _flash_mask(lib, kind, dtype):
    rng = np.random.default_rng(3)
    if kind == "bool2d":
        m = rng.random((3, 5)) < 0.6
        m[:, 0] = True
        return lib.tensor(m)
    if kind == "dead_rows":
        m = rng.random((3, 5)) < 0.6
        m[1] = False
        return lib.tensor(m)
    t = lib.tensor(rng.standard_normal((2, 1, 3, 5) if kind == "float4d" else (3, 5)), dtype=dtype)
    return t.requires_grad_() if kind == "grad" else t


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(("kw", "shapes"), _FLASH, ids=range(len(_FLASH)))
def test_scaled_dot_product_attention_takes_pytorchs_cpu_path(kw, shapes, dtype):
    arrays = [np.random.default_rng(i).standard_normal(s) for i, s in enumerate(shapes)]
    res = []
    for lib in (minigrad, torch):
        d = getattr(lib, dtype)
        lib.manual_seed(0)
        q, k, v = (lib.tensor(a, dtype=d, requires_grad=True) for a in arrays)
        kwargs = {n: _flash_mask(lib, x, d) if n == "attn_mask" else x for n, x in kw.items()}
        y = lib.nn.functional.scaled_dot_product_attention(q, k, v, **kwargs)
        node = y.grad_fn
        saved = None
        if type(node).__name__ == "ScaledDotProductFlashAttentionForCpuBackward0":
            saved = (node._saved_scale, node._saved_dropout_p, node._saved_is_causal,
                     node._saved_logsumexp.detach().numpy(), node._saved_logsumexp.stride(), y.stride(),
                     None if node._saved_attn_mask is None else node._saved_attn_mask.detach().numpy())
        (y * y).sum().backward()
        res.append((graph(y), saved, y, q.grad, k.grad, v.grad))
    assert res[0][0] == res[1][0]
    tol = 2e-5 if dtype == "float32" else 1e-10
    if res[1][1] is not None:
        ours, theirs = res[0][1], res[1][1]
        assert ours[:3] == theirs[:3]
        assert ours[4:6] == theirs[4:6]
        np.testing.assert_allclose(ours[3], theirs[3], rtol=tol, atol=tol)
        if theirs[6] is not None:
            np.testing.assert_array_equal(ours[6], theirs[6])
    for a, b in zip(res[0][2:], res[1][2:]):
        _close(a, b, tol)


def test_flash_attention_node_gradcheck_and_gradgradcheck():
    from minigrad.autograd import gradcheck, gradgradcheck

    rng = np.random.default_rng(0)
    q, k, v = (minigrad.tensor(rng.standard_normal(s), requires_grad=True)
               for s in ((1, 4, 3, 2), (1, 2, 4, 2), (1, 2, 4, 2)))
    fn = minigrad.nn.functional.scaled_dot_product_attention
    mask = minigrad.tensor(rng.random((3, 4)) < 0.7)
    assert gradcheck(lambda q, k, v: fn(q, k, v, attn_mask=mask, enable_gqa=True), (q, k, v))
    assert gradgradcheck(lambda q, k, v: fn(q, k, v, is_causal=True, enable_gqa=True), (q, k, v))
    assert type(fn(q, k, v, enable_gqa=True).grad_fn).__name__ == "ScaledDotProductFlashAttentionForCpuBackward0"
