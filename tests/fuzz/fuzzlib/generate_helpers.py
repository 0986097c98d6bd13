"""Small shape helpers shared by the generator and the op table."""

from __future__ import annotations


def broadcastable(s1: tuple, s2: tuple) -> bool:
    """True when shapes ``s1`` and ``s2`` broadcast together."""
    return all(a == b or a == 1 or b == 1 for a, b in zip(reversed(s1), reversed(s2)))
