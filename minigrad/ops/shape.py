"""Shape ops: view/reshape, transpose/permute, (un)squeeze, expand, repeat, cat/stack, split/unbind, flip/roll,
diagonal/diag/trace, tril/triu.

Ops marked ``is_view`` return a tensor sharing memory and version counter with their input
(numpy views), as PyTorch's views do; ``Function.apply`` links them to their base.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _tensor  # _tensor is still loading: use `_tensor.Tensor` at call time
from ..autograd.function import Function
from ._layout import contiguous, like
from ._util import promoted, wrap_dim
from .index import IndexSelect
from .reduce import _sum_dtype

if TYPE_CHECKING:
    from .._tensor import Tensor
    from ..autograd.function import Grads


def infer_shape(shape: Any, numel: Any) -> Any:
    """Resolve one ``-1`` in ``shape``, with PyTorch's errors."""
    shape = tuple([int(s) for s in shape])
    if -1 not in shape and math.prod(shape) == numel and min(shape, default=0) >= 0:
        return shape                                    # the common case, checked at once
    for i, s in enumerate(shape):
        if s < -1:
            raise RuntimeError("invalid shape dimension %d at index %d of shape [%s]"
                               % (s, i, ", ".join(map(str, shape))))
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = math.prod(s for s in shape if s != -1)
    if -1 in shape:
        if known == 0 and numel == 0:
            raise RuntimeError("cannot reshape tensor of 0 elements into shape [%s] because the unspecified "
                               "dimension size -1 can be any value and is ambiguous" % ", ".join(map(str, shape)))
        if known == 0 or numel % known:
            raise RuntimeError("shape '[%s]' is invalid for input of size %d" % (", ".join(map(str, shape)), numel))
        shape = tuple(numel // known if s == -1 else s for s in shape)
    elif known != numel:
        raise RuntimeError("shape '[%s]' is invalid for input of size %d" % (", ".join(map(str, shape)), numel))
    return shape


def view_array(a: Any, shape: Any) -> Any:
    """``a`` with a new shape *without copying*, or None when that is impossible."""
    if a.flags.c_contiguous:
        return a.reshape(shape)                         # always a view
    if _RESHAPE_COPY_ARG:
        try:
            return a.reshape(shape, copy=False)         # numpy >= 2.1: raises instead of copying
        except ValueError:
            return None
    v = a.view()                                        # older numpy: setting the shape never copies
    try:
        v.shape = shape
    except AttributeError:
        return None
    return v


_RESHAPE_COPY_ARG = tuple(int(p) for p in np.__version__.split(".")[:2]) >= (2, 1)


class View(Function):
    """Same data, new shape.  Backward: grad reshaped to the input's shape."""

    node_name: str = "ViewBackward0"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("self_sym_sizes",)
    is_view: bool = True

    @staticmethod
    def forward(ctx: Any, x: Tensor, shape: tuple[int, ...]) -> Any:
        ctx.self_sym_sizes = tuple(x.shape)
        out = view_array(x._data, infer_shape(shape, x.numel()))
        if out is None:
            raise RuntimeError("view size is not compatible with input tensor's size and stride (at least one "
                               "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")
        return out

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return grad.reshape(ctx.self_sym_sizes), None


class Alias(Function):
    """``x[...]``, ``x[:, :]``: the same tensor as a new view (PyTorch's ``alias``).  Backward: grad."""

    node_name: str = "AliasBackward0"
    jvp = "auto_linear"
    is_view: bool = True

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> Any:
        return x._data.view()

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return grad


class Primal(Function):
    """``forward_ad.unpack_dual(t).primal``: a view of ``t`` without its tangent.  Backward: grad."""

    node_name = "Identity"       # PyTorch's name for this node
    jvp = "auto_linear"
    is_view = True
    inputs, grads = ("self",), ("g",)
    words = "unpack_dual's primal: the same values, the gradient passes through."

    @staticmethod
    def forward(ctx: Any, x: Any) -> Any:
        return x._data.view()

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        return grad


class ReshapeAlias(View):
    """``reshape`` of a non-contiguous tensor that could still be a view (PyTorch's ``_reshape_alias``)."""

    node_name: str = "ReshapeAliasBackward0"


class UnsafeView(Function):
    """Reshape a fresh temporary (a clone, an mm result) in place of a view.  Backward: grad reshaped back.

    PyTorch's ``_unsafe_view``: no copy and not a view, which is safe because nobody else sees ``x``.
    """

    node_name: str = "UnsafeViewBackward0"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("self_sym_sizes",)

    @staticmethod
    def forward(ctx: Any, x: Tensor, shape: tuple[int, ...]) -> Any:
        ctx.self_sym_sizes = tuple(x.shape)
        return np.reshape(x._data, infer_shape(shape, x.numel()))

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return grad.reshape(ctx.self_sym_sizes), None


class Transpose(Function):
    """Swap two dims.  Backward: swap them back."""

    node_name: str = "TransposeBackward0"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("dim0", "dim1")
    is_view: bool = True

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim0: int, dim1: int) -> Any:
        ctx.dim0, ctx.dim1 = wrap_dim(dim0, x.ndim), wrap_dim(dim1, x.ndim)
        return np.swapaxes(x._data, ctx.dim0, ctx.dim1) if x.ndim > 1 else x._data.view()

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return grad.transpose(ctx.dim0, ctx.dim1), None, None


