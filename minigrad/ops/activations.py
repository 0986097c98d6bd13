"""More activations of ``nn.functional``, as rows of the derivative table with PyTorch's node names.

``celu``, ``hardswish``, ``hardsigmoid``, ``mish``, ``softshrink``, ``hardshrink``, ``glu``,
``prelu`` (``PreluKernelBackward0``) and ``rrelu`` (``RreluWithNoiseBackward0``) have nodes of their own
in PyTorch; ``selu`` is ``EluBackward0`` with a scale (``ops/nn_ops.py``), ``relu6`` is ``hardtanh``;
``softsign``, ``tanhshrink`` and ``softmin`` are composites (``nn/functional.py``).

Where PyTorch records one fused node for a derivative (``hardswish_backward`` →
``HardswishBackwardBackward0`` under create_graph), that derivative is a row of its own, bound into
``xp`` by ``fused`` (see ``_rules.py``).  Where a gradient needs more than the tiny ``xp`` namespace
offers, it is written twice, on arrays (``xp is NP``) and on Tensors.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ._layout import contiguous
from ._rules import NP, fused, rule
from ._util import fmath
from .nn_ops import Elu, _elu

if TYPE_CHECKING:
    from ._rules import Rule


def _zero(a):
    return np.zeros((), a.dtype)


class EluInplace(Elu):
    """``elu_`` / ``selu_`` (in place): the same derivative, PyTorch's node name for the in-place form."""

    node_name: str = "EluBackward1"


# -- celu: elu with input_scale = 1 / alpha ------------------------------------------------------------


def _celu_input_scale(alpha):
    # derivatives.yaml: elu_backward(grad, alpha, 1, 1.0/alpha.toFloat(), ...): alpha rounded to float32 first
    return 1.0 / float(np.float32(alpha))


Celu: type[Rule] = rule(
    "CeluBackward0", lambda self, alpha=1.0: _elu(self, alpha, 1.0, 1.0 / alpha),
    self=("g · [self > 0] + g · exp(self / alpha) · [self ≤ 0]",
          lambda xp, g, self, alpha: xp.elu_backward(g, self, alpha, 1.0, _celu_input_scale(alpha))),
    jvp="auto_element_wise",
    words="CELU, max(0, x) + min(0, α (e^(x/α) − 1)): slope 1 for x > 0, e^(x/α) elsewhere.")


class CeluInplace(Celu):
    """``celu_`` (in place): the same derivative, PyTorch's node name for the in-place form."""

    node_name: str = "CeluBackward1"


# -- hardswish, hardsigmoid --------------------------------------------------------------------------


def _hardswish(self):
    t = self.dtype.type
    return (self * np.minimum(np.maximum(self + t(3), t(0)), t(6)) / t(6)).astype(self.dtype, copy=False)


def _hardswish_backward(grad_output, self):
    t = self.dtype.type
    inner = grad_output * (self / t(3) + t(0.5))
    # PyTorch: 0 for self <= -3, g · (self/3 + 1/2) for -3 < self < 3, g from 3 on
    return np.where(self <= -3, _zero(grad_output), np.where(self < 3, inner, grad_output)).astype(
        grad_output.dtype, copy=False)


def _hardswish_double(xp, g, grad_output, self):
    inside = (self > -3) & (self < 3)
    if xp is NP:
        return np.where(inside, g * grad_output / self.dtype.type(3), _zero(g))
    return xp.where(xp.mask(inside), g * grad_output / 3.0, 0)


HardswishBackward: type[Rule] = fused("hardswish_backward", rule(
    "HardswishBackwardBackward0", _hardswish_backward,
    grad_output=("g · (self / 3 + 1/2) · [−3 < self < 3] + g · [self ≥ 3]",
                 lambda xp, g, self: xp.hardswish_backward(g, self)),
    self=("g · grad_output / 3 · [−3 < self < 3]", _hardswish_double),
    name="HardswishBackward",
    jvp="auto_element_wise",
    words="hardswish's backward as one op: linear in the gradient; curved (1/3) only on (−3, 3)."))

Hardswish: type[Rule] = rule(
    "HardswishBackward0", _hardswish,
    self=("g · (self / 3 + 1/2) · [−3 < self < 3] + g · [self ≥ 3]",
          lambda xp, g, self: xp.hardswish_backward(g, self)),
    jvp="auto_element_wise",
    words="hardswish, x · relu6(x + 3) / 6: slope 0 up to −3, x/3 + 1/2 on (−3, 3), 1 from 3 on.")


