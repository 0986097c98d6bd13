"""``SGD``: stochastic gradient descent with momentum, dampening, Nesterov and weight decay."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._tensor import Tensor
from .optimizer import Optimizer, _bump

__all__ = ["SGD"]


class SGD(Optimizer):
    """Stochastic gradient descent, PyTorch's update rule.

    For each parameter ``p`` with a gradient ``g``::

        g = -g                          if maximize
        g = g + weight_decay * p        if weight_decay
        buf = g (first step), else momentum * buf + (1 - dampening) * g      if momentum
        g = g + momentum * buf (nesterov), else buf                          if momentum
        p -= lr * g

    The momentum buffer is ``state[p]['momentum_buffer']``.

    Examples
    --------
    >>> import minigrad as torch
    >>> w = torch.tensor([1., 2.], requires_grad=True)
    >>> opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
    >>> (w * w).sum().backward(); opt.step(); w
    tensor([0.8000, 1.6000], requires_grad=True)
    """

    def __init__(self, params: Any, lr: float = 0.001, momentum: float = 0, dampening: float = 0,
                 weight_decay: float = 0, nesterov: bool = False, *, maximize: bool = False, foreach: Any = None,
                 differentiable: bool = False, fused: Any = None) -> None:
        if lr < 0.0:
            raise ValueError("Invalid learning rate: %s" % lr)
        if momentum < 0.0:
            raise ValueError("Invalid momentum value: %s" % momentum)
        if weight_decay < 0.0:
            raise ValueError("Invalid weight_decay value: %s" % weight_decay)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        defaults = {
            "lr": lr,
            "momentum": momentum,
            "dampening": dampening,
            "weight_decay": weight_decay,
            "nesterov": nesterov,
            "maximize": maximize,
            "foreach": foreach,
            "differentiable": differentiable,
            "fused": fused,
        }
        super().__init__(params, defaults)

    def _update(self, p, group) -> None:
        lr, momentum, dampening = group["lr"], group["momentum"], group["dampening"]
        g = p.grad._data
        if group["maximize"]:
            g = -g
        if group["weight_decay"] != 0:
            g = g + group["weight_decay"] * p._data
        if momentum != 0:
            state = self.state[p]
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = state["momentum_buffer"] = Tensor._make(np.array(g, copy=True))
            else:
                buf._data *= momentum
                buf._data += g if dampening == 0 else (1 - dampening) * g     # (no needless pass over g)
                _bump(buf, buf)
            g = g + momentum * buf._data if group["nesterov"] else buf._data
        p._data -= lr * g
        _bump(p)
