"""The course's self-checks for the Chinese edition: the very same checks as ``../course_checks.py``.

The notebooks here run with this folder as their working directory, so ``from course_checks
import ...`` finds this file; it loads the English edition's module by path and re-exports it,
so there is one set of checks for both languages (their feedback is in English for now).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_PATH = Path(__file__).resolve().parent.parent / "course_checks.py"
_spec = importlib.util.spec_from_file_location("course_checks_en", _PATH)
assert _spec is not None
assert _spec.loader is not None
_module = importlib.util.module_from_spec(_spec)
sys.modules["course_checks_en"] = _module
_spec.loader.exec_module(_module)

globals().update({name: value for name, value in vars(_module).items() if not name.startswith("__")})
__all__ = [name for name in vars(_module) if not name.startswith("_")]
