"""Shared set-up of the minigrad tests: ``op_cases``/``helpers`` importable, hypothesis settings, ``lib``.

Each hypothesis test sets its own (small) ``max_examples`` so that the folder runs in well under
three minutes on two cores; the profile here only turns off deadlines (a loaded machine is slow).
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).resolve().parent))

settings.register_profile(
    "default",
    deadline=None,  # gradgradcheck of a matmul may take a while on a loaded machine
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.differing_executors],
    derandomize=False,
    print_blob=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


#: The same test body on minigrad, and on real PyTorch where installed (marker ``torch``): the
#: expectations written in a test are then checked against PyTorch itself.
LIBRARIES = [
    pytest.param("minigrad", id="minigrad"),
    pytest.param("torch", id="torch", marks=pytest.mark.torch),
]


@pytest.fixture(params=LIBRARIES)
def lib(request: pytest.FixtureRequest) -> ModuleType:
    """``minigrad`` or ``torch``."""
    return importlib.import_module(request.param)
