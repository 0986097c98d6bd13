# Parts of this file follow PyTorch's torch/autograd/grad_mode.py and torch/utils/_contextlib.py
# (BSD-3-Clause, Copyright (c) 2016- Facebook, Inc and the PyTorch contributors); see THIRD_PARTY_NOTICES.
"""Grad modes: ``no_grad``, ``enable_grad``, ``set_grad_enabled``, ``inference_mode`` (thread-local)."""

from __future__ import annotations

import functools
import inspect
import threading
from typing import Any

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "inference_mode", "is_grad_enabled",
           "is_inference_mode_enabled"]


class _State(threading.local):
    grad_enabled = True
    inference = False


_state = _State()


def is_grad_enabled() -> bool:
    """True when new operations are recorded for autograd."""
    return _state.grad_enabled


def is_inference_mode_enabled() -> bool:
    return _state.inference


class _DecoratorContextManager:
    """A context manager that also decorates functions (``@no_grad()`` and ``@no_grad``)."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:  # an instance, or (``@no_grad``) the wrapped function
        # `@no_grad` without parentheses: the class is called with the function itself.
        if cls is not set_grad_enabled and len(args) == 1 and callable(args[0]) and not kwargs:
            return cls()(args[0])
        return super().__new__(cls)

    def __call__(self, func):
        if inspect.isgeneratorfunction(func):
            @functools.wraps(func)
            def generator(*args, **kwargs):
                with self.clone():
                    yield from func(*args, **kwargs)
            return generator

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with self.clone():
                return func(*args, **kwargs)
        return wrapper

    def clone(self):
        return type(self)()


class no_grad(_DecoratorContextManager):
    """Turn off recording: results have ``requires_grad=False`` and no ``grad_fn``.

    >>> import minigrad as torch
    >>> x = torch.tensor([1.], requires_grad=True)
    >>> with torch.no_grad():
    ...     (x * 2).requires_grad
    False
    """

    def __enter__(self):
        self.prev = _state.grad_enabled
        _state.grad_enabled = False

    def __exit__(self, *exc):
        _state.grad_enabled = self.prev


class enable_grad(_DecoratorContextManager):
    """Turn recording back on inside ``no_grad``."""

    def __enter__(self):
        self.prev = _state.grad_enabled
        _state.grad_enabled = True

    def __exit__(self, *exc):
        _state.grad_enabled = self.prev


class set_grad_enabled(_DecoratorContextManager):
    """``set_grad_enabled(False)`` switches recording off at once; in ``with`` it is restored after."""

    def __init__(self, mode: bool) -> None:
        self.prev = _state.grad_enabled
        self.mode = bool(mode)
        _state.grad_enabled = self.mode

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        _state.grad_enabled = self.prev

    def clone(self):
        return set_grad_enabled(self.mode)


class inference_mode(_DecoratorContextManager):
    """Like ``no_grad``, and tensors made inside are inference tensors (``is_inference()``)."""

    def __init__(self, mode: bool = True) -> None:
        self.mode = mode

    def __enter__(self):
        self.prev = (_state.grad_enabled, _state.inference)
        if self.mode:
            _state.grad_enabled, _state.inference = False, True

    def __exit__(self, *exc):
        _state.grad_enabled, _state.inference = self.prev

    def clone(self):
        return inference_mode(self.mode)
