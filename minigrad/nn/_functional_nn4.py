"""``nn.functional``'s multi-head attention (nn4), imported into ``minigrad.nn.functional``.

``multi_head_attention_forward`` is PyTorch's Python function line for line, so the graph is the same chain
of nodes: the packed in-projection (one ``linear`` for self-attention, then ``unflatten``/``unsqueeze``/
``transpose``/``squeeze``/``contiguous`` and three ``select``s), the heads as ``view``+``transpose``,
``q · √(1/E)`` (``MulBackward0``), ``bmm`` or ``baddbmm`` with the float mask (``BaddbmmBackward0``),
``softmax``, ``dropout``, ``bmm``, the out-projection.  With ``need_weights=False`` it goes through
``scaled_dot_product_attention`` as PyTorch does.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from .. import _creation, _dtype
from .._tensor import Tensor
from ..ops import upsample as _upsample
from ..ops.adaptive_max import AdaptiveMaxPool2d
from ..ops.baddbmm import Baddbmm
from . import functional as F

__all__ = ["multi_head_attention_forward", "interpolate", "adaptive_max_pool1d", "adaptive_max_pool1d_with_indices",
           "adaptive_max_pool2d", "adaptive_max_pool2d_with_indices"]


def _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads) -> bool:
    """Whether the input is batched (3-d) or not (2-d), with PyTorch's assertion texts."""
    if query.dim() == 3:
        if key.dim() != 3 or value.dim() != 3:
            raise AssertionError("For batched (3-D) `query`, expected `key` and `value` to be 3-D but found "
                                 f"{key.dim()}-D and {value.dim()}-D tensors respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 2:
            raise AssertionError("For batched (3-D) `query`, expected `key_padding_mask` to be `None` or 2-D but "
                                 f"found {key_padding_mask.dim()}-D tensor instead")
        if attn_mask is not None and attn_mask.dim() not in (2, 3):
            raise AssertionError("For batched (3-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D but "
                                 f"found {attn_mask.dim()}-D tensor instead")
        return True
    if query.dim() == 2:
        if key.dim() != 2 or value.dim() != 2:
            raise AssertionError("For unbatched (2-D) `query`, expected `key` and `value` to be 2-D but found "
                                 f"{key.dim()}-D and {value.dim()}-D tensors respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 1:
            raise AssertionError("For unbatched (2-D) `query`, expected `key_padding_mask` to be `None` or 1-D "
                                 f"but found {key_padding_mask.dim()}-D tensor instead")
        if attn_mask is not None:
            if attn_mask.dim() not in (2, 3):
                raise AssertionError("For unbatched (2-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D "
                                     f"but found {attn_mask.dim()}-D tensor instead")
            if attn_mask.dim() == 3:
                expected = (num_heads, query.shape[0], key.shape[0])
                if tuple(attn_mask.shape) != expected:
                    raise AssertionError(f"Expected `attn_mask` shape to be {expected} but got {attn_mask.shape}")
        return False
    raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received {query.dim()}-D query "
                         "tensor")


def _canonical_mask(mask: Tensor | None, mask_name: str, other_type: Any, other_name: str, target_type: Any,
                    check_other: bool = True) -> Tensor | None:
    """A bool mask as a float one (0 where kept, −inf where masked out); a float mask as it is."""
    if mask is None:
        return None
    is_float = mask.is_floating_point()
    if mask.dtype is not _dtype.bool and not is_float:
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    if check_other and other_type is not None and mask.dtype is not other_type:
        warnings.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. Use same type for both "
                      "instead.", stacklevel=3)
    if not is_float:
        mask = _creation.zeros_like(mask, dtype=target_type).masked_fill_(mask, float("-inf"))
    return mask


def _none_or_dtype(input: Any) -> Any:
    if input is None:
        return None
    if isinstance(input, Tensor):
        return input.dtype
    raise RuntimeError("input to _none_or_dtype() must be None or torch.Tensor")


