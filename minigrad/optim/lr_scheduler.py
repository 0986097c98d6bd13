"""Learning-rate schedules (``StepLR``, ``MultiStepLR``, ``ExponentialLR``, ``CosineAnnealingLR``, ``LambdaLR``).

Each is stepped once per epoch.

>>> import minigrad as torch
>>> w = torch.zeros(1, requires_grad=True)
>>> opt = torch.optim.SGD([w], lr=0.1)
>>> scheduler = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
>>> lrs = []
>>> for epoch in range(4):
...     opt.step()
...     scheduler.step()
...     lrs.append(scheduler.get_last_lr()[0])
>>> lrs
[0.1, 0.05, 0.05, 0.025]
"""

from __future__ import annotations

import bisect
import functools
import math
import warnings
from collections import Counter
from collections.abc import Callable
from typing import Any

from .optimizer import Optimizer

__all__ = ["LRScheduler", "StepLR", "MultiStepLR", "ExponentialLR", "CosineAnnealingLR", "LambdaLR"]


class LRScheduler:
    """Base class: sets each group's ``lr`` from ``get_lr()`` at every ``step()``.

    Like PyTorch's, it counts ``last_epoch`` from -1 and steps once on creation, and it warns
    when ``scheduler.step()`` comes before the first ``optimizer.step()``.
    """

    base_lrs: list[float]

    last_epoch: int

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError("%s is not an Optimizer" % type(optimizer).__name__)
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"])
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(
                        "param 'initial_lr' is not specified in param_groups[%d] when resuming an "
                        "optimizer" % i
                    )
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        _track_optimizer_steps(optimizer)
        self._step_count = 0
        self._is_initial = True
        self._get_lr_called_within_step = False
        self.step()
        self._is_initial = False

    def get_lr(self) -> list[float]:
        raise NotImplementedError

    def get_last_lr(self) -> list[float]:
        """The learning rates set by the last ``step()``, one per parameter group."""
        return self._last_lr

    def step(self, epoch: int | None = None) -> None:
        """Advance one epoch and set the groups' learning rates."""
        if self._step_count == 1 and not getattr(self.optimizer, "_opt_called", False):
            warnings.warn(
                "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and "
                "later, you should call them in the opposite order: `optimizer.step()` before "
                "`lr_scheduler.step()`.  Failure to do this will result in PyTorch skipping the first "
                "value of the learning rate schedule. See more details at "
                "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate",
                UserWarning,
                stacklevel=2,
            )
        self._step_count += 1
        self._get_lr_called_within_step = True
        try:
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                self.last_epoch = epoch
                values = self._get_closed_form_lr() if hasattr(self, "_get_closed_form_lr") else self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values):
            group["lr"] = lr
        self._last_lr = [group["lr"] for group in self.optimizer.param_groups]

    def _warn_outside_step(self) -> None:
        if not self._get_lr_called_within_step:
            warnings.warn(
                "To get the last learning rate computed by the scheduler, please use `get_last_lr()`.",
                UserWarning,
                stacklevel=3,
            )

    def state_dict(self) -> dict[Any, Any]:
        """Everything but the optimizer."""
        return {key: value for key, value in self.__dict__.items() if key != "optimizer"}

    def load_state_dict(self, state_dict: dict[Any, Any]) -> None:
        self.__dict__.update(state_dict)


def _track_optimizer_steps(optimizer: Optimizer) -> None:
    """Wrap ``optimizer.step`` so that the scheduler can tell whether it has run yet."""
    if getattr(optimizer.step, "_wrapped_by_lr_sched", False):
        return
    step = optimizer.step

    @functools.wraps(step)
    def wrapper(*args, **kwargs):
        optimizer._opt_called = True
        return step(*args, **kwargs)

    wrapper._wrapped_by_lr_sched = True  # type: ignore[attr-defined]  # a marker, as PyTorch's
    optimizer.step = wrapper  # type: ignore[method-assign]  # counts the calls, as PyTorch's


