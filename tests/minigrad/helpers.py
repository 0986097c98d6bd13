"""Small helpers shared by the minigrad tests; each works on minigrad and torch tensors alike."""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np


def leaves(module: Any, arrays) -> tuple:
    """float64 leaves requiring grad, one per array (``module`` is minigrad or torch)."""
    return tuple(module.tensor(a, dtype=module.float64, requires_grad=True) for a in arrays)


def as_tuple(value) -> tuple:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


def to_numpy(t) -> np.ndarray | None:
    return None if t is None else np.array(t.detach().numpy(), copy=True)


def graph_structure(roots, inputs=()) -> list[tuple]:
    """The graph behind ``roots`` in a form two libraries can be compared by.

    One entry per node reachable from the roots' ``grad_fn``, in breadth-first order:
    ``(name, ((index of the next node in this list, or None, input_nr), ...), leaf)`` where
    ``leaf`` is, for an ``AccumulateGrad``, the position of its ``variable`` in ``inputs``.
    Shared nodes appear once, so fan-in and fan-out are part of the comparison.
    """
    order: list[Any] = []  # keeps the nodes alive while their ids are used
    index: dict[int, int] = {}
    queue: deque = deque()
    for root in roots:
        node = getattr(root, "grad_fn", None)
        if node is not None and id(node) not in index:
            index[id(node)] = len(index)
            order.append(node)
            queue.append(node)
    entries = []
    while queue:
        node = queue.popleft()
        edges = []
        for next_node, nr in node.next_functions:
            if next_node is None:
                edges.append((None, nr))
                continue
            if id(next_node) not in index:
                index[id(next_node)] = len(index)
                order.append(next_node)
                queue.append(next_node)
            edges.append((index[id(next_node)], nr))
        variable = getattr(node, "variable", None)
        leaf = (
            next((i for i, t in enumerate(inputs) if t is variable), "other")
            if variable is not None
            else None
        )
        entries.append((node.name(), tuple(edges), leaf))
    return entries


def saved_names(node) -> list[str]:
    """The ``_saved_<name>`` attributes of a node (what torchviz reads)."""
    return sorted(n for n in dir(node) if n.startswith("_saved_"))
