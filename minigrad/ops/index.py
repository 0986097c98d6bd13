"""Indexing: ``x[i]`` (select), ``x[a:b]`` (slice), ``x[idx]`` (advanced), gather, index_select, masked_select,
scatter, and writes (``x[i] = v``).

Reading is a Function whose backward *scatters* the gradient into zeros of the input's
shape (repeated indices add up), and scattering's backward reads again — so indexing
can be differentiated to any order.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _tensor  # _tensor is still loading: use `_tensor.Tensor` at call time
from ..autograd.function import Function
from ._layout import contiguous
from ._util import broadcast_shape
from .inplace import has_overlap

if TYPE_CHECKING:
    from .._tensor import Tensor
    from ..autograd.function import Grads


class Index(Function):
    """``x[key]`` with integer / boolean index tensors.  Backward: grad scattered back with ``add.at``."""

    node_name: str = "IndexBackward0"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("indices", "self_sym_sizes")

    @staticmethod
    def forward(ctx: Any, x: Tensor, key: Any) -> Any:
        ctx.indices, ctx.self_sym_sizes = key, tuple(x.shape)
        # PyTorch saves the index tensors (SavedVariables): a second backward without retain_graph raises
        make = _tensor.Tensor._make
        ctx.save_for_backward(*(make(k) for k in key if isinstance(k, np.ndarray)))
        return x._data[key]

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        _ = ctx.saved_tensors               # (freed after a backward without retain_graph: raises)
        return IndexPutImpl.apply(_zeros(ctx.self_sym_sizes, grad), grad, ctx.indices), None


class Select(Index):
    """``x[i]`` along one dim (a view).  Backward: grad placed at i, zeros elsewhere."""

    node_name: str = "SelectBackward0"
    saved_attrs: tuple[str, ...] = ("dim", "index", "self_sym_sizes")
    is_view: bool = True

    @staticmethod
    def forward(ctx: Any, x: Tensor, key: Any) -> Any:                 # key: (slice(None),) * dim + (index,)
        ctx.dim, ctx.index, ctx.indices, ctx.self_sym_sizes = len(key) - 1, key[-1], key, tuple(x.shape)
        return x._data[(*key, Ellipsis)]     # `...`: a 0-d *view* of one element, not a numpy scalar copy

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return SelectBackward.apply(grad, ctx.indices, ctx.self_sym_sizes), None


class Slice(Index):
    """``x[a:b:c]`` along one dim (a view).  Backward: grad placed in the slice, zeros elsewhere."""

    node_name: str = "SliceBackward0"
    saved_attrs: tuple[str, ...] = ("dim", "start", "end", "step", "self_sym_sizes")
    is_view: bool = True

    @staticmethod
    def forward(ctx: Any, x: Tensor, key: Any) -> Any:   # key: (slice(None),) * dim + (slice(start, end, step),)
        part = key[-1]
        ctx.dim, ctx.start, ctx.step = len(key) - 1, part.start or 0, part.step or 1
        ctx.end = 2**63 - 1 if part.stop is None else part.stop       # PyTorch saves "to the end" as INT64_MAX
        return Index.forward(ctx, x, key)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return SliceBackward.apply(grad, ctx.indices, ctx.self_sym_sizes), None


# -- the backward ops of indexing, as PyTorch's derivative formulas call them (each has its own node under
# create_graph, and its own backward reads the gradient back the way the forward op read the input)

def _zeros(shape: tuple[int, ...], like: Tensor) -> Tensor:
    """``grad.new_zeros(shape)``: the constant the scatter ops below write into (its edge is ``None``)."""
    return _tensor.Tensor._make(np.zeros(shape, dtype=like._data.dtype))


class SelectBackward(Function):
    """``select_backward``: zeros of ``shape`` with ``grad`` at the selected index.  Backward: select again."""

    node_name: str = "SelectBackwardBackward0"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("dim", "index")

    @staticmethod
    def forward(ctx: Any, grad: Tensor, key: Any, shape: tuple[int, ...]) -> Any:
        ctx.key, ctx.dim, ctx.index = key, len(key) - 1, key[-1]
        out = np.zeros(shape, dtype=grad._data.dtype)
        out[key] = grad._data
        return out

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return Select.apply(grad, ctx.key), None, None


class SliceBackward(Function):
    """``slice_backward``: zeros of ``shape`` with ``grad`` in the slice.  Backward: slice again."""

    node_name: str = "SliceBackwardBackward0"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("dim", "start", "end", "step")

    @staticmethod
    def forward(ctx: Any, grad: Tensor, key: Any, shape: tuple[int, ...]) -> Any:
        part = key[-1]
        ctx.key, ctx.dim, ctx.start, ctx.step = key, len(key) - 1, part.start or 0, part.step or 1
        ctx.end = 2**63 - 1 if part.stop is None else part.stop
        out = np.zeros(shape, dtype=grad._data.dtype)
        out[key] = grad._data
        return out

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return Slice.apply(grad, ctx.key), None, None


class IndexPutImpl(Function):
    """``index_backward``: PyTorch's ``_index_put_impl_(zeros, indices, grad, accumulate=True)`` -- ``grad`` added
    into the zeros at ``key`` (repeated indices add up).  Backward: the values get the gradient read at ``key``."""

    node_name: str = "IndexPutImplBackward0"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("accumulate", "indices")

    @staticmethod
    def forward(ctx: Any, zeros: Tensor, values: Tensor, key: Any) -> Any:
        ctx.key = ctx.indices = key
        ctx.accumulate = True
        out = zeros._data                      # in place, as PyTorch's: a fresh constant nobody else holds
        np.add.at(out, key, values._data)
        return out

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return None, Index.apply(grad, ctx.key), None


class TakeAlongDim(Function):
    """``gather(dim, index)``.  Backward: grad scattered to the gathered positions."""

    node_name: str = "GatherBackward0"
    jvp = "auto_linear"
    saved_names: tuple[str, ...] = ("self",)
    saved_attrs: tuple[str, ...] = ("dim", "index", "sparse_grad")

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: Any, index: Any) -> Any:
        check_gather(x, dim, index)
        ctx.dim, ctx.index, ctx.shape, ctx.sparse_grad = dim, index, tuple(x.shape), False
        ctx.save_for_backward(x)               # as PyTorch (for its shape): an in-place write to x is caught
        if x.ndim == 0:
            return x._data.reshape(index.shape).copy()
        return x._data[along(dim, index)]          # the index is never broadcast (PyTorch)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        _ = ctx.saved_tensors                  # (unpacking checks the saved input's version)
        return ScatterAlongDim.apply(grad, ctx.dim, ctx.index, ctx.shape), None, None


class ScatterAlongDim(Function):
    """Zeros of ``shape`` with ``grad`` added at ``index`` along ``dim``.  Backward: gather."""

    node_name: str = "ScatterAddBackward0"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("dim", "index")      # as ScatterAdd's (the same node name)

    @staticmethod
    def forward(ctx: Any, grad: Tensor, dim: Any, index: Any, shape: tuple[int, ...]) -> Any:
        ctx.dim, ctx.index = dim, index
        if not shape:                                  # a 0-d input: its one element got the whole gradient
            return grad._data.reshape(()).copy()
        out = np.zeros(shape, dtype=grad._data.dtype)
        np.add.at(out, along(dim, index), grad._data)
        return out

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return TakeAlongDim.apply(grad, ctx.dim, ctx.index), None, None, None


def check_gather(x: Any, dim: Any, index: Any) -> Any:
    """PyTorch's checks of ``gather``'s index: an integer array of the same rank, no larger, in bounds."""
    if index.dtype not in (np.int64, np.int32):
        raise RuntimeError("gather(): Expected dtype int32/int64 for index")
    if max(index.ndim, 1) != max(x.ndim, 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    for d, (i, s) in enumerate(zip(index.shape, x.shape)):
        if d != dim and i > s:
            raise RuntimeError("Size does not match at dimension %d expected index [%s] to be no larger than self [%s] "
                               "apart from dimension %d" % (d, ", ".join(map(str, index.shape)),
                                                           ", ".join(map(str, x.shape)), dim))
    size = x.shape[dim] if x.ndim else 1
    bad = index[(index >= size) | (index < -size)]
    if bad.size:
        raise RuntimeError("index %d is out of bounds for dimension %d with size %d" % (bad.flat[0], dim, size))


def along(dim: Any, index: Any) -> Any:
    """The numpy key that addresses ``out[..., index[i, j, ...], ...]`` (at ``dim``) for every position of index."""
    if index.ndim == 0:                                # a 0-d index picks one element of a 1-d tensor
        return (index[()],)
    key = list(np.ix_(*[np.arange(s) for s in index.shape]))
    key[dim] = index
    return tuple(key)


def check_scatter(x: Any, dim: Any, index: Any, src: Any = None) -> Any:
    """PyTorch's checks of ``scatter``'s arguments (index: an integer array of the same rank, in bounds)."""
    if index.dtype not in (np.int64, np.int32):
        raise RuntimeError("scatter(): Expected dtype int32/int64 for index")
    if src is not None and src.dtype != x.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    for name, other in (("self", x), ("src", src)):
        if other is not None and max(index.ndim, 1) != max(other.ndim, 1):
            raise RuntimeError("Index tensor must have the same number of dimensions as %s tensor" % name)
    too_large = any(i > s for d, (i, s) in enumerate(zip(index.shape, x.shape)) if d != dim)
    if too_large or (src is not None and any(i > s for i, s in zip(index.shape, src.shape))):
        message = "Expected index [%s] to be no larger than self [%s] apart from dimension %d" % (
            ", ".join(map(str, index.shape)), ", ".join(map(str, x.shape)), dim)
        if src is not None:
            message += " and to be no larger size than src [%s]" % ", ".join(map(str, src.shape))
        raise RuntimeError(message)
    size = x.shape[dim] if x.ndim else 1
    bad = index[(index >= size) | (index < 0)]
    if bad.size:
        raise RuntimeError("index %d is out of bounds for dimension %d with size %d" % (bad.flat[0], dim, size))


class Scatter(Function):
    """``scatter(dim, index, src)``: x with src's values written at ``index`` along ``dim``.

    Backward: x gets grad with the written slots zeroed, src gets grad gathered at ``index``.
    """

    node_name: str = "ScatterBackward0"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("dim", "index")

    @staticmethod
    def forward(ctx: Any, x: Tensor, src: Tensor, dim: Any, index: Any) -> Any:
        check_scatter(x, dim, index, src)
        ctx.dim, ctx.index = dim, index
        out = x._data.copy()
        out[along(dim, index)] = src._data[tuple(slice(0, n) for n in index.shape)]
        return out

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        src_grad = TakeAlongDim.apply(grad, ctx.dim, ctx.index)
        return ScatterValue.apply(grad, ctx.dim, ctx.index, 0), src_grad, None, None


class ScatterValue(Function):
    """``scatter(dim, index, value)``: x with a number written at ``index``.  Backward: grad, written slots zeroed."""

    node_name: str = "ScatterBackward1"
    saved_attrs: tuple[str, ...] = ("dim", "index")

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: Any, index: Any, value: Any) -> Any:
        check_scatter(x, dim, index)
        ctx.dim, ctx.index = dim, index
        out = x._data.copy()
        out[along(dim, index)] = value
        return out

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return ScatterValue.apply(grad, ctx.dim, ctx.index, 0), None, None, None

    @staticmethod
    def jvp(ctx: Any, t: Any, _dim: Any, _index: Any, _value: Any) -> Any:
        return ScatterValue.apply(t, ctx.dim, ctx.index, 0)      # the scattered number is constant


class ScatterAdd(Function):
    """``scatter_add(dim, index, src)``: x with src's values added at ``index``.

    Backward: x gets grad, src gets grad gathered at ``index``.
    """

    node_name: str = "ScatterAddBackward0"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("dim", "index")

    @staticmethod
    def forward(ctx: Any, x: Tensor, src: Tensor, dim: Any, index: Any) -> Any:
        check_scatter(x, dim, index, src)
        ctx.dim, ctx.index = dim, index
        out = x._data.copy()
        np.add.at(out, along(dim, index), src._data[tuple(slice(0, n) for n in index.shape)])
        return out

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return grad, TakeAlongDim.apply(grad, ctx.dim, ctx.index), None, None


class IndexSelect(Function):
    """``index_select(dim, index)``: the slices at ``index`` along ``dim``.  Backward: grad added back at index."""

    node_name: str = "IndexSelectBackward0"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("dim", "index", "self_sym_sizes")

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: Any, index: Any) -> Any:
        if index.dtype not in (np.int64, np.int32):
            raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
        if index.ndim > 1:
            raise IndexError("index_select(): Index is supposed to be a vector")
        size = x.shape[dim] if x.ndim else 1
        bad = index[(index >= size) | (index < -size)]
        if bad.size:
            if dim == 0 or x.ndim <= 1:
                raise IndexError("index out of range in self")
            raise RuntimeError("INDICES element is out of DATA bounds, id=%d axis_dim=%d" % (bad[0], size))
        ctx.dim, ctx.index, ctx.self_sym_sizes = dim, index, tuple(x.shape)
        if x.ndim == 0:
            return x._data.copy()
        ctx.key = (slice(None),) * dim + (index.reshape(-1),)
        return contiguous(x._data[ctx.key])          # PyTorch's result is row-major

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return IndexAdd.apply(_zeros(ctx.self_sym_sizes, grad), grad, ctx.dim, ctx.index), None, None


class IndexAdd(Function):
    """``index_select_backward``: PyTorch's ``zeros.index_add_(dim, index, grad)`` -- the slices of ``source`` added
    into the zeros at ``index`` along ``dim``.  Backward: the source gets ``grad.index_select(dim, index)``."""

    node_name: str = "IndexAddBackward0"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("alpha", "dim", "index", "source_dim")

    @staticmethod
    def forward(ctx: Any, zeros: Tensor, source: Tensor, dim: Any, index: Any) -> Any:
        ctx.alpha, ctx.dim, ctx.index, ctx.source_dim = 1, dim, index, source.ndim
        ctx.source_shape = source.shape
        out = zeros._data                      # in place, as PyTorch's: a fresh constant nobody else holds
        if not out.ndim:                       # a 0-d input: index_select picked its one element
            out[...] = source._data.sum()
        else:
            np.add.at(out, (slice(None),) * dim + (index.reshape(-1),), source._data)
        return out

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        picked = IndexSelect.apply(grad, ctx.dim, ctx.index)
        return None, picked.expand(ctx.source_shape) if ctx.source_dim else picked, None, None   # expand_as(source)


class MaskedSelect(Function):
    """``masked_select(mask)``: the elements where the (broadcast) mask is True, as a 1-D tensor.

    Backward: grad put back at the mask's positions (summed to x's shape where x was broadcast).
    """

    node_name: str = "MaskedSelectBackward0"
    jvp = "auto_linear"
    saved_names: tuple[str, ...] = ("mask", "self")

    @staticmethod
    def forward(ctx: Any, x: Tensor, mask: Any) -> Any:
        if mask.dtype != np.bool_:
            raise RuntimeError("masked_select: expected BoolTensor for mask")
        ctx.shape = broadcast_shape(x.shape, mask.shape)
        ctx.key = (np.broadcast_to(mask, ctx.shape),)
        ctx.save_for_backward(_tensor.Tensor._make(mask), x)     # as PyTorch: writes to x are caught
        return np.broadcast_to(x._data, ctx.shape)[ctx.key]

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        _ = ctx.saved_tensors                  # (unpacking checks the saved input's version)
        return MaskedScatter.apply(_zeros(ctx.shape, grad), grad, ctx.key[0]), None


class MaskedScatter(Function):
    """``masked_select_backward``: PyTorch's ``zeros.masked_scatter_(mask, grad)`` -- the source's elements, in
    order, written where the mask is True.  Backward: the source gets them back (``masked_scatter_backward``)."""

    node_name: str = "MaskedScatterBackward0"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("mask", "source_sym_sizes")

    @staticmethod
    def forward(ctx: Any, zeros: Tensor, source: Tensor, mask: Any) -> Any:
        ctx.mask, ctx.source_sym_sizes = mask, tuple(source.shape)
        out = zeros._data                      # in place, as PyTorch's: a fresh constant nobody else holds
        out[mask] = source._data.reshape(-1)[: int(mask.sum())]
        return out

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return None, MaskedScatterBackward.apply(grad, ctx.mask, ctx.source_sym_sizes), None


class MaskedScatterBackward(Function):
    """``masked_scatter_backward``: ``grad[mask]``, padded with zeros to the source's size and shape.
    Backward: scattered back into zeros where the mask is True."""

    node_name: str = "MaskedScatterBackwardBackward0"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("mask",)

    @staticmethod
    def forward(ctx: Any, grad: Tensor, mask: Any, shape: tuple[int, ...]) -> Any:
        ctx.mask, ctx.shape = mask, tuple(grad.shape)
        picked = grad._data[mask]
        out = np.zeros(int(np.prod(shape, dtype=np.int64)), dtype=grad._data.dtype)
        out[: picked.size] = picked
        return out.reshape(shape)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return MaskedScatter.apply(_zeros(ctx.shape, grad), grad, ctx.mask), None, None


def gather_backward(grad: Any, indices: Any, dim: Any, keepdim: Any, shape: Any) -> Any:
    """Gradient of a reduction that picked one element per slice (``max(dim)``)."""
    idx = indices._data
    if not keepdim:
        idx = np.expand_dims(idx, dim)
        grad = grad.unsqueeze(dim)
    return Scatter.apply(_zeros(shape, grad), grad, dim, idx)     # PyTorch's zeros.scatter(dim, indices, grad)


class CopySlices(Function):
    """``x[key] = value`` on a tensor in the graph.

    Backward: x gets grad with the written slots zeroed, value gets grad[key].
    """

    node_name: str = "CopySlices"
    jvp = "auto_linear"

    @staticmethod
    def forward(ctx: Any, x: Tensor, key: Any, value: Any) -> Any:
        ctx.key = key
        out = x._data.copy()
        out[key] = value._data
        return out

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        written = np.zeros(grad.shape, dtype=bool)
        written[ctx.key] = True
        # an exact 0 where the slots were overwritten (``grad * mask`` would turn inf into nan)
        return grad.masked_fill(_tensor.Tensor._make(written), 0), None, Index.apply(grad, ctx.key)


class IndexPut(CopySlices):
    """``x[idx] = value`` with index tensors or a mask (PyTorch's ``index_put_``).  Backward: as CopySlices."""

    node_name: str = "IndexPutBackward0"


def normalize_key(key: Any, shape: Any) -> Any:
    """Turn an index into numpy form; report whether it is basic (a view) and which op name it gets."""
    Tensor = _tensor.Tensor
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
        elif isinstance(item, (list, np.ndarray, range, tuple)):  # x[range(n), y], x[(0, 1), (1, 2)]
            item = np.asarray(item, dtype=np.int64) if isinstance(item, range) else np.asarray(item)
            if item.dtype.kind == "f":
                raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
            advanced = True
        elif isinstance(item, bool):
            advanced = True
        elif isinstance(item, str):
            raise TypeError("new(): invalid data type 'str'")
        elif not isinstance(item, (int, np.integer, slice)) and item is not None and item is not Ellipsis:
            raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
                             "valid indices (got %s)" % type(item).__name__)
        out.append(item)
    return tuple(out), advanced


