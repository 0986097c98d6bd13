"""The losses and activations behind ``minigrad.nn.functional``, with PyTorch's node names.

The losses and activations are rows of the derivative table (``rule``, see ``_rules.py``), each
with the fused backward-of-backward row PyTorch records under ``create_graph``
(``MseLossBackwardBackward0``...); embedding, padding, bilinear and the norms stay classes.
``reduction`` is PyTorch's enum: 0 ``'none'``, 1 ``'mean'``, 2 ``'sum'``; the nodes save it as an
int, as PyTorch's do.

Inputs a loss is not differentiable for (class indices, class weights) are passed as
ndarrays, so they get no entry in ``next_functions`` — as in PyTorch, where
``NllLossBackward0`` has a single edge, to the log-probabilities.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _dtype
from .._dtype import get_default_dtype
from .._tensor import Tensor
from ..autograd import grad_mode
from ..autograd.function import Function
from . import elementwise
from ._layout import contiguous, like, pointwise_rules
from ._rules import NP, fused, rule
from ._util import clip, fma, fmath, promoted
from .fused import FusedBackward

NONE, MEAN, SUM = 0, 1, 2


def _reduce(loss, reduction):
    """Apply a loss reduction to an ndarray of per-element losses."""
    if reduction == MEAN:
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = loss.sum() / loss.size if loss.size else np.nan  # an empty mean is nan, without a warning
        return np.asarray(mean, dtype=loss.dtype)
    if reduction == SUM:
        return np.asarray(loss.sum(), dtype=loss.dtype)
    return loss


# -- losses ---------------------------------------------------------------------------------
# The elementwise losses are rows of the derivative table.  PyTorch records their derivative as one
# fused node (``mse_loss_backward`` → ``MseLossBackwardBackward0`` under create_graph): a row of its own,
# bound into ``xp`` by ``fused``.  The target's gradient is the same op with self and target swapped.


def _numel(a):
    return a.size if isinstance(a, (np.ndarray, np.generic)) else a.numel()     # (numpy makes 0-d results scalars)


def _per_element(g, reduction):
    """The ``1 / N`` of a mean reduction, applied to a per-element gradient ``g`` (a division by a number,
    ``DivBackward1``, when recorded)."""
    if reduction != MEAN:
        return g
    if isinstance(g, (np.ndarray, np.generic)):          # (numpy makes 0-d results scalars)
        return g / g.size
    return DivScalar.apply(g, g.numel())


def _mse_loss(self, target, reduction):
    a, b = promoted(self, target)
    return _reduce(np.square(a - b), reduction)


def _mse_loss_backward(grad_output, self, target, reduction):
    d = self - target
    return _per_element(2 * d * grad_output.astype(d.dtype, copy=False), reduction)


MseLossBackward: type[Rule] = fused("mse_loss_backward", rule(
    "MseLossBackwardBackward0", _mse_loss_backward,
    grad_output=("2 · (self − target) · g  (/ N for mean)",
                 lambda xp, g, self, target, reduction: _per_element(xp.mse_loss_backward(g, self, target, SUM),
                                                                     reduction)),
    self=("2 · g · grad_output  (/ N for mean)",
          lambda xp, g, grad_output, reduction: _per_element(2 * (g * grad_output), reduction)),
    target=("−2 · g · grad_output  (/ N for mean)",
            lambda xp, g, grad_output, reduction: _per_element(-2 * (g * grad_output), reduction)),
    name="MseLossBackward",
    jvp="from_vjp",
    words="The squared error's backward, 2 · (self − target) · g, as one op: linear in each input."))

MseLoss: type[Rule] = rule("MseLossBackward0", _mse_loss, arrays=False,
               self=("2 · (self − target) · g  (/ N for mean)",
                     lambda xp, g, self, target, reduction: xp.mse_loss_backward(g, self, target, reduction)),
               target=("−2 · (self − target) · g  (/ N for mean)",
                       lambda xp, g, self, target, reduction: xp.mse_loss_backward(g, target, self, reduction)),
               jvp="from_vjp",
               words="Squared error: the gradient is twice the difference (divided by N for the mean).")


def _smooth_l1_loss(self, target, reduction, beta):
    a, b = promoted(self, target)
    z = np.abs(a - b)
    loss = np.where(z < beta, 0.5 * z * z / beta, z - 0.5 * beta)
    return _reduce(loss.astype(z.dtype, copy=False), reduction)


def _smooth_l1_loss_backward(grad_output, self, target, reduction, beta):
    d = self - target
    return _per_element(np.clip(d, -beta, beta) / beta * grad_output.astype(d.dtype, copy=False), reduction)


def _inside(xp, self, target, width):
    """1 where |self − target| < width (the quadratic part of smooth L1 and Huber), else 0: a constant that the
    double backward MULTIPLIES, as PyTorch's ``grad * (d < delta)`` (an inf gradient outside gives nan, not 0)."""
    a = xp.value(self)
    return xp.const((np.abs(a - xp.value(target)) < width).astype(a.dtype))


SmoothL1LossBackward: type[Rule] = fused("smooth_l1_loss_backward", rule(
    "SmoothL1LossBackwardBackward0", _smooth_l1_loss_backward,
    grad_output=("g · clamp((self − target) / beta, −1, 1)  (/ N for mean)",
                 lambda xp, g, self, target, reduction, beta:
                 xp.smooth_l1_loss_backward(g, self, target, reduction, beta)),
    self=("g · grad_output / beta · [|self − target| < beta]  (/ N for mean)",
          lambda xp, g, grad_output, self, target, reduction, beta:
          _per_element(g * grad_output * _inside(xp, self, target, beta) / beta, reduction)),
    target=("−g · grad_output / beta · [|self − target| < beta]  (/ N for mean)",
            lambda xp, g, grad_output, self, target, reduction, beta:
            -_per_element(g * grad_output * _inside(xp, self, target, beta) / beta, reduction)),
    name="SmoothL1LossBackward",
    jvp="from_vjp",
    words="Smooth L1's backward as one op: its slope is 1/beta inside the quadratic part, exactly 0 outside."))

SmoothL1Loss: type[Rule] = rule(
    "SmoothL1LossBackward0", _smooth_l1_loss, arrays=False,
    self=("g · clamp((self − target) / beta, −1, 1)  (/ N for mean)",
          lambda xp, g, self, target, reduction, beta: xp.smooth_l1_loss_backward(g, self, target, reduction, beta)),
    target=("−g · clamp((self − target) / beta, −1, 1)  (/ N for mean)",
            lambda xp, g, self, target, reduction, beta: xp.smooth_l1_loss_backward(g, target, self, reduction, beta)),
    jvp="from_vjp",
    words="Smooth L1: linear in the difference near 0, ±1 beyond beta.")


def _huber_loss(self, target, reduction, delta):
    a, b = promoted(self, target)
    z = np.abs(a - b)
    loss = np.where(z < delta, 0.5 * z * z, delta * (z - 0.5 * delta))
    return _reduce(loss.astype(self._data.dtype, copy=False), reduction)     # in the input's dtype, as PyTorch


def _huber_loss_backward(grad_output, self, target, reduction, delta):
    if self.dtype != target.dtype:       # PyTorch's huber_loss_backward does not promote
        raise RuntimeError("Found dtype %s but expected %s" % (_dtype.from_numpy_dtype(target.dtype)._legacy,
                                                                _dtype.from_numpy_dtype(self.dtype)._legacy))
    d = self - target
    return _per_element(np.clip(d, -delta, delta) * grad_output.astype(d.dtype, copy=False), reduction)


HuberLossBackward: type[Rule] = fused("huber_loss_backward", rule(
    "HuberLossBackwardBackward0", _huber_loss_backward,
    grad_output=("g · clamp(self − target, −delta, delta)  (/ N for mean)",
                 lambda xp, g, self, target, reduction, delta:
                 xp.huber_loss_backward(g, self, target, reduction, delta)),
    self=("g · grad_output · [|self − target| < delta]  (/ N for mean)",
          lambda xp, g, grad_output, self, target, reduction, delta:
          _per_element(g * grad_output * _inside(xp, self, target, delta), reduction)),
    target=("−g · grad_output · [|self − target| < delta]  (/ N for mean)",
            lambda xp, g, grad_output, self, target, reduction, delta:
            -_per_element(g * grad_output * _inside(xp, self, target, delta), reduction)),
    name="HuberLossBackward",
    jvp="from_vjp",
    words="Huber's backward as one op: slope 1 inside the quadratic part, exactly 0 outside."))

