"""``DataLoader``: iterate over a dataset in (shuffled) mini-batches, collated into tensors."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from ... import _creation, _dtype
from ..._tensor import Tensor
from .sampler import BatchSampler, RandomSampler, SequentialSampler

__all__ = ["DataLoader", "default_collate", "default_convert"]


def default_collate(batch):
    """Merge a list of samples into a batch: tensors are stacked along a new first dim.

    Numbers become a tensor, numpy arrays are stacked, and tuples, lists and dicts are
    collated field by field (tuples come back as lists, as in PyTorch).

    >>> import minigrad as torch
    >>> default_collate([(torch.ones(2), 0), (torch.zeros(2), 1)])
    [tensor([[1., 1.],
            [0., 0.]]), tensor([0, 1])]
    """
    elem = batch[0]
    if isinstance(elem, Tensor):
        return _creation.stack(batch, 0)
    if isinstance(elem, np.ndarray):
        return _creation.stack([_creation.as_tensor(b) for b in batch], 0)
    if isinstance(elem, np.generic):
        return _creation.as_tensor(np.asarray(batch))
    if isinstance(elem, bool):
        return _creation.tensor(batch)
    if isinstance(elem, float):
        return _creation.tensor(batch, dtype=_dtype.float64)
    if isinstance(elem, int):
        return _creation.tensor(batch)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, Mapping):
        return {key: default_collate([d[key] for d in batch]) for key in elem}
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # a namedtuple
        return type(elem)(*(default_collate(samples) for samples in zip(*batch)))
    if isinstance(elem, Sequence):
        if any(len(sample) != len(elem) for sample in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        return [default_collate(samples) for samples in zip(*batch)]
    raise TypeError(
        "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found %s"
        % type(elem)
    )


def default_convert(data):
    """What a DataLoader without batching does to a sample: numpy arrays become tensors, tuples lists."""
    if isinstance(data, np.ndarray):
        return _creation.as_tensor(data)
    if isinstance(data, Mapping):
        return {key: default_convert(value) for key, value in data.items()}
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, Sequence) and not isinstance(data, (str, bytes)):
        return [default_convert(d) for d in data]
    return data


class DataLoader:
    """Mini-batches of a dataset: ``for x, y in DataLoader(data, batch_size=64, shuffle=True)``.

    Parameters
    ----------
    dataset : Dataset
    batch_size : int or None, default 1
        ``None`` yields single samples, uncollated.
    shuffle : bool, default False
        A new random order every pass, from ``generator`` (or from the default generator,
        so ``manual_seed`` makes it reproducible).
    drop_last : bool, default False
        Drop the last, incomplete batch.
    collate_fn : callable, default ``default_collate``
    generator : Generator, optional

    Only single-process loading exists (``num_workers=0``).
    """

    def __init__(
        self,
        dataset,
        batch_size: int | None = 1,
        shuffle: bool | None = None,
        sampler=None,
        batch_sampler=None,
        num_workers: int = 0,
        collate_fn=None,
        pin_memory: bool = False,
        drop_last: bool = False,
        timeout: float = 0,
        worker_init_fn=None,
        generator=None,
        **kwargs,
    ) -> None:
        if num_workers != 0:
            raise ValueError("minigrad's DataLoader loads in the main process only: use num_workers=0")
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None and (batch_size != 1 or shuffle or sampler is not None or drop_last):
            raise ValueError(
                "batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and drop_last"
            )
        self.dataset, self.batch_size, self.drop_last, self.generator = (
            dataset,
            batch_size,
            drop_last,
            generator,
        )
        self.num_workers = num_workers
        if sampler is None:
            sampler = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
        if batch_sampler is None and batch_size is not None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.sampler, self.batch_sampler = sampler, batch_sampler
        self.collate_fn = (
            collate_fn
            if collate_fn is not None
            else (default_collate if batch_sampler is not None else default_convert)
        )

    def __iter__(self):
        if self.batch_sampler is None:
            for index in self.sampler:
                yield self.collate_fn(self.dataset[index])
            return
        for indices in self.batch_sampler:
            yield self.collate_fn([self.dataset[i] for i in indices])

    def __len__(self) -> int:
        return len(self.batch_sampler if self.batch_sampler is not None else self.sampler)
