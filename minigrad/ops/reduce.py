"""Reductions: sum, mean, max/min, logsumexp, softmax/log_softmax, var/std, prod, norm, cumsum/cumprod.

The single-output reductions are rows of the derivative table (``rule``, see ``_rules.py``); the
ones that return values *and* indices (``max(dim)``, ``sort``, ``topk``...) stay classes: their
backward puts the gradient back at the indices (``gather_backward``).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from .._dtype import from_numpy_dtype, get_default_dtype
from ..autograd.function import Function
from ._cascade import torch_sum
from ._layout import contiguous, like
from ._rules import NP, fused, rule
from ._util import dims_tuple, fmath, wrap_dim
from .index import gather_backward

if TYPE_CHECKING:
    from .._tensor import Tensor
    from ..autograd.function import Grads
    from ._rules import Rule


def _sum_dtype(x):
    return np.int64 if x.dtype.name in ("bool", "uint8", "int8", "int16", "int32", "int64") else x._data.dtype


def _sum_type(a):
    """The dtype of a sum of the array ``a``: integers and bools add up as int64."""
    return np.int64 if a.dtype.kind in "biu" else a.dtype


def _legacy(a):
    return from_numpy_dtype(a.dtype)._legacy


def _f(a):
    """Float data for reductions whose result is floating point even for integers (logsumexp)."""
    return a if a.dtype.kind == "f" else a.astype(get_default_dtype().numpy)


def _count(sizes, dims):
    """How many elements a reduction over ``dims`` of a tensor of ``sizes`` combines."""
    return math.prod(sizes[d] for d in dims) if sizes else 1


# -- the derivative table: reductions ------------------------------------------------------------------

Sum: type[Rule] = rule("SumBackward0", lambda self: np.asarray(_fsum(self, tuple(range(self.ndim)))),
           values={"self_sym_sizes": lambda self: self.shape},
           self=("g", lambda xp, g, self_sym_sizes: xp.expand(g, self_sym_sizes)),
           jvp="auto_linear",
           words="Sum of all elements: every element gets the same gradient g (expanded to self's shape).")


def _fsum(a, dims, keepdim=False):
    """``a.sum(dims)``: floats in PyTorch's order (a cancelling float32 sum rounds as PyTorch's), integers as int64."""
    if a.dtype.kind == "f":
        return torch_sum(a, dims, keepdim)
    return a.sum(axis=dims, keepdims=keepdim, dtype=_sum_type(a))


def _sum_dim(self, dim, keepdim):
    return np.asarray(_fsum(self, dims_tuple(dim, self.ndim), keepdim))


SumDim: type[Rule] = rule("SumBackward1", _sum_dim,
              values={"dim": lambda self, dim: dims_tuple(dim, self.ndim), "self_sym_sizes": lambda self: self.shape},
              self=("g.unsqueeze(dim).expand(self_sym_sizes)",
                    lambda xp, g, dim, keepdim, self_sym_sizes: xp.expand(xp.restore(g, dim, keepdim), self_sym_sizes)),
              jvp="auto_linear",
              words="Sum over dim: g is broadcast back along dim.")


def _check_mean_dtype(a):
    if a.dtype.kind != "f":
        raise RuntimeError("mean(): could not infer output dtype. Input dtype must be either a floating point or "
                           "complex dtype. Got: %s" % _legacy(a))


def _mean(self):
    _check_mean_dtype(self)
    return np.asarray(_fsum(self, tuple(range(self.ndim))) / self.size, dtype=self.dtype)   # empty: nan, no warning


Mean: type[Rule] = rule("MeanBackward0", _mean,
            values={"self_sym_numel": lambda self: self.size, "self_sym_sizes": lambda self: self.shape},
            self=("g.expand(self_sym_sizes) / self_sym_numel",
                  lambda xp, g, self_sym_numel, self_sym_sizes:
                  xp.div_scalar(xp.expand(g, self_sym_sizes), max(self_sym_numel, 1))),
            jvp="auto_linear",
            words="Mean of n elements: each gets g / n.")


def _mean_dim(self, dim, keepdim):
    _check_mean_dtype(self)
    dims = dims_tuple(dim, self.ndim)
    return np.asarray(_fsum(self, dims, keepdim) / _count(self.shape, dims), dtype=self.dtype)


MeanDim: type[Rule] = rule("MeanBackward1", _mean_dim,
               values={"dim": lambda self, dim: dims_tuple(dim, self.ndim), "self_sym_numel": lambda self: self.size,
                       "self_sym_sizes": lambda self: self.shape},
               self=("g.unsqueeze(dim).expand(self_sym_sizes) / N",
                     lambda xp, g, dim, keepdim, self_sym_sizes:
                     xp.div_scalar(xp.expand(xp.restore(g, dim, keepdim), self_sym_sizes),
                                   max(_count(self_sym_sizes, dim), 1))),
               jvp="auto_linear",
               words="Mean over dim: g / N broadcast back along dim (N: the number of elements averaged).")


def _hits(a, v):
    """Where the array ``a`` equals the reduced value ``v`` (a nan value is hit by the nans)."""
    hit = a == v
    if a.dtype.kind == "f":
        hit |= np.isnan(a) & np.isnan(v)
    return hit


def _evenly(xp, g, self, value, dims):
    """PyTorch's evenly_distribute_backward: g / count at the elements equal to ``value``, exactly 0 elsewhere."""
    a = xp.value(self)
    hit = _hits(a, xp.value(value))
    if dims is None:        # a full reduction: zeros, masked_fill_(hit, g / count) (MaskedFillBackward1, DivBackward0)
        return xp.masked_fill_tensor(xp.zeros_like(self), hit, g / xp.const(np.asarray(hit.sum(), a.dtype)))
    count = hit.sum(axis=dims, keepdims=True)
    share = np.divide(1, count, out=np.zeros(count.shape, dtype=a.dtype), where=count != 0)
    return xp.where(xp.mask(hit), g * xp.const(share), 0)


