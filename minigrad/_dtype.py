"""dtype objects (``minigrad.float32`` …) and PyTorch's type-promotion rules."""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

__all__ = ["dtype", "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool",
           "get_default_dtype", "set_default_dtype", "result_type", "promote_types", "memory_format",
           "contiguous_format", "preserve_format", "channels_last"]


class memory_format:
    """``torch.memory_format``: how ``clone``/``contiguous`` lay a copy out in memory.

    ``contiguous_format`` is row-major; ``preserve_format`` (``clone``'s default) keeps the source's
    order of strides; ``channels_last`` stores a 4-d NCHW tensor as NHWC.
    """

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return "torch." + self.name

    def __reduce__(self) -> str:
        return self.name                # pickles as the module-level object


contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last")


class dtype:
    """A tensor element type; prints like PyTorch's (``torch.float32``)."""

    __slots__ = ("name", "numpy", "is_floating_point", "is_signed", "itemsize", "_category", "_legacy")

    name: str
    numpy: np.dtype[Any]
    itemsize: builtins.int
    is_floating_point: builtins.bool
    is_signed: builtins.bool

    def __init__(self, name: str, numpy_dtype: Any, category: builtins.int, legacy: str) -> None:
        self.name = name
        self.numpy = np.dtype(numpy_dtype)
        self.itemsize = self.numpy.itemsize
        self._category = category            # 0 bool, 1 integer, 2 floating point
        self.is_floating_point = category == 2
        self.is_signed = name not in ("bool", "uint8")
        self._legacy = legacy                # 'Float' as in torch.FloatTensor, error texts

    @property
    def is_complex(self) -> builtins.bool:  # (`bool` in this module is minigrad.bool, the dtype)
        return False

    def __repr__(self) -> str:
        return "torch." + self.name

    def __reduce__(self) -> str:
        return self.name


float16: dtype = dtype("float16", np.float16, 2, "Half")
half: dtype = float16
float32: dtype = dtype("float32", np.float32, 2, "Float")
float: dtype = float32
float64: dtype = dtype("float64", np.float64, 2, "Double")
double: dtype = float64
uint8: dtype = dtype("uint8", np.uint8, 1, "Byte")
int8: dtype = dtype("int8", np.int8, 1, "Char")
int16: dtype = dtype("int16", np.int16, 1, "Short")
short: dtype = int16
int32: dtype = dtype("int32", np.int32, 1, "Int")
int: dtype = int32
int64: dtype = dtype("int64", np.int64, 1, "Long")
long: dtype = int64
bool: dtype = dtype("bool", np.bool_, 0, "Bool")

_ALL = (float16, float32, float64, uint8, int8, int16, int32, int64, bool)
_FROM_NUMPY = {d.numpy: d for d in _ALL}
_default_float = [float32]


def from_numpy_dtype(np_dtype) -> dtype:
    try:
        return _FROM_NUMPY[np.dtype(np_dtype)]
    except KeyError:
        raise TypeError("can't convert np.ndarray of type %s. The only supported types are: float64, "
                        "float32, float16, int64, int32, int16, int8, uint8, and bool." % np.dtype(np_dtype)) from None


def get_default_dtype() -> dtype:
    """The dtype of float tensors made from Python numbers (float32 unless changed)."""
    return _default_float[0]


def set_default_dtype(d: dtype) -> None:
    if not isinstance(d, dtype) or not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _default_float[0] = d


def promote_types(a: dtype, b: dtype) -> dtype:
    """The smallest dtype both ``a`` and ``b`` fit in (PyTorch's lattice, without complex)."""
    if a is b:
        return a
    if a._category != b._category:
        return a if a._category > b._category else b
    if a._category == 1 and {a, b} == {uint8, int8}:
        return int16
    if a is uint8:
        return b
    if b is uint8:
        return a
    return a if a.itemsize >= b.itemsize else b


def result_type(*operands) -> dtype:
    """PyTorch's promotion: dimensioned tensors decide, unless a zero-dim tensor or a
    Python number is of a higher category (bool < integer < floating point).

    >>> import minigrad as torch
    >>> result_type(torch.tensor([1, 2]), 1.5), result_type(torch.tensor([1.]), torch.tensor(1., dtype=torch.float64))
    (torch.float32, torch.float32)
    """
    groups: list[Any] = [None, None, None]  # dimensioned tensors, zero-dim tensors, Python numbers
    for op in operands:
        if hasattr(op, "_data"):
            d, g = op.dtype, (2 if op._wrapped_number else (1 if op._data.ndim == 0 else 0))
            if g == 2 and d.is_floating_point:
                d = _default_float[0]        # NOTE [wrapped numbers] (ops/_util.py): stored as float64
        else:
            d, g = scalar_dtype(op), 2
        groups[g] = d if groups[g] is None else promote_types(groups[g], d)
    result: Any = None
    for d in groups:
        if d is None:
            continue
        if result is None:
            result = d
        elif d._category > result._category:
            result = promote_types(result, d)
    return result


def scalar_dtype(value) -> dtype:
    """The dtype PyTorch gives a Python number."""
    if isinstance(value, (builtins.bool, np.bool_)):
        return bool
    if isinstance(value, (builtins.int, np.integer)):
        return int64
    return _default_float[0]


# The C++ type PyTorch names in some messages ("... but got: long int != float").
_CPP_TYPES = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int", "int32": "int",
              "int16": "short int", "int8": "signed char", "uint8": "unsigned char", "bool": "bool"}


def cpp_type_name(d: dtype) -> str:
    """``'long int'`` for ``torch.int64``: how PyTorch's C++ messages spell a dtype."""
    return _CPP_TYPES.get(d.name, d.name)
