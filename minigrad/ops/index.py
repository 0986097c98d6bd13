"""Indexing: ``x[i]`` (select), ``x[a:b]`` (slice), ``x[idx]`` (advanced), gather, and writes (``x[i] = v``).

Reading is a Function whose backward *scatters* the gradient into zeros of the input's
shape (repeated indices add up), and scattering's backward reads again — so indexing
can be differentiated to any order.
"""

from __future__ import annotations

import numpy as np

from ..autograd.function import Function
from .elementwise import _const


class Index(Function):
    """``x[key]`` with integer / boolean index tensors.  Backward: grad scattered back with ``add.at``."""

    node_name = "IndexBackward0"
    saved_attrs = ("indices", "self_sym_sizes")

    @staticmethod
    def forward(ctx, x, key):
        ctx.indices, ctx.self_sym_sizes = key, tuple(x.shape)
        return x._data[key]

    @staticmethod
    def backward(ctx, grad):
        return IndexScatter.apply(grad, ctx.indices, ctx.self_sym_sizes), None


class Select(Index):
    """``x[i]`` along one dim (a view).  Backward: grad placed at i, zeros elsewhere."""

    node_name = "SelectBackward0"
    saved_attrs = ("dim", "index", "self_sym_sizes")
    is_view = True

    @staticmethod
    def forward(ctx, x, key):                 # key: (slice(None),) * dim + (index,)
        ctx.dim, ctx.index = len(key) - 1, key[-1]
        return Index.forward(ctx, x, key)


class Slice(Index):
    """``x[a:b:c]`` along one dim (a view).  Backward: grad placed in the slice, zeros elsewhere."""

    node_name = "SliceBackward0"
    saved_attrs = ("dim", "start", "end", "step", "self_sym_sizes")
    is_view = True

    @staticmethod
    def forward(ctx, x, key):                 # key: (slice(None),) * dim + (slice(start, end, step),)
        part = key[-1]
        ctx.dim, ctx.start, ctx.step = len(key) - 1, part.start or 0, part.step or 1
        ctx.end = 2**63 - 1 if part.stop is None else part.stop       # PyTorch saves "to the end" as INT64_MAX
        return Index.forward(ctx, x, key)


class IndexScatter(Function):
    """The backward of indexing: zeros of ``shape`` with ``grad`` added at ``key``.  Backward: read at ``key``."""

    node_name = "IndexBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, key, shape):
        ctx.key = key
        out = np.zeros(shape, dtype=grad._data.dtype)
        np.add.at(out, key, grad._data)
        return out

    @staticmethod
    def backward(ctx, grad):
        return Index.apply(grad, ctx.key), None, None


class TakeAlongDim(Function):
    """``gather(dim, index)``.  Backward: grad scattered to the gathered positions."""

    node_name = "GatherBackward0"
    saved_attrs = ("dim", "index")

    @staticmethod
    def forward(ctx, x, dim, index):
        ctx.dim, ctx.index, ctx.shape = dim, index, tuple(x.shape)
        return np.take_along_axis(x._data, index, axis=dim)

    @staticmethod
    def backward(ctx, grad):
        return ScatterAlongDim.apply(grad, ctx.dim, ctx.index, ctx.shape), None, None


class ScatterAlongDim(Function):
    """Zeros of ``shape`` with ``grad`` added at ``index`` along ``dim``.  Backward: gather."""

    node_name = "ScatterAddBackward0"

    @staticmethod
    def forward(ctx, grad, dim, index, shape):
        ctx.dim, ctx.index = dim, index
        out = np.zeros(shape, dtype=grad._data.dtype)
        idx = list(np.ix_(*[np.arange(s) for s in index.shape]))
        idx[dim] = index
        np.add.at(out, tuple(idx), grad._data)
        return out

    @staticmethod
    def backward(ctx, grad):
        return TakeAlongDim.apply(grad, ctx.dim, ctx.index), None, None, None


def gather_backward(grad, indices, dim, keepdim, shape):
    """Gradient of a reduction that picked one element per slice (``max(dim)``)."""
    idx = indices._data
    if not keepdim:
        idx = np.expand_dims(idx, dim)
        grad = grad.unsqueeze(dim)
    return ScatterAlongDim.apply(grad, dim, idx, shape)


class CopySlices(Function):
    """``x[key] = value`` on a tensor in the graph.

    Backward: x gets grad with the written slots zeroed, value gets grad[key].
    """

    node_name = "CopySlices"

    @staticmethod
    def forward(ctx, x, key, value):
        ctx.key = key
        out = x._data.copy()
        out[key] = value._data
        return out

    @staticmethod
    def backward(ctx, grad):
        mask = np.ones(grad.shape, dtype=bool)
        mask[ctx.key] = False
        return grad * _const(mask, grad), None, Index.apply(grad, ctx.key)


class IndexPut(CopySlices):
    """``x[idx] = value`` with index tensors or a mask (PyTorch's ``index_put_``).  Backward: as CopySlices."""

    node_name = "IndexPutBackward0"


def normalize_key(key, shape):
    """Turn an index into numpy form; report whether it is basic (a view) and which op name it gets."""
    from .._tensor import Tensor

    items = key if isinstance(key, tuple) else (key,)
    out, advanced = [], False
    for item in items:
        if isinstance(item, Tensor):
            if item.dtype.is_floating_point:
                raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
            item = item._data
            advanced = True if item.ndim > 0 or item.dtype == np.bool_ else advanced
            if item.ndim == 0 and item.dtype != np.bool_:
                item = int(item)
        elif isinstance(item, (list, np.ndarray)):
            item = np.asarray(item)
            if item.dtype.kind == "f":
                raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
            advanced = True
        elif isinstance(item, bool):
            advanced = True
        elif not isinstance(item, (int, np.integer, slice)) and item is not None and item is not Ellipsis:
            raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
                             "valid indices (got %s)" % type(item).__name__)
        out.append(item)
    return tuple(out), advanced


def check_bounds(key, shape):
    """PyTorch's IndexError for an out-of-range integer index."""
    dim = 0
    for item in key:
        if item is None:
            continue
        if item is Ellipsis:
            dim = len(shape) - sum(1 for k in key[key.index(Ellipsis) + 1:] if k is not None)
            continue
        if isinstance(item, (int, np.integer)) and not isinstance(item, bool):
            if not shape:
                raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                                 "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
            if dim >= len(shape):
                raise IndexError("too many indices for tensor of dimension %d" % len(shape))
            if not -shape[dim] <= item < shape[dim]:
                raise IndexError("index %d is out of bounds for dimension %d with size %d" % (item, dim, shape[dim]))
        elif dim >= len(shape) and isinstance(item, slice):
            raise IndexError("too many indices for tensor of dimension %d" % len(shape))
        dim += 1


# Data movement only: numpy has no floating-point warning to give (see Function.quiet).
for _op in (Index, IndexScatter, TakeAlongDim, ScatterAlongDim, CopySlices):
    _op.quiet = False