_EVENLY = "g · [self = result] / count(self = result)"


def _max_all(self):
    if self.size == 0:
        raise RuntimeError("max(): Expected reduction dim to be specified for input.numel() == 0. Specify "
                           "the reduction dim with the 'dim' argument.")
    return np.asarray(np.max(self))


def _min_all(self):
    if self.size == 0:
        raise RuntimeError("min(): Expected reduction dim to be specified for input.numel() == 0. Specify "
                           "the reduction dim with the 'dim' argument.")
    return np.asarray(np.min(self))


MaxAll: type[Rule] = rule("MaxBackward1", _max_all,
              self=(_EVENLY, lambda xp, g, self, result: _evenly(xp, g, self, result, None)),
              jvp="from_vjp",
              words="Max: the gradient goes to the largest element (ties share it).")

MinAll: type[Rule] = rule("MinBackward1", _min_all,
              self=(_EVENLY, lambda xp, g, self, result: _evenly(xp, g, self, result, None)),
              jvp="from_vjp",
              words="Min: the gradient goes to the smallest element (ties share it).")


def _median(self):
    a = self.reshape(-1)
    if a.size == 0 or (a.dtype.kind == "f" and np.isnan(a).any()):
        return np.asarray(np.nan, dtype=_f(a).dtype)
    k = (a.size - 1) // 2
    return np.asarray(np.partition(a, k)[k])


Median: type[Rule] = rule("MedianBackward0", _median,
              self=(_EVENLY, lambda xp, g, self, result: _evenly(xp, g, self, result, None)),
              jvp="from_vjp",
              words="Median: the gradient goes to the median element (ties share it).")


def _saved_int(d):
    """A dim as PyTorch's node shows it: a negative one as the unsigned 64-bit integer it is stored as."""
    return d % 2**64


def _axes(dim, ndim):
    """The dims a saved ``dim`` (PyTorch's unsigned form, () for all) reduces, sorted and non-negative."""
    dims = [d - 2**64 if d >= 2**63 else d for d in dim]
    return dims_tuple(dims or None, ndim) if ndim else ()


def _numpy_axis(dim, ndim):
    """The numpy axis of ``dim``, checked; None for a 0-d tensor (which accepts dim 0 or -1)."""
    axis = wrap_dim(dim, ndim)
    return axis if ndim else None


def _extreme(reduce, name):
    def forward(self, dim, keepdim):
        dim = (dim,) if isinstance(dim, (int, np.integer)) else tuple(dim)
        dims = dims_tuple(dim or None, self.ndim)
        if not dim and self.size == 0:
            raise RuntimeError("%s(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
                               "reduction dim with the 'dim' argument." % name)
        for d in dim:               # as given: PyTorch names the dim the caller wrote (-1, not 1)
            if self.ndim and self.shape[wrap_dim(int(d), self.ndim)] == 0:
                raise IndexError("%s(): Expected reduction dim %d to have non-zero size." % (name, d))
        return np.asarray(reduce(self, axis=dims, keepdims=keepdim))
    return forward


def _saved_dims(self, dim):
    return tuple(_saved_int(int(d)) for d in ((dim,) if isinstance(dim, (int, np.integer)) else dim))


def _extreme_grad(xp, g, self, result, dim, keepdim):
    """PyTorch's scale_grad_by_count: (g / count) · [self = result], a product (not exact zeros: an inf g gives nan
    at the other elements, a nan result nan everywhere)."""
    dims = _axes(dim, self.ndim)
    a = xp.value(self)
    hit = a == xp.value(xp.restore(result, dims, keepdim))
    count = xp.const(hit.sum(axis=dims, keepdims=True).astype(a.dtype))
    return xp.restore(g, dims, keepdim) / count * xp.const(hit.astype(a.dtype))


Amax: type[Rule] = rule("AmaxBackward0", _extreme(np.max, "amax"), values={"dim": _saved_dims},
            self=(_EVENLY, _extreme_grad),
            jvp="from_vjp",
            words="amax: the gradient is shared evenly among the tied maxima.")

Amin: type[Rule] = rule("AminBackward0", _extreme(np.min, "amin"), values={"dim": _saved_dims},
            self=(_EVENLY, _extreme_grad),
            jvp="from_vjp",
            words="amin: the gradient is shared evenly among the tied minima.")


