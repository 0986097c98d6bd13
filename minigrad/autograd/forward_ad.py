"""Forward-mode AD: a *dual tensor* carries a tangent, and every op pushes the tangent forward.

Reverse mode (``backward``) runs the chain rule from the output back: one pass gives the gradient of
one number with respect to every input.  Forward mode runs it alongside the forward pass: one pass
gives the directional derivative ``J · v`` of every output along one input direction ``v`` (the
*tangent*), with no graph and no backward pass::

    >>> import minigrad as torch
    >>> import minigrad.autograd.forward_ad as fwAD
    >>> x = torch.tensor([0., 1.])
    >>> with fwAD.dual_level():
    ...     y = fwAD.make_dual(x, torch.ones(2)).sin()
    ...     fwAD.unpack_dual(y).tangent        # cos(x) · 1
    tensor([1.0000, 0.5403])

How an op pushes its tangent is its *JVP rule*, written next to its derivative rule (the ``jvp=``
field of a row in ``ops/``, the ``jvp`` of a class op, or of a custom ``autograd.Function``):

* ``"auto_element_wise"`` (PyTorch's derivatives.yaml word): the Jacobian is diagonal, so the JVP is the
  gradient formula with the tangent in place of ``g`` (summed over the inputs);
* ``"auto_linear"``: the op is linear in its tensor inputs, so the JVP is the op applied to the tangents;
* ``"product_rule"``: the op is linear in each tensor input separately (``mm``, ``einsum``): the JVP is
  the sum over the inputs of the op with that one input replaced by its tangent;
* ``"from_vjp"``: derived from the op's backward formula: the VJP ``u ↦ Jᵀu`` is linear in ``u``, so
  ``J · t = ∂⟨Jᵀu, t⟩/∂u`` — two reverse passes through the op's own node (double backward);
* a formula in the tangents (``self_t``, ``other_t``), the inputs and the ``result``.

The tangent computations are ordinary tensor ops, so they are recorded for ``backward`` (reverse over
forward) and, inside an outer level of ``torch.func.jvp``, carry that level's tangents (forward over
forward).  Tangents live in ``tensor._fw_grads`` (level → tangent) and are dropped when their level exits.
"""

from __future__ import annotations

import functools
import inspect
import weakref
from typing import Any, NamedTuple

import numpy as np

from .. import _tensor  # circular: `_tensor.Tensor` at call time
from . import grad_mode
from .views import replay_view

__all__ = ["UnpackedDualTensor", "enter_dual_level", "exit_dual_level", "make_dual", "unpack_dual", "dual_level"]

_state = grad_mode._state       # ``_state.fw_levels``: the live levels (a tuple; empty outside dual_level)


class _Level:
    """One forward-AD level: its index and the tensors that hold a tangent of it (to drop them on exit)."""

    __slots__ = ("index", "tensors", "__weakref__")

    def __init__(self, index):
        self.index, self.tensors = index, []

    def __repr__(self):
        return "<forward AD level %d>" % self.index


_levels: list[_Level] = []     # outermost first; the public API allows one, torch.func nests them
_current_level = -1


def _enter() -> _Level:
    global _current_level
    level = _Level(len(_levels))
    _levels.append(level)
    _current_level = level.index
    _state.fw_levels = tuple(_levels)
    return level


def _exit(level: _Level) -> None:
    global _current_level
    _levels.remove(level)
    for ref in level.tensors:
        t = ref()
        if t is not None and t._fw_grads:
            t._fw_grads.pop(level, None)
    level.tensors = []
    _current_level = len(_levels) - 1
    _state.fw_levels = tuple(_levels)


def enter_dual_level() -> int:
    """Enter a new forward grad level (only one at a time; ``torch.func.jvp`` nests its own)."""
    if _levels:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    return _enter().index


def exit_dual_level(*, level: int | None = None) -> None:
    """Exit the forward grad level: every tangent of it is deleted."""
    if level is None:
        level = _current_level
    if level != _current_level:
        raise RuntimeError("Trying to exit a forward AD level that was not the last one that was created. This is "
                           "not supported.")
    if level < 0:
        raise RuntimeError("Dual level must be a positive number.")
    _exit(_levels[level])


def _level(level, what):
    if level is None:
        level = _current_level
    if not isinstance(level, int) or not 0 <= level < len(_levels):
        raise RuntimeError("Invalid level given to %s" % what)
    return _levels[level]


def _tangent(t, level):
    """``t``'s tangent at ``level`` (None if it has none)."""
    d = t._fw_grads
    return d.get(level) if d else None


