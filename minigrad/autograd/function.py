"""``Function``: an operation with its forward and backward side by side.

Every operation in minigrad — built-in (``ops/``) or written by a user — is a
``Function``.  ``Function.apply`` is the one place where graph edges are created:
it runs ``forward`` without recording, wraps the results in tensors and, when
some input requires grad, creates the backward node (``MulBackward0``…) that
links to the inputs' nodes through ``next_functions``.
"""

from __future__ import annotations

import functools
import warnings
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn, TypeAlias, TypeVar

import numpy as np

from .. import _tensor  # circular: use `_tensor.Tensor` at call time, never at import time
from .._dtype import _FROM_NUMPY
from . import forward_ad as _forward_ad
from . import grad_mode
from .engine import _FREED, SavedTensor, _version_message  # noqa: F401  (re-exported: ops import them from here)
from .formulas import register_formula
from .graph import Node, _node_created_hooks, _notify_node_created, _sequence, _shared_nrs
from .views import link_views as _link_views

if TYPE_CHECKING:
    from .._tensor import Tensor
    from .formulas import Formula

_F = TypeVar("_F", bound=Callable[..., Any])

#: What ``backward`` returns: one gradient per ``forward`` argument (None: no gradient), or a single
#: gradient for a one-argument op.
Grads: TypeAlias = "Tensor | tuple[Tensor | None, ...] | None"

__all__ = ["Function", "FunctionCtx", "BackwardCFunction", "once_differentiable"]

class _CtxMethods:
    """What ``ctx`` can do (``FunctionCtx``'s methods), without instance storage: the rule nodes use them with
    ``__slots__``, every other ctx and node has a ``__dict__`` (``ctx.foo = ...`` works, as in PyTorch)."""

    __slots__ = ()
    _released: bool  # set by the node (BackwardCFunction) once backward has freed what was saved
    _packed: tuple[Any, ...]  # the saved tensors, packed (SavedTensor or None each)

    def save_for_backward(self, *tensors: Tensor | np.ndarray | None) -> None:
        """Keep tensors for backward (an op may also pass the ndarray it returns, to save its output)."""
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, (_tensor.Tensor, np.ndarray, np.generic)):
                raise TypeError("save_for_backward can only save variables, but argument %d is of type %s"
                                % (i, type(t).__name__))
        self._to_save = tensors

    def save_for_forward(self, *tensors: Any) -> None:
        """Keep tensors for ``jvp`` (forward-mode AD); ``ctx.saved_tensors`` reads them there."""
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, _tensor.Tensor):
                raise TypeError("save_for_forward expects all arguments to be tensors; but got %s at index %d"
                                % (type(t).__name__, i))
        self._fw_to_save = tensors

    @property
    def saved_tensors(self) -> tuple[Any, ...]:
        fw = getattr(self, "_jvp_saved", None)
        if fw is not None:                  # inside jvp: what forward gave save_for_forward
            return fw
        if self._released:
            raise RuntimeError(_FREED)
        return tuple(s.unpack(self) if s is not None else None for s in self._packed)

    def mark_dirty(self, *tensors: Tensor) -> None:
        self._dirty = tensors

    def mark_non_differentiable(self, *tensors: Tensor) -> None:
        self._non_differentiable = tensors

    def set_materialize_grads(self, value: bool) -> None:
        self._materialize_grads = bool(value)


class FunctionCtx(_CtxMethods):
    """The ``ctx`` of ``forward``/``backward``; for a recorded op it *is* the graph node."""


