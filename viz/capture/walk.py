"""The walk: roots -> :class:`~viz.model.GraphSnapshot` (``capture_graph``), in both views.

All graph walks are iterative.  Node ids ``"n0", "n1", ...`` follow a
depth-first pre-order from the roots, taking ``next_functions`` in order; saved
tensor nodes (``show_saved=True``) and unused parameters come after, so the ids
of the main graph never depend on those options.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..model import EdgeInfo, GraphSnapshot, ModuleInfo, NodeInfo, TensorInfo
from ..text import safe_name
from .modules import ModuleTrace
from .naming import _Naming, _naming, resolve_names
from .saved import _read_saved, _value_text
from .tensors import MAX_VALUES, _is_node, _is_tensor, _tensor_roles, tensor_info

__all__ = ["VIEWS", "capture_graph"]

VIEWS = ("autograd", "dataflow")

_BACKWARD_SUFFIX = re.compile(r"Backward\d*$")


class _Builder:
    """Accumulates nodes and edges; hands out ids ``n<k>`` / ``e<k>`` in order."""

    def __init__(self) -> None:
        self.nodes: list[NodeInfo] = []
        self.edges: list[EdgeInfo] = []

    def next_id(self) -> str:
        return f"n{len(self.nodes)}"

    def add_node(self, **kwargs: Any) -> str:
        node_id = self.next_id()
        self.nodes.append(NodeInfo(id=node_id, **kwargs))
        return node_id

    def add_edge(self, source: str, target: str, kind: str, **kwargs: Any) -> None:
        self.edges.append(EdgeInfo(id=f"e{len(self.edges)}", source=source, target=target,
                                   kind=kind, **kwargs))


@dataclass
class _Capture:
    """A snapshot plus the live mapping ``id(node) -> node id`` (valid while ``keep`` lives)."""

    snapshot: GraphSnapshot
    node_ids: dict[int, str]
    keep: list[Any]
    #: (consumer's snapshot id, saved name) -> id of the constant node drawn for that input.
    constants: dict[tuple[str, str], str] = field(default_factory=dict)


def _walk_order(starts: list[Any]) -> list[Any]:
    """All nodes reachable from ``starts``: iterative depth-first pre-order."""
    order, seen = [], set()
    stack = list(reversed(starts))
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        order.append(node)
        stack.extend(child for child, _ in reversed(node.next_functions))
    return order


def _root_list(roots: tuple[Any, ...]) -> list[Any]:
    flat: list[Any] = []
    for root in roots:
        if isinstance(root, list | tuple):
            flat.extend(root)
        else:
            flat.append(root)
    if not flat:
        raise ValueError("capture_graph needs at least one tensor or grad_fn node")
    for root in flat:
        if not (_is_tensor(root) or _is_node(root)):
            raise TypeError(f"expected a tensor or an autograd node, got {type(root).__name__}")
    return flat


class _Walker:
    """Builds one snapshot from roots; shared by both views."""

    def __init__(self, naming: _Naming, trace: ModuleTrace | None, show_saved: bool,
                 max_values: int, show_constants: bool = True,
                 info: Callable[[Any, str | None], TensorInfo] | None = None) -> None:
        self.naming, self.trace = naming, trace
        self.show_saved, self.max_values = show_saved, max_values
        self.out = _Builder()
        self.node_ids: dict[int, str] = {}     # id(autograd node) -> snapshot id
        self.tensor_ids: dict[int, str] = {}   # id(tensor) -> snapshot id
        self.keep: list[Any] = []
        self.saved: list[tuple[str, list[tuple[str, Any]]]] = []
        self.show_constants = show_constants
        self.constants: dict[tuple[str, str], str] = {}
        #: tensor, name -> TensorInfo (the live graph passes a cache: NOTE [a live cell stays fast])
        self.info = info or (lambda tensor, name: tensor_info(tensor, name, max_values))
        self._saved: dict[int, list[tuple[str, Any]]] = {}

    # -- pieces -------------------------------------------------------------------
    def tensor_node(self, tensor: Any, extra_roles: tuple[str, ...] = ()) -> str:
        if id(tensor) in self.tensor_ids:
            return self.tensor_ids[id(tensor)]
        name = self.naming.names.get(id(tensor))
        is_param = id(tensor) in self.naming.params
        roles = (*_tensor_roles(tensor, is_param), *extra_roles)  # "root" styles last, so it wins
        node_id = self.out.add_node(
            kind="tensor", name=name or "tensor", roles=roles,
            tensor=self.info(tensor, name),
            module=self.naming.modules.get(id(tensor)))
        self.tensor_ids[id(tensor)] = node_id
        self.keep.append(tensor)
        return node_id

    def fn_roles_and_attrs(self, node: Any) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...], str]:
        pairs, problem, message = _read_saved(node)
        self._saved[id(node)] = pairs
        roles: list[str] = [problem] if problem else []
        metadata = getattr(node, "metadata", None) or {}
        if metadata.get("differentiates") is not None:
            roles.append("derivative")
        attrs: list[tuple[str, str]] = []
        tensors: list[tuple[str, Any]] = []
        if self.show_saved:
            for key, value in pairs:
                if _is_tensor(value) or (isinstance(value, list | tuple) and value
                                         and all(_is_tensor(v) for v in value)):
                    tensors.append((key, value))
                elif value is not None:
                    attrs.append((key, _value_text(value)))
            if problem == "freed":
                attrs.append(("buffers", "freed"))
        if tensors:
            self.saved.append((self.out.next_id(), tensors))
        return tuple(roles), tuple(attrs), message

    def named_output(self, node: Any) -> TensorInfo | None:
        """The named tensor(s) whose ``grad_fn`` is ``node`` and that are not drawn themselves
        (an intermediate ``h`` named in ``params``): the node then says ``h.grad_fn``."""
        named = [(name, tensor) for name, tensor in self.naming.outputs.get(id(node), ())
                 if id(tensor) not in self.tensor_ids]
        if not named:
            return None
        return self.info(named[0][1], ", ".join(name for name, _ in named))

    def module_of(self, node: Any) -> str | None:
        return self.trace.module_of(node) if self.trace is not None else None

    # -- views --------------------------------------------------------------------
    def autograd(self, roots: list[Any]) -> None:
        for root in roots:
            if _is_tensor(root):
                root_id = self.tensor_node(root, ("root",))
                start = root.grad_fn
            else:
                root_id, start = None, root
            for node in _walk_order([start]):
                if id(node) not in self.node_ids:
                    self.autograd_node(node, is_root=root_id is None and node is start)
            if root_id is not None and start is not None:
                self.out.add_edge(self.node_ids[id(start)], root_id, "output")

    def autograd_node(self, node: Any, is_root: bool) -> None:
        if hasattr(node, "variable"):
            variable = node.variable
            name = self.naming.names.get(id(variable))
            is_param = id(variable) in self.naming.params
            node_id = self.out.add_node(
                kind="acc", name=type(node).__name__,
                roles=_tensor_roles(variable, is_param),
                tensor=self.info(variable, name),
                module=self.naming.modules.get(id(variable)))
            self.tensor_ids.setdefault(id(variable), node_id)
        else:
            roles, attrs, message = self.fn_roles_and_attrs(node)
            node_id = self.out.add_node(
                kind="fn", name=safe_name(type(node).__name__), roles=(("root",) if is_root else ()) + roles,
                tensor=self.named_output(node), module=self.module_of(node), attrs=attrs,
                detail=message)
        self.node_ids[id(node)] = node_id
        self.keep.append(node)
        self.pending_next.append(node)

    def dataflow(self, roots: list[Any]) -> None:
        for root in roots:
            start = root.grad_fn if _is_tensor(root) else root
            if _is_tensor(root):
                self.tensor_node(root, ("root",))
            for node in _walk_order([start]):
                if id(node) not in self.node_ids:
                    self.dataflow_node(node)
            if _is_tensor(root) and start is not None:
                self.dataflow_output_edge(start, root)

    def dataflow_node(self, node: Any) -> None:
        if hasattr(node, "variable"):
            self.node_ids[id(node)] = self.tensor_node(node.variable)
            self.keep.append(node)
            return
        roles, attrs, message = self.fn_roles_and_attrs(node)
        outputs = node.output_tensors() if hasattr(node, "output_tensors") else ()
        op_id = self.out.add_node(
            kind="op", name=safe_name(_BACKWARD_SUFFIX.sub("", type(node).__name__) or type(node).__name__),
            roles=roles, tensor=None if outputs else self.named_output(node),
            module=self.module_of(node), attrs=attrs, detail=message)
        self.node_ids[id(node)] = op_id
        self.keep.append(node)
        self.pending_next.append(node)
        self.outputs[id(node)] = []
        for tensor in outputs:
            if tensor is None:
                self.outputs[id(node)].append(None)
                continue
            self.outputs[id(node)].append(self.tensor_node(tensor))
            self.out.add_edge(op_id, self.tensor_ids[id(tensor)], "dataflow")

    def dataflow_output_edge(self, node: Any, root: Any) -> None:
        if self.tensor_ids[id(root)] not in self.outputs.get(id(node), ()):
            self.out.add_edge(self.node_ids[id(node)], self.tensor_ids[id(root)], "dataflow")

    # -- edges after ids --------------------------------------------------------------
    def next_edges(self, view: str) -> None:
        """Add one edge per ``next_functions`` entry, in walk order (ids are all known now)."""
        for node in self.pending_next:
            target = self.node_ids[id(node)]
            for slot, (child, input_nr) in enumerate(node.next_functions):
                if child is None:
                    continue
                if view == "autograd":
                    self.out.add_edge(self.node_ids[id(child)], target, "next",
                                      slot=slot, input_nr=int(input_nr))
                    continue
                outputs = self.outputs.get(id(child), [])
                source = outputs[input_nr] if input_nr < len(outputs) else None
                self.out.add_edge(source or self.node_ids[id(child)], target, "dataflow",
                                  slot=slot, input_nr=int(input_nr))

    def derivative_edges(self) -> None:
        """Dashed links from nodes built during backward to the forward node they differentiate."""
        for node in self.pending_next:
            ref = (getattr(node, "metadata", None) or {}).get("differentiates")
            forward = ref() if isinstance(ref, weakref.ref) else ref
            forward_id = self.node_ids.get(forward if isinstance(forward, int) else id(forward))
            if forward is not None and forward_id is not None:
                self.out.add_edge(self.node_ids[id(node)], forward_id, "differentiates")

    def unused_params(self) -> None:
        """Named parameters that the graph never reached (frozen or unused) stand alone."""
        for _name, tensor in self.naming.ordered:
            if id(tensor) in self.naming.params and id(tensor) not in self.tensor_ids:
                self.tensor_node(tensor, ("frozen",) if not tensor.requires_grad else ("unused",))

    def saved_nodes(self, view: str) -> None:
        """One node per saved tensor, dotted to its owner; in the dataflow view a
        saved tensor that is already drawn (an input) is linked instead of repeated."""
        for owner, tensors in self.saved:
            for key, value in tensors:
                for i, tensor in enumerate(value if isinstance(value, list | tuple) else [value]):
                    label = key if not isinstance(value, list | tuple) else f"{key}[{i}]"
                    if view == "dataflow" and id(tensor) in self.tensor_ids:
                        self.out.add_edge(self.tensor_ids[id(tensor)], owner, "saved", label=label)
                        continue
                    name = self.naming.names.get(id(tensor))
                    roles = tuple(r for r in _tensor_roles(tensor, False) if r == "modified")
                    saved_id = self.out.add_node(
                        kind="saved", name=label, roles=roles,
                        tensor=self.info(tensor, name),
                        module=self.out.nodes[int(owner[1:])].module)
                    self.out.add_edge(saved_id, owner, "saved")  # its title names it

    def constant_nodes(self) -> None:
        """A small grey input for every ``next_functions`` entry that is ``None``.

        Such an input gets no gradient: a constant (a Python number is wrapped as one), a
        tensor that does not require grad, or a ``detach()``-ed one.  Without it, ``x + w``
        with a constant ``x`` would look like a one-input operation.  Its value shows when the
        node saved it (``_saved_other`` of ``h * h.detach()``); one tensor used by several
        nodes is drawn once.
        """
        drawn: dict[int, str] = {}
        for node in self.pending_next:
            slots = [slot for slot, (child, _) in enumerate(node.next_functions) if child is None]
            if not slots:
                continue
            owner = self.node_ids[id(node)]
            saved = dict(self._saved[id(node)] if id(node) in self._saved else _read_saved(node)[0])
            for slot in slots:
                key, value = _input_value(node, slot, saved)
                if _is_tensor(value) and id(value) in self.tensor_ids:
                    const_id = self.tensor_ids[id(value)]   # already drawn (e.g. a named root)
                elif _is_tensor(value) and id(value) in drawn:
                    const_id = drawn[id(value)]
                else:
                    const_id = self.constant_node(value, owner)
                    if _is_tensor(value):
                        drawn[id(value)] = const_id
                if key is not None:
                    self.constants[(owner, key)] = const_id
                self.out.add_edge(const_id, owner, "input", slot=slot, label=key or "")

    def constant_node(self, value: Any, owner: str) -> str:
        module = None  # an input of the module, not part of it (fold_repeats compares modules)
        if _is_tensor(value):
            name = self.naming.names.get(id(value))
            self.keep.append(value)
            return self.out.add_node(kind="tensor", name=name or "constant", roles=("constant",),
                                     tensor=self.info(value, name), module=module)
        if isinstance(value, int | float | complex) and not isinstance(value, bool):
            text = _value_text(value)
            info = TensorInfo(shape=(), dtype=type(value).__name__, requires_grad=False,
                              values=text, grad_status="not required")
            return self.out.add_node(kind="tensor", name="constant", roles=("constant",), tensor=info,
                                     module=module)
        return self.out.add_node(kind="tensor", name="constant", roles=("constant",), module=module,
                                 detail="an input that gets no gradient (its value was not saved)")

    def run(self, roots: list[Any], view: str) -> _Capture:
        self.pending_next: list[Any] = []
        self.outputs: dict[int, list[str | None]] = {}
        if view == "autograd":
            self.autograd(roots)
        else:
            self.dataflow(roots)
        self.next_edges(view)
        self.derivative_edges()
        self.unused_params()
        self.saved_nodes(view)
        if self.show_constants:
            self.constant_nodes()
        root_ids = []
        for root in roots:
            key = id(root) if _is_tensor(root) else None
            root_ids.append(self.tensor_ids[key] if key is not None else self.node_ids[id(root)])
        return _Capture(
            snapshot=GraphSnapshot(
                nodes=tuple(self.out.nodes), edges=tuple(self.out.edges), roots=tuple(root_ids),
                view=view, modules=self.modules()),
            node_ids=self.node_ids, keep=self.keep + [t for _, t in self.naming.ordered],
            constants=self.constants)

    def modules(self) -> tuple[ModuleInfo, ...]:
        """Every module owning a node, plus its ancestors (for nested clusters)."""
        types = dict(self.naming.module_types)
        if self.trace is not None:
            types.update(self.trace.module_types)
        paths: set[str] = set()
        for node in self.out.nodes:
            parts = node.module.split(".") if node.module else []
            paths.update(".".join(parts[:k]) for k in range(1, len(parts) + 1))
        return tuple(ModuleInfo(p, types.get(p, "")) for p in sorted(paths))


def _capture(roots: tuple[Any, ...], params: Any, view: str, show_saved: bool,
             module_trace: ModuleTrace | None, max_values: int, show_constants: bool = True,
             info: Callable[[Any, str | None], TensorInfo] | None = None) -> _Capture:
    if view not in VIEWS:
        raise ValueError(f"view must be one of {VIEWS}, got {view!r}")
    walker = _Walker(_naming(params), module_trace, show_saved, max_values, show_constants, info)
    return walker.run(_root_list(roots), view)


def capture_graph(*roots: Any, params: Any = None, view: str = "autograd", show_saved: bool = False,
                  module_trace: ModuleTrace | None = None, max_values: int = MAX_VALUES,
                  names: Any = None, show_constants: bool = True) -> GraphSnapshot:
    """Capture the autograd graph behind ``roots`` as plain data.

    Parameters
    ----------
    *roots : Tensor or Node
        Output tensors (or ``grad_fn`` nodes) whose graph to capture; lists
        and tuples of them are accepted too.
    params : Module, mapping or iterable of pairs, optional
        Names for tensors: a module (anything with ``named_parameters()``), a
        ``{name: tensor or module}`` mapping, or ``(name, tensor)`` pairs.  Any
        tensor may be named: a root or leaf shows the name in its box, an
        intermediate ``h`` on its node (``h.grad_fn``).  Module parameters also
        give module clusters; named parameters that the graph does not reach
        (frozen ones) are shown on their own.
    view : {"autograd", "dataflow"}
        ``"autograd"``: the backward graph of ``grad_fn`` / ``next_functions`` /
        ``AccumulateGrad`` nodes.  ``"dataflow"``: tensors and operations in
        forward direction.
    show_saved : bool
        Also capture the tensors and values saved for backward.
    module_trace : ModuleTrace, optional
        From :func:`trace_modules`, to place op nodes in module clusters.
    max_values : int
        Tensors up to this many elements show their values.
    names : optional
        An alias of ``params`` (give one of them).
    show_constants : bool
        Also capture the inputs that get no gradient (the ``None`` entries of
        ``next_functions``: constants, tensors that do not require grad, detached
        tensors) as ``"constant"`` tensor nodes with ``"input"`` edges, after all others.

    Returns
    -------
    GraphSnapshot

    Examples
    --------
    >>> import minigrad as torch
    >>> x = torch.tensor([1., 2.], requires_grad=True)
    >>> snap = capture_graph((x * 2).sum(), params={"x": x})
    >>> [(n.id, n.name) for n in snap.nodes]
    [('n0', 'tensor'), ('n1', 'SumBackward0'), ('n2', 'MulBackward0'), ('n3', 'AccumulateGrad'), ('n4', 'constant')]
    >>> snap.node("n4").tensor.values  # the 2, saved by MulBackward0 as `other`
    '2'
    >>> snap.node("n3").tensor.grad_text
    'grad: not computed yet'
    """
    params = resolve_names(params, names)
    return _capture(roots, params, view, show_saved, module_trace, max_values, show_constants).snapshot



#: Names PyTorch gives the inputs of an op, by position (derivatives.yaml): where a node
#: saved an input that gets no gradient, it is under one of these.
_INPUT_NAMES = (("self", "input"), ("other", "mat2", "weight", "vec", "tensor", "exponent", "end"),
                ("bias", "weight", "tensor2", "end", "value"))


def _input_value(node: Any, slot: int, saved: dict[str, Any]) -> tuple[str | None, Any]:
    """``(saved name, value)`` of the input behind ``next_functions[slot]``, if the node saved it.

    The rule's own input names are used when the library publishes them
    (``autograd.derivative_formula(node).inputs``), else PyTorch's usual names by position.
    """
    names: tuple[str, ...] = _INPUT_NAMES[slot] if slot < len(_INPUT_NAMES) else ()
    formula = _formula_inputs(node)
    if formula is not None and slot < len(formula) and formula[slot]:
        names = (formula[slot],)
    for name in names:
        value = saved.get(name)
        if value is None:
            continue
        if _is_tensor(value) and not value.requires_grad:
            return name, value
        if isinstance(value, int | float | complex) and not isinstance(value, bool):
            return name, value
    return None, None


_FORMULA_API: dict[str, Any] = {}


def _formula_inputs(node: Any) -> tuple[str, ...] | None:
    """``derivative_formula(node).inputs`` of the node's library, when it has that API."""
    package = type(node).__module__.partition(".")[0]
    if package not in _FORMULA_API:
        try:
            import importlib

            _FORMULA_API[package] = getattr(importlib.import_module(f"{package}.autograd"),
                                            "derivative_formula", None)
        except ImportError:
            _FORMULA_API[package] = None
    api = _FORMULA_API[package]
    if api is None:
        return None
    try:
        formula = api(node)
    except Exception:  # a formula API that cannot describe this node: fall back to the names
        return None
    return tuple(getattr(formula, "inputs", ()) or ()) if formula is not None else None