def _logsumexp(self, dim, keepdim):
    dims = dims_tuple(dim, self.ndim)
    a = _f(self)                                                # logsumexp of integers is a float
    m = np.max(a, axis=dims, keepdims=True, initial=-np.inf)    # -inf over an empty dim
    m = np.where(np.isfinite(m), m, 0)
    out = fmath.log(np.sum(fmath.exp(a - m), axis=dims, keepdims=True)) + m
    if not keepdim:
        out = out.reshape(tuple(s for i, s in enumerate(a.shape) if i not in dims))
    return np.asarray(out, dtype=a.dtype)


LogSumExp: type[Rule] = rule("LogsumexpBackward0", _logsumexp,
                 values={"dim": lambda self, dim: dims_tuple(dim, self.ndim)},
                 self=("g · exp(self − result)",
                       lambda xp, g, self, result, dim, keepdim:
                       xp.restore(g, dim, keepdim) * xp.exp(self - xp.restore(result, dim, keepdim))),
                 jvp=lambda xp, self_t, self, result, dim, keepdim:
                     (xp.sum(self_t * xp.exp(self - xp.restore(result, dim, keepdim)), dim, keepdim) if dim
                      else self_t * xp.exp(self - result)),
                 words="log Σ eˣ: each element gets g times its softmax weight.")


def _check_floating(x, message, error):
    if x._data.dtype.kind != "f":
        raise error(message)


def _float_array(x):
    return x._data if x._data.dtype.kind == "f" else x._data.astype(get_default_dtype().numpy)


def _axis(dim, a):
    """The numpy axis of a softmax's dim (None for a 0-dim tensor, which numpy cannot index)."""
    return dim if a.ndim else None


def _softmax_backward(grad_output, output, dim):
    return output * (grad_output - (grad_output * output).sum(axis=_axis(dim, output), keepdims=True))


SoftmaxBackward: type[Rule] = fused("softmax_backward", rule(
    "SoftmaxBackwardDataBackward0", _softmax_backward,
    grad_output=("output · (g − sum(g · output, dim))",
                 lambda xp, g, output, dim: xp.softmax_backward(g, output, dim)),
    output=("g · (grad_output − sum(grad_output · output, dim)) − grad_output · sum(g · output, dim)",
            lambda xp, g, grad_output, output, dim:
            g * (grad_output - xp.sum(grad_output * output, _axis(dim, output), True))
            - grad_output * xp.sum(g * output, _axis(dim, output), True)),
    name="SoftmaxBackwardData",
    jvp="from_vjp",
    words="Softmax's backward, y · (g − Σ g·y), as one op (create_graph): linear in g, and differentiable "
          "in the saved output."))


def _softmax(self, dim):
    if self.dtype.kind != "f":
        raise NotImplementedError('"softmax_lastdim_kernel_impl" not implemented for \'%s\'' % _legacy(self))
    axis = _axis(wrap_dim(dim, self.ndim), self)
    if self.size == 0:
        return self.copy()
    e = fmath.exp(self - self.max(axis=axis, keepdims=True))
    e /= e.sum(axis=axis, keepdims=True)
    return contiguous(e)                       # PyTorch's softmax makes its input contiguous


Softmax: type[Rule] = rule("SoftmaxBackward0", _softmax, values={"dim": lambda self, dim: wrap_dim(dim, self.ndim)},
               self=("result · (g − sum(g · result, dim))",
                     lambda xp, g, result, dim: xp.softmax_backward(g, result, dim)),
               jvp=lambda xp, self_t, result, dim: xp.softmax_backward(self_t, result, dim),
               words="Softmax, from its output y: y · (g − Σ g·y) — the outputs compete, so the gradients sum to 0.")


def _log_softmax_backward(grad_output, output, dim):
    return grad_output - fmath.exp(output) * grad_output.sum(axis=_axis(dim, output), keepdims=True)


LogSoftmaxBackward: type[Rule] = fused("log_softmax_backward", rule(
    "LogSoftmaxBackwardDataBackward0", _log_softmax_backward,
    grad_output=("g − sum(g · exp(output), dim)",
                 lambda xp, g, output, dim: g - xp.sum(g * xp.exp(output), _axis(dim, output), True)),
    output=("−g · exp(output) · sum(grad_output, dim)",
            lambda xp, g, grad_output, output, dim:
            -g * xp.exp(output) * xp.sum(grad_output, _axis(dim, output), True)),
    name="LogSoftmaxBackwardData",
    jvp="from_vjp",
    words="Log-softmax's backward, g − eʸ · Σ g, as one op (create_graph)."))


def _log_softmax(self, dim):
    if self.dtype.kind != "f":
        raise NotImplementedError('"log_softmax_lastdim_kernel_impl" not implemented for \'%s\'' % _legacy(self))
    axis = _axis(wrap_dim(dim, self.ndim), self)
    if self.size == 0:
        return self.copy()
    out = self - self.max(axis=axis, keepdims=True)
    out -= fmath.log(fmath.exp(out).sum(axis=axis, keepdims=True))
    return contiguous(out)


