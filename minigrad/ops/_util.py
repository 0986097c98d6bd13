"""Helpers shared by the ops: Python numbers as tensors, dtype promotion of operands."""

from __future__ import annotations

import functools

import numpy as np

from .. import _dtype, _tensor  # _tensor is still loading: use `_tensor.Tensor` at call time


def operand(value, like=None):
    """A Python number becomes a 0-dim "wrapped number" tensor (it does not upcast a tensor's dtype)."""
    Tensor = _tensor.Tensor
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (bool, int, float, np.number, np.bool_)):
        # NOTE [wrapped numbers]: a float keeps double precision (``x64 * 0.1`` is exact), as in PyTorch;
        # in promotion it counts as the default float dtype (``_dtype.result_type``), so ``x32 * 0.1`` stays float32.
        if type(value) is float:
            array = np.array(value)                     # float64
        else:
            d = _dtype.scalar_dtype(value)
            array = np.asarray(value, dtype=np.float64 if d.is_floating_point else d.numpy)
        t = Tensor._make(array, False)
        t._wrapped_number = True
        return t
    if isinstance(value, np.ndarray):
        return Tensor._make(value, False)
    raise TypeError("unsupported operand type: '%s'" % type(value).__name__)


def promoted(*tensors, floating=False):
    """The operands' arrays cast to their common dtype (PyTorch's promotion rules)."""
    first = tensors[0]
    kind = first._data.dtype
    if not first._wrapped_number and (kind.kind == "f" or not floating):    # (two wrapped floats are float32)
        if len(tensors) == 2:
            second = tensors[1]._data
            if second.dtype == kind:
                return first._data, second                                    # the common case: nothing to do
            if kind.kind == "f" and tensors[1]._wrapped_number and second.dtype.kind in "biuf":
                return first._data, second.astype(kind)                       # ``x * 0.5``: x's float dtype wins
        elif all(t._data.dtype == kind for t in tensors[1:]):
            return tuple(t._data for t in tensors)
    d = _dtype.result_type(*tensors)
    if floating and not d.is_floating_point:
        d = _dtype.get_default_dtype()
    return tuple(t._data if t._data.dtype == d.numpy else t._data.astype(d.numpy) for t in tensors)


@functools.lru_cache(maxsize=4096)
def broadcast_shape(a, b):
    """The broadcast shape, with PyTorch's error naming the first dimension that disagrees (cached: a
    training loop meets the same few pairs of shapes again and again)."""
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
    for i in range(n - 1, -1, -1):
        if a[i] != b[i] and a[i] != 1 and b[i] != 1:
            raise RuntimeError("The size of tensor a (%d) must match the size of tensor b (%d) at non-singleton "
                               "dimension %d" % (a[i], b[i], i))
    return tuple(max(x, y) if min(x, y) != 0 else 0 for x, y in zip(a, b))


def check_broadcast(x, y):
    """PyTorch's error if the shapes do not broadcast (a 0-dim operand always does)."""
    xs, ys = x._data.shape, y._data.shape
    if xs != ys and xs and ys:
        broadcast_shape(xs, ys)


def wrap_dim(dim, ndim):
    return _tensor._wrap_dim(dim, ndim)


def dims_tuple(dim, ndim):
    """``dim`` (an int, a sequence or None for all) as a sorted tuple of non-negative dims."""
    if dim is None:
        return tuple(range(ndim))
    if isinstance(dim, (int, np.integer)):
        dims = (wrap_dim(int(dim), ndim),)
    else:
        dims = tuple(sorted(wrap_dim(int(d), ndim) for d in dim))
    return dims if ndim else ()       # a 0-dim tensor accepts dim 0 or -1, and has nothing to reduce


_F32 = np.dtype(np.float32)


def cast(a, dtype):
    """``a.astype(dtype)`` laid out as PyTorch lays out a converted tensor: ``astype``'s default order keeps the
    strides' order, which puts an expanded (stride 0) dim innermost; PyTorch makes such a tensor contiguous."""
    return a.astype(dtype, order="C" if 0 in a.strides else "K")


def _wide(a):
    return cast(a, np.float64)


