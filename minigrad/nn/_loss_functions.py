"""More losses of ``nn.functional``, written with the ops PyTorch's own composites use, so that the
``grad_fn`` chains are the same: ``kl_div``, ``margin_ranking_loss``, ``hinge_embedding_loss``,
``cosine_embedding_loss``, ``multilabel_soft_margin_loss``, ``poisson_nll_loss``, ``gaussian_nll_loss``.

Where PyTorch's composite is C++ (ATen's ``Loss.cpp``), a number on the right is a Scalar overload
(``margin + x`` is ``AddBackward1``: ``T.add_scalar``) and a number on the left a filled tensor
(``1 - cos`` is ``SubBackward0``: ``T.scalar_sub``); where it is Python, a number is a wrapped tensor
(``AddBackward0``), as minigrad's operators record it.

>>> import minigrad as torch
>>> import minigrad.nn.functional as F
>>> F.margin_ranking_loss(torch.tensor([1., 2.]), torch.tensor([2., 0.]), torch.tensor([1., 1.]))
tensor(0.5000)
"""

from __future__ import annotations

import math
import warnings
from typing import Any

from .._creation import ones_like, where, zeros_like
from .._tensor import Tensor
from ..autograd import grad_mode
from ..ops._rules import T
from ..ops.activations import Xlogy

__all__ = [
    "kl_div",
    "margin_ranking_loss",
    "hinge_embedding_loss",
    "cosine_embedding_loss",
    "multilabel_soft_margin_loss",
    "poisson_nll_loss",
    "gaussian_nll_loss",
]


def _enum(reduction, size_average, reduce):
    from .functional import _reduction  # circular: functional re-exports this module
    return _reduction(reduction, size_average, reduce)


def _string(reduction, size_average, reduce):
    from .functional import _legacy_reduction  # circular: functional re-exports this module
    return _legacy_reduction(size_average, reduce) if size_average is not None or reduce is not None else reduction


def _apply(output, enum):
    """ATen's ``apply_loss_reduction``: 0 none, 1 mean, 2 sum."""
    return output.mean() if enum == 1 else output.sum() if enum == 2 else output


def kl_div(input: Tensor, target: Tensor, size_average: Any = None, reduce: Any = None, reduction: str = "mean",
           log_target: bool = False) -> Tensor:
    """``Σ target · (log target − input)`` (``input`` is log-probabilities; ``log_target``: so is ``target``).

    ``reduction='batchmean'`` divides the sum by the batch size (the KL divergence per sample);
    ``'mean'`` divides by the number of elements, and warns, as PyTorch does.
    """
    if size_average is not None or reduce is not None:
        enum = _enum(reduction, size_average, reduce)
    else:
        if reduction == "mean":
            warnings.warn(
                "reduction: 'mean' divides the total loss by both the batch size and the support size."
                "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
                UserWarning, stacklevel=2)
        enum = _enum("sum" if reduction == "batchmean" else reduction, None, None)
    for t in (input, target):
        if t._data.dtype.kind not in "fc":
            raise RuntimeError("kl_div: Integral inputs not supported.")
    if log_target:
        output = target.exp() * (target - input)
    else:
        output = Xlogy.apply(target, target) - target * input
    reduced = _apply(output, enum)
    if reduction == "batchmean" and input.ndim != 0:
        reduced = reduced / input.shape[0]
    return reduced


def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0,
                        size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> Tensor:
    """``max(0, −target · (input1 − input2) + margin)``: ``target = 1`` asks for ``input1 > input2``."""
    enum = _enum(reduction, size_average, reduce)
    if input1.ndim != input2.ndim or input1.ndim != target.ndim:
        raise RuntimeError("margin_ranking_loss : All input tensors should have same dimension but got sizes: "
                           "input1: %s, input2: %s, target: %s " % (input1.shape, input2.shape, target.shape))
    output = T.add_scalar(-target * (input1 - input2), margin).clamp_min_(0)
    return _apply(output, enum)


