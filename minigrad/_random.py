"""PyTorch's CPU random number generator, reproduced in numpy.

Same seed, same numbers: ``manual_seed(0); rand(3)`` gives the values a PyTorch tutorial printed.
PyTorch's CPU generator (ATen's ``CPUGeneratorImpl``) is a 32-bit Mersenne Twister (mt19937) and
every distribution is a small transformation of its output words. This module follows ATen's code
(``aten/src/ATen/core/MT19937RNGEngine.h``, ``CPUGeneratorImpl.cpp``, ``core/TransformationHelper.h``,
``core/DistributionsHelper.h`` and ``native/cpu/DistributionTemplates.h``) one function at a time:

* ``random()`` is one mt19937 word; ``random64()`` is two, the first one the high half.
* ``uniform`` on float32 keeps 24 bits of a word (``(w & 0xFFFFFF) · 2⁻²⁴``), on float64 53 bits of a
  ``random64()``, then ``x · (to − from) + from`` in the tensor's dtype.
* ``normal`` has three paths. A tensor of 16 or more elements is first filled with uniforms, then
  transformed 16 at a time by Box-Muller (the first 8 give the cosines, the next 8 the sines); a
  tail of fewer than 16 is redone on the *last* 16 elements with 16 fresh uniforms. float32 uses
  the AVX2 kernel (``avx_mathfun.h``'s Cephes polynomials for log and sincos, reproduced here in
  float32 arithmetic); float64 uses the C library's log/cos/sin. Smaller tensors draw one value at
  a time from ``normal_distribution<double>``, which makes two values per Box-Muller step and keeps
  the second for the next call — that cache is part of the generator's state.
* integers: ``randint(low, high)`` is ``w % (high − low) + low`` with a 32-bit word, or a 64-bit one
  when the range needs it; ``randperm`` is a Fisher-Yates shuffle driven by 32-bit words.

The mt19937 state is refilled 624 words at a time with numpy (four vector steps instead of a
loop), and the output words are tempered in bulk, so filling a large tensor costs a few numpy
operations per 624 numbers.
"""

from __future__ import annotations

import math
import os

import numpy as np

from ._dtype import from_numpy_dtype

__all__ = ["CPUGenerator", "DEFAULT_SEED", "STATE_SIZE"]

N, M = 624, 397
_MATRIX_A = np.uint32(0x9908B0DF)
_UPPER, _LOWER = np.uint32(0x80000000), np.uint32(0x7FFFFFFF)

DEFAULT_SEED = 67280421310721  # c10's default_rng_seed_val: the seed of a fresh torch.Generator()

# torch.get_rng_state() is a memcpy of ATen's CPUGeneratorImplState; its fields, in order:
# uint64 initial seed, int32 left, int32 seeded, uint64 next, uint64 state[624],
# double normal_x, normal_y, normal_rho, int32 normal_is_valid (+4 padding),
# float next_float_normal_sample, bool is_next_float_normal_sample_valid (+3 padding).
_STATE_DTYPE = np.dtype([
    ("seed", "<u8"), ("left", "<i4"), ("seeded", "<i4"), ("next", "<u8"), ("state", "<u8", (N,)),
    ("normal_x", "<f8"), ("normal_y", "<f8"), ("normal_rho", "<f8"), ("normal_is_valid", "<i4"),
    ("_pad0", "V4"), ("next_float", "<f4"), ("next_float_valid", "u1"), ("_pad1", "V3"),
])
STATE_SIZE = _STATE_DTYPE.itemsize  # 5056 bytes, as in PyTorch


def _seed_state(seed: int) -> np.ndarray:
    """mt19937's ``init_genrand``: only the low 32 bits of the seed enter the state."""
    state = np.empty(N, dtype=np.uint32)
    x = seed & 0xFFFFFFFF
    state[0] = x
    for j in range(1, N):
        x = (1812433253 * (x ^ (x >> 30)) + j) & 0xFFFFFFFF
        state[j] = x
    return state


