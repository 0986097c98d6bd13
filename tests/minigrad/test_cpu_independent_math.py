"""float32 transcendental results must not depend on which numpy kernel the CPU selects.

numpy's float32 ``exp``/``log``/``sin``/... have SIMD kernels chosen at run time (AVX2, AVX-512),
each a few ULP off the correctly rounded result in its own way: ``np.log10(np.float32(100))`` is
``2.0000002`` on an AVX-512 machine and ``2`` elsewhere (and in PyTorch).  minigrad computes float32
in float64 and rounds once, so every machine gets the correctly rounded value.
"""

import numpy as np
import pytest

import minigrad as torch

UNARY = {
    "exp": np.exp, "log": np.log, "log1p": np.log1p, "expm1": np.expm1, "log2": np.log2, "log10": np.log10,
    "sin": np.sin, "cos": np.cos, "tan": np.tan, "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan,
    "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh,
}


def _inputs(name):
    rng = np.random.default_rng(0)
    if name in ("asin", "acos"):
        return rng.uniform(-1, 1, 4096).astype(np.float32)
    if name in ("log", "log2", "log10"):
        return np.concatenate([rng.uniform(0, 1e4, 4096), 10.0 ** np.arange(-6, 7)]).astype(np.float32)
    if name == "log1p":
        return rng.uniform(-0.9, 1e3, 4096).astype(np.float32)
    return rng.uniform(-20, 20, 4096).astype(np.float32)


@pytest.mark.parametrize("name", sorted(UNARY))
def test_float32_is_correctly_rounded(name):
    a = _inputs(name)
    expected = UNARY[name](a.astype(np.float64)).astype(np.float32)
    got = getattr(torch, name)(torch.from_numpy(a)).numpy()
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, expected)


def test_log10_of_100_prints_2():
    assert repr(torch.log10(torch.tensor(100.))) == "tensor(2.)"
    assert torch.log10(torch.tensor([100., 1000.])).tolist() == [2.0, 3.0]


def test_pow_and_atan2_float32():
    a = _inputs("exp")
    b = np.random.default_rng(1).uniform(-3, 3, a.size).astype(np.float32)
    np.testing.assert_array_equal(torch.atan2(torch.from_numpy(a), torch.from_numpy(b)).numpy(),
                                  np.arctan2(a.astype(np.float64), b.astype(np.float64)).astype(np.float32))
    base = np.abs(a)
    np.testing.assert_array_equal((torch.from_numpy(base) ** torch.from_numpy(b)).numpy(),
                                  np.power(base.astype(np.float64), b.astype(np.float64)).astype(np.float32))
