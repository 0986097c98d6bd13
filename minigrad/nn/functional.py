"""``minigrad.nn.functional``: layers, activations and losses as functions, with PyTorch's graphs and errors.

Where PyTorch's loss is a composite of other ops (``l1_loss``, ``cross_entropy``), it is
written here with the same ops, so ``grad_fn`` chains look the same in both libraries:

>>> import minigrad as torch
>>> import minigrad.nn.functional as F
>>> logits = torch.tensor([[1., 2., 3.], [1., 1., 1.]], requires_grad=True)
>>> loss = F.cross_entropy(logits, torch.tensor([2, 0]))
>>> loss, loss.grad_fn.next_functions[0][0].name()
(tensor(0.7531, grad_fn=<NllLossBackward0>), 'LogSoftmaxBackward0')
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from .. import _checks, _dtype, _random
from .._creation import _rng
from .._tensor import Tensor
from ..autograd import grad_mode
from ..ops import conv as C
from ..ops import elementwise as E
from ..ops import linalg as L
from ..ops import nn_ops as N
from ..ops import padding as _padding  # nn2
from ..ops import shape as S
from ..ops._util import broadcast_shape
from ..ops.adaptive import AdaptiveAvgPool2d
from ..ops.convt import ConvTranspose2d
from ._activation_functions import *  # noqa: F403 - relu6, selu, celu, hardswish, mish, glu, prelu, rrelu...
from ._activation_functions import __all__ as _activations_all
from ._activation_functions import _elu
from ._loss_functions import *  # noqa: F403 - kl_div, margin_ranking_loss, cosine_embedding_loss, ...
from ._loss_functions import __all__ as _losses_all

__all__ = [
    "linear",
    "bilinear",
    "conv2d",
    "max_pool2d",
    "avg_pool2d",
    "adaptive_avg_pool2d",
    "conv_transpose2d",
    "relu",
    "relu_",
    "leaky_relu",
    "threshold",
    "threshold_",
    "hardtanh",
    "silu",
    "elu",
    "softplus",
    "gelu",
    "sigmoid",
    "tanh",
    "logsigmoid",
    "softmax",
    "log_softmax",
    "dropout",
    "dropout1d",
    "dropout2d",
    "dropout3d",
    "layer_norm",
    "batch_norm",
    "embedding",
    "one_hot",
    "pad",
    "normalize",
    "cosine_similarity",
    "mse_loss",
    "l1_loss",
    "smooth_l1_loss",
    "huber_loss",
    "cross_entropy",
    "nll_loss",
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    *_activations_all,
    *_losses_all,
]


# -- layers ------------------------------------------------------------------------------------


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``input @ weight.T + bias``, recorded as PyTorch records it.

    A 2-D input with a bias is a single ``AddmmBackward0`` (bias, input, ``weight.t()``); other
    ranks are flattened to 2-D and viewed back; without a bias it is ``MmBackward0``.

    >>> import minigrad as torch
    >>> import minigrad.nn.functional as F
    >>> F.linear(torch.ones(2, 3), torch.ones(4, 3), torch.zeros(4)).shape
    torch.Size([2, 4])
    """
    _checks.tensor_arg(input, "linear", "input")
    _checks.tensor_arg(weight, "linear", "weight", 2)
    if input.ndim == 0:
        raise RuntimeError(
            "both arguments to linear need to be at least 1D, but they are 0D and %dD" % weight.ndim
        )
    if bias is None:
        if input.ndim <= 2:
            return input.matmul(weight.t())  # MmBackward0 (SqueezeBackward4 for 1-D)
        flat = input.reshape(math.prod(input.shape[:-1]), input.shape[-1]).mm(weight.t())   # not -1: may be empty
        return S.UnsafeView.apply(flat, (*input.shape[:-1], weight.shape[0]))
    if input.ndim == 2:
        return L.Addmm.apply(bias, input, weight.t())
    if not input.is_contiguous():                        # PyTorch: matmul, then add_(bias): AddBackward0,
        return input.matmul(weight.t()).add_(bias)       # the product's dtype, version 1
    out = L.Addmm.apply(bias, input.reshape(math.prod(input.shape[:-1]), input.shape[-1]), weight.t())
    return out.view((*input.shape[:-1], weight.shape[0]))


