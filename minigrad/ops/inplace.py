"""In-place ops and the nodes that make writes through views differentiable (``CopySlices``).

``inplace`` (behind every ``Tensor.xxx_()``) runs an op out of place and writes the result into
the tensor; the ops here are the ones that exist only as in-place writes (``zero_``, ``fill_``,
``copy_``) and the two nodes a write *through a view* records: ``ViewCopy`` (``CopySlices``) on
the base and ``AsStrided`` on the view.  ``regenerate_view`` gives a view whose base changed
its new ``grad_fn`` (``Tensor.grad_fn`` calls it).
"""

from __future__ import annotations

import math
import weakref
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _dtype, _tensor  # _tensor is still loading: use `_tensor.Tensor` at call time
from ..autograd import forward_ad, grad_mode
from ..autograd.function import BackwardCFunction, Function, _forget
from ..autograd.views import replay_view, views_require_grad
from ._rules import Rule, rule

if TYPE_CHECKING:
    from .._tensor import Tensor
    from ..autograd.function import Grads

LEAF_INPLACE = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF_INPLACE = "a view of a leaf Variable that requires grad is being used in an in-place operation."
_INFERENCE_INPLACE = ("Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone "
                      "to get a normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 "
                      "for more details.")


def inplace(t: Any, compute: Any, others: Any = (), leaf_message: Any = LEAF_INPLACE, ufunc: Any = None,
            fill: Any = False) -> Any:
    """Run ``compute(t, *others)`` out of place, then write the result into ``t``; return ``t``.

    The one place in-place semantics live: PyTorch's checks (leaves, views of leaves, special
    views), the version bump, and re-basing ``grad_fn`` -- on ``t``, or, when ``t`` is a view, on
    its base (``CopySlices``) and on ``t`` (``AsStridedBackward0``).  ``ufunc`` (``np.add``...):
    when nothing is recorded, the same result computed straight into ``t``'s memory, one pass
    instead of three (the manual SGD step ``p -= lr * p.grad``).  ``fill``: the op writes one value everywhere
    (``zero_``, ``fill_``), so, as in PyTorch, it may write a tensor whose elements share memory (``expand``);
    a boolean array instead of True: only where it is True (``masked_fill_``, ``t[i] = v`` on an expand).
    """
    state = grad_mode._state
    if t._is_inference and not state.inference:
        raise RuntimeError(_INFERENCE_INPLACE)
    recording = state.grad_enabled and (t._requires_grad or any(getattr(o, "requires_grad", False) for o in others))
    if not recording:                       # (then `compute` records nothing either)
        if ufunc is not None and not state.fw_levels and _same_layout(t, others[0]):
            with np.errstate(all="ignore"):    # inf - inf is nan, without numpy's warning
                ufunc(t._data, others[0]._data, out=t._data)
            t._version_counter[0] += 1
        else:
            result = compute(t, *others)
            _write(t, result, fill)
            if state.fw_levels:
                forward_ad.inplace(t, result)
        return t
    base = t._base
    root = t if base is None else base
    plain = not root._requires_grad         # the write may make the base require grad: then so do its views
    if base is not None:                    # PyTorch's check_inplace
        if t._creation_meta is not None:
            raise RuntimeError(view_rebase_message(t, indirect=False))
        if t._requires_grad and base._grad_fn is None:
            raise RuntimeError(VIEW_OF_LEAF_INPLACE)
    elif t._requires_grad and t._grad_fn is None:
        raise RuntimeError(leaf_message)
    old_fn = t.grad_fn
    source = _alias_with_copy(t)          # the old value, for what the op saves (x.mul_(w) saves x for w's grad)
    result = compute(source, *others)
    _write(t, result, fill)
    if state.fw_levels:
        forward_ad.inplace(t, result)
    fn = result._grad_fn
    if base is not None:
        # NOTE [CopySlices]: the base's new node wraps the node the op recorded on the view
        slot, inputs = other_inputs(fn, source)
        old_base_fn = base._grad_fn
        new_base = ViewCopy.apply(alias(base), t._view_fn, replay_view, fn, slot, *inputs)
        _set_grad_fn(base, old_base_fn, new_base._grad_fn, 0)
        node = AsStrided.apply(alias(base), t._view_fn, replay_view)._grad_fn
        _set_grad_fn(t, old_fn, node, 0)
        t._view_version = t._version_counter[0]
    else:
        _set_grad_fn(t, old_fn, fn, result._output_nr)
    if fn is not None:
        _save_as_output(fn, result, t, base is not None)
    if plain and root._requires_grad:
        views_require_grad(root)
    return t


