"""``Dropout``: random zeroing while training, the identity in eval mode."""

from __future__ import annotations

from ..._tensor import Tensor
from .. import functional as F
from .module import Module

__all__ = ["Dropout", "Dropout1d", "Dropout2d", "Dropout3d"]


class Dropout(Module):
    """Zero each element with probability ``p`` while training and scale the rest by ``1/(1-p)``.

    In eval mode (``model.eval()``) it returns its input unchanged. The mask comes from the
    default generator (``manual_seed`` makes it reproducible).

    >>> import minigrad as torch
    >>> drop = torch.nn.Dropout(0.5)
    >>> x = torch.ones(3)
    >>> drop.eval()(x) is x
    True
    """

    p: float
    inplace: bool

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError("dropout probability has to be between 0 and 1, but got %s" % p)
        self.p, self.inplace = p, inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return "p=%s, inplace=%s" % (self.p, self.inplace)


class _DropoutNd(Dropout):
    _functional = staticmethod(F.dropout2d)

    def forward(self, input: Tensor) -> Tensor:
        return type(self)._functional(input, self.p, self.training, self.inplace)


class Dropout1d(_DropoutNd):
    """Zero whole channels of an ``(N, C, L)`` input with probability ``p`` while training (``F.dropout1d``)."""

    _functional = staticmethod(F.dropout1d)


class Dropout2d(_DropoutNd):
    """Zero whole channels of an ``(N, C, H, W)`` input with probability ``p`` while training (``F.dropout2d``)."""

    _functional = staticmethod(F.dropout2d)


class Dropout3d(_DropoutNd):
    """Zero whole channels of an ``(N, C, D, H, W)`` input with probability ``p`` while training."""

    _functional = staticmethod(F.dropout3d)