class BackwardCFunction(Node, _CtxMethods):
    """The node recorded for a ``Function``: named ``<Op>Backward0`` for built-ins, ``<Name>Backward`` else.

    A ``Function``'s node class derives from it and from ``FunctionCtx`` (so it has a ``__dict__``: forward may
    set any attribute on ctx); a rule's node class (``RuleNode``) has ``__slots__`` instead.
    """

    __slots__ = ()
    _slotted = False            # True: the node classes made from it get ``__slots__`` (their saved values)

    # its sequence number is given when it is linked into the graph (_record)
    __init__: Callable[..., None] = object.__init__

    _forward_cls = None
    _packed = ()                # the SavedTensors (no `_saved` prefix: dir() lists only `_saved_<name>`)
    _to_save = ()
    _dirty = ()
    _non_differentiable = ()
    _materialize_grads = True
    _tensor_fields = ()         # names of the saved tensors, read as `_saved_<name>`
    _value_fields = ()          # names of saved non-tensor values (ctx attributes)

    _name_prefix = ""

    needs_input_grad: tuple[bool, ...] = ()          # set by Function.apply

    def name(self) -> str:
        return self._name_prefix + type(self).__name__

    def _apply(self, grad_outputs: tuple[Any, ...]) -> tuple[Any, ...]:
        state = grad_mode._state
        enabled = state.grad_enabled
        try:
            if self._forward_cls.quiet:           # as its forward: inf and nan are values, no numpy warnings
                with _ignore_fp_errors():
                    grads = self._forward_cls.backward(self, *grad_outputs)
            else:
                grads = self._forward_cls.backward(self, *grad_outputs)
        finally:
            state.grad_enabled = enabled          # a backward cannot leave the grad mode changed
        return _check_grads(self, grads)

    def _packed_entry(self, i: int) -> Any:
        """Saved tensor ``i``: its SavedTensor, or None (a rule node packs them otherwise: ``RuleNode``)."""
        return self._packed[i]

    def _packed_objects(self) -> tuple[Any, ...]:
        """The SavedTensor objects (None: not saved), which an in-place op may rebind (ops/inplace.py)."""
        return self._packed

    def _release(self) -> bool:
        if not self._packed:              # nothing saved: it may run again, so keep what it needs, shared
            _compact(self)
            return False
        self._released = True
        self._packed = ()
        _forget(self)
        return True

    # `_saved_<name>`: what torchviz-style tools read (see graph docs).
    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("_saved_"):
            key = attr[len("_saved_"):]
            names = type(self)._tensor_fields
            if key in names:
                if self._released:
                    raise RuntimeError(_FREED)
                saved = self._packed_entry(names.index(key))
                return saved.unpack(self) if saved is not None else None
            if key in type(self)._value_fields:
                try:
                    return object.__getattribute__(self, key)
                except AttributeError:
                    if self._released:                              # a saved tensor, freed by backward
                        raise RuntimeError(_FREED) from None
                    return None
        raise AttributeError("'%s' object has no attribute '%s'" % (type(self).__name__, attr))

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | {"_saved_" + n for n in self._tensor_fields + self._value_fields})


# What a node keeps after a backward freed it: its place in the graph (PyTorch keeps next_functions
# too), its identity and the values ``_saved_<name>`` shows.  The rest -- what forward stashed for
# backward, the shapes its gradients must have -- is dropped, so that a loss kept after backward
# holds almost nothing of the graph's memory.
_KEPT_AFTER_RELEASE = frozenset(("_next", "_nrs", "_seq", "_released", "needs_input_grad", "_outputs", "_metadata",
                                 "_hooked", "_pre_hooks", "_post_hooks", "_tensor_pre_hooks", "_retain_grad",
                                 "_n_outputs", "_materialize_grads"))


def _forget(node):
    """After a backward without retain_graph: drop all but what ``_KEPT_AFTER_RELEASE`` names."""
    state = node.__dict__
    keep = type(node)._value_fields                # but a tensor or array kept as a value is freed too
    for name in [n for n in state if n not in _KEPT_AFTER_RELEASE and (n not in keep or _is_array(state[n]))]:
        del state[name]
    outputs = state.get("_outputs")
    if outputs and all(ref is None or ref() is None for ref in outputs):
        state["_outputs"] = _shared((None,) * len(outputs))          # collected: no weak reference to keep
    if "needs_input_grad" in state:
        state["needs_input_grad"] = _shared(state["needs_input_grad"])


def _is_array(value: Any) -> bool:
    return isinstance(value, (np.ndarray, _tensor.Tensor))


_SHARED: dict = {}


