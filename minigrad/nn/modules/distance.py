"""``CosineSimilarity``: ``F.cosine_similarity`` as a module."""

from __future__ import annotations

from ..._tensor import Tensor
from .. import functional as F
from .module import Module

__all__ = ["CosineSimilarity", "PairwiseDistance"]


class CosineSimilarity(Module):
    """The cosine of the angle between ``x1`` and ``x2`` along ``dim`` (see ``F.cosine_similarity``).

    >>> import minigrad as torch
    >>> torch.nn.CosineSimilarity(dim=0)(torch.tensor([1., 0.]), torch.tensor([1., 1.]))
    tensor(0.7071)
    """

    dim: int
    eps: float

    def __init__(self, dim: int = 1, eps: float = 1e-8) -> None:
        super().__init__()
        self.dim, self.eps = dim, eps

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.cosine_similarity(x1, x2, self.dim, self.eps)


class PairwiseDistance(Module):
    """``‖x1 − x2 + eps‖_p`` over the last dim (see ``F.pairwise_distance``; nn4).

    >>> import minigrad as torch
    >>> torch.nn.PairwiseDistance(eps=0.0)(torch.tensor([[0., 0.]]), torch.tensor([[3., 4.]]))
    tensor([5.])
    """

    norm: float
    eps: float
    keepdim: bool

    def __init__(self, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> None:
        super().__init__()
        self.norm, self.eps, self.keepdim = p, eps, keepdim

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)
