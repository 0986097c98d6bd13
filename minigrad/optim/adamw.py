"""``AdamW``: Adam with decoupled weight decay (the weights shrink; the gradient is left alone)."""

from __future__ import annotations

from typing import Any

from .adam import Adam

__all__ = ["AdamW"]


class AdamW(Adam):
    """Adam with decoupled weight decay: ``p *= 1 - lr * weight_decay`` before each Adam step.

    The default ``weight_decay`` is 0.01 (Adam's is 0). See ``Adam`` for the update rule.

    >>> import minigrad as torch
    >>> w = torch.tensor([1.0], requires_grad=True)
    >>> opt = torch.optim.AdamW([w], lr=0.1)
    >>> w.grad = torch.tensor([0.5]); opt.step(); w.data
    tensor([0.8990])
    """

    def __init__(self, params: Any, lr: float = 0.001, betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-08,
                 weight_decay: float = 0.01, amsgrad: bool = False, *, maximize: bool = False, foreach: Any = None,
                 capturable: bool = False, differentiable: bool = False, fused: Any = None) -> None:
        super().__init__(
            params,
            lr,
            betas,
            eps,
            weight_decay,
            amsgrad,
            foreach=foreach,
            maximize=maximize,
            capturable=capturable,
            differentiable=differentiable,
            fused=fused,
            decoupled_weight_decay=True,
        )