def _twist(mt: np.ndarray) -> None:
    """Regenerate all 624 words in place (the loop of ``next_state``, in four vector steps).

    Word i becomes ``mt[i + 397] ^ twist(mt[i], mt[i + 1])``; words past the end wrap around to the
    already regenerated start, so the steps are the ranges whose inputs are all ready.
    """
    def twist(i, j, k):  # new mt[i:j] from old mt[i:j], mt[i+1:j+1] (or mt[0]) and mt[k:k+(j-i)]
        nxt = mt[i + 1:j + 1] if j < N else np.concatenate((mt[i + 1:N], mt[:1]))
        y = (mt[i:j] & _UPPER) | (nxt & _LOWER)
        mt[i:j] = mt[k:k + (j - i)] ^ (y >> np.uint32(1)) ^ (_MATRIX_A * (y & np.uint32(1)))

    twist(0, N - M, M)              # uses untouched words 397..623
    twist(N - M, 2 * (N - M), 0)    # uses new words 0..226
    twist(2 * (N - M), N - 1, N - M)  # uses new words 227..395
    twist(N - 1, N, M - 1)          # the last word also reads the new mt[0]


def _temper(y: np.ndarray) -> np.ndarray:
    y = y ^ (y >> np.uint32(11))
    y = y ^ ((y << np.uint32(7)) & np.uint32(0x9D2C5680))
    y = y ^ ((y << np.uint32(15)) & np.uint32(0xEFC60000))
    return y ^ (y >> np.uint32(18))


