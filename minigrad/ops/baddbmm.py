"""``baddbmm``: ``beta · self + alpha · batch1 @ batch2`` in one node, ``BaddbmmBackward0`` (nn4).

``nn.MultiheadAttention`` adds its float mask to the attention scores this way (``torch.baddbmm(mask,
q_scaled, kᵀ)``).  ``self`` broadcasts to the product's ``(b, n, p)`` shape; its gradient is summed back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .. import _checks
from ._rules import rule
from .linalg import _same_dtype

if TYPE_CHECKING:
    from ._rules import Rule

__all__ = ["Baddbmm"]


def _baddbmm(self, batch1, batch2, beta=1, alpha=1):
    a, b = batch1._data, batch2._data
    if a.ndim != 3 or b.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor" if a.ndim != 3 else "batch2 must be a 3D tensor")
    if a.shape[0] != b.shape[0] or a.shape[2] != b.shape[1]:
        raise RuntimeError("Expected size for first two dimensions of batch2 tensor to be: [%d, %d] but got: "
                           "[%d, %d]." % (a.shape[0], a.shape[2], b.shape[0], b.shape[1]))
    if a.dtype != b.dtype:
        _same_dtype(batch1, batch2, "bmm")
    if self._data.dtype != a.dtype:
        raise RuntimeError("Input dtypes must be the same, got: input %s, batch1: %s, batch2: %s"
                           % (self.dtype._legacy, batch1.dtype._legacy, batch2.dtype._legacy))
    shape = (a.shape[0], a.shape[1], b.shape[2])
    _checks.expandable(self._data.shape, shape)
    out = np.matmul(a, b)
    if alpha != 1:
        out = out * alpha
    if beta == 0:                                  # as addmm: self is ignored, nan and inf in it too
        return out
    out += self._data if beta == 1 else beta * self._data
    return out


def _scaled(xp, g, factor):
    return g if factor == 1 else xp.mul_scalar(g, factor)


Baddbmm: type[Rule] = rule(
    "BaddbmmBackward0", _baddbmm, arrays=False,
    self=("beta · g", lambda xp, g, beta: _scaled(xp, g, beta)),
    batch1=("alpha · g @ batch2ᵀ", lambda xp, g, batch2, alpha:
            _scaled(xp, xp.bmm(g, xp.transpose(batch2, 1, 2)), alpha)),
    batch2=("alpha · batch1ᵀ @ g", lambda xp, g, batch1, alpha:
            _scaled(xp, xp.bmm(xp.transpose(batch1, 1, 2), g), alpha)),
    jvp=lambda xp, self_t, batch1_t, batch2_t, batch1, batch2, beta, alpha:
        _scaled(xp, self_t, beta) + _scaled(xp, xp.bmm(batch1_t, batch2), alpha)
        + _scaled(xp, xp.bmm(batch1, batch2_t), alpha),
    words="beta · self + alpha · batch1 @ batch2 per batch: self gets beta · g (summed to its shape), "
          "the factors as in bmm.")