HuberLoss: type[Rule] = rule(
    "HuberLossBackward0", _huber_loss, arrays=False,
    self=("g · clamp(self − target, −delta, delta)  (/ N for mean)",
          lambda xp, g, self, target, reduction, delta: xp.huber_loss_backward(g, self, target, reduction, delta)),
    target=("−g · clamp(self − target, −delta, delta)  (/ N for mean)",
            lambda xp, g, self, target, reduction, delta: xp.huber_loss_backward(g, target, self, reduction, delta)),
    jvp="from_vjp",
    words="Huber: the difference itself near 0, ±delta beyond.")


def _target_slots(index, ndim):
    """Where each sample's target sits in the input: ``t`` (1-D), ``(n, t[n])`` (2-D), ``(n, t[n,h,w], h, w)``."""
    if ndim == 1:
        return index
    if ndim == 2:
        return np.arange(len(index)), index
    grids = [np.arange(n).reshape([-1 if d == i else 1 for d in range(index.ndim)]) for i, n in enumerate(index.shape)]
    return (grids[0], index, *grids[1:])


def _unsqueeze(a, dim):
    """``a`` with a new axis of size 1 at ``dim`` (a cheaper ``np.expand_dims``)."""
    return a.reshape((*a.shape[:dim], 1, *a.shape[dim:]))


def _data(a):
    return a._data if isinstance(a, Tensor) else a


def _samples(shape, dtype, target, weight, ignore_index):
    """Where each sample's target sits, each sample's weight (0 if ignored; None: all 1) and the total weight."""
    dim = 0 if len(shape) == 1 else 1
    if ignore_index < 0 and (target.size == 0 or target.min() >= 0):
        valid, index = None, target                    # the common case: no target can be ignored
    else:
        valid = target != ignore_index
        index = np.where(valid, target, 0)
    if index.size and (index.max() >= shape[dim] or (valid is not None and index.min() < 0)):
        bad = target[(index < 0) | (index >= shape[dim])]
        raise IndexError("Target %d is out of bounds." % bad.flat[0])
    if weight is not None:
        w = weight.astype(dtype)[index] if valid is None else weight.astype(dtype)[index] * valid
    else:
        w = None if valid is None else valid.astype(dtype)
    total = np.asarray(index.size if w is None else w.sum(dtype=dtype), dtype=dtype)
    return _target_slots(index, len(shape)), w, total


def _total_weight(self, target, weight, ignore_index):
    """The summed weight of the samples that count (their number without weights or ignored targets)."""
    if weight is None and ignore_index < 0 and (target.size == 0 or target.min() >= 0):
        return _const(np.asarray(target.size, dtype=self.dtype))
    return _const(_samples(self.shape, self.dtype, target, weight, ignore_index)[2])


def _nll_loss(self, target, weight, reduction, ignore_index):
    """``-w[t] · x[t]`` per sample; ``target`` and ``weight`` are arrays (no graph edge, as in PyTorch)."""
    key, w, total = _samples(self.shape, self.dtype, target, weight, ignore_index)
    picked = self[key]                                   # x[t] of each sample
    losses = -picked if w is None else -w * picked
    if w is not None and (ignore_index >= 0 or (target.size and target.min() < 0)):
        losses = np.where(target != ignore_index, losses, np.zeros((), losses.dtype))  # ignored: 0 (not -0, nan)
    if reduction == MEAN:      # 0/0 (every target ignored) is nan, as in PyTorch
        return np.asarray(losses.sum() / total if total else np.nan, dtype=self.dtype)
    return _reduce(losses, reduction)


def _nll_loss_backward(grad_output, self, target, weight, reduction, ignore_index, total_weight):
    """−w[t] · grad_output (÷ total weight for mean) written at each counted sample's target slot, exactly 0
    elsewhere (as PyTorch's kernel writes it: an inf grad_output gives no nan at the other slots)."""
    target = _data(target)
    key, w, _ = _samples(self.shape, self.dtype, target, _data(weight), ignore_index)
    g = -grad_output / _data(total_weight) if reduction == MEAN else -grad_output
    values = np.broadcast_to(g if w is None else w * g, target.shape)
    if w is not None and (ignore_index >= 0 or (target.size and target.min() < 0)):
        values = np.where(target != ignore_index, values, np.zeros((), values.dtype))     # ignored: not written
    slots = np.zeros(self.shape, self.dtype)
    slots[key] = values
    return slots


def _nll_loss_rows(node_name, backward_name, fused_name, words):
    """An nll_loss rule and its fused backward (``NllLossBackwardBackward0``): that backward is linear in
    grad_output, and its own gradient is the loss itself applied to the incoming gradient."""
    def grad_output_grad(xp, g, target, weight, reduction, ignore_index):
        args = (_data(target), _data(weight), reduction, ignore_index)
        return loss._fn(g, *args) if xp is NP else loss.apply(g, *args)

    fused(fused_name, rule(
        backward_name, _nll_loss_backward, name=backward_name.replace("BackwardBackward0", "Backward"),
        values={"target": lambda target: _const(target), "weight": lambda weight: _optional_const(weight)},
        grad_output=("nll_loss(g, target, weight, reduction, ignore_index)", grad_output_grad),
        self=("0", lambda xp, g: xp.zeros_like(g)),
        jvp="from_vjp",
        words="nll_loss's backward as one op: −weight at each target slot times grad_output; its own gradient "
              "is nll_loss applied to the incoming gradient."))
    loss = rule(
        node_name, _nll_loss,
        values={"target": lambda target: _const(target), "weight": lambda weight: _optional_const(weight),
                "total_weight": _total_weight},
        self=("−g · weight[target] at target (/ total_weight for mean), 0 elsewhere",
              lambda xp, g, self, target, weight, reduction, ignore_index, total_weight:
              getattr(xp, fused_name)(g, self, _data(target), _data(weight), reduction, ignore_index,
                                      _data(total_weight))),
        jvp="from_vjp",
        words=words)
    return loss


NllLoss = _nll_loss_rows(
    "NllLossBackward0", "NllLossBackwardBackward0", "nll_loss_backward",
    "Negative log-likelihood: only the target class's log-probability gets a gradient, −weight.")
NllLoss2d = _nll_loss_rows(
    "NllLoss2DBackward0", "NllLoss2DBackwardBackward0", "nll_loss2d_backward",
    "Negative log-likelihood per pixel (input (N, C, H, W)): only the target class gets a gradient.")


def _bce(self, target, weight, reduction):
    a, t = self._data, target._data
    if not ((a >= 0) & (a <= 1)).all():
        raise RuntimeError("all elements of input should be between 0 and 1")
    loss = (t - 1) * np.maximum(fmath.log1p(-a), -100) - t * np.maximum(fmath.log(a), -100)
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


def _weight(xp, weight):
    """A loss's constant weight (saved as a tensor, as PyTorch shows it): its array in a plain backward."""
    return weight._data if xp is NP and weight is not None else weight


def _times(g, w):
    return g if w is None else g * w


def _bce_backward(grad_output, self, target, weight, reduction):
    g = grad_output * (self - target) / np.maximum((1 - self) * self, 1e-12)
    return _per_element(_times(g, weight), reduction)


def _bce_grad_self(xp, g, grad_output, self, target, weight, reduction):
    """PyTorch's binary_cross_entropy_double_backward."""
    gI = (self * self - 2 * self * target + target) / (xp.pow(self + 1e-12, 2) * xp.pow(1 - self + 1e-12, 2))
    return _per_element(_times(gI * (g * grad_output), _weight(xp, weight)), reduction)


def _bce_grad_target(xp, g, grad_output, self, weight, reduction):
    """PyTorch's binary_cross_entropy_double_backward_target."""
    denom = xp.clamp_min((1 - self) * self, 1e-12)
    return _per_element(_times(-g * grad_output, _weight(xp, weight)) / denom, reduction)


