"""Recording a real backward pass: :func:`record_backward` -> :class:`BackwardPass`.

The graph is captured first (so it shows gradients "not computed yet"), then the
library's own ``backward`` runs unchanged while every executed node is recorded:
with minigrad through the engine's observer
(``autograd.graph.register_backward_observer``), with PyTorch through node hooks
(:class:`BackwardRecorder`).
"""

from __future__ import annotations

import importlib
import weakref
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..fold import AUTO_FOLD_NODES, alias_map, fold_loops, fold_note
from ..model import Event, GraphSnapshot, Step
from ..text import safe_name, safe_text
from .modules import ModuleTrace
from .naming import resolve_names
from .saved import _read_saved
from .tensors import MAX_VALUES, _is_node, _is_tensor, to_numpy
from .walk import _Capture, _capture

__all__ = ["BackwardPass", "BackwardRecorder", "record_backward", "fold_pass", "derivative_formula"]



def _copies(grads: Any) -> tuple[np.ndarray | None, ...]:
    return tuple(None if g is None else to_numpy(g) for g in grads)


def _observer_for(tensor: Any) -> Callable[..., Any] | None:
    """minigrad's ``register_backward_observer`` for the tensor's library, if it has one."""
    package = type(tensor).__module__.partition(".")[0]
    try:
        graph = importlib.import_module(f"{package}.autograd.graph")
    except ImportError:
        return None
    return getattr(graph, "register_backward_observer", None)