class T(Function):
    """``t()``: transpose of a tensor with at most 2 dims.  Backward: grad.t()."""

    node_name: str = "TBackward0"
    jvp = "auto_linear"
    is_view: bool = True

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> Any:
        if x.ndim > 2:
            raise RuntimeError("t() expects a tensor with <= 2 dimensions, but self is %dD" % x.ndim)
        return x._data.T

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return grad.t()


class Permute(Function):
    """Reorder dims.  Backward: the inverse permutation."""

    node_name: str = "PermuteBackward0"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("dims",)
    is_view: bool = True

    @staticmethod
    def forward(ctx: Any, x: Tensor, dims: Any) -> Any:
        if len(dims) != x.ndim:
            raise RuntimeError("permute(sparse_coo): number of dimensions in the tensor input does not match the "
                               "length of the desired ordering of dimensions i.e. input.dim() = %d is not equal to "
                               "len(dims) = %d" % (x.ndim, len(dims)))
        dims = tuple(wrap_dim(d, x.ndim) for d in dims)
        if len(dims) == x.ndim and len(set(dims)) != len(dims):
            raise RuntimeError("permute(): duplicate dims are not allowed.")
        if len(dims) != x.ndim or sorted(dims) != list(range(x.ndim)):
            raise RuntimeError("permute(sparse_coo): number of dimensions in the tensor input does not match the "
                               "length of the desired ordering of dimensions i.e. input.dim() = %d is not equal to "
                               "len(dims) = %d" % (x.ndim, len(dims)))
        ctx.dims = dims
        return np.transpose(x._data, dims)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return grad.permute(tuple(int(i) for i in np.argsort(ctx.dims))), None


class Unsqueeze(Function):
    """Insert a dim of size 1.  Backward: squeeze it out."""

    node_name: str = "UnsqueezeBackward0"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("dim",)
    is_view: bool = True

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: Any) -> Any:
        ctx.dim = d = wrap_dim(dim, x.ndim + 1)
        a = x._data
        # PyTorch's stride for the new dim (numpy's is 0): what mm's backward reads to pick its layout
        step = a.shape[d] * a.strides[d] if d < a.ndim else a.itemsize
        shape, strides = (*a.shape[:d], 1, *a.shape[d:]), (*a.strides[:d], step, *a.strides[d:])
        return np.lib.stride_tricks.as_strided(a, shape, strides, writeable=a.flags.writeable)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return grad.squeeze(ctx.dim), None


class Squeeze(Function):
    """Remove all dims of size 1.  Backward: grad reshaped to the input's shape."""

    node_name: str = "SqueezeBackward0"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("self_sym_sizes",)
    is_view: bool = True

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> Any:
        ctx.self_sym_sizes = tuple(x.shape)
        return x._data.reshape(tuple(s for s in x.shape if s != 1))

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return _unsqueeze_to(grad, range(len(ctx.self_sym_sizes)), ctx.self_sym_sizes)


