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

def vector_width(itemsize: int) -> int:
    """Elements per SIMD vector of ATen's kernels here: 64 bytes on AVX-512, 32 otherwise (AVX2, and the
    default build's generic ``Vectorized``)."""
    return (64 if cpu_capability() == "AVX512" else 32) // itemsize


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
    width = vector_width(a.itemsize)
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


def _two_sum32(x, y):
    s = x + y
    v = s - x
    return s, (x - (s - v)) + (y - v)


def logf_u10(d: np.ndarray) -> np.ndarray:
    """SLEEF's ``xlogf_u1`` (``Sleef_logf8_u10``): ``log(d) = e·ln 2 + 2·atanh((m − 1)/(m + 1))`` in
    double-float (pairs of float32) arithmetic with fused multiply-adds; differs from the correctly rounded
    log in about 0.5 % of inputs.  The plain version is ``np.log(d)``."""
    f = np.float32
    d = np.asarray(d, f)
    with np.errstate(all="ignore"):
        tiny = d < np.finfo(f).tiny
        d2 = np.where(tiny, d * f(2.0 ** 64), d)
        e = (((d2 * f(1.0 / 0.75)).view(np.int32) >> 23) & 0xFF) - 0x7F
        m = (d2.view(np.int32) + ((-e) << 23)).view(f)
        ef = np.where(tiny, e - 64, e).astype(f)
        ln2_hi, ln2_lo = f(0.69314718246459960938), f(-1.904654323148236017e-09)
        sx = ln2_hi * ef                                            # dfmul((ln2_hi, ln2_lo), e)
        sy = _fma32(ln2_lo, ef, _fma32(ln2_hi, ef, -sx))
        nx, ny = _two_sum32(f(-1), m)                               # dfdiv(dfadd2(-1, m), dfadd2(1, m))
        dx, dy = _two_sum32(f(1), m)
        t = f(1) / dx
        xx = nx * t
        u = _fma32(t, nx, -xx)
        v = _fma32(-dy, t, _fma32(-dx, t, f(1)))
        xy = _fma32(xx, v, _fma32(ny, t, u))
        x2 = xx * xx
        poly = _fma32(_fma32(f(0.3027294874), x2, f(0.3996108174)), x2, f(0.6666694880))
        s1 = sx + xx * f(2)                                         # dfadd(s, dfscale(x, 2))
        s1y = (((sx - s1) + xx * f(2)) + sy) + xy * f(2)
        w = (x2 * xx) * poly                                        # dfadd(s, x2 · x · poly)
        s2 = s1 + w
        r = s2 + (((s1 - s2) + w) + s1y)
        r = np.where(np.isposinf(d), f(np.inf), r)
        r = np.where((d < 0) | np.isnan(d), f(np.nan), r)
        return np.where(d == 0, f(-np.inf), r).astype(f)


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


def _lane_sum(rows: np.ndarray, width: int, tree: bool) -> np.ndarray:
    """ATen's ``vec::reduce_all(+)`` over each row of a float32 2-d array (``rows``, C order).

    Each of ``width`` lanes sums the elements at its position in every full vector, in order; a
    partial last vector adds into the first lanes; then the lanes are combined -- on SIMD builds by
    ``VecReduceAllSIMD``'s shuffles (lane ``i`` plus lane ``i ^ half``, half = width/2 … 1), on the
    default build one after the other.  A row shorter than a vector is summed left to right.
    """
    n = rows.shape[-1]
    if n < width:
        acc = rows[:, 0].copy()
        for i in range(1, n):
            acc += rows[:, i]
        return acc
    full = n - n % width
    acc = rows[:, :width].copy()
    for d in range(width, full, width):
        acc += rows[:, d:d + width]
    if full < n:
        acc[:, :n - full] += rows[:, full:]
    if not tree:
        total = acc[:, 0].copy()
        for i in range(1, width):
            total += acc[:, i]
        return total
    lanes = np.arange(width)
    half = width // 2
    while half:
        acc = acc + acc[:, lanes ^ half]
        half //= 2
    return acc[:, 0]


def _rows_exp(a: np.ndarray, simd_build: bool) -> tuple[np.ndarray, np.ndarray]:
    """``x − max(row)`` and its exp as ``vec::map`` computes it (every element in a vector, partial or not)."""
    shifted = a - a.max(axis=-1, keepdims=True)
    if simd_build:
        return shifted, expf_u10(shifted)
    return shifted, np.exp(shifted, dtype=np.float64).astype(np.float32)


def _rows_exp_sum(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool] | None:
    """The part softmax and log_softmax over the last dim share: each row's ``x − max``, its exp and
    ``reduce_all(+)`` of that, and whether this is a SIMD build (None: not this kernel's input)."""
    if a.dtype != _F32 or a.ndim == 0 or a.shape[-1] == 0 or a.size == 0:
        return None
    simd_build = cpu_capability() != "DEFAULT"
    rows = np.ascontiguousarray(a).reshape(-1, a.shape[-1])
    shifted, e = _rows_exp(rows, simd_build)
    return shifted, e, _lane_sum(e, vector_width(a.itemsize), simd_build), simd_build


def softmax_lastdim_f32(a: np.ndarray) -> np.ndarray | None:
    """ATen's ``_vec_softmax_lastdim`` on a float32 array (softmax over the last dim; None: not this kernel).

    ``e = exp(x − max)``, ``s = reduce_all(+, e)``, then ``e · (1 / s)`` -- a multiply by the reciprocal,
    not a division.  The plain version is ``e / e.sum(-1)``.
    """
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        parts = _rows_exp_sum(a)
        if parts is None:
            return None
        _, e, s, _ = parts
        return (e * (np.float32(1) / s)[:, None]).reshape(a.shape)


def log_softmax_lastdim_f32(a: np.ndarray) -> np.ndarray | None:
    """ATen's ``_vec_log_softmax_lastdim`` on float32: ``(x − max) − log(reduce_all(+, exp(x − max)))``,
    SLEEF's exp and log on SIMD builds, the C library's on the default one."""
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        parts = _rows_exp_sum(a)
        if parts is None:
            return None
        shifted, _, s, simd_build = parts
        log = logf_u10(s) if simd_build else np.log(s, dtype=np.float64).astype(np.float32)
        return (shifted - log[:, None]).reshape(a.shape)
