"""The nodes of the backward graph, and the hooks that let a visualizer watch them.

A node is what ``tensor.grad_fn`` holds: it knows how to turn the gradient of its
outputs into gradients of its inputs, and ``next_functions`` links it to the nodes
of those inputs.  A leaf that requires grad is represented by an ``AccumulateGrad``
node whose ``variable`` is the leaf.

Observation hooks (minigrad's own, documented in docs/architecture.md):
``register_node_created_hook`` and ``register_backward_observer``.
"""

from __future__ import annotations

import itertools
import threading
import weakref
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ..utils.hooks import RemovableHandle, hook_dict

if TYPE_CHECKING:
    from .._tensor import Tensor

__all__ = ["Node", "AccumulateGrad", "BackwardEvent", "register_node_created_hook",
           "register_backward_observer", "increment_version", "saved_tensors_hooks", "save_on_cpu",
           "disable_saved_tensors_hooks", "register_multi_grad_hook"]

_sequence = itertools.count()
_ACCUMULATE_SEQUENCE_NR = 2**64 - 1   # AccumulateGrad runs as soon as it is ready, as in PyTorch

# Observers: module-level dicts, so "nothing registered" costs one falsy check.  Each value is
# ``(thread id, fn)``: an observer sees only what happens in the thread that registered it
# (thread-local, like PyTorch's hooks state).
_node_created_hooks = hook_dict()
_backward_observers = hook_dict()


def _add_for_this_thread(hooks: dict[Any, Any], fn: Callable[..., Any]) -> RemovableHandle:
    handle = RemovableHandle(hooks)
    hooks[handle.id] = (threading.get_ident(), fn)
    return handle


def _add_for_all_threads(hooks: dict[Any, Any], fn: Callable[..., Any]) -> RemovableHandle:
    """A process-wide entry (thread ``None``): anomaly mode's recorder, global as in PyTorch."""
    handle = RemovableHandle(hooks)
    hooks[handle.id] = (None, fn)
    return handle


def _for_this_thread(hooks: dict[Any, Any]) -> tuple[Any, ...]:
    """The functions of ``hooks`` registered by the calling thread (or for all threads), in order."""
    me = threading.get_ident()
    return tuple(fn for thread, fn in tuple(hooks.values()) if thread == me or thread is None)


