"""``nn.functional``'s conv1d and group norm (nn3), imported into ``minigrad.nn.functional``.

* ``conv1d``: one ``ConvolutionBackward0`` node with 3-d input and weight (``minigrad/ops/conv1d.py``, the 2-d
  arithmetic at unit height); ``padding='same'`` with an odd total pad first pads the right end
  (``ConstantPadNdBackward0``), as ATen.
* ``group_norm``: one ``NativeGroupNormBackward0`` node (``minigrad/ops/groupnorm.py``), as ATen's
  ``native_group_norm``, after ``F.group_norm``'s own checks in PyTorch's words.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from .. import _creation, _dtype
from .._tensor import Tensor
from ..ops.attention import SafeSoftmax
from ..ops.conv1d import Convolution1d
from ..ops.elementwise import MulScalar
from ..ops.flash_attention import FlashAttentionForCpu
from ..ops.groupnorm import NativeGroupNorm
from . import functional as F

__all__ = ["conv1d", "group_norm", "scaled_dot_product_attention"]



_warned_same_even: list[bool] = []   # conv1d(padding="same") with an even kernel has warned

def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None, bias: Tensor | None = None,
               eps: float = 1e-5) -> Tensor:
    """Standardize each group of ``num_groups`` channel groups per sample, then ``· weight + bias`` per channel.

    >>> import minigrad as torch
    >>> import minigrad.nn.functional as F
    >>> F.group_norm(torch.tensor([[1., 3., 0., 4.]]).reshape(1, 4, 1), 2).flatten()
    tensor([-1.0000,  1.0000, -1.0000,  1.0000])
    """
    if input.dim() < 2:
        raise RuntimeError(
            f"Expected at least 2 dimensions for input tensor but received {input.dim()}"
        )
    shape = tuple(input.shape)
    n, c = shape[0], shape[1]
    size = [n * c // num_groups, num_groups, *shape[2:]]
    if size[0] * math.prod(size[2:]) == 1:
        raise ValueError("Expected more than 1 value per channel when training, got input size %r" % (size,))
    if c % num_groups != 0:
        raise RuntimeError(
            "Expected number of channels in input to be divisible by num_groups, but got input of shape "
            "%s and num_groups=%d" % (list(shape), num_groups)
        )
    # ATen's quirk: the bias message shows the WEIGHT's shape ([0] when there is no weight)
    weight_shape = [0] if weight is None else list(weight.shape)
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.dim() != 1 or t.numel() != c):
            raise RuntimeError(
                "Expected %s to be a vector of size equal to the number of channels in input, but got %s of "
                "shape %s and input of shape %s" % (name, name, weight_shape, list(shape))
            )
    hxw = math.prod(shape[2:])
    return NativeGroupNorm.apply(input, F._or_undefined(weight), F._or_undefined(bias), n, c, hxw, num_groups,
                                 eps)


def _single(value: Any, name: str) -> int:
    """An int or a 1-sequence as one int, with ATen's error for other lengths."""
    if isinstance(value, int):
        return value
    value = [int(v) for v in value]
    if len(value) != 1:
        raise RuntimeError(
            "expected %s to be a single integer value or a list of 1 values to match the convolution "
            "dimensions, but got %s=%s" % (name, name, value)
        )
    return value[0]


