"""``Adagrad``: scale each element's step by the root of its summed squared gradients."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._tensor import Tensor
from .optimizer import Optimizer, _bump, _step_counter

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    """Adagrad, PyTorch's update rule. For each parameter ``p`` with gradient ``g``, at step ``t = 1, 2, …``::

        g = g + weight_decay * p                    if weight_decay
        clr = lr / (1 + (t - 1) * lr_decay)
        sum = sum + g²                              (state 'sum', starts at initial_accumulator_value)
        p -= clr * g / (√sum + eps)

    As in PyTorch, the state (``step``, a float32 0-dim tensor, and ``sum``) is created for
    every parameter when the optimizer is.

    Examples
    --------
    >>> import minigrad as torch
    >>> w = torch.tensor([1.0, 2.0], requires_grad=True)
    >>> opt = torch.optim.Adagrad([w], lr=0.5)
    >>> w.grad = torch.tensor([4.0, -0.1]); opt.step(); w.data
    tensor([0.5000, 2.5000])
    """

    def __init__(self, params: Any, lr: float = 0.01, lr_decay: float = 0, weight_decay: float = 0,
                 initial_accumulator_value: float = 0, eps: float = 1e-10, foreach: Any = None, *,
                 maximize: bool = False, differentiable: bool = False, fused: Any = None) -> None:
        if not lr >= 0.0:
            raise ValueError("Invalid learning rate: %s" % lr)
        if not lr_decay >= 0.0:
            raise ValueError("Invalid lr_decay value: %s" % lr_decay)
        if not weight_decay >= 0.0:
            raise ValueError("Invalid weight_decay value: %s" % weight_decay)
        if not initial_accumulator_value >= 0.0:
            raise ValueError("Invalid initial_accumulator_value value: %s" % initial_accumulator_value)
        if not eps >= 0.0:
            raise ValueError("Invalid epsilon value: %s" % eps)
        defaults = {
            "lr": lr,
            "lr_decay": lr_decay,
            "eps": eps,
            "weight_decay": weight_decay,
            "initial_accumulator_value": initial_accumulator_value,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "fused": fused,
        }
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                state = self.state[p]
                state["step"] = _step_counter()
                state["sum"] = Tensor._make(np.full_like(p._data, initial_accumulator_value))

    def _update(self, p, group) -> None:
        state = self.state[p]
        g = -p.grad._data if group["maximize"] else p.grad._data
        state["step"]._data += 1
        _bump(state["step"])
        step = float(state["step"]._data)
        if group["weight_decay"] != 0:
            g = g + group["weight_decay"] * p._data
        clr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
        total = state["sum"]
        total._data += g * g
        _bump(total)
        p._data += -clr * g / (np.sqrt(total._data) + group["eps"])
        _bump(p)
