"""The values of ``arange`` and ``linspace``, as PyTorch's CPU kernels compute them.

``torch.arange(-8.0, 8.0, 0.1)[80]`` is ``4.4409e-16`` in PyTorch, ``-2.8422e-14`` in numpy: the
two libraries compute the same range differently, and a learner plotting ``relu``'s derivative
over it sees the step at a different place.  ATen's ``arange_kernel`` and ``linspace_kernel``
(``aten/src/ATen/native/cpu/RangeFactoriesKernel.cpp``) fill the output in SIMD vectors:

* element ``i`` outside a vector is ``start + step · i``;
* a vector starting at element ``c`` is ``base = start + step · c`` rounded to the output dtype,
  then ``base + k · step`` for its lanes ``k = 0 … W−1``.

arange computes in float64 (the accumulate type of float32 on the CPU) and rounds each element;
linspace has no vector loop (PyTorch removed it for precision): element ``i`` is
``start + step · i`` in the first half and ``end − step · (steps − 1 − i)`` in the second, computed
in the output dtype itself.  On an AVX2 or AVX-512 build the compiler fuses each ``a · b + c`` into one
correctly rounded ``fma``; the plain build (``ATEN_CPU_CAPABILITY=default``) rounds twice.  The
vector loop handles two vectors per step, the rest of the range is scalar.  Above ATen's grain size
(32,768 elements) the range is split between threads, and each thread's part starts its own
vector loop.  Checked bit for bit against torch 2.13 on AVX2 and on the default capability
(tests/minigrad/test_ranges.py).
"""

from __future__ import annotations

import numpy as np

from .simd import cpu_capability, get_num_threads, loop_lanes, mul_add, set_num_threads, vector_width

__all__ = ["cpu_capability", "arange_values", "linspace_values", "get_num_threads", "set_num_threads"]


def arange_values(start: float, step: float, n: int, dtype: np.dtype) -> np.ndarray:
    """``n`` values of ``torch.arange(start, start + n·step, step)`` in floating ``dtype``."""
    dtype = np.dtype(dtype)
    fused = cpu_capability() != "DEFAULT"
    first, lane = loop_lanes(n, vector_width(dtype.itemsize))
    acc = np.float64 if dtype.itemsize <= 8 else dtype
    base = mul_add(float(step), first.astype(np.float64), float(start), acc, fused).astype(dtype)
    lanes = mul_add(np.maximum(lane, 0).astype(np.float64), float(step), base.astype(np.float64), acc, fused)
    scalar = mul_add(float(step), np.arange(n, dtype=np.float64), float(start), acc, fused)
    return np.where(lane >= 0, lanes, scalar).astype(dtype)


def linspace_values(start: float, end: float, steps: int, dtype: np.dtype) -> np.ndarray:
    """``torch.linspace(start, end, steps)`` in floating ``dtype``."""
    dtype = np.dtype(dtype)
    if steps == 1:
        return np.array([start], dtype)
    fused = cpu_capability() != "DEFAULT"
    t = dtype.type
    lo, hi = t(start), t(end)
    step = t((hi - lo) / t(steps - 1)) if steps > 1 else t(0)
    idx = np.arange(steps, dtype=np.int64)
    from_start = mul_add(step, idx.astype(dtype), lo, dtype, fused)
    from_end = mul_add(-step, (steps - 1 - idx).astype(dtype), hi, dtype, fused)
    return np.where(idx < steps // 2, from_start, from_end).astype(dtype)
