"""The shape methods of Tensor: argument checks, PyTorch's errors, and which op of ``ops/shape.py`` a call records.

``reshape`` is a view (``ViewBackward0``) when the memory allows, else a copy (``CloneBackward0`` then
``UnsafeViewBackward0``); ``flatten``, ``movedim``, ``chunk`` build on ``reshape``, ``permute`` and ``split``
as PyTorch does, so they record the same nodes.  ``TensorOps`` in ``_tensor_ops.py`` calls these.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _checks, _dtype
from . import elementwise as E
from . import index as I
from . import shape as S
from ._args import shape_arg
from ._util import operand, wrap_dim

if TYPE_CHECKING:
    from .._tensor import Tensor


def view(x: Tensor, shape: tuple[Any, ...]) -> Tensor:
    if len(shape) == 1 and isinstance(shape[0], _dtype.dtype):
        raise NotImplementedError("view(dtype) is not supported by minigrad")
    if not shape or (not _checks.is_int(shape[0]) and not isinstance(shape[0], (tuple, list))):
        notes = (_checks.bad_types(shape),) * 2 if len(shape) == 1 else None
        raise TypeError(_checks.invalid_args("view", shape, {}, ("torch.dtype dtype", "tuple of ints size"), notes))
    return S.View.apply(x, shape_arg(shape, "view", "size"))


def reshape(x: Tensor, shape: tuple[Any, ...]) -> Tensor:
    """A view when the memory allows one (``ViewBackward0``), else a copy, recorded as PyTorch does."""
    if not shape:
        raise TypeError('reshape() missing 1 required positional arguments: "shape"')
    shape = S.infer_shape(shape_arg(shape, "reshape", "shape"), x.numel())
    if S.view_array(x._data, shape) is None:
        return S.UnsafeView.apply(E.Clone.apply(x, "contiguous"), shape)     # a copy, as PyTorch records it
    return (S.View if x._data.flags.c_contiguous else S.ReshapeAlias).apply(x, shape)


def flatten(x: Tensor, start_dim: Any, end_dim: Any) -> Tensor:
    s = wrap_dim(_checks.int_arg(start_dim, "flatten", "start_dim", 1), x.ndim)
    e = wrap_dim(_checks.int_arg(end_dim, "flatten", "end_dim", 2), x.ndim)
    if x.ndim == 0:
        return x.reshape(1)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return x
    shape = (*x.shape[:s], math.prod(x.shape[s:e + 1]), *x.shape[e + 1:])
    return x.reshape(shape)


def unflatten(x: Tensor, dim: int, sizes: Sequence[int]) -> Tensor:
    d = wrap_dim(dim, x.ndim)
    sizes = tuple(sizes)
    if -1 not in sizes and math.prod(sizes) != x.shape[d]:
        raise RuntimeError("unflatten: Provided sizes [%s] don't multiply up to the size of dim %d (%d) in the "
                           "input tensor" % (", ".join(map(str, sizes)), d, x.shape[d]))
    return x.view(x.shape[:d] + sizes + x.shape[d + 1:])


def movedim(x: Tensor, source: Any, destination: Any) -> Tensor:
    """Move the dims ``source`` to the positions ``destination`` (ints or sequences); a permute."""
    src = (source,) if isinstance(source, int) else tuple(source)
    dst = (destination,) if isinstance(destination, int) else tuple(destination)
    if len(src) != len(dst):
        raise RuntimeError("movedim: Invalid source or destination dims: source (%s dims) should contain the "
                           "same number of dims as destination (%s dims)" % (list(src), list(dst)))
    n = max(x.ndim, 1)
    src, dst = [wrap_dim(d, n) for d in src], [wrap_dim(d, n) for d in dst]
    for name, dims in (("source", src), ("destination", dst)):
        if len(set(dims)) != len(dims):
            raise RuntimeError("movedim: repeated dim in `%s` (%s)" % (name, list(dims)))
    if x.ndim == 0:
        return S.Alias.apply(x)
    order: list[int | None] = [None] * x.ndim
    for a, b in zip(src, dst, strict=True):
        order[b] = a
    rest = iter(d for d in range(x.ndim) if d not in src)
    return x.permute([d if d is not None else next(rest) for d in order])


def transpose(x: Tensor, dim0: Any, dim1: Any) -> Tensor:
    dim0, dim1 = _checks.int_arg(dim0, "transpose", "dim0"), _checks.int_arg(dim1, "transpose", "dim1", 2)
    return S.Transpose.apply(x, dim0, dim1)


_T_WARNINGS = ("The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it will "
               "throw an error in a future release. Consider `x.mT` to transpose batches of matrices or "
               "`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor.",
               "Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases.")
_warned_T = [False, False]


def reversed_dims(x: Tensor) -> Tensor:
    """``x.T``: all dims reversed, with PyTorch's deprecation warning (once per process) unless 2-D."""
    if x.ndim != 2 and not _warned_T[x.ndim == 0]:
        _warned_T[x.ndim == 0] = True        # PyTorch warns once per process
        warnings.warn(_T_WARNINGS[x.ndim == 0], UserWarning, stacklevel=3)
    return S.Permute.apply(x, tuple(range(x.ndim - 1, -1, -1)))


