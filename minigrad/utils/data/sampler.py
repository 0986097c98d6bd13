"""Samplers: the order in which a ``DataLoader`` visits a dataset's indices, and how it batches them."""

from __future__ import annotations

from collections.abc import Iterator

__all__ = ["Sampler", "SequentialSampler", "RandomSampler", "BatchSampler"]


class Sampler:
    """Base class: iterating yields dataset indices."""

    def __iter__(self) -> Iterator:
        raise NotImplementedError


class SequentialSampler(Sampler):
    """``0, 1, …, len(data_source) - 1``."""

    def __init__(self, data_source) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler):
    """A random permutation of the indices (a fresh one per pass).

    Without a ``generator``, each pass draws its seed from the default generator, so
    ``manual_seed`` makes the shuffling reproducible — as in PyTorch.
    """

    def __init__(
        self, data_source, replacement: bool = False, num_samples: int | None = None, generator=None
    ) -> None:
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
        from ..._creation import Generator, _rng

        generator = self.generator
        if generator is None:
            generator = Generator().manual_seed(int(_rng().integers(0, 2**63 - 1)))
        n = len(self.data_source)
        rng = generator._rng
        if self.replacement:
            yield from rng.integers(0, n, self.num_samples).tolist()
            return
        order: list[int] = []
        while len(order) < self.num_samples:
            order.extend(rng.permutation(n).tolist())
        yield from order[: self.num_samples]

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler):
    """Group the indices of ``sampler`` in lists of ``batch_size`` (the last shorter unless ``drop_last``)."""

    def __init__(self, sampler, batch_size: int, drop_last: bool) -> None:
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
