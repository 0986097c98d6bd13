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

from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import numpy as np

from .._tensor import Tensor
from ..autograd import grad_mode
from ..autograd.function import Function
from .fused import FusedBackward
from .index import ScatterAlongDim
from .nn_ops import UNDEFINED, _const, _defined


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


def _skip_padding(a, w, cols, kernel, stride, padding, dilation, out, groups):
    """The convolution of ``cols`` with a weight holding inf or nan, as PyTorch's (oneDNN) kernel: padding is not
    multiplied at all (0 · inf would be nan), so a non-finite tap over the padding adds nothing."""
    n, c, h, wd = a.shape
    o = w.shape[0]
    inside = _im2col(np.ones((1, c, h, wd), dtype=bool), kernel, stride, padding, dilation, out, False)
    inside = inside.reshape(1, groups, 1, -1, out[0] * out[1])                          # (1, g, 1, K, L)
    with np.errstate(all="ignore"):                    # every product, summed over K only where it is input
        y = np.where(inside, w.reshape(1, groups, o // groups, -1, 1) * cols[:, :, None], 0).sum(axis=3)
    return y.reshape(n, o, *out)


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
        if any(padding) and w.dtype.kind == "f" and not np.isfinite(w).all():
            y = _skip_padding(a, w, cols, kernel, stride, padding, dilation, out, groups)
        if bias is not None:
            y = y + bias._data.reshape(o, 1, 1)
        return y.astype(a.dtype, copy=False)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return convolution_backward(ctx, grad)


def convolution_backward(ctx: Any, grad: Tensor) -> Grads:
    """The backward of a convolution node (2-d, 1-d or transposed: ``ctx`` has PyTorch's attributes).

    Under create_graph it records PyTorch's one node, ``ConvolutionBackwardBackward0``; otherwise it runs
    the same formula (``ConvolutionBackward.gradients``) unrecorded."""
    x, weight = ctx.saved_tensors
    needs = ctx.needs_input_grad
    mask = (needs[0], needs[1], needs[2])
    attrs = _conv_attrs(ctx, mask)
    if grad_mode.is_grad_enabled():
        grads = ConvolutionBackward.apply(grad, x, weight, attrs)
    else:
        grads = ConvolutionBackward.gradients(SimpleNamespace(**attrs), grad, x, weight)
    return (*(g if m else None for g, m in zip(grads, mask)), None, None, None, None)


def conv_backward(grad: Tensor, x: Tensor, weight: Tensor, stride: Any, padding: Any, dilation: Any, groups: int,
                  mask: Any) -> tuple[Tensor | None, Tensor | None, Tensor | None]:
    """``convolution_backward`` of a 2-d convolution, in Tensor ops: (d/dinput, d/dweight, d/dbias), each only
    if ``mask`` asks for it.  With the windows ``cols`` (``Unfold``) viewed as ``(N, g, K, L)``:
    d/dinput = Fold(Wᵀ @ grad); d/dweight = Σₙ grad @ colsᵀ; d/dbias = Σ grad over batch and space."""
    n, c = x.shape[:2]
    o, kernel = weight.shape[0], tuple(weight.shape[2:])
    out = tuple(grad.shape[2:])
    geometry, g = (kernel, stride, padding, dilation), groups
    grad_g = grad.reshape(n, g, o // g, out[0] * out[1])
    grad_x = grad_w = grad_b = None
    if mask[0]:
        w = weight.reshape(g, o // g, -1).transpose(1, 2)          # (g, K, O/g)
        cols = w.matmul(grad_g).reshape(n, c, *kernel, *out)
        grad_x = Fold.apply(cols, tuple(x.shape[2:]), *geometry)
    if mask[1]:
        cols = Unfold.apply(x, *geometry, out).reshape(n, g, -1, out[0] * out[1])
        grad_w = grad_g.matmul(cols.transpose(2, 3)).sum(0).reshape(weight.shape)
    if mask[2]:
        grad_b = grad.sum((0, 2, 3))
    return grad_x, grad_w, grad_b


def _conv_attrs(ctx: Any, mask: Any) -> dict[str, Any]:
    """What ``ConvolutionBackward`` needs (and saves, as PyTorch's ``_saved_*``) from a convolution's node."""
    return {"stride": ctx.stride, "padding": ctx.padding, "dilation": ctx.dilation, "groups": ctx.groups,
            "transposed": ctx.transposed, "output_padding": ctx.output_padding, "mask": mask}


def _as_2d(values: Any, fill: int) -> tuple[int, int]:
    """A 1-d convolution's 1-tuple geometry as the 2-d one of its unit-height view."""
    return (fill, *values) if len(values) == 1 else tuple(values)


class ConvolutionBackward(FusedBackward):
    """``convolution_backward`` as one node (PyTorch's, under create_graph): inputs (grad_output, input,
    weight), outputs (grad_input, grad_weight, grad_bias).  1-d convolutions run as 2-d ones of unit height;
    a transposed convolution's gradients are those of the convolution it is the adjoint of, swapped:
    d/dinput = conv(g, weight), d/dweight = conv's weight gradient with g as input and input as grad."""

    node_name: str = "ConvolutionBackwardBackward0"
    saved_names: tuple[str, ...] = ("grad_output", "input", "weight")
    saved_attrs: tuple[str, ...] = ("dilation", "groups", "output_padding", "padding", "stride", "transposed")

    @staticmethod
    def gradients(ctx: Any, grad: Tensor, x: Tensor, weight: Tensor) -> tuple[Any, ...]:
        flat = x.ndim == 3
        if flat:
            grad, x, weight = grad.unsqueeze(2), x.unsqueeze(2), weight.unsqueeze(2)
        stride, padding, dilation = _as_2d(ctx.stride, 1), _as_2d(ctx.padding, 0), _as_2d(ctx.dilation, 1)
        if ctx.transposed:
            gx = gw = None
            if ctx.mask[0]:
                gx = Convolution.apply(grad, weight, UNDEFINED, stride, padding, dilation, ctx.groups)
            if ctx.mask[1]:
                _, gw, _ = conv_backward(x, grad, weight, stride, padding, dilation, ctx.groups, (False, True, False))
            gb = grad.sum((0, 2, 3)) if ctx.mask[2] else None
        else:
            gx, gw, gb = conv_backward(grad, x, weight, stride, padding, dilation, ctx.groups, ctx.mask)
        if flat:
            gx, gw = (None if t is None else t.squeeze(2) for t in (gx, gw))
        return gx, gw, gb


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
        (x,) = ctx.saved_tensors             # unpacked as PyTorch does: an in-place write to the input raises
        if grad_mode.is_grad_enabled():      # create_graph: PyTorch's one node
            return MaxPool2dBackward.apply(grad, x, ctx.index), None, None, None, None, None, None
        return _max_pool_backward(grad, ctx.index, ctx._input_meta[0][0]), None, None, None, None, None, None


def _max_pool_backward(grad: Tensor, index: Any, x_shape: Any) -> Tensor:
    """max_pool2d's d/dinput: zeros with ``grad`` added at each window's argmax (``index``: flat H·W)."""
    lead, (h, w) = x_shape[:-2], x_shape[-2:]
    windows = index.shape[-2] * index.shape[-1]     # (not -1: the batch may be empty)
    g = ScatterAlongDim.apply(grad.reshape(*lead, windows), len(lead), index.reshape(*lead, windows), (*lead, h * w))
    return g.reshape(x_shape)


def zeros_for_self(ctx: Any) -> Tensor | None:
    """PyTorch's ``zeros_like(self)`` (a constant): what a pooling backward's ``self`` (input 1) gets."""
    return Tensor._make(np.zeros(*ctx._input_meta[1])) if ctx.needs_input_grad[1] else None


class MaxPool2dBackward(Function):
    """``max_pool2d_with_indices_backward`` as one node (PyTorch's, under create_graph): inputs
    (grad_output, self).  It is linear in grad_output, which gets back ``gg`` gathered at the argmaxes
    (PyTorch's ``max_pool_double_backward``); self gets zeros (the argmaxes are piecewise constant)."""

    node_name: str = "MaxPool2DWithIndicesBackwardBackward0"
    jvp = "from_vjp"                           # linear in grad_output: the vjp of the vjp
    saved_attrs: tuple[str, ...] = ("indices",)

    @staticmethod
    def forward(ctx: Any, grad: Tensor, x: Tensor, index: Any) -> Any:
        ctx.index, ctx.indices = index, Tensor._make(index)
        return _max_pool_backward(grad, index, tuple(x.shape))._data

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> Grads:
        index = ctx.indices
        lead = tuple(index.shape[:-2])
        g = gg.view(*lead, -1).gather(len(lead), index.view(*lead, -1)).view(tuple(index.shape))
        return g, zeros_for_self(ctx), None


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
        (x,) = ctx.saved_tensors             # unpacked as PyTorch does: an in-place write to the input raises
        if grad_mode.is_grad_enabled():      # create_graph: PyTorch's one node
            return AvgPool2dBackward.apply(grad, x, ctx), None, None, None, None, None, None, None
        return _avg_pool_backward(ctx, grad, ctx._input_meta[0][0]), None, None, None, None, None, None, None


def _avg_pool_backward(ctx: Any, grad: Tensor, x_shape: Any) -> Tensor:
    """avg_pool2d's d/dinput: each window's ``grad / divisor`` spread over the window (``Fold``)."""
    kernel = ctx.geometry[0]
    g = (grad / _const(ctx.divisor, grad)).reshape(-1, x_shape[-3], 1, 1, *ctx.out)
    g = g.expand(g.shape[0], x_shape[-3], *kernel, *ctx.out)
    g = Fold.apply(g, tuple(x_shape[-2:]), *ctx.geometry)
    return g.reshape(x_shape)


class AvgPool2dBackward(Function):
    """``avg_pool2d_backward`` as one node (PyTorch's, under create_graph): inputs (grad_output, self).
    It is linear in grad_output, which gets back ``avg_pool2d(gg)`` with the same arguments; self gets zeros."""

    node_name: str = "AvgPool2DBackwardBackward0"
    jvp = "from_vjp"                           # linear in grad_output: the vjp of the vjp
    saved_attrs = ("ceil_mode", "count_include_pad", "divisor_override", "kernel_size", "padding", "stride")

    @staticmethod
    def forward(ctx: Any, grad: Tensor, x: Tensor, pool: Any) -> Any:
        names = (*AvgPool2dBackward.saved_attrs, "geometry", "out", "divisor")
        ctx.pool = SimpleNamespace(**{name: getattr(pool, name) for name in names})   # (not the node itself)
        for name in AvgPool2dBackward.saved_attrs:
            setattr(ctx, name, getattr(pool, name))
        return _avg_pool_backward(pool, grad, tuple(x.shape))._data

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> Grads:
        p = ctx.pool
        g = AvgPool2d.apply(gg, p.geometry[0], p.geometry[1], p.padding, p.ceil_mode, p.count_include_pad,
                            p.divisor_override, p.stride)
        return g, zeros_for_self(ctx), None


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

_row(ConvolutionBackward, ("grad_output", "input", "weight"),
     ("conv(gg_input, weight) + conv(input, gg_weight) + gg_bias", "conv_transpose(grad_output, gg_weight)",
      "conv(gg_input, grad_output) (correlate gg_input with grad_output)"),
     "convolution_backward as one node: its gradients are convolutions again (it is bilinear in its inputs).")
_row(MaxPool2dBackward, ("grad_output", "self"), ("gg at each window's max (indices)", "0"),
     "max pooling's backward as one node: linear in grad_output, whose gradient reads gg back at the maxima.")
_row(AvgPool2dBackward, ("grad_output", "self"), ("avg_pool2d(gg)", "0"),
     "average pooling's backward as one node: linear in grad_output, whose gradient is gg average-pooled.")
