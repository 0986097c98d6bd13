"""det / slogdet / inv / solve from LAPACK's LU factorisation, as PyTorch computes them (oracle: PyTorch 2.13).

numpy's ``det`` is ``sign · exp(Σ log|U_kk|)`` from OpenBLAS's factors (0 where PyTorch's product of pivots is nan,
+0 where it is -0) and its ``inv`` factors in another order; minigrad factors the matrix itself (``ops/decomp._lu``).
"""

from __future__ import annotations

import numpy as np
import pytest

import minigrad

SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e30, -1e30, 1e-30, 100.0, -100.0, 1.0, -1.0, 2.0, 0.5]


def _matrices(n, dtype, count, special=0.3, seed=0):
    rng = np.random.default_rng(seed + n)
    for _ in range(count):
        a = rng.standard_normal((n, n)).round(2)
        mask = rng.random((n, n)) < special
        a[mask] = rng.choice(SPECIAL, mask.sum())
        yield a.astype(dtype)


def _pattern_equal(x, y):
    x, y = np.asarray(x), np.asarray(y)
    return all(np.array_equal(f(x), f(y)) for f in (np.isnan, np.isposinf, np.isneginf))


@pytest.mark.torch
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_lu_is_pytorchs_bit_for_bit(n, dtype):
    torch = pytest.importorskip("torch")
    from minigrad.ops.decomp import _lu
    for a in _matrices(n, dtype, 60):
        lu, piv, info = torch.linalg.lu_factor_ex(torch.from_numpy(a))
        mlu, mpiv, minfo = _lu(a)
        assert np.array_equal(mlu, lu.numpy(), equal_nan=True), a
        assert np.array_equal(mpiv + 1, piv.numpy()), a
        assert minfo == info.item(), a


@pytest.mark.torch
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_det_slogdet_inv_match_pytorch_with_nonfinite_entries(n, dtype):
    torch = pytest.importorskip("torch")
    for a in _matrices(n, dtype, 60, seed=1):
        t, m = torch.from_numpy(a), minigrad.tensor(a)
        det, mdet = torch.linalg.det(t).numpy(), minigrad.linalg.det(m).numpy()
        assert np.array_equal(det, mdet, equal_nan=True), a
        assert np.isnan(det) or np.signbit(det) == np.signbit(mdet), a
        (sign, logabs), (msign, mlogabs) = torch.linalg.slogdet(t), minigrad.linalg.slogdet(m)
        assert np.array_equal(sign.numpy(), msign.numpy()), a
        assert np.signbit(sign.numpy()) == np.signbit(msign.numpy()), a
        assert _pattern_equal(logabs.numpy(), mlogabs.numpy()), a
        inv, info = torch.linalg.inv_ex(t)
        if info.item() == 0:
            minv, finite = minigrad.linalg.inv(m).numpy(), np.isfinite(inv.numpy())
            assert _pattern_equal(inv.numpy(), minv), a
            if finite.any():                        # the triangular solves' rounding differs from MKL's (FMA)
                scale = np.abs(inv.numpy()[finite]).max()
                np.testing.assert_allclose(minv[finite], inv.numpy()[finite], rtol=1e-3, atol=1e-5 * scale)


def test_det_of_a_singular_matrix_is_a_signed_zero():
    a = minigrad.tensor([[-2.0, -2.0, -2.0]] * 3, dtype=minigrad.float64)
    assert str(minigrad.div(2.5, minigrad.linalg.det(a), rounding_mode="floor").item()) == "-inf"


def test_slogdet_sign_of_a_nan_matrix_is_zero():
    sign, logabsdet = minigrad.linalg.slogdet(minigrad.tensor([[float("nan"), 1.0], [2.0, 3.0]]))
    assert sign.item() == 0
    assert np.isnan(logabsdet.item())
    sign, _ = minigrad.linalg.slogdet(minigrad.tensor([[1.0, 2.0], [2.0, 4.0]]))
    assert sign.item() == 0
    assert np.signbit(sign.item())                                          # -0.: PyTorch's lu_det_P · 0


def test_det_backward_of_singular_and_1x1_matrices():
    """PyTorch solves Aᵀ X = g det I with the LU factors (a zero pivot replaced by eps): 0 for a singular matrix; a
    1 x 1 matrix gets g whatever its entry; under create_graph a singular matrix gets the adjugate (SVD)."""
    a = minigrad.tensor([[1.0, 2.0], [2.0, 4.0]], requires_grad=True)
    minigrad.linalg.det(a).backward()
    assert a.grad.tolist() == [[0.0, 0.0], [0.0, 0.0]]
    for v in (0.0, float("inf"), float("nan")):
        b = minigrad.tensor([[v]], requires_grad=True)
        minigrad.linalg.det(b).backward(minigrad.tensor(0.7))
        assert b.grad.tolist() == [[pytest.approx(0.7)]]
    c = minigrad.tensor([[1.0, 2.0], [2.0, 4.0]], requires_grad=True)
    (g,) = minigrad.autograd.grad(minigrad.linalg.det(c), c, create_graph=True)
    np.testing.assert_allclose(g.detach().numpy(), [[4.0, -2.0], [-2.0, 1.0]], atol=1e-6)


def test_det_backward_of_an_infinite_determinant_keeps_the_zeros_off_the_diagonal():
    a = minigrad.tensor([[-np.inf, -0.11, 1e30], [-0.21, 1.61, 1e30], [0.41, 1e30, 1e30]], requires_grad=True)
    minigrad.linalg.det(a).backward()
    assert np.isinf(a.grad.numpy()[1:, 1:]).all()                             # PyTorch: [[-inf, inf], [inf, -inf]]


def test_singular_errors_name_the_pivot_and_the_batch_element():
    a = minigrad.tensor([[[1.0, 2.0], [3.0, 4.0]], [[1.0, 2.0], [2.0, 4.0]]])
    with pytest.raises(minigrad.linalg.LinAlgError, match=r"^linalg.inv: \(Batch element 1\): The diagonal element 2 "):
        minigrad.linalg.inv(a)
    with pytest.raises(minigrad.linalg.LinAlgError, match=r"^torch.linalg.solve: \(Batch element 1\): The solver"):
        minigrad.linalg.solve(a, a)
    with pytest.raises(minigrad.linalg.LinAlgError, match=r"^linalg.inv: The diagonal element 1 is zero"):
        minigrad.inverse(minigrad.zeros(3, 3))
