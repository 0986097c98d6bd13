"""The ``>>>`` examples in viz's docstrings run and hold."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["viz.model", "viz.style", "viz.capture.tensors", "viz.capture.naming", "viz.capture.walk",
           "viz.render", "viz.plots", "viz.diagram", "viz.export", "viz.text", "viz.fold"]


@pytest.mark.usefixtures("close_figures")
@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    failed, attempted = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert attempted > 0, f"{name} has no examples"
    assert failed == 0
