"""Reductions: sum, mean, max/min, logsumexp, softmax/log_softmax, var/std, prod, norm."""

from __future__ import annotations

import math

import numpy as np

from .._dtype import get_default_dtype
from ..autograd import grad_mode
from ..autograd.function import Function
from ._util import dims_tuple, fmath, wrap_dim
from .elementwise import _const


def _restore(grad, shape, dims, keepdim):
    """Put back the reduced dims of ``grad`` (as size 1) so it broadcasts against the input."""
    if not keepdim:
        for d in dims:
            grad = grad.unsqueeze(d)
    return grad


def _sum_dtype(x):
    return np.int64 if x.dtype.name in ("bool", "uint8", "int8", "int16", "int32", "int64") else x._data.dtype


class Sum(Function):
    """Sum of all elements.  Backward: grad expanded to the input's shape."""

    node_name = "SumBackward0"
    saved_attrs = ("self_sym_sizes",)

    @staticmethod
    def forward(ctx, x):
        ctx.self_sym_sizes = tuple(x.shape)
        return np.asarray(x._data.sum(dtype=_sum_dtype(x)))

    @staticmethod
    def backward(ctx, grad):
        return grad.expand(ctx.self_sym_sizes)


class SumDim(Function):
    """Sum over ``dim``.  Backward: grad with the reduced dims restored, expanded to the input's shape."""

    node_name = "SumBackward1"
    saved_attrs = ("dim", "keepdim", "self_sym_sizes")

    @staticmethod
    def forward(ctx, x, dim, keepdim):
        ctx.dim, ctx.keepdim, ctx.self_sym_sizes = dims_tuple(dim, x.ndim), keepdim, tuple(x.shape)
        return np.asarray(x._data.sum(axis=ctx.dim, keepdims=keepdim, dtype=_sum_dtype(x)))

    @staticmethod
    def backward(ctx, grad):
        return _restore(grad, ctx.self_sym_sizes, ctx.dim, ctx.keepdim).expand(ctx.self_sym_sizes), None, None


def _check_mean_dtype(x):
    if not x.dtype.is_floating_point:
        raise RuntimeError("mean(): could not infer output dtype. Input dtype must be either a floating point or "
                           "complex dtype. Got: %s" % x.dtype._legacy)


class Mean(Function):
    """Mean of all elements.  Backward: grad / n, expanded."""

    node_name = "MeanBackward0"
    saved_attrs = ("self_sym_numel", "self_sym_sizes")

    @staticmethod
    def forward(ctx, x):
        _check_mean_dtype(x)
        ctx.self_sym_sizes, ctx.self_sym_numel = tuple(x.shape), x.numel()
        return np.asarray(x._data.sum() / x._data.size, dtype=x._data.dtype)    # empty: nan, without a warning

    @staticmethod
    def backward(ctx, grad):
        return grad.expand(ctx.self_sym_sizes) / max(ctx.self_sym_numel, 1)


class MeanDim(Function):
    """Mean over ``dim``.  Backward: grad / (number of reduced elements), restored and expanded."""

    node_name = "MeanBackward1"
    saved_attrs = ("dim", "keepdim", "self_sym_numel", "self_sym_sizes")

    @staticmethod
    def forward(ctx, x, dim, keepdim):
        _check_mean_dtype(x)
        ctx.dim, ctx.keepdim, ctx.self_sym_sizes = dims_tuple(dim, x.ndim), keepdim, tuple(x.shape)
        ctx.count = math.prod(x.shape[d] for d in ctx.dim) if x.ndim else 1
        return np.asarray(x._data.sum(axis=ctx.dim, keepdims=keepdim) / ctx.count, dtype=x._data.dtype)

    @staticmethod
    def backward(ctx, grad):
        g = _restore(grad, ctx.self_sym_sizes, ctx.dim, ctx.keepdim).expand(ctx.self_sym_sizes)
        return g / max(ctx.count, 1), None, None


