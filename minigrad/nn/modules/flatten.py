"""``Flatten`` and ``Unflatten``: reshape between a range of dims and a single one."""

from __future__ import annotations

from ..._tensor import Tensor
from .module import Module

__all__ = ["Flatten", "Unflatten"]


class Flatten(Module):
    """Merge dims ``start_dim`` … ``end_dim`` into one (by default all but the batch dim).

    >>> import minigrad as torch
    >>> torch.nn.Flatten()(torch.ones(2, 3, 4)).shape
    torch.Size([2, 12])
    """

    start_dim: int
    end_dim: int

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def forward(self, input: Tensor) -> Tensor:
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return "start_dim=%s, end_dim=%s" % (self.start_dim, self.end_dim)


class Unflatten(Module):
    """Split dim ``dim`` into ``unflattened_size``.

    >>> import minigrad as torch
    >>> torch.nn.Unflatten(1, (2, 2))(torch.ones(3, 4)).shape
    torch.Size([3, 2, 2])
    """

    dim: int
    unflattened_size: tuple[int, ...]

    def __init__(self, dim: int, unflattened_size: tuple[int, ...]) -> None:
        super().__init__()
        self.dim, self.unflattened_size = dim, unflattened_size

    def forward(self, input: Tensor) -> Tensor:
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self) -> str:
        return "dim=%s, unflattened_size=%s" % (self.dim, self.unflattened_size)
