"""``DataLoader(num_workers > 0)``: real worker processes with PyTorch's seeds, order and errors."""

from __future__ import annotations

import os
import random
import warnings

import numpy as np
import pytest

import minigrad as torch
from minigrad.utils.data import DataLoader, Dataset, get_worker_info
from minigrad.utils.data.dataloader import _numpy_seed

pytestmark = pytest.mark.filterwarnings("ignore:This DataLoader will create")


class Probe(Dataset):
    def __len__(self):
        return 12

    def __getitem__(self, i):
        info = get_worker_info()
        wid, seed = (info.id, info.seed) if info is not None else (-1, -1)
        return (torch.tensor(float(i)), os.getpid(), wid, seed, torch.initial_seed(), random.random(),
                float(np.random.rand()))  # noqa: NPY002 - numpy's global RNG, seeded per worker


def test_batches_come_from_worker_processes_in_the_samplers_order():
    torch.manual_seed(0)
    batches = list(DataLoader(Probe(), batch_size=2, shuffle=True, num_workers=2))
    torch.manual_seed(0)
    expected = [b[0] for b in DataLoader(Probe(), batch_size=2, shuffle=True)]
    assert [b[0].tolist() for b in batches] == [e.tolist() for e in expected]
    pids = {p for b in batches for p in b[1].tolist()}
    assert os.getpid() not in pids
    assert len(pids) == 2
    assert [b[2].tolist() for b in batches] == [[k % 2] * 2 for k in range(6)]      # batch k: worker k % 2


def test_worker_seeds_are_pytorchs():
    torch.manual_seed(3)
    loader = DataLoader(Probe(), batch_size=1, num_workers=2)
    it = iter(loader)
    base_seed = it._base_seed
    for k, (_, _, wid, seed, initial, r, n) in enumerate(it):
        assert seed.item() == initial.item() == base_seed + wid.item()
        if k < 2:                                    # the first draw of each worker
            assert r.item() == random.Random(base_seed + wid.item()).random()
            rs = np.random.RandomState(_numpy_seed(base_seed, wid.item()))
            assert n.item() == rs.rand()


def test_numpy_seed_is_pytorchs_generate_state():
    """Known values of torch.utils.data._utils.worker._generate_state (PyTorch 2.13)."""
    assert _numpy_seed(0, 1) == list(np.random.SeedSequence([1, 0, 0, 0]).generate_state(4))
    assert len(_numpy_seed(2 ** 63 - 1, 3)) == 4


def test_main_generator_only_gives_the_base_seed():
    torch.manual_seed(0)
    list(DataLoader(Probe(), batch_size=4, num_workers=2))
    after = torch.rand(3)
    torch.manual_seed(0)
    list(DataLoader(Probe(), batch_size=4))
    assert torch.equal(after, torch.rand(3))


def test_persistent_workers_are_reused_and_an_abandoned_epoch_is_dropped():
    loader = DataLoader(Probe(), batch_size=3, num_workers=2, persistent_workers=True)
    first = next(iter(loader))                       # abandon the epoch after one batch
    epoch = list(loader)
    assert [b[0].tolist() for b in epoch] == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0], [9.0, 10.0, 11.0]]
    assert set(first[1].tolist()) <= {p for b in epoch for p in b[1].tolist()}
    assert all(w.is_alive() for w in loader._iterator._workers)
    loader._iterator._shutdown_workers()


class Failing(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        if i == 2:
            raise KeyError("bad item %d" % i)
        return i


def test_worker_errors_are_reraised_with_the_worker_traceback():
    with pytest.raises(KeyError) as info:
        list(DataLoader(Failing(), num_workers=2))
    message = str(info.value)
    assert message.startswith("Caught KeyError in DataLoader worker process 0.\nOriginal Traceback")
    assert "KeyError: 'bad item 2'" in message


def _bad_init(worker_id):
    raise ValueError("no init")


def test_a_failing_worker_init_fn_is_reported_with_the_first_batch():
    with pytest.raises(ValueError, match="Caught ValueError in DataLoader worker process 0"):
        list(DataLoader(Failing(), num_workers=1, worker_init_fn=_bad_init))


def test_too_many_workers_warn_like_pytorch():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        DataLoader(Failing(), num_workers=len(os.sched_getaffinity(0)) + 1)
    assert [str(w.message).split(".")[0] for w in caught] == [
        "This DataLoader will create %d worker processes in total" % (len(os.sched_getaffinity(0)) + 1)]


def test_timeout_must_be_non_negative():
    with pytest.raises(ValueError, match="timeout option should be non-negative"):
        DataLoader(Failing(), num_workers=1, timeout=-1)