class CPUGenerator:
    """The state of one PyTorch CPU generator: mt19937 plus the cached second Box-Muller sample.

    ``left`` and ``next`` mirror ATen's engine exactly (``left - 1`` words remain before the next
    twist, starting at ``state[next]``), so ``get_state`` can write PyTorch's byte layout.
    """

    def __init__(self, seed: int = DEFAULT_SEED):
        self.manual_seed(seed)

    # -- seeding and state --------------------------------------------------------------------------
    def manual_seed(self, seed: int) -> None:
        self.seed = int(seed) & 0xFFFFFFFFFFFFFFFF
        self.state = _seed_state(self.seed)
        self.left, self.next = 1, 0
        self.next_double_normal: float | None = None
        self.next_float_normal: float | None = None

    @staticmethod
    def nondeterministic_seed() -> int:
        """What ``torch.seed()`` uses: 64 bits from the operating system."""
        return int.from_bytes(os.urandom(8), "little")

    def get_state(self) -> np.ndarray:
        s = np.zeros((), dtype=_STATE_DTYPE)
        s["seed"], s["left"], s["seeded"], s["next"] = self.seed, self.left, 1, self.next
        s["state"] = self.state.astype(np.uint64)
        if self.next_double_normal is not None:
            s["normal_is_valid"], s["normal_y"] = 1, self.next_double_normal
        if self.next_float_normal is not None:
            s["next_float_valid"], s["next_float"] = 1, self.next_float_normal
        return np.frombuffer(s.tobytes(), dtype=np.uint8).copy()

    def set_state(self, data: np.ndarray) -> None:
        if data.size != STATE_SIZE:
            raise RuntimeError("Expected a CPUGeneratorImplState of size %d but found the input RNG state "
                               "size to be %d" % (STATE_SIZE, data.size))
        s = np.frombuffer(np.ascontiguousarray(data).tobytes(), dtype=_STATE_DTYPE)[0]
        left, nxt = int(s["left"]), int(s["next"]) & 0xFFFFFFFF
        if not (int(s["seeded"]) and 0 < left <= N and nxt <= N):
            raise RuntimeError("Invalid mt19937 state")
        self.seed = int(s["seed"])
        self.state = s["state"].astype(np.uint32)
        self.left, self.next = left, nxt
        self.next_double_normal = float(s["normal_y"]) if int(s["normal_is_valid"]) else None
        self.next_float_normal = float(s["next_float"]) if int(s["next_float_valid"]) else None

    def clone(self) -> CPUGenerator:
        g = CPUGenerator.__new__(CPUGenerator)
        g.seed, g.state, g.left, g.next = self.seed, self.state.copy(), self.left, self.next
        g.next_double_normal, g.next_float_normal = self.next_double_normal, self.next_float_normal
        return g

    # -- raw words ----------------------------------------------------------------------------------
    def random(self, n: int) -> np.ndarray:
        """The next ``n`` 32-bit words (``CPUGeneratorImpl::random()`` called n times)."""
        out = np.empty(n, dtype=np.uint32)
        done = 0
        while done < n:
            available = self.left - 1
            if available == 0:
                _twist(self.state)
                self.left, self.next = N + 1, 0
                available = N
            k = min(n - done, available)
            out[done:done + k] = self.state[self.next:self.next + k]
            self.next += k
            self.left -= k
            done += k
        return _temper(out)

    def random64(self, n: int) -> np.ndarray:
        """``random64()`` called n times: two words each, the first one the high half."""
        w = self.random(2 * n).astype(np.uint64)
        return (w[0::2] << np.uint64(32)) | w[1::2]

    # -- uniform ------------------------------------------------------------------------------------
    def uniform(self, n: int, dtype, low: float = 0.0, high: float = 1.0) -> np.ndarray:
        """``uniform_real_distribution<T>(low, high)`` n times, in dtype T (float32 or float64)."""
        dtype = np.dtype(dtype)
        x: np.ndarray
        if dtype == np.float64:
            x = (self.random64(n) & np.uint64((1 << 53) - 1)).astype(np.float64) * (1.0 / (1 << 53))
        else:
            bits = np.finfo(dtype).nmant + 1
            x = (self.random(n) & np.uint32((1 << bits) - 1)).astype(np.float32) * np.float32(1.0 / (1 << bits))
            x = x.astype(dtype)
        lo, hi = dtype.type(low), dtype.type(high)
        if lo == 0 and hi == 1:
            return x
        # ``x * (to - from) + from``, which GCC compiles to one fused multiply-add
        return _fma32(x, hi - lo, lo) if dtype == np.float32 else _fma64(x, hi - lo, lo)

    # -- normal -------------------------------------------------------------------------------------
    def normal_scalar(self, n: int, mean: float = 0.0, std: float = 1.0) -> np.ndarray:
        """``normal_distribution<double>`` n times (float64), with its one-value cache."""
        out = np.empty(n, dtype=np.float64)
        i = 0
        if n and self.next_double_normal is not None:
            out[0] = _fma64(self.next_double_normal, std, mean)
            self.next_double_normal = None
            i = 1
        pairs = (n - i + 1) // 2
        if pairs:
            u = self.uniform(2 * pairs, np.float64)
            u1, u2 = u[0::2], u[1::2]
            r = np.sqrt(-2.0 * np.log1p(-u2))
            theta = 2.0 * math.pi * u1
            cos, sin = r * np.cos(theta), r * np.sin(theta)
            both = np.empty(2 * pairs)
            both[0::2], both[1::2] = cos, sin  # each pair: cos now, sin cached for the next draw
            take = n - i
            out[i:] = _fma64(both[:take], std, mean)  # val * std + mean, fused by the compiler
            if take % 2:
                self.next_double_normal = float(both[take])
        return out

    def normal(self, n: int, dtype, mean: float = 0.0, std: float = 1.0, contiguous: bool = True) -> np.ndarray:
        """``Tensor.normal_(mean, std)`` on n elements of dtype (ATen's ``normal_kernel``)."""
        dtype = np.dtype(dtype)
        if n < 16 or not contiguous or dtype not in (np.float32, np.float64):
            return self.normal_scalar(n, mean, std).astype(dtype)
        fill16 = _normal_fill_16_avx2 if dtype == np.float32 else _normal_fill_16
        mean, std = dtype.type(mean), dtype.type(std)
        data = self.uniform(n, dtype)
        blocks = n // 16
        data[:blocks * 16] = fill16(data[:blocks * 16].reshape(blocks, 16), mean, std).reshape(-1)
        if n % 16:
            data[n - 16:] = fill16(self.uniform(16, dtype).reshape(1, 16), mean, std).reshape(-1)
        return data

    # -- integers -----------------------------------------------------------------------------------
    def random_from_to(self, n: int, low: int, high: int, wide_ok: bool = True) -> np.ndarray:
        """``random_(low, high)``: ``word % (high - low) + low`` (a 64-bit word for ranges ≥ 2³²)."""
        span = high - low
        if span >= 1 << 32 and wide_ok:
            w = self.random64(n)
        else:
            w = self.random(n).astype(np.uint64)
        return (w % np.uint64(span)).astype(np.int64) + np.int64(low) if span < 1 << 63 else \
            np.array([(int(v) % span) + low for v in w], dtype=np.int64)

    def randperm(self, n: int) -> np.ndarray:
        """ATen's ``randperm_cpu``: swap element i with element ``i + word % (n - i)``."""
        perm = list(range(n))
        if n > 1:
            z = (self.random(n - 1).astype(np.int64) % np.arange(n, 1, -1, dtype=np.int64)).tolist()
            for i, zi in enumerate(z):
                j = zi + i
                perm[i], perm[j] = perm[j], perm[i]
        return np.array(perm, dtype=np.int64)