class MaxAll(Function):
    """The largest element.  Backward: grad shared evenly among all elements equal to the max."""

    node_name = "MaxBackward1"
    saved_names = ("self", "result")
    reduce = staticmethod(np.max)

    @staticmethod
    def forward(ctx, x):
        if x.numel() == 0:
            raise RuntimeError("max(): Expected reduction dim to be specified for input.numel() == 0. Specify "
                               "the reduction dim with the 'dim' argument.")
        out = np.asarray(type(ctx)._forward_cls.reduce(x._data))
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        return _evenly(grad, x, result, None, x.shape)


class MinAll(MaxAll):
    """The smallest element.  Backward: grad shared evenly among all elements equal to the min."""

    node_name = "MinBackward1"
    reduce = staticmethod(np.min)


class MaxDim(Function):
    """``max(dim)``: values and indices.  Backward: grad to the (first) position of each max."""

    node_name = "MaxBackward0"
    saved_names = ("indices",)
    saved_attrs = ("dim", "keepdim", "self_sym_sizes")
    arg = staticmethod(np.argmax)

    @staticmethod
    def forward(ctx, x, dim, keepdim):
        d = wrap_dim(dim, x.ndim)
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
    def backward(ctx, grad, grad_indices):
        from .index import gather_backward
        (indices,) = ctx.saved_tensors
        if not ctx.self_sym_sizes:                   # a 0-dim input: its one element was picked
            return grad.reshape(()), None, None
        return gather_backward(grad, indices, ctx.axis, ctx.keepdim, ctx.self_sym_sizes), None, None


class MinDim(MaxDim):
    node_name = "MinBackward0"
    arg = staticmethod(np.argmin)


def _hits(x, value):
    """Where ``x`` equals the reduced ``value`` (a nan value is hit by the nans), as a bool array."""
    a, v = x._data, value._data
    hit = a == v
    if a.dtype.kind == "f":
        hit |= np.isnan(a) & np.isnan(v)
    return hit


def _evenly(grad, x, value, dims, shape):
    """PyTorch's evenly_distribute_backward: grad / count at the elements equal to ``value``, exactly 0 elsewhere."""
    from .._creation import where
    hit = _hits(x, value)
    count = hit.sum(axis=dims, keepdims=True)
    share = _const(np.divide(1, count, out=np.zeros(count.shape, dtype=x._data.dtype), where=count != 0), grad)
    return where(_const(hit), grad * share, 0)


def _drop(shape, d, ndim):
    return () if ndim == 0 else tuple(s for i, s in enumerate(shape) if i != d)


def _saved_int(d):
    """A dim as PyTorch's node shows it: a negative one as the unsigned 64-bit integer it is stored as."""
    return d % 2**64


class Amax(Function):
    """The largest value over ``dim`` (all dims if empty).  Backward: grad shared evenly among the ties."""

    node_name = "AmaxBackward0"
    saved_names = ("self", "result")
    saved_attrs = ("dim", "keepdim")
    reduce = staticmethod(np.max)

    @staticmethod
    def forward(ctx, x, dim, keepdim):
        cls = type(ctx)._forward_cls
        name = cls.__name__.lower()
        dim = (dim,) if isinstance(dim, (int, np.integer)) else tuple(dim)
        ctx.dim, ctx.keepdim = tuple(_saved_int(int(d)) for d in dim), keepdim
        ctx.dims = dims_tuple(dim or None, x.ndim) if x.ndim else ()
        if not dim and x.numel() == 0:
            raise RuntimeError("%s(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
                               "reduction dim with the 'dim' argument." % name)
        for d in ctx.dims:
            if x.ndim and x.shape[d] == 0:
                raise IndexError("%s(): Expected reduction dim %d to have non-zero size." % (name, d))
        out = np.asarray(cls.reduce(x._data, axis=ctx.dims, keepdims=keepdim))
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        r = _restore(result, x.shape, ctx.dims, ctx.keepdim)
        return _evenly(_restore(grad, x.shape, ctx.dims, ctx.keepdim), x, r, ctx.dims, x.shape), None, None


class Amin(Amax):
    """The smallest value over ``dim`` (all dims if empty).  Backward: grad shared evenly among the ties."""

    node_name = "AminBackward0"
    reduce = staticmethod(np.min)


