"""nn4: nn.init.orthogonal_ / sparse_ / dirac_ against PyTorch from the same seed (and the RNG state after)."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

CASES = [
    ("orthogonal_", (3, 5), {"gain": 2.0}), ("orthogonal_", (5, 3), {}), ("orthogonal_", (4, 2, 3), {}),
    ("orthogonal_", (4, 4), {"gain": 0.5}), ("sparse_", (6, 4), {"sparsity": 0.4}),
    ("sparse_", (5, 3), {"sparsity": 0.1, "std": 0.5}), ("dirac_", (4, 3, 3), {}),
    ("dirac_", (4, 2, 3, 3), {"groups": 2}),
    ("dirac_", (2, 2, 3, 3, 3), {}), ("dirac_", (3, 5, 2), {}),
]


@pytest.mark.parametrize(("name", "shape", "kw"), CASES, ids=[f"{c[0]}{i}" for i, c in enumerate(CASES)])
def test_init_matches_pytorch_from_the_seed(name, shape, kw):
    out = []
    for lib in (torch, minigrad):
        lib.manual_seed(0)
        t = getattr(lib.nn.init, name)(lib.empty(*shape), **kw)
        out.append((t.numpy().copy(), lib.randn(3).numpy()))
    (ours, ours_next), (theirs, theirs_next) = out[1], out[0]
    np.testing.assert_array_equal(ours_next, theirs_next)          # the same draws were used up
    if name == "orthogonal_":       # LAPACK's QR rounding differs between builds: the last bits only
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-6)
    else:
        np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize(("name", "shape", "kw"), [("orthogonal_", (3,), {}), ("sparse_", (2, 2, 2), {"sparsity": 0.1}),
                                                   ("dirac_", (2, 2), {}), ("dirac_", (3, 2, 2), {"groups": 2})])
def test_init_errors_match_pytorch(name, shape, kw):
    with pytest.raises(ValueError) as theirs:  # noqa: PT011 - the message is compared below
        getattr(torch.nn.init, name)(torch.empty(*shape), **kw)
    with pytest.raises(ValueError) as ours:  # noqa: PT011
        getattr(minigrad.nn.init, name)(minigrad.empty(*shape), **kw)
    assert str(ours.value) == str(theirs.value)
