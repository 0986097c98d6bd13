# Parts of this file follow PyTorch's torch/utils/hooks.py (BSD-3-Clause, Copyright (c) 2016- Facebook, Inc
# and the PyTorch contributors); see THIRD_PARTY_NOTICES at the top of the distribution.
"""RemovableHandle: what every ``register_*`` call returns."""

from __future__ import annotations

import itertools
import warnings
import weakref
from collections.abc import Callable
from typing import Any

__all__ = ["RemovableHandle", "BackwardHook"]


class RemovableHandle:
    """A handle that removes one registered hook.

    ``remove()`` is idempotent, and the handle is a context manager that removes the
    hook on exit:

    >>> hooks = {}
    >>> handle = RemovableHandle(hooks)
    >>> hooks[handle.id] = print
    >>> with handle:
    ...     len(hooks)
    1
    >>> len(hooks)
    0
    """

    _next_id = itertools.count()

    def __init__(self, hooks_dict: dict[Any, Any]) -> None:
        # NOTE: a weak reference, so a handle never keeps a node or a tensor alive.
        self.hooks_dict_ref: Callable[[], dict[Any, Any] | None] = (
            weakref.ref(hooks_dict) if _weakrefable(hooks_dict) else (lambda: hooks_dict))
        self.id: int = next(RemovableHandle._next_id)

    def remove(self) -> None:
        hooks_dict = self.hooks_dict_ref()
        if hooks_dict is not None:
            hooks_dict.pop(self.id, None)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.remove()

    def __repr__(self) -> str:
        return "<minigrad.utils.hooks.RemovableHandle object at %#x>" % id(self)


class _HookDict(dict[Any, Any]):
    """A dict that can be weakly referenced (plain dicts cannot)."""

    __slots__ = ("__weakref__",)


def _weakrefable(obj) -> bool:
    try:
        weakref.ref(obj)
    except TypeError:
        return False
    return True


def hook_dict() -> _HookDict:
    """A fresh, weakly-referenceable ordered mapping for hooks."""
    return _HookDict()


class BackwardHook:
    """The full backward hooks of one call of a module (PyTorch's ``torch.utils.hooks.BackwardHook``).

    The module's tensor inputs and outputs are passed through a ``BackwardHookFunction`` each.
    The output node's hook records ``grad_output`` (after the backward pre-hooks, which may
    replace it); the input node's hook then calls ``hook(module, grad_input, grad_output)``,
    which may replace ``grad_input``.  Non-tensor arguments appear as None.  If no input
    requires grad, the hooks are called from the output node, with ``grad_input`` all None.
    """

    def __init__(self, module: Any, user_hooks: list[Callable[..., Any]],
                 user_pre_hooks: list[Callable[..., Any]]) -> None:
        self.user_hooks = user_hooks
        self.user_pre_hooks = user_pre_hooks
        self.module = module
        self.grad_outputs: tuple[Any, ...] | None = None
        self.n_outputs: int = -1
        self.output_tensors_index: list[int] | None = None
        self.n_inputs: int = -1
        self.input_tensors_index: list[int] | None = None

    def _pack_with_none(self, indices, values, size):
        res = [None] * size
        for idx, val in zip(indices, values):
            res[idx] = val
        return tuple(res)

    def _unpack_none(self, indices, values):
        return tuple(values[idx] for idx in indices)

    def _set_user_hook(self, grad_fn) -> None:
        def hook(grad_input, _):
            if self.grad_outputs is None:
                return None  # the gradient reached the inputs without passing through the outputs
            res = self._pack_with_none(self.input_tensors_index, grad_input, self.n_inputs)
            for user_hook in self.user_hooks:
                out = user_hook(self.module, res, self.grad_outputs)
                if out is None:
                    continue
                if len(out) != len(res):
                    raise RuntimeError(
                        "Backward hook returned an invalid number of grad_input, got %d, but expected %d"
                        % (len(out), len(res))
                    )
                res = out
            self.grad_outputs = None
            return self._unpack_none(self.input_tensors_index, res)

        grad_fn.register_hook(hook)

    def _apply_on_tensors(self, fn, args):
        """Pass the tensors among ``args`` through one ``BackwardHookFunction``; ``fn(its node)``."""
        from .._tensor import Tensor  # at call time: _tensor is a higher layer
        from ..autograd import grad_mode  # at call time: autograd is a higher layer
        from ..nn.modules._functions import BackwardHookFunction  # at call time: nn is a higher layer

        tensors_idx = [i for i, arg in enumerate(args) if isinstance(arg, Tensor)]
        tensors = [args[i] for i in tensors_idx]
        if not (any(t.requires_grad for t in tensors) and grad_mode.is_grad_enabled()):
            return args, None
        new_tensors = BackwardHookFunction.apply(*tensors)
        grad_fns = [t.grad_fn for t in new_tensors if t.grad_fn is not None]
        fn(grad_fns[0])
        arg_list = list(args)
        for idx, val in zip(tensors_idx, new_tensors):
            arg_list[idx] = val
        return (tuple(arg_list) if type(args) is tuple else type(args)(*arg_list)), tensors_idx

    def setup_input_hook(self, args: Any) -> Any:
        res, input_idx = self._apply_on_tensors(self._set_user_hook, args)
        self.n_inputs = len(args)
        self.input_tensors_index = input_idx
        return res

    def setup_output_hook(self, args: Any) -> Any:
        def fn(grad_fn) -> None:
            def hook(_, grad_output):
                self.grad_outputs = self._pack_with_none(self.output_tensors_index, grad_output, self.n_outputs)
                for user_pre_hook in self.user_pre_hooks:
                    result = user_pre_hook(self.module, self.grad_outputs)
                    if result is None:
                        continue
                    if len(result) != len(self.grad_outputs):
                        raise RuntimeError(
                            "Backward pre hook returned an invalid number of grad_output, got %d, but "
                            "expected %d" % (len(result), len(self.grad_outputs))
                        )
                    self.grad_outputs = result
                local_grad_outputs = self.grad_outputs
                if self.input_tensors_index is None:  # no input requires grad: call the hooks now
                    warnings.warn(
                        "Full backward hook is firing when gradients are computed with respect to module "
                        "outputs since no inputs require gradients. See "
                        "https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html"
                        "#torch.nn.Module.register_full_backward_hook for more details.",
                        stacklevel=5,
                    )
                    grad_inputs = self._pack_with_none([], [], self.n_inputs)
                    for user_hook in self.user_hooks:
                        res = user_hook(self.module, grad_inputs, self.grad_outputs)
                        if res is not None and not (isinstance(res, tuple) and all(el is None for el in res)):
                            raise RuntimeError(
                                "Backward hook for Modules where no input requires gradient should always "
                                "return None or None for all gradients."
                            )
                    self.grad_outputs = None
                return tuple(local_grad_outputs[i] for i in self.output_tensors_index)

            grad_fn.register_hook(hook)

        is_tuple = isinstance(args, tuple)
        res, output_idx = self._apply_on_tensors(fn, args if is_tuple else (args,))
        self.n_outputs = len(args) if is_tuple else 1
        self.output_tensors_index = output_idx
        return res if is_tuple else res[0]