def conv1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1, padding: Any = 0,
           dilation: Any = 1, groups: int = 1) -> Tensor:
    """1-D cross-correlation of ``(N, C, L)`` (or unbatched ``(C, L)``) with ``(O, C/groups, k)``.

    >>> import minigrad as torch
    >>> import minigrad.nn.functional as F
    >>> F.conv1d(torch.ones(1, 1, 4), torch.ones(1, 1, 2))
    tensor([[[2., 2., 2.]]])
    """
    if input.ndim not in (2, 3):
        raise RuntimeError(
            "Expected 2D (unbatched) or 3D (batched) input to conv1d, but got input of size: %s" % list(input.shape)
        )
    if input.ndim == 2:
        return conv1d(input.unsqueeze(0), weight, bias, stride, padding, dilation, groups).squeeze(0)
    if weight.ndim < 3:
        raise RuntimeError("weight should have at least three dimensions")
    if weight.ndim != 3:
        raise RuntimeError(
            "Expected %d-dimensional input for %d-dimensional weight %s, but got 3-dimensional input of size %s "
            "instead" % (weight.ndim, weight.ndim, list(weight.shape), list(input.shape))
        )
    s, d = _single(stride, "stride"), _single(dilation, "dilation")
    if s <= 0:
        raise RuntimeError("non-positive stride is not supported")
    if d <= 0:
        raise RuntimeError("non-positive dilation is not supported")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    o, k = weight.shape[0], weight.shape[2]
    if o < groups:
        raise RuntimeError("Given groups=%d, expected weight to be at least %d at dimension 0, but got weight of size "
                           "%s instead" % (groups, groups, list(weight.shape)))
    if o % groups:  # (ATen prints this one's size in double brackets)
        raise RuntimeError("Given groups=%d, expected weight to be divisible by %d at dimension 0, but got weight of "
                           "size %s instead" % (groups, groups, [list(weight.shape)]))
    if bias is not None and tuple(bias.shape) != (o,):
        raise RuntimeError("Given weight of size %s, expected bias to be 1-dimensional with %d elements, but got bias "
                           "of size %s instead" % (list(weight.shape), o, list(bias.shape)))
    if isinstance(padding, str):
        if padding == "valid":
            p = 0
        elif padding == "same":
            if s != 1:
                raise RuntimeError("padding='same' is not supported for strided convolutions")
            total = d * (k - 1)
            p = total // 2
            if total % 2 and not _warned_same_even:     # TORCH_WARN_ONCE: once per process, as PyTorch
                _warned_same_even.append(True)
                warnings.warn(
                    "Using padding='same' with even kernel lengths and odd dilation may require a zero-padded copy "
                    "of the input be created (Triggered internally at "
                    "/__w/pytorch/pytorch/aten/src/ATen/native/Convolution.cpp:1101.)", UserWarning, stacklevel=2)
                input = F.pad(input, (0, total - 2 * p))
        else:
            raise RuntimeError("Invalid padding string: '%s'" % padding)
    else:
        p = _single(padding, "padding")
        if p < 0:
            raise RuntimeError("negative padding is not supported")
    if input.shape[1] != weight.shape[1] * groups:
        raise RuntimeError(
            "Given groups=%d, weight of size %s, expected input%s to have %d channels, but got %d channels instead"
            % (groups, list(weight.shape), list(input.shape), weight.shape[1] * groups, input.shape[1])
        )
    padded, effective = input.shape[2] + 2 * p, d * (k - 1) + 1
    if padded < effective:
        raise RuntimeError(
            "Calculated padded input size per channel: (%d). Kernel size: (%d). "
            "Kernel size can't be greater than actual input size" % (padded, effective)
        )
    return Convolution1d.apply(input, weight, F._or_undefined(bias), s, p, d, groups)


