"""Walk a live autograd graph into a :class:`~viz.model.GraphSnapshot`, and record a real backward.

This is the only viz module that touches minigrad, and it does so by duck
typing on the autograd protocol of ``docs/architecture.md`` (``grad_fn``,
``next_functions``, ``variable``, ``_saved_*``, ``metadata``, node hooks), so
real PyTorch tensors work too.  minigrad's own extras are used when present:
``Node.output_tensors()`` (intermediate tensors in the dataflow view),
``Node.saved_tensors_released`` and
``autograd.graph.register_backward_observer`` (the engine's event log).

All graph walks are iterative.  Node ids ``"n0", "n1", ...`` follow a
depth-first pre-order from the roots, taking ``next_functions`` in order; saved
tensor nodes (``show_saved=True``) and unused parameters come after, so the ids
of the main graph never depend on those options.
"""

from __future__ import annotations

import importlib
import re
import weakref
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from .model import EdgeInfo, Event, GraphSnapshot, ModuleInfo, NodeInfo, Step, TensorInfo

__all__ = [
    "capture_graph",
    "record_backward",
    "BackwardRecorder",
    "ModuleTrace",
    "trace_modules",
    "format_values",
    "resolve_names",
    "tensor_info",
    "to_numpy",
]

VIEWS = ("autograd", "dataflow")

#: Tensors with at most this many elements show their values; larger ones a summary.
MAX_VALUES = 16

_BACKWARD_SUFFIX = re.compile(r"Backward\d*$")


# --------------------------------------------------------------------------
# Tensors -> numbers and text
# --------------------------------------------------------------------------


def _is_tensor(obj: Any) -> bool:
    return hasattr(obj, "grad_fn") and hasattr(obj, "requires_grad") and hasattr(obj, "shape")


def _is_node(obj: Any) -> bool:
    return hasattr(obj, "next_functions") and not _is_tensor(obj)


def to_numpy(tensor: Any) -> np.ndarray:
    """Return a numpy copy of a minigrad/PyTorch tensor (or array) without autograd.

    Examples
    --------
    >>> to_numpy(np.ones(2))
    array([1., 1.])
    """
    if tensor is None or isinstance(tensor, np.ndarray | np.generic | float | int):
        return np.array(tensor)
    value = tensor.detach() if hasattr(tensor, "detach") else tensor
    if hasattr(value, "cpu"):
        value = value.cpu()
    try:
        return np.array(value.numpy())
    except (TypeError, RuntimeError):  # e.g. torch.bfloat16 has no numpy dtype
        return np.array(value.float().numpy())


def _format_number(value: Any) -> str:
    return f"{value:.4g}"


def format_values(array: np.ndarray, max_values: int = MAX_VALUES) -> str:
    """Format a small array compactly, or summarise a large one.

    Parameters
    ----------
    array : ndarray
    max_values : int
        Arrays with more elements get ``min/mean/max/norm`` instead.

    Returns
    -------
    str
        May contain newlines (one per row of a matrix).

    Examples
    --------
    >>> format_values(np.array([[1.0, 2.0], [3.0, 4.5]]))
    '[[1, 2],\\n [3, 4.5]]'
    >>> format_values(np.arange(100.0))
    'min 0  mean 49.5\\nmax 99  norm 573'
    """
    array = np.asarray(array)
    if array.size <= max_values:
        if array.dtype.kind in "fc":
            return np.array2string(array, separator=", ", max_line_width=60,
                                   formatter={"float_kind": _format_number})
        return np.array2string(array, separator=", ", max_line_width=60)
    data = array.astype(np.float64)
    lo, mean, hi = (_format_number(f(data)) for f in (np.min, np.mean, np.max))
    norm = _format_number(np.linalg.norm(data.ravel()))
    return f"min {lo}  mean {mean}\nmax {hi}  norm {norm}"


def _dtype_name(dtype: Any) -> str:
    return str(dtype).rpartition(".")[2]


