"""More decompositions with gradients: Cholesky, QR, eigh, pinv, lstsq, cross, matrix_exp (numpy's LAPACK forward).

Each backward is PyTorch's formula (torch/csrc/autograd/FunctionsManual.cpp), written with tensor ops so it can
be differentiated again (gradgradcheck). In the real case, with ``skew(X) = X − Xᵀ``:

* Cholesky ``A = L Lᵀ``:  ∂A = L⁻ᵀ Φ(tril(Lᵀ g_L)) L⁻¹, Φ(X) = ½ (X + tril(X, −1)ᵀ)   (cholesky_backward)
* QR ``A = Q R``, M = g_R Rᵀ − Qᵀ g_Q:  m ≥ n: ∂A = (g_Q + Q syminvadj(triu(M))) R⁻ᵀ;
  m < n: ∂A = [Q tril(−M + Mᵀ) R₁⁻ᵀ, 0] + Q g_R   (linalg_qr_backward)
* eigh ``A = V diag(λ) Vᵀ``:  ∂A = V (½ skew(Vᵀ g_V) / E + diag(g_λ)) Vᵀ, E_ij = λ_j − λ_i   (linalg_eig_backward)
* pinv, lstsq: pinv_backward; lstsq's solution X = pinv(A) B
* cross: ∂a = cross(b, g), ∂b = cross(g, a)
* matrix_exp: ∂A = the upper-right block of exp([[Aᵀ, g], [0, Aᵀ]])   (linalg_matrix_exp_differential)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..autograd.function import Function
from . import decomp as D
from ._layout import column_major
from .decomp import Solve, _const, _diag_embed, _mT

__all__ = ["Cholesky", "TorchCholesky", "Qr", "Eigh", "Pinv", "Lstsq", "Cross", "MatrixExp", "cholesky_info"]


# -- helpers: plain numpy -------------------------------------------------------------------------------------


def cholesky_info(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(L, info)`` per matrix as LAPACK's potrf: info = the order of the first leading minor that is not
    positive-definite (0: none); L is lower triangular (the factor, where info == 0)."""
    batch = a.shape[:-2]
    flat = a.reshape((-1, *a.shape[-2:]))
    out = np.zeros_like(flat)
    info = np.zeros(flat.shape[0], dtype=np.int32)
    with np.errstate(all="ignore"):
        for i, m in enumerate(flat):
            try:
                out[i] = np.linalg.cholesky(m)
            except np.linalg.LinAlgError:
                out[i], info[i] = _potf2(m)
    return out.reshape(a.shape), info.reshape(batch)


def _potf2(m: np.ndarray) -> tuple[np.ndarray, int]:
    """LAPACK's unblocked potf2 (lower), column by column, stopping at the first pivot that is not positive:
    that pivot is stored unrooted and the columns after it keep A's values, as PyTorch's cholesky_ex returns."""
    x = np.tril(m).copy()
    for j in range(x.shape[-1]):
        d = x[j, j] - x[j, :j] @ x[j, :j]
        if not d > 0:
            x[j, j] = d
            return x, j + 1
        x[j, j] = np.sqrt(d)
        x[j + 1:, j] = (x[j + 1:, j] - x[j + 1:, :j] @ x[j, :j]) / x[j, j]
    return x, 0


def expm(a: np.ndarray) -> np.ndarray:
    """exp of each square matrix: Higham's scaling and squaring with the [13/13] Padé approximant (2005)."""
    b = (64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800., 129060195264000.,
         10559470521600., 670442572800., 33522128640., 1323241920., 40840800., 960960., 16380., 182., 1.)
    n = a.shape[-1]
    eye = np.broadcast_to(np.eye(n, dtype=a.dtype), a.shape)
    norm = np.abs(a).sum(-2).max(-1) if n else np.zeros(a.shape[:-2])
    theta = 5.371920351148152 if a.dtype == np.float64 else 3.925724783138660
    s = np.maximum(0, np.ceil(np.log2(np.maximum(np.max(norm, initial=0) / theta, 1e-300)))).astype(int)
    x = a / a.dtype.type(2.0 ** s)
    x2 = x @ x
    x4 = x2 @ x2
    x6 = x4 @ x2
    u = x @ (x6 @ (b[13] * x6 + b[11] * x4 + b[9] * x2) + b[7] * x6 + b[5] * x4 + b[3] * x2 + b[1] * eye)
    v = x6 @ (b[12] * x6 + b[10] * x4 + b[8] * x2) + b[6] * x6 + b[4] * x4 + b[2] * x2 + b[0] * eye
    r = np.linalg.solve(v - u, v + u)
    for _ in range(int(s)):
        r = r @ r
    return r.astype(a.dtype)


