"""Elementwise ops: arithmetic, powers, exp/log, trigonometry, activations, clamping, comparisons' friends.

Each op holds its forward (on ndarrays) and its backward (with Tensor operations, so
the same formula serves ``create_graph=True``).  Broadcast operands get gradients of
the broadcast shape; the node sums them back to each operand's shape (``_check_grads``).
"""

from __future__ import annotations

import numpy as np

from .. import _tensor
from .._dtype import cpp_type_name, from_numpy_dtype, get_default_dtype, result_type
from ..autograd.function import Function
from ._util import check_broadcast, fmath, promoted

_BOOL_SUB = ("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, "
             "use the `~` or `logical_not()` operator instead.")


def _check_bool_sub(x, y):
    """PyTorch refuses ``-`` on bool tensors (numpy would raise a TypeError of its own)."""
    if x.dtype.name == "bool" and y.dtype.name == "bool":
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                           "`logical_xor()` operator instead.")
    if x.dtype.name == "bool" or y.dtype.name == "bool":
        raise RuntimeError(_BOOL_SUB)


class Add(Function):
    """``x + alpha * y``.  Backward: d/dx = grad, d/dy = alpha * grad."""

    node_name = "AddBackward0"
    saved_attrs = ("alpha",)

    @staticmethod
    def forward(ctx, x, y, alpha=1):
        check_broadcast(x, y)
        ctx.alpha = alpha
        a, b = promoted(x, y)
        return a + b if alpha == 1 else a + alpha * b

    @staticmethod
    def backward(ctx, grad):
        return grad, (grad if ctx.alpha == 1 else grad * ctx.alpha), None


class Sub(Function):
    """``x - alpha * y``.  Backward: d/dx = grad, d/dy = -alpha * grad."""

    node_name = "SubBackward0"
    saved_attrs = ("alpha",)

    @staticmethod
    def forward(ctx, x, y, alpha=1):
        check_broadcast(x, y)
        _check_bool_sub(x, y)
        ctx.alpha = alpha
        a, b = promoted(x, y)
        return a - b if alpha == 1 else a - alpha * b

    @staticmethod
    def backward(ctx, grad):
        return grad, (-grad if ctx.alpha == 1 else grad * -ctx.alpha), None


class Rsub(Function):
    """``other - x`` for a Python number ``other`` (``1 - x``).  Backward: d/dx = -grad."""

    node_name = "RsubBackward1"
    saved_attrs = ("alpha",)

    @staticmethod
    def forward(ctx, x, other):
        from ._util import operand
        ctx.alpha = 1
        _check_bool_sub(x, operand(other))
        a, b = promoted(x, operand(other))
        return b - a

    @staticmethod
    def backward(ctx, grad):
        return -grad, None


class Mul(Function):
    """Elementwise ``x * y``.  Backward: d/dx = grad * y, d/dy = grad * x."""

    node_name = "MulBackward0"
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, x, y):
        check_broadcast(x, y)
        ctx.save_for_backward(x if ctx.needs_input_grad[1] else None, y if ctx.needs_input_grad[0] else None)
        a, b = promoted(x, y)
        return a * b

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        return (grad * y if ctx.needs_input_grad[0] else None,
                grad * x if ctx.needs_input_grad[1] else None)


class Div(Function):
    """``x / y`` (true division).  Backward: d/dx = grad / y, d/dy = -grad * x / y²."""

    node_name = "DivBackward0"
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, x, y):
        check_broadcast(x, y)
        ctx.save_for_backward(x if ctx.needs_input_grad[1] else None, y)
        a, b = promoted(x, y, floating=True)
        return a / b                                  # (a quiet op: x / 0 is inf, with no numpy warning)

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        return (grad / y if ctx.needs_input_grad[0] else None,
                -grad * x / (y * y) if ctx.needs_input_grad[1] else None)


class Neg(Function):
    """``-x``.  Backward: -grad."""

    node_name = "NegBackward0"

    @staticmethod
    def forward(ctx, x):
        if x.dtype.name == "bool":
            raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
                               "invert a mask, use the `~` or `logical_not()` operator instead.")
        return np.negative(x._data)

    @staticmethod
    def backward(ctx, grad):
        return -grad


