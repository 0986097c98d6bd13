"""Size: the tuple returned by ``Tensor.shape`` and ``Tensor.size()``."""

from __future__ import annotations

from typing import SupportsIndex, overload

__all__ = ["Size"]


class Size(tuple[int, ...]):
    """A tuple of dimensions that prints like PyTorch's.

    >>> Size([2, 3])
    torch.Size([2, 3])
    >>> Size([2, 3]).numel()
    6
    """

    __slots__ = ()

    def numel(self) -> int:
        n = 1
        for s in self:
            n *= s
        return n

    def __repr__(self) -> str:
        return "torch.Size([%s])" % ", ".join(str(s) for s in self)

    __str__ = __repr__

    @overload
    def __getitem__(self, item: SupportsIndex) -> int: ...
    @overload
    def __getitem__(self, item: slice) -> Size: ...

    def __getitem__(self, item: SupportsIndex | slice) -> int | Size:
        if isinstance(item, slice):
            return Size(tuple.__getitem__(self, item))
        return tuple.__getitem__(self, item)
