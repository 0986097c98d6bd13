"""``torch.nn.utils``: gradient clipping for training loops.

>>> import minigrad as torch
>>> p = torch.nn.Parameter(torch.tensor([3., 4.]))
>>> (p * p).sum().backward()
>>> torch.nn.utils.clip_grad_norm_([p], max_norm=1.0), p.grad
(tensor(10.), tensor([0.6000, 0.8000]))
"""

from __future__ import annotations

from typing import Any

from .._creation import stack, tensor
from .._tensor import Tensor
from ..autograd.grad_mode import no_grad

__all__ = ["clip_grad_norm_", "clip_grad_value_"]


def _with_grads(parameters):
    parameters = [parameters] if isinstance(parameters, Tensor) else list(parameters)
    return [p for p in parameters if p.grad is not None]


def clip_grad_norm_(parameters: Any, max_norm: Any, norm_type: float = 2.0, error_if_nonfinite: bool = False,
                    foreach: Any = None) -> Tensor:
    """Scale the gradients in place so that their total norm is at most ``max_norm``; return the norm before."""

    max_norm, norm_type = float(max_norm), float(norm_type)    # (PyTorch converts first, grads or not)
    params = _with_grads(parameters)
    if not params:
        return tensor(0.0)
    with no_grad():
        total = stack([p.grad.norm(norm_type) for p in params]).norm(norm_type)
        if error_if_nonfinite and not bool(total.isfinite()):
            raise RuntimeError("The total norm of order %s for gradients from `parameters` is non-finite, so it "
                               "cannot be clipped. To disable this error and scale the gradients by the "
                               "non-finite norm anyway, set `error_if_nonfinite=False`" % float(norm_type))
        scale = (max_norm / (total + 1e-6)).clamp(max=1.0)
        for p in params:
            p.grad.mul_(scale.to(p.grad.dtype))
    return total


def clip_grad_value_(parameters: Any, clip_value: Any, foreach: Any = None) -> None:
    """Clamp every gradient in place to ``[-clip_value, clip_value]``."""
    with no_grad():
        for p in _with_grads(parameters):
            p.grad.clamp_(-clip_value, clip_value)