class Median(MaxAll):
    """The lower median of all elements (nan if any is nan).  Backward: grad shared evenly among its ties."""

    node_name = "MedianBackward0"

    @staticmethod
    def forward(ctx, x):
        a = x._data.reshape(-1)
        if a.size == 0 or (a.dtype.kind == "f" and np.isnan(a).any()):
            out = np.asarray(np.nan, dtype=_float_array(x).dtype)
        else:
            k = (a.size - 1) // 2
            out = np.asarray(np.partition(a, k)[k])
        ctx.save_for_backward(x, out)
        return out


def _median_index(a, axis):
    """Per slice, the position of the lower median (of the first nan if there is one)."""
    k = (a.shape[axis] - 1) // 2
    idx = np.take(np.argsort(a, axis=axis, kind="stable"), k, axis=axis)
    if a.dtype.kind == "f":
        nan = np.isnan(a)
        idx = np.where(nan.any(axis=axis), np.argmax(nan, axis=axis), idx)
    return idx


def _mode_index(a, axis):
    """Per slice, the last position of the most frequent value (the smallest one if several are)."""
    rows = np.moveaxis(a, axis, -1)
    flat = rows.reshape(-1, rows.shape[-1])
    idx = np.empty(len(flat), dtype=np.int64)
    for i, row in enumerate(flat):
        values, counts = np.unique(row, return_counts=True)
        hit = row[::-1] == values[np.argmax(counts)]
        idx[i] = len(row) - 1 - np.argmax(hit)
    return idx.reshape(rows.shape[:-1])


class MedianDim(MaxDim):
    """``median(dim)``: the lower median of each slice, and where it is.  Backward: grad to that position."""

    node_name = "MedianBackward1"
    arg = staticmethod(_median_index)


class ModeDim(MaxDim):
    """``mode(dim)``: the most frequent value of each slice, and its last position.  Backward: grad to it."""

    node_name = "ModeBackward0"
    arg = staticmethod(_mode_index)


class LogSumExp(Function):
    """``log Σ e^x`` over ``dim``.  Backward: grad * e^(x - result) (the softmax)."""

    node_name = "LogsumexpBackward0"
    saved_names = ("self", "result")

    @staticmethod
    def forward(ctx, x, dim, keepdim):
        ctx.dim, ctx.keepdim = dims_tuple(dim, x.ndim), keepdim
        a = _float_array(x)                                     # logsumexp of integers is a float
        m = np.max(a, axis=ctx.dim, keepdims=True, initial=-np.inf)     # -inf over an empty dim
        m = np.where(np.isfinite(m), m, 0)
        out = fmath.log(np.sum(fmath.exp(a - m), axis=ctx.dim, keepdims=True)) + m
        if not keepdim:
            out = out.reshape(tuple(s for i, s in enumerate(a.shape) if i not in ctx.dim))
        out = np.asarray(out, dtype=a.dtype)
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        r = _restore(result, x.shape, ctx.dim, ctx.keepdim)
        return _restore(grad, x.shape, ctx.dim, ctx.keepdim) * (x - r).exp(), None, None


def _check_floating(x, message, error):
    if x._data.dtype.kind != "f":
        raise error(message)


def _float_array(x):
    return x._data if x._data.dtype.kind == "f" else x._data.astype(get_default_dtype().numpy)


class Softmax(Function):
    """``e^x / Σ e^x`` along ``dim``.  Backward: y * (grad - Σ grad·y), y the saved result."""

    node_name = "SoftmaxBackward0"
    saved_names = ("result",)
    saved_attrs = ("dim",)

    @staticmethod
    def forward(ctx, x, dim):
        _check_floating(x, '"softmax_lastdim_kernel_impl" not implemented for \'%s\'' % x.dtype._legacy,
                        NotImplementedError)
        ctx.dim = wrap_dim(dim, x.ndim)
        ctx.axis = ctx.dim if x.ndim else None
        a = _float_array(x)
        if a.size == 0:
            e = a.copy()
        else:
            e = fmath.exp(a - a.max(axis=ctx.axis, keepdims=True))
            e /= e.sum(axis=ctx.axis, keepdims=True)
        ctx.save_for_backward(e)
        return e

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return SoftmaxBackwardData.apply(grad, y, ctx.axis), None


