"""The table of op variants the generator draws from.

A variant is a name, a weight and a ``build(g)`` function that picks its inputs from the program
so far (through the :class:`fuzzlib.generate.Gen` helpers), draws its arguments, and appends the
step (``g.add_op("t1.sum(dim=0)", ...)``). ``build`` raises :class:`Skip` when the program has no
fitting input. Variants are grouped by family; every family's arguments are drawn from the
values PyTorch accepts, plus a small share of invalid ones (a ``dim`` out of range, a shape that
does not broadcast) so that error paths are compared too.

Adding an op: write a ``build`` and register it with :func:`variant`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from .generate_helpers import broadcastable as _broadcastable


class Skip(Exception):
    """The program has no input this variant can use."""


@dataclass
class Variant:
    name: str
    family: str
    weight: float
    build: Callable


VARIANTS: list[Variant] = []


def variant(name: str, family: str, weight: float = 1.0):
    def register(fn):
        VARIANTS.append(Variant(name, family, weight, fn))
        return fn
    return register


def _weights() -> list[float]:
    """The variants' weights; ``FUZZ_FAMILIES=nn_s4,dtype`` (a focused run) draws from those families only."""
    only = os.environ.get("FUZZ_FAMILIES")
    if not only:
        return [v.weight for v in VARIANTS]
    keep = set(only.split(","))
    return [v.weight if v.family in keep or v.name in keep else 0.0 for v in VARIANTS]


def draw(g) -> Variant:
    return g.rng.choices(VARIANTS, weights=_weights())[0]


def need(value):
    if value is None:
        raise Skip
    return value


def _with_base(g, a):
    """What an in-place step on ``a`` changes: ``a``, and its base when ``a`` is a view of a named tensor."""
    base = g.ns[a]._base
    named = [n for n in g.tensors() if base is not None and g.ns[n] is base]
    return [a, *named[:1]]


def fl(g, v: float) -> str:
    return repr(float(v))


# ------------------------------------------------------------------ elementwise unary

UNARY = ["neg", "abs", "exp", "log", "log2", "log10", "log1p", "expm1", "sqrt", "rsqrt", "sin", "cos", "tan",
         "tanh", "sigmoid", "relu", "asin", "acos", "atan", "sinh", "cosh", "erf", "sign", "floor", "ceil",
         "round", "trunc", "frac", "reciprocal", "square"]


def _make_unary(fname):
    def build(g):
        a = need(g.pick())
        code = "%s.%s()" % (a, fname) if g.chance(0.7) else "torch.%s(%s)" % (fname, a)
        g.add_op(code, fname, [a])
    return build


for _f in UNARY:
    variant(_f, "unary", 0.35)(_make_unary(_f))


@variant("pow_scalar", "unary", 1.5)
def _pow_scalar(g):
    a = need(g.pick())
    p = g.choice([2, 3, 0.5, -1, -0.5, 1.5, 0, 1, -2, 2.5])
    g.add_op("%s ** %s" % (a, p) if g.chance(0.6) else "%s.pow(%s)" % (a, p), "pow_scalar", [a])


@variant("rpow", "unary", 0.6)
def _rpow(g):
    a = need(g.pick())
    base = g.choice([2.0, 0.5, 0.0, 3.0, 1.0])
    g.add_op("%s ** %s" % (repr(base), a), "rpow", [a])


@variant("clamp", "unary", 1.5)
def _clamp(g):
    a = need(g.pick())
    lo, hi = sorted([round(g.rng.uniform(-1.5, 1.5), 1), round(g.rng.uniform(-1.5, 1.5), 1)])
    if g.chance(0.3):  # clamp(min=0) then sqrt/log/pow: the masked gradient meets an infinite one
        lo = 0.0
    form = g.choice(["min", "max", "both", "clamp_min", "clip"])
    if form == "min":
        code = "%s.clamp(min=%s)" % (a, lo)
    elif form == "max":
        code = "%s.clamp(max=%s)" % (a, hi)
    elif form == "both":
        code = "torch.clamp(%s, %s, %s)" % (a, lo, hi)
    elif form == "clamp_min":
        code = "%s.clamp_min(%s)" % (a, lo)
    else:
        code = "%s.clip(%s, %s)" % (a, lo, hi)
    g.add_op(code, "clamp", [a])


@variant("scalar_arith", "unary", 1.5)
def _scalar_arith(g):
    a = need(g.pick())
    c = g.choice([2.0, -1.5, 0.5, 3, 0.0, 1e-3])
    form = g.choice(["%s + c", "c - %s", "%s * c", "%s / c", "c / %s", "%s - c", "-%s"])
    g.add_op(form.replace("c", repr(c)) % a, "scalar_arith", [a])


@variant("detach_clone", "unary", 0.5)
def _detach_clone(g):
    a = need(g.pick())
    g.add_op(g.choice(["%s.clone()", "%s.detach()", "%s.contiguous()", "%s.detach().requires_grad_()"]) % a,
             "detach_clone", [a])


@variant("dtype_cast", "unary", 0.6)
def _cast(g):
    a = need(g.pick(floating=False))
    form = g.choice(["%s.double()", "%s.float()", "%s.to(torch.float64)", "%s.to(torch.float32)", "%s.long()"])
    if form == "%s.long()" and g.is_float(a):
        form = "%s.double()"
    g.add_op(form % a, "dtype_cast", [a])


# ------------------------------------------------------------------ elementwise binary

BINARY = {"add": "%s + %s", "sub": "%s - %s", "mul": "%s * %s", "div": "%s / %s", "pow": "%s ** %s",
          "maximum": "torch.maximum(%s, %s)", "minimum": "torch.minimum(%s, %s)", "atan2": "torch.atan2(%s, %s)",
          "add_alpha": "%s.add(%s, alpha=2.5)", "sub_alpha": "torch.sub(%s, %s, alpha=-0.5)",
          "remainder": "torch.remainder(%s, %s)", "div_floor": "torch.div(%s, %s, rounding_mode='floor')"}


def _make_binary(name, form):
    def build(g):
        a = need(g.pick())
        b = g.partner(a)
        if g.chance(0.5):
            a, b = b, a
        g.add_op(form % (a, b), name, [a, b])
    return build


for _n, _form in BINARY.items():
    variant(_n, "binary", 1.0 if _n in ("add", "sub", "mul", "div") else 0.6)(_make_binary(_n, _form))


@variant("compare", "binary", 0.7)
def _compare(g):
    a = need(g.pick())
    b = g.partner(a) if g.chance(0.5) else repr(g.choice([0.0, 1.0, -0.5]))
    op = g.choice([">", "<", ">=", "<=", "==", "!="])
    g.add_op("%s %s %s" % (a, op, b), "compare", [a] + ([b] if b[0] in "tx" else []))


@variant("isnan_like", "binary", 0.3)
def _isnan(g):
    a = need(g.pick())
    g.add_op("%s.%s()" % (a, g.choice(["isnan", "isinf", "isfinite"])), "isnan_like", [a])


