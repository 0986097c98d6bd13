"""torch.linalg's cholesky, qr, eigh, eigvalsh, lstsq, pinv, matrix_rank, cross, multi_dot, vecdot, matrix_power,
matrix_exp (and torch.cholesky, qr, cross, vdot, matrix_power, matrix_exp, pinverse) against PyTorch 2.13:
values, gradients (a cosine-weighted sum of every differentiable output), grad_fn names, result types, errors.

float64 gradcheck / gradgradcheck come from op_cases.py's linalg_* rows.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

RNG = np.random.default_rng(0)
A43 = RNG.standard_normal((4, 3))
SPD = A43.T @ A43 + np.eye(3)
W35 = RNG.standard_normal((3, 5))
SQ = RNG.standard_normal((3, 3))
BATCH = RNG.standard_normal((2, 3, 3))
SPD_BATCH = BATCH @ np.swapaxes(BATCH, -1, -2) + np.eye(3)


def run(lib, fn, arrays, dtype):
    tensors = [lib.tensor(a, dtype=getattr(lib, dtype), requires_grad=True) for a in arrays]
    out = fn(lib, *tensors)
    out = tuple(out) if isinstance(out, tuple) else (out,)
    diff = [x for x in out if x.requires_grad and x.numel()]
    grads = []
    if diff:
        loss = sum((x * lib.tensor(np.cos(np.arange(x.numel())).reshape(tuple(x.shape)), dtype=x.dtype)).sum()
                   for x in diff)
        grads = [None if g is None else g.numpy() for g in lib.autograd.grad(loss, tensors, allow_unused=True)]
    names = [None if x.grad_fn is None else type(x.grad_fn).__name__ for x in out]
    return [x.detach().numpy() for x in out], grads, names, [str(x.dtype).split(".")[-1] for x in out]


CASES = {
    "cholesky": (lambda lib, a: lib.linalg.cholesky(a), [SPD]),
    "cholesky upper": (lambda lib, a: lib.linalg.cholesky(a, upper=True), [SPD]),
    "cholesky batch": (lambda lib, a: lib.linalg.cholesky(a), [SPD_BATCH]),
    "cholesky_ex": (lambda lib, a: tuple(lib.linalg.cholesky_ex(a)), [SPD]),
    "torch.cholesky": (lambda lib, a: lib.cholesky(a), [SPD]),
    "torch.cholesky upper": (lambda lib, a: lib.cholesky(a, True), [SPD]),
    "qr": (lambda lib, a: tuple(lib.linalg.qr(a)), [A43]),
    "qr wide": (lambda lib, a: tuple(lib.linalg.qr(a)), [W35]),
    "qr complete square": (lambda lib, a: tuple(lib.linalg.qr(a, mode="complete")), [SQ]),
    "qr complete wide": (lambda lib, a: tuple(lib.linalg.qr(a, mode="complete")), [W35]),
    "qr complete tall": (lambda lib, a: tuple(lib.linalg.qr(a.detach(), mode="complete")), [A43]),
    "qr batch": (lambda lib, a: tuple(lib.linalg.qr(a)), [BATCH]),
    "torch.qr": (lambda lib, a: tuple(lib.qr(a)), [A43]),
    "torch.qr some=False": (lambda lib, a: tuple(lib.qr(a.detach(), some=False)), [A43]),
    "qr r": (lambda lib, a: lib.linalg.qr(a.detach(), mode="r")[1], [A43]),
    "eigvalsh": (lambda lib, a: lib.linalg.eigvalsh(a), [SQ]),
    "eigvalsh U": (lambda lib, a: lib.linalg.eigvalsh(a, UPLO="U"), [SQ]),
    "eigh values": (lambda lib, a: lib.linalg.eigh(a)[0], [SPD_BATCH]),
    "eigh |vectors|": (lambda lib, a: lib.linalg.eigh(a)[1].abs(), [SPD]),
    "eigh outer products": (lambda lib, a: tuple(x * x for x in lib.linalg.eigh(a)), [SQ]),
    "pinv": (lambda lib, a: lib.linalg.pinv(a), [A43]),
    "pinv wide": (lambda lib, a: lib.linalg.pinv(a), [W35]),
    "pinv hermitian": (lambda lib, a: lib.linalg.pinv(a, hermitian=True), [SPD]),
    "pinv atol": (lambda lib, a: lib.linalg.pinv(a, atol=1.5), [A43]),
    "pinv rtol batch": (lambda lib, a: lib.linalg.pinv(a, rtol=0.3), [BATCH]),
    "pinverse": (lambda lib, a: lib.pinverse(a), [A43]),
    "lstsq": (lambda lib, a, b: tuple(lib.linalg.lstsq(a, b))[:2], [A43, RNG.standard_normal((4, 2))]),
    "lstsq gelsd": (lambda lib, a, b: tuple(lib.linalg.lstsq(a, b, driver="gelsd")),
                    [A43, RNG.standard_normal((4, 2))]),
    "lstsq gelss rank": (lambda lib, a, b: lib.linalg.lstsq(a, b, driver="gelss").rank,
                         [A43, RNG.standard_normal((4, 2))]),
    "lstsq vector": (lambda lib, a, b: lib.linalg.lstsq(a, b).solution, [A43, RNG.standard_normal(4)]),
    "lstsq wide": (lambda lib, a, b: lib.linalg.lstsq(a, b).solution, [W35, RNG.standard_normal((3, 2))]),
    "cross": (lambda lib, a, b: lib.linalg.cross(a, b), [RNG.standard_normal((2, 3)), RNG.standard_normal((1, 3))]),
    "cross dim 0": (lambda lib, a, b: lib.linalg.cross(a, b, dim=0), [RNG.standard_normal((3, 2)),
                                                                       RNG.standard_normal((3, 2))]),
    "torch.cross dim": (lambda lib, a, b: lib.cross(a, b, dim=1), [RNG.standard_normal((4, 3)),
                                                                    RNG.standard_normal((4, 3))]),
    "multi_dot vector ends": (lambda lib, a, b, c: lib.linalg.multi_dot([a, b, c]),
                              [RNG.standard_normal(4), A43, RNG.standard_normal(3)]),
    "multi_dot 4": (lambda lib, a, b, c, d: lib.linalg.multi_dot([a, b, c, d]),
                    [RNG.standard_normal((2, 4)), A43, W35, RNG.standard_normal((5, 1))]),
    "multi_dot 5": (lambda lib, *m: lib.linalg.multi_dot(m),
                    [RNG.standard_normal((5, 1)), RNG.standard_normal((1, 6)), RNG.standard_normal((6, 2)),
                     RNG.standard_normal((2, 7)), RNG.standard_normal((7, 3))]),
    "multi_dot 2": (lambda lib, a, b: lib.linalg.multi_dot([a, b]), [A43, W35]),
    "vecdot": (lambda lib, a, b: lib.linalg.vecdot(a, b), [RNG.standard_normal((2, 3)), RNG.standard_normal((2, 3))]),
    "vecdot dim 0": (lambda lib, a, b: lib.linalg.vecdot(a, b, dim=0), [RNG.standard_normal((2, 3)),
                                                                        RNG.standard_normal((1, 3))]),
    "vecdot 1-d": (lambda lib, a, b: lib.linalg.vecdot(a, b), [RNG.standard_normal(3), RNG.standard_normal(3)]),
    "vdot": (lambda lib, a, b: lib.vdot(a, b), [RNG.standard_normal(5), RNG.standard_normal(5)]),
    "matrix_power 0": (lambda lib, a: lib.linalg.matrix_power(a, 0), [SQ]),
    "matrix_power 1": (lambda lib, a: lib.linalg.matrix_power(a, 1), [SQ]),
    "matrix_power 3": (lambda lib, a: lib.linalg.matrix_power(a, 3), [SQ]),
    "matrix_power 6": (lambda lib, a: lib.linalg.matrix_power(a, 6), [BATCH]),
    "matrix_power -2": (lambda lib, a: lib.linalg.matrix_power(a, -2), [SPD]),
    "torch.matrix_power": (lambda lib, a: lib.matrix_power(a, 4), [SQ]),
    "matrix_exp": (lambda lib, a: lib.linalg.matrix_exp(a), [SQ]),
    "matrix_exp large norm": (lambda lib, a: lib.linalg.matrix_exp(a), [4 * SQ]),
    "matrix_exp batch": (lambda lib, a: lib.matrix_exp(a), [BATCH]),
    "matrix_rank": (lambda lib, a: lib.linalg.matrix_rank(a.detach()), [A43 @ W35]),
    "matrix_rank hermitian atol": (lambda lib, a: lib.linalg.matrix_rank(a.detach(), atol=3.0, hermitian=True),
                                   [SPD_BATCH]),
}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", CASES)
def test_matches_pytorch(name, dtype):
    fn, arrays = CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = run(minigrad, fn, arrays, dtype)
        theirs = run(torch, fn, arrays, dtype)
    (values, grads, names, dtypes), (t_values, t_grads, t_names, t_dtypes) = ours, theirs
    assert names == t_names
    assert dtypes == t_dtypes
    scale = 1e-10 if dtype == "float64" else 2e-4
    for a, b in zip(values, t_values):
        assert a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=scale, atol=scale * max(1.0, float(np.abs(b).max(initial=0))))
    assert len(grads) == len(t_grads)
    for a, b in zip(grads, t_grads):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(a, b, rtol=scale * 10, atol=scale * 10 * max(1.0, float(np.abs(b).max())))


def test_result_types_and_reprs():
    a = minigrad.tensor(SPD)
    assert type(minigrad.linalg.qr(a)).__name__ == "linalg_qr"
    assert type(minigrad.qr(a)).__name__ == "qr"
    assert type(minigrad.linalg.eigh(a)).__name__ == "linalg_eigh"
    assert type(minigrad.linalg.cholesky_ex(a)).__name__ == "linalg_cholesky_ex"
    assert minigrad.linalg.lstsq(a, a)._fields == ("solution", "residuals", "rank", "singular_values")
    assert repr(minigrad.linalg.cholesky_ex(minigrad.tensor([[1.0, 2], [2, 1]]))) == repr(
        torch.linalg.cholesky_ex(torch.tensor([[1.0, 2], [2, 1]])))
    assert repr(minigrad.linalg.eigh(minigrad.eye(2))) == repr(torch.linalg.eigh(torch.eye(2)))


def test_strides_are_lapacks_like_pytorchs():
    for fn in (lambda lib, a: lib.linalg.cholesky(a), lambda lib, a: lib.linalg.qr(a)[0],
               lambda lib, a: lib.linalg.qr(a)[1], lambda lib, a: lib.linalg.eigh(a)[1]):
        assert fn(minigrad, minigrad.tensor(SPD)).stride() == fn(torch, torch.tensor(SPD)).stride()


def test_eigenvectors_diagonalise_and_agree_with_pytorch_up_to_sign():
    """MKL's syevd (PyTorch) and OpenBLAS's (numpy) may pick opposite signs for an eigenvector: each column
    agrees up to sign, and V diag(λ) Vᵀ rebuilds A."""
    w, v = minigrad.linalg.eigh(minigrad.tensor(SPD_BATCH))
    tw, tv = torch.linalg.eigh(torch.tensor(SPD_BATCH))
    np.testing.assert_allclose(w.numpy(), tw.numpy(), rtol=1e-12)
    signs = np.sign((v.numpy() * tv.numpy()).sum(-2, keepdims=True))
    np.testing.assert_allclose(v.numpy() * signs, tv.numpy(), atol=1e-12)
    rebuilt = (v * w.unsqueeze(-2)) @ v.transpose(-2, -1)
    np.testing.assert_allclose(rebuilt.numpy(), SPD_BATCH, atol=1e-12)


def test_second_derivatives_through_the_new_nodes():
    a = minigrad.tensor(SQ, requires_grad=True)
    spd = minigrad.tensor(SPD, requires_grad=True)
    for fn, x in ((lambda t: minigrad.linalg.cholesky(t @ t.T + minigrad.eye(3, dtype=t.dtype)), a),
                  (lambda t: minigrad.linalg.qr(t)[0], a),
                  (lambda t: minigrad.linalg.eigvalsh(t + t.T), spd),   # eigvalsh reads one triangle
                  (lambda t: minigrad.linalg.pinv(t), a),
                  (lambda t: minigrad.linalg.matrix_exp(t), a)):
        assert gradcheck(fn, (x,))
        assert gradgradcheck(fn, (x,))


def test_torch_cholesky_warns_once_like_pytorch():
    import minigrad._linalg_nn5 as module
    module._warned_cholesky[0] = False
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        minigrad.cholesky(minigrad.tensor(SPD))
        minigrad.cholesky(minigrad.tensor(SPD))
    assert len(caught) == 1
    assert str(caught[0].message).startswith("torch.cholesky is deprecated in favor of torch.linalg.cholesky")


def error_of(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fn()
        except Exception as error:
            return type(error).__name__, str(error).split(" (Triggered internally")[0]
    return None


def _qr_r_backward(lib):
    a = lib.tensor(A43, requires_grad=True)
    lib.linalg.qr(a, mode="r")[1].sum().backward()


def _qr_complete_tall_backward(lib):
    a = lib.tensor(A43, requires_grad=True)
    lib.linalg.qr(a, mode="complete")[0].sum().backward()


ERRORS = {
    "cholesky not PD": lambda lib: lib.linalg.cholesky(lib.tensor([[1.0, 2], [2, 1]])),
    "cholesky batch not PD": lambda lib: lib.linalg.cholesky(lib.stack([lib.eye(2), -lib.eye(2)])),
    "cholesky not square": lambda lib: lib.linalg.cholesky(lib.zeros(2, 3)),
    "cholesky 1-d": lambda lib: lib.linalg.cholesky(lib.zeros(3)),
    "cholesky int": lambda lib: lib.linalg.cholesky(lib.ones(2, 2, dtype=lib.long)),
    "cholesky_ex check_errors": lambda lib: lib.linalg.cholesky_ex(-lib.eye(2), check_errors=True),
    "eigh not square": lambda lib: lib.linalg.eigh(lib.zeros(2, 3)),
    "eigh UPLO": lambda lib: lib.linalg.eigh(lib.eye(2), UPLO="X"),
    "eigvalsh not square": lambda lib: lib.linalg.eigvalsh(lib.ones(2, 3)),
    "qr 1-d": lambda lib: lib.linalg.qr(lib.zeros(3)),
    "qr mode": lambda lib: lib.linalg.qr(lib.zeros(3, 3), mode="x"),
    "qr int": lambda lib: lib.linalg.qr(lib.ones(3, 3, dtype=lib.long)),
    "qr r backward": _qr_r_backward,
    "qr complete tall backward": _qr_complete_tall_backward,
    "pinv 1-d": lambda lib: lib.linalg.pinv(lib.ones(3)),
    "lstsq rows": lambda lib: lib.linalg.lstsq(lib.ones(3, 2), lib.ones(2, 2)),
    "lstsq driver": lambda lib: lib.linalg.lstsq(lib.ones(3, 2), lib.ones(3, 2), driver="foo"),
    "matrix_rank 1-d": lambda lib: lib.linalg.matrix_rank(lib.ones(3)),
    "cross dims": lambda lib: lib.linalg.cross(lib.ones(2, 3), lib.ones(3)),
    "cross length": lambda lib: lib.linalg.cross(lib.randn(2, 4), lib.randn(2, 4)),
    "multi_dot one": lambda lib: lib.linalg.multi_dot([lib.eye(2)]),
    "multi_dot first 3-d": lambda lib: lib.linalg.multi_dot([lib.ones(2, 2, 2), lib.eye(2)]),
    "multi_dot last 3-d": lambda lib: lib.linalg.multi_dot([lib.eye(2), lib.ones(2, 2, 2)]),
    "multi_dot middle 1-d": lambda lib: lib.linalg.multi_dot([lib.eye(2), lib.ones(2), lib.eye(2)]),
    "multi_dot shapes": lambda lib: lib.linalg.multi_dot([lib.eye(2), lib.ones(3, 3)]),
    "vdot sizes": lambda lib: lib.vdot(lib.ones(3), lib.ones(4)),
    "vecdot sizes": lambda lib: lib.linalg.vecdot(lib.ones(3), lib.ones(4)),
    "matrix_power not square": lambda lib: lib.linalg.matrix_power(lib.ones(2, 3), 2),
    "matrix_power int negative": lambda lib: lib.linalg.matrix_power(lib.ones(2, 2, dtype=lib.long), -1),
    "matrix_exp not square": lambda lib: lib.linalg.matrix_exp(lib.ones(2, 3)),
}


@pytest.mark.parametrize("case", ERRORS)
def test_errors_match_pytorch(case):
    ours = error_of(lambda: ERRORS[case](minigrad))
    assert ours is not None
    assert ours == error_of(lambda: ERRORS[case](torch))
