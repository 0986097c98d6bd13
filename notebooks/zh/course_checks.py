"""The course's self-checks for the Chinese edition: the very same checks as ``../course_checks.py``.

The notebooks here run with this folder as their working directory, so ``from course_checks
import ...`` finds this file; it loads the English edition's module by path and re-exports it,
so there is one set of checks for both languages. The feedback comes from the one message table
of ``../course_checks.py`` (``MESSAGES``, English and Chinese): it is Chinese once the notebook has
called ``viz.set_language("zh")``, as every notebook here does (or ``course_checks.set_language("zh")``).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path


def _english_checks() -> Path:
    """``../course_checks.py`` (the checkout, a learner copy), else the checkout's beside ``minigrad``."""
    here = Path(__file__).resolve().parent
    candidates = [here.parent / "course_checks.py"]
    spec = importlib.util.find_spec("minigrad")
    if spec is not None and spec.origin is not None:  # a copy of this folder elsewhere (site build)
        candidates.append(Path(spec.origin).resolve().parents[1] / "notebooks" / "course_checks.py")
    for candidate in candidates:
        if candidate.is_file() and candidate.resolve() != Path(__file__).resolve():
            return candidate
    raise ImportError("course_checks: the English edition's course_checks.py was not found; looked at "
                      + ", ".join(map(str, candidates)))


_PATH = _english_checks()
_spec = importlib.util.spec_from_file_location("course_checks_en", _PATH)
assert _spec is not None
assert _spec.loader is not None
_module = importlib.util.module_from_spec(_spec)
sys.modules["course_checks_en"] = _module
_spec.loader.exec_module(_module)

globals().update({name: value for name, value in vars(_module).items() if not name.startswith("__")})
__all__ = [name for name in vars(_module) if not name.startswith("_")]
