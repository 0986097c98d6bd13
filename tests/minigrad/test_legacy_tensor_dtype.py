"""``torch.Tensor(...)``, the legacy constructor, follows the default dtype (as in PyTorch); FloatTensor does not."""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType

import pytest


@pytest.fixture
def float64_default(lib: ModuleType) -> Iterator[ModuleType]:
    lib.set_default_dtype(lib.float64)
    try:
        yield lib
    finally:
        lib.set_default_dtype(lib.float32)


def test_tensor_follows_the_default_dtype(float64_default: ModuleType) -> None:
    lib = float64_default
    assert lib.Tensor([1, 2]).dtype == lib.float64           # data
    assert lib.Tensor(2, 3).dtype == lib.float64             # a shape
    assert lib.Tensor().dtype == lib.float64                 # empty
    assert lib.FloatTensor([1]).dtype == lib.float32         # a named type keeps its dtype


def test_tensor_is_float32_by_default(lib: ModuleType) -> None:
    assert lib.Tensor([1, 2]).dtype == lib.float32
    assert lib.Tensor(2).dtype == lib.float32
