"""``ASGD``: averaged stochastic gradient descent (Polyak & Juditsky), PyTorch's schedule of ``eta`` and ``mu``."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._tensor import Tensor
from . import _kernels as K
from .adamax import _check_lr, _scalar
from .optimizer import Optimizer, _bump, _zeros_like

__all__ = ["ASGD"]


def _float32(value: float) -> Tensor:
    return Tensor._make(np.array(value, dtype=np.float32))


class ASGD(Optimizer):
    """ASGD, PyTorch's single-tensor update. For each parameter ``p`` with gradient ``g``, at step ``t``::

        g = g + weight_decay · p                     if weight_decay
        p = p · (1 − lambd · η) − η · g              (η: state 'eta', starts at lr)
        ax = ax + μ · (p − ax)   (ax = p while μ = 1) (state 'ax': the average of the iterates)
        η = lr / (1 + lambd · lr · t)^alpha
        μ = 1 / max(1, t − t0)

    ``eta``, ``mu`` and ``step`` are float32 0-dim tensors, as in PyTorch.

    Examples
    --------
    >>> import minigrad as torch
    >>> w = torch.tensor([1.0], requires_grad=True)
    >>> opt = torch.optim.ASGD([w], lr=0.5)
    >>> w.grad = torch.tensor([1.0]); opt.step(); w.data      # 1 · (1 − 1e-4 · 0.5) − 0.5 · 1
    tensor([0.4999])
    """

    def __init__(self, params: Any, lr: Any = 1e-2, lambd: float = 1e-4, alpha: float = 0.75, t0: float = 1e6,
                 weight_decay: float = 0, foreach: Any = None, maximize: bool = False,
                 differentiable: bool = False, capturable: bool = False) -> None:
        _check_lr(lr)
        if not weight_decay >= 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "lambd": lambd, "alpha": alpha, "t0": t0, "weight_decay": weight_decay,
                    "foreach": foreach, "maximize": maximize, "differentiable": differentiable,
                    "capturable": capturable}
        super().__init__(params, defaults)

    def _update(self, p, group) -> None:
        state = self.state[p]
        lr, lambd = _scalar(group["lr"]), group["lambd"]
        if not state:
            state["step"] = _float32(0.0)
            state["eta"] = _float32(lr)
            state["mu"] = _float32(1.0)
            state["ax"] = _zeros_like(p)
        g = -p.grad._data if group["maximize"] else p.grad._data
        x, t = p._data, p._data.dtype.type
        state["step"]._data += 1
        if group["weight_decay"] != 0:
            g = K.add(g, x, group["weight_decay"])
        eta = float(state["eta"]._data)
        x *= t(1 - lambd * eta)                                  # decay
        x[...] = K.add(x, g, -eta)                               # gradient step
        ax, mu = state["ax"], float(state["mu"]._data)
        if mu != 1:
            ax._data += (x - ax._data) * t(mu)
        else:
            ax._data[...] = x
        step = float(state["step"]._data)
        state["eta"]._data[...] = np.float32(lr / ((1 + lambd * lr * step) ** group["alpha"]))
        state["mu"]._data[...] = np.float32(1 / max(1, step - group["t0"]))
        _bump(state["step"], p, p, ax, state["eta"], state["mu"])
