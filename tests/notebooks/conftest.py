"""Fixtures for the course tests: the notebooks folder, ``course_checks`` loaded from it, the library."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"

#: Checks that build tensors run on minigrad, and on real PyTorch where installed (marker `torch`).
LIBRARIES = [pytest.param("minigrad", id="minigrad"),
             pytest.param("torch", id="torch", marks=pytest.mark.torch)]


@pytest.fixture(scope="session")
def checks() -> ModuleType:
    """``notebooks/course_checks.py``, imported the way a notebook imports it (by file)."""
    spec = importlib.util.spec_from_file_location("course_checks", NOTEBOOKS / "course_checks.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("course_checks", module)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(params=LIBRARIES)
def lib(request: pytest.FixtureRequest) -> ModuleType:
    """``minigrad`` or ``torch``: the checks accept either."""
    return importlib.import_module(request.param)
