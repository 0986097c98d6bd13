"""The op table: every differentiable op of minigrad's core, once, with the inputs it is differentiable on.

One row (an :class:`OpCase`) drives every per-op test in ``test_ops.py``:

* float64 ``gradcheck`` and ``gradgradcheck`` (finite differences; no PyTorch needed),
* the ``grad_fn`` name without PyTorch, and
* parity with PyTorch (``torch`` marker): values, gradients, ``grad_fn`` names and the
  ``next_functions`` structure.

The same ``fn`` runs on both libraries: it only calls tensor methods and operators, and
``lib(t)`` (the module ``t`` belongs to) for the few torch-level functions (``cat``, ``where``…).
Inputs come from ``hypothesis.extra.numpy`` with a per-op domain (``elements``) and, where an op
has kinks, ties or boundaries, a ``valid`` predicate that keeps the inputs away from them.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

# -- domains ------------------------------------------------------------------------------------------

FLOATS = st.floats(-2, 2, allow_subnormal=False)
POSITIVE = st.floats(0.2, 2)
NONZERO = FLOATS.filter(lambda v: abs(v) > 1e-2)  # away from relu/abs kinks and 1/x poles
#: Often exactly zero (prod is smooth there, but its backward needs another formula); never tiny.
WITH_ZEROS = st.one_of(st.just(0.0), NONZERO)
#: Values on a 0.01 grid: with ``unique=True`` no two are closer than 0.01 (no ties for max, min, var).
GRID = st.integers(-200, 200).map(lambda i: i / 100)
#: The grid shifted by half a step: never equal to a GRID value (no ties for maximum/minimum).
HALF_GRID = GRID.map(lambda v: v + 0.005)


#: Across hardswish's and hardsigmoid's kinks at ±3, never within 1e-3 of them.
PAST_3 = st.floats(-4, 4, allow_subnormal=False).filter(lambda v: abs(abs(v) - 3) > 1e-3)


def away_from(*points: float) -> st.SearchStrategy[float]:
    """FLOATS not within 1e-3 of the given points (clamp bounds, a where-condition's threshold)."""
    return FLOATS.filter(lambda v: all(abs(v - p) > 1e-3 for p in points))


#: Any shape an elementwise op accepts, 0-dim included.
ANY_SHAPE = hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=3).map(lambda s: (s,))
#: Two shapes that broadcast together (the gradient is summed back to each: NOTE [broadcast]).
BROADCAST_2 = hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3, max_side=3).map(
    lambda b: b.input_shapes
)


def lib(t: Any) -> Any:
    """The library a tensor belongs to (``torch`` or ``minigrad``), for ``lib(a).cat(...)``."""
    return sys.modules[type(t).__module__.split(".")[0]]


@dataclass(frozen=True)
class OpCase:
    """One op: ``fn(*tensors)`` on inputs drawn from ``elements`` with ``shapes``.

    ``elements``: a float strategy, or one per input.  ``shapes``: one shape per input, or a
    strategy drawing such a tuple.  ``node``: the expected ``grad_fn`` name of the (first) output.
    ``unique``: no repeated values in an input (with GRID: no ties).  ``valid(*arrays)``: False for
    inputs at a non-differentiable point (``assume``d away; prefer a domain that has none).
    """

    name: str
    fn: Callable[..., Any]
    arity: int = 1
    elements: Any = FLOATS
    shapes: Any = ((2, 3),)
    node: str | None = None
    unique: bool = False
    valid: Callable[..., bool] | None = None
    gradgrad: bool = True
    #: False for a case that itself calls autograd (it cannot run under ``no_grad``).
    runs_under_no_grad: bool = True
    #: False where PyTorch records a different graph (einsum: see KNOWN_DIFFERENCES in the differential
    #: snippets); values and gradients are still compared with PyTorch, the nodes are not.
    same_graph: bool = True

    def __repr__(self) -> str:
        return self.name

    def draw(self, data: st.DataObject) -> tuple[np.ndarray, ...]:
        """Draw float64 input arrays for one example."""
        shapes = (
            data.draw(self.shapes, label="shapes")
            if isinstance(self.shapes, st.SearchStrategy)
            else self.shapes
        )
        shapes = tuple(shapes) + (shapes[-1],) * (self.arity - len(shapes))
        elements = self.elements if isinstance(self.elements, tuple) else (self.elements,) * self.arity
        arrays = tuple(
            data.draw(hnp.arrays(np.float64, shape, elements=el, unique=self.unique), label="input %d" % i)
            for i, (shape, el) in enumerate(zip(shapes, elements))
        )
        if self.valid is not None:
            assume(self.valid(*arrays))
        return arrays


# -- functions that need statements (in-place ops, item assignment) -----------------------------------


def _diagonal_mul_(a):
    y = a * 1
    y.diagonal().mul_(2)
    return y


def _index(a, rows):
    """An index (or mask) tensor of a's library."""
    return lib(a).tensor(rows)


def _masked_fill_inplace(a):
    y = a * 1
    y.masked_fill_(_index(a, [False, True, True]), -1.0)
    return y


def _iadd(a, b):
    y = a * 1
    y += b
    return y


def _imul(a, b):
    y = a * 1
    y *= b
    return y


def _isub(a, b):
    y = a * 1
    y -= b
    return y


def _itruediv(a, b):
    y = a * 1
    y /= b
    return y


def _setitem_row(a, b):
    y = a * 1
    y[0] = b
    return y


def _setitem_scalar(a):
    y = a * 2
    y[:, 1] = 0.5
    return y


def _setitem_mask(a, b):
    y = a * 1
    y[a > 0] = 0.0
    return y * b


def _setitem_index_tensor(a, b):
    y = a.sin()
    y[lib(a).tensor([2, 0])] = b
    return y


def _inplace_through_view(a):
    y = a * 1
    y[0].mul_(2)
    return y


def _inplace_view_of_view(a, b):
    y = a * 1
    y.t()[1].add_(b)
    return y


def _inplace_chain(a, b):
    y = a.sin()
    y.mul_(b).add_(1).div_(b)
    return y


def _zero_then_add(a, b):
    y = a * 1
    y.zero_()
    return y + b


def _fill_then_mul(a, b):
    y = a * 1
    y.fill_(2.0)
    return y * b


def _copy_into(a, b):
    y = a * 1
    y.copy_(b)
    return y * a


def _inplace_slice_with_input(a, b):
    y = a * 1
    y[:, 1:].mul_(b)
    return y


def _setitem_through_view(a, b):
    y = a.sin()
    y[0][1:] = b
    return y


# einsum cases whose output node is not ViewBackward0 (the view of a contraction's product)
_EINSUM_NODES = {"outer": "EinsumBackward0", "trace": "EinsumBackward0", "diagonal": "EinsumBackward0",
                 "diagonal_times": "EinsumBackward0", "transpose": "PermuteBackward0", "sum": "SumBackward1",
                 "broadcast_label_kept": "EinsumBackward0"}


def _dot_twice(a, b):
    return a.dot(b) + lib(a).dot(b, a)


def _matmul_mixed(a, b):
    """x @ N and N.T @ x in one graph (1-D @ 2-D and 2-D @ 1-D)."""
    return (a @ b).sum() + (b.t() @ a).sum()


# -- the table ------------------------------------------------------------------------------------------

BINARY = {"arity": 2, "shapes": BROADCAST_2}