def _tensor_op(name):
    from .. import _creation, linalg  # at call time: a higher layer (the public linalg and factories)
    return getattr(linalg, name, None) or getattr(_creation, name)


def _sum_to(t, shape):
    """``t`` summed over the dims it was broadcast along, back to ``shape``."""
    shape = tuple(shape)
    if tuple(t.shape) == shape:
        return t
    lead = t.ndim - len(shape)
    if lead:
        t = t.sum(tuple(range(lead)))
    dims = tuple(i for i, (a, b) in enumerate(zip(t.shape, shape)) if b == 1 and a != 1)
    return t.sum(dims, keepdim=True) if dims else t


def _syminvadj(x):
    """X + Xᵀ with the diagonal halved (the adjoint of taking the symmetric part)."""
    return x + _mT(x) - _diag_embed(x.diagonal(0, -2, -1))


def _solve_right(b, a):
    """X with X · a = b (a square)."""
    return _mT(Solve.apply(_mT(a), _mT(b)))


# -- Cholesky -------------------------------------------------------------------------------------------------


class Cholesky(Function):
    """``linalg.cholesky_ex(A)``: the lower (or, ``upper=True``, upper) triangular factor of a symmetric
    positive-definite matrix; ``info`` is the order of the first leading minor that is not positive-definite."""

    node_name: str = "LinalgCholeskyExBackward0"
    jvp = "from_vjp"
    saved_names: tuple[str, ...] = ("L",)
    saved_attrs = ("upper",)
    inputs: tuple[str, ...] = ("self",)
    grads: tuple[str, ...] = ("L⁻ᵀ · Φ(tril(Lᵀ · g)) · L⁻¹",)
    words: str = ("Cholesky's gradient: Lᵀg made lower triangular, symmetrised with half its diagonal, and "
                  "sandwiched between L⁻ᵀ and L⁻¹.")

    @staticmethod
    def forward(ctx: Any, a: Any, upper: bool) -> Any:
        lower, info = cholesky_info(a._data)
        out = column_major(np.swapaxes(lower, -1, -2).copy() if upper else lower)
        ctx.upper = upper
        ctx.save_for_backward(out)
        return out, info

    @staticmethod
    def backward(ctx: Any, g: Any, _ginfo: Any = None) -> Any:
        (L,) = ctx.saved_tensors
        return cholesky_backward(g, ctx.upper, L), None


def cholesky_backward(g, upper, L):
    if upper:
        L, g = _mT(L), _mT(g)
    ga = (_mT(L) @ g).tril()
    ga = 0.5 * (ga + _mT(ga.tril(-1)))
    ga = Solve.apply(_mT(L), ga)                    # L⁻ᵀ · ga
    return _solve_right(ga, L)                       # · L⁻¹


class TorchCholesky(Cholesky):
    """``torch.cholesky(A, upper=False)`` (deprecated in PyTorch): its own node name."""

    node_name: str = "CholeskyBackward0"
    saved_names: tuple[str, ...] = ("result",)
    inputs: tuple[str, ...] = ("self",)
    grads: tuple[str, ...] = ("result⁻ᵀ · Φ(tril(resultᵀ · g)) · result⁻¹",)
    words: str = "torch.cholesky's gradient, the same as linalg.cholesky's (result is the factor L)."

    @staticmethod
    def forward(ctx: Any, a: Any, upper: bool) -> Any:
        return Cholesky.forward(ctx, a, upper)[0]

    @staticmethod
    def backward(ctx: Any, g: Any) -> Any:
        (L,) = ctx.saved_tensors
        return cholesky_backward(g, ctx.upper, L), None