def _normal_fill_16(u: np.ndarray, mean, std) -> np.ndarray:
    """Box-Muller on rows of 16 float64 uniforms (``normal_fill_16``): cosines first, then sines."""
    u1, u2 = 1 - u[:, :8], u[:, 8:]
    radius = np.sqrt(-2 * np.log(u1))
    theta = 2.0 * math.pi * u2
    # radius · cos(θ) · std + mean: the last multiply-add is fused by the compiler
    return np.concatenate((_fma64(radius * np.cos(theta), std, mean), _fma64(radius * np.sin(theta), std, mean)),
                          axis=1)


# -- avx_mathfun.h in float32 (Julien Pommier's Cephes-based log256_ps and sincos256_ps) ----------------
_f = np.float32


def _fma32(a, b, c):
    """float32 fused multiply-add ``a · b + c`` rounded once: the product of two float32 is exact in float64."""
    return (np.asarray(a, np.float64) * np.float64(b) + np.asarray(c, np.float64)).astype(np.float32)


def _fma64(a, b, c):
    """float64 fused multiply-add, from error-free transformations (Dekker's product, Knuth's sum).

    ``a · b = p + e`` exactly and ``p + c = s + t`` exactly; the result ``s + (t + e)`` is the correctly
    rounded ``a · b + c`` except in rare ties of the last correction.
    """
    a = np.asarray(a, np.float64)
    p = a * b
    split = 134217729.0  # 2^27 + 1
    ta, tb = split * a, split * np.float64(b)
    ah = ta - (ta - a)
    al = a - ah
    bh = tb - (tb - b)
    bl = b - bh
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    s = p + c
    v = s - p
    t = (p - (s - v)) + (c - v)
    return s + (t + e)


def _log256_ps(x: np.ndarray) -> np.ndarray:
    """``log256_ps``. Compiled with ``-mfma`` and GCC's default ``-ffp-contract=fast``, each product whose
    only use is an addition becomes one FMA with it (the first such product in statement order wins)."""
    x = np.maximum(x, np.float32(1.17549435e-38))
    bits = x.view(np.int32)
    e = ((bits >> 23) - 0x7F).astype(np.float32) + _f(1)
    x = ((bits & ~0x7F800000) | np.float32(0.5).view(np.int32)).view(np.float32)
    mask = x < _f(0.707106781186547524)
    tmp = np.where(mask, x, _f(0))
    x = x - _f(1)
    e = e - np.where(mask, _f(1), _f(0))
    x = x + tmp
    z = x * x
    y = np.full_like(x, _f(7.0376836292e-2))
    for c in (-1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1, 1.4249322787e-1, -1.6668057665e-1,
              2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1):
        y = _fma32(y, x, _f(c))
    y = _fma32(y * x, z, e * _f(-2.12194440e-4))
    y = _fma32(z, _f(-0.5), y)
    return _fma32(e, _f(0.693359375), x + y)


def _sincos256_ps(x: np.ndarray):
    """``sincos256_ps`` (Cephes sinf/cosf on |x| reduced by multiples of π/4), FMAs fused as GCC does."""
    sign_sin = np.signbit(x)
    x = np.abs(x)
    j = (x * _f(1.27323954473516)).astype(np.int32)
    j = (j + 1) & ~1
    y = j.astype(np.float32)
    swap_sin = (j & 4) != 0
    poly = (j & 2) == 0
    x = _fma32(y, _f(-0.78515625), x)
    x = _fma32(y, _f(-2.4187564849853515625e-4), x)
    x = _fma32(y, _f(-3.77489497744594108e-8), x)
    sign_cos = ((~(j - 2)) & 4) != 0
    sign_sin = sign_sin ^ swap_sin
    z = x * x
    yc = _fma32(np.full_like(z, _f(2.443315711809948e-005)), z, _f(-1.388731625493765e-003))
    yc = _fma32(yc, z, _f(4.166664568298827e-002))
    yc = _fma32(yc * z, z, -(z * _f(0.5))) + _f(1)
    ys = _fma32(np.full_like(z, _f(-1.9515295891e-4)), z, _f(8.3321608736e-3))
    ys = _fma32(ys, z, _f(-1.6666654611e-1))
    ys = _fma32(ys * z, x, x)
    s = np.where(poly, ys, yc)
    c = np.where(poly, yc, ys)
    return np.where(sign_sin, -s, s), np.where(sign_cos, -c, c)


