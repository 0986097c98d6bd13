"""1-d convolution as PyTorch records it: one ``ConvolutionBackward0`` node with 3-d input and weight (nn3).

The arithmetic is ``ops/conv.py``'s 2-d convolution on the input and weight viewed with a unit
height (``(N, C, 1, L)``, ``(O, C/groups, 1, k)``); the node saves the 3-d tensors and 1-tuples
(``stride=(s,)``, ``padding=(p,)``, ...), as PyTorch's does for ``conv1d``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._tensor import Tensor
from ..autograd.function import Function
from .conv import Convolution, _im2col, convolution_backward, out_size
from .nn_ops import _defined

if TYPE_CHECKING:
    from ..autograd.function import Grads

__all__ = ["Convolution1d"]


class Convolution1d(Function):
    """``out[n, o, t] = bias[o] + Σ weight[o, c, i] · x[n, g·C/g + c, s·t + d·i − p]``; backward: Convolution's."""

    node_name: str = "ConvolutionBackward0"
    jvp = "from_vjp"
    saved_names: tuple[str, ...] = ("input", "weight")
    saved_attrs: tuple[str, ...] = Convolution.saved_attrs

    @staticmethod
    def forward(ctx: Any, x: Tensor, weight: Tensor, bias: Tensor, stride: int, padding: int, dilation: int,
                groups: int) -> Any:
        ctx.save_for_backward(x, weight)
        b = _defined(bias)
        ctx.bias_sym_sizes_opt = (0,) if b is None else tuple(b.shape)
        ctx.stride, ctx.padding, ctx.dilation, ctx.groups = (stride,), (padding,), (dilation,), groups
        ctx.output_padding, ctx.transposed = (0,), False
        a, w = x._data[:, :, None, :], weight._data[:, :, None, :]
        n, o = a.shape[0], w.shape[0]
        kernel, s2, p2, d2 = (1, w.shape[3]), (1, stride), (0, padding), (1, dilation)
        out = (1, out_size(a.shape[3], kernel[1], stride, padding, dilation))
        ctx.out = out
        cols = _im2col(a, kernel, s2, p2, d2, out).reshape(n, groups, -1, out[1])
        y = np.matmul(w.reshape(1, groups, o // groups, -1), cols).reshape(n, o, out[1])
        if b is not None:
            y = y + b._data.reshape(o, 1)
        return y.astype(x._data.dtype, copy=False)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return convolution_backward(ctx, grad)      # (ConvolutionBackward.gradients runs it as a 2-d one)