def _bce_grad_grad_output(xp, g, self, target, weight, reduction):
    """PyTorch's binary_cross_entropy_double_backward_grad_output (summed to grad_output's shape by the node)."""
    ggO = (self - target) / xp.clamp_min((1 - self) * self, 1e-12) * g
    return _per_element(_times(ggO, _weight(xp, weight)), reduction)


BinaryCrossEntropyBackward: type[Rule] = fused("binary_cross_entropy_backward", rule(
    "BinaryCrossEntropyBackwardBackward0", _bce_backward, values={"weight": lambda weight: _optional_const(weight)},
    grad_output=("g · weight · (self − target) / max(self · (1 − self), ε)  (/ N for mean)", _bce_grad_grad_output),
    self=("g · grad_output · weight · (self² − 2 · self · target + target) / (self² · (1 − self)²)  (/ N for mean)",
          _bce_grad_self),
    target=("−g · grad_output · weight / max(self · (1 − self), ε)  (/ N for mean)", _bce_grad_target),
    name="BinaryCrossEntropyBackward",
    jvp="from_vjp",
    words="Binary cross-entropy's backward, g · (p − t) / (p (1 − p)), as one op (create_graph)."))


def _bce_target_grad(xp, g, self, weight, reduction):
    return _per_element(_times((xp.log(1 - self) - xp.log(self)) * g, _weight(xp, weight)), reduction)


BinaryCrossEntropy: type[Rule] = rule(
    "BinaryCrossEntropyBackward0", _bce, arrays=False, values={"weight": lambda weight: _optional_const(weight)},
    self=("g · weight · (self − target) / (self · (1 − self))  (/ N for mean)",
          lambda xp, g, self, target, weight, reduction:
          xp.binary_cross_entropy_backward(g, self, target, _data(weight), reduction)),
    target=("g · weight · (ln(1 − self) − ln(self))  (/ N for mean)", _bce_target_grad),
    jvp="from_vjp",
    words="Binary cross-entropy on probabilities: (p − t) / (p (1 − p)).")


def _const(array, like=None):
    """A constant tensor (no gradient) holding ``array`` (cast to ``like``'s dtype if given)."""
    if like is not None and array.dtype != like._data.dtype:
        array = array.astype(like._data.dtype)
    return Tensor._make(np.asarray(array))


def _optional_const(array):
    return None if array is None else _const(array)


# -- activations --------------------------------------------------------------------------------


# Each activation is a row of the derivative table (see ops/_rules.py).  Where PyTorch records one fused
# node for the derivative (``elu_backward`` → ``EluBackwardBackward0`` under create_graph), that derivative
# is a row of its own, bound into ``xp`` by ``fused``.

def _leaky_relu_backward(grad_output, self, negative_slope):
    return np.where(self > 0, grad_output, grad_output * grad_output.dtype.type(negative_slope))


LeakyReluBackward: type[Rule] = fused("leaky_relu_backward", rule(
    "LeakyReluBackwardBackward0", _leaky_relu_backward,
    grad_output=("g · [self > 0] + negative_slope · g · [self ≤ 0]",
                 lambda xp, g, self, negative_slope: xp.leaky_relu_backward(g, self, negative_slope)),
    self=("0", lambda xp, g: xp.zeros_like(g)),
    name="LeakyReluBackward",
    jvp="auto_element_wise",
    words="leaky_relu's backward as one op: linear in the gradient, flat in the saved input."))


def _leaky_relu(self, negative_slope):
    return np.where(self > 0, self, self * self.dtype.type(negative_slope))


LeakyRelu: type[Rule] = rule(
    "LeakyReluBackward0", _leaky_relu,
    self=("g · [self > 0] + negative_slope · g · [self ≤ 0]",
          lambda xp, g, self, negative_slope: xp.leaky_relu_backward(g, self, negative_slope)),
    jvp="auto_element_wise",
    words="Leaky ReLU: the gradient passes where x > 0 and is scaled by the slope elsewhere.")


class LeakyReluInplace(LeakyRelu):
    """``leaky_relu_`` (in place): the same derivative, PyTorch's node name for the in-place form."""

    node_name: str = "LeakyReluBackward1"


def _threshold(self, threshold, value):
    # `self <= threshold`, as PyTorch compares: a nan input is kept (and its gradient passes)
    return np.where(self <= threshold, self.dtype.type(value), self)


Threshold: type[Rule] = rule(
    "ThresholdBackward0", _threshold,
    self=("g · [self > threshold]", lambda xp, g, self, threshold: xp.threshold_backward(g, self, threshold)),
    jvp="auto_element_wise",
    words="threshold replaces x ≤ threshold by a constant: the gradient passes where x > threshold, else 0.")


class ThresholdInplace(Threshold):
    """``threshold_`` (in place): the same derivative, PyTorch's node name for the in-place form."""

    node_name: str = "ThresholdBackward1"


def _hardtanh_backward(grad_output, self, min_val, max_val):
    # PyTorch masks `self <= min_val or self >= max_val`: where self is nan the gradient passes
    return np.where((self <= min_val) | (self >= max_val), np.zeros((), grad_output.dtype), grad_output)


HardtanhBackward: type[Rule] = fused("hardtanh_backward", rule(
    "HardtanhBackwardBackward0", _hardtanh_backward,
    grad_output=("g · [min_val < self < max_val]",
                 lambda xp, g, self, min_val, max_val: xp.hardtanh_backward(g, self, min_val, max_val)),
    self=("0", lambda xp, g: xp.zeros_like(g)),
    name="HardtanhBackward",
    jvp="auto_element_wise",
    words="hardtanh's backward as one op: the gradient strictly inside (min_val, max_val), else exactly 0."))

Hardtanh: type[Rule] = rule(
    "HardtanhBackward0", lambda self, min_val, max_val: clip(self, min_val, max_val),
    self=("g · [min_val < self < max_val]",
          lambda xp, g, self, min_val, max_val: xp.hardtanh_backward(g, self, min_val, max_val)),
    jvp="auto_element_wise",
    words="hardtanh passes the gradient strictly inside (min_val, max_val), else exactly 0.")


def _gelu(self, approximate):
    a = self
    if approximate == "tanh":
        return (0.5 * a * (1 + fmath.tanh(_SQRT_2_OVER_PI * (a + _KAPPA * a * a * a)))).astype(a.dtype, copy=False)
    # erf rounded to a's dtype first, as PyTorch computes it: gelu(-5.8) in float32 is 1 + erf = 1 - 1 = 0, so -0.
    out = (a * 0.5 * (1 + _erf(a * math.sqrt(0.5)).astype(a.dtype, copy=False))).astype(a.dtype, copy=False)
    if a.dtype == np.float32 and a.size > 1 and a.flags.c_contiguous:
        # PyTorch hands a contiguous float32 tensor of more than one element to oneDNN's gelu_erf, which
        # computes 0.5x + 0.5x · erf(x/√2) in one fused step: every zero it returns is +0 (-0 + +0),
        # gelu(-0.) and gelu(-10.) included; other layouts (and one element) keep -0. as the formula above.
        out[out == 0] = 0
    return out


def _gelu_backward(grad_output, self, approximate):
    x = self
    if approximate == "tanh":
        t = fmath.tanh((x + x * x * x * _KAPPA) * _SQRT_2_OVER_PI)
        slope = 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * _SQRT_2_OVER_PI * (1 + 3 * _KAPPA * x * x)
    else:
        slope = 0.5 * (1 + _erf(x * math.sqrt(0.5)).astype(x.dtype, copy=False)) + \
            x * fmath.exp(x * x * -0.5) * (1 / math.sqrt(2 * math.pi))
    return (grad_output * slope).astype(grad_output.dtype, copy=False)


def _gelu_double(xp, g, grad_output, self, approximate):
    """d/dx of gelu's slope, times g · grad_output (PyTorch's gelu_double_backward)."""
    x = self
    if approximate == "tanh":
        inner = (x + x * x * x * _KAPPA) * _SQRT_2_OVER_PI
        t = xp.tanh(inner)
        du = _SQRT_2_OVER_PI * (1 + 3 * _KAPPA * x * x)
        curve = (1 - t * t) * du + 0.5 * x * (1 - t * t) * (6 * _SQRT_2_OVER_PI * _KAPPA * x - 2 * t * du * du)
    else:
        curve = xp.exp(x * x * -0.5) * (1 / math.sqrt(2 * math.pi)) * (2 - x * x)
    return g * grad_output * curve


