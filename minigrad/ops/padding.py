"""Reflection and replication padding (``F.pad(mode='reflect' | 'replicate')``), PyTorch's nodes.

Both are gathers: along each padded dim, output position ``i`` reads input position ``src[i]``:

* reflect: ``[2 1 | 0 1 2 3 | 2 1]`` (the edge is not repeated; a pad must be smaller than the dim);
* replicate: ``[0 0 | 0 1 2 3 | 3 3]`` (the edge is repeated).

A negative pad crops.  The backward is the adjoint gather: each input position adds up the gradients
of every output position that read it (``np.add.at``), and that adjoint's backward is the gather again,
so ``create_graph=True`` works (``ReflectionPad1DBackwardBackward0``...).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._creation import empty
from ..autograd.function import Function

if TYPE_CHECKING:
    from .._tensor import Tensor
    from ..autograd.function import Grads


def source_indices(n: int, before: int, after: int, mode: str) -> np.ndarray:
    """For one dim of length ``n`` padded by ``(before, after)``: the input index each output reads."""
    j = np.arange(-before, n + after)
    if mode == "reflect":
        j = np.abs(j)
        return (n - 1) - np.abs((n - 1) - j)
    return np.clip(j, 0, n - 1)


def _plan(shape: tuple[int, ...], pad: tuple[int, ...], mode: str) -> list[tuple[int, np.ndarray]]:
    """``(axis, source indices)`` for each padded dim (``pad`` is last dim first, as ``F.pad``'s)."""
    plan = []
    for k in range(len(pad) // 2):
        axis = len(shape) - 1 - k
        plan.append((axis, source_indices(shape[axis], pad[2 * k], pad[2 * k + 1], mode)))
    return plan


def gather(a: np.ndarray, plan: list[tuple[int, np.ndarray]]) -> np.ndarray:
    for axis, src in plan:
        a = np.take(a, src, axis=axis)
    return a


def scatter(g: np.ndarray, plan: list[tuple[int, np.ndarray]], shape: tuple[int, ...]) -> np.ndarray:
    """The adjoint of ``gather``: gradients summed back onto the positions they were read from."""
    for axis, src in reversed(plan):
        out_shape = list(g.shape)
        out_shape[axis] = shape[axis]
        out = np.zeros(out_shape, dtype=g.dtype)
        moved = np.moveaxis(out, axis, 0)
        np.add.at(moved, src, np.moveaxis(g, axis, 0))
        g = out
    return g


class _Pad:
    """Reflection/replication padding of the last ``len(padding)/2`` dims.  Backward: ``_PadBackward``.

    (A mixin: ``_pair`` makes the six Functions, one per mode and number of dims.)"""

    mode: str = "reflect"
    jvp = "auto_linear"
    saved_names: tuple[str, ...] = ("self",)
    saved_attrs: tuple[str, ...] = ("padding",)
    backward_cls: Any = None

    @classmethod
    def forward(cls, ctx: Any, x: Tensor, padding: tuple[int, ...]) -> Any:
        ctx.save_for_backward(x)
        ctx.padding = padding
        return gather(x._data, _plan(tuple(x.shape), padding, cls.mode))

    @classmethod
    def backward(cls, ctx: Any, grad: Tensor) -> Grads:
        (x,) = ctx.saved_tensors
        return cls.backward_cls.apply(grad, x, ctx.padding), None


class _PadBackward:
    """The adjoint of ``_Pad``: ``(grad_output, self)`` -> the gradient of ``self``.  Backward: ``_Pad`` again."""

    forward_cls: Any = None
    jvp = "auto_linear"
    saved_names: tuple[str, ...] = ("self",)
    saved_attrs: tuple[str, ...] = ("padding",)

    @classmethod
    def forward(cls, ctx: Any, grad: Tensor, x: Tensor, padding: tuple[int, ...]) -> Any:
        ctx.save_for_backward(x)
        ctx.padding = padding
        shape = tuple(x.shape)
        return scatter(grad._data, _plan(shape, padding, cls.forward_cls.mode), shape)

    @classmethod
    def backward(cls, ctx: Any, grad: Tensor) -> Grads:
        return cls.forward_cls.apply(grad, ctx.padding), None, None


def _pair(mode: str, dims: int) -> tuple[Any, Any]:
    kind = "Reflection" if mode == "reflect" else "Replication"
    name = "%sPad%dD" % (kind, dims)
    fwd = type(name, (_Pad, Function), {"node_name": name + "Backward0", "mode": mode, "__doc__": _Pad.__doc__})
    bwd = type(name + "Backward", (_PadBackward, Function),
               {"node_name": name + "BackwardBackward0", "forward_cls": fwd, "__doc__": _PadBackward.__doc__})
    fwd.backward_cls = bwd
    return fwd, bwd


PADS: dict[tuple[str, int], Any] = {}
_ADJOINTS = []
for _mode in ("reflect", "replicate"):
    for _dims in (1, 2, 3):
        PADS[_mode, _dims], _adjoint = _pair(_mode, _dims)
        _ADJOINTS.append(_adjoint)


from .formulas import row as _row  # noqa: E402  (ops/formulas.py imports the ops modules it registers)

for (_mode, _dims), _cls in PADS.items():
    _how = "mirrored (edge not repeated)" if _mode == "reflect" else "copies of the edge"
    _row(_cls, ("self",), ("g summed back onto the positions each padded value was read from",),
         "Padding with %s: every input value gets the gradients of all the places it was copied to." % _how)
for _cls in _ADJOINTS:
    _row(_cls, ("grad_output", "self"), ("the padding of g (as the forward)", None),
         "The padding's backward is linear: its own gradient pads g again.")


_COMBINATIONS = (
    "Supported combinations for non-constant padding:\n"
    "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
    "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
    "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)"
)


def pad(x: Tensor, padding: tuple[int, ...], mode: str, value: Any) -> Tensor:
    """``F.pad`` for ``mode`` ``'reflect'``, ``'replicate'`` or ``'circular'``, with ATen's checks and words."""
    if value is not None:
        raise RuntimeError('Padding mode "%s" doesn\'t take in value argument' % mode)
    dims = len(padding) // 2
    if len(padding) not in (2, 4, 6) or x.ndim not in (dims + 1, dims + 2):
        raise NotImplementedError("Padding size %d is not supported for %dD input tensor.\n%s"
                                  % (len(padding), x.ndim, _COMBINATIONS))
    if mode == "circular":
        return _circular(x, padding)
    shape = tuple(x.shape)
    letters = "DHW"[3 - dims:]
    sizes = shape[-dims:]
    if any(s == 0 for s in shape[-dims - 1:]) if x.ndim == dims + 2 else any(s == 0 for s in shape[-dims:]):
        raise RuntimeError("Expected %dD or %dD (batch mode) tensor with possibly 0 batch size and other non-zero "
                           "dimensions for input, but got: [%s]" % (dims + 1, dims + 2, ", ".join(map(str, shape))))
    if mode == "reflect":
        for k in range(dims):               # the last dim first, as ATen checks
            before, after = padding[2 * k], padding[2 * k + 1]
            d = x.ndim - 1 - k
            if not (before < shape[d] and after < shape[d]):
                raise RuntimeError("Argument #%d: Padding size should be less than the corresponding input dimension, "
                                   "but got: padding (%d, %d) at dimension %d of input [%s]"
                                   % (4 + 2 * k, before, after, d, ", ".join(map(str, shape))))
    out = [sizes[i] + padding[2 * (dims - 1 - i)] + padding[2 * (dims - 1 - i) + 1] for i in range(dims)]
    if mode == "reflect" and dims < 3 and any(o < 0 for o in out):
        raise RuntimeError("numel: integer multiplication overflow")     # (ATen's words for this case)
    if any(o < 0 for o in out):
        raise RuntimeError("Trying to create tensor with negative dimension %d: [%s]"
                           % (min(out), ", ".join(map(str, (*shape[:-dims], *out)))))
    if any(o < 1 for o in out):
        raise RuntimeError("input (%s) is too small. Calculated output %s"
                           % (", ".join("%s: %d" % (c, s) for c, s in zip(letters, sizes)),
                              " ".join("%s: %d" % (c, o) for c, o in zip(letters, out))))
    return PADS[mode, dims].apply(x, tuple(padding))


def _circular(x: Tensor, padding: tuple[int, ...]) -> Tensor:
    """ATen's ``_pad_circular``: the input copied into the middle of a new tensor, then each padded dim's
    ends copied from the other side of that tensor (``CopySlices`` nodes, as PyTorch records)."""
    ndim = len(padding) // 2
    lead = x.ndim - ndim
    in_shape = tuple(x.shape)
    out_shape = list(in_shape)
    for i in range(ndim):
        left, right = padding[2 * (ndim - i - 1)], padding[2 * (ndim - i - 1) + 1]
        size = in_shape[lead + i]
        out_shape[lead + i] = size + left + right
        if not (left <= size and right <= size):
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if out_shape[lead + i] < 0:
            raise RuntimeError("Negative padding value is resulting in an empty dimension")
    out = empty(*out_shape, dtype=x.dtype)

    def part(t: Tensor, dim: int, start: int, end: int) -> Tensor:
        start = max(min(start + t.shape[dim] if start < 0 else start, t.shape[dim]), 0)   # (ATen's slice clamps)
        return t.narrow(dim, start, max(min(end, t.shape[dim]) - start, 0))

    out_slice, in_slice = out, x
    for i in range(ndim):
        dim, left, right = x.ndim - 1 - i, padding[2 * i], padding[2 * i + 1]
        out_slice = part(out_slice, dim, max(left, 0), out_shape[dim] - max(right, 0))
        in_slice = part(in_slice, dim, max(-left, 0), in_shape[dim] - max(-right, 0))
    out_slice.copy_(in_slice)
    for i in range(ndim):
        dim, left, right = x.ndim - 1 - i, padding[2 * i], padding[2 * i + 1]
        if left > 0:
            end = out_shape[dim] - max(right, 0)
            part(out, dim, 0, left).copy_(part(out, dim, end - left, end))
        if right > 0:
            start = max(left, 0)
            part(out, dim, out_shape[dim] - right, out_shape[dim]).copy_(part(out, dim, start, start + right))
    return out
