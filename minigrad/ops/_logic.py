"""The Tensor methods whose results carry no gradient: comparisons, logic, tests and index queries.

``x < y``, ``x & y``, ``~x``, ``isnan``, ``isclose``, ``nonzero``, ``any``/``all``, ``count_nonzero``,
``argmax``/``argmin`` and ``bincount`` compute a bool or integer tensor directly on the arrays (PyTorch
records no node for them either).  ``TensorOps`` in ``_tensor_ops.py`` calls these.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _checks, _dtype
from ._args import is_tensor
from ._layout import contiguous
from ._util import check_broadcast, operand, promoted, wrap_dim
from .reduce import check_arg_reduction

if TYPE_CHECKING:
    from .._tensor import Tensor


def compare(x: Tensor, other: Any, fn: Callable[..., Any]) -> Any:
    """``fn(x, other)`` on the promoted arrays (``NotImplemented`` for an operand of another type)."""
    try:
        other = operand(other)
    except TypeError:
        return NotImplemented             # Python's own error (or, for == and !=, False and True)
    check_broadcast(x, other)
    a, b = promoted(x, other)
    return type(x)._make(np.asarray(fn(a, b)))


def bitwise(x: Tensor, other: Any, logical: Callable[..., Any], bits: Callable[..., Any]) -> Any:
    """``&``, ``|``, ``^``: logical on bools, bitwise on integers, PyTorch's error on floats."""
    try:
        other = operand(other)
    except TypeError:
        return NotImplemented
    check_broadcast(x, other)
    d = _dtype.result_type(x, other)
    if d.is_floating_point:
        raise NotImplementedError('"%s_cpu" not implemented for \'%s\'' % (bits.__name__, d._legacy))
    return compare(x, other, logical if d is _dtype.bool else bits)


def invert(x: Tensor) -> Tensor:
    if x.dtype.is_floating_point:
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
    return type(x)._make(np.logical_not(x._data) if x.dtype is _dtype.bool else np.invert(x._data))


def test(x: Tensor, fn: Callable[..., Any]) -> Tensor:
    """An elementwise test of the data (``np.isnan``, ``np.logical_not``...) as a tensor."""
    return type(x)._make(fn(x._data))


def count_nonzero(x: Tensor, dim: Any) -> Tensor:
    dim = None if dim is None else _checks.dims(dim, x.ndim, "count_nonzero")
    return type(x)._make(np.asarray(np.count_nonzero(x._data, axis=dim), dtype=np.int64))


def isclose(x: Tensor, other: Any, rtol: float, atol: float, equal_nan: bool) -> Tensor:
    check_broadcast(x, operand(other))
    return type(x)._make(np.isclose(x._data, operand(other)._data, rtol=rtol, atol=atol, equal_nan=equal_nan))


def allclose(x: Tensor, other: Any, rtol: float, atol: float, equal_nan: bool) -> bool:
    return bool(np.allclose(x._data, operand(other)._data, rtol=rtol, atol=atol, equal_nan=equal_nan))


def equal(x: Tensor, other: Tensor) -> bool:
    return x.shape == other.shape and bool(np.array_equal(x._data, other._data))


def nonzero(x: Tensor, as_tuple: bool) -> Any:
    """Indices of the non-zero elements: one row per element (``as_tuple``: one tensor per dim)."""
    found = np.nonzero(x._data) if x.ndim else np.nonzero(x._data.reshape(1))
    if as_tuple:
        return tuple(type(x)._make(i.astype(np.int64)) for i in found)
    return type(x)._make(np.stack(found, axis=1).astype(np.int64).reshape(-1, x.ndim))


def any_all(x: Tensor, fn: Callable[..., Any], dim: Any, keepdim: bool, name: str) -> Tensor:
    """``any``/``all`` (``fn`` is ``np.any``/``np.all``) over ``dim``: an int, a tuple of ints or None."""
    dim = None if dim is None else _checks.dims(dim, x.ndim, name)
    return type(x)._make(contiguous(np.asarray(fn(x._data, axis=dim, keepdims=keepdim))))   # row-major, as PyTorch's


def arg(x: Tensor, fn: Callable[..., Any], dim: Any, keepdim: bool, name: str) -> Tensor:
    """``argmax``/``argmin`` (``fn`` is ``np.argmax``/``np.argmin``): of the flattened tensor, or along ``dim``."""
    if dim is None:
        check_arg_reduction(name, x.shape, None)
        return type(x)._make(np.asarray(fn(x._data), dtype=np.int64))
    dim = wrap_dim(_checks.int_arg(dim, name, "dim", None), x.ndim)
    check_arg_reduction(name, x.shape, dim)
    out = fn(x._data, axis=dim)
    if keepdim:
        out = np.expand_dims(out, dim)
    return type(x)._make(np.asarray(out, dtype=np.int64))


def bincount(x: Tensor, weights: Tensor | None, minlength: int) -> Tensor:
    if x.dtype.is_floating_point:
        raise NotImplementedError('"bincount_cpu" not implemented for \'%s\'' % x.dtype._legacy)
    if x.ndim != 1 or x.dtype.name == "bool" or (x.numel() and x._data.min() < 0):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    w = None if weights is None else weights._data
    out = np.bincount(x._data, w, minlength)
    return type(x)._make(out if w is None else out.astype(np.float32 if w.dtype == np.float32 else np.float64))


def bitwise_function(x: Any, other: Any, name: str, fn: Callable[..., Any]) -> Tensor:
    """``torch.bitwise_xor(x, other)`` & co. (``fn`` is ``operator.xor``...): PyTorch's error for a float."""
    x = operand(x)
    if x.dtype.is_floating_point or (is_tensor(other) and other.dtype.is_floating_point) or \
            isinstance(other, float):
        bad = x.dtype if x.dtype.is_floating_point else (other.dtype if is_tensor(other)
                                                           else _dtype.get_default_dtype())
        raise NotImplementedError('"%s_cpu" not implemented for \'%s\'' % (name, bad._legacy))
    return fn(x, other)


def bitwise_not(x: Tensor) -> Tensor:
    if x.dtype.is_floating_point:
        raise NotImplementedError('"bitwise_not_cpu" not implemented for \'%s\'' % x.dtype._legacy)
    return ~x


def is_nonzero(x: Tensor) -> bool:
    if x.numel() != 1:
        raise RuntimeError("Boolean value of Tensor with %s values is ambiguous"
                           % ("no" if x.numel() == 0 else "more than one"))
    return bool(x.item())


def histogram_input(name: str, x: Tensor) -> np.ndarray:
    if not x.dtype.is_floating_point:
        raise NotImplementedError('"%s" not implemented for \'%s\'' % (name, x.dtype._legacy))
    return x._data


def histc(x: Tensor, bins: int, min: float, max: float) -> Tensor:
    """Counts in ``bins`` equal bins over [min, max] (the data's range when min == max); others ignored."""
    data = histogram_input("histogram_cpu", x)
    lo, hi = float(min), float(max)
    if lo == hi and data.size:
        lo, hi = float(data.min()), float(data.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if lo > hi:
        raise RuntimeError("torch.histc: max must be larger than min")
    if bins <= 0:
        raise RuntimeError("torch.histc: bins must be > 0, but got %d for dimension 0" % bins)
    counts, _ = np.histogram(data, bins=int(bins), range=(lo, hi))
    return type(x)._make(counts.astype(data.dtype))