GeluBackward: type[Rule] = fused("gelu_backward", rule(
    "GeluBackwardBackward0", _gelu_backward,
    grad_output=("g · (Φ(self) + self · φ(self))",
                 lambda xp, g, self, approximate: xp.gelu_backward(g, self, approximate)),
    self=("g · grad_output · φ(self) · (2 − self²)", _gelu_double),
    name="GeluBackward",
    jvp="auto_element_wise",
    words="GELU's backward as one op: linear in the gradient; its curvature φ(x)(2 − x²) for the input."))

Gelu: type[Rule] = rule(
    "GeluBackward0", _gelu,
    self=("g · (Φ(self) + self · φ(self))", lambda xp, g, self, approximate: xp.gelu_backward(g, self, approximate)),
    jvp="auto_element_wise",
    words="GELU, x Φ(x): the slope is Φ(x) + x φ(x), Φ and φ the normal CDF and density.")


def _erf_forward(self):
    a = self if self.dtype.kind == "f" else self.astype(get_default_dtype().numpy)
    return _erf(a).astype(a.dtype, copy=False)


Erf: type[Rule] = rule("ErfBackward0", _erf_forward,
           self=("g · 2/√π · exp(−self²)",
                 lambda xp, g, self: xp.mul_scalar(xp.exp(-xp.pow(self, 2)), 2.0 / math.sqrt(math.pi)) * g),
           jvp="auto_element_wise",
           words="The slope of erf is 2/√π · e^(−x²), the normal density's shape.")


def _log_sigmoid_backward(grad_output, self):
    return grad_output * _sigmoid(-self)


LogSigmoidBackward: type[Rule] = fused("log_sigmoid_backward", rule(
    "LogSigmoidBackwardBackward0", _log_sigmoid_backward,
    grad_output=("g · sigmoid(−self)", lambda xp, g, self: xp.log_sigmoid_backward(g, self)),
    self=("−g · grad_output · sigmoid(self) · sigmoid(−self)",
          lambda xp, g, grad_output, self: -g * grad_output * xp.sigmoid(self) * xp.sigmoid(-self)),
    name="LogSigmoidBackward",
    jvp="auto_element_wise",
    words="log_sigmoid's backward as one op: its curvature is −σ(x) σ(−x)."))

LogSigmoid: type[Rule] = rule("LogSigmoidBackward0", lambda self: _log_sigmoid(self),
                  self=("g · sigmoid(−self)", lambda xp, g, self: xp.log_sigmoid_backward(g, self)),
                  jvp="auto_element_wise",
                  words="log σ(x): the slope is σ(−x), near 1 for very negative x and 0 for large x.")


def _log_sigmoid(a):
    return (np.minimum(a, 0) - fmath.log1p(fmath.exp(-np.abs(a)))).astype(a.dtype, copy=False)


def _sigmoid(a):
    return (1 / (1 + fmath.exp(-a))).astype(a.dtype, copy=False)


def _silu_grad(xp, g, self):
    s = xp.sigmoid(self)
    return g * s * xp.add_scalar(self * xp.scalar_sub(1, s), 1)       # infinitely_differentiable_silu_backward


Silu: type[Rule] = rule("SiluBackward0", lambda self: (self / (1 + fmath.exp(-self))).astype(self.dtype, copy=False),
            self=("g · sigmoid(self) · (1 + self · (1 − sigmoid(self)))", _silu_grad),
            jvp="auto_element_wise",
            words="SiLU, x σ(x): the product rule with σ' = σ(1 − σ).")


def _elu(self, alpha, scale=1.0, input_scale=1.0):
    # PyTorch's elu (selu and celu too): scale · x for x > 0, alpha · scale · (e^(input_scale · x) − 1) else
    neg = fmath.expm1(clip(self, None, 0) * self.dtype.type(input_scale)) * self.dtype.type(alpha * scale)
    pos = self if scale == 1 else self * self.dtype.type(scale)
    return np.where(self > 0, pos, neg).astype(self.dtype, copy=False)


def _elu_backward(grad_output, self_or_result, alpha, scale=1.0, input_scale=1.0):
    # exp(min(x, 0)): never overflows, so the positive side is exactly g (elu at 100 has slope 1, not nan)
    # (PyTorch masks `self <= 0`: at a nan input the gradient passes)
    self, t = self_or_result, grad_output.dtype.type    # PyTorch's name: elu_backward takes x or elu(x)
    neg = grad_output * t(input_scale * alpha * scale) * fmath.exp(clip(self, None, 0) * t(input_scale))
    return np.where(self <= 0, neg, grad_output if scale == 1 else grad_output * t(scale))


def _elu_double_backward(xp, g, grad_output, self_or_result, alpha, scale, input_scale):
    """PyTorch's elu_double_backward: ``elu_backward(g · grad_output · input_scale, self) · (self < 0)`` -- a
    PRODUCT with the mask, so an inf or nan ``g · grad_output`` at x ≥ 0 gives nan there, not 0."""
    a = xp.value(self_or_result)
    return (xp.elu_backward(g * grad_output * input_scale, self_or_result, alpha, scale, input_scale)
            * xp.const((a < 0).astype(a.dtype)))


EluBackward: type[Rule] = fused("elu_backward", rule(
    "EluBackwardBackward0", _elu_backward,
    grad_output=("g · scale · [self_or_result > 0] + g · input_scale · alpha · scale · exp(input_scale · "
                 "self_or_result) · [self_or_result ≤ 0]",
                 lambda xp, g, self_or_result, alpha, scale, input_scale:
                 xp.elu_backward(g, self_or_result, alpha, scale, input_scale)),
    self_or_result=("g · grad_output · alpha · scale · input_scale² · exp(input_scale · self_or_result) · "
                    "[self_or_result < 0]",
                    lambda xp, g, grad_output, self_or_result, alpha, scale, input_scale:
                    _elu_double_backward(xp, g, grad_output, self_or_result, alpha, scale, input_scale)),
    name="EluBackward",
    jvp="auto_element_wise",
    words="ELU's backward as one op: linear in the gradient; curved (α eˣ) only for x ≤ 0."))

Elu: type[Rule] = rule("EluBackward0", _elu,
           self=("g · scale · [self > 0] + g · input_scale · alpha · scale · exp(input_scale · self) · [self ≤ 0]",
                 lambda xp, g, self, alpha, scale, input_scale: xp.elu_backward(g, self, alpha, scale, input_scale)),
           jvp="auto_element_wise",
           words="ELU: slope 1 for x > 0, α eˣ elsewhere (never nan: eˣ is taken of min(x, 0)); "
                 "selu and celu are the same node with a scale and an input scale.")


def _softplus(self, beta, threshold):
    a = self
    return np.where(a * beta > threshold, a, fmath.logaddexp(0, a * beta) / beta).astype(a.dtype, copy=False)


def _softplus_backward(grad_output, self, beta, threshold):
    z = self * beta
    return np.where(z > threshold, grad_output, grad_output * _sigmoid(z))


SoftplusBackward: type[Rule] = fused("softplus_backward", rule(
    "SoftplusBackwardBackward0", _softplus_backward,
    grad_output=("g · sigmoid(beta · self)  (g where beta · self > threshold)",
                 lambda xp, g, self, beta, threshold: xp.softplus_backward(g, self, beta, threshold)),
    self=("g · grad_output · beta · sigmoid(beta · self) · (1 − sigmoid(beta · self))",
          lambda xp, g, grad_output, self, beta, threshold:
          xp.where(xp.mask(self * beta > threshold), 0,
                   g * grad_output * beta * xp.sigmoid(self * beta) * (1 - xp.sigmoid(self * beta)))),
    name="SoftplusBackward",
    jvp="auto_element_wise",
    words="softplus's backward as one op: its curvature is β σ'(βx), 0 past the threshold."))

