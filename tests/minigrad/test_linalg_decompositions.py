"""``torch.linalg``'s decompositions: slogdet's node, svd's second derivative, logdet, and their JVPs."""

from __future__ import annotations

import math

import numpy as np
import pytest

import minigrad as torch
from minigrad.autograd import gradcheck, gradgradcheck


def _matrix(*shape, seed=0):
    rng = np.random.default_rng(seed)
    return torch.tensor(rng.standard_normal(shape), dtype=torch.float64, requires_grad=True)


def test_slogdet_records_one_node_for_both_outputs():
    a = _matrix(3, 3)
    sign, logabsdet = torch.linalg.slogdet(a)
    assert sign.grad_fn is logabsdet.grad_fn
    assert logabsdet.grad_fn.name() == "LinalgSlogdetBackward0"
    assert type(torch.slogdet(a)).__name__ == "slogdet"
    assert type(torch.linalg.slogdet(a)).__name__ == "linalg_slogdet"
    np.testing.assert_allclose(logabsdet.item(), math.log(abs(np.linalg.det(a.detach().numpy()))))


@pytest.mark.parametrize("fn", [
    lambda a: torch.linalg.slogdet(a)[1],
    lambda a: torch.linalg.svdvals(a),
    lambda a: torch.linalg.svd(a, full_matrices=False)[0].abs().sum(),
    lambda a: torch.linalg.svd(a, full_matrices=False)[2].abs().sum(),
    lambda a: torch.linalg.svd(a)[1].pow(3).sum(),
], ids=["slogdet", "svdvals", "svd_U", "svd_Vh", "svd_S_cubed"])
@pytest.mark.parametrize("shape", [(3, 3), (4, 2), (2, 4)], ids=str)
def test_second_derivatives(fn, shape):
    if shape != (3, 3) and fn.__code__.co_code == (lambda a: torch.linalg.slogdet(a)[1]).__code__.co_code:
        pytest.skip("slogdet needs a square matrix")
    a = _matrix(*shape, seed=1)
    assert gradcheck(fn, (a,))
    assert gradgradcheck(fn, (a,))
    assert gradcheck(fn, (a,), check_forward_ad=True, check_backward_ad=False)


def test_logdet_is_nan_for_a_negative_determinant():
    assert math.isnan(torch.logdet(-torch.eye(3, dtype=torch.float64)).item())
    assert torch.logdet(torch.zeros(2, 2)).item() == -math.inf
    a = _matrix(3, 3)
    b = a @ a.T
    np.testing.assert_allclose(torch.logdet(b).item(), math.log(np.linalg.det(b.detach().numpy())))