def _normal_fill_16_avx2(u: np.ndarray, mean, std) -> np.ndarray:
    """``normal_fill_16_AVX2``: float32 Box-Muller with avx_mathfun's log and sincos."""
    with np.errstate(invalid="ignore", divide="ignore"):
        u1 = _f(1) - u[:, :8]
        radius = np.sqrt(_f(-2) * _log256_ps(u1))
        theta = _f(2.0 * math.pi) * u[:, 8:]
        sin, cos = _sincos256_ps(theta)
        return np.concatenate((_fma32(radius * cos, std, mean), _fma32(radius * sin, std, mean)), axis=1)


# -- ATen's CPU kernels, on arrays ----------------------------------------------------------------------
# Each function fills a new array of ``shape`` and numpy ``dtype`` the way the ATen kernel fills a tensor:
# element by element in memory order (``order`` 'C', or 'F' for a transposed tensor).

def _shaped(flat: np.ndarray, shape, dtype, order="C") -> np.ndarray:
    return np.asarray(flat).astype(dtype, copy=False).reshape(shape, order=order)


def _float_kernel(name: str, dtype) -> None:
    if np.dtype(dtype).kind != "f":
        raise NotImplementedError('"%s" not implemented for \'%s\'' % (name, from_numpy_dtype(dtype)._legacy))


def uniform(g: CPUGenerator, shape, dtype, low=0.0, high=1.0, order="C") -> np.ndarray:
    """``uniform_kernel``: one word (two for float64) per element; float16 computes in float32."""
    _float_kernel("check_uniform_bounds", dtype)
    n = int(np.prod(shape, dtype=np.int64))
    dtype = np.dtype(dtype)
    if dtype == np.float16:
        lo, hi = np.float32(np.float16(low)), np.float32(np.float16(high))
        x = g.uniform(n, np.float16).astype(np.float32)
        return _shaped(x * (hi - lo) + lo, shape, dtype, order)
    return _shaped(g.uniform(n, dtype, low, high), shape, dtype, order)


def normal(g: CPUGenerator, shape, dtype, mean=0.0, std=1.0, order="C", contiguous=True) -> np.ndarray:
    _float_kernel("normal_kernel_cpu", dtype)
    n = int(np.prod(shape, dtype=np.int64))
    return _shaped(g.normal(n, dtype, mean, std, contiguous), shape, dtype, order)


def bernoulli(g: CPUGenerator, shape, dtype, p: float, order="C") -> np.ndarray:
    """``bernoulli_(p)`` with a number p: ``uniform<double>() < p`` per element.

    (PyTorch on an Intel CPU with MKL draws these from MKL's own generator seeded by one word instead;
    this is the kernel PyTorch runs everywhere else, including AMD CPUs.)
    """
    n = int(np.prod(shape, dtype=np.int64))
    return _shaped(g.uniform(n, np.float64) < p, shape, dtype, order)


def bernoulli_tensor(g: CPUGenerator, p: np.ndarray, dtype, order="C") -> np.ndarray:
    """``bernoulli_(p_tensor)``: ``uniform<double>() < p`` for float64 p, else ``uniform<float>() < p``."""
    n = p.size
    flat = p.reshape(-1, order=order)
    u = g.uniform(n, np.float64 if p.dtype == np.float64 else np.float32)
    return _shaped(u < flat.astype(u.dtype), p.shape, dtype, order)


def exponential(g: CPUGenerator, shape, dtype, lambd=1.0, order="C") -> np.ndarray:
    """``exponential_distribution<double>``: ``-1/λ · log1p(-u)``."""
    if np.dtype(dtype).kind != "f":
        raise RuntimeError("Exponential distribution is a continuous probability distribution. dtype must be a "
                           "floating point but you specified %s" % from_numpy_dtype(dtype)._legacy)
    n = int(np.prod(shape, dtype=np.int64))
    with np.errstate(divide="ignore"):
        return _shaped((-1.0 / lambd) * np.log1p(-g.uniform(n, np.float64)), shape, dtype, order)


