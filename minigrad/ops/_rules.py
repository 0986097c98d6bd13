"""The derivative table's machinery: ``rule(...)`` turns one row into an op.

A row names the node class (PyTorch's name), the forward (numpy code), and for each input
the gradient twice: as Unicode math for people and as one expression for the machine::

    Cos = rule("CosBackward0", lambda self: fmath.cos(_float(self)),
               self=("−g · sin(self)", lambda xp, g, self: -g * xp.sin(self)),
               words="The slope of cos is −sin.")

* The forward's parameters are the op's arguments; those with a gradient entry are its tensor
  inputs (``self``, ``other``...), the others are attributes (``exponent``, ``dim``...).
* The gradient expression's parameters after ``(xp, g)`` say what backward needs: input names
  and ``result`` (the output) are saved tensors, attribute names are saved values.  Only what
  the inputs that require grad need is saved, as PyTorch's generated code does.
* ``xp`` is a tiny namespace: in a plain backward it is :data:`NP` and the expression runs on
  raw numpy arrays (no Tensor, node or ctx is made for it); under ``create_graph=True`` it is
  :data:`T`, the expression runs on Tensors and records the derivative graph.  Where PyTorch
  records one fused node for a derivative (``tanh_backward`` → ``TanhBackwardBackward0``), that
  derivative is itself a rule, bound into both namespaces (:func:`fused`).
* ``values={"self_sym_sizes": lambda self: self.shape}``: saved values computed from the
  arguments (on arrays) when the node is recorded, e.g. the input's shape for ``sum``; a value
  may replace an argument's raw value (``dim`` normalized to a tuple).  The gradient expressions
  name them like attributes.
* The row's formula is registered for :func:`minigrad.autograd.derivative_formula`, so docs, viz
  and the tests read the same table the engine runs.

A masking rule writes exact zeros (``xp.where(mask, g, 0)``): ``g * mask`` would turn an
``inf`` or ``nan`` gradient into ``nan`` where PyTorch gives 0.
"""

from __future__ import annotations

import inspect
import itertools
import sys
import weakref
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from .. import _tensor
from ..autograd import _fast, forward_ad, grad_mode
from ..autograd.formulas import register_formula
from ..autograd.function import _FREED, BackwardCFunction, Function, SavedTensor, _is_array, _shared
from ..autograd.graph import _NRS, _ExtAttr, _node_created_hooks, _notify_node_created, _sequence
from ..autograd.graph import _saved_tensors_hooks_stack as _hooks_stack
from ..autograd.graph import _shared_nrs as _nrs_of  # (a short name: Rule.apply's line)
from ._util import clip, fmath

if TYPE_CHECKING:
    from collections.abc import Callable

    from .._tensor import Tensor
    from ..autograd.formulas import Formula
    from ..autograd.function import Grads

__all__ = ["rule", "fused", "Rule", "NP", "T", "RULES"]

_NO_EDGE = (None, 0)
_BARE = (None, False, ())   # a new rule node: no hooks or metadata (_ext), not hooked, nothing saved yet
_SHARED_NEEDS = {flags: flags for n in (1, 2, 3) for flags in itertools.product((False, True), repeat=n)}
_METAS: dict[Any, Any] = {}     # one copy of each ``_input_meta`` for all nodes (``_metas``; edges: graph.py)


# np.errstate(all="ignore") without its cost: ``token = _quiet_set(_QUIET)`` ... ``_quiet_reset(token)`` (_fast.py)
_QUIET, _quiet_set, _quiet_reset = _fast.QUIET, _fast.quiet_set, _fast.quiet_reset

#: Every rule class, by node name, in the order they were defined.
RULES: dict[str, type[Rule]] = {}