def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``y[..., o] = input1 · weight[o] · input2 + bias[o]`` (``TrilinearBackward0``)."""
    for k, (x, expected) in enumerate(((input1, weight.shape[1]), (input2, weight.shape[2]))):
        if x.shape[-1] != expected:
            raise RuntimeError("bilinear(): input%d size does not match weight size: got %d but expected %d"
                               % (k + 1, x.shape[-1], expected))
    for d, (n1, n2) in enumerate(zip(input1.shape[:-1], input2.shape[:-1])):
        if n1 != n2:
            raise RuntimeError("bilinear(): input batch dimensions do not match at dim %d: got %d and %d" % (d, n1, n2))
    if bias is not None and tuple(bias.shape) != (weight.shape[0],):
        raise RuntimeError("bilinear(): bias size does not match weight size: got %d but expected %d"
                           % (bias.shape[-1], weight.shape[0]))
    out = N.Trilinear.apply(
        input1.reshape(-1, input1.shape[-1]), weight, input2.reshape(-1, input2.shape[-1])
    )
    out = out.reshape((*input1.shape[:-1], weight.shape[0]))
    return out if bias is None else out + bias


# -- convolution and pooling ----------------------------------------------------------------


def _pair(value, name="stride"):
    """An int or a 1-/2-sequence as a pair (PyTorch's ``_pair``)."""
    if isinstance(value, int):
        return (value, value)
    value = tuple(int(v) for v in value)
    if len(value) == 1:
        return value * 2
    if len(value) != 2:
        raise RuntimeError(
            "expected %s to be a single integer value or a list of 2 values to match the convolution "
            "dimensions, but got %s=%s" % (name, name, list(value))
        )
    return value


def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: int | tuple[int, ...] = 1,
           padding: int | tuple[int, ...] | str = 0, dilation: int | tuple[int, ...] = 1, groups: int = 1) -> Any:
    """2-D cross-correlation of ``(N, C, H, W)`` (or unbatched ``(C, H, W)``) with ``(O, C/groups, kh, kw)``.

    One ``ConvolutionBackward0`` node with edges to input, weight and bias (``(None, 0)`` when
    absent).  ``padding`` may be ``'valid'`` or ``'same'`` (stride 1; an odd total pad is added to
    the right/bottom by a ``ConstantPadNdBackward0`` first, as in PyTorch).

    >>> import minigrad as torch
    >>> import minigrad.nn.functional as F
    >>> F.conv2d(torch.ones(1, 1, 3, 3), torch.ones(1, 1, 2, 2))
    tensor([[[[4., 4.],
              [4., 4.]]]])
    """
    if input.ndim not in (3, 4):
        raise RuntimeError(
            "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: %s" % list(input.shape)
        )
    if input.ndim == 3:
        return conv2d(input.unsqueeze(0), weight, bias, stride, padding, dilation, groups).squeeze(0)
    if weight.ndim != 4:
        raise RuntimeError(
            "weight should have at least three dimensions" if weight.ndim < 3 else
            "expected stride to be a single integer value or a list of %d values to match the convolution "
            "dimensions, but got stride=%s" % (weight.ndim - 2, list(_pair(stride)))
        )
    stride, dilation = _pair(stride), _pair(dilation, "dilation")
    if min(stride) <= 0:
        raise RuntimeError("non-positive stride is not supported")
    if min(dilation) <= 0:
        raise RuntimeError("dilation should be greater than zero, but got %s" % list(dilation))
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if weight.shape[0] < groups:
        raise RuntimeError("Given groups=%d, expected weight to be at least %d at dimension 0, but got weight of size "
                           "%s instead" % (groups, groups, list(weight.shape)))
    if weight.shape[0] % groups:
        raise RuntimeError("Given groups=%d, expected weight to be divisible by %d at dimension 0, but got weight of "
                           "size %s instead" % (groups, groups, list(weight.shape)))
    if bias is not None and tuple(bias.shape) != (weight.shape[0],):
        raise RuntimeError("Given weight of size %s, expected bias to be 1-dimensional with %d elements, but got bias "
                           "of size %s instead" % (list(weight.shape), weight.shape[0], list(bias.shape)))
    kernel = tuple(weight.shape[2:])
    if isinstance(padding, str):
        if padding == "valid":
            padding = (0, 0)
        elif padding == "same":
            if stride != (1, 1):
                raise RuntimeError("padding='same' is not supported for strided convolutions")
            totals = [dilation[i] * (kernel[i] - 1) for i in (0, 1)]
            padding = (totals[0] // 2, totals[1] // 2)
            extra = [totals[i] - 2 * padding[i] for i in (0, 1)]
            if any(extra):
                input = pad(input, (0, extra[1], 0, extra[0]))
        else:
            raise RuntimeError("Invalid padding string: '%s'" % padding)
    else:
        padding = _pair(padding, "padding")
        if min(padding) < 0:
            raise RuntimeError("negative padding is not supported")
    if input.shape[1] != weight.shape[1] * groups:
        raise RuntimeError(
            "Given groups=%d, weight of size %s, expected input%s to have %d channels, but got %d channels instead"
            % (groups, list(weight.shape), list(input.shape), weight.shape[1] * groups, input.shape[1])
        )
    padded = [input.shape[2 + i] + 2 * padding[i] for i in (0, 1)]
    effective = [dilation[i] * (kernel[i] - 1) + 1 for i in (0, 1)]
    if padded[0] < effective[0] or padded[1] < effective[1]:
        raise RuntimeError(
            "Calculated padded input size per channel: (%d x %d). Kernel size: (%d x %d). "
            "Kernel size can't be greater than actual input size" % (*padded, *effective)
        )
    return C.Convolution.apply(input, weight, _or_undefined(bias), stride, padding, dilation, groups)


def _pool_args(input, kernel_size, stride, padding, dilation):
    """Pooling's checked geometry, and the stride to save (``()`` when defaulted, as PyTorch)."""
    for value in (kernel_size, stride):
        if value is not None and 0 in ((value,) if isinstance(value, int) else tuple(value)):
            raise RuntimeError("stride should not be zero")
    if input.ndim not in (3, 4) or input.numel() == 0:
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    kernel = _pair(kernel_size, "kernel_size")
    saved_stride = () if stride is None or (not isinstance(stride, int) and len(stride) == 0) else _pair(stride)
    stride = kernel if saved_stride == () else saved_stride
    padding, dilation = _pair(padding, "padding"), _pair(dilation, "dilation")
    for i in (0, 1):
        if padding[i] > (dilation[i] * (kernel[i] - 1) + 1) // 2:
            raise RuntimeError(
                "pad should be at most half of effective kernel size, but got pad=%d, kernel_size=%d and "
                "dilation=%d" % (padding[i], kernel[i], dilation[i])
            )
    return kernel, stride, padding, dilation, saved_stride


def _check_pool_output(input, out):
    if out[0] < 1 or out[1] < 1:
        c, h, w = input.shape[-3:]
        raise RuntimeError(
            "Given input size: (%dx%dx%d). Calculated output size: (%dx%dx%d). Output size is too small"
            % (c, h, w, c, out[0], out[1])
        )


def max_pool2d(input: Tensor, kernel_size: Any, stride: Any = None, padding: int | tuple[int, ...] | str = 0,
               dilation: int | tuple[int, ...] = 1, ceil_mode: bool = False, return_indices: bool = False) -> Any:
    """The max of each window (``MaxPool2DWithIndicesBackward0``); the gradient goes to each window's
    first maximum.  ``stride`` defaults to ``kernel_size``; padding counts as -inf.

    >>> import minigrad as torch
    >>> import minigrad.nn.functional as F
    >>> F.max_pool2d(torch.arange(16.).reshape(1, 1, 4, 4), 2)
    tensor([[[[ 5.,  7.],
              [13., 15.]]]])
    """
    kernel, stride, padding, dilation, saved = _pool_args(input, kernel_size, stride, padding, dilation)
    out = [C.out_size(input.shape[-2 + i], kernel[i], stride[i], padding[i], dilation[i], ceil_mode) for i in (0, 1)]
    _check_pool_output(input, out)
    result = C.MaxPool2d.apply(input, kernel, stride, padding, dilation, bool(ceil_mode), saved)
    if return_indices:
        _, index = C.max_pool2d_forward(input._data, kernel, stride, padding, dilation, bool(ceil_mode))
        return result, Tensor._make(index)
    return result


def avg_pool2d(input: Tensor, kernel_size: Any, stride: Any = None, padding: int | tuple[int, ...] | str = 0,
               ceil_mode: bool = False, count_include_pad: bool = True, divisor_override: Any = None) -> Any:
    """The mean of each window (``AvgPool2DBackward0``); ``stride`` defaults to ``kernel_size``.

    Zero padding counts in the divisor if ``count_include_pad``; ``divisor_override`` replaces it.

    >>> import minigrad as torch
    >>> import minigrad.nn.functional as F
    >>> F.avg_pool2d(torch.arange(16.).reshape(1, 1, 4, 4), 2)
    tensor([[[[ 2.5000,  4.5000],
              [10.5000, 12.5000]]]])
    """
    kernel, stride, padding, _, saved = _pool_args(input, kernel_size, stride, padding, 1)
    out = [C.out_size(input.shape[-2 + i], kernel[i], stride[i], padding[i], 1, ceil_mode) for i in (0, 1)]
    _check_pool_output(input, out)
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    return C.AvgPool2d.apply(
        input, kernel, stride, padding, bool(ceil_mode), bool(count_include_pad), divisor_override, saved
    )


def conv_transpose2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: int | tuple[int, ...] = 1,
                     padding: int | tuple[int, ...] | str = 0, output_padding: int | tuple[int, ...] = 0,
                     groups: int = 1, dilation: int | tuple[int, ...] = 1) -> Tensor:
    """Transposed convolution ("deconvolution"): ``weight`` is ``(C_in, C_out, kh, kw)``; the output grows.

    Output size per dim: ``(n − 1)·stride − 2·padding + dilation·(k − 1) + output_padding + 1``.
    One ``ConvolutionBackward0`` node, as in PyTorch.

    >>> import minigrad as torch
    >>> import minigrad.nn.functional as F
    >>> F.conv_transpose2d(torch.ones(1, 1, 2, 2), torch.ones(1, 1, 2, 2), stride=2).shape
    torch.Size([1, 1, 4, 4])
    """

    if input.ndim not in (3, 4):
        raise RuntimeError("Expected 3D (unbatched) or 4D (batched) input to conv_transpose2d, but got input of "
                           "size: %s" % list(input.shape))
    if input.ndim == 3:
        return conv_transpose2d(input.unsqueeze(0), weight, bias, stride, padding, output_padding, groups,
                                dilation).squeeze(0)
    if groups != 1:
        raise NotImplementedError("minigrad's conv_transpose2d supports groups=1 only")
    if input.shape[1] != weight.shape[0]:
        raise RuntimeError("Given transposed=1, weight of size %s, expected input%s to have %d channels, but got %d "
                           "channels instead" % (list(weight.shape), list(input.shape), weight.shape[0],
                                                 input.shape[1]))
    return ConvTranspose2d.apply(input, weight, bias, _pair(stride), _pair(padding), _pair(output_padding),
                                 _pair(dilation, "dilation"))


