"""Plain data describing a captured autograd graph and a recorded backward pass.

Nothing here imports minigrad, torch or graphviz: :mod:`viz.capture` fills these
frozen dataclasses, :mod:`viz.render` draws them, and the widget sends
:meth:`GraphSnapshot.to_dict` / :meth:`Step.to_dict` to the browser as JSON.

Node ids are ``"n0", "n1", ...`` in the deterministic iterative walk order of
:func:`viz.capture.capture_graph`; edge ids are ``"e0", "e1", ...``.  Both become
the ``id`` attributes of the SVG elements, so Python, SVG and JavaScript agree.

NOTE [edge direction]: every :class:`EdgeInfo` points in the *forward* (data)
direction: ``source`` produced the value that ``target`` consumed.  For an
autograd ``next_functions`` edge that means ``source`` is the entry of
``target.next_functions[slot]``; the gradient travels the other way, from
``target`` to ``source``.  The renderer draws arrows the same way torchviz does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

import numpy as np

__all__ = [
    "NODE_KINDS",
    "EDGE_KINDS",
    "TensorInfo",
    "NodeInfo",
    "EdgeInfo",
    "ModuleInfo",
    "FoldInfo",
    "GraphSnapshot",
    "Event",
    "Step",
    "collapse_modules",
    "fold_repeats",
]

#: Node kinds: backward function, leaf accumulator, tensor value, forward
#: operation (dataflow view), saved tensor, collapsed module box.
NODE_KINDS = ("fn", "acc", "tensor", "op", "saved", "module")

#: Edge kinds: ``next_functions`` link, grad_fn -> root tensor, saved tensor,
#: derivative node -> forward node it differentiates, forward dataflow, and a
#: ``detach()`` cut (live graph: where a detached input's memory came from), and an
#: ``input`` that gets no gradient (a constant or a tensor that does not require grad:
#: the ``None`` entries of ``next_functions``).
EDGE_KINDS = ("next", "output", "saved", "differentiates", "dataflow", "cut", "input")

#: What ``TensorInfo.grad_status`` can say; never a silent zero.
GRAD_STATUSES = ("computed", "not computed yet", "not retained", "not required")


@dataclass(frozen=True)
class TensorInfo:
    """A summary of one tensor, taken when the graph was captured.

    Parameters
    ----------
    shape : tuple of int
        The tensor's shape.
    dtype : str
        The dtype without the library prefix, e.g. ``"float32"``.
    requires_grad, is_leaf, retains_grad : bool
        The autograd flags of the tensor.
    version : int
        The in-place version counter (``tensor._version``).
    values : str
        The values of a small tensor, compactly formatted, or a
        ``min/mean/max/norm`` summary of a large one.
    grad : str or None
        The formatted ``.grad`` when ``grad_status == "computed"``.
    grad_status : str
        One of ``"computed"``, ``"not computed yet"``, ``"not retained"``
        (a non-leaf without ``retain_grad()``), ``"not required"``.
    name : str or None
        A user-facing name (parameter name, variable name), if known.

    Examples
    --------
    >>> info = TensorInfo(shape=(2,), dtype="float32", values="[1, 2]")
    >>> info.grad_text
    'grad: not computed yet'
    """

    shape: tuple[int, ...]
    dtype: str
    requires_grad: bool = False
    is_leaf: bool = True
    retains_grad: bool = False
    version: int = 0
    values: str = ""
    grad: str | None = None
    grad_status: str = "not computed yet"
    name: str | None = None

    @property
    def shape_text(self) -> str:
        """``"(2, 3) float32"``: shape and dtype on one line."""
        dims = ", ".join(str(d) for d in self.shape)
        if len(self.shape) == 1:
            dims += ","
        return f"({dims}) {self.dtype}"

    @property
    def grad_text(self) -> str:
        """The gradient line, saying explicitly when there is none yet."""
        if self.grad_status == "computed":
            return f"grad: {self.grad}"
        return f"grad: {self.grad_status}"

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-able dict."""
        return {
            "shape": list(self.shape),
            "dtype": self.dtype,
            "requires_grad": self.requires_grad,
            "is_leaf": self.is_leaf,
            "retains_grad": self.retains_grad,
            "version": self.version,
            "values": self.values,
            "grad": self.grad,
            "grad_status": self.grad_status,
            "name": self.name,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TensorInfo:
        """Inverse of :meth:`to_dict`."""
        return cls(**{**data, "shape": tuple(data["shape"])})


@dataclass(frozen=True)
class NodeInfo:
    """One node of the drawn graph.

    Parameters
    ----------
    id : str
        ``"n0"``, ``"n1"``, ... (the DOT and SVG id).
    kind : str
        One of :data:`NODE_KINDS`.
    name : str
        The title: the class name for autograd nodes (``"MulBackward0"``,
        ``"AccumulateGrad"``), the op name in the dataflow view (``"Mul"``),
        a tensor's name, or a module path.
    tensor : TensorInfo or None
        The tensor this node stands for (root/leaf/intermediate tensors,
        ``AccumulateGrad.variable``, saved tensors).
    roles : tuple of str
        State flags that become CSS classes, e.g. ``("leaf", "param")``,
        ``("root",)``, ``("freed",)``, ``("derivative",)``, ``("frozen",)``.
    module : str or None
        Dotted path of the module the node belongs to (for clusters).
    attrs : tuple of (str, str)
        Non-tensor saved values, e.g. ``(("dim", "0"),)``; only when captured
        with ``show_saved=True``.
    members : tuple of str
        The ids of the nodes it stands for: for a collapsed module box its nodes, for
        a node of a folded loop body (role ``"repeated"``) the same node in every
        iteration, its own id first.
    detail : str
        Extra text, e.g. the error message of a stale saved tensor.
    """

    id: str
    kind: str
    name: str
    tensor: TensorInfo | None = None
    roles: tuple[str, ...] = ()
    module: str | None = None
    attrs: tuple[tuple[str, str], ...] = ()
    members: tuple[str, ...] = ()
    detail: str = ""

    @property
    def css_class(self) -> str:
        """Space-separated classes for SVG/HTML: the kind, then the roles."""
        return " ".join((self.kind, *self.roles))

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-able dict."""
        return {
            "id": self.id,
            "kind": self.kind,
            "name": self.name,
            "tensor": None if self.tensor is None else self.tensor.to_dict(),
            "roles": list(self.roles),
            "module": self.module,
            "attrs": [list(pair) for pair in self.attrs],
            "members": list(self.members),
            "detail": self.detail,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> NodeInfo:
        """Inverse of :meth:`to_dict`."""
        tensor = data.get("tensor")
        return cls(
            id=data["id"],
            kind=data["kind"],
            name=data["name"],
            tensor=None if tensor is None else TensorInfo.from_dict(tensor),
            roles=tuple(data.get("roles", ())),
            module=data.get("module"),
            attrs=tuple(tuple(pair) for pair in data.get("attrs", ())),  # type: ignore[misc]
            members=tuple(data.get("members", ())),
            detail=data.get("detail", ""),
        )


@dataclass(frozen=True)
class EdgeInfo:
    """One edge, pointing in the forward direction (see NOTE [edge direction]).

    Parameters
    ----------
    id : str
        ``"e0"``, ``"e1"``, ... (the DOT and SVG id).
    source, target : str
        Node ids.
    kind : str
        One of :data:`EDGE_KINDS`.
    slot : int or None
        For ``"next"`` edges, the index in ``target.next_functions``; that is
        the position of the gradient in the target's ``grad_inputs``.
    input_nr : int or None
        For ``"next"`` edges, the ``input_nr`` of the ``next_functions`` entry:
        which output of ``source`` the gradient is for.
    label : str
        Optional text on the edge (e.g. the saved attribute's name).
    count : int
        How many real edges this one stands for (a folded loop: one edge from a shared
        ``w`` into every iteration is drawn once, "×300").
    back : bool
        A folded loop's hand-over: from one iteration into the next, drawn back into
        the loop body (see :mod:`viz.fold`).
    """

    id: str
    source: str
    target: str
    kind: str = "next"
    slot: int | None = None
    input_nr: int | None = None
    label: str = ""
    count: int = 1
    back: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-able dict."""
        return {
            "id": self.id,
            "source": self.source,
            "target": self.target,
            "kind": self.kind,
            "slot": self.slot,
            "input_nr": self.input_nr,
            "label": self.label,
            "count": self.count,
            "back": self.back,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EdgeInfo:
        """Inverse of :meth:`to_dict`."""
        return cls(**data)


@dataclass(frozen=True)
class ModuleInfo:
    """A module that owns nodes: its dotted ``path`` and class ``type_name``."""

    path: str
    type_name: str = ""

    @property
    def depth(self) -> int:
        """Nesting level: ``"encoder"`` is 1, ``"encoder.0.fc"`` is 3."""
        return len(self.path.split("."))

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-able dict."""
        return {"path": self.path, "type_name": self.type_name}


@dataclass(frozen=True)
class FoldInfo:
    """A folded loop (:func:`viz.fold.fold_loops`): its body is drawn once for ``count`` iterations.

    Parameters
    ----------
    id : str
        ``"f0"``, ``"f1"``, ... (the SVG cluster id).
    nodes : tuple of str
        The ids of the body's nodes as drawn; each one's ``members`` lists the ids it
        stands for, one per iteration.
    count : int
        How many iterations were folded.
    label : str
        The caption, e.g. ``"loop body ×300"``.
    """

    id: str
    nodes: tuple[str, ...]
    count: int
    label: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-able dict."""
        return {"id": self.id, "nodes": list(self.nodes), "count": self.count, "label": self.label}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FoldInfo:
        """Inverse of :meth:`to_dict`."""
        return cls(id=data["id"], nodes=tuple(data["nodes"]), count=int(data["count"]),
                   label=data.get("label", ""))


@dataclass(frozen=True)
class GraphSnapshot:
    """A captured graph: nodes and edges in walk order, plus its roots.

    Parameters
    ----------
    nodes : tuple of NodeInfo
        In walk order (ids ``n0, n1, ...``).
    edges : tuple of EdgeInfo
        In walk order (ids ``e0, e1, ...``).
    roots : tuple of str
        Ids of the nodes standing for the roots passed to the capture.
    view : str
        ``"autograd"`` or ``"dataflow"``.
    modules : tuple of ModuleInfo
        Modules that own at least one node, sorted by path.
    folds : tuple of FoldInfo
        Folded loops (empty unless :func:`viz.fold.fold_loops` ran).
    notes : tuple of str
        What was done to make the picture fit (folds, budgets), for a caption.

    Examples
    --------
    >>> snap = GraphSnapshot(
    ...     nodes=(NodeInfo("n0", "fn", "AddBackward0"),
    ...            NodeInfo("n1", "acc", "AccumulateGrad")),
    ...     edges=(EdgeInfo("e0", "n1", "n0", slot=0, input_nr=0),),
    ...     roots=("n0",))
    >>> snap.node("n1").name
    'AccumulateGrad'
    >>> GraphSnapshot.from_dict(snap.to_dict()) == snap
    True
    """

    nodes: tuple[NodeInfo, ...]
    edges: tuple[EdgeInfo, ...]
    roots: tuple[str, ...] = ()
    view: str = "autograd"
    modules: tuple[ModuleInfo, ...] = field(default=())
    folds: tuple[FoldInfo, ...] = field(default=())
    notes: tuple[str, ...] = field(default=())

    @cached_property
    def _by_id(self) -> dict[str, NodeInfo]:
        return {node.id: node for node in self.nodes}

    def node(self, node_id: str) -> NodeInfo:
        """Return the node with id ``node_id`` (KeyError if absent)."""
        return self._by_id[node_id]

    def edges_into(self, node_id: str) -> list[EdgeInfo]:
        """Edges whose target is ``node_id`` (its inputs), in slot order."""
        return [edge for edge in self.edges if edge.target == node_id]

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-able dict (for the widget and for tests)."""
        return {
            "nodes": [node.to_dict() for node in self.nodes],
            "edges": [edge.to_dict() for edge in self.edges],
            "roots": list(self.roots),
            "view": self.view,
            "modules": [module.to_dict() for module in self.modules],
            "folds": [fold.to_dict() for fold in self.folds],
            "notes": list(self.notes),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GraphSnapshot:
        """Inverse of :meth:`to_dict`."""
        return cls(
            nodes=tuple(NodeInfo.from_dict(n) for n in data["nodes"]),
            edges=tuple(EdgeInfo.from_dict(e) for e in data["edges"]),
            roots=tuple(data.get("roots", ())),
            view=data.get("view", "autograd"),
            modules=tuple(ModuleInfo(**m) for m in data.get("modules", ())),
            folds=tuple(FoldInfo.from_dict(f) for f in data.get("folds", ())),
            notes=tuple(data.get("notes", ())),
        )


# --------------------------------------------------------------------------
# Backward recording
# --------------------------------------------------------------------------

Grads = tuple[np.ndarray | None, ...] | None


def _grads_to_list(grads: Grads) -> list[Any] | None:
    if grads is None:
        return None
    return [None if g is None else np.asarray(g).tolist() for g in grads]


@dataclass(frozen=True, eq=False)
class Event:
    """Something the engine reported around a step (a hook ran, buffers freed...).

    Parameters
    ----------
    kind : str
        The engine event kind, e.g. ``"tensor_hook"``, ``"retain_grad"``,
        ``"pre_hook"``, ``"post_accumulate_hook"``, ``"node_hook"``,
        ``"release"``.
    node_id : str or None
        The snapshot id of the node concerned.
    name : str
        The node's class name.
    detail : str
        Short human-readable text (hook name, error message...).
    grads : tuple of ndarray or None
        Gradients attached to the event (e.g. after a tensor hook ran).
    """

    kind: str
    node_id: str | None = None
    name: str = ""
    detail: str = ""
    grads: Grads = None

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-able dict (arrays become nested lists)."""
        return {
            "kind": self.kind,
            "node_id": self.node_id,
            "name": self.name,
            "detail": self.detail,
            "grads": _grads_to_list(self.grads),
        }


@dataclass(frozen=True, eq=False)
class Step:
    """One executed node of a real backward pass.

    Parameters
    ----------
    index : int
        Position in execution order, from 0.
    node_id : str or None
        The snapshot id of the executed node (None if it was not captured).
    name : str
        The node's class name, e.g. ``"MulBackward0"`` or ``"AccumulateGrad"``.
    grad_outputs : tuple of (ndarray or None)
        The gradients that arrived at the node.
    grad_inputs : tuple of (ndarray or None)
        The gradients it sent on, one per ``next_functions`` entry.
    grad_before, grad_after : ndarray or None
        ``AccumulateGrad`` only: the leaf's ``.grad`` before and after.
    events : tuple of Event
        Hooks that fired around this step, in order; ``"release"`` events of
        the whole pass are attached to the last step.
    chain_rule : tuple of (str or None)
        One line per gradient sent, with the learner's names and numbers
        (``∂L/∂d = ∂L/∂L · f = 1 · (−2) = −2``), None where nothing is sent;
        filled in by the stepper (:mod:`viz.chain`).
    """

    index: int
    node_id: str | None
    name: str
    grad_outputs: Grads = ()
    grad_inputs: Grads = ()
    grad_before: np.ndarray | None = None
    grad_after: np.ndarray | None = None
    events: tuple[Event, ...] = ()
    chain_rule: tuple[str | None, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-able dict (arrays become nested lists)."""
        return {
            "index": self.index,
            "node_id": self.node_id,
            "name": self.name,
            "grad_outputs": _grads_to_list(self.grad_outputs),
            "grad_inputs": _grads_to_list(self.grad_inputs),
            "grad_before": None if self.grad_before is None else self.grad_before.tolist(),
            "grad_after": None if self.grad_after is None else self.grad_after.tolist(),
            "events": [event.to_dict() for event in self.events],
            "chain_rule": list(self.chain_rule),
        }


# --------------------------------------------------------------------------
# Transformations for big graphs (pure functions on snapshots)
# --------------------------------------------------------------------------


def _module_prefix(path: str, depth: int) -> str:
    return ".".join(path.split(".")[:depth])


def _merge(snapshot: GraphSnapshot,
           groups: Mapping[str, tuple[str, str, str | None]]) -> GraphSnapshot:
    """Replace grouped nodes by one box per group.

    ``groups`` maps a node id to ``(box_key, box_title, box_module)``.  Each box takes the
    smallest id (walk order) of its members, so ids stay ``n<k>`` and unique.
    Edges are redirected to the boxes; edges inside a box and duplicates vanish.
    """
    members: dict[str, list[str]] = {}
    titles: dict[str, tuple[str, str | None]] = {}
    for node in snapshot.nodes:
        if node.id in groups:
            key, title, module = groups[node.id]
            members.setdefault(key, []).append(node.id)
            titles[key] = (title, module)
    box_id = {key: ids[0] for key, ids in members.items()}
    where = {nid: box_id[groups[nid][0]] for nid in groups}
    nodes: list[NodeInfo] = []
    for node in snapshot.nodes:
        if node.id not in groups:
            nodes.append(node)
        elif where[node.id] == node.id:
            key = groups[node.id][0]
            title, module = titles[key]
            nodes.append(NodeInfo(
                id=node.id, kind="module", name=title, roles=("collapsed",), module=module,
                members=tuple(members[key]), detail=f"{len(members[key])} nodes"))
    edges: list[EdgeInfo] = []
    seen: set[tuple[str, str, str]] = set()
    for edge in snapshot.edges:
        source, target = where.get(edge.source, edge.source), where.get(edge.target, edge.target)
        if edge.source in where or edge.target in where:
            if source == target or (source, target, edge.kind) in seen:
                continue
            seen.add((source, target, edge.kind))
            edge = replace(edge, source=source, target=target, slot=None, input_nr=None)
        edges.append(edge)
    return replace(snapshot, nodes=tuple(nodes), edges=tuple(edges),
                   roots=tuple(where.get(r, r) for r in snapshot.roots))


def collapse_modules(snapshot: GraphSnapshot, depth: int) -> GraphSnapshot:
    """Collapse every module nested deeper than ``depth`` into one box.

    Modules at nesting level ``depth + 1`` become a single ``"module"`` node
    (standing for themselves and their descendants); shallower modules stay
    clusters.  ``depth=0`` collapses every top-level module.

    Parameters
    ----------
    snapshot : GraphSnapshot
    depth : int

    Returns
    -------
    GraphSnapshot

    Examples
    --------
    >>> snap = GraphSnapshot(
    ...     nodes=(NodeInfo("n0", "fn", "AddBackward0"),
    ...            NodeInfo("n1", "acc", "AccumulateGrad", module="enc.fc"),
    ...            NodeInfo("n2", "acc", "AccumulateGrad", module="enc.fc")),
    ...     edges=(EdgeInfo("e0", "n1", "n0", slot=0, input_nr=0),
    ...            EdgeInfo("e1", "n2", "n0", slot=1, input_nr=0)),
    ...     modules=(ModuleInfo("enc"), ModuleInfo("enc.fc", "Linear")))
    >>> small = collapse_modules(snap, depth=1)
    >>> [(n.id, n.kind, n.name) for n in small.nodes]
    [('n0', 'fn', 'AddBackward0'), ('n1', 'module', 'enc.fc (Linear)')]
    >>> [(e.source, e.target) for e in small.edges]
    [('n1', 'n0')]
    """
    types = {m.path: m.type_name for m in snapshot.modules}
    groups: dict[str, tuple[str, str, str | None]] = {}
    for node in snapshot.nodes:
        if node.module and len(node.module.split(".")) > depth:
            key = _module_prefix(node.module, depth + 1)
            title = f"{key} ({types[key]})" if types.get(key) else key
            groups[node.id] = (key, title, _module_prefix(key, depth) or None)
    merged = _merge(snapshot, groups)
    kept = tuple(m for m in snapshot.modules if m.depth <= depth)
    return replace(merged, modules=kept)


def _module_signature(snapshot: GraphSnapshot, path: str) -> tuple[Any, ...]:
    """Names and internal edges of a module's nodes, independent of ids."""
    inside = [n for n in snapshot.nodes if _inside(n.module, path)]
    index = {n.id: i for i, n in enumerate(inside)}
    names = tuple((n.kind, n.name, n.tensor.shape if n.tensor else None) for n in inside)
    links = tuple(sorted((index[e.source], index[e.target], e.kind) for e in snapshot.edges
                         if e.source in index and e.target in index))
    return names, links


def fold_repeats(snapshot: GraphSnapshot) -> GraphSnapshot:
    """Fold runs of sibling modules with identical structure.

    Among the children of one module (e.g. ``layers.0 ... layers.5`` of a
    stack), the first of each group of identical blocks stays expanded and the
    other identical blocks become one box ``"layers.1 … layers.5 (×5, same as
    layers.0)"``.

    Parameters
    ----------
    snapshot : GraphSnapshot

    Returns
    -------
    GraphSnapshot
    """
    by_parent: dict[str, list[str]] = {}
    for module in snapshot.modules:
        parent = module.path.rpartition(".")[0]
        by_parent.setdefault(parent, []).append(module.path)
    groups: dict[str, tuple[str, str, str | None]] = {}
    hidden: list[str] = []
    for parent, siblings in by_parent.items():
        buckets: dict[tuple[Any, ...], list[str]] = {}
        for path in siblings:
            buckets.setdefault(_module_signature(snapshot, path), []).append(path)
        for paths in buckets.values():
            if len(paths) < 2 or not _module_signature(snapshot, paths[0])[0]:
                continue
            folded = paths[1:]
            hidden += folded
            title = f"{folded[0]} … {folded[-1]} (×{len(folded)}, same as {paths[0]})"
            if len(folded) == 1:
                title = f"{folded[0]} (same as {paths[0]})"
            for node in snapshot.nodes:
                if any(_inside(node.module, p) for p in folded):
                    groups[node.id] = ("fold:" + folded[0], title, parent or None)
    merged = _merge(snapshot, groups)
    return replace(merged, modules=tuple(
        m for m in snapshot.modules if not any(_inside(m.path, h) for h in hidden)))


def _inside(module: str | None, path: str) -> bool:
    """True if ``module`` is ``path`` or nested in it."""
    return module is not None and (module == path or module.startswith(path + "."))


def iter_roles(nodes: Iterable[NodeInfo]) -> list[str]:
    """All (kind, role) classes used by ``nodes``, in first-seen order (for legends)."""
    seen: dict[str, None] = {}
    for node in nodes:
        seen.setdefault(node.kind)
        for role in node.roles:
            seen.setdefault(role)
    return list(seen)
