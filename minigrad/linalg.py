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


def _backshift(d0: int, d1: int, n: int) -> list[int]:
    """PyTorch's ``create_dim_backshift_permutation``: every other dim, then ``d0`` and ``d1``."""
    return [d for d in range(n) if d not in (d0, d1)] + [d0, d1]


def _inverse(perm: list[int]) -> list[int]:
    out = [0] * len(perm)
    for i, p in enumerate(perm):
        out[p] = i
    return out


def matrix_norm(A: Tensor, ord: float | str = "fro", dim: int | Sequence[int] = (-2, -1), keepdim: bool = False, *,
                dtype: dtype | None = None, out: Tensor | None = None) -> Tensor:
    """A matrix norm over the two dims ``dim``: ``'fro'``, ``'nuc'``, ``±1`` (column sums), ``±inf`` (row sums),
    ``±2`` (largest / smallest singular value) -- PyTorch's ``linalg_matrix_norm``, op for op (so the same
    ``grad_fn``: ``PermuteBackward0`` after an SVD-based norm with ``keepdim``, ``AmaxBackward0``...)."""
    if isinstance(ord, str):
        if ord not in ("fro", "nuc"):
            raise RuntimeError("linalg.matrix_norm: Order %s not supported." % ord)
    elif abs(float(ord)) not in (1.0, 2.0, float("inf")):
        raise RuntimeError("linalg.matrix_norm: Order %s not supported." % _fmt_ord(ord))
    if A.ndim < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    dims = [dim] if isinstance(dim, int) else list(dim)
    if len(dims) != 2:
        raise RuntimeError("linalg.matrix_norm: dim must be a 2-tuple. Got %s" % " ".join(map(str, dims)))
    n = A.ndim
    for d in dims:
        if not -n <= d < n:
            raise IndexError("Dimension out of range (expected to be in range of [%d, %d], but got %d)"
                             % (-n, n - 1, d))
    d0, d1 = dims[0] % n, dims[1] % n
    if d0 == d1:
        raise RuntimeError("linalg.matrix_norm: dims must be different. Got (%d, %d)" % (dims[0], dims[1]))
    if ord == "fro":
        return vector_norm(A, 2, (d0, d1), keepdim)
    if ord == "nuc" or abs(float(ord)) == 2.0:
        perm = _backshift(d0, d1, n)
        s = svdvals(A.permute(perm))
        if ord == "nuc":
            result = s.sum(-1, keepdim)
        else:
            result = s.amax(-1, keepdim) if float(ord) > 0 else s.amin(-1, keepdim)
        if keepdim:
            result = result.unsqueeze(-1).permute(_inverse(perm))
        return result
    if abs(float(ord)) == float("inf"):  # the inf norm is the 1 norm of the transpose
        d0, d1 = d1, d0
    if not keepdim and d0 < d1:
        d1 -= 1
    col = vector_norm(A, 1, d0, keepdim)
    return col.amax(d1, keepdim) if float(ord) > 0 else col.amin(d1, keepdim)


def _fmt_ord(ord: float) -> str:
    f = float(ord)
    if f in (float("inf"), float("-inf")):
        return "inf" if f > 0 else "-inf"
    return ("%d" % f) if f == int(f) else repr(f)


def norm(A: Tensor, ord: float | str | None = None, dim: int | Sequence[int] | None = None, keepdim: bool = False, *,
         out: Tensor | None = None, dtype: dtype | None = None) -> Tensor:
    """``linalg.norm``: a matrix norm when ``ord`` is given with two dims (or a 2-d input), else a vector norm."""
    dims = None if dim is None else ([dim] if isinstance(dim, int) else list(dim))
    if dims is not None and len(dims) not in (1, 2):
        raise RuntimeError("linalg.norm: If dim is specified, it must be of length 1 or 2. Got [%s]"
                           % ", ".join(map(str, dims)))
    if dims is None and ord is not None and A.ndim not in (1, 2):
        raise RuntimeError("linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got %dD."
                           % A.ndim)
    if isinstance(ord, str) or (ord is not None and (len(dims) == 2 if dims is not None else A.ndim == 2)):
        return matrix_norm(A, ord, (0, 1) if dims is None else dims, keepdim)
    return vector_norm(A, 2 if ord is None else ord, dim, keepdim)


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