def adaptive_avg_pool2d(input: Tensor, output_size: Any) -> Tensor:
    """Average over the windows that make an ``output_size`` result (``AdaptiveAvgPool2DBackward0``).

    ``output_size`` is ``(oh, ow)`` or one number for both; ``None`` keeps that input size. An output of
    ``1 × 1`` is the mean over the last two dims (``MeanBackward1``), as in PyTorch.

    >>> import minigrad as torch
    >>> import minigrad.nn.functional as F
    >>> F.adaptive_avg_pool2d(torch.arange(16.).reshape(1, 4, 4), 2)
    tensor([[[ 2.5000,  4.5000],
             [10.5000, 12.5000]]])
    """

    if input.ndim not in (3, 4):
        raise RuntimeError("adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got %s" % list(input.shape))
    size = (output_size, output_size) if isinstance(output_size, int) else tuple(output_size)
    size = tuple(input.shape[-2 + i] if s is None else int(s) for i, s in enumerate(size))
    if size == (1, 1):
        return input.mean((-1, -2), keepdim=True)
    return AdaptiveAvgPool2d.apply(input, size)


def embedding(
    input: Tensor,
    weight: Tensor,
    padding_idx: int | None = None,
    max_norm: float | None = None,
    norm_type: float = 2.0,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
) -> Tensor:
    """The rows of ``weight`` picked by the integer tensor ``input`` (``EmbeddingBackward0``).

    >>> import minigrad as torch
    >>> import minigrad.nn.functional as F
    >>> F.embedding(torch.tensor([2, 0]), torch.arange(6.).view(3, 2))
    tensor([[4., 5.],
            [0., 1.]])
    """
    if input.dtype not in (_dtype.int64, _dtype.int32):
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar types: "
            "Long, Int; but got %s instead (while checking arguments for embedding)" % input.type()
        )
    if sparse:
        raise NotImplementedError("minigrad has no sparse gradients: use sparse=False")
    if padding_idx is not None and padding_idx < 0:
        padding_idx += weight.shape[0]
    if max_norm is not None:
        _renormalize_rows(weight, input._data, max_norm, norm_type)
    return N.Embedding.apply(weight, input._data, padding_idx, scale_grad_by_freq)


def _renormalize_rows(weight, indices, max_norm, norm_type):
    """Scale the looked-up rows whose norm exceeds ``max_norm`` down to it, in place (as PyTorch does)."""
    rows = np.unique(indices)
    data = weight._data
    norms = np.linalg.norm(data[rows], ord=norm_type, axis=1)
    scale = np.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
    data[rows] *= scale[:, None].astype(data.dtype)
    weight._version_counter[0] += 1


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """An int64 tensor with a trailing dim of size ``num_classes``: 1 at each index, 0 elsewhere.

    >>> import minigrad as torch
    >>> import minigrad.nn.functional as F
    >>> F.one_hot(torch.tensor([0, 2]))
    tensor([[1, 0, 0],
            [0, 0, 1]])
    """
    if tensor.dtype is not _dtype.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    data = tensor._data
    if num_classes == -1:
        if data.size == 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(data.max()) + 1
    if data.size and data.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if data.size and data.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    return Tensor._make((data[..., None] == np.arange(num_classes)).astype(np.int64))