LogSoftmax: type[Rule] = rule("LogSoftmaxBackward0",
                              _log_softmax, values={"dim": lambda self, dim: wrap_dim(dim, self.ndim)},
                  self=("g − exp(result) · sum(g, dim)",
                        lambda xp, g, result, dim: xp.log_softmax_backward(g, result, dim)),
                  jvp=lambda xp, self_t, result, dim:
                  self_t - xp.sum(self_t * xp.exp(result), _axis(dim, result), True),
                  words="Log-softmax, from its output y: g − eʸ · Σ g.")


def _check_var_dtype(a):
    if a.dtype.kind != "f":
        raise RuntimeError("std and var only support floating point and complex dtypes")


def _variance(a, dims, dof, keepdim, take_sqrt=False):
    """Σ(x - mean)² / dof (its square root if ``take_sqrt``), inf or nan when ``dof <= 0``, without numpy's warnings.

    As PyTorch's CPU kernels: in float64, the result rounded to ``a``'s dtype last, so a float32 ``std`` of
    1e30-sized numbers is finite (its variance overflows only at the final rounding). A reduction to one number
    centres on the mean in ``a``'s dtype and sums the squares (``std_var_all_cpu``); the others run Welford's
    algorithm in double over each output's elements in memory order (``WelfordOps``) -- bit for bit, which
    matters where the variance is all rounding (1 + 1e-8 against 1): its log's slope is 1 / var."""
    if not a.size:
        centered = a.astype(np.float64)
    elif a.size == _count(a.shape, dims):                       # one output: PyTorch's all-reduce path:
        # mean() in a's dtype (its sum in PyTorch's order), then Σ (x − mean)² in double, one element after another
        mean = np.float64(a.dtype.type(_fsum(a, tuple(range(a.ndim))) / a.size))
        centered = np.ravel(a, order="K").astype(np.float64) - mean
        out = np.cumsum(centered * centered)[-1] / max(dof, 0)
        shape = [1 if d in dims else n for d, n in enumerate(a.shape) if keepdim or d not in dims]
        return np.asarray(np.sqrt(out) if take_sqrt else out).astype(a.dtype).reshape(shape)
    elif _count(a.shape, dims) <= _WELFORD_MAX:
        return _welford(a, dims, dof, keepdim, take_sqrt)
    else:                                                       # long rows: the two-pass sum (float64 rounding)
        wide = a.astype(np.float64)
        centered = wide - wide.mean(axis=dims, keepdims=True)
    out = np.sum(centered * centered, axis=dims, keepdims=keepdim) / max(dof, 0)
    return np.asarray(np.sqrt(out) if take_sqrt else out).astype(a.dtype)


_WELFORD_MAX = 2048          # elements per output run one step at a time (a numpy op per step, over all outputs)


def _welford(a, dims, dof, keepdim, take_sqrt):
    """PyTorch's ``WelfordOps`` in double: mean += δ / n, m2 += δ · (x − mean), element after element."""
    kept = [d for d in range(a.ndim) if d not in dims]
    order = sorted(dims, key=lambda d: -abs(a.strides[d]))       # TensorIterator walks memory order
    x = np.transpose(a, kept + order).reshape([a.shape[d] for d in kept] + [-1]).astype(np.float64)
    mean = np.zeros(x.shape[:-1])
    m2 = np.zeros(x.shape[:-1])
    for i in range(x.shape[-1]):
        delta = x[..., i] - mean
        mean = mean + delta / (i + 1)
        m2 = m2 + delta * (x[..., i] - mean)
    out = m2 / max(dof, 0)
    if take_sqrt:
        out = np.sqrt(out)
    if keepdim:
        out = np.expand_dims(out, tuple(dims))
    return np.asarray(out).astype(a.dtype)


def _warn_dof(name, a, n, correction):
    """PyTorch's warning (numpy's RuntimeWarning is silenced) when ``n - correction <= 0``: the result is nan/inf.
    PyTorch's ``n`` is the input's numel divided by the output's: 0 for an empty input."""
    if (n if a.size else 0) - correction <= 0:
        warnings.warn("%s(): degrees of freedom is <= 0. Correction should be strictly less than the reduction factor "
                      "(input numel divided by output numel)." % name, UserWarning, stacklevel=5)


def _var(self, dim, correction, keepdim):
    _check_var_dtype(self)
    dims = dims_tuple(dim, self.ndim)
    n = _count(self.shape, dims)
    _warn_dof("var", self, n, correction)
    return _variance(self, dims, n - correction, keepdim)


def _std(self, dim, correction, keepdim):
    _check_var_dtype(self)
    dims = dims_tuple(dim, self.ndim)
    n = _count(self.shape, dims)
    _warn_dof("std", self, n, correction)
    return _variance(self, dims, n - correction, keepdim, take_sqrt=True)