# -- QR -------------------------------------------------------------------------------------------------------


class Qr(Function):
    """``linalg.qr(A, mode)``: A = Q R with Q orthonormal columns and R upper triangular (LAPACK geqrf's signs)."""

    node_name: str = "LinalgQrBackward0"
    jvp = "from_vjp"
    saved_names: tuple[str, ...] = ("Q", "R")
    saved_attrs = ("mode",)
    inputs: tuple[str, ...] = ("A",)
    grads: tuple[str, ...] = ("(g_Q + Q · syminvadj(triu(g_R·Rᵀ − Qᵀ·g_Q))) · R⁻ᵀ",)
    words: str = ("QR's gradient: the part of the gradient that keeps Q orthonormal and R triangular, "
                  "mapped back through R⁻ᵀ.")

    @staticmethod
    def forward(ctx: Any, a: Any, mode: str) -> Any:
        x = a._data
        if mode == "r":
            r = np.linalg.qr(x, mode="r").astype(x.dtype)
            q = np.zeros((0,), dtype=x.dtype)
        else:
            q, r = np.linalg.qr(x, mode=mode)
            q, r = column_major(q.astype(x.dtype)), r.astype(x.dtype)
        r = column_major(np.triu(r))
        ctx.mode = mode
        ctx.save_for_backward(q, r)
        return q, r

    @staticmethod
    def backward(ctx: Any, gq: Any, gr: Any) -> Any:
        q, r = ctx.saved_tensors
        mode = ctx.mode
        if mode == "r":
            raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed when mode='r'. "
                               "Please use linalg.qr(A, mode='reduced') if you are going to differentiate "
                               "through linalg.qr.")
        m, n = q.shape[-2], r.shape[-1]
        if mode == "complete" and m > n:
            raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and nrows > ncols.")
        if gq is not None:
            mh = gr @ _mT(r) - _mT(q) @ gq if gr is not None else -(_mT(q) @ gq)
        else:
            mh = gr @ _mT(r)
        if m >= n:
            b = q @ _syminvadj(mh.triu())
            if gq is not None:
                b = b + gq
            return _solve_right(b, _mT(r)), None
        skew = (-mh + _mT(mh)).tril()
        ga = _solve_right(q @ skew, _mT(r[..., :, :m]))
        ga = _tensor_op("cat")([ga, _tensor_op("zeros_like")(r[..., :, m:]).expand(*ga.shape[:-1], n - m)], -1)
        if gr is not None:
            ga = ga + q @ gr
        return ga, None


# -- eigh -----------------------------------------------------------------------------------------------------


class Eigh(Function):
    """``linalg.eigh(A, UPLO)``: eigenvalues (ascending) and orthonormal eigenvectors of a symmetric matrix,
    read from its lower (``'L'``) or upper (``'U'``) triangle."""

    node_name: str = "LinalgEighBackward0"
    jvp = "from_vjp"
    saved_names: tuple[str, ...] = ("eigenvalues", "eigenvectors")
    inputs: tuple[str, ...] = ("self",)
    grads: tuple[str, ...] = ("V · (½·skew(Vᵀ·g_V) / E + diag(g_λ)) · Vᵀ",)
    words: str = ("eigh's gradient: the eigenvalues' gradient on the diagonal, the eigenvectors' divided by "
                  "the gaps between eigenvalues, rotated back by V.")

    @staticmethod
    def forward(ctx: Any, a: Any, uplo: str) -> Any:
        w, v = np.linalg.eigh(a._data, UPLO=uplo)
        w, v = w.astype(a._data.dtype), column_major(v.astype(a._data.dtype))
        ctx.save_for_backward(w, v)
        return w, v

    @staticmethod
    def backward(ctx: Any, gl: Any, gv: Any) -> Any:
        w, v = ctx.saved_tensors
        if gv is None:
            return (v * gl.unsqueeze(-2)) @ _mT(v), None
        vhgv = _mT(v) @ gv
        vhgv = 0.5 * (vhgv - _mT(vhgv))
        e = w.unsqueeze(-2) - w.unsqueeze(-1)
        n = w.shape[-1]
        eye = _const(np.eye(n, dtype=bool))
        inner = vhgv / e.masked_fill(eye, 1.0)
        diag = gl if gl is not None else _tensor_op("zeros_like")(w)
        inner = _tensor_op("where")(eye, _diag_embed(diag), inner)
        return v @ (inner @ _mT(v)), None