def pad(
    input: Tensor, pad: list[int] | tuple[int, ...], mode: str = "constant", value: float | None = None
) -> Tensor:
    """Pad with a constant; ``pad`` is ``(left, right)`` for the last dim, then the one before, …

    ``mode='reflect'``, ``'replicate'`` or ``'circular'`` pad with the mirror image, the edge values, or the
    other end (``minigrad/ops/padding.py``; 1 to 3 trailing dims, as PyTorch).

    >>> import minigrad as torch
    >>> import minigrad.nn.functional as F
    >>> F.pad(torch.ones(2), (1, 2))
    tensor([0., 1., 1., 0., 0.])
    """
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise NotImplementedError("Unrecognised padding mode %s" % mode)
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.ndim:
        raise RuntimeError(
            "Padding length should be less than or equal to two times the input dimension but got "
            "padding length %d and input of dimension %d" % (len(pad), input.ndim)
        )
    if mode != "constant":                                  # nn2: reflect / replicate / circular
        return _padding.pad(input, tuple(int(p) for p in pad), mode, value)
    if value is not None and not isinstance(value, (int, float, np.number)):
        raise TypeError("pad(): argument 'value' (position 4) must be float, not %s" % type(value).__name__)
    return N.ConstantPadNd.apply(input, tuple(int(p) for p in pad), 0 if value is None else value)


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12, out: Any = None) -> Tensor:
    """``v / max(‖v‖_p, eps)`` for each vector along ``dim``.

    As in PyTorch, a composite: ``DivBackward0`` of the input and ``ExpandBackward0`` ←
    ``ClampMinBackward0`` ← ``LinalgVectorNormBackward0``.

    >>> import minigrad as torch
    >>> import minigrad.nn.functional as F
    >>> F.normalize(torch.tensor([[3., 4.], [0., 0.]]))
    tensor([[0.6000, 0.8000],
            [0.0000, 0.0000]])
    """
    if out is not None:
        raise NotImplementedError("minigrad's F.normalize has no out= argument")
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    return input / denom


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """``Σ (x1/‖x1‖)(x2/‖x2‖)`` along ``dim`` (after broadcasting), each norm at least ``eps``.

    As in PyTorch: the inputs are broadcast, divided by a clone of their norm (clamped to
    ``eps`` outside the graph), multiplied and summed (``SumBackward1`` ← ``MulBackward0`` ← ...).

    >>> import minigrad as torch
    >>> import minigrad.nn.functional as F
    >>> F.cosine_similarity(torch.tensor([[1., 0.], [1., 1.]]), torch.tensor([[1., 0.], [0., 1.]]))
    tensor([1.0000, 0.7071])
    """

    common = _dtype.result_type(x1, x2)
    if not common.is_floating_point:
        raise RuntimeError(
            "expected common dtype to be floating point, yet common dtype is %s" % common._legacy
        )
    # only integer inputs are converted (a float32 input's norm is float32, as in PyTorch: 1e30 overflows it)
    x1, x2 = (x if x.dtype.is_floating_point else x.to(common) for x in (x1, x2))
    if x1.shape != x2.shape:               # both expanded (PyTorch's expand_outplace), or neither
        shape = broadcast_shape(x1.shape, x2.shape)
        x1, x2 = x1.expand(shape), x2.expand(shape)

    def unit(x):
        norm = x.norm(2, dim, keepdim=True).clone()
        with grad_mode.no_grad():
            norm.clamp_(min=eps)
        return x / norm

    return (unit(x1) * unit(x2)).sum(dim)


# -- activations ----------------------------------------------------------------------------------


def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """``max(x, 0)`` (``ReluBackward0``)."""
    _checks.tensor_arg(input, "relu", "input")
    return input.relu_() if inplace else E.Relu.apply(input)


def relu_(input: Tensor) -> Tensor:
    return input.relu_()


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    """``x`` where positive, ``negative_slope · x`` elsewhere (``LeakyReluBackward0``).

    >>> import minigrad as torch
    >>> import minigrad.nn.functional as F
    >>> F.leaky_relu(torch.tensor([-1., 2.]), 0.1)
    tensor([-0.1000,  2.0000])
    """
    _checks.number_arg(negative_slope, "leaky_relu", "negative_slope", 2)
    if inplace:
        return input._inplace(lambda x: N.LeakyReluInplace.apply(x, negative_slope))
    return N.LeakyRelu.apply(input, negative_slope)


def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    """``x`` where ``x > threshold``, ``value`` elsewhere (``ThresholdBackward0``).

    >>> import minigrad as torch
    >>> import minigrad.nn.functional as F
    >>> F.threshold(torch.tensor([-1., 0.5, 2.]), 0.5, -3.)
    tensor([-3., -3.,  2.])
    """
    _checks.tensor_arg(input, "threshold", "input")
    _checks.number_arg(threshold, "threshold", "threshold", 2)
    _checks.number_arg(value, "threshold", "value", 3)
    if inplace:
        return threshold_(input, threshold, value)
    return N.Threshold.apply(input, threshold, value)


def threshold_(input: Tensor, threshold: float, value: float) -> Tensor:
    """In-place :func:`threshold` (``ThresholdBackward1``)."""
    _checks.tensor_arg(input, "threshold_", "input")
    _checks.number_arg(threshold, "threshold_", "threshold", 2)
    _checks.number_arg(value, "threshold_", "value", 3)
    # PyTorch's threshold kernel skips the overlap check ("threshold is idempotent"): an expand may be written
    return input._inplace(lambda x: N.ThresholdInplace.apply(x, threshold, value), fill=True)


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False) -> Tensor:
    """``clamp(x, min_val, max_val)`` with zero gradient at the bounds (``HardtanhBackward0``)."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    if inplace:
        return input._inplace(lambda x: N.Hardtanh.apply(x, min_val, max_val))
    return N.Hardtanh.apply(input, min_val, max_val)


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    """``x Φ(x)`` with Φ the standard normal CDF, or its tanh approximation (``GeluBackward0``).

    >>> import minigrad as torch
    >>> import minigrad.nn.functional as F
    >>> F.gelu(torch.tensor([-1., 0., 1.]))
    tensor([-0.1587,  0.0000,  0.8413])
    """
    _checks.tensor_arg(input, "gelu", "input")
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    return N.Gelu.apply(input, approximate)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    """``x · σ(x)`` (``SiluBackward0``)."""
    return N.Silu.apply(input)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """``x`` where positive, ``alpha (eˣ - 1)`` elsewhere (``EluBackward0``; in place ``EluBackward1``)."""
    return _elu(input, alpha, 1.0, 1.0, inplace, "elu")


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    """``log(1 + e^(βx)) / β``, a smooth ReLU (``SoftplusBackward0``)."""
    _checks.number_arg(beta, "softplus", "beta", 2)
    _checks.number_arg(threshold, "softplus", "threshold", 3)
    return N.Softplus.apply(input, beta, threshold)


def sigmoid(input: Tensor) -> Tensor:
    return E.Sigmoid.apply(input)


def tanh(input: Tensor) -> Tensor:
    return E.Tanh.apply(input)


def logsigmoid(input: Tensor) -> Tensor:
    """``log σ(x)``, computed without overflow (``LogSigmoidBackward0``)."""
    return N.LogSigmoid.apply(input)


def _implicit_dim(name: str, ndim: int) -> int:
    warnings.warn(
        "Implicit dimension choice for %s has been deprecated. Change the call to include dim=X as an "
        "argument." % name,
        UserWarning,
        stacklevel=4,
    )
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None) -> Tensor:
    """``e^x / Σ e^x`` along ``dim`` (``SoftmaxBackward0``)."""
    if dim is None:
        dim = _implicit_dim("softmax", input.ndim)
    return input.softmax(dim, dtype=dtype)


def log_softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None) -> Tensor:
    """``x - log Σ e^x`` along ``dim``, computed stably (``LogSoftmaxBackward0``)."""
    if dim is None:
        dim = _implicit_dim("log_softmax", input.ndim)
    return input.log_softmax(dim, dtype=dtype)


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero each element with probability ``p`` and scale the rest by ``1/(1-p)`` (training only).

    The mask comes from the default generator, so ``manual_seed`` makes it reproducible. In
    eval mode, or with ``p=0``, the input itself is returned.

    >>> import minigrad as torch
    >>> import minigrad.nn.functional as F
    >>> x = torch.ones(4)
    >>> F.dropout(x, 0.5, training=False) is x
    True
    """
    if p < 0.0 or p > 1.0:
        raise ValueError("dropout probability has to be between 0 and 1, but got %s" % p)
    _checks.tensor_arg(input, "dropout", "input")
    if p == 0 or not training or input.numel() == 0:
        return input
    return _dropout_noise(input, input.shape, p, inplace)


