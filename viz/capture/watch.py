"""Watching a library as it records: :class:`LiveGraph` (weak references, cut edges) for ``viz.live``."""

from __future__ import annotations

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

    NOTE [cuts are noted at creation]: a cut is found through the saved tensors of the
    new node (an input with no gradient edge that shares memory with another node's
    output).  A backward frees those saved tensors, so cuts are noted when the node is
    recorded, not when the graph is drawn -- the marker outlives the backward.

    Parameters
    ----------
    library : module name, default ``"minigrad"``
    on_change : callable, optional
        Called (with no argument) after each recorded node or finished backward.
    """

    def __init__(self, library: str = "minigrad", on_change: Callable[[], None] | None = None) -> None:
        graph = importlib.import_module(f"{library}.autograd.graph")
        self._nodes: list[weakref.ref] = []
        self._producers: dict[int, tuple[weakref.ref, int]] = {}  # id(storage) -> (node, output nr)
        self._cuts: list[_Cut] = []
        self.dirty: bool = False
        self.on_change = on_change
        self._handles = [graph.register_node_created_hook(self._created)]
        observer = getattr(graph, "register_backward_observer", None)
        if observer is not None:
            self._handles.append(observer(self._event))

    @property
    def watching(self) -> bool:
        """True until :meth:`close`."""
        return bool(self._handles)

    def _created(self, node: Any) -> None:
        self._nodes.append(weakref.ref(node))
        self._note_cuts(node)
        outputs = node.output_tensors() if hasattr(node, "output_tensors") else ()
        for nr, tensor in enumerate(outputs):
            data = getattr(tensor, "_data", None)
            if isinstance(data, np.ndarray):
                self._producers[id(_storage(data))] = (weakref.ref(node), nr)
        self._changed()

    def _producer_of(self, data: np.ndarray) -> Any:
        """The live node whose output shares memory with ``data``, or None."""
        ref, nr = self._producers.get(id(_storage(data)), (None, 0))
        node = ref() if ref is not None else None
        if node is None:
            return None
        outputs = node.output_tensors()
        out = outputs[nr] if nr < len(outputs) else None
        if out is None or not np.shares_memory(out._data, data):  # the id was reused
            return None
        return node

    def _note_cuts(self, node: Any) -> None:
        """See NOTE [cuts are noted at creation]."""
        if all(child is not None for child, _ in node.next_functions):
            return
        pairs, _, _ = _read_saved(node)
        for key, value in pairs:
            data = getattr(value, "_data", None)
            if not _is_tensor(value) or value.requires_grad or not isinstance(data, np.ndarray):
                continue
            producer = self._producer_of(data)
            if producer is not None and producer is not node:
                self._cuts.append(_Cut(weakref.ref(node), key, weakref.ref(producer), tensor_info(value)))

    def _event(self, event: Any) -> None:
        if event.kind in ("end", "error"):
            self._changed()

    def _changed(self) -> None:
        self.dirty = True
        if self.on_change is not None:
            self.on_change()

    def alive(self) -> list[Any]:
        """The recorded nodes still alive, in creation order (dead references are dropped)."""
        self._nodes = [ref for ref in self._nodes if ref() is not None]
        self._producers = {k: v for k, v in self._producers.items() if v[0]() is not None}
        self._cuts = [cut for cut in self._cuts if cut.consumer() is not None and cut.producer() is not None]
        return [node for node in (ref() for ref in self._nodes) if node is not None]

    def snapshot(self, params: Any = None) -> GraphSnapshot | None:
        """The graph of all live recorded nodes, with cut edges; None when there is none."""
        nodes = self.alive()
        self.dirty = False
        if not nodes:
            return None
        consumed = {id(child) for node in nodes for child, _ in node.next_functions if child is not None}
        roots = [node for node in reversed(nodes) if id(node) not in consumed]
        capture = _capture(tuple(roots), params, "autograd", False, None, MAX_VALUES)
        return _add_cut_edges(capture, self._cuts)

    def close(self) -> None:
        """Stop watching (idempotent); what was recorded stays drawable."""
        for handle in self._handles:
            handle.remove()
        self._handles.clear()


def _add_cut_edges(capture: _Capture, cuts: list[_Cut]) -> GraphSnapshot:
    """Draw each cut: producer --✂ cut--> the detached tensor --key--> consumer.

    The detached tensor is a node of its own (a leaf that does not require grad);
    the dashed "cut" edge says where its memory came from.
    """
    snapshot = capture.snapshot
    nodes, edges = list(snapshot.nodes), list(snapshot.edges)
    for cut in cuts:
        consumer, producer = cut.consumer(), cut.producer()
        target = capture.node_ids.get(id(consumer))
        source = capture.node_ids.get(id(producer))
        if target is None or source is None:
            continue
        cut_id = f"n{len(nodes)}"
        nodes.append(NodeInfo(id=cut_id, kind="tensor", name="detached", roles=("leaf", "no-grad", "cut"),
                              tensor=cut.info))
        edges.append(EdgeInfo(id=f"e{len(edges)}", source=source, target=cut_id, kind="cut", label="✂ cut"))
        edges.append(EdgeInfo(id=f"e{len(edges)}", source=cut_id, target=target, kind="dataflow",
                              label=cut.key))
    return replace(snapshot, nodes=tuple(nodes), edges=tuple(edges))
