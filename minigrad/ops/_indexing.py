"""The indexing methods of Tensor: ``x[key]``, ``x[key] = v``, ``gather``, ``scatter``, ``index_select``...

Basic indexing records one view op per index item (``SliceBackward0``, ``SelectBackward0``,
``UnsqueezeBackward0``), as PyTorch does; advanced indexing is one ``IndexBackward0``.  The ops are in
``ops/index.py``; ``TensorOps`` in ``_tensor_ops.py`` calls these.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import _checks
from . import index as I
from . import inplace as P
from . import shape as S
from ._args import check_step, is_tensor
from ._util import broadcast_shape, wrap_dim

if TYPE_CHECKING:
    from .._tensor import Tensor


def getitem(x: Tensor, key: Any) -> Tensor:
    if isinstance(key, slice):            # one slice: always a SliceBackward0 (even x[:]), as in PyTorch
        check_step(key)
        if x.ndim == 0:
            raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                             "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
        return I.Slice.apply(x, (key,))
    key, advanced = I.normalize_key(key, x.shape)
    if advanced:                          # the basic items first, as views; then the index arrays
        I.check_advanced(key, x.shape)
        view, key = I.split_key(x, key)
        I.check_advanced(key, view.shape)
        return I.Index.apply(view, key)
    I.check_bounds(key, x.shape)
    out, dim = x, 0
    for item in key:                  # basic indexing: one view op per index item, as PyTorch records
        if item is None:
            out = out.unsqueeze(dim)
            dim += 1
        elif item is Ellipsis:
            dim = out.ndim - sum(1 for k in key[key.index(Ellipsis) + 1:] if k is not None and k is not Ellipsis)
        elif isinstance(item, slice):
            if not I.whole(item, out.shape[dim]):
                check_step(item)
                out = I.Slice.apply(out, (slice(None),) * dim + (item,))
            dim += 1
        else:
            out = I.Select.apply(out, (slice(None),) * dim + (int(item),))
    if out is x:                          # x[...], x[:, :]: PyTorch returns an alias (AliasBackward0)
        out = S.Alias.apply(x)
    return out


def setitem(x: Tensor, key: Any, value: Any) -> None:
    """``x[key] = value``: ``CopySlices`` (basic) or ``IndexPutBackward0`` (advanced), written in place
    (``ops/index.py``'s ``setitem``, PyTorch's ``set_item``)."""
    I.setitem(x, key, value)


def gather(x: Tensor, dim: Any, index: Tensor) -> Tensor:
    dim = _checks.int_arg(dim, "gather", "dim")
    _checks.tensor_arg(index, "gather", "index", 2)
    return I.TakeAlongDim.apply(x, wrap_dim(dim, max(x.ndim, 1)), index._data)


def scatter(x: Tensor, dim: Any, index: Tensor, src: Any, value: Any) -> Tensor:
    """A copy with ``src``'s values (or the number ``value``) written at ``index`` along ``dim``."""
    dim = wrap_dim(_checks.int_arg(dim, "scatter", "dim"), max(x.ndim, 1))
    if is_tensor(src):
        return I.Scatter.apply(x, src, dim, index._data)
    return I.ScatterValue.apply(x, dim, index._data, value if src is None else src)


def scatter_(x: Tensor, dim: Any, index: Tensor, src: Any, value: Any) -> Tensor:
    if is_tensor(src):
        return P.inplace(x, lambda t, s: t.scatter(dim, index, s), (src,))
    return P.inplace(x, lambda t: t.scatter(dim, index, src, value=value))


def scatter_add(x: Tensor, dim: Any, index: Tensor, src: Tensor) -> Tensor:
    """A copy with ``src``'s values added at ``index`` along ``dim`` (repeated indices add up)."""
    dim = _checks.int_arg(dim, "scatter_add", "dim")
    return I.ScatterAdd.apply(x, src, wrap_dim(dim, max(x.ndim, 1)), index._data)


def index_select(x: Tensor, dim: Any, index: Tensor) -> Tensor:
    dim = _checks.int_arg(dim, "index_select", "dim")
    _checks.tensor_arg(index, "index_select", "index", 2)
    return I.IndexSelect.apply(x, wrap_dim(dim, max(x.ndim, 1)), index._data)


def masked_select(x: Tensor, mask: Tensor) -> Tensor:
    _checks.tensor_arg(mask, "masked_select", "mask")
    if mask.shape != x.shape:
        broadcast_shape(mask.shape, x.shape)
    return I.MaskedSelect.apply(x, mask._data)