class BackwardRecorder:
    """Collects :class:`~viz.model.Step` objects while a real backward runs.

    Use as a context manager around any backward call on a captured graph.  With
    minigrad the engine's observer reports every event; elsewhere (PyTorch)
    node pre-hooks and hooks are put on every captured node and removed on exit,
    and the hooks users registered on the tensors it knows (leaves, roots, named
    tensors) are wrapped for the pass, so they show as events too.  Hooks on
    tensors it cannot reach (unnamed intermediates) run unseen.  ``steps`` holds
    what was recorded, also when the backward raised.

    Parameters
    ----------
    root : Tensor
        A tensor of the library whose backward will run.
    node_ids : mapping
        ``id(node) -> snapshot id`` for the live nodes of the captured graph.
    nodes : list
        The live nodes and tensors of the capture (kept alive, and hooked when
        there is no observer).
    """

    def __init__(self, root: Any, node_ids: Mapping[int, str], nodes: list[Any]) -> None:
        self.node_ids: Mapping[int, str] = node_ids
        self.nodes: list[Any] = nodes
        self.steps: list[Step] = []
        self._pending_events: list[Event] = []
        self._handles: list[Any] = []
        self._observe = _observer_for(root)
        self._open: dict[str, dict[str, Any]] = {}
        self._unwrap: list[tuple[dict[Any, Any], Any, Any]] = []   # (hook dict, key, user hook)
        self._retained: dict[str, list[Any]] = {}                  # node id -> tensors with retain_grad()

    # -- minigrad: the engine's event log -----------------------------------------
    def _on_event(self, event: Any) -> None:
        node_id = self.node_ids.get(event.node_id) if event.node_id is not None else None
        if event.kind == "node":
            self.steps.append(Step(
                index=len(self.steps), node_id=node_id, name=safe_name(event.name),
                grad_outputs=_copies(event.grad_outputs or ()),
                grad_inputs=_copies(event.grad_inputs or ()),
                grad_before=None if event.grad_before is None else np.array(event.grad_before),
                grad_after=None if event.grad_after is None else np.array(event.grad_after),
                events=tuple(self._pending_events)))
            self._pending_events = []
            return
        if event.kind in ("begin", "end", "error"):
            return
        recorded = Event(kind=event.kind, node_id=node_id, name=safe_name(event.name),
                         detail=safe_text(event.detail, 500),
                         grads=_copies(event.grad_outputs) if event.grad_outputs else None)
        if event.kind in ("post_accumulate_hook", "node_hook", "release") and self.steps:
            self._attach(recorded)
        else:
            self._pending_events.append(recorded)

    def _attach(self, event: Event) -> None:
        last = self.steps[-1]
        self.steps[-1] = replace(last, events=(*last.events, event))

    # -- PyTorch: hooks on every node ---------------------------------------------
    def _hook_all(self) -> None:
        for node in self.nodes:
            if not _is_node(node) or id(node) not in self.node_ids:
                continue
            node_id, name = self.node_ids[id(node)], safe_name(type(node).__name__)
            variable = getattr(node, "variable", None)
            self._handles.append(node.register_prehook(self._prehook(node_id, name, variable)))
            self._handles.append(node.register_hook(self._posthook(node_id, variable)))

    def _hook_tensors(self) -> None:
        """PyTorch: report the hooks on the tensors we know as events, by wrapping them."""
        acc_of = {id(n.variable): n for n in self.nodes if hasattr(n, "variable")}
        tensors = [n.variable for n in acc_of.values()] + [t for t in self.nodes if _is_tensor(t)]
        for tensor in {id(t): t for t in tensors}.values():
            node = tensor.grad_fn if tensor.grad_fn is not None else acc_of.get(id(tensor))
            node_id = self.node_ids.get(id(node)) if node is not None else None
            if node_id is None:
                continue
            name = safe_name(type(node).__name__)
            self._wrap(tensor, "_backward_hooks", "tensor_hook", node_id, name)
            self._wrap(tensor, "_post_accumulate_grad_hooks", "post_accumulate_hook", node_id, name)
            if not tensor.is_leaf and getattr(tensor, "retains_grad", False):
                self._retained.setdefault(node_id, []).append(tensor)

    def _wrap(self, tensor: Any, attr: str, kind: str, node_id: str, name: str) -> None:
        hooks = getattr(tensor, attr, None)
        for key, fn in list((hooks or {}).items()):
            hooks[key] = self._reporting(fn, kind, node_id, name, tensor)  # type: ignore[index]
            self._unwrap.append((hooks, key, fn))  # type: ignore[arg-type]

    def _reporting(self, fn: Callable[..., Any], kind: str, node_id: str, name: str,
                   tensor: Any) -> Callable[..., Any]:
        """``fn`` plus an event (after it ran, with the gradient it let through)."""
        def hook(arg: Any) -> Any:
            result = fn(arg)
            shown = tensor.grad if kind == "post_accumulate_hook" else arg if result is None else result
            self._pending_events.append(Event(kind, node_id, name, getattr(fn, "__name__", "hook"),
                                              _copies((shown,))))
            return result
        return hook

    def _prehook(self, node_id: str, name: str, variable: Any) -> Callable[..., None]:
        def prehook(grad_outputs: Any) -> None:
            for tensor in self._retained.get(node_id, ()):  # PyTorch stored .grad before node pre-hooks
                self._pending_events.append(Event("retain_grad", node_id, name,
                                                  f"output {tensor.output_nr}", _copies((tensor.grad,))))
            self._open[node_id] = {
                "index": len(self.steps) + len(self._open), "node_id": node_id, "name": name,
                "grad_outputs": _copies(grad_outputs),
                "grad_before": None if variable is None or variable.grad is None
                else to_numpy(variable.grad)}
        return prehook

    def _posthook(self, node_id: str, variable: Any) -> Callable[..., None]:
        def hook(grad_inputs: Any, grad_outputs: Any) -> None:
            fields = self._open.pop(node_id)
            if variable is not None:
                fields["grad_after"] = None if variable.grad is None else to_numpy(variable.grad)
            self.steps.append(Step(grad_inputs=_copies(grad_inputs), events=tuple(self._pending_events),
                                   **fields))
            self._pending_events = []
        return hook

    def _released_events(self) -> None:
        """PyTorch reports no release: check which hooked nodes lost their buffers."""
        for node in self.nodes:
            hooked = _is_node(node) and id(node) in self.node_ids and not hasattr(node, "variable")
            if hooked and self.steps and _read_saved(node)[1] == "freed":
                self._attach(Event("release", self.node_ids[id(node)], safe_name(type(node).__name__)))

    # -- context manager ----------------------------------------------------------
    def __enter__(self) -> BackwardRecorder:
        if self._observe is not None:
            self._handles.append(self._observe(self._on_event))
        else:
            self._hook_all()
            self._hook_tensors()
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        for handle in self._handles:
            handle.remove()
        self._handles.clear()
        for hooks, key, fn in self._unwrap:  # the user's own hooks again
            if key in hooks:
                hooks[key] = fn
        self._unwrap.clear()
        if self._observe is None and exc_type is None:
            self._released_events()
        self.steps.sort(key=lambda step: step.index)


