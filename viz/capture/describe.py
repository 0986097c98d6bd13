"""Describe a live node or tensor for the inspector (the click round trip)."""

from __future__ import annotations

from typing import Any

from .saved import _read_saved, _value_text
from .tensors import _is_tensor, format_values, tensor_info, to_numpy

__all__ = ["describe_object"]


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