def _shared(value: tuple) -> tuple:
    """One copy of each small tuple of flags (``(True, False)``...) or shapes for all forgotten nodes.

    Keyed by the elements' types too: ``(True,) == (1,)`` in Python, but a saved ``dim=(1,)`` must not
    come back as ``(True,)``.
    """
    try:
        key = (value, tuple(map(type, value)))
        return _SHARED.setdefault(key, value) if len(_SHARED) < 1024 else value
    except TypeError:                       # unhashable (a list inside): keep this copy
        return value


def _compact(node: BackwardCFunction) -> None:
    """A node that saved nothing, after a backward: the same flags and shapes, one shared copy of each
    (through getattr/setattr: ``node.__dict__`` would make the instance's dict a separate object)."""
    for name in ("needs_input_grad", "_input_meta", "_output_meta"):
        value = getattr(node, name, None)
        if type(value) is tuple:
            setattr(node, name, _shared(value))
    outputs = getattr(node, "_outputs", None)
    if outputs and all(ref is None or ref() is None for ref in outputs):
        node._outputs = _shared((None,) * len(outputs))


def _check_grads(node, grads):
    """Check what backward returned: one gradient per forward argument (PyTorch's errors)."""
    if type(grads) is not tuple:
        grads = tuple(grads) if isinstance(grads, tuple) else (grads,)
    metas = node._input_meta
    if len(grads) != len(metas):
        if len(grads) > len(metas) and all(g is None for g in grads[len(metas):]):
            grads = grads[:len(metas)]
        else:
            raise RuntimeError("function %s returned an incorrect number of gradients (expected %d, got %d)"
                               % (node.name(), len(metas), len(grads)))
    out = []
    for i, g in enumerate(grads):
        meta = metas[i]
        if meta is None:
            continue                                  # a non-tensor argument: no edge
        if g is None:
            out.append(None)
            continue
        if not isinstance(g, _tensor.Tensor):
            raise RuntimeError("expected Variable or None (got %s)" % type(g).__name__)
        shape, dtype = meta
        data = g._data
        if data.shape != shape:
            g = _sum_to(g, shape, node, i)          # NOTE [broadcast]: undone here, once, for every op
        if data.dtype != dtype:
            g = g.to(_FROM_NUMPY[dtype])
        out.append(g)
    return tuple(out)


def _sum_to(grad, shape, node, index):
    """Sum ``grad`` down to ``shape``: the single place where broadcasting is undone."""
    have = grad._data.shape
    lead = len(have) - len(shape)
    if lead < 0 or any(s != 1 and s != g for s, g in zip(shape, have[lead:])):
        raise RuntimeError("Function %s returned an invalid gradient at index %d - got [%s] but expected shape "
                           "compatible with [%s]" % (node.name(), index, ", ".join(map(str, grad.shape)),
                                                     ", ".join(map(str, shape))))
    if not shape:
        return grad.sum()                             # as PyTorch's sum_to: SumBackward0 under create_graph
    # the leading dims that were added and the dims of size 1 that were broadcast, in one sum (SumBackward1)
    dims = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(shape) if s == 1 and have[lead + i] != 1)
    if dims:
        grad = grad.sum(dims, keepdim=True)
    return grad.view(shape) if lead else grad         # then a view drops the leading 1s (ViewBackward0)


# PyTorch's C++-only nodes: name() is "torch::autograd::<Class>"
_CPP_NODES = ("CopySlices", "CopyBackwards", "NotImplemented")


