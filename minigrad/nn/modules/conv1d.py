"""``Conv1d`` (nn3): ``F.conv1d`` with PyTorch's parameters, initialisation, repr and padding modes.

>>> import minigrad as torch
>>> torch.nn.Conv1d(3, 4, 3, padding="same")
Conv1d(3, 4, kernel_size=(3,), stride=(1,), padding=same)
"""

from __future__ import annotations

from typing import Any

from ..._tensor import Tensor
from .. import functional as F
from ..parameter import weight_and_bias
from .conv import _ConvNd

__all__ = ["Conv1d"]


def _single(value: Any) -> tuple[int, ...]:
    return (value,) if isinstance(value, int) else tuple(value)


class Conv1d(_ConvNd):
    """1-D convolution: ``weight`` ``(out_channels, in_channels/groups, k)``, ``bias`` ``(out_channels,)``.

    Both are drawn from U(-1/√fan_in, 1/√fan_in), fan_in = in_channels/groups · k, weight first
    (PyTorch's ``kaiming_uniform_(a=√5)``). ``padding_mode`` ``'reflect'``, ``'replicate'`` or
    ``'circular'`` pads with ``F.pad`` first and convolves with no padding, as PyTorch.
    """

    in_channels: int
    out_channels: int
    kernel_size: tuple[int, ...]
    stride: tuple[int, ...]
    padding: str | tuple[int, ...]
    dilation: tuple[int, ...]
    transposed: bool
    output_padding: tuple[int, ...]
    groups: int
    padding_mode: str

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        kernel_size, stride, dilation = _single(kernel_size), _single(stride), _single(dilation)
        padding = padding if isinstance(padding, str) else _single(padding)
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        valid_padding_strings = {"same", "valid"}
        if isinstance(padding, str):
            if padding not in valid_padding_strings:
                raise ValueError(f"Invalid padding string {padding!r}, should be one of {valid_padding_strings}")
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        valid_padding_modes = {"zeros", "reflect", "replicate", "circular"}
        if padding_mode not in valid_padding_modes:
            raise ValueError(
                f"padding_mode must be one of {valid_padding_modes}, but got padding_mode='{padding_mode}'"
            )
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride, self.padding, self.dilation = kernel_size, stride, padding, dilation
        self.transposed, self.output_padding = False, (0,)
        self.groups, self.padding_mode = groups, padding_mode
        if isinstance(padding, str):
            self._reversed_padding_repeated_twice = [0, 0] * len(kernel_size)
            if padding == "same":
                for d, k, i in zip(dilation, kernel_size, range(len(kernel_size) - 1, -1, -1)):
                    total = d * (k - 1)
                    left = total // 2
                    self._reversed_padding_repeated_twice[2 * i] = left
                    self._reversed_padding_repeated_twice[2 * i + 1] = total - left
        else:
            self._reversed_padding_repeated_twice = [p for p in reversed(padding) for _ in range(2)]
        weight_and_bias(self, (out_channels, in_channels // groups, *kernel_size), out_channels, bias, dtype)
        self.reset_parameters()

    def forward(self, input: Tensor) -> Tensor:
        if self.padding_mode != "zeros":
            padded = F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode)
            return F.conv1d(padded, self.weight, self.bias, self.stride, 0, self.dilation, self.groups)
        return F.conv1d(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)

    def extra_repr(self) -> str:
        s = "%s, %s, kernel_size=%s, stride=%s" % (self.in_channels, self.out_channels, self.kernel_size, self.stride)
        if self.padding != (0,) * len(self.padding):
            s += ", padding=%s" % (self.padding,)
        if self.dilation != (1,) * len(self.dilation):
            s += ", dilation=%s" % (self.dilation,)
        if self.output_padding != (0,) * len(self.output_padding):
            s += ", output_padding=%s" % (self.output_padding,)
        if self.groups != 1:
            s += ", groups=%s" % self.groups
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += ", padding_mode=%s" % self.padding_mode
        return s
