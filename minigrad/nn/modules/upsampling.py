"""``nn.Upsample``, ``nn.UpsamplingNearest2d``, ``nn.UpsamplingBilinear2d``: ``F.interpolate`` as a layer (nn4)."""

from __future__ import annotations

from typing import Any, ClassVar

from ..._tensor import Tensor
from .. import functional as F
from .module import Module

__all__ = ["Upsample", "UpsamplingBilinear2d", "UpsamplingNearest2d"]


class Upsample(Module):
    """Resize the spatial dims to ``size`` or by ``scale_factor`` (see ``F.interpolate`` for the modes).

    >>> import minigrad as torch
    >>> torch.nn.Upsample(scale_factor=2, mode="nearest")
    Upsample(scale_factor=2.0, mode='nearest')
    >>> torch.nn.Upsample(scale_factor=2)(torch.tensor([[[1., 2.]]]))
    tensor([[[1., 1., 2., 2.]]])
    """

    __constants__: ClassVar[list[str]] = ["size", "scale_factor", "mode", "align_corners", "name",
                                          "recompute_scale_factor"]

    def __init__(self, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
                 align_corners: bool | None = None, recompute_scale_factor: bool | None = None) -> None:
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        if isinstance(scale_factor, tuple):
            self.scale_factor: Any = tuple(float(factor) for factor in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input: Tensor) -> Tensor:
        return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                             recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self) -> str:
        info = "scale_factor=" + repr(self.scale_factor) if self.scale_factor is not None else "size=" + repr(self.size)
        return info + ", mode=" + repr(self.mode)


class UpsamplingNearest2d(Upsample):
    """``Upsample(mode='nearest')`` for 4-d input (PyTorch keeps it for old code)."""

    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """``Upsample(mode='bilinear', align_corners=True)`` for 4-d input."""

    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)