class _FunctionMeta(type):
    """Gives each Function its node class, e.g. ``Mul`` → ``MulBackward0``."""

    formula: Formula | None

    def __init__(cls, name: str, bases: tuple[type, ...], attrs: dict[str, Any]) -> None:
        super().__init__(name, bases, attrs)
        node_name = attrs.get("node_name") or name + "Backward"
        base = getattr(cls, "_node_base", BackwardCFunction)
        if base._slotted:           # a rule's node: a slot per saved value, no __dict__
            bases, layout = (base,), {"__slots__": tuple(getattr(cls, "saved_attrs", ()))}
        else:                       # a Function's node is its ctx: any attribute may be set on it
            bases, layout = (base,) if issubclass(base, FunctionCtx) else (base, FunctionCtx), {}
        cls._node_cls = type(node_name, bases, {
            **layout,
            "_forward_cls": cls,
            "_tensor_fields": tuple(getattr(cls, "saved_names", ())),    # inherited by e.g. MinAll(MaxAll)
            "_value_fields": tuple(getattr(cls, "saved_attrs", ())),
            "__module__": "minigrad.autograd.function",
            "_name_prefix": "torch::autograd::" if node_name in _CPP_NODES else "",
            # PyTorch's built-in nodes are C++ classes; a custom Function's node prints with its Python module
            "_repr_prefix": "" if cls.__module__.startswith("minigrad.ops") else "torch.autograd.function.",
        })
        # When nothing is recorded (no input requires grad, or inside backward), forward still gets a
        # ctx, but a plain one: no graph node is built for an op that will never be differentiated.
        cls._ctx_cls = type(name + "Ctx", (FunctionCtx,), {"_forward_cls": cls, "_to_save": (), "_dirty": (),
                                                            "_non_differentiable": ()})
        if "setup_context" in attrs or ("forward" in attrs and _has_setup_context(cls)):
            _split_forward(cls)    # the modern form: forward(*args) + setup_context(ctx, inputs, output)
        if "words" in attrs:       # a class with real logic registers its formula in the derivative table
            saved = tuple(getattr(cls, "saved_names", ())) + tuple(getattr(cls, "saved_attrs", ()))
            cls.formula = register_formula(node_name, attrs.get("inputs", ("self",)), attrs["grads"], saved,
                                           attrs["words"])


def _has_setup_context(cls) -> bool:
    return any("setup_context" in vars(k) for k in cls.__mro__ if k.__name__ != "Function" or
               k.__module__ != __name__)


def _split_forward(cls) -> None:
    """``forward(*args)`` without ctx, then ``setup_context(ctx, inputs, output)`` saves what backward needs.

    ``apply`` calls ``forward(ctx, *args)``; this wraps the user's ctx-free forward into that form once,
    when the class is made (so the hot path of every op is unchanged).
    """
    user_forward = cls.__dict__["forward"].__func__ if "forward" in cls.__dict__ else cls._user_forward

    def forward(ctx: Any, *args: Any) -> Any:
        output = user_forward(*args)
        cls.setup_context(ctx, args, output)
        return output

    cls._user_forward = staticmethod(user_forward)
    cls.forward = staticmethod(forward)


