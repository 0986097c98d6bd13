"""``minigrad.utils.data``: ``Dataset``, ``TensorDataset``, ``DataLoader`` (mini-batches, seeded shuffling).

>>> import minigrad as torch
>>> from minigrad.utils.data import DataLoader, TensorDataset
>>> data = TensorDataset(torch.arange(10.).view(5, 2), torch.arange(5))
>>> [tuple(y.tolist()) for _, y in DataLoader(data, batch_size=2)]
[(0, 1), (2, 3), (4,)]
"""

from .dataloader import DataLoader, default_collate, default_convert, get_worker_info
from .dataset import ConcatDataset, Dataset, Subset, TensorDataset, random_split
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler, SubsetRandomSampler, WeightedRandomSampler

__all__ = [
    "Dataset",
    "TensorDataset",
    "Subset",
    "ConcatDataset",
    "random_split",
    "DataLoader",
    "default_collate",
    "default_convert",
    "get_worker_info",
    "Sampler",
    "SequentialSampler",
    "RandomSampler",
    "SubsetRandomSampler",
    "WeightedRandomSampler",
    "BatchSampler",
]
