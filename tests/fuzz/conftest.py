"""Makes ``fuzzlib`` (this folder's package) importable for the fuzz tests."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