def check_advanced(key: Any, shape: Any) -> Any:
    """PyTorch's IndexErrors for index arrays out of bounds and boolean masks of the wrong shape."""
    dim = 0
    for item in key:
        if item is None:
            continue
        if item is Ellipsis:
            after = key[[k is Ellipsis for k in key].index(True) + 1:]
            dim = len(shape) - sum(1 if not isinstance(k, np.ndarray) or k.dtype != np.bool_ else k.ndim
                                   for k in after if k is not None and not isinstance(k, bool))
            continue
        if isinstance(item, np.ndarray) and item.dtype == np.bool_:
            if item.ndim and dim + item.ndim > len(shape):
                raise IndexError("too many indices for tensor of dimension %d" % len(shape))
            for j, n in enumerate(item.shape):
                if n != shape[dim + j]:
                    raise IndexError("The shape of the mask [%s] at index %d does not match the shape of the indexed "
                                     "tensor [%s] at index %d" % (", ".join(map(str, item.shape)), j,
                                                                 ", ".join(map(str, shape)), dim + j))
            dim += item.ndim
            continue
        if isinstance(item, bool):
            continue
        if dim >= len(shape):
            raise IndexError("too many indices for tensor of dimension %d" % len(shape))
        if isinstance(item, np.ndarray) and item.size:
            bad = item[(item >= shape[dim]) | (item < -shape[dim])]
            if bad.size and shape[dim] == 0:
                raise IndexError("index is out of bounds for dimension with size 0")
            if bad.size:
                raise IndexError("index %d is out of bounds for dimension %d with size %d"
                                 % (bad.flat[0], dim, shape[dim]))
        elif isinstance(item, (int, np.integer)) and not -shape[dim] <= item < shape[dim]:
            raise IndexError("index %d is out of bounds for dimension %d with size %d" % (item, dim, shape[dim]))
        dim += 1
    if sum(1 for k in key if isinstance(k, np.ndarray) and k.dtype != np.bool_) > 1:
        arrays = [k for k in key if isinstance(k, np.ndarray) and k.dtype != np.bool_]
        try:
            np.broadcast_shapes(*(a.shape for a in arrays))
        except ValueError:
            raise IndexError("shape mismatch: indexing tensors could not be broadcast together with shapes %s"
                             % ", ".join("[%s]" % ", ".join(map(str, a.shape)) for a in arrays)) from None