def _set_grad_fn(t, old_fn, node, output_nr):
    """Give ``t`` a new ``grad_fn``; ``retain_grad()`` moves with it (PyTorch's
    ``update_tensor_hooks_on_new_gradfn``; hooks registered earlier stay on the old node)."""
    retained = old_fn is not None and old_fn._retain_grad and old_fn._retain_grad.get(t._output_nr)
    if retained is not None and retained is not False and retained() is t:
        del old_fn._retain_grad[t._output_nr]
    else:
        retained = None
    t._grad_fn, t._output_nr, t._requires_grad = node, output_nr, node is not None or t._requires_grad
    if node is not None:
        node._outputs = (weakref.ref(t),)
        if retained is not None:
            if node._retain_grad is None:
                node._retain_grad, node._hooked = {}, True
            node._retain_grad[output_nr] = retained


def _save_as_output(fn, result, t, on_view=False):
    """What the op saved of its own result now refers to ``t`` itself, at ``t``'s new version.

    So ``y.exp_(); y.mul_(2)`` makes ``ExpBackward0``'s saved result stale, and backward raises
    PyTorch's "modified by an inplace operation" error (as for ``exp_`` in PyTorch).  On a view,
    that error names the view's new node (``output 0 of AsStrided``), as PyTorch's ``is_inplace_on_view``.
    """
    data = t._data
    for saved in getattr(fn, "_packed_objects", tuple)():
        if saved is not None and saved.output_nr is not None and saved.hooks is None \
                and saved.data is result._data and saved.data.dtype == data.dtype and saved.data.shape == data.shape:
            saved.data, saved.version_counter, saved.version = data, t._version_counter, t._version_counter[0]
            if on_view:
                saved.view_writer = weakref.ref(t._grad_fn)


def regenerate_view(view: Any) -> Any:
    """``view.grad_fn`` after its base (or another view of it) changed in place: ``AsStridedBackward0``.

    The new node takes the view of the base's *current* value, so gradients flow through the
    in-place op (``y = x * 1; v = y[:2]; y.mul_(10)`` gives ``v`` a gradient of 10 per element).
    Views that may not be rebased (multi-output, made under no_grad) raise PyTorch's error.
    """
    base, old = view._base, view._grad_fn
    if old is None and not base._requires_grad:
        view._view_version = view._version_counter[0]
        return None
    if view._creation_meta is not None:
        raise RuntimeError(view_rebase_message(view, indirect=True))
    state = grad_mode._state
    enabled, state.grad_enabled = state.grad_enabled, True     # the node is made whatever the grad mode
    inference, state.inference = state.inference, False
    try:
        node = AsStrided.apply(alias(base), view._view_fn, replay_view)._grad_fn
    finally:
        state.grad_enabled, state.inference = enabled, inference
    _set_grad_fn(view, old, node, 0)
    view._view_version = view._version_counter[0]
    return node


