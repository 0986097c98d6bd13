"""``RMSprop``: divide the gradient by a running root mean square of recent gradients."""

from __future__ import annotations

from typing import Any

import numpy as np

from .optimizer import Optimizer, _bump, _step_counter, _zeros_like

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    """RMSprop, PyTorch's update rule.

    For each parameter ``p`` with gradient ``g``::

        g = g + weight_decay * p                                if weight_decay
        v = alpha * v + (1 - alpha) * g²                        (state 'square_avg')
        avg = √(v - ḡ²) + eps, ḡ = alpha * ḡ + (1 - alpha) * g  if centered (state 'grad_avg')
        avg = √v + eps                                          otherwise
        buf = momentum * buf + g / avg;  p -= lr * buf          if momentum (state 'momentum_buffer')
        p -= lr * g / avg                                       otherwise

    Examples
    --------
    >>> import minigrad as torch
    >>> w = torch.tensor([1.0], requires_grad=True)
    >>> opt = torch.optim.RMSprop([w], lr=0.01)
    >>> w.grad = torch.tensor([2.0]); opt.step(); w.data
    tensor([0.9000])
    """

    def __init__(self, params: Any, lr: float = 0.01, alpha: float = 0.99, eps: float = 1e-08,
                 weight_decay: float = 0, momentum: float = 0, centered: bool = False, capturable: bool = False,
                 foreach: Any = None, maximize: bool = False, differentiable: bool = False) -> None:
        if not lr >= 0.0:
            raise ValueError("Invalid learning rate: %s" % lr)
        if not eps >= 0.0:
            raise ValueError("Invalid epsilon value: %s" % eps)
        if not momentum >= 0.0:
            raise ValueError("Invalid momentum value: %s" % momentum)
        if not weight_decay >= 0.0:
            raise ValueError("Invalid weight_decay value: %s" % weight_decay)
        if not alpha >= 0.0:
            raise ValueError("Invalid alpha value: %s" % alpha)
        defaults = {
            "lr": lr,
            "momentum": momentum,
            "alpha": alpha,
            "eps": eps,
            "centered": centered,
            "weight_decay": weight_decay,
            "capturable": capturable,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    def _init_state(self, p, group) -> dict[Any, Any]:
        state = self.state[p]
        if not state:
            state["step"] = _step_counter()
            state["square_avg"] = _zeros_like(p)
            if group["momentum"] > 0:
                state["momentum_buffer"] = _zeros_like(p)
            if group["centered"]:
                state["grad_avg"] = _zeros_like(p)
        return state

    def _update(self, p, group) -> None:
        state = self._init_state(p, group)
        lr, alpha, eps, momentum = group["lr"], group["alpha"], group["eps"], group["momentum"]
        g = -p.grad._data if group["maximize"] else p.grad._data
        state["step"]._data += 1
        _bump(state["step"])
        if group["weight_decay"] != 0:
            g = g + group["weight_decay"] * p._data
        v = state["square_avg"]
        v._data *= alpha
        v._data += (1 - alpha) * g * g
        _bump(v, v)
        if group["centered"]:
            g_avg = state["grad_avg"]
            g_avg._data += (1 - alpha) * (g - g_avg._data)  # PyTorch's lerp_
            _bump(g_avg)
            avg = np.sqrt(v._data - g_avg._data * g_avg._data) + eps
        else:
            avg = np.sqrt(v._data) + eps
        if momentum > 0:
            buf = state["momentum_buffer"]
            buf._data *= momentum
            buf._data += g / avg
            _bump(buf, buf)
            p._data += -lr * buf._data
        else:
            p._data += -lr * g / avg
        _bump(p)
