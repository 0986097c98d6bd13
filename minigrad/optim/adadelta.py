"""``Adadelta``, ``NAdam`` and ``RAdam``: PyTorch's update rules (its single-tensor loops), step by step."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._tensor import Tensor
from .optimizer import Optimizer, _bump, _step_counter

__all__ = ["Adadelta", "NAdam", "RAdam"]


def _check(name, value, ok):
    if not ok:
        raise ValueError("Invalid %s: %s" % (name, value))


def _zeros_like(p) -> Tensor:
    return Tensor._make(np.zeros_like(p._data))


def _lerp(a: np.ndarray, b: np.ndarray, w: float) -> np.ndarray:
    """PyTorch's ``lerp``: ``a + w·(b − a)`` for ``w < 0.5``, else ``b − (b − a)·(1 − w)``."""
    w = a.dtype.type(w)
    return a + w * (b - a) if abs(w) < 0.5 else b - (b - a) * (1 - w)


class _Stepped(Optimizer):
    """State created at the first step (``step`` a float32 0-dim tensor, as in PyTorch)."""

    _state_names: tuple[Any, ...] = ()

    def _state(self, p):
        state = self.state[p]
        if not state:
            state["step"] = _step_counter()
            for name in self._state_names:
                state[name] = Tensor._make(np.ones((), np.float32)) if name == "mu_product" else _zeros_like(p)
        state["step"]._data += 1
        _bump(state["step"])
        return state, float(state["step"]._data)

    @staticmethod
    def _grad(p, group):
        g = -p.grad._data if group["maximize"] else p.grad._data
        return g


class Adadelta(_Stepped):
    """Adadelta: steps scaled by the ratio of running RMS of past updates to that of gradients.

    For each parameter ``p`` with gradient ``g``::

        square_avg = ρ·square_avg + (1 − ρ)·g²
        delta = √(acc_delta + eps) / √(square_avg + eps) · g
        acc_delta = ρ·acc_delta + (1 − ρ)·delta²
        p -= lr · delta
    """

    _state_names = ("square_avg", "acc_delta")

    def __init__(self, params: Any, lr: float = 1.0, rho: float = 0.9, eps: float = 1e-06, weight_decay: float = 0,
                 foreach: Any = None, *, capturable: bool = False, maximize: bool = False,
                 differentiable: bool = False) -> None:
        _check("learning rate", lr, lr >= 0.0)
        _check("rho value", rho, 0.0 <= rho <= 1.0)
        _check("epsilon value", eps, eps >= 0.0)
        _check("weight_decay value", weight_decay, weight_decay >= 0.0)
        super().__init__(params, {"lr": lr, "rho": rho, "eps": eps, "weight_decay": weight_decay, "maximize": maximize,
                                  "capturable": capturable, "foreach": foreach, "differentiable": differentiable})

    def _update(self, p, group) -> None:
        state, _ = self._state(p)
        g = self._grad(p, group)
        x = p._data
        t = x.dtype.type
        rho, eps, lr = group["rho"], group["eps"], group["lr"]
        if group["weight_decay"] != 0:
            g = g + t(group["weight_decay"]) * x
        sq, acc = state["square_avg"], state["acc_delta"]
        sq._data[...] = sq._data * t(rho) + t(1 - rho) * g * g
        std = np.sqrt(sq._data + t(eps))
        delta = np.sqrt(acc._data + t(eps)) / std * g
        acc._data[...] = acc._data * t(rho) + t(1 - rho) * delta * delta
        x += t(-lr) * delta
        _bump(sq, acc, p)