def _dropout_noise(input: Tensor, noise_shape, p: float, inplace: bool) -> Tensor:
    """PyTorch's CPU ``_dropout``: ``noise = empty(shape).bernoulli_(1 - p) / (1 - p)``, then ``input · noise``."""
    dtype = input._data.dtype
    if p == 1:
        mask = np.zeros((), dtype=dtype)
    else:
        order = _memory_order(input._data) if tuple(noise_shape) == tuple(input.shape) else None
        if order is None:
            mask = _random.bernoulli(_rng(), noise_shape, dtype, 1 - p) / dtype.type(1 - p)
        else:   # nn4: empty_like(input) keeps a transposed layout, and bernoulli_ fills it in memory order
            drawn = _random.bernoulli(_rng(), tuple(input.shape[d] for d in order), dtype, 1 - p)
            mask = np.ascontiguousarray(drawn.transpose(np.argsort(order))) / dtype.type(1 - p)
    keep = Tensor._make(mask)
    return input.mul_(keep) if inplace else input * keep


def _memory_order(a: np.ndarray) -> tuple[int, ...] | None:
    """The dims of a transposed (permuted, dense) array from outermost to innermost in memory; None when it is
    C-contiguous or not dense (then PyTorch's ``empty_like`` is contiguous too)."""
    if a.flags.c_contiguous or a.ndim < 2:
        return None
    order = tuple(sorted(range(a.ndim), key=lambda d: -a.strides[d]))
    return order if a.transpose(order).flags.c_contiguous else None


def _feature_dropout(name, input, p, training, inplace, batched_dim):
    if p < 0.0 or p > 1.0:
        raise ValueError("dropout probability has to be between 0 and 1, but got %s" % p)
    if input.ndim not in (batched_dim - 1, batched_dim):
        raise RuntimeError("%s: Expected %dD or %dD input, but received a %dD input."
                           % (name, batched_dim - 1, batched_dim, input.ndim))
    if p == 0 or not training or input.numel() == 0:
        return input
    batched = input.ndim == batched_dim
    x = input if batched else input.unsqueeze(0)
    noise_shape = tuple(x.shape[:2]) + (1,) * (x.ndim - 2)
    out = _dropout_noise(x, noise_shape, p, inplace)
    return out if batched else out.squeeze(0)


def dropout1d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero whole channels (dim 1 of an ``(N, C, L)`` input) with probability ``p``; scale the rest by ``1/(1-p)``."""
    return _feature_dropout("dropout1d", input, p, training, inplace, 3)


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero whole channels of an ``(N, C, H, W)`` input with probability ``p``; scale the rest by ``1/(1-p)``."""
    return _feature_dropout("dropout2d", input, p, training, inplace, 4)