def permute(x: Tensor, dims: tuple[Any, ...]) -> Tensor:
    if not dims:
        raise TypeError('permute() missing 1 required positional arguments: "dims"')
    return S.Permute.apply(x, shape_arg(dims, "permute", "dims"))


def squeeze(x: Tensor, dim: Any) -> Tensor:
    if dim is None:
        return S.Squeeze.apply(x)
    if isinstance(dim, (tuple, list)):
        return S.SqueezeDims.apply(x, _checks.int_list(dim, "squeeze", "dim"))
    if not _checks.is_int(dim):
        raise TypeError(_checks.invalid_args("squeeze", (dim,), {}, ("", "int dim", "tuple of ints dim"),
                                             (_checks.bad_types((dim,)),) * 3))
    return S.SqueezeDim.apply(x, dim)


def roll(x: Tensor, shifts: Any, dims: Any) -> Tensor:
    """Rotate by ``shifts`` along ``dims`` (ints or sequences); without dims, the flattened tensor."""
    shifts = _checks.int_list(shifts, "roll", "shifts")
    dims = () if dims is None else _checks.int_list(dims, "roll", "dims", 2)
    return S.Roll.apply(x, shifts, dims)


def diag(x: Tensor, diagonal: int) -> Tensor:
    """A 1-D tensor's square diagonal matrix, or a matrix's diagonal (a copy), ``diagonal`` places above."""
    if x.ndim == 1:
        return S.DiagEmbed.apply(x, diagonal)
    if x.ndim != 2:
        raise RuntimeError("diag(): Supports 1D or 2D tensors. Got %dD" % x.ndim)
    return S.DiagonalCopy.apply(x, diagonal, 0, 1)


def expand(x: Tensor, sizes: tuple[Any, ...]) -> Tensor:
    if not sizes:
        raise TypeError('expand() missing 1 required positional arguments: "size"')
    return S.Expand.apply(x, shape_arg(sizes, "expand", "size"))