def _var_backward(xp, g, self, dim, correction, keepdim):
    """PyTorch's var_backward: g · 2 (x − mean) / (N − correction), ``g`` unsqueezed back over reduced dims (a
    full reduction broadcasts it); for a full reduction without degrees of freedom, g · (nan where x is the mean,
    inf elsewhere)."""
    dims = dims_tuple(dim, self.ndim)
    dof = _count(self.shape, dims) - correction
    if dim is None or self.ndim == 0:
        centered = self - xp.mean(self, None, True)
        if dof <= 0:
            return g * xp.where(xp.mask(xp.value(centered) == 0), math.nan, math.inf)
    else:
        if self.ndim > 1:
            g = xp.restore(g, dims, keepdim)
        centered = self - xp.mean(self, dims, True)
    return xp.mul_scalar(g, 2.0 / dof if dof else math.inf) * centered


def _saved_dim(self, dim):
    return None if dim is None else dims_tuple(dim, self.ndim)


Var: type[Rule] = rule("VarBackward0", _var, values={"dim": _saved_dim},
           self=("g · 2 · (self − mean(self)) / (N − correction)",
                 lambda xp, g, self, dim, correction, keepdim: _var_backward(xp, g, self, dim, correction, keepdim)),
           jvp="from_vjp",
           words="Variance: each element gets g times twice its distance from the mean, over N − correction.")


def _std_grad(xp, g, self, result, dim, correction, keepdim):
    g_var = xp.masked_fill(g / xp.mul_scalar(result, 2), xp.value(result) == 0, 0)   # PyTorch's std_backward
    return _var_backward(xp, g_var, self, dim, correction, keepdim)


Std: type[Rule] = rule("StdBackward0", _std, values={"dim": _saved_dim},
           self=("g · (self − mean(self)) / ((N − correction) · result)  (0 where result = 0)", _std_grad),
           jvp="from_vjp",
           words="Standard deviation: the variance's gradient divided by 2·std (0 for a constant input).")


def _others_arrays(a, axis):
    """For each element, the product of all the others along ``axis``: exclusive prefix times suffix products."""
    ones = np.ones_like(np.take(a, [0], axis=axis))
    before = np.cumprod(np.concatenate([ones, np.take(a, range(a.shape[axis] - 1), axis=axis)], axis), axis)
    after = np.flip(np.cumprod(np.flip(np.concatenate([np.take(a, range(1, a.shape[axis]), axis=axis), ones],
                                                      axis), axis), axis), axis)
    return before * after


def _prod_of_others(x, dim):
    """For each element, the product of all the others along ``dim`` (all elements if None), in tensor ops.

    Row i of an n × n table is the slice with its i-th entry replaced by 1; the rows' products are
    the answer.  Differentiable again, but O(n²) memory: used only under create_graph.
    """
    from .._creation import tensor, where  # circular: _creation builds on the ops

    rows = x.reshape(-1) if dim is None else x.transpose(dim, -1)
    n = rows.shape[-1]
    table = rows.unsqueeze(-2).expand(*rows.shape[:-1], n, n)
    others = where(tensor(np.eye(n, dtype=bool)), 1.0, table).prod(-1)
    return others.reshape(x.shape) if dim is None else others.transpose(dim, -1)


def _others(xp, self, dim):
    """The product of the other elements, also where some are 0 (where ``result / self`` fails)."""
    if xp is NP:
        a = self if dim is not None else self.reshape(-1)
        return _others_arrays(a, dim if dim is not None else 0).reshape(self.shape)
    return _prod_of_others(self, dim)


def _prod_grad(xp, g, self, result, dim=None, keepdim=False):
    if not self.ndim:                        # PyTorch's prod_backward returns g itself (prod(nan) too)
        return g
    if dim is not None:                      # (a full product's 0-dim gradient broadcasts as it is)
        g, result = xp.restore(g, (dim,), keepdim), xp.restore(result, (dim,), keepdim)
    zeros = np.count_nonzero(xp.value(self) == 0)
    if not zeros:
        return g * (result / self)
    if dim is None and zeros > 1 and xp is NP:
        # two zeros make every "product of the others" 0: PyTorch writes exact zeros (outside create_graph),
        # whatever g and the other elements are (a nan or inf elsewhere gives no 0 · inf = nan)
        return xp.zeros_like(self)
    return g * _others(xp, self, dim)


Prod: type[Rule] = rule("ProdBackward0", lambda self: np.asarray(np.prod(self)),
            self=("g · result / self  (the product of the others, also at zeros)",
                  lambda xp, g, self, result: _prod_grad(xp, g, self, result)),
            jvp="from_vjp",
            words="Product: each element gets g times the product of all the other elements.")

ProdDim: type[Rule] = rule("ProdBackward1",
               lambda self, dim, keepdim: np.asarray(np.prod(self, axis=_numpy_axis(dim, self.ndim),
                                                             keepdims=keepdim and self.ndim > 0)),
               values={"dim": lambda self, dim: wrap_dim(dim, self.ndim)},
               self=("g · result / self along dim  (the product of the others, also at zeros)", _prod_grad),
               jvp="from_vjp",
               words="Product over dim: each element gets g times the product of the others.")