@dataclass
class BackwardPass:
    """One recorded backward call, for the stepper.

    Attributes
    ----------
    snapshot : GraphSnapshot
        The graph the steps refer to (with ``create_graph=True``, taken after the
        backward, so that it also holds the derivative graph).
    steps : list of Step
        The executed nodes, in the engine's order (also those before an error).
    error : BaseException or None
        What the backward raised, if anything (PyTorch's type and message).
    released : tuple of str
        Ids of the nodes whose saved tensors the backward freed.
    seeds : tuple of (ndarray or None)
        The gradient each root started with.
    born : dict of str to int
        ``create_graph=True``: snapshot id of each node built during the backward ->
        index of the step that built it.
    refs : dict of str to Callable
        Snapshot id -> zero-argument callable returning the live object (weakly held;
        ``None`` once collected).  Used to inspect a node from the widget.
    """

    snapshot: GraphSnapshot
    steps: list[Step]
    error: BaseException | None = None
    released: tuple[str, ...] = ()
    seeds: tuple[np.ndarray | None, ...] = ()
    born: dict[str, int] = field(default_factory=dict)
    refs: dict[str, Callable[[], Any]] = field(default_factory=dict)
    #: Snapshot id -> the node's saved values read just before the backward ran
    #: (``(name, ndarray or plain value)`` pairs), so they can be shown after backward freed them.
    saved: dict[str, tuple[tuple[str, Any], ...]] = field(default_factory=dict)
    #: Ids of the nodes whose saved values were already freed before this backward started.
    freed_before: tuple[str, ...] = ()

    def __iter__(self) -> Iterator[Any]:
        """``snapshot, steps = record_backward(root)``: unpacks as the pair it always was."""
        return iter((self.snapshot, self.steps))


def _saved_values(capture: _Capture) -> tuple[dict[str, tuple[tuple[str, Any], ...]], tuple[str, ...]]:
    """Every captured node's saved values (numpy copies), and the nodes already freed (vizstep)."""
    by_id = {id(obj): obj for obj in capture.keep}
    saved: dict[str, tuple[tuple[str, Any], ...]] = {}
    freed: list[str] = []
    for key, node_id in capture.node_ids.items():
        node = by_id.get(key)
        if node is None or not _is_node(node) or hasattr(node, "variable"):
            continue
        pairs, problem, _ = _read_saved(node)
        if problem == "freed":
            freed.append(node_id)
        saved[node_id] = tuple((name, to_numpy(value) if _is_tensor(value) else value) for name, value in pairs)
    return saved, tuple(dict.fromkeys(freed))


def derivative_formula(name: str) -> Any:
    """minigrad's derivative formula for a backward node class name (also PyTorch's), or None.

    ``minigrad.autograd.derivative_formula`` (the rules table's public API) when minigrad
    has it; the stepper falls back to its own small table otherwise (vizstep).
    """
    try:
        autograd = importlib.import_module("minigrad.autograd")
    except ImportError:  # pragma: no cover - viz ships with minigrad
        return None
    lookup = getattr(autograd, "derivative_formula", None)
    return lookup(name) if lookup is not None else None


def _weak(obj: Any) -> Callable[[], Any]:
    """A weak reference to ``obj``, or a dead one when the type allows none (some C++ nodes)."""
    try:
        return weakref.ref(obj)
    except TypeError:
        return lambda: None


def _library_backward(roots: list[Any]) -> Callable[..., Any]:
    """``<library>.autograd.backward`` of the roots' library (minigrad or torch)."""
    package = type(roots[0]).__module__.partition(".")[0]
    return importlib.import_module(f"{package}.autograd").backward