class SoftmaxBackwardData(Function):
    """Softmax's backward as one op, as in PyTorch: ``y * (g - Σ g·y)``.

    Recorded only under ``create_graph``; it is linear in ``g``, and symmetric, so its gradient
    with respect to ``g`` is the same op; with respect to ``y`` it is ``gg * (g - Σ g·y) - g * Σ gg·y``.
    """

    node_name = "SoftmaxBackwardDataBackward0"

    @staticmethod
    def forward(ctx, grad, y, dim):
        ctx.dim = dim
        ctx.save_for_backward(grad, y)
        g, out = grad._data, y._data
        return out * (g - (g * out).sum(axis=dim, keepdims=True))

    @staticmethod
    def backward(ctx, gg):
        grad, y = ctx.saved_tensors
        d_grad = SoftmaxBackwardData.apply(gg, y, ctx.dim) if ctx.needs_input_grad[0] else None
        d_y = None
        if ctx.needs_input_grad[1]:
            d_y = gg * (grad - (grad * y).sum(ctx.dim, keepdim=True)) - grad * (gg * y).sum(ctx.dim, keepdim=True)
        return d_grad, d_y, None


class LogSoftmax(Function):
    """``x - log Σ e^x`` along ``dim``.  Backward: grad - e^result * Σ grad."""

    node_name = "LogSoftmaxBackward0"
    saved_names = ("result",)
    saved_attrs = ("dim",)

    @staticmethod
    def forward(ctx, x, dim):
        _check_floating(x, '"log_softmax_lastdim_kernel_impl" not implemented for \'%s\'' % x.dtype._legacy,
                        NotImplementedError)
        ctx.dim = wrap_dim(dim, x.ndim)
        ctx.axis = ctx.dim if x.ndim else None
        a = _float_array(x)
        if a.size == 0:
            out = a.copy()
        else:
            out = a - a.max(axis=ctx.axis, keepdims=True)
            out -= fmath.log(fmath.exp(out).sum(axis=ctx.axis, keepdims=True))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return LogSoftmaxBackwardData.apply(grad, y, ctx.axis), None


class LogSoftmaxBackwardData(Function):
    """Log-softmax's backward as one op, as in PyTorch: ``g - e^y * Σ g``.

    Recorded only under ``create_graph``.  Its gradient with respect to ``g`` is the transposed map
    ``gg - Σ gg·e^y``; with respect to ``y`` it is ``-gg * e^y * Σ g``.
    """

    node_name = "LogSoftmaxBackwardDataBackward0"

    @staticmethod
    def forward(ctx, grad, y, dim):
        ctx.dim = dim
        ctx.save_for_backward(grad, y)
        g = grad._data
        return g - fmath.exp(y._data) * g.sum(axis=dim, keepdims=True)

    @staticmethod
    def backward(ctx, gg):
        grad, y = ctx.saved_tensors
        e = y.exp()
        return (gg - (gg * e).sum(ctx.dim, keepdim=True) if ctx.needs_input_grad[0] else None,
                -gg * e * grad.sum(ctx.dim, keepdim=True) if ctx.needs_input_grad[1] else None,
                None)


class Var(Function):
    """Variance with Bessel's ``correction``.  Backward: grad * 2 (x - mean) / (n - correction)."""

    node_name = "VarBackward0"
    saved_names = ("self",)
    saved_attrs = ("correction", "dim", "keepdim")

    @staticmethod
    def forward(ctx, x, dim, correction, keepdim):
        _check_floating(x, "std and var only support floating point and complex dtypes", RuntimeError)
        ctx.dim, ctx.correction, ctx.keepdim = dims_tuple(dim, x.ndim), correction, keepdim
        ctx.all = dim is None or x.ndim == 0
        ctx.save_for_backward(x)
        n = math.prod(x.shape[d] for d in ctx.dim) if x.ndim else 1
        ctx.n = n
        _warn_dof("var", x, n, correction)
        return _variance(x._data, ctx.dim, n - correction, keepdim)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return _var_backward(_restore(grad, x.shape, ctx.dim, ctx.keepdim), x, ctx), None, None, None


