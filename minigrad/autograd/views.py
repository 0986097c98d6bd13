"""Views: how a view remembers its base, and how it is taken again after an in-place write.

A view op (``is_view`` in ``ops/``) returns a numpy view of its input's array; ``link_views``
then gives each output PyTorch's view metadata:

* ``_base``: the tensor that owns the memory (never itself a view);
* ``_version_counter``: shared with the base, so a write through any view bumps them all;
* ``_view_fn``: how the view was taken, as a linked list ``(parent, op, args, nth)``
  (``nth``: which output of a multi-output op, else None).  Linking is O(1) per view op,
  so a chain of 100,000 reshapes stays linear; ``replay_view`` walks the list when an
  in-place write needs the same view of another array (the gradient, a mask);
* ``_view_version``: the version at which the view's ``grad_fn`` was last set (when the
  base changes, ``Tensor.grad_fn`` regenerates it: PyTorch's ``AsStridedBackward0``);
* ``_plain_views`` (on a base that does not require grad): its views, weakly, so that when an
  in-place op or ``requires_grad_()`` makes the base require grad (``y.mul_(w)``) they do too
  (``views_require_grad``) -- *borrowed*: with no ``grad_fn`` (no in-place write since), an op on
  such a view records a node whose edge to it is ``(None, 0)``, as PyTorch's (its view's own
  ``requires_grad_`` flag is False, so it gets no ``AccumulateGrad``);
* ``_creation_meta``: PyTorch's ``CreationMeta`` -- ``"multi"`` for an output of a function
  returning several views (split, chunk, unbind), ``"no_grad"`` for a view made under
  ``no_grad``, ``"inference"`` under ``inference_mode``; None for an ordinary view.  Such
  views may not be modified in place (nor their base) while grad mode records it.
"""

from __future__ import annotations

import weakref
from typing import Any

from .. import _tensor  # circular: `_tensor.Tensor` at call time
from . import grad_mode

__all__ = ["link_views", "replay_view", "views_require_grad"]


def link_views(outputs: Any, args: Any, cls: Any) -> Any:
    """Make ``outputs`` (the results of view op ``cls`` applied to ``args``) views of ``args[0]``'s base."""
    x = args[0]
    base = x._base if x._base is not None else x
    state = grad_mode._state
    if state.inference:
        meta = "inference"
    elif not state.grad_enabled:
        meta = "no_grad"
    elif len(outputs) > 1 or cls.multi_output:      # split/chunk/unbind: even when they return one piece
        meta = "multi"
    else:
        meta = None
    if x._base is not None and x._creation_meta is not None:
        meta = x._creation_meta                  # a view of a special view stays special (propagate_creation_meta)
    parent, rest, version = x._view_fn, args[1:], x._version_counter[0]
    single = len(outputs) == 1
    if not base._requires_grad:
        plain = base.__dict__.get("_plain_views")
        if plain is None:
            plain = base._plain_views = weakref.WeakSet()
        plain.update(outputs)
    for i, out in enumerate(outputs):
        out._base, out._version_counter, out._view_version = base, x._version_counter, version
        out._view_fn = (parent, cls, rest, None if single else i)
        if meta is not None:
            out._creation_meta = meta
        if x._requires_grad and not state.grad_enabled:
            out._requires_grad = out._borrowed_grad = True   # PyTorch's quirk: a view made under no_grad says
                                                              # True (ops on it record, with no edge to it)


def views_require_grad(base: Any) -> None:
    """``base`` requires grad since an in-place op: its views, made before, do too (their ``grad_fn`` is
    regenerated when read, ``AsStridedBackward0``)."""
    plain = base.__dict__.pop("_plain_views", None)
    for view in plain or ():
        view._requires_grad = view._borrowed_grad = True    # no edge of its own until grad_fn is regenerated


class _ReplayCtx:
    """A throwaway ctx for re-taking a view of another array (see ``replay_view``)."""

    needs_input_grad = (False, False, False, False)

    def save_for_backward(self, *args: Any) -> Any:
        pass


def replay_view(chain: Any, array: Any) -> Any:
    """Take the same view of ``array`` as the chain of view ops took of the base."""
    steps = []
    while chain is not None:
        steps.append(chain)
        chain = chain[0]
    make = _tensor.Tensor._make
    for _, cls, args, nth in reversed(steps):
        array = cls.forward(_ReplayCtx(), make(array), *args)
        if nth is not None:
            array = array[nth]
    return array


def view_chain_length(chain: Any) -> int:
    """How many view ops a chain has (for tests and debugging)."""
    n = 0
    while chain is not None:
        n, chain = n + 1, chain[0]
    return n