def _seed_gradients(roots: list[Any], gradient: Any) -> tuple[np.ndarray | None, ...]:
    """The gradient each root starts from: ``gradient`` or ones for a scalar root."""
    given = list(gradient) if isinstance(gradient, list | tuple) else [gradient] * len(roots)
    seeds: list[np.ndarray | None] = []
    for root, grad in zip(roots, given):
        if grad is not None:
            seeds.append(to_numpy(grad))
        elif _is_tensor(root) and root.requires_grad and int(np.prod(root.shape)) == 1:
            seeds.append(np.ones(tuple(int(d) for d in root.shape), dtype=to_numpy(root).dtype))
        else:
            seeds.append(None)
    return tuple(seeds)


def _node_created_hook_for(tensor: Any) -> Callable[..., Any] | None:
    """minigrad's ``register_node_created_hook`` for the tensor's library, if it has one."""
    package = type(tensor).__module__.partition(".")[0]
    try:
        graph = importlib.import_module(f"{package}.autograd.graph")
    except ImportError:
        return None
    return getattr(graph, "register_node_created_hook", None)


def _refs_for(capture: _Capture, roots: list[Any]) -> dict[str, Callable[[], Any]]:
    """Snapshot id -> weak reference to the live node (or root tensor)."""
    refs: dict[str, Callable[[], Any]] = {}
    by_id = {id(obj): obj for obj in capture.keep}
    for key, node_id in capture.node_ids.items():
        if key in by_id:
            refs.setdefault(node_id, _weak(by_id[key]))
    for node_id, root in zip(capture.snapshot.roots, roots):
        refs.setdefault(node_id, _weak(root))
    return refs


def _with_derivative_graph(before: _Capture, roots: list[Any], params: Any, steps: list[Step],
                           created: list[tuple[Any, int]], show_saved: bool = False,
                           module_trace: ModuleTrace | None = None, show_constants: bool = True,
                           ) -> tuple[_Capture, list[Step], dict[str, int]]:
    """Re-capture after a ``create_graph=True`` backward so the derivative graph is drawn too.

    The forward part keeps its ids (the roots are walked first, in the same order); the
    derivative nodes (reached from the leaves' new ``.grad``) get ids after them.
    """
    leaves = [n.variable for n in before.keep if hasattr(n, "variable")]
    grads = [leaf.grad for leaf in leaves if getattr(leaf, "grad", None) is not None]
    extra = [g for g in grads if getattr(g, "grad_fn", None) is not None]
    after = _capture(tuple(roots + extra), params, "autograd", show_saved, module_trace, MAX_VALUES,
                     show_constants)
    rename = {before.node_ids[key]: after.node_ids[key] for key in before.node_ids if key in after.node_ids}
    steps = [replace(step, node_id=rename.get(step.node_id, step.node_id) if step.node_id else None,
                     events=tuple(replace(ev, node_id=rename.get(ev.node_id, ev.node_id))  # type: ignore[arg-type]
                                  for ev in step.events))
             for step in steps]
    born = {after.node_ids[id(node)]: index for node, index in created if id(node) in after.node_ids}
    return after, steps, born