class Function(metaclass=_FunctionMeta):
    """Base class for operations with a custom backward.

    Subclass it with static ``forward(ctx, *args)`` and ``backward(ctx, *grad_outputs)``
    and call ``.apply(*args)``:

    >>> import minigrad as torch
    >>> class Square(torch.autograd.Function):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         ctx.save_for_backward(x)
    ...         return x * x
    ...     @staticmethod
    ...     def backward(ctx, grad_output):
    ...         (x,) = ctx.saved_tensors
    ...         return 2 * x * grad_output
    >>> x = torch.tensor([3.], requires_grad=True)
    >>> y = Square.apply(x); y.backward(); y.grad_fn.name(), x.grad
    ('SquareBackward', tensor([6.]))
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        warnings.warn("%r should not be instantiated. Methods on autograd functions are all static, so you should "
                      "invoke them on the class itself. Instantiating an autograd function will raise an error in a "
                      "future version of PyTorch." % type(self), DeprecationWarning, stacklevel=2)

    is_view: bool = False   # True: outputs share memory and version counter with the first input
    multi_output: bool = False   # a view op returning a list of views (split, unbind): they refuse in-place writes
    # True: forward runs under np.errstate(all="ignore"), so inf and nan come out as values with no numpy
    # RuntimeWarning, as in PyTorch.  Hot ops whose numpy code has nothing to warn about (data movement,
    # matmul, add/mul, relu...) set it False: entering errstate costs more than the op on small tensors.
    quiet: bool = True

    def __call__(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use new-style autograd "
            "function with static forward method. (Example: https://pytorch.org/docs/stable/autograd.html#torch."
            "autograd.Function)")

    @staticmethod
    def forward(ctx: Any, *args: Any) -> Any:
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx: Any, *grad_outputs: Any) -> Any:
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    @staticmethod
    def jvp(ctx: Any, *grad_inputs: Any) -> Any:
        """Forward mode: the outputs' tangents from the inputs' (``grad_inputs``, zeros where an input has none)."""
        raise NotImplementedError("You must implement the jvp function for custom autograd.Function to use it with "
                                  "forward mode AD.")

    @classmethod
    def apply(cls, *args: Any) -> Any:  # what ``forward`` returns: a Tensor, a tuple of them, ...
        """Run ``forward`` without recording, then record one node linking the inputs to the outputs."""
        state = grad_mode._state
        enabled = state.grad_enabled
        if enabled:
            Tensor = _tensor.Tensor
            needs_input_grad = tuple([isinstance(a, Tensor) and a._requires_grad for a in args])
            recording = True in needs_input_grad
            ctx = cls._node_cls() if recording else cls._ctx_cls()
            state.grad_enabled = False               # forward works on arrays: nothing in it is recorded
        else:                                        # no_grad, or a backward formula without create_graph
            recording = False
            needs_input_grad = _NOTHING_NEEDS_GRAD[len(args)] if len(args) < 8 else (False,) * len(args)
            ctx = cls._ctx_cls()
        ctx.needs_input_grad = needs_input_grad
        fw = state.fw_levels                         # inside forward_ad.dual_level: tangents are pushed after
        if fw:
            state.fw_levels = ()                     # forward (and what it records) sees no tangents
        try:
            if cls.quiet:
                with _ignore_fp_errors():            # inf/nan results are values, as in PyTorch: no numpy warnings
                    raw = cls.forward(ctx, *args)
            else:
                raw = cls.forward(ctx, *args)
        finally:
            state.grad_enabled = enabled
            if fw:
                state.fw_levels = fw
        if isinstance(raw, np.generic):              # numpy computes 0-dim results as scalars
            raw = _as_array(raw, ctx)
        if type(raw) is np.ndarray:                  # the common case: one array out
            out = _tensor.Tensor._make(raw, False)
            if cls.is_view:
                _link_views((out,), args, cls)
            if recording:
                _record_one(ctx, args, out)
            elif ctx._to_save:
                ctx._to_save = ()
            if fw:
                _forward_ad.push(cls, ctx, args, out)
            return out
        is_tuple = isinstance(raw, tuple)
        outputs = tuple(_as_output(_as_array(r, ctx)) for r in (raw if is_tuple else (raw,)))
        if cls.is_view:
            _link_views(outputs, args, cls)
        if recording:
            _record(ctx, args, outputs)
        elif ctx._to_save:
            ctx._to_save = ()
        if fw:
            _forward_ad.push(cls, ctx, args, outputs if is_tuple else outputs[0])
        return outputs if is_tuple else outputs[0]


_NOTHING_NEEDS_GRAD = [(False,) * n for n in range(8)]


try:  # np.errstate(all="ignore") costs more than a small op; set the context variable behind it directly
    from numpy._core._ufunc_config import _extobj_contextvar, _make_extobj  # type: ignore[attr-defined]

    class _ignore_fp_errors:
        __slots__ = ("token",)

        def __enter__(self):
            self.token = _extobj_contextvar.set(_make_extobj(all="ignore"))

        def __exit__(self, *exc):
            _extobj_contextvar.reset(self.token)
except ImportError:  # pragma: no cover - a numpy without that private module: the public, slower way
    def _ignore_fp_errors():  # type: ignore[no-redef]  # the same name, defined on the other branch
        return np.errstate(all="ignore")


def _as_array(value, ctx):
    """numpy returns scalars for 0-dim results: make them arrays (and keep what forward saved pointing at them)."""
    if isinstance(value, np.generic):
        array = np.asarray(value)
        if ctx._to_save:
            ctx._to_save = tuple(array if s is value else s for s in ctx._to_save)
        return array
    return value


def _as_output(value):
    Tensor = _tensor.Tensor
    if type(value) is np.ndarray:
        return Tensor._make(value, False)
    if isinstance(value, Tensor):
        return value
    if isinstance(value, np.ndarray):
        return Tensor._make(value, False)
    if value is None or isinstance(value, (int, float, bool)):
        return value
    return Tensor._make(np.asarray(value), False)


def _record_one(node, args, out):
    """``_record`` for the common case: one output, nothing marked dirty or non-differentiable."""
    if node._dirty or node._non_differentiable:
        return _record(node, args, (out,))
    _link_inputs(node, args)
    data = out._data
    node._output_meta, node._outputs = ((data.shape, data.dtype),), (weakref.ref(out),)
    if data.dtype.kind == "f":                                  # integer and bool outputs get no grad_fn
        out._grad_fn, out._requires_grad = node, True
    if node._to_save:
        node._packed = tuple([_save(t, (out,)) for t in node._to_save])
        node._to_save = ()
    if _node_created_hooks:
        _notify_node_created(node)


def _link_inputs(node, args):
    """The node's ``next_functions`` (one edge per tensor argument) and what each gradient must look like."""
    node._seq = next(_sequence)              # creation order: the engine runs later nodes first
    Tensor = _tensor.Tensor
    input_meta, nexts, nrs = [], [], []     # per argument (None: not a tensor); per tensor argument
    for a in args:
        if isinstance(a, Tensor):
            input_meta.append((a._data.shape, a._data.dtype))     # what its gradient must look like
            if not a._requires_grad:
                nexts.append(None)
                nrs.append(0)
            elif a.grad_fn is not None:
                nexts.append(a.grad_fn)
                nrs.append(a._output_nr)
            else:
                nexts.append(a._gradient_edge()[0])              # a leaf: its AccumulateGrad node
                nrs.append(0)
        else:
            input_meta.append(None)
    node._input_meta, node._next, node._nrs = tuple(input_meta), tuple(nexts), _shared_nrs(tuple(nrs))


