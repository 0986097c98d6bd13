"""``_safe_softmax``, the softmax of PyTorch's attention math path (nn3): ``SafeSoftmaxBackward0``.

A softmax whose rows that are entirely ``-inf`` (every key masked out) give 0 instead of nan.
Its derivative is softmax's, read from the result: ``result · (g − Σ g·result)`` (0 on such rows).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ._layout import contiguous
from ._rules import rule
from ._util import fmath, wrap_dim

if TYPE_CHECKING:
    from ._rules import Rule

__all__ = ["SafeSoftmax"]


def _safe_softmax(self, dim):
    axis = wrap_dim(dim, self.ndim) if self.ndim else None
    if self.size == 0:
        return self.copy()
    top = self.max(axis=axis, keepdims=True)
    masked = np.isneginf(top)
    with np.errstate(invalid="ignore"):
        e = fmath.exp(self - np.where(masked, 0, top))
        e /= e.sum(axis=axis, keepdims=True)
    return contiguous(np.where(masked, 0, e).astype(self.dtype, copy=False))


SafeSoftmax: type[Rule] = rule(
    "SafeSoftmaxBackward0", _safe_softmax, values={"dim": lambda self, dim: wrap_dim(dim, self.ndim)},
    self=("result · (g − sum(g · result, dim))", lambda xp, g, result, dim: xp.softmax_backward(g, result, dim)),
    jvp=lambda xp, self_t, result, dim: xp.softmax_backward(self_t, result, dim),
    words="Softmax that gives 0 on fully masked rows; from its output y: y · (g − Σ g·y).")
