"""Matrix decompositions with gradients: ``det``, ``inv``, ``solve``, ``svd`` (numpy's LAPACK does the forward).

The backward rules are written with tensor ops, so they can be differentiated again:

* ``det``:   ∂ = g · det(A) · A⁻ᵀ
* ``inv``:   ∂ = −A⁻ᵀ · g · A⁻ᵀ
* ``solve``: with X = A⁻¹B, ∂B = A⁻ᵀ g and ∂A = −∂B · Xᵀ
* ``svd``:   (first order only) PyTorch's ``svd_backward``: with E_jk = S_k² − S_j² (1 on the diagonal)
  and skew(M) = M − Mᵀ,
  ∂A = U [(skew(UᵀgU)/E)·S + S·(skew(VᵀgV)/E) + diag(gS)] Vᵀ
  (+ the terms for the parts of ℝᵐ, ℝⁿ that U, V miss)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..autograd import grad_mode
from ..autograd.function import Function
from ._layout import column_major
from ._util import fmath

if TYPE_CHECKING:
    from .._tensor import Tensor
    from ..autograd.function import Grads


class LinAlgError(RuntimeError):
    """PyTorch's ``torch.linalg.LinAlgError`` (a ``RuntimeError``)."""


LinAlgError.__name__ = LinAlgError.__qualname__ = "_LinAlgError"


def check_square(name: Any, a: Any) -> Any:
    if a.ndim < 2:
        raise RuntimeError("%s: The input tensor A must have at least 2 dimensions." % name)
    if a.shape[-1] != a.shape[-2]:
        raise RuntimeError("%s: A must be batches of square matrices, but they are %d by %d matrices"
                           % (name, a.shape[-2], a.shape[-1]))
    if not a.dtype.is_floating_point:
        raise RuntimeError("%s: Expected a floating point or complex tensor as input. Got %s"
                           % (name, a.dtype._legacy))


def _mT(t):
    return t.transpose(-2, -1)