def _set_tangent(t, level, tangent) -> None:
    d = t.__dict__.get("_fw_grads")
    if d is None:
        d = t._fw_grads = {}
    if level not in d:
        level.tensors.append(weakref.ref(t))
    d[level] = tangent


class _fw_disabled:
    """Run tensor ops without pushing tangents (the primal computations of make_dual/unpack_dual)."""

    def __enter__(self):
        self.prev, _state.fw_levels = _state.fw_levels, ()

    def __exit__(self, *exc):
        _state.fw_levels = self.prev


def make_dual(tensor: _tensor.Tensor, tangent: _tensor.Tensor, *, level: int | None = None) -> _tensor.Tensor:
    """A new tensor aliased to ``tensor`` (the same memory) that carries ``tangent`` at the level.

    It is backward differentiable: with ``tensor.requires_grad`` its ``grad_fn`` is ``ViewBackward0``.
    """
    if level is None:
        level = _current_level
    if isinstance(level, int) and level < 0:
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level exists, make sure to "
                           "enter_dual_level() first.")
    if not tensor.dtype.is_floating_point:
        raise ValueError("Expected primal to be floating point or complex, but got: %s" % tensor.dtype)
    if not tangent.dtype.is_floating_point:
        raise ValueError("Expected tangent to be floating point or complex, but got: %s" % tangent.dtype)
    lvl = _level(level, "_make_dual")
    if tuple(tangent.shape) != tuple(tensor.shape):
        raise RuntimeError("Trying to set a forward gradient that has a different size than that of the original "
                           "Tensor, this is not supported. Tensor is of size [%s] while the given forward gradient "
                           "is of size [%s]." % (", ".join(map(str, tensor.shape)), ", ".join(map(str, tangent.shape))))
    if _tangent(tensor, lvl) is not None:
        raise RuntimeError("Making a dual Tensor based on a Tensor that already has a forward gradient at the same "
                           "level %d is not supported." % lvl.index)
    with _fw_disabled():
        out = tensor.view(tensor.shape)
    _copy_other_levels(tensor, out, lvl)
    _set_tangent(out, lvl, tangent)
    return out


def _copy_other_levels(src, dst, skip) -> None:
    if src._fw_grads:
        for other, t in src._fw_grads.items():
            if other is not skip:
                _set_tangent(dst, other, t)


class UnpackedDualTensor(NamedTuple):
    """Namedtuple returned by :func:`unpack_dual` containing the primal and tangent components of the dual tensor."""

    primal: Any
    tangent: Any


UnpackedDualTensor.__module__ = "torch.autograd.forward_ad"


def unpack_dual(tensor: _tensor.Tensor, *, level: int | None = None) -> UnpackedDualTensor:
    """``(primal, tangent)``: a view of ``tensor`` without the tangent, and the tangent as is (None if none)."""
    if level is None:
        level = _current_level
    if isinstance(level, int) and level < 0:
        return UnpackedDualTensor(tensor, None)
    lvl = _level(level, "_unpack_dual")
    tangent = _tangent(tensor, lvl) if lvl in _state.fw_levels else None   # hidden inside forward and jvp
    if tangent is None:
        return UnpackedDualTensor(tensor, None)
    with _fw_disabled():
        primal = _primal_op().apply(tensor)
    _copy_other_levels(tensor, primal, lvl)
    return UnpackedDualTensor(primal, tangent)


def _primal_op():
    from ..ops.shape import Primal  # circular: the ops build on autograd
    return Primal


class dual_level:
    """Context manager (or decorator) for forward AD: the level's tangents live until it exits."""

    def __enter__(self) -> int:
        return enter_dual_level()

    def __exit__(self, exc_type: Any, exc_value: Any, traceback: Any) -> None:
        exit_dual_level()

    def __call__(self, fn: Any) -> Any:
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with dual_level():
                return fn(*args, **kwargs)
        return wrapper


def inplace(t: Any, result: Any) -> None:
    """An in-place op on ``t`` computed ``result`` out of place: ``t``'s tangent takes ``result``'s, in
    place (so views of the tangent, like the tangent of a view of ``t``, see it, as in PyTorch)."""
    for level in _state.fw_levels:
        new = _tangent(result, level)
        if new is None:
            continue
        if t._base is not None:
            _inplace_view(t, level, new)
            continue
        old = _tangent(t, level)
        if old is not None and old._data.shape == new._data.shape and old._data.flags.writeable:
            np.copyto(old._data, new._data, casting="unsafe")
            old._version_counter[0] += 1
        else:
            _set_tangent(t, level, new)


