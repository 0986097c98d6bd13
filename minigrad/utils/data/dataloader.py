"""``DataLoader``: iterate over a dataset in (shuffled) mini-batches, collated into tensors."""

from __future__ import annotations

import contextlib
import os
import queue
import random
import sys
import time
import traceback
import warnings
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
        How many worker processes load batches (0: the main process does).  As in PyTorch, each
        ``iter(loader)`` draws a base seed from the main generator; worker ``i`` seeds ``torch`` and
        ``random`` with ``base_seed + i`` and numpy with PyTorch's ``_generate_state(base_seed, i)``,
        runs ``worker_init_fn(i)``, and answers ``get_worker_info()``; batch ``k`` is made by worker
        ``k % num_workers`` and batches arrive in the sampler's order.
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
        self.timeout, self.multiprocessing_context = timeout, kwargs.pop("multiprocessing_context", None)
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
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
        if num_workers:
            _check_worker_number(num_workers)                 # PyTorch warns here, and again at each iter()
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
                self._iterator = self._get_iterator()
            else:
                self._iterator._reset()
            return self._iterator
        return self._get_iterator()

    def _get_iterator(self):
        if self.num_workers == 0:
            return _SingleProcessIter(self)
        _check_worker_number(self.num_workers)
        return _MultiProcessIter(self)

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


def _check_worker_number(num_workers) -> None:
    """PyTorch warns when there are more workers than CPUs this process may run on."""

    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    if cpus is None or num_workers > cpus:
        suggest = ("Our suggested max number of worker in current system is %d%s, which is smaller than what this "
                   "DataLoader is going to create." % (cpus, "" if hasattr(os, "sched_getaffinity") else
                                                        " (`cpuset` is not taken into account)")
                   if cpus is not None else
                   "DataLoader is not able to compute a suggested max number of worker in current system.")
        warnings.warn("This DataLoader will create %d worker processes in total. %s Please be aware that excessive "
                      "worker creation might get DataLoader running slow or even freeze, lower the worker number to "
                      "avoid potential slowness/freeze if necessary." % (num_workers, suggest), stacklevel=3)


def _fetch(dataset, collate_fn, batched, index):
    """One batch (``batched``: ``index`` is a list of dataset indices) or one sample."""
    if not batched:
        return collate_fn(dataset[index])
    return collate_fn([dataset[i] for i in index])


def _numpy_seed(base_seed: int, worker_id: int) -> list:
    """The seed PyTorch gives numpy in a worker (its ``_generate_state``: numpy's SeedSequence of the
    worker id and the two 32-bit halves of the base seed)."""
    return list(np.random.SeedSequence([worker_id, base_seed & 0xFFFFFFFF, base_seed >> 32, 0]).generate_state(4))


class _SingleProcessIter:
    """``iter(loader)`` with ``num_workers=0``: PyTorch's order of draws — the base seed now (unused,
    but drawn), the sampler's seed at the first batch."""

    def __init__(self, loader: Any) -> None:
        self._loader = loader
        self._base_seed = int(_creation.empty((), dtype=_dtype.int64).random_(generator=loader.generator).item())
        self._reset()

    def _reset(self) -> None:
        loader = self._loader
        self._sampler_iter = iter(loader.batch_sampler if loader.batch_sampler is not None else loader.sampler)

    def __iter__(self) -> Any:
        return self

    def __len__(self) -> int:
        return len(self._loader)

    def __next__(self):
        loader = self._loader
        return _fetch(loader.dataset, loader.collate_fn, loader.batch_sampler is not None, next(self._sampler_iter))


class _KeyErrorMessage(str):
    def __repr__(self):
        return self


class _ExceptionWrapper:
    """An exception raised in a worker, carried to the main process with its traceback."""

    def __init__(self, worker_id: int) -> None:
        exc_info = sys.exc_info()
        self.exc_type, self.where = exc_info[0], "in DataLoader worker process %d" % worker_id
        self.exc_msg = "".join(traceback.format_exception(*exc_info))

    def reraise(self):
        message = "Caught %s %s.\nOriginal %s" % (self.exc_type.__name__, self.where, self.exc_msg)
        if self.exc_type is KeyError:          # str(KeyError(m)) is repr(m): keep the traceback readable
            message = _KeyErrorMessage(message)
        try:
            exception = self.exc_type(message)
        except Exception:
            raise RuntimeError(message) from None
        raise exception


