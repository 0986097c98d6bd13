"""Names for tensors: ``params=`` / ``names=`` (a module, a mapping or pairs) -> ids and module paths."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..text import safe_name, safe_path
from .tensors import _is_tensor

__all__ = ["resolve_names"]


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
        name = safe_path(name)  # shown in boxes, titles and files: see viz.text
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
                    self.module_types.setdefault(safe_path(full), safe_name(type(sub).__name__))
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