def _hardsigmoid(self):
    t = self.dtype.type
    return (np.minimum(np.maximum(self + t(3), t(0)), t(6)) / t(6)).astype(self.dtype, copy=False)


def _hardsigmoid_grad(xp, g, self):
    inside = (self > -3) & (self < 3)
    if xp is NP:
        return np.where(inside, g * g.dtype.type(np.float32(1) / np.float32(6)), _zero(g))
    # PyTorch records NotImplemented here (hardsigmoid_backward has no derivative); this graph is its value
    return xp.where(xp.mask(inside), g * float(np.float32(1) / np.float32(6)), 0)


Hardsigmoid: type[Rule] = rule(
    "HardsigmoidBackward0", _hardsigmoid,
    self=("g / 6 · [−3 < self < 3]", _hardsigmoid_grad),
    jvp="auto_element_wise",
    words="hardsigmoid, relu6(x + 3) / 6: slope 1/6 on (−3, 3), 0 outside.")


# -- mish ----------------------------------------------------------------------------------------------


def _mish(self):
    return (self * fmath.tanh(fmath.log1p(fmath.exp(self)))).astype(self.dtype, copy=False)


def _mish_grad(xp, g, self):
    # PyTorch's infinitely_differentiable_mish_backward (the graph under create_graph is this composite)
    if xp is NP:
        s = 1 / (1 + fmath.exp(-self))
        ts = fmath.tanh(fmath.log1p(fmath.exp(self)))
        return (g * (ts + self * s * (1 - ts * ts))).astype(g.dtype, copy=False)
    s = self.sigmoid()
    ts = self.exp().log1p().tanh()
    return g * (ts + self * s * xp.scalar_sub(1.0, ts * ts))     # C++ `1.0 - t`: SubBackward0


Mish: type[Rule] = rule(
    "MishBackward0", _mish,
    self=("g · (tanh(softplus(self)) + self · sigmoid(self) · (1 − tanh²(softplus(self))))", _mish_grad),
    jvp="auto_element_wise",
    words="Mish, x · tanh(softplus(x)): the product rule, with softplus' = σ.")


# -- softshrink, hardshrink -----------------------------------------------------------------------------


def _outside(self, lambd):
    return ~((self >= -lambd) & (self <= lambd))


def _shrink_backward(grad_output, self, lambd):
    # PyTorch: 0 where -lambd <= self <= lambd, else the gradient (a nan input passes it)
    return np.where(_outside(self, lambd), grad_output, _zero(grad_output))