class Node:
    """Base class of every backward node (``grad_fn``).

    Its edges are stored compactly: ``_next`` holds the next node of each input (None: no edge) and
    ``_nrs`` their output numbers (one shared tuple per pattern, see :func:`_shared_nrs`);
    ``next_functions`` builds PyTorch's ``((node, nr), ...)`` from them on each access, as PyTorch's
    getter builds a fresh tuple.  (A stored tuple of ``(node, nr)`` pairs costs two objects per edge.)
    """

    __slots__ = ()                  # a subclass without __slots__ gets a __dict__ (RuleNode has none)
    _is_accumulate = False
    _materialize_grads = True
    # Per-node state. Class-level defaults, set on a node only when used: most nodes never get hooks.
    _next: tuple[Node | None, ...] = ()      # the next node of each input
    _nrs: tuple[int, ...] = ()               # the output number of each edge
    _pre_hooks = None               # node pre-hooks: fn(grad_outputs)
    _post_hooks = None              # node hooks: fn(grad_inputs, grad_outputs)
    _tensor_pre_hooks: dict[int, Any] | None = None  # {output_nr: hook dict} from Tensor.register_hook
    _retain_grad = None             # {output_nr: weakref to the tensor}
    _hooked = False                 # True once any of the four above was set (the engine's plain path: False)
    _metadata: dict[Any, Any] | None = None
    _outputs: tuple[Any, ...] = ()            # weak references to the output tensors
    _n_outputs = 1                  # how many gradients the node receives (slots of its input buffer)
    _released = False
    _takes_arrays = False           # True: ``_apply_arrays(grad)`` runs the backward on raw arrays (a rule's node)

    def __init__(self) -> None:
        self._seq = next(_sequence)

    @property
    def next_functions(self) -> tuple[tuple[Node | None, int], ...]:
        """``((node, output_nr), ...)``: one edge per input, ``(None, 0)`` where no gradient flows."""
        return tuple(zip(self._next, self._nrs))

    @next_functions.setter
    def next_functions(self, edges: Any) -> None:
        edges = tuple(edges)
        self._next, self._nrs = tuple([e[0] for e in edges]), _shared_nrs(tuple([e[1] for e in edges]))

    # -- identity -----------------------------------------------------------------
    def name(self) -> str:
        """The node's class name, e.g. ``'MulBackward0'``."""
        return type(self).__name__

    def _sequence_nr(self) -> int:
        return self._seq

    @property
    def metadata(self) -> dict[Any, Any]:
        if self._metadata is None:
            self._metadata = {}
        return self._metadata

    def output_tensors(self) -> tuple[Any, ...]:
        """The output tensors of this node, ``None`` for any already collected (minigrad only; a rule's node
        forgets its output once a backward without retain_graph freed it)."""
        return tuple(ref() if ref is not None else None for ref in self._outputs)

    @property
    def saved_tensors_released(self) -> bool:
        """True once a backward without ``retain_graph`` freed this node's saved tensors (nodes that saved
        nothing, like ``SumBackward0``, are never "freed": a second backward through them works)."""
        return self._released

    # -- hooks --------------------------------------------------------------------
    def register_prehook(self, fn: Callable[..., Any]) -> RemovableHandle:
        """``fn(grad_outputs)`` runs before the node; it may return replacement gradients."""
        if self._pre_hooks is None:
            self._pre_hooks, self._hooked = hook_dict(), True
        return _add(self._pre_hooks, fn)

    def register_hook(self, fn: Callable[..., Any]) -> RemovableHandle:
        """``fn(grad_inputs, grad_outputs)`` runs after the node; it may return replacements."""
        if self._post_hooks is None:
            self._post_hooks, self._hooked = hook_dict(), True
        return _add(self._post_hooks, fn)

    def _register_tensor_hook(self, output_nr: int, fn: Callable[..., Any]) -> RemovableHandle:
        if self._tensor_pre_hooks is None:
            self._tensor_pre_hooks, self._hooked = {}, True
        return _add(self._tensor_pre_hooks.setdefault(output_nr, hook_dict()), fn)

    # -- to be provided by subclasses ---------------------------------------------
    def _apply(self, grad_outputs: tuple[Any, ...]) -> tuple[Any, ...]:
        raise NotImplementedError

    def _release(self) -> bool:
        """Free the saved tensors (after a backward without retain_graph); True if there were any."""
        return False

    def __call__(self, *grad_outputs: Any) -> tuple[Any, ...]:
        """Run this node's backward on ``grad_outputs`` (what the engine does), e.g. ``y.grad_fn(g)``."""
        return self._apply(tuple(grad_outputs))

    _repr_prefix = ""              # "torch.autograd.function." for nodes of Python-level (custom) Functions

    def __repr__(self) -> str:
        return "<%s%s object at %#x>" % (self._repr_prefix, type(self).__name__, id(self))


class AccumulateGrad(Node):
    """The node of a leaf that requires grad: it adds the arriving gradient into ``variable.grad``.

    All uses of a leaf share one AccumulateGrad node while a graph holds it.
    """

    _is_accumulate = True
    _seq = _ACCUMULATE_SEQUENCE_NR

    def __init__(self, variable: Tensor) -> None:
        self.variable = variable

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"

    def _apply(self, grad_outputs: tuple[Any, ...]) -> tuple[Any, ...]:
        # The engine does the accumulation itself (it needs the grad before and after).
        return ()


_NRS: dict[tuple[int, ...], tuple[int, ...]] = {}