Softplus: type[Rule] = rule("SoftplusBackward0", _softplus,
                self=("g · sigmoid(beta · self)  (g where beta · self > threshold)",
                      lambda xp, g, self, beta, threshold: xp.softplus_backward(g, self, beta, threshold)),
                jvp="auto_element_wise",
                words="Softplus: the slope is σ(βx), exactly 1 past the threshold.")


# -- lookups, padding and products --------------------------------------------------------------


class Embedding(Function):
    """Rows ``weight[indices]``.  Backward: each row's grad added into the row it came from.

    ``padding_idx`` rows get no gradient; ``scale_grad_by_freq`` divides a row's gradient by
    how often its index occurs in the batch.
    """

    node_name: str = "EmbeddingBackward0"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("indices", "padding_idx", "scale_grad_by_freq", "sparse", "weight_sym_argsize_0")

    @staticmethod
    def forward(ctx: Any, weight: Tensor | None, indices: Tensor, padding_idx: Any, scale_grad_by_freq: Any) -> Any:
        if indices.size and (indices.min() < 0 or indices.max() >= weight.shape[0]):
            raise IndexError("index out of range in self")
        ctx.indices, ctx.padding_idx, ctx.scale_grad_by_freq = indices, padding_idx, scale_grad_by_freq
        ctx.sparse, ctx.weight_sym_argsize_0 = False, weight.shape[0]
        return weight._data[indices]

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return EmbeddingDenseBackward.apply(grad, ctx.indices, ctx.weight_sym_argsize_0, ctx.padding_idx,
                                            ctx.scale_grad_by_freq), None, None, None


class EmbeddingDenseBackward(Function):
    """``embedding_dense_backward``: zeros of the weight's shape with each row of ``grad`` added into the row its
    index names (padding rows left 0, divided by the index's count with ``scale_grad_by_freq``).

    Backward (PyTorch's ``embedding_dense_double_backward``): the rows read back, padding rows 0 -- not scaled.
    """

    node_name: str = "EmbeddingDenseBackwardBackward0"
    jvp = "auto_linear"
    saved_attrs: tuple[str, ...] = ("indices", "padding_idx")

    @staticmethod
    def forward(ctx: Any, grad: Tensor, indices: Any, num_weights: int, padding_idx: Any, scale_by_freq: Any) -> Any:
        ctx.indices, ctx.padding_idx = indices, -1 if padding_idx is None else padding_idx
        rows = grad._data.reshape(indices.size, int(np.prod(grad.shape[indices.ndim :], dtype=np.int64)))
        flat = indices.reshape(-1)
        scale = np.ones(flat.shape, dtype=rows.dtype)
        if padding_idx is not None:
            scale[flat == padding_idx] = 0
        if scale_by_freq:
            scale = scale / np.bincount(flat, minlength=num_weights)[flat]
        out = np.zeros((num_weights, rows.shape[1]), dtype=rows.dtype)
        np.add.at(out, flat, rows * scale[:, None])
        return out.reshape((num_weights, *grad.shape[indices.ndim :]))

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        flat = ctx.indices.reshape(-1)
        rows = grad.index_select(0, Tensor._make(flat))
        if ctx.padding_idx >= 0:
            rows = rows.masked_fill(Tensor._make((flat == ctx.padding_idx).reshape(-1, 1)), 0)
        return rows.view(*ctx.indices.shape, -1), None, None, None, None


class ConstantPadNd(Function):
    """Pad with a constant; ``pad`` lists (before, after) pairs from the last dim backwards.

    Backward: the grad of the un-padded region (negative pads crop, and their grad is 0-padded).
    """

    node_name: str = "ConstantPadNdBackward0"
    saved_attrs: tuple[str, ...] = ("pad",)

    @staticmethod
    def forward(ctx: Any, x: Tensor, pad: Any, value: Any) -> Any:
        ctx.pad = tuple(pad)
        widths = _pad_widths(pad, x.ndim)
        a = x._data[tuple(slice(max(-lo, 0), s - max(-hi, 0)) for (lo, hi), s in zip(widths, x.shape))]
        if all(lo <= 0 and hi <= 0 for lo, hi in widths):     # PyTorch: narrow, then clone (the input's layout)
            return like(a.copy(), a)
        return contiguous(np.pad(a, [(max(lo, 0), max(hi, 0)) for lo, hi in widths], constant_values=value))

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        return ConstantPadNd.apply(grad, tuple(-p for p in ctx.pad), 0), None, None

    @staticmethod
    def jvp(ctx: Any, t: Any, _pad: Any, _value: Any) -> Any:
        return ConstantPadNd.apply(t, ctx.pad, 0)                # the padding is constant


def _pad_widths(pad, ndim):
    """``F.pad``'s flat (last dim first) list as one (before, after) pair per dim."""
    if len(pad) % 2 or len(pad) // 2 > ndim:
        raise RuntimeError(
            "Padding length must be divisible by 2 and at most twice the number of dimensions; "
            "got %d for a %d-dimensional input" % (len(pad), ndim)
        )
    pairs = [(int(pad[i]), int(pad[i + 1])) for i in range(0, len(pad), 2)]
    return [(0, 0)] * (ndim - len(pairs)) + pairs[::-1]


class Trilinear(Function):
    """``_trilinear``: a product of three tensors summed over some indices, an einsum such as
    ``"bi,oij,bj->bo"`` (``out[b, o] = Σᵢⱼ x1[b, i] W[o, i, j] x2[b, j]``, what ``F.bilinear`` records).

    Backward (PyTorch's ``_trilinear_backward``): each input's gradient is again a ``_trilinear``, of
    ``grad`` in that input's place with the other two -- so the node's derivatives are differentiable to
    any order, and under create_graph each one records a ``TrilinearBackward0`` (with ``grad``'s edge in the
    input's slot, as PyTorch's).  Values: the first two factors are contracted first, then the third (as
    PyTorch's sumproduct_pair order: an inf in ``x2`` meets the finite Σᵢ x1 W, not each product).
    """

    node_name: str = "TrilinearBackward0"
    jvp = "product_rule"
    saved_names: tuple[str, ...] = ("i1", "i2", "i3")

    @staticmethod
    def forward(ctx: Any, i1: Tensor, i2: Tensor, i3: Tensor, spec: str = "bi,oij,bj->bo") -> Any:
        need = ctx.needs_input_grad
        # PyTorch's wrap_opt_if: a factor is kept only if another factor's gradient needs it
        ctx.save_for_backward(*(t if any(need[j] for j in range(3) if j != k) else None
                                for k, t in enumerate((i1, i2, i3))))
        ctx.spec = spec
        return _contract3(spec, i1._data, i2._data, i3._data)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        tensors = ctx.saved_tensors
        ins, out = ctx.spec.split("->")
        subs = ins.split(",")
        grads = []
        for k in range(3):
            if not ctx.needs_input_grad[k]:
                grads.append(None)
                continue
            args = [grad if i == k else t for i, t in enumerate(tensors)]
            spec = "%s->%s" % (",".join(out if i == k else s for i, s in enumerate(subs)), subs[k])
            grads.append(Trilinear.apply(*args, spec))
        return (*grads, None)


def _contract3(spec, a, b, c):
    """``np.einsum(spec, a, b, c)`` as two pairwise contractions: ``a`` with ``b``, then with ``c``."""
    ins, out = spec.split("->")
    sa, sb, sc = ins.split(",")
    keep = "".join(dict.fromkeys(i for i in sa + sb if i in sc + out))
    ab = np.einsum("%s,%s->%s" % (sa, sb, keep), a, b, optimize=True)
    return np.ascontiguousarray(np.einsum("%s,%s->%s" % (keep, sc, out), ab, c, optimize=True))


# -- normalisation ------------------------------------------------------------------------------

# PyTorch's undefined tensor: passed for an absent weight or bias, so the node still has that
# argument's edge, ``(None, 0)``, in ``next_functions`` (as ``NativeLayerNormBackward0`` does).
UNDEFINED = Tensor._make(np.empty(0))


def _defined(t):
    return None if t is UNDEFINED else t