CASES: list[OpCase] = [
    # arithmetic, with broadcasting, Python scalars and reversed forms
    OpCase("add", lambda a, b: a + b, node="AddBackward0", **BINARY),
    OpCase("add_scalar", lambda a: a + 2.5, node="AddBackward0", shapes=ANY_SHAPE),
    OpCase("radd_scalar", lambda a: 2.5 + a, node="AddBackward0", shapes=ANY_SHAPE),
    OpCase("add_alpha", lambda a, b: a.add(b, alpha=-3), node="AddBackward0", **BINARY),
    OpCase("sub", lambda a, b: a - b, node="SubBackward0", **BINARY),
    OpCase("sub_scalar", lambda a: a - 1.5, node="SubBackward0", shapes=ANY_SHAPE),
    OpCase("rsub_scalar", lambda a: 1.5 - a, node="RsubBackward1", shapes=ANY_SHAPE),
    OpCase("sub_alpha", lambda a, b: a.sub(b, alpha=0.5), node="SubBackward0", **BINARY),
    OpCase("mul", lambda a, b: a * b, node="MulBackward0", **BINARY),
    OpCase("mul_self", lambda a: a * a, node="MulBackward0", shapes=ANY_SHAPE),
    OpCase("mul_scalar", lambda a: a * 3, node="MulBackward0", shapes=ANY_SHAPE),
    OpCase("rmul_scalar", lambda a: -0.5 * a, node="MulBackward0", shapes=ANY_SHAPE),
    OpCase("div", lambda a, b: a / b, node="DivBackward0", elements=(FLOATS, NONZERO), **BINARY),
    # remainder / rounded division: inside one step of the floor (no jump between the finite differences)
    OpCase("remainder", lambda a, b: a % b, node="RemainderBackward1",
           elements=(st.floats(0.1, 0.9), st.floats(1.1, 2)), **BINARY),
    OpCase("remainder_scalar", lambda a: a.remainder(1.5), node="RemainderBackward0", elements=st.floats(0.1, 1.4)),
    OpCase("div_floor", lambda a, b: a.div(b, rounding_mode="floor"), node="DivBackward2",
           elements=(st.floats(0.1, 0.9), st.floats(1.1, 2)), **BINARY),
    OpCase("div_trunc", lambda a, b: a.div(b, rounding_mode="trunc"), node="DivBackward2",
           elements=(st.floats(0.1, 0.9), st.floats(1.1, 2)), **BINARY),
    OpCase("div_scalar", lambda a: a / 4, node="DivBackward0", shapes=ANY_SHAPE),
    OpCase("rdiv_scalar", lambda a: 2 / a, node="MulBackward0", elements=NONZERO, shapes=ANY_SHAPE),
    OpCase("neg", lambda a: -a, node="NegBackward0", shapes=ANY_SHAPE),
    OpCase("neg_method", lambda a: a.neg(), node="NegBackward0"),
    # powers: tensor ** number, tensor ** tensor, number ** tensor
    OpCase("pow_int", lambda a: a**3, node="PowBackward0", shapes=ANY_SHAPE),
    OpCase("pow_square", lambda a: a.square(), node="PowBackward0"),
    OpCase("pow_half", lambda a: a**0.5, node="PowBackward0", elements=POSITIVE),
    OpCase("pow_negative", lambda a: a**-1.5, node="PowBackward0", elements=POSITIVE),
    # (exponent 0 is a kink of the second derivative: PyTorch zeroes d/dself there, as minigrad does)
    OpCase("pow_tensor", lambda a, b: a**b, node="PowBackward1", elements=(POSITIVE, NONZERO), **BINARY),
    OpCase("rpow_scalar", lambda a: 2**a, node="PowBackward2", shapes=ANY_SHAPE),
    OpCase("pow_method", lambda a: a.pow(2), node="PowBackward0"),
    # unary math and activations
    OpCase("exp", lambda a: a.exp(), node="ExpBackward0", shapes=ANY_SHAPE),
    OpCase("log", lambda a: a.log(), node="LogBackward0", elements=POSITIVE, shapes=ANY_SHAPE),
    OpCase("sin", lambda a: a.sin(), node="SinBackward0", shapes=ANY_SHAPE),
    OpCase("cos", lambda a: a.cos(), node="CosBackward0", shapes=ANY_SHAPE),
    OpCase("tanh", lambda a: a.tanh(), node="TanhBackward0", shapes=ANY_SHAPE),
    OpCase("sigmoid", lambda a: a.sigmoid(), node="SigmoidBackward0", shapes=ANY_SHAPE),
    OpCase("sigmoid_fn", lambda a: lib(a).sigmoid(a), node="SigmoidBackward0"),
    OpCase("relu", lambda a: a.relu(), node="ReluBackward0", elements=NONZERO, shapes=ANY_SHAPE),
    OpCase("relu_fn", lambda a: lib(a).relu(a), node="ReluBackward0", elements=NONZERO),
    OpCase("tan", lambda a: a.tan(), node="TanBackward0", elements=st.floats(-1.2, 1.2), shapes=ANY_SHAPE),
    OpCase("asin", lambda a: a.asin(), node="AsinBackward0", elements=st.floats(-0.9, 0.9), shapes=ANY_SHAPE),
    OpCase("acos", lambda a: lib(a).acos(a), node="AcosBackward0", elements=st.floats(-0.9, 0.9)),
    OpCase("atan", lambda a: a.atan(), node="AtanBackward0", shapes=ANY_SHAPE),
    OpCase("arctan", lambda a: lib(a).arctan(a), node="AtanBackward0"),
    OpCase("sinh", lambda a: a.sinh(), node="SinhBackward0", shapes=ANY_SHAPE),
    OpCase("cosh", lambda a: lib(a).cosh(a), node="CoshBackward0"),
    # atan2 jumps on the negative x axis and is singular at the origin: both operands away from 0
    OpCase("atan2", lambda a, b: lib(a).atan2(a, b), node="Atan2Backward0", elements=NONZERO, **BINARY),
    OpCase("arctan2", lambda a, b: a.arctan2(b), node="Atan2Backward0", elements=NONZERO, **BINARY),
    OpCase("erf", lambda a: a.erf(), node="ErfBackward0", shapes=ANY_SHAPE),
    OpCase("erf_fn", lambda a: lib(a).erf(a * 2), node="ErfBackward0"),
    OpCase("frac", lambda a: a.frac(), node="FracBackward0", elements=away_from(-2, -1, 0, 1, 2), shapes=ANY_SHAPE),
    OpCase("log1p", lambda a: a.log1p(), node="Log1PBackward0", elements=st.floats(-0.8, 2), shapes=ANY_SHAPE),
    OpCase("log1p_fn", lambda a: lib(a).log1p(a * 1e-3), node="Log1PBackward0"),
    OpCase("expm1", lambda a: a.expm1(), node="Expm1Backward0", shapes=ANY_SHAPE),
    OpCase("expm1_fn", lambda a: lib(a).expm1(a * 1e-3), node="Expm1Backward0"),
    OpCase("sqrt", lambda a: a.sqrt(), node="SqrtBackward0", elements=POSITIVE, shapes=ANY_SHAPE),
    OpCase("rsqrt", lambda a: a.rsqrt(), node="RsqrtBackward0", elements=POSITIVE, shapes=ANY_SHAPE),
    OpCase("log2", lambda a: a.log2(), node="Log2Backward0", elements=POSITIVE),
    OpCase("log10", lambda a: a.log10(), node="Log10Backward0", elements=POSITIVE),
    # steps (gradient 0): inputs on the half grid, never at a jump
    OpCase("sign", lambda a: a.sign() * a, node="MulBackward0", elements=NONZERO),
    OpCase("sign_alone", lambda a: a.sign(), node="SignBackward0", elements=NONZERO),
    OpCase("sgn", lambda a: a.sgn() * a, node="MulBackward0", elements=NONZERO),
    # (sgn alone: PyTorch's gradient is a ZeroTensor, which has no numpy view)
    OpCase("sgn_plus", lambda a: lib(a).sgn(a) + a, node="AddBackward0", elements=NONZERO, shapes=ANY_SHAPE),
    OpCase("floor", lambda a: a.floor(), node="FloorBackward0", elements=HALF_GRID),
    OpCase("ceil", lambda a: a.ceil(), node="CeilBackward0", elements=HALF_GRID),
    OpCase("trunc", lambda a: a.trunc(), node="TruncBackward0", elements=HALF_GRID),
    OpCase("round", lambda a: a.round(), node="RoundBackward0", elements=HALF_GRID),
    OpCase("clamp_min_method", lambda a: a.clamp_min(0.25), node="ClampMinBackward0", elements=away_from(0.25)),
    OpCase("clamp_max_method", lambda a: a.clamp_max(-0.25), node="ClampMaxBackward0", elements=away_from(-0.25)),
    # tensor bounds (clamp.Tensor): the bounds get gradients; inputs kept apart (no ties with a bound)
    OpCase("clamp_tensor_low", lambda a, b: a.clamp(b, b + 1.0), arity=2, node="ClampBackward0",
           elements=(st.floats(-1, 0.9), st.floats(1.1, 2)), shapes=((2, 3), (2, 3))),
    OpCase("clamp_tensor_mid", lambda a, b: a.clamp(b - 2.0, b + 1.0), arity=2, node="ClampBackward0",
           elements=(st.floats(-0.4, 0.4), st.floats(0.6, 0.9)), shapes=((2, 3), (3,))),
    OpCase("clamp_tensor_max", lambda a, b: lib(a).clamp(a, max=b), arity=2, node="ClampBackward0",
           elements=(st.floats(1.1, 2), st.floats(-1, 0.9)), shapes=((2, 3), (2, 3))),
    OpCase("clamp_min_tensor", lambda a, b: a.clamp_min(b), arity=2, node="ClampMinBackward1",
           elements=(st.floats(-1, 0.4), st.floats(0.6, 2)), shapes=((2, 3), (2, 3))),
    OpCase("clamp_max_tensor", lambda a, b: a.clamp_max(b), arity=2, node="ClampMaxBackward1",
           elements=(st.floats(-1, 0.4), st.floats(0.6, 2)), shapes=((2, 3), (2, 3))),
    # the in-place-only ops with their own nodes
    OpCase("addcmul_", lambda a, b: (a * 1).addcmul_(b, a, value=0.5), arity=2, node="AddcmulBackward0",
           shapes=((2, 3), (2, 3))),
    OpCase("addcdiv_", lambda a, b: (a * 1).addcdiv_(a, b, value=-2), arity=2, node="AddcdivBackward0",
           elements=(FLOATS, NONZERO), shapes=((2, 3), (2, 3))),
    OpCase("lerp_", lambda a, b: (a * 1).lerp_(b, 0.3), arity=2, node="LerpBackward0", shapes=((2, 3), (2, 3))),
    OpCase("lerp_big_weight", lambda a, b: (a * 1).lerp_(b, 0.8), arity=2, node="LerpBackward0",
           shapes=((2, 3), (2, 3))),
    OpCase("lerp_tensor", lambda a, b, c: (a * 1).lerp_(b, c), arity=3, node="LerpBackward1",
           shapes=((2, 3), (2, 3), (2, 3))),
    # activations of nn.functional (rows of the derivative table with fused double-backward nodes)
    OpCase("elu", lambda a: lib(a).nn.functional.elu(a, 1.3), node="EluBackward0", elements=NONZERO),
    OpCase("gelu", lambda a: lib(a).nn.functional.gelu(a), node="GeluBackward0"),
    OpCase("gelu_tanh", lambda a: lib(a).nn.functional.gelu(a, approximate="tanh"), node="GeluBackward0"),
    OpCase("hardtanh", lambda a: lib(a).nn.functional.hardtanh(a * 2), node="HardtanhBackward0",
           elements=away_from(-0.5, 0.5)),
    OpCase("leaky_relu", lambda a: lib(a).nn.functional.leaky_relu(a, 0.1), node="LeakyReluBackward0",
           elements=NONZERO),
    OpCase("threshold", lambda a: lib(a).nn.functional.threshold(a, 0.5, -3.0), node="ThresholdBackward0",
           elements=away_from(0.5)),
    OpCase("logsigmoid", lambda a: lib(a).nn.functional.logsigmoid(a), node="LogSigmoidBackward0"),
    OpCase("silu", lambda a: lib(a).nn.functional.silu(a), node="SiluBackward0"),
    OpCase("softplus", lambda a: lib(a).nn.functional.softplus(a), node="SoftplusBackward0"),
    OpCase("softplus_threshold", lambda a: lib(a).nn.functional.softplus(a, 2.0, 1.0), node="SoftplusBackward0",
           elements=away_from(0.5)),
    # more activations (ops/activations.py; selu is EluBackward0 with a scale, celu its own node)
    OpCase("selu", lambda a: lib(a).nn.functional.selu(a), node="EluBackward0", elements=NONZERO),
    OpCase("celu", lambda a: lib(a).nn.functional.celu(a, 0.7), node="CeluBackward0", elements=NONZERO),
    OpCase("hardswish", lambda a: lib(a).nn.functional.hardswish(a), node="HardswishBackward0", elements=PAST_3),
    OpCase("hardsigmoid", lambda a: lib(a).nn.functional.hardsigmoid(a), node="HardsigmoidBackward0",
           elements=PAST_3),
    OpCase("mish", lambda a: lib(a).nn.functional.mish(a), node="MishBackward0"),
    OpCase("softshrink", lambda a: lib(a).nn.functional.softshrink(a), node="SoftshrinkBackward0",
           elements=away_from(-0.5, 0.5)),
    OpCase("hardshrink", lambda a: lib(a).nn.functional.hardshrink(a, 0.3), node="HardshrinkBackward0",
           elements=away_from(-0.3, 0.3)),
    OpCase("glu", lambda a: lib(a).nn.functional.glu(a, 0), node="GluBackward0", shapes=((4, 3),)),
    OpCase("glu_last", lambda a: lib(a).nn.functional.glu(a), node="GluBackward0", shapes=((3, 2),)),
    OpCase("prelu", lambda a, w: lib(a).nn.functional.prelu(a, w), arity=2, node="PreluKernelBackward0",
           elements=(NONZERO, FLOATS), shapes=((2, 3, 2), (3,))),
    OpCase("prelu_scalar_weight", lambda a, w: lib(a).nn.functional.prelu(a, w), arity=2,
           node="PreluKernelBackward0", elements=(NONZERO, FLOATS), shapes=((2, 3), (1,))),
    OpCase("rrelu_eval", lambda a: lib(a).nn.functional.rrelu(a), node="RreluWithNoiseBackward0", elements=NONZERO),
    OpCase("softsign", lambda a: lib(a).nn.functional.softsign(a), node="DivBackward0", elements=NONZERO),
    OpCase("tanhshrink", lambda a: lib(a).nn.functional.tanhshrink(a), node="SubBackward0"),
    OpCase("softmin", lambda a: lib(a).nn.functional.softmin(a, 1), node="SoftmaxBackward0"),
    # kl_div's x · log x (ops/activations.py: XlogyBackward0)
    OpCase("kl_div", lambda a, b: lib(a).nn.functional.kl_div(a, b, reduction="sum"), arity=2, node="SumBackward0",
           elements=(FLOATS, POSITIVE)),
    # elementwise losses (rows of the table with fused double-backward nodes); the input and the target
    # both get gradients, and each is kept off the kinks at |input - target| = beta (delta) = 1
    OpCase("mse_loss", lambda a, b: lib(a).nn.functional.mse_loss(a, b), arity=2, node="MseLossBackward0"),
    OpCase("mse_loss_sum", lambda a, b: lib(a).nn.functional.mse_loss(a, b, reduction="sum"), arity=2,
           node="MseLossBackward0"),
    OpCase("mse_loss_none", lambda a, b: lib(a).nn.functional.mse_loss(a, b, reduction="none"), arity=2,
           node="MseLossBackward0", shapes=ANY_SHAPE),
    OpCase("smooth_l1_loss", lambda a, b: lib(a).nn.functional.smooth_l1_loss(a, b), arity=2,
           node="SmoothL1LossBackward0", valid=lambda a, b: bool(np.all(np.abs(np.abs(a - b) - 1) > 1e-2))),
    OpCase("smooth_l1_loss_beta_none", lambda a, b: lib(a).nn.functional.smooth_l1_loss(a, b, reduction="none",
                                                                                         beta=0.5),
           arity=2, node="SmoothL1LossBackward0",
           valid=lambda a, b: bool(np.all(np.abs(np.abs(a - b) - 0.5) > 1e-2))),
    OpCase("huber_loss", lambda a, b: lib(a).nn.functional.huber_loss(a, b), arity=2, node="HuberLossBackward0",
           valid=lambda a, b: bool(np.all(np.abs(np.abs(a - b) - 1) > 1e-2))),
    OpCase("huber_loss_delta_sum", lambda a, b: lib(a).nn.functional.huber_loss(a, b, reduction="sum", delta=0.5),
           arity=2, node="HuberLossBackward0", valid=lambda a, b: bool(np.all(np.abs(np.abs(a - b) - 0.5) > 1e-2))),
    OpCase("binary_cross_entropy", lambda a, b: lib(a).nn.functional.binary_cross_entropy(a * 0.5, b * 0.5), arity=2,
           node="BinaryCrossEntropyBackward0", elements=st.floats(0.2, 1.8)),
    OpCase("binary_cross_entropy_sum",
           lambda a, b: lib(a).nn.functional.binary_cross_entropy(a * 0.5, b * 0.5, reduction="sum"), arity=2,
           node="BinaryCrossEntropyBackward0", elements=st.floats(0.2, 1.8)),
    # nll_loss: the targets (and class weights) are constants, only the log-probabilities get a gradient
    OpCase("nll_loss", lambda a: lib(a).nn.functional.nll_loss(a, lib(a).tensor([0, 2])), node="NllLossBackward0"),
    OpCase("nll_loss_weight_none",
           lambda a: lib(a).nn.functional.nll_loss(a, lib(a).tensor([1, 2]), reduction="none",
                                                   weight=lib(a).tensor([0.2, 0.5, 0.3], dtype=a.dtype)),
           node="NllLossBackward0"),
    OpCase("nll_loss_ignore_index_weight",
           lambda a: lib(a).nn.functional.nll_loss(a, lib(a).tensor([0, 2]), ignore_index=2,
                                                   weight=lib(a).tensor([0.2, 0.5, 0.3], dtype=a.dtype)),
           node="NllLossBackward0"),
    OpCase("nll_loss_1d", lambda a: lib(a).nn.functional.nll_loss(a, lib(a).tensor(1)), node="NllLossBackward0",
           shapes=((3,),)),
    OpCase("nll_loss2d",
           lambda a: lib(a).nn.functional.nll_loss(a, lib(a).tensor([[[0, 2], [1, 1]], [[2, 2], [0, 1]]])),
           node="NllLoss2DBackward0", shapes=((2, 3, 2, 2),)),
    OpCase("nll_loss2d_sum",
           lambda a: lib(a).nn.functional.nll_loss(a, lib(a).tensor([[[0, 2], [1, 1]], [[2, 2], [0, 1]]]),
                                                   reduction="sum"),
           node="NllLoss2DBackward0", shapes=((2, 3, 2, 2),)),
    OpCase("cross_entropy", lambda a: lib(a).nn.functional.cross_entropy(a, lib(a).tensor([0, 2])),
           node="NllLossBackward0"),
    OpCase("cross_entropy_label_smoothing",
           lambda a: lib(a).nn.functional.cross_entropy(a, lib(a).tensor([0, 2]), label_smoothing=0.2),
           node="AddBackward0"),
    OpCase("cross_entropy_probabilities_label_smoothing",
           lambda a, b: lib(a).nn.functional.cross_entropy(a, b.softmax(1), label_smoothing=0.2), arity=2,
           node="DivBackward1"),
    OpCase("binary_cross_entropy_with_logits",
           lambda a, b: lib(a).nn.functional.binary_cross_entropy_with_logits(a, b), arity=2,
           node="BinaryCrossEntropyWithLogitsBackward0"),
    OpCase("binary_cross_entropy_with_logits_weights",
           lambda a, b: lib(a).nn.functional.binary_cross_entropy_with_logits(
               a, b, weight=lib(a).tensor([0.5, 1.0, 2.0], dtype=a.dtype),
               pos_weight=lib(a).tensor([1.5, 0.5, 1.0], dtype=a.dtype), reduction="sum"),
           arity=2, node="BinaryCrossEntropyWithLogitsBackward0"),
    OpCase("abs", lambda a: a.abs(), node="AbsBackward0", elements=NONZERO, shapes=ANY_SHAPE),
    OpCase(
        "clamp",
        lambda a: a.clamp(-0.5, 1.0),
        node="ClampBackward1",
        elements=away_from(-0.5, 1.0),
        shapes=ANY_SHAPE,
    ),
    OpCase("clamp_min", lambda a: a.clamp(min=0.25), node="ClampBackward1", elements=away_from(0.25)),
    OpCase("clamp_max", lambda a: a.clamp(max=-0.25), node="ClampBackward1", elements=away_from(-0.25)),
    OpCase(
        "maximum",
        lambda a, b: lib(a).maximum(a, b),
        node="MaximumBackward0",
        elements=(GRID, HALF_GRID),
        **BINARY,
    ),
    OpCase(
        "minimum", lambda a, b: a.minimum(b), node="MinimumBackward0", elements=(GRID, HALF_GRID), **BINARY
    ),
    OpCase(
        "where", lambda a, b: lib(a).where(a > 0, a, b), node="WhereBackward0", elements=NONZERO, **BINARY
    ),
    OpCase(
        "where_scalar", lambda a: lib(a).where(a > 0, a.exp(), 0.0), node="WhereBackward0", elements=NONZERO
    ),
    # reductions: all, dim, keepdim
    OpCase("sum", lambda a: a.sum(), node="SumBackward0", shapes=ANY_SHAPE),
    OpCase("sum_dim", lambda a: a.sum(1), node="SumBackward1", shapes=((2, 3, 2),)),
    OpCase(
        "sum_dims_keepdim", lambda a: a.sum((0, 2), keepdim=True), node="SumBackward1", shapes=((2, 3, 2),)
    ),
    OpCase("sum_negative_dim", lambda a: a.sum(-1), node="SumBackward1"),
    OpCase("mean", lambda a: a.mean(), node="MeanBackward0", shapes=ANY_SHAPE),
    OpCase("mean_dim", lambda a: a.mean(0), node="MeanBackward1"),
    OpCase("mean_dim_keepdim", lambda a: a.mean(-1, keepdim=True), node="MeanBackward1", shapes=((2, 3, 2),)),
    OpCase("sum_axis_keepdims", lambda a: a.sum(axis=0, keepdims=True), node="SumBackward1"),
    OpCase("mean_axis_torch", lambda a: lib(a).mean(a, axis=(0, 2)), node="MeanBackward1", shapes=((2, 3, 2),)),
    OpCase("max_axis", lambda a: lib(a).max(a, axis=1).values, node="MaxBackward0", elements=GRID, unique=True),
    OpCase("max", lambda a: a.max(), node="MaxBackward1", elements=GRID, unique=True, shapes=ANY_SHAPE),
    OpCase("max_dim", lambda a: a.max(1).values, node="MaxBackward0", elements=GRID, unique=True),
    OpCase(
        "max_dim_keepdim",
        lambda a: a.max(dim=0, keepdim=True)[0],
        node="MaxBackward0",
        elements=GRID,
        unique=True,
    ),
    OpCase("min", lambda a: a.min(), node="MinBackward1", elements=GRID, unique=True),
    OpCase(
        "min_dim",
        lambda a: a.min(-1).values,
        node="MinBackward0",
        elements=GRID,
        unique=True,
        shapes=((2, 3, 2),),
    ),
    OpCase("amax", lambda a: a.amax(), node="AmaxBackward0", elements=GRID, unique=True, shapes=ANY_SHAPE),
    OpCase("amax_dim", lambda a: a.amax(1), node="AmaxBackward0", elements=GRID, unique=True),
    OpCase(
        "amax_dims_keepdim",
        lambda a: lib(a).amax(a, (0, 2), keepdim=True),
        node="AmaxBackward0",
        elements=GRID,
        unique=True,
        shapes=((2, 3, 2),),
    ),
    OpCase("amin", lambda a: lib(a).amin(a), node="AminBackward0", elements=GRID, unique=True),
    OpCase("amin_dim", lambda a: a.amin(dim=-1), node="AminBackward0", elements=GRID, unique=True),
    OpCase("median", lambda a: a.median(), node="MedianBackward0", elements=GRID, unique=True, shapes=ANY_SHAPE),
    OpCase("median_even", lambda a: lib(a).median(a), node="MedianBackward0", elements=GRID, unique=True,
           shapes=((2, 2),)),
    OpCase("median_dim", lambda a: a.median(1), node="MedianBackward1", elements=GRID, unique=True,
           shapes=((2, 4),)),
    OpCase("median_dim_keepdim", lambda a: lib(a).median(a, 0, keepdim=True), node="MedianBackward1",
           elements=GRID, unique=True, shapes=((3, 2),)),
    OpCase("mode", lambda a: a.mode(), node="ModeBackward0", elements=GRID, unique=True),
    OpCase("sort", lambda a: a.sort(), node="SortBackward0", elements=GRID, unique=True),
    OpCase("sort_descending_dim0", lambda a: lib(a).sort(a, 0, descending=True), node="SortBackward0",
           elements=GRID, unique=True, shapes=((3, 2),)),
    OpCase("topk", lambda a: a.topk(2), node="TopkBackward0", elements=GRID, unique=True, shapes=((2, 4),)),
    OpCase("topk_smallest_dim0", lambda a: lib(a).topk(a, 1, dim=0, largest=False), node="TopkBackward0",
           elements=GRID, unique=True),
    OpCase("cumsum", lambda a: a.cumsum(1), node="CumsumBackward0"),
    OpCase("cumsum_any_shape", lambda a: lib(a).cumsum(a, -1), node="CumsumBackward0", shapes=ANY_SHAPE),
    # (its backward divides by x when there are no zeros: keep x off tiny values, as for prod)
    OpCase("cumprod", lambda a: a.cumprod(1), node="CumprodBackward0", elements=NONZERO),
    OpCase("cumprod_any_shape", lambda a: lib(a).cumprod(a, -1), node="CumprodBackward0", elements=NONZERO,
           shapes=ANY_SHAPE),
    OpCase(
        "cumprod_with_zeros",
        lambda a: a.cumprod(0),
        node="CumprodBackward0",
        elements=WITH_ZEROS,
        shapes=((4, 2),),
    ),
    OpCase("logsumexp", lambda a: a.logsumexp(1), node="LogsumexpBackward0"),
    OpCase("logsumexp_keepdim", lambda a: a.logsumexp(0, keepdim=True), node="LogsumexpBackward0"),
    OpCase("softmax", lambda a: a.softmax(1), node="SoftmaxBackward0"),
    OpCase("softmax_dim0", lambda a: lib(a).softmax(a, 0), node="SoftmaxBackward0", shapes=((3, 2, 2),)),
    OpCase("log_softmax", lambda a: a.log_softmax(-1), node="LogSoftmaxBackward0"),
    OpCase("log_softmax_dim0", lambda a: a.log_softmax(0), node="LogSoftmaxBackward0", shapes=((3, 2),)),
    OpCase("var", lambda a: a.var(), node="VarBackward0", elements=GRID, unique=True),
    OpCase("var_dim", lambda a: a.var(1, keepdim=True), node="VarBackward0", elements=GRID, unique=True),
    OpCase(
        "var_biased",
        lambda a: a.var(0, unbiased=False),
        node="VarBackward0",
        elements=GRID,
        unique=True,
        shapes=((3, 2),),
    ),
    OpCase("std", lambda a: a.std(), node="StdBackward0", elements=GRID, unique=True),
    OpCase(
        "std_dim", lambda a: a.std(dim=0), node="StdBackward0", elements=GRID, unique=True, shapes=((3, 2),)
    ),
    OpCase("prod", lambda a: a.prod(), node="ProdBackward0", elements=NONZERO, shapes=ANY_SHAPE),
    OpCase(
        "prod_with_zeros", lambda a: a.prod(), node="ProdBackward0", elements=WITH_ZEROS, shapes=ANY_SHAPE
    ),
    OpCase(
        "prod_dim_with_zeros",
        lambda a: a.prod(0),
        node="ProdBackward1",
        elements=WITH_ZEROS,
        shapes=((3, 2),),
    ),
    OpCase("prod_dim", lambda a: a.prod(1), node="ProdBackward1", elements=NONZERO),
    OpCase("prod_dim_keepdim", lambda a: a.prod(0, keepdim=True), node="ProdBackward1", elements=NONZERO),
    OpCase("norm", lambda a: a.norm(), node="LinalgVectorNormBackward0", elements=NONZERO),
    OpCase("norm_dim", lambda a: a.norm(dim=1), node="LinalgVectorNormBackward0", elements=NONZERO),
    OpCase("norm_p1", lambda a: a.norm(p=1), node="LinalgVectorNormBackward0", elements=NONZERO),
    OpCase(
        "norm_p3_keepdim",
        lambda a: a.norm(3, dim=0, keepdim=True),
        node="LinalgVectorNormBackward0",
        elements=NONZERO,
    ),
    # linear algebra
    OpCase("mm", lambda a, b: a.mm(b), node="MmBackward0", arity=2, shapes=((2, 3), (3, 4))),
    OpCase("mm_fn", lambda a, b: lib(a).mm(a, b), node="MmBackward0", arity=2, shapes=((1, 3), (3, 1))),
    OpCase("matmul_2d", lambda a, b: a @ b, node="MmBackward0", arity=2, shapes=((3, 2), (2, 2))),
    OpCase("matmul_dot", lambda a, b: a @ b, node="DotBackward0", arity=2, shapes=((3,), (3,))),
    OpCase("matmul_mv", lambda a, b: a @ b, node="MvBackward0", arity=2, shapes=((2, 3), (3,))),
    OpCase("matmul_vm", lambda a, b: a @ b, node="SqueezeBackward4", arity=2, shapes=((3,), (3, 2))),
    OpCase("matmul_mixed", _matmul_mixed, node="AddBackward0", arity=2, shapes=((3,), (3, 2))),
    OpCase(
        "matmul_batched",
        lambda a, b: a @ b,
        node="UnsafeViewBackward0",
        arity=2,
        shapes=((2, 2, 3), (2, 3, 2)),
    ),
    OpCase(
        "matmul_batched_2d",
        lambda a, b: a @ b,
        node="UnsafeViewBackward0",
        arity=2,
        shapes=((2, 2, 3), (3, 2)),
    ),
    OpCase(
        "matmul_batched_1d",
        lambda a, b: a.matmul(b),
        node="UnsafeViewBackward0",
        arity=2,
        shapes=((2, 2, 3), (3,)),
    ),
    OpCase(
        "matmul_1d_batched",
        lambda a, b: lib(a).matmul(a, b),
        node="UnsafeViewBackward0",
        arity=2,
        shapes=((3,), (2, 3, 2)),
    ),
    OpCase(
        "matmul_broadcast_batch",
        lambda a, b: a @ b,
        node="UnsafeViewBackward0",
        arity=2,
        shapes=((2, 1, 2, 3), (3, 3, 1)),
    ),
    OpCase("bmm", lambda a, b: a.bmm(b), node="BmmBackward0", arity=2, shapes=((2, 2, 3), (2, 3, 2))),
    OpCase(
        "addmm",
        lambda c, a, b: lib(a).addmm(c, a, b),
        node="AddmmBackward0",
        arity=3,
        shapes=((2, 4), (2, 3), (3, 4)),
    ),
    OpCase(
        "addmm_broadcast_alpha_beta",
        lambda c, a, b: c.addmm(a, b, beta=0.5, alpha=2),
        node="AddmmBackward0",
        arity=3,
        shapes=((4,), (2, 3), (3, 4)),
    ),
    OpCase("outer", lambda a, b: lib(a).outer(a, b), node="MulBackward0", arity=2, shapes=((3,), (2,))),
    OpCase("dot", _dot_twice, node="AddBackward0", arity=2, shapes=((4,), (4,))),
    # einsum: PyTorch records the permute/view/bmm/sum... it is made of (same_graph=False); minigrad one
    # EinsumBackward0 node, under PyTorch's outermost node (a view of a contraction, a permute, a sum)
    *[
        OpCase("einsum_" + name, fn, node=_EINSUM_NODES.get(name, "ViewBackward0"), arity=len(shapes),
               shapes=shapes, same_graph=False)
        for name, fn, shapes in [
            ("mm", lambda a, b: lib(a).einsum("ij,jk->ik", a, b), ((2, 3), (3, 4))),
            ("mv_implicit", lambda a, b: lib(a).einsum("ij,j", a, b), ((2, 3), (3,))),
            ("bmm", lambda a, b: lib(a).einsum("bij,bjk->bik", a, b), ((2, 2, 3), (2, 3, 2))),
            ("outer", lambda a, b: lib(a).einsum("i,j->ij", a, b), ((3,), (2,))),
            ("dot", lambda a, b: lib(a).einsum("i,i->", a, b), ((4,), (4,))),
            ("trace", lambda a: lib(a).einsum("ii->", a), ((3, 3),)),
            ("diagonal", lambda a: lib(a).einsum("ii->i", a), ((3, 3),)),
            ("transpose", lambda a: lib(a).einsum("ij->ji", a), ((2, 3),)),
            ("sum", lambda a: lib(a).einsum("ijk->j", a), ((2, 3, 2),)),
            ("ellipsis", lambda a, b: lib(a).einsum("...ij,...jk->...ik", a, b), ((2, 2, 3), (3, 2))),
            ("ellipsis_broadcast", lambda a, b: lib(a).einsum("...j,...j->...", a, b), ((1, 3), (2, 3))),
            ("three", lambda a, b, c: lib(a).einsum("ij,jk,kl->il", a, b, c), ((2, 3), (3, 2), (2, 2))),
            ("bilinear", lambda a, b, c: lib(a).einsum("bn,anm,bm->ba", a, b, c), ((2, 3), (2, 3, 2), (2, 2))),
            ("label_only_here", lambda a, b: lib(a).einsum("ij,k->i", a, b), ((2, 3), (2,))),
            # a size-1 dim of one operand broadcast against the other's: summed back (or broadcast) in backward
            ("broadcast_label", lambda a, b: lib(a).einsum("ij,j->i", a, b), ((3, 1), (3,))),
            ("broadcast_label_kept", lambda a, b: lib(a).einsum("ij,ij->ij", a, b), ((2, 1), (2, 3))),
            ("diagonal_times", lambda a, b: lib(a).einsum("ii,i->i", a, b), ((3, 3), (3,))),
            ("list", lambda a, b: lib(a).einsum("ij,jk", [a, b]), ((2, 3), (3, 2))),
            ("sublist", lambda a, b: lib(a).einsum(a, [0, 1], b, [1, 2], [0, 2]), ((2, 3), (3, 2))),
        ]
    ],
    # shapes and views
    OpCase("view", lambda a: a.view(3, 2), node="ViewBackward0"),
    OpCase("view_infer", lambda a: a.view(-1), node="ViewBackward0", shapes=((2, 3, 2),)),
    OpCase("reshape", lambda a: a.reshape(6, 1), node="ViewBackward0"),
    OpCase("reshape_copy", lambda a: a.t().reshape(6), node="UnsafeViewBackward0"),
    OpCase("flatten", lambda a: a.flatten(), node="ViewBackward0", shapes=((2, 3, 2),)),
    OpCase("flatten_start", lambda a: a.flatten(1), node="ViewBackward0", shapes=((2, 3, 2),)),
    OpCase("transpose", lambda a: a.transpose(0, 2), node="TransposeBackward0", shapes=((2, 3, 2),)),
    OpCase("t", lambda a: a.t(), node="TBackward0"),
    OpCase("T", lambda a: a.T, node="PermuteBackward0"),
    OpCase("permute", lambda a: a.permute(2, 0, 1), node="PermuteBackward0", shapes=((2, 3, 2),)),
    OpCase("unsqueeze", lambda a: a.unsqueeze(1), node="UnsqueezeBackward0"),
    OpCase("unsqueeze_negative", lambda a: a.unsqueeze(-1), node="UnsqueezeBackward0", shapes=ANY_SHAPE),
    OpCase("squeeze", lambda a: a.squeeze(), node="SqueezeBackward0", shapes=((2, 1, 3, 1),)),
    OpCase("squeeze_dim", lambda a: a.squeeze(1), node="SqueezeBackward1", shapes=((2, 1, 3),)),
    OpCase("expand", lambda a: a.expand(4, 2, 3), node="ExpandBackward0", shapes=((2, 1),)),
    OpCase("expand_keep", lambda a: a.expand(-1, 3) * a, node="MulBackward0", shapes=((2, 1),)),
    OpCase("repeat", lambda a: a.repeat(2, 1, 2), node="RepeatBackward0"),
    OpCase(
        "cat",
        lambda a, b: lib(a).cat([a, b, a], dim=1),
        node="CatBackward0",
        arity=2,
        shapes=((2, 3), (2, 1)),
    ),
    OpCase(
        "cat_dim0", lambda a, b: lib(a).cat((a, b)), node="CatBackward0", arity=2, shapes=((2, 3), (1, 3))
    ),
    OpCase("stack", lambda a, b: lib(a).stack([a, b], dim=1), node="StackBackward0", arity=2),
    OpCase("split", lambda a: a.split(2, dim=1), node="SplitBackward0"),
    OpCase("split_piece", lambda a: a.split(1)[1] * 2, node="MulBackward0"),
    OpCase("split_sizes", lambda a: a.split([1, 2], 1), node="SplitWithSizesBackward0"),
    OpCase("chunk", lambda a: a.chunk(2, 1), node="SplitBackward0", shapes=((2, 4),)),
    OpCase("unbind", lambda a: a.unbind(1), node="UnbindBackward0"),
    OpCase("unbind_sum", lambda a: sum(a.unbind()), node="AddBackward0"),
    OpCase("squeeze_dims", lambda a: a.squeeze((0, 2)), node="SqueezeBackward2", shapes=((1, 3, 1),)),
    OpCase("squeeze_dims_negative", lambda a: a.squeeze((-1, 1)), node="SqueezeBackward2", shapes=((2, 3, 1),)),
    OpCase("flip", lambda a: a.flip(0, 1), node="FlipBackward0"),
    OpCase("flip_torch", lambda a: lib(a).flip(a, [-1]), node="FlipBackward0", shapes=((2, 3, 2),)),
    OpCase("roll_flat", lambda a: a.roll(2), node="RollBackward0"),
    OpCase("roll_dims", lambda a: lib(a).roll(a, (1, -1), (0, 1)), node="RollBackward0", shapes=((3, 4),)),
    OpCase("roll_dim", lambda a: a.roll(shifts=-1, dims=2), node="RollBackward0", shapes=((2, 3, 2),)),
    OpCase("diag_vector", lambda a: a.diag(), node="DiagEmbedBackward0", shapes=((3,),)),
    OpCase("diag_vector_offset", lambda a: lib(a).diag(a, -1), node="DiagEmbedBackward0", shapes=((3,),)),
    OpCase("diag_matrix", lambda a: a.diag(), node="DiagonalBackward0_copy"),
    OpCase("diag_matrix_offset", lambda a: lib(a).diag(a, 1), node="DiagonalBackward0_copy"),
    OpCase("diagonal", lambda a: a.diagonal(), node="DiagonalBackward0", shapes=((3, 3),)),
    OpCase("diagonal_dims", lambda a: a.diagonal(-1, 2, 0), node="DiagonalBackward0", shapes=((2, 3, 2),)),
    OpCase("diagonal_offset", lambda a: lib(a).diagonal(a, offset=1), node="DiagonalBackward0", shapes=((3, 4),)),
    OpCase("diagonal_mul_", _diagonal_mul_, node="torch::autograd::CopySlices", shapes=((3, 3),)),
    OpCase("trace", lambda a: a.trace(), node="TraceBackward0", shapes=((3, 3),)),
    OpCase("trace_wide", lambda a: lib(a).trace(a), node="TraceBackward0", shapes=((2, 4),)),
    OpCase("contiguous", lambda a: a.t().contiguous(), node="CloneBackward0"),
    OpCase("clone", lambda a: a.clone(), node="CloneBackward0"),
    OpCase("to_copy", lambda a: a.to(a.dtype, copy=True), node="ToCopyBackward0", shapes=ANY_SHAPE),
    # indexing
    OpCase("index_int", lambda a: a[1], node="SelectBackward0"),
    OpCase("index_negative_int", lambda a: a[:, -1], node="SelectBackward0"),
    OpCase("index_int_int", lambda a: a[0, 2], node="SelectBackward0"),
    OpCase("index_slice", lambda a: a[1:], node="SliceBackward0", shapes=((3, 2),)),
    OpCase("index_slice_step", lambda a: a[:, ::2], node="SliceBackward0", shapes=((2, 4),)),
    OpCase("index_none", lambda a: a[:, None], node="UnsqueezeBackward0"),
    OpCase("index_ellipsis", lambda a: a[..., 1], node="SelectBackward0", shapes=((2, 3, 2),)),
    OpCase("index_mixed_basic", lambda a: a[None, 1:, ..., 0], node="SelectBackward0", shapes=((3, 2, 2),)),
    OpCase(
        "index_tensor_repeats",
        lambda a: a[lib(a).tensor([2, 0, 2, 2])],
        node="IndexBackward0",
        shapes=((3, 2),),
    ),
    OpCase("index_list", lambda a: a[[0, 1, 0], [2, 2, 1]], node="IndexBackward0"),
    OpCase("index_tensor_dim1", lambda a: a[:, lib(a).tensor([[1, 1], [0, 2]])], node="IndexBackward0"),
    OpCase("index_bool_mask", lambda a: a[a > 0], node="IndexBackward0", elements=NONZERO),
    OpCase(
        "index_bool_rows",
        lambda a: a[lib(a).tensor([True, False, True])],
        node="IndexBackward0",
        shapes=((3, 2),),
    ),
    OpCase("gather", lambda a: a.gather(1, _index(a, [[0, 0], [2, 1]])), node="GatherBackward0"),
    OpCase("index_select", lambda a: a.index_select(1, _index(a, [2, 0, 2])), node="IndexSelectBackward0"),
    OpCase("index_select_torch", lambda a: lib(a).index_select(a, 0, _index(a, [1])), node="IndexSelectBackward0"),
    OpCase("masked_select", lambda a: a.masked_select(a > 0), node="MaskedSelectBackward0", elements=NONZERO),
    OpCase("masked_fill", lambda a: a.masked_fill(_index(a, [True, False, True]), 2.5), node="MaskedFillBackward0",
           shapes=((2, 3),)),
    OpCase("masked_fill_tensor", lambda a, v: a.masked_fill(_index(a, [[True, False, True], [False, False, True]]), v),
           node="MaskedFillBackward1", arity=2, shapes=((2, 3), ())),
    OpCase("masked_fill_", _masked_fill_inplace, node="MaskedFillBackward0"),
    OpCase(
        "masked_select_broadcast",
        lambda a: lib(a).masked_select(a, _index(a, [[True, False, True], [False, True, True]])),
        node="MaskedSelectBackward0",
        shapes=((3,),),
    ),
    OpCase(
        "scatter_src",
        lambda a, b: a.scatter(1, _index(a, [[0, 3], [1, 2], [3, 0]]), b),
        node="ScatterBackward0",
        arity=2,
        shapes=((3, 4), (3, 2)),
    ),
    OpCase("scatter_value", lambda a: a.scatter(0, _index(a, [[1, 0, 1]]), 1.5), node="ScatterBackward1"),
    OpCase(
        "scatter_",
        lambda a, b: (a * 1).scatter_(0, _index(a, [[1, 0, 1]]), b),
        node="ScatterBackward0",
        arity=2,
        shapes=((2, 3), (1, 3)),
    ),
    OpCase(
        "scatter_value_",
        lambda a: (a * 1).scatter_(1, _index(a, [[2], [0]]), value=-1.0),
        node="ScatterBackward1",
    ),
    OpCase(
        "scatter_add",
        lambda a, b: a.scatter_add(1, _index(a, [[0, 0, 3], [1, 1, 1], [2, 0, 2]]), b),
        node="ScatterAddBackward0",
        arity=2,
        shapes=((3, 4), (3, 3)),
    ),
    OpCase(
        "scatter_add_",
        lambda a, b: (a * 1).scatter_add_(0, _index(a, [[0, 1, 0], [0, 0, 1]]), b),
        node="ScatterAddBackward0",
        arity=2,
        shapes=((2, 3), (2, 3)),
    ),
    OpCase(
        "scatter_add_torch",
        lambda a, b: lib(a).scatter_add(a, 0, _index(a, [[1, 1, 0]]), b),
        node="ScatterAddBackward0",
        arity=2,
        shapes=((2, 3), (1, 3)),
    ),
    # item assignment and in-place ops on non-leaves
    OpCase("setitem_row", _setitem_row, node="torch::autograd::CopySlices", arity=2, shapes=((3, 2), (2,))),
    OpCase("setitem_scalar", _setitem_scalar, node="torch::autograd::CopySlices"),
    OpCase("setitem_mask", _setitem_mask, node="MulBackward0", arity=2, elements=NONZERO),
    OpCase(
        "setitem_index_tensor",
        _setitem_index_tensor,
        node="IndexPutBackward0",
        arity=2,
        shapes=((3, 2), (2, 2)),
    ),
    OpCase("add_", lambda a, b: (a * 1).add_(b), node="AddBackward0", arity=2, shapes=((2, 3), (3,))),
    OpCase("add_alpha_", lambda a, b: (a * 1).add_(b, alpha=2), node="AddBackward0", arity=2),
    OpCase("sub_", lambda a, b: (a * 1).sub_(b), node="SubBackward0", arity=2, shapes=((2, 3), (2, 1))),
    OpCase("mul_", lambda a, b: (a * 1).mul_(b), node="MulBackward0", arity=2),
    OpCase("div_", lambda a, b: (a * 1).div_(b), node="DivBackward0", arity=2, elements=(FLOATS, NONZERO)),
    OpCase(
        "clamp_", lambda a: (a * 1).clamp_(-0.5, 0.5), node="ClampBackward1", elements=away_from(-0.5, 0.5)
    ),
    OpCase("iadd", _iadd, node="AddBackward0", arity=2),
    OpCase("isub", _isub, node="SubBackward0", arity=2),
    OpCase("imul", _imul, node="MulBackward0", arity=2),
    OpCase("itruediv", _itruediv, node="DivBackward0", arity=2, elements=(FLOATS, NONZERO)),
    OpCase("zero_", _zero_then_add, node="AddBackward0", arity=2),
    OpCase("fill_", _fill_then_mul, node="MulBackward0", arity=2),
    OpCase("copy_", _copy_into, node="MulBackward0", arity=2, shapes=((2, 3), (3,))),
    OpCase("inplace_chain", _inplace_chain, node="DivBackward0", arity=2, elements=(FLOATS, NONZERO)),
    OpCase("inplace_through_view", _inplace_through_view, node="torch::autograd::CopySlices"),
    OpCase(
        "inplace_slice_with_input",
        _inplace_slice_with_input,
        node="torch::autograd::CopySlices",
        arity=2,
        shapes=((2, 3), (2, 2)),
    ),
    OpCase(
        "setitem_through_view",
        _setitem_through_view,
        node="torch::autograd::CopySlices",
        arity=2,
        shapes=((2, 3), (2,)),
    ),
    OpCase(
        "inplace_view_of_view",
        _inplace_view_of_view,
        node="torch::autograd::CopySlices",
        arity=2,
        shapes=((2, 3), (2,)),
    ),
]