# -- pinv and lstsq -------------------------------------------------------------------------------------------


def pinv_backward(grad, pinv_a, a):
    """PyTorch's pinv_backward (real case): the products arranged to keep the matrices small."""
    m, n = a.shape[-2], a.shape[-1]
    pinv_ah, gradh = _mT(pinv_a), _mT(grad)
    if m <= n:
        k = gradh @ pinv_a
        kpinv_ah = k @ pinv_ah
        return -_mT(pinv_a @ k) + kpinv_ah - (a @ pinv_a) @ kpinv_ah + (pinv_ah @ pinv_a) @ (gradh - k @ a)
    k = pinv_a @ gradh
    pinv_ahk = pinv_ah @ k
    return -_mT(k @ pinv_a) + pinv_ahk - (pinv_ahk @ pinv_a) @ a + ((gradh - a @ k) @ pinv_a) @ pinv_ah


def pinv_array(x: np.ndarray, atol: Any, rtol: Any, hermitian: bool) -> np.ndarray:
    """The pseudo-inverse from the SVD (or, hermitian, the eigendecomposition): singular values at most
    max(atol, rtol · σ_max) are dropped."""
    dtype = x.dtype
    if hermitian:
        w, v = np.linalg.eigh(x)
        s, u, vh = np.abs(w), v, np.swapaxes(v * np.sign(w)[..., None, :], -1, -2)
        smax = np.max(s, axis=-1, keepdims=True, initial=0.0)
    else:
        u, s, vh = D.svd_arrays(x, full_matrices=False)
        smax = s[..., :1] if s.shape[-1] else np.zeros((*s.shape[:-1], 1), dtype)
    tol = np.maximum(np.asarray(atol, dtype)[..., None], np.asarray(rtol, dtype)[..., None] * smax)
    with np.errstate(divide="ignore"):
        sinv = np.where(s > tol, 1 / np.where(s > tol, s, 1), 0).astype(dtype)
    return (np.swapaxes(vh, -1, -2) * sinv[..., None, :]) @ np.swapaxes(u, -1, -2)


class Pinv(Function):
    """``linalg.pinv(A, atol, rtol, hermitian)``: the Moore–Penrose pseudo-inverse."""

    node_name: str = "LinalgPinvBackward0"
    jvp = "from_vjp"
    saved_names: tuple[str, ...] = ("self", "result")
    inputs: tuple[str, ...] = ("self",)
    grads: tuple[str, ...] = ("pinv_backward(g, result, self)",)
    words: str = ("The pseudo-inverse's gradient: the inverse's −A⁺ᵀ g A⁺ᵀ plus the terms for the spaces "
                  "A does not map onto.")

    @staticmethod
    def forward(ctx: Any, a: Any, atol: Any, rtol: Any, hermitian: bool) -> Any:
        out = pinv_array(a._data, atol, rtol, hermitian)
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx: Any, g: Any) -> Any:
        a, result = ctx.saved_tensors
        return pinv_backward(g, result, a), None, None, None