def record_backward(roots: Any, gradient: Any = None, retain_graph: bool | None = None,
                    create_graph: bool = False, inputs: Any = None, *, params: Any = None,
                    show_saved: bool = False, module_trace: ModuleTrace | None = None,
                    raise_error: bool = True, names: Any = None, show_constants: bool = True) -> BackwardPass:
    """Capture the graph of ``roots``, run their real backward, and record every step.

    The snapshot is taken first (so it shows gradients "not computed yet"), then
    ``root.backward(gradient, retain_graph, create_graph, inputs)`` runs unchanged
    (several roots: one ``autograd.backward(roots, grad_tensors=gradient, ...)``)
    while every executed node is recorded.

    Parameters
    ----------
    roots : Tensor or sequence of Tensor
    gradient : Tensor or sequence, optional
        ``gradient`` (one root) or ``grad_tensors`` (several).
    retain_graph, create_graph, inputs
        As for ``backward``.
    params, show_saved, module_trace, names, show_constants
        As for :func:`~viz.capture.capture_graph`.
    raise_error : bool
        ``True`` (default): whatever the backward raises propagates, with the library's
        own message (a root that does not require grad, a non-scalar root without
        ``gradient``, a graph already freed).  ``False``: the error is returned in
        :attr:`BackwardPass.error` with the steps executed before it (the stepper
        shows it).

    Returns
    -------
    BackwardPass
        Unpacks as ``snapshot, steps``; ``steps[i].node_id`` refers to ``snapshot``.
    """
    params = resolve_names(params, names)
    root_list = list(roots) if isinstance(roots, list | tuple) else [roots]
    capture = _capture(tuple(root_list), params, "autograd", show_saved, module_trace, MAX_VALUES,
                       show_constants)
    saved, freed_before = _saved_values(capture)
    recorder = BackwardRecorder(root_list[0], capture.node_ids, capture.keep)
    created: list[tuple[Any, int]] = []
    register = _node_created_hook_for(root_list[0]) if create_graph else None
    error: BaseException | None = None
    try:
        handle = register(lambda node: created.append((node, len(recorder.steps)))) if register else None
        try:
            with recorder:
                if len(root_list) == 1:
                    root_list[0].backward(gradient, retain_graph=retain_graph,
                                          create_graph=create_graph, inputs=inputs)
                else:
                    _library_backward(root_list)(root_list, grad_tensors=gradient, retain_graph=retain_graph,
                                                 create_graph=create_graph, inputs=inputs)
        finally:
            if handle is not None:
                handle.remove()
    except Exception as exc:
        if raise_error:
            raise
        error = exc
    steps, born = recorder.steps, dict[Any, Any]()
    if create_graph and error is None:
        capture, steps, born = _with_derivative_graph(capture, root_list, params, steps, created,
                                                      show_saved, module_trace, show_constants)
    released = tuple(dict.fromkeys(
        ev.node_id for step in steps for ev in step.events if ev.kind == "release" and ev.node_id))
    return BackwardPass(snapshot=capture.snapshot, steps=steps, error=error, released=released,
                        seeds=_seed_gradients(root_list, gradient), born=born,
                        refs=_refs_for(capture, root_list), saved=saved, freed_before=freed_before)


def fold_pass(record: BackwardPass, fold: bool | None = None,
              like: GraphSnapshot | None = None) -> BackwardPass:
    """The same pass on a graph whose loops are drawn once (:func:`viz.fold.fold_loops`).

    Every id in the steps, events, ``released``, ``born`` and ``refs`` is moved to the node
    drawn for it, so stepping through a folded loop runs through its body once per
    iteration.  ``fold=None`` folds only graphs bigger than
    :data:`viz.fold.AUTO_FOLD_NODES`; ``like`` reuses the folding of an earlier pass over
    the same graph (``backward_again``), so ids agree between passes.

    Returns
    -------
    BackwardPass
        ``record`` itself when nothing was folded.
    """
    if like is not None:
        folded = like if like.folds else None
    elif fold is False or (fold is None and len(record.snapshot.nodes) <= AUTO_FOLD_NODES):
        folded = None
    else:
        folded = fold_loops(record.snapshot)
        if folded.folds:
            note = fold_note(len(record.snapshot.nodes), folded.folds, fold is None)
            folded = replace(folded, notes=(*folded.notes, note))
    if folded is None or not folded.folds:
        return record
    alias = alias_map(folded)

    def moved(node_id: str | None) -> str | None:
        return alias.get(node_id, node_id) if node_id else node_id

    steps = [replace(step, node_id=moved(step.node_id),
                     events=tuple(replace(ev, node_id=moved(ev.node_id)) for ev in step.events))
             for step in record.steps]
    born: dict[str, int] = {}
    for node_id, index in record.born.items():
        key = moved(node_id) or node_id
        born[key] = min(born.get(key, index), index)
    refs = {node_id: ref for node_id, ref in record.refs.items() if alias.get(node_id, node_id) == node_id}
    return replace(record, snapshot=folded, steps=steps, born=born, refs=refs,
                   released=tuple(dict.fromkeys(moved(n) or n for n in record.released)))