def _overflowing_rows(a, dims):
    """The rows (keepdims) where PyTorch's CPU layer_norm is nan although the input is finite: its RowwiseMoments
    merges the SIMD lanes' moments into the row's, adding ``(0 - mean)² · 0`` for each empty lane -- nan once
    mean² overflows. A row shorter than one vector (8 float32 or 4 float64 numbers, on AVX2 and AVX-512 alike) has
    only empty lanes; for longer rows it depends on the CPU's vector width (tests/fuzz/fuzzlib/known.py). None if
    there is no such row (the usual case)."""
    n = math.prod(a.shape[d] for d in dims)
    if n >= (8 if a.dtype == np.float32 else 4) or a.dtype.kind != "f" or a.size == 0:
        return None                                 # (an empty input: no row, and numpy's mean would warn)
    bad = np.abs(a.mean(dims, keepdims=True)) > np.sqrt(np.finfo(a.dtype).max)
    return bad if bad.any() else None


def _standardized(x, dims, eps):
    """``(x̂, rstd)`` with ``x̂ = (x - mean) · rstd``, ``rstd = 1/√(var + eps)`` over ``dims`` (Tensor ops)."""
    centered = x - x.mean(dims, keepdim=True)
    rstd = ((centered * centered).mean(dims, keepdim=True) + eps).rsqrt()
    bad = _overflowing_rows(x._data, dims)
    if bad is not None:                           # nan there, as in PyTorch's forward (see _overflowing_rows)
        rstd = rstd + Tensor._make(np.where(bad, np.nan, 0).astype(x._data.dtype))
    return centered * rstd, rstd


def _standardize_backward(g, x_hat, rstd, dims):
    """The gradient through ``x̂`` for ``g = dL/dx̂``: ``rstd (g - mean g - x̂ · mean(g x̂))`` over ``dims``."""
    return (g - g.mean(dims, keepdim=True) - x_hat * (g * x_hat).mean(dims, keepdim=True)) * rstd


def _affine(a, weight, bias, shape):
    """``a · weight + bias`` on ndarrays, the (optional) weight and bias viewed as ``shape``."""
    if weight is not None:
        a = a * weight._data.reshape(shape)
    if bias is not None:
        a = a + bias._data.reshape(shape)
    return a


def _check_mixed_dtype(x, params):
    """PyTorch's CPU check of the parameters' dtypes against the input's (the first parameter decides)."""
    if not params or params[0].dtype is x.dtype:
        for p in params:
            if p.dtype is not x.dtype:
                raise RuntimeError("expected scalar type %s but found %s" % (x.dtype._legacy, p.dtype._legacy))
        return
    if any(p.dtype._legacy != "Float" for p in params):
        raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float")
    raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")


class NativeLayerNorm(Function):
    """``x̂ · weight + bias``, ``x̂`` standardized over the trailing ``normalized_shape`` dims.

    Backward: d/dx = rstd (g - mean g - x̂ mean(g x̂)) with g = grad · weight; d/dweight = Σ grad x̂;
    d/dbias = Σ grad (sums over the leading dims).  ``x̂`` is recomputed from ``x`` with Tensor ops.
    """

    node_name: str = "NativeLayerNormBackward0"
    saved_names: tuple[str, ...] = ("input", "weight", "bias")
    saved_attrs: tuple[str, ...] = ("normalized_shape", "eps")

    @staticmethod
    def forward(ctx: Any, x: Tensor, normalized_shape: tuple[int, ...], weight: Tensor | None, bias: Tensor | None,
                eps: float) -> Any:
        _check_mixed_dtype(x, [p for p in (_defined(weight), _defined(bias)) if p is not None])
        ctx.save_for_backward(x, weight, bias)
        ctx.normalized_shape, ctx.eps = tuple(normalized_shape), eps
        dims = tuple(range(x.ndim - len(normalized_shape), x.ndim))
        a = x._data
        if a.size == 0:                 # nothing to standardize (numpy's mean would warn "Mean of empty slice")
            return _affine(a, _defined(weight), _defined(bias), ctx.normalized_shape).astype(a.dtype, copy=False)
        bad = _overflowing_rows(a, dims)
        short = _short_rows(a, dims, _defined(weight), _defined(bias), eps)
        if short is not None:
            return short if bad is None else np.where(bad, np.nan, short).astype(a.dtype, copy=False)
        x_hat = (a - a.mean(dims, keepdims=True)) / np.sqrt(a.var(dims, keepdims=True) + eps)
        if bad is not None:
            x_hat = np.where(bad, np.nan, x_hat)
        out = _affine(x_hat, _defined(weight), _defined(bias), ctx.normalized_shape)
        return out.astype(a.dtype, copy=False)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        x, weight, bias = ctx.saved_tensors
        needs = ctx.needs_input_grad
        if grad_mode.is_grad_enabled():      # create_graph: PyTorch's one fused node, NativeLayerNormBackwardBackward0
            dims = tuple(range(x.ndim - len(ctx.normalized_shape), x.ndim))
            mean, rstd = (Tensor._make(a, False) for a in _mean_rstd(x._data, dims, ctx.eps))   # constants
            attrs = {"normalized_shape": ctx.normalized_shape, "eps": ctx.eps,
                     "mask": (needs[0], needs[2] and _defined(weight) is not None, needs[3])}
            grad_x, grad_w, grad_b = NativeLayerNormBackward.apply(grad, x, mean, rstd, weight, bias, attrs)
            return (grad_x if needs[0] else None), None, (grad_w if needs[2] else None), \
                (grad_b if needs[3] else None), None
        return _layer_norm_backward(grad, x, _defined(weight), ctx.normalized_shape, ctx.eps, needs[2], needs[3])

    @staticmethod
    def jvp(ctx: Any, x_t: Any, _shape: Any, weight_t: Any, bias_t: Any, _eps: Any) -> Any:
        """x̂ₜ = rstd · ((xₜ − mean xₜ) − x̂ · mean(x̂ (xₜ − mean xₜ))) (exactly 0 for a shift), then the affine part."""
        x, weight, bias = ctx.primals[0], _defined(ctx.primals[2]), _defined(ctx.primals[3])
        dims = tuple(range(x.ndim - len(ctx.normalized_shape), x.ndim))
        x_hat, rstd = _standardized(x, dims, ctx.eps)
        centered = x_t - x_t.mean(dims, keepdim=True)
        out = (centered - x_hat * (x_hat * centered).mean(dims, keepdim=True)) * rstd
        if weight is not None:
            out = out * weight + x_hat * weight_t
        return out if bias is None else out + bias_t


_ROW_LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}     # PyTorch's AVX2 Vectorized<T>::size()


def _short_rows(a, dims, weight, bias, eps):
    """layer_norm's output as PyTorch's CPU kernel rounds it, for rows shorter than one vector (None otherwise).

    Such a row's moments are RowwiseMoments' scalar Welford loop in the row's dtype (mean += δ / n,
    m2 += δ · (x − mean)); then rstd = 1 / √(m2 / N + eps) and y = (x − mean) · rstd · weight + bias with
    the last multiply and add fused (vec::fmadd): a row whose output is all cancellation (2 · 0.9999926 − 2)
    comes out as PyTorch's, not a few percent off."""
    n = math.prod(a.shape[d] for d in dims)
    if a.dtype not in _ROW_LANES or n >= _ROW_LANES[a.dtype] or n == 0:
        return None
    t = a.dtype.type
    rows = a.reshape(-1, n)
    mean = np.zeros(rows.shape[0], a.dtype)
    m2 = np.zeros(rows.shape[0], a.dtype)
    with np.errstate(all="ignore"):
        for i in range(n):
            delta = rows[:, i] - mean
            mean = mean + delta / t(i + 1)
            m2 = m2 + delta * (rows[:, i] - mean)
        rstd = (t(1) / np.sqrt(m2 / t(n) + t(eps)))[:, None]
        centered = rows - mean[:, None] + t(0)         # (PyTorch: a -0. input centres to +0.)
        w = None if weight is None else weight._data.reshape(1, n)
        b = None if bias is None else bias._data.reshape(1, n)
        if w is not None:
            x_hat = centered * rstd
            out = x_hat * w if b is None else fma(x_hat, w, np.broadcast_to(b, x_hat.shape))
        else:
            out = centered * rstd if b is None else fma(centered, rstd, np.broadcast_to(b, centered.shape))
    return np.asarray(out, dtype=a.dtype).reshape(a.shape)


