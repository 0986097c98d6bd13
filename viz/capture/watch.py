"""Watching a library as it records: :class:`LiveGraph` (weak references, cut edges) for ``viz.live``."""

from __future__ import annotations

import contextlib
import importlib
import weakref
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..model import EdgeInfo, GraphSnapshot, NodeInfo, TensorInfo
from .saved import _read_saved
from .tensors import MAX_VALUES, _is_tensor, tensor_info
from .walk import _Capture, _capture

__all__ = ["LiveGraph"]


@dataclass(frozen=True)
class _Cut:
    """An input cut off the graph: ``consumer`` read (as its saved ``key``) a tensor that
    shares memory with an output of ``producer`` but carries no gradient edge."""

    consumer: weakref.ref
    key: str
    producer: weakref.ref
    info: TensorInfo


def _storage(array: np.ndarray) -> np.ndarray:
    """The array that owns the memory of ``array`` (a view's base, its base, ...)."""
    while isinstance(array.base, np.ndarray):
        array = array.base
    return array


class LiveGraph:
    """Watches a library's ``register_node_created_hook`` and snapshots the live graph.

    Only weak references to nodes are kept.  ``dirty`` turns True when a node was
    recorded or a backward ended; :meth:`snapshot` draws every node still alive, rooted
    at those that no other live node consumes, and marks ``no_grad``/``detach``
    boundaries as cut edges.

    NOTE [cuts are noted at creation]: a cut is found through the saved tensors of a
    node with an input that gets no gradient (one that shares memory with another node's
    output).  A backward frees those saved tensors, so such nodes are noted when they are
    recorded (cheaply: a weak reference) and examined before the next backward begins or
    the next snapshot is taken, whichever comes first -- the marker outlives the backward.

    NOTE [a watcher does not outlive its owner]: the library's hooks hold the watcher
    only weakly (:func:`_weak_call`), and a finalizer removes them when the watcher is
    collected -- a forgotten ``viz.live()`` stops costing time per op once nothing
    refers to it.  Dead node references are compacted as they pile up, so a long
    session does not grow the lists.

    Parameters
    ----------
    library : module name, default ``"minigrad"``
    on_change : callable, optional
        Called (with no argument) after each recorded node or finished backward.
    show_constants : bool
        Draw inputs that get no gradient (see :func:`viz.capture.capture_graph`).
    """

    def __init__(self, library: str = "minigrad", on_change: Callable[[], None] | None = None,
                 show_constants: bool = True) -> None:
        graph = importlib.import_module(f"{library}.autograd.graph")
        self._nodes: list[weakref.ref] = []
        self._maybe_cut: list[weakref.ref] = []  # nodes with an input that gets no gradient
        self._cuts: list[_Cut] = []
        self._infos: dict[int, tuple[weakref.ref, tuple[Any, ...], TensorInfo]] = {}
        self._compact_at = 1024
        self.dirty: bool = False
        self.on_change = on_change
        self.show_constants = show_constants
        self._handles: list[Any] = [graph.register_node_created_hook(_weak_call(self._created))]
        observer = getattr(graph, "register_backward_observer", None)
        if observer is not None:
            self._handles.append(observer(_weak_call(self._event)))
        self._finalizer = weakref.finalize(self, _remove_handles, self._handles)

    @property
    def watching(self) -> bool:
        """True until :meth:`close`."""
        return bool(self._handles)

    def _created(self, node: Any) -> None:
        # Kept cheap: this runs for every operation while watching (NOTE [cuts are noted at creation]).
        self._nodes.append(weakref.ref(node))
        if len(self._nodes) >= self._compact_at:
            self.alive()
            self._compact_at = 2 * len(self._nodes) + 1024
        for child, _ in node.next_functions:
            if child is None:
                self._maybe_cut.append(weakref.ref(node))
                break
        self._changed()

    def _resolve_cuts(self) -> None:
        """Look for cuts among the nodes recorded since the last look (NOTE [cuts are noted at creation])."""
        pending = [node for node in (ref() for ref in self._maybe_cut) if node is not None]
        self._maybe_cut = []
        if not pending:
            return
        producers: dict[int, tuple[Any, int]] = {}  # id(storage) -> (node, output nr); later ones win
        for node in (ref() for ref in self._nodes):
            outputs = node.output_tensors() if node is not None and hasattr(node, "output_tensors") else ()
            for nr, tensor in enumerate(outputs):
                data = getattr(tensor, "_data", None)
                if isinstance(data, np.ndarray):
                    producers[id(_storage(data))] = (node, nr)
        for node in pending:
            self._note_cuts(node, producers)

    @staticmethod
    def _producer_of(data: np.ndarray, producers: dict[int, tuple[Any, int]]) -> Any:
        """The live node whose output shares memory with ``data``, or None."""
        node, nr = producers.get(id(_storage(data)), (None, 0))
        if node is None:
            return None
        outputs = node.output_tensors()
        out = outputs[nr] if nr < len(outputs) else None
        if out is None or not np.shares_memory(out._data, data):
            return None
        return node

    def _note_cuts(self, node: Any, producers: dict[int, tuple[Any, int]]) -> None:
        """See NOTE [cuts are noted at creation]."""
        pairs, _, _ = _read_saved(node)
        for key, value in pairs:
            data = getattr(value, "_data", None)
            if not _is_tensor(value) or value.requires_grad or not isinstance(data, np.ndarray):
                continue
            producer = self._producer_of(data, producers)
            if producer is not None and producer is not node:
                self._cuts.append(_Cut(weakref.ref(node), key, weakref.ref(producer), tensor_info(value)))

    def _event(self, event: Any) -> None:
        if event.kind == "begin":  # before this backward frees what the nodes saved
            self._resolve_cuts()
        elif event.kind in ("end", "error"):
            self._infos.clear()  # leaves' .grad changed
            self._changed()

    def _info(self, tensor: Any, name: str | None) -> TensorInfo:
        """``tensor_info`` remembered between snapshots while the tensor is unchanged.

        Formatting values is most of a snapshot's cost; a tensor's values change only with
        its version (in-place ops) and a leaf's ``.grad`` only in a backward (then the cache
        is emptied).  The weak reference tells a reused ``id`` from the same tensor.
        """
        grad = tensor.grad if tensor.requires_grad and (tensor.is_leaf or getattr(tensor, "retains_grad", False)) \
            else None  # read only where it exists (no warning), as tensor_info does
        key = (int(getattr(tensor, "_version", 0)), bool(tensor.requires_grad), name, id(grad),
               int(getattr(grad, "_version", 0)), bool(tensor.is_leaf), tuple(tensor.shape))
        # A saved tensor is unpacked into a new Tensor object at each read: minigrad's array
        # (``_data``, when there is one) is what stays the same.
        data = getattr(tensor, "_data", None)
        owner = data if isinstance(data, np.ndarray) else tensor
        cached = self._infos.get(id(owner))
        if cached is not None and cached[0]() is owner and cached[1] == key:
            return cached[2]
        info = tensor_info(tensor, name, MAX_VALUES)
        with contextlib.suppress(TypeError):  # a type without weak references: not cached
            self._infos[id(owner)] = (weakref.ref(owner), key, info)
        return info

    def _changed(self) -> None:
        self.dirty = True
        if self.on_change is not None:
            self.on_change()

    def alive(self) -> list[Any]:
        """The recorded nodes still alive, in creation order (dead references are dropped)."""
        self._nodes = [ref for ref in self._nodes if ref() is not None]
        self._maybe_cut = [ref for ref in self._maybe_cut if ref() is not None]
        self._infos = {k: v for k, v in self._infos.items() if v[0]() is not None}
        self._cuts = [cut for cut in self._cuts if cut.consumer() is not None and cut.producer() is not None]
        return [node for node in (ref() for ref in self._nodes) if node is not None]

    def snapshot(self, params: Any = None) -> GraphSnapshot | None:
        """The graph of all live recorded nodes, with cut edges; None when there is none."""
        self._resolve_cuts()
        nodes = self.alive()
        self.dirty = False
        if not nodes:
            return None
        consumed = {id(child) for node in nodes for child, _ in node.next_functions if child is not None}
        roots = [node for node in reversed(nodes) if id(node) not in consumed]
        capture = _capture(tuple(roots), params, "autograd", False, None, MAX_VALUES, self.show_constants,
                           self._info)
        return _add_cut_edges(capture, self._cuts)

    def close(self) -> None:
        """Stop watching (idempotent); what was recorded stays drawable."""
        _remove_handles(self._handles)


