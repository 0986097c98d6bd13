"""Samplers: the order in which a ``DataLoader`` visits a dataset's indices, and how it batches them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ... import _creation, _dtype

if TYPE_CHECKING:
    from ..._tensor import Tensor

__all__ = ["Sampler", "SequentialSampler", "RandomSampler", "SubsetRandomSampler", "WeightedRandomSampler",
           "BatchSampler"]


class Sampler:
    """Base class: iterating yields dataset indices."""

    def __iter__(self) -> Iterator[Any]:
        raise NotImplementedError


class SequentialSampler(Sampler):
    """``0, 1, …, len(data_source) - 1``."""

    def __init__(self, data_source: Any) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler):
    """A random permutation of the indices (a fresh one per pass).

    Without a ``generator``, each pass starts by drawing a seed from the default generator
    (``torch.empty((), dtype=torch.int64).random_()``) for a fresh ``Generator``, exactly as PyTorch
    does, so ``manual_seed`` gives the order a PyTorch program gets.
    """

    data_source: Any
    replacement: bool
    generator: Any

    def __init__(self, data_source: Any, replacement: bool = False, num_samples: int | None = None,
                 generator: Any = None) -> None:
        self.data_source, self.replacement, self._num_samples, self.generator = (
            data_source,
            replacement,
            num_samples,
            generator,
        )
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(
                "num_samples should be a positive integer value, but got num_samples=%s" % self.num_samples
            )

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self) -> Iterator[int]:
        n = len(self.data_source)
        generator = self.generator
        if generator is None:  # PyTorch: a fresh generator seeded by one int64 draw, at the first index
            seed = int(_creation.empty((), dtype=_dtype.int64).random_().item())
            generator = _creation.Generator().manual_seed(seed)
        if self.replacement:
            for _ in range(self.num_samples // 32):
                yield from _creation.randint(high=n, size=(32,), dtype=_dtype.int64, generator=generator).tolist()
            yield from _creation.randint(high=n, size=(self.num_samples % 32,), dtype=_dtype.int64,
                                         generator=generator).tolist()
            return
        for _ in range(self.num_samples // n):
            yield from _creation.randperm(n, generator=generator).tolist()
        yield from _creation.randperm(n, generator=generator).tolist()[: self.num_samples % n]

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given indices in a random order (a new one per pass)."""

    indices: Any
    generator: Any

    def __init__(self, indices: Tensor, generator: Any = None) -> None:
        self.indices, self.generator = indices, generator

    def __iter__(self) -> Iterator[int]:
        for i in _creation.randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """``num_samples`` indices drawn with probabilities proportional to ``weights`` (``torch.multinomial``)."""

    weights: Tensor
    num_samples: int
    replacement: bool
    generator: Any

    def __init__(self, weights: Any, num_samples: int, replacement: bool = True, generator: Any = None) -> None:
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples <= 0:
            raise ValueError(
                "num_samples should be a positive integer value, but got num_samples=%s" % num_samples
            )
        if not isinstance(replacement, bool):
            raise ValueError("replacement should be a boolean value, but got replacement=%s" % replacement)
        weights_tensor = _creation.as_tensor(weights, dtype=_dtype.float64)
        if len(weights_tensor.shape) != 1:
            raise ValueError(
                "weights should be a 1d sequence but given weights have shape %s" % (tuple(weights_tensor.shape),)
            )
        self.weights, self.num_samples, self.replacement, self.generator = (
            weights_tensor, num_samples, replacement, generator)

    def __iter__(self) -> Iterator[int]:
        yield from _creation.multinomial(self.weights, self.num_samples, self.replacement,
                                         generator=self.generator).tolist()

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler):
    """Group the indices of ``sampler`` in lists of ``batch_size`` (the last shorter unless ``drop_last``)."""

    sampler: Any
    batch_size: int
    drop_last: bool

    def __init__(self, sampler: Any, batch_size: int, drop_last: bool) -> None:
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError(
                "batch_size should be a positive integer value, but got batch_size=%s" % batch_size
            )
        self.sampler, self.batch_size, self.drop_last = sampler, batch_size, drop_last

    def __iter__(self) -> Iterator[list[int]]:
        batch: list[int] = []
        for index in self.sampler:
            batch.append(index)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self) -> int:
        n = len(self.sampler)
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)
