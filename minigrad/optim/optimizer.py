"""``Optimizer``: parameter groups, per-parameter state, ``zero_grad`` and ``state_dict``.

Subclasses implement ``step()``. Updates are written into the parameters' memory in place,
outside the graph, and bump each tensor's version counter once per in-place update, as
PyTorch's ``param.add_(...)`` does: a graph built before ``step()`` that saved a parameter
then refuses to backward.
"""

from __future__ import annotations

import copy
import warnings
from collections import defaultdict
from typing import Any

import numpy as np

from .._tensor import Tensor
from ..autograd import grad_mode
from ..nn.modules.module import _reset_grad

__all__ = ["Optimizer", "required"]


class _Required:
    """The default of a hyperparameter that each group must set (PyTorch's ``required``)."""

    def __repr__(self) -> str:
        return "<required parameter>"


required: _Required = _Required()


class Optimizer:
    """Base class of the optimizers.

    Parameters
    ----------
    params : iterable of Tensors, or of dicts
        The tensors to optimise, or parameter groups: dicts with a ``'params'`` entry and
        hyperparameters that override ``defaults`` for that group.
    defaults : dict[Any, Any]
        The hyperparameters of groups that do not set their own.

    Attributes
    ----------
    param_groups : list of dict
    state : dict[Any, Any]
        Per-parameter state (momentum buffers, moment estimates), keyed by the parameter.
    """

    defaults: dict[str, Any]
    state: defaultdict[Any, dict[str, Any]]
    param_groups: list[dict[str, Any]]

    def __init__(self, params: Any, defaults: dict[Any, Any]) -> None:
        self.defaults = defaults
        self.state = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []
        if isinstance(params, Tensor):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of Tensors or dicts, but "
                "got " + params.type()
            )
        groups = list(params)
        if len(groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group: dict[Any, Any]) -> None:
        """Add a group (a dict with ``'params'``); hyperparameters it does not set come from ``defaults``."""
        if not isinstance(param_group, dict):
            raise TypeError("param_group must be a dict, but got %s" % type(param_group))
        params = param_group["params"]
        param_group["params"] = [params] if isinstance(params, Tensor) else list(params)
        for p in param_group["params"]:
            if not isinstance(p, Tensor):
                raise TypeError(
                    "optimizer can only optimize Tensors, but one of the params is " + type(p).__name__
                )
            if not (p.is_leaf or p.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(
                    "parameter group didn't specify a value of required optimization parameter " + name
                )
            param_group.setdefault(name, default)
        ids = [id(p) for p in param_group["params"]]
        if len(ids) != len(set(ids)):
            warnings.warn(
                "optimizer contains a parameter group with duplicate parameters; in future, this will cause "
                "an error; see github.com/pytorch/pytorch/issues/40967 for more information",
                stacklevel=3,
            )
        taken = {id(p) for group in self.param_groups for p in group["params"]}
        if taken & set(ids):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients of all optimised parameters: to None (the default), or to zeros."""

        for group in self.param_groups:
            for p in group["params"]:
                _reset_grad(p, set_to_none)

    def step(self, closure: Any = None) -> Any:
        """Update every parameter that has a gradient; return ``closure()``'s loss if a closure is given.

        The loop is the same for every optimizer; each one writes its formula in ``_update``.
        """
        loss = self._closure_loss(closure)
        with grad_mode.no_grad():
            for group in self.param_groups:
                for p in _params_with_grad(group):
                    self._update(p, group)
        return loss

    def _update(self, p, group) -> None:
        """Apply this optimizer's update to one parameter, in place (under no_grad)."""
        raise NotImplementedError

    def _closure_loss(self, closure):
        """Re-evaluate the model with ``closure`` (grad mode on), for optimizers that need the loss."""
        if closure is None:
            return None
        with grad_mode.enable_grad():
            return closure()

    # -- saving and restoring ---------------------------------------------------------------------
    def state_dict(self) -> dict[Any, Any]:
        """``{'state': {index: state}, 'param_groups': [...]}`` with parameters replaced by their index."""
        index: dict[int, int] = {}
        groups: list[dict[str, Any]] = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for p in group["params"]:
                index.setdefault(id(p), len(index))
            packed["params"] = [index[id(p)] for p in group["params"]]
            groups.append(packed)
        state = {index[id(p)]: value for p, value in self.state.items() if id(p) in index}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict[Any, Any]) -> None:
        """Restore hyperparameters and state saved by ``state_dict()``.

        As in PyTorch, the state tensors are taken over, not copied (unless they must be cast
        to a parameter's dtype); the hyperparameters are copied.
        """
        saved_groups = copy.deepcopy(state_dict["param_groups"])
        if len(saved_groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(self.param_groups, saved_groups)):
            raise ValueError(
                "loaded state dict contains a parameter group that doesn't match the size of "
                "optimizer's group"
            )
        by_index = {
            i: p for g, s in zip(self.param_groups, saved_groups) for i, p in zip(s["params"], g["params"])
        }
        self.state = defaultdict(dict)
        for i, value in state_dict["state"].items():
            if i in by_index:
                p = by_index[i]
                self.state[p] = {k: _cast_state(k, v, p) for k, v in value.items()}
            else:
                self.state[i] = value
        self.param_groups = [{**s, "params": g["params"]} for g, s in zip(self.param_groups, saved_groups)]

    def __repr__(self) -> str:
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += "\nParameter Group %d\n" % i
            for key in sorted(group):
                if key != "params":
                    text += "    %s: %s\n" % (key, group[key])
        return text + ")"

    def __getstate__(self) -> dict[Any, Any]:
        return dict(self.__dict__)


def _cast_state(key, value, param):
    """State tensors follow the parameter's dtype, except ``step`` (a float32 counter)."""
    if isinstance(value, Tensor) and key != "step" and value.dtype.is_floating_point:
        return value.to(param.dtype)
    return value


# -- helpers for the update rules -----------------------------------------------------------------


def _params_with_grad(group: dict[Any, Any]):
    """The group's parameters that received a gradient (the others are skipped, as in PyTorch)."""
    return [p for p in group["params"] if p.grad is not None]


def _zeros_like(p: Tensor) -> Tensor:
    return Tensor._make(np.zeros_like(p._data))


def _step_counter() -> Tensor:
    """PyTorch keeps the step count as a float32 0-dim tensor."""
    return Tensor._make(np.zeros((), dtype=np.float32))


def _bump(*tensors: Tensor) -> None:
    """Record an in-place write (what PyTorch's ``add_``/``mul_`` do to ``_version``)."""
    for t in tensors:
        t._version_counter[0] += 1
