# Parts of this file follow PyTorch's torch/nn/modules/_functions.py (BSD-3-Clause, Copyright (c) 2016- Facebook, Inc
# and the PyTorch contributors); see THIRD_PARTY_NOTICES at the top of the distribution.
"""``BackwardHookFunction``: the identity node that full backward hooks of modules attach to."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..._tensor import Tensor
from ...autograd.function import Function

if TYPE_CHECKING:
    from ...autograd.function import Grads


def _alias(t: Tensor) -> Tensor:
    """A new tensor on the same memory (and version counter) as ``t``."""
    out = Tensor._make(t._data)
    out._version_counter = t._version_counter
    return out


class BackwardHookFunction(Function):
    """Pass tensors through unchanged, as one node (``BackwardHookFunctionBackward``).

    ``Module`` wraps a module's inputs and outputs in it when it has full backward hooks, so
    that the gradients w.r.t. all inputs (or outputs) arrive at one node, whose hooks see them
    together.  Tensors that do not require grad come out non-differentiable.  Its node prints
    as ``<BackwardHookFunctionBackward object ...>`` (PyTorch's, a Python Function's node, as
    ``<torch.autograd.function.BackwardHookFunctionBackward ...>``).
    """

    @staticmethod
    def forward(ctx: Any, *args: Any) -> Any:
        outputs = tuple(_alias(a) for a in args)
        ctx.mark_non_differentiable(*[out for a, out in zip(args, outputs) if not a.requires_grad])
        return outputs

    @staticmethod
    def backward(ctx: Any, *grads: Tensor) -> Grads:
        # as in PyTorch, an input that does not require grad still gets its (materialized, zero)
        # gradient here, so a module hook sees zeros for it in grad_input
        return grads