def _shared_nrs(nrs: tuple[int, ...]) -> tuple[int, ...]:
    """One copy of each tuple of output numbers (``(0,)``, ``(0, 0)``, ``(0, 1)``...) for all nodes."""
    return _NRS.get(nrs) or (_NRS.setdefault(nrs, nrs) if len(_NRS) < 4096 else nrs)


class _ExtAttr:
    """A per-node attribute that is rarely set (hooks, metadata), kept in the node's ``_ext`` dict: a node
    with ``__slots__`` pays one slot for all of them (the class default, None, when never set)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, node: Any, owner: Any = None) -> Any:
        if node is None:
            return self
        ext = node._ext
        return None if ext is None else ext.get(self.name)

    def __set__(self, node: Any, value: Any) -> None:
        if node._ext is None:
            node._ext = {}
        node._ext[self.name] = value


def _add(hooks: dict[Any, Any], fn: Callable[..., Any]) -> RemovableHandle:
    handle = RemovableHandle(hooks)
    hooks[handle.id] = fn
    return handle


# --------------------------------------------------------------------------------------
# Observation hooks for visualizers (minigrad's own; PyTorch has no equivalent).
# --------------------------------------------------------------------------------------

class BackwardEvent(NamedTuple):
    """One thing the engine did during a backward pass (see docs/architecture.md).

    Carries ids and numpy copies only, never references into the graph.
    """

    kind: str
    node_id: Any = None
    name: str = ""
    grad_outputs: tuple[Any, ...] = ()
    grad_inputs: tuple[Any, ...] = ()
    grad_before: Any = None
    grad_after: Any = None
    detail: str = ""


def register_node_created_hook(fn: Callable[..., Any]) -> RemovableHandle:
    """Call ``fn(node)`` each time an operation records a new node.

    Keep only ``weakref.ref(node)`` or ids, so that the observer never keeps a graph alive.

    >>> import minigrad as torch
    >>> seen = []
    >>> x = torch.ones(2, requires_grad=True)
    >>> with torch.autograd.graph.register_node_created_hook(lambda node: seen.append(node.name())):
    ...     y = (x * 2).sum()
    >>> seen
    ['MulBackward0', 'SumBackward0']
    """
    return _add_for_this_thread(_node_created_hooks, fn)


def register_backward_observer(fn: Callable[..., Any]) -> RemovableHandle:
    """Call ``fn(event)`` with a :class:`BackwardEvent` for every step of every backward pass.

    >>> import minigrad as torch
    >>> x = torch.tensor([1., 2.], requires_grad=True)
    >>> events = []
    >>> with torch.autograd.graph.register_backward_observer(events.append):
    ...     (x * 3).sum().backward()
    >>> [e.name for e in events if e.kind == "node"]
    ['SumBackward0', 'MulBackward0', 'AccumulateGrad']
    """
    return _add_for_this_thread(_backward_observers, fn)


def _notify_node_created(node: Node) -> None:
    for fn in _for_this_thread(_node_created_hooks):
        fn(node)


def _weak_outputs(tensors) -> tuple[Any, ...]:
    return tuple(weakref.ref(t) for t in tensors)


def increment_version(tensor: Tensor) -> None:
    """Mark ``tensor`` as modified in place (what in-place ops do)."""
    tensor._version_counter[0] += 1


# --------------------------------------------------------------------------------------
# Saved-tensor hooks: transform what forward saves (pack) and what backward reads (unpack).
# --------------------------------------------------------------------------------------

class _ThreadLocalStack(threading.local):
    """A stack (``append``, ``pop``, ``[-1]``, truth) with one list per thread, as PyTorch keeps these."""

    def __init__(self) -> None:
        self.items: list[Any] = []

    def __bool__(self) -> bool:
        return bool(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, index: Any) -> Any:
        return self.items[index]

    def append(self, item: Any) -> None:
        self.items.append(item)

    def pop(self) -> Any:
        return self.items.pop()


_saved_tensors_hooks_stack = _ThreadLocalStack()
_saved_tensors_hooks_disabled = _ThreadLocalStack()


class saved_tensors_hooks:
    """Inside this context, each tensor saved for backward goes through ``pack_hook``; backward
    gets ``unpack_hook(packed)`` back.

    >>> import minigrad as torch
    >>> packed = []
    >>> def pack(t):
    ...     packed.append(t.shape)
    ...     return t
    >>> x = torch.ones(2, requires_grad=True)
    >>> with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
    ...     y = x * x
    >>> packed
    [torch.Size([2]), torch.Size([2])]
    """

    def __init__(self, pack_hook: Callable[..., Any], unpack_hook: Callable[..., Any]) -> None:
        self.pack_hook: Callable[[Tensor], Any] = pack_hook
        self.unpack_hook: Callable[[Any], Tensor] = unpack_hook

    def __enter__(self) -> saved_tensors_hooks:
        if _saved_tensors_hooks_disabled:
            raise RuntimeError(_saved_tensors_hooks_disabled[-1])
        _saved_tensors_hooks_stack.append((self.pack_hook, self.unpack_hook))
        return self

    def __exit__(self, *exc: object) -> None:
        _saved_tensors_hooks_stack.pop()


class save_on_cpu(saved_tensors_hooks):
    """Saved tensors already live on the CPU in minigrad: packing is the identity."""

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        super().__init__(lambda t: t, lambda t: t)


class disable_saved_tensors_hooks:
    """Make ``saved_tensors_hooks`` raise ``RuntimeError(error_message)`` inside this context."""

    def __init__(self, error_message: str) -> None:
        self.error_message = error_message

    def __enter__(self) -> disable_saved_tensors_hooks:
        _saved_tensors_hooks_disabled.append(self.error_message)
        return self

    def __exit__(self, *exc: object) -> None:
        _saved_tensors_hooks_disabled.pop()


class _MultiHandle:
    """What ``register_multi_grad_hook`` returns: ``remove()`` takes the hook off every tensor."""

    def __init__(self, handles: list[RemovableHandle]) -> None:
        self.handles = handles

    def remove(self) -> None:
        for h in self.handles:
            h.remove()


def register_multi_grad_hook(tensors: Sequence[Tensor], fn: Callable[..., Any], *, mode: str = "all") -> _MultiHandle:
    """Call ``fn`` once the gradients of all ``tensors`` that this backward pass reaches are computed.

    ``mode="all"``: ``fn(grads)``, one entry per tensor (``None`` for a tensor the pass does not reach).
    ``mode="any"``: ``fn(grad)`` with the first of them to be computed, once per backward pass.
    """
    from . import engine  # at call time: the engine imports this module

    supported_modes = ("all", "any")
    if mode not in supported_modes:
        raise ValueError("Expects mode to be one of %s but got %s" % (supported_modes, mode))
    tensors = tuple(tensors)
    seen: dict[Any, Any] = {}

    def run_key():
        return engine._current_runs[-1][2].serial

    if mode == "all":
        def make_hook(index):
            def hook(grad):
                key = run_key()
                if key not in seen:
                    expected = sum(1 for t in tensors if t.requires_grad and engine.will_execute(t._gradient_edge()[0]))
                    seen[key] = [0, expected, [None] * len(tensors)]
                entry = seen[key]
                entry[0] += 1
                entry[2][index] = grad
                if entry[0] == entry[1]:
                    del seen[key]
                    fn(entry[2])
            return hook
        handles = [t.register_hook(make_hook(i)) for i, t in enumerate(tensors) if t.requires_grad]
    else:
        def hook(grad):
            key = run_key()
            if seen.get(key) is None:
                seen.clear()
                seen[key] = True
                fn(grad)
        handles = [t.register_hook(hook) for t in tensors if t.requires_grad]
    return _MultiHandle(handles)