@variant("where", "binary", 1.5)
def _where(g):
    a = need(g.pick())
    b = g.partner(a)
    cond = g.pick(floating=False, where=lambda n: g.dt(n) == "bool")
    if cond is None or g.chance(0.5):
        cond_code = "%s > %s" % (a, g.choice(["0", "0.5", "-1"]))
        uses = [a, b]
    else:
        cond_code = cond
        uses = [a, b, cond]
    other = b if g.chance(0.7) else repr(g.choice([0.0, 1.0]))
    g.add_op("torch.where(%s, %s, %s)" % (cond_code, a, other), "where", uses)


@variant("masked_fill", "binary", 0.6)
def _masked_fill(g):
    a = need(g.pick())
    val = g.choice(["0.0", "-1e9", "float('-inf')", "2.0"])
    g.add_op("%s.masked_fill(%s %s 0, %s)" % (a, a, g.choice(["<", ">", "=="]), val), "masked_fill", [a])


@variant("logical", "binary", 0.2)
def _logical(g):
    a = need(g.pick(floating=False, where=lambda n: g.dt(n) == "bool"))
    b = g.pick(floating=False, where=lambda n: g.dt(n) == "bool" and g.sh(n) == g.sh(a)) or a
    f = g.choice(["logical_and", "logical_or", "logical_xor"])
    g.add_op("torch.%s(%s, %s)" % (f, a, b) if g.chance(0.8) else "torch.logical_not(%s)" % a, "logical", [a, b])


# ------------------------------------------------------------------ reductions


def _kd(g):
    return g.choice([True, False])


@variant("sum", "reduce", 1.0)
def _sum(g):
    a = need(g.pick())
    form = g.choice(["all", "dim", "dim", "dims"])
    if form == "all":
        code = "%s.sum()" % a
    elif form == "dim":
        code = "%s.sum(dim=%d, keepdim=%s)" % (a, g.dim(a), _kd(g)) if g.chance(0.7) else "%s.sum(%d)" % (a, g.dim(a))
    else:
        code = "%s.sum(%s, keepdim=%s)" % (a, g.dims(a), _kd(g))
    g.add_op(code, "sum", [a])


@variant("mean", "reduce", 0.8)
def _mean(g):
    a = need(g.pick())
    code = "%s.mean()" % a if g.chance(0.3) else "%s.mean(dim=%d, keepdim=%s)" % (a, g.dim(a), _kd(g))
    if g.chance(0.15):
        code = "%s.mean(%s)" % (a, g.dims(a))
    g.add_op(code, "mean", [a])


@variant("var_std", "reduce", 1.0)
def _var(g):
    a = need(g.pick())
    f = g.choice(["var", "std"])
    form = g.choice(["all", "dim", "correction", "unbiased"])
    if form == "all":
        code = "%s.%s()" % (a, f)
    elif form == "dim":
        code = "%s.%s(dim=%d, keepdim=%s)" % (a, f, g.dim(a), _kd(g))
    elif form == "correction":
        code = "%s.%s(dim=%d, correction=%d)" % (a, f, g.dim(a), g.choice([0, 1, 2, 5]))
    else:
        code = "torch.%s(%s, %d, unbiased=%s)" % (f, a, g.dim(a), g.choice([True, False]))
    g.add_op(code, f, [a])


@variant("norm", "reduce", 0.8)
def _norm(g):
    a = need(g.pick())
    p = g.choice([2, 1, 0.5, 3, "float('inf')", 2])
    code = "%s.norm(p=%s)" % (a, p) if g.chance(0.4) else "%s.norm(p=%s, dim=%d, keepdim=%s)" % (a, p, g.dim(a), _kd(g))
    if g.chance(0.2):
        code = "%s.norm()" % a
    g.add_op(code, "norm", [a])


@variant("max_min", "reduce", 1.2)
def _max(g):
    a = need(g.pick())
    f = g.choice(["max", "min"])
    form = g.choice(["all", "dim", "dim", "amax", "elementwise"])
    if form == "all":
        code = "%s.%s()" % (a, f)
    elif form == "dim":
        code = "%s.%s(dim=%d, keepdim=%s)" % (a, f, g.dim(a), _kd(g))
    elif form == "amax":
        code = "%s.a%s(dim=%d, keepdim=%s)" % (a, f, g.dim(a), _kd(g))
    else:
        code = "torch.%s(%s, %s)" % (f, a, g.partner(a))
    g.add_op(code, "max_min" if form != "amax" else "amax", [a])


@variant("median", "reduce", 0.3)
def _median(g):
    a = need(g.pick())
    if g.chance(0.6):
        g.add_op("%s.median()" % a, "median", [a])
        return
    d = g.dim(a)
    t = g.ns[a]
    if t.dim() and t.stride(d) == 0 and t.shape[d] > 1:
        # PyTorch bug: median(dim) along an expanded (stride-0) dim reads memory outside the tensor
        # (tensor([1., 5., 2.]).expand(4, 3).median(dim=0) gives 1e-42s; .contiguous() first gives the
        # right answer): undefined values, so the generator does not ask for them
        a = "%s.contiguous()" % a
    g.add_op("%s.median(dim=%d)" % (a, d), "median", [a.split(".")[0]])


@variant("argmax", "reduce", 0.3)
def _argmax(g):
    a = need(g.pick())
    f = g.choice(["argmax", "argmin"])
    g.add_op("%s.%s()" % (a, f) if g.chance(0.4) else "%s.%s(dim=%d)" % (a, f, g.dim(a)), "argmax", [a])


@variant("logsumexp", "reduce", 0.8)
def _lse(g):
    a = need(g.pick())
    g.add_op("%s.logsumexp(dim=%d, keepdim=%s)" % (a, g.dim(a), _kd(g)), "logsumexp", [a])


@variant("softmax", "reduce", 1.0)
def _softmax(g):
    a = need(g.pick())
    f = g.choice(["softmax", "log_softmax"])
    code = g.choice(["%s.%s(dim=%d)", "torch.%s(%s, %d)", "F.%s(%s, dim=%d)"])
    if code.startswith("%s"):
        code = code % (a, f, g.dim(a))
    else:
        code = code % (f, a, g.dim(a))
    g.add_op(code, f, [a])


@variant("cumsum", "reduce", 0.8)
def _cumsum(g):
    a = need(g.pick())
    f = g.choice(["cumsum", "cumprod"])
    g.add_op("%s.%s(dim=%d)" % (a, f, g.dim(a)) if g.chance(0.7) else "torch.%s(%s, %d)" % (f, a, g.dim(a)), f, [a])


@variant("prod", "reduce", 0.5)
def _prod(g):
    a = need(g.pick())
    g.add_op("%s.prod()" % a if g.chance(0.5) else "%s.prod(dim=%d, keepdim=%s)" % (a, g.dim(a), _kd(g)),
             "prod", [a])


@variant("any_all", "reduce", 0.15)
def _any(g):
    a = need(g.pick(floating=False))
    g.add_op("%s.%s()" % (a, g.choice(["any", "all", "count_nonzero"])), "any_all", [a])


# ------------------------------------------------------------------ linear algebra


def _mat_partner(g, shape):
    if g.chance(0.03):
        shape = tuple(s + 1 for s in shape)
    return g.leaf(shape, grad=g.chance(0.7))