def split(x: Tensor, split_size: Any, dim: int) -> tuple[Tensor, ...]:
    """Pieces of ``split_size`` along ``dim`` (the last one smaller), or of the sizes in a list."""
    if x.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    d = wrap_dim(dim, x.ndim)
    n = x.shape[d]
    if not _checks.is_int(split_size):
        split_size = _checks.int_list(split_size, "split_with_sizes", "split_sizes", 2)
    if isinstance(split_size, int):
        if split_size < 0:
            raise RuntimeError("split expects split_size be non-negative, but got split_size=%d" % split_size)
        if split_size == 0:
            if n:
                raise RuntimeError("split_size can only be 0 if dimension size is 0, but got dimension size of %d"
                                   % n)
            return S.Split.apply(x, [0], d)
        sizes = [split_size] * (n // split_size) + ([n % split_size] if n % split_size else [])
        return S.Split.apply(x, sizes or [0], d)
    if sum(split_size) != n:
        raise RuntimeError("split_with_sizes expects split_sizes to sum exactly to %d (input tensor's size at "
                           "dimension %d), but got split_sizes=[%s]" % (n, d, ", ".join(map(str, split_size))))
    return S.SplitWithSizes.apply(x, list(split_size), d)


def chunk(x: Tensor, chunks: Any, dim: int) -> tuple[Tensor, ...]:
    chunks = _checks.int_arg(chunks, "chunk", "chunks")
    if x.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError("chunk expects `chunks` to be greater than 0, got: %d" % chunks)
    n = x.shape[wrap_dim(dim, x.ndim)]
    if n == 0:                              # PyTorch: `chunks` empty pieces (split_with_sizes)
        return x.split([0] * chunks, dim)
    return x.split(max(-(-n // chunks), 1), dim)


def unbind(x: Tensor, dim: Any) -> tuple[Tensor, ...]:
    dim = _checks.int_arg(dim, "unbind", "dim")
    if x.ndim == 0:
        wrap_dim(dim, 0)
        raise IndexError("Dimension specified as %d but tensor has no dimensions" % dim)
    return S.Unbind.apply(x, dim)


def narrow(x: Tensor, dim: int, start: int, length: int) -> Tensor:
    if x.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    d = wrap_dim(dim, x.ndim)
    size = x.shape[d]
    if not -size <= start <= size:
        raise IndexError("start out of range (expected to be in range of [%d, %d], but got %d)"
                         % (-size, size, start))
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    start = start + size if start < 0 else start
    if start + length > size:
        raise RuntimeError("start (%d) + length (%d) exceeds dimension size (%d)." % (start, length, size))
    return I.Slice.apply(x, (slice(None),) * d + (slice(start, start + length),))


def select(x: Tensor, dim: Any, index: Any) -> Tensor:
    dim, index = _checks.int_arg(dim, "select", "dim"), _checks.int_arg(index, "select", "index", 2)
    if x.ndim == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    d = wrap_dim(dim, x.ndim)
    index = int(index)
    if not -x.shape[d] <= index < x.shape[d]:
        raise IndexError("select(): index %d out of range for tensor of size [%s] at dimension %d"
                         % (index, ", ".join(map(str, x.shape)), d))
    return I.Select.apply(x, (slice(None),) * d + (index,))


_REPEAT_SIGNATURES = ("Tensor repeats, int dim = None, *, int output_size = None",
                      "int repeats, int dim = None, *, int output_size = None")


def repeat_counts(repeats: Tensor) -> Tensor:
    """``torch.repeat_interleave(repeats)``: each index ``i`` written ``repeats[i]`` times (int64)."""
    if repeats.dim() != 1:
        raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
    counts = repeats._data
    if counts.dtype.kind not in "iu":
        raise NotImplementedError("\"repeat_interleave_cpu\" not implemented for '%s'" % repeats.dtype._legacy)
    if (counts < 0).any():
        raise RuntimeError("repeats can not be negative")
    return operand(np.repeat(np.arange(counts.size, dtype=np.int64), counts))


def repeat_interleave(x: Tensor, repeats: Any, dim: Any = None, output_size: Any = None) -> Tensor:
    """Each element (or each slice along ``dim``) ``repeats`` times in a row: ``[a, b] → [a, a, b, b]``.

    As ATen composes it, so the graph has PyTorch's nodes: an int repeats is unsqueeze, expand, clone and
    view (``ViewBackward0`` ← ``CloneBackward0`` ← ``ExpandBackward0`` ← ``UnsqueezeBackward0``); a tensor
    of repeats is an ``index_select`` with the indices ``repeat_interleave(repeats)``.  ``dim=None``
    flattens the input first.
    """
    by_tensor = isinstance(getattr(repeats, "_data", None), np.ndarray)
    if not by_tensor and not _checks.is_int(repeats):
        raise TypeError(_checks.invalid_args("repeat_interleave", (repeats,), {}, _REPEAT_SIGNATURES))
    if dim is None:
        x, dim = x.flatten(), 0
    dim = wrap_dim(dim, x.dim())
    if by_tensor:
        if repeats.dim() > 1:
            raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
        if repeats.numel() == 1:                    # one count for every slice
            repeats = operand(np.full(x.shape[dim], repeats._data.reshape(-1)[0]))
        elif repeats.shape[0] != x.shape[dim]:
            raise RuntimeError("repeats must have the same size as input along dim, but got repeats.size(0) = "
                               "%d and input.size(%d) = %d" % (repeats.shape[0], dim, x.shape[dim]))
        return x.index_select(dim, repeat_counts(repeats))
    if repeats < 0:
        raise RuntimeError("Repeats must be non-negative")
    shape = tuple(x.shape)
    out = x.unsqueeze(dim + 1).expand(*shape[:dim + 1], repeats, *shape[dim + 1:]).clone(
        memory_format=_dtype.contiguous_format)
    return out.view(*shape[:dim], shape[dim] * repeats, *shape[dim + 1:])
