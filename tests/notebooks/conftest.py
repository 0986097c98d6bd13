"""Fixtures for the course tests: the notebooks folder, ``course_checks`` and the tools loaded from it, the library."""

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


def load_tool(path: Path, name: str) -> ModuleType:
    """Import the file at ``path`` (a tool in notebooks/tools, ``course_checks.py``) as module ``name``.

    The course's files are scripts beside the notebooks, not a package: they are loaded by path, the
    way a notebook or ``make site`` runs them. The module is registered in ``sys.modules`` (dataclasses
    and pickling look it up there) unless a module of that name is already loaded.
    """
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None, path
    assert spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def checks() -> ModuleType:
    """``notebooks/course_checks.py``, imported the way a notebook imports it (by file).

    Its feedback is pinned to English here, whatever language a viz test left behind (the tests
    match English hints; tests/notebooks/test_check_messages.py tests the switch itself).
    """
    module = load_tool(NOTEBOOKS / "course_checks.py", "course_checks")
    module.set_language("en")
    return module


@pytest.fixture(scope="session")
def learner_tool() -> ModuleType:
    """``notebooks/tools/learner.py`` (``make learner``)."""
    return load_tool(NOTEBOOKS / "tools" / "learner.py", "course_learner_tool")


@pytest.fixture(scope="session")
def site_tool() -> ModuleType:
    """``notebooks/tools/site.py`` (``make site``)."""
    return load_tool(NOTEBOOKS / "tools" / "site.py", "course_site_tool")


@pytest.fixture(scope="session")
def teacher_pack_tool() -> ModuleType:
    """``notebooks/tools/teacher_pack.py`` (the teacher pack)."""
    return load_tool(NOTEBOOKS / "tools" / "teacher_pack.py", "course_teacher_pack")


@pytest.fixture(params=LIBRARIES)
def lib(request: pytest.FixtureRequest) -> ModuleType:
    """``minigrad`` or ``torch``: the checks accept either."""
    return importlib.import_module(request.param)