def tensor_info(tensor: Any, name: str | None = None, max_values: int = MAX_VALUES) -> TensorInfo:
    """Summarise a tensor: shape, dtype, flags, values and gradient status.

    ``.grad`` is read only where it exists (leaves and retained grads), so
    no warning is triggered, and a missing gradient is said, never shown as 0.

    Parameters
    ----------
    tensor : Tensor
        A minigrad or PyTorch tensor.
    name : str, optional
    max_values : int

    Returns
    -------
    TensorInfo
    """
    requires_grad = bool(tensor.requires_grad)
    is_leaf = bool(tensor.is_leaf)
    retains_grad = bool(getattr(tensor, "retains_grad", False))
    grad, status = None, "not required"
    if requires_grad and (is_leaf or retains_grad):
        value = tensor.grad
        status = "not computed yet" if value is None else "computed"
        grad = None if value is None else format_values(to_numpy(value), max_values)
    elif requires_grad:
        status = "not retained"
    return TensorInfo(
        shape=tuple(int(d) for d in tensor.shape),
        dtype=_dtype_name(tensor.dtype),
        requires_grad=requires_grad,
        is_leaf=is_leaf,
        retains_grad=retains_grad,
        version=int(getattr(tensor, "_version", 0)),
        values=format_values(to_numpy(tensor), max_values),
        grad=grad,
        grad_status=status,
        name=name,
    )


def _tensor_roles(tensor: Any, named_as_param: bool) -> tuple[str, ...]:
    roles = []
    if tensor.is_leaf:
        roles.append("leaf")
    if named_as_param:
        roles.append("param")
    if not tensor.requires_grad:
        roles.append("no-grad")
    if getattr(tensor, "retains_grad", False):
        roles.append("retains-grad")
    if not tensor.is_leaf and int(getattr(tensor, "_version", 0)) > 0:
        roles.append("modified")  # leaves change in place under no_grad (init, optimizer): normal
    return tuple(roles)


# --------------------------------------------------------------------------
# Names and modules
# --------------------------------------------------------------------------


@dataclass
class _Naming:
    """Names and module paths of known tensors, keyed by ``id`` (tensors kept alive)."""

    names: dict[int, str] = field(default_factory=dict)
    modules: dict[int, str] = field(default_factory=dict)
    params: set[int] = field(default_factory=set)
    module_types: dict[str, str] = field(default_factory=dict)
    ordered: list[tuple[str, Any]] = field(default_factory=list)
    #: id(grad_fn) -> [(name, tensor)] of named non-leaf tensors: their node shows the name.
    outputs: dict[int, list[tuple[str, Any]]] = field(default_factory=dict)

    def add_tensor(self, name: str, tensor: Any, is_param: bool = False) -> None:
        if not _is_tensor(tensor) or id(tensor) in self.names:
            return
        self.names[id(tensor)] = name
        self.ordered.append((name, tensor))
        if tensor.grad_fn is not None:
            self.outputs.setdefault(id(tensor.grad_fn), []).append((name, tensor))
        if is_param:
            self.params.add(id(tensor))
            module = name.rpartition(".")[0]
            if module:
                self.modules[id(tensor)] = module

    def add_module(self, prefix: str, module: Any) -> None:
        if hasattr(module, "named_modules"):
            for path, sub in module.named_modules():
                full = ".".join(p for p in (prefix, path) if p)
                if full:
                    self.module_types.setdefault(full, type(sub).__name__)
        for name, param in module.named_parameters():
            self.add_tensor(".".join(p for p in (prefix, name) if p), param, is_param=True)


def resolve_names(params: Any = None, names: Any = None) -> Any:
    """The one naming argument of ``params=`` and its alias ``names=`` (only one may be given).

    Examples
    --------
    >>> resolve_names(names={"x": 1})
    {'x': 1}
    """
    if params is not None and names is not None:
        raise TypeError("pass either params= or names= (the same thing), not both")
    return names if params is None else params


