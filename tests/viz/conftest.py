"""Fixtures for the viz tests: the autograd library under test, and tidy matplotlib figures."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from types import ModuleType

import pytest

#: Run capture tests on minigrad, and on real PyTorch where installed (marker `torch`).
LIBRARIES = [pytest.param("minigrad", id="minigrad"),
             pytest.param("torch", id="torch", marks=pytest.mark.torch)]


@pytest.fixture(params=LIBRARIES)
def lib(request: pytest.FixtureRequest) -> ModuleType:
    """``minigrad`` or ``torch``: the same program runs on both."""
    return importlib.import_module(request.param)


@pytest.fixture
def minigrad() -> ModuleType:
    return importlib.import_module("minigrad")


@pytest.fixture
def torch() -> ModuleType:
    return pytest.importorskip("torch")


@pytest.fixture
def close_figures() -> Iterator[None]:
    """Close every matplotlib figure a test opened."""
    yield
    import matplotlib.pyplot as plt

    plt.close("all")