class NP:
    """The gradient expressions' functions on numpy arrays (a plain backward)."""

    sin, cos, tan, exp, log = fmath.sin, fmath.cos, fmath.tan, fmath.exp, fmath.log
    sinh, cosh, tanh = fmath.sinh, fmath.cosh, fmath.tanh
    sqrt, abs, sign, floor = np.sqrt, np.abs, np.sign, np.floor

    @staticmethod
    def rsqrt(a: np.ndarray) -> Any:
        return 1 / np.sqrt(a)

    @staticmethod
    def reciprocal(a: np.ndarray) -> Any:
        return np.reciprocal(a)

    @staticmethod
    def pow(a: np.ndarray, b: np.ndarray) -> Any:
        return fmath.power(a, b)

    @staticmethod
    def where(mask: Any, a: np.ndarray, b: np.ndarray) -> Any:
        if type(a) is np.ndarray:
            return np.where(mask, a, np.asarray(b, dtype=a.dtype))
        return np.where(mask, a, b)

    @staticmethod
    def zeros_like(a: np.ndarray) -> Any:
        return np.zeros_like(a)

    @staticmethod
    def sigmoid(a: np.ndarray) -> Any:
        return (1 / (1 + fmath.exp(-a))).astype(a.dtype, copy=False)

    @staticmethod
    def minimum0(a: np.ndarray) -> Any:
        return clip(a, None, 0)                     # (np.minimum(-0., 0) may be 0.)

    @staticmethod
    def clamp_min(a: np.ndarray, low: Any) -> Any:
        return clip(a, low)

    @staticmethod
    def expand(a: np.ndarray, shape: tuple[int, ...]) -> Any:
        return _fast.expand(a, shape)                   # the plain version: np.broadcast_to(a, shape)

    @staticmethod
    def sum(a: np.ndarray, dims: Any, keepdim: bool = False) -> Any:
        return np.sum(a, axis=dims, keepdims=keepdim)

    @staticmethod
    def mask(condition: Any) -> Any:
        """A condition as a constant (a bool array here, a bool tensor in :data:`T`)."""
        return condition

    @staticmethod
    def value(a: np.ndarray) -> Any:
        """The numbers of a saved tensor, as an array (for masks and counts, which are constants)."""
        return a

    @staticmethod
    def const(a: np.ndarray) -> Any:
        """An array of numbers computed from the values (a constant tensor in :data:`T`)."""
        return a

    @staticmethod
    def by_tensors(fn: Any, *args: Any) -> Any:
        """Run ``fn(T, *args)`` on constant tensors and return its array: a rare case written once, in Tensor ops."""
        Tensor = _tensor.Tensor
        return fn(T, *[Tensor._make(a, False) if type(a) is np.ndarray else a for a in args])._data

    @staticmethod
    def restore(g: Any, dims: Any, keepdim: bool) -> Any:
        """Put back reduced ``dims`` (sorted, non-negative) as size 1, unless ``keepdim`` kept them."""
        return g if keepdim or not dims else np.expand_dims(g, dims)

    @staticmethod
    def mean(a: np.ndarray, dims: Any, keepdim: bool = False) -> Any:
        if a.size == 0:       # numpy warns "Mean of empty slice"; PyTorch's value is the same 0 / 0 = nan
            count = a.size if dims is None else int(np.prod([a.shape[d] for d in np.atleast_1d(dims)]))
            with np.errstate(all="ignore"):
                return np.sum(a, axis=dims, keepdims=keepdim) / a.dtype.type(count)
        return np.mean(a, axis=dims, keepdims=keepdim)

    @staticmethod
    def mm(a: np.ndarray, b: np.ndarray) -> Any:
        return a @ b

    mv = bmm = mm

    @staticmethod
    def t(a: np.ndarray) -> Any:
        return a.T

    @staticmethod
    def transpose(a: np.ndarray, d0: Any, d1: Any) -> Any:
        return np.swapaxes(a, d0, d1)

    @staticmethod
    def flip(a: np.ndarray, dim: Any) -> Any:
        return np.flip(a, dim)

    @staticmethod
    def cumsum(a: np.ndarray, dim: Any) -> Any:
        return np.cumsum(a, axis=dim)

    div_floor = staticmethod(np.floor_divide)       # self.div(other, rounding_mode="floor"), as Python's //
    reshape = staticmethod(np.reshape)

    @staticmethod
    def scalar_sub(number: Any, a: np.ndarray) -> Any:
        return a.dtype.type(number) - a

    @staticmethod
    def scalar_div(number: Any, a: np.ndarray) -> Any:
        return a.dtype.type(number) / a