class Reciprocal(Function):
    """``1 / x``.  Backward: -grad / x² = -grad * result²."""

    node_name = "ReciprocalBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x):
        a = x._data if x.dtype.is_floating_point else x._data.astype(get_default_dtype().numpy)
        with np.errstate(divide="ignore"):
            out = np.reciprocal(a)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return -grad * result * result


class Pow(Function):
    """``x ** exponent`` for a number.  Backward: grad * exponent * x^(exponent-1) (0 where exponent is 0)."""

    node_name = "PowBackward0"
    saved_names = ("self",)
    saved_attrs = ("exponent",)

    @staticmethod
    def forward(ctx, x, exponent):
        ctx.save_for_backward(x)
        ctx.exponent = exponent
        a = x._data
        if isinstance(exponent, float) and not x.dtype.is_floating_point:
            a = a.astype(get_default_dtype().numpy)
        with np.errstate(divide="ignore", invalid="ignore"):
            return fmath.power(a, exponent if x.dtype.is_floating_point or isinstance(exponent, float)
                            else int(exponent)).astype(a.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        if ctx.exponent == 0:
            return grad * 0, None
        return grad * ctx.exponent * x ** (ctx.exponent - 1), None


class PowTensor(Function):
    """``x ** y`` for tensors.  Backward: d/dx = grad * y * x^(y-1), d/dy = grad * x^y * log(x)."""

    node_name = "PowBackward1"
    saved_names = ("self", "exponent", "result")

    @staticmethod
    def forward(ctx, x, y):
        check_broadcast(x, y)
        a, b = promoted(x, y)
        with np.errstate(divide="ignore", invalid="ignore"):
            out = fmath.power(a, b)
        ctx.save_for_backward(x, y, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        from .._creation import where, zeros_like
        x, y, result = ctx.saved_tensors
        gx = grad * y * x ** (y - 1) if ctx.needs_input_grad[0] else None
        gy = None
        if ctx.needs_input_grad[1]:
            gy = grad * result * x.log()
            gy = where((x == 0) & (y >= 0), zeros_like(gy), gy)   # PyTorch: 0 where the base is 0
        return gx, gy


class PowScalarBase(Function):
    """``base ** x`` for a number ``base``.  Backward: grad * base^x * log(base)."""

    node_name = "PowBackward2"
    saved_names = ("result",)
    saved_attrs = ("self",)

    @staticmethod
    def forward(ctx, base, x):
        from ._util import operand
        ctx.self = base
        a = x._data.astype(result_type(operand(base), x).numpy, copy=False)   # 2 ** int stays integral
        out = fmath.power(a.dtype.type(base), a)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return None, grad * result * float(fmath.log(ctx.self))


class Exp(Function):
    """``e^x``.  Backward: grad * e^x (the saved result)."""

    node_name = "ExpBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x):
        out = fmath.exp(_float(x))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad * result


class Log(Function):
    """Natural logarithm.  Backward: grad / x."""

    node_name = "LogBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        with np.errstate(divide="ignore", invalid="ignore"):
            return fmath.log(_float(x))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / x


class Log1p(Function):
    """``log(1 + x)``, exact near 0.  Backward: grad / (1 + x)."""

    node_name = "Log1PBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return fmath.log1p(_float(x))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / (x + 1)


class Expm1(Function):
    """``e^x - 1``, exact near 0.  Backward: grad * (result + 1)."""

    node_name = "Expm1Backward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x):
        out = fmath.expm1(_float(x))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad * (result + 1)


class Sin(Function):
    """``sin x``.  Backward: grad * cos x."""

    node_name = "SinBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return fmath.sin(_float(x))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x.cos()


class Cos(Function):
    """``cos x``.  Backward: -grad * sin x."""

    node_name = "CosBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return fmath.cos(_float(x))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return -grad * x.sin()


class Tan(Function):
    """``tan x``.  Backward: grad * (1 + tan²x), from the saved result."""

    node_name = "TanBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x):
        out = fmath.tan(_float(x))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad * (1 + result * result)


class Asin(Function):
    """``asin x``.  Backward: grad / √(1 - x²)."""

    node_name = "AsinBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return fmath.arcsin(_float(x))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * (1 - x * x).rsqrt()


class Acos(Function):
    """``acos x``.  Backward: -grad / √(1 - x²)."""

    node_name = "AcosBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return fmath.arccos(_float(x))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return -grad * (1 - x * x).rsqrt()


class Atan(Function):
    """``atan x``.  Backward: grad / (1 + x²)."""

    node_name = "AtanBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return fmath.arctan(_float(x))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / (x * x + 1)


class Atan2(Function):
    """``atan2(x, y)``, the angle of the point (y, x).  Backward: d/dx, d/dy = grad * (y, -x) / (x² + y²)."""

    node_name = "Atan2Backward0"
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, x, y):
        check_broadcast(x, y)
        ctx.save_for_backward(x, y)
        a, b = promoted(x, y, floating=True)
        return fmath.arctan2(a, b)

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        scale = grad / (x * x + y * y)
        return (scale * y if ctx.needs_input_grad[0] else None,
                -scale * x if ctx.needs_input_grad[1] else None)


class Sinh(Function):
    """``sinh x``.  Backward: grad * cosh x."""

    node_name = "SinhBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return fmath.sinh(_float(x))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x.cosh()


class Cosh(Function):
    """``cosh x``.  Backward: grad * sinh x."""

    node_name = "CoshBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return fmath.cosh(_float(x))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x.sinh()


class Tanh(Function):
    """``tanh x``.  Backward: grad * (1 - tanh²x), from the saved result."""

    node_name = "TanhBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x):
        out = fmath.tanh(_float(x))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad * (1 - result * result)


class Sigmoid(Function):
    """``σ(x) = 1 / (1 + e^-x)``.  Backward: grad * σ(x) * (1 - σ(x)), from the saved result."""

    node_name = "SigmoidBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x):
        a = _float(x)
        with np.errstate(over="ignore"):
            out = (1 / (1 + fmath.exp(-a))).astype(a.dtype, copy=False)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad * result * (1 - result)


class Relu(Function):
    """``max(x, 0)``.  Backward: grad where the result is > 0, else 0 (so relu'(0) = 0)."""

    node_name = "ReluBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x):
        out = np.maximum(x._data, 0).astype(x._data.dtype, copy=False)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return ThresholdBackward.apply(grad, result, 0)


class ThresholdBackward(Function):
    """The backward of relu (and threshold) as one op, as in PyTorch: ``grad`` where ``x > threshold``, else 0.

    Recorded only under ``create_graph``.  Linear in ``grad``: its gradient is the same mask applied to
    ``gg``; with respect to ``x`` it is zero (the mask is piecewise constant).
    """

    node_name = "ThresholdBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, threshold):
        ctx.threshold = threshold
        ctx.save_for_backward(x)
        g, keep = grad._data, x._data > threshold
        if np.isfinite(g).all():
            return g * keep                          # the fast way ...
        return np.where(keep, g, np.zeros((), g.dtype))   # ... and exact zeros even where grad is inf or nan

    @staticmethod
    def backward(ctx, gg):
        (x,) = ctx.saved_tensors
        return (ThresholdBackward.apply(gg, x, ctx.threshold) if ctx.needs_input_grad[0] else None,
                _const(np.zeros_like(gg._data)) if ctx.needs_input_grad[1] else None, None)


class Sqrt(Function):
    """``√x``.  Backward: grad / (2√x) (inf at 0, as in PyTorch)."""

    node_name = "SqrtBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x):
        with np.errstate(invalid="ignore"):
            out = np.sqrt(_float(x))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad / (2 * result)


class Rsqrt(Function):
    """``1/√x``.  Backward: -grad * result³ / 2."""

    node_name = "RsqrtBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x):
        out = 1 / np.sqrt(_float(x))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return -0.5 * grad * result * result * result


class Abs(Function):
    """``|x|``.  Backward: grad * sign(x) (0 at 0)."""

    node_name = "AbsBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return np.abs(x._data)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x.sign()


class Sign(Function):
    """``sign(x)``.  Backward: 0 everywhere."""

    node_name = "SignBackward0"

    @staticmethod
    def forward(ctx, x):
        return np.sign(x._data)

    @staticmethod
    def backward(ctx, grad):
        return grad * 0


class Floor(Function):
    """``floor(x)``.  Backward: 0 everywhere (a step function).  Integer tensors are returned as they are."""

    node_name = "FloorBackward0"
    _round = staticmethod(np.floor)

    @classmethod
    def forward(cls, ctx, x):
        return cls._round(x._data) if x.dtype.is_floating_point else x._data.copy()

    @staticmethod
    def backward(ctx, grad):
        return grad * 0


class Ceil(Floor):
    """``ceil(x)``.  Backward: 0."""

    node_name = "CeilBackward0"
    _round = staticmethod(np.ceil)


class Trunc(Floor):
    """``trunc(x)`` (towards 0).  Backward: 0."""

    node_name = "TruncBackward0"
    _round = staticmethod(np.trunc)


class Round(Floor):
    """``round(x)``, halves to even as in PyTorch (``round(2.5) == 2``).  Backward: 0."""

    node_name = "RoundBackward0"
    _round = staticmethod(np.round)


class Frac(Function):
    """``x - trunc(x)``, the fractional part (sign of x).  Backward: grad."""

    node_name = "FracBackward0"

    @staticmethod
    def forward(ctx, x):
        if not x.dtype.is_floating_point:
            raise NotImplementedError('"frac_cpu" not implemented for \'%s\'' % x.dtype._legacy)
        return x._data - np.trunc(x._data)

    @staticmethod
    def backward(ctx, grad):
        return grad


class Log2(Function):
    """``log₂ x``.  Backward: grad / (x ln 2)."""

    node_name = "Log2Backward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return fmath.log2(_float(x))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / (x * float(fmath.log(2)))


class Log10(Function):
    """``log₁₀ x``.  Backward: grad / (x ln 10)."""

    node_name = "Log10Backward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return fmath.log10(_float(x))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / (x * float(fmath.log(10)))


class Clamp(Function):
    """``min(max(x, min), max)``.  Backward: grad where min ≤ x ≤ max (boundaries included), else 0."""

    node_name = "ClampBackward1"
    saved_names = ("self",)
    saved_attrs = ("min", "max")

    @staticmethod
    def forward(ctx, x, lo, hi):
        if lo is None and hi is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        ctx.save_for_backward(x)
        ctx.min, ctx.max = lo, hi
        d = result_type(x, *[b for b in (lo, hi) if b is not None])    # an int tensor clamped at 2.5 is float
        return np.clip(x._data.astype(d.numpy, copy=False), lo, hi).astype(d.numpy, copy=False)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        mask = np.ones(x.shape, dtype=bool)
        if ctx.min is not None:
            mask &= x._data >= ctx.min
        if ctx.max is not None:
            mask &= x._data <= ctx.max
        return grad * _const(mask), None, None


class ClampMin(Clamp):
    """``Tensor.clamp_min``: PyTorch records its own node for it (``clamp(min=...)`` is ``ClampBackward1``)."""

    node_name = "ClampMinBackward0"
    saved_attrs = ("min",)


class ClampMax(Clamp):
    """``Tensor.clamp_max`` (``ClampMaxBackward0``)."""

    node_name = "ClampMaxBackward0"
    saved_attrs = ("max",)


class Maximum(Function):
    """``max(x, y)`` elementwise.  Backward: the grad goes to the larger; ties split it half and half."""

    node_name = "MaximumBackward0"
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, x, y):
        check_broadcast(x, y)
        ctx.save_for_backward(x, y)
        a, b = promoted(x, y)
        return np.maximum(a, b)

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        share = _const((x._data > y._data) + 0.5 * (x._data == y._data), grad)
        return grad * share, grad * (1 - share)


