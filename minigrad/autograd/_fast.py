"""Speed tricks of the backward engine, kept apart from the teaching path (engine.py).

Each is an optional shortcut next to the plain code it replaces; deleting this module's use
in engine.py leaves a slower engine with the same results.

* ``stealable``: store a leaf's first gradient as its ``.grad`` without copying it.  The plain
  version (what engine.py does when this returns None)::

      var.grad = Tensor(np.array(grad.data, copy=True))     # a copy the leaf owns

* ``quiet_set`` / ``quiet_reset``: numpy's floating-point warnings off and on again, at a tenth of the
  cost of the plain version, ``with np.errstate(all="ignore"): ...``.
* ``expand``: a gradient broadcast to a small shape as a new array; the plain version is
  ``np.broadcast_to(a, shape)``.
"""

from __future__ import annotations

import math
import sys
from typing import Any

import numpy as np

from .. import _tensor  # circular: `_tensor.Tensor` at call time

# NOTE [stealing the gradient]: like PyTorch's AccumulateGrad, the first gradient a leaf receives is
# stored as its .grad without a copy when nothing else can see it.  PyTorch asks the tensor's use
# count; CPython's reference counts answer the same question: the engine holds a gradient through
# exactly _ENGINE_REFS references on its way here (the input buffer, two locals, two arguments),
# and its array is referenced by that tensor alone.  Any other holder (a hook that kept it, the same
# gradient sent to two leaves, a view) adds a reference, and the gradient is copied instead.  Only
# on CPython versions whose counts are known to be exactly these: 3.11 to 3.13 (3.10 holds the
# references differently, 3.14 may borrow them); elsewhere every first gradient is copied.
_ENGINE_REFS = 5
STEAL_FROM = 1024       # elements: below, copying costs less than asking (and the teaching path stays plain)
_CAN_STEAL = sys.implementation.name == "cpython" and (3, 11) <= sys.version_info < (3, 14)


def stealable(grad: Any, var: Any) -> Any:
    """The tensor to store as ``var.grad`` without a copy, or None if the gradient must be copied."""
    if type(grad) is np.ndarray:
        return _stealable_array(grad, var)
    data = grad._data
    if not (_CAN_STEAL and grad.grad_fn is None and type(data) is np.ndarray and data.dtype == var._data.dtype
            and data.flags.writeable and data.flags.c_contiguous and var._data.flags.c_contiguous
            and sys.getrefcount(grad) == _ENGINE_REFS):
        return None
    base = grad._base
    if base is None:
        return grad if data.base is None and sys.getrefcount(data) == 3 else None   # grad._data, `data`, argument
    # A view of a tensor that only this view holds, itself the owner of its array: nn.Linear's weight
    # gradient, ``(gradᵀ @ x)ᵀ`` through TBackward0.  Kept as a plain (non-view) tensor.
    owner = base._data
    if (base._base is None and data.base is owner and owner.base is None and sys.getrefcount(base) == 3
            and sys.getrefcount(data) == 3 and sys.getrefcount(owner) == 4):     # base._data, data.base, `owner`
        return _tensor.Tensor._make(data, False)
    # The same when the tensor it views holds a transposed view of the product (a rule's plain backward,
    # ``(gᵀ @ x)ᵀ`` on arrays): the product is referenced by the two views' ``.base`` only.
    root = owner.base
    if (base._base is None and root is not None and data.base is root and root.base is None
            and sys.getrefcount(base) == 3 and sys.getrefcount(data) == 3 and sys.getrefcount(owner) == 3
            and sys.getrefcount(root) == 4):                                  # owner.base, data.base, `root`
        return _tensor.Tensor._make(data, False)
    return None


# A plain backward hands the engine raw arrays (no Tensor per gradient): the same question asked of the
# array.  The engine holds it through _ARRAY_REFS references on its way here (the input buffer; _accumulate_node's
# `grad`; _accumulate_into's `grad` and `data`; the arguments of stealable and of this function; getrefcount's own).
_ARRAY_REFS = 7


def _stealable_array(data: Any, var: Any) -> Any:
    if not (_CAN_STEAL and data.dtype == var._data.dtype and data.flags.writeable and data.flags.c_contiguous
            and var._data.flags.c_contiguous and sys.getrefcount(data) == _ARRAY_REFS):
        return None
    root = data.base
    if root is None:
        return _tensor.Tensor._make(data, False)
    # A view of all of an array that only this view holds (``(gᵀ @ x)ᵀ``, nn.Linear's weight gradient through
    # a transpose): numpy's ``base`` is the array that owns the memory (chains of views are collapsed).
    if type(root) is np.ndarray and root.base is None and root.size == data.size and sys.getrefcount(root) == 3:
        return _tensor.Tensor._make(data, False)                          # data.base, `root`, the argument
    return None


try:  # the context variable behind np.errstate, set directly: ``token = quiet_set(QUIET)`` ... ``quiet_reset(token)``
    from numpy._core._ufunc_config import _extobj_contextvar, _make_extobj  # type: ignore[attr-defined]
    QUIET, quiet_set, quiet_reset = _make_extobj(all="ignore"), _extobj_contextvar.set, _extobj_contextvar.reset
except ImportError:  # pragma: no cover - the public, slower way
    QUIET = None

    def quiet_set(_: Any) -> Any:
        errstate = np.errstate(all="ignore")
        errstate.__enter__()
        return errstate

    def quiet_reset(errstate: Any) -> None:
        errstate.__exit__(None, None, None)


def expand(a: Any, shape: Any) -> Any:
    """``np.broadcast_to(a, shape)``: a read-only view (the plain version) for a big shape; for a small one a
    new array filled with ``a`` -- numpy's broadcast_to is Python code that costs more than a few hundred copies
    (the same numbers; a gradient that is its own array may also become a leaf's ``.grad`` without a copy)."""
    if math.prod(shape) >= STEAL_FROM:
        return np.broadcast_to(a, shape)
    out = np.empty(shape, a.dtype)
    out[...] = a
    return out
