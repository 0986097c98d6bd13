"""Shared set-up of the nn tests: ``nn_graphs`` importable (pytest runs with ``--import-mode=importlib``)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