def _first_derivative(op):
    """``x, g -> vᵀJ``: an op's backward as a function of its input and the incoming gradient.

    Under ``create_graph`` this is the op PyTorch records for the backward (``ThresholdBackward``,
    ``SoftmaxBackwardData``…), so its own gradient (and, through gradgradcheck, its second) is checked.
    """

    def fn(a, g):
        return lib(a).autograd.grad(op(a), a, g, create_graph=True)[0]

    return fn


CASES += [
    OpCase("relu_backward", _first_derivative(lambda a: a.relu()), node="ThresholdBackwardBackward0", arity=2,
           elements=(NONZERO, FLOATS), runs_under_no_grad=False),
    OpCase("softmax_backward", _first_derivative(lambda a: a.softmax(1)), node="SoftmaxBackwardDataBackward0",
           arity=2, runs_under_no_grad=False),
    OpCase("log_softmax_backward", _first_derivative(lambda a: a.log_softmax(0)),
           node="LogSoftmaxBackwardDataBackward0", arity=2, shapes=((3, 2),), runs_under_no_grad=False),
]


# -- nn2: the nodes of the recurrent layers (minigrad/ops/rnn.py; PyTorch's RNN.cpp uses them internally) --


def _unsafe_chunk(a, chunks, dim):
    if lib(a).__name__ == "minigrad":
        from minigrad.ops.rnn import unsafe_chunk

        return unsafe_chunk(a, chunks, dim)
    return a.unsafe_chunk(chunks, dim)


