"""What a backward node saved: the ``_saved_*`` attributes, read without side effects."""

from __future__ import annotations

from typing import Any

from .tensors import _format_number

__all__: list[str] = []


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