def dropout3d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero whole channels of an ``(N, C, D, H, W)`` input with probability ``p``; scale the rest by ``1/(1-p)``."""
    return _feature_dropout("dropout3d", input, p, training, inplace, 5)


# -- normalisation -------------------------------------------------------------------------------


def layer_norm(input: Tensor, normalized_shape: Any, weight: Tensor | None = None, bias: Tensor | None = None,
               eps: float = 1e-05) -> Tensor:
    """Standardize over the trailing ``normalized_shape`` dims, then ``· weight + bias``.

    One ``NativeLayerNormBackward0`` node, with edges to input, weight and bias.

    >>> import minigrad as torch
    >>> import minigrad.nn.functional as F
    >>> F.layer_norm(torch.tensor([[1., 2., 3.]]), (3,))
    tensor([[-1.2247,  0.0000,  1.2247]])
    """
    normalized_shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    k = len(normalized_shape)
    if k == 0:
        raise RuntimeError(
            "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
            "element, but got normalized_shape = []"
        )
    if input.ndim < k or tuple(input.shape[input.ndim - k :]) != normalized_shape:
        raise RuntimeError(
            "Given normalized_shape=%s, expected input with shape [*, %s], but got input of size%s"
            % (list(normalized_shape), ", ".join(map(str, normalized_shape)), list(input.shape))
        )
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None:
            _checks.same_shape(name, t.shape, normalized_shape, "normalized_shape")
    return N.NativeLayerNorm.apply(input, normalized_shape, _or_undefined(weight), _or_undefined(bias), eps)


def batch_norm(
    input: Tensor,
    running_mean: Tensor | None,
    running_var: Tensor | None,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    training: bool = False,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """Standardize each channel (dim 1) over the other dims, then ``· weight + bias``.

    Training uses the batch's statistics and, when given, updates the running ones in place:
    ``running = (1 - momentum) · running + momentum · batch`` (the batch variance unbiased, as
    PyTorch's).  Otherwise the running statistics are used.  One ``NativeBatchNormBackward0``.

    >>> import minigrad as torch
    >>> import minigrad.nn.functional as F
    >>> mean, var = torch.zeros(2), torch.ones(2)
    >>> F.batch_norm(torch.tensor([[1., 2.], [3., 6.]]), mean, var, training=True)
    tensor([[-1.0000, -1.0000],
            [ 1.0000,  1.0000]])
    >>> mean, var
    (tensor([0.2000, 0.4000]), tensor([1.1000, 1.7000]))
    """
    if training:
        size = input.shape[0] * math.prod(input.shape[2:])
        if size == 1:
            raise ValueError(
                "Expected more than 1 value per channel when training, got input size %r" % (input.size(),)
            )
    elif running_mean is None or running_var is None:
        missing = "running_mean" if running_mean is None else "running_var"
        raise RuntimeError("%s must be defined in evaluation mode" % missing)
    channels = input.shape[1]
    for name, stat in (("running_mean", running_mean), ("running_var", running_var)):
        if stat is not None and stat.numel() != channels:
            raise RuntimeError("%s should contain %d elements not %d" % (name, channels, stat.numel()))
    if training and running_mean is not None and running_var is not None:
        _update_running_stats(input, running_mean, running_var, momentum)
    stats = tuple(None if t is None else t._data for t in (running_mean, running_var))   # (used in evaluation)
    return N.NativeBatchNorm.apply(
        input, _or_undefined(weight), _or_undefined(bias), *stats, training, eps
    )


def _update_running_stats(input, running_mean, running_var, momentum):
    """The in-place moving averages of the batch mean and unbiased variance (recorded nowhere)."""
    dims = (0, *range(2, input.ndim))
    with grad_mode.no_grad():
        batch_mean, batch_var = input.mean(dims), input.var(dims, correction=1)
        running_mean.mul_(1 - momentum).add_(batch_mean.to(running_mean.dtype), alpha=momentum)
        running_var.mul_(1 - momentum).add_(batch_var.to(running_var.dtype), alpha=momentum)


def _or_undefined(tensor):
    """An absent weight or bias as PyTorch's undefined tensor, so the node keeps its ``(None, 0)`` edge."""
    return N.UNDEFINED if tensor is None else tensor


# -- losses ---------------------------------------------------------------------------------------

_REDUCTIONS = {"none": N.NONE, "mean": N.MEAN, "sum": N.SUM}


def _reduction(reduction: str, size_average=None, reduce=None) -> int:
    """PyTorch's reduction enum, with its legacy ``size_average``/``reduce`` arguments."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    if reduction == "elementwise_mean":
        warnings.warn(
            "reduction='elementwise_mean' is deprecated. Please use reduction='mean' instead.",
            UserWarning,
            stacklevel=3,
        )
        reduction = "mean"
    if reduction not in _REDUCTIONS:
        raise ValueError("%s is not a valid value for reduction" % reduction)
    return _REDUCTIONS[reduction]


def _legacy_reduction(size_average, reduce, emit_warning: bool = True) -> str:
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    reduction = "mean" if size_average and reduce else "sum" if reduce else "none"
    if emit_warning:
        warnings.warn(
            "size_average and reduce args will be deprecated, please use reduction='%s' instead." % reduction,
            UserWarning,
            stacklevel=4,
        )
    return reduction


def _sizes(input, target) -> None:
    """The losses written in Python in PyTorch compare ``target.size()`` with ``input.size()`` first."""
    for t in (target, input):
        if not isinstance(t, Tensor):
            raise AttributeError("'%s' object has no attribute 'size'" % type(t).__name__)


def _warn_size_mismatch(input: Tensor, target: Tensor) -> None:
    _sizes(input, target)
    if target.shape != input.shape:
        warnings.warn(
            "Using a target size (%s) that is different to the input size (%s). This will likely lead "
            "to incorrect results due to broadcasting. Please ensure they have the same size."
            % (target.shape, input.shape),
            UserWarning,
            stacklevel=3,
        )


def _broadcast_pair(a: Tensor, b: Tensor) -> tuple[Tensor, Tensor]:
    """``torch.broadcast_tensors`` for two: a tensor already of the common shape is returned as is."""

    shape = broadcast_shape(a.shape, b.shape)
    return (a if a.shape == shape else a.expand(shape)), (b if b.shape == shape else b.expand(shape))


def mse_loss(input: Tensor, target: Tensor, size_average: Any = None, reduce: Any = None, reduction: str = 'mean',
             weight: Tensor | None = None) -> Tensor:
    """Mean squared error ``(input - target)²``, reduced (``MseLossBackward0``).

    A target of another shape is broadcast, with PyTorch's warning.

    >>> import minigrad as torch
    >>> import minigrad.nn.functional as F
    >>> F.mse_loss(torch.tensor([1., 2.], requires_grad=True), torch.tensor([1., 0.]))
    tensor(2., grad_fn=<MseLossBackward0>)
    """
    _warn_size_mismatch(input, target)
    enum = _reduction(reduction, size_average, reduce)
    input, target = _broadcast_pair(input, target)
    result_type = _dtype.result_type(input, target)
    if not result_type.is_floating_point:
        raise NotImplementedError("\"mse_cpu\" not implemented for '%s'" % result_type._legacy)
    if weight is not None:
        loss = (input - target) ** 2 * weight
        return loss.mean() if enum == N.MEAN else loss.sum() if enum == N.SUM else loss
    return N.MseLoss.apply(input, target, enum)


def l1_loss(input: Tensor, target: Tensor, size_average: Any = None, reduce: Any = None, reduction: str = 'mean',
            weight: Tensor | None = None) -> Tensor:
    """Mean absolute error ``|input - target|``, reduced.

    As in PyTorch, a composite: ``MeanBackward0`` ← ``AbsBackward0`` ← ``SubBackward0``.
    """
    _warn_size_mismatch(input, target)
    enum = _reduction(reduction, size_average, reduce)
    input, target = _broadcast_pair(input, target)
    loss = (input - target).abs()
    if weight is not None:
        loss = loss * weight
    return loss.mean() if enum == N.MEAN else loss.sum() if enum == N.SUM else loss


def smooth_l1_loss(input: Tensor, target: Tensor, size_average: Any = None, reduce: Any = None,
                   reduction: str = 'mean', beta: float = 1.0) -> Tensor:
    """``½ d²/beta`` where ``|d| < beta``, ``|d| - ½ beta`` elsewhere, ``d = input - target``, reduced.

    One ``SmoothL1LossBackward0`` node; with ``beta=0`` it is ``l1_loss`` (as in PyTorch).

    >>> import minigrad as torch
    >>> import minigrad.nn.functional as F
    >>> F.smooth_l1_loss(torch.tensor([0.5, 3.]), torch.zeros(2))
    tensor(1.3125)
    """
    _warn_size_mismatch(input, target)
    enum = _reduction(reduction, size_average, reduce)
    input, target = _broadcast_pair(input, target)
    if beta == 0.0:
        loss = (input - target).abs()
        return loss.mean() if enum == N.MEAN else loss.sum() if enum == N.SUM else loss
    _check_floating("smooth_l1_cpu", input, target)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    return N.SmoothL1Loss.apply(input, target, enum, beta)


def huber_loss(
    input: Tensor,
    target: Tensor,
    reduction: str = "mean",
    delta: float = 1.0,
    weight: Tensor | None = None,
) -> Tensor:
    """``½ d²`` where ``|d| < delta``, ``delta (|d| - ½ delta)`` elsewhere, ``d = input - target``, reduced.

    One ``HuberLossBackward0`` node; with ``weight`` (of the input's size) the per-element
    losses are weighted, then reduced.

    >>> import minigrad as torch
    >>> import minigrad.nn.functional as F
    >>> F.huber_loss(torch.tensor([0.5, 3.]), torch.zeros(2), delta=2.)
    tensor(2.0625)
    """
    _warn_size_mismatch(input, target)
    enum = _reduction(reduction)
    input, target = _broadcast_pair(input, target)
    _check_floating("huber_cpu", input, target)
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    if weight is None:
        return N.HuberLoss.apply(input, target, enum, delta)
    if weight.shape != input.shape:
        raise ValueError("Weights and input must have the same size.")
    loss = N.HuberLoss.apply(input, target, N.NONE, delta) * weight
    return loss if enum == N.NONE else loss.sum() if enum == N.SUM else loss.mean()


def _check_floating(kernel: str, input: Tensor, target: Tensor) -> None:
    result_type = _dtype.result_type(input, target)
    if not result_type.is_floating_point:
        raise NotImplementedError("\"%s\" not implemented for '%s'" % (kernel, result_type._legacy))


def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average: Any = None,
             ignore_index: int = -100, reduce: Any = None, reduction: str = 'mean') -> Tensor:
    """Negative log-likelihood of log-probabilities ``input`` (classes along dim 1) at ``target`` classes.

    ``weight`` rescales each class; targets equal to ``ignore_index`` are left out, and
    ``'mean'`` divides by the total weight of the rest (``NllLossBackward0``).

    >>> import minigrad as torch
    >>> import minigrad.nn.functional as F
    >>> F.nll_loss(torch.tensor([[-1., -2.], [-3., -0.5]]), torch.tensor([0, 1]))
    tensor(0.7500)
    """
    return _nll_loss_nd(input, target, weight, _reduction(reduction, size_average, reduce), ignore_index)


def _nll_loss_nd(input, target, weight, enum, ignore_index, fn="nll_loss_nd"):
    """PyTorch's dispatch: 1-D/2-D inputs → NllLoss, 4-D → NllLoss2d, other ranks reshaped to 4-D."""
    _checks.tensor_arg(input, fn, "input")
    _checks.tensor_arg(target, fn, "target", 2)
    _checks.int_arg(ignore_index, fn, "ignore_index", 5)
    shape, target_shape = input._data.shape, target._data.shape
    if len(shape) < 1:
        raise ValueError("Expected 1 or more dimensions (got %d)" % len(shape))
    if len(shape) != 1 and shape[0] != (target_shape[0] if target_shape else 1):
        raise ValueError(
            "Expected input batch_size (%d) to match target batch_size (%d)."
            % (shape[0], target_shape[0] if target_shape else 1)
        )
    if len(shape) <= 2:
        if len(target_shape) > 1:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
        if input.ndim == 1 and target.ndim == 1 and target.shape[0] != 1:
            raise ValueError(
                "For 1D input, 1D target must have size 1, but got target size: %d" % target.shape[0]
            )
        return _nll(N.NllLoss, input, target, weight, enum, ignore_index)
    if input.ndim == 4:
        if target.ndim != 3:
            raise RuntimeError(
                "only batches of spatial targets supported (3D tensors) but got targets of "
                "dimension: %d" % target.ndim
            )
        if target.shape != input.shape[:1] + input.shape[2:]:
            raise RuntimeError(
                "size mismatch (got input: [%s] , target: [%s]"
                % (", ".join(map(str, input.shape)), ", ".join(map(str, target.shape)))
            )
        return _nll(N.NllLoss2d, input, target, weight, enum, ignore_index)
    out_size = input.shape[:1] + input.shape[2:]
    if target.shape[1:] != input.shape[2:]:
        raise RuntimeError(
            "Expected target size [%s], got [%s]"
            % (", ".join(map(str, out_size)), ", ".join(map(str, target.shape)))
        )
    n, c = input.shape[0], input.shape[1]
    flat_input = input.contiguous().view(n, c, 1, -1)
    flat_target = target.reshape(n, 1, -1)
    out = _nll(N.NllLoss2d, flat_input, flat_target, weight, enum, ignore_index)
    return out.view(out_size) if enum == N.NONE else out


_TARGET_DTYPES = (np.dtype(np.int64), np.dtype(np.uint8))


def _nll(op, input, target, weight, enum, ignore_index):
    if target._data.dtype not in _TARGET_DTYPES:
        raise RuntimeError("expected target dtype to be Long or Byte, but got %s" % target.dtype._legacy)
    n_classes = input._data.shape[0 if input._data.ndim == 1 else 1]
    if weight is not None and (weight.ndim != 1 or weight.shape[0] != n_classes):
        raise RuntimeError(
            "weight tensor should be defined either for all %d classes or no classes but got weight "
            "tensor of shape: [%s]" % (n_classes, ", ".join(map(str, weight.shape)))
        )
    target_data = target._data.astype(np.int64, copy=False)
    if input.ndim == 1 and target.ndim == 1:
        target_data = target_data.reshape(())
    return op.apply(input, target_data, None if weight is None else weight._data, enum, ignore_index)


def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average: Any = None,
                  ignore_index: int = -100, reduce: Any = None, reduction: str = 'mean',
                  label_smoothing: float = 0.0) -> Tensor:
    """Cross-entropy between logits ``input`` (classes along dim 1) and class indices or class probabilities.

    With class indices it is ``nll_loss(log_softmax(input, 1), target)``: ``NllLossBackward0``
    over ``LogSoftmaxBackward0``. A floating ``target`` of the input's shape holds class
    probabilities. ``label_smoothing`` mixes the target with the uniform distribution.

    >>> import minigrad as torch
    >>> import minigrad.nn.functional as F
    >>> F.cross_entropy(torch.tensor([[2., 0.], [0., 2.]]), torch.tensor([0, 0]))
    tensor(1.1269)
    """
    enum = _reduction(reduction, size_average, reduce)
    _checks.tensor_arg(input, "cross_entropy_loss", "input")
    _checks.tensor_arg(target, "cross_entropy_loss", "target", 2)
    _checks.int_arg(ignore_index, "cross_entropy_loss", "ignore_index", 5)
    class_dim = 0 if input.ndim == 1 else 1
    if input._data.shape == target._data.shape:
        if not target.dtype.is_floating_point:
            raise RuntimeError(
                "Expected floating point type for target with class probabilities, got %s"
                % target.dtype._legacy
            )
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
        return _cross_entropy_probabilities(input, target, weight, enum, label_smoothing, class_dim)
    log_probs = input.log_softmax(class_dim)
    if label_smoothing > 0.0:
        if label_smoothing > 1.0:
            raise RuntimeError("label_smoothing must be between 0.0 and 1.0. Got: %s" % label_smoothing)
        return _cross_entropy_smoothed(
            log_probs, target, weight, enum, ignore_index, label_smoothing, class_dim
        )
    return _nll_loss_nd(log_probs, target, weight, enum, ignore_index)


def _class_weight_view(weight, ndim, class_dim):
    """``weight`` shaped to broadcast along the class dim."""
    shape = [1] * ndim
    shape[class_dim] = weight.shape[0]
    return weight.view(shape)


def _cross_entropy_probabilities(input, target, weight, enum, label_smoothing, class_dim):
    """``-Σ target · log_softmax(input)``, composed as in PyTorch: ``DivBackward1`` ← ``NegBackward0`` ← …"""
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError("label_smoothing must be between 0.0 and 1.0. Got: %s" % label_smoothing)
    n_classes = input.shape[class_dim]
    log_probs = input.log_softmax(class_dim)
    if label_smoothing > 0:
        target = N.AddScalar.apply(
            N.MulScalar.apply(target, 1 - label_smoothing), label_smoothing / n_classes
        )
    terms = log_probs * target
    if weight is not None:
        terms = terms * _class_weight_view(weight, input.ndim, class_dim)
    if enum == N.NONE:
        return -terms.sum(class_dim)
    total = -terms.sum()
    if enum == N.SUM:
        return total
    return N.DivScalar.apply(total, input.numel() // n_classes) if input.numel() else total * float("nan")


def _cross_entropy_smoothed(log_probs, target, weight, enum, ignore_index, label_smoothing, class_dim):
    """``(1 - ε) · nll + ε/C · Σ -log p``, composed as in PyTorch (``AddBackward0`` of ``MulBackward1``s)."""
    n_classes = log_probs.shape[class_dim]
    nll = _nll_loss_nd(log_probs, target, weight, enum, ignore_index)
    if weight is not None:
        smooth = -(log_probs * _class_weight_view(weight, log_probs.ndim, class_dim)).sum(class_dim)
    else:
        smooth = -log_probs.sum(class_dim)
    ignored = target._data == ignore_index
    smooth = N.MaskedFill.apply(smooth, ignored, 0.0)
    if enum == N.MEAN:
        if weight is not None:
            kept = target._data[~ignored].astype(np.int64)
            denominator = Tensor._make(np.asarray(weight._data[kept].sum(), dtype=weight._data.dtype))
        else:
            denominator = Tensor._make(np.asarray((~ignored).sum(), dtype=np.int64))
        smooth = smooth.sum() / denominator
    elif enum == N.SUM:
        smooth = smooth.sum()
    return N.MulScalar.apply(nll, 1 - label_smoothing) + N.MulScalar.apply(
        smooth, label_smoothing / n_classes
    )


def binary_cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average: Any = None,
                         reduce: Any = None, reduction: str = 'mean') -> Tensor:
    """Binary cross-entropy of probabilities ``input`` against ``target`` (``BinaryCrossEntropyBackward0``).

    Each log is clamped at -100, so a probability of exactly 0 or 1 gives a finite loss.

    >>> import minigrad as torch
    >>> import minigrad.nn.functional as F
    >>> F.binary_cross_entropy(torch.tensor([0.5, 0.9]), torch.tensor([1., 1.]))
    tensor(0.3993)
    """
    enum = _reduction(reduction, size_average, reduce)
    _sizes(input, target)
    if target.shape != input.shape:
        raise ValueError(
            "Using a target size (%s) that is different to the input size (%s) is deprecated. Please "
            "ensure they have the same size." % (target.shape, input.shape)
        )
    if target.dtype is not input.dtype:
        raise RuntimeError("Found dtype %s but expected %s" % (target.dtype._legacy, input.dtype._legacy))
    if weight is not None:
        _no_grad_for(weight, "binary_cross_entropy", "weight")
        if weight.ndim > input.ndim or any(
            w not in (1, s) for w, s in zip(weight.shape[::-1], input.shape[::-1])
        ):
            k = next((k for k in range(1, weight.ndim + 1)
                      if k > input.ndim or weight.shape[-k] not in (1, input.shape[-k])), 1)
            raise RuntimeError(
                "Attempting to broadcast a dimension of length %d at -%d! Mismatching argument at index "
                "1 had %s; but expected shape should be broadcastable to [%s]"
                % (weight.shape[-k], k, weight.shape, ", ".join(map(str, input.shape)))
            )
        weight = _expand_weight(weight, input.shape)
    return N.BinaryCrossEntropy.apply(input, target, weight, enum)


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight: Tensor | None = None,
                                     size_average: Any = None, reduce: Any = None, reduction: str = 'mean',
                                     pos_weight: Tensor | None = None) -> Tensor:
    """Binary cross-entropy on logits: ``sigmoid`` and the loss in one stable step.

    ``pos_weight`` multiplies the loss of positive targets (per class, broadcast along the
    last dim) (``BinaryCrossEntropyWithLogitsBackward0``).

    >>> import minigrad as torch
    >>> import minigrad.nn.functional as F
    >>> F.binary_cross_entropy_with_logits(torch.zeros(3), torch.ones(3))
    tensor(0.6931)
    """
    enum = _reduction(reduction, size_average, reduce)
    if target.shape != input.shape:
        raise ValueError("Target size (%s) must be the same as input size (%s)" % (target.shape, input.shape))
    if not target.dtype.is_floating_point:
        raise RuntimeError(
            "result type %s can't be cast to the desired output type %s"
            % (input.dtype._legacy, target.dtype._legacy)
        )
    arrays = []
    for name, extra in (("weight", weight), ("pos_weight", pos_weight)):
        if extra is not None:
            _no_grad_for(extra, "binary_cross_entropy_with_logits", name)
            extra = _expand_weight(extra, input.shape)
        arrays.append(extra)
    return N.BinaryCrossEntropyWithLogits.apply(input, target, arrays[0], arrays[1], enum)