def _transpose_inplace(a):
    y = a * 1
    if lib(a).__name__ == "minigrad":
        from minigrad.ops.rnn import TransposeInplace

        return TransposeInplace.apply(y, 0, 1)
    return y.transpose_(0, 1)


CASES += [
    OpCase("unsafe_chunk", lambda a: _unsafe_chunk(a, 3, 1), node="UnsafeSplitBackward0", shapes=((2, 6),)),
    OpCase("unsafe_chunk_piece", lambda a: _unsafe_chunk(a, 2, 0)[1].sigmoid(), node="SigmoidBackward0",
           shapes=((4, 3),)),
    OpCase("transpose_inplace", _transpose_inplace, node="TransposeBackward1", shapes=((2, 3),)),
]


# -- nn2: reflection / replication padding (minigrad/ops/padding.py) --
CASES += [
    OpCase("reflection_pad1d", lambda a: lib(a).nn.functional.pad(a, (2, 1), mode="reflect"),
           node="ReflectionPad1DBackward0", shapes=((2, 4),)),
    OpCase("reflection_pad2d", lambda a: lib(a).nn.functional.pad(a, (1, 2, 0, 1), mode="reflect"),
           node="ReflectionPad2DBackward0", shapes=((1, 3, 4),)),
    OpCase("reflection_pad3d", lambda a: lib(a).nn.functional.pad(a, (1, 0, 1, 1, 0, 1), mode="reflect"),
           node="ReflectionPad3DBackward0", shapes=((1, 2, 2, 3),)),
    OpCase("replication_pad1d", lambda a: lib(a).nn.functional.pad(a, (-1, 2), mode="replicate"),
           node="ReplicationPad1DBackward0", shapes=((2, 3),)),
    OpCase("replication_pad2d", lambda a: lib(a).nn.functional.pad(a, (2, 1, 1, 0), mode="replicate"),
           node="ReplicationPad2DBackward0", shapes=((1, 2, 3),)),
    OpCase("replication_pad3d", lambda a: lib(a).nn.functional.pad(a, (1, 1, 0, 2, 1, 0), mode="replicate"),
           node="ReplicationPad3DBackward0", shapes=((1, 2, 2, 2),)),
    OpCase("circular_pad2d", lambda a: lib(a).nn.functional.pad(a, (1, 2, 1, 0), mode="circular"),
           node="torch::autograd::CopySlices", shapes=((1, 2, 3),)),
]

