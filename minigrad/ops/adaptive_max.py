"""Adaptive max pooling as PyTorch records it: one ``AdaptiveMaxPool2DBackward0`` node (nn4).

Output cell ``(i, j)`` takes the max of its adaptive window (rows ``floor(i·H/oh)`` to ``ceil((i+1)·H/oh)``,
columns likewise, as adaptive average pooling) and remembers where it was: ``result1`` holds the flat
index ``row · W + col`` in the input plane (the first maximum in scan order; a NaN wins, the last one).
Backward puts each output's gradient at its index (summed where windows share a maximum).  The backward
is a node too, ``AdaptiveMaxPool2DBackwardBackward0`` (edges grad_output and self, saves ``indices``):
its derivative gathers the incoming gradient at the indices, as PyTorch's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._tensor import Tensor
from ..autograd.function import Function
from .adaptive import windows

if TYPE_CHECKING:
    from ..autograd.function import Grads

__all__ = ["AdaptiveMaxPool2d"]


def _pool(a: np.ndarray, oh: int, ow: int) -> tuple[np.ndarray, np.ndarray]:
    h, w = a.shape[-2:]
    out = np.empty((*a.shape[:-2], oh, ow), a.dtype)
    idx = np.empty((*a.shape[:-2], oh, ow), np.int64)
    for i, (r0, r1) in enumerate(windows(h, oh)):
        for j, (c0, c1) in enumerate(windows(w, ow)):
            win = a[..., r0:r1, c0:c1].reshape(*a.shape[:-2], -1)
            k = np.argmax(win, axis=-1)
            nan = np.isnan(win)
            if nan.any():                       # ATen: `val > max || isnan(val)`: the last NaN wins
                last = win.shape[-1] - 1 - np.argmax(nan[..., ::-1], axis=-1)
                k = np.where(nan.any(-1), last, k)
            width = c1 - c0
            idx[..., i, j] = (r0 + k // width) * w + c0 + k % width
            out[..., i, j] = np.take_along_axis(win, k[..., None], -1)[..., 0]
    return out, idx


def _scatter(g: np.ndarray, idx: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """``grad_input``: each output gradient added at its index in the (H·W) plane."""
    lead = int(np.prod(shape[:-2], dtype=np.int64))
    plane = shape[-2] * shape[-1]
    out = np.zeros((lead, plane), g.dtype)
    rows = np.repeat(np.arange(lead), idx.shape[-2] * idx.shape[-1])
    np.add.at(out, (rows, idx.reshape(-1)), g.reshape(-1))
    return out.reshape(shape)


class AdaptiveMaxPool2d(Function):
    """Max over each adaptive window of the last two dims; returns (values, int64 indices)."""

    node_name: str = "AdaptiveMaxPool2DBackward0"
    saved_names: tuple[str, ...] = ("self", "result1")
    jvp = "from_vjp"

    @staticmethod
    def forward(ctx: Any, x: Tensor, output_size: tuple[int, int]) -> Any:
        out, idx = _pool(x._data, *output_size)
        indices = Tensor._make(idx, False)
        ctx.save_for_backward(x, indices)
        ctx.mark_non_differentiable(indices)
        return out, indices

    @staticmethod
    def backward(ctx: Any, grad: Tensor, _grad_indices: Any = None) -> Grads:
        x, indices = ctx.saved_tensors
        return AdaptiveMaxPool2dBackward.apply(grad, x, (indices,)), None     # (indices: no edge, as PyTorch)


class AdaptiveMaxPool2dBackward(Function):
    """``adaptive_max_pool2d_backward(grad_output, self, indices)``: the scatter, as a node of its own."""

    node_name: str = "AdaptiveMaxPool2DBackwardBackward0"
    saved_names: tuple[str, ...] = ("indices",)
    jvp = "from_vjp"

    @staticmethod
    def forward(ctx: Any, grad: Tensor, x: Tensor, indices: tuple[Tensor]) -> Any:
        ctx.save_for_backward(indices[0])
        ctx.self_shape = tuple(x.shape)
        return _scatter(grad._data, indices[0]._data, tuple(x.shape))

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> Grads:
        (indices,) = ctx.saved_tensors
        grad_grad = None
        if ctx.needs_input_grad[0]:           # a gather in Tensor ops (differentiable again)
            shape = tuple(indices.shape)
            grad_grad = gg.reshape(*gg.shape[:-2], -1).gather(-1, indices.reshape(*shape[:-2], -1)).reshape(shape)
        zeros = Tensor._make(np.zeros(ctx.self_shape, gg._data.dtype), False) if ctx.needs_input_grad[1] else None
        return grad_grad, zeros, None


from .formulas import row as _row  # noqa: E402  (ops/formulas.py imports the ops modules it registers)

_row(AdaptiveMaxPool2d, ("self",), ("g at result1 (each window's argmax), 0 elsewhere",),
     "Adaptive max pooling: each output's gradient goes to the input that was its window's maximum.")
_row(AdaptiveMaxPool2dBackward, ("grad_output", "self"), ("gather(g, indices)", "0"),
     "The backward of adaptive max pooling is a scatter: its derivative reads the gradient back at the indices.")
