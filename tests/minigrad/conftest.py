"""Shared set-up of the minigrad tests: the op table is importable as ``op_cases``, and hypothesis profiles.

Profiles (``HYPOTHESIS_PROFILE=...``): ``default`` keeps the whole folder under a few minutes on
2 cores; ``thorough`` runs ten times as many examples per test.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).resolve().parent))

settings.register_profile(
    "default",
    deadline=None,                      # gradgradcheck of a matmul may take a while on a loaded machine
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.differing_executors],
    derandomize=False,
    print_blob=True,
)
settings.register_profile("thorough", parent=settings.get_profile("default"), max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