@variant("matmul", "linalg", 1.5)
def _matmul(g):
    a = need(g.pick(min_nd=1))
    sa = g.sh(a)
    m = g.choice([1, 2, 3])
    if len(sa) == 1:
        b = _mat_partner(g, g.choice([(sa[0],), (sa[0], m), (2, sa[0], m)]))
    else:
        b = _mat_partner(g, g.choice([(sa[-1],), (sa[-1], m), (1, sa[-1], m)]))
    form = g.choice(["%s @ %s", "torch.matmul(%s, %s)", "%s.matmul(%s)"])
    g.add_op(form % (a, b), "matmul", [a, b])


@variant("mm", "linalg", 0.8)
def _mm(g):
    a = need(g.pick(min_nd=2, max_nd=2))
    n, k = g.sh(a)
    f = g.choice(["mm", "mv", "outer_t", "bmm"])
    if f == "mm":
        b = _mat_partner(g, (k, g.choice([1, 2, 3])))
        g.add_op("torch.mm(%s, %s)" % (a, b), "mm", [a, b])
    elif f == "mv":
        b = _mat_partner(g, (k,))
        g.add_op("%s.mv(%s)" % (a, b), "mv", [a, b])
    elif f == "outer_t":
        g.add_op("%s.t()" % a, "t", [a])
    else:
        b = g.leaf((2, n, k))
        c = _mat_partner(g, (2, k, g.choice([1, 3])))
        g.add_op("torch.bmm(%s, %s)" % (b, c), "bmm", [b, c])


@variant("vec", "linalg", 0.4)
def _vec(g):
    a = need(g.pick(min_nd=1, max_nd=1))
    b = _mat_partner(g, g.sh(a))
    g.add_op(g.choice(["torch.dot(%s, %s)", "torch.outer(%s, %s)", "%s.dot(%s)"]) % (a, b), "dot_outer", [a, b])


@variant("einsum", "linalg", 0.8)
def _einsum(g):
    a = need(g.pick(min_nd=1, max_nd=3))
    sa = g.sh(a)
    letters = "ijk"[: len(sa)]
    form = g.choice(["transpose", "reduce", "contract", "batch"])
    if form == "transpose":
        g.add_op("torch.einsum('%s->%s', %s)" % (letters, letters[::-1], a), "einsum", [a])
    elif form == "reduce":
        g.add_op("torch.einsum('%s->%s', %s)" % (letters, letters[:-1], a), "einsum", [a])
    else:
        m = g.choice([1, 2, 3])
        b = _mat_partner(g, (sa[-1], m))
        g.add_op("torch.einsum('%s,%sz->%sz', %s, %s)" % (letters, letters[-1], letters[:-1], a, b), "einsum", [a, b])


@variant("addmm", "linalg", 0.4)
def _addmm(g):
    a = need(g.pick(min_nd=2, max_nd=2))
    n, k = g.sh(a)
    m = g.choice([1, 2, 3])
    b = _mat_partner(g, (k, m))
    inp = g.leaf(g.choice([(n, m), (m,), (1, m)]), kind=g.choice([None, "special"]))
    beta = g.choice([1, 0, 0.5])
    g.add_op("torch.addmm(%s, %s, %s, beta=%s, alpha=%s)" % (inp, a, b, beta, g.choice([1, 2])), "addmm",
             [inp, a, b])


@variant("matrix_fn", "linalg", 0.4)
def _matrix_fn(g):
    a = need(g.pick(min_nd=2, max_nd=2))
    f = g.choice(["trace", "diag", "tril", "triu", "diagonal"])
    code = {"trace": "%s.trace()", "diag": "%s.diag()", "tril": "%s.tril()", "triu": "%s.triu(1)",
            "diagonal": "%s.diagonal()"}[f] % a
    g.add_op(code, f, [a])


# ------------------------------------------------------------------ shape ops and views