def _inplace_view(t, level, new) -> None:
    """An in-place op on a view: the base's tangent gets ``new`` in the view's slots (zeros elsewhere if
    the base had no tangent), and the view's tangent is that view of it."""
    from ..ops.inplace import view_positions  # circular: the ops build on autograd

    base = t._base
    Tensor = _tensor.Tensor
    old = _tangent(base, level)
    data = np.array(old._data if old is not None else np.zeros(base._data.shape, new._data.dtype))
    data.flat[view_positions(t._view_fn, replay_view, base._data.shape).reshape(-1)] = \
        np.broadcast_to(new._data, t._data.shape).reshape(-1)      # (flat: data may be column-major)
    if old is not None and old._data.flags.writeable:
        np.copyto(old._data, data, casting="unsafe")
        old._version_counter[0] += 1
    else:
        old = Tensor._make(data, False)
        _set_tangent(base, level, old)
    _set_tangent(t, level, Tensor._make(replay_view(t._view_fn, old._data), False))


# -- pushing tangents through one op (called by Function.apply and Rule.apply inside a level) ----------------

def _unsupported(cls):
    name = getattr(cls, "aten_name", None)
    if name is None:
        node = getattr(cls, "node_name", None) or cls.__name__
        base = node.split("Backward")[0]
        name = "".join("_" + c.lower() if c.isupper() and i else c.lower() for i, c in enumerate(base))
    return NotImplementedError(
        "Trying to use forward AD with %s that does not support it because it has not been implemented yet.\n"
        "Please file an issue to PyTorch at https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml"
        " so that we can prioritize its implementation or submit a PR adding the implementation to derivatives.yaml"
        % name)


def _apply_rule(cls, args):
    """``Rule.apply`` inside a level: the primal op without tangents, then its JVP."""
    levels = _state.fw_levels
    _state.fw_levels = ()
    try:
        out = cls.apply(*args)
    finally:
        _state.fw_levels = levels
    push(cls, None, args, out)
    return out


def push(cls: Any, ctx: Any, args: Any, out: Any) -> None:
    """Give ``out`` (a tensor or a tuple of them) its tangent at each live level an input has one at."""
    levels = _state.fw_levels
    Tensor = _tensor.Tensor
    for k, level in enumerate(levels):
        tangents = [_tangent(a, level) if isinstance(a, Tensor) else None for a in args]
        if all(t is None for t in tangents):
            continue
        _state.fw_levels = levels[:k]          # the JVP's own ops carry the outer levels' tangents only
        try:
            result = _jvp(cls, ctx, args, out, tangents)
        finally:
            _state.fw_levels = levels
        outs = out if isinstance(out, tuple) else (out,)
        results = result if isinstance(result, tuple) else (result,)
        if len(results) != len(outs) and isinstance(out, tuple):
            raise RuntimeError("jvp function %s returned an incorrect number of forward gradients (expected %d, "
                               "got %d)" % (cls.__name__, len(outs), len(results)))
        for o, t in zip(outs, results):
            if t is None or not isinstance(o, Tensor) or not o.dtype.is_floating_point:
                continue
            if not isinstance(t, Tensor):
                t = Tensor._make(np.asarray(t, dtype=o._data.dtype), False)
            if t._data.shape != o._data.shape:
                t = t.expand(o.shape).clone()
            _set_tangent(o, level, t)


def _zeros(a):
    return _tensor.Tensor._make(np.zeros(a._data.shape, a._data.dtype), False)


def _is_float(a):
    return isinstance(a, _tensor.Tensor) and a._data.dtype.kind == "f"