# -- nn3: group norm, conv1d, attention's _safe_softmax (minigrad/ops/groupnorm.py, conv1d.py, attention.py) --


def _safe_softmax(a, dim):
    if lib(a).__name__ == "minigrad":
        from minigrad.ops.attention import SafeSoftmax

        return SafeSoftmax.apply(a, dim)
    return a._safe_softmax(dim) if hasattr(a, "_safe_softmax") else lib(a)._safe_softmax(a, dim)


CASES += [
    OpCase("group_norm", lambda a: lib(a).nn.functional.group_norm(a, 2), node="NativeGroupNormBackward0",
           shapes=((2, 4, 3),)),
    OpCase("group_norm_affine", lambda a, w, b: lib(a).nn.functional.group_norm(a, 3, w, b),
           node="NativeGroupNormBackward0", arity=3, shapes=((2, 6, 2), (6,), (6,))),
    # conv1d: under create_graph PyTorch's one fused ConvolutionBackwardBackward0, as minigrad's (ops/conv.py)
    OpCase("conv1d", lambda a, w, b: lib(a).nn.functional.conv1d(a, w, b, 2, 1, 1, 2),
           node="ConvolutionBackward0", arity=3, shapes=((2, 4, 5), (2, 2, 3), (2,))),
    OpCase("safe_softmax", lambda a: _safe_softmax(a, 1), node="SafeSoftmaxBackward0", shapes=((2, 4),)),
]