def cauchy(g: CPUGenerator, shape, dtype, median=0.0, sigma=1.0, order="C") -> np.ndarray:
    _float_kernel("cauchy_cpu", dtype)
    n = int(np.prod(shape, dtype=np.int64))
    u = g.uniform(n, np.float64)
    return _shaped(median + sigma * np.tan(math.pi * (u - 0.5)), shape, dtype, order)


def log_normal(g: CPUGenerator, shape, dtype, mean=1.0, std=2.0, order="C") -> np.ndarray:
    _float_kernel("log_normal_cpu", dtype)
    n = int(np.prod(shape, dtype=np.int64))
    with np.errstate(over="ignore"):
        return _shaped(np.exp(g.normal_scalar(n, mean, std)), shape, dtype, order)


def geometric(g: CPUGenerator, shape, dtype, p: float, order="C") -> np.ndarray:
    n = int(np.prod(shape, dtype=np.int64))
    u = g.uniform(n, np.float64)
    with np.errstate(divide="ignore"):
        return _shaped(np.ceil(np.log(u) / np.log(1.0 - p)), shape, dtype, order)


def random_from_to(g: CPUGenerator, shape, dtype, low: int, high: int, order="C") -> np.ndarray:
    """``random_(from, to)``: a 64-bit word for ranges ≥ 2³² when the dtype can hold them."""
    n = int(np.prod(shape, dtype=np.int64))
    wide_ok = np.dtype(dtype) in (np.int64, np.float64, np.float32)
    return _shaped(g.random_from_to(n, low, high, wide_ok), shape, dtype, order)


def random_full(g: CPUGenerator, shape, dtype, order="C") -> np.ndarray:
    """``random_()``: ``[0, 2^mantissa]`` for floating dtypes, ``[0, max]`` for integers, bit 0 for bool."""
    n = int(np.prod(shape, dtype=np.int64))
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return _shaped(g.random(n) & np.uint32(1), shape, dtype, order)
    if dtype.kind == "f":
        digits = np.finfo(dtype).nmant + 1
        words = g.random64(n) if dtype == np.float64 else g.random(n).astype(np.uint64)
        return _shaped(words % np.uint64((1 << digits) + 1), shape, dtype, order)
    words = g.random64(n) if dtype == np.int64 else g.random(n).astype(np.uint64)
    return _shaped(words % np.uint64(int(np.iinfo(dtype).max) + 1), shape, dtype, order)


def multinomial(g: CPUGenerator, probs: np.ndarray, num_samples: int, replacement: bool) -> np.ndarray:
    """``torch.multinomial`` on a 1-D or 2-D float array of weights (rows are distributions).

    Without replacement, or for one sample: the exponential trick, ``topk(p / q)`` with ``q ~ Exp(1)``
    (one draw per weight). Otherwise one uniform<double> per sample, searched in the row's normalised
    cumulative sums (the last one forced to 1).
    """
    rows = probs.reshape(-1, probs.shape[-1])
    dtype = probs.dtype
    if not replacement or num_samples == 1:
        q = exponential(g, probs.shape, dtype).reshape(rows.shape)
        with np.errstate(divide="ignore", invalid="ignore"):
            key = (rows / q).astype(dtype)
        # topk / argmax: larger first; ties keep the lower index (a stable sort of -key)
        order = np.argsort(-key, axis=-1, kind="stable")[:, :num_samples]
        return order.reshape((*probs.shape[:-1], num_samples)).astype(np.int64)
    out = np.empty((rows.shape[0], num_samples), dtype=np.int64)
    for i, row in enumerate(rows):
        acc = np.float32 if dtype == np.float16 else dtype
        cum = np.cumsum(row.astype(acc), dtype=acc)
        cum = cum / cum[-1]
        cum[-1] = 1
        u = g.uniform(num_samples, np.float64)
        out[i] = np.searchsorted(cum.astype(np.float64), u, side="left")
    return out.reshape((*probs.shape[:-1], num_samples))