def _jvp(cls, ctx, args, out, tangents):
    from ..ops._rules import Rule, T  # circular: the rules build on autograd

    spec = cls.__dict__.get("jvp", getattr(cls, "jvp", None)) if not issubclass(cls, Rule) else cls._jvp
    if isinstance(spec, staticmethod):
        spec = spec.__func__
    if spec == "auto_linear":
        operands = getattr(cls, "_inputs", ())          # a rule's operands: a number there is a constant, 0
        names = getattr(cls, "_params", ())
        def linear_arg(i, a, t):
            if t is not None:
                return t
            if _is_float(a) or (i < len(names) and names[i] in operands):     # an operand without a tangent: 0
                return _zeros(a) if isinstance(a, _tensor.Tensor) else 0
            return a
        return cls.apply(*[linear_arg(i, a, t) for i, (a, t) in enumerate(zip(args, tangents))])
    if spec == "product_rule":
        return _product_rule(cls, args, tangents)
    if spec == "from_vjp":
        return _from_vjp(cls, args, out, tangents)
    if issubclass(cls, Rule):
        if spec is None:
            raise _unsupported(cls)
        return _rule_jvp(cls, spec, args, out, tangents, T)
    from .function import Function  # circular: function.py imports this module
    builtin = cls.__module__.startswith("minigrad.")
    if spec is None or spec is Function.jvp:
        if builtin:
            raise _unsupported(cls)
        return Function.jvp(ctx)        # PyTorch's "You must implement the jvp function" error
    grads = [(t if t is not None else _zeros(a)) if isinstance(a, _tensor.Tensor) else None
             for a, t in zip(args, tangents)]
    if builtin:
        ctx.primals, ctx.result = args, out
        try:
            return spec(ctx, *grads)
        finally:
            del ctx.primals, ctx.result
    ctx._jvp_saved = ctx.__dict__.get("_fw_to_save", ())
    try:
        return spec(ctx, *grads)
    finally:
        del ctx._jvp_saved


def _rule_jvp(cls, spec, args, out, tangents, xp):
    """A row's JVP: ``auto_element_wise`` from its gradient expressions, or its own formula."""

    params = cls._params
    values = dict(cls._defaults)
    values.update(zip(params, args))
    values["result"] = out
    for name, fn, index, defaults in cls._derived:           # the row's ``values=`` (on the arguments' arrays)
        values[name] = fn(*[(args[i]._data if isinstance(args[i], _tensor.Tensor) else args[i]) if i < len(args)
                            else default for i, default in zip(index, defaults)])
    if spec == "auto_element_wise":
        total = None
        for (fn, _), name in zip(cls._plan, params):
            t = tangents[params.index(name)] if params.index(name) < len(tangents) else None
            if fn is None or t is None:
                continue
            code = fn.__code__
            uses = code.co_varnames[2:code.co_argcount]
            term = fn(xp, t, *[values[u] for u in uses])
            total = term if total is None else total + term
        return total
    names = list(inspect.signature(spec).parameters)[1:]
    given = dict(zip(params, tangents))
    kwargs = []
    for n in names:
        if n.endswith("_t") and n[:-2] in params:
            t = given.get(n[:-2])
            a = values[n[:-2]]
            kwargs.append(t if t is not None else (_zeros(a) if isinstance(a, _tensor.Tensor) else None))
        else:
            kwargs.append(values[n])
    return spec(xp, *kwargs)


def _product_rule(cls, args, tangents):
    """Σ_i op(a_1, …, t_i, …, a_n) over the tensor inputs with a tangent (a multilinear op)."""
    total = None
    for i, t in enumerate(tangents):
        if t is None or not _is_float(args[i]):
            continue
        term = cls.apply(*args[:i], t, *args[i + 1:])
        total = term if total is None else total + term
    return total


def _from_vjp(cls, args, out, tangents):
    """J · t from the op's backward: ⟨Jᵀu, t⟩ is linear in u, and its gradient in u is J · t."""
    from . import grad as _grad  # circular: autograd/__init__ imports this module

    Tensor = _tensor.Tensor
    with grad_mode.enable_grad():
        inputs = [a.detach().requires_grad_() if t is not None and _is_float(a) else a for a, t in zip(args, tangents)]
        outs = cls.apply(*inputs)
        outs = outs if isinstance(outs, tuple) else (outs,)
        diff = [o for o in outs if isinstance(o, Tensor) and o.requires_grad]
        us = [_zeros(o).requires_grad_() for o in diff]
        wrt = [i for i, t in zip(inputs, tangents) if t is not None and _is_float(i)]
        vjps = _grad(diff, wrt, grad_outputs=us, create_graph=True, allow_unused=True)
        ts = [t for a, t in zip(args, tangents) if t is not None and _is_float(a)]
        inner = None
        for v, t in zip(vjps, ts):
            if v is not None:
                term = (v * t).sum()
                inner = term if inner is None else inner + term
        if inner is None:
            results = [None] * len(diff)
        else:
            keep = any(t.requires_grad for t in ts)
            results = _grad(inner, us, allow_unused=True, create_graph=keep)
    it = iter(results)
    res = tuple(next(it) if isinstance(o, Tensor) and o.requires_grad else None for o in outs)
    res = tuple(r if r is not None or not (isinstance(o, Tensor) and o.requires_grad) else _zeros(o)
                for r, o in zip(res, outs))
    return res if isinstance(out, tuple) else res[0]