class Minimum(Function):
    """``min(x, y)`` elementwise.  Backward: the grad goes to the smaller; ties split it half and half."""

    node_name = "MinimumBackward0"
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, x, y):
        check_broadcast(x, y)
        ctx.save_for_backward(x, y)
        a, b = promoted(x, y)
        return np.minimum(a, b)

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        share = _const((x._data < y._data) + 0.5 * (x._data == y._data), grad)
        return grad * share, grad * (1 - share)


class Where(Function):
    """``condition ? x : y``.  Backward: grad to x where the condition holds, to y elsewhere."""

    node_name = "WhereBackward0"
    saved_attrs = ("condition",)

    @staticmethod
    def forward(ctx, condition, x, y):
        ctx.condition = condition
        a, b = promoted(x, y)
        return np.where(condition, a, b)

    @staticmethod
    def backward(ctx, grad):
        keep = _const(ctx.condition, grad)
        return None, grad * keep, grad * (1 - keep)


class MaskedFill(Function):
    """``x`` with the number ``value`` where ``mask`` is True.  Backward: grad where the mask is False, else 0."""

    node_name = "MaskedFillBackward0"
    saved_attrs = ("mask",)

    @staticmethod
    def forward(ctx, x, mask, value):            # mask: a bool ndarray (no graph edge, as in PyTorch)
        ctx.mask = _const(_check_mask(mask))
        return np.where(mask, np.asarray(value, dtype=x._data.dtype), x._data)

    @staticmethod
    def backward(ctx, grad):
        return MaskedFill.apply(grad, ctx.mask._data, 0), None, None


class MaskedFillTensor(Function):
    """``x`` with a 0-dim tensor ``value`` where ``mask`` is True.  Backward: grad where the mask is False to x;
    the sum of grad where it is True to value."""

    node_name = "MaskedFillBackward1"
    saved_attrs = ("mask",)

    @staticmethod
    def forward(ctx, x, mask, value):
        if value.ndim != 0:
            raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but got tensor with %d "
                               "dimension(s)." % value.ndim)
        ctx.mask = _const(_check_mask(mask))
        return np.where(mask, value._data.astype(x._data.dtype), x._data)

    @staticmethod
    def backward(ctx, grad):
        mask = ctx.mask._data
        return (MaskedFill.apply(grad, mask, 0) if ctx.needs_input_grad[0] else None, None,
                MaskedFill.apply(grad, ~mask, 0).sum() if ctx.needs_input_grad[2] else None)


def _check_mask(mask):
    if mask.dtype != np.bool_:
        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype %s"
                           % cpp_type_name(from_numpy_dtype(mask.dtype)))
    return mask


class Clone(Function):
    """A copy that stays in the graph.  Backward: grad."""

    node_name = "CloneBackward0"

    @staticmethod
    def forward(ctx, x):
        return x._data.copy()

    @staticmethod
    def backward(ctx, grad):
        return grad


class CopyGrad(Clone):
    """The copy AccumulateGrad stores as ``.grad`` under ``create_graph=True``."""

    node_name = "CopyBackwards"


class ToCopy(Function):
    """A dtype conversion (``x.double()``).  Backward: grad converted back (done by the node)."""

    node_name = "ToCopyBackward0"

    @staticmethod
    def forward(ctx, x, dtype):
        return x._data.astype(dtype.numpy)

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class Normal(Function):
    """Samples of N(mean, std²), ``mean`` a tensor and ``std`` a number.  Backward: 0 (as in PyTorch)."""

    node_name = "NormalBackward1"

    @staticmethod
    def forward(ctx, mean, std, rng):
        Tensor = _tensor.Tensor
        m = mean._data if isinstance(mean, Tensor) else np.asarray(mean)
        s = std._data if isinstance(std, Tensor) else np.asarray(std)
        typed = mean if isinstance(mean, Tensor) else std                # the result has its dtype
        if not typed.dtype.is_floating_point:
            raise NotImplementedError('"normal_kernel_cpu" not implemented for \'%s\'' % typed.dtype._legacy)
        if isinstance(mean, Tensor) and isinstance(std, Tensor):
            check_broadcast(mean, std)
        shape = np.broadcast_shapes(m.shape, s.shape)
        return (m + s * rng.standard_normal(shape)).astype(typed._data.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        return tuple(grad * 0 if needed else None for needed in ctx.needs_input_grad)


class NormalStd(Normal):
    """Samples of N(mean, std²), ``mean`` a number and ``std`` a tensor.  Backward: 0."""

    node_name = "NormalBackward2"


class NormalBoth(Normal):
    """Samples of N(mean, std²), ``mean`` and ``std`` tensors (broadcast together).  Backward: 0."""

    node_name = "NormalBackward3"


def _float(x):
    """Float data for ops whose result is floating point even for integer inputs (``exp``, ``log``…)."""
    return x._data if x.dtype.is_floating_point else x._data.astype(get_default_dtype().numpy)


def _const(array, like=None):
    """A constant tensor (no gradient) from an ndarray, in ``like``'s dtype if given."""
    from .._tensor import Tensor

    if like is not None:
        array = np.asarray(array, dtype=like._data.dtype)
    return Tensor._make(np.asarray(array), False)


# Hot ops whose numpy code warns at most on float overflow (see Function.quiet).
for _op in (Add, Sub, Mul, Neg, Relu, ThresholdBackward, MaskedFill, MaskedFillTensor, Clone, ToCopy, Where, Abs, Sign,
            Maximum, Minimum, Clamp):
    _op.quiet = False
