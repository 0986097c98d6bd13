"""The activations of ``nn.functional`` beyond the classic ones: ``relu6``, ``selu``, ``celu``, ``hardswish``,
``mish``, ``glu``, ``prelu``, ``rrelu``, the shrinks and their in-place forms, recorded as PyTorch records them.

Re-exported by :mod:`minigrad.nn.functional` (use them as ``F.selu``...).

>>> import minigrad as torch
>>> import minigrad.nn.functional as F
>>> F.hardswish(torch.tensor([-4., 0., 1., 4.], requires_grad=True))
tensor([-0.0000,  0.0000,  0.6667,  4.0000], grad_fn=<HardswishBackward0>)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _checks
from .._creation import _rng
from .._tensor import Tensor
from ..ops import activations as A
from ..ops import nn_ops as N

__all__ = [
    "relu6",
    "selu",
    "selu_",
    "celu",
    "celu_",
    "elu_",
    "hardtanh_",
    "leaky_relu_",
    "hardswish",
    "hardsigmoid",
    "mish",
    "softsign",
    "softmin",
    "softshrink",
    "hardshrink",
    "tanhshrink",
    "glu",
    "prelu",
    "rrelu",
    "rrelu_",
]

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _floating(input: Any, kernel: str, fn: str) -> None:
    """PyTorch's dispatch error for an integer or bool input: ``"elu_cpu" not implemented for 'Long'``."""
    _checks.tensor_arg(input, fn, "input")
    if input._data.dtype.kind not in "fc":
        raise NotImplementedError('"%s" not implemented for \'%s\'' % (kernel, _checks.dtype_name(input.dtype)))


def _elementwise(rule, inplace_rule, input, fn, kernel, inplace, *args):
    _floating(input, kernel, fn)
    if inplace:
        return input._inplace(lambda x: inplace_rule.apply(x, *args))
    return rule.apply(input, *args)


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    """``min(max(x, 0), 6)``: PyTorch records it as ``hardtanh(x, 0, 6)`` (``HardtanhBackward0``).

    >>> import minigrad as torch
    >>> torch.nn.functional.relu6(torch.tensor([-1., 3., 7.]))
    tensor([0., 3., 6.])
    """
    _checks.tensor_arg(input, "relu6", "input")
    if inplace:
        return input._inplace(lambda x: N.Hardtanh.apply(x, 0.0, 6.0))
    return N.Hardtanh.apply(input, 0.0, 6.0)


