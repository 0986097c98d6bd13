"""The conversion methods of Tensor: ``to``, ``type``, ``new_tensor``.

``x.to(dtype)`` is ``ToCopyBackward0`` (``ops/elementwise.py``), or ``x`` itself when nothing changes,
as in PyTorch.  ``TensorOps`` in ``_tensor_ops.py`` calls these.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

from .. import _dtype
from . import elementwise as E
from ._args import is_tensor

if TYPE_CHECKING:
    from .._tensor import Tensor


def to(x: Tensor, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Tensor:
    """``x.to(dtype)``, ``x.to(other)``, ``x.to("cpu")``, ``x.to(dtype=..., copy=True)``: only the CPU exists."""
    from .._creation import _require_cpu, device  # at call time: _creation needs Tensor, whose module imports this one
    dtype = kwargs.get("dtype")
    _require_cpu(kwargs.get("device"))
    for a in args:
        if isinstance(a, _dtype.dtype):
            dtype = a
        elif is_tensor(a):
            dtype = a.dtype
        elif isinstance(a, (str, device)):
            _require_cpu(a)
    if dtype is None or dtype is x.dtype:
        return E.ToCopy.apply(x, x.dtype) if kwargs.get("copy") else x   # copy=True: always a copy
    return E.ToCopy.apply(x, dtype)


def type_(x: Tensor, dtype: Any) -> Any:
    """``x.type()`` is the legacy name (``'torch.FloatTensor'``); ``x.type(t)`` converts to ``t``, which may
    be a dtype, a legacy class (``torch.DoubleTensor``) or its name."""
    if dtype is None:
        return "torch.%sTensor" % x.dtype._legacy
    if isinstance(dtype, str):
        name = dtype
        dtype = next((d for d in _dtype._ALL if "torch.%sTensor" % d._legacy == name), None)
        if dtype is None:
            raise ValueError("invalid type: '%s'" % name)
    elif not isinstance(dtype, (_dtype.dtype, type)):
        raise TypeError("dtype must be a type, str, or dtype object")
    return x.to(getattr(dtype, "dtype", dtype))


def new_tensor(x: Tensor, data: Any, dtype: Any, requires_grad: bool) -> Tensor:
    """A new leaf from ``data`` with ``x``'s dtype (PyTorch warns when ``data`` is a tensor)."""
    from .._creation import tensor  # at call time: _creation needs Tensor, whose module imports this one
    if is_tensor(data):
        warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
                      "sourceTensor.detach().clone().requires_grad_(True), rather than "
                      "tensor.new_tensor(sourceTensor).", UserWarning, stacklevel=3)
        data = data._data
    return tensor(data, dtype=dtype or x.dtype, requires_grad=requires_grad)


def memory_layout(memory_format: Any, fn: str, ndim: int) -> str | None:
    """``clone``/``contiguous``'s ``memory_format=`` as ``Clone``'s layout: None (preserve), "contiguous" or
    "channels_last" (4-d only, as in PyTorch)."""
    if memory_format is None or memory_format is _dtype.preserve_format:
        return None
    if not isinstance(memory_format, _dtype.memory_format):
        raise TypeError("%s(): argument 'memory_format' must be torch.memory_format, not %s"
                        % (fn, type(memory_format).__name__))
    if memory_format is _dtype.channels_last:
        if ndim != 4:
            raise RuntimeError("required rank 4 tensor to use channels_last format")
        return "channels_last"
    return "contiguous"


def contiguous(x: Tensor, memory_format: Any) -> Tensor:
    """``x`` itself when already laid out as asked, else a copy (``CloneBackward0``)."""
    layout = memory_layout(memory_format, "contiguous", x.dim()) or "contiguous"
    if x.is_contiguous(memory_format=_dtype.channels_last if layout == "channels_last" else None):
        return x
    return E.Clone.apply(x, layout)


def clone(x: Tensor, memory_format: Any) -> Tensor:
    layout = memory_layout(memory_format, "clone", x.dim())
    return E.Clone.apply(x) if layout is None else E.Clone.apply(x, layout)