def _unsqueeze_to(grad: Tensor, dims: Any, sizes: tuple[int, ...]) -> Tensor:
    """PyTorch's ``unsqueeze_to``: the squeezed dims (those of ``dims`` with size 1) put back one
    ``unsqueeze`` at a time, in increasing order (UnsqueezeBackward0 nodes under create_graph)."""
    for d in sorted(dims):
        if sizes[d] == 1:
            grad = grad.unsqueeze(d)
    return grad


class SqueezeDim(Function):
    """Remove ``dim`` if it has size 1.  Backward: grad reshaped to the input's shape."""

    node_name: str = "SqueezeBackward1"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("dim", "self_sym_sizes")
    is_view: bool = True

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: Any) -> Any:
        ctx.self_sym_sizes = tuple(x.shape)
        ctx.dim = wrap_dim(dim, x.ndim)
        if x.ndim == 0 or x.shape[ctx.dim] != 1:
            return x._data.view()
        return np.squeeze(x._data, ctx.dim)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return _unsqueeze_to(grad, (ctx.dim,) if ctx.self_sym_sizes else (), ctx.self_sym_sizes), None


class SqueezeMatmul(SqueezeDim):
    """The squeeze that ends a 1-D @ 2-D matmul: PyTorch's ``squeeze_`` on the fresh product, so not a view
    (an in-place op on the result records its own node, not AsStridedBackward0)."""

    node_name: str = "SqueezeBackward4"
    is_view: bool = False


def _broadcast_view(array, shape):
    """``np.broadcast_to(array, shape)`` (a read-only view with zero strides) at a fraction of its cost."""
    lead = len(shape) - array.ndim
    strides = (0,) * lead + tuple(0 if n == 1 and m != 1 else stride
                                  for n, m, stride in zip(array.shape, shape[lead:], array.strides))
    try:
        view = np.ndarray(shape, array.dtype, array, 0, strides)    # needs a contiguous buffer ...
    except (TypeError, ValueError):
        return np.broadcast_to(array, shape)                        # ... or the general (slower) way
    view.flags.writeable = False
    return view


class Expand(Function):
    """Broadcast to a larger shape without copying.  Backward: grad summed back (by the node)."""

    node_name: str = "ExpandBackward0"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("self_sym_sizes",)
    is_view: bool = True

    @staticmethod
    def forward(ctx: Any, x: Tensor, shape: tuple[int, ...]) -> Any:
        have = ctx.self_sym_sizes = x._data.shape
        shape = tuple(shape)
        lead = len(shape) - len(have)
        if lead < 0:
            raise RuntimeError("expand(torch.%sTensor{[%s]}, size=[%s]): the number of sizes provided (%d) must "
                               "be greater or equal to the number of dimensions in the tensor (%d)"
                               % (x.dtype._legacy, ", ".join(map(str, have)), ", ".join(map(str, shape)), len(shape),
                                  len(have)))
        # PyTorch's inferExpandGeometry: from the last dim to the first, so the error names the last mismatch
        target = list(shape)
        for i in range(len(shape) - 1, -1, -1):
            size = have[i - lead] if i >= lead else 1
            if shape[i] == -1:
                if i < lead:
                    raise RuntimeError("The expanded size of the tensor (-1) isn't allowed in a leading, non-existing "
                                       "dimension %d" % i)
                target[i] = size
            elif size != shape[i] and size != 1:
                raise RuntimeError("The expanded size of the tensor (%d) must match the existing size (%d) at "
                                   "non-singleton dimension %d.  Target sizes: [%s].  Tensor sizes: [%s]"
                                   % (shape[i], size, i, ", ".join(map(str, shape)), ", ".join(map(str, x.shape))))
        target = tuple(target)
        return _broadcast_view(x._data, target)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return grad, None


