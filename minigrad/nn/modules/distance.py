"""``CosineSimilarity``: ``F.cosine_similarity`` as a module."""

from __future__ import annotations

from ..._tensor import Tensor
from .. import functional as F
from .module import Module

__all__ = ["CosineSimilarity"]


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
