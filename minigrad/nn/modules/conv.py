"""``Conv2d`` and ``ConvTranspose2d``."""

from __future__ import annotations

import math
from typing import Any

from ..._tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import weight_and_bias
from .module import Module

__all__ = ["Conv2d"]


class _ConvNd(Module):
    """What ``Conv2d`` and ``ConvTranspose2d`` share, as in PyTorch: the initialisation."""

    weight: Tensor
    bias: Tensor | None

    def reset_parameters(self) -> None:
        """PyTorch's default initialisation: both bounded by 1/√fan_in (no bias draw when fan_in is 0)."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)


class Conv2d(_ConvNd):
    """2-D convolution: ``weight`` ``(out_channels, in_channels/groups, kh, kw)``, ``bias`` ``(out_channels,)``.

    Both are drawn from U(-1/√fan_in, 1/√fan_in), fan_in = in_channels/groups · kh · kw, weight
    first (PyTorch's ``kaiming_uniform_(a=√5)``).  Only ``padding_mode='zeros'`` is implemented.

    >>> import minigrad as torch
    >>> conv = torch.nn.Conv2d(1, 6, 5)
    >>> conv
    Conv2d(1, 6, kernel_size=(5, 5), stride=(1, 1))
    >>> conv(torch.ones(2, 1, 28, 28)).shape
    torch.Size([2, 6, 24, 24])
    """

    in_channels: int
    out_channels: int
    kernel_size: tuple[int, int] | tuple[int, ...]
    stride: tuple[int, int] | tuple[int, ...]
    padding: str | tuple[int, ...]
    dilation: tuple[int, int] | tuple[int, ...]
    transposed: bool
    output_padding: tuple[int, int] | tuple[int, ...]
    groups: int
    padding_mode: str
    weight: Tensor
    bias: Tensor | None

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: int = 1, padding: int = 0,
                 dilation: int = 1, groups: int = 1, bias: bool = True, padding_mode: str = 'zeros',
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        valid_padding_strings = {"same", "valid"}
        if isinstance(padding, str):
            if padding not in valid_padding_strings:
                raise ValueError(
                    "Invalid padding string '%s', should be one of %s" % (padding, valid_padding_strings)
                )
            if padding == "same" and any(s != 1 for s in F._pair(stride)):
                raise ValueError("padding='same' is not supported for strided convolutions")
        valid_padding_modes = {"zeros", "reflect", "replicate", "circular"}
        if padding_mode not in valid_padding_modes:
            raise ValueError(
                "padding_mode must be one of %s, but got padding_mode='%s'" % (valid_padding_modes, padding_mode)
            )
        if padding_mode != "zeros":
            raise NotImplementedError("minigrad implements only padding_mode='zeros'")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride = F._pair(kernel_size, "kernel_size"), F._pair(stride)
        self.padding = padding if isinstance(padding, str) else F._pair(padding, "padding")
        self.dilation = F._pair(dilation, "dilation")
        self.transposed, self.output_padding = False, (0, 0)
        self.groups, self.padding_mode = groups, padding_mode
        weight_and_bias(self, (out_channels, in_channels // groups, *self.kernel_size), out_channels, bias, dtype)
        self.reset_parameters()

    def forward(self, input: Tensor) -> Tensor:
        return F.conv2d(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)

    def extra_repr(self) -> str:
        s = "%s, %s, kernel_size=%s, stride=%s" % (self.in_channels, self.out_channels, self.kernel_size, self.stride)
        if self.padding != (0, 0):
            s += ", padding=%s" % (self.padding,)
        if self.dilation != (1, 1):
            s += ", dilation=%s" % (self.dilation,)
        if self.groups != 1:
            s += ", groups=%s" % self.groups
        if self.bias is None:
            s += ", bias=False"
        return s


class ConvTranspose2d(_ConvNd):
    """The transposed 2-D convolution layer (``F.conv_transpose2d``), initialised as PyTorch does.

    >>> import minigrad as torch
    >>> torch.nn.ConvTranspose2d(4, 2, 3, stride=2)(torch.ones(1, 4, 5, 5)).shape
    torch.Size([1, 2, 11, 11])
    """

    in_channels: int
    out_channels: int
    kernel_size: tuple[int, int] | tuple[int, ...]
    stride: tuple[int, int] | tuple[int, ...]
    padding: str | tuple[int, ...]
    dilation: tuple[int, int] | tuple[int, ...]
    transposed: bool
    output_padding: tuple[int, int] | tuple[int, ...]
    groups: int
    padding_mode: str
    weight: Tensor
    bias: Tensor | None

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: int = 1, padding: int = 0,
                 output_padding: int = 0, groups: int = 1, bias: bool = True, dilation: int = 1,
                 padding_mode: str = 'zeros', device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        if padding_mode != "zeros":
            raise ValueError('Only "zeros" padding mode is supported for ConvTranspose2d')
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride = F._pair(kernel_size, "kernel_size"), F._pair(stride)
        self.padding, self.output_padding = F._pair(padding, "padding"), F._pair(output_padding)
        self.dilation, self.groups, self.padding_mode = F._pair(dilation, "dilation"), groups, padding_mode
        self.transposed = True
        weight_and_bias(self, (in_channels, out_channels // groups, *self.kernel_size), out_channels, bias, dtype)
        self.reset_parameters()

    def forward(self, input: Tensor, output_size: Any = None) -> Tensor:
        return F.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding, self.output_padding,
                                  self.groups, self.dilation)

    def extra_repr(self) -> str:
        s = "%d, %d, kernel_size=%s, stride=%s" % (self.in_channels, self.out_channels, self.kernel_size, self.stride)
        if self.padding != (0,) * len(self.padding):
            s += ", padding=%s" % (self.padding,)
        if self.dilation != (1,) * len(self.dilation):
            s += ", dilation=%s" % (self.dilation,)
        if self.output_padding != (0,) * len(self.output_padding):
            s += ", output_padding=%s" % (self.output_padding,)
        if self.groups != 1:
            s += ", groups=%d" % self.groups
        if self.bias is None:
            s += ", bias=False"
        return s