def _in_projection_packed(q: Tensor, k: Tensor, v: Tensor, w: Tensor, b: Tensor | None = None) -> list[Tensor]:
    """q, k, v through the stacked ``(3E, E)`` weight: one product when they are one tensor (self-attention)."""
    E = q.size(-1)
    if k is v:
        if q is k:
            proj = F.linear(q, w, b)
            proj = proj.unflatten(-1, (3, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
            return [proj[0], proj[1], proj[2]]
        w_q, w_kv = w.split([E, E * 2])
        b_q, b_kv = (None, None) if b is None else b.split([E, E * 2])
        q_proj = F.linear(q, w_q, b_q)
        kv_proj = F.linear(k, w_kv, b_kv)
        kv_proj = kv_proj.unflatten(-1, (2, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
        return [q_proj, kv_proj[0], kv_proj[1]]
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return [F.linear(q, w_q, b_q), F.linear(k, w_k, b_k), F.linear(v, w_v, b_v)]


def _in_projection(q, k, v, w_q, w_k, w_v, b_q=None, b_k=None, b_v=None):
    """q, k, v through their own weights (``kdim``/``vdim`` differ from ``embed_dim``)."""
    Eq, Ek, Ev = q.size(-1), k.size(-1), v.size(-1)
    for name, w, shape in (("query", w_q, (Eq, Eq)), ("key", w_k, (Eq, Ek)), ("value", w_v, (Eq, Ev))):
        if tuple(w.shape) != shape:
            raise AssertionError(f"expecting {name} weights shape of {shape}, but got {w.shape}")
    for name, b in (("query", b_q), ("key", b_k), ("value", b_v)):
        if b is not None and tuple(b.shape) != (Eq,):
            raise AssertionError(f"expecting {name} bias shape of {(Eq,)}, but got {b.shape}")
    return F.linear(q, w_q, b_q), F.linear(k, w_k, b_k), F.linear(v, w_v, b_v)


def multi_head_attention_forward(
    query: Tensor, key: Tensor, value: Tensor, embed_dim_to_check: int, num_heads: int,
    in_proj_weight: Tensor | None, in_proj_bias: Tensor | None, bias_k: Tensor | None, bias_v: Tensor | None,
    add_zero_attn: bool, dropout_p: float, out_proj_weight: Tensor, out_proj_bias: Tensor | None,
    training: bool = True, key_padding_mask: Tensor | None = None, need_weights: bool = True,
    attn_mask: Tensor | None = None, use_separate_proj_weight: bool = False, q_proj_weight: Tensor | None = None,
    k_proj_weight: Tensor | None = None, v_proj_weight: Tensor | None = None, static_k: Tensor | None = None,
    static_v: Tensor | None = None, average_attn_weights: bool = True, is_causal: bool = False,
) -> tuple[Tensor, Tensor | None]:
    """Multi-head attention: project q, k, v, split into heads, ``softmax(q kᵀ/√d + mask) v``, project out.

    Shapes ``(L, N, E)`` (sequence first; unbatched ``(L, E)``).  Returns the output and, with
    ``need_weights``, the attention weights ``(N, L, S)`` (averaged over heads) or ``(N, H, L, S)``.
    ``key_padding_mask`` (``(N, S)``, True = ignore that key) and ``attn_mask`` (``(L, S)`` or
    ``(N·H, L, S)``; bool True = not allowed, or float added to the scores) are merged into one float mask.
    """
    is_batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not is_batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask", _none_or_dtype(attn_mask),
                                       "attn_mask", query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
                           "method `generate_square_subsequent_mask` to create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None         # scaled_dot_product_attention makes the causal mask itself
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, check_other=False)
        if key_padding_mask is not None:
            is_causal = False
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if tuple(key.shape[:2]) != tuple(value.shape[:2]):
            raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match value's "
                                 f"{value.shape[:2]}")
    elif tuple(key.shape) != tuple(value.shape):
        raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")

    if not use_separate_proj_weight:
        if in_proj_weight is None:
            raise AssertionError("use_separate_proj_weight is False but in_proj_weight is None")
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    else:
        for name, w in (("q", q_proj_weight), ("k", k_proj_weight), ("v", v_proj_weight)):
            if w is None:
                raise AssertionError(f"use_separate_proj_weight is True but {name}_proj_weight is None")
        b_q, b_k, b_v = (None, None, None) if in_proj_bias is None else in_proj_bias.chunk(3)
        q, k, v = _in_projection(query, key, value, q_proj_weight, k_proj_weight, v_proj_weight, b_q, b_k, b_v)

    if attn_mask is not None:
        if attn_mask.dim() == 2:
            if tuple(attn_mask.shape) != (tgt_len, src_len):
                raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be "
                                   f"{(tgt_len, src_len)}.")
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.dim() == 3:
            if tuple(attn_mask.shape) != (bsz * num_heads, tgt_len, src_len):
                raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be "
                                   f"{(bsz * num_heads, tgt_len, src_len)}.")
        else:
            raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")

    if bias_k is not None and bias_v is not None:            # one learned key/value appended to the sequence
        if static_k is not None:
            raise AssertionError("bias cannot be added to static key.")
        if static_v is not None:
            raise AssertionError("bias cannot be added to static value.")
        k = _creation.cat([k, bias_k.repeat(1, bsz, 1)])
        v = _creation.cat([v, bias_v.repeat(1, bsz, 1)])
        if attn_mask is not None:
            attn_mask = F.pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = F.pad(key_padding_mask, (0, 1))
    elif bias_k is not None:
        raise AssertionError("bias_k is set but bias_v is None")
    elif bias_v is not None:
        raise AssertionError("bias_v is set but bias_k is None")

    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)          # (N·H, L, head_dim)
    if static_k is None:
        k = k.view(k.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    else:
        _check_static(static_k, "k", bsz * num_heads, head_dim)
        k = static_k
    if static_v is None:
        v = v.view(v.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    else:
        _check_static(static_v, "v", bsz * num_heads, head_dim)
        v = static_v

    if add_zero_attn:                                         # one all-zero key/value appended
        zero_attn_shape = (bsz * num_heads, 1, head_dim)
        k = _creation.cat([k, _creation.zeros(zero_attn_shape, dtype=k.dtype)], dim=1)
        v = _creation.cat([v, _creation.zeros(zero_attn_shape, dtype=v.dtype)], dim=1)
        if attn_mask is not None:
            attn_mask = F.pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = F.pad(key_padding_mask, (0, 1))

    src_len = k.size(1)
    if key_padding_mask is not None:
        if key_padding_mask.shape[0] != bsz:
            raise AssertionError(f"Expected key_padded_mask.shape[0] to be {bsz}, but got "
                                 f"{key_padding_mask.shape[0]}")
        if key_padding_mask.shape[1] != src_len:
            raise AssertionError(f"Expected key_padded_mask.shape[1] to be {src_len}, but got "
                                 f"{key_padding_mask.shape[1]}")
        key_padding_mask = (key_padding_mask.view(bsz, 1, 1, src_len).expand(-1, num_heads, -1, -1)
                            .reshape(bsz * num_heads, 1, src_len))
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask

    if not training:
        dropout_p = 0.0

    if need_weights:
        E = q.shape[-1]
        q_scaled = q * math.sqrt(1.0 / float(E))
        if is_causal and attn_mask is None:
            raise AssertionError("FIXME: is_causal not implemented for need_weights")
        if attn_mask is not None:
            attn_output_weights = Baddbmm.apply(attn_mask, q_scaled, k.transpose(-2, -1))
        else:
            attn_output_weights = q_scaled.bmm(k.transpose(-2, -1))
        attn_output_weights = F.softmax(attn_output_weights, dim=-1)
        if dropout_p > 0.0:
            attn_output_weights = F.dropout(attn_output_weights, p=dropout_p)
        attn_output = attn_output_weights.bmm(v)
        attn_output = attn_output.transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        attn_output = F.linear(attn_output, out_proj_weight, out_proj_bias)
        attn_output = attn_output.view(tgt_len, bsz, attn_output.size(1))
        attn_output_weights = attn_output_weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            attn_output_weights = attn_output_weights.mean(dim=1)
        if not is_batched:
            attn_output = attn_output.squeeze(1)
            attn_output_weights = attn_output_weights.squeeze(0)
        return attn_output, attn_output_weights

    if attn_mask is not None:
        if attn_mask.size(0) == 1 and attn_mask.dim() == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.view(bsz, num_heads, -1, src_len)
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k = k.view(bsz, num_heads, src_len, head_dim)
    v = v.view(bsz, num_heads, src_len, head_dim)
    attn_output = F.scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    attn_output = attn_output.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    attn_output = F.linear(attn_output, out_proj_weight, out_proj_bias)
    attn_output = attn_output.view(tgt_len, bsz, attn_output.size(1))
    if not is_batched:
        attn_output = attn_output.squeeze(1)
    return attn_output, None


def _check_static(t: Tensor, name: str, heads: int, head_dim: int) -> None:
    if t.size(0) != heads:
        raise AssertionError(f"expecting static_{name}.size(0) of {heads}, but got {t.size(0)}")
    if t.size(2) != head_dim:
        raise AssertionError(f"expecting static_{name}.size(2) of {head_dim}, but got {t.size(2)}")


_MODES = "nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact"
# (mode, spatial dims) -> the op's kind in minigrad/ops/upsample.py
_KINDS = {("nearest", 1): "nearest", ("nearest", 2): "nearest", ("nearest", 3): "nearest",
          ("nearest-exact", 1): "nearest_exact", ("nearest-exact", 2): "nearest_exact",
          ("nearest-exact", 3): "nearest_exact", ("linear", 1): "linear", ("bilinear", 2): "linear",
          ("trilinear", 3): "linear", ("bicubic", 2): "cubic"}
_NEEDS = {"linear": 3, "bilinear": 4, "trilinear": 5}


def interpolate(input: Tensor, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
                align_corners: bool | None = None, recompute_scale_factor: bool | None = None,
                antialias: bool = False) -> Tensor:
    """Resize the spatial dims of ``(N, C, ...)`` to ``size`` or by ``scale_factor``: one upsample node.

    Modes: ``nearest`` (``UpsampleNearest2DBackward0``...), ``nearest-exact``, ``linear`` (3-d input),
    ``bilinear`` (4-d), ``bicubic`` (4-d), ``trilinear`` (5-d), ``area`` (adaptive average pooling).

    >>> import minigrad as torch
    >>> import minigrad.nn.functional as F
    >>> F.interpolate(torch.tensor([[[1., 2.]]]), scale_factor=2)
    tensor([[[1., 1., 2., 2.]]])
    >>> F.interpolate(torch.tensor([[[1., 2.]]]), size=4, mode="linear", align_corners=True)
    tensor([[[1.0000, 1.3333, 1.6667, 2.0000]]])
    """
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: linear | bilinear | "
                             "bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    dim = input.dim() - 2
    scale_factors: list[float] | None
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        scale_factors = None
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError(
                    "Input and output must have the same number of spatial dimensions, but got input with spatial "
                    f"dimensions of {list(input.shape[2:])} and output size of {size}. Please provide input tensor "
                    "in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format.")
            if not all((isinstance(x, (int, np.integer)) and not isinstance(x, bool)) or
                       (isinstance(x, Tensor) and not x.is_floating_point()) for x in size):
                raise TypeError("expected size to be one of int or Tuple[int] or Tuple[int, int] or Tuple[int, int, "
                                f"int], but got size with types {[type(x) for x in size]}")
            output_size = [int(x) for x in size]
        else:
            output_size = [int(size)] * dim
    elif scale_factor is not None:
        output_size = None
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError(
                    "Input and scale_factor must have the same number of spatial dimensions, but got input with "
                    f"spatial dimensions of {list(input.shape[2:])} and scale_factor of shape {scale_factor}. "
                    "Please provide input tensor in (N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, "
                    "...,sK) format.")
            scale_factors = [float(s) for s in scale_factor]
        else:
            scale_factors = [float(scale_factor)] * dim
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if mode == "area" and output_size is None:
        recompute_scale_factor = True
    if recompute_scale_factor:
        assert scale_factors is not None
        output_size = [math.floor(float(n) * s) for n, s in zip(input.shape[2:], scale_factors)]
        scale_factors = None
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and input.ndim == 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires a 4-D "
                         "tensor as input")
    if antialias:
        raise NotImplementedError("minigrad: F.interpolate(antialias=True) is not implemented")
    if mode == "area" and input.dim() in (3, 4, 5):
        assert output_size is not None
        if input.dim() == 5:
            raise NotImplementedError("minigrad: F.interpolate(mode='area') on 5-D input (adaptive_avg_pool3d) is "
                                      "not implemented")
        pool = F.adaptive_avg_pool1d if input.dim() == 3 else F.adaptive_avg_pool2d
        return pool(input, output_size if input.dim() == 4 else output_size[0])
    kind = _KINDS.get((mode, dim))
    if kind is None:
        if mode in _NEEDS and input.dim() in (3, 4, 5):
            raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs {_NEEDS[mode]}D input")
        raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) for "
                                  f"the modes: {_MODES} (got {mode})")
    if output_size is None:
        assert scale_factors is not None
        output_size = _upsample.output_sizes(input, scale_factors)
    scales: list[float | None] = [None] * dim if scale_factors is None else list(scale_factors)
    return _upsample.upsample(input, kind, output_size, align_corners, scales)