def view_rebase_message(view: Any, indirect: Any) -> Any:
    """PyTorch's error for an in-place write on (or through the base of) a view that forbids it."""
    meta, fn = view._creation_meta, view._grad_fn
    modified = "its base or another view of its base has been" if indirect else "is being"
    name = fn.name() if fn is not None else ""
    name = name[:name.rfind("Backward")] if "Backward" in name else name
    if meta in ("inference", "no_grad") or fn is None:
        prefix = ("Output %d of %s is a view of a view which was created in" % (view._output_nr, name)
                  if fn is not None else "A view was created in")
        if meta == "inference":
            message = "%s inference mode and %s modified inplace in normal mode." % (prefix, modified)
        else:
            message = "%s no_grad mode and %s modified inplace with grad mode enabled." % (prefix, modified)
    else:
        message = "Output %d of %s is a view and %s modified inplace." % (view._output_nr, name, modified)
    if meta == "multi":
        return message + (" This view is the output of a function that returns multiple views. Such functions do "
                          "not allow the output views to be modified inplace. You should replace the inplace "
                          "operation by an out-of-place one.")
    mode = "inference_mode" if meta == "inference" else "no_grad"
    return message + (" Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your "
                      "code by moving both the view and the inplace either both inside the %s block (if you don't "
                      "want the inplace to be tracked) or both outside (if you want the inplace to be tracked)."
                      % mode)


def alias(t: Any) -> Any:
    """A new tensor object for the same data, version counter and graph position."""
    out = _tensor.Tensor._make(t._data, t._requires_grad)
    out._grad_fn, out._output_nr, out._version_counter = t.grad_fn, t._output_nr, t._version_counter
    out._base, out._view_fn, out._view_version = t._base, t._view_fn, t._view_version
    return out


def _alias_with_copy(t):
    """The value of ``t`` *before* an in-place write, still linked to ``t``'s place in the graph."""
    out = _tensor.Tensor._make(t._data.copy(), t._requires_grad)
    out._grad_fn, out._output_nr = t.grad_fn, t._output_nr
    if t._fw_grads:
        forward_ad._copy_other_levels(t, out, None)     # and its tangents (forward AD)
    return out


def _same_layout(target, other):
    """``other`` can be combined into ``target``'s memory with no cast and no broadcast of ``target``.

    (numpy's ufuncs handle memory overlap between ``out`` and an input themselves.)
    """
    a, b = target._data, other._data
    return a.dtype == b.dtype and a.shape == b.shape and a.flags.writeable


_OVERLAP = ("unsupported operation: more than one element of the written-to tensor refers to a single memory "
            "location. Please clone() the tensor before performing the operation.")


def _write(target, result, fill=False):
    """Copy ``result``'s values into ``target``'s memory and bump its version (PyTorch's cast rule)."""
    src = result._data
    if not np.can_cast(src.dtype, target._data.dtype, casting="same_kind"):
        raise RuntimeError("result type %s can't be cast to the desired output type %s"
                           % (_dtype.from_numpy_dtype(src.dtype)._legacy, target.dtype._legacy))
    if src.shape != target._data.shape:
        try:
            np.broadcast_to(src, target._data.shape)
        except ValueError:
            raise RuntimeError("output with shape [%s] doesn't match the broadcast shape [%s]"
                               % (", ".join(map(str, target.shape)), ", ".join(map(str, src.shape)))) from None
    if not target._data.flags.writeable:     # an expand (numpy's broadcast views are read-only)
        overlap = has_overlap(target._data)
        writable = _writable_alias(target._data) if fill is not False or not overlap else None
        if writable is not None:                 # zero_/fill_ of an expanded tensor: each element gets the value
            np.copyto(writable, src, casting="unsafe", where=True if fill is False else fill)
            target._version_counter[0] += 1
            return
        raise RuntimeError(_OVERLAP)
    np.copyto(target._data, src, casting="unsafe")
    target._version_counter[0] += 1


def has_overlap(a) -> bool:
    """Elements of ``a`` that share memory (PyTorch's internal overlap: a stride 0 over more than one element;
    an empty tensor has no elements to share)."""
    return a.size > 1 and any(stride == 0 and n > 1 for stride, n in zip(a.strides, a.shape))


def _writable_alias(a):
    """A writable array over the same memory as the read-only (expanded) view ``a``, or None."""
    root = a
    while True:                               # (np.lib.stride_tricks.as_strided's views hang off a DummyArray)
        base = root.base
        if not isinstance(base, np.ndarray):
            base = getattr(base, "base", None)
        if not isinstance(base, np.ndarray):
            break
        root = base
    if not root.flags.writeable:
        return None
    interface = dict(a.__array_interface__, data=(a.__array_interface__["data"][0], False))
    return np.asarray(_Memory(interface, root))