def _weak_call(method: Callable[..., None]) -> Callable[..., None]:
    """A hook calling ``method`` while its object lives, holding it only weakly."""
    ref = weakref.WeakMethod(method)

    def call(*args: Any) -> None:
        bound = ref()
        if bound is not None:
            bound(*args)
    return call


def _remove_handles(handles: list[Any]) -> None:
    for handle in handles:
        handle.remove()
    handles.clear()


def _add_cut_edges(capture: _Capture, cuts: list[_Cut]) -> GraphSnapshot:
    """Draw each cut: producer --✂ cut--> the detached tensor --key--> consumer.

    The detached tensor is a node of its own (a leaf that does not require grad);
    the dashed "cut" edge says where its memory came from.  When the capture already drew
    that input as a constant, that node becomes the detached tensor.
    """
    snapshot = capture.snapshot
    nodes, edges = list(snapshot.nodes), list(snapshot.edges)
    index = {node.id: i for i, node in enumerate(nodes)}
    for cut in cuts:
        consumer, producer = cut.consumer(), cut.producer()
        target = capture.node_ids.get(id(consumer))
        source = capture.node_ids.get(id(producer))
        if target is None or source is None:
            continue
        constant = capture.constants.get((target, cut.key))
        if constant is not None:
            i = index[constant]
            nodes[i] = replace(nodes[i], name="detached", roles=("constant", "no-grad", "cut"))
            edges.append(EdgeInfo(id=f"e{len(edges)}", source=source, target=constant, kind="cut",
                                  label="✂ cut"))
            continue
        cut_id = f"n{len(nodes)}"
        nodes.append(NodeInfo(id=cut_id, kind="tensor", name="detached", roles=("leaf", "no-grad", "cut"),
                              tensor=cut.info))
        edges.append(EdgeInfo(id=f"e{len(edges)}", source=source, target=cut_id, kind="cut", label="✂ cut"))
        edges.append(EdgeInfo(id=f"e{len(edges)}", source=cut_id, target=target, kind="dataflow",
                              label=cut.key))
    return replace(snapshot, nodes=tuple(nodes), edges=tuple(edges))