def _var_backward(g, x, ctx):
    """PyTorch's var_backward: g · 2 (x − mean) / (N − correction); for a full reduction without degrees of
    freedom, g · (nan where x is the mean, inf elsewhere)."""
    from .._creation import where
    dof = ctx.n - ctx.correction
    centered = x - x.mean(ctx.dim, keepdim=True)
    if dof <= 0 and ctx.all:
        return g * where(centered == 0, math.nan, math.inf)
    return g * centered * (2.0 / dof if dof else math.inf)


def _variance(a, dims, dof, keepdim):
    """Σ(x - mean)² / dof, in ``a``'s dtype (inf or nan when ``dof <= 0``, without numpy's warnings)."""
    centered = a - a.mean(axis=dims, keepdims=True) if a.size else a
    return np.asarray(np.sum(centered * centered, axis=dims, keepdims=keepdim) / max(dof, 0), dtype=a.dtype)


def _warn_dof(name, x, n, correction):
    """PyTorch's warning (numpy's RuntimeWarning is silenced) when ``n - correction <= 0``: the result is nan/inf.
    PyTorch's ``n`` is the input's numel divided by the output's: 0 for an empty input."""
    if (n if x._data.size else 0) - correction <= 0:
        import warnings
        warnings.warn("%s(): degrees of freedom is <= 0. Correction should be strictly less than the reduction factor "
                      "(input numel divided by output numel)." % name, UserWarning, stacklevel=5)


class Std(Function):
    """Standard deviation.  Backward: grad * (x - mean) / ((n - correction) * std)."""

    node_name = "StdBackward0"
    saved_names = ("self", "result")
    saved_attrs = ("correction", "dim", "keepdim")

    @staticmethod
    def forward(ctx, x, dim, correction, keepdim):
        _check_floating(x, "std and var only support floating point and complex dtypes", RuntimeError)
        ctx.dim, ctx.correction, ctx.keepdim = dims_tuple(dim, x.ndim), correction, keepdim
        ctx.all = dim is None or x.ndim == 0
        ctx.n = math.prod(x.shape[d] for d in ctx.dim) if x.ndim else 1
        _warn_dof("std", x, ctx.n, correction)
        out = np.sqrt(_variance(x._data, ctx.dim, ctx.n - correction, keepdim))
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        from .._creation import where
        x, result = ctx.saved_tensors
        r = _restore(result, x.shape, ctx.dim, ctx.keepdim)
        g = _restore(grad, x.shape, ctx.dim, ctx.keepdim)
        g_var = where(r == 0, 0, g / (r * 2))        # PyTorch: std 0 (a constant input) gives gradient 0
        return _var_backward(g_var, x, ctx), None, None, None


class Prod(Function):
    """Product of elements (over ``dim`` or all).  Backward: grad * (product of all the other elements)."""

    node_name = "ProdBackward0"
    saved_names = ("self", "result")

    @staticmethod
    def forward(ctx, x, dim, keepdim):
        ctx.dim, ctx.keepdim = (None if dim is None else wrap_dim(dim, x.ndim)), keepdim
        out = np.asarray(np.prod(x._data, axis=ctx.dim, keepdims=keepdim and dim is not None))
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        dims = dims_tuple(ctx.dim, x.ndim)
        keep = ctx.keepdim and ctx.dim is not None
        g = _restore(grad, x.shape, dims, keep)
        if not np.any(x._data == 0):
            return g * _restore(result, x.shape, dims, keep) / x, None, None
        if grad_mode.is_grad_enabled():       # create_graph: a formula that can itself be differentiated
            return g * _prod_of_others(x, ctx.dim), None, None
        # With zeros, divide-by-x fails: multiply the exclusive prefix and suffix products instead.
        a = x._data if ctx.dim is not None else x._data.reshape(-1)
        axis = ctx.dim if ctx.dim is not None else 0
        ones = np.ones_like(np.take(a, [0], axis=axis))
        before = np.cumprod(np.concatenate([ones, np.take(a, range(a.shape[axis] - 1), axis=axis)], axis), axis)
        after = np.flip(np.cumprod(np.flip(np.concatenate([np.take(a, range(1, a.shape[axis]), axis=axis), ones],
                                                          axis), axis), axis), axis)
        return g * _const((before * after).reshape(x.shape), g), None, None


