"""2-D convolution and pooling, with PyTorch's node names.

Everything is built on two linear, mutually adjoint ops on ndarrays:

* ``_im2col``: the ``(N, C, kh, kw, OH, OW)`` windows of a padded ``(N, C, H, W)`` input;
* ``_col2im``: its adjoint, adding such windows back into an ``(N, C, H, W)`` array.

``Unfold``/``Fold`` wrap them as Functions, each the other's backward, so the backwards of the
convolution and pooling nodes are Tensor operations and ``create_graph=True`` works.

Geometry (``kernel``, ``stride``, ``padding``, ``dilation``) is a pair per argument; ``out`` is the
output's ``(OH, OW)``, which may need more right/bottom padding than ``padding`` (``ceil_mode``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._tensor import Tensor
from ..autograd.function import Function
from .index import ScatterAlongDim
from .nn_ops import _const, _defined


def out_size(size: Any, kernel: Any, stride: Any, padding: Any, dilation: Any, ceil_mode: bool = False) -> Any:
    """The output length of a window op along one dim, PyTorch's formula (``ceil_mode`` as pooling's)."""
    span = size + 2 * padding - dilation * (kernel - 1) - 1
    if not ceil_mode:
        return span // stride + 1
    n = -(-span // stride) + 1
    if (n - 1) * stride >= size + padding:   # the last window must start inside the input or left padding
        n -= 1
    return n


def _padded(shape, kernel, stride, padding, dilation, out):
    """The padded (H, W) that holds every window: at least ``padding`` each side."""
    return tuple(
        max(shape[i] + 2 * padding[i], (out[i] - 1) * stride[i] + dilation[i] * (kernel[i] - 1) + 1) for i in (0, 1)
    )


def _window(i, j, kernel, stride, dilation, out):
    """The slice of the padded input that kernel position ``(i, j)`` sees in every window."""
    (sh, sw), (dh, dw), (oh, ow) = stride, dilation, out
    return (
        Ellipsis,
        slice(i * dh, i * dh + (oh - 1) * sh + 1, sh),
        slice(j * dw, j * dw + (ow - 1) * sw + 1, sw),
    )


def _im2col(a, kernel, stride, padding, dilation, out, fill=0.0):
    """``(N, C, kh, kw, OH, OW)`` windows of ``a`` (``(N, C, H, W)``) padded with ``fill``."""
    n, c, h, w = a.shape
    ph, pw = _padded((h, w), kernel, stride, padding, dilation, out)
    if (ph, pw) != (h, w):
        p = np.full((n, c, ph, pw), fill, dtype=a.dtype)
        p[:, :, padding[0] : padding[0] + h, padding[1] : padding[1] + w] = a
        a = p
    cols = np.empty((n, c, kernel[0], kernel[1], out[0], out[1]), dtype=a.dtype)
    for i in range(kernel[0]):
        for j in range(kernel[1]):
            cols[:, :, i, j] = a[_window(i, j, kernel, stride, dilation, out)]
    return cols


def _col2im(cols, size, kernel, stride, padding, dilation):
    """The adjoint of ``_im2col``: the windows ``cols`` summed back into an ``(N, C, *size)`` array."""
    n, c = cols.shape[:2]
    out = cols.shape[4:]
    ph, pw = _padded(size, kernel, stride, padding, dilation, out)
    a = np.zeros((n, c, ph, pw), dtype=cols.dtype)
    for i in range(kernel[0]):
        for j in range(kernel[1]):
            a[_window(i, j, kernel, stride, dilation, out)] += cols[:, :, i, j]
    return a[:, :, padding[0] : padding[0] + size[0], padding[1] : padding[1] + size[1]]


class Unfold(Function):
    """im2col: ``(N, C, H, W)`` → ``(N, C, kh, kw, OH, OW)`` zero-padded windows.  Backward: ``Fold``."""

    node_name: str = "Im2ColBackward0"
    jvp = "auto_linear"

    @staticmethod
    def forward(ctx: Any, x: Tensor, kernel: Any, stride: Any, padding: Any, dilation: Any, out: Any) -> Any:
        ctx.geometry, ctx.size = (kernel, stride, padding, dilation), tuple(x.shape[2:])
        return _im2col(x._data, kernel, stride, padding, dilation, out)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return Fold.apply(grad, ctx.size, *ctx.geometry), None, None, None, None, None


class Fold(Function):
    """col2im: windows ``(N, C, kh, kw, OH, OW)`` summed into ``(N, C, *size)``.  Backward: ``Unfold``."""

    node_name: str = "Col2ImBackward0"
    jvp = "auto_linear"

    @staticmethod
    def forward(ctx: Any, cols: Any, size: tuple[int, ...], kernel: Any, stride: Any, padding: Any,
                dilation: Any) -> Any:
        ctx.geometry, ctx.out = (kernel, stride, padding, dilation), tuple(cols.shape[4:])
        return _col2im(cols._data, size, kernel, stride, padding, dilation)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return Unfold.apply(grad, *ctx.geometry, ctx.out), None, None, None, None, None


class Convolution(Function):
    """``out[n, o] = bias[o] + Σ weight[o, c, i, j] · x[n, g·C/g + c, s·h + d·i - p, s·w + d·j - p]``.

    ``x`` is ``(N, C, H, W)``, ``weight`` ``(O, C/groups, kh, kw)``, ``bias`` ``(O,)`` or ``UNDEFINED``.
    With ``K = C/groups · kh · kw`` and the windows ``cols`` (``Unfold``) viewed as ``(N, g, K, L)``:
    out = W @ cols; d/dx = Fold(Wᵀ @ grad); d/dW = Σₙ grad @ colsᵀ; d/dbias = Σ grad.
    """

    node_name: str = "ConvolutionBackward0"
    jvp = "from_vjp"
    saved_names: tuple[str, ...] = ("input", "weight")
    saved_attrs: tuple[str, ...] = (
        "bias_sym_sizes_opt", "dilation", "groups", "output_padding", "padding", "stride", "transposed",
    )

    @staticmethod
    def forward(ctx: Any, x: Tensor, weight: Tensor | None, bias: Tensor | None, stride: Any, padding: Any,
                dilation: Any, groups: int) -> Any:
        ctx.save_for_backward(x, weight)
        bias = _defined(bias)
        ctx.bias_sym_sizes_opt = (0,) if bias is None else tuple(bias.shape)    # (PyTorch: (0,) without a bias)
        ctx.stride, ctx.padding, ctx.dilation, ctx.groups = stride, padding, dilation, groups
        ctx.output_padding, ctx.transposed = (0, 0), False
        a, w = x._data, weight._data
        n, _, h, wd = a.shape
        o, _, kh, kw = w.shape
        kernel = (kh, kw)
        out = tuple(out_size((h, wd)[i], kernel[i], stride[i], padding[i], dilation[i]) for i in (0, 1))
        ctx.out = out
        cols = _im2col(a, kernel, stride, padding, dilation, out).reshape(n, groups, -1, out[0] * out[1])
        y = np.matmul(w.reshape(1, groups, o // groups, -1), cols).reshape(n, o, *out)
        if bias is not None:
            y = y + bias._data.reshape(o, 1, 1)
        return y.astype(a.dtype, copy=False)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        x, weight = ctx.saved_tensors
        needs, g = ctx.needs_input_grad, ctx.groups
        n, c = x.shape[:2]
        o, kernel = weight.shape[0], tuple(weight.shape[2:])
        geometry = (kernel, ctx.stride, ctx.padding, ctx.dilation)
        length = ctx.out[0] * ctx.out[1]
        grad_g = grad.reshape(n, g, o // g, length)
        grad_x = grad_w = grad_b = None
        if needs[0]:
            w = weight.reshape(g, o // g, -1).transpose(1, 2)          # (g, K, O/g)
            cols = w.matmul(grad_g).reshape(n, c, *kernel, *ctx.out)
            grad_x = Fold.apply(cols, tuple(x.shape[2:]), *geometry)
        if needs[1]:
            cols = Unfold.apply(x, *geometry, ctx.out).reshape(n, g, -1, length)
            grad_w = grad_g.matmul(cols.transpose(2, 3)).sum(0).reshape(weight.shape)
        if needs[2]:
            grad_b = grad.sum((0, 2, 3))
        return grad_x, grad_w, grad_b, None, None, None, None


def max_pool2d_forward(a: Any, kernel: Any, stride: Any, padding: Any, dilation: Any, ceil_mode: Any) -> Any:
    """``(max of each window, flat H·W index of its first maximum)`` for an ``(N, C, H, W)`` or ``(C, H, W)`` array.

    Padding counts as -inf; a nan wins its window (as in PyTorch).
    """
    unbatched = a.ndim == 3
    if unbatched:
        a = a[None]
    n, c, h, w = a.shape
    out = tuple(out_size((h, w)[i], kernel[i], stride[i], padding[i], dilation[i], ceil_mode) for i in (0, 1))
    fill = -np.inf if a.dtype.kind == "f" else np.iinfo(a.dtype).min
    if n == 0:  # an empty batch (PyTorch allows it): empty results
        y, index = np.zeros((0, c, *out), dtype=a.dtype), np.zeros((0, c, *out), dtype=np.int64)
        return (y[0], index[0]) if unbatched else (y, index)
    cols = _im2col(a, kernel, stride, padding, dilation, out, fill).reshape(n, c, -1, *out)
    k = np.argmax(cols, axis=2)
    if a.dtype.kind == "f":
        nan = np.isnan(cols)
        if nan.any():
            k = np.where(nan.any(axis=2), np.argmax(nan, axis=2), k)
    y = np.take_along_axis(cols, k[:, :, None], axis=2)[:, :, 0]
    ki, kj = np.divmod(k, kernel[1])
    rows = np.arange(out[0]).reshape(-1, 1) * stride[0] - padding[0] + ki * dilation[0]
    columns = np.arange(out[1]).reshape(1, -1) * stride[1] - padding[1] + kj * dilation[1]
    index = (rows * w + columns).astype(np.int64)
    return (y[0], index[0]) if unbatched else (y, index)


class MaxPool2d(Function):
    """The max of each window (``max_pool2d_forward``).

    Backward: grad added at each window's argmax (``ScatterAlongDim`` over the flattened H·W).
    """

    node_name: str = "MaxPool2DWithIndicesBackward0"
    jvp = "from_vjp"
    saved_names: tuple[str, ...] = ("self",)
    saved_attrs: tuple[str, ...] = ("ceil_mode", "dilation", "kernel_size", "padding", "stride", "result1")

    @staticmethod
    def forward(ctx: Any, x: Tensor, kernel: Any, stride: Any, padding: Any, dilation: Any, ceil_mode: bool,
                saved_stride: Any) -> Any:
        ctx.save_for_backward(x)
        ctx.kernel_size, ctx.stride, ctx.padding = kernel, saved_stride, padding
        ctx.dilation, ctx.ceil_mode = dilation, ceil_mode
        y, ctx.index = max_pool2d_forward(x._data, kernel, stride, padding, dilation, ceil_mode)
        ctx.result1 = Tensor._make(ctx.index)
        return y

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        _ = ctx.saved_tensors                # unpacked as PyTorch does: an in-place write to the input raises
        x_shape = ctx._input_meta[0][0]
        lead, (h, w) = x_shape[:-2], x_shape[-2:]
        windows = ctx.index.shape[-2] * ctx.index.shape[-1]     # (not -1: the batch may be empty)
        index = ctx.index.reshape(*lead, windows)
        g = ScatterAlongDim.apply(grad.reshape(*lead, windows), len(lead), index, (*lead, h * w))
        return g.reshape(x_shape), None, None, None, None, None, None


class AvgPool2d(Function):
    """The mean of each window; the divisor counts padding if ``count_include_pad`` (not the extra
    ``ceil_mode`` windows' overhang), or is ``divisor_override``.  Backward: grad / divisor spread over
    each window (``Fold``)."""

    node_name: str = "AvgPool2DBackward0"
    jvp = "auto_linear"
    saved_names: tuple[str, ...] = ("self",)
    saved_attrs = ("ceil_mode", "count_include_pad", "divisor_override", "kernel_size", "padding", "stride")

    @staticmethod
    def forward(ctx: Any, x: Tensor, kernel: Any, stride: Any, padding: Any, ceil_mode: bool, count_include_pad: bool,
                divisor_override: Any, saved_stride: Any) -> Any:
        ctx.save_for_backward(x)
        ctx.kernel_size, ctx.stride, ctx.padding, ctx.ceil_mode = kernel, saved_stride, padding, ceil_mode
        ctx.count_include_pad, ctx.divisor_override = count_include_pad, divisor_override
        a = x._data
        h, w = a.shape[-2:]
        out = tuple(out_size((h, w)[i], kernel[i], stride[i], padding[i], 1, ceil_mode) for i in (0, 1))
        ctx.geometry = (kernel, stride, padding, (1, 1))
        ctx.out = out
        if divisor_override:
            divisor = np.full(out, float(divisor_override))
        else:
            counts = []
            for i, size in enumerate((h, w)):
                start = np.arange(out[i]) * stride[i] - padding[i]
                end = np.minimum(start + kernel[i], size + padding[i])
                if not count_include_pad:
                    start, end = np.maximum(start, 0), np.minimum(end, size)
                counts.append(end - start)
            divisor = np.outer(counts[0], counts[1]).astype(float)
        ctx.divisor = divisor.astype(a.dtype)
        cols = _im2col(a.reshape(-1, *a.shape[-3:]), kernel, stride, padding, (1, 1), out)
        y = (cols.sum(axis=(2, 3)) / ctx.divisor).astype(a.dtype, copy=False)
        return y.reshape(*a.shape[:-2], *out)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        _ = ctx.saved_tensors                # unpacked as PyTorch does: an in-place write to the input raises
        x_shape = ctx._input_meta[0][0]
        kernel = ctx.geometry[0]
        g = (grad / _const(ctx.divisor, grad)).reshape(-1, x_shape[-3], 1, 1, *ctx.out)
        g = g.expand(g.shape[0], x_shape[-3], *kernel, *ctx.out)
        g = Fold.apply(g, tuple(x_shape[-2:]), *ctx.geometry)
        return g.reshape(x_shape), None, None, None, None, None, None, None


# -- the derivative table's rows for these classes (see ops/formulas.py) ----------------------------
from .formulas import row as _row  # noqa: E402

if TYPE_CHECKING:
    from .._tensor import Tensor
    from ..autograd.function import Grads

_SELF = ("self",)
_row(Unfold, _SELF, ("col2im(g)",),
     "im2col copies each pixel into every window it is in: their gradients add up (col2im).")
_row(Fold, ("cols",), ("im2col(g)",),
     "col2im sums windows into pixels: each window reads its pixels' gradient (im2col).")
_row(Convolution, ("input", "weight", "bias"),
     ("conv_transpose(g, weight)", "conv(input, g) (correlate input with g)", "sum(g) over batch and space"),
     "Convolution: the input gets g convolved back with the flipped kernel, the kernel gets input correlated with g.")
_row(MaxPool2d, _SELF, ("g at each window's max (result1), 0 elsewhere",),
     "Max pooling: each window's maximum gets the gradient.")
_row(AvgPool2d, _SELF, ("g / window size, spread over each window",),
     "Average pooling: each window shares its gradient evenly.")

