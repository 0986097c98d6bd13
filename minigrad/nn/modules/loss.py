"""The loss modules (``MSELoss``, ``CrossEntropyLoss``, ``BCEWithLogitsLoss``...), one per ``F.*_loss``.

Each stores its options and calls the function of the same name in ``nn.functional``.
"""

from __future__ import annotations

from typing import Any

from ..._tensor import Tensor
from .. import functional as F
from .module import Module

__all__ = [
    "MSELoss",
    "L1Loss",
    "SmoothL1Loss",
    "HuberLoss",
    "CrossEntropyLoss",
    "NLLLoss",
    "BCELoss",
    "BCEWithLogitsLoss",
]


class _Loss(Module):
    def __init__(self, size_average: Any = None, reduce: Any = None, reduction: str = 'mean') -> None:
        super().__init__()
        if size_average is not None or reduce is not None:
            reduction = F._legacy_reduction(size_average, reduce)
        self.reduction = reduction


class _WeightedLoss(_Loss):
    """A loss with per-class weights, kept as a buffer (so it is in ``state_dict`` and follows ``to()``)."""

    def __init__(self, weight: Tensor | None = None, size_average: Any = None, reduce: Any = None,
                 reduction: str = 'mean') -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)


class MSELoss(_Loss):
    """Mean squared error ``(input - target)²``, reduced by ``reduction`` (``'mean'``, ``'sum'``, ``'none'``).

    >>> import minigrad as torch
    >>> torch.nn.MSELoss()(torch.tensor([1., 3.]), torch.tensor([1., 1.]))
    tensor(2.)
    """

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.mse_loss(input, target, reduction=self.reduction)


class L1Loss(_Loss):
    """Mean absolute error ``|input - target|``, reduced by ``reduction``."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.l1_loss(input, target, reduction=self.reduction)


class NLLLoss(_WeightedLoss):
    """Negative log-likelihood of log-probabilities at class indices (see ``F.nll_loss``)."""

    def __init__(self, weight: Tensor | None = None, size_average: Any = None, ignore_index: int = -100,
                 reduce: Any = None, reduction: str = 'mean') -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.nll_loss(
            input, target, weight=self.weight, ignore_index=self.ignore_index, reduction=self.reduction
        )


class CrossEntropyLoss(_WeightedLoss):
    """Cross-entropy of logits against class indices or class probabilities (see ``F.cross_entropy``).

    >>> import minigrad as torch
    >>> criterion = torch.nn.CrossEntropyLoss()
    >>> criterion(torch.tensor([[2., 0.], [0., 2.]]), torch.tensor([0, 1]))
    tensor(0.1269)
    """

    ignore_index: int
    label_smoothing: float

    def __init__(self, weight: Tensor | None = None, size_average: Any = None, ignore_index: int = -100,
                 reduce: Any = None, reduction: str = 'mean', label_smoothing: float = 0.0) -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index, self.label_smoothing = ignore_index, label_smoothing

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.cross_entropy(
            input,
            target,
            weight=self.weight,
            ignore_index=self.ignore_index,
            reduction=self.reduction,
            label_smoothing=self.label_smoothing,
        )


class BCELoss(_WeightedLoss):
    """Binary cross-entropy of probabilities (see ``F.binary_cross_entropy``)."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.binary_cross_entropy(input, target, weight=self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    """Binary cross-entropy on logits, with optional ``weight`` and ``pos_weight`` (see
    ``F.binary_cross_entropy_with_logits``); both are buffers.

    >>> import minigrad as torch
    >>> torch.nn.BCEWithLogitsLoss()(torch.zeros(2), torch.ones(2))
    tensor(0.6931)
    """

    def __init__(self, weight: Tensor | None = None, size_average: Any = None, reduce: Any = None,
                 reduction: str = 'mean', pos_weight: Tensor | None = None) -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.binary_cross_entropy_with_logits(
            input, target, self.weight, pos_weight=self.pos_weight, reduction=self.reduction
        )


class SmoothL1Loss(_Loss):
    """Squared error below ``beta``, absolute error (less ``beta/2``) above it (see ``F.smooth_l1_loss``).

    >>> import minigrad as torch
    >>> torch.nn.SmoothL1Loss()(torch.tensor([0.5, 3.]), torch.zeros(2))
    tensor(1.3125)
    """

    def __init__(self, size_average: Any = None, reduce: Any = None, reduction: str = 'mean',
                 beta: float = 1.0) -> None:
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    """Squared error below ``delta``, ``delta``-scaled absolute error above it (see ``F.huber_loss``)."""

    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None:
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)
