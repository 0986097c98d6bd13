"""``nn.TripletMarginLoss`` and ``nn.TripletMarginWithDistanceLoss`` (nn4)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from ..._tensor import Tensor
from .. import functional as F
from .distance import PairwiseDistance
from .module import Module

__all__ = ["TripletMarginLoss", "TripletMarginWithDistanceLoss"]


class TripletMarginLoss(Module):
    """``max(d(a, p) − d(a, n) + margin, 0)``, ``d`` the pairwise p-distance (see ``F.triplet_margin_loss``).

    >>> import minigrad as torch
    >>> torch.nn.TripletMarginLoss(margin=0.5)
    TripletMarginLoss()
    """

    __constants__: ClassVar[list[str]] = ["margin", "p", "eps", "swap", "reduction"]

    def __init__(self, margin: float = 1.0, p: float = 2.0, eps: float = 1e-6, swap: bool = False,
                 size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> None:
        super().__init__()
        if size_average is not None or reduce is not None:
            reduction = F._legacy_reduction(size_average, reduce)
        if margin <= 0:
            raise ValueError(f"TripletMarginLoss: expected margin to be greater than 0, got {margin} instead")
        self.reduction = reduction
        self.margin, self.p, self.eps, self.swap = margin, p, eps, swap

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        return F.triplet_margin_loss(anchor, positive, negative, margin=self.margin, p=self.p, eps=self.eps,
                                     swap=self.swap, reduction=self.reduction)


class TripletMarginWithDistanceLoss(Module):
    """The triplet loss for any distance (default ``nn.PairwiseDistance()``, shown as a child in the repr).

    >>> import minigrad as torch
    >>> torch.nn.TripletMarginWithDistanceLoss()
    TripletMarginWithDistanceLoss(
      (distance_function): PairwiseDistance()
    )
    """

    def __init__(self, *, distance_function: Callable[[Tensor, Tensor], Tensor] | None = None, margin: float = 1.0,
                 swap: bool = False, reduction: str = "mean") -> None:
        super().__init__()
        if margin <= 0:
            raise ValueError(f"TripletMarginWithDistanceLoss: expected margin to be greater than 0, got {margin} "
                             "instead")
        self.distance_function: Any = distance_function if distance_function is not None else PairwiseDistance()
        self.margin, self.swap, self.reduction = margin, swap, reduction

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        return F.triplet_margin_with_distance_loss(anchor, positive, negative,
                                                   distance_function=self.distance_function, margin=self.margin,
                                                   swap=self.swap, reduction=self.reduction)
