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

import os

import numpy as np

__all__ = ["cpu_capability", "arange_values", "linspace_values", "get_num_threads", "set_num_threads"]

GRAIN_SIZE = 32768          # at::internal::GRAIN_SIZE


def cpu_capability() -> str:
    """The kernel set ATen's dispatcher picks on this CPU: ``"AVX512"``, ``"AVX2"`` or ``"DEFAULT"``.

    Like ``torch.backends.cpu.get_cpu_capability()``: the ``ATEN_CPU_CAPABILITY`` environment variable
    wins; otherwise the CPU's flags (``/proc/cpuinfo``) decide.
    """
    env = os.environ.get("ATEN_CPU_CAPABILITY", "").lower()
    if env in ("default", "avx2", "avx512"):
        return env.upper()
    flags = _cpu_flags()
    if {"avx512f", "avx512vl", "avx512bw", "avx512dq", "fma"} <= flags:
        return "AVX512"
    if {"avx2", "fma"} <= flags:
        return "AVX2"
    return "DEFAULT"


def _cpu_flags() -> set[str]:
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as info:
            for line in info:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


_threads = [0]


def get_num_threads() -> int:
    """The number of threads PyTorch's CPU kernels would split work between (``torch.get_num_threads()``).

    minigrad itself runs on one thread (numpy's); the number only decides how a long ``arange`` is cut
    into per-thread parts, as PyTorch's ``parallel_for`` cuts it.
    """
    if not _threads[0]:
        affinity = getattr(os, "sched_getaffinity", None)
        _threads[0] = len(affinity(0)) if affinity else (os.cpu_count() or 1)
    return _threads[0]


def set_num_threads(n: int) -> None:
    """``torch.set_num_threads(n)``: the thread count :func:`get_num_threads` reports."""
    if isinstance(n, bool) or not isinstance(n, int) or n <= 0:
        raise RuntimeError("set_num_threads expects a positive integer")
    _threads[0] = n


# -- a · b + c, rounded once (fused) or twice (plain) ---------------------------------------------

def _two_sum(a, b):
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _two_product(a, b):
    """``a · b = p + e`` exactly (Dekker's product with Veltkamp's split)."""
    p = a * b
    split = 134217729.0             # 2²⁷ + 1
    ca, cb = split * a, split * b
    ah, bh = ca - (ca - a), cb - (cb - b)
    al, bl = a - ah, b - bh
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _round_to_odd_sum(a, b):
    """``a + b`` rounded to the neighbour with an odd last bit unless it is exact (Boldo and Melquiond)."""
    s, err = _two_sum(a, b)
    even = (s.view(np.int64) & 1) == 0
    return np.where((err != 0) & even, np.nextafter(s, np.where(err > 0, np.inf, -np.inf)), s)


def _fma64(a, b, c):
    """``a · b + c`` in float64, rounded once: the sum of three exact terms, rounded to odd then to nearest."""
    p, e = _two_product(a, b)
    high, low = _two_sum(c, p)
    return high + _round_to_odd_sum(low, e)


def _fma(a, b, c, dtype):
    a, b, c = (np.asarray(v, np.float64) for v in (a, b, c))
    if dtype == np.float64:
        return _fma64(a, b, c)
    # float32 · float32 is exact in float64; rounding the sum to odd in float64 first keeps the final
    # rounding to float32 a single, correct one (53 ≥ 24 + 2 bits).
    return _round_to_odd_sum(a * b, c).astype(dtype)


def _mul_add(a, b, c, dtype, fused: bool):
    if fused:
        return _fma(a, b, c, dtype)
    a, b, c = (np.asarray(v, dtype) for v in (a, b, c))
    return (a * b).astype(dtype) + c


# -- which elements are vector lanes ---------------------------------------------------------------

def _lanes(n: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    """For each element: the index of its vector's first element, and its lane (−1 for scalar elements)."""
    threads = min(get_num_threads(), -(-n // GRAIN_SIZE)) if n > GRAIN_SIZE else 1
    part = -(-n // threads) if n else 0
    i = np.arange(n, dtype=np.int64)
    begin = (i // part) * part if part else i
    offset = i - begin
    end = np.minimum(begin + part, n)
    vectorised = offset < ((end - begin) // (2 * width)) * (2 * width)
    lane = np.where(vectorised, offset % width, -1)
    return i - np.maximum(lane, 0), lane


def _width(dtype: np.dtype, capability: str) -> int:
    return (64 if capability == "AVX512" else 32) // dtype.itemsize


def arange_values(start: float, step: float, n: int, dtype: np.dtype) -> np.ndarray:
    """``n`` values of ``torch.arange(start, start + n·step, step)`` in floating ``dtype``."""
    dtype = np.dtype(dtype)
    capability = cpu_capability()
    fused = capability != "DEFAULT"
    first, lane = _lanes(n, _width(dtype, capability))
    acc = np.float64 if dtype.itemsize <= 8 else dtype
    base = _mul_add(float(step), first.astype(np.float64), float(start), acc, fused).astype(dtype)
    lanes = _mul_add(np.maximum(lane, 0).astype(np.float64), float(step), base.astype(np.float64), acc, fused)
    scalar = _mul_add(float(step), np.arange(n, dtype=np.float64), float(start), acc, fused)
    return np.where(lane >= 0, lanes, scalar).astype(dtype)


def linspace_values(start: float, end: float, steps: int, dtype: np.dtype) -> np.ndarray:
    """``torch.linspace(start, end, steps)`` in floating ``dtype``."""
    dtype = np.dtype(dtype)
    if steps == 1:
        return np.array([start], dtype)
    capability = cpu_capability()
    fused = capability != "DEFAULT"
    t = dtype.type
    lo, hi = t(start), t(end)
    step = t((hi - lo) / t(steps - 1)) if steps > 1 else t(0)
    idx = np.arange(steps, dtype=np.int64)
    from_start = _mul_add(step, idx.astype(dtype), lo, dtype, fused)
    from_end = _mul_add(-step, (steps - 1 - idx).astype(dtype), hi, dtype, fused)
    return np.where(idx < steps // 2, from_start, from_end).astype(dtype)
