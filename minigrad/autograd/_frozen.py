"""A freed graph kept by its loss, stored compactly: node objects rebuilt on access (a memory trick).

The plain version is the graph itself: after a backward without ``retain_graph`` every node keeps its
structure (``_next``/``_nrs``), its sequence number and its saved non-tensor values (``_release``).  A loss
kept after backward then holds one Python object per node -- ~200 bytes each with its edge tuple and its
sequence number.  PyTorch's nodes are C++ objects, and the Python object of a node is made when it is
looked at (``THPCppFunction``).  This module does the same for a freed graph: :func:`freeze` replaces the
nodes below a root that nothing else references by one *template* (their classes, edges as indices, saved
values, sequence numbers relative to the root's), shared by every graph of the same shape, and the root's
``_next`` by a :class:`_Frozen` tuple that rebuilds a node object when it is iterated (``next_functions``,
the engine).  What is kept is exactly what the node objects kept, so nothing visible changes:
``next_functions``, names, ``_saved_<name>`` (values, or the "backward through the graph a second time"
error), a second backward through nodes that saved nothing.  A rebuilt node is the same object while it is
referenced (a weak cache), as PyTorch's wrappers; a node that something else references (a tensor's
``grad_fn``, a variable, a hook, metadata, an AccumulateGrad) stays as it is and is linked to by the template.

One difference is left: a hook or metadata set on a rebuilt node is kept while that node object is referenced
(PyTorch keeps it on its C++ node); once the object is dropped, the next access rebuilds the node without it.

When: a backward remembers its roots weakly (:data:`pending`); the next one freezes those still alive
(:func:`defer`).  So a loss that dies right after its backward (a training step) costs nothing here.
"""

from __future__ import annotations

import heapq
import itertools
import sys
import weakref
from typing import Any

import numpy as np

_PLAIN = frozenset((bool, int, float, complex, str, bytes))
_UNSET = object()                   # a slot that held nothing (a value freed by _release_values)
_SKIP = frozenset(("__weakref__", "__dict__", "_seq", "_next", "_nrs"))
_SLOTS: dict[type, tuple[str, ...]] = {}
_TEMPLATES: dict[Any, Any] = {}     # one copy of each graph shape (template), keyed with its values' types
_REBUILT: dict[tuple[int, int], Any] = {}   # (root's sequence number, index) -> weak reference to the node
pending: Any = weakref.WeakSet()   # the roots of the last backward (the engine adds them; dead ones leave)
_function: Any = None               # the module minigrad.autograd.function, once imported
_MAX_NODES = 100_000
_HELD_BY_THE_WALK = 3               # references to a node while _walk checks it: `node`, `count`'s key, the argument


def defer(root_nodes: Any) -> None:
    """The end of a backward while the roots of the previous one are alive: freeze those (their graph was
    freed, or holds nodes that saved nothing), remember these.  (When none is alive, the engine only adds.)"""
    try:
        previous = list(pending)
    except RuntimeError:                # another thread's backward added its roots meanwhile: not this time
        return
    pending.clear()
    pending.update(root_nodes)
    for node in previous:
        freeze(node)


def _slots(cls: type) -> tuple[str, ...]:
    names = _SLOTS.get(cls)
    if names is None:
        names = _SLOTS[cls] = tuple(s for c in reversed(cls.__mro__) for s in c.__dict__.get("__slots__", ())
                                    if s not in _SKIP)
    return names


def _state(node: Any) -> Any:
    """What a rebuilt node gets back, or None if this node must stay an object (hooks, metadata, an output
    still alive, saved tensors not freed, a custom Function's node, an AccumulateGrad)."""
    if (not isinstance(node, _function.BackwardCFunction) or node._hooked or node._repr_prefix
            or not (node._released or not node._packed)):
        return None
    state = getattr(node, "__dict__", None)
    if state is None:                                    # a rule's node: its slots
        if node._ext is not None or (node._output_ref is not None and node._output_ref() is not None):
            return None
        values = []
        for name in _slots(type(node)):
            try:
                value = object.__getattribute__(node, name)
            except AttributeError:
                value = _UNSET
            values.append(None if name == "_output_ref" else value)
        return tuple(values)
    outputs = state.get("_outputs", ())
    if state.get("_metadata") is not None or any(r is not None and r() is not None for r in outputs):
        return None
    return tuple([(name, (None,) * len(outputs) if name == "_outputs" else value)   # (dead references: None)
                  for name, value in state.items() if name not in _SKIP])