class T:
    """The same functions on Tensors (``create_graph=True``: the derivative is recorded)."""

    sin = staticmethod(lambda t: t.sin())
    cos = staticmethod(lambda t: t.cos())
    tan = staticmethod(lambda t: t.tan())
    exp = staticmethod(lambda t: t.exp())
    log = staticmethod(lambda t: t.log())
    sinh = staticmethod(lambda t: t.sinh())
    cosh = staticmethod(lambda t: t.cosh())
    tanh = staticmethod(lambda t: t.tanh())
    sqrt = staticmethod(lambda t: t.sqrt())
    rsqrt = staticmethod(lambda t: t.rsqrt())
    reciprocal = staticmethod(lambda t: t.reciprocal())
    abs = staticmethod(lambda t: t.abs())
    sign = staticmethod(lambda t: t.sign())
    floor = staticmethod(lambda t: t.floor())
    pow = staticmethod(lambda a, b: a ** b)

    @staticmethod
    def zeros_like(t: Any) -> Any:
        """A constant: PyTorch's ``zeros_like(grad)`` records no node (the gradient does not require grad)."""
        return _tensor.Tensor._make(np.zeros_like(t._data), False)

    sigmoid = staticmethod(lambda t: t.sigmoid())
    minimum0 = staticmethod(lambda t: t.clamp_max(0))
    clamp_min = staticmethod(lambda t, low: t.clamp_min(low))
    expand = staticmethod(lambda t, shape: t.expand(shape))

    @staticmethod
    def where(mask: Any, a: Any, b: Any) -> Any:
        from .._creation import where  # circular: _creation builds on the ops
        return where(mask, a, b)

    @staticmethod
    def sum(t: Any, dims: Any, keepdim: bool = False) -> Any:
        return t.sum(dims, keepdim=keepdim)

    @staticmethod
    def mask(condition: Any) -> Any:
        Tensor = _tensor.Tensor
        return condition if isinstance(condition, Tensor) else Tensor._make(np.asarray(condition), False)

    value = staticmethod(lambda t: t._data)
    by_tensors = staticmethod(lambda fn, *args: fn(T, *args))

    @staticmethod
    def const(a: Any) -> Any:
        return T.mask(a)
    mean = staticmethod(lambda t, dims, keepdim=False: t.mean(dims, keepdim=keepdim))
    mm = staticmethod(lambda a, b: a.mm(b))
    mv = staticmethod(lambda a, b: a.mv(b))
    bmm = staticmethod(lambda a, b: a.bmm(b))
    t = staticmethod(lambda a: a.t())
    transpose = staticmethod(lambda a, d0, d1: a.transpose(d0, d1))
    flip = staticmethod(lambda a, dim: a.flip(dim))
    cumsum = staticmethod(lambda a, dim: a.cumsum(dim))

    # A number and a tensor in PyTorch's C++ formulas: ``t * 2`` is ``mul.Scalar`` (MulBackward1, see the
    # fused ``mul_scalar``/``add_scalar``/``sub_scalar``/``div_scalar``); ``2 - t`` fills a constant tensor
    # with 2 and subtracts in place (SubBackward0 with no edge for the constant), ``2 / t`` likewise.
    div_floor = staticmethod(lambda a, b: a.div(b, rounding_mode="floor"))
    reshape = staticmethod(lambda a, shape: a.reshape(shape))

    @staticmethod
    def scalar_sub(number: Any, t: Any) -> Any:
        return T.const(np.full_like(t._data, number)) - t

    @staticmethod
    def scalar_div(number: Any, t: Any) -> Any:
        return T.const(np.full_like(t._data, number)) / t

    @staticmethod
    def restore(g: Any, dims: Any, keepdim: bool) -> Any:
        if not keepdim:
            for d in dims:
                g = g.unsqueeze(d)
        return g


