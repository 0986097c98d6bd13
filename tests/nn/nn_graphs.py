"""The grad_fn graph as nested data, for comparing minigrad's with PyTorch's (the nn test files share it)."""

from __future__ import annotations


def graph(tensor) -> list:
    """``[name, [inputs...]]`` from ``tensor.grad_fn`` (None: no node); a node met again is ``"@Name"``."""
    seen: set[int] = set()

    def walk(node):
        if node is None:
            return None
        if id(node) in seen:
            return "@" + type(node).__name__
        seen.add(id(node))
        return [type(node).__name__, [walk(f) for f, _ in node.next_functions]]

    return walk(tensor.grad_fn)