def _softshrink(self, lambd=0.5):
    t = self.dtype.type
    inside = self * t(0)
    # The sign of the zero inside [-lambd, lambd] is the CPU kernel's: its vector loop (two AVX2 vectors, 64 bytes,
    # per step) blends masks and writes +0; the scalar loop over the remaining tail writes self · 0 (-0 for x < 0).
    flat = inside.reshape(-1)
    block = 64 // self.dtype.itemsize
    flat[: flat.size // block * block] += t(0)
    return np.where(self > lambd, self - t(lambd), np.where(self < -lambd, self + t(lambd), inside)).astype(
        self.dtype, copy=False)


def _hardshrink(self, lambd=0.5):
    return np.where(_outside(self, lambd), self, _zero(self))


SoftshrinkBackward: type[Rule] = fused("softshrink_backward", rule(
    "SoftshrinkBackwardBackward0", _shrink_backward,
    grad_output=("g · [|self| > lambd]", lambda xp, g, self, lambd: xp.softshrink_backward(g, self, lambd)),
    self=("0", lambda xp, g: xp.zeros_like(g)),
    name="SoftshrinkBackward",
    jvp="auto_element_wise",
    words="softshrink's backward as one op: the gradient where |x| > λ, flat in the saved input."))

Softshrink: type[Rule] = rule(
    "SoftshrinkBackward0", _softshrink,
    self=("g · [|self| > lambd]", lambda xp, g, self, lambd: xp.softshrink_backward(g, self, lambd)),
    jvp="auto_element_wise",
    words="softshrink moves x towards 0 by λ (0 inside [−λ, λ]): slope 1 outside, 0 inside.")

HardshrinkBackward: type[Rule] = fused("hardshrink_backward", rule(
    "HardshrinkBackwardBackward0", lambda grad_out, self, lambd: _shrink_backward(grad_out, self, lambd),
    grad_out=("g · [|self| > lambd]", lambda xp, g, self, lambd: xp.hardshrink_backward(g, self, lambd)),
    self=("0", lambda xp, g: xp.zeros_like(g)),
    name="HardshrinkBackward",
    jvp="auto_element_wise",
    words="hardshrink's backward as one op: the gradient where |x| > λ, flat in the saved input."))

Hardshrink: type[Rule] = rule(
    "HardshrinkBackward0", _hardshrink,
    self=("g · [|self| > lambd]", lambda xp, g, self, lambd: xp.hardshrink_backward(g, self, lambd)),
    jvp="auto_element_wise",
    words="hardshrink keeps x where |x| > λ and zeroes it inside: slope 1 outside, 0 inside.")


# -- glu -----------------------------------------------------------------------------------------------


def _halves(a, dim):
    n = a.shape[dim] // 2
    return np.split(a, [n], axis=dim)


def _sig(a):
    return (1 / (1 + fmath.exp(-a))).astype(a.dtype, copy=False)


def _glu(self, dim=-1):
    a, b = _halves(self, dim)
    return (a * _sig(b)).astype(self.dtype, copy=False)


def _glu_backward(grad_output, self, dim):
    a, b = _halves(self, dim)
    s = _sig(b)
    return np.concatenate([grad_output * s, grad_output * a * s * (1 - s)], axis=dim).astype(
        grad_output.dtype, copy=False)


def _tensor_halves(t, dim):
    return t.split(t.shape[dim] // 2, dim)


def _glu_double_grad_output(xp, g, self, dim):
    """d(glu_backward)/d grad_output, applied to g: g_a · σ(b) + g_b · a · σ(b)(1 − σ(b))."""
    if xp is NP:
        a, b = _halves(self, dim)
        ga, gb = _halves(g, dim)
        s = _sig(b)
        return ga * s + gb * a * s * (1 - s)
    a, b = _tensor_halves(self, dim)
    ga, gb = _tensor_halves(g, dim)
    s = b.sigmoid()
    return ga * s + gb * a * s * (1 - s)


def _glu_double_self(xp, g, grad_output, self, dim):
    """d(glu_backward)/d self, applied to g (PyTorch's glu_double_backward)."""
    if xp is NP:
        a, b = _halves(self, dim)
        ga, gb = _halves(g, dim)
        s = _sig(b)
        ds = s * (1 - s)
        return np.concatenate([gb * grad_output * ds,
                               ga * grad_output * ds + gb * grad_output * a * ds * (1 - 2 * s)], axis=dim)
    from .._creation import cat  # circular: _creation builds on the ops
    a, b = _tensor_halves(self, dim)
    ga, gb = _tensor_halves(g, dim)
    s = b.sigmoid()
    ds = s * (1 - s)
    return cat([gb * grad_output * ds, ga * grad_output * ds + gb * grad_output * a * ds * (1 - 2 * s)], dim)


GluBackward: type[Rule] = fused("glu_backward", rule(
    "GluBackwardBackward0", _glu_backward,
    grad_output=("g_a · σ(b) + g_b · a · σ(b) · (1 − σ(b))  (a, b = the halves of self)", _glu_double_grad_output),
    self=("d(glu's backward)/d self · g", _glu_double_self),
    name="GluBackward",
    jvp="from_vjp",
    words="glu's backward as one op: linear in the gradient, curved through σ(b)."))

Glu: type[Rule] = rule(
    "GluBackward0", _glu,
    self=("cat(g · σ(b), g · a · σ(b) · (1 − σ(b)))  (a, b = the halves of self along dim)",
          lambda xp, g, self, dim: xp.glu_backward(g, self, dim)),
    jvp="from_vjp",
    words="GLU, a · σ(b) for the two halves of x: a gets g σ(b), b gets g a σ'(b).")


# -- prelu ---------------------------------------------------------------------------------------------


def _prelu(self, weight):
    return np.where(self > 0, self, weight * self).astype(self.dtype, copy=False)


def _prelu_self_grad(xp, g, self, weight):
    if xp is NP:
        return np.where(self > 0, g, weight * g)
    return xp.where(xp.mask(self._data > 0), g, weight * g)


def _prelu_weight_grad(xp, g, self, weight):
    if xp is NP:
        return np.where(self > 0, _zero(g), self * g)
    return xp.where(xp.mask(self._data > 0), 0, self * g)


PreluKernel: type[Rule] = rule(
    "PreluKernelBackward0", _prelu,
    self=("g · [self > 0] + weight · g · [self ≤ 0]", _prelu_self_grad),
    weight=("sum(self · g · [self ≤ 0])  (to weight's shape)", _prelu_weight_grad),
    jvp="from_vjp",
    words="PReLU, a leaky ReLU whose slope is learned: the slope's gradient is Σ x · g where x ≤ 0.")


# -- rrelu ----------------------------------------------------------------------------------------------


def _rrelu(self, noise, lower, upper, training):
    if training:
        return (self * noise).astype(self.dtype, copy=False)
    slope = self.dtype.type((lower + upper) / 2)
    return np.where(self > 0, self, self * slope)


def _rrelu_backward(grad_output, self, noise, lower, upper, training):
    # PyTorch's rrelu_with_noise_backward: g · noise in training (noise is 1 where x > 0), else leaky_relu's
    if training:
        return (grad_output * noise).astype(grad_output.dtype, copy=False)
    slope = grad_output.dtype.type((lower + upper) / 2)
    return np.where(self > 0, grad_output, grad_output * slope)


def _rrelu_grad(xp, g, self, noise, lower, upper, training):
    return xp.rrelu_with_noise_backward(g, self, noise, lower, upper, training)


RreluWithNoiseBackward: type[Rule] = fused("rrelu_with_noise_backward", rule(
    "RreluWithNoiseBackwardBackward0", _rrelu_backward,
    grad_output=("g · noise  (training);  g · [self > 0] + (lower + upper)/2 · g · [self ≤ 0]  (eval)", _rrelu_grad),
    self=("0", lambda xp, g: xp.zeros_like(g)),
    name="RreluWithNoiseBackward",
    jvp="auto_element_wise",
    words="rrelu's backward as one op: linear in the gradient, flat in the saved input."))


RreluWithNoise: type[Rule] = rule(
    "RreluWithNoiseBackward0", _rrelu,
    self=("g · noise  (training);  g · [self > 0] + (lower + upper)/2 · g · [self ≤ 0]  (eval)", _rrelu_grad),
    jvp="from_vjp",
    words="RReLU: a leaky ReLU with a random slope in [lower, upper] per element (its mean in eval).")


RreluWithNoise._layout = staticmethod(lambda out, args: contiguous(out))   # PyTorch's out= kernel: row-major


class RreluWithNoiseInplace(RreluWithNoise):
    """``rrelu_`` (in place): the same derivative, PyTorch's node name for the in-place form."""

    node_name: str = "RreluWithNoiseBackward1"


# -- xlogy (kl_div's x · log x) -------------------------------------------------------------------------


def _xlogy(self, other):
    with np.errstate(all="ignore"):
        out = self * fmath.log(other)
    return np.where((self == 0) & ~np.isnan(other), np.zeros((), out.dtype), out).astype(
        np.result_type(self, other), copy=False)


def _xlogy_self(xp, g, self, other):
    # derivatives.yaml: at::xlogy(grad, other).masked_fill((self == 0.) & (other <= 0.), 0.)
    if xp is NP:
        return np.where((self == 0) & (other <= 0), _zero(g), _xlogy(g, other))
    mask = (self._data == 0) & (other._data <= 0)
    return Xlogy.apply(g, other).masked_fill(xp.const(mask), 0.0)


Xlogy: type[Rule] = rule(
    "XlogyBackward0", _xlogy,
    self=("xlogy(g, other), 0 where self = 0 and other ≤ 0", _xlogy_self),
    other=("g · self / other", lambda xp, g, self, other: g * self / other),
    jvp="from_vjp",
    words="x · log y, defined as 0 where x = 0: x gets g · log y, y gets g · x / y.")


# -- the derivative table's rows for the in-place classes (see ops/formulas.py) ---------------------------
from .formulas import row as _row  # noqa: E402

_row(EluInplace, ("self",),
     ("g · scale · [self > 0] + g · input_scale · alpha · scale · exp(input_scale · self) · [self ≤ 0]",),
     "In-place ELU (elu_, selu_): the same derivative, PyTorch's node name for the in-place form.")
_row(CeluInplace, ("self",), ("g · [self > 0] + g · exp(self / alpha) · [self ≤ 0]",),
     "In-place CELU: the same derivative, PyTorch's node name for the in-place form.")
_row(RreluWithNoiseInplace, ("self",),
     ("g · noise  (training);  leaky_relu's with slope (lower + upper)/2  (eval)",),
     "In-place RReLU: the same derivative, PyTorch's node name for the in-place form.")