def _mean_rstd(a, dims, eps):
    """native_layer_norm's other two outputs, on arrays: the mean and 1/√(var + eps) over ``dims``."""
    if a.size == 0:                         # (numpy's mean of nothing warns "Mean of empty slice")
        shape = tuple(1 if d in dims else n for d, n in enumerate(a.shape))
        return np.zeros(shape, a.dtype), np.full(shape, 1 / np.sqrt(eps), a.dtype)
    with np.errstate(all="ignore"):
        return a.mean(dims, keepdims=True), 1 / np.sqrt(a.var(dims, keepdims=True) + eps)


def _layer_norm_backward(grad, x, weight, normalized_shape, eps, need_w=True, need_b=True):
    """layer_norm's gradients (Tensor ops): d/dx = rstd (g − mean g − x̂ mean(g x̂)), g = grad · weight; d/dweight
    and d/dbias are grad · x̂ and grad summed over the leading dims."""
    dims = tuple(range(x.ndim - len(normalized_shape), x.ndim))
    lead = tuple(range(x.ndim - len(normalized_shape)))
    x_hat, rstd = _standardized(x, dims, eps)
    g = grad if weight is None else grad * weight
    grad_x = _standardize_backward(g, x_hat, rstd, dims)
    grad_w = (grad * x_hat).sum(lead) if need_w and weight is not None else None
    grad_b = grad.sum(lead) if need_b else None
    return grad_x, None, grad_w, grad_b, None


class NativeLayerNormBackward(FusedBackward):
    """layer_norm's backward as one node (``native_layer_norm_backward``), recorded under create_graph.

    Its inputs are PyTorch's (grad_out, input, mean, rstd, weight, bias); its outputs the three gradients.
    Backward (``layer_norm_double_backward``): the vector-Jacobian product of the same formula (``FusedBackward``).
    """

    node_name: str = "NativeLayerNormBackwardBackward0"
    saved_names: tuple[str, ...] = ("grad_out", "input", "mean", "rstd", "weight")     # (not bias, as PyTorch)
    saved_attrs: tuple[str, ...] = ("normalized_shape",)

    @staticmethod
    def gradients(ctx: Any, grad_out: Tensor, x: Tensor, mean: Any, rstd: Any, weight: Any, bias: Any) -> Any:
        mask = ctx.mask
        gx, _, gw, gb, _ = _layer_norm_backward(grad_out, x, weight, ctx.normalized_shape, ctx.eps, mask[1], mask[2])
        return (gx if mask[0] else None), gw, gb


class NativeBatchNorm(Function):
    """``x̂ · weight + bias`` per channel (dim 1), ``x̂`` standardized over every other dim.

    In training ``x̂`` uses the batch's mean and (biased) variance, and backward is LayerNorm's
    formula over those dims; otherwise it uses ``running_mean``/``running_var`` (ndarrays, no
    edges), and d/dx = grad · weight · rstd.  d/dweight = Σ grad x̂, d/dbias = Σ grad.
    """

    node_name: str = "NativeBatchNormBackward0"
    jvp = "from_vjp"
    saved_names: tuple[str, ...] = ("input", "weight")
    saved_attrs: tuple[str, ...] = ("running_mean", "running_var", "training", "eps")

    @staticmethod
    def forward(ctx: Any, x: Tensor, weight: Tensor | None, bias: Tensor | None, running_mean: Tensor | None,
                running_var: Tensor | None, training: bool, eps: float) -> Any:
        ctx.save_for_backward(x, weight)
        ctx.running_mean, ctx.running_var, ctx.training, ctx.eps = running_mean, running_var, training, eps
        a, shape = x._data, _channel_shape(x.ndim, x.shape[1])
        if training:
            dims = _batch_dims(x.ndim)
            mean, var = a.mean(dims, keepdims=True), a.var(dims, keepdims=True)
        else:
            mean, var = running_mean.reshape(shape), running_var.reshape(shape)
        out = _affine((a - mean) / np.sqrt(var + eps), _defined(weight), _defined(bias), shape)
        return out.astype(a.dtype, copy=False)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        x, weight = ctx.saved_tensors
        needs = ctx.needs_input_grad
        mask = (needs[0], needs[1], needs[2])
        if grad_mode.is_grad_enabled():      # create_graph: PyTorch's one node, NativeBatchNormBackwardBackward0
            stats = [UNDEFINED if a is None else Tensor._make(a) for a in (ctx.running_mean, ctx.running_var)]
            grads = NativeBatchNormBackward.apply(grad, x, weight, *stats, _batch_norm_attrs(ctx, x, mask))
        else:
            grads = _batch_norm_backward(grad, x, _defined(weight), ctx.running_mean, ctx.running_var, ctx.training,
                                         ctx.eps, mask)
        return (*(g if m else None for g, m in zip(grads, mask)), None, None, None, None)


def _batch_norm_backward(grad, x, weight, running_mean, running_var, training, eps, mask):
    """native_batch_norm_backward in Tensor ops: (d/dinput, d/dweight, d/dbias), each if ``mask`` asks.

    Training: x̂ from the batch's statistics and d/dx = rstd (g − mean g − x̂ mean(g x̂)), g = grad · weight;
    evaluation: the running ones (arrays, constants) and d/dx = g · rstd.  d/dweight = Σ grad x̂, d/dbias = Σ grad.
    """
    dims, shape = _batch_dims(x.ndim), _channel_shape(x.ndim, x.shape[1])
    if training:
        x_hat, rstd = _standardized(x, dims, eps)
    else:
        rstd = _const(1 / np.sqrt(running_var.reshape(shape) + eps), x)
        x_hat = (x - _const(running_mean.reshape(shape), x)) * rstd
    grad_x = grad_w = grad_b = None
    if mask[0]:
        g = grad if weight is None else grad * weight.reshape(shape)
        grad_x = _standardize_backward(g, x_hat, rstd, dims) if training else g * rstd
    if mask[1]:
        grad_w = (grad * x_hat).sum(dims)
    if mask[2]:
        grad_b = grad.sum(dims)
    return grad_x, grad_w, grad_b


def _batch_norm_attrs(ctx, x, mask):
    """What ``NativeBatchNormBackward`` needs and shows (PyTorch's ``_saved_save_mean``/``_saved_save_invstd``:
    the batch's mean and 1/√(var + eps) in training, empty in evaluation)."""
    if ctx.training:
        dims = _batch_dims(x.ndim)
        mean, rstd = _mean_rstd(x._data, dims, ctx.eps)
        save = (mean.reshape(-1), rstd.reshape(-1))
    else:
        save = (np.empty(0, x._data.dtype),) * 2
    return {"train": ctx.training, "eps": ctx.eps, "mask": mask,
            "save_mean": Tensor._make(save[0]), "save_invstd": Tensor._make(save[1])}


class NativeBatchNormBackward(FusedBackward):
    """``native_batch_norm_backward`` as one node (PyTorch's, under create_graph): inputs (grad_out, input,
    weight, running_mean, running_var), outputs the three gradients; its backward is the vector-Jacobian
    product of the same formula (PyTorch's ``batchnorm_double_backward``)."""

    node_name: str = "NativeBatchNormBackwardBackward0"
    saved_names: tuple[str, ...] = ("grad_out", "input", "weight", "running_mean", "running_var")
    saved_attrs: tuple[str, ...] = ("eps", "save_invstd", "save_mean", "train")

    @staticmethod
    def gradients(ctx: Any, grad: Tensor, x: Tensor, weight: Any, running_mean: Any, running_var: Any) -> Any:
        mean, var = (None if t is None else t._data for t in (running_mean, running_var))
        return _batch_norm_backward(grad, x, weight, mean, var, ctx.train, ctx.eps, ctx.mask)


def _batch_dims(ndim):
    """Every dim but the channels (dim 1)."""
    return (0, *range(2, ndim))


def _channel_shape(ndim, channels):
    """A per-channel vector's shape for broadcasting against an ``ndim``-D input: ``(C, 1, …)``."""
    return (channels, *(1,) * (ndim - 2))


# -- the Scalar overloads PyTorch's C++ losses record ----------------------------------------