def _record(node, args, outputs):
    """Create the graph edges: the node's ``next_functions`` and its outputs' ``grad_fn``."""
    Tensor = _tensor.Tensor
    _link_inputs(node, args)
    non_diff, dirty = node._non_differentiable, node._dirty
    output_meta, refs = [], []
    for nr, out in enumerate(outputs):
        if not isinstance(out, Tensor):
            output_meta.append(None)
            refs.append(None)
            continue
        data = out._data
        output_meta.append((data.shape, data.dtype))
        refs.append(weakref.ref(out))
        if data.dtype.kind != "f" or (non_diff and any(out is t for t in non_diff)):
            continue                                              # integer and bool outputs get no grad_fn
        if dirty and out.grad_fn is None and out._requires_grad and any(out is d for d in dirty):
            raise RuntimeError("a leaf Variable that requires grad has been used in an in-place operation.")
        out._grad_fn, out._output_nr, out._requires_grad = node, nr, True
    node._output_meta, node._outputs = tuple(output_meta), tuple(refs)
    if len(outputs) != 1:
        node._n_outputs = len(outputs)
    if dirty and any(out is d for d in dirty for out in outputs if isinstance(out, Tensor)):
        for d in dirty:
            d._version_counter[0] += 1
    if node._to_save:
        node._packed = tuple([_save(t, outputs) for t in node._to_save])
        node._to_save = ()
    if _node_created_hooks:
        _notify_node_created(node)


def _save(value, outputs):
    """Wrap one saved value: an output (by identity) is saved without a reference cycle."""
    if value is None:
        return None
    if type(value) is np.ndarray:               # forward saved the array it returns, or a temporary
        for nr, out in enumerate(outputs):
            if value is getattr(out, "_data", None):
                return SavedTensor(out, output_nr=nr)
        return SavedTensor(_tensor.Tensor._make(value, False))
    for nr, out in enumerate(outputs):
        if value is out:
            return SavedTensor(out, output_nr=nr)
    if isinstance(value, np.ndarray):
        value = _tensor.Tensor._make(value, False)
    return SavedTensor(value)


def once_differentiable(fn: _F) -> _F:
    """Decorator for ``backward``: run it without recording (no double backward through it)."""

    @functools.wraps(fn)
    def wrapper(ctx: Any, *args: Any) -> Any:
        with grad_mode.no_grad():
            return fn(ctx, *args)
    return wrapper  # type: ignore[return-value]  # the same signature