def _check_norm_identity(self, ord, dim):
    """PyTorch's error for a max/min-like norm (inf, -inf, ord < 0) over an empty dimension."""
    name = ("-inf" if ord < 0 else "inf") if math.isinf(ord) else "%g" % ord
    if dim is None:
        raise RuntimeError("linalg.vector_norm cannot compute the %s norm on an empty tensor because the operation "
                           "does not have an identity" % name)
    for d in (dim,) if isinstance(dim, (int, np.integer)) else dim:     # as given, as PyTorch names it
        if self.shape[wrap_dim(int(d), self.ndim)] == 0:
            raise RuntimeError("linalg.vector_norm cannot compute the %s norm on the dimension %dbecause this "
                               "dimension is empty and the operation does not have an identity" % (name, d))


def _norm(self, ord, dim, keepdim):
    if self.dtype.kind != "f":
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as input. Got %s"
                           % _legacy(self))
    dims = dims_tuple(dim, self.ndim)
    if self.size == 0 and (ord < 0 or ord == math.inf):
        _check_norm_identity(self, ord, dim)
    a = np.abs(self)
    # one element per norm: |x| (PyTorch: no 1e30² overflow) -- except a 0-d tensor with a dim, which PyTorch
    # sends through its reduction kernel (norm(tensor(-1e30), dim=-1) is inf)
    if _count(self.shape, dims) == 1 and ord != 0 and not (self.ndim == 0 and dim is not None):
        return np.asarray(a if keepdim else np.squeeze(a, axis=dims), dtype=self.dtype)
    if ord == math.inf:
        out = a.max(axis=dims, keepdims=keepdim)
    elif ord == -math.inf:
        out = a.min(axis=dims, keepdims=keepdim)
    elif ord == 0:                                     # the number of nonzero elements (nan counts)
        out = (a != 0).sum(axis=dims, keepdims=keepdim, dtype=self.dtype)
    elif ord == 1:
        out = a.sum(axis=dims, keepdims=keepdim)
    else:
        # (fmath: numpy's float32 power has CPU-specific kernels; a square and a square root are exact)
        powered = np.square(a) if ord == 2 else fmath.power(a, ord)
        out = fmath.power(powered.sum(axis=dims, keepdims=keepdim), 1.0 / ord)
    return np.asarray(out, dtype=self.dtype)


def _norm_grad(xp, g, self, result, ord, dim, keepdim):
    """PyTorch's norm_backward, case by case (exact zeros where the norm or the element is 0)."""
    x, dims = self, dims_tuple(dim, self.ndim)
    if dim is not None:                      # (a full reduction's 0-dim gradient broadcasts as it is)
        g, result = xp.restore(g, dims, keepdim), xp.restore(result, dims, keepdim)
    r = result
    if ord == 0:
        return None                          # (PyTorch: an undefined gradient)
    if ord == 1:
        return xp.sgn(x) * g
    if math.isinf(ord):                      # the elements at the max (min) |x|, and nan ones, share g
        a = np.abs(xp.value(x))
        hit = xp.const(((a == xp.value(r)) | np.isnan(a)).astype(a.dtype))
        return xp.sgn(x) * (g / xp.sum(hit, dims, True) * hit)
    r_zero = xp.value(r) == 0
    if ord == 2:
        return g * xp.masked_fill(x / r, r_zero, 0)
    if ord < 1:
        scaled = xp.sgn(x) * xp.masked_fill(xp.pow(xp.abs(x), ord - 1), xp.value(x) == 0, 0)
        return scaled * g * xp.pow(r, 1 - ord)
    scaled = x * xp.pow(xp.abs(x), ord - 2) if ord >= 2 else xp.sgn(x) * xp.pow(xp.abs(x), ord - 1)
    return scaled * xp.masked_fill(g / xp.pow(r, ord - 1), r_zero, 0)


Norm: type[Rule] = rule("LinalgVectorNormBackward0", _norm, values={"dim": _saved_dim},
            self=("g · self · |self|^(ord − 2) / result^(ord − 1)  (0 where result = 0)", _norm_grad),
            jvp="from_vjp",
            words="The p-norm: for p = 2, g · self / ‖self‖ (0 at the origin).")


def _cumsum(self, dim):
    return contiguous(np.cumsum(self, axis=_numpy_axis(dim, self.ndim), dtype=_sum_type(self)).reshape(self.shape))


def _reverse_cumsum(xp, g, dim):
    """Σ_{j ≥ k} g_j: the running sum taken from the other end."""
    return g if g.ndim == 0 else xp.flip(xp.cumsum(xp.flip(g, dim), dim), dim)


Cumsum: type[Rule] = rule("CumsumBackward0",
                          _cumsum, values={"dim": lambda self, dim: wrap_dim(dim, self.ndim)},
              self=("reverse cumsum of g along dim", lambda xp, g, dim: _reverse_cumsum(xp, g, dim)),
              jvp="auto_linear",
              words="Running sum: element k gets the sum of g over every position j ≥ k.")


def _cumprod(self, dim):
    return contiguous(np.cumprod(self, axis=_numpy_axis(dim, self.ndim), dtype=_sum_type(self)).reshape(self.shape))