class _Memory:
    """An array interface (pointer, shape, strides) over memory that ``owner`` keeps alive."""

    def __init__(self, interface, owner):
        self.__array_interface__, self.owner = interface, owner


def _zeros_like(grad):
    """The gradient of values that were overwritten: an exact 0 (``grad * 0`` would make inf into nan)."""
    return _tensor.Tensor._make(np.zeros_like(grad._data))


class Zero(Function):
    """``zero_()``.  Backward: 0 (the old values no longer matter)."""

    node_name: str = "ZeroBackward0"
    jvp = "auto_linear"

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> Any:
        return np.zeros(x.shape, dtype=x._data.dtype)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return _zeros_like(grad)


class Fill(Function):
    """``fill_(value)`` with a number.  Backward: 0 (the old values no longer matter)."""

    node_name: str = "FillBackward2"

    @staticmethod
    def forward(ctx: Any, x: Tensor, value: Any) -> Any:
        return np.full(x.shape, value, dtype=x._data.dtype)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return _zeros_like(grad), None

    @staticmethod
    def jvp(ctx: Any, t: Any, _value: Any) -> Any:
        return t * 0


_RANDOM_FILLS: dict = {}


def random_fill_node(name: str) -> Any:
    """The node an in-place random fill records (``NormalBackward0`` for ``normal_``...): the drawn values
    replace the old ones, so the gradient is 0, as ``fill_``'s (derivatives.yaml: ``self: zeros_like(grad)``)."""
    cls = _RANDOM_FILLS.get(name)
    if cls is None:
        def forward(ctx: Any, x: Tensor, values: Any) -> Any:
            return np.asarray(values, dtype=x._data.dtype)

        def backward(ctx: Any, grad: Tensor) -> Grads:
            return _zeros_like(grad), None

        cls = _RANDOM_FILLS[name] = type(name, (Function,), {
            "__doc__": "An in-place random fill. Backward: 0 (the old values no longer matter).",
            "node_name": name, "forward": staticmethod(forward), "backward": staticmethod(backward),
            "jvp": staticmethod(lambda ctx, t, _values: t * 0)})
    return cls


class Bernoulli(Function):
    """``torch.bernoulli(probs)`` of probabilities that require grad: the draw is constant in them
    (derivatives.yaml: ``self: zeros_like(grad)``), ``BernoulliBackward0``."""

    node_name: str = "BernoulliBackward0"
    jvp = staticmethod(lambda ctx, t, _values: t * 0)         # the draw does not move with the probabilities

    @staticmethod
    def forward(ctx: Any, probs: Tensor, values: Any) -> Any:
        return values

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return _zeros_like(grad), None


class BernoulliP(Function):
    """``input.bernoulli(p)`` (a number ``p``) of an input that requires grad: PyTorch has no derivative and
    records ``NotImplemented``, whose backward raises."""

    node_name: str = "NotImplemented"
    jvp = "from_vjp"                                            # (raises, as the backward does)

    @staticmethod
    def forward(ctx: Any, x: Tensor, values: Any) -> Any:
        return values

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        raise RuntimeError("derivative for aten::bernoulli is not implemented")


class FillTensor(Function):
    """``fill_(tensor)`` with a 0-dim tensor.  Backward: the sum of grad goes to the value."""

    node_name: str = "FillBackward3"
    jvp = "auto_linear"

    @staticmethod
    def forward(ctx: Any, x: Tensor, value: Any) -> Any:
        return np.full(x.shape, value._data, dtype=x._data.dtype)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return _zeros_like(grad), grad.sum()


class Copy(Function):
    """``copy_(src)``.  Backward: grad to src (summed to its shape), 0 to the old values."""

    node_name: str = "CopyBackwards"
    jvp = "auto_linear"

    @staticmethod
    def forward(ctx: Any, x: Tensor, src: Tensor) -> Any:
        return np.broadcast_to(src._data, x.shape).astype(x._data.dtype)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return _zeros_like(grad), grad