def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0, size_average: Any = None,
                         reduce: Any = None, reduction: str = "mean") -> Tensor:
    """``x`` where ``target = 1``, ``max(0, margin − x)`` where ``target = −1``."""
    enum = _enum(reduction, size_average, reduce)
    zeros = zeros_like(input)
    margin_clamp = T.scalar_sub(margin, input).clamp_min_(0)
    output_margin = where(target != 1, margin_clamp, zeros)
    output_self = where(target != -1, input, zeros)
    return _apply(output_margin + output_self, enum)


def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0,
                          size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> Tensor:
    """``1 − cos(x1, x2)`` where ``target = 1``, ``max(0, cos(x1, x2) − margin)`` where ``target = −1``."""
    enum = _enum(reduction, size_average, reduce)
    targ_dim = target.ndim
    if targ_dim not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if targ_dim == 1 and not (input1.ndim == 2 and input2.ndim == 2):
        raise RuntimeError("1D target tensor expects 2D input tensors, but found inputs with sizes %s and %s."
                           % (_sizes(input1), _sizes(input2)))
    if targ_dim == 0 and not (input1.ndim == 1 and input2.ndim == 1):
        raise RuntimeError("0D target tensor expects 1D input tensors, but found inputs with sizes %s and %s."
                           % (_sizes(input1), _sizes(input2)))
    eps = 1e-12
    prod_sum = (input1 * input2).sum(targ_dim)
    mag_square1 = T.add_scalar((input1 * input1).sum(targ_dim), eps)
    mag_square2 = T.add_scalar((input2 * input2).sum(targ_dim), eps)
    denom = (mag_square1 * mag_square2).sqrt_()
    cos = prod_sum / denom
    zeros = zeros_like(cos)
    pos = T.scalar_sub(1, cos)
    neg = T.sub_scalar(cos, margin).clamp_min_(0)
    output = where(target == 1, pos, zeros) + where(target == -1, neg, zeros)
    return _apply(output, enum)


def _sizes(t):
    return "[%s]" % ", ".join(str(n) for n in t.shape)


def multilabel_soft_margin_loss(input: Tensor, target: Tensor, weight: Tensor | None = None,
                                size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> Tensor:
    """The binary cross-entropy of each class's logit, averaged over the classes (dim −1)."""
    from .functional import logsigmoid  # circular: functional re-exports this module
    reduction = _string(reduction, size_average, reduce)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.ndim - 1
    loss = loss.sum(dim=class_dim) / input.shape[class_dim]
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError(reduction + " is not valid")


def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool = True, full: bool = False,
                     size_average: Any = None, eps: float = 1e-8, reduce: Any = None,
                     reduction: str = "mean") -> Tensor:
    """The Poisson negative log-likelihood: ``exp(input) − target · input`` (``log_input``), else
    ``input − target · log(input + eps)``; ``full`` adds Stirling's term where ``target > 1``."""
    reduction = _string(reduction, size_average, reduce)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not a valid value for reduction")
    if log_input:
        loss = input.exp() - target * input
    else:
        loss = input - target * T.add_scalar(input, eps).log()
    if full:
        stirling = target * target.log() - target + T.mul_scalar(T.mul_scalar(target, 2 * math.pi).log(), 0.5)
        loss = loss + stirling.masked_fill(target <= 1, 0)
    return _apply(loss, {"none": 0, "mean": 1, "sum": 2}[reduction])


def gaussian_nll_loss(input: Tensor, target: Tensor, var: Tensor | float, full: bool = False, eps: float = 1e-6,
                      reduction: str = "mean") -> Tensor:
    """The Gaussian negative log-likelihood ``(log var + (input − target)² / var) / 2`` (``var`` clamped at eps)."""
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * ones_like(input)
    elif bool((var < 0).any()):
        raise ValueError("var has negative entry/entries")
    if tuple(var.shape) != tuple(input.shape):
        if tuple(input.shape[:-1]) == tuple(var.shape):
            var = var.unsqueeze(-1)
        elif input.ndim == var.ndim and sum(y for x, y in zip(input.shape, var.shape) if x != y) == 1:
            pass
        else:
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with grad_mode.no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss
