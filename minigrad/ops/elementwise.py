"""Elementwise ops: arithmetic, powers, exp/log, trigonometry, activations, clamping, comparisons' friends.

Each op is a row of the derivative table (``rule``, see ``_rules.py``): its forward on
ndarrays, and per input its gradient as text and as one expression.  Broadcast operands get
gradients of the broadcast shape; the node sums them back to each operand's shape.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _tensor
from .._dtype import cpp_type_name, from_numpy_dtype, get_default_dtype, result_type
from ..autograd.function import Function
from . import simd
from ._layout import contiguous, like, pointwise_rules
from ._rules import fused, rule
from ._util import cast, check_broadcast, clip, fma, fmath, operand, promoted, remainder

if TYPE_CHECKING:
    from .._tensor import Tensor
    from ..autograd.function import Grads
    from ._rules import Rule

_BOOL_SUB = ("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, "
             "use the `~` or `logical_not()` operator instead.")


def _check_bool_sub(x, y):
    """PyTorch refuses ``-`` on bool tensors (numpy would raise a TypeError of its own)."""
    if x.dtype.name == "bool" and y.dtype.name == "bool":
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                           "`logical_xor()` operator instead.")
    if x.dtype.name == "bool" or y.dtype.name == "bool":
        raise RuntimeError(_BOOL_SUB)


def _f(a):
    """Float data for ops whose result is floating point even for integer inputs (``exp``, ``log``…)."""
    return a if a.dtype.kind == "f" else a.astype(get_default_dtype().numpy)


# -- the derivative table: elementwise ops ------------------------------------------------------------
# One row per op: forward (numpy), and per input the gradient as text and as an expression in `xp`.

def _operands(x, y):
    """The arrays of two operands, broadcast-checked and promoted to their common dtype (PyTorch's rules)."""
    a, b = x._data, y._data
    if a.dtype == b.dtype and a.shape == b.shape and not x._wrapped_number:
        return a, b                                 # the common case: nothing to check or convert
    if y._wrapped_number and a.dtype.kind == "f" and b.dtype.kind in "biuf" and not x._wrapped_number:
        return a, b.astype(a.dtype)                 # ``x + 0.5``: x's float dtype wins (``promoted``, in short)
    check_broadcast(x, y)
    return promoted(x, y)


def _add(self, other, alpha=1):
    a, b = _operands(self, other)
    return a + b if alpha == 1 else _plus_scaled(a, b, alpha)


def _plus_scaled(a, b, alpha):
    """``a + alpha · b`` rounded once for floats, as PyTorch's fmadd (``1.6 + 2.5 · -0.64`` is 5.55e-17, not 0)."""
    if a.dtype.kind == "f" and b.dtype == a.dtype:
        return fma(b, alpha, a)
    return a + np.asarray(alpha * b, b.dtype)       # (numpy 1.x: 0-d * int is float64)


Add: type[Rule] = rule("AddBackward0", _add, arrays=False,
           self=("g", lambda xp, g: g),
           other=("g · alpha", lambda xp, g, alpha: g if alpha == 1 else xp.mul_scalar(g, alpha)),
           jvp="auto_linear",
           words="Addition passes the gradient through to both inputs (scaled by alpha for the second).")


def _sub(self, other, alpha=1):
    check_broadcast(self, other)
    _check_bool_sub(self, other)
    a, b = promoted(self, other)
    return a - b if alpha == 1 else _plus_scaled(a, b, -alpha)


Sub: type[Rule] = rule("SubBackward0", _sub, arrays=False,
           self=("g", lambda xp, g: g),
           other=("−g · alpha", lambda xp, g, alpha: -g if alpha == 1 else xp.mul_scalar(-g, alpha)),
           jvp="auto_linear",
           words="Subtraction passes the gradient to the first input and its negative to the second.")


def _rsub(self, other):
    _check_bool_sub(self, operand(other))
    a, b = promoted(self, operand(other))
    return b - a


Rsub: type[Rule] = rule("RsubBackward1", _rsub, arrays=False,
            self=("−g", lambda xp, g: -g),
            jvp="auto_element_wise",
            words="other − self for a number other: the gradient changes sign.")


def _mul(self, other):
    a, b = _operands(self, other)
    return a * b


Mul: type[Rule] = rule("MulBackward0", _mul, arrays=False,
           self=("g · other", lambda xp, g, other: g * other),
           other=("g · self", lambda xp, g, self: g * self),
           jvp="auto_element_wise",
           words="Product rule: each input gets the gradient times the other input.")


def _div(self, other):
    check_broadcast(self, other)
    a, b = promoted(self, other, floating=True)
    return a / b                                    # x / 0 is inf (quiet: no numpy warning)


Div: type[Rule] = rule("DivBackward0", _div, arrays=False,
           self=("g / other", lambda xp, g, other: g / other),
           other=("−g · self / other²", lambda xp, g, self, other: -g * ((self / other) / other)),
           jvp="auto_element_wise",
           words="Quotient rule: self gets g / other, other gets −g · self / other².")


def _neg(self):
    if self.dtype.kind == "b":
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
                           "invert a mask, use the `~` or `logical_not()` operator instead.")
    return np.negative(self)


Neg: type[Rule] = rule("NegBackward0", _neg, quiet=False,
           self=("−g", lambda xp, g: -g),
           jvp="auto_linear",
           words="Negation flips the sign of the gradient.")

Reciprocal: type[Rule] = rule("ReciprocalBackward0", lambda self: np.reciprocal(_f(self)),
                  self=("−g · result²", lambda xp, g, result: -g * (result * result)),
                  jvp="auto_element_wise",
                  words="1/x: the slope is −1/x², read from the saved result.")


def _pow(self, exponent):
    a = self
    if isinstance(exponent, float) and a.dtype.kind != "f":
        a = a.astype(get_default_dtype().numpy)
    e = exponent if a.dtype.kind == "f" or isinstance(exponent, float) else int(exponent)
    return fmath.power(a, e).astype(a.dtype, copy=False)


def _pow_grad(xp, g, self, exponent):
    if exponent == 0:
        return xp.zeros_like(g)
    return g * xp.mul_scalar(xp.pow(self, exponent - 1), exponent)      # PyTorch's pow_backward


Pow: type[Rule] = rule("PowBackward0", _pow,
           self=("g · exponent · self^(exponent − 1)", _pow_grad),
           jvp="auto_element_wise",
           words="Power rule with a constant exponent (0 everywhere when the exponent is 0).")


def _pow_tensor(self, exponent):
    check_broadcast(self, exponent)
    a, b = promoted(self, exponent)
    return fmath.power(a, b)


PowTensor: type[Rule] = rule(
    "PowBackward1", _pow_tensor, arrays=False,
    self=("g · exponent · self^(exponent − 1)  (0 where exponent = 0)",
          lambda xp, g, self, exponent:
          xp.where(xp.mask(xp.value(exponent) == 0), 0, g * (exponent * xp.pow(self, xp.sub_scalar(exponent, 1))))),
    exponent=("g · result · ln(self)  (0 where self = 0 and exponent ≥ 0)",
              lambda xp, g, self, exponent, result:
              g * xp.where(xp.mask((xp.value(self) == 0) & (xp.value(exponent) >= 0)), 0, result * xp.log(self))),
    jvp="auto_element_wise",
    words="A tensor power: the power rule for the base, the log rule for the exponent.")


def _pow_scalar_base(self, exponent):
    a = exponent._data.astype(result_type(operand(self), exponent).numpy, copy=False)   # 2 ** int stays integral
    return contiguous(fmath.power(a.dtype.type(self), a))


def _pow_base_grad(xp, g, self, exponent, result):
    # ln(0) = -inf; ln of a negative base is nan (numpy would warn), as in PyTorch
    log_base = math.log(self) if self > 0 else -math.inf if self == 0 else math.nan
    if self == 0:
        return g * xp.where(xp.mask(xp.value(exponent) >= 0), 0, xp.mul_scalar(result, log_base))
    return g * xp.mul_scalar(result, log_base)


PowScalarBase: type[Rule] = rule("PowBackward2", _pow_scalar_base, arrays=False,
                     exponent=("g · result · ln(self)", _pow_base_grad),
                     jvp="auto_element_wise",
                     words="A number raised to a tensor power: the log rule (0 where the base is 0).")

Exp: type[Rule] = rule("ExpBackward0", lambda self: fmath.exp(_f(self)),
           self=("g · result", lambda xp, g, result: g * result),
           jvp="auto_element_wise",
           words="The exponential is its own derivative: the node reuses its output.")

Log: type[Rule] = rule("LogBackward0", lambda self: fmath.log(_f(self)),
           self=("g / self", lambda xp, g, self: g / self),
           jvp="auto_element_wise",
           words="The slope of ln x is 1/x.")

Log1p: type[Rule] = rule("Log1PBackward0", lambda self: fmath.log1p(_f(self)),
             self=("g / (self + 1)", lambda xp, g, self: g / xp.add_scalar(self, 1)),
             jvp="auto_element_wise",
             words="ln(1 + x), exact near 0: the slope is 1/(1 + x).")

Expm1: type[Rule] = rule("Expm1Backward0", lambda self: fmath.expm1(_f(self)),
             self=("g · (result + 1)", lambda xp, g, result: g * xp.add_scalar(result, 1)),
             jvp="auto_element_wise",
             words="eˣ − 1, exact near 0: the slope eˣ is the result plus 1.")

Log2: type[Rule] = rule("Log2Backward0", lambda self: fmath.log2(_f(self)),
            self=("g / (self · ln 2)", lambda xp, g, self: g / xp.mul_scalar(self, 0.6931471805599453)),
            jvp="auto_element_wise",
            words="The slope of log₂ x is 1/(x ln 2).")

Log10: type[Rule] = rule("Log10Backward0", lambda self: fmath.log10(_f(self)),
             self=("g / (self · ln 10)", lambda xp, g, self: g / xp.mul_scalar(self, 2.3025850929940456)),
             jvp="auto_element_wise",
             words="The slope of log₁₀ x is 1/(x ln 10).")

Sin: type[Rule] = rule("SinBackward0", lambda self: fmath.sin(_f(self)),
           self=("g · cos(self)", lambda xp, g, self: g * xp.cos(self)),
           jvp="auto_element_wise",
           words="The slope of sin is cos.")

Cos: type[Rule] = rule("CosBackward0", lambda self: fmath.cos(_f(self)),
           self=("−g · sin(self)", lambda xp, g, self: g * -xp.sin(self)),
           jvp="auto_element_wise",
           words="The slope of cos is −sin.")

Tan: type[Rule] = rule("TanBackward0", lambda self: fmath.tan(_f(self)),
           self=("g · (1 + result²)", lambda xp, g, result: g * xp.add_scalar(xp.pow(result, 2), 1)),
           jvp="auto_element_wise",
           words="The slope of tan is 1 + tan², read from the saved result.")

Asin: type[Rule] = rule("AsinBackward0", lambda self: fmath.arcsin(_f(self)),
            self=("g / √(1 − self²)", lambda xp, g, self: g * xp.rsqrt(xp.add_scalar(-self * self, 1))),
            jvp="auto_element_wise",
            words="The slope of arcsine is 1/√(1 − x²).")

Acos: type[Rule] = rule("AcosBackward0", lambda self: fmath.arccos(_f(self)),
            self=("−g / √(1 − self²)", lambda xp, g, self: g * -xp.rsqrt(xp.add_scalar(-self * self, 1))),
            jvp="auto_element_wise",
            words="The slope of arccosine is −1/√(1 − x²).")

Atan: type[Rule] = rule("AtanBackward0", lambda self: fmath.arctan(_f(self)),
            self=("g / (1 + self²)", lambda xp, g, self: g / xp.add_scalar(self * self, 1)),
            jvp="auto_element_wise",
            words="The slope of arctangent is 1/(1 + x²).")


def _atan2(self, other):
    check_broadcast(self, other)
    a, b = promoted(self, other, floating=True)
    return fmath.arctan2(a, b)


def _atan2_scale(xp, self, other):
    """1 / (self² + other²), 0 at the origin (where PyTorch's gradient is 0)."""
    r2 = self * self + other * other
    return xp.masked_fill(xp.reciprocal(r2), xp.value(r2) == 0, 0)      # PyTorch's atan2_backward


Atan2: type[Rule] = rule("Atan2Backward0", _atan2, arrays=False,
             self=("g · other / (self² + other²)",
                   lambda xp, g, self, other: g * other * _atan2_scale(xp, self, other)),
             other=("−g · self / (self² + other²)",
                    lambda xp, g, self, other: g * -self * _atan2_scale(xp, self, other)),
             jvp="auto_element_wise",
             words="atan2(self, other), the angle of the point (other, self): the gradient turns by 90° "
                   "and shrinks with the squared distance (0 at the origin).")

Sinh: type[Rule] = rule("SinhBackward0", lambda self: fmath.sinh(_f(self)),
            self=("g · cosh(self)", lambda xp, g, self: g * xp.cosh(self)),
            jvp="auto_element_wise",
            words="The slope of sinh is cosh.")

Cosh: type[Rule] = rule("CoshBackward0", lambda self: fmath.cosh(_f(self)),
            self=("g · sinh(self)", lambda xp, g, self: g * xp.sinh(self)),
            jvp="auto_element_wise",
            words="The slope of cosh is sinh.")

def _tanh_backward(grad_output, output):
    """``g · (1 − y²)``; ATen's SIMD build fuses ``1 − y·y`` into one rounding (``simd.mul_add``)."""
    if output.dtype.kind != "f" or output.dtype.itemsize < 4 or simd.cpu_capability() == "DEFAULT":
        return grad_output * (1 - output * output)
    return grad_output * simd.mul_add(-output, output, 1, output.dtype, True)


TanhBackward: type[Rule] = fused("tanh_backward", rule(
    "TanhBackwardBackward0", _tanh_backward,
    grad_output=("g · (1 − output²)", lambda xp, g, output: xp.tanh_backward(g, output)),
    output=("−2 · g · grad_output · output",
            lambda xp, g, grad_output, output: g * (xp.mul_scalar(output, -2) * grad_output)),
    name="TanhBackward",
    jvp="auto_element_wise",
    words="tanh's backward, g · (1 − y²), as one op: linear in g, quadratic in the saved y."))

Tanh: type[Rule] = rule("TanhBackward0", lambda self: fmath.tanh(_f(self)),
            self=("g · (1 − result²)", lambda xp, g, result: xp.tanh_backward(g, result)),
            jvp="auto_element_wise",
            words="tanh, from its output: the slope is 1 − y².")


def _sigmoid(self):
    a = _f(self)
    y = (1 / (1 + fmath.exp(-a))).astype(a.dtype, copy=False)
    return simd.sigmoid_f32(a, y) if a.dtype == np.float32 else y      # PyTorch's SIMD lanes (ops/simd.py)


SigmoidBackward: type[Rule] = fused("sigmoid_backward", rule(
    "SigmoidBackwardBackward0", lambda grad_output, output: grad_output * (1 - output) * output,
    grad_output=("g · output · (1 − output)", lambda xp, g, output: xp.sigmoid_backward(g, output)),
    output=("g · grad_output · (1 − 2 · output)",
            lambda xp, g, grad_output, output: g * grad_output * xp.add_scalar(xp.mul_scalar(output, -2), 1)),
    name="SigmoidBackward",
    jvp="auto_element_wise",
    words="sigmoid's backward, g · y · (1 − y), as one op."))

Sigmoid: type[Rule] = rule("SigmoidBackward0", _sigmoid,
               self=("g · result · (1 − result)", lambda xp, g, result: xp.sigmoid_backward(g, result)),
               jvp="auto_element_wise",
               words="Sigmoid, from its output: the slope y · (1 − y) is at most 1/4, so long chains shrink "
                     "the gradient.")


def _threshold_backward(grad_output, self, threshold):
    # exact zeros, even for inf; where self is nan the gradient passes (PyTorch masks `self <= threshold`)
    return np.where(self <= threshold, np.zeros((), grad_output.dtype), grad_output)


ThresholdBackward: type[Rule] = fused("threshold_backward", rule(
    "ThresholdBackwardBackward0", _threshold_backward, quiet=False,
    grad_output=("g · [self > threshold]",
                 lambda xp, g, self, threshold: xp.threshold_backward(g, self, threshold)),
    self=("0", lambda xp, g: xp.zeros_like(g)),
    name="ThresholdBackward",
    jvp="auto_element_wise",
    words="relu's backward as one op: the gradient where the input passed the threshold, else exactly 0."))

Relu: type[Rule] = rule("ReluBackward0", lambda self: clip(self, 0), quiet=False,
            self=("g · [result > 0]", lambda xp, g, result: xp.threshold_backward(g, result, 0)),
            jvp="auto_element_wise",
            words="ReLU lets the gradient through where the output is positive, else 0 (so relu'(0) = 0).")

Sqrt: type[Rule] = rule("SqrtBackward0", lambda self: np.sqrt(_f(self)),
            self=("g / (2 · result)", lambda xp, g, result: g / xp.mul_scalar(result, 2)),
            jvp="auto_element_wise",
            words="The slope of √x is 1/(2√x), from the saved result (inf at 0, as in PyTorch).")

Rsqrt: type[Rule] = rule("RsqrtBackward0", lambda self: 1 / np.sqrt(_f(self)),
             self=("−g · result³ / 2", lambda xp, g, result: xp.mul_scalar(g, -0.5) * xp.pow(result, 3)),
             jvp="auto_element_wise",
             words="The slope of 1/√x is −1/(2 x√x) = −result³/2.")

Abs: type[Rule] = rule("AbsBackward0", lambda self: np.abs(self), quiet=False,
           self=("g · sgn(self)", lambda xp, g, self: g * xp.sgn(self)),
           jvp="auto_element_wise",
           words="|x| passes the gradient with the sign of x (0 at 0).")


def _sign(self):
    out = np.sign(self)
    if out.dtype.kind == "f" and np.isnan(out).any():
        out = np.where(np.isnan(out), np.zeros((), out.dtype), out)     # PyTorch: sign(nan) = 0
    return out


Sign: type[Rule] = rule("SignBackward0", _sign, quiet=False,
            self=("0", lambda xp, g: xp.zeros_like(g)),
            jvp="auto_element_wise",
            words="sign is flat almost everywhere: the gradient is 0.")


Sgn: type[Rule] = fused("sgn", rule("SgnBackward0", _sign, quiet=False,   # saves self and result, as PyTorch
                        self=("0", lambda xp, g, self, result: xp.zeros_like(g)),
                        jvp="auto_element_wise",
                        words="sgn (sign, for real numbers) is flat almost everywhere: the gradient is 0."))


def _rounding(fn):
    return lambda self: fn(self) if self.dtype.kind == "f" else self.copy()


_STEP = "A step function: flat almost everywhere, so the gradient is 0."
Floor = rule("FloorBackward0", _rounding(np.floor), self=("0", lambda xp, g: xp.zeros_like(g)),
             jvp="auto_element_wise", words=_STEP)
Ceil = rule("CeilBackward0", _rounding(np.ceil), self=("0", lambda xp, g: xp.zeros_like(g)),
            jvp="auto_element_wise", words=_STEP)
Trunc = rule("TruncBackward0", _rounding(np.trunc), self=("0", lambda xp, g: xp.zeros_like(g)),
             jvp="auto_element_wise", words=_STEP)
Round: type[Rule] = rule("RoundBackward0", _rounding(np.round), self=("0", lambda xp, g: xp.zeros_like(g)),
             jvp="auto_element_wise",
             words=_STEP + " (Rounds halves to even, as PyTorch: round(2.5) = 2.)")


def _frac(self):
    if self.dtype.kind != "f":
        raise NotImplementedError('"frac_cpu" not implemented for \'%s\'' % from_numpy_dtype(self.dtype)._legacy)
    return self - np.trunc(self)


Frac: type[Rule] = rule("FracBackward0", _frac, self=("g", lambda xp, g: g),
            jvp="auto_element_wise",
            words="x − trunc(x) has slope 1 between the integers.")


def _clamp(self, min, max):
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    d = result_type(self, *[b for b in (min, max) if b is not None])    # an int tensor clamped at 2.5 is float
    return clip(self._data.astype(d.numpy, copy=False), min, max)


def _clamp_mask(self, min, max):
    if min is None:
        return self <= max
    if max is None:
        return self >= min
    return (self >= min) & (self <= max)


Clamp: type[Rule] = rule("ClampBackward1", _clamp, arrays=False, quiet=False,
             self=("g · [min ≤ self ≤ max]",
                   lambda xp, g, self, min, max: xp.where(xp.mask(_clamp_mask(self, min, max)), g, 0)),
             jvp="auto_element_wise",
             words="Clamping passes the gradient where the input is inside [min, max] (bounds included), "
                   "else exactly 0.")

ClampMin: type[Rule] = rule("ClampMinBackward0", lambda self, min, max: _clamp(self, min, None), arrays=False,
                quiet=False,
                self=("g · [self ≥ min]", lambda xp, g, self, min: xp.where(xp.mask(self >= min), g, 0)),
                jvp="auto_element_wise",
                words="clamp_min passes the gradient where the input is ≥ min, else exactly 0.")

ClampMax: type[Rule] = rule("ClampMaxBackward0", lambda self, min, max: _clamp(self, None, max), arrays=False,
                quiet=False,
                self=("g · [self ≤ max]", lambda xp, g, self, max: xp.where(xp.mask(self <= max), g, 0)),
                jvp="auto_element_wise",
                words="clamp_max passes the gradient where the input is ≤ max, else exactly 0.")


# -- clamp with tensor bounds (``clamp.Tensor``): the bounds get gradients too ----------------------------

# A bound not given still has its edge in PyTorch's node (``(None, 0)`` in next_functions): it is passed as
# this stand-in, a tensor the rule sees as absent (as an array when the formulas run on arrays).
_NO_BOUND = np.zeros(())


def _given(b):
    return b is not None and (b._data if isinstance(b, _tensor.Tensor) else b) is not _NO_BOUND


def _clamp_tensor(self, min, max):
    bounds = [b for b in (min, max) if _given(b)]
    for b in bounds:
        check_broadcast(self, b)
    d = result_type(self, *bounds).numpy
    out = self._data.astype(d, copy=False)
    if _given(min):
        out = np.maximum(out, min._data.astype(d, copy=False))       # (numpy's maximum keeps nan, as PyTorch)
    if _given(max):
        out = np.minimum(out, max._data.astype(d, copy=False))
    return np.asarray(out)


def _clamp_tensor_mask(self, min, max):
    return _clamp_mask(self, min if _given(min) else None, max if _given(max) else None)


def _clamp_min_grad(xp, g, self, min, max):
    """PyTorch's clamp_backward_min_max for min: where self < min (and min < max when both are given)."""
    if not _given(max):
        return xp.where(xp.mask(self < min), g, 0)
    return xp.where(xp.mask((self < min) & (min < max)), g, 0)


def _clamp_max_grad(xp, g, self, min, max):
    if not _given(min):
        return xp.where(xp.mask(self > max), g, 0)
    return xp.where(xp.mask((self > max) | (max < min)), g, 0)


ClampTensor: type[Rule] = rule("ClampBackward0", _clamp_tensor, arrays=False, quiet=False,
                   self=("g · [min ≤ self ≤ max]",
                         lambda xp, g, self, min, max: xp.where(xp.mask(_clamp_tensor_mask(self, min, max)), g, 0)),
                   min=("g · [self < min < max]", _clamp_min_grad),
                   max=("g · [self > max or max < min]", _clamp_max_grad),
                   jvp="from_vjp",
                   words="Clamping between tensors: each element's gradient goes to whichever of self, min and max "
                         "the result is (max where min > max).")

def clamp_tensor(self, min, max):
    """``clamp`` with a tensor bound: both bounds tensors (or None), as PyTorch's ``clamp.Tensor`` overload."""
    given = tuple(b for b in (min, max) if b is not None)
    if not all(isinstance(b, _tensor.Tensor) for b in given):
        from .. import _checks  # (at call time: the argument checks sit above the ops)
        raise TypeError(_checks.invalid_args("clamp", given, {}, _CLAMP_SIGNATURES, (_checks.bad_types(given),) * 2)
                        + "\n")
    absent = _tensor.Tensor._make(_NO_BOUND)
    return ClampTensor.apply(self, absent if min is None else min, absent if max is None else max)


_CLAMP_SIGNATURES = ("Tensor min = None, Tensor max = None", "Number min = None, Number max = None")


ClampMinTensor: type[Rule] = rule("ClampMinBackward1", lambda self, min: _clamp_tensor(self, min, None),
                      arrays=False,
                      quiet=False,
                      self=("g · [self ≥ min]", lambda xp, g, self, min: xp.where(xp.mask(self >= min), g, 0)),
                      min=("g · [self < min]", lambda xp, g, self, min: xp.where(xp.mask(self < min), g, 0)),
                      jvp="from_vjp",
                      words="clamp_min with a tensor: the gradient goes to self where self ≥ min, else to min.")

ClampMaxTensor: type[Rule] = rule("ClampMaxBackward1", lambda self, max: _clamp_tensor(self, None, max), arrays=False,
                      quiet=False,
                      self=("g · [self ≤ max]", lambda xp, g, self, max: xp.where(xp.mask(self <= max), g, 0)),
                      max=("g · [self > max]", lambda xp, g, self, max: xp.where(xp.mask(self > max), g, 0)),
                      jvp="from_vjp",
                      words="clamp_max with a tensor: the gradient goes to self where self ≤ max, else to max.")


def _maximum(self, other):
    check_broadcast(self, other)
    a, b = promoted(self, other)
    # PyTorch's loop: a tie keeps the first operand (maximum(-0., 0.) is -0.; np.maximum's SIMD kernels may give 0.)
    return np.where((a < b) | (b != b), b, a)


def _minimum(self, other):
    check_broadcast(self, other)
    a, b = promoted(self, other)
    return np.where((a > b) | (b != b), b, a)


def _share(xp, g, loses, ties):
    """g / 2 on ties, exactly 0 where the input ``loses``, g elsewhere (so where an input is nan, both get g,
    as in PyTorch)."""
    return xp.masked_fill(xp.where(xp.mask(ties), xp.div_scalar(g, 2), g), xp.value(loses), 0)   # PyTorch's


Maximum: type[Rule] = rule("MaximumBackward0", _maximum, arrays=False, quiet=False,
               self=("g · [self > other] + g/2 · [self = other]",
                     lambda xp, g, self, other: _share(xp, g, self < other, self == other)),
               other=("g · [other > self] + g/2 · [self = other]",
                      lambda xp, g, self, other: _share(xp, g, other < self, self == other)),
               jvp="auto_element_wise",
               words="The gradient goes to the larger input; ties split it half and half.")

Minimum: type[Rule] = rule("MinimumBackward0", _minimum, arrays=False, quiet=False,
               self=("g · [self < other] + g/2 · [self = other]",
                     lambda xp, g, self, other: _share(xp, g, self > other, self == other)),
               other=("g · [other < self] + g/2 · [self = other]",
                      lambda xp, g, self, other: _share(xp, g, other > self, self == other)),
               jvp="auto_element_wise",
               words="The gradient goes to the smaller input; ties split it half and half.")


def _integer_division(a, b):
    if b.dtype.kind in "iub" and not np.all(b):
        raise RuntimeError("ZeroDivisionError")


def _remainder(self, other):
    check_broadcast(self, other)
    a, b = promoted(self, other)
    if a.dtype.kind == "b":
        raise NotImplementedError('"remainder_cpu" not implemented for \'Bool\'')
    _integer_division(a, b)
    return remainder(a, b)


Remainder: type[Rule] = rule("RemainderBackward1", _remainder, arrays=False,
                 self=("g", lambda xp, g: g),
                 other=("−g · floor(self / other)", lambda xp, g, self, other: -g * xp.div_floor(self, other)),
                 jvp="auto_element_wise",
                 words="self − other · floor(self / other): slope 1 in self, −floor(self / other) in other.")

