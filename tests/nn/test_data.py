"""utils.data: TensorDataset, DataLoader batching, drop_last, seeded shuffling, default_collate."""

from __future__ import annotations

from collections import namedtuple

import numpy as np
import pytest

import minigrad
from minigrad.utils.data import (
    BatchSampler,
    DataLoader,
    Dataset,
    RandomSampler,
    SequentialSampler,
    Subset,
    TensorDataset,
    default_collate,
    random_split,
)


def dataset(n=10):
    return TensorDataset(minigrad.arange(2.0 * n).view(n, 2), minigrad.arange(n))


def labels(loader):
    return [y.tolist() for _, y in loader]


def flat_labels(loader):
    return [label for _, y in loader for label in y.tolist()]


def test_tensor_dataset():
    data = dataset(5)
    x, y = data[1]
    assert len(data) == 5
    assert x.tolist() == [2.0, 3.0]
    assert y.item() == 1
    with pytest.raises(AssertionError, match="Size mismatch between tensors"):
        TensorDataset(minigrad.ones(2), minigrad.ones(3))


def test_batches_in_order_and_drop_last():
    assert labels(DataLoader(dataset(5), batch_size=2)) == [[0, 1], [2, 3], [4]]
    assert labels(DataLoader(dataset(5), batch_size=2, drop_last=True)) == [[0, 1], [2, 3]]
    assert len(DataLoader(dataset(5), batch_size=2)) == 3
    assert len(DataLoader(dataset(5), 2, drop_last=True)) == 2
    x, y = next(iter(DataLoader(dataset(5), batch_size=2)))
    assert x.shape == (2, 2)
    assert y.dtype is minigrad.int64


def test_shuffle_is_a_permutation_reproducible_with_manual_seed():
    loader = DataLoader(dataset(10), batch_size=3, shuffle=True)
    minigrad.manual_seed(0)
    first = flat_labels(loader)
    second = flat_labels(loader)
    assert sorted(first) == list(range(10))
    assert first != list(range(10))
    assert first != second  # a new order every pass
    minigrad.manual_seed(0)
    assert flat_labels(loader) == first


def test_shuffle_with_a_generator():
    def order(seed):
        loader = DataLoader(
            dataset(10), batch_size=4, shuffle=True, generator=minigrad.Generator().manual_seed(seed)
        )
        return flat_labels(loader)

    assert order(1) == order(1)
    assert order(1) != order(2)


def test_no_batching_and_custom_collate():
    loader = DataLoader(dataset(3), batch_size=None)
    assert len(loader) == 3
    assert [y.item() for _, y in loader] == [0, 1, 2]
    assert type(next(iter(loader))) is list
    loader = DataLoader(dataset(4), batch_size=2, collate_fn=lambda batch: len(batch))
    assert list(loader) == [2, 2]


def test_default_collate():
    batch = default_collate([(minigrad.ones(2), 0, "a"), (minigrad.zeros(2), 1, "b")])
    assert type(batch) is list
    assert batch[0].shape == (2, 2)
    assert batch[1].tolist() == [0, 1]
    assert batch[2] == ("a", "b")
    both = default_collate([{"x": 1.0, "v": np.array([1, 2])}, {"x": 2.0, "v": np.array([3, 4])}])
    assert both["x"].dtype is minigrad.float64
    assert both["v"].tolist() == [[1, 2], [3, 4]]
    Pair = namedtuple("Pair", "a b")
    pair = default_collate([Pair(1, 2.0), Pair(3, 4.0)])
    assert type(pair) is Pair
    assert pair.a.tolist() == [1, 3]


def test_custom_dataset_subset_and_split():
    class Squares(Dataset):
        def __len__(self):
            return 6

        def __getitem__(self, i):
            return minigrad.tensor(float(i * i))

    assert [b.tolist() for b in DataLoader(Squares(), batch_size=4)] == [[0.0, 1.0, 4.0, 9.0], [16.0, 25.0]]
    assert [Subset(Squares(), [5, 1])[i].item() for i in range(2)] == [25.0, 1.0]
    parts = random_split(Squares(), [4, 2], generator=minigrad.Generator().manual_seed(0))
    assert sorted(parts[0].indices + parts[1].indices) == list(range(6))
    assert [len(p) for p in random_split(Squares(), [0.5, 0.5])] == [3, 3]
    with pytest.raises(NotImplementedError, match="Subclasses of Dataset should implement __getitem__"):
        Dataset()[0]
    assert len(Squares() + Squares()) == 12


def test_samplers_and_errors():
    assert list(SequentialSampler(range(3))) == [0, 1, 2]
    assert list(BatchSampler(range(5), 2, drop_last=False)) == [[0, 1], [2, 3], [4]]
    assert sorted(RandomSampler(range(5))) == [0, 1, 2, 3, 4]
    assert len(list(RandomSampler(range(5), replacement=True, num_samples=8))) == 8
    with pytest.raises(
        ValueError, match="batch_size should be a positive integer value, but got batch_size=0"
    ):
        DataLoader(dataset(), batch_size=0)
    with pytest.raises(ValueError, match="sampler option is mutually exclusive with shuffle"):
        DataLoader(dataset(), sampler=[0], shuffle=True)