def _cumprod_with_zeros(xp, grad, x, y, d):
    """x_k's gradient is y_(k-1) · s_k, where s_k = Σ_{j≥k} grad_j Π_{k<i≤j} x_i runs backwards as
    s_k = grad_k + x_(k+1) · s_(k+1) (dividing by x fails at zeros).  Tensor ops: it serves create_graph too."""
    from .._creation import stack  # circular: _creation builds on the ops
    n = x.shape[d]
    s = [grad.select(d, n - 1)]
    for k in range(n - 2, -1, -1):
        s.append(grad.select(d, k) + x.select(d, k + 1) * s[-1])
    s.reverse()
    return stack([s[0]] + [y.select(d, k - 1) * s[k] for k in range(1, n)], d)


def _cumprod_grad(xp, g, self, result, dim):
    if math.prod(self.shape) <= 1 or self.shape[dim] == 1:     # (PyTorch: g itself; no 0 · inf)
        return g
    if not np.any(xp.value(self) == 0):
        return _reverse_cumsum(xp, result * g, dim) / self
    return xp.by_tensors(_cumprod_with_zeros, g, self, result, dim)


Cumprod: type[Rule] = rule("CumprodBackward0", _cumprod, values={"dim": lambda self, dim: wrap_dim(dim, self.ndim)},
               self=("sum over j ≥ k of g_j · result_j / self_k", _cumprod_grad),
               jvp="from_vjp",
               words="Running product: element k gets Σ_{j≥k} g_j · y_j / x_k.")


# -- reductions that return values and indices: classes (the gradient goes back to the indices) ----------

# PyTorch's reductions allocate their result row-major; numpy's keep the input's order (a sum over dim 1 of a
# transposed tensor is column-major), so a ``view`` of the result would raise where PyTorch's works.
for _reduction in (SumDim, MeanDim, Amax, Amin, LogSumExp, ProdDim, Norm):
    _reduction._layout = staticmethod(lambda out, args: contiguous(out))


class MaxDim(Function):
    """``max(dim)``: values and indices.  Backward: grad to the (first) position of each max."""

    node_name: str = "MaxBackward0"
    jvp = "from_vjp"
    saved_names: tuple[str, ...] = ("indices",)
    saved_attrs: tuple[str, ...] = ("dim", "keepdim", "self_sym_sizes")
    arg: Callable[..., Any] = staticmethod(np.argmax)
    op: str = "max"

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: Any, keepdim: bool) -> tuple[Any, ...]:
        d = wrap_dim(dim, x.ndim)
        check_arg_reduction(type(ctx)._forward_cls.op, x.shape, d)
        ctx.axis, ctx.dim, ctx.keepdim, ctx.self_sym_sizes = d, _saved_int(dim), keepdim, tuple(x.shape)
        a = x._data if x.ndim else x._data.reshape(1)
        idx = np.expand_dims(type(ctx)._forward_cls.arg(a, axis=d if x.ndim else 0), d if x.ndim else 0)
        values = np.take_along_axis(a, idx, axis=d if x.ndim else 0)
        if not keepdim or x.ndim == 0:
            values, idx = values.reshape(_drop(a.shape, d, x.ndim)), idx.reshape(_drop(a.shape, d, x.ndim))
        ctx.save_for_backward(idx.astype(np.int64))
        ctx.mark_non_differentiable_index = True
        return values, idx.astype(np.int64)

    @staticmethod
    def backward(ctx: Any, grad: Tensor, grad_indices: Tensor) -> Grads:
        (indices,) = ctx.saved_tensors
        if not ctx.self_sym_sizes:                   # a 0-dim input: its one element was picked
            return grad.reshape(()), None, None
        return gather_backward(grad, indices, ctx.axis, ctx.keepdim, ctx.self_sym_sizes), None, None


class MinDim(MaxDim):
    node_name: str = "MinBackward0"
    arg: Callable[..., Any] = staticmethod(np.argmin)
    op: str = "min"



def check_arg_reduction(op: str, shape: Any, dim: Any) -> None:
    """PyTorch's IndexError for picking an element (max/argmax/median/mode...) out of nothing.

    ``dim`` is a wrapped dim, or None for the whole tensor.
    """
    if dim is None:
        if 0 in shape:
            raise IndexError("%s(): Expected reduction dim to be specified for input.numel() == 0." % op)
    elif shape and shape[dim] == 0:
        raise IndexError("%s(): Expected reduction dim %d to have non-zero size." % (op, dim))


def _drop(shape, d, ndim):
    return () if ndim == 0 else tuple(s for i, s in enumerate(shape) if i != d)



def _median_index(a, axis):
    """Per slice, the position of the lower median (of the first nan if there is one)."""
    k = (a.shape[axis] - 1) // 2
    idx = np.take(np.argsort(a, axis=axis, kind="stable"), k, axis=axis)
    if a.dtype.kind == "f":
        nan = np.isnan(a)
        idx = np.where(nan.any(axis=axis), np.argmax(nan, axis=axis), idx)
    return idx


