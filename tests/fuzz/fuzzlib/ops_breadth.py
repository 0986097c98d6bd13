"""Breadth: op variants for the public ops the first table (:mod:`fuzzlib.ops`) never drew.

Registered with the same :func:`fuzzlib.ops.variant` (imported at the end of ``ops.py``, so the
families come after the first table's in ``VARIANTS``). The families:

* ``nn_s4`` -- session 4's ``nn.functional`` additions: 1-d pools and conv1d, glu, group/instance/rms
  norm, hardsigmoid, softmin, prelu, one_hot, the margin/KL/Gaussian/Poisson losses,
  scaled_dot_product_attention, the in-place activations (``F.elu_``...), dropout in eval mode;
* ``random`` -- ops that draw random numbers, each after ``torch.manual_seed`` in the same step
  (minigrad's generator is PyTorch's mt19937, bit for bit): randn/rand/randperm/normal/bernoulli,
  dropout and rrelu in training mode, ``uniform_``/``normal_``, recurrent cells with seeded weights;
* ``dtype`` -- integer, bool and float16 tensors, type promotion with float tensors and Python
  scalars, integer division and overflow;
* ``compare_misc`` -- eq/ne/lt/... as functions and methods, isclose/allclose/equal, amin, arc*,
  in-place unary forms, nonzero, unique, bincount, histc, meshgrid, cartesian_prod, factories;
* ``linalg2`` -- svd (gauge-invariant uses only), svdvals, matrix norms.

Inputs come from the program so far, so all of these also meet transposed, expanded, sliced, 0-d
and empty tensors.
"""

from __future__ import annotations

import numpy as np

from .ops import Skip, _with_base, need, variant
from .program import literal


def _red(g, extra=()):
    return g.choice(["'mean'", "'sum'", "'none'", *extra])


def _seq(g, min_len=1):
    """A (N, C, L) or (C, L) input for the 1-d layers: an existing one, or a new leaf."""
    a = g.pick(min_nd=2, max_nd=3, nonempty=True, where=lambda n: g.sh(n)[-1] >= min_len)
    if a is None or g.chance(0.3):
        shape = (g.choice([1, 2]), g.choice([1, 2, 3]), g.choice([2, 3, 4, 5]))
        a = g.leaf(shape if g.chance(0.8) else shape[1:])
    return a


def _pm1(g, shape, dtype):
    vals = np.array([g.choice([1.0, -1.0]) for _ in range(int(np.prod(shape)) if shape else 1)]).reshape(shape)
    return literal(vals, dtype)


# ------------------------------------------------------------------ session 4's nn.functional


@variant("pool1d", "nn_s4", 0.6)
def _pool1d(g):
    a = _seq(g)
    L = g.sh(a)[-1]
    k = g.choice([1, 2, 3])
    f = g.choice(["avg_pool1d", "max_pool1d", "max_pool1d_with_indices", "adaptive_avg_pool1d", "max_pool1d_ri"])
    stride = g.choice(["", ", stride=1", ", stride=2", ", 2"])
    pad = g.choice(["", "", ", padding=1"]) if k >= 2 else ""
    ceil = g.choice(["", "", ", ceil_mode=True"])
    if f == "avg_pool1d":
        code = "F.avg_pool1d(%s, %d%s%s%s%s)" % (a, k, stride, pad, ceil,
                                                 g.choice(["", ", count_include_pad=False"]))
    elif f == "max_pool1d":
        code = "F.max_pool1d(%s, %d%s%s%s%s)" % (a, k, stride, pad, ceil, g.choice(["", ", dilation=2"]))
    elif f == "max_pool1d_ri":
        code = "F.max_pool1d(%s, %d%s, return_indices=True)[%d]" % (a, k, stride, g.choice([0, 1]))
    elif f == "max_pool1d_with_indices":
        code = "F.max_pool1d_with_indices(%s, %d%s%s)[0]" % (a, k, stride, pad)
    else:
        code = "F.adaptive_avg_pool1d(%s, %d)" % (a, g.choice([1, 2, 3, max(L, 1)]))
    g.add_op(code, f.replace("_ri", ""), [a])