def _remainder_scalar(self, other):
    return _remainder(self, operand(other))


RemainderScalar: type[Rule] = rule("RemainderBackward0", _remainder_scalar, arrays=False,
                       self=("g", lambda xp, g: g),
                       jvp="auto_element_wise",
                       words="The remainder by a number: slope 1 between the jumps.")


def _div_rounding(self, other, rounding_mode):
    check_broadcast(self, other)
    a, b = promoted(self, other)
    _integer_division(a, b)
    q = np.floor_divide(a, b) if rounding_mode == "floor" else np.trunc(np.divide(a, b)).astype(a.dtype)
    return q


# (self and other are saved, unused, as PyTorch's formulas save them: an in-place write to either is caught --
# other for either gradient, self only for other's: div_tensor_self_backward(grad, other) does not read self)
DivRounding: type[Rule] = rule("DivBackward2", _div_rounding, arrays=False,
                   self=("0", lambda xp, g, other: xp.zeros_like(g)),
                   other=("0", lambda xp, g, self, other: xp.zeros_like(g)),
                   jvp="auto_element_wise",
                   words="A rounded quotient is a step function: the gradient is 0.")


class FloorDivide(Function):
    """``floor_divide`` / ``//`` of tensors that require grad: PyTorch has no derivative for it, and records
    ``torch::autograd::NotImplemented``, whose backward raises."""

    node_name: str = "NotImplemented"
    inputs = ("self", "other")
    grads = ("not implemented: backward raises", "not implemented: backward raises")
    words = "PyTorch has no derivative for floor_divide: the node is recorded, and backward through it raises."

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any) -> Any:
        check_broadcast(x, y)
        a, b = promoted(x, y)
        return np.floor_divide(a, b)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        raise RuntimeError("derivative for aten::floor_divide is not implemented")

    @staticmethod
    def jvp(ctx: Any, *tangents: Any) -> Any:
        raise RuntimeError("derivative for aten::floor_divide is not implemented")


def _where(condition, self, other):
    a, b = promoted(self, other)
    return np.where(condition, a, b)


Where: type[Rule] = rule("WhereBackward0", _where, arrays=False, quiet=False,
             self=("g · [condition]", lambda xp, g, condition: xp.where(xp.mask(condition), g, 0)),
             other=("g · [not condition]", lambda xp, g, condition: xp.where(xp.mask(condition), 0, g)),
             jvp="auto_element_wise",
             values={"condition": lambda condition: condition},   # PyTorch saves it: backward frees it
             words="where(condition, self, other): the gradient goes to self where the condition holds, to "
                   "other elsewhere (exactly 0 for the one not chosen).")


# -- ops on a number, as PyTorch's C++ formulas record them (``mul.Scalar`` → MulBackward1) ----------------

MulScalar: type[Rule] = fused("mul_scalar", rule(
    "MulBackward1", lambda self, other: self * self.dtype.type(other),
    self=("g · other", lambda xp, g, other: xp.mul_scalar(g, other)),
    jvp="auto_linear",
    words="Multiplying by a number scales the gradient by it."))

AddScalar: type[Rule] = fused("add_scalar", rule(
    "AddBackward1", lambda self, other: self + self.dtype.type(other),
    self=("g", lambda xp, g: g),
    jvp="auto_element_wise",
    words="Adding a number passes the gradient through."))

SubScalar: type[Rule] = fused("sub_scalar", rule(
    "SubBackward1", lambda self, other: self - self.dtype.type(other),
    self=("g", lambda xp, g: g),
    jvp="auto_element_wise",
    words="Subtracting a number passes the gradient through."))

DivScalar: type[Rule] = fused("div_scalar", rule(
    "DivBackward1", lambda self, other: self / self.dtype.type(other),
    self=("g / other", lambda xp, g, other: xp.div_scalar(g, other)),
    jvp="auto_linear",
    words="Dividing by a number divides the gradient by it."))


def _check_mask(mask):
    if mask.dtype != np.bool_:
        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype %s"
                           % cpp_type_name(from_numpy_dtype(mask.dtype)))
    return mask


def _array(a):
    """The array of a saved constant (a mask saved as a tensor, as PyTorch shows it)."""
    return a._data if isinstance(a, _tensor.Tensor) else a


def _masked_fill(self, mask, value):               # mask: a bool array (no graph edge, as in PyTorch)
    mask = _check_mask(_array(mask))
    return contiguous(np.where(mask, np.asarray(value, dtype=self.dtype), self))    # PyTorch: clone(contiguous)


