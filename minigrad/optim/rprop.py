"""``Rprop``: resilient backpropagation — per-element step sizes driven by the sign of the gradient only."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._tensor import Tensor
from ..ops._util import clip
from .adamax import _check_lr, _scalar
from .optimizer import Optimizer, _bump, _step_counter, _zeros_like

__all__ = ["Rprop"]


class Rprop(Optimizer):
    """Rprop, PyTorch's single-tensor update.

    For each parameter ``p`` with gradient ``g``::

        s = sign(g · prev)                           (prev: state 'prev', the last gradient used)
        step_size = clamp(step_size · (etaplus if s > 0, etaminus if s < 0, 1 if s = 0), *step_sizes)
        g = 0 where s < 0                            (the sign flipped: skip this element once)
        p = p − sign(g) · step_size;  prev = g

    Examples
    --------
    >>> import minigrad as torch
    >>> w = torch.tensor([1.0, -1.0], requires_grad=True)
    >>> opt = torch.optim.Rprop([w], lr=0.1)
    >>> w.grad = torch.tensor([3.0, -0.5]); opt.step(); w.data
    tensor([ 0.9000, -0.9000])
    """

    def __init__(self, params: Any, lr: Any = 1e-2, etas: tuple[float, float] = (0.5, 1.2),
                 step_sizes: tuple[float, float] = (1e-6, 50), *, capturable: bool = False, foreach: Any = None,
                 maximize: bool = False, differentiable: bool = False) -> None:
        _check_lr(lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = {"lr": lr, "etas": etas, "step_sizes": step_sizes, "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)

    def _update(self, p, group) -> None:
        state = self.state[p]
        if not state:
            state["step"] = _step_counter()
            state["prev"] = _zeros_like(p)
            state["step_size"] = Tensor._make(np.full_like(p.grad._data, _scalar(group["lr"])))
        (etaminus, etaplus), (step_size_min, step_size_max) = group["etas"], group["step_sizes"]
        g = -p.grad._data if group["maximize"] else p.grad._data
        state["step"]._data += 1
        t = g.dtype.type
        prev, step_size = state["prev"], state["step_size"]
        sign = np.sign(g * prev._data)
        factor = np.where(sign > 0, t(etaplus), np.where(sign < 0, t(etaminus), np.where(sign == 0, t(1), sign)))
        step_size._data *= factor
        step_size._data[...] = clip(step_size._data, t(step_size_min), t(step_size_max))
        g = np.where(factor == t(etaminus), t(0), g)
        p._data -= np.sign(g) * step_size._data
        prev._data[...] = g
        _bump(state["step"], step_size, step_size, p, prev)