@variant("conv1d", "nn_s4", 0.6)
def _conv1d(g):
    a = _seq(g)
    c = g.sh(a)[-2]
    groups = g.choice([1, 1, 1, c])
    k = g.choice([1, 2, 3])
    o = groups * g.choice([1, 2])
    wt = g.leaf((o, c // groups, k), grad=g.chance(0.85))
    uses = [a, wt]
    extra = g.choice(["", ", stride=2", ", padding=1", ", padding='same'", ", padding='valid'", ", dilation=2",
                      ", padding=2, dilation=2"])
    if groups != 1:
        extra += ", groups=%d" % groups
    if g.chance(0.5):
        b = g.leaf((o,), grad=g.chance(0.8))
        uses.append(b)
        extra = ", %s%s" % (b, extra) if g.chance(0.5) else ", bias=%s%s" % (b, extra)
    g.add_op("F.conv1d(%s, %s%s)" % (a, wt, extra), "conv1d", uses)


@variant("norm_s4", "nn_s4", 0.7)
def _norm_s4(g):
    form = g.choice(["group_norm", "instance_norm", "rms_norm", "rms_norm", "glu", "softmin", "hardsigmoid",
                     "prelu"])
    if form in ("group_norm", "instance_norm"):
        a = g.pick(min_nd=2, max_nd=4, nonempty=True)
        if a is None or g.chance(0.3):
            a = g.leaf((g.choice([1, 2]), g.choice([2, 4]), g.choice([1, 2, 3])))
        c = g.sh(a)[1]
        uses = [a]
        affine = ""
        if g.chance(0.6):
            w, b = g.leaf((c,), grad=g.chance(0.8)), g.leaf((c,), grad=g.chance(0.8))
            uses += [w, b]
            affine = (", %s, %s" % (w, b)) if form == "group_norm" else (", weight=%s, bias=%s" % (w, b))
        if form == "group_norm":
            G = g.choice([d for d in (1, 2, 4) if c % d == 0] + [1])
            code = "F.group_norm(%s, %d%s%s)" % (a, G, affine, g.choice(["", ", eps=0.1"]))
        else:
            code = "F.instance_norm(%s%s%s)" % (a, affine, g.choice(["", ", eps=0.01"]))
        g.add_op(code, form, uses)
    elif form == "rms_norm":
        a = need(g.pick(min_nd=1))
        sa = g.sh(a)
        ns = sa[-g.choice([1, 1, 2][: len(sa) + 1] or [1]):]
        uses = [a]
        w = ""
        if g.chance(0.5):
            wt = g.leaf(ns, grad=g.chance(0.8))
            uses.append(wt)
            w = ", %s" % wt if g.chance(0.5) else ", weight=%s" % wt
        eps = g.choice(["", "", ", eps=1e-3", ", eps=0.5"])
        g.add_op("F.rms_norm(%s, %s%s%s)" % (a, list(ns), w, eps), form, uses)
    elif form == "glu":
        a = need(g.pick(min_nd=1, where=lambda n: any(s % 2 == 0 and s for s in g.sh(n))))
        d = g.choice([i for i, s in enumerate(g.sh(a)) if s % 2 == 0 and s])
        g.add_op("F.glu(%s, %d)" % (a, d - g.nd(a) if g.chance(0.5) else d), form, [a])
    elif form == "softmin":
        a = need(g.pick())
        g.add_op("F.softmin(%s, dim=%d%s)" % (a, g.dim(a), g.choice(["", ", dtype=torch.float64"])), form, [a])
    elif form == "hardsigmoid":
        a = need(g.pick())
        g.add_op("F.hardsigmoid(%s)" % a, form, [a])
    else:
        a = need(g.pick())
        sa = g.sh(a)
        n = sa[1] if len(sa) >= 2 else 1
        w = g.leaf((g.choice([1, n]),), grad=g.chance(0.8))
        g.add_op("F.prelu(%s, %s)" % (a, w), form, [a, w])


@variant("loss_s4", "nn_s4", 0.9)
def _loss_s4(g):
    form = g.choice(["kl_div", "gaussian_nll", "poisson_nll", "hinge", "margin_ranking", "cosine_embedding",
                     "multilabel_soft_margin"])
    red = _red(g)
    if form == "cosine_embedding":
        a = g.pick(min_nd=1, max_nd=2, nonempty=True)
        if a is None or g.chance(0.3):
            a = g.leaf((g.choice([1, 2, 3]), g.choice([2, 3])))
        b = g.partner(a, same=True)
        t = _pm1(g, g.sh(a)[:1] if g.nd(a) == 2 else (), g.dt(a))
        g.add_op("F.cosine_embedding_loss(%s, %s, %s%s, reduction=%s)" % (
            a, b, t, g.choice(["", ", margin=0.3", ", margin=-0.5"]), red), form, [a, b])
        return
    a = need(g.pick())
    sa = g.sh(a)
    if form == "kl_div":
        red = _red(g, ["'batchmean'"])
        log_t = g.chance(0.4)
        t = g.const(sa, g.dt(a), "normal" if log_t else "unit")
        inp = "F.log_softmax(%s, dim=%d)" % (a, g.dim(a)) if g.chance(0.6) else a
        g.add_op("F.kl_div(%s, %s, reduction=%s%s)" % (inp, t, red, ", log_target=True" if log_t else ""),
                 form, [a])
    elif form == "gaussian_nll":
        b = g.partner(a, same=True)
        vshape = g.choice([sa, (*sa[:-1], 1) if sa else sa, sa])
        var = g.leaf(vshape, kind="positive", grad=g.chance(0.5)) if g.chance(0.8) else g.choice(["0.5", "1.0"])
        g.add_op("F.gaussian_nll_loss(%s, %s, %s%s, reduction=%s)" % (
            a, b, var, g.choice(["", ", full=True", ", eps=0.1"]), red), form,
            [a, b] + ([var] if var[0] == "x" else []))
    elif form == "poisson_nll":
        log_input = g.chance(0.6)
        t = g.const(sa, g.dt(a), "positive")
        inp = a if log_input else "%s.abs()" % a
        g.add_op("F.poisson_nll_loss(%s, %s, log_input=%s%s, reduction=%s)" % (
            inp, t, log_input, g.choice(["", ", full=True"]), red), form, [a])
    elif form == "hinge":
        g.add_op("F.hinge_embedding_loss(%s, %s%s, reduction=%s)" % (
            a, _pm1(g, sa, g.dt(a)), g.choice(["", ", margin=0.5", ", margin=2.0"]), red), form, [a])
    elif form == "margin_ranking":
        b = g.partner(a, same=True)
        g.add_op("F.margin_ranking_loss(%s, %s, %s%s, reduction=%s)" % (
            a, b, _pm1(g, sa, g.dt(a)), g.choice(["", ", margin=0.5"]), red), form, [a, b])
    else:
        if not sa:
            raise Skip
        vals = np.array([g.choice([0.0, 1.0]) for _ in range(int(np.prod(sa)))]).reshape(sa)
        g.add_op("F.multilabel_soft_margin_loss(%s, %s, reduction=%s)" % (a, literal(vals, g.dt(a)), red),
                 form, [a])


@variant("sdpa", "nn_s4", 0.4)
def _sdpa(g):
    q = g.pick(min_nd=2, max_nd=4, nonempty=True)
    if q is None or g.chance(0.4):
        q = g.leaf((*((2,) if g.chance(0.5) else ()), g.choice([1, 2, 3]), g.choice([1, 2, 3])))
    sq = g.sh(q)
    S = g.choice([1, 2, 3])
    Ev = g.choice([1, 2])
    k = g.leaf((*sq[:-2], S, sq[-1]), grad=g.chance(0.8))
    v = g.leaf((*sq[:-2], S, Ev), grad=g.chance(0.8))
    uses = [q, k, v]
    extra = ""
    form = g.choice(["", "causal", "bool_mask", "float_mask", "scale"])
    if form == "causal":
        extra = ", is_causal=True"
    elif form == "bool_mask":
        vals = np.array([g.chance(0.75) for _ in range(sq[-2] * S)]).reshape(sq[-2], S)
        extra = ", attn_mask=%s" % literal(vals, "bool")
    elif form == "float_mask":
        m = g.leaf((sq[-2], S), grad=g.chance(0.3))
        uses.append(m)
        extra = ", attn_mask=%s" % m
    elif form == "scale":
        extra = ", scale=%s" % g.choice(["0.5", "2.0"])
    g.add_op("F.scaled_dot_product_attention(%s, %s, %s%s)" % (q, k, v, extra), "sdpa", uses)


@variant("activation_inplace", "nn_s4", 0.6)
def _act_inplace(g):
    a = need(g.pick(where=lambda n: not g.ns[n].is_leaf or not g.ns[n].requires_grad))
    code = g.choice(["F.elu_(%s)", "F.celu_(%s)", "F.selu_(%s)", "F.leaky_relu_(%s, 0.2)", "F.hardtanh_(%s)",
                     "F.hardtanh_(%s, -0.5, 0.5)", "F.elu(%s, inplace=True)", "F.leaky_relu(%s, inplace=True)",
                     "F.hardtanh(%s, inplace=True)", "F.relu6(%s, inplace=True)", "F.selu(%s, inplace=True)",
                     "F.celu(%s, 0.5, inplace=True)", "F.silu(%s, inplace=True)", "F.hardswish(%s, inplace=True)",
                     "F.hardsigmoid(%s, inplace=True)", "F.mish(%s, inplace=True)",
                     "F.dropout(%s, 0.5, training=False, inplace=True)"]) % a
    op = code.split("(")[0].replace("F.", "")
    if "inplace=True" in code:
        op += "_kw"
    g.add_stmt(code, "inplace_" + op, "inplace", [a], _with_base(g, a), keep_error=0.35)


@variant("one_hot_dropout_eval", "nn_s4", 0.3)
def _one_hot(g):
    form = g.choice(["one_hot", "one_hot_n", "dropout1d", "dropout2d", "dropout3d", "dropout2d"])
    if form.startswith("one_hot"):
        n = g.choice([1, 2, 3, 4])
        idx = g.index(g.choice([(), (2,), (3,), (2, 2)]), n)
        g.add_op("F.one_hot(%s%s)" % (idx, ", %d" % (n + g.choice([0, 1])) if form == "one_hot_n" else ""),
                 "one_hot", [])
    else:
        a = need(g.pick(min_nd=2 if form == "dropout1d" else 3, max_nd=3 if form == "dropout1d" else 5))
        g.add_op("F.%s(%s, p=0.5, training=False)" % (form, a), form, [a])


# ------------------------------------------------------------------ random numbers (seeded in the step)


@variant("random", "random", 0.6)
def _random(g):
    s = g.rng.randrange(100)
    seed = "(torch.manual_seed(%d), " % s
    form = g.choice(["randn", "rand", "randn_like", "rand_like", "randint_like", "randperm", "normal",
                     "bernoulli", "dropout", "dropout_kw", "rrelu", "uniform_", "normal_", "multinomial",
                     "bernoulli_p"])
    if form in ("randn", "rand"):
        shape = g.shape()
        a = g.pick()
        code = "torch.%s(%s%s)" % (form, ", ".join(map(str, shape)) or "()",
                                    g.choice(["", ", dtype=torch.float64", ", requires_grad=True"]))
        g.add_op(seed + code + ")[1]", form, [])
        return
    if form == "randperm":
        g.add_op(seed + "torch.randperm(%d))[1]" % g.choice([0, 1, 3, 5]), form, [])
        return
    a = need(g.pick())
    if form in ("randn_like", "rand_like"):
        code = "torch.%s(%s)" % (form, a)
    elif form == "randint_like":
        code = "torch.randint_like(%s, %d)" % (a, g.choice([1, 5, 10]))
    elif form == "normal":
        code = "torch.normal(%s, %s)" % (a, g.choice(["1.0", "0.5"])) if g.chance(0.5) else \
            "torch.normal(0.0, %s.abs() + 0.1)" % a
    elif form == "bernoulli":
        code = "torch.bernoulli(torch.sigmoid(%s))" % a
    elif form == "bernoulli_p":
        code = "%s.bernoulli(%s)" % (a, g.choice(["0.5", "0.1"]))
    elif form == "multinomial":
        if g.nd(a) not in (1, 2) or not g.numel(a):
            raise Skip
        code = "torch.multinomial(%s.abs() + 0.1, %d%s)" % (a, 1, g.choice(["", ", replacement=True"]))
    elif form == "dropout":
        code = "F.dropout(%s, p=%s)" % (a, g.choice(["0.5", "0.2", "1.0", "0.0"]))
    elif form == "dropout_kw":
        code = "F.dropout(%s, 0.3, training=True)" % a if g.chance(0.5) else "F.dropout(%s, 0.5, True, True)" % a
    elif form == "rrelu":
        code = "F.rrelu(%s, training=True)" % a if g.chance(0.7) else "F.rrelu(%s, 0.1, 0.4, True)" % a
    else:
        t = need(g.pick(where=lambda n: not g.ns[n].is_leaf or not g.ns[n].requires_grad))
        code = "%s.%s(%s)" % (t, form, g.choice(["", "-1.0, 1.0" if form == "uniform_" else "0.0, 2.0"]))
        g.add_stmt("torch.manual_seed(%d)\n%s" % (s, code), "inplace_" + form, "inplace", [t], _with_base(g, t),
                   keep_error=0.35)
        return
    g.add_op(seed + code + ")[1]", form, [a])


@variant("rnn_cell", "random", 0.3)
def _rnn_cell(g):
    a = g.pick(min_nd=1, max_nd=2, nonempty=True)
    if a is None or g.chance(0.3):
        a = g.leaf((g.choice([1, 2]), g.choice([1, 2, 3])))
    sa = g.sh(a)
    hid = g.choice([1, 2, 3])
    cell = g.choice(["RNNCell", "LSTMCell", "GRUCell", "RNNCell_relu"])
    args = "%d, %d%s" % (sa[-1], hid, {"RNNCell_relu": ", nonlinearity='relu'"}.get(cell, "") +
                         g.choice(["", "", ", bias=False"]))
    cls = cell.replace("_relu", "")
    h = ""
    uses = [a]
    if g.chance(0.5):
        hx = g.leaf((*sa[:-1], hid), grad=g.chance(0.6))
        uses.append(hx)
        h = ", (%s, %s * 0.5)" % (hx, hx) if cls == "LSTMCell" else ", %s" % hx
    sel = "[%d]" % g.choice([0, 1]) if cls == "LSTMCell" else ""
    g.add_op("(torch.manual_seed(%d), torch.nn.%s(%s%s)(%s%s))[1]%s" % (
        g.rng.randrange(50), cls, args, g.choice(["", ", dtype=torch.float64"]), a, h, sel), cls, uses)


# ------------------------------------------------------------------ dtypes: integers, bool, float16


def _int_leaf(g, shape=None, dtype=None):
    shape = g.shape() if shape is None else shape
    dtype = dtype or g.choice(["int64", "int64", "int32", "bool", "uint8", "int16", "int8"])
    n = int(np.prod(shape)) if shape else 1
    if dtype == "bool":
        vals = np.array([g.chance(0.5) for _ in range(n)]).reshape(shape)
    elif dtype == "uint8":
        vals = np.array([g.choice([0, 1, 2, 3, 7, 200, 255]) for _ in range(n)]).reshape(shape)
    else:
        vals = np.array([g.choice([-3, -2, -1, 0, 1, 2, 3, 5, 100]) for _ in range(n)]).reshape(shape)
    name = g.fresh("x")
    ok = g.try_step({"kind": "leaf", "op": "leaf", "code": "%s = %s" % (name, literal(vals, dtype)), "outs": [name],
                     "uses": [], "observe": [name]})
    assert ok
    return name


@variant("int_mix", "dtype", 1.0)
def _int_mix(g):
    """Integer/bool tensors meeting float tensors and Python numbers: PyTorch's type promotion."""
    i = g.pick(floating=False, where=lambda n: g.dt(n) != "bool" or g.chance(0.5))
    if i is None or g.chance(0.4):
        i = _int_leaf(g)
    form = g.choice(["with_float", "with_float", "scalar", "int_int", "reduce", "unary", "cast", "div", "cmp"])
    si = g.sh(i)
    if form == "with_float":
        a = g.pick(where=lambda n: _bc(g.sh(n), si))
        if a is None:
            a = g.leaf(si if g.chance(0.7) else ())
        op = g.choice(["+", "-", "*", "/", "**", "//", "%"])
        code = "%s %s %s" % ((i, op, a) if g.chance(0.5) else (a, op, i))
        if g.chance(0.2):
            code = g.choice(["torch.maximum(%s, %s)", "torch.minimum(%s, %s)", "torch.atan2(%s, %s)",
                             "torch.add(%s, %s, alpha=2)"]) % (i, a)
        g.add_op(code, "int_float", [i, a])
    elif form == "scalar":
        c = g.choice(["2", "-1", "0.5", "2.5", "True", "0", "-0.0"])
        op = g.choice(["+", "-", "*", "/", "**", "//", "%"])
        code = "%s %s %s" % ((i, op, c) if g.chance(0.6) else (c, op, i))
        g.add_op(code, "int_scalar", [i])
    elif form == "int_int":
        j = g.pick(floating=False, where=lambda n: n != i and _bc(g.sh(n), si))
        if j is None:
            j = _int_leaf(g, si if g.chance(0.7) else ())
        op = g.choice(["+", "-", "*", "//", "%", "/", "&", "|", "^", "*"])
        code = "%s %s %s" % (i, op, j)
        if g.chance(0.3):
            code = g.choice(["torch.bitwise_and(%s, %s)", "torch.bitwise_or(%s, %s)", "torch.bitwise_xor(%s, %s)",
                             "%s.bitwise_and(%s)", "torch.maximum(%s, %s)", "torch.remainder(%s, %s)",
                             "torch.div(%s, %s, rounding_mode='floor')", "torch.div(%s, %s, rounding_mode='trunc')",
                             "torch.floor_divide(%s, %s)", "torch.eq(%s, %s)"]) % (i, j)
        g.add_op(code, "int_int", [i, j])
    elif form == "reduce":
        f = g.choice(["sum()", "sum(0)", "prod()", "max()", "min()", "argmax()", "cumsum(0)", "cumprod(0)",
                      "amax(0)", "mean(dtype=torch.float32)", "sum(dtype=torch.float64)", "float().mean()",
                      "median()", "sort(0)[0]", "unique()", "count_nonzero()", "any()", "all()", "abs()",
                      "neg()" if g.dt(i) != "bool" else "logical_not()", "sign()", "clamp(0, 2)", "t()" if
                      g.nd(i) == 2 else "flip(0)", "bitwise_not()"])
        g.add_op("%s.%s" % (i, f), "int_reduce", [i])
    elif form == "unary":
        f = g.choice(["exp", "sqrt", "sin", "sigmoid", "log", "tanh", "reciprocal", "floor", "round", "square",
                      "abs", "relu", "softmax"])
        code = "torch.%s(%s)" % (f, i) if f != "softmax" else "%s.softmax(0)" % i
        g.add_op(code, "int_unary", [i])
    elif form == "cast":
        f = g.choice([".float()", ".double()", ".half()", ".long()", ".int()", ".bool()", ".to(torch.float16)",
                      ".to(torch.uint8)", ".to(torch.int16)", ".to(torch.int8)", ".type(torch.float64)",
                      ".float().requires_grad_()"])
        g.add_op(i + f, "int_cast", [i])
    elif form == "div":
        j = _int_leaf(g, si, dtype=g.dt(i) if g.dt(i) != "bool" else "int64")
        g.add_op(g.choice(["%s // %s", "%s %% %s", "torch.div(%s, %s, rounding_mode='floor')", "%s / %s",
                           "torch.remainder(%s, %s)"]) % (i, j), "int_div", [i, j])
    else:
        a = g.pick(where=lambda n: _bc(g.sh(n), si))
        code = "%s %s %s" % (i, g.choice(["<", "==", ">=", "!="]), a or g.choice(["1", "0.5", "True"]))
        g.add_op(code, "int_compare", [i] + ([a] if a else []))


def _bc(s1, s2):
    from .generate_helpers import broadcastable
    return broadcastable(s1, s2)


@variant("float_mix", "dtype", 0.6)
def _float_mix(g):
    """float16 tensors, float32 with float64, and 0-d tensors of a higher dtype (which do not promote)."""
    a = need(g.pick())
    form = g.choice(["half", "half_op", "mixed", "zero_d", "to_dtype", "half_grad"])
    if form == "half":
        g.add_op("%s.half()" % a if g.chance(0.5) else "%s.to(torch.float16)" % a, "half", [a])
    elif form == "half_op":
        f = g.choice(["* 2", "+ 1", ".exp()", ".sum()", ".mean()", ".sigmoid()", ".float()", " / 3", ".sqrt()",
                      ".softmax(0)", ".relu()", ".tanh()", ".cumsum(0)", ".max()", ".abs()", " @ %s.half().mT"
                      % a if g.nd(a) == 2 else ".neg()"])
        g.add_op("%s.half()%s" % (a, f), "half_op", [a])
    elif form == "mixed":
        other = "float64" if g.dt(a) == "float32" else "float32"
        b = g.leaf(g.sh(a) if g.chance(0.6) else (), dtype=other, grad=g.chance(0.6))
        g.add_op(g.choice(["%s + %s", "%s * %s", "%s - %s",
                           "torch.maximum(%s, %s)", "%s / %s"]) % ((a, b) if g.chance(0.5) else (b, a)),
                 "mixed_float", [a, b])
    elif form == "zero_d":
        b = g.leaf((), dtype=g.choice(["float64", "float32", "float16"]), grad=g.chance(0.6))
        g.add_op("%s %s %s" % (a, g.choice(["+", "*", "-"]), b), "zero_d_promote", [a, b])
    elif form == "to_dtype":
        b = g.pick(where=lambda n: n != a)
        if b is None:
            raise Skip
        g.add_op(g.choice(["%s.to(%s)", "%s.type_as(%s)", "%s.to(%s.dtype)", "%s.new_tensor(2.0).to(%s)"]) % (a, b),
                 "to_dtype", [a, b])
    else:
        g.add_op("(%s.half() * %s.half()).float()" % (a, a), "half_grad", [a])


# ------------------------------------------------------------------ comparison functions, misc public ops


@variant("compare_fn", "compare_misc", 0.4)
def _compare_fn(g):
    a = need(g.pick())
    b = g.partner(a) if g.chance(0.7) else g.choice(["0.0", "1.0", "-0.5"])
    f = g.choice(["eq", "ne", "lt", "le", "gt", "ge", "greater", "greater_equal", "less", "less_equal",
                  "not_equal", "isclose", "allclose", "equal"])
    if f in ("allclose", "equal"):
        if b[0] not in "tx":
            raise Skip
        code = "torch.tensor(torch.%s(%s, %s))" % (f, a, b)
    elif f == "isclose":
        code = "torch.isclose(%s, %s%s)" % (a, b, g.choice(["", ", equal_nan=True", ", rtol=0.1, atol=0.1"]))
    else:
        method = f in ("eq", "ne", "lt", "le", "gt", "ge") and g.chance(0.5)   # minigrad has no .greater() &c.
        code = "%s.%s(%s)" % (a, f, b) if method else "torch.%s(%s, %s)" % (f, a, b)
    g.add_op(code, f, [a] + ([b] if b[0] in "tx" else []))


@variant("unary_more", "compare_misc", 0.6)
def _unary_more(g):
    a = need(g.pick())
    f = g.choice(["amin", "amin_dims", "arccos", "arcsin", "arctan", "is_nonzero", "nelement", "item"])
    if f == "amin":
        code = "%s.amin(%s)" % (a, g.choice(["", "dim=%d" % g.dim(a), "%d, keepdim=True" % g.dim(a)]))
    elif f == "amin_dims":
        code = "torch.amin(%s, %s)" % (a, g.dims(a))
    elif f in ("arccos", "arcsin", "arctan"):
        code = "torch.%s(%s)" % (f, a) if g.chance(0.5) else "%s.%s()" % (a, f)
    elif f == "is_nonzero":
        code = "torch.tensor(%s.is_nonzero())" % a
    elif f == "nelement":
        code = "torch.tensor([%s.nelement(), %s.ndimension(), %s.element_size()])" % (a, a, a)
    else:
        code = "torch.tensor(%s.item())" % a if g.chance(0.5) else "torch.tensor(%s.tolist())" % a
    g.add_op(code, f.replace("_dims", ""), [a])


@variant("inplace_unary_more", "compare_misc", 0.5)
def _inplace_unary_more(g):
    a = need(g.pick(where=lambda n: not g.ns[n].is_leaf or not g.ns[n].requires_grad))
    f = g.choice(["acos_", "asin_", "atan_", "ceil_", "cosh_", "sinh_", "tan_", "log2_", "log10_", "sgn_",
                  "clamp_min_", "square_", "sigmoid_", "sgn_"])
    code = "%s.%s(%s)" % (a, f, "0.0" if f == "clamp_min_" else "")
    g.add_stmt(code, "inplace_" + f, "inplace", [a], _with_base(g, a), keep_error=0.35)


@variant("select_misc", "compare_misc", 0.6)
def _select_misc(g):
    a = need(g.pick())
    form = g.choice(["nonzero", "nonzero_tuple", "unique", "unique_inv", "unique_counts", "bincount", "histc",
                     "cartesian_prod", "meshgrid", "concat", "atleast", "new_full", "new_tensor", "factory"])
    if form == "nonzero":
        code = "torch.nonzero(%s)" % a if g.chance(0.5) else "%s.nonzero()" % a
    elif form == "nonzero_tuple":
        code = "torch.nonzero(%s > 0, as_tuple=True)" % a
    elif form.startswith("unique"):
        kw = {"unique": g.choice(["", "sorted=True", "sorted=False"]), "unique_inv": "return_inverse=True",
              "unique_counts": "return_counts=True"}[form]
        code = "torch.unique(%s%s%s)" % (a, ", " if kw else "", kw) if g.chance(0.5) else "%s.unique(%s)" % (a, kw)
        if form == "unique" and g.chance(0.3) and g.nd(a):
            code = "torch.unique(%s, dim=%d)" % (a, g.dim(a))
    elif form == "bincount":
        i = _int_leaf(g, (g.choice([0, 1, 3, 5]),), "int64")
        i = "%s.abs()" % i
        w = g.choice(["", ", minlength=6"])
        code = "torch.bincount(%s%s)" % (i, w)
    elif form == "histc":
        code = "torch.histc(%s, bins=%d%s)" % (a, g.choice([1, 3, 5]), g.choice(["", ", min=-1, max=1",
                                                                               ", min=0, max=0"]))
    elif form == "cartesian_prod":
        if g.nd(a) != 1:
            raise Skip
        b = g.leaf((g.choice([1, 2]),), grad=g.chance(0.6))
        code = "torch.cartesian_prod(%s, %s)" % (a, b)
        g.add_op(code, form, [a, b])
        return
    elif form == "meshgrid":
        if g.nd(a) > 1:
            raise Skip
        b = g.leaf((g.choice([1, 2, 3]),), grad=g.chance(0.6))
        code = "torch.meshgrid(%s, %s, indexing=%s)" % (a, b, g.choice(["'ij'", "'xy'"]))
        g.add_op(code, form, [a, b])
        return
    elif form == "concat":
        if not g.nd(a):
            raise Skip
        code = "torch.concat([%s, %s], dim=%d)" % (a, a, g.dim(a))
    elif form == "atleast":
        code = "torch.atleast_%dd(%s)" % (g.choice([1, 2, 3]), a)
    elif form == "new_full":
        code = g.choice(["%s.new_full((2,), 3.5)", "%s.new_tensor([1.0, 2.0])", "%s.new_zeros((2, 1))"]) % a
    elif form == "new_tensor":
        code = "%s.new_tensor(%s.tolist())" % (a, a) if g.chance(0.5) else "torch.as_tensor(%s)" % a
    else:
        code = g.choice(["torch.arange(%d, dtype=torch.%s)" % (g.choice([0, 1, 4]), g.dt(a)),
                         "torch.arange(0.5, 3.0, 0.5)", "torch.arange(5, 0, -2)", "torch.linspace(-1, 1, %d)"
                         % g.choice([0, 1, 4]), "torch.logspace(0, 2, 3)", "torch.eye(%d)" % g.choice([1, 3]),
                         "torch.eye(2, 3)", "torch.full((2,), 1.5, requires_grad=True)",
                         "torch.empty(0, 2)", "torch.zeros(2, dtype=torch.int32)"])
        g.add_op(code, "factory", [])
        return
    g.add_op(code, form, [a])


# ------------------------------------------------------------------ linear algebra: svd, matrix norms


@variant("svd_norms", "linalg2", 0.5)
def _svd_norms(g):
    a = g.pick(min_nd=2, max_nd=3, nonempty=True)
    if a is None or g.chance(0.3):
        a = g.leaf((g.choice([1, 2, 3]), g.choice([1, 2, 3])))
    form = g.choice(["svdvals", "svd_S", "svd_recon", "svd_gauge", "matrix_norm", "linalg_norm", "torch_svd",
                     "cond_like"])
    if form == "svdvals":
        code = "torch.linalg.svdvals(%s)" % a
    elif form == "svd_S":
        code = "torch.linalg.svd(%s%s)[1]" % (a, g.choice(["", ", full_matrices=False"]))
    elif form == "svd_recon":  # (not U diag(S) Vh itself: its LAPACK noise where A is 0 is no spec; squares are)
        code = "(lambda u, s, vh: (u * s.unsqueeze(-2)) ** 2)(*torch.linalg.svd(%s, full_matrices=False)).sum(-1)" % a
    elif form == "svd_gauge":  # |U|² and |V|² per column: invariant under the sign of each singular pair
        code = "(lambda u, s, vh: (u ** 2).sum(-1) + (vh ** 2).sum(-2) * s.sum())(*torch.linalg.svd(%s, " \
               "full_matrices=False))" % a
    elif form == "torch_svd":
        code = "torch.svd(%s)[1]" % a if g.chance(0.5) else "%s.svd(some=%s)[1]" % (a, g.choice([True, False]))
    elif form == "matrix_norm":
        o = g.choice(["'fro'", "'nuc'", "1", "-1", "float('inf')", "-float('inf')", "2", "-2"])
        code = "torch.linalg.matrix_norm(%s, ord=%s%s)" % (a, o, g.choice(["", ", keepdim=True"]))
    elif form == "linalg_norm":
        code = g.choice(["torch.linalg.norm(%s)", "torch.linalg.norm(%s, 'fro')", "torch.linalg.norm(%s, 2)",
                         "torch.linalg.norm(%s, dim=-1)", "torch.linalg.norm(%s, 'nuc')", "%s.norm(p='fro')",
                         "torch.norm(%s, p='nuc')", "torch.linalg.norm(%s, float('inf'), dim=(-2, -1))"]) % a
    else:
        # (not max / min: a rank-deficient matrix's smallest singular value is 0 or LAPACK noise, no spec)
        code = "(torch.linalg.svdvals(%s) ** 2).sum(-1) / (torch.linalg.svdvals(%s).max() + 1.0)" % (a, a)
    g.add_op(code, form, [a])