CASES += [
    OpCase("hardswish_backward", _first_derivative(lambda a: lib(a).nn.functional.hardswish(a)),
           node="HardswishBackwardBackward0", arity=2, elements=(PAST_3, FLOATS),
           runs_under_no_grad=False),
    OpCase("celu_backward", _first_derivative(lambda a: lib(a).nn.functional.celu(a, 0.7)),
           node="EluBackwardBackward0", arity=2, elements=(NONZERO, FLOATS), runs_under_no_grad=False),
    OpCase("softshrink_backward", _first_derivative(lambda a: lib(a).nn.functional.softshrink(a)),
           node="SoftshrinkBackwardBackward0", arity=2, elements=(away_from(-0.5, 0.5), FLOATS),
           runs_under_no_grad=False),
    OpCase("hardshrink_backward", _first_derivative(lambda a: lib(a).nn.functional.hardshrink(a)),
           node="HardshrinkBackwardBackward0", arity=2, elements=(away_from(-0.5, 0.5), FLOATS),
           runs_under_no_grad=False),
    OpCase("glu_backward", _first_derivative(lambda a: lib(a).nn.functional.glu(a, 0)),
           node="GluBackwardBackward0", arity=2, shapes=((4, 3), (2, 3)), runs_under_no_grad=False),
    OpCase("rrelu_backward", _first_derivative(lambda a: lib(a).nn.functional.rrelu(a)),
           node="RreluWithNoiseBackwardBackward0", arity=2, elements=(NONZERO, FLOATS), runs_under_no_grad=False),
]