class StepLR(LRScheduler):
    """Multiply the learning rate by ``gamma`` every ``step_size`` epochs."""

    step_size: int
    gamma: float

    def __init__(
        self, optimizer: Optimizer, step_size: int, gamma: float = 0.1, last_epoch: int = -1
    ) -> None:
        self.step_size, self.gamma = step_size, gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_outside_step()
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return [group["lr"] for group in self.optimizer.param_groups]
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float]:
        return [base_lr * self.gamma ** (self.last_epoch // self.step_size) for base_lr in self.base_lrs]


class MultiStepLR(LRScheduler):
    """Multiply the learning rate by ``gamma`` at each milestone epoch (twice for a milestone given twice)."""

    milestones: Counter[int]

    def __init__(self, optimizer: Optimizer, milestones: Any, gamma: float = 0.1, last_epoch: int = -1) -> None:
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_outside_step()
        if self.last_epoch not in self.milestones:
            return [group["lr"] for group in self.optimizer.param_groups]
        return [group["lr"] * self.gamma ** self.milestones[self.last_epoch] for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float]:
        milestones = sorted(self.milestones.elements())
        return [base_lr * self.gamma ** bisect.bisect_right(milestones, self.last_epoch) for base_lr in self.base_lrs]


class ExponentialLR(LRScheduler):
    """Multiply the learning rate by ``gamma`` every epoch."""

    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1) -> None:
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_outside_step()
        if self.last_epoch == 0:
            return [group["lr"] for group in self.optimizer.param_groups]
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float]:
        return [base_lr * self.gamma**self.last_epoch for base_lr in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """Anneal from the initial learning rate to ``eta_min`` along half a cosine over ``T_max`` epochs.

    As in PyTorch the update is recursive (each epoch's rate from the last one's), so it
    follows ``eta_min + (base_lr - eta_min)(1 + cos(π epoch / T_max))/2`` and keeps going (back
    up) past ``T_max``; ``step(epoch)`` uses that closed form.
    """

    def __init__(self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0, last_epoch: int = -1) -> None:
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_outside_step()
        groups, eta_min, t_max, epoch = self.optimizer.param_groups, self.eta_min, self.T_max, self.last_epoch
        if self._is_initial:
            return [group["lr"] for group in groups]
        if self._step_count == 1 and epoch > 0:
            return [
                eta_min + (base_lr - eta_min) * (1 + math.cos(epoch * math.pi / t_max)) / 2 for base_lr in self.base_lrs
            ]
        if (epoch - 1 - t_max) % (2 * t_max) == 0:
            return [
                group["lr"] + (base_lr - eta_min) * (1 - math.cos(math.pi / t_max)) / 2
                for base_lr, group in zip(self.base_lrs, groups)
            ]
        ratio = (1 + math.cos(math.pi * epoch / t_max)) / (1 + math.cos(math.pi * (epoch - 1) / t_max))
        return [ratio * (group["lr"] - eta_min) + eta_min for group in groups]

    def _get_closed_form_lr(self) -> list[float]:
        return [
            self.eta_min + (base_lr - self.eta_min) * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
            for base_lr in self.base_lrs
        ]


class LambdaLR(LRScheduler):
    """Set the learning rate to ``initial_lr * lr_lambda(epoch)`` (one function, or one per group)."""

    lr_lambdas: list[Callable[[int], float]]

    def __init__(self, optimizer: Optimizer, lr_lambda: Any, last_epoch: int = -1) -> None:
        n = len(optimizer.param_groups)
        if isinstance(lr_lambda, (list, tuple)):
            if len(lr_lambda) != n:
                raise ValueError("Expected %d lr_lambdas, but got %d" % (n, len(lr_lambda)))
            self.lr_lambdas = list(lr_lambda)
        else:
            self.lr_lambdas = [lr_lambda] * n
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_outside_step()
        return [base_lr * fn(self.last_epoch) for fn, base_lr in zip(self.lr_lambdas, self.base_lrs)]

    def state_dict(self) -> dict[Any, Any]:
        return {key: value for key, value in self.__dict__.items() if key not in ("optimizer", "lr_lambdas")}