def check_assignable(target: Any, key: Any, value: Any) -> Any:
    """PyTorch's error when ``x[key] = value`` cannot broadcast ``value`` to the indexed part."""
    part = target[key].shape
    have = value._data.shape
    try:
        np.broadcast_shapes(have, part)
        ok = len(have) <= len(part) or all(s == 1 for s in have[:len(have) - len(part)])
        ok = ok and all(h in (1, p) for h, p in zip(have[::-1], part[::-1]))
    except ValueError:
        ok = False
    if not ok:
        if any(isinstance(k, (np.ndarray, bool)) for k in key):
            raise RuntimeError("shape mismatch: value tensor of shape [%s] cannot be broadcast to indexing result of "
                               "shape [%s]" % (", ".join(map(str, have)), ", ".join(map(str, part))))
        stripped = have
        while stripped and stripped[0] == 1:
            stripped = stripped[1:]
        if len(stripped) > len(part):
            raise RuntimeError("expand(%s{[%s]}, size=[%s]): the number of sizes provided (%d) must be greater or "
                               "equal to the number of dimensions in the tensor (%d)"
                               % (value.type(), ", ".join(map(str, stripped)),
                                  ", ".join(map(str, part)), len(part), len(stripped)))
        lead = len(part) - len(have)
        for i in range(len(have) - 1, -1, -1):
            p = part[lead + i] if lead + i >= 0 else 1
            if have[i] != 1 and have[i] != p:
                raise RuntimeError("The expanded size of the tensor (%d) must match the existing size (%d) at "
                                   "non-singleton dimension %d.  Target sizes: [%s].  Tensor sizes: [%s]"
                                   % (p, have[i], i, ", ".join(map(str, part)), ", ".join(map(str, have))))
        raise RuntimeError("expand: the requested shape has too few dimensions")


