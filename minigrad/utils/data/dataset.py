"""Datasets: anything with ``__getitem__`` (and usually ``__len__``); ``TensorDataset`` wraps tensors."""

from __future__ import annotations

import bisect
import math
from typing import Any

from ..._creation import randperm
from ..._tensor import Tensor

__all__ = ["Dataset", "TensorDataset", "Subset", "ConcatDataset", "random_split"]


class Dataset:
    """Base class of map-style datasets: ``dataset[i]`` is sample ``i``.

    Subclasses define ``__getitem__`` and usually ``__len__``.
    """

    def __getitem__(self, index: Any) -> Any:
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other: Dataset) -> ConcatDataset:
        return ConcatDataset([self, other])


class TensorDataset(Dataset):
    """Samples are slices along the first dim: ``dataset[i] == (t[i] for t in tensors)``.

    >>> import minigrad as torch
    >>> data = TensorDataset(torch.ones(3, 2), torch.tensor([0, 1, 0]))
    >>> len(data), data[1]
    (3, (tensor([1., 1.]), tensor(1)))
    """

    def __init__(self, *tensors: Tensor) -> None:
        if any(t.size(0) != tensors[0].size(0) for t in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index: Any) -> Any:
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].size(0)


class Subset(Dataset):
    """The samples of ``dataset`` at ``indices``."""

    dataset: Dataset
    indices: list[Tensor]

    def __init__(self, dataset: Dataset, indices: Tensor) -> None:
        self.dataset, self.indices = dataset, list(indices)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, list):
            return self.dataset[[self.indices[i] for i in index]]
        return self.dataset[self.indices[index]]

    def __len__(self) -> int:
        return len(self.indices)


class ConcatDataset(Dataset):
    """Several datasets one after the other."""

    cumulative_sizes: list[int]

    datasets: list[Any]

    def __init__(self, datasets: Any) -> None:
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError("datasets should not be an empty iterable")
        self.cumulative_sizes, total = [], 0
        for d in self.datasets:
            total += len(d)
            self.cumulative_sizes.append(total)

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, index: int) -> Any:
        if index < 0:
            if -index > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            index += len(self)
        which = bisect.bisect_right(self.cumulative_sizes, index)
        start = self.cumulative_sizes[which - 1] if which else 0
        return self.datasets[which][index - start]


def random_split(dataset: Dataset, lengths: Any, generator: Any = None) -> list[Subset]:
    """Split into non-overlapping random subsets of the given lengths (or fractions summing to 1)."""

    n = len(dataset)  # type: ignore[arg-type]  # a map-style dataset with __len__, as PyTorch requires
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        counts = [math.floor(n * frac) for frac in lengths]
        for i in range(n - sum(counts)):
            counts[i % len(counts)] += 1
        lengths = counts
    if sum(lengths) != n:
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    order = randperm(n, generator=generator).tolist()
    out, start = [], 0
    for length in lengths:
        out.append(Subset(dataset, order[start : start + length]))
        start += length
    return out
