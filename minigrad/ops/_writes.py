"""The in-place methods of Tensor that check arguments first: ``add_``, ``lerp_``, ``masked_fill_``, ``fill_``...

Each computes its result out of place and writes it into the tensor through ``ops/inplace.inplace``
(the one place in-place semantics live: PyTorch's checks, the version bump, the new ``grad_fn``).
``ufunc=`` lets a plain write skip the out-of-place result (``np.add(x, y, out=x)``), ``fill=`` writes
without reading the old values.  ``TensorOps`` in ``_tensor_ops.py`` calls these.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _checks
from .._dtype import get_default_dtype
from ..autograd import grad_mode
from . import elementwise as E
from . import inplace as P
from ._args import c_type, clamp_args, is_number, is_tensor
from ._util import broadcast_shape, operand
from .index import MASKED_FILL_EXPANDED

if TYPE_CHECKING:
    from .._tensor import Tensor


def add_(x: Tensor, other: Any, alpha: Any) -> Tensor:
    return P.inplace(x, lambda t, y: E.Add.apply(t, y, alpha), (operand(other),), ufunc=np.add if alpha == 1 else None)


def sub_(x: Tensor, other: Any, alpha: Any) -> Tensor:
    return P.inplace(x, lambda t, y: E.Sub.apply(t, y, alpha), (operand(other),),
                     ufunc=np.subtract if alpha == 1 else None)


def div_(x: Tensor, other: Any) -> Tensor:
    return P.inplace(x, E.Div.apply, (operand(other),), ufunc=np.divide if x.is_floating_point() else None)


def check_clamp_scalars(x: Tensor, *bounds: Any) -> None:
    """``clamp_`` of an integer tensor with a float number: PyTorch's clamp(Scalar) kernel names the C++ type
    (``long int``), where other in-place ops (and a tensor bound) name the ScalarType (``Long``)."""
    if not x.dtype.is_floating_point and any(isinstance(b, float) for b in bounds):
        raise RuntimeError("result type %s can't be cast to the desired output type %s"
                           % (get_default_dtype()._legacy, c_type(x.dtype)))


def clamp_(x: Tensor, min: Any, max: Any) -> Tensor:
    clamp_args(min, max, "clamp_")
    check_clamp_scalars(x, min, max)
    return P.inplace(x, lambda t: E.Clamp.apply(t, min, max))


def lerp_(x: Tensor, end: Tensor, weight: Any) -> Tensor:
    """``x + weight * (end - x)`` in place; ``end`` (and a tensor ``weight``) must have ``x``'s dtype."""
    _checks.tensor_arg(end, "lerp_", "end")
    if end.shape != x.shape:
        broadcast_shape(x.shape, end.shape)
    for name, t in (("end", end), ("weight", weight)):
        if is_tensor(t) and t.dtype is not x.dtype:
            raise RuntimeError("expected dtype %s for `%s` but got dtype %s" % (c_type(x.dtype), name, c_type(t.dtype)))
    if is_tensor(weight):
        return P.inplace(x, lambda t, e, w: P.LerpTensor.apply(t, e, w), (operand(end), weight))
    return P.inplace(x, lambda t, e: P.Lerp.apply(t, e, weight), (operand(end),))




def masked_fill_(x: Tensor, mask: Tensor, value: Any) -> Tensor:
    where: Any = False                  # an expanded x: PyTorch warns, then writes where the mask is True
    expanded = P.has_overlap(x._data)
    if expanded and is_tensor(mask) and broadcast_shape(mask.shape, x.shape) == tuple(x.shape):
        where = np.broadcast_to(np.asarray(mask._data, dtype=bool), x.shape)

    def fill(t, *v):
        if expanded:                    # the kernel's warning: after autograd's checks (a view of a leaf raises)
            warnings.warn(MASKED_FILL_EXPANDED, UserWarning, stacklevel=5)
        if v:
            return E.MaskedFillTensor.apply(t, mask._data, v[0])
        return E.MaskedFill.apply(t, mask._data, value)
    return P.inplace(x, fill, (value,) if is_tensor(value) else (), fill=where)


def fill_(x: Tensor, value: Any) -> Tensor:
    if not is_tensor(value) and not is_number(value):
        raise TypeError(_checks.invalid_args("fill_", (value,), {}, ("Tensor value", "Number value"),
                                             (_checks.bad_types((value,)),) * 2))
    if is_tensor(value):
        if value.ndim:
            raise RuntimeError("fill_ only supports 0-dimension value tensor but got tensor with %d dimensions."
                               % value.ndim)
        return P.inplace(x, lambda t, v: P.FillTensor.apply(t, v), (value,))
    return P.inplace(x, lambda t: P.Fill.apply(t, value), fill=True)


def copy_(x: Tensor, src: Any) -> Tensor:
    src = _checks.tensor_arg(src, "copy_", "other")
    if src.shape != x.shape:
        shape = broadcast_shape(x.shape, src.shape)
        if shape != tuple(x.shape):
            raise RuntimeError("output with shape [%s] doesn't match the broadcast shape [%s]"
                               % (", ".join(map(str, x.shape)), ", ".join(map(str, shape))))
    return P.inplace(x, lambda t, s: P.Copy.apply(t, s), (src,))


def fill_random(t: Tensor, values: Any, node: str | None = None) -> Tensor:
    """Write drawn ``values`` into ``t`` (``uniform_``, ``normal_``...). On a tensor that requires grad, the write
    is recorded as PyTorch's node ``node`` (``NormalBackward0``: gradient 0); else data only, the version bumped."""
    if node is not None and t.requires_grad and grad_mode.is_grad_enabled():
        return P.inplace(t, lambda x: P.random_fill_node(node).apply(x, values), fill=True)
    with grad_mode.no_grad():
        P.inplace(t, lambda x: type(t)._make(np.asarray(values, dtype=x._data.dtype)))
    return t


def clamp_bound_(x: Any, name: str, bound: Any) -> Any:
    """``clamp_min_`` / ``clamp_max_``: PyTorch's scalar checks, then the op written into ``x``."""
    check_clamp_scalars(x, bound)
    return x._inplace(lambda t: getattr(t, name)(bound))
