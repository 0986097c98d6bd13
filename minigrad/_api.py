"""torch-level functions and Tensor methods that tutorials use, built on the existing ops.

Comparison functions (``torch.eq``…), bitwise ops, ``histc``/``histogram``, the default device and
``torch.accelerator``.  (The in-place twins of unary ops, ``cos_``…, are methods in ``_tensor_ops.py``.)
"""

from __future__ import annotations

import operator
from collections import namedtuple
from collections.abc import Callable
from typing import Any, Protocol

import numpy as np

from . import linalg
from ._creation import _require_cpu, device, tensor, where
from ._tensor import Tensor
from .ops import _logic as C
from .ops import _shapes as Sh
from .ops._args import pytorch_qualnames
from .ops._out import with_out
from .ops._util import operand

__all__ = ["eq", "ne", "lt", "le", "gt", "ge", "greater", "less", "greater_equal", "less_equal", "not_equal",
           "bitwise_xor", "bitwise_and", "bitwise_or", "bitwise_not", "histc", "histogram", "set_default_device",
           "get_default_device", "is_nonzero", "det", "inverse", "svd", "slogdet", "logdet", "repeat_interleave"]


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


def _bitwise(name: str, op: Callable[[Any, Any], Any]) -> _BinaryOp:
    def fn(input: Tensor | float, other: Tensor | float, *, out: Tensor | None = None) -> Tensor:
        return C.bitwise_function(input, other, name, op)
    fn.__name__ = fn.__qualname__ = name
    return fn


bitwise_xor: _BinaryOp = _bitwise("bitwise_xor", operator.xor)
bitwise_and: _BinaryOp = _bitwise("bitwise_and", operator.and_)
bitwise_or: _BinaryOp = _bitwise("bitwise_or", operator.or_)


def bitwise_not(input: Tensor, *, out: Any = None) -> Tensor:
    return C.bitwise_not(input)


def is_nonzero(input: Tensor) -> bool:
    return C.is_nonzero(input)


def histc(input: Tensor, bins: int = 100, min: int = 0, max: int = 0, *, out: Any = None) -> Tensor:
    """Counts in ``bins`` equal bins over [min, max] (the data's range when min == max); others ignored."""
    return C.histc(input, bins, min, max)


_Histogram = namedtuple("histogram", ["hist", "bin_edges"])  # type: ignore[name-match]  # PyTorch's name


class _HistogramResult(_Histogram):
    def __repr__(self) -> str:
        return "torch.return_types.histogram(\nhist=%r,\nbin_edges=%r)" % (self.hist, self.bin_edges)


def histogram(input: Tensor, bins: int = 100, *, range: Any = None, weight: Tensor | None = None,
              density: bool = False, out: Any = None) -> Any:
    """``(hist, bin_edges)``: counts (or weights, or a density) in ``bins`` bins (a number or the edges)."""
    data = C.histogram_input("histogram_cpu", input)
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


# -- linear algebra (torch.det, torch.inverse, torch.svd, Tensor.det...) ---------------------------------------

def det(input: Tensor, *, out: Any = None) -> Tensor:
    return linalg.det(input)


def inverse(input: Tensor, *, out: Any = None) -> Tensor:
    return linalg.inv(input)


def svd(input: Tensor, some: bool = True, compute_uv: bool = True, *, out: Any = None) -> Any:
    return linalg._torch_svd(input, some, compute_uv)


def slogdet(input: Tensor, *, out: Any = None) -> Any:
    """The sign and the log of the absolute value of the determinant: ``(sign, logabsdet)``."""
    return linalg._torch_slogdet_result(*linalg.slogdet(input))


def logdet(input: Tensor) -> Tensor:
    """``log det A``: nan where the determinant is negative (from ``slogdet``, as PyTorch composes it)."""
    sign, logabsdet = linalg.slogdet(input)
    return where(sign == -1, tensor(float("nan"), dtype=logabsdet.dtype), logabsdet)



# Argument errors name a method as PyTorch's parser does: ``requires_grad_() got an unexpected keyword argument``
# (PyTorch's methods written in Python keep ``Tensor.``: ``Tensor.backward()``); TensorOps' methods: _tensor_ops.py.
pytorch_qualnames({"backward", "register_hook", "register_post_accumulate_grad_hook"}, public_only=True)(Tensor)


def repeat_interleave(input: Tensor, repeats: Any = None, dim: int | None = None, *,
                      output_size: int | None = None) -> Tensor:
    """``torch.repeat_interleave``: ``input.repeat_interleave(repeats, dim)``; with one argument, the
    indices ``0, 1, …`` each repeated ``input[i]`` times (``repeat_interleave(tensor([2, 1])) = [0, 0, 1]``)."""
    if repeats is None:
        return Sh.repeat_counts(input)
    return input.repeat_interleave(repeats, dim, output_size=output_size)
