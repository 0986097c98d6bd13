"""Adaptive average pooling: the output size is given, the windows follow from it.

Output cell ``i`` (of ``o``) along a dim of length ``n`` averages input ``floor(i·n/o)`` up to
``ceil((i+1)·n/o)`` (exclusive), so windows can overlap by one when ``o`` does not divide ``n``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._tensor import Tensor
from ..autograd import grad_mode
from ..autograd.function import Function
from .conv import zeros_for_self

if TYPE_CHECKING:
    from .._tensor import Tensor
    from ..autograd.function import Grads


def windows(n: int, o: int) -> list[tuple[int, int]]:
    return [((i * n) // o, -(-((i + 1) * n) // o)) for i in range(o)]


class AdaptiveAvgPool2d(Function):
    """Means over the adaptive windows of the last two dims.  Backward: each window's gradient, spread evenly."""

    node_name: str = "AdaptiveAvgPool2DBackward0"
    jvp = "auto_linear"
    saved_names: tuple[str, ...] = ("self",)

    @staticmethod
    def forward(ctx: Any, x: Tensor, output_size: Any) -> Any:
        data = x._data
        (h, w), (oh, ow) = data.shape[-2:], output_size
        ctx.shape, ctx.rows, ctx.cols = data.shape, windows(h, oh), windows(w, ow)
        ctx.save_for_backward(x)
        out = np.empty((*data.shape[:-2], oh, ow), dtype=data.dtype)
        for i, (r0, r1) in enumerate(ctx.rows):
            for j, (c0, c1) in enumerate(ctx.cols):
                out[..., i, j] = data[..., r0:r1, c0:c1].mean(axis=(-2, -1))
        return out

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        (x,) = ctx.saved_tensors             # unpacked as PyTorch does: an in-place write to the input raises
        if grad_mode.is_grad_enabled():      # create_graph: PyTorch's one node
            return AdaptiveAvgPool2dBackward.apply(grad, x, ctx), None
        return Tensor._make(_spread(ctx, grad._data)), None


def _spread(ctx: Any, g: Any) -> Any:
    """adaptive_avg_pool2d's d/dinput (arrays): each window's gradient divided by its size, spread over it."""
    out = np.zeros(ctx.shape, dtype=g.dtype)
    for i, (r0, r1) in enumerate(ctx.rows):
        for j, (c0, c1) in enumerate(ctx.cols):
            out[..., r0:r1, c0:c1] += g[..., i:i + 1, j:j + 1] / g.dtype.type((r1 - r0) * (c1 - c0))
    return out


class AdaptiveAvgPool2dBackward(Function):
    """``_adaptive_avg_pool2d_backward`` as one node (PyTorch's, under create_graph): inputs (grad_output,
    self).  Linear in grad_output, which gets back ``adaptive_avg_pool2d(gg)`` to grad_output's size; self
    gets zeros."""

    node_name: str = "AdaptiveAvgPool2DBackwardBackward0"
    jvp = "from_vjp"                           # linear in grad_output: the vjp of the vjp
    saved_attrs: tuple[str, ...] = ("grad_output_sym_argsize_minus_1", "grad_output_sym_argsize_minus_2")

    @staticmethod
    def forward(ctx: Any, grad: Tensor, x: Tensor, pool: Any) -> Any:
        ctx.grad_output_sym_argsize_minus_2, ctx.grad_output_sym_argsize_minus_1 = grad.shape[-2:]
        return _spread(pool, grad._data)             # (pool: the forward node; only read here)

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> Grads:
        size = (ctx.grad_output_sym_argsize_minus_2, ctx.grad_output_sym_argsize_minus_1)
        return AdaptiveAvgPool2d.apply(gg, size), zeros_for_self(ctx), None


from .formulas import row as _row  # noqa: E402  (ops/formulas.py imports the ops modules it registers)

_row(AdaptiveAvgPool2d, ("self",), ("g / window size, spread over each window",),
     "Adaptive average pooling: each output cell's window (windows may overlap by one) shares its gradient evenly.")
_row(AdaptiveAvgPool2dBackward, ("grad_output", "self"), ("adaptive_avg_pool2d(gg)", "0"),
     "adaptive average pooling's backward as one node: linear in grad_output, whose gradient is gg pooled.")
