"""``nn.functional``'s 1-d pooling and the instance / RMS norms, composed as PyTorch composes them.

* ``max_pool1d`` / ``avg_pool1d`` / ``adaptive_avg_pool1d``: ATen runs the 2-d op on ``input.unsqueeze(-2)``
  with a ``1 ×`` window and squeezes the result: ``SqueezeBackward1`` ← ``MaxPool2DWithIndicesBackward0``
  (or ``AvgPool2DBackward0``, ``AdaptiveAvgPool2DBackward0``) ← ``UnsqueezeBackward0``.
* ``instance_norm``: batch norm of the input viewed as ``(1, N·C, ...)``, the affine parameters and running
  statistics repeated ``N`` times (``ViewBackward0`` ← ``NativeBatchNormBackward0``, ``RepeatBackward0``).
* ``rms_norm``: ``x · rsqrt(mean(x², dims) + eps)`` (``· weight``), eps defaulting to the dtype's ``finfo.eps``.

These are imported into ``minigrad.nn.functional``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._tensor import Tensor
from ..autograd import grad_mode
from ..ops import elementwise as E
from ..ops.conv import out_size
from . import functional as F

__all__ = ["max_pool1d", "max_pool1d_with_indices", "avg_pool1d", "adaptive_avg_pool1d", "instance_norm",
           "rms_norm"]


def _single(value: Any, fn: str, name: str, default: Any = None) -> int:
    """One int from an int or a 1-sequence, as ATen's 1-d pooling reads its arguments."""
    if value is None:
        return default
    if isinstance(value, (int, np.integer)):
        return int(value)
    value = tuple(value)
    if len(value) == 0 and default is not None:
        return default
    if len(value) != 1:
        if fn == "max_pool1d":
            raise RuntimeError("max_pool1d() %s must be an int, list of ints or tuple of ints of size 1 but got size %d"
                               % (name, len(value)))
        raise RuntimeError("%s() argument '%s' should contain one int (got %d)" % (fn, name, len(value)))
    return int(value[0])


def _check_dims(input: Tensor, fn: str) -> None:
    if input.ndim not in (2, 3):
        if fn == "max_pool1d":
            raise RuntimeError("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
                               "input, but got:[%s]" % ", ".join(map(str, input.shape)))
        raise RuntimeError("Expected 2 to 3 dimensions, but got %d-dimensional tensor for argument #1 'self' (while "
                           "checking arguments for %s)" % (input.ndim, fn))


def max_pool1d_with_indices(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
                            ceil_mode: bool = False, return_indices: bool = False) -> tuple[Tensor, Tensor]:
    """``(max of each window, index of its first maximum)`` along the last dim of ``(N, C, L)`` or ``(C, L)``.

    PyTorch's ``max_pool1d_with_indices``: ``max_pool2d_with_indices`` on ``input.unsqueeze(-2)``, so its
    argument errors are max_pool2d's (plain ``max_pool1d`` has a kernel, and errors, of its own)."""
    if input.ndim not in (2, 3):
        raise RuntimeError("Expected 2 to 3 dimensions, but got %d-dimensional tensor for argument #1 'self' (while "
                           "checking arguments for max_pool1d)" % input.ndim)
    k = _single(kernel_size, "max_pool1d", "kernel_size")
    s = _single(stride, "max_pool1d", "stride", default=k)
    out, index = F.max_pool2d(input.unsqueeze(-2), (1, k), (1, s), (0, _single(padding, "max_pool1d", "padding")),
                              (1, _single(dilation, "max_pool1d", "dilation")), ceil_mode, return_indices=True)
    return out.squeeze(-2), index.squeeze(-2)


def _max_pool1d(input: Tensor, kernel_size: Any, stride: Any, padding: Any, dilation: Any, ceil_mode: bool) -> Tensor:
    """PyTorch's native ``max_pool1d`` (no indices): its own argument checks, then the windows' maxima."""
    _check_dims(input, "max_pool1d")
    shape = tuple(input.shape)
    if 0 in shape[1:] or (len(shape) == 2 and shape[0] == 0):
        raise RuntimeError("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
                           "input, but got:[%s]" % ", ".join(map(str, shape)))
    k = _single(kernel_size, "max_pool1d", "kernel_size")
    s = _single(stride, "max_pool1d", "stride", default=k)
    p = _single(padding, "max_pool1d", "padding")
    d = _single(dilation, "max_pool1d", "dilation")
    for name, v, low in (("kernel_size", k, 1), ("stride", s, 1), ("padding", p, 0), ("dilation", d, 1)):
        if v < low:
            raise RuntimeError("max_pool1d() %s must be %s zero, but got %d"
                               % (name, "greater than" if low else "non-negative and at least", v))
    if p > k // 2:
        raise RuntimeError("max_pool1d() padding should be at most half of kernel size, but got padding=%d and "
                           "kernel_size=%d" % (p, k))
    if out_size(input.shape[-1], k, s, p, d, ceil_mode) < 1:
        raise RuntimeError("max_pool1d() Invalid computed output size: %d" % out_size(input.shape[-1], k, s, p, d,
                                                                                        ceil_mode))
    out = F.max_pool2d(input.unsqueeze(-2), (1, k), (1, s), (0, p), (1, d), ceil_mode)
    return out.squeeze(-2)


