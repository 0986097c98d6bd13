"""The reduction methods of Tensor: which op of ``ops/reduce.py`` a call means, and its arguments.

``x.sum()`` is ``SumBackward0`` and ``x.sum(0)`` is ``SumBackward1``; ``x.max()`` is a value,
``x.max(0)`` a ``(values, indices)`` pair and ``x.max(y)`` an elementwise maximum; ``dtype=`` converts
first.  ``TensorOps`` in ``_tensor_ops.py`` calls these.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import _checks
from . import reduce as R
from ._args import correction, is_tensor, reduce_dims

if TYPE_CHECKING:
    from .._tensor import Tensor


class Pair(tuple[Any, ...]):
    """``torch.return_types.max(values=..., indices=...)``."""

    name: str

    def __new__(cls, name: str, values: Tensor, indices: Tensor) -> Pair:
        self = super().__new__(cls, (values, indices))
        self.name = name
        return self

    @property
    def values(self) -> Tensor:
        return self[0]

    @property
    def indices(self) -> Tensor:
        return self[1]

    def __repr__(self) -> str:
        return "torch.return_types.%s(\nvalues=%r,\nindices=%r)" % (self.name, self[0], self[1])


def sum(x: Tensor, dim: Any, keepdim: bool, dtype: Any) -> Tensor:
    reduce_dims("sum", dim)
    x = x if dtype is None else x.to(dtype)
    if dim is None:
        return R.Sum.apply(x)
    return R.SumDim.apply(x, dim, keepdim)


def mean(x: Tensor, dim: Any, keepdim: bool, dtype: Any) -> Tensor:
    reduce_dims("mean", dim)
    if dtype is not None and not _checks.dtype_arg(dtype, "mean").is_floating_point:
        raise RuntimeError("mean(): could not infer output dtype. Optional dtype must be either a floating point "
                           "or complex dtype. Got: %s" % dtype._legacy)
    x = x if dtype is None else x.to(dtype)
    if dim is None:
        return R.Mean.apply(x)
    return R.MeanDim.apply(x, dim, keepdim)


def max(x: Tensor, dim: Any, keepdim: bool) -> Any:
    """The largest value, the largest along ``dim`` with its index, or (``dim`` a tensor) ``maximum``."""
    if dim is None:
        return R.MaxAll.apply(x)
    if is_tensor(dim):
        return x.maximum(dim)
    return Pair("max", *R.MaxDim.apply(x, dim, keepdim))


def min(x: Tensor, dim: Any, keepdim: bool) -> Any:
    """The smallest value, the smallest along ``dim`` with its index, or (``dim`` a tensor) ``minimum``."""
    if dim is None:
        return R.MinAll.apply(x)
    if is_tensor(dim):
        return x.minimum(dim)
    return Pair("min", *R.MinDim.apply(x, dim, keepdim))


def amax_amin(op: Any, x: Tensor, dim: Any, keepdim: bool, name: str) -> Tensor:
    return op.apply(x, () if dim is None else _checks.int_list(dim, name, "dim"), keepdim)


def median(x: Tensor, dim: Any, keepdim: bool) -> Any:
    if dim is None:
        return R.Median.apply(x)
    return Pair("median", *R.MedianDim.apply(x, dim, keepdim))


def cumulative(op: Any, x: Tensor, dim: Any, dtype: Any, name: str) -> Tensor:
    """``cumsum``/``cumprod`` (``op``) along ``dim``, after a conversion to ``dtype``."""
    dim = _checks.int_arg(dim, name, "dim")
    return op.apply(x if dtype is None else x.to(dtype), dim)


def logsumexp(x: Tensor, dim: Any, keepdim: bool) -> Tensor:
    if not _checks.is_int(dim):
        _checks.int_list(dim, "logsumexp", "dim")
    return R.LogSumExp.apply(x, dim, keepdim)


def softmax(op: Any, x: Tensor, dim: Any, dtype: Any, name: str) -> Tensor:
    """``softmax``/``log_softmax`` (``op``) along ``dim``, after a conversion to ``dtype``."""
    dim = _checks.int_arg(dim, name, "dim")
    _checks.dtype_arg(dtype, name)
    return op.apply(x if dtype is None else x.to(dtype), dim)


def var_std(op: Any, x: Tensor, dim: Any, unbiased: Any, keepdim: bool, correction_: Any, name: str) -> Tensor:
    """``var``/``std`` (``op``) with ``unbiased=`` or ``correction=`` (not both)."""
    return op.apply(x, dim, correction(unbiased, correction_, name, dim), keepdim)


def prod(x: Tensor, dim: Any, keepdim: bool) -> Tensor:
    if dim is None:
        return R.Prod.apply(x)
    return R.ProdDim.apply(x, dim, keepdim)


def norm(x: Tensor, p: Any, dim: Any, keepdim: bool) -> Tensor:
    """A vector p-norm (``"fro"`` and None are the 2-norm); ``"nuc"`` is ``linalg.matrix_norm`` over ``dim``
    (all dims when None), as ``torch.norm`` does."""
    if isinstance(p, str) and p not in ("fro", "nuc"):
        raise RuntimeError("linalg.matrix_norm: Order %s not supported." % p)
    if p == "nuc":
        from .. import linalg  # at call time: minigrad.linalg (torch.linalg) is a higher layer
        return linalg.matrix_norm(x, "nuc", list(range(x.ndim)) if dim is None else dim, keepdim)
    p = 2 if p in ("fro", None) else p
    return R.Norm.apply(x, float(p), dim, keepdim)


def sort(x: Tensor, dim: int, descending: bool, stable: bool | None = None) -> Pair:
    # stable= given (even False): PyTorch's sort.stable overload, SortBackward1
    return Pair("sort", *(R.Sort if stable is None else R.SortStable).apply(x, dim, descending))


def topk(x: Tensor, k: Any, dim: Any, largest: bool) -> Pair:
    k, dim = _checks.int_arg(k, "topk", "k"), _checks.int_arg(dim, "topk", "dim", 2)
    return Pair("topk", *R.Topk.apply(x, k, dim, largest))


def unique(x: Tensor, return_inverse: bool, return_counts: bool, dim: Any) -> Any:
    """The distinct values, sorted (also for ``sorted=False``, as PyTorch does on the CPU)."""
    values, inverse, counts = (R.Unique if dim is None else R.UniqueDim).apply(x, dim)
    extra = (inverse,) * return_inverse + (counts,) * return_counts
    return (values, *extra) if extra else values