def check_bounds(key: Any, shape: Any) -> Any:
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


# Data movement only: numpy has no floating-point warning to give (see Function.quiet).  Not the ones that add
# (IndexPutImpl, IndexAdd, ScatterAlongDim, ScatterAdd: inf + -inf is nan, and numpy's add.at warns).
for _op in (Index, TakeAlongDim, CopySlices, Scatter, ScatterValue, IndexSelect, MaskedSelect, SelectBackward,
            SliceBackward, MaskedScatter, MaskedScatterBackward):
    _op.quiet = False


MASKED_FILL_EXPANDED = ("Use of masked_fill_ on expanded tensors is deprecated. Please clone() the tensor before "
                        "performing this operation. This also applies to advanced indexing e.g. tensor[mask] = scalar")
_INDEX_PUT_EXPANDED = ("Use of index_put_ on expanded tensors is deprecated. Please clone() the tensor before "
                       "performing this operation. This also applies to advanced indexing e.g. "
                       "tensor[indices] = tensor")


def setitem(t: Any, key: Any, value: Any) -> None:
    """``t[key] = value``, as PyTorch's ``set_item``.

    Basic indexing takes the view ``t[key]`` (the tensor itself when every index item is trivial:
    ``x[:]``, ``x[...]``) and writes into it with ``copy_`` -- or ``fill_`` when ``value`` is 0-d
    and the view is not -- so ``x[i] = v`` records ``CopySlices`` on the base (``CopyBackwards`` /
    ``FillBackward3`` for a trivial index), and on an expanded tensor only the written view must not
    overlap (``e[1] = v`` is allowed, ``e[:, 0] = v`` is not).  Index tensors or a mask:
    ``IndexPut`` (``index_put_``).
    """
    Tensor = _tensor.Tensor
    key, advanced = normalize_key(key, t.shape)
    if advanced:
        check_advanced(key, t.shape)
    else:
        check_bounds(key, t.shape)
    if not isinstance(value, Tensor):
        if not isinstance(value, (bool, int, float, np.number, np.bool_)):
            raise TypeError("can't assign a %s to a %s" % (type(value).__name__, t.type()))
        with np.errstate(all="ignore"):       # nan into an integer tensor: numpy's cast warning
            value = Tensor._make(np.asarray(value, dtype=t._data.dtype), False)
    if advanced:
        dst, key = split_key(t, key)        # index_put_ on the view the basic items make: CopySlices on t
        check_advanced(key, dst.shape)      # (a boolean's index [] or [0] must broadcast with the others)
        check_assignable(dst._data, key, value)
        written: Any = False
        expanded = has_overlap(dst._data)
        if expanded:                        # an expand: as PyTorch, each written element's memory gets the value
            written = np.zeros(dst.shape, dtype=bool)
            written[key] = True

        def put(x, v):
            if expanded:                    # the kernel's warnings: after autograd's checks (a view of a leaf raises)
                warnings.warn(_INDEX_PUT_EXPANDED, UserWarning, stacklevel=7)
                if value.numel() == 1 and _one_mask(key):  # index_put_ runs masked_fill_, which warns too
                    warnings.warn(MASKED_FILL_EXPANDED, UserWarning, stacklevel=7)
            return IndexPut.apply(x, key, v.to(x.dtype))
        dst._inplace(put, value, fill=written)
        return
    check_assignable(t._data, key, value)
    dst = t if _trivial(key, t.shape) else t[key]
    if value.shape == dst.shape:
        dst.copy_(value)
    elif value.ndim == 0:
        dst.fill_(value)
    else:                                   # PyTorch: strip the value's leading 1s, expand it to the view, copy
        shape = value.shape
        while shape and shape[0] == 1:
            shape = shape[1:]
        src = value.view(shape)
        dst.copy_(src if src.shape == dst.shape else src.expand(dst.shape))