def _lu(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """LAPACK's ``getrf`` (LU with partial pivoting) of each matrix of ``a`` (..., n, n), as MKL runs it for PyTorch.

    Returns ``(LU, pivots, info)``: L below the diagonal (unit diagonal implied) and U on and above it, the row
    swapped with row k at step k (0-based), and per matrix 1 + the first k with U[k, k] == 0 (0: none).  Step k
    takes the first row with the largest |a[i, k]| (a nan pivot only when it is already in place: nan compares
    false, LAPACK's idamax), scales the column below by 1 / pivot (by division in the second-to-last column of a
    matrix up to 4 x 4: MKL's small-matrix kernel; and below the smallest normal number) and subtracts the outer
    product from the rest.  Bit for bit PyTorch's ``lu_factor`` up to 16 x 16 (numpy's ``det``/``inv`` are
    OpenBLAS's, factored in another order, and ``det`` is ``sign * exp(logdet)`` there: 0 where PyTorch has nan).
    """
    lu = np.array(a, dtype=a.dtype, order="C", copy=True)
    n = lu.shape[-1]
    if lu.size == 0:
        return lu, np.zeros(a.shape[:-1], dtype=np.int64), np.zeros(a.shape[:-2], dtype=np.int64)
    m = lu.reshape(-1, n, n)
    batch = np.arange(m.shape[0])
    piv = np.zeros((m.shape[0], n), dtype=np.int64)
    info = np.zeros(m.shape[0], dtype=np.int64)
    tiny = np.finfo(lu.dtype).tiny
    with np.errstate(all="ignore"):
        for k in range(n):
            col = np.abs(m[:, k:, k])
            p = k + np.where(col[:, 0] != col[:, 0], 0, np.argmax(np.where(col != col, -1, col), axis=1))
            piv[:, k] = p
            row = m[batch, k].copy()
            m[batch, k] = m[batch, p]
            m[batch, p] = row
            pivot = m[:, k, k]
            info = np.where((info == 0) & (pivot == 0), k + 1, info)
            below = m[:, k + 1:, k]
            divide = (n <= 4 and k == n - 2) | (np.abs(pivot) < tiny)
            scaled = np.where(divide[..., None], below / pivot[:, None], below * (1 / pivot)[:, None])
            m[:, k + 1:, k] = np.where((pivot != 0)[:, None], scaled, below)
            m[:, k + 1:, k + 1:] -= m[:, k + 1:, k, None] * m[:, None, k, k + 1:]
    return lu, piv.reshape(a.shape[:-1]), info.reshape(a.shape[:-2])


def _lu_solve(lu: np.ndarray, piv: np.ndarray, b: np.ndarray, adjoint: bool = False) -> np.ndarray:
    """LAPACK's ``getrs``: X with ``A X = B`` (``Aᵀ X = B`` if ``adjoint``) from ``_lu``'s factors of A; the batch
    dims of ``lu`` and ``b`` (..., n, k) already equal.  Substitution column by column, 1 / U[k, k] times."""
    x = np.array(b, dtype=b.dtype, order="C", copy=True)
    n = lu.shape[-1]
    batch = np.indices(piv.shape[:-1]) if piv.ndim > 1 else ()
    batch = tuple(batch)

    def swap(k):
        p = piv[..., k]
        row = x[..., k, :].copy()
        x[..., k, :] = x[(*batch, p)]
        x[(*batch, p)] = row

    with np.errstate(all="ignore"):
        if not adjoint:
            for k in range(n):
                swap(k)
            for k in range(n):                                      # L y = P B (unit diagonal)
                x[..., k + 1:, :] -= lu[..., k + 1:, k, None] * x[..., k, None, :]
            for k in reversed(range(n)):                            # U x = y
                x[..., k, :] *= (1 / lu[..., k, k])[..., None]
                x[..., :k, :] -= lu[..., :k, k, None] * x[..., k, None, :]
        else:
            for k in range(n):                                      # Uᵀ y = B
                x[..., k, :] *= (1 / lu[..., k, k])[..., None]
                x[..., k + 1:, :] -= lu[..., k, k + 1:, None] * x[..., k, None, :]
            for k in reversed(range(n)):                            # Lᵀ z = y
                x[..., :k, :] -= lu[..., k, :k, None] * x[..., k, None, :]
            for k in reversed(range(n)):
                swap(k)
    return x


def _det_lu(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The factors PyTorch's det and slogdet use: of Aᵀ when A is contiguous (it is then Fortran-ordered for
    LAPACK, no copy), else of A."""
    return _lu(np.swapaxes(a, -1, -2) if a.flags.c_contiguous else a)


def _perm_sign(piv: np.ndarray) -> np.ndarray:
    """(-1) ** (the number of row swaps): PyTorch's ``lu_det_P``."""
    swaps = (piv != np.arange(piv.shape[-1])).sum(-1)
    return 1 - 2 * (swaps % 2)


def _prod_last(x: np.ndarray, start) -> np.ndarray:
    """The product along the last axis, left to right (PyTorch's reduction of a strided diagonal)."""
    acc = np.full(x.shape[:-1], start, dtype=x.dtype)
    with np.errstate(all="ignore"):
        for i in range(x.shape[-1]):
            acc = acc * x[..., i]
    return acc


def _diag_np(values: np.ndarray, n: int) -> np.ndarray:
    """(..., n, n) zeros with ``values`` (...) all along the diagonal (PyTorch's ``diag_embed``: no inf · 0 off it)."""
    out = np.zeros((*np.shape(values), n, n), dtype=np.asarray(values).dtype)
    idx = np.arange(n)
    out[..., idx, idx] = np.asarray(values)[..., None]
    return out


def _singular_message(name: str, info: np.ndarray, text: str) -> str:
    bad = np.flatnonzero(info.reshape(-1))
    where = "(Batch element %d): " % bad[0] if info.ndim else ""
    return "%s: %s%s" % (name, where, text % {"k": info.reshape(-1)[bad[0]]})


def svd_arrays(x: Any, full_matrices: bool = False, compute_uv: bool = True) -> Any:
    """``np.linalg.svd``, refusing non-finite input first: LAPACK's gesdd never returns on an inf (numpy's
    call hangs), and PyTorch raises for a nan.  (PyTorch returns nan singular values for an inf; minigrad
    raises there too, in PyTorch's words, rather than guess LAPACK's vectors.)"""
    if not np.isfinite(x).all():
        raise LinAlgError("linalg.svd: The algorithm failed to converge because the input matrix contained "
                          "non-finite values.")
    return np.linalg.svd(x, full_matrices=full_matrices, compute_uv=compute_uv)


class Det(Function):
    """``det(A)`` from the LU factors (PyTorch's).  Backward: g · det · A⁻ᵀ, as PyTorch solves it: Aᵀ X = g · det · I
    with the LU factors, a zero pivot replaced by eps (det is C¹: a singular matrix gets the limit, 0 for rank < n - 1);
    under create_graph ``solve(Aᵀ, g · det · I)``, or through the SVD where |det| < 100 eps (the adjugate)."""

    node_name: str = "LinalgDetBackward0"
    jvp = "from_vjp"
    saved_names: tuple[str, ...] = ("A",)
    inputs: tuple[str, ...] = ("A",)
    grads: tuple[str, ...] = ("g · result · (A⁻¹)ᵀ",)
    words: str = "The determinant's slope is the determinant times the inverse transpose (Jacobi's formula)."

    @staticmethod
    def forward(ctx: Any, a: Tensor) -> Any:
        lu, piv, _ = _det_lu(a._data)
        with np.errstate(all="ignore"):
            out = _perm_sign(piv).astype(a._data.dtype) * _prod_last(np.diagonal(lu, 0, -2, -1), 1)
        ctx.save_for_backward(a)
        ctx.result, ctx.lu, ctx.piv, ctx.transposed = out, lu, piv, a._data.flags.c_contiguous
        return out

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        (a,) = ctx.saved_tensors
        if a.numel() == 0:
            return None
        n = a.shape[-1]
        if n == 1:                      # PyTorch's: g itself, whatever the entry (inf, nan, 0)
            return grad.unsqueeze(-1).unsqueeze(-1)
        if not grad_mode.is_grad_enabled():
            eps = np.finfo(a._data.dtype).eps
            lu, k = ctx.lu.copy(), np.arange(n)
            lu[..., k, k] += np.where(lu[..., k, k] == 0, eps, 0).astype(lu.dtype)
            with np.errstate(all="ignore"):
                d = _diag_np(grad._data * ctx.result, n)
            return _const(_lu_solve(lu, ctx.piv, d, adjoint=not ctx.transposed))
        det = Det.apply(a) if a.requires_grad else _const(ctx.result)  # recomputed: differentiable again
        gd = grad * det
        singular = np.abs(ctx.result) < 100 * np.finfo(a._data.dtype).eps
        if singular.all() or not singular.any():
            return _det_grad(a, gd, grad, bool(singular.all()))
        # a batch of both kinds: each formula on its matrices (PyTorch's masked_fmap), put back in order
        from .._creation import cat  # circular: _creation builds on the ops
        flat = singular.reshape(-1)
        order = np.concatenate([np.flatnonzero(flat), np.flatnonzero(~flat)])
        a2, gd2, g2 = a.reshape(-1, n, n), gd.reshape(-1), grad.expand(*gd.shape).reshape(-1)
        parts = [_det_grad(a2[_const(m)], gd2[_const(m)], g2[_const(m)], s) for m, s in ((flat, True), (~flat, False))]
        return cat(parts, 0)[_const(np.argsort(order))].reshape(a.shape)


def _det_grad(a, gd, grad, singular):
    """PyTorch's two create_graph formulas: ``solve(Aᵀ, g · det · I)``, or for a (nearly) singular A the adjugate
    through its SVD: U diag(∏_{j≠i} S_j · g · det U · det Vh) Vh."""
    if not singular:
        return Solve.apply(_mT(a), _diag_embed(gd.unsqueeze(-1).expand(*a.shape[:-1])))
    u, s, vh = Svd.apply(a, True)
    alpha = Det.apply(u) * Det.apply(vh) * grad
    return (u * _prod_others(alpha.unsqueeze(-1), s).unsqueeze(-2)) @ vh


def _prod_others(g, s):
    """``g · ∏_{j≠i} s_j`` along the last dim without dividing (PyTorch's ``prod_safe_zeros_backward``)."""
    from .._creation import cat, ones  # circular: _creation builds on the ops
    k = s.shape[-1]
    if s.numel() == 0:
        return g.expand(*s.shape)
    if k == 1:
        return g
    one = ones(*s.shape[:-1], 1, dtype=s.dtype)
    before = cat([one, s[..., :k - 1]], -1).cumprod(-1)
    after = cat([one, s[..., 1:].flip(-1)], -1).cumprod(-1).flip(-1)
    return g * (before * after)


class Inv(Function):
    """``inv(A)``: A X = I solved with A's LU factors (PyTorch's ``linalg_inv_ex``).  Backward: −A⁻ᵀ (g A⁻ᵀ)."""

    node_name: str = "LinalgInvExBackward0"
    jvp = "from_vjp"
    saved_names: tuple[str, ...] = ("inverse",)     # the result, as PyTorch: an in-place write to it raises
    inputs: tuple[str, ...] = ("A",)
    grads: tuple[str, ...] = ("−inverseᵀ · g · inverseᵀ",)
    words: str = "The inverse's gradient: g sandwiched between two inverse transposes, with a minus sign."

    @staticmethod
    def forward(ctx: Any, a: Tensor) -> Any:
        lu, piv, info = _lu(a._data)
        if info.any():
            raise LinAlgError(_singular_message("linalg.inv", info, "The diagonal element %(k)d is zero, the inversion "
                                                "could not be completed because the input matrix is singular."))
        eye = np.broadcast_to(np.eye(a.shape[-1], dtype=a._data.dtype), a.shape)
        out = column_major(_lu_solve(lu, piv, eye))        # LAPACK's layout, as PyTorch's result
        ctx.save_for_backward(out)                         # the result, as PyTorch (_saved_inverse)
        return out

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        (inverse,) = ctx.saved_tensors      # (under create_graph it carries this node: differentiable again)
        inv_t = _mT(inverse)
        return -(inv_t @ (grad @ inv_t))          # PyTorch's order: -inverseᴴ @ (grad @ inverseᴴ)


class Solve(Function):
    """``solve(A, B)``: X with AX = B, from A's LU factors.  Backward: ∂B = solve(Aᵀ, g), ∂A = −∂B Xᵀ."""

    node_name: str = "LinalgSolveExBackward0"
    jvp = "from_vjp"
    saved_names: tuple[str, ...] = ("A", "B")
    inputs: tuple[str, ...] = ("A", "B")
    grads: tuple[str, ...] = ("−solve(Aᵀ, g) · resultᵀ", "solve(Aᵀ, g)")
    words: str = "Solving A X = B: B gets Aᵀ solved against g, A gets minus that times Xᵀ."

    @staticmethod
    def forward(ctx: Any, a: Tensor, b: Tensor) -> Any:
        vector = b.ndim == a.ndim - 1 or b.ndim == 1
        ctx.vector = vector
        rhs = b._data[..., None] if vector else b._data
        batch = np.broadcast_shapes(a.shape[:-2], rhs.shape[:-2])
        lu, piv, info = _lu(np.broadcast_to(a._data, batch + a.shape[-2:]))
        if info.any():
            raise LinAlgError(_singular_message("torch.linalg.solve", info,
                                                "The solver failed because the input matrix is singular."))
        out = _lu_solve(lu, piv, np.broadcast_to(rhs, batch + rhs.shape[-2:]))
        out = column_major(out[..., 0] if vector else out)       # LAPACK's layout, as PyTorch's result
        ctx.save_for_backward(a, b)
        ctx.lu, ctx.piv = lu, piv
        return out

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        a, b = ctx.saved_tensors
        if grad_mode.is_grad_enabled():
            gb = Solve.apply(_mT(a), grad)
        else:                                   # Aᵀ X = g from the forward's factors
            g = grad._data[..., None] if ctx.vector else grad._data
            gb = _lu_solve(ctx.lu, ctx.piv, np.broadcast_to(g, ctx.lu.shape[:-2] + g.shape[-2:]), adjoint=True)
            gb = _const(gb[..., 0] if ctx.vector else gb)
        x = Solve.apply(a, b)
        if ctx.vector:
            ga = -(gb.unsqueeze(-1) @ x.unsqueeze(-2))
        else:
            ga = -(gb @ _mT(x))
        return ga, gb


class Svd(Function):
    """``svd(A) = U diag(S) Vh`` (reduced).  Backward: PyTorch's ``svd_backward`` (real case)."""

    node_name: str = "LinalgSvdBackward0"
    jvp = "from_vjp"
    saved_names: tuple[str, ...] = ("U", "S", "Vh")
    saved_attrs = ("full_matrices", "S_sym_argsize_minus_1")
    inputs: tuple[str, ...] = ("A",)
    grads: tuple[str, ...] = ("U · [(skew(Uᵀ·gU)/E)·S + S·(skew(Vᵀ·gV)/E) + diag(gS)] · Vh",)
    words: str = "The SVD's gradient mixes the singular vectors' gradients through 1/(S_k² − S_j²)."

    @staticmethod
    def forward(ctx: Any, a: Tensor, full_matrices: Any) -> tuple[Any, ...]:
        u, s, vh = svd_arrays(a._data, full_matrices=full_matrices)
        dtype = a._data.dtype
        u, s, vh = column_major(u.astype(dtype)), s.astype(dtype), column_major(vh.astype(dtype))
        ctx.save_for_backward(u, s, vh)      # the outputs: under create_graph they carry this node, so the
        ctx.full_matrices = full_matrices    # backward below differentiates again (Hessians through svd)
        ctx.S_sym_argsize_minus_1 = s.shape[-1]
        return u, s, vh

    @staticmethod
    def backward(ctx: Any, gu: Any, gs: Any, gvh: Any) -> Grads:
        from .._creation import zeros_like  # at call time: _creation needs Tensor, still loading
        u, s, vh = ctx.saved_tensors
        k = s.shape[-1]
        if ctx.full_matrices:                # the reduced factors: the first k singular vectors
            u, vh = u[..., :, :k], vh[..., :k, :]
        if gu is not None and ctx.full_matrices:
            gu = gu[..., :, :k]
        if gvh is not None and ctx.full_matrices:
            gvh = gvh[..., :k, :]
        if gu is None and gvh is None:
            return (u * gs.unsqueeze(-2)) @ vh, None
        v = _mT(vh)
        s2 = s * s
        e = s2.unsqueeze(-2) - s2.unsqueeze(-1)
        eye = np.eye(k, dtype=bool)
        e = e.masked_fill(_const(eye), 1.0)
        inner = zeros_like(e)
        if gu is not None:
            uhgu = _mT(u) @ gu
            inner = inner + ((uhgu - _mT(uhgu)) / e) * s.unsqueeze(-2)
        if gvh is not None:
            gv = _mT(gvh)
            vhgv = vh @ gv
            inner = inner + s.unsqueeze(-1) * ((vhgv - _mT(vhgv)) / e)
        if gs is not None:
            inner = inner + _diag_embed(gs)
        ga = u @ inner @ vh
        m, n = u.shape[-2], v.shape[-2]
        if gu is not None and m > k:
            ga = ga + (gu - u @ (_mT(u) @ gu)) @ (vh / s.unsqueeze(-1))
        if gvh is not None and n > k:
            gv = _mT(gvh)
            ga = ga + (u / s.unsqueeze(-2)) @ _mT(gv - v @ (vh @ gv))
        return ga, None


class Slogdet(Function):
    """``(sign, log|det A|)`` from the LU factors: sign = lu_det_P · ∏ sgn(U_kk) (0 at a nan), log|det| =
    Σ log|U_kk|.  Backward: g_logabsdet · A⁻ᵀ (the sign is flat: no gradient from it), Aᵀ X = g · I solved with
    the factors (``solve(Aᵀ, g · I)`` under create_graph)."""

    node_name = "LinalgSlogdetBackward0"
    jvp = "from_vjp"
    saved_names = ("A",)
    inputs = ("A",)
    grads = ("g_logabsdet · (A⁻¹)ᵀ",)
    words = "log|det A| has slope A⁻ᵀ (Jacobi's formula divided by det); the sign is piecewise constant."

    @staticmethod
    def forward(ctx: Any, a: Any) -> Any:
        lu, piv, _ = _det_lu(a._data)
        diag = np.diagonal(lu, 0, -2, -1)
        ctx.set_materialize_grads(False)     # only the sign used: no gradient at all (PyTorch's undefined one)
        dtype = a._data.dtype
        with np.errstate(all="ignore"):
            sign = _prod_last(np.sign(np.where(diag != diag, 0, diag)), 1) * _perm_sign(piv).astype(dtype)
            logabsdet = np.zeros(diag.shape[:-1], dtype=dtype)
            for k in range(diag.shape[-1]):
                logabsdet = logabsdet + fmath.log(np.abs(diag[..., k]))
        ctx.save_for_backward(a)
        ctx.lu, ctx.piv, ctx.transposed = lu, piv, a._data.flags.c_contiguous
        return np.asarray(sign, dtype=dtype), np.asarray(logabsdet, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, g_sign: Any, g_logabsdet: Any) -> Any:
        (a,) = ctx.saved_tensors
        if g_logabsdet is None:
            return None
        n = a.shape[-1]
        if grad_mode.is_grad_enabled():
            return Solve.apply(_mT(a), _diag_embed(g_logabsdet.unsqueeze(-1).expand(*a.shape[:-1])))
        d = _diag_np(g_logabsdet._data, n)
        return _const(_lu_solve(ctx.lu, ctx.piv, d, adjoint=not ctx.transposed))


def _const(array):
    from .._tensor import Tensor  # at call time: ops/ is imported while _tensor is loading
    return Tensor._make(array)


def _diag_embed(t):
    """``t`` (..., k) on the diagonals of (..., k, k) zeros -- a choice, not a product with I (inf · 0 is nan)."""
    from .._creation import where  # circular: _creation builds on the ops
    k = t.shape[-1]
    return where(_const(np.eye(k, dtype=bool)), t.unsqueeze(-1), _const(np.zeros((), dtype=t._data.dtype)))
