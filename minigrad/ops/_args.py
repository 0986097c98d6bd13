"""How the Tensor methods read their arguments: numpy's ``axis=``/``keepdims=``, PyTorch's argument errors.

``numpy_names`` is applied, visibly, at each method's definition in ``_tensor_ops.py`` (and to ``torch.max``
and ``torch.min``); nothing is rewrapped at import time.  The other helpers word an error as PyTorch's
argument parser does, for the method front ends in ``ops/_arith.py``, ``_logic.py``, ``_reductions.py``,
``_shapes.py``, ``_indexing.py`` and ``_writes.py``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from .. import _checks, _tensor  # _tensor is still loading: use `_tensor.Tensor` at call time

_F = TypeVar("_F", bound=Callable[..., Any])
_C = TypeVar("_C", bound=type)


def numpy_names(method: _F) -> _F:
    """Also accept numpy's ``axis=`` and ``keepdims=`` for ``dim=`` and ``keepdim=``, as PyTorch's parser does.

    Keyword arguments are also where PyTorch's parser words its errors differently (``got (dim=str, )``):
    the checks in ``_KEYWORD_CHECKS`` run here, only when keywords are given."""
    check = _KEYWORD_CHECKS.get(method.__name__)

    @functools.wraps(method)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if kwargs:
            for numpy_name, name in (("axis", "dim"), ("keepdims", "keepdim")):
                if numpy_name in kwargs:
                    if name in kwargs:
                        raise TypeError("%s() got an unexpected keyword argument '%s'" % (method.__name__, numpy_name))
                    kwargs[name] = kwargs.pop(numpy_name)
            if check is not None:
                check(method.__name__, args[1:], kwargs)
        return method(*args, **kwargs)
    return wrapper  # type: ignore[return-value]  # the same signature, plus numpy's names


def pytorch_qualnames(python_in_torch: set[str], public_only: bool = False) -> Callable[[_C], _C]:
    """A class decorator: name the class's methods in argument errors as PyTorch's parser does.

    Python names a method in its argument errors by ``__qualname__``; PyTorch says ``flatten() got an
    unexpected keyword argument 'start'`` (its methods written in Python, ``python_in_torch``, say
    ``Tensor.unique()``).  ``public_only``: leave ``_private`` methods alone.  Only the qualified names
    change; the methods stay the objects defined."""
    def rename(cls: _C) -> _C:
        for name, method in list(vars(cls).items()):
            fn = getattr(method, "__wrapped__", method)
            if getattr(fn, "__qualname__", None) == cls.__name__ + "." + name and not (
                    public_only and name.startswith("_")):
                qualname = ("Tensor." if name in python_in_torch else "") + name
                fn.__qualname__ = qualname
                if method is not fn:
                    method.__qualname__ = qualname
        return cls
    return rename


def is_number(value: Any) -> bool:
    """A Python or numpy number (or array): what an op takes where PyTorch's signature says ``Number``."""
    return isinstance(value, (bool, int, float, np.number, np.bool_, np.ndarray))


def is_tensor(value: Any) -> bool:
    return isinstance(value, _tensor.Tensor)


SUM_SIGNATURES = ("*, torch.dtype dtype = None",
                  "tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None")
SQUEEZE_SIGNATURES = ("", "int dim", "tuple of ints dim")
CLAMP_SIGNATURES = ("Tensor min = None, Tensor max = None", "Number min = None, Number max = None")
VAR_SIGNATURES = ("tuple of ints dim, bool unbiased = True, bool keepdim = False",
                  "tuple of ints dim = None, *, Number correction = None, bool keepdim = False",
                  "bool unbiased = True")
MASK_BAD = "arguments have invalid types: (Tensor, !%s!)"


def _sum_keywords(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    dim = kwargs.get("dim")
    if not set(kwargs) <= {"dim", "keepdim", "dtype"} or (
            dim is not None and not _checks.is_int(dim) and not isinstance(dim, (tuple, list))):
        raise TypeError(_checks.invalid_args(name, args, kwargs, SUM_SIGNATURES))


def _squeeze_keywords(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    unknown = [k for k in kwargs if k != "dim"]
    if unknown:
        raise TypeError(_checks.invalid_args(name, args, kwargs, SQUEEZE_SIGNATURES,
                                             ("keywords were incorrect: " + ", ".join(unknown),) * 3))


def _clamp_keywords(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    values = list(args) + list(kwargs.values())
    if any(v is not None and not is_tensor(v) and not is_number(v) for v in values):
        raise TypeError(_checks.invalid_args(name, args, kwargs, CLAMP_SIGNATURES))


_KEYWORD_CHECKS = {"sum": _sum_keywords, "mean": _sum_keywords, "squeeze": _squeeze_keywords,
                   "clamp": _clamp_keywords, "clamp_": _clamp_keywords}


def clamp_args(min: Any, max: Any, name: str = "clamp") -> None:
    """``clamp``'s bounds given positionally (the keyword forms are checked by ``numpy_names``)."""
    for v in (min, max):
        if v is not None and not is_tensor(v) and not is_number(v):
            given = (min,) if max is None else (min, max)
            notes = (_checks.bad_types(given),) * 2 if len(given) == 2 else None
            raise TypeError(_checks.invalid_args(name, given, {}, CLAMP_SIGNATURES, notes))


def reduce_dims(name: str, dim: Any) -> None:
    """``sum``/``mean``'s ``dim``: None, an int or a sequence of ints."""
    if dim is None or type(dim) is int:
        return
    if isinstance(dim, (tuple, list)):
        _checks.int_list(dim, name, "dim")
    elif not _checks.is_int(dim):
        raise TypeError(_checks.invalid_args(name, (dim,), {}, SUM_SIGNATURES))


def correction(unbiased: Any, correction: Any, name: str = "var", dim: Any = None) -> Any:
    """``var``/``std``'s ``unbiased=`` or ``correction=`` (not both) as one correction."""
    if correction is not None:
        if unbiased is not None:
            raise TypeError(_checks.invalid_args(name, () if dim is None else (dim,),
                                                 {"unbiased": unbiased, "correction": correction}, VAR_SIGNATURES,
                                                 ("keywords were incorrect: correction, unbiased", None, None)))
        return correction
    return 0 if unbiased is False else 1


def check_step(item: slice) -> None:
    if item.step is not None and item.step <= 0:
        raise ValueError("slice step cannot be zero" if item.step == 0 else "step must be greater than zero")


def shape_arg(shape: tuple[Any, ...], fn: str, name: str) -> tuple[Any, ...]:
    return _checks.int_varargs(shape, fn, name)


def c_type(d: Any) -> str:
    """A dtype as ATen's C++ scalar type: ``float``, ``double``, ``long int``."""
    return {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int", "int32": "int",
            "bool": "bool", "uint8": "unsigned char"}.get(d.name, d.name)