class fmath:
    """Transcendental functions whose float32 results do not depend on the CPU.

    numpy picks a float32 kernel for ``exp``, ``log``, ``sin``, ... by what the CPU offers: on a
    machine with AVX-512, ``np.log10(np.float32(100))`` is ``2.0000002``; elsewhere, and in
    PyTorch, it is ``2``.  So float32 inputs are computed in float64 and rounded once: the
    correctly rounded result on every machine (float64 and other dtypes go straight to numpy).
    The float64 kernels differ too, by an ULP or three of float64, which changes the rounded float32
    only when the exact value is that close to a midpoint between two float32s (about 1 in 10⁸;
    none in 70 million inputs per function between numpy's baseline and AVX2 kernels, glibc's SSE2 and FMA).
    The plain version is ``np.exp(a)``.
    """

    @staticmethod
    def _via_float64(ufunc):
        def f(a, *rest):
            if not rest:                                    # one operand: the common case, kept short
                if getattr(a, "dtype", None) == _F32:    # (``dtype=``: the float64 kernel on a's exact float64 values)
                    return (ufunc(a, dtype=np.float64) if 0 not in a.strides else ufunc(_wide(a))).astype(np.float32)
                return ufunc(a)
            args = (a, *rest)
            if any(getattr(x, "dtype", None) == _F32 for x in args):
                wide = [_wide(x) if getattr(x, "dtype", None) == _F32 else x for x in args]
                return ufunc(*wide).astype(np.float32)
            return ufunc(*args)

        f.__name__ = ufunc.__name__
        return staticmethod(f)

    exp, log, log1p, expm1, log2, log10 = map(_via_float64, (np.exp, np.log, np.log1p, np.expm1, np.log2, np.log10))
    sin, cos, tan, arcsin, arccos, arctan = map(_via_float64, (np.sin, np.cos, np.tan, np.arcsin, np.arccos, np.arctan))
    sinh, cosh, tanh, arctan2, _power = map(_via_float64, (np.sinh, np.cosh, np.tanh, np.arctan2, np.power))
    logaddexp = _via_float64(np.logaddexp)

    @staticmethod
    def power(a, b):
        """``a ** b``; a number exponent of ±0.5 is PyTorch's sqrt / rsqrt, so ``(-inf) ** 0.5`` is nan (C's pow:
        inf) and ``(-0.) ** -0.5`` is -inf (pow: inf)."""
        if type(b) is float and (b == 0.5 or b == -0.5):
            root = np.sqrt(a)
            return root if b == 0.5 else 1 / root
        if type(b) in (int, float) and getattr(a, "dtype", None) is not None and a.dtype.kind == "f":
            # PyTorch's pow_tensor_scalar_optimized_kernel: products in a's dtype, each rounded
            # ((-0.05) ** -2 in float32 is 1 / 0.0025000002 = 399.99997, not 400)
            if b == 2:
                return a * a
            if b == 3:
                return a * a * a
            if b == -2:
                return np.reciprocal(a * a)
        return fmath._power(a, b)


def remainder(a, b):
    """PyTorch's ``remainder`` on arrays: ``fmod`` moved to ``b``'s side, Python's ``%`` (``np.mod``) except that a
    zero remainder keeps ``fmod``'s sign (``0. % -3.`` is 0., numpy's -0.)."""
    if a.dtype.kind != "f":
        return np.mod(a, b)
    mod = np.fmod(a, b)
    return np.where((mod != 0) & ((b < 0) != (mod < 0)), mod + b, mod)


def clip(a, low=None, high=None):
    """PyTorch's clamp on arrays: ``a`` itself unless it is below ``low`` or above ``high`` -- so at a bound of 0,
    -0. stays -0. (``np.clip``/``np.maximum`` may return the bound instead, depending on the CPU's SIMD kernel) --
    and nan where ``a`` or a bound is nan. A bound may be a number, an array or a tensor."""
    for bound, outside in ((low, np.less), (high, np.greater)):
        if bound is not None:
            b = np.asarray(getattr(bound, "_data", bound), dtype=a.dtype)
            a = np.where(outside(a, b) | (b != b), b, a)
    return a


def fma(x, alpha, y):
    """``x * alpha + y`` (``alpha`` a number, in the arrays' float dtype) rounded once, as PyTorch's
    ``add(y, x, alpha=)`` computes it (``fmadd``): ``1.6 + 2.5 * -0.64`` is 5.55e-17 in float64, where numpy's
    ``x * alpha + y`` is 0. float32 goes through float64 (its products are exact there); float64 adds the
    product's and the sum's rounding errors (Dekker's splitting, TwoSum) to the rounded sum."""
    alpha = y.dtype.type(alpha)
    if y.dtype != np.float64:
        return (x.astype(np.float64) * np.float64(alpha) + y.astype(np.float64)).astype(y.dtype)
    p = x * alpha
    s = p + y

    def halves(v):
        t = 134217729.0 * v                                      # 2**27 + 1
        hi = t - (t - v)
        return hi, v - hi

    (xh, xl), (ah, al) = halves(x), halves(alpha)
    err = ((xh * ah - p) + xh * al + xl * ah) + xl * al          # p + err == x * alpha exactly
    back = s - p
    err = err + ((p - (s - back)) + (y - back))                   # + the sum's rounding error (TwoSum)
    return np.where(np.isfinite(err), s + err, s)