class Lstsq(Function):
    """``linalg.lstsq(A, B)``: X minimising ‖A X − B‖ (the minimum-norm one), with residuals, rank and
    singular values as the driver computes them."""

    node_name: str = "LinalgLstsqBackward0"
    jvp = "from_vjp"
    saved_names: tuple[str, ...] = ("self", "b")
    saved_attrs: tuple[str, ...] = ()       # (rcond, driver: kept on ctx; PyTorch exposes neither)
    inputs: tuple[str, ...] = ("self", "b")
    grads: tuple[str, ...] = ("pinv_backward(g · bᵀ, pinv(self), self)", "pinv(self)ᵀ · g")
    words: str = "Least squares is X = A⁺ B: B gets A⁺ᵀ g, A the pseudo-inverse's gradient of g Bᵀ."

    @staticmethod
    def forward(ctx: Any, a: Any, b: Any, rcond: Any, driver: str, vector: bool) -> Any:
        x, y = a._data, b._data
        y = y[..., None] if vector else y
        batch = np.broadcast_shapes(x.shape[:-2], y.shape[:-2])
        m, n = x.shape[-2:]
        xs = np.broadcast_to(x, batch + x.shape[-2:])
        ys = np.broadcast_to(y, batch + y.shape[-2:])
        eps = np.finfo(x.dtype).eps
        cut = rcond if rcond is not None else eps * max(m, n)
        u, s, vh = D.svd_arrays(xs, full_matrices=False)
        smax = s[..., :1] if s.shape[-1] else np.zeros((*batch, 1), x.dtype)
        keep = s > cut * smax
        with np.errstate(divide="ignore"):
            sinv = np.where(keep, 1 / np.where(keep, s, 1), 0).astype(x.dtype)
        sol = (np.swapaxes(vh, -1, -2) * sinv[..., None, :]) @ (np.swapaxes(u, -1, -2) @ ys)
        rank = keep.sum(-1).astype(np.int64)
        full = bool(np.all(rank == n)) and m > n
        if full and driver != "gelsy":
            residuals = ((xs @ sol - ys) ** 2).sum(-2)
            residuals = residuals[..., 0] if vector else residuals
        else:
            residuals = np.zeros((0,), x.dtype)
        svals = s.astype(x.dtype) if driver in ("gelsd", "gelss") else np.zeros((0,), x.dtype)
        if driver == "gels":
            rank = np.zeros((0,), np.int64)
        sol = column_major(sol.astype(x.dtype))
        ctx.save_for_backward(a, b)
        ctx.rcond, ctx.driver, ctx.vector = rcond, driver, vector
        svals_t = _const(svals)                  # no gradient flows from the singular values (PyTorch)
        ctx.mark_non_differentiable(svals_t)
        return (sol[..., 0] if vector else sol), residuals.astype(x.dtype), rank, svals_t

    @staticmethod
    def backward(ctx: Any, gx: Any, gres: Any = None, _grank: Any = None, _gs: Any = None) -> Any:
        a, b = ctx.saved_tensors
        has_gres = gres is not None and gres.numel() > 0
        if gx is None and not has_gres:
            return None, None, None, None, None
        vector = ctx.vector
        bm = b.unsqueeze(-1) if vector else b
        ga = gb = None
        if gx is not None:
            g = gx.unsqueeze(-1) if vector else gx
            pinv_a = _tensor_op("pinv")(a)
            if ctx.needs_input_grad[0]:
                ga = pinv_backward(g @ _mT(bm), pinv_a, a)
            if ctx.needs_input_grad[1]:
                gb = _mT(pinv_a) @ g
        if has_gres:           # residuals ‖AX − B‖² at the optimum: ∂A = 2 (AX − B) gᵀ Xᵀ, ∂B = −2 (AX − B) g
            x = Lstsq.apply(a, b, ctx.rcond, ctx.driver, vector)[0]
            x = x.unsqueeze(-1) if vector else x
            weighted = (a @ x - bm) * (gres.unsqueeze(-1) if vector else gres.unsqueeze(-2))
            if ctx.needs_input_grad[0]:
                term = 2 * (weighted @ _mT(x))
                ga = term if ga is None else ga + term
            if ctx.needs_input_grad[1]:
                term = -2 * weighted
                gb = term if gb is None else gb + term
        if ga is not None:
            ga = _sum_to(ga, a.shape)
        if gb is not None:
            gb = _sum_to(gb.squeeze(-1) if vector else gb, b.shape)
        return ga, gb, None, None, None


