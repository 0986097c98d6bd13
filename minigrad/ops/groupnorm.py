"""Group norm as PyTorch records it: one ``NativeGroupNormBackward0`` node (nn3).

``native_group_norm(input, weight, bias, N, C, HxW, group, eps)`` standardizes each of the ``group``
groups of ``C / group`` channels of every sample (over those channels and all spatial positions),
then applies the per-channel ``weight`` and ``bias``. The node has edges to input, weight and bias
(``(None, 0)`` for an absent one, as PyTorch) and saves ``input``, ``weight``, ``N``, ``C``, ``HxW``,
``group``, ``eps`` and the per-(sample, group) ``mean`` / ``rstd`` (PyTorch's ``result1`` / ``result2``).

Backward, with x̂ the standardized input viewed as ``(N, group, -1)`` and g = grad · weight:
d/dinput = rstd (g − mean g − x̂ mean(g x̂)) per group; d/dweight = Σ grad x̂ and d/dbias = Σ grad over
the batch and spatial dims. It is written with Tensor ops, so it is differentiable again under
``create_graph`` (PyTorch records ``NativeGroupNormBackwardBackward0`` there; minigrad records the
chain of those ops).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._tensor import Tensor
from ..autograd.function import Function
from .nn_ops import _check_mixed_dtype, _defined, _standardize_backward, _standardized

if TYPE_CHECKING:
    from ..autograd.function import Grads

__all__ = ["NativeGroupNorm"]


def _channel_shape(x: Any) -> tuple[int, ...]:
    """``(1, C, 1, ...)``: a per-channel vector viewed to broadcast against ``x``."""
    return (1, x.shape[1]) + (1,) * (x.ndim - 2)


class NativeGroupNorm(Function):
    """``x̂ · weight + bias``, ``x̂`` standardized over each group of channels (and the spatial dims)."""

    node_name: str = "NativeGroupNormBackward0"
    saved_names: tuple[str, ...] = ("input", "weight", "result1", "result2")
    saved_attrs: tuple[str, ...] = ("N", "C", "HxW", "group", "eps")
    jvp = "from_vjp"  # forward mode: the transpose of the (Tensor-op) backward, by autograd

    @staticmethod
    def forward(ctx: Any, x: Tensor, weight: Tensor, bias: Tensor, N: int, C: int, HxW: int, group: int,
                eps: float) -> Any:
        _check_mixed_dtype(x, [p for p in (_defined(weight), _defined(bias)) if p is not None])
        a = x._data
        grouped = a.reshape(N, group, -1)
        with np.errstate(all="ignore"):
            mean = grouped.mean(2, keepdims=True) if grouped.size else np.zeros((N, group, 1), a.dtype)
            var = grouped.var(2, keepdims=True) if grouped.size else np.zeros((N, group, 1), a.dtype)
            rstd = 1 / np.sqrt(var + eps)
            out = ((grouped - mean) * rstd).reshape(a.shape)
        w, b = _defined(weight), _defined(bias)
        if w is not None:
            out = out * w._data.reshape(_channel_shape(a))
        if b is not None:
            out = out + b._data.reshape(_channel_shape(a))
        result1 = Tensor._make(mean.reshape(N, group).astype(a.dtype, copy=False), False)
        result2 = Tensor._make(rstd.reshape(N, group).astype(a.dtype, copy=False), False)
        ctx.save_for_backward(x, weight, result1, result2)
        ctx.N, ctx.C, ctx.HxW, ctx.group, ctx.eps = N, C, HxW, group, eps
        return out.astype(a.dtype, copy=False)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        x, weight, _, _ = ctx.saved_tensors
        needs = ctx.needs_input_grad
        w = _defined(weight)
        shape, group = tuple(x.shape), ctx.group
        lead = (0, *tuple(range(2, x.ndim)))
        grad_x = grad_w = grad_b = None
        if x.numel() == 0:
            zeros = grad.sum(lead) * 0
            return (grad * 0 if needs[0] else None), (zeros if needs[1] and w is not None else None), \
                (zeros if needs[2] else None), None, None, None, None, None
        x_hat, rstd = _standardized(x.reshape(ctx.N, group, -1), (2,), ctx.eps)
        if needs[0]:
            g = grad if w is None else grad * w.reshape(_channel_shape(x))
            grad_x = _standardize_backward(g.reshape(ctx.N, group, -1), x_hat, rstd, (2,)).reshape(shape)
        if needs[1] and w is not None:
            grad_w = (grad * x_hat.reshape(shape)).sum(lead)
        if needs[2]:
            grad_b = grad.sum(lead)
        return grad_x, grad_w, grad_b, None, None, None, None, None


from .formulas import row as _row  # noqa: E402  (ops/formulas.py imports the ops modules it registers)

_row(NativeGroupNorm, ("input", "weight", "bias"),
     ("(weight · g − mean(weight · g) − x̂ · mean(weight · g · x̂)) · rstd  (per group)", "sum(g · x̂)", "sum(g)"),
     "Group norm: as layer norm, over each group of channels; weight gets Σ g·x̂, bias Σ g.")