class Repeat(Function):
    """Tile the tensor ``repeats`` times per dim.  Backward: sum the tiles."""

    node_name: str = "RepeatBackward0"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("repeats", "self_sym_sizes")

    @staticmethod
    def forward(ctx: Any, x: Tensor, repeats: Any) -> Any:
        repeats = tuple(repeats)
        if len(repeats) < x.ndim:
            raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions "
                               "of tensor")
        ctx.repeats, ctx.self_sym_sizes = repeats, tuple(x.shape)
        if min(repeats, default=0) < 0:
            shape = (1,) * (len(repeats) - x.ndim) + tuple(x.shape)
            sizes = [n * r for n, r in zip(shape, repeats)]
            raise RuntimeError("Trying to create tensor with negative dimension %d: [%s]"
                               % (next(s for s in sizes if s < 0), ", ".join(map(str, sizes))))
        return contiguous(np.tile(x._data, repeats))

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        # PyTorch's repeat_backward: the added leading dims summed one by one, then one reshape that splits
        # each repeated dim into (repeat, size) and one sum over the repeats (nothing more if none is > 1)
        sizes = ctx.self_sym_sizes
        if 0 in ctx.repeats:
            return _tensor.Tensor._make(np.zeros(sizes, dtype=grad._data.dtype)), None
        lead = len(ctx.repeats) - len(sizes)
        for _ in range(lead):
            grad = grad.sum(0)
        split, dims = [], []
        for r, n in zip(ctx.repeats[lead:], sizes):
            if r != 1:
                dims.append(len(split))
                split.append(r)
            split.append(n)
        return (grad.reshape(split).sum(dims) if dims else grad), None


class Cat(Function):
    """Concatenate along ``dim``.  Backward: each input gets its slice of grad."""

    node_name: str = "CatBackward0"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("dim",)

    @staticmethod
    def forward(ctx: Any, dim: Any, *tensors: Any) -> Any:
        if not tensors:
            raise RuntimeError("torch.cat(): expected a non-empty list of Tensors")
        for i, t in enumerate(tensors):
            if t.ndim == 0:
                raise RuntimeError("zero-dimensional tensor (at position %d) cannot be concatenated" % i)
        # PyTorch's legacy rule: 1-D empty tensors are skipped when the others have more dims
        legacy = [t.shape == (0,) for t in tensors]
        ref = next((t for t, skip in zip(tensors, legacy) if not skip), tensors[0])
        if ref.ndim == 1:
            legacy = [False] * len(tensors)
        ctx.legacy = legacy
        ctx.dim = d = wrap_dim(dim, ref.ndim)
        for i, t in enumerate(tensors):
            if legacy[i]:
                continue
            if t.ndim != ref.ndim:
                raise RuntimeError("Tensors must have same number of dimensions: got %d and %d" % (ref.ndim, t.ndim))
            for j, (a, b) in enumerate(zip(ref.shape, t.shape)):
                if j != d and a != b:
                    raise RuntimeError("Sizes of tensors must match except in dimension %d. Expected size %d but got "
                                       "size %d for tensor number %d in the list." % (d, a, b, i))
        ctx.sizes = [0 if skip else t.shape[d] for t, skip in zip(tensors, legacy)]
        arrays = promoted(*tensors)
        return contiguous(np.concatenate([a for a, skip in zip(arrays, legacy) if not skip] or arrays[:1], axis=d))

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        out: list[Tensor | None] = [None]
        start = 0
        for size, skip in zip(ctx.sizes, ctx.legacy):
            if skip:
                out.append(_tensor.Tensor._make(np.zeros(0, grad._data.dtype)))
                continue
            out.append(grad.narrow(ctx.dim, start, size))
            start += size
        return tuple(out)


class Stack(Function):
    """Stack along a new ``dim``.  Backward: each input gets its slice of grad."""

    node_name: str = "StackBackward0"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("dim",)

    @staticmethod
    def forward(ctx: Any, dim: Any, *tensors: Any) -> Any:
        if not tensors:
            raise RuntimeError("stack expects a non-empty TensorList")
        for i, t in enumerate(tensors):
            if t.shape != tensors[0].shape:
                first, this = ", ".join(map(str, tensors[0].shape)), ", ".join(map(str, t.shape))
                raise RuntimeError("stack expects each tensor to be equal size, but got [%s] at entry 0 and [%s] at "
                                   "entry %d" % (first, this, i))
        ctx.dim = wrap_dim(dim, tensors[0].ndim + 1)
        return contiguous(np.stack(promoted(*tensors), axis=ctx.dim))

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return (None, *tuple(grad.select(ctx.dim, i) for i in range(grad.shape[ctx.dim])))