def max_pool1d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
               ceil_mode: bool = False, return_indices: bool = False) -> Any:
    """The max of each ``kernel_size`` window along the last dim; ``stride`` defaults to ``kernel_size``.

    >>> import minigrad as torch
    >>> torch.nn.functional.max_pool1d(torch.tensor([[[1., 3., 2., 5., 4.]]]), 2)
    tensor([[[3., 5.]]])
    """
    if return_indices:
        return max_pool1d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return _max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode)


def avg_pool1d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
               count_include_pad: bool = True) -> Tensor:
    """The mean of each ``kernel_size`` window along the last dim (``AvgPool2DBackward0`` on ``unsqueeze(-2)``).

    >>> import minigrad as torch
    >>> torch.nn.functional.avg_pool1d(torch.tensor([[[1., 3., 2., 6.]]]), 2)
    tensor([[[2., 4.]]])
    """
    _check_dims(input, "avg_pool1d")
    k = _single(kernel_size, "avg_pool1d", "kernel_size")
    s = _single(stride, "avg_pool1d", "stride", default=k)
    p = _single(padding, "avg_pool1d", "padding")
    if p > k // 2:
        raise RuntimeError("pad should be at most half of effective kernel size, but got pad=%d, kernel_size=%d and "
                           "dilation=1" % (p, k))
    n = out_size(input.shape[-1], k, s, p, 1, ceil_mode)
    if n < 1:
        lead = str(input.shape[-2])
        raise RuntimeError("Given input size: (%sx1x%d). Calculated output size: (%sx1x%d). Output size is too small"
                           % (lead, input.shape[-1], lead, n))
    out = F.avg_pool2d(input.unsqueeze(-2), (1, k), (1, s), (0, p), ceil_mode, count_include_pad)
    return out.squeeze(-2)


def adaptive_avg_pool1d(input: Tensor, output_size: Any) -> Tensor:
    """Average pooling to ``output_size`` along the last dim, whatever its length.

    >>> import minigrad as torch
    >>> torch.nn.functional.adaptive_avg_pool1d(torch.tensor([[[1., 3., 2., 6.]]]), 2)
    tensor([[[2., 4.]]])
    """
    _check_dims(input, "adaptive_avg_pool1d")
    o = _single(output_size, "adaptive_avg_pool1d", "output_size")
    return F.adaptive_avg_pool2d(input.unsqueeze(-2), (1, o)).squeeze(-2)


def _repeat(t: Tensor | None, n: int) -> Tensor | None:
    return None if t is None else t.repeat(n)


def instance_norm(input: Tensor, running_mean: Tensor | None = None, running_var: Tensor | None = None,
                  weight: Tensor | None = None, bias: Tensor | None = None, use_input_stats: bool = True,
                  momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Standardize each (sample, channel) over the spatial dims: ATen's batch norm on ``(1, N·C, ...)``.

    >>> import minigrad as torch
    >>> torch.nn.functional.instance_norm(torch.tensor([[[1., 3.], [2., 2.]]]))
    tensor([[[-1.0000,  1.0000],
             [ 0.0000,  0.0000]]])
    """
    if use_input_stats:
        size = math.prod(input.shape[2:])
        if size == 1:
            raise ValueError("Expected more than 1 spatial element when training, got input size %r"
                             % (input.size(),))
    b, c = input.shape[0], input.shape[1]
    reshaped = input.contiguous().view(1, b * c, *input.shape[2:])
    mean_, var_ = _repeat(running_mean, b), _repeat(running_var, b)
    out = F.batch_norm(reshaped, mean_, var_, _repeat(weight, b), _repeat(bias, b), use_input_stats, momentum, eps)
    with grad_mode.no_grad():
        if running_mean is not None and mean_ is not None:
            running_mean.copy_(mean_.view(b, c).mean(0))
        if running_var is not None and var_ is not None:
            running_var.copy_(var_.view(b, c).mean(0))
    return out.view(input.shape)


def rms_norm(input: Tensor, normalized_shape: Any, weight: Tensor | None = None, eps: float | None = None) -> Tensor:
    """``input · rsqrt(mean(input², last dims) + eps) (· weight)``; ``eps`` None: the dtype's machine epsilon.

    >>> import minigrad as torch
    >>> torch.nn.functional.rms_norm(torch.tensor([[3., 4.]]), (2,), eps=0.0)
    tensor([[0.8485, 1.1314]])
    """
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    if tuple(input.shape[input.ndim - len(shape):]) != shape or len(shape) == 0 or len(shape) > input.ndim:
        raise RuntimeError("Given normalized_shape=[%s], expected input with shape [*%s], but got input of size%s"
                           % (", ".join(map(str, shape)), ", ".join(map(str, shape)), list(input.shape)))
    if weight is not None and tuple(weight.shape) != shape:
        raise RuntimeError("Expected weight to be of same shape as normalized_shape, but got weight of shape [%s] "
                           "and normalized_shape = [%s]" % (", ".join(map(str, weight.shape)),
                                                            ", ".join(map(str, shape))))
    if eps is None:
        eps = float(np.finfo(input._data.dtype).eps)
    dims = tuple(range(input.ndim - len(shape), input.ndim))
    out = input * E.AddScalar.apply(input.pow(2).mean(dims, keepdim=True), eps).rsqrt()   # (ATen: add_(eps))
    return out if weight is None else out * weight