# -- nn4: baddbmm (MultiheadAttention's masked scores), PyTorch's fused CPU attention node -----------------


def _baddbmm(m, a, b):
    if lib(a).__name__ == "minigrad":
        from minigrad.ops.baddbmm import Baddbmm

        return Baddbmm.apply(m, a, b, 0.5, 2.0)
    return lib(a).baddbmm(m, a, b, beta=0.5, alpha=2.0)


CASES += [
    OpCase("baddbmm", _baddbmm, node="BaddbmmBackward0", arity=3, shapes=((1, 2, 4), (3, 2, 3), (3, 3, 4))),
    # 4-d q, k, v, no dropout: one ScaledDotProductFlashAttentionForCpuBackward0 node.  (PyTorch has no
    # double backward for it -- "derivative ... is not implemented"; minigrad's backward is Tensor ops.)
    OpCase("sdpa_flash", lambda q, k, v: lib(q).nn.functional.scaled_dot_product_attention(q, k, v, scale=0.8),
           node="ScaledDotProductFlashAttentionForCpuBackward0", arity=3,
           shapes=((1, 2, 3, 2), (1, 2, 4, 2), (1, 2, 4, 2))),
    OpCase("sdpa_flash_causal", lambda q, k, v: lib(q).nn.functional.scaled_dot_product_attention(
        q, k, v, is_causal=True), node="ScaledDotProductFlashAttentionForCpuBackward0", arity=3,
        shapes=((2, 1, 3, 2), (2, 1, 3, 2), (2, 1, 3, 2))),
]


def _interp(mode, **kw):
    return lambda a: lib(a).nn.functional.interpolate(a, mode=mode, **kw)


CASES += [   # nn4: upsampling, one node each (its backward is a node too: ...BackwardBackward0)
    OpCase("upsample_nearest1d", _interp("nearest", scale_factor=2), node="UpsampleNearest1DBackward0",
           shapes=((1, 2, 3),)),
    OpCase("upsample_nearest2d", _interp("nearest", size=(3, 5)), node="UpsampleNearest2DBackward0",
           shapes=((1, 2, 2, 3),)),
    OpCase("upsample_nearest3d", _interp("nearest", scale_factor=(2, 1, 1.5)), node="UpsampleNearest3DBackward0",
           shapes=((1, 1, 2, 2, 2),)),
    OpCase("upsample_nearest_exact2d", _interp("nearest-exact", size=(3, 2)),
           node="UpsampleNearestExact2DBackward0", shapes=((1, 2, 2, 3),)),
    OpCase("upsample_linear1d", _interp("linear", size=5, align_corners=True), node="UpsampleLinear1DBackward0",
           shapes=((2, 1, 3),)),
    OpCase("upsample_bilinear2d", _interp("bilinear", scale_factor=1.5), node="UpsampleBilinear2DBackward0",
           shapes=((1, 2, 2, 3),)),
    OpCase("upsample_bicubic2d", _interp("bicubic", size=(3, 4)), node="UpsampleBicubic2DBackward0",
           shapes=((1, 1, 3, 3),)),
    OpCase("upsample_trilinear3d", _interp("trilinear", size=(3, 2, 3)), node="UpsampleTrilinear3DBackward0",
           shapes=((1, 1, 2, 2, 2),)),
]

