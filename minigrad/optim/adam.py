"""``Adam``: adaptive moment estimation (and, with ``decoupled_weight_decay=True``, AdamW)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .optimizer import Optimizer, _bump, _step_counter, _zeros_like

__all__ = ["Adam"]


class Adam(Optimizer):
    """Adam, PyTorch's update rule. For each parameter ``p`` with gradient ``g``, at step ``t = 1, 2, …``::

        g = g + weight_decay * p            (Adam: an L2 term in the gradient)
        p = p * (1 - lr * weight_decay)     (AdamW / decoupled_weight_decay: decay the weights instead)
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g²    (amsgrad: v_max = max(v_max, v), used below instead of v)
        p -= lr / (1 - beta1^t) * m / (√v / √(1 - beta2^t) + eps)

    State per parameter: ``step`` (a float32 0-dim tensor), ``exp_avg`` (m), ``exp_avg_sq`` (v)
    and, with amsgrad, ``max_exp_avg_sq``.

    Examples
    --------
    >>> import minigrad as torch
    >>> w = torch.tensor([5.0, -3.0], requires_grad=True)
    >>> opt = torch.optim.Adam([w], lr=0.1)
    >>> w.grad = torch.tensor([100., -0.001]); opt.step()
    >>> w.data, opt.state[w]["step"]
    (tensor([ 4.9000, -2.9000]), tensor(1.))
    """

    def __init__(self, params: Any, lr: float = 0.001, betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-08,
                 weight_decay: float = 0, amsgrad: bool = False, *, foreach: Any = None, maximize: bool = False,
                 capturable: bool = False, differentiable: bool = False, fused: Any = None,
                 decoupled_weight_decay: bool = False) -> None:
        if not lr >= 0.0:
            raise ValueError("Invalid learning rate: %s" % lr)
        if not eps >= 0.0:
            raise ValueError("Invalid epsilon value: %s" % eps)
        for i, beta in enumerate(betas):
            if not 0.0 <= beta < 1.0:
                raise ValueError("Invalid beta parameter at index %d: %s" % (i, beta))
        if not weight_decay >= 0.0:
            raise ValueError("Invalid weight_decay value: %s" % weight_decay)
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "amsgrad": amsgrad,
            "maximize": maximize,
            "foreach": foreach,
            "capturable": capturable,
            "differentiable": differentiable,
            "fused": fused,
            "decoupled_weight_decay": decoupled_weight_decay,
        }
        super().__init__(params, defaults)

    def _init_state(self, p, group) -> dict[Any, Any]:
        state = self.state[p]
        if not state:
            state["step"] = _step_counter()
            state["exp_avg"] = _zeros_like(p)
            state["exp_avg_sq"] = _zeros_like(p)
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = _zeros_like(p)
        return state

    def _update(self, p, group) -> None:
        state = self._init_state(p, group)
        lr, (beta1, beta2), eps, weight_decay = (
            group["lr"],
            group["betas"],
            group["eps"],
            group["weight_decay"],
        )
        g = -p.grad._data if group["maximize"] else p.grad._data
        state["step"]._data += 1
        _bump(state["step"])
        if weight_decay != 0:
            if group["decoupled_weight_decay"]:
                p._data *= 1 - lr * weight_decay
                _bump(p)
            else:
                g = g + weight_decay * p._data
        m, v = state["exp_avg"], state["exp_avg_sq"]
        # The same arithmetic as PyTorch, in the same order, through two scratch arrays (no temporaries).
        t = np.subtract(g, m._data, dtype=m._data.dtype)
        t *= 1 - beta1
        m._data += t                                   # m ← m + (1 − β₁)(g − m): PyTorch's lerp_
        np.multiply(g, 1 - beta2, out=t)
        t *= g
        v._data *= beta2
        v._data += t                                   # v ← β₂ v + (1 − β₂) g²
        _bump(m, v, v)
        step = float(state["step"]._data)
        step_size = lr / (1 - beta1**step)
        second = v
        if group["amsgrad"]:
            second = state["max_exp_avg_sq"]
            np.maximum(second._data, v._data, out=second._data)
            _bump(second)
        denom = np.sqrt(second._data)
        denom /= math.sqrt(1 - beta2**step)
        denom += eps
        np.multiply(m._data, -step_size, out=t)
        t /= denom
        p._data += t                                   # p ← p − step_size · m / (√v̂ + ε)
        _bump(p)