def _no_grad_for(tensor, function, argument):
    if tensor.requires_grad and grad_mode.is_grad_enabled():
        raise RuntimeError(
            "The function '%s' is not differentiable with respect to argument '%s'. This input "
            "cannot have requires_grad True." % (function, argument)
        )


def _expand_weight(weight, shape):
    """A weight broadcast to the loss's shape, as an ndarray (the loss is not differentiated for it)."""

    broadcast_shape(weight.shape, shape)
    return np.broadcast_to(weight._data, np.broadcast_shapes(weight.shape, shape))


# nn2: 1-d pooling, instance norm, RMS norm (composites, in their own module)
from ._functional_nn2 import (  # noqa: E402
    adaptive_avg_pool1d,
    avg_pool1d,
    instance_norm,
    max_pool1d,
    max_pool1d_with_indices,
    rms_norm,
)

__all__ += ["max_pool1d", "max_pool1d_with_indices", "avg_pool1d", "adaptive_avg_pool1d", "instance_norm", "rms_norm"]

# nn3: group norm (its own module)
from ._functional_nn3 import conv1d, group_norm, scaled_dot_product_attention  # noqa: E402

__all__ += ["conv1d", "group_norm", "scaled_dot_product_attention"]

# nn4: multi-head attention, interpolate, distances (their own module)
from ._functional_nn4 import *  # noqa: E402, F403
from ._functional_nn4 import __all__ as _nn4_all  # noqa: E402
from ._functional_nn4 import (  # noqa: E402, F401
    _canonical_mask,
    _in_projection,
    _in_projection_packed,
    _mha_shape_check,
    _none_or_dtype,
)

__all__ += _nn4_all