class Split(Function):
    """Split into pieces of ``sizes`` along ``dim`` (views).  Backward: concatenate the pieces' grads."""

    node_name: str = "SplitBackward0"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("dim", "split_size", "self_sym_sizes")
    is_view: bool = True
    multi_output: bool = True           # returns a list of views (PyTorch's MULTI_OUTPUT_NODE views)

    @staticmethod
    def forward(ctx: Any, x: Tensor, sizes: tuple[int, ...], dim: Any) -> Any:
        ctx.dim, ctx.self_sym_sizes = wrap_dim(dim, x.ndim), tuple(x.shape)
        ctx.split_size, ctx.split_sizes = sizes[0], tuple(sizes)
        bounds = np.cumsum(sizes)[:-1]
        return tuple(np.split(x._data, bounds, axis=ctx.dim))

    @staticmethod
    def backward(ctx: Any, *grads: Tensor) -> Grads:
        return Cat.apply(ctx.dim, *grads), None, None


class SplitWithSizes(Split):
    """``split([sizes])``: as Split."""

    node_name: str = "SplitWithSizesBackward0"
    saved_attrs: tuple[str, ...] = ("dim", "self_sym_sizes", "split_sizes")


class Unbind(Function):
    """Remove ``dim``, returning every slice (views).  Backward: stack the slices' grads."""

    node_name: str = "UnbindBackward0"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("dim",)
    is_view: bool = True
    multi_output: bool = True

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: Any) -> Any:
        ctx.dim = wrap_dim(dim, x.ndim)
        # `...`: a 1-d tensor's slices are 0-d *views*, not numpy scalar copies (in-place ops reach the base)
        return tuple(x._data[(*(slice(None),) * ctx.dim, i, Ellipsis)] for i in range(x.shape[ctx.dim]))

    @staticmethod
    def backward(ctx: Any, *grads: Tensor) -> Grads:
        return Stack.apply(ctx.dim, *grads), None


class Flip(Function):
    """Reverse the order along ``dims`` (a copy, as in PyTorch).  Backward: flip grad back."""

    node_name: str = "FlipBackward0"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("dims",)

    @staticmethod
    def forward(ctx: Any, x: Tensor, dims: Any) -> Any:
        ctx.dims = tuple(wrap_dim(d, max(x.ndim, 1)) for d in dims)          # a 0-d tensor takes dim 0 / -1
        for i, d in enumerate(ctx.dims):
            if d in ctx.dims[:i]:
                raise RuntimeError("dim %d appears multiple times in the list of dims" % d)
        return like(np.flip(x._data, ctx.dims).copy(), x._data) if x.ndim else x._data.copy()

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return grad.flip(ctx.dims), None


class Tril(Function):
    """Lower triangle (on and below ``diagonal``), zeros above.  Backward: the same triangle of grad."""

    node_name: str = "TrilBackward0"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("diagonal",)
    _pick = staticmethod(np.tril)

    @classmethod
    def forward(cls, ctx: Any, x: Tensor, diagonal: Any) -> Any:
        if x.ndim < 2:
            raise RuntimeError("%s: input tensor must have at least 2 dimensions" % cls.__name__.lower())
        ctx.diagonal = diagonal
        return contiguous(cls._pick(x._data, diagonal))

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return type(ctx)._forward_cls.apply(grad, ctx.diagonal), None


class Triu(Tril):
    """Upper triangle (on and above ``diagonal``), zeros below.  Backward: the same triangle of grad."""

    node_name: str = "TriuBackward0"
    _pick = staticmethod(np.triu)


