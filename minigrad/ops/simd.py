"""PyTorch's float32 CPU kernels, lane by lane, where their last bit differs from a correctly rounded result.

minigrad computes float32 math in float64 and rounds once (``_util.fmath``): the correctly rounded
result, the same on every CPU.  Most of PyTorch's kernels give that too, but some are SIMD code with
polynomials of their own, and a learner comparing printed tensors sees the difference in the 4th digit
(``sigmoid``: 4 % of float32 inputs differ in the last bit).  This module reproduces those kernels:

* **which elements a vector computes.**  ATen's ``cpu_kernel_vec`` runs two SIMD vectors per step over
  a contiguous loop (2 × 8 float32 on AVX2, 2 × 16 on AVX-512) and the scalar lambda over the tail;
  above ``GRAIN_SIZE`` elements the loop is split between threads, each part with its own tail.
  On ``ATEN_CPU_CAPABILITY=default`` the "vectors" call the scalar C functions, so everything is scalar.
* **the vector arithmetic**: SLEEF's functions (``Sleef_expf8_u10``...) with their fused multiply-adds,
  emulated exactly in float64 (round to odd, then to nearest).

The scalar lambda's C functions (glibc's ``expf``: 0.502 ULP) are not reproduced: minigrad's correctly
rounded value differs from them in the last bit of about 1 float32 input in 2,000.  Each function here
names the ATen kernel it follows; tests/minigrad/test_simd_kernels.py checks it bit
for bit against torch on this CPU's kernel set and, in a subprocess, on AVX2 and on the default set.
"""

from __future__ import annotations

import os

import numpy as np

__all__ = ["cpu_capability", "get_num_threads", "set_num_threads", "mul_add", "vector_lanes", "sigmoid_f32"]

_F32 = np.dtype(np.float32)

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


def mul_add(a, b, c, dtype, fused: bool):
    """``a · b + c`` in ``dtype``: rounded once where ATen's build fuses it (``fused``), else twice."""
    if fused:
        return _fma(a, b, c, dtype)
    a, b, c = (np.asarray(v, dtype) for v in (a, b, c))
    return (a * b).astype(dtype) + c




# -- which elements are vector lanes ---------------------------------------------------------------

def loop_lanes(n: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    """For each element of a contiguous loop of ``n``: its vector's first element and its lane (−1: scalar).

    ATen's ``parallel_for`` cuts a loop longer than ``GRAIN_SIZE`` into one part per thread; each part
    runs ``2 · width`` elements per vector step and the rest with the scalar lambda.
    """
    threads = min(get_num_threads(), -(-n // GRAIN_SIZE)) if n > GRAIN_SIZE else 1
    part = -(-n // threads) if n else 0
    i = np.arange(n, dtype=np.int64)
    begin = (i // part) * part if part else i
    offset = i - begin
    end = np.minimum(begin + part, n)
    vectorised = offset < ((end - begin) // (2 * width)) * (2 * width)
    lane = np.where(vectorised, offset % width, -1)
    return i - np.maximum(lane, 0), lane


def vector_lanes(a: np.ndarray) -> np.ndarray | None:
    """A bool mask (``a``'s shape): the elements a unary float32 kernel computes in SIMD vectors.

    None when no element is (the default kernel set, short or non-contiguous inputs).  A dense input
    (contiguous, or a permutation of it: TensorIterator iterates in memory order) is one loop; other
    layouts are scalar loops.
    """
    if cpu_capability() == "DEFAULT":
        return None
    width = (64 if cpu_capability() == "AVX512" else 32) // a.itemsize
    if a.size < 2 * width:
        return None
    if a.flags.c_contiguous:
        order = None
    elif _dense(a):
        order = np.argsort(np.abs(np.array(a.strides)))[::-1]
    else:
        return None
    _, lane = loop_lanes(a.size, width)
    mask = lane >= 0
    if order is None:
        return mask.reshape(a.shape)
    shape = tuple(a.shape[d] for d in order)
    return mask.reshape(shape).transpose(np.argsort(order))


def _dense(a: np.ndarray) -> bool:
    strides = sorted((abs(s), n) for s, n in zip(a.strides, a.shape) if n != 1)
    expected = a.itemsize
    for s, n in strides:
        if s != expected:
            return False
        expected *= n
    return True


# -- SLEEF ----------------------------------------------------------------------------------------

def _fma32(a, b, c):
    """``a · b + c`` for float32 operands, rounded once: ``a · b`` is exact in float64, the sum is rounded
    to odd in float64 and then to float32 (a single correct rounding, as 53 ≥ 24 + 2 bits)."""
    return _round_to_odd_sum(np.asarray(a, np.float64) * np.asarray(b, np.float64),
                             np.asarray(c, np.float64)).astype(np.float32)


_R_LN2F = np.float32(1.442695040888963407359924681001892137426645954152985934135449406931)
_L2UF, _L2LF = np.float32(-0.693145751953125), np.float32(-1.428606765330187045e-06)
_EXPF_POLY = tuple(np.float32(c) for c in (0.00139304355252534151077271, 0.00833336077630519866943359,
                                           0.0416664853692054748535156, 0.166666671633720397949219, 0.5))


def expf_u10(d: np.ndarray) -> np.ndarray:
    """SLEEF's ``xexpf`` (``Sleef_expf8_u10``, 1-ULP): ``exp(d) = 2^q · p(s)``, ``s = d − q·ln 2``.

    The plain version is ``np.exp(d)`` correctly rounded; this differs from it in about 5 % of inputs.
    """
    d = np.asarray(d, np.float32)
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        q = np.rint(d * _R_LN2F)
        s = _fma32(q, _L2UF, d)
        s = _fma32(q, _L2LF, s)
        u = np.full(d.shape, np.float32(0.000198527617612853646278381), np.float32)
        for c in _EXPF_POLY:
            u = _fma32(u, s, c)
        u = np.float32(1) + _fma32(s * s, u, s)
        k = np.nan_to_num(q, nan=0.0, posinf=0.0, neginf=0.0).astype(np.int32)
        u = u * np.ldexp(np.float32(1), k >> 1).astype(np.float32) * np.ldexp(np.float32(1), k - (k >> 1)).astype(
            np.float32)
        u = np.where(d < -104, np.float32(0), u)
        u = np.where(d > 100, np.float32(np.inf), u)
        return np.where(np.isnan(d), d, u).astype(np.float32)


# -- kernels ---------------------------------------------------------------------------------------

def sigmoid_f32(a: np.ndarray, scalar: np.ndarray) -> np.ndarray:
    """ATen's ``sigmoid_kernel`` on float32: ``scalar`` (``1 / (1 + exp(−a))`` with the C library's exp)
    where the scalar lambda runs, ``(0 − a).exp() + 1`` then reciprocal, SLEEF's exp, in the vector lanes."""
    lanes = vector_lanes(a)
    if lanes is None:
        return scalar
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        vector = np.float32(1) / (expf_u10(np.float32(0) - a) + np.float32(1))
    vector = np.where(np.isnan(a), -np.float32(np.nan), vector)    # SLEEF ORs a nan's bits in: -nan
    return np.where(lanes, vector, scalar).astype(np.float32)