class NAdam(_Stepped):
    """Adam with Nesterov momentum (Dozat), with PyTorch's momentum-decay schedule ``μ_t``."""

    _state_names = ("mu_product", "exp_avg", "exp_avg_sq")

    def __init__(self, params: Any, lr: float = 0.002, betas: Any = (0.9, 0.999), eps: float = 1e-08,
                 weight_decay: float = 0, momentum_decay: float = 0.004, decoupled_weight_decay: bool = False, *,
                 foreach: Any = None, maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False) -> None:
        _check("learning rate", lr, lr >= 0.0)
        _check("epsilon value", eps, eps >= 0.0)
        _check("beta parameter at index 0", betas[0], 0.0 <= betas[0] < 1.0)
        _check("beta parameter at index 1", betas[1], 0.0 <= betas[1] < 1.0)
        _check("weight_decay value", weight_decay, weight_decay >= 0.0)
        _check("momentum_decay value", momentum_decay, momentum_decay >= 0.0)
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                                  "momentum_decay": momentum_decay, "decoupled_weight_decay": decoupled_weight_decay,
                                  "maximize": maximize, "foreach": foreach, "capturable": capturable,
                                  "differentiable": differentiable})

    def _update(self, p, group) -> None:
        state, step = self._state(p)
        g = self._grad(p, group)
        x = p._data
        t = x.dtype.type
        lr, (beta1, beta2), eps, wd = group["lr"], group["betas"], group["eps"], group["weight_decay"]
        bias_correction2 = 1 - beta2 ** step
        if wd != 0:
            if group["decoupled_weight_decay"]:
                x *= t(1 - lr * wd)
            else:
                g = g + t(wd) * x
        mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * group["momentum_decay"])))
        mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * group["momentum_decay"])))
        mp = state["mu_product"]
        mp._data = (mp._data * np.float32(mu)).astype(np.float32)
        m, v = state["exp_avg"], state["exp_avg_sq"]
        m._data[...] = _lerp(m._data, g, 1 - beta1)
        v._data[...] = v._data * t(beta2) + t(1 - beta2) * g * g
        denom = np.sqrt(v._data / t(bias_correction2)) + t(eps)
        mu_product = float(mp._data)
        mu_product_next = mu_product * mu_next
        x += t(-lr * (1.0 - mu) / (1.0 - mu_product)) * (g / denom)
        x += t((-lr * mu_next) / (1.0 - mu_product_next)) * (m._data / denom)
        _bump(mp, m, v, p)


class RAdam(_Stepped):
    """Adam with the variance of the adaptive learning rate rectified (Liu et al.); plain momentum SGD early on."""

    _state_names = ("exp_avg", "exp_avg_sq")

    def __init__(self, params: Any, lr: float = 0.001, betas: Any = (0.9, 0.999), eps: float = 1e-08,
                 weight_decay: float = 0, decoupled_weight_decay: bool = False, *, foreach: Any = None,
                 maximize: bool = False, capturable: bool = False, differentiable: bool = False) -> None:
        _check("learning rate", lr, lr >= 0.0)
        _check("epsilon value", eps, eps >= 0.0)
        _check("beta parameter at index 0", betas[0], 0.0 <= betas[0] < 1.0)
        _check("beta parameter at index 1", betas[1], 0.0 <= betas[1] < 1.0)
        _check("weight_decay value", weight_decay, weight_decay >= 0.0)
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                                  "maximize": maximize, "foreach": foreach, "capturable": capturable,
                                  "decoupled_weight_decay": decoupled_weight_decay, "differentiable": differentiable})

    def _update(self, p, group) -> None:
        state, step = self._state(p)
        g = self._grad(p, group)
        x = p._data
        t = x.dtype.type
        lr, (beta1, beta2), eps, wd = group["lr"], group["betas"], group["eps"], group["weight_decay"]
        if wd != 0:
            if group["decoupled_weight_decay"]:
                x *= t(1 - lr * wd)
            else:
                g = g + t(wd) * x
        m, v = state["exp_avg"], state["exp_avg_sq"]
        m._data[...] = _lerp(m._data, g, 1 - beta1)
        v._data[...] = v._data * t(beta2) + t(1 - beta2) * g * g
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        corrected = m._data / t(bias_correction1)
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
        if rho_t > 5.0:
            rect = math.sqrt((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t))
            adaptive = t(bias_correction2 ** 0.5) / (np.sqrt(v._data) + t(eps))
            x -= corrected * t(lr) * adaptive * t(rect)
        else:
            x -= corrected * t(lr)
        _bump(m, v, p)
