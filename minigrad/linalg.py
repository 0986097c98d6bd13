"""``torch.linalg``: ``det``, ``inv``, ``solve``, ``svd``, ``svdvals``, ``slogdet``, ``norm`` — differentiable.

>>> import minigrad as torch
>>> A = torch.tensor([[2., 1.], [1., 3.]], requires_grad=True)
>>> torch.linalg.det(A)
tensor(5., grad_fn=<LinalgDetBackward0>)
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ._tensor import Tensor

if TYPE_CHECKING:
    from ._dtype import dtype
from .ops import decomp as D

__all__ = ["det", "inv", "solve", "svd", "svdvals", "slogdet", "norm", "vector_norm", "matrix_norm", "LinAlgError"]

LinAlgError = D.LinAlgError


def _result_type(name, fields):
    base = namedtuple(name, fields)

    def __repr__(self):
        return "torch.return_types.%s(\n%s)" % (name, ",\n".join("%s=%r" % (f, getattr(self, f)) for f in fields))
    return type(name, (base,), {"__repr__": __repr__, "__slots__": ()})


_svd_result = _result_type("linalg_svd", ["U", "S", "Vh"])
_torch_svd_result = _result_type("svd", ["U", "S", "V"])
_slogdet_result = _result_type("linalg_slogdet", ["sign", "logabsdet"])
_torch_slogdet_result = _result_type("slogdet", ["sign", "logabsdet"])   # torch.slogdet's name for it


def det(A: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The determinant of each square matrix (``LinalgDetBackward0``)."""
    D.check_square("linalg.det", A)
    return D.Det.apply(A)


def inv(A: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The inverse of each square matrix (``LinalgInvExBackward0``); a singular one raises ``LinAlgError``."""
    D.check_square("linalg.inv", A)
    return D.Inv.apply(A)


def solve(A: Tensor, B: Tensor, *, left: bool = True, out: Tensor | None = None) -> Tensor:
    """``X`` with ``A X = B`` (B a vector or a matrix of right-hand sides)."""
    D.check_square("linalg.solve", A)
    if not left:
        return solve(A.transpose(-2, -1), B.transpose(-2, -1)).transpose(-2, -1)
    return D.Solve.apply(A, B)


def svd(A: Tensor, full_matrices: bool = True, *, driver: str | None = None, out: Tensor | None = None) -> Any:
    """``A = U diag(S) Vh`` (``LinalgSvdBackward0``); singular values in descending order."""
    if A.ndim < 2:
        raise RuntimeError("linalg.svd: The input tensor A must have at least 2 dimensions.")
    return _svd_result(*D.Svd.apply(A, bool(full_matrices)))


def svdvals(A: Tensor, *, driver: str | None = None, out: Tensor | None = None) -> Tensor:
    return D.Svd.apply(A, False)[1]


def slogdet(A: Tensor, *, out: Tensor | None = None) -> Any:
    """``(sign, log|det|)`` of each square matrix."""
    D.check_square("linalg.slogdet", A)
    return _slogdet_result(*D.Slogdet.apply(A))


def vector_norm(x: Tensor, ord: float = 2, dim: int | Sequence[int] | None = None, keepdim: bool = False, *,
                dtype: dtype | None = None, out: Tensor | None = None) -> Tensor:
    return x.norm(ord, dim, keepdim)


def matrix_norm(A: Tensor, ord: float | str = "fro", dim: int | Sequence[int] = (-2, -1), keepdim: bool = False, *,
                dtype: dtype | None = None, out: Tensor | None = None) -> Tensor:
    if ord == "fro":
        return A.norm("fro", dim, keepdim)
    if ord == "nuc":
        return svdvals(A).sum(-1)
    if ord in (2, -2):
        s = svdvals(A)
        return s.amax(-1) if ord == 2 else s.amin(-1)
    raise RuntimeError("linalg.matrix_norm: Order %s not supported." % (ord,))


def norm(A: Tensor, ord: float | str | None = None, dim: int | Sequence[int] | None = None, keepdim: bool = False, *,
         out: Tensor | None = None, dtype: dtype | None = None) -> Tensor:
    if ord is None:
        return A.norm(2, dim, keepdim) if dim is not None or A.ndim <= 1 else A.norm("fro", dim, keepdim)
    if isinstance(ord, str) or (A.ndim == 2 and dim is None):
        return matrix_norm(A, ord, (-2, -1) if dim is None else dim, keepdim)
    return vector_norm(A, ord, dim, keepdim)


def _torch_svd(input: Tensor, some: bool = True, compute_uv: bool = True, *, out=None):
    """``torch.svd``: ``(U, S, V)`` with ``V`` (not ``Vh``); reduced unless ``some=False``."""
    u, s, vh = svd(input, full_matrices=not some)
    return _torch_svd_result(u, s, vh.transpose(-2, -1))


# nn5 (session 5): cholesky, qr, eigh, eigvalsh, lstsq, pinv, matrix_rank, cross, multi_dot, vecdot,
# matrix_power, matrix_exp (minigrad/_linalg_nn5.py; their nodes in ops/decomp_nn5.py)
from ._linalg_nn5 import (  # noqa: E402
    cholesky,
    cholesky_ex,
    cross,
    eigh,
    eigvalsh,
    lstsq,
    matrix_exp,
    matrix_power,
    matrix_rank,
    multi_dot,
    pinv,
    qr,
    vecdot,
)

__all__ += ["cholesky", "cholesky_ex", "qr", "eigh", "eigvalsh", "lstsq", "pinv", "matrix_rank", "cross",
            "multi_dot", "vecdot", "matrix_power", "matrix_exp"]
