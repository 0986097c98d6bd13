"""``DataLoader``: iterate over a dataset in (shuffled) mini-batches, collated into tensors."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from ... import _creation, _dtype
from ..._tensor import Tensor
from .sampler import BatchSampler, RandomSampler, SequentialSampler

__all__ = ["DataLoader", "default_collate", "default_convert", "get_worker_info"]


def default_collate(batch: Any) -> Any:
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


def default_convert(data: Any) -> Any:
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
    num_workers : int, default 0
        PyTorch loads in worker processes. minigrad emulates them in the main process with the same
        order and the same seeds: worker ``i`` gets ``base_seed + i`` for its generator (and Python's
        ``random``), ``worker_init_fn(i)`` runs under it, batch ``k`` is made by worker
        ``k % num_workers``, and ``get_worker_info()`` answers inside; the main process's generator is
        untouched by the workers' draws, as with real processes.
    """

    collate_fn: Callable[[list[Any]], Any]

    worker_init_fn: Any
    prefetch_factor: int | None
    persistent_workers: bool
    dataset: Any
    batch_size: int | None
    drop_last: bool
    generator: Any
    sampler: Any
    batch_sampler: Any | None

    def __init__(self, dataset: Any, batch_size: int | None = 1, shuffle: bool | None = None, sampler: Any = None,
                 batch_sampler: Any = None, num_workers: int = 0, collate_fn: Any = None, pin_memory: bool = False,
                 drop_last: bool = False, timeout: float = 0, worker_init_fn: Any = None, generator: Any = None, *,
                 prefetch_factor: int | None = None, persistent_workers: bool = False, **kwargs: Any) -> None:
        if num_workers < 0:
            raise ValueError(
                "num_workers option should be non-negative; use num_workers=0 to disable multiprocessing."
            )
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError(
                "prefetch_factor option could only be specified in multiprocessing.let num_workers > 0 to "
                "enable multiprocessing, otherwise set prefetch_factor to None."
            )
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")
        self.worker_init_fn, self.prefetch_factor = worker_init_fn, (2 if num_workers and prefetch_factor is None
                                                                     else prefetch_factor)
        self.persistent_workers, self._iterator = persistent_workers, None
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

    def __iter__(self) -> Any:
        if self.persistent_workers and self.num_workers > 0:
            if self._iterator is None:
                self._iterator = _DataLoaderIter(self)
            else:
                self._iterator._reset()
            return self._iterator
        return _DataLoaderIter(self)

    def __len__(self) -> int:
        return len(self.batch_sampler if self.batch_sampler is not None else self.sampler)


class WorkerInfo:
    """What ``get_worker_info()`` returns inside a worker: ``id``, ``num_workers``, ``seed``, ``dataset``."""

    id: int
    num_workers: int
    seed: int
    dataset: Any

    def __init__(self, **kwargs: Any) -> None:
        self.__dict__.update(kwargs)

    def __repr__(self) -> str:
        return "WorkerInfo(%s)" % ", ".join("%s=%s" % (k, v) for k, v in self.__dict__.items())


_worker_info: WorkerInfo | None = None


def get_worker_info() -> WorkerInfo | None:
    """Inside a DataLoader worker, its ``WorkerInfo``; in the main process, ``None``."""
    return _worker_info


class _Worker:
    """One emulated worker process: its own default-generator state and Python ``random`` state."""

    def __init__(self, loader: Any, worker_id: int, base_seed: int) -> None:
        import random

        self.info = WorkerInfo(id=worker_id, num_workers=loader.num_workers, seed=base_seed + worker_id,
                               dataset=loader.dataset)
        rng = _creation.Generator().manual_seed(self.info.seed)
        self.torch_state = rng.get_state()
        saved = random.getstate()
        random.seed(self.info.seed)
        self.random_state = random.getstate()
        random.setstate(saved)
        if loader.worker_init_fn is not None:
            self.run(loader.worker_init_fn, worker_id)

    def run(self, fn: Any, *args: Any) -> Any:
        """Call ``fn`` as this worker: its generator states swapped in, the main process's restored after."""
        import random

        global _worker_info
        main_torch, main_random, main_info = _creation.get_rng_state(), random.getstate(), _worker_info
        _creation.set_rng_state(self.torch_state)
        random.setstate(self.random_state)
        _worker_info = self.info
        try:
            return fn(*args)
        finally:
            self.torch_state, self.random_state = _creation.get_rng_state(), random.getstate()
            _creation.set_rng_state(main_torch)
            random.setstate(main_random)
            _worker_info = main_info


class _DataLoaderIter:
    """``iter(loader)``: PyTorch's order of draws — the base seed now, the sampler's seed at the first batch."""

    def __init__(self, loader: Any) -> None:
        self._loader = loader
        self._sampler_iter = iter(loader.batch_sampler if loader.batch_sampler is not None else loader.sampler)
        self._base_seed = int(_creation.empty((), dtype=_dtype.int64).random_(generator=loader.generator).item())
        self._workers = [_Worker(loader, i, self._base_seed) for i in range(loader.num_workers)]
        self._count = 0

    def _reset(self) -> None:
        self._sampler_iter = iter(
            self._loader.batch_sampler if self._loader.batch_sampler is not None else self._loader.sampler)
        self._count = 0

    def __iter__(self) -> Any:
        return self

    def __len__(self) -> int:
        return len(self._loader)

    def _fetch(self, index):
        loader = self._loader
        if loader.batch_sampler is None:
            return loader.collate_fn(loader.dataset[index])
        return loader.collate_fn([loader.dataset[i] for i in index])

    def __next__(self) -> Any:
        index = next(self._sampler_iter)
        worker = self._workers[self._count % len(self._workers)] if self._workers else None
        self._count += 1
        if worker is None:
            return self._fetch(index)
        return worker.run(self._fetch, index)
