"""In-place ops and the nodes that make writes through views differentiable (``CopySlices``).

``Tensor._inplace`` (in ``_tensor_ops.py``) runs an op out of place and writes the result into
the tensor; the ops here are the ones that exist only as in-place writes (``zero_``, ``fill_``,
``copy_``) and the two nodes a write *through a view* records: ``ViewCopy`` (``CopySlices``) on
the base and ``AsStrided`` on the view.
"""

from __future__ import annotations

import weakref

import numpy as np

from ..autograd.function import Function


class Zero(Function):
    """``zero_()``.  Backward: 0 (the old values no longer matter)."""

    node_name = "ZeroBackward0"

    @staticmethod
    def forward(ctx, x):
        return np.zeros(x.shape, dtype=x._data.dtype)

    @staticmethod
    def backward(ctx, grad):
        return grad * 0


class Fill(Function):
    """``fill_(value)`` with a number.  Backward: 0 (the old values no longer matter)."""

    node_name = "FillBackward2"

    @staticmethod
    def forward(ctx, x, value):
        return np.full(x.shape, value, dtype=x._data.dtype)

    @staticmethod
    def backward(ctx, grad):
        return grad * 0, None


class FillTensor(Function):
    """``fill_(tensor)`` with a 0-dim tensor.  Backward: the sum of grad goes to the value."""

    node_name = "FillBackward3"

    @staticmethod
    def forward(ctx, x, value):
        return np.full(x.shape, value._data, dtype=x._data.dtype)

    @staticmethod
    def backward(ctx, grad):
        return grad * 0, grad.sum()


class Copy(Function):
    """``copy_(src)``.  Backward: grad to src (summed to its shape), 0 to the old values."""

    node_name = "CopyBackwards"

    @staticmethod
    def forward(ctx, x, src):
        return np.broadcast_to(src._data, x.shape).astype(x._data.dtype)

    @staticmethod
    def backward(ctx, grad):
        return grad * 0, grad


class ViewCopy(Function):
    """An in-place op on a view, seen from the view's base (PyTorch's ``CopySlices``).

    NOTE [CopySlices]: it wraps ``fn``, the node the op recorded on the view.  Backward: outside
    the view's slots the base's gradient passes through; inside them ``fn``'s backward runs, and
    its gradients for the op's other inputs are passed on.  So ``next_functions`` are the base's
    previous node, then ``fn``'s other inputs (``inputs``: stand-ins carrying those edges).
    """

    node_name = "CopySlices"

    @staticmethod
    def forward(ctx, base, chain, replay, fn, slot, *inputs):
        ctx.chain, ctx.replay, ctx.fn, ctx.slot = chain, replay, fn, slot
        return base._data                       # already written: this node only records

    @staticmethod
    def backward(ctx, grad):
        from .._tensor import Tensor
        grads = list(ctx.fn._apply((AsStrided.apply(grad, ctx.chain, ctx.replay),)))
        into_view = grads.pop(ctx.slot)
        mask = np.ones(grad.shape, dtype=grad._data.dtype)
        ctx.replay(ctx.chain, mask)[...] = 0
        base_grad = grad * Tensor._make(mask)
        if into_view is not None:
            base_grad = base_grad + IntoView.apply(into_view, ctx.chain, ctx.replay, tuple(grad.shape))
        return (base_grad, None, None, None, None, *grads)


def other_inputs(fn, source):
    """Where ``source`` (the view before the write) is among ``fn``'s inputs, and stand-ins for the others.

    A stand-in is an empty-looking tensor with the shape and dtype ``fn`` expects and the same graph
    edge as the input it replaces, so that ``ViewCopy.apply`` records that edge.
    """
    from .._tensor import Tensor

    edges, metas = fn.next_functions, [m for m in fn._input_meta if m is not None]
    slot = edges.index((source.grad_fn, source._output_nr) if source.requires_grad else (None, 0))
    inputs = []
    for i, ((node, nr), (shape, dtype)) in enumerate(zip(edges, metas)):
        if i == slot:
            continue
        t = Tensor._make(np.broadcast_to(np.zeros((), dtype), shape))
        if node is not None:
            t._requires_grad = True
            if node._is_accumulate:
                t._accumulate_ref = weakref.ref(node)
            else:
                t.grad_fn, t._output_nr = node, nr
        inputs.append(t)
    return slot, inputs


class AsStrided(Function):
    """The view re-taken from its re-based base (a copy).  Backward: grad placed in the view's slots."""

    node_name = "AsStridedBackward0"

    @staticmethod
    def forward(ctx, base, chain, replay):
        ctx.chain, ctx.replay, ctx.shape = chain, replay, base.shape
        return np.array(replay(chain, base._data), copy=True)

    @staticmethod
    def backward(ctx, grad):
        return IntoView.apply(grad, ctx.chain, ctx.replay, ctx.shape), None, None


class IntoView(Function):
    """Zeros of ``shape`` with ``grad`` in the view's slots (``AsStrided``'s backward).  Backward: take the view."""

    node_name = "AsStridedBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, chain, replay, shape):
        ctx.chain, ctx.replay = chain, replay
        out = np.zeros(shape, dtype=grad._data.dtype)
        replay(chain, out)[...] = grad._data
        return out

    @staticmethod
    def backward(ctx, grad):
        return AsStrided.apply(grad, ctx.chain, ctx.replay), None, None, None
