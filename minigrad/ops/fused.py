"""PyTorch's fused double-backward nodes: a backward formula recorded as ONE node under ``create_graph``.

PyTorch writes some backwards as one ATen op (``convolution_backward``, ``max_pool2d_with_indices_backward``,
``native_batch_norm_backward``...), so ``create_graph=True`` records a single node for the whole formula
(``ConvolutionBackwardBackward0``), not the ops minigrad computes it with.  ``FusedBackward`` does the same:

* ``forward`` runs the class's ``gradients`` (the plain Tensor-op backward of the op) without recording, and
  returns its gradients as the node's outputs -- all of them require grad once any input does, as PyTorch's;
* ``backward`` is the vector-Jacobian product of that same formula: it runs the formula again with
  recording on (on fresh handles of the inputs, so that only the formula's own paths are differentiated) and
  asks autograd for the gradient of ``Σ ggᵢ · outᵢ``.  Under ``create_graph`` that is recorded too, so the
  node is differentiable to any order.

A subclass names the node (``node_name``), what it saves (``saved_names``, ``saved_attrs``: its ``_saved_*``)
and gives ``gradients(ctx, *tensors)``: the gradients, ``None`` for those not asked for (``ctx.mask``).
``apply(*tensors, attrs)``: one edge per tensor (PyTorch's ``next_functions`` order), then a dict of the
constant arguments, set on ``ctx`` (``ctx.stride``...); ``attrs["mask"]`` says which outputs to compute.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..autograd import grad_mode
from ..autograd.function import Function

if TYPE_CHECKING:
    from ..autograd.function import Grads

__all__ = ["FusedBackward"]


class FusedBackward(Function):
    """The base of the fused double-backward nodes (see the module docstring)."""

    jvp = "from_vjp"
    saved_names: tuple[str, ...] = ()
    saved_attrs: tuple[str, ...] = ()

    @staticmethod
    def gradients(ctx: Any, *tensors: Any) -> tuple[Any, ...]:  # pragma: no cover - every subclass has its own
        raise NotImplementedError

    @classmethod
    def forward(cls, ctx: Any, *args: Any) -> Any:
        from .nn_ops import UNDEFINED  # (the sentinel of an absent optional tensor: an edge of None)
        *tensors, attrs = args
        for name, value in attrs.items():
            setattr(ctx, name, value)
        tensors = [None if t is UNDEFINED else t for t in tensors]
        ctx.save_for_backward(*tensors)
        ctx.set_materialize_grads(False)            # an output nobody used gets no gradient (not zeros)
        with grad_mode.no_grad():
            outs = cls.gradients(ctx, *[t.detach() if t is not None else None for t in tensors])
        ctx.defined = tuple(o is not None for o in outs)
        dtype = next(t for t in tensors if t is not None)._data.dtype
        return tuple(np.empty(0, dtype) if o is None else o._data for o in outs)

    @classmethod
    def backward(cls, ctx: Any, *grads: Any) -> Grads:
        from ..autograd import grad as autograd_grad  # at call time: autograd's API builds on the ops
        tensors = ctx.saved_tensors
        needs = ctx.needs_input_grad
        create_graph = grad_mode.is_grad_enabled()
        with grad_mode.enable_grad():
            # fresh handles: the formula's own paths only (an input may also reach grad_output upstream)
            args = [t if t is None else
                    ((t.view_as(t) if t.requires_grad else t.detach().requires_grad_()) if need else t.detach())
                    for t, need in zip(tensors, needs)]
            outs = cls.gradients(ctx, *args)
            pairs = [(o, g) for o, g, d in zip(outs, grads, ctx.defined) if d and o is not None and g is not None
                     and o.requires_grad]
            wrt = [a for a, need in zip(args, needs) if need and a is not None]
            got = iter(autograd_grad([o for o, _ in pairs], wrt, [g for _, g in pairs], create_graph=create_graph,
                                     allow_unused=True) if pairs and wrt else [None] * len(wrt))
        result = [next(got) if need and a is not None else None for a, need in zip(args, needs)]
        result = [g if g is None or create_graph else g.detach() for g in result]
        return (*result, None)
