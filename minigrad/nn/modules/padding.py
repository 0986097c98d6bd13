"""Padding layers: ``ZeroPad``, ``ConstantPad``, ``ReflectionPad``, ``ReplicationPad``, ``CircularPad`` (1d/2d/3d).

Each is ``F.pad(input, self.padding, mode)``; ``padding`` is an int (the same on every side) or a tuple,
``(left, right[, top, bottom[, front, back]])``, the last dim first.

>>> import minigrad as torch
>>> torch.nn.ReflectionPad1d(2)(torch.arange(4.).reshape(1, 1, 4))
tensor([[[2., 1., 0., 1., 2., 3., 2., 1.]]])
>>> torch.nn.ZeroPad2d((1, 0, 0, 1))
ZeroPad2d((1, 0, 0, 1))
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..._tensor import Tensor
from .. import functional as F
from .module import Module

__all__ = [
    "CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d",
    "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
    "ReplicationPad3d", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d",
]


def _ntuple(value: Any, n: int) -> tuple[Any, ...]:
    return tuple(value) if isinstance(value, Iterable) else (value,) * n


class _PadNd(Module):
    """``F.pad(input, padding, mode)``; repr ``Name(padding)``."""

    mode: str = "constant"
    sides: int = 2
    padding: tuple[Any, ...]

    def __init__(self, padding: Any) -> None:
        super().__init__()
        self.padding = _ntuple(padding, self.sides)

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, self.mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _CircularPadNd(_PadNd):
    mode: str = "circular"

    def forward(self, input: Tensor) -> Tensor:
        low = self.sides // 2 + 1
        if input.dim() not in (low, low + 1):
            raise ValueError(f"expected {low}D or {low + 1}D input (got {input.dim()}D input)")
        return F.pad(input, self.padding, "circular")


class _ConstantPadNd(Module):
    """``F.pad(input, padding, 'constant', value)``."""

    sides: int = 2
    value: float
    padding: tuple[Any, ...]

    def __init__(self, padding: Any, value: float) -> None:
        super().__init__()
        self.value = value
        self.padding = _ntuple(padding, self.sides)

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    """Pad the last dim with ``value``."""


class ConstantPad2d(_ConstantPadNd):
    """Pad the last two dims with ``value``."""

    sides: int = 4


class ConstantPad3d(_ConstantPadNd):
    """Pad the last three dims with ``value``."""

    sides: int = 6


class ZeroPad1d(ConstantPad1d):
    """Pad the last dim with zeros."""

    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad2d(ConstantPad2d):
    """Pad the last two dims with zeros."""

    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad3d(ConstantPad3d):
    """Pad the last three dims with zeros."""

    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ReflectionPad1d(_PadNd):
    """Pad the last dim with its mirror image (the edge not repeated): ``ReflectionPad1DBackward0``."""

    mode: str = "reflect"


class ReflectionPad2d(_PadNd):
    """Pad the last two dims with their mirror image: ``ReflectionPad2DBackward0``."""

    mode: str = "reflect"
    sides: int = 4


class ReflectionPad3d(_PadNd):
    """Pad the last three dims with their mirror image: ``ReflectionPad3DBackward0``."""

    mode: str = "reflect"
    sides: int = 6


class ReplicationPad1d(_PadNd):
    """Pad the last dim with copies of its edge values: ``ReplicationPad1DBackward0``."""

    mode: str = "replicate"


class ReplicationPad2d(_PadNd):
    """Pad the last two dims with copies of their edges: ``ReplicationPad2DBackward0``."""

    mode: str = "replicate"
    sides: int = 4


class ReplicationPad3d(_PadNd):
    """Pad the last three dims with copies of their edges: ``ReplicationPad3DBackward0``."""

    mode: str = "replicate"
    sides: int = 6


class CircularPad1d(_CircularPadNd):
    """Pad the last dim by wrapping around (the other end's values)."""


class CircularPad2d(_CircularPadNd):
    """Pad the last two dims by wrapping around."""

    sides: int = 4


class CircularPad3d(_CircularPadNd):
    """Pad the last three dims by wrapping around."""

    sides: int = 6