MaskedFill: type[Rule] = fused("masked_fill", rule(
    "MaskedFillBackward0", _masked_fill, quiet=False, values={"mask": lambda mask: _const(_array(mask))},
    self=("g · [not mask]", lambda xp, g, mask: xp.masked_fill(g, xp.value(mask), 0)),
    jvp="from_vjp",
    words="Filled positions were overwritten: they get exactly 0; the rest pass g."))


def _masked_fill_tensor(self, mask, value):
    if value.ndim != 0:
        raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but got tensor with %d "
                           "dimension(s)." % value.ndim)
    return contiguous(np.where(_check_mask(mask), value.astype(self.dtype), self))


MaskedFillTensor: type[Rule] = fused("masked_fill_tensor", rule(
    "MaskedFillBackward1", _masked_fill_tensor, quiet=False, values={"mask": lambda mask: _const(mask)},
    self=("g · [not mask]", lambda xp, g, mask: xp.masked_fill(g, xp.value(mask), 0)),
    value=("sum(g · [mask])", lambda xp, g, mask: xp.sum(xp.masked_fill(g, ~xp.value(mask), 0), None)),
    jvp="from_vjp",
    words="Filled positions get 0; the 0-dim value collects the sum of their gradient."))


def _clone(self, memory_format=None):
    """A copy laid out as ``self`` (PyTorch's default ``preserve_format``), row-major (``"contiguous"``:
    ``contiguous()``, ``reshape``'s copy) or NHWC (``"channels_last"``, 4-d)."""
    if memory_format == "channels_last":
        out = np.empty(tuple(self.shape[d] for d in (0, 2, 3, 1)), self.dtype).transpose(0, 3, 1, 2)
        out[...] = self
        return out
    return self.copy() if memory_format == "contiguous" else like(self.copy(), self)


Clone: type[Rule] = rule("CloneBackward0", _clone, quiet=False,
             self=("g", lambda xp, g: g),
             jvp="auto_linear",
             words="A copy passes the gradient through unchanged.")


class CopyGrad(Function):
    """The copy AccumulateGrad stores as ``.grad`` under ``create_graph=True``.  Backward: grad."""

    node_name: str = "CopyBackwards"
    jvp = "auto_linear"

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> Any:
        return x._data.copy()

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return grad


ToCopy: type[Rule] = rule("ToCopyBackward0", lambda self, dtype: cast(self, dtype.numpy),
              self=("g (converted back to self's dtype)", lambda xp, g: g),
              jvp="auto_linear",
              words="A dtype conversion: the gradient comes back converted (by the node, to self's dtype).")


class Normal(Function):
    """Samples of N(mean, std²), ``mean`` a tensor and ``std`` a number.  Backward: 0 (as in PyTorch)."""

    node_name: str = "NormalBackward1"

    @staticmethod
    def forward(ctx: Any, mean: Any, std: Any, sample: Any) -> Any:
        Tensor = _tensor.Tensor
        m = mean._data if isinstance(mean, Tensor) else np.asarray(mean)
        s = std._data if isinstance(std, Tensor) else np.asarray(std)
        typed = mean if isinstance(mean, Tensor) else std                # the result has its dtype
        if not typed.dtype.is_floating_point:
            raise NotImplementedError('"normal_kernel_cpu" not implemented for \'%s\'' % typed.dtype._legacy)
        if isinstance(mean, Tensor) and isinstance(std, Tensor):
            check_broadcast(mean, std)
        shape = np.broadcast_shapes(m.shape, s.shape)
        return sample(m, s, shape, typed._data.dtype)  # PyTorch's draws (see _creation.normal)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return tuple(grad * 0 if needed else None for needed in ctx.needs_input_grad)

    @staticmethod
    def jvp(ctx: Any, *tangents: Any) -> Any:
        return ctx.result * 0                                   # a sample does not move with its parameters


class NormalStd(Normal):
    """Samples of N(mean, std²), ``mean`` a number and ``std`` a tensor.  Backward: 0."""

    node_name: str = "NormalBackward2"


class NormalBoth(Normal):
    """Samples of N(mean, std²), ``mean`` and ``std`` tensors (broadcast together).  Backward: 0."""

    node_name: str = "NormalBackward3"


def _const(array, like=None):
    """A constant tensor (no gradient) from an ndarray, in ``like``'s dtype if given."""
    from .._tensor import Tensor  # at call time: ops/ is imported while _tensor is loading

    if like is not None:
        array = np.asarray(array, dtype=like._data.dtype)
    return Tensor._make(np.asarray(array), False)


# TensorIterator's output layout for the pointwise rows (a transposed operand's layout wins; see ops/_layout.py)
pointwise_rules(globals(), (Add, Sub, Neg, MulScalar, DivScalar, ToCopy, ClampTensor, ClampMinTensor, ClampMaxTensor),
                skip=(PowScalarBase,))       # 2 ** x: PyTorch's pow(Scalar, Tensor) result is row-major