class _CopySlicesNode(BackwardCFunction):
    def _release(self) -> bool:
        """After a backward without retain_graph, PyTorch's ``CopySlices::release_variables`` drops the wrapped
        node (``fn = nullptr``): so a second backward through it raises, and what only ``fn`` used is freed."""
        self._released = True
        _forget(self)
        return True


class ViewCopy(Function):
    """An in-place op on a view, seen from the view's base (PyTorch's ``CopySlices``).

    NOTE [CopySlices]: it wraps ``fn``, the node the op recorded on the view.  Backward: outside
    the view's slots the base's gradient passes through; inside them ``fn``'s backward runs, and
    its gradients for the op's other inputs are passed on.  So ``next_functions`` are the base's
    previous node, then ``fn``'s other inputs (``inputs``: stand-ins carrying those edges).
    """

    node_name: str = "CopySlices"
    _node_base = _CopySlicesNode

    @staticmethod
    def jvp(ctx: Any, *tangents: Any) -> Any:
        return None                             # the base's tangent is written by ``inplace`` (forward_ad)

    @staticmethod
    def forward(ctx: Any, base: Any, chain: Any, replay: Any, fn: Any, slot: Any, *inputs: Any) -> Any:
        ctx.chain, ctx.replay, ctx.fn, ctx.slot = chain, replay, fn, slot
        return base._data                       # already written: this node only records

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        grads = list(ctx.fn._apply((AsStrided.apply(grad, ctx.chain, ctx.replay),)))
        into_view = grads.pop(ctx.slot)
        positions = view_positions(ctx.chain, ctx.replay, grad.shape)
        if into_view is not None and np.unique(positions).size < np.size(positions):
            # PyTorch copies the gradient into the view's slots of the base's gradient: the view of an
            # expand (written by zero_/fill_) has several elements in one slot, and that copy_ refuses.
            raise RuntimeError(_OVERLAP)
        keep = np.ones(grad.shape, dtype=bool)
        keep.reshape(-1)[positions] = False
        base_grad = grad.masked_fill(_tensor.Tensor._make(~keep), 0)   # an exact 0 in the view's slots, not grad * 0
        if into_view is not None:
            base_grad = base_grad + IntoView.apply(into_view, ctx.chain, ctx.replay, tuple(grad.shape))
        return (base_grad, None, None, None, None, *grads)


def other_inputs(fn: Any, source: Any) -> Any:
    """Where ``source`` (the view before the write) is among ``fn``'s inputs, and stand-ins for the others.

    A stand-in is an empty-looking tensor with the shape and dtype ``fn`` expects and the same graph
    edge as the input it replaces, so that ``ViewCopy.apply`` records that edge.
    """
    edges, metas = fn.next_functions, [m for m in fn._input_meta if m is not None]
    slot = edges.index((source.grad_fn, source._output_nr) if source.requires_grad else (None, 0))
    inputs = []
    for i, ((node, nr), (shape, dtype)) in enumerate(zip(edges, metas)):
        if i == slot:
            continue
        t = _tensor.Tensor._make(np.broadcast_to(np.zeros((), dtype), shape))
        if node is not None:
            t._requires_grad = True
            if node._is_accumulate:
                t._accumulate_ref = weakref.ref(node)
            else:
                t._grad_fn, t._output_nr = node, nr
        inputs.append(t)
    return slot, inputs


def view_positions(chain: Any, replay: Any, shape: Any) -> Any:
    """For each element of the view, its position in the flattened base (the view taken of ``arange``)."""
    return replay(chain, np.arange(math.prod(shape)).reshape(shape))