def _bce_with_logits(self, target, weight, pos_weight, reduction):
    a, t = promoted(self, target)
    log_sigmoid = _log_sigmoid(a)
    if pos_weight is not None:
        log_sigmoid = log_sigmoid * ((pos_weight - 1) * t + 1)
    loss = (1 - t) * a - log_sigmoid
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction).astype(a.dtype, copy=False)


def _bce_logits_grad_self(xp, g, self, target, weight, pos_weight, reduction):
    if pos_weight is None:
        grad = (xp.sigmoid(self) - target) * g
    else:
        pt = _weight(xp, pos_weight) * target
        grad = ((xp.add_scalar(pt, 1) - target) * xp.sigmoid(self) - pt) * g      # t.add(1).sub(target)...
    return _per_element(_times(grad, _weight(xp, weight)), reduction)


def _bce_logits_grad_target(xp, g, self, weight, pos_weight, reduction):
    if pos_weight is None:
        grad = -self * g
    else:
        log_sigmoid = LogSigmoid._fn if xp is NP else LogSigmoid.apply
        grad = (log_sigmoid(-self) - log_sigmoid(self) * _weight(xp, pos_weight)) * g
    return _per_element(_times(grad, _weight(xp, weight)), reduction)


BinaryCrossEntropyWithLogits: type[Rule] = rule(
    "BinaryCrossEntropyWithLogitsBackward0", _bce_with_logits, arrays=False,
    values={"weight": lambda weight: _optional_const(weight),
            "pos_weight": lambda pos_weight: _optional_const(pos_weight)},
    self=("g · weight · ((1 + (pos_weight − 1) · target) · sigmoid(self) − pos_weight · target)  (/ N for mean)",
          _bce_logits_grad_self),
    target=("g · weight · (ln σ(−self) − pos_weight · ln σ(self))  (/ N for mean)", _bce_logits_grad_target),
    jvp="from_vjp",
    words="Binary cross-entropy on logits: σ(z) − t, the sigmoid folded in.")


# The ops on a number PyTorch's C++ formulas record (MulBackward1...) and masked_fill live in elementwise.py.
MulScalar, AddScalar, DivScalar = elementwise.MulScalar, elementwise.AddScalar, elementwise.DivScalar
MaskedFill = elementwise.MaskedFill     # F.cross_entropy's label smoothing records PyTorch's node


# -- erf in double precision (numpy has none) ---------------------------------------------------
# Cephes' rational approximations (S. L. Moshier, ndtr.c): erf for |x| <= 1, erfc beyond.

_SQRT_2_OVER_PI = math.sqrt(2 / math.pi)
_KAPPA = 0.044715
_ERF_T = (
    9.60497373987051638749e0,
    9.00260197203842689217e1,
    2.23200534594684319226e3,
    7.00332514112805075473e3,
    5.55923013010394962768e4,
)
_ERF_U = (
    1.0,
    3.35617141647503099647e1,
    5.21357949780152679795e2,
    4.59432382970980127987e3,
    2.26290000613890934246e4,
    4.92673942608635921086e4,
)
_ERFC_P = (
    2.46196981473530512524e-10,
    5.64189564831068821977e-1,
    7.46321056442269912687e0,
    4.86371970985681366614e1,
    1.96520832956077098242e2,
    5.26445194995477358631e2,
    9.34528527171957607540e2,
    1.02755188689515710272e3,
    5.57535335369399327526e2,
)
_ERFC_Q = (
    1.0,
    1.32281951154744992508e1,
    8.67072140885989742329e1,
    3.54937778887819891062e2,
    9.75708501743205489753e2,
    1.82390916687909736289e3,
    2.24633760818710981792e3,
    1.65666309194161350182e3,
    5.57535340817727675546e2,
)
_ERFC_R = (
    5.64189583547755073984e-1,
    1.27536670759978104416e0,
    5.01905042251180477414e0,
    6.16021097993053585195e0,
    7.40974269950448939160e0,
    2.97886665372100240670e0,
)
_ERFC_S = (
    1.0,
    2.26052863220117276590e0,
    9.39603524938001434673e0,
    1.20489539808096656605e1,
    1.70814450747565897222e1,
    9.60896809063285878198e0,
    3.36907645100081516050e0,
)


def _polynomial(x, coefficients):
    """Horner's rule, highest power first."""
    out = np.full_like(x, coefficients[0])
    for c in coefficients[1:]:
        out = out * x + c
    return out


def _erf(a):
    """``erf`` of an ndarray, to double precision."""
    x = np.asarray(a, dtype=np.float64)
    z = np.abs(x)
    z2 = z * z
    with np.errstate(over="ignore", invalid="ignore"):
        inner = x * _polynomial(z2, _ERF_T) / _polynomial(z2, _ERF_U)
        zc = np.minimum(z, 30.0)  # beyond, erfc underflows to 0 (and inf/inf would be nan)
        ratio = np.where(
            zc < 8,
            _polynomial(zc, _ERFC_P) / _polynomial(zc, _ERFC_Q),
            _polynomial(zc, _ERFC_R) / _polynomial(zc, _ERFC_S),
        )
        outer = np.copysign(1 - fmath.exp(-zc * zc) * ratio, x)
    return np.where(z <= 1, inner, outer)


# -- the derivative table's rows for these classes (see ops/formulas.py) ----------------------------
from ..autograd.formulas import register_formula  # noqa: E402
from .formulas import row as _row  # noqa: E402

if TYPE_CHECKING:
    from ..autograd.function import Grads
    from ._rules import Rule

_SELF = ("self",)
_row(LeakyReluInplace, _SELF, ("g · [result > 0] + negative_slope · g · [result ≤ 0]",),
     "In-place leaky ReLU: the same derivative, read from the result.")
_row(ThresholdInplace, _SELF, ("g · [self > threshold]  (self before the write)",),
     "In-place threshold: the same derivative, masked by the input as it was before the write.")
_row(Embedding, ("weight",), ("zeros(weight) with g's rows added at indices",),
     "Embedding picks rows: each picked row gets its gradient (added up for repeats).")
_row(EmbeddingDenseBackward, ("grad_output",), ("g[indices] (padding rows 0)",),
     "The backward of embedding, as one op: its own gradient reads the rows back.")
_row(ConstantPadNd, _SELF, ("g without the padding",), "Padding adds constants: the gradient drops the padded part.")
_row(Trilinear, ("i1", "i2", "i3"), ("_trilinear(g, i2, i3)", "_trilinear(i1, g, i3)", "_trilinear(i1, i2, g)"),
     "A product of three factors summed (bilinear form x1ᵀ W x2): each factor gets g contracted with the other two.")
_row(NativeLayerNorm, ("input", "weight", "bias"),
     ("(weight · g − mean(weight · g) − x̂ · mean(weight · g · x̂)) / σ", "sum(g · x̂)", "sum(g)"),
     "Layer norm: the input's gradient is centred and decorrelated from x̂; weight gets Σ g·x̂, bias Σ g.")
_row(NativeLayerNormBackward, ("grad_out", "input", "mean", "rstd", "weight", "bias"),
     ("d(layer norm's gradients)/d grad_out · gg", "d(...)/d input · gg", None, None, "d(...)/d weight · gg", None),
     "layer_norm's backward as one node: its own gradient is the vector-Jacobian product of that formula.")
_row(NativeBatchNorm, ("input", "weight", "bias"),
     ("(weight · g − mean(weight · g) − x̂ · mean(weight · g · x̂)) / σ", "sum(g · x̂)", "sum(g)"),
     "Batch norm (training): as layer norm, per channel over the batch.")
_row(NativeBatchNormBackward, ("grad_out", "input", "weight", "running_mean", "running_var"),
     ("d(batch norm's gradients)/d grad_out · gg", "d(...)/d input · gg", "d(...)/d weight · gg", None, None),
     "batch_norm's backward as one node: its own gradient is the vector-Jacobian product of that formula.")
register_formula("BackwardHookFunctionBackward", ("tensors",), ("g",), (),
                 "The identity node module backward hooks attach to: g passes through.")


# TensorIterator's output layout for the pointwise rows (activations; see ops/_layout.py)
pointwise_rules(globals())
LogSigmoid._layout = staticmethod(lambda out, args: contiguous(out))    # log_sigmoid_forward's buffer: row-major