def hardtanh_(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    """In-place :func:`hardtanh` (PyTorch's node is ``HardtanhBackward0`` here too)."""
    from .functional import hardtanh  # circular: functional re-exports this module
    return hardtanh(input, min_val, max_val, inplace=True)


def leaky_relu_(input: Tensor, negative_slope: float = 0.01) -> Tensor:
    """In-place :func:`leaky_relu` (``LeakyReluBackward1``)."""
    from .functional import leaky_relu  # circular: functional re-exports this module
    return leaky_relu(input, negative_slope, inplace=True)


def _elu(input, alpha, scale, input_scale, inplace, fn):
    _checks.number_arg(alpha, fn, "alpha", 2)
    return _elementwise(N.Elu, A.EluInplace, input, fn, "elu_cpu", inplace, alpha, scale, input_scale)


def elu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    """In-place :func:`elu` (``EluBackward1``)."""
    return _elu(input, alpha, 1.0, 1.0, True, "elu_")


def selu(input: Tensor, inplace: bool = False) -> Tensor:
    """``scale · elu(x, alpha)`` with SELU's fixed constants: PyTorch's ``EluBackward0`` with a scale.

    >>> import minigrad as torch
    >>> torch.nn.functional.selu(torch.tensor([1.])).grad_fn is None
    True
    """
    return _elu(input, _SELU_ALPHA, _SELU_SCALE, 1.0, inplace, "selu")


def selu_(input: Tensor) -> Tensor:
    """In-place :func:`selu` (``EluBackward1``)."""
    return selu(input, inplace=True)


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """``max(0, x) + min(0, α (e^(x/α) − 1))`` (``CeluBackward0``)."""
    _checks.number_arg(alpha, "celu", "alpha", 2)
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    return _elementwise(A.Celu, A.CeluInplace, input, "celu", "elu_cpu", inplace, alpha)


def celu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    """In-place :func:`celu` (``CeluBackward1``)."""
    return celu(input, alpha, inplace=True)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    """``x · relu6(x + 3) / 6`` (``HardswishBackward0``)."""
    return _elementwise(A.Hardswish, A.Hardswish, input, "hardswish", "hardswish_cpu", inplace)


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    """``relu6(x + 3) / 6`` (``HardsigmoidBackward0``)."""
    return _elementwise(A.Hardsigmoid, A.Hardsigmoid, input, "hardsigmoid", "hardsigmoid_cpu", inplace)


def mish(input: Tensor, inplace: bool = False) -> Tensor:
    """``x · tanh(softplus(x))`` (``MishBackward0``)."""
    return _elementwise(A.Mish, A.Mish, input, "mish", "mish_cpu", inplace)


def softsign(input: Tensor) -> Tensor:
    """``x / (1 + |x|)``, a composite in PyTorch too (``DivBackward0`` of ``AddBackward0`` of ``AbsBackward0``)."""
    return input / (input.abs() + 1)


def tanhshrink(input: Tensor) -> Tensor:
    """``x − tanh x`` (``SubBackward0``)."""
    return input - input.tanh()


def softmin(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None) -> Tensor:
    """``softmax(−x)`` along ``dim`` (``SoftmaxBackward0`` of ``NegBackward0``)."""
    from .functional import _implicit_dim  # circular: functional re-exports this module
    if dim is None:
        dim = _implicit_dim("softmin", input.ndim)
    return (-input).softmax(dim, dtype=dtype)


def _check_lambd(input, lambd, kernel):
    _floating(input, kernel, kernel.rsplit("_", 1)[0])
    if kernel == "softshrink_check":
        finfo = np.finfo(input._data.dtype)
        if not 0 <= lambd <= finfo.max:
            raise RuntimeError("lambda must be in range [0, %s] for input dtype %s, but found %s"
                               % ("%g" % float(finfo.max) if finfo.bits != 32 else "3.40282e+38",
                                  _checks.dtype_name(input.dtype), "%g" % lambd))


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """``x − λ`` above λ, ``x + λ`` below −λ, 0 between (``SoftshrinkBackward0``)."""
    _check_lambd(input, lambd, "softshrink_check")
    return A.Softshrink.apply(input, lambd)


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """``x`` where ``|x| > λ``, 0 elsewhere (``HardshrinkBackward0``)."""
    _check_lambd(input, lambd, "hardshrink_cpu")
    return A.Hardshrink.apply(input, lambd)


def glu(input: Tensor, dim: int = -1) -> Tensor:
    """The gated linear unit: ``a · σ(b)`` for the halves ``a, b`` of ``input`` along ``dim`` (``GluBackward0``)."""
    _floating(input, "glu_cpu", "glu")
    if input.ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    d = _checks.wrap_dim(dim, input.ndim)
    if input.shape[d] % 2:
        raise RuntimeError("Halving dimension must be even, but dimension %d is size %d" % (d, input.shape[d]))
    return A.Glu.apply(input, d)


def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """``x`` where positive, ``weight · x`` elsewhere, one learned slope per channel (dim 1).

    As PyTorch: the weight is viewed to broadcast over the input (``ViewBackward0``), then
    ``PreluKernelBackward0``.
    """
    _checks.tensor_arg(input, "prelu", "self")
    _checks.tensor_arg(weight, "prelu", "weight", 2)
    if input.dtype != weight.dtype:
        raise RuntimeError("prelu: Type promoting not supported. Got %s and %s"
                           % (_checks.dtype_name(input.dtype), _checks.dtype_name(weight.dtype)))
    if weight.numel() != 1:
        if input.ndim == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        channels = input.shape[1] if input.ndim > 1 else 1
        if channels != weight.numel():
            raise RuntimeError("Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                               "%d and channel size = %d." % (weight.numel(), channels))
    if weight.ndim > 1:
        raise RuntimeError("prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = %d" % weight.ndim)
    _floating(input, "prelu_cpu", "prelu")
    if input.ndim != weight.ndim:
        shape = [1] * input.ndim
        if input.ndim > 1:
            shape[1] = weight.numel()
        weight = weight.reshape(shape)
    return A.PreluKernel.apply(input, weight)


def _rrelu(input, lower, upper, training, inplace, fn):
    _checks.tensor_arg(input, fn, "input")
    if upper < lower:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    _floating(input, "leaky_relu_cpu", fn)
    x = input._data
    if training:
        # PyTorch's CPU kernel draws uniform_real_distribution<double>(lower, upper) once per element <= 0, in order
        negative = ~(x > 0)
        noise = np.ones(x.shape, dtype=x.dtype)
        noise[negative] = _rng().uniform(int(negative.sum()), np.float64, lower, upper).astype(x.dtype)
    else:
        noise = np.zeros(x.shape, dtype=x.dtype)
    op = A.RreluWithNoiseInplace if inplace else A.RreluWithNoise
    if inplace:
        return input._inplace(lambda t: op.apply(t, noise, lower, upper, bool(training)))
    return op.apply(input, noise, lower, upper, bool(training))


def rrelu(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False,
          inplace: bool = False) -> Tensor:
    """A leaky ReLU whose negative slope is drawn uniformly from ``[lower, upper]`` per element in training,
    and is ``(lower + upper) / 2`` in eval (``RreluWithNoiseBackward0``).  The draw is PyTorch's: the same
    seed gives the same slopes."""
    return _rrelu(input, lower, upper, training, inplace, "rrelu")


def rrelu_(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False) -> Tensor:
    """In-place :func:`rrelu` (``RreluWithNoiseBackward1``)."""
    return _rrelu(input, lower, upper, training, True, "rrelu_")