def _naming(params: Any) -> _Naming:
    """Collect names from a module, a ``{name: tensor or module}`` mapping or ``(name, tensor)`` pairs."""
    naming = _Naming()
    if params is None:
        return naming
    if hasattr(params, "named_parameters"):
        naming.add_module("", params)
        return naming
    items = params.items() if isinstance(params, Mapping) else params
    for name, value in items:
        if hasattr(value, "named_parameters"):
            naming.add_module(str(name), value)
        else:
            naming.add_tensor(str(name), value, is_param=False)
    return naming


@dataclass
class ModuleTrace:
    """Which module created which op node; filled by :func:`trace_modules`.

    Holds the traced nodes strongly (like the output tensors do), so ids stay valid.
    """

    node_modules: dict[int, str] = field(default_factory=dict)
    module_types: dict[str, str] = field(default_factory=dict)
    _nodes: list[Any] = field(default_factory=list, repr=False)
    _handles: list[Any] = field(default_factory=list, repr=False)

    def module_of(self, node: Any) -> str | None:
        """The innermost module path that created ``node``, or None."""
        return self.node_modules.get(id(node))

    def close(self) -> None:
        """Remove the forward hooks."""
        for handle in self._handles:
            handle.remove()
        self._handles.clear()

    def __enter__(self) -> ModuleTrace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _claim(trace: ModuleTrace, path: str, inputs: Iterable[Any], outputs: Iterable[Any]) -> None:
    """Assign to ``path`` every unclaimed node between the module's outputs and inputs.

    Inner modules finish (and claim) first; the outer module then walks through
    their nodes without re-assigning them, and stops at input grad_fns, leaves
    and nodes claimed by modules outside itself (earlier siblings).
    """
    boundary = {id(t.grad_fn) for t in inputs if _is_tensor(t) and t.grad_fn is not None}
    stack = [t.grad_fn for t in outputs if _is_tensor(t) and t.grad_fn is not None]
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen or id(node) in boundary or hasattr(node, "variable"):
            continue
        seen.add(id(node))
        owner = trace.node_modules.get(id(node))
        if owner is None:
            trace.node_modules[id(node)] = path
            trace._nodes.append(node)
        elif not (owner == path or owner.startswith(path + ".")):
            continue
        stack.extend(child for child, _ in node.next_functions)


def _flat_tensors(value: Any) -> list[Any]:
    """Tensors inside nested tuples/lists/dicts (module inputs and outputs), iteratively."""
    found, stack = [], [value]
    while stack:
        item = stack.pop()
        if _is_tensor(item):
            found.append(item)
        elif isinstance(item, list | tuple):
            stack.extend(item)
        elif isinstance(item, Mapping):
            stack.extend(item.values())
    return found


def trace_modules(model: Any) -> ModuleTrace:
    """Record which module each op node of the next forward passes belongs to.

    Uses only ``Module.register_forward_hook`` and ``named_modules()``, so it
    works for minigrad and PyTorch alike.  Use as a context manager and pass the
    trace to :func:`capture_graph` (``module_trace=``) or :func:`viz.draw`.

    Parameters
    ----------
    model : Module

    Returns
    -------
    ModuleTrace
    """
    trace = ModuleTrace()
    for path, module in model.named_modules():
        if not path:
            continue
        trace.module_types[path] = type(module).__name__

        def hook(module: Any, args: Any, output: Any, path: str = path) -> None:
            _claim(trace, path, _flat_tensors(args), _flat_tensors(output))

        trace._handles.append(module.register_forward_hook(hook))
    return trace


# --------------------------------------------------------------------------
# Saved tensors
# --------------------------------------------------------------------------

_SAVED_NAMES_CACHE: dict[type, tuple[str, ...]] = {}


def _saved_names(node: Any) -> tuple[str, ...]:
    """``_saved_*`` attribute names of a node (cached per class).

    Plain class attributes (not descriptors) with that prefix are bookkeeping,
    not saved values, and are skipped.
    """
    cls = type(node)
    if cls not in _SAVED_NAMES_CACHE:
        names = []
        for attr in dir(node):
            if not attr.startswith("_saved_"):
                continue
            class_value = getattr(cls, attr, None)
            if class_value is not None and not hasattr(class_value, "__get__"):
                continue
            names.append(attr)
        _SAVED_NAMES_CACHE[cls] = tuple(names)
    return _SAVED_NAMES_CACHE[cls]


