"""``torch.functional``: the torch-level functions PyTorch writes in Python (``meshgrid``, ``cartesian_prod``, …).

>>> import minigrad as torch
>>> x, y = torch.meshgrid(torch.tensor([1, 2, 3]), torch.tensor([4, 5]), indexing="ij")
>>> x
tensor([[1, 1],
        [2, 2],
        [3, 3]])
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ._creation import stack
from ._size import Size
from ._tensor import Tensor
from .ops import linalg

if TYPE_CHECKING:
    from ._dtype import dtype
    from ._size import Size

__all__ = ["meshgrid", "cartesian_prod", "broadcast_shapes", "einsum", "split", "norm", "unique", "tensordot",
           "atleast_1d", "atleast_2d", "atleast_3d"]


def meshgrid(*tensors: Tensor | Sequence[Tensor], indexing: str | None = None) -> tuple[Tensor, ...]:
    """Coordinate grids: output ``i`` is input ``i`` viewed along dim ``i`` and expanded to the full grid.

    ``indexing='ij'`` (matrix) puts input i along dim i; ``'xy'`` (Cartesian) swaps the first two dims.
    Without ``indexing`` PyTorch warns and uses ``'ij'``. Each output is an expanded view
    (``ExpandBackward0`` after ``ViewBackward0``), so gradients flow back to the inputs.
    """
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:
        warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.",
                      UserWarning, stacklevel=2)
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError('torch.meshgrid: indexing must be one of "xy" or "ij", but received: %s' % indexing)
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for t in tensors:
        if t.dtype is not tensors[0].dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
        if t.ndim > 1:
            raise RuntimeError("torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: %s" % t)
    swap = indexing == "xy" and len(tensors) >= 2
    order = list(range(len(tensors)))
    if swap:
        order[0], order[1] = 1, 0
    shape = [tensors[i].numel() for i in order]
    out = []
    for i, t in enumerate(tensors):
        dim = order.index(i)
        view_shape = [1] * len(tensors)
        view_shape[dim] = -1
        out.append(t.view(*view_shape).expand(*shape))
    return tuple(out)


def cartesian_prod(*tensors: Tensor) -> Tensor:
    """All combinations of the inputs' elements, one per row (``itertools.product`` order)."""

    if len(tensors) == 1:
        return tensors[0]
    grids = meshgrid(*tensors, indexing="ij")
    return stack([g.flatten() for g in grids], dim=1)


def broadcast_shapes(*shapes: int | Sequence[int]) -> Size:
    """The shape the given shapes broadcast to (``torch.Size``)."""


    try:
        return Size(np.broadcast_shapes(*[(s,) if isinstance(s, int) else tuple(s) for s in shapes]))
    except ValueError:
        raise RuntimeError("Shape mismatch: objects cannot be broadcast to a single shape") from None


def atleast_1d(*tensors: Tensor | Sequence[Tensor]) -> Any:
    out = tuple(t if t.ndim >= 1 else t.reshape(1) for t in _flat(tensors))
    return out[0] if len(out) == 1 else out


def atleast_2d(*tensors: Tensor | Sequence[Tensor]) -> Any:
    # as PyTorch: a 0-d tensor is reshaped (ViewBackward0), a vector unsqueezed (UnsqueezeBackward0)
    out = tuple(t if t.ndim >= 2 else t.unsqueeze(0) if t.ndim == 1 else t.reshape(1, 1) for t in _flat(tensors))
    return out[0] if len(out) == 1 else out


def atleast_3d(*tensors: Tensor | Sequence[Tensor]) -> Any:
    def lift(t):
        if t.ndim >= 3:
            return t
        if t.ndim == 2:
            return t.unsqueeze(-1)
        return t.unsqueeze(0).unsqueeze(-1) if t.ndim == 1 else t.reshape(1, 1, 1)
    out = tuple(lift(t) for t in _flat(tensors))
    return out[0] if len(out) == 1 else out


def _flat(tensors):
    return tuple(tensors[0]) if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)) else tensors


def einsum(*args: Any) -> Tensor:
    return linalg.einsum(*args)


def split(tensor: Tensor, split_size_or_sections: int | Sequence[int], dim: int = 0) -> tuple[Tensor, ...]:
    return tensor.split(split_size_or_sections, dim)


def norm(input: Tensor, p: float | str | None = "fro", dim: int | Sequence[int] | None = None, keepdim: bool = False,
         dtype: dtype | None = None) -> Tensor:
    return input.norm(p, dim, keepdim) if dtype is None else input.norm(p, dim, keepdim, dtype=dtype)  # type: ignore[call-arg]  # Tensor.norm has no dtype: a bug


def unique(input: Tensor, sorted: bool = True, return_inverse: bool = False, return_counts: bool = False,
           dim: int | None = None) -> Any:
    return input.unique(sorted=sorted, return_inverse=return_inverse, return_counts=return_counts, dim=dim)


def tensordot(a: Tensor, b: Tensor, dims: int | Sequence[Sequence[int]] = 2) -> Tensor:
    """Sum of products over ``dims`` (a number: the last of ``a`` with the first of ``b``; or two lists).

    As PyTorch's: a contracted dim of size 1 on one side is summed out of the other first (broadcast), then
    both are permuted and reshaped into matrices for one ``mm``, and its result reshaped to the free dims.
    """
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError("tensordot expects dims >= 0, but got dims=%d" % dims)
        if dims > a.ndim or dims > b.ndim:
            raise RuntimeError("tensordot expects dims < ndim_a or ndim_b, but got dims=%d" % dims)
        given_a, given_b = list(range(-dims, 0)), list(range(dims))
    else:
        given_a, given_b = [list(d) if isinstance(d, (list, tuple)) else [d] for d in dims]
    if len(given_a) != len(given_b):
        raise RuntimeError("both dimension lists should have same length")
    if a.dtype is not b.dtype:
        raise RuntimeError("both inputs should have same dtype")
    da = [d % a.ndim if a.ndim else 0 for d in given_a]
    db = [d % b.ndim if b.ndim else 0 for d in given_b]
    t1, t2, k = a, b, 1
    for d1, d2, g1, g2 in zip(da, db, given_a, given_b):
        s1, s2 = a.shape[d1], b.shape[d2]
        if s2 == 1:                          # broadcast dims are summed right away
            t1 = t1.sum(d1, True)
        elif s1 == 1:
            t2 = t2.sum(d2, True)
        elif s1 != s2:
            raise RuntimeError("contracted dimensions need to match, but first has size %d in dim %d and second "
                               "has size %d in dim %d" % (s1, g1, s2, g2))
        else:
            k *= s1
    keep_a = [d for d in range(a.ndim) if d not in da]
    keep_b = [d for d in range(b.ndim) if d not in db]
    size1 = size2 = 1
    for d in keep_a:
        size1 *= t1.shape[d]
    for d in keep_b:
        size2 *= t2.shape[d]
    left = t1.permute(keep_a + da).reshape(size1, k)
    right = t2.permute(db + keep_b).reshape(k, size2)
    return left.mm(right).reshape([t1.shape[d] for d in keep_a] + [t2.shape[d] for d in keep_b])