def split_key(t: Any, key: Any) -> Any:
    """PyTorch's ``applySlicing``: apply a key's basic items as views, keep its index arrays for the rest.

    Returns ``(view, rest)`` with ``view[rest]`` the same elements as ``t[key]``: ints select (a ``Select``
    view), slices slice, ``None`` and 0-d booleans unsqueeze (a boolean becomes the index ``[0]`` or ``[]``
    of the new dim); index arrays and masks stay in ``rest`` at their dims.  ``view`` is ``t`` itself when
    no item made a view (``t[idx]``, ``t[:, mask]``) -- then ``index_put_`` is recorded on ``t``, else
    on the view (so ``CopySlices`` on ``t``).  Because ints are applied first, ``x[0, :, idx]`` has the
    shape ``x[0][:, idx]`` has, as in PyTorch (numpy would move the broadcast dims to the front).
    """
    spans = [0 if k is None or isinstance(k, bool) else k.ndim if isinstance(k, np.ndarray) and k.dtype == np.bool_
             else 1 for k in key if k is not Ellipsis]
    view, dim = t, 0
    rest: list[Any] = []          # the key left for the view: slices and index arrays
    for item in key:
        if item is Ellipsis:
            n = t.ndim - sum(spans)
            rest += [slice(None)] * n
            dim += n
        elif item is None or isinstance(item, bool) or (isinstance(item, np.ndarray) and item.ndim == 0):
            view = view.unsqueeze(dim)
            if item is not None:
                rest.append(np.zeros(1 if item else 0, dtype=np.int64))
            else:
                rest.append(slice(None))
            dim += 1
        elif isinstance(item, slice):
            if not whole(item, view.shape[dim]):
                view = Slice.apply(view, (slice(None),) * dim + (item,))
            rest.append(slice(None))
            dim += 1
        elif isinstance(item, np.ndarray):
            rest.append(item)
            dim += item.ndim if item.dtype == np.bool_ else 1
        else:
            view = Select.apply(view, (slice(None),) * dim + (int(item),))
    return view, tuple(rest)


def _one_mask(key: Any) -> bool:
    """``index_put_``'s ``canDispatchToMaskedFill``: the only index array is one boolean mask."""
    arrays = [k for k in key if isinstance(k, np.ndarray)]
    return len(arrays) == 1 and arrays[0].dtype == np.bool_


def whole(item: slice, n: int) -> bool:
    """A slice PyTorch's indexing skips as the whole dim (``applySlice``): it starts at 0 as written, steps by 1
    and stops at or past the end -- ``x[-3:]`` of 3 elements or ``x[1:]`` of none still records a slice."""
    return item.start in (None, 0) and item.step in (None, 1) and (item.stop is None or item.stop >= n)


def _trivial(key: Any, shape: Any) -> bool:
    """Every item of a (basic, normalized) key keeps its whole dim: ``t[key]`` would be ``t`` itself."""
    dim = 0
    for item in key:
        if item is Ellipsis:
            dim = len(shape) - sum(1 for k in key[key.index(Ellipsis) + 1:] if k is not Ellipsis)
            continue
        if not isinstance(item, slice) or not whole(item, shape[dim]):
            return False
        dim += 1
    return True