def _mode_index(a, axis):
    """Per slice, where the most frequent value is, as PyTorch's CPU kernel finds it: the slice sorted
    with ``<`` (for short slices ``std::sort`` is libstdc++'s insertion sort: stable; a nan stops the
    values that move left past it, unless they are smaller than the first), then the longest run of
    equal values (``!=`` splits them: each nan is a run of its own); the first longest run wins, at its
    last element's position."""
    rows = np.moveaxis(a, axis, -1)
    flat = rows.reshape(-1, rows.shape[-1])
    idx = np.empty(len(flat), dtype=np.int64)
    for i, row in enumerate(flat.tolist()):
        order = list(range(len(row)))
        for j in range(1, len(order)):              # libstdc++'s insertion sort with `<`
            k = order[j]
            if row[k] < row[order[0]]:              # smaller than the first: to the front
                order[1:j + 1] = order[:j]
                order[0] = k
                continue
            m = j
            while row[k] < row[order[m - 1]]:
                order[m] = order[m - 1]
                m -= 1
            order[m] = k
        best, best_freq, freq = 0, 0, 0
        for j, k in enumerate(order):
            freq += 1
            if j == len(order) - 1 or row[k] != row[order[j + 1]]:
                if freq > best_freq:
                    best, best_freq = k, freq
                freq = 0
        idx[i] = best
    return idx.reshape(rows.shape[:-1])


class MedianDim(MaxDim):
    """``median(dim)``: the lower median of each slice, and where it is.  Backward: grad to that position."""

    node_name: str = "MedianBackward1"
    arg: Callable[..., Any] = staticmethod(_median_index)
    op: str = "median"


class ModeDim(MaxDim):
    """``mode(dim)``: the most frequent value of each slice, and its last position.  Backward: grad to it."""

    node_name: str = "ModeBackward0"
    arg: Callable[..., Any] = staticmethod(_mode_index)
    op: str = "mode"


def _argsort(a, axis, descending):
    """Stable sort order along ``axis``; descending keeps ties in their order too (and puts nan first)."""
    if not descending:
        return np.argsort(a, axis=axis, kind="stable")
    backwards = np.argsort(np.flip(a, axis), axis=axis, kind="stable")
    return a.shape[axis] - 1 - np.flip(backwards, axis)


class Sort(Function):
    """``sort(dim)``: values and the indices they came from.  Backward: grad put back at those indices."""

    node_name: str = "SortBackward0"
    jvp = "from_vjp"
    saved_names: tuple[str, ...] = ("indices",)
    saved_attrs: tuple[str, ...] = ("dim", "self_sym_sizes")

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: Any, descending: bool, k: int | None = None) -> tuple[Any, ...]:
        ctx.axis = wrap_dim(dim, x.ndim)
        ctx.dim, ctx.self_sym_sizes = _saved_int(dim), tuple(x.shape)
        a = x._data if x.ndim else x._data.reshape(1)
        order = _argsort(a, ctx.axis, descending)
        if k is not None:
            order = contiguous(np.take(order, np.arange(k), axis=ctx.axis))
        values = np.take_along_axis(a, order, axis=ctx.axis)
        if k is None:                                       # sort: laid out as the input, as PyTorch's;
            values, order = like(values, a), like(order, a)  # topk: row-major
        if not x.ndim:
            values, order = values.reshape(()), order.reshape(())
        ctx.save_for_backward(order)
        return values, order

    @staticmethod
    def backward(ctx: Any, grad: Tensor, grad_indices: Tensor) -> Grads:
        if not ctx.self_sym_sizes:
            return grad, None, None, None
        (indices,) = ctx.saved_tensors
        return gather_backward(grad, indices, ctx.axis, True, ctx.self_sym_sizes), None, None, None


class SortStable(Sort):
    """``sort(..., stable=...)`` (PyTorch's ``sort.stable`` overload): the same, its node name."""

    node_name: str = "SortBackward1"


class Topk(Sort):
    """``topk(k, dim)``: the k largest (or smallest) values and their indices.  Backward: grad put back there."""

    node_name: str = "TopkBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, k: int, dim: Any, largest: bool) -> Any:
        if not 0 <= k <= (x.shape[wrap_dim(dim, x.ndim)] if x.ndim else wrap_dim(dim, 0) + 1):
            raise RuntimeError("selected index k out of range")
        return Sort.forward(ctx, x, dim, largest, k)


class Unique(Function):
    """``unique``: the sorted distinct values, the inverse indices and the counts.  Not differentiable."""

    node_name: str = "Unique2Backward0"
    op: str = "_unique2"

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: Any) -> tuple[Any, ...]:
        a = x._data
        if dim is None:
            values, inverse, counts = np.unique(a.reshape(-1), return_inverse=True, return_counts=True,
                                                equal_nan=False)
            inverse = inverse.reshape(a.shape)
        else:
            values, inverse, counts = np.unique(a, return_inverse=True, return_counts=True,
                                                axis=wrap_dim(dim, x.ndim))
            inverse = inverse.reshape(-1)
        return values, inverse.astype(np.int64), counts.astype(np.int64)

    @staticmethod
    def backward(ctx: Any, *grads: Tensor) -> Grads:
        raise NotImplementedError("the derivative for '%s' is not implemented." % type(ctx)._forward_cls.op)

    @staticmethod
    def jvp(ctx: Any, *tangents: Any) -> Any:
        return None, None, None                                  # not differentiable


class UniqueDim(Unique):
    node_name: str = "UniqueDimBackward0"
    op: str = "unique_dim"