class SqueezeDims(Function):
    """Remove those of ``dims`` that have size 1 (``squeeze((0, 2))``).  Backward: grad reshaped back."""

    node_name: str = "SqueezeBackward2"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("dim", "self_sym_sizes")
    is_view: bool = True

    @staticmethod
    def forward(ctx: Any, x: Tensor, dims: Any) -> Any:
        ctx.self_sym_sizes = tuple(x.shape)
        ctx.dim = tuple(wrap_dim(d, x.ndim) if x.ndim else wrap_dim(d, 1) for d in dims)
        for i, d in enumerate(ctx.dim):
            if d in ctx.dim[:i]:
                raise RuntimeError("dim %d appears multiple times in the list of dims" % d)
        drop = tuple(d for d in ctx.dim if x.ndim and x.shape[d] == 1)
        return np.squeeze(x._data, drop) if drop else x._data.view()

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return _unsqueeze_to(grad, ctx.dim if ctx.self_sym_sizes else (), ctx.self_sym_sizes), None


def diagonal_view(a: Any, offset: Any, dim1: Any, dim2: Any) -> Any:
    """The (writeable) view of ``a``'s diagonal ``offset`` in the plane (dim1, dim2), as the last dim."""
    n1, n2 = a.shape[dim1], a.shape[dim2]
    length = max(0, min(n1 + min(offset, 0), n2 - max(offset, 0)))
    start = [slice(None)] * a.ndim
    if length:
        start[dim1 if offset < 0 else dim2] = slice(abs(offset), None)
    rest = [d for d in range(a.ndim) if d not in (dim1, dim2)]
    shape = (*[a.shape[d] for d in rest], length)
    strides = (*[a.strides[d] for d in rest], a.strides[dim1] + a.strides[dim2])
    return np.lib.stride_tricks.as_strided(a[tuple(start)], shape, strides, writeable=a.flags.writeable)


class Diagonal(Function):
    """The diagonal ``offset`` of the plane (dim1, dim2), as a new last dim (a view).

    Backward: zeros of the input's shape with grad on that diagonal.
    """

    node_name: str = "DiagonalBackward0"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("dim1", "dim2", "offset", "self_sym_sizes")
    is_view: bool = True

    @staticmethod
    def forward(ctx: Any, x: Tensor, offset: int, dim1: int, dim2: int) -> Any:
        ndim = max(x.ndim, 1)
        ctx.offset, ctx.dim1, ctx.dim2 = offset, wrap_dim(dim1, ndim), wrap_dim(dim2, ndim)
        if ctx.dim1 == ctx.dim2:
            raise RuntimeError("diagonal dimensions cannot be identical %d, %d" % (dim1, dim2))
        ctx.self_sym_sizes = tuple(x.shape)
        return diagonal_view(x._data, offset, ctx.dim1, ctx.dim2)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return DiagonalScatter.apply(grad, ctx.self_sym_sizes, ctx.offset, ctx.dim1, ctx.dim2), None, None, None


class DiagonalCopy(Diagonal):
    """``diag(matrix)``: the diagonal as a new tensor (PyTorch's ``diagonal_copy``).  Backward: as Diagonal."""

    node_name: str = "DiagonalBackward0_copy"
    is_view: bool = False

    @staticmethod
    def forward(ctx: Any, x: Tensor, offset: int, dim1: int, dim2: int) -> Any:
        return Diagonal.forward(ctx, x, offset, dim1, dim2).copy()


class DiagonalScatter(Function):
    """Zeros of ``shape`` with ``grad`` on a diagonal (the backward of diagonal).  Backward: take the diagonal."""

    node_name: str = "DiagonalBackwardBackward0"
    jvp = "auto_linear"

    @staticmethod
    def forward(ctx: Any, grad: Tensor, shape: tuple[int, ...], offset: int, dim1: int, dim2: int) -> Any:
        ctx.offset, ctx.dim1, ctx.dim2 = offset, dim1, dim2
        out = np.zeros(shape, dtype=grad._data.dtype)
        diagonal_view(out, offset, dim1, dim2)[...] = grad._data
        return out

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return Diagonal.apply(grad, ctx.offset, ctx.dim1, ctx.dim2), None, None, None, None