def adaptive_max_pool2d_with_indices(input: Tensor, output_size: Any,
                                     return_indices: bool = False) -> tuple[Tensor, Tensor]:
    """Max over the windows that make an ``output_size`` result, and where each max was (flat ``row · W + col``).

    >>> import minigrad as torch
    >>> import minigrad.nn.functional as F
    >>> F.adaptive_max_pool2d_with_indices(torch.arange(16.).reshape(1, 4, 4), 2)[1]
    tensor([[[ 5,  7],
             [13, 15]]])
    """
    if input.ndim not in (3, 4):
        raise RuntimeError("adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: %s" % list(input.shape))
    size = (output_size, output_size) if isinstance(output_size, int) else tuple(output_size)
    if len(size) != 2:
        raise RuntimeError("adaptive_max_pool2d(): internal error: output_size.size() must be 2")
    size = tuple(input.shape[-2 + i] if s is None else int(s) for i, s in enumerate(size))
    for d in range(1, input.ndim):
        if input.shape[d] == 0:
            raise RuntimeError("adaptive_max_pool2d(): Expected input to have non-zero size for non-batch dimensions, "
                               "but input has sizes %s with dimension %d being empty" % (list(input.shape), d))
    return AdaptiveMaxPool2d.apply(input, size)


def adaptive_max_pool2d(input: Tensor, output_size: Any, return_indices: bool = False) -> Any:
    """``adaptive_max_pool2d_with_indices``' values (and the indices with ``return_indices=True``)."""
    out, indices = adaptive_max_pool2d_with_indices(input, output_size)
    return (out, indices) if return_indices else out


