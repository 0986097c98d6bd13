"""``nn.AdaptiveMaxPool1d`` / ``nn.AdaptiveMaxPool2d`` (nn4): ``F.adaptive_max_pool1d/2d`` as layers."""

from __future__ import annotations

from typing import Any, ClassVar

from ..._tensor import Tensor
from .. import functional as F
from .module import Module

__all__ = ["AdaptiveMaxPool1d", "AdaptiveMaxPool2d"]


class _AdaptiveMaxPoolNd(Module):
    __constants__: ClassVar[list[str]] = ["output_size", "return_indices"]

    def __init__(self, output_size: Any, return_indices: bool = False) -> None:
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd):
    """Max pooling of ``(N, C, L)`` to ``output_size`` whatever ``L`` (``return_indices``: also where).

    >>> import minigrad as torch
    >>> torch.nn.AdaptiveMaxPool1d(2)(torch.tensor([[1., 5., 2., 0.]]))
    tensor([[5., 2.]])
    """

    def forward(self, input: Tensor) -> Any:
        return F.adaptive_max_pool1d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd):
    """Max pooling of ``(N, C, H, W)`` to ``output_size`` (``None`` keeps that input size).

    >>> import minigrad as torch
    >>> torch.nn.AdaptiveMaxPool2d((1, None))(torch.arange(6.).reshape(1, 2, 3)).tolist()
    [[[3.0, 4.0, 5.0]]]
    """

    def forward(self, input: Tensor) -> Any:
        return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)