class DiagEmbed(Function):
    """``diag(vector)``: a square matrix with the vector on diagonal ``offset``.  Backward: that diagonal of grad."""

    node_name: str = "DiagEmbedBackward0"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("dim1", "dim2", "offset")

    @staticmethod
    def forward(ctx: Any, x: Tensor, offset: int) -> Any:
        ctx.offset = offset
        ctx.dim1, ctx.dim2 = 2**64 - 2, 2**64 - 1      # -2 and -1, as PyTorch shows them (unsigned)
        n = x.shape[0] + abs(offset)
        out = np.zeros((n, n), dtype=x._data.dtype)
        diagonal_view(out, offset, 0, 1)[...] = x._data
        return out

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return Diagonal.apply(grad, ctx.offset, -2, -1), None


class Trace(Function):
    """Sum of a matrix's main diagonal.  Backward: grad on the diagonal, zeros elsewhere."""

    node_name: str = "TraceBackward0"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("self_sym_sizes",)

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> Any:
        if x.ndim != 2:
            raise RuntimeError("trace: expected a matrix, but got tensor with dim %d" % x.ndim)
        ctx.self_sym_sizes = tuple(x.shape)
        return np.asarray(np.trace(x._data, dtype=_sum_dtype(x)))

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        # PyTorch's trace_backward: zeros(rows · cols).index_fill_(0, diagonal's flat indices, grad).view(sizes);
        # only the min(rows, cols) diagonal slots (arange(0, numel, cols + 1) would wrap around a tall matrix:
        # a 6 × 1 matrix's trace is x[0, 0] alone, not x[0] + x[2] + x[4])
        rows, cols = ctx.self_sym_sizes
        flat = _tensor.Tensor._make(np.zeros(rows * cols, dtype=grad._data.dtype))
        index = np.arange(min(rows, cols), dtype=np.int64) * (cols + 1)
        return IndexFillGrad.apply(flat, grad, index).view(ctx.self_sym_sizes)


class IndexFillGrad(Function):
    """``zeros.index_fill_(0, index, value)`` with a 0-d tensor value (trace's backward).  Backward: the value
    gets the sum of the gradient at ``index``."""

    node_name: str = "IndexFillBackward1"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("dim", "index")

    @staticmethod
    def forward(ctx: Any, x: Tensor, value: Tensor, index: Any) -> Any:
        ctx.dim, ctx.index = 0, index
        out = x._data                          # in place, as PyTorch's: a fresh constant nobody else holds
        out[index] = value._data
        return out

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return None, IndexSelect.apply(grad, 0, ctx.index).sum(), None


class Roll(Function):
    """Rotate elements by ``shifts`` along ``dims`` (no dims: the flattened tensor).  Backward: roll grad back."""

    node_name: str = "RollBackward0"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("dims", "shifts")

    @staticmethod
    def forward(ctx: Any, x: Tensor, shifts: Any, dims: Any) -> Any:
        if not shifts:
            raise RuntimeError("`shifts` required")
        if len(shifts) != len(dims) and not (len(shifts) == 1 and not dims):
            raise RuntimeError("shifts and dimensions must align. shifts: %d, dims:%d" % (len(shifts), len(dims)))
        if x.ndim == 0 and dims:
            raise IndexError("Dimension specified as %d but tensor has no dimensions" % dims[0])
        if x._data.size == 0:                # PyTorch returns a clone before it looks at the dims
            ctx.shifts, ctx.dims = shifts, tuple(dims)
            return x._data.copy()
        ctx.shifts, ctx.dims = shifts, tuple(wrap_dim(d, x.ndim) for d in dims)
        return contiguous(np.roll(x._data, shifts if dims else shifts[0], ctx.dims or None))

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return Roll.apply(grad, tuple(-s for s in ctx.shifts), ctx.dims), None, None


# Data movement only: numpy has no floating-point warning to give (see Function.quiet).
for _op in (View, Alias, UnsafeView, Transpose, T, Permute, Unsqueeze, Squeeze, SqueezeDim, Expand, Repeat, Cat, Stack,
            Split, Unbind, Flip, Tril, SqueezeDims, Diagonal, DiagonalScatter, DiagEmbed, Roll):
    _op.quiet = False