def _factor_shape(g, shape):
    n = 1
    for s in shape:
        n *= s
    if n == 0:
        return g.choice([(0,), (-1,), (0, 1)])
    options = [(n,), (-1,), (1, n), (n, 1)]
    for d in range(2, n):
        if n % d == 0:
            options += [(d, n // d), (d, -1)]
    if len(shape) >= 1:
        options.append((*tuple(shape), 1))
    return g.choice(options)


@variant("view", "shape", 1.5)
def _view(g):
    a = need(g.pick())
    new = _factor_shape(g, g.sh(a))
    if g.chance(0.03):
        new = (g.numel(a) + 1,)
    f = g.choice(["view", "reshape", "reshape"])
    g.add_op("%s.%s(%s)" % (a, f, ", ".join(str(s) for s in new)), f, [a])


@variant("flatten", "shape", 0.4)
def _flatten(g):
    a = need(g.pick())
    g.add_op("%s.flatten()" % a if g.chance(0.5) else "torch.flatten(%s, %d)" % (a, g.dim(a)), "flatten", [a])


@variant("transpose", "shape", 1.0)
def _transpose(g):
    a = need(g.pick(min_nd=1))
    form = g.choice(["transpose", "permute", "t", "T", "mT"])
    n = g.nd(a)
    if form == "transpose":
        g.add_op("%s.transpose(%d, %d)" % (a, g.dim(a), g.dim(a)), "transpose", [a])
    elif form == "permute":
        perm = list(range(n))
        g.rng.shuffle(perm)
        g.add_op("%s.permute(%s)" % (a, ", ".join(map(str, perm))), "permute", [a])
    elif form == "t" and n <= 2:
        g.add_op("%s.t()" % a, "t", [a])
    elif n == 2:
        g.add_op("%s.T" % a, "t", [a])
    else:
        raise Skip


@variant("unsqueeze", "shape", 0.8)
def _unsqueeze(g):
    a = need(g.pick())
    form = g.choice(["unsqueeze", "squeeze", "squeeze_dim", "none_index"])
    if form == "unsqueeze":
        g.add_op("%s.unsqueeze(%d)" % (a, g.dim(a, extra=1)), "unsqueeze", [a])
    elif form == "squeeze":
        g.add_op("%s.squeeze()" % a, "squeeze", [a])
    elif form == "squeeze_dim":
        g.add_op("%s.squeeze(%d)" % (a, g.dim(a)), "squeeze", [a])
    else:
        g.add_op("%s[None]" % a if g.chance(0.5) else "%s[..., None]" % a, "index_none", [a])


@variant("expand", "shape", 0.8)
def _expand(g):
    a = need(g.pick())
    sa = g.sh(a)
    new = tuple(g.choice([2, 3]) if s == 1 and g.chance(0.7) else (-1 if g.chance(0.3) else s) for s in sa)
    if g.chance(0.4):
        new = (2, *new)
    if not new:
        new = (3,)
    if g.chance(0.3):
        b = g.leaf(tuple(2 if s == -1 else s for s in new) if -1 not in new else None)
        g.add_op("%s.expand_as(%s)" % (a, b), "expand", [a, b])
    else:
        g.add_op("%s.expand(%s)" % (a, ", ".join(map(str, new))), "expand", [a])


@variant("slice", "shape", 1.5)
def _slice(g):
    a = need(g.pick(min_nd=1))
    sa = g.sh(a)
    form = g.choice(["int", "slice", "step", "last_dim", "neg", "ellipsis", "narrow", "select"])
    n0 = sa[0]
    if form == "int":
        code = "%s[%d]" % (a, g.rng.randrange(-n0, n0) if n0 else 0)
    elif form == "slice":
        code = "%s[%d:%d]" % (a, g.rng.randrange(n0 + 1), g.rng.randrange(n0 + 1) + 1)
    elif form == "step":
        code = "%s[::%d]" % (a, g.choice([1, 2, 3]))
    elif form == "last_dim" and len(sa) >= 2:
        code = "%s[:, %d]" % (a, g.rng.randrange(sa[1]) if sa[1] else 0)
    elif form == "neg":
        code = "%s[-1:]" % a
    elif form == "ellipsis":
        code = "%s[..., :%d]" % (a, g.rng.randrange(sa[-1] + 1))
    elif form == "narrow":
        d = g.dim(a)
        size = sa[d] if -len(sa) <= d < len(sa) else 1
        start = g.rng.randrange(size + 1)
        code = "%s.narrow(%d, %d, %d)" % (a, d, start, g.rng.randrange(size - start + 1))
    else:
        d = g.dim(a)
        size = sa[d] if -len(sa) <= d < len(sa) else 1
        code = "%s.select(%d, %d)" % (a, d, g.rng.randrange(size) if size else 0)
    g.add_op(code, "slice_" + form, [a])


@variant("advanced_index", "index", 0.8)
def _adv_index(g):
    a = need(g.pick(min_nd=1))
    sa = g.sh(a)
    form = g.choice(["tensor", "mask", "list", "two"])
    if form == "tensor":
        g.add_op("%s[%s]" % (a, g.index((g.choice([1, 2, 3, 4]),), sa[0])), "index_tensor", [a])
    elif form == "mask":
        g.add_op("%s[%s > 0]" % (a, a), "index_mask", [a])
    elif form == "list" and sa[0]:
        g.add_op("%s[[%s]]" % (a, ", ".join(str(g.rng.randrange(sa[0])) for _ in range(g.choice([1, 2, 3])))),
                 "index_tensor", [a])
    elif form == "two" and len(sa) >= 2:
        k = g.choice([1, 2, 3])
        g.add_op("%s[%s, %s]" % (a, g.index((k,), sa[0]), g.index((k,), sa[1])), "index_tensor", [a])
    else:
        raise Skip


@variant("gather", "index", 1.2)
def _gather(g):
    a = need(g.pick(min_nd=1, nonempty=True))
    sa = g.sh(a)
    d = g.rng.randrange(len(sa))
    shape = tuple(g.rng.randint(1, s) if i != d else g.choice([1, 2, 3, 4]) for i, s in enumerate(sa))
    idx = g.index(shape, sa[d])
    g.add_op("%s.gather(%d, %s)" % (a, d, idx) if g.chance(0.7) else "torch.gather(%s, %d, %s)" % (a, d, idx),
             "gather", [a])


@variant("scatter", "index", 0.8)
def _scatter(g):
    a = need(g.pick(min_nd=1, nonempty=True))
    sa = g.sh(a)
    d = g.rng.randrange(len(sa))
    f = g.choice(["scatter", "scatter_add"])
    shape = tuple(g.rng.randint(1, s) for s in sa)
    if f == "scatter":  # distinct targets along d (duplicates are nondeterministic in PyTorch)
        import numpy as np
        vals = np.zeros(shape, dtype=np.int64)
        for pos in np.ndindex(*[s for i, s in enumerate(shape) if i != d]):
            perm = g.rng.sample(range(sa[d]), shape[d])
            for j, p in enumerate(perm):
                full = list(pos)
                full.insert(d, j)
                vals[tuple(full)] = p
        from .program import literal
        idx = literal(vals, "int64")
    else:
        idx = g.index(shape, sa[d])
    src = g.leaf(shape, dtype=g.dt(a), grad=g.chance(0.6))
    g.add_op("%s.%s(%d, %s, %s)" % (a, f, d, idx, src), f, [a, src])


@variant("index_select", "index", 0.6)
def _index_select(g):
    a = need(g.pick(min_nd=1))
    d = g.dim(a)
    size = g.sh(a)[d] if -g.nd(a) <= d < g.nd(a) else 1
    idx = g.index((g.choice([1, 2, 3]),), size)
    g.add_op("%s.index_select(%d, %s)" % (a, d, idx), "index_select", [a])


@variant("cat_stack", "shape", 1.0)
def _cat(g):
    a = need(g.pick())
    f = g.choice(["cat", "cat", "stack"])
    d = g.dim(a, extra=1 if f == "stack" else 0)
    sa = list(g.sh(a))
    if f == "cat":
        if not sa:
            raise Skip  # zero-dimensional tensors cannot be concatenated (an error case in misuse)
        dd = d % len(sa) if -len(sa) <= d < len(sa) else 0
        sa[dd] = g.choice([1, 2])
    b = g.partner(a, same=True) if f == "stack" else g.leaf(tuple(sa), dtype=g.dt(a), grad=g.chance(0.7))
    parts = [a, b] if g.chance(0.8) else [a, b, a]
    g.add_op("torch.%s([%s], dim=%d)" % (f, ", ".join(parts), d), f, [a, b])


@variant("split", "shape", 1.0)
def _split(g):
    a = need(g.pick(min_nd=1))
    d = g.dim(a)
    f = g.choice(["split", "chunk", "unbind", "split_sizes"])
    size = g.sh(a)[d] if -g.nd(a) <= d < g.nd(a) else 1
    if f == "split":
        code = "%s.split(%d, dim=%d)" % (a, g.choice([1, 2, 3]), d)
    elif f == "chunk":
        code = "%s.chunk(%d, dim=%d)" % (a, g.choice([1, 2, 3]), d)
    elif f == "unbind":
        code = "%s.unbind(%d)" % (a, d)
    else:
        k = g.rng.randint(0, size)
        code = "%s.split([%d, %d], dim=%d)" % (a, k, size - k, d)
    g.add_op(code, f.replace("_sizes", ""), [a])


@variant("flip_roll", "shape", 0.5)
def _flip(g):
    a = need(g.pick())
    f = g.choice(["flip", "roll", "repeat"])
    if f == "flip":
        g.add_op("%s.flip(%d)" % (a, g.dim(a)), "flip", [a])
    elif f == "roll":
        g.add_op("%s.roll(%d, %d)" % (a, g.choice([1, -1, 2]), g.dim(a)), "roll", [a])
    else:
        reps = tuple(g.choice([1, 2]) for _ in range(max(g.nd(a), 1)))
        g.add_op("%s.repeat(%s)" % (a, ", ".join(map(str, reps))), "repeat", [a])


# ------------------------------------------------------------------ nn.functional


@variant("activation", "nn", 2.0)
def _activation(g):
    # now and then on fresh special values (elu/softplus/gelu at 100 or 1e30: exp overflows)
    a = g.leaf(g.shape(), kind="special") if g.chance(0.15) else need(g.pick())
    code = g.choice(["F.relu(%s)", "F.leaky_relu(%s, 0.1)", "F.elu(%s)", "F.elu(%s, alpha=0.5)", "F.gelu(%s)",
                     "F.gelu(%s, approximate='tanh')", "F.silu(%s)", "F.softplus(%s)",
                     "F.softplus(%s, beta=2.0, threshold=5.0)", "F.logsigmoid(%s)", "F.hardtanh(%s)",
                     "F.hardtanh(%s, -0.5, 0.5)", "torch.sigmoid(%s)", "F.tanh(%s)",
                     # nn1's (ops/activations.py, nn/_activation_functions.py)
                     "F.relu6(%s)", "F.selu(%s)", "F.celu(%s)", "F.celu(%s, alpha=0.5)", "F.hardswish(%s)",
                     "F.mish(%s)", "F.softsign(%s)", "F.softshrink(%s)", "F.hardshrink(%s, 0.2)",
                     "F.tanhshrink(%s)", "F.rrelu(%s)"]) % a
    g.add_op(code, code.split("(")[0].replace("F.", "").replace("torch.", ""), [a])


@variant("normalize", "nn", 0.6)
def _normalize(g):
    a = need(g.pick())
    if g.chance(0.5):
        g.add_op("F.normalize(%s, dim=%d)" % (a, g.dim(a)), "normalize", [a])
    else:
        sa = g.sh(a)
        if not sa:
            raise Skip
        k = g.choice([1, 1, 2]) if len(sa) >= 2 else 1
        ns = sa[-k:]
        if g.chance(0.5):
            w = g.leaf(ns)
            b = g.leaf(ns)
            g.add_op("F.layer_norm(%s, %s, %s, %s)" % (a, tuple(ns), w, b), "layer_norm", [a, w, b])
        else:
            g.add_op("F.layer_norm(%s, %s)" % (a, tuple(ns)), "layer_norm", [a])


@variant("loss", "nn", 1.5)
def _loss(g):
    a = need(g.pick())
    red = g.choice(["'mean'", "'sum'", "'none'"])
    f = g.choice(["mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "bce", "bce_logits"])
    if f in ("bce",):
        t = g.const(g.sh(a), g.dt(a), "unit")
        g.add_op("F.binary_cross_entropy(torch.sigmoid(%s), %s, reduction=%s)" % (a, t, red), "bce", [a])
    elif f == "bce_logits":
        t = g.const(g.sh(a), g.dt(a), "unit")
        g.add_op("F.binary_cross_entropy_with_logits(%s, %s, reduction=%s)" % (a, t, red), "bce_logits", [a])
    else:
        b = g.partner(a, same=True)
        extra = ""
        if f == "smooth_l1_loss" and g.chance(0.5):
            extra = ", beta=0.5"
        if f == "huber_loss" and g.chance(0.5):
            extra = ", delta=2.0"
        g.add_op("F.%s(%s, %s, reduction=%s%s)" % (f, a, b, red, extra), f, [a, b])


@variant("classification", "nn", 0.8)
def _classification(g):
    a = need(g.pick(min_nd=2, max_nd=2, nonempty=True))
    n, c = g.sh(a)
    target = g.index((n,), c)
    f = g.choice(["cross_entropy", "cross_entropy_ls", "nll_loss", "cross_entropy_sum"])
    if f == "cross_entropy":
        g.add_op("F.cross_entropy(%s, %s)" % (a, target), "cross_entropy", [a])
    elif f == "cross_entropy_ls":
        g.add_op("F.cross_entropy(%s, %s, label_smoothing=0.1)" % (a, target), "cross_entropy", [a])
    elif f == "cross_entropy_sum":
        g.add_op("F.cross_entropy(%s, %s, reduction='sum')" % (a, target), "cross_entropy", [a])
    else:
        g.add_op("F.nll_loss(F.log_softmax(%s, dim=1), %s)" % (a, target), "nll_loss", [a])


@variant("linear", "nn", 0.6)
def _linear(g):
    a = need(g.pick(min_nd=1))
    k = g.sh(a)[-1]
    m = g.choice([1, 2, 3])
    w = _mat_partner(g, (m, k))
    if g.chance(0.5):
        b = g.leaf((m,))
        g.add_op("F.linear(%s, %s, %s)" % (a, w, b), "linear", [a, w, b])
    else:
        g.add_op("F.linear(%s, %s)" % (a, w), "linear", [a, w])


@variant("cosine_similarity", "nn", 0.3)
def _cos_sim(g):
    a = need(g.pick(min_nd=1))
    b = g.partner(a, same=True)
    g.add_op("F.cosine_similarity(%s, %s, dim=%d)" % (a, b, g.dim(a)), "cosine_similarity", [a, b])


@variant("pad_dropout", "nn", 0.3)
def _pad(g):
    a = need(g.pick(min_nd=1))
    if g.chance(0.5):
        g.add_op("F.pad(%s, (%d, %d))" % (a, g.choice([0, 1, 2]), g.choice([0, 1])), "pad", [a])
    else:
        g.add_op("F.dropout(%s, p=%s, training=%s)" % (a, g.choice([0.0, 0.5]), g.choice([False])), "dropout", [a])


# ------------------------------------------------------------------ in-place, hooks, retain_grad, no_grad


def _inplace_target(g):
    """A float non-leaf (or a view of one); rarely a leaf that requires grad (PyTorch refuses)."""
    if g.chance(0.04):
        return g.pick(grad=True, where=lambda n: g.ns[n].is_leaf)
    return g.pick(where=lambda n: not g.ns[n].is_leaf or not g.ns[n].requires_grad)


@variant("inplace", "inplace", 3.0)
def _inplace(g):
    a = need(_inplace_target(g))
    form = g.choice(["mul_", "add_", "add_t", "sub_", "div_", "clamp_", "exp_", "sigmoid_", "tanh_", "sqrt_",
                     "pow_", "zero_", "fill_", "neg_", "relu_", "copy_", "masked_fill_", "setitem", "setitem_t",
                     "item_add_", "mul_t"])
    uses = [a]
    if form == "mul_":
        code = "%s.mul_(%s)" % (a, g.choice([2.0, -1.0, 0.0, 10.0]))
    elif form == "add_":
        code = "%s.add_(%s)" % (a, g.choice([1.0, -2.0, 5.0]))
    elif form in ("add_t", "mul_t"):
        b = g.partner(a)
        if not _broadcastable(g.sh(b), g.sh(a)) or len(g.sh(b)) > len(g.sh(a)):
            raise Skip
        code = "%s.%s(%s)" % (a, form[:-2] + "_", b)
        uses.append(b)
    elif form == "sub_":
        code = "%s.sub_(%s, alpha=2.0)" % (a, g.partner(a, same=True))
        uses.append(code.split("(")[1].split(",")[0])
    elif form == "div_":
        code = "%s.div_(%s)" % (a, g.choice([2.0, 0.5, 4.0]))
    elif form == "clamp_":
        code = "%s.clamp_(min=%s)" % (a, g.choice([0.0, -0.5]))
    elif form in ("exp_", "sigmoid_", "tanh_", "sqrt_", "zero_", "neg_", "relu_"):
        code = "%s.%s()" % (a, form)
    elif form == "pow_":
        code = "%s.pow_(%s)" % (a, g.choice([2, 3, 0.5]))
    elif form == "fill_":
        code = "%s.fill_(%s)" % (a, g.choice([0.0, 1.5]))
    elif form == "copy_":
        b = g.partner(a, same=True)
        code = "%s.copy_(%s)" % (a, b)
        uses.append(b)
    elif form == "masked_fill_":
        code = "%s.masked_fill_(%s > 0, %s)" % (a, a, g.choice([0.0, -1.0]))
    elif form == "setitem":
        if not g.nd(a) or not g.sh(a)[0]:
            raise Skip
        code = "%s[%d] = %s" % (a, g.rng.randrange(g.sh(a)[0]), g.choice([0.0, 7.0]))
    elif form == "setitem_t":
        if not g.nd(a) or not g.sh(a)[0]:
            raise Skip
        b = g.leaf(g.sh(a)[1:], dtype=g.dt(a), grad=g.chance(0.6))
        code = "%s[%d] = %s" % (a, g.rng.randrange(g.sh(a)[0]), b)
        uses.append(b)
    else:  # an in-place op on an integer-indexed element (a view of a)
        if not g.nd(a) or not g.sh(a)[0]:
            raise Skip
        code = "%s[%d].add_(%s)" % (a, g.rng.randrange(g.sh(a)[0]), g.choice([5.0, -1.0]))
    g.add_stmt(code, "inplace_" + form, "inplace", uses, _with_base(g, a), keep_error=0.35)


@variant("view_then_inplace", "inplace", 1.0)
def _view_then_inplace(g):
    """A view of a non-leaf, then an in-place op on the base or on the view; then both are used."""
    a = need(g.pick(min_nd=1, nonempty=True, where=lambda n: not g.ns[n].is_leaf))
    view = g.choice(["[:%d]" % max(1, g.sh(a)[0] - 1), "[0]", ".view(-1)", ".t()" if g.nd(a) <= 2 else "[1:]",
                     ".unsqueeze(0)", "[..., :1]", ".transpose(0, -1)", ".expand(2, *%s.shape)" % a,
                     ".split(1)[0]", ".unbind()[0]", ".chunk(2)[0]", ".diagonal()" if g.nd(a) == 2 else "[-1]"])
    outs = g.add_op("%s%s" % (a, view), "view", [a])
    if not outs:
        return
    v = outs[0]
    target = g.choice([a, v])
    op = g.choice(["mul_(10.0)", "add_(1.0)", "exp_()", "zero_()", "sigmoid_()", "copy_(%s.detach() * 2)" % target])
    g.add_stmt("%s.%s" % (target, op), "view_inplace_" + op.split("(")[0], "inplace", [a, v], [a, v],
               keep_error=0.6)


@variant("hook", "hook", 0.8)
def _hook(g):
    # PyTorch 2.13 segfaults in register_hook on a view whose base was modified in place
    # (t = (x * 2).permute(1, 0); t.T.view(-1).zero_(); t.register_hook(f)): never generated
    a = need(g.pick(grad=True, where=lambda n: g.ns[n]._base is None or g.ns[n]._version == 0))
    fn = g.choice(["lambda g: g * 2", "lambda g: g + 1", "lambda g: None", "lambda g: g.clamp(min=0)",
                   "lambda g: g * 0"])
    h = g.fresh("h")
    g.add_stmt("%s = %s.register_hook(%s)" % (h, a, fn), "hook", "hook", [a], [], keep_error=0.5)


@variant("retain_then_inplace", "hook", 0.4)
def _retain_then_inplace(g):
    """retain_grad() on a non-leaf, then an in-place op on it: the retained grad is the new version's."""
    a = need(g.pick(grad=True, where=lambda n: not g.ns[n].is_leaf and g.ns[n]._base is None))
    if g.add_stmt("%s.retain_grad()" % a, "retain_grad", "hook", [a], [a], keep_error=0.0):
        op = g.choice(["mul_(5.0)", "add_(1.0)", "exp_()", "clamp_(min=0.0)"])
        g.add_stmt("%s.%s" % (a, op), "retained_inplace_" + op.split("(")[0], "inplace", [a], [a], keep_error=0.5)


@variant("retain_grad", "hook", 0.8)
def _retain(g):
    a = need(g.pick(grad=True))
    g.add_stmt("%s.retain_grad()" % a, "retain_grad", "hook", [a], [a], keep_error=0.5)


@variant("no_grad", "hook", 0.4)
def _no_grad(g):
    a = need(g.pick())
    name = g.fresh()
    form = g.choice(["%s * 2", "%s.exp()", "%s.sum()"]) % a
    g.add_stmt("with torch.no_grad():\n    %s = %s" % (name, form), "no_grad", "op", [a], [name], [name])


@variant("requires_grad_", "hook", 0.2)
def _requires_grad_(g):
    a = need(g.pick(grad=False))
    g.add_stmt("%s.requires_grad_()" % a, "requires_grad_", "inplace", [a], [a], keep_error=0.5)


# ------------------------------------------------------------------ more of minigrad's public ops (issue 11)


@variant("sort_topk", "reduce", 0.5)
def _sort(g):
    a = need(g.pick(min_nd=1))
    d = g.dim(a)
    size = g.sh(a)[d] if -g.nd(a) <= d < g.nd(a) else 1
    form = g.choice(["sort", "sort_desc", "torch_sort", "topk", "topk_small", "argsort", "values"])
    if form == "sort":
        code = "%s.sort(dim=%d)[0]" % (a, d)
    elif form == "sort_desc":
        code = "%s.sort(%d, descending=True).values" % (a, d)
    elif form == "torch_sort":
        code = "torch.sort(%s, dim=%d, stable=True)[0]" % (a, d)
    elif form in ("topk", "topk_small"):
        k = g.rng.randint(0, max(size, 0)) if size else 0
        code = "%s.topk(%d, dim=%d%s).values" % (a, k, d, ", largest=False" if form == "topk_small" else "")
    elif form == "argsort":
        code = "%s.argsort(dim=%d, descending=%s)" % (a, d, g.choice([True, False]))
    else:
        code = "%s.sort(dim=%d).indices" % (a, d)
    g.add_op(code, "sort" if "topk" not in form else "topk", [a])


@variant("mode", "reduce", 0.2)
def _mode(g):
    a = need(g.pick(min_nd=1))
    g.add_op("%s.mode(%d)[0]" % (a, g.dim(a)) if g.chance(0.6) else "torch.mode(%s, %d, keepdim=True).values"
             % (a, g.dim(a)), "mode", [a])


@variant("masked_select", "index", 0.4)
def _masked_select(g):
    a = need(g.pick())
    form = g.choice(["%s.masked_select(%s > 0)", "torch.masked_select(%s, %s < 0.5)"])
    g.add_op(form % (a, a), "masked_select", [a])


@variant("square_matrix", "linalg", 0.4)
def _square(g):
    a = g.pick(min_nd=2, max_nd=3, where=lambda n: g.sh(n)[-1] == g.sh(n)[-2])
    if a is None or g.chance(0.3):
        n = g.choice([1, 2, 3])
        a = g.leaf((n, n) if g.chance(0.8) else (2, n, n))
    f = g.choice(["det", "inverse", "logdet", "slogdet", "linalg_det", "linalg_inv", "solve"])
    if f == "det":
        code = "torch.det(%s)" % a
    elif f == "inverse":
        code = "%s.inverse()" % a
    elif f == "logdet":
        code = "torch.logdet(%s)" % a
    elif f == "slogdet":
        code = "torch.slogdet(%s)[%d]" % (a, g.choice([0, 1]))
    elif f == "linalg_det":
        code = "torch.linalg.det(%s)" % a
    elif f == "linalg_inv":
        code = "torch.linalg.inv(%s)" % a
    else:
        b = g.leaf((*g.sh(a)[:-1], g.choice([1, 2])))
        code = "torch.linalg.solve(%s, %s)" % (a, b)
    g.add_op(code, f, [a])


@variant("tensordot", "linalg", 0.3)
def _tensordot(g):
    a = need(g.pick(min_nd=1, max_nd=3))
    sa = g.sh(a)
    if g.chance(0.5):
        b = _mat_partner(g, (sa[-1], g.choice([1, 2])))
        g.add_op("torch.tensordot(%s, %s, dims=1)" % (a, b), "tensordot", [a, b])
    else:
        b = g.leaf(sa, grad=g.chance(0.7))
        g.add_op("torch.tensordot(%s, %s, dims=%d)" % (a, b, len(sa)), "tensordot", [a, b])


@variant("vector_norm", "reduce", 0.4)
def _vector_norm(g):
    a = need(g.pick())
    p = g.choice([2, 1, 0, 0.5, 3, "float('inf')", "-float('inf')"])
    if g.chance(0.5):
        code = "torch.linalg.vector_norm(%s, ord=%s, dim=%d, keepdim=%s)" % (a, p, g.dim(a), _kd(g))
    elif g.chance(0.5):
        code = "%s.norm(p=%s)" % (a, p)
    else:
        code = "torch.norm(%s, dim=%d)" % (a, g.dim(a))
    g.add_op(code, "vector_norm", [a])


@variant("shape_more", "shape", 0.8)
def _shape_more(g):
    a = need(g.pick())
    sa = g.sh(a)
    n = len(sa)
    form = g.choice(["unflatten", "movedim", "swapaxes", "broadcast_to", "view_as", "reshape_as", "type_as",
                     "atleast", "torch_fn", "squeeze_dims", "expand_neg", "split_kw", "narrow_t"])
    if form == "unflatten" and n and sa[0] and sa[0] % 2 == 0:
        code = "%s.unflatten(0, (2, %d))" % (a, sa[0] // 2)
    elif form == "unflatten" and n:
        code = "torch.unflatten(%s, -1, (1, %d))" % (a, sa[-1])
    elif form == "movedim" and n >= 2:
        code = "%s.movedim(%d, %d)" % (a, g.dim(a), g.dim(a)) if g.chance(0.6) else "%s.moveaxis(0, -1)" % a
    elif form == "swapaxes" and n >= 1:
        code = "%s.swapaxes(%d, %d)" % (a, g.dim(a), g.dim(a))
    elif form == "broadcast_to":
        code = "%s.broadcast_to(%s)" % (a, (2, *sa))
    elif form in ("view_as", "reshape_as"):
        b = g.leaf(_factor_shape(g, sa) if -1 not in _factor_shape(g, sa) else sa, grad=False)
        code = "%s.%s(%s)" % (a, form, b)
    elif form == "type_as":
        b = g.leaf((), dtype=g.choice(["float32", "float64"]), grad=False)
        code = "%s.type_as(%s)" % (a, b)
    elif form == "atleast":
        code = "torch.atleast_%dd(%s)" % (g.choice([1, 2, 3]), a)
    elif form == "torch_fn" and n >= 1:
        code = g.choice(["torch.transpose(%s, 0, -1)", "torch.squeeze(%s)", "torch.unsqueeze(%s, 0)",
                         "torch.permute(%s, %s)" % ("%s", tuple(reversed(range(n)))), "torch.select(%s, 0, 0)",
                         "torch.narrow(%s, -1, 0, 1)", "torch.reshape(%s, (-1,))", "torch.t(%s)" if n <= 2 else
                         "torch.flatten(%s)", "torch.chunk(%s, 2)[0]", "torch.split(%s, 1)[-1]",
                         "torch.unbind(%s)[0]", "torch.diagonal(%s)" if n >= 2 else "torch.flip(%s, [0])",
                         "torch.roll(%s, 1)", "torch.clone(%s)"]) % a
        if ("select" in code or "narrow" in code or "unbind" in code) and not all(sa):
            raise Skip
    elif form == "squeeze_dims" and n >= 2:
        code = "%s.squeeze((0, -1))" % a
    elif form == "expand_neg":
        code = "%s.expand(%s)" % (a, ", ".join(["2"] + ["-1"] * n))
    elif form == "split_kw" and n:
        code = "%s.split(split_size=1, dim=0)[0]" % a if sa[0] else "%s.split(1)" % a
    elif form == "narrow_t" and n and sa[-1] > 1:
        code = "%s.narrow(-1, torch.tensor(1), 1)" % a
    else:
        raise Skip
    g.add_op(code, form, [a])


@variant("binary_more", "binary", 0.6)
def _binary_more(g):
    a = need(g.pick())
    b = g.partner(a)
    form = g.choice(["floor_divide", "clamp_t", "clamp_max", "where_scalar", "mul_t", "true_divide", "subtract",
                     "arctan2", "div_trunc", "rsub", "sgn", "xmul"])
    if form == "floor_divide":
        code = "torch.floor_divide(%s, %s)" % (a, b)
    elif form == "clamp_t":
        code = "torch.clamp(%s, min=%s)" % (a, b) if g.chance(0.5) else "%s.clamp(%s, %s + 1.0)" % (a, b, b)
    elif form == "clamp_max":
        code = "%s.clamp_max(%s)" % (a, g.choice(["0.5", "-1.0", b]))
    elif form == "where_scalar":
        code = "torch.where(%s > 0, %s, %s)" % (a, g.choice(["1.0", a]), g.choice(["-1.0", "0.0", b]))
    elif form == "mul_t":
        code = "torch.mul(%s, %s)" % (a, b) if g.chance(0.5) else "%s.multiply(%s)" % (a, b)
    elif form == "true_divide":
        code = "%s.true_divide(%s)" % (a, b) if g.chance(0.5) else "%s.divide(%s)" % (a, b)
    elif form == "subtract":
        code = "%s.subtract(%s, alpha=2)" % (a, b)
    elif form == "arctan2":
        code = "torch.arctan2(%s, %s)" % (a, b)
    elif form == "div_trunc":
        code = "torch.div(%s, %s, rounding_mode='trunc')" % (a, b)
    elif form == "rsub":
        code = "%s - %s" % (g.choice(["1.0", "2", "-0.5"]), a)
    elif form == "sgn":
        code = "%s.sgn()" % a if g.chance(0.5) else "torch.negative(%s)" % a
    else:
        code = "%s * %s * %s" % (a, b, a)
    g.add_op(code, form, [a, b] if b in code else [a])


@variant("nn_more", "nn", 0.8)
def _nn_more(g):
    form = g.choice(["threshold", "conv2d", "max_pool2d", "avg_pool2d", "adaptive_avg_pool2d", "batch_norm",
                     "embedding", "bilinear", "softmax_f", "relu_f", "dropout_eval", "conv_transpose2d", "gelu_t",
                     "leaky_neg", "elu_big"])
    if form == "threshold":
        a = need(g.pick())
        g.add_op("F.threshold(%s, %s, %s)" % (a, g.choice(["0.5", "0.0", "-1.0"]), g.choice(["0.0", "-2.0"])),
                 form, [a])
    elif form in ("conv2d", "conv_transpose2d", "max_pool2d", "avg_pool2d", "adaptive_avg_pool2d", "batch_norm"):
        a = g.pick(min_nd=4, max_nd=4, nonempty=True)
        if a is None:
            a = g.leaf((g.choice([1, 2]), g.choice([1, 2]), g.choice([2, 3, 4]), g.choice([2, 3, 4])))
        n, c, h, w = g.sh(a)
        if form == "conv2d":
            k = g.choice([1, 2])
            wt = g.leaf((g.choice([1, 2]), c, k, k), grad=g.chance(0.8))
            extra = g.choice(["", ", stride=2", ", padding=1", ", bias=%s" % g.leaf((g.sh(wt)[0],))])
            g.add_op("F.conv2d(%s, %s%s)" % (a, wt, extra), form, [a, wt])
        elif form == "conv_transpose2d":
            wt = g.leaf((c, g.choice([1, 2]), 2, 2), grad=g.chance(0.8))
            g.add_op("F.conv_transpose2d(%s, %s%s)" % (a, wt, g.choice(["", ", stride=2"])), form, [a, wt])
        elif form == "max_pool2d":
            g.add_op("F.max_pool2d(%s, %d%s)" % (a, g.choice([1, 2]), g.choice(["", ", stride=1", ", padding=1"])
                                                 if min(h, w) >= 2 else ""), form, [a])
        elif form == "avg_pool2d":
            g.add_op("F.avg_pool2d(%s, %d)" % (a, g.choice([1, 2]) if min(h, w) >= 2 else 1), form, [a])
        elif form == "adaptive_avg_pool2d":
            g.add_op("F.adaptive_avg_pool2d(%s, %s)" % (a, g.choice(["1", "(1, 2)", "2"])), form, [a])
        else:
            wt, b = g.leaf((c,)), g.leaf((c,))
            g.add_op("F.batch_norm(%s, None, None, %s, %s, training=True)" % (a, wt, b), form, [a, wt, b])
    elif form == "embedding":
        wt = need(g.pick(min_nd=2, max_nd=2, nonempty=True))
        idx = g.index((g.choice([1, 2, 3]),), g.sh(wt)[0])
        g.add_op("F.embedding(%s, %s)" % (idx, wt), form, [wt])
    elif form == "bilinear":
        a = need(g.pick(min_nd=2, max_nd=2, nonempty=True))
        n, k = g.sh(a)
        b = g.leaf((n, g.choice([1, 2])))
        wt = g.leaf((g.choice([1, 2]), k, g.sh(b)[1]))
        g.add_op("F.bilinear(%s, %s, %s)" % (a, b, wt), form, [a, b, wt])
    else:
        a = need(g.pick())
        code = {"softmax_f": "F.softmax(%s, dim=%d)" % (a, g.dim(a)), "relu_f": "torch.relu(%s)" % a,
                "dropout_eval": "F.dropout(%s, p=0.3, training=False)" % a,
                "gelu_t": "F.gelu(%s, approximate='none')" % a, "leaky_neg": "F.leaky_relu(%s, -0.5)" % a,
                "elu_big": "F.elu(%s, alpha=2.0)" % a}[form]
        g.add_op(code, form, [a])


@variant("inplace_more", "inplace", 1.0)
def _inplace_more(g):
    a = need(_inplace_target(g))
    form = g.choice(["abs_", "sin_", "cos_", "log_", "reciprocal_", "square_", "floor_", "round_", "sign_",
                     "clamp_max_", "remainder_", "atan2_", "addcmul_", "addcdiv_", "lerp_", "scatter_",
                     "scatter_add_", "index_put", "setitem_slice", "setitem_mask", "iadd", "imul", "isub", "idiv",
                     "threshold_", "relu_f", "clip_", "log1p_", "expm1_", "rsqrt_", "erf_", "trunc_", "frac_",
                     "detach_"])
    uses = [a]
    sa = g.sh(a)
    if form in ("abs_", "sin_", "cos_", "log_", "reciprocal_", "square_", "floor_", "round_", "sign_", "log1p_",
                "expm1_", "rsqrt_", "erf_", "trunc_", "frac_", "detach_"):
        code = "%s.%s()" % (a, form)
    elif form in ("clamp_max_", "clip_"):
        code = "%s.%s(%s)" % (a, form, "0.5" if form == "clamp_max_" else "-0.5, 0.5")
    elif form == "remainder_":
        code = "%s.remainder_(%s)" % (a, g.choice(["2.0", "-1.5"]))
    elif form in ("atan2_", "lerp_"):
        b = g.partner(a, same=True)
        uses.append(b)
        code = "%s.atan2_(%s)" % (a, b) if form == "atan2_" else "%s.lerp_(%s, %s)" % (a, b, g.choice(["0.5", "1.0"]))
    elif form in ("addcmul_", "addcdiv_"):
        b, c = g.partner(a, same=True), g.partner(a, same=True)
        uses += [b, c]
        code = "%s.%s(%s, %s, value=%s)" % (a, form, b, c, g.choice(["1", "0.5", "-2.0"]))
    elif form in ("scatter_", "scatter_add_"):
        if not sa or not all(sa):
            raise Skip
        d = g.rng.randrange(len(sa))
        shape = tuple(1 for _ in sa)
        idx = g.index(shape, sa[d])
        src = g.leaf(shape, dtype=g.dt(a), grad=g.chance(0.6))
        uses.append(src)
        code = "%s.%s(%d, %s, %s)" % (a, form, d, idx, src)
    elif form == "index_put":
        if not sa or not sa[0]:
            raise Skip
        code = "%s[%s] = %s" % (a, g.index((g.choice([1, 2]),), sa[0]), g.choice(["0.0", "-3.0"]))
    elif form == "setitem_slice":
        if not sa:
            raise Skip
        code = "%s[%s] = %s" % (a, g.choice([":1", "1:", "...", ":", "::2", "None"]), g.choice(["0.5", "2.0"]))
    elif form == "setitem_mask":
        code = "%s[%s > 0] = %s" % (a, a, g.choice(["0.0", "1.0"]))
    elif form in ("iadd", "imul", "isub", "idiv"):
        b = g.partner(a)
        if not _broadcastable(g.sh(b), sa) or len(g.sh(b)) > len(sa):
            b = g.choice(["2.0", "0.5"])
        else:
            uses.append(b)
        code = "%s %s= %s" % (a, {"iadd": "+", "imul": "*", "isub": "-", "idiv": "/"}[form], b)
    elif form == "threshold_":
        code = "F.threshold_(%s, 0.0, -1.0)" % a
    else:
        code = "F.relu(%s, inplace=True)" % a
    g.add_stmt(code, "inplace_" + form, "inplace", uses, _with_base(g, a), keep_error=0.35)


@variant("like_factories", "unary", 0.2)
def _like(g):
    a = need(g.pick())
    form = g.choice(["torch.zeros_like(%s)", "torch.ones_like(%s)", "torch.full_like(%s, 2.5)",
                     "%s.new_zeros(2)", "%s.new_ones(%s.shape)", "torch.zeros_like(%s, requires_grad=True)"])
    g.add_op(form.replace("%s", a), "like", [a])


# ------------------------------------------------------------------ breadth: the ops the table above never drew

from . import ops_breadth  # noqa: E402,F401  (registers its variants after the ones above)
