"""``MaxPool2d`` and ``AvgPool2d``."""

from __future__ import annotations

from typing import Any

from ..._tensor import Tensor
from .. import functional as F
from .module import Module

__all__ = ["MaxPool2d", "AvgPool2d"]


class MaxPool2d(Module):
    """The max over each ``kernel_size`` window; ``stride`` defaults to ``kernel_size``.

    >>> import minigrad as torch
    >>> torch.nn.MaxPool2d(2)
    MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)
    """

    stride: Any
    padding: int
    dilation: int
    return_indices: bool
    ceil_mode: bool

    def __init__(self, kernel_size: Any, stride: Any = None, padding: int = 0, dilation: int = 1,
                 return_indices: bool = False, ceil_mode: bool = False) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def forward(self, input: Tensor) -> Any:
        return F.max_pool2d(
            input, self.kernel_size, self.stride, self.padding, self.dilation,
            ceil_mode=self.ceil_mode, return_indices=self.return_indices,
        )

    def extra_repr(self) -> str:
        return (
            f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
            f"dilation={self.dilation}, ceil_mode={self.ceil_mode}"
        )


class AvgPool2d(Module):
    """The mean over each ``kernel_size`` window; ``stride`` defaults to ``kernel_size``.

    >>> import minigrad as torch
    >>> torch.nn.AvgPool2d(2)
    AvgPool2d(kernel_size=2, stride=2, padding=0)
    """

    stride: Any
    padding: int
    ceil_mode: bool
    count_include_pad: bool
    divisor_override: Any

    def __init__(self, kernel_size: Any, stride: Any = None, padding: int = 0, ceil_mode: bool = False,
                 count_include_pad: bool = True, divisor_override: Any = None) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding, self.ceil_mode = padding, ceil_mode
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override

    def forward(self, input: Tensor) -> Tensor:
        return F.avg_pool2d(
            input, self.kernel_size, self.stride, self.padding, self.ceil_mode, self.count_include_pad,
            self.divisor_override,
        )

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AdaptiveAvgPool2d(Module):
    """Average pooling to a fixed ``output_size`` whatever the input's height and width (``F.adaptive_avg_pool2d``).

    >>> import minigrad as torch
    >>> torch.nn.AdaptiveAvgPool2d((1, 1))(torch.ones(2, 3, 5, 7)).shape
    torch.Size([2, 3, 1, 1])
    """

    def __init__(self, output_size: Any) -> None:
        super().__init__()
        self.output_size = output_size

    def forward(self, input: Tensor) -> Tensor:
        return F.adaptive_avg_pool2d(input, self.output_size)

    def extra_repr(self) -> str:
        return "output_size=%s" % (self.output_size,)
