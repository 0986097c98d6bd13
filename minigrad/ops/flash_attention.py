"""PyTorch's fused CPU attention kernel as one node: ``ScaledDotProductFlashAttentionForCpuBackward0`` (nn4).

On CPU, ``F.scaled_dot_product_attention`` with 4-d q, k, v of one head size, no dropout and a mask that
needs no gradient runs ``_scaled_dot_product_flash_attention_for_cpu``: one node with edges to query, key
and value, saving them, the ``output``, the per-row ``logsumexp`` of the scores, the ``attn_mask`` (as
floats), ``dropout_p``, ``is_causal`` and ``scale``.  (Other inputs take the math path of
``_functional_nn3.scaled_dot_product_attention``, a chain of primitive nodes.)

The function is ``P = softmax(S)``, ``S = q kᵀ · scale + mask``, ``out = P v``; a row whose every score is
masked out gives 0 (as ``_safe_softmax``).  Backward, with ``dP = g vᵀ``:
``dv = Pᵀ g``, ``dS = P · (dP − Σ dP·P)``, ``dq = dS k · scale``, ``dk = dSᵀ q · scale``
(with grouped-query attention the key/value heads are repeated forward and their gradients summed back).
It is written with Tensor ops, so it is differentiable again under ``create_graph``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._tensor import Tensor
from ..autograd.function import Function
from .attention import SafeSoftmax

if TYPE_CHECKING:
    from ..autograd.function import Grads

__all__ = ["FlashAttentionForCpu", "repeat_heads"]


def repeat_heads(t: Any, reps: int) -> Any:
    """``t.repeat_interleave(reps, -3)`` as ATen composes it (unsqueeze, expand, clone, view); arrays too."""
    if reps == 1:
        return t
    shape = tuple(t.shape)
    sizes = (*shape[:-2], reps, *shape[-2:])
    if isinstance(t, np.ndarray):
        return np.broadcast_to(np.expand_dims(t, -3), sizes).reshape(*shape[:-3], shape[-3] * reps, *shape[-2:])
    out = t.unsqueeze(-3).expand(*sizes).clone()
    return out.view(*shape[:-3], shape[-3] * reps, *shape[-2:])


class FlashAttentionForCpu(Function):
    """``softmax(q kᵀ · scale + mask) v`` in one node (PyTorch's CPU flash-attention kernel)."""

    node_name: str = "ScaledDotProductFlashAttentionForCpuBackward0"
    saved_names: tuple[str, ...] = ("query", "key", "value", "output", "logsumexp")
    saved_attrs: tuple[str, ...] = ("attn_mask", "dropout_p", "is_causal", "scale")
    jvp = "from_vjp"

    @staticmethod
    def forward(ctx: Any, query: Tensor, key: Tensor, value: Tensor, mask: tuple[Any, ...], is_causal: bool,
                scale: float | None) -> Any:
        q, k, v = query._data, key._data, value._data
        reps = q.shape[-3] // k.shape[-3]
        k, v = repeat_heads(k, reps), repeat_heads(v, reps)
        chosen = 1 / np.sqrt(q.shape[-1]) if scale is None else scale
        scores = np.matmul(q, np.swapaxes(k, -2, -1)) * q.dtype.type(chosen)
        additive = _additive_mask(mask[0], is_causal, q, k.shape[-2])
        if additive is not None:
            scores = scores + additive
        top = scores.max(-1, keepdims=True)
        dead = np.isneginf(top)                                       # every key masked out
        e = np.exp(scores - np.where(dead, 0, top))
        total = e.sum(-1, keepdims=True)
        p = np.where(dead, 0, e / total)
        out = np.empty_like(q, order="K")              # PyTorch's output takes the query's memory layout
        out[...] = np.matmul(p.astype(q.dtype, copy=False), v)
        b, h, length = q.shape[:3]
        lse = np.empty((b, length, h), q.dtype).transpose(0, 2, 1)     # and its logsumexp is (B, L, H) in memory
        lse[...] = np.where(dead, 0, np.log(total) + np.where(dead, 0, top))[..., 0]
        output = Tensor._make(out, False)
        ctx.save_for_backward(query, key, value, output, Tensor._make(lse, False))
        mask_t = mask[0]
        if mask_t is not None and additive is not None and not mask_t.dtype.is_floating_point:
            mask_t = Tensor._make(additive, False)                    # PyTorch saves a bool mask as 0 / −inf
        ctx.attn_mask, ctx.dropout_p, ctx.is_causal, ctx.scale = mask_t, 0.0, is_causal, scale
        return out

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        query, key, value, _, _ = ctx.saved_tensors
        reps = query.shape[-3] // key.shape[-3]
        k, v = repeat_heads(key, reps), repeat_heads(value, reps)
        chosen = 1 / float(np.sqrt(query.shape[-1])) if ctx.scale is None else ctx.scale
        scores = query.matmul(k.transpose(-2, -1)) * chosen
        additive = _additive_mask(ctx.attn_mask, ctx.is_causal, query._data, key.shape[-2])
        if additive is not None:
            scores = scores + Tensor._make(additive, False)
        p = SafeSoftmax.apply(scores, -1)
        dp = grad.matmul(v.transpose(-2, -1))
        ds = p * (dp - (dp * p).sum(-1, keepdim=True))
        needs = ctx.needs_input_grad
        grad_q = ds.matmul(k) * chosen if needs[0] else None
        grad_k = _unrepeat(ds.transpose(-2, -1).matmul(query) * chosen, reps) if needs[1] else None
        grad_v = _unrepeat(p.transpose(-2, -1).matmul(grad), reps) if needs[2] else None
        return grad_q, grad_k, grad_v, None, None, None


def _unrepeat(g: Tensor, reps: int) -> Tensor:
    """The gradient of ``repeat_heads``: each key/value head gets the sum over its ``reps`` copies."""
    if reps == 1:
        return g
    shape = tuple(g.shape)
    return g.reshape(*shape[:-3], shape[-3] // reps, reps, *shape[-2:]).sum(-3)


def _additive_mask(mask: Tensor | None, is_causal: bool, q: np.ndarray, source: int) -> np.ndarray | None:
    """The mask as numbers added to the scores: bool True → 0 (attend), False → −inf; causal: the lower triangle."""
    if is_causal:
        return np.where(np.tri(q.shape[-2], source, dtype=bool), 0.0, -np.inf).astype(q.dtype)
    if mask is None:
        return None
    m = mask._data
    if m.dtype == np.bool_:
        return np.where(m, 0.0, -np.inf).astype(q.dtype)
    return m


from .formulas import row as _row  # noqa: E402  (ops/formulas.py imports the ops modules it registers)

_row(FlashAttentionForCpu, ("query", "key", "value"),
     ("(P · (g vᵀ − sum(g vᵀ · P))) @ key · scale", "(P · (g vᵀ − sum(g vᵀ · P)))ᵀ @ query · scale", "Pᵀ @ g"),
     "Attention softmax(q kᵀ·scale + mask) v in one node: P the attention weights, the softmax rule inside.")
