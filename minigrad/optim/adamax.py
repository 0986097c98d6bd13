"""``Adamax``: Adam with the infinity norm in place of the second moment (Kingma & Ba, section 7)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._tensor import Tensor
from . import _kernels as K
from .optimizer import Optimizer, _bump, _step_counter, _zeros_like

__all__ = ["Adamax"]


def _check_lr(lr: Any) -> None:
    if isinstance(lr, Tensor) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")
    if not lr >= 0.0:
        raise ValueError(f"Invalid learning rate: {lr}")


def _scalar(value: Any) -> Any:
    """A 1-element tensor hyperparameter as a number (PyTorch's ``_to_scalar``)."""
    return value.item() if isinstance(value, Tensor) else value


class Adamax(Optimizer):
    """Adamax, PyTorch's single-tensor update.

    For each parameter ``p`` with gradient ``g``, at step ``t``::

        g = g + weight_decay · p                     if weight_decay
        m = lerp(m, g, 1 − β₁)                       (state 'exp_avg')
        u = max(β₂ · u, |g| + eps)                   (state 'exp_inf')
        p = p − lr / (1 − β₁ᵗ) · m / u

    Examples
    --------
    >>> import minigrad as torch
    >>> w = torch.tensor([1.0, -2.0], requires_grad=True)
    >>> opt = torch.optim.Adamax([w], lr=0.1)
    >>> w.grad = torch.tensor([0.5, -4.0]); opt.step(); w.data
    tensor([ 0.9000, -1.9000])
    """

    def __init__(self, params: Any, lr: Any = 2e-3, betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, foreach: Any = None, *, maximize: bool = False,
                 differentiable: bool = False, capturable: bool = False) -> None:
        _check_lr(lr)
        if not eps >= 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not weight_decay >= 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)

    def _update(self, p, group) -> None:
        state = self.state[p]
        if not state:
            state["step"] = _step_counter()
            state["exp_avg"] = _zeros_like(p)
            state["exp_inf"] = _zeros_like(p)
        (beta1, beta2), eps, weight_decay = group["betas"], group["eps"], group["weight_decay"]
        lr = _scalar(group["lr"])
        g = -p.grad._data if group["maximize"] else p.grad._data
        state["step"]._data += 1
        if weight_decay != 0:
            g = K.add(g, p._data, weight_decay)
        m, u = state["exp_avg"], state["exp_inf"]
        t = p._data.dtype.type
        m._data[...] = K.lerp(m._data, g, 1 - beta1)
        u._data *= t(beta2)
        np.maximum(u._data, np.abs(g) + t(eps), out=u._data)
        clr = lr / (1 - beta1 ** float(state["step"]._data))
        p._data[...] = K.addcdiv(p._data, m._data, u._data, -clr)
        _bump(state["step"], m, u, u, p)