class RuleNode(BackwardCFunction):
    """The node of a rule: its formula runs on arrays, or on Tensors under ``create_graph``.

    Its layout is ``__slots__`` (no ``__dict__``): what every rule node has, below, and one slot per saved value
    of its rule (``alpha``, ``dim``...: the node class made by ``Function``'s metaclass).  Hooks and metadata,
    rarely set, share the ``_ext`` dict (``_hooked``: True once a hook was set, what the engine checks).  So a
    graph kept after backward holds little more than its structure.
    """

    __slots__ = ("__weakref__", "_seq", "needs_input_grad", "_input_meta", "_next", "_nrs", "_output_ref",
                 "_packed", "_ext", "_hooked")
    _slotted = True
    _takes_arrays = True
    _output_meta = ()           # (one output, so the engine never fills in a missing gradient: not recorded)
    _pre_hooks, _post_hooks = _ExtAttr("_pre_hooks"), _ExtAttr("_post_hooks")
    _tensor_pre_hooks, _retain_grad = _ExtAttr("_tensor_pre_hooks"), _ExtAttr("_retain_grad")
    _metadata = _ExtAttr("_metadata")

    @property
    def _released(self) -> bool:
        return self._packed is _FREED_PACKED

    @property
    def _outputs(self) -> tuple[Any, ...]:
        return (self._output_ref,)                          # (a weak reference, None once it was collected)

    @_outputs.setter
    def _outputs(self, refs: tuple[Any, ...]) -> None:
        self._output_ref = refs[0]

    @property
    def saved_tensors(self) -> tuple[Any, ...]:
        if self._packed is _FREED_PACKED:
            raise RuntimeError(_FREED)
        return tuple(s and s.unpack(self) for s in map(self._packed_entry, range(len(self._packed) // 2)))

    def _packed_entry(self, i: int) -> Any:
        """Saved tensor ``i`` as a SavedTensor (None: not saved); ``_packed`` holds two entries per saved tensor."""
        x = self._packed[2 * i]
        return None if x is None else SavedTensor.of_pair(x, self._packed[2 * i + 1])

    def _packed_objects(self) -> tuple[Any, ...]:
        """The saved tensors as SavedTensor objects that stay the node's (an in-place op rebinds a saved output)."""
        objects = tuple(self._packed_entry(i) for i in range(len(self._packed) // 2))
        if objects:                     # (not once released: ``_FREED_PACKED`` stays)
            self._packed = tuple(itertools.chain.from_iterable((s, None) for s in objects))
        return objects

    def _apply_arrays(self, grad):
        """The plain backward: each input's gradient expression on raw arrays (``xp`` is :data:`NP`).

        ``grad`` is the output's gradient, an array; so is each gradient returned (None: not needed)."""
        if self._packed is _FREED_PACKED:
            raise RuntimeError(_FREED)
        cls, out, values = self._forward_cls, [], []
        for x, v in zip(pairs := iter(self._packed), pairs):   # what the formulas use: the saved arrays, checked
            values.append(x if x is None or (type(v) is list and not v[0]) else x._data if type(v) is int and
                          v == x._version_counter[0] else _unpack_data(self, x, v))   # (not written to since)
        values += map(getattr, itertools.repeat(self), cls._attr_names)     # then the saved values (alpha, dim...)
        token = _quiet_set(_QUIET)                       # inf and nan are values: no numpy warnings
        try:
            for (fn, uses), needed, meta in zip(cls._plan, self.needs_input_grad, self._input_meta):
                if meta is not None:                     # one gradient per tensor argument, of its shape and dtype
                    r = fn(NP, grad, *map(values.__getitem__, uses)) if needed and fn is not None else None
                    out.append(r if type(r) is np.ndarray and r.shape == meta[0] and r.dtype == meta[1] else
                               _as_gradient(r, meta, self, len(out)))
        finally:
            _quiet_reset(token)
        return tuple(out)

    def _apply(self, grad_outputs):
        """The backward on Tensors (hooks, ``node(grad)``): ``_apply_arrays``, or under ``create_graph`` the
        expressions on Tensors (``xp`` is :data:`T`), recording the derivative graph."""
        if grad_mode._state.grad_enabled:
            return BackwardCFunction._apply(self, grad_outputs)
        grad = grad_outputs[0]
        return tuple([None if g is None else grad if g is grad._data else _tensor.Tensor._make(g)
                      for g in self._apply_arrays(grad._data)])

    def _release(self) -> bool:
        """Free what was saved, and what only backward needed (the gradients' shapes): a loss kept after
        backward holds almost nothing of the graph but its structure, as in PyTorch."""
        if not self._packed:
            return False
        self._packed, self._input_meta, self._output_ref = _FREED_PACKED, None, None     # (no link to the output)
        return True

    def _release_values(self) -> bool:
        """``_release`` for a rule with ``values=``: a tensor or array kept as a value (nll_loss's target) is
        freed too (``_saved_target`` then raises, as in PyTorch); sizes and strides are kept, one shared copy.
        Such a value is a saved tensor in PyTorch even when nothing else is (masked_fill's mask): a second
        backward through the node raises."""
        fields = type(self)._value_fields
        if not self._packed and any(_is_array(getattr(self, name, None)) for name in fields):
            self._packed = (None, None)             # (released below like a node that saved a tensor)
        if not RuleNode._release(self):
            return False
        for name in fields:
            value = getattr(self, name, None)
            if _is_array(value):
                delattr(self, name)
            elif type(value) is tuple:
                setattr(self, name, _shared(value))
        return True


class _Freed(tuple):
    """The ``_packed`` of a node whose saved tensors a backward freed (empty, and told apart from ``()``)."""

    __slots__ = ()


_FREED_PACKED = _Freed()


def _as_gradient(r, meta, node, index):
    """What a formula computed, made the gradient of an input of shape and dtype ``meta`` (``_check_grads`` for
    arrays: broadcasting is undone here, once)."""
    if type(r) is not np.ndarray:               # a number, numpy's scalar for a 0-d result (None: no gradient)
        return None if r is None else _as_gradient(np.asarray(r), meta, node, index)
    if r.shape != meta[0]:
        r = _sum_to_array(r, meta[0], node, index)
    return r if r.dtype == meta[1] else r.astype(meta[1])


def _sum_to_array(a, shape, node, index):
    have = a.shape
    lead = len(have) - len(shape)
    if lead < 0 or any(s != 1 and s != h for s, h in zip(shape, have[lead:])):
        raise RuntimeError("Function %s returned an invalid gradient at index %d - got [%s] but expected shape "
                           "compatible with [%s]" % (node.name(), index, ", ".join(map(str, have)),
                                                     ", ".join(map(str, shape))))
    stretched = tuple(i for i, s in enumerate(shape) if s == 1 and have[lead + i] != 1)
    token = _quiet_set(_QUIET)                   # summing inf and -inf is nan, without numpy's warning
    try:
        if lead:
            a = a.sum(axis=tuple(range(lead)))
        if stretched:
            a = a.sum(axis=stretched, keepdims=True)
    finally:
        _quiet_reset(token)
    return np.asarray(a).reshape(shape)        # (a sum to 0-d is a numpy scalar)


class Rule(Function):
    """An op defined by one row of the derivative table (see :func:`rule`)."""

    _node_base = RuleNode
    _arrays = True              # forward gets the inputs' arrays (False: the Tensors)
    _fn = None
    _layout = None              # pointwise rows: their result's layout as PyTorch's (ops/_layout.py)
    _plan = ()                  # per argument: (gradient expression or None, indices of what it uses)
    _saves = ()                 # per saved tensor: (argument index or -1 for the result, arguments needing it)
    _attr_names = ()            # every saved value the expressions use (the plain ones, then ``values=``)
    _attr_plain = ()            # the saved values that are arguments, with their index and default
    _attr_index = ()
    _attr_default = ()
    _derived = ()               # per ``values=`` entry: (name, function, argument indices, defaults)
    _attr_spec = ()             # per plain saved value: (name, argument index, default)
    _save_plans: ClassVar[dict[Any, Any]] = {}   # needs_input_grad -> what is saved (``_save_plan``), per class
    _unary = False              # one argument, and it has a gradient: the common case
    _jvp = None                 # the forward-mode rule (forward_ad); None: not supported
    _inputs = ()                # the arguments with a gradient entry (a number there is a constant operand)
    formula: Formula | None = None

    @classmethod
    def apply(cls, *args: Any) -> Any:
        """Run the row's forward on the arrays; if an input requires grad, record the node (PyTorch's name).

        ``Function.apply`` in short, for one output that is never a view: the node saves what the inputs
        that require grad need (``_saves``) and the row's attributes; ``next_functions`` link it to the
        inputs' nodes.  A rule's forward is numpy code: no grad-mode switch is needed around it.
        """
        state, Tensor = grad_mode._state, _tensor.Tensor
        if state.fw_levels:                                  # inside forward_ad.dual_level: push tangents too
            return forward_ad._apply_rule(cls, args)
        token = _quiet_set(_QUIET)                           # inf and nan are values: no numpy warnings
        try:
            out = (cls._fn(*args) if not cls._arrays else cls._fn(args[0]._data) if cls._unary and isinstance(
                args[0], Tensor) else cls._fn(*[a._data if isinstance(a, Tensor) else a for a in args]))
        finally:
            _quiet_reset(token)
        result = Tensor._make(out if cls._layout is None or out.ndim < 2 else cls._layout(out, args), False)
        if not state.grad_enabled or result._data.dtype.kind != "f":
            return result                                    # nothing to record (integer outputs get no grad_fn)
        if cls._unary and isinstance(a := args[0], Tensor):  # one tensor argument (tanh, exp...): no lists
            if not a._requires_grad:
                return result
            needs, metas, edges = (True,), ((a._data.shape, a._data.dtype),), (a._gradient_edge(),)
        else:
            needs, metas, edges = [], [], []     # per argument: requires grad? its (shape, dtype); per tensor: its edge
            for a in args:
                if isinstance(a, Tensor):
                    needs.append(a._requires_grad)
                    metas.append((a._data.shape, a._data.dtype))
                    edges.append(a._gradient_edge() if a._requires_grad else _NO_EDGE)
                else:
                    needs.append(False)
                    metas.append(None)
            if True not in needs:
                return result
        node, needs, metas = cls._node_cls(), _SHARED_NEEDS.get(needs := tuple(needs), needs), tuple(metas)
        node.needs_input_grad, node._seq, (node._ext, node._hooked, node._packed) = needs, next(_sequence), _BARE
        node._input_meta, (node._next, nrs), result._grad_fn = _METAS.get(metas) or _metas(metas), zip(*edges), node
        node._output_ref, node._nrs, result._requires_grad = weakref.ref(result), _NRS.get(nrs) or _nrs_of(nrs), True
        if cls._saves:
            node._packed = _pack(cls._save_plans.get(needs) or _save_plan(cls, needs), args, result)
        for name, i, default in cls._attr_spec:             # the row's saved values (alpha, dim...)
            setattr(node, name, args[i] if i < len(args) else default)
        if cls._derived:
            _derive(cls, node, args)
        if _node_created_hooks:
            _notify_node_created(node)
        return result

    @classmethod
    def forward(cls, ctx: Any, *args: Any) -> Any:
        if cls._arrays:
            Tensor = _tensor.Tensor
            out = cls._fn(*[a._data if isinstance(a, Tensor) else a for a in args])
        else:
            out = cls._fn(*args)
        needs = ctx.needs_input_grad
        if True in needs:
            if cls._saves:
                ctx._to_save = tuple([(out if src < 0 else args[src]) if True in [needs[i] for i in users] else None
                                      for src, users in cls._saves])
            n = len(args)
            for name, i, default in zip(cls._attr_plain, cls._attr_index, cls._attr_default):
                setattr(ctx, name, args[i] if i < n else default)
            if cls._derived:
                _derive(cls, ctx, args)
        return out

    @classmethod
    def backward(cls, ctx: Any, grad: Tensor) -> Grads:
        saved = ctx.saved_tensors if cls._saves else ()
        values = list(saved) + [getattr(ctx, a) for a in cls._attr_names]
        needs = ctx.needs_input_grad
        return tuple(fn(T, grad, *[values[j] for j in uses]) if fn is not None and needs[i] else None
                     for i, (fn, uses) in enumerate(cls._plan))


def _save_plan(cls, needs):
    """Which tensors a node saves when ``needs`` says which inputs require grad: per saved name, its argument
    index (-1: the result, always saved), or None when no input that needs a gradient uses it.  Once per class
    and ``needs``."""
    if "_save_plans" not in cls.__dict__:               # (a subclass of a rule's class gets its own)
        cls._save_plans = {}
    plan = cls._save_plans[needs] = tuple(src if src < 0 or True in [needs[i] for i in users] else None
                                          for src, users in cls._saves)
    return plan


def _pack(plan, args, result):
    """What a node saves (``plan``: ``_save_plan``), two entries per saved tensor: an input and its version, or the
    output's array and its version counter (not the output: no reference cycle; always saved, as PyTorch's codegen),
    ``(None, None)`` where nothing is saved.  Under saved-tensor hooks or forward AD, and for an inference tensor
    (an error), ``(SavedTensor, None)``: the object keeps what they need (engine.py).  So a node saves no object of
    its own per tensor (a long graph is cheaper for the garbage collector)."""
    packed = []
    if _hooks_stack.items or forward_ad._levels:
        for s in plan:
            packed += (SavedTensor(result, 0) if s == -1 else None if s is None or args[s] is None else
                       SavedTensor(args[s]), None)
        return tuple(packed)
    for s in plan:
        a = result if s == -1 else None if s is None else args[s]
        packed += ((None, None) if a is None else (a._data, a._version_counter) if s == -1 else
                   (a, a._version_counter[0]) if not a._is_inference else (SavedTensor(a), None))
    return tuple(packed)


def _unpack_data(node, x, v):
    """A saved pair's array, version-checked (``_apply_arrays``, where the common cases are inline)."""
    return SavedTensor.of_pair(x, v).unpack_data(node)


def _metas(metas):
    """One copy of each tuple of input metas (``((shape, dtype), ...)``) for all nodes: a graph of ops on like
    tensors holds one.  (A tuple holding a dtype stays tracked by the garbage collector, which visits every such
    tuple at each full collection: a copy per node made long chains of ops pay twice for their graph.)"""
    return _METAS.setdefault(metas, metas) if len(_METAS) < 4096 else metas


def _derive(cls, node, args):
    """Compute a node's ``values=`` entries from the op's arguments (their arrays)."""
    Tensor = _tensor.Tensor
    arrays = [a._data if isinstance(a, Tensor) else a for a in args]
    n = len(arrays)
    for name, fn, index, defaults in cls._derived:
        setattr(node, name, fn(*[arrays[i] if i < n else default for i, default in zip(index, defaults)]))


def rule(node_name: str, forward: Callable[..., Any], *, words: str, arrays: bool = True, quiet: bool = True,
         name: str | None = None, doc: str | None = None, values: dict[str, Callable[..., Any]] | None = None,
         jvp: Any = None, **grads: tuple[str, Callable[..., Any]] | None) -> type[Rule]:
    """Define an op from one row of the derivative table; returns its ``Function`` class.

    ``grads[input] = (formula text, lambda xp, g, *uses: expression)``, or ``None`` for an input
    that gets no gradient.  ``values``: saved values computed from the arguments.  ``jvp``: the
    forward-mode rule (``"auto_element_wise"``, ``"auto_linear"``, ``"from_vjp"`` or
    ``lambda xp, self_t, ..., *uses: expression``; see :mod:`minigrad.autograd.forward_ad`).
    See the module docstring.
    """
    signature = inspect.signature(forward).parameters
    params = list(signature)
    unknown = set(grads) - set(params)
    if unknown:
        raise TypeError("%s: gradients for %s, which forward does not take" % (node_name, sorted(unknown)))
    values = dict(values or {})
    inputs = [p for p in params if p in grads]
    attrs = [p for p in params if p not in grads] + [v for v in values if v not in params]
    saved, attr_used, plan_uses = [], [], []
    for p in params:
        entry = grads.get(p)
        if entry is None:
            plan_uses.append(None)
            continue
        fn = entry[1]
        code = fn.__code__
        uses = code.co_varnames[2:code.co_argcount]
        for u in uses:
            if u in attrs:
                if u not in attr_used:
                    attr_used.append(u)
            elif u in inputs or u == "result":
                if u not in saved:
                    saved.append(u)
            else:
                raise TypeError("%s: the gradient of %s uses %r, which is neither an argument nor 'result'"
                                % (node_name, p, u))
        plan_uses.append(uses)
    formula_saved = saved                   # PyTorch's generated nodes unpack (so version-check) their saved inputs
    saved = sorted(s for s in saved if s != "result") + ["result"] * ("result" in saved)   # by name, then result
    plain = [a for a in attr_used if a not in values]
    attr_used = plain + [a for a in attr_used if a in values]
    derived = []
    for v in attr_used[len(plain):]:
        fn = values[v]
        arg_names = fn.__code__.co_varnames[:fn.__code__.co_argcount]
        if not set(arg_names) <= set(params):
            raise TypeError("%s: value %r uses %s, which forward does not take" % (node_name, v, arg_names))
        derived.append((v, fn, tuple(params.index(a) for a in arg_names),
                        tuple(None if signature[a].default is inspect.Parameter.empty else signature[a].default
                              for a in arg_names)))
    names = saved + attr_used
    plan = tuple((None, ()) if uses is None else (grads[p][1], tuple(names.index(u) for u in uses))
                 for p, uses in zip(params, plan_uses))
    saves = tuple((-1 if s == "result" else params.index(s),
                   tuple(i for i, uses in enumerate(plan_uses) if uses and s in uses)) for s in saved)
    cls_name = name or node_name.replace("Backward", "_").rstrip("0123456789").rstrip("_") or node_name
    module = sys._getframe(1).f_globals.get("__name__", __name__)
    formula = register_formula(node_name, inputs, [grads[p][0] if grads[p] else None for p in inputs],
                               formula_saved + attr_used, words)
    cls = type(cls_name, (Rule,), {
        "node_name": node_name, "saved_names": tuple(saved), "saved_attrs": tuple(attr_used),
        "_fn": staticmethod(forward), "_arrays": arrays, "_plan": plan, "_saves": saves,
        "_attr_names": tuple(attr_used), "_attr_plain": tuple(plain),
        "_attr_index": tuple(params.index(a) for a in plain),
        "_attr_default": tuple(None if signature[a].default is inspect.Parameter.empty else signature[a].default
                               for a in plain),
        "_derived": tuple(derived), "_save_plans": {},
        "quiet": quiet, "formula": formula, "__module__": module,
        "_unary": len(params) == 1 and plan[0][0] is not None,
        "_jvp": jvp, "_params": tuple(params), "_inputs": tuple(inputs),
        "_defaults": {p: signature[p].default for p in params if signature[p].default is not inspect.Parameter.empty},
        "__doc__": doc or "%s  (%s)" % (words, "; ".join("∂/∂%s: %s" % (i, t) for i, t in
                                                         zip(formula.inputs, formula.grads) if t)),
    })
    cls._attr_spec = tuple(zip(cls._attr_plain, cls._attr_index, cls._attr_default))
    if derived:                     # ``values=`` may keep tensors (nll_loss's target): freed after backward too
        cls._node_cls._release = RuleNode._release_values
    RULES[node_name] = cls
    return cls


def fused(namespace_name: str, rule_cls: type[Rule]) -> type[Rule]:
    """Bind a backward-of-backward rule into both namespaces: ``xp.tanh_backward(g, result)``.

    In :data:`NP` it is the rule's forward on arrays; in :data:`T` it records the rule's node
    (``TanhBackwardBackward0``), as PyTorch does.
    """
    setattr(NP, namespace_name, staticmethod(rule_cls._fn))
    setattr(T, namespace_name, staticmethod(rule_cls.apply))
    return rule_cls