def _walk(root: Any) -> tuple[list[Any], dict[Any, int], list[Any]] | None:
    """The nodes below ``root`` that only the graph references, parents first (by sequence number: a node is
    made after its inputs' nodes), each with its state; and the nodes linked to that stay objects."""
    inner: list[Any] = []               # (node, state), index = position + 1 (0 is the root)
    index: dict[Any, int] = {}
    outer: dict[Any, int] = {}
    count: dict[Any, int] = {}          # node -> how many edges of the frozen part point at it
    tick = itertools.count()
    heap: list[Any] = []
    for node in root._next:
        if node is not None:
            if node in count:
                count[node] += 1
            else:
                count[node] = 1
                heapq.heappush(heap, (-node._seq, next(tick), node))
    node = None
    while heap:
        node = heapq.heappop(heap)[2]
        state = _state(node)
        # every parent in the frozen part was visited (larger sequence numbers) and counted its edges: any other
        # reference (a tensor's grad_fn, a variable, a node that stays an object) keeps this node as it is
        if state is None or len(inner) >= _MAX_NODES or sys.getrefcount(node) - _HELD_BY_THE_WALK != count[node]:
            outer[node] = len(outer)
            continue
        index[node] = len(inner) + 1
        inner.append((node, state))
        for child in node._next:
            if child is not None:
                if child in count:
                    count[child] += 1
                else:
                    count[child] = 1
                    heapq.heappush(heap, (-child._seq, next(tick), child))
        child = None                    # (a loop variable would be one more reference to the last child)
    if not inner:
        return None
    return inner, index, list(outer)


def freeze(root: Any) -> None:
    """Replace the freed nodes below ``root`` that nothing else references by a shared template (see above)."""
    global _function
    if type(root._next) is not tuple:
        return
    from . import function as _function  # (function imports the engine, which imports this module)
    found = _walk(root)
    if found is None:
        return
    inner, index, outer = found
    where = {node: -1 - j for j, node in enumerate(outer)}
    where.update(index)
    seq = root._seq

    entries: list[Any] = [tuple([None if n is None else where[n] for n in root._next])]
    for node, state in inner:
        entries.append((type(node), seq - node._seq, tuple([None if n is None else where[n] for n in node._next]),
                        node._nrs, state))
    template = tuple(entries)
    del entries, inner, index, where, node           # (the nodes below are freed when `root._next` is replaced)
    if len(template) <= 1000:           # small graphs, the ones made again and again
        try:
            key = (template, _types(template))
            template = _TEMPLATES.setdefault(key, template) if len(_TEMPLATES) < 512 else _TEMPLATES.get(key, template)
        except TypeError:               # a value that is not plain: this graph's own template
            pass
    root._next = _Frozen((template, seq, *outer))
    if type(root.needs_input_grad) is tuple:
        root.needs_input_grad = _function._shared(root.needs_input_grad)     # one copy of each pattern of flags


def _types(value: Any) -> Any:
    """The types inside a template: ``(True,) == (1,)``, but a saved ``dim=(1,)`` must not come back as True.
    TypeError for anything but plain values (a shared template must not keep a tensor or an object alive)."""
    if type(value) is tuple:
        return tuple(map(_types, value))
    if value is None or value is _UNSET or type(value) in _PLAIN or isinstance(value, (np.dtype, np.generic, type)):
        return type(value)
    if isinstance(value, tuple) and not value:          # _FREED_PACKED (ops/_rules.py): empty
        return type(value)
    raise TypeError("not a plain value")


def _node(frozen: Any, code: Any) -> Any:
    if code is None:
        return None
    if code < 0:
        return tuple.__getitem__(frozen, 1 - code)          # a node that stayed an object
    seq = tuple.__getitem__(frozen, 1)
    ref = _REBUILT.get((seq, code))
    node = ref and ref()
    if node is None:
        node = _rebuild(frozen, code, seq)
    return node


def _rebuild(frozen: Any, code: int, root_seq: int) -> Any:
    cls, delta, codes, nrs, state = tuple.__getitem__(frozen, 0)[code]
    node = cls.__new__(cls)
    if hasattr(node, "__dict__"):               # a Function's node: its dict's items
        node.__dict__.update(state)
    else:
        for name, value in zip(_slots(cls), state):
            if value is not _UNSET:
                object.__setattr__(node, name, value)
    node._seq, node._nrs = root_seq - delta, nrs
    node._next = _Edges((frozen, code)) if any(c is not None and c > 0 for c in codes) else tuple(
        [_node(frozen, c) for c in codes])
    key = (root_seq, code)

    def forget(ref: Any, key: Any = key) -> None:
        if _REBUILT.get(key) is ref:
            del _REBUILT[key]
    _REBUILT[key] = weakref.ref(node, forget)
    return node


class _Edges(tuple):
    """The ``_next`` of a rebuilt node: ``(frozen graph, index)``; iterating it gives the next nodes."""

    __slots__ = ()

    def _codes(self) -> tuple[Any, ...]:
        frozen, code = tuple.__getitem__(self, 0), tuple.__getitem__(self, 1)
        return tuple.__getitem__(frozen, 0)[code][2]

    def _frozen(self) -> Any:
        return tuple.__getitem__(self, 0)

    def __iter__(self) -> Any:
        frozen = self._frozen()
        return iter([_node(frozen, c) for c in self._codes()])

    def __len__(self) -> int:
        return len(self._codes())

    def __getitem__(self, i: Any) -> Any:
        return tuple(self)[i]

    def __eq__(self, other: Any) -> bool:
        return tuple(self) == other

    def __ne__(self, other: Any) -> bool:
        return tuple(self) != other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(tuple(self))


class _Frozen(_Edges):
    """The ``_next`` of a frozen graph's root: ``(template, root's sequence number, *nodes kept as objects)``."""

    __slots__ = ()

    def _codes(self) -> tuple[Any, ...]:
        return tuple.__getitem__(self, 0)[0]

    def _frozen(self) -> Any:
        return self