def adaptive_max_pool1d_with_indices(input: Tensor, output_size: Any,
                                     return_indices: bool = False) -> tuple[Tensor, Tensor]:
    """The 2-d op at unit height, as ATen: ``unsqueeze(-2)`` → ``AdaptiveMaxPool2DBackward0`` → ``squeeze(-2)``.

    >>> import minigrad as torch
    >>> import minigrad.nn.functional as F
    >>> F.adaptive_max_pool1d_with_indices(torch.tensor([[1., 5., 2., 0.]]), 2)
    (tensor([[5., 2.]]), tensor([[1, 2]]))
    """
    if input.ndim not in (2, 3):
        raise RuntimeError("Expected 2 to 3 dimensions, but got %d-dimensional tensor for argument #1 'self' (while "
                           "checking arguments for adaptive_max_pool1d)" % input.ndim)
    size = [output_size] if isinstance(output_size, int) else list(output_size)
    if len(size) != 1:
        raise RuntimeError("adaptive_max_pool1d() argument 'output_size' should contain one int (got %d)" % len(size))
    out, indices = adaptive_max_pool2d_with_indices(input.unsqueeze(-2), (1, size[0]))
    return out.squeeze(-2), indices.squeeze(-2)


def adaptive_max_pool1d(input: Tensor, output_size: Any, return_indices: bool = False) -> Any:
    """``adaptive_max_pool1d_with_indices``' values (and the indices with ``return_indices=True``)."""
    out, indices = adaptive_max_pool1d_with_indices(input, output_size)
    return (out, indices) if return_indices else out
