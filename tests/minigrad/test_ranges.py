"""``arange`` and ``linspace`` give PyTorch's values bit for bit (minigrad/ops/ranges.py).

numpy's ``arange(-8, 8, 0.1)`` and PyTorch's differ in the last bits of 35 of 160 float32 values, and
element 80 (the "zero") has a different sign: a learner plotting relu's derivative over that range
sees the step at a different x.  PyTorch's kernels fill SIMD vectors and fuse multiply-adds, so the
values depend on the CPU's kernel set; the comparisons run on this CPU's, and in a subprocess under
``ATEN_CPU_CAPABILITY=avx2`` and ``=default`` (both libraries read it), so every x86 machine checks
both models that were verified against torch.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import minigrad
from minigrad.ops import simd as ranges

torch = pytest.importorskip("torch")

ROOT = Path(__file__).resolve().parents[2]


def _cases(seed: int, count: int):
    rng = np.random.default_rng(seed)
    for k in range(count):
        lo, hi = sorted(rng.uniform(-50, 50, 2))
        step = float(rng.choice([0.1, 0.01, 0.03, 0.25, 1 / 3, rng.uniform(0.001, 2)]))
        steps = int(rng.integers(1, 300)) if k % 10 else int(rng.integers(30000, 70000))
        yield float(lo), float(hi), step, steps


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype and bool((a.view(np.uint8) == b.view(np.uint8)).all())


def compare(seed: int = 0, count: int = 60) -> list[str]:
    """The ranges where minigrad and torch differ in any bit (empty: none)."""
    bad = []
    for lo, hi, step, steps in _cases(seed, count):
        for name in ("float32", "float64"):
            t, m = getattr(torch, name), getattr(minigrad, name)
            if not _same_bits(torch.arange(lo, hi, step, dtype=t).numpy(),
                              minigrad.arange(lo, hi, step, dtype=m).numpy()):
                bad.append(f"arange({lo!r}, {hi!r}, {step!r}, dtype={name})")
            if not _same_bits(torch.linspace(lo, hi, steps, dtype=t).numpy(),
                              minigrad.linspace(lo, hi, steps, dtype=m).numpy()):
                bad.append(f"linspace({lo!r}, {hi!r}, {steps}, dtype={name})")
    return bad


def test_the_relu_plot_range():
    x_t, x_m = torch.arange(-8.0, 8.0, 0.1), minigrad.arange(-8.0, 8.0, 0.1)
    assert _same_bits(x_t.numpy(), x_m.numpy())
    assert x_m[80].item() > 0                  # so relu's derivative there is 1, as in PyTorch's plot
    assert minigrad.arange(-8.0, 8.0, 0.1, dtype=minigrad.float64).numpy().tolist() == \
        torch.arange(-8.0, 8.0, 0.1, dtype=torch.float64).numpy().tolist()


@pytest.mark.skipif(ranges.cpu_capability() == "AVX512",
                    reason="the AVX-512 model (64-byte vectors) is not verified against torch yet; the avx2 and "
                           "default subprocess tests below still run on this CPU")
def test_bit_identical_on_this_cpu():
    assert torch.backends.cpu.get_cpu_capability() == minigrad.backends.cpu.get_cpu_capability()
    assert compare() == []


@pytest.mark.parametrize("threads", [1, 3])
def test_long_ranges_split_between_threads_as_torch_does(threads):
    if ranges.cpu_capability() == "AVX512":
        pytest.skip("AVX-512 model not verified")
    before_t, before_m = torch.get_num_threads(), minigrad.get_num_threads()
    try:
        torch.set_num_threads(threads)
        minigrad.set_num_threads(threads)
        for lo, hi, step in ((0.0, 200000.0, 0.37), (-1e4, 3e4, 0.1)):
            assert _same_bits(torch.arange(lo, hi, step).numpy(), minigrad.arange(lo, hi, step).numpy())
    finally:
        torch.set_num_threads(before_t)
        minigrad.set_num_threads(before_m)


@pytest.mark.skipif(os.uname().machine not in ("x86_64", "AMD64"), reason="ATen's x86 kernel sets")
@pytest.mark.parametrize("capability", ["avx2", "default"])
def test_bit_identical_under_each_kernel_set(capability):
    flags = ranges._cpu_flags()
    if capability == "avx2" and not {"avx2", "fma"} <= flags:
        pytest.skip("this CPU has no AVX2")
    code = ("import sys; sys.path[:0] = [%r, %r]; import test_ranges as t; import torch; "
            "assert torch.backends.cpu.get_cpu_capability() == %r, torch.backends.cpu.get_cpu_capability(); "
            "print(t.compare(seed=1, count=30))" % (str(ROOT), str(Path(__file__).parent), capability.upper()))
    env = dict(os.environ, ATEN_CPU_CAPABILITY=capability)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "[]"


def test_linspace_edges():
    for args in ((0, 1, 1), (2.5, 2.5, 7), (-3, 7, 11), (1, 0, 5), (0, 1, 0)):
        assert _same_bits(torch.linspace(*args).numpy(), minigrad.linspace(*args).numpy()), args


def test_set_num_threads_checks_its_argument():
    with pytest.raises(RuntimeError):
        minigrad.set_num_threads(0)