CASES += [   # nn4: adaptive max pooling (GRID: no ties)
    OpCase("adaptive_max_pool2d", lambda a: lib(a).nn.functional.adaptive_max_pool2d(a, (2, 3)),
           node="AdaptiveMaxPool2DBackward0", elements=GRID, unique=True, shapes=((1, 2, 3, 5),)),
    OpCase("adaptive_max_pool1d", lambda a: lib(a).nn.functional.adaptive_max_pool1d(a, 2),
           node="SqueezeBackward1", elements=GRID, unique=True, shapes=((2, 5),)),
]


# -- nn5: torch.linalg decompositions and products (minigrad/ops/decomp_nn5.py) --
def _spd(a):
    """A well-conditioned symmetric positive-definite matrix built from ``a`` (graph: mm, add)."""
    return a @ a.transpose(-2, -1) + 2 * lib(a).eye(a.shape[-1], dtype=a.dtype)


def _sym(a):
    return a + a.transpose(-2, -1)


def _gapped(a):
    """Eigenvalues of a + aᵀ at least 0.2 apart (eigh's gradient divides by the gaps)."""
    w = np.linalg.eigvalsh(a + np.swapaxes(a, -1, -2))
    return bool(np.all(np.diff(w, axis=-1) > 0.2))


def _well_conditioned(a):
    s = np.linalg.svd(a, compute_uv=False)
    return bool(np.all(s > 0.2))


def _qr_smooth(a):
    """Well-conditioned and away from Householder's sign switch (a reflected entry crossing 0 flips Q's column
    and R's row): R's diagonal signs survive perturbations of 1e-3."""
    if not _well_conditioned(a):
        return False
    signs = np.sign(np.diagonal(np.linalg.qr(a)[1], 0, -2, -1))
    rng = np.random.default_rng(0)
    return all(np.array_equal(signs, np.sign(np.diagonal(np.linalg.qr(a + 1e-3 * rng.standard_normal(a.shape))[1],
                                                           0, -2, -1))) for _ in range(8)) and bool(
        np.all(np.abs(np.diagonal(np.linalg.qr(a)[1], 0, -2, -1)) > 0.1))


CASES += [
    OpCase("linalg_cholesky", lambda a: lib(a).linalg.cholesky(_spd(a)), node="LinalgCholeskyExBackward0",
           shapes=((3, 3),)),
    OpCase("linalg_cholesky_upper", lambda a: lib(a).linalg.cholesky(_spd(a), upper=True),
           node="LinalgCholeskyExBackward0", shapes=((2, 3, 3),)),
    OpCase("linalg_qr", lambda a: lib(a).linalg.qr(a)[0] + lib(a).linalg.qr(a)[1].sum(), node="AddBackward0",
           shapes=((4, 3),), valid=_qr_smooth),
    OpCase("linalg_qr_wide_R", lambda a: lib(a).linalg.qr(a)[1], node="LinalgQrBackward0", shapes=((2, 4),),
           valid=_qr_smooth),
    OpCase("linalg_qr_Q", lambda a: lib(a).linalg.qr(a)[0], node="LinalgQrBackward0", shapes=((3, 3),),
           valid=_qr_smooth),
    OpCase("linalg_eigvalsh", lambda a: lib(a).linalg.eigvalsh(_sym(a)), node="LinalgEighBackward0",
           shapes=((3, 3),), valid=_gapped),
    # eigenvectors have no fixed sign: a sign-invariant function of them (outer products v vᵀ)
    OpCase("linalg_eigh_vectors", lambda a: lib(a).linalg.eigh(_sym(a))[1] * lib(a).linalg.eigh(_sym(a))[1],
           node="MulBackward0", shapes=((3, 3),), valid=_gapped),
    OpCase("linalg_pinv", lambda a: lib(a).linalg.pinv(a), node="LinalgPinvBackward0", shapes=((3, 2),),
           valid=_well_conditioned),
    OpCase("linalg_pinv_wide", lambda a: lib(a).linalg.pinv(a), node="LinalgPinvBackward0", shapes=((2, 4),),
           valid=_well_conditioned),
    OpCase("linalg_lstsq", lambda a, b: lib(a).linalg.lstsq(a, b).solution, node="LinalgLstsqBackward0",
           arity=2, shapes=((4, 2), (4, 3)), valid=lambda a, b: _well_conditioned(a)),
    OpCase("linalg_lstsq_residuals", lambda a, b: lib(a).linalg.lstsq(a, b, driver="gelsd").residuals,
           node="LinalgLstsqBackward0", arity=2, shapes=((4, 2), (4, 3)), valid=lambda a, b: _well_conditioned(a)),
    OpCase("linalg_cross", lambda a, b: lib(a).linalg.cross(a, b), node="LinalgCrossBackward0", arity=2,
           shapes=((2, 3), (1, 3))),
    OpCase("linalg_matrix_exp", lambda a: lib(a).linalg.matrix_exp(a), node="LinalgMatrixExpBackward0",
           shapes=((3, 3),)),
    OpCase("vdot", lambda a, b: lib(a).vdot(a, b), node="VdotBackward0", arity=2, shapes=((4,), (4,))),
    OpCase("linalg_multi_dot", lambda a, b, c: lib(a).linalg.multi_dot([a, b, c]), node="ViewBackward0", arity=3,
           shapes=((2, 3), (3, 4), (4, 1))),
    OpCase("linalg_matrix_power", lambda a: lib(a).linalg.matrix_power(a, 5), node="MmBackward0",
           shapes=((3, 3),)),
]


def _rows_apart(a):
    """Every pair of rows at least 0.3 apart: the norm's curvature ~ 1/distance stays in finite differences' reach."""
    return all(np.linalg.norm(a[i] - a[j]) > 0.3 for i in range(len(a)) for j in range(i + 1, len(a)))


CASES += [   # nn4: distances (the two inputs on either side of 0: never near the norm's kink)
    OpCase("pairwise_distance", lambda a, b: lib(a).nn.functional.pairwise_distance(a, b, 3.0),
           node="NormBackward1", arity=2, elements=(st.floats(0.3, 2), st.floats(-2, -0.3)), shapes=((3, 4), (3, 4))),
    OpCase("pdist", lambda a: lib(a).nn.functional.pdist(a), node="PdistBackward0", shapes=((3, 2),),
           valid=_rows_apart),
]


# -- nn5: torch.special (minigrad/ops/special.py) --
CASES += [
    OpCase("special_erfc", lambda a: lib(a).special.erfc(a), node="ErfcBackward0"),
    OpCase("special_erfinv", lambda a: lib(a).special.erfinv(a), node="ErfinvBackward0",
           elements=st.floats(-0.9, 0.9)),
    OpCase("lgamma", lambda a: lib(a).lgamma(a), node="LgammaBackward0", elements=POSITIVE),
    OpCase("digamma", lambda a: lib(a).digamma(a), node="DigammaBackward0", elements=POSITIVE),
    OpCase("polygamma_2", lambda a: lib(a).polygamma(2, a), node="PolygammaBackward0", elements=POSITIVE),
    OpCase("special_i0", lambda a: lib(a).special.i0(a), node="I0Backward0"),
    # (away from 0: i1's slope I0 − I1/x, differentiated again, divides by x² -- PyTorch's formula too)
    OpCase("special_i1", lambda a: lib(a).special.i1(a), node="SpecialI1Backward0", elements=NONZERO),
    OpCase("sinc", lambda a: lib(a).sinc(a), node="SincBackward0", elements=NONZERO),
    OpCase("logit", lambda a: lib(a).logit(a), node="LogitBackward0", elements=st.floats(0.1, 0.9)),
    OpCase("logit_eps", lambda a: lib(a).logit(a, 0.05), node="LogitBackward0", elements=st.floats(0.1, 0.9)),
    OpCase("special_entr", lambda a: lib(a).special.entr(a), node="SpecialEntrBackward0", elements=POSITIVE),
    OpCase("special_log_ndtr", lambda a: lib(a).special.log_ndtr(a), node="SpecialLogNdtrBackward0"),
    OpCase("special_ndtr", lambda a: lib(a).special.ndtr(a), node="MulBackward1"),
    OpCase("xlogy", lambda a, b: lib(a).xlogy(a, b), node="XlogyBackward0", arity=2, elements=(FLOATS, POSITIVE),
           shapes=BROADCAST_2),
    OpCase("special_xlog1py", lambda a, b: lib(a).special.xlog1py(a, b), node="SpecialXlog1PyBackward0", arity=2,
           elements=(FLOATS, POSITIVE), shapes=BROADCAST_2),
    OpCase("special_exp2", lambda a: lib(a).special.exp2(a), node="Exp2Backward0"),
    OpCase("mvlgamma", lambda a: lib(a).mvlgamma(a * a + 1.2, 3), node="MvlgammaBackward0"),
]

CASES_BY_NAME = {case.name: case for case in CASES}
assert len(CASES_BY_NAME) == len(CASES), "duplicate case names"
