"""``torch.linalg``: cholesky, qr, eigh, eigvalsh, lstsq, pinv, matrix_rank, cross, multi_dot, vecdot,
matrix_power, matrix_exp — and the ``torch.*`` names PyTorch keeps for some of them (``torch.cholesky``,
``torch.qr``, ``torch.cross``, ``torch.matrix_power``, ``torch.matrix_exp``, ``torch.vdot``).

The decompositions run numpy's LAPACK (OpenBLAS); PyTorch runs MKL's. Both call the same LAPACK routines
(potrf, geqrf + orgqr, syevd, gesdd), so the sign conventions agree: R's diagonal has geqrf's signs (not made
positive), eigenvectors are syevd's. The last bits may differ (another BLAS); an eigenvector's sign can flip
between the two libraries only where LAPACK's own choice is a rounding-level decision (repeated or nearly
repeated eigenvalues). The gradients are PyTorch's formulas (ops/decomp_nn5.py).

>>> import minigrad as torch
>>> A = torch.tensor([[4., 2.], [2., 3.]], requires_grad=True)
>>> torch.linalg.cholesky(A)
tensor([[2.0000, 0.0000],
        [1.0000, 1.4142]], grad_fn=<LinalgCholeskyExBackward0>)
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from . import _creation
from ._tensor import Tensor
from .ops import decomp as D
from .ops import decomp_nn5 as N

__all__ = ["cholesky", "cholesky_ex", "qr", "eigh", "eigvalsh", "lstsq", "pinv", "matrix_rank", "cross",
           "multi_dot", "vecdot", "matrix_power", "matrix_exp"]


def _result(name, fields):
    from .linalg import _result_type  # at call time: linalg imports this module
    return _result_type(name, fields)


def _check_float(name: str, a: Tensor) -> None:
    if not a.dtype.is_floating_point:
        raise RuntimeError("%s: Expected a floating point or complex tensor as input. Got %s"
                           % (name, a.dtype._legacy))


# -- Cholesky -------------------------------------------------------------------------------------------------


def cholesky_ex(A: Tensor, *, upper: bool = False, check_errors: bool = False, out: Any = None) -> Any:
    """``(L, info)``: the Cholesky factor and, per matrix, 0 or the order of the first leading minor that is
    not positive-definite (no error unless ``check_errors``; L is then LAPACK's partial factor)."""
    D.check_square("linalg.cholesky", A)
    L, info = N.Cholesky.apply(A, bool(upper))
    if check_errors:
        _cholesky_errors(info, "linalg.cholesky_ex")
    return _result("linalg_cholesky_ex", ["L", "info"])(L, info)


def _cholesky_errors(info: Tensor, name: str = "linalg.cholesky") -> None:
    codes = info._data
    if codes.any():
        raise D.LinAlgError(D._singular_message(
            name, codes, "The factorization could not be completed because the input is not "
            "positive-definite (the leading minor of order %(k)d is not positive-definite)."))


def cholesky(A: Tensor, *, upper: bool = False, out: Any = None) -> Tensor:
    """The Cholesky factor ``L`` (lower triangular, ``A = L Lᵀ``; ``upper=True``: ``U = Lᵀ``) of each symmetric
    positive-definite matrix (``LinalgCholeskyExBackward0``); only the lower triangle of ``A`` is read."""
    D.check_square("linalg.cholesky", A)
    L, info = N.Cholesky.apply(A, bool(upper))
    _cholesky_errors(info)
    return L


_warned_cholesky = [False]


def torch_cholesky(input: Tensor, upper: bool = False, *, out: Any = None) -> Tensor:
    """``torch.cholesky`` (deprecated in PyTorch, which warns once): its own node, ``CholeskyBackward0``."""
    if not _warned_cholesky[0]:
        _warned_cholesky[0] = True
        warnings.warn(
            "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a future "
            "PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\nL = torch.linalg.cholesky(A)\nand\n"
            "U = torch.cholesky(A, upper=True)\nshould be replaced with\nU = torch.linalg.cholesky(A).mH\n"
            "This transform will produce equivalent results for all valid (symmetric positive definite) inputs.",
            UserWarning, stacklevel=2)
    D.check_square("cholesky", input)
    probe = N.cholesky_info(input._data)[1]
    if probe.any():
        raise D.LinAlgError(D._singular_message(
            "cholesky", probe, "The factorization could not be completed because the input is not "
            "positive-definite (the leading minor of order %(k)d is not positive-definite)."))
    return N.TorchCholesky.apply(input, bool(upper))


# -- QR and eigh ----------------------------------------------------------------------------------------------


def qr(A: Tensor, mode: str = "reduced", *, out: Any = None) -> Any:
    """``A = Q R``: ``mode='reduced'`` (Q m×k, R k×n, k = min(m, n)), ``'complete'`` (Q m×m, R m×n) or ``'r'``
    (R only; Q is empty and the result cannot be differentiated) — ``LinalgQrBackward0``."""
    if A.ndim < 2:
        raise RuntimeError("linalg.qr: The input tensor A must have at least 2 dimensions.")
    _check_float("linalg.qr", A)
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError("qr received unrecognized mode '%s' but expected one of 'reduced' (default), 'r', or "
                           "'complete'" % mode)
    return _result("linalg_qr", ["Q", "R"])(*N.Qr.apply(A, mode))


def torch_qr(input: Tensor, some: bool = True, *, out: Any = None) -> Any:
    """``torch.qr(input, some=True)``: ``linalg.qr`` with mode ``'reduced'`` (``some``) or ``'complete'``."""
    return _result("qr", ["Q", "R"])(*qr(input, "reduced" if some else "complete"))


def _check_uplo(UPLO: str) -> None:
    if UPLO not in ("L", "U", "l", "u"):
        raise RuntimeError("Expected UPLO argument to be 'L' or 'U', but got %s" % UPLO)


def eigh(A: Tensor, UPLO: str = "L", *, out: Any = None) -> Any:
    """Eigenvalues (ascending) and orthonormal eigenvectors (columns) of each symmetric matrix, read from its
    lower (``UPLO='L'``) or upper triangle (``LinalgEighBackward0``)."""
    D.check_square("linalg.eigh", A)
    _check_uplo(UPLO)
    return _result("linalg_eigh", ["eigenvalues", "eigenvectors"])(*N.Eigh.apply(A, UPLO.upper()))


def eigvalsh(A: Tensor, UPLO: str = "L", *, out: Any = None) -> Tensor:
    """The eigenvalues (ascending) of each symmetric matrix; its node is eigh's, ``LinalgEighBackward0``."""
    D.check_square("linalg.eigh", A)
    _check_uplo(UPLO)
    return N.Eigh.apply(A, UPLO.upper())[0]


# -- pseudo-inverse, rank, least squares ----------------------------------------------------------------------


def _tolerances(A: Tensor, atol: Any, rtol: Any) -> tuple[np.ndarray, np.ndarray]:
    """PyTorch's defaults: rtol = eps · max(m, n) when neither is given (or atol ≤ 0), else 0."""
    dtype = A._data.dtype
    a = np.zeros((), dtype) if atol is None else np.asarray(getattr(atol, "_data", atol), dtype)
    if rtol is None:
        eps = np.finfo(dtype).eps * max(A.shape[-2], A.shape[-1])
        r = np.asarray(eps if atol is None or np.all(a <= 0) else 0.0, dtype)
    else:
        r = np.asarray(getattr(rtol, "_data", rtol), dtype)
    return a, r


def pinv(A: Tensor, *, atol: Any = None, rtol: Any = None, hermitian: bool = False, out: Any = None,
         rcond: Any = None) -> Tensor:
    """The Moore–Penrose pseudo-inverse (``LinalgPinvBackward0``): singular values ≤ max(atol, rtol · σ_max)
    count as zero; ``hermitian=True`` uses the eigendecomposition of a symmetric ``A``."""
    if A.ndim < 2 or not A.dtype.is_floating_point:
        kind = {"float32": "Float", "float64": "Double"}.get(str(A.dtype).replace("minigrad.", ""), A.dtype._legacy)
        raise RuntimeError("linalg.pinv(%s{%s}): expected a tensor with 2 or more dimensions of float, double, "
                           "cfloat or cdouble types" % (kind, list(A.shape)))
    if rcond is not None:
        rtol = rcond
    a, r = _tolerances(A, atol, rtol)
    return N.Pinv.apply(A, a, r, bool(hermitian))


def matrix_rank(A: Tensor, *, atol: Any = None, rtol: Any = None, hermitian: bool = False, out: Any = None,
                tol: Any = None) -> Tensor:
    """The number of singular values above max(atol, rtol · σ_max), per matrix (int64)."""
    if A.ndim < 2:
        raise RuntimeError("torch.linalg.matrix_rank: The input tensor input must have at least 2 dimensions.")
    if tol is not None:
        atol, rtol = tol, 0.0
    a, r = _tolerances(A, atol, rtol)
    x = A._data
    s = np.abs(np.linalg.eigvalsh(x)) if hermitian else D.svd_arrays(x, compute_uv=False)
    smax = np.max(s, axis=-1, keepdims=True, initial=0.0)
    tol_ = np.maximum(a[..., None], r[..., None] * smax)
    return Tensor._make(np.asarray((s > tol_).sum(-1), dtype=np.int64))


_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def lstsq(A: Tensor, B: Tensor, rcond: Any = None, *, driver: str | None = None) -> Any:
    """``(solution, residuals, rank, singular_values)`` of min ‖A X − B‖ (``LinalgLstsqBackward0``).

    The solution is the minimum-norm one (SVD); PyTorch's CPU driver defaults to ``'gelsy'``. As in PyTorch,
    ``residuals`` (squared residual norms) are filled only for m > n, full rank and a driver other than gelsy,
    ``rank`` for every driver but gels, ``singular_values`` only for gelsd and gelss."""
    if driver is not None and driver not in _DRIVERS:
        raise RuntimeError("torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)")
    if A.ndim < 2:
        raise RuntimeError("torch.linalg.lstsq: input must have at least 2 dimensions.")
    vector = B.ndim == A.ndim - 1
    if (B.shape[-1] if vector else B.shape[-2]) != A.shape[-2]:
        raise RuntimeError("torch.linalg.lstsq: input.size(-2) should match other.size(-2)")
    fields = ["solution", "residuals", "rank", "singular_values"]
    return _result("linalg_lstsq", fields)(*N.Lstsq.apply(A, B, rcond, driver or "gelsy", vector))


# -- products -------------------------------------------------------------------------------------------------


def cross(input: Tensor, other: Tensor, *, dim: int = -1, out: Any = None) -> Tensor:
    """The cross product of 3-vectors along ``dim`` (``LinalgCrossBackward0``), broadcasting the others."""
    if input.ndim != other.ndim:
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    if input.shape[dim] != 3 or other.shape[dim] != 3:
        raise RuntimeError("linalg.cross: inputs dimension %d must have length 3. Got %d and %d"
                           % (dim, input.shape[dim], other.shape[dim]))
    return N.Cross.apply(input, other, dim)


def torch_cross(input: Tensor, other: Tensor, dim: int | None = None, *, out: Any = None) -> Tensor:
    """``torch.cross``: with ``dim=None``, the first dim of size 3 (PyTorch warns that this default goes)."""
    if dim is None:
        warnings.warn("Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the "
                      "dim explicitly or simply use torch.linalg.cross.\nThe default value of dim will change "
                      "to agree with that of linalg.cross in a future release.", UserWarning, stacklevel=2)
        shape = np.broadcast_shapes(input.shape, other.shape)
        dim = next((i for i, s in enumerate(shape) if s == 3), -1)
    return cross(input, other, dim=dim)


def vdot(input: Tensor, other: Tensor, *, out: Any = None) -> Tensor:
    """Σ input_i · other_i of two 1-D tensors (``VdotBackward0``)."""
    if input.ndim != 1 or other.ndim != 1:
        raise RuntimeError("1D tensors expected, but got %dD and %dD tensors" % (input.ndim, other.ndim))
    if input.shape[0] != other.shape[0]:
        raise RuntimeError("inconsistent tensor size, expected tensor [%d] and src [%d] to have the same number "
                           "of elements, but got %d and %d elements respectively"
                           % (input.shape[0], other.shape[0], input.shape[0], other.shape[0]))
    return N.Vdot.apply(input, other)


def vecdot(x: Tensor, y: Tensor, *, dim: int = -1, out: Any = None) -> Tensor:
    """Σ x·y along ``dim`` (broadcasting): ``VdotBackward0`` for two 1-D tensors, else mul then sum, as
    PyTorch."""
    if x.ndim == 1 and y.ndim == 1:
        return vdot(x, y)
    return (x * y).sum(dim)


def multi_dot(tensors: Any, *, out: Any = None) -> Tensor:
    """The product of a chain of matrices in the cheapest order (PyTorch's matrix-chain order); the first
    may be a row vector and the last a column vector (1-D)."""
    tensors = list(tensors)
    n = len(tensors)
    if n < 2:
        raise RuntimeError("multi_dot(): expected at least 2 tensors but got %d" % n)
    first, last = tensors[0], tensors[-1]
    if first.ndim not in (1, 2):
        raise RuntimeError("multi_dot(): the first tensor must be 1D or 2D but got %dD" % first.ndim)
    if last.ndim not in (1, 2):
        raise RuntimeError("multi_dot(): the last tensor must be 1D or 2D but got %dD" % last.ndim)
    for i in range(1, n - 1):
        if tensors[i].ndim != 2:
            raise RuntimeError("multi_dot(): tensor %d must be 2D but got %dD" % (i, tensors[i].ndim))
    mats = list(tensors)
    if first.ndim == 1:
        mats[0] = first.unsqueeze(0)
    if last.ndim == 1:
        mats[-1] = last.unsqueeze(-1)
    for i in range(n - 1):
        if mats[i].shape[1] != mats[i + 1].shape[0]:
            raise RuntimeError("multi_dot(): tensors %d and %d with shapes %s and %s cannot be multiplied"
                               % (i, i + 1, list(mats[i].shape), list(mats[i + 1].shape)))
    result = _chain(mats)
    shape = [s for s, keep in ((first.shape[0], first.ndim == 2), (last.shape[-1], last.ndim == 2)) if keep]
    return result.view(*shape) if shape else result.view(())   # PyTorch ends with a view (ViewBackward0)


def _chain(mats: list[Tensor]) -> Tensor:
    n = len(mats)
    if n == 2:
        return mats[0].mm(mats[1])
    if n == 3:
        a, b, c, d = mats[0].shape[0], mats[1].shape[0], mats[2].shape[0], mats[2].shape[1]
        if (a * c) * (b + d) > (b * d) * (a + c):
            return mats[0].mm(mats[1].mm(mats[2]))
        return mats[0].mm(mats[1]).mm(mats[2])
    p = [m.shape[0] for m in mats] + [mats[-1].shape[1]]
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None  # type: ignore[call-overload]
            for k in range(i, j):
                q = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if cost[i][j] is None or q < cost[i][j]:
                    cost[i][j], split[i][j] = q, k

    def product(i: int, j: int) -> Tensor:
        if i == j:
            return mats[i]
        k = split[i][j]
        return product(i, k).mm(product(k + 1, j))

    return product(0, n - 1)


def matrix_power(A: Tensor, n: int, *, out: Any = None) -> Tensor:
    """Aⁿ by repeated squaring, as PyTorch (n = 0: the identity, n < 0: powers of the inverse)."""
    D.check_square("linalg.matrix_power", A) if A.dtype.is_floating_point else _square_any("linalg.matrix_power", A)
    if n == 0:
        eye = _creation.eye(A.shape[-1], dtype=A.dtype).expand(*A.shape)
        return A.clone().copy_(eye)
    if n < 0:
        from .linalg import inv  # at call time: linalg imports this module
        A, n = inv(A), -n
    if n == 1:
        return A.clone()
    if n == 2:
        return A @ A
    if n == 3:
        return (A @ A) @ A
    z: Tensor | None = None
    result: Tensor | None = None
    while n > 0:
        bit, n = n % 2, n // 2
        z = A if z is None else z @ z
        if bit == 1:
            result = z if result is None else result @ z
    assert result is not None
    return result


def _square_any(name: str, A: Tensor) -> None:
    if A.ndim < 2:
        raise RuntimeError("%s: The input tensor A must have at least 2 dimensions." % name)
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError("%s: A must be batches of square matrices, but they are %d by %d matrices"
                           % (name, A.shape[-2], A.shape[-1]))


def matrix_exp(A: Tensor) -> Tensor:
    """exp(A) = Σ Aᵏ/k! of each square matrix (``LinalgMatrixExpBackward0``)."""
    _square_any("linalg.matrix_exp", A)
    return N.MatrixExp.apply(A)
