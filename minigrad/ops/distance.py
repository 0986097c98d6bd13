"""Distances (nn4): ``at::norm(self, p, dim, keepdim)`` as ``NormBackward1`` and ``pdist`` as ``PdistBackward0``.

``F.pairwise_distance(x1, x2)`` is ATen's ``norm(x1 − x2 + eps, p, dim=-1)``: the C++ ``at::norm`` overload
with a dim records ``NormBackward1`` (``Tensor.norm`` from Python records ``LinalgVectorNormBackward0``);
the value and the derivative are the vector p-norm's (``ops/reduce.py``).

``pdist(x)`` (rows ``x_i`` of an ``(N, M)`` matrix) is the vector of ``‖x_i − x_j‖_p`` for ``i < j`` in row
order.  Its derivative: pair (i, j) sends ``g · ∂‖d‖/∂d`` to row i and minus it to row j, ``d = x_i − x_j``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ._rules import rule
from ._util import dims_tuple
from .reduce import _norm, _norm_grad

if TYPE_CHECKING:
    from ._rules import Rule

__all__ = ["NormDim", "Pdist"]


def _norm_dim(self, p, dim, keepdim):
    return _norm(self, p, dim, keepdim)


NormDim: type[Rule] = rule(
    "NormBackward1", _norm_dim, values={"dim": lambda self, dim: dims_tuple(dim, self.ndim)},
    self=("g · self · |self|^(p − 2) / result^(p − 1)  (0 where result = 0)",
          lambda xp, g, self, result, p, dim, keepdim: _norm_grad(xp, g, self, result, p, dim, keepdim)),
    jvp="from_vjp",
    words="The p-norm over dim (at::norm): for p = 2, g · self / ‖self‖ (0 where the norm is 0).")


def _pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    return np.triu_indices(n, 1)


def _pdist(self, p):
    if self.ndim != 2:
        raise RuntimeError("pdist only supports 2D tensors, got: %dD" % self.ndim)
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    i, j = _pairs(self.shape[0])
    diff = self[i] - self[j]
    return _norm(diff, float(p), (1,), False) if len(i) else np.zeros(0, self.dtype)


def _signed_pairs(n: int, dtype) -> np.ndarray:
    """``S`` (pairs × n): +1 at row i and −1 at row j of each pair, so ``S @ x`` is every ``x_i − x_j``."""
    i, j = _pairs(n)
    s = np.zeros((len(i), n), dtype)
    s[np.arange(len(i)), i], s[np.arange(len(i)), j] = 1, -1
    return s


def _pdist_grad(xp, g, self, result, p):
    """The norm's gradient of every difference ``d = S x``, sent back by ``Sᵀ``."""
    s = _signed_pairs(self.shape[0], xp.value(self).dtype)
    if s.shape[0] == 0:
        return self * 0
    diff = xp.mm(xp.const(s), self)
    return xp.mm(xp.const(np.ascontiguousarray(s.T)), _norm_grad(xp, g, diff, result, float(p), (1,), False))


Pdist: type[Rule] = rule(
    "PdistBackward0", _pdist,
    self=("Σ over pairs (i, j): ± g · ∂‖xᵢ − xⱼ‖_p / ∂(xᵢ − xⱼ) at rows i and j", _pdist_grad),
    jvp="from_vjp",
    words="Distances between all pairs of rows: each pair's gradient goes + to its first row, − to its second.")
