"""Non-finite input to the SVD family raises PyTorch's error at once: numpy's LAPACK (gesdd) never returns on
an inf, so an unchecked ``torch.svd`` of a matrix holding inf hung the process (found by the fuzzer)."""

from __future__ import annotations

import math

import pytest

import minigrad as torch

MESSAGE = "linalg.svd: The algorithm failed to converge because the input matrix contained non-finite values."


@pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan])
@pytest.mark.parametrize("call", [
    lambda x: torch.svd(x), lambda x: torch.linalg.svd(x), lambda x: torch.linalg.svdvals(x),
    lambda x: torch.linalg.pinv(x), lambda x: torch.linalg.matrix_rank(x),
    lambda x: torch.linalg.matrix_norm(x, "nuc"), lambda x: torch.linalg.matrix_norm(x, 2),
])
def test_non_finite_svd_raises_instead_of_hanging(call, value):
    x = torch.tensor([[value, 0.1, 0.0], [1e30, 100.0, 1e30], [0.5, 0.0, 100.0]])
    with pytest.raises(torch.linalg.LinAlgError, match="non-finite values"):
        call(x)
    assert MESSAGE.startswith("linalg.svd")
