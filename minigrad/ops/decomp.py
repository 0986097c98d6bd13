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

from ..autograd.function import Function

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


class Det(Function):
    """``det(A)``.  Backward: g · det · A⁻ᵀ."""

    node_name: str = "LinalgDetBackward0"
    jvp = "from_vjp"
    saved_names: tuple[str, ...] = ("A",)
    inputs: tuple[str, ...] = ("A",)
    grads: tuple[str, ...] = ("g · result · (A⁻¹)ᵀ",)
    words: str = "The determinant's slope is the determinant times the inverse transpose (Jacobi's formula)."

    @staticmethod
    def forward(ctx: Any, a: Tensor) -> Any:
        out = np.linalg.det(a._data).astype(a._data.dtype)
        ctx.save_for_backward(a)
        ctx.result = out
        return out

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        (a,) = ctx.saved_tensors
        det = Det.apply(a) if a.requires_grad else _const(ctx.result)  # recomputed: differentiable again
        return (grad * det).unsqueeze(-1).unsqueeze(-1) * _mT(Inv.apply(a))


class Inv(Function):
    """``inv(A)``.  Backward: −A⁻ᵀ g A⁻ᵀ."""

    node_name: str = "LinalgInvExBackward0"
    jvp = "from_vjp"
    saved_names: tuple[str, ...] = ("inverse",)     # the result, as PyTorch: an in-place write to it raises
    inputs: tuple[str, ...] = ("A",)
    grads: tuple[str, ...] = ("−inverseᵀ · g · inverseᵀ",)
    words: str = "The inverse's gradient: g sandwiched between two inverse transposes, with a minus sign."

    @staticmethod
    def forward(ctx: Any, a: Tensor) -> Any:
        try:
            out = np.linalg.inv(a._data)
        except np.linalg.LinAlgError:
            raise LinAlgError("linalg.inv: The diagonal element 1 is zero, the inversion could not be completed "
                              "because the input matrix is singular.") from None
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        (inverse,) = ctx.saved_tensors      # (under create_graph it carries this node: differentiable again)
        inv_t = _mT(inverse)
        return -(inv_t @ (grad @ inv_t))    # PyTorch's order of the products


class Solve(Function):
    """``solve(A, B)``: X with AX = B.  Backward: ∂B = solve(Aᵀ, g), ∂A = −∂B Xᵀ."""

    node_name: str = "LinalgSolveExBackward0"
    jvp = "from_vjp"
    saved_names: tuple[str, ...] = ("A", "B")
    inputs: tuple[str, ...] = ("A", "B")
    grads: tuple[str, ...] = ("−solve(Aᵀ, g) · resultᵀ", "solve(Aᵀ, g)")
    words: str = "Solving A X = B: B gets Aᵀ solved against g, A gets minus that times Xᵀ."

    @staticmethod
    def forward(ctx: Any, a: Tensor, b: Tensor) -> Any:
        vector = b.ndim == a.ndim - 1
        ctx.vector = vector
        rhs = b._data[..., None] if vector else b._data
        try:
            out = np.linalg.solve(a._data, rhs)
        except np.linalg.LinAlgError:
            raise LinAlgError("torch.linalg.solve: The solver failed because the input matrix is singular.") from None
        out = out[..., 0] if vector else out
        ctx.save_for_backward(a, b)
        return out

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        a, b = ctx.saved_tensors
        gb = Solve.apply(_mT(a), grad)
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
        u, s, vh = np.linalg.svd(a._data, full_matrices=full_matrices)
        dtype = a._data.dtype
        u, s, vh = u.astype(dtype), s.astype(dtype), vh.astype(dtype)
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
    """``(sign, log|det A|)``.  Backward: g_logabsdet · A⁻ᵀ (the sign is flat: no gradient from it)."""

    node_name = "LinalgSlogdetBackward0"
    jvp = "from_vjp"
    saved_names = ("A",)
    inputs = ("A",)
    grads = ("g_logabsdet · (A⁻¹)ᵀ",)
    words = "log|det A| has slope A⁻ᵀ (Jacobi's formula divided by det); the sign is piecewise constant."

    @staticmethod
    def forward(ctx: Any, a: Any) -> Any:
        sign, logabsdet = np.linalg.slogdet(a._data)
        ctx.save_for_backward(a)
        ctx.set_materialize_grads(False)     # only the sign used: no gradient at all (PyTorch's undefined one)
        dtype = a._data.dtype
        return np.asarray(sign, dtype=dtype), np.asarray(logabsdet, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, g_sign: Any, g_logabsdet: Any) -> Any:
        (a,) = ctx.saved_tensors
        if g_logabsdet is None:
            return None
        g = g_logabsdet.unsqueeze(-1).unsqueeze(-1)
        if a.shape[-1] == 1:                 # PyTorch's LU solve is g / a: ±inf for a singular 1×1, no error
            return g / a
        return g * _mT(Inv.apply(a))


def _const(array):
    from .._tensor import Tensor  # at call time: ops/ is imported while _tensor is loading
    return Tensor._make(array)


def _diag_embed(t):
    k = t.shape[-1]
    return t.unsqueeze(-1) * _const(np.eye(k, dtype=t._data.dtype))