def _worker_loop(dataset, index_queue, data_queue, collate_fn, batched, base_seed, init_fn, worker_id,
                 num_workers) -> None:
    """The body of one worker process: seed, ``worker_init_fn``, then fetch batches until told to stop."""

    global _worker_info
    seed = base_seed + worker_id
    random.seed(seed)
    _creation.manual_seed(seed)
    np.random.seed(_numpy_seed(base_seed, worker_id))  # noqa: NPY002 - PyTorch seeds numpy's global RNG
    _worker_info = WorkerInfo(id=worker_id, num_workers=num_workers, seed=seed, dataset=dataset)
    init_error = None
    try:
        if init_fn is not None:
            init_fn(worker_id)
    except Exception:
        init_error = _ExceptionWrapper(worker_id)
    while True:
        task = index_queue.get()
        if task is None:                      # the main process is done with this worker
            break
        epoch, idx, index = task
        if init_error is not None:            # PyTorch reports a failed worker_init_fn with the first batch
            data, init_error = init_error, None
        else:
            try:
                data = _fetch(dataset, collate_fn, batched, index)
            except Exception:
                data = _ExceptionWrapper(worker_id)
        data_queue.put((epoch, idx, data))


class _MultiProcessIter:
    """``iter(loader)`` with worker processes (PyTorch's ``_MultiProcessingDataLoaderIter``, simplified).

    Each worker has its own queue of batch indices; all put ``(epoch, idx, batch)`` on one result queue.
    ``prefetch_factor × num_workers`` batches are in flight; indices go to the workers round-robin and
    batches are handed out in index order (a batch that arrives early waits in ``_buffer``).
    """

    def __init__(self, loader) -> None:
        import multiprocessing  # only a loader with workers uses it: not loaded by `import minigrad`

        self._loader = loader
        self._base_seed = int(_creation.empty((), dtype=_dtype.int64).random_(generator=loader.generator).item())
        context = loader.multiprocessing_context
        if context is None:
            context = multiprocessing.get_context()
        elif isinstance(context, str):
            context = multiprocessing.get_context(context)
        self._data_queue = context.Queue()
        self._index_queues, self._workers = [], []
        for i in range(loader.num_workers):
            index_queue = context.Queue()
            worker = context.Process(target=_worker_loop, daemon=True, args=(
                loader.dataset, index_queue, self._data_queue, loader.collate_fn, loader.batch_sampler is not None,
                self._base_seed, loader.worker_init_fn, i, loader.num_workers))
            worker.start()
            self._index_queues.append(index_queue)
            self._workers.append(worker)
        self._epoch, self._shutdown = 0, False
        self._reset()

    def _reset(self) -> None:
        loader = self._loader
        self._sampler_iter = iter(loader.batch_sampler if loader.batch_sampler is not None else loader.sampler)
        self._epoch += 1                      # results of an abandoned epoch are dropped when they arrive
        self._send_idx = self._rcvd_idx = 0
        self._buffer: dict = {}
        self._next_worker = 0
        for _ in range(loader.prefetch_factor * loader.num_workers):
            self._put_index()

    def _put_index(self) -> None:
        try:
            index = next(self._sampler_iter)
        except StopIteration:
            return
        self._index_queues[self._next_worker].put((self._epoch, self._send_idx, index))
        self._next_worker = (self._next_worker + 1) % len(self._workers)
        self._send_idx += 1

    def __iter__(self):
        return self

    def __len__(self) -> int:
        return len(self._loader)

    def _get(self):
        timeout = self._loader.timeout
        start = time.monotonic()
        while True:
            try:
                return self._data_queue.get(timeout=min(timeout, 5.0) if timeout else 5.0)
            except queue.Empty:
                if timeout and time.monotonic() - start >= timeout:
                    raise RuntimeError("DataLoader timed out after %s seconds" % timeout) from None
                dead = [w.pid for w in self._workers if not w.is_alive()]
                if dead:
                    self._shutdown_workers()
                    raise RuntimeError("DataLoader worker (pid(s) %s) exited unexpectedly"
                                       % ", ".join(map(str, dead))) from None

    def __next__(self) -> Any:
        if self._rcvd_idx >= self._send_idx:                  # every batch handed out
            if not self._loader.persistent_workers:
                self._shutdown_workers()
            raise StopIteration
        while self._rcvd_idx not in self._buffer:
            epoch, idx, data = self._get()
            if epoch == self._epoch:
                self._buffer[idx] = data
        data = self._buffer.pop(self._rcvd_idx)
        self._rcvd_idx += 1
        self._put_index()
        if isinstance(data, _ExceptionWrapper):
            data.reraise()
        return data

    def _shutdown_workers(self) -> None:
        if self._shutdown:
            return
        self._shutdown = True
        for index_queue in self._index_queues:
            index_queue.put(None)
        for worker in self._workers:
            worker.join(timeout=5.0)
            if worker.is_alive():
                worker.terminate()
        for q in [*self._index_queues, self._data_queue]:
            q.cancel_join_thread()
            q.close()

    def __del__(self):
        with contextlib.suppress(Exception):      # at interpreter shutdown the queues may be gone already
            self._shutdown_workers()
