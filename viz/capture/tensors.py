"""Tensors -> numbers and text: ``to_numpy``, ``format_values``, ``tensor_info`` and the role flags.

Duck typing on the tensor protocol (``grad_fn``, ``requires_grad``, ``shape``), so
minigrad and PyTorch tensors both work.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..model import TensorInfo

__all__ = ["MAX_VALUES", "to_numpy", "format_values", "tensor_info"]

#: Tensors with at most this many elements show their values; larger ones a summary.
MAX_VALUES = 16



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

