"""Module tracing: which module's forward created which op node (``trace_modules``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..text import safe_name, safe_path
from .tensors import _is_tensor

__all__ = ["ModuleTrace", "trace_modules"]

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
        path = safe_path(path)
        trace.module_types[path] = safe_name(type(module).__name__)

        def hook(module: Any, args: Any, output: Any, path: str = path) -> None:
            _claim(trace, path, _flat_tensors(args), _flat_tensors(output))

        trace._handles.append(module.register_forward_hook(hook))
    return trace

