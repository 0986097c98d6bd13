"""Type aliases for the public signatures (what an IDE shows), named as in PyTorch's stubs.

Only annotations use them; nothing here runs at import time beyond defining the names.
``_int``, ``_float`` and ``_bool`` exist because ``Tensor`` has methods called ``int``, ``float``
and ``bool``: inside the class body those names are the methods, not the builtins.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Sequence
from types import EllipsisType
from typing import TYPE_CHECKING, Any, TypeAlias, Union

if TYPE_CHECKING:
    from ._creation import device as _device
    from ._dtype import dtype as _dtype
    from ._tensor import Tensor

_int: TypeAlias = builtins.int
_float: TypeAlias = builtins.float
_bool: TypeAlias = builtins.bool

#: A Python number where PyTorch accepts a Scalar.
Number: TypeAlias = builtins.int | builtins.float | builtins.bool
#: A tensor, or a Python number taking part in an op (``x + 1``).
TensorOrNumber: TypeAlias = Union["Tensor", builtins.int, builtins.float, builtins.bool]
#: One dimension or several (``sum(dim=(0, 1))``).
Dims: TypeAlias = builtins.int | Sequence[builtins.int]
#: A shape given as separate ints or as one sequence: ``view(2, 3)`` or ``view((2, 3))``.
ShapeArg: TypeAlias = builtins.int | Sequence[builtins.int]
#: What ``tensor[...]`` accepts: ints, slices, None, ``...``, index tensors, lists, and tuples of them.
Index: TypeAlias = Union[builtins.int, slice, EllipsisType, "Tensor", Sequence[Any], None]
#: A dtype argument.
DType: TypeAlias = "_dtype"
#: A device argument: ``"cpu"``, a ``device``, or a CUDA ordinal.
Device: TypeAlias = Union[builtins.str, "_device", builtins.int, None]
#: A hook or a user function: called with whatever the API documents.
Hook: TypeAlias = Callable[..., Any]

__all__ = ["Number", "TensorOrNumber", "Dims", "ShapeArg", "Index", "DType", "Device", "Hook"]
