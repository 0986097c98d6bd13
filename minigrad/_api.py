"""torch-level functions and Tensor methods that tutorials use, built on the existing ops.

Comparison functions (``torch.eq``…), bitwise ops, ``histc``/``histogram``, the default device and
``torch.accelerator``.  (The in-place twins of unary ops, ``cos_``…, are methods in ``_tensor_ops.py``.)
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable
from typing import Any, Protocol

import numpy as np

from . import _dtype, linalg
from ._creation import _require_cpu, device, tensor, where
from ._tensor import Tensor
from .ops._out import with_out
from .ops._util import operand

__all__ = ["eq", "ne", "lt", "le", "gt", "ge", "greater", "less", "greater_equal", "less_equal", "not_equal",
           "bitwise_xor", "bitwise_and", "bitwise_or", "bitwise_not", "histc", "histogram", "set_default_device",
           "get_default_device", "is_nonzero", "det", "inverse", "svd", "slogdet", "logdet"]


class _BinaryOp(Protocol):
    """``torch.eq`` & co.: ``(input, other, *, out=None) -> Tensor``."""

    def __call__(self, input: Tensor | float, other: Tensor | float, *, out: Tensor | None = None) -> Tensor: ...


def _binary(name: str, method: str) -> _BinaryOp:
    def compute(input: Tensor | float, other: Tensor | float) -> Tensor:
        return getattr(operand(input), method)(other)
    compute.__name__ = compute.__qualname__ = name      # argument errors name the function: `eq() missing ...`
    fn = with_out(name, compute)
    fn.__doc__ = "``torch.%s(input, other)``: the same as ``input.%s(other)``." % (name, method)
    return fn


eq: _BinaryOp = _binary("eq", "__eq__")
ne: _BinaryOp = _binary("ne", "__ne__")
lt: _BinaryOp = _binary("lt", "__lt__")
le: _BinaryOp = _binary("le", "__le__")
gt: _BinaryOp = _binary("gt", "__gt__")
ge: _BinaryOp = _binary("ge", "__ge__")
greater: _BinaryOp = gt
less: _BinaryOp = lt
greater_equal: _BinaryOp = ge
less_equal: _BinaryOp = le
not_equal: _BinaryOp = ne


def _bitwise(name: str, op: Callable[[Tensor, Any], Tensor]) -> _BinaryOp:
    def fn(input: Tensor | float, other: Tensor | float, *, out: Tensor | None = None) -> Tensor:
        x = operand(input)
        if x.dtype.is_floating_point or (isinstance(other, Tensor) and other.dtype.is_floating_point) or \
                isinstance(other, float):
            bad = x.dtype if x.dtype.is_floating_point else (other.dtype if isinstance(other, Tensor)
                                                               else _dtype.get_default_dtype())
            raise NotImplementedError('"%s_cpu" not implemented for \'%s\'' % (name, bad._legacy))
        return op(x, other)
    fn.__name__ = fn.__qualname__ = name
    return fn


bitwise_xor: _BinaryOp = _bitwise("bitwise_xor", lambda x, y: x ^ y)
bitwise_and: _BinaryOp = _bitwise("bitwise_and", lambda x, y: x & y)
bitwise_or: _BinaryOp = _bitwise("bitwise_or", lambda x, y: x | y)


def bitwise_not(input: Tensor, *, out: Any = None) -> Tensor:
    if input.dtype.is_floating_point:
        raise NotImplementedError('"bitwise_not_cpu" not implemented for \'%s\'' % input.dtype._legacy)
    return ~input


def is_nonzero(input: Tensor) -> bool:
    if input.numel() != 1:
        raise RuntimeError("Boolean value of Tensor with %s values is ambiguous"
                           % ("no" if input.numel() == 0 else "more than one"))
    return bool(input.item())


def _histogram_input(name, input):
    if not input.dtype.is_floating_point:
        raise NotImplementedError('"%s" not implemented for \'%s\'' % (name, input.dtype._legacy))
    return input._data


def histc(input: Tensor, bins: int = 100, min: int = 0, max: int = 0, *, out: Any = None) -> Tensor:
    """Counts in ``bins`` equal bins over [min, max] (the data's range when min == max); others ignored."""
    data = _histogram_input("histogram_cpu", input)
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
    return Tensor._make(counts.astype(data.dtype))


_Histogram = namedtuple("histogram", ["hist", "bin_edges"])  # type: ignore[name-match]  # PyTorch's name


class _HistogramResult(_Histogram):
    def __repr__(self) -> str:
        return "torch.return_types.histogram(\nhist=%r,\nbin_edges=%r)" % (self.hist, self.bin_edges)


def histogram(input: Tensor, bins: int = 100, *, range: Any = None, weight: Tensor | None = None,
              density: bool = False, out: Any = None) -> Any:
    """``(hist, bin_edges)``: counts (or weights, or a density) in ``bins`` bins (a number or the edges)."""
    data = _histogram_input("histogram_cpu", input)
    edges = bins._data if isinstance(bins, Tensor) else int(bins)
    if range is None and not isinstance(bins, Tensor) and data.size:
        range = (float(data.min()), float(data.max()))
    w = None if weight is None else weight._data
    hist, bin_edges = np.histogram(data, bins=edges, range=range, weights=w, density=density)
    return _HistogramResult(Tensor._make(hist.astype(data.dtype)), Tensor._make(bin_edges.astype(data.dtype)))


_default_device = device("cpu")


def set_default_device(d: Any) -> None:
    """Only the CPU exists here: ``set_default_device("cpu")`` (or ``None``) is accepted."""
    global _default_device
    if d is None:
        _default_device = device("cpu")
        return
    _require_cpu(d)
    _default_device = device(d)


def get_default_device() -> device:
    return _default_device


# -- Tensor methods --------------------------------------------------------------------------------------

for _name, _fn in (("bitwise_xor", bitwise_xor), ("bitwise_and", bitwise_and), ("bitwise_or", bitwise_or),
                   ("bitwise_not", bitwise_not), ("histc", histc), ("is_nonzero", is_nonzero)):
    if not hasattr(Tensor, _name):
        setattr(Tensor, _name, _fn)
del _name, _fn


# -- linear algebra (torch.det, torch.inverse, torch.svd, Tensor.det...) ---------------------------------------

def _linalg():
    return linalg


def det(input: Tensor, *, out: Any = None) -> Tensor:
    return _linalg().det(input)


def inverse(input: Tensor, *, out: Any = None) -> Tensor:
    return _linalg().inv(input)


def svd(input: Tensor, some: bool = True, compute_uv: bool = True, *, out: Any = None) -> Any:
    return _linalg()._torch_svd(input, some, compute_uv)


def slogdet(input: Tensor, *, out: Any = None) -> Any:
    """The sign and the log of the absolute value of the determinant: ``(sign, logabsdet)``."""
    linalg = _linalg()
    return linalg._torch_slogdet_result(*linalg.slogdet(input))


def logdet(input: Tensor) -> Tensor:
    """``log det A``: nan where the determinant is negative (from ``slogdet``, as PyTorch composes it)."""
    sign, logabsdet = _linalg().slogdet(input)
    return where(sign == -1, tensor(float("nan"), dtype=logabsdet.dtype), logabsdet)


_linalg_method: Any
for _name, _linalg_method in (("det", det), ("inverse", inverse), ("svd", svd), ("slogdet", slogdet),
                              ("logdet", logdet)):
    if not hasattr(Tensor, _name):
        setattr(Tensor, _name, _linalg_method)
del _name, _linalg_method


# Argument errors name a method as PyTorch's parser does: ``requires_grad_() got an unexpected keyword argument``
# (PyTorch's methods written in Python keep ``Tensor.``: ``Tensor.backward()``). See also _tensor_ops.py.
_PYTHON_IN_TORCH = {"backward", "register_hook", "register_post_accumulate_grad_hook"}
for _name, _method in list(vars(Tensor).items()):
    if getattr(_method, "__qualname__", None) == "Tensor." + _name and not _name.startswith("_") \
            and _name not in _PYTHON_IN_TORCH:
        _method.__qualname__ = _name
del _name, _method