class AsStrided(Function):
    """The view re-taken from its re-based base (a copy).  Backward: grad placed in the view's slots."""

    node_name: str = "AsStridedBackward0"
    jvp = "auto_linear"

    @staticmethod
    def forward(ctx: Any, base: Any, chain: Any, replay: Any) -> Any:
        ctx.chain, ctx.replay, ctx.shape = chain, replay, base.shape
        return np.array(replay(chain, base._data), copy=True)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return IntoView.apply(grad, ctx.chain, ctx.replay, ctx.shape), None, None


class IntoView(Function):
    """Zeros of ``shape`` with ``grad`` in the view's slots (``AsStrided``'s backward).  Backward: take the view."""

    node_name: str = "AsStridedBackwardBackward0"
    jvp = "auto_linear"

    @staticmethod
    def forward(ctx: Any, grad: Tensor, chain: Any, replay: Any, shape: tuple[int, ...]) -> Any:
        ctx.chain, ctx.replay = chain, replay
        out = np.zeros(shape, dtype=grad._data.dtype)
        # add, not assign: a view may see one element several times (expand), and then its gradients add up
        np.add.at(out.reshape(-1), view_positions(chain, replay, shape), grad._data)
        return out

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return AsStrided.apply(grad, ctx.chain, ctx.replay), None, None, None


# -- the ops minigrad has only in place (addcmul_, addcdiv_, lerp_): PyTorch's nodes, one row each; the
# formulas are written as derivatives.yaml's (``g * (tensor2 * value)``), so create_graph records its graph

def _lerp(self, end, weight):
    """PyTorch's lerp kernel: ``self + w (end - self)`` for |w| < 0.5, else ``end - (end - self)(1 - w)``."""
    small = np.abs(weight) < 0.5
    return np.asarray(np.where(small, self + weight * (end - self), end - (end - self) * (1 - weight)))


Addcmul: type[Rule] = rule("AddcmulBackward0", lambda self, tensor1, tensor2, value: self + value * tensor1 * tensor2,
               self=("g", lambda xp, g: g),
               tensor1=("g · tensor2 · value", lambda xp, g, tensor2, value: g * xp.mul_scalar(tensor2, value)),
               tensor2=("g · tensor1 · value", lambda xp, g, tensor1, value: g * xp.mul_scalar(tensor1, value)),
               jvp="from_vjp",
               words="self + value · tensor1 · tensor2: the product rule, scaled by value.")

def _filled(xp, value, like):
    """C++'s ``Scalar / Tensor``: a tensor of ``value`` (no gradient) divided by ``like`` (DivBackward0)."""
    a = xp.value(like)
    return xp.const(np.full(np.shape(a), value, dtype=a.dtype))


Addcdiv: type[Rule] = rule("AddcdivBackward0", lambda self, tensor1, tensor2, value: self + value * tensor1 / tensor2,
               self=("g", lambda xp, g: g),
               tensor1=("g · value / tensor2",
                        lambda xp, g, tensor2, value: g * (_filled(xp, value, tensor2) / tensor2)),
               tensor2=("−g · value · tensor1 / tensor2²",
                        lambda xp, g, tensor1, tensor2, value:
                        -g * (xp.mul_scalar(tensor1, value) / (tensor2 * tensor2))),
               jvp="from_vjp",
               words="self + value · tensor1 / tensor2: the quotient rule, scaled by value.")

Lerp: type[Rule] = rule("LerpBackward0", _lerp,
            self=("g · (1 − weight)", lambda xp, g, weight: g * (1 - weight)),
            end=("g · weight", lambda xp, g, weight: xp.mul_scalar(g, weight)),     # (PyTorch: MulBackward1)
            jvp="from_vjp",
            words="Linear interpolation by a number: self gets 1 − weight of the gradient, end gets weight.")

LerpTensor: type[Rule] = rule("LerpBackward1", _lerp,
                  self=("g · (1 − weight)", lambda xp, g, weight: g * (_filled(xp, 1, weight) - weight)),
                  end=("g · weight", lambda xp, g, weight: g * weight),
                  weight=("g · (end − self)", lambda xp, g, self, end: g * (end - self)),
                  jvp="from_vjp",
                  words="Linear interpolation by a tensor: the weight gets g · (end − self).")
