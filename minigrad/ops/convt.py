"""Transposed 2-D convolution (``conv_transpose2d``): the gradient of ``conv2d`` with respect to its input.

Each input pixel ``x[n, c, i, j]`` adds ``x · w[c, o, a, b]`` to output ``(i·s − p + a·d, j·s − p + b·d)``.
The forward scatters one kernel offset ``(a, b)`` at a time (an ``einsum`` over channels, then a strided
add); the backward gathers the same strided slices: ∂x is a correlation of g with the kernel, ∂w the
products of x with those slices, ∂bias the sum of g.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._tensor import Tensor
from ..autograd import grad_mode
from ..autograd.function import Function
from .conv import convolution_backward

if TYPE_CHECKING:
    from .._tensor import Tensor
    from ..autograd.function import Grads


def _full_size(n, k, s, d, output_padding):
    return (n - 1) * s + d * (k - 1) + 1 + output_padding


class ConvTranspose2d(Function):
    """``conv_transpose2d(x, w, b)`` with ``w`` of shape ``(C_in, C_out, kh, kw)``; groups = 1."""

    node_name: str = "ConvolutionBackward0"
    jvp = "from_vjp"
    saved_names: tuple[str, ...] = ("input", "weight")
    saved_attrs: tuple[str, ...] = (        # PyTorch's ConvolutionBackward0, as for Conv2d (ops/conv.py)
        "bias_sym_sizes_opt", "dilation", "groups", "output_padding", "padding", "stride", "transposed",
    )

    @staticmethod
    def forward(ctx: Any, x: Tensor, weight: Tensor | None, bias: Tensor | None, stride: Any, padding: Any,
                output_padding: Any, dilation: Any) -> Any:
        ctx.bias_sym_sizes_opt = (0,) if bias is None else tuple(bias.shape)
        ctx.stride, ctx.padding, ctx.output_padding, ctx.dilation = stride, padding, output_padding, dilation
        ctx.groups, ctx.transposed = 1, True
        xd, wd = x._data, weight._data
        n, _, h, w = xd.shape
        _, o, kh, kw = wd.shape
        (sh, sw), (ph, pw), (oph, opw), (dh, dw) = stride, padding, output_padding, dilation
        full = np.zeros((n, o, _full_size(h, kh, sh, dh, oph), _full_size(w, kw, sw, dw, opw)),
                        dtype=np.result_type(xd, wd))
        for a in range(kh):
            for b in range(kw):
                full[:, :, a * dh:a * dh + (h - 1) * sh + 1:sh, b * dw:b * dw + (w - 1) * sw + 1:sw] += np.einsum(
                    "ncij,co->noij", xd, wd[:, :, a, b], optimize=True)
        hout = (h - 1) * sh - 2 * ph + dh * (kh - 1) + oph + 1
        wout = (w - 1) * sw - 2 * pw + dw * (kw - 1) + opw + 1
        out = full[:, :, ph:ph + hout, pw:pw + wout]
        if bias is not None:
            out = out + bias._data.reshape(1, -1, 1, 1)
        ctx.save_for_backward(x, weight)
        ctx.args = (stride, padding, dilation, full.shape, bias is not None)
        return np.ascontiguousarray(out)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        if grad_mode.is_grad_enabled():      # create_graph: PyTorch's ConvolutionBackwardBackward0 (ops/conv.py)
            return convolution_backward(ctx, grad)
        x, weight = ctx.saved_tensors
        (sh, sw), (ph, pw), (dh, dw), full_shape, has_bias = ctx.args
        g = grad._data
        xd, wd = x._data, weight._data
        h, w = xd.shape[2:]
        kh, kw = wd.shape[2:]
        full = np.zeros(full_shape, dtype=g.dtype)
        full[:, :, ph:ph + g.shape[2], pw:pw + g.shape[3]] = g
        gx = np.zeros_like(xd)
        gw = np.zeros_like(wd)
        for a in range(kh):
            for b in range(kw):
                piece = full[:, :, a * dh:a * dh + (h - 1) * sh + 1:sh, b * dw:b * dw + (w - 1) * sw + 1:sw]
                gx += np.einsum("noij,co->ncij", piece, wd[:, :, a, b], optimize=True)
                gw[:, :, a, b] = np.einsum("ncij,noij->co", xd, piece, optimize=True)
        gb = Tensor._make(g.sum(axis=(0, 2, 3))) if has_bias else None
        return Tensor._make(gx), Tensor._make(gw), gb, None, None, None, None
