"""``MaxPool1d``, ``AvgPool1d``, ``AdaptiveAvgPool1d``: pooling along the last dim of ``(N, C, L)`` or ``(C, L)``.

>>> import minigrad as torch
>>> torch.nn.MaxPool1d(2)
MaxPool1d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)
>>> torch.nn.AvgPool1d(3, stride=2)
AvgPool1d(kernel_size=(3,), stride=(2,), padding=(0,))
"""

from __future__ import annotations

from typing import Any

from ..._tensor import Tensor
from .. import functional as F
from .module import Module

__all__ = ["MaxPool1d", "AvgPool1d", "AdaptiveAvgPool1d"]


def _single(value: Any) -> tuple[Any, ...]:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


class MaxPool1d(Module):
    """The max over each ``kernel_size`` window along the last dim (``F.max_pool1d``)."""

    kernel_size: Any
    stride: Any
    padding: Any
    dilation: Any
    return_indices: bool
    ceil_mode: bool

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
                 return_indices: bool = False, ceil_mode: bool = False) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def forward(self, input: Tensor) -> Any:
        return F.max_pool1d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class AvgPool1d(Module):
    """The mean over each ``kernel_size`` window along the last dim (``F.avg_pool1d``)."""

    kernel_size: tuple[Any, ...]
    stride: tuple[Any, ...]
    padding: tuple[Any, ...]
    ceil_mode: bool
    count_include_pad: bool

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
                 count_include_pad: bool = True) -> None:
        super().__init__()
        self.kernel_size = _single(kernel_size)
        self.stride = _single(stride if stride is not None else kernel_size)
        self.padding = _single(padding)
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad

    def forward(self, input: Tensor) -> Tensor:
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode, self.count_include_pad)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AdaptiveAvgPool1d(Module):
    """Average pooling to ``output_size`` along the last dim (``F.adaptive_avg_pool1d``)."""

    def __init__(self, output_size: Any) -> None:
        super().__init__()
        self.output_size = output_size

    def forward(self, input: Tensor) -> Tensor:
        return F.adaptive_avg_pool1d(input, self.output_size)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"
