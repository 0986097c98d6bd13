"""PyTorch's ``out=`` argument of the ``torch.*`` functions: ``torch.add(a, b, out=c)`` writes into ``c``."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import _tensor  # _tensor is still loading: use `_tensor.Tensor` at call time
from ..autograd import grad_mode


def with_out(name: str, compute: Callable[..., Any]) -> Callable[..., Any]:
    """``torch.<name>`` as ``compute`` plus PyTorch's ``out=``: given an ``out``, the result is written into it.

    The one wrapper around ``write_out`` (``torch.add(a, b, out=c)``, ``torch.eq(a, b, out=c)``,
    ``torch.matmul(a, b, out=c)``); without ``out`` it is ``compute(*args, **kwargs)``."""
    def fn(*args: Any, out: Any = None, **kwargs: Any) -> Any:
        if out is None:
            return compute(*args, **kwargs)
        return write_out(name, lambda: compute(*args, **kwargs), (*args, *kwargs.values()), out)
    fn.__name__ = fn.__qualname__ = name
    return fn


def write_out(name: str, compute: Callable[[], Any], inputs: Any, out: Any) -> Any:
    """``torch.<name>(..., out=out)``: compute the result, then write it into ``out`` and return ``out``.

    As PyTorch: ``out`` must be a Tensor; functions with ``out=`` record no graph, so an input that
    requires grad (with grad mode on) is refused; the result must cast to ``out``'s dtype by kind
    (float into int is refused); an ``out`` of another shape is resized (with PyTorch's deprecation
    warning unless it was empty).
    """
    if not isinstance(out, _tensor.Tensor):
        raise TypeError("%s(): argument 'out' must be Tensor, not %s" % (name, type(out).__name__))
    if grad_mode.is_grad_enabled() and any(isinstance(t, _tensor.Tensor) and t.requires_grad for t in inputs):
        raise RuntimeError("%s(): functions with out=... arguments don't support automatic differentiation, "
                           "but one of the arguments requires grad." % name)
    result = compute()
    if not np.can_cast(result._data.dtype, out._data.dtype, casting="same_kind"):
        raise RuntimeError("result type %s can't be cast to the desired output type %s"
                           % (result.dtype._legacy, out.dtype._legacy))
    if tuple(out.shape) != tuple(result.shape):
        if out.numel() != 0:
            warnings.warn("An output with one or more elements was resized since it had shape %s, which does not "
                          "match the required output shape %s. This behavior is deprecated, and in a future PyTorch "
                          "release outputs will not be resized unless they have zero elements. You can explicitly "
                          "reuse an out tensor t by resizing it, inplace, to zero elements with t.resize_(0)."
                          % (list(out.shape), list(result.shape)), UserWarning, stacklevel=3)
        out._data = np.empty(result._data.shape, dtype=out._data.dtype)
    with grad_mode.no_grad():
        out.copy_(result)
    return out
