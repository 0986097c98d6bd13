"""Text that is safe to show: any user-provided string -> something Graphviz, SVG and HTML accept.

Names come from users (``params=``/``names=``, module paths, custom ``Function`` class
names, titles).  XML 1.0 -- and so SVG -- cannot hold NUL and most other control
characters, U+FFFE/U+FFFF or lone surrogates, and a 16,000-character name would make
a box wider than any screen.  :func:`safe_text` replaces the first (C0 controls by
their visible Unicode "control picture", e.g. NUL -> ␀; the rest by U+FFFD) and
truncates the second with an ellipsis.  Pure functions, no dependencies.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["safe_text", "safe_name", "safe_path", "MAX_NAME"]

#: Longest name drawn in full; longer ones end in "…".
MAX_NAME = 80

# Characters XML 1.0 cannot hold (plus C1 controls and DEL, invisible anyway); \t and \n are kept.
_BAD = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def _replacement(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    if code < 0x20:
        return chr(0x2400 + code)  # ␀ ␁ ... ␟
    if code == 0x7F:
        return "\u2421"  # ␡
    return "\ufffd"


def safe_text(text: object, limit: int | None = None) -> str:
    r"""``text`` as a string XML can hold, at most ``limit`` characters (then "…").

    Parameters
    ----------
    text : object
        Converted with ``str``.
    limit : int, optional
        Truncate longer text to ``limit - 1`` characters plus "…".

    Examples
    --------
    >>> safe_text("a\x00b\uffff")
    'a␀b\ufffd'
    >>> safe_text("x" * 100, limit=10)
    'xxxxxxxxx…'
    >>> safe_text("\ud800") == "\ufffd"
    True
    """
    text = str(text)
    if limit is not None and len(text) > limit:
        text = text[: max(0, limit - 1)] + "…"
    if _BAD.search(text):
        text = _BAD.sub(_replacement, text)
    return text


@lru_cache(maxsize=4096)
def _safe_name(text: str) -> str:
    return safe_text(text, MAX_NAME)


def safe_name(text: object) -> str:
    """A user-provided name: :func:`safe_text` limited to :data:`MAX_NAME` characters."""
    return _safe_name(str(text))


def safe_path(path: object) -> str:
    """A dotted name (``encoder.0.weight``): each part made safe on its own, dots kept."""
    return ".".join(safe_name(part) for part in str(path).split("."))
