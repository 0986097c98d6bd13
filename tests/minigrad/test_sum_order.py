"""Floating-point sums, means and all-reduce std/var round as PyTorch's CPU kernels (oracle: PyTorch 2.13).

A float32 sum that cancels (1e30 - 1e30 + small terms) depends on the order of the adds; minigrad adds in
PyTorch's ``cascade_sum`` order (``ops/_cascade.py``), so ``x.sum()`` is PyTorch's number bit for bit.
"""

from __future__ import annotations

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def _arrays(count, seed=0):
    rng = np.random.default_rng(seed)
    for trial in range(count):
        dtype = (np.float32, np.float64)[trial % 2]
        nd = int(rng.integers(1, 4))
        shape = tuple(int(s) for s in rng.integers(1, 40 if nd == 1 else 10, size=nd))
        a = (rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 4, size=shape)).astype(dtype)
        flat = a.reshape(-1)
        for _ in range(int(rng.integers(0, 4))):
            flat[rng.integers(0, flat.size)] = rng.choice([1e30, -1e30, 3e7, -3e7, 1e8])
        yield rng, a


def _same(expected, got):
    assert expected.shape == got.shape
    assert expected.dtype == got.dtype
    np.testing.assert_array_equal(got, expected)
    assert np.array_equal(np.signbit(got), np.signbit(expected))


def test_sum_over_dims_is_pytorchs_bit_for_bit():
    for rng, a in _arrays(400):
        nd = a.ndim
        for dims in [tuple(range(nd)), (nd - 1,), (0,), tuple(range(1, nd)) or (0,)]:
            keepdim = bool(rng.integers(0, 2))
            _same(torch.from_numpy(a).sum(dims, keepdim=keepdim).numpy(),
                  minigrad.tensor(a).sum(dims, keepdim=keepdim).numpy())


def test_full_sum_mean_std_var_are_pytorchs_bit_for_bit():
    for _, a in _arrays(300, seed=1):
        for name in ("sum", "mean", "std", "var") if a.size > 1 else ("sum", "mean"):
            _same(getattr(torch.from_numpy(a), name)().numpy(), getattr(minigrad.tensor(a), name)().numpy())


def test_cancelling_float32_sum_keeps_pytorchs_order():
    # 18 float32 numbers: two vectors of 8 lanes, then the 2 leftovers, then lane by lane (1e30 - 1e30 in lanes 3, 5)
    x = [-0.84, -0.04, 2.0, -0.6, 1.1, 0.33, -0.83, -100.0, 0.76, 1e-30, 0.26, 1e30, -100.0, -1e30, -1.0, -1.46,
         0.21, 0.38]
    assert minigrad.tensor(x).sum().item() == torch.tensor(x).sum().item() == pytest.approx(-103.29)


def test_std_var_with_one_output_keep_their_shape():
    a = np.arange(5, dtype=np.float32).reshape(1, 5, 1) / 3
    for kwargs in ({}, {"dim": 1}, {"dim": 1, "keepdim": True}, {"dim": (0, 1)}, {"dim": (0, 1, 2), "keepdim": True}):
        for name in ("std", "var"):
            expected = getattr(torch.from_numpy(a), name)(**kwargs).numpy()
            _same(expected, getattr(minigrad.tensor(a), name)(**kwargs).numpy())


def test_pow_by_small_integers_rounds_each_product():
    # PyTorch's pow_tensor_scalar_optimized_kernel: x * x, x * x * x, 1 / (x * x) in the tensor's dtype
    rng = np.random.default_rng(3)
    for dtype in (np.float32, np.float64):
        a = (rng.standard_normal(200) * 10.0 ** rng.integers(-12, 12, 200)).astype(dtype)
        for e in (2, 3, -2, 2.0, 3.0, -2.0):
            _same((torch.from_numpy(a) ** e).numpy(), (minigrad.tensor(a) ** e).numpy())
    assert (minigrad.tensor([-0.05]) ** -2).item() == pytest.approx(399.99997, abs=1e-5)