# -- cross and matrix_exp -------------------------------------------------------------------------------------


def cross_array(x: np.ndarray, y: np.ndarray, dim: int) -> np.ndarray:
    return np.cross(x, y, axisa=dim, axisb=dim, axisc=dim)


class Cross(Function):
    """``linalg.cross(a, b, dim)``: the cross product of 3-vectors along ``dim`` (broadcasting)."""

    node_name: str = "LinalgCrossBackward0"
    jvp = "from_vjp"
    saved_names: tuple[str, ...] = ("self", "other")
    saved_attrs = ("dim",)
    inputs: tuple[str, ...] = ("self", "other")
    grads: tuple[str, ...] = ("cross(other, g)", "cross(g, self)")
    words: str = "The cross product is bilinear: each factor gets the cross product of the other with g."

    @staticmethod
    def forward(ctx: Any, a: Any, b: Any, dim: int) -> Any:
        shape = np.broadcast_shapes(a.shape, b.shape)
        dim = dim % len(shape)
        ctx.dim = dim - len(shape)          # PyTorch saves the negative dim (shown as 2**64 + dim)
        ctx.save_for_backward(a, b)
        x, y = np.broadcast_to(a._data, shape), np.broadcast_to(b._data, shape)
        return cross_array(x, y, dim).astype(np.result_type(x, y))

    @staticmethod
    def backward(ctx: Any, g: Any) -> Any:
        a, b = ctx.saved_tensors
        ga = Cross.apply(b, g, ctx.dim) if ctx.needs_input_grad[0] else None
        gb = Cross.apply(g, a, ctx.dim) if ctx.needs_input_grad[1] else None
        return (None if ga is None else _sum_to(ga, a.shape)), (None if gb is None else _sum_to(gb, b.shape)), None


class MatrixExp(Function):
    """``linalg.matrix_exp(A)``: Σ Aᵏ / k!, by scaling and squaring."""

    node_name: str = "LinalgMatrixExpBackward0"
    jvp = "from_vjp"
    saved_names: tuple[str, ...] = ("self",)
    inputs: tuple[str, ...] = ("self",)
    grads: tuple[str, ...] = ("[exp([[selfᵀ, g], [0, selfᵀ]])]₁₂",)
    words: str = ("The matrix exponential's gradient is the off-diagonal block of the exponential of a "
                  "block matrix built from Aᵀ and g.")

    @staticmethod
    def forward(ctx: Any, a: Any) -> Any:
        ctx.save_for_backward(a)
        return expm(a._data)

    @staticmethod
    def backward(ctx: Any, g: Any) -> Any:
        (a,) = ctx.saved_tensors
        n = a.shape[-1]
        at = _mT(a)
        cat, zeros_like = _tensor_op("cat"), _tensor_op("zeros_like")
        top = cat([at, g], -1)
        bottom = cat([zeros_like(g), at], -1)
        big = MatrixExp.apply(cat([top, bottom], -2))
        return big[..., :n, n:]


class Vdot(Function):
    """``vdot(a, b)``: Σ a_i b_i of two 1-D tensors (the conjugate of ``a`` in the complex case)."""

    node_name: str = "VdotBackward0"
    jvp = "from_vjp"
    saved_names: tuple[str, ...] = ("self", "other")
    inputs: tuple[str, ...] = ("self", "other")
    grads: tuple[str, ...] = ("g · other", "g · self")
    words: str = "A dot product: each vector gets g times the other."

    @staticmethod
    def forward(ctx: Any, a: Any, b: Any) -> Any:
        ctx.save_for_backward(a, b)
        return np.asarray(np.dot(a._data, b._data))

    @staticmethod
    def backward(ctx: Any, g: Any) -> Any:
        a, b = ctx.saved_tensors
        return (g * b if ctx.needs_input_grad[0] else None), (g * a if ctx.needs_input_grad[1] else None)