def _read_saved(node: Any) -> tuple[list[tuple[str, Any]], str | None, str]:
    """Read a node's saved values: ``(pairs, problem, message)``.

    ``problem`` is ``"freed"`` after a backward released the buffers, ``"stale"``
    if a saved tensor was modified in place, else None.
    """
    if getattr(node, "saved_tensors_released", False):
        return [], "freed", ""
    pairs = []
    for attr in _saved_names(node):
        try:
            pairs.append((attr[len("_saved_"):], getattr(node, attr)))
        except RuntimeError as exc:
            message = str(exc)
            return pairs, ("stale" if "inplace" in message else "freed"), message
    return pairs, None, ""


def _value_text(value: Any) -> str:
    if isinstance(value, float):
        return _format_number(value)
    return str(value)


# --------------------------------------------------------------------------
# The walk
# --------------------------------------------------------------------------


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
                 max_values: int) -> None:
        self.naming, self.trace = naming, trace
        self.show_saved, self.max_values = show_saved, max_values
        self.out = _Builder()
        self.node_ids: dict[int, str] = {}     # id(autograd node) -> snapshot id
        self.tensor_ids: dict[int, str] = {}   # id(tensor) -> snapshot id
        self.keep: list[Any] = []
        self.saved: list[tuple[str, list[tuple[str, Any]]]] = []

    # -- pieces -------------------------------------------------------------------
    def tensor_node(self, tensor: Any, extra_roles: tuple[str, ...] = ()) -> str:
        if id(tensor) in self.tensor_ids:
            return self.tensor_ids[id(tensor)]
        name = self.naming.names.get(id(tensor))
        is_param = id(tensor) in self.naming.params
        roles = (*_tensor_roles(tensor, is_param), *extra_roles)  # "root" styles last, so it wins
        node_id = self.out.add_node(
            kind="tensor", name=name or "tensor", roles=roles,
            tensor=tensor_info(tensor, name, self.max_values),
            module=self.naming.modules.get(id(tensor)))
        self.tensor_ids[id(tensor)] = node_id
        self.keep.append(tensor)
        return node_id

    def fn_roles_and_attrs(self, node: Any) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...], str]:
        pairs, problem, message = _read_saved(node)
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
        return tensor_info(named[0][1], ", ".join(name for name, _ in named), self.max_values)

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
                tensor=tensor_info(variable, name, self.max_values),
                module=self.naming.modules.get(id(variable)))
            self.tensor_ids.setdefault(id(variable), node_id)
        else:
            roles, attrs, message = self.fn_roles_and_attrs(node)
            node_id = self.out.add_node(
                kind="fn", name=type(node).__name__, roles=(("root",) if is_root else ()) + roles,
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
            kind="op", name=_BACKWARD_SUFFIX.sub("", type(node).__name__) or type(node).__name__,
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
                        tensor=tensor_info(tensor, name, self.max_values),
                        module=self.out.nodes[int(owner[1:])].module)
                    self.out.add_edge(saved_id, owner, "saved")  # its title names it

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
        root_ids = []
        for root in roots:
            key = id(root) if _is_tensor(root) else None
            root_ids.append(self.tensor_ids[key] if key is not None else self.node_ids[id(root)])
        return _Capture(
            snapshot=GraphSnapshot(
                nodes=tuple(self.out.nodes), edges=tuple(self.out.edges), roots=tuple(root_ids),
                view=view, modules=self.modules()),
            node_ids=self.node_ids, keep=self.keep + [t for _, t in self.naming.ordered])

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
             module_trace: ModuleTrace | None, max_values: int) -> _Capture:
    if view not in VIEWS:
        raise ValueError(f"view must be one of {VIEWS}, got {view!r}")
    walker = _Walker(_naming(params), module_trace, show_saved, max_values)
    return walker.run(_root_list(roots), view)


