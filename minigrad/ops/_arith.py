"""The arithmetic methods of Tensor (``x + y``, ``x // y``, ``x.div(y, rounding_mode=...)``, ``x.clamp``...).

What a method does before its op in ``ops/elementwise.py``: read the operand, give Python's
``NotImplemented`` for one of another type (so Python raises its own ``unsupported operand type(s)``, as
PyTorch does), and PyTorch's errors for bad arguments.  ``TensorOps`` in ``_tensor_ops.py`` calls these.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _checks, _tensor  # _tensor is still loading: use `_tensor.Tensor` at call time
from ..autograd.graph import _ACCUMULATE_SEQUENCE_NR
from . import elementwise as E
from ._args import MASK_BAD, clamp_args, is_number, is_tensor
from ._util import broadcast_shape, operand, promoted

if TYPE_CHECKING:
    from .._tensor import Tensor


def binary(op: Any, x: Tensor, other: Any) -> Any:
    """``op.apply(x, other)``, or ``NotImplemented`` for an operand that is not a tensor or a number."""
    try:
        other = operand(other)
    except TypeError:
        return NotImplemented
    return op.apply(x, other)


def rtruediv(x: Tensor, other: Any) -> Any:
    """``other / x`` as ``other * (1 / x)``, the two nodes PyTorch records."""
    try:
        other = operand(other)
    except TypeError:
        return NotImplemented
    return E.Mul.apply(E.Reciprocal.apply(x), other)


def rsub(x: Tensor, other: Any) -> Any:
    if not is_number(other):
        return NotImplemented
    return E.Rsub.apply(x, other)


def int_div(fn: Callable[..., Any], x: Any, y: Any) -> Any:
    """``//`` and ``%`` (no gradient), with PyTorch's error for an integer division by zero."""
    try:
        x, y = operand(x), operand(y)
    except TypeError:
        return NotImplemented
    if fn is np.floor_divide and (x.requires_grad or y.requires_grad):
        out = E.FloorDivide.apply(x, y)      # PyTorch records a node whose backward raises ...
        if out.grad_fn is not None:          # ... with AccumulateGrad's sequence number (UINT64_MAX), so the
            out.grad_fn._seq = _ACCUMULATE_SEQUENCE_NR  # engine runs it as soon as it is ready: it raises
        return out                           # before the other branches accumulate into any .grad
    a, b = promoted(x, y)
    if b.dtype.kind in "iub" and not np.all(b):
        raise RuntimeError("ZeroDivisionError")
    with np.errstate(divide="ignore", invalid="ignore"):
        return _tensor.Tensor._make(np.asarray(fn(a, b)))


def mod(x: Tensor, other: Any) -> Any:
    """``x % other``: a number takes its own op (``RemainderBackward0`` with one input)."""
    if is_number(other) and not isinstance(other, np.ndarray):
        return E.RemainderScalar.apply(x, other)
    return binary(E.Remainder, x, other)


def power(x: Tensor, exponent: Any) -> Any:
    """``x ** exponent``: a tensor exponent, a number exponent, or ``NotImplemented``."""
    if is_tensor(exponent):
        return E.PowTensor.apply(x, exponent)
    if not is_number(exponent):
        return NotImplemented
    if type(exponent) is int and exponent < 0 and x._data.dtype.kind in "iub":
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    return E.Pow.apply(x, exponent)


def rpow(x: Tensor, base: Any) -> Any:
    if not is_number(base):
        return NotImplemented
    return E.PowScalarBase.apply(base, x)


def index(x: Tensor) -> int:
    """``operator.index(x)``: a one-element integer tensor as an int."""
    if x._data.size != 1 or x._data.dtype.kind not in "iu":
        raise TypeError("only integer tensors of a single element can be converted to an index")
    return int(x._data.reshape(()))


def div(x: Tensor, other: Any, rounding_mode: str | None) -> Tensor:
    if rounding_mode in ("floor", "trunc"):
        return E.DivRounding.apply(x, operand(other), rounding_mode)
    return x / other


def round(x: Tensor, decimals: int) -> Tensor:
    """``round(decimals=d)`` as PyTorch composes it: scale, round half to even, scale back."""
    if decimals:
        return (x * 10.0 ** decimals).round() / 10.0 ** decimals
    return E.Round.apply(x)


def clamp(x: Tensor, min: Any, max: Any) -> Tensor:
    clamp_args(min, max)
    if is_tensor(min) or is_tensor(max):       # PyTorch's clamp.Tensor overload: the bounds get gradients
        return E.clamp_tensor(x, min, max)
    return E.Clamp.apply(x, min, max)


def clamp_min(x: Tensor, min: Any) -> Tensor:
    return E.ClampMinTensor.apply(x, min) if is_tensor(min) else E.ClampMin.apply(x, min, None)


def clamp_max(x: Tensor, max: Any) -> Tensor:
    return E.ClampMaxTensor.apply(x, max) if is_tensor(max) else E.ClampMax.apply(x, None, max)


def masked_fill(x: Tensor, mask: Tensor, value: Any) -> Tensor:
    _checks.tensor_arg(mask, "masked_fill", "mask")
    if mask.shape != x.shape:
        broadcast_shape(mask.shape, x.shape)
    if not is_tensor(value) and not is_number(value):
        raise TypeError(_checks.invalid_args("masked_fill", (mask, value), {}, (
            "Tensor mask, Tensor value", "Tensor mask, Number value"), (MASK_BAD % type(value).__name__,) * 2))
    if is_tensor(value):
        return E.MaskedFillTensor.apply(x, mask._data, value)
    return E.MaskedFill.apply(x, mask._data, value)


def outer(x: Tensor, other: Tensor) -> Tensor:
    """The outer product of two vectors: ``x`` as a column times ``other``."""
    for name, t in (("self", x), ("vec2", _checks.tensor_arg(other, "outer", "vec2"))):
        if t.ndim != 1:
            raise RuntimeError("outer: Expected 1-D argument %s, but got %d-D" % (name, t.ndim))
    return x.reshape(-1, 1) * other