def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | None = None,
                                 dropout_p: float = 0.0, is_causal: bool = False, scale: float | None = None,
                                 enable_gqa: bool = False) -> Tensor:
    """``softmax(q kᵀ · scale + mask) v``, composed as PyTorch's CPU math path records it.

    Both q and k are scaled by √scale before the product (``MulBackward1``; scale defaults to 1/√E);
    a bool mask (or ``is_causal``'s lower triangle) becomes 0 / −inf and is added in place
    (``AddBackward0``); ``_safe_softmax`` (``SafeSoftmaxBackward0``) gives 0 for fully masked rows.

    >>> import minigrad as torch
    >>> import minigrad.nn.functional as F
    >>> F.scaled_dot_product_attention(torch.ones(1, 2, 2), torch.ones(1, 3, 2), torch.eye(3)[None, :, :2])
    tensor([[[0.3333, 0.3333],
             [0.3333, 0.3333]]])
    """
    if _flash_cpu_applies(query, key, value, attn_mask, dropout_p, enable_gqa):     # nn4: ATen's CPU choice
        if is_causal and attn_mask is not None:
            raise RuntimeError(
                "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True"
            )
        _check_mask_dtype(attn_mask, query)
        return FlashAttentionForCpu.apply(query, key, value, (attn_mask,), is_causal, scale)
    if enable_gqa and key.dim() >= 3 and query.shape[-3] != key.shape[-3]:
        reps = query.shape[-3] // key.shape[-3]
        key, value = _repeat_heads(key, reps), _repeat_heads(value, reps)
    mask = attn_mask
    _check_mask_dtype(mask, query)
    if is_causal:
        if attn_mask is not None:
            raise RuntimeError(
                "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True"
            )
        length, source = query.shape[-2], key.shape[-2]
        mask = _creation.ones(length, source, dtype=_dtype.bool).tril()
    if mask is not None and mask.dtype is _dtype.bool:
        mask = Tensor._make(np.where(mask.numpy(), 0.0, -np.inf).astype(query._data.dtype), False)
    chosen = 1 / math.sqrt(query.shape[-1]) if scale is None else scale     # ATen's calculate_scale
    negative = chosen < 0
    factor = math.sqrt(abs(chosen))
    q = MulScalar.apply(query, 0.0 - factor if negative else factor)
    attn = q.matmul(MulScalar.apply(key.transpose(-2, -1), factor))
    if mask is not None:
        attn.add_(mask)
    attn = SafeSoftmax.apply(attn, -1)
    if dropout_p > 0.0:
        attn = F.dropout(attn, dropout_p, True)
    return attn.matmul(value)


def _check_mask_dtype(mask: Tensor | None, query: Tensor) -> None:
    if mask is not None and mask.dtype not in (_dtype.bool, query.dtype) and not mask.dtype.is_floating_point:
        names = {"float32": "float", "float64": "double", "int64": "long int", "int32": "int", "int16": "short int",
                 "int8": "signed char", "uint8": "unsigned char", "float16": "c10::Half"}
        raise RuntimeError(
            "Expected attn_mask dtype to be bool or float or to match query dtype, but got attn_mask.dtype: %s and "
            " query.dtype: %s instead." % tuple(names.get(str(t).split(".")[-1], str(t)) for t in (mask.dtype,
                                                                                                 query.dtype))
        )


def _flash_cpu_applies(query: Tensor, key: Tensor, value: Tensor, mask: Tensor | None, dropout_p: float,
                       enable_gqa: bool) -> bool:
    """Whether PyTorch's CPU dispatch picks its fused flash kernel (nn4): 4-d q, k, v of one head size and
    batch, the same heads (or a multiple of them with ``enable_gqa``), no dropout, a 2-d or 4-d mask that needs
    no gradient, non-empty sequences, unit last-dim strides.  Otherwise the math path below."""
    if query.dim() != 4 or key.dim() != 4 or value.dim() != 4 or dropout_p > 0.0:
        return False
    if not query.dtype.is_floating_point or not (query.dtype is key.dtype is value.dtype):
        return False
    if mask is not None and (mask.requires_grad or mask.dim() not in (2, 4)):
        return False
    (b, h, length, e), (bk, hk, source, ek), (bv, hv, sv, ev) = query.shape, key.shape, value.shape
    if not (e == ek == ev and b == bk == bv and hk == hv and source == sv) or 0 in (length, source, e, b, h):
        return False
    if h != hk and not (enable_gqa and hk and h % hk == 0):
        return False
    return all(t._data.strides[-1] == t._data.itemsize for t in (query, key, value))


def _repeat_heads(t: Tensor, reps: int) -> Tensor:
    """``t.repeat_interleave(reps, -3)`` as ATen composes it: unsqueeze, expand, clone, view."""
    shape = tuple(t.shape)
    sizes = (*shape[:-2], reps, *shape[-2:])
    out = t.unsqueeze(-3).expand(*sizes).clone()
    return out.view(*shape[:-3], shape[-3] * reps, *shape[-2:])