def _prod_of_others(x, dim):
    """For each element, the product of all the others along ``dim`` (all elements if None), in tensor ops.

    Row i of an n × n table is the slice with its i-th entry replaced by 1; the rows' products are
    the answer.  Differentiable again, but O(n²) memory: used only under create_graph.
    """
    from .._creation import tensor, where

    rows = x.reshape(-1) if dim is None else x.transpose(dim, -1)
    n = rows.shape[-1]
    table = rows.unsqueeze(-2).expand(*rows.shape[:-1], n, n)
    others = where(tensor(np.eye(n, dtype=bool)), 1.0, table).prod(-1)
    return others.reshape(x.shape) if dim is None else others.transpose(dim, -1)


class ProdDim(Prod):
    """Product over one ``dim`` (PyTorch records it as a node of its own)."""

    node_name = "ProdBackward1"


class Norm(Function):
    """The vector p-norm (``p=2`` by default) over ``dim`` or all.  Backward (p=2): grad * x / norm (0 at 0)."""

    node_name = "LinalgVectorNormBackward0"
    saved_names = ("self", "result")
    saved_attrs = ("ord", "dim", "keepdim")

    @staticmethod
    def forward(ctx, x, p, dim, keepdim):
        _check_floating(x, "linalg.vector_norm: Expected a floating point or complex tensor as input. Got %s"
                        % x.dtype._legacy, RuntimeError)
        ctx.ord, ctx.dim, ctx.keepdim = p, dims_tuple(dim, x.ndim), keepdim
        a = np.abs(x._data)
        if p == float("inf"):
            out = a.max(axis=ctx.dim, keepdims=keepdim)
        elif p == 1:
            out = a.sum(axis=ctx.dim, keepdims=keepdim)
        else:
            out = (a ** p).sum(axis=ctx.dim, keepdims=keepdim) ** (1.0 / p)
        out = np.asarray(out, dtype=x._data.dtype)
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        g = _restore(grad, x.shape, ctx.dim, ctx.keepdim)
        r = _restore(result, x.shape, ctx.dim, ctx.keepdim)
        return _norm_backward(g, x, r, ctx.ord, ctx.dim), None, None, None


def _norm_backward(g, x, r, p, dims):
    """PyTorch's norm_backward, case by case (exact zeros where the norm or the element is 0)."""
    from .._creation import where
    if p == 0:
        return g * 0
    if p == 1:
        return g * x.sign()
    if p == float("inf") or p == -float("inf"):
        hit = _const(np.abs(x._data) == r._data, g)
        return x.sign() * (g / hit.sum(dims, keepdim=True) * hit)
    if p == 2:
        return g * where(r == 0, 0, x / r)
    if p < 1:
        scaled = x.sign() * where(x == 0, 0, x.abs() ** (p - 1))
        return scaled * g * r ** (1 - p)
    return x.sign() * x.abs() ** (p - 1) * where(r == 0, 0, g / r ** (p - 1))


class Cumsum(Function):
    """Running sum along ``dim``.  Backward: the running sum of grad taken from the other end."""

    node_name = "CumsumBackward0"
    saved_attrs = ("dim",)

    @staticmethod
    def forward(ctx, x, dim):
        ctx.dim = wrap_dim(dim, x.ndim)
        return np.cumsum(x._data, axis=ctx.dim if x.ndim else None, dtype=_sum_dtype(x)).reshape(x.shape)

    @staticmethod
    def backward(ctx, grad):
        if grad.ndim == 0:                      # a 0-dim input: its running sum is itself
            return grad, None
        return grad.flip(ctx.dim).cumsum(ctx.dim).flip(ctx.dim), None