def capture_graph(*roots: Any, params: Any = None, view: str = "autograd", show_saved: bool = False,
                  module_trace: ModuleTrace | None = None, max_values: int = MAX_VALUES,
                  names: Any = None) -> GraphSnapshot:
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

    Returns
    -------
    GraphSnapshot

    Examples
    --------
    >>> import minigrad as torch
    >>> x = torch.tensor([1., 2.], requires_grad=True)
    >>> snap = capture_graph((x * 2).sum(), params={"x": x})
    >>> [(n.id, n.name) for n in snap.nodes]
    [('n0', 'tensor'), ('n1', 'SumBackward0'), ('n2', 'MulBackward0'), ('n3', 'AccumulateGrad')]
    >>> snap.node("n3").tensor.grad_text
    'grad: not computed yet'
    """
    params = resolve_names(params, names)
    return _capture(roots, params, view, show_saved, module_trace, max_values).snapshot


# --------------------------------------------------------------------------
# Recording a backward pass
# --------------------------------------------------------------------------


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
        self.node_ids, self.nodes = node_ids, nodes
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
                index=len(self.steps), node_id=node_id, name=event.name,
                grad_outputs=_copies(event.grad_outputs or ()),
                grad_inputs=_copies(event.grad_inputs or ()),
                grad_before=None if event.grad_before is None else np.array(event.grad_before),
                grad_after=None if event.grad_after is None else np.array(event.grad_after),
                events=tuple(self._pending_events)))
            self._pending_events = []
            return
        if event.kind in ("begin", "end", "error"):
            return
        recorded = Event(kind=event.kind, node_id=node_id, name=event.name, detail=event.detail,
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
            node_id, name = self.node_ids[id(node)], type(node).__name__
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
            name = type(node).__name__
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
                self._attach(Event("release", self.node_ids[id(node)], type(node).__name__))

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


def record_backward(root: Any, gradient: Any = None, retain_graph: bool | None = None,
                    create_graph: bool = False, inputs: Any = None, *, params: Any = None,
                    show_saved: bool = False,
                    module_trace: ModuleTrace | None = None) -> tuple[GraphSnapshot, list[Step]]:
    """Capture the graph of ``root``, then run its real ``backward`` step by step.

    The snapshot is taken first (so it shows gradients "not computed yet"),
    then ``root.backward(gradient, retain_graph, create_graph, inputs)`` runs
    unchanged while every executed node is recorded.

    Parameters
    ----------
    root : Tensor
    gradient, retain_graph, create_graph, inputs
        Passed to ``root.backward`` as they are.
    params, show_saved, module_trace
        As for :func:`capture_graph`.

    Returns
    -------
    snapshot : GraphSnapshot
    steps : list of Step
        In execution order; ``steps[i].node_id`` refers to ``snapshot``.

    Raises
    ------
    RuntimeError
        Whatever the backward raises (a root that does not require grad, a
        non-scalar root without ``gradient``, a graph already freed), with the
        library's own message.
    """
    capture = _capture((root,), params, "autograd", show_saved, module_trace, MAX_VALUES)
    recorder = BackwardRecorder(root, capture.node_ids, capture.keep)
    with recorder:
        root.backward(gradient, retain_graph=retain_graph, create_graph=create_graph,
                      inputs=inputs)
    return capture.snapshot, recorder.steps


# --------------------------------------------------------------------------
# --- live capture (widget support) ---
# Appended for the interactive side (issue 6: viz.stepper, viz.widget).  Everything
# below only adds functions; the code above is unchanged.  It lives here because
# capture.py is the only viz module allowed to touch minigrad.
# --------------------------------------------------------------------------


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


def record_backward_pass(roots: Any, gradient: Any = None, retain_graph: bool | None = None,
                         create_graph: bool = False, inputs: Any = None, *,
                         params: Any = None) -> BackwardPass:
    """Capture the graph of ``roots``, run their real backward, and record every step.

    Unlike :func:`record_backward`, an error does not propagate: it is returned in
    :attr:`BackwardPass.error` together with the steps executed before it, so the
    stepper can show it.  Several roots run as one ``autograd.backward(roots, ...)``.

    Parameters
    ----------
    roots : Tensor or sequence of Tensor
    gradient : Tensor or sequence, optional
        ``gradient`` (one root) or ``grad_tensors`` (several).
    retain_graph, create_graph, inputs
        As for ``backward``.
    params : optional
        Names for tensors, as for :func:`capture_graph`.

    Returns
    -------
    BackwardPass
    """
    root_list = list(roots) if isinstance(roots, list | tuple) else [roots]
    capture = _capture(tuple(root_list), params, "autograd", False, None, MAX_VALUES)
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
    except Exception as exc:  # shown by the stepper; step_backward re-raises it by default
        error = exc
    steps, born = recorder.steps, {}
    if create_graph and error is None:
        capture, steps, born = _with_derivative_graph(capture, root_list, params, steps, created)
    released = tuple(dict.fromkeys(
        ev.node_id for step in steps for ev in step.events if ev.kind == "release" and ev.node_id))
    return BackwardPass(snapshot=capture.snapshot, steps=steps, error=error, released=released,
                        seeds=_seed_gradients(root_list, gradient), born=born,
                        refs=_refs_for(capture, root_list), saved=saved, freed_before=freed_before)


def _with_derivative_graph(before: _Capture, roots: list[Any], params: Any, steps: list[Step],
                           created: list[tuple[Any, int]]) -> tuple[_Capture, list[Step], dict[str, int]]:
    """Re-capture after a ``create_graph=True`` backward so the derivative graph is drawn too.

    The forward part keeps its ids (the roots are walked first, in the same order); the
    derivative nodes (reached from the leaves' new ``.grad``) get ids after them.
    """
    leaves = [n.variable for n in before.keep if hasattr(n, "variable")]
    grads = [leaf.grad for leaf in leaves if getattr(leaf, "grad", None) is not None]
    extra = [g for g in grads if getattr(g, "grad_fn", None) is not None]
    after = _capture(tuple(roots + extra), params, "autograd", False, None, MAX_VALUES)
    rename = {before.node_ids[key]: after.node_ids[key] for key in before.node_ids if key in after.node_ids}
    steps = [replace(step, node_id=rename.get(step.node_id, step.node_id) if step.node_id else None,
                     events=tuple(replace(ev, node_id=rename.get(ev.node_id, ev.node_id))
                                  for ev in step.events))
             for step in steps]
    born = {after.node_ids[id(node)]: index for node, index in created if id(node) in after.node_ids}
    return after, steps, born


def describe_object(obj: Any) -> list[tuple[str, str]]:
    """Rows ``(label, text)`` describing a live node or tensor, for the inspect panel.

    A tensor shows its shape, dtype, values, ``.grad`` and version; a node its class,
    its saved tensors (or that they were freed), and for ``AccumulateGrad`` the leaf.

    Parameters
    ----------
    obj : Tensor, Node or None

    Returns
    -------
    list of (str, str)
    """
    if obj is None:
        return [("status", "no longer alive (collected)")]
    if _is_tensor(obj):
        info = tensor_info(obj)
        return [("tensor", info.shape_text), ("data", info.values), ("grad", info.grad_text[len("grad: "):]),
                ("requires_grad", str(info.requires_grad)), ("is_leaf", str(info.is_leaf)),
                ("version", str(info.version))]
    rows = [("node", type(obj).__name__)]
    variable = getattr(obj, "variable", None)
    if variable is not None:
        rows += [(f"variable {k}", v) for k, v in describe_object(variable)[:4]]
        return rows
    pairs, problem, message = _read_saved(obj)
    if problem == "freed":
        rows.append(("saved tensors", "freed by backward() (retain_graph=False)"))
    elif problem == "stale":
        rows.append(("saved tensors", message))
    for key, value in pairs:
        text = format_values(to_numpy(value)) if _is_tensor(value) else _value_text(value)
        rows.append((f"saved {key}", text))
    outputs = obj.output_tensors() if hasattr(obj, "output_tensors") else ()
    for nr, tensor in enumerate(outputs):
        if tensor is not None:
            rows.append((f"output {nr}", format_values(to_numpy(tensor))))
    return rows


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
        self.dirty = False
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