class Cumprod(Function):
    """Running product along ``dim``.  Backward: x_k's gradient is Σ_{j≥k} grad_j * y_j / x_k (y the result)."""

    node_name = "CumprodBackward0"
    saved_names = ("self", "result")
    saved_attrs = ("dim",)

    @staticmethod
    def forward(ctx, x, dim):
        ctx.dim = wrap_dim(dim, x.ndim)
        out = np.cumprod(x._data, axis=ctx.dim if x.ndim else None, dtype=_sum_dtype(x)).reshape(x.shape)
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        from .._creation import stack
        x, y = ctx.saved_tensors
        d = ctx.dim
        if x.ndim == 0:
            return grad, None
        if not np.any(x._data == 0):
            return (grad * y).flip(d).cumsum(d).flip(d) / x, None
        # With zeros, dividing by x fails: x_k's gradient is y_(k-1) * s_k, where s_k = Σ_{j≥k} grad_j Π_{k<i≤j} x_i
        # runs backwards as s_k = grad_k + x_(k+1) * s_(k+1).  (Tensor ops: it serves create_graph too.)
        n = x.shape[d]
        s = [grad.select(d, n - 1)]
        for k in range(n - 2, -1, -1):
            s.append(grad.select(d, k) + x.select(d, k + 1) * s[-1])
        s.reverse()
        return stack([s[0]] + [y.select(d, k - 1) * s[k] for k in range(1, n)], d), None


def _argsort(a, axis, descending):
    """Stable sort order along ``axis``; descending keeps ties in their order too (and puts nan first)."""
    if not descending:
        return np.argsort(a, axis=axis, kind="stable")
    backwards = np.argsort(np.flip(a, axis), axis=axis, kind="stable")
    return a.shape[axis] - 1 - np.flip(backwards, axis)


class Sort(Function):
    """``sort(dim)``: values and the indices they came from.  Backward: grad put back at those indices."""

    node_name = "SortBackward0"
    saved_names = ("indices",)
    saved_attrs = ("dim", "self_sym_sizes")

    @staticmethod
    def forward(ctx, x, dim, descending, k=None):
        ctx.axis = wrap_dim(dim, x.ndim) if x.ndim else 0
        ctx.dim, ctx.self_sym_sizes = _saved_int(dim), tuple(x.shape)
        a = x._data if x.ndim else x._data.reshape(1)
        order = _argsort(a, ctx.axis, descending)
        if k is not None:
            order = np.take(order, np.arange(k), axis=ctx.axis)
        values = np.take_along_axis(a, order, axis=ctx.axis)
        if not x.ndim:
            values, order = values.reshape(()), order.reshape(())
        ctx.save_for_backward(order)
        return values, order

    @staticmethod
    def backward(ctx, grad, grad_indices):
        from .index import gather_backward
        if not ctx.self_sym_sizes:
            return grad, None, None, None
        (indices,) = ctx.saved_tensors
        return gather_backward(grad, indices, ctx.axis, True, ctx.self_sym_sizes), None, None, None


class Topk(Sort):
    """``topk(k, dim)``: the k largest (or smallest) values and their indices.  Backward: grad put back there."""

    node_name = "TopkBackward0"

    @staticmethod
    def forward(ctx, x, k, dim, largest):
        if not 0 <= k <= (x.shape[wrap_dim(dim, x.ndim)] if x.ndim else 1):
            raise RuntimeError("selected index k out of range")
        return Sort.forward(ctx, x, dim, largest, k)


class Unique(Function):
    """``unique``: the sorted distinct values, the inverse indices and the counts.  Not differentiable."""

    node_name = "Unique2Backward0"
    op = "_unique2"

    @staticmethod
    def forward(ctx, x, dim):
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
    def backward(ctx, *grads):
        raise NotImplementedError("the derivative for '%s' is not implemented." % type(ctx)._forward_cls.op)


class UniqueDim(Unique):
    node_name = "UniqueDimBackward0"
    op = "unique_dim"


# Sum and SumDim stay quiet (Function.quiet): numpy warns "invalid value encountered in reduce" for inf + -inf.
