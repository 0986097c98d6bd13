# Parts of this file follow PyTorch's torch/autograd/grad_mode.py and torch/utils/_contextlib.py
# (BSD-3-Clause, Copyright (c) 2016- Facebook, Inc and the PyTorch contributors); see THIRD_PARTY_NOTICES.
"""Grad modes: ``no_grad``, ``enable_grad``, ``set_grad_enabled``, ``inference_mode`` (thread-local)."""

from __future__ import annotations

import functools
import inspect
import sys
import threading
from collections.abc import Callable
from typing import Any

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "inference_mode", "is_grad_enabled",
           "is_inference_mode_enabled"]


class _State(threading.local):
    grad_enabled: bool = True
    inference: bool = False
    fw_levels = ()      # the live forward-AD levels (autograd/forward_ad.py)


_state = _State()


def is_grad_enabled() -> bool:
    """True when new operations are recorded for autograd."""
    return _state.grad_enabled


def is_inference_mode_enabled() -> bool:
    return _state.inference


def _wrap_generator(ctx_factory: Any, func: Any) -> Any:
    """Decorate a generator function: the mode holds while the generator runs, not between its yields.

    Each time control enters the generator (``send``, ``throw``, ``close``) a fresh context is
    entered, and left again before the value goes back to the caller (PyTorch's ``_wrap_generator``).
    """
    @functools.wraps(func)
    def generator_context(*args, **kwargs):
        gen = func(*args, **kwargs)
        try:
            with ctx_factory():
                response = gen.send(None)
            while True:
                try:
                    request = yield response
                except GeneratorExit:
                    with ctx_factory():
                        gen.close()
                    raise
                except BaseException:
                    with ctx_factory():
                        response = gen.throw(*sys.exc_info())
                else:
                    with ctx_factory():
                        response = gen.send(request)
        except StopIteration as e:
            return e.value
    return generator_context


class _DecoratorContextManager:
    """A context manager that also decorates functions: each call runs in a fresh copy (``clone``)."""

    def __call__(self, func: Any) -> Any:
        if inspect.isclass(func):
            raise RuntimeError("Cannot decorate classes; it is ambiguous whether or not only the constructor or all "
                               "methods should have the context manager applied; additionally, decorating a class "
                               "at definition-site will prevent use of the identifier as a conventional type.  To "
                               "specify which methods to decorate, decorate each of them individually.")
        if inspect.isgeneratorfunction(func):
            return _wrap_generator(self.clone, func)

        @functools.wraps(func)
        def decorate_context(*args, **kwargs):
            with self.clone():
                return func(*args, **kwargs)
        return decorate_context

    def clone(self) -> Any:
        return type(self)()


class _NoParamDecoratorContextManager(_DecoratorContextManager):
    """Also usable without parentheses: ``@no_grad`` as well as ``@no_grad()``."""

    def __new__(cls, orig_func: Any = None) -> Any:
        if orig_func is None:
            return super().__new__(cls)
        return cls()(orig_func)


class no_grad(_NoParamDecoratorContextManager):
    """Turn off recording: results have ``requires_grad=False`` and no ``grad_fn`` (thread-local).

    >>> import minigrad as torch
    >>> x = torch.tensor([1.], requires_grad=True)
    >>> with torch.no_grad():
    ...     (x * 2).requires_grad
    False
    """

    prev: bool

    def __init__(self) -> None:
        self.prev = False

    def __enter__(self) -> None:
        self.prev = _state.grad_enabled
        _state.grad_enabled = False

    def __exit__(self, *exc: object) -> None:
        _state.grad_enabled = self.prev


class enable_grad(_NoParamDecoratorContextManager):
    """Turn recording back on inside ``no_grad`` (thread-local)."""

    prev: bool

    def __enter__(self) -> None:
        self.prev = _state.grad_enabled
        _state.grad_enabled = True

    def __exit__(self, *exc: object) -> None:
        _state.grad_enabled = self.prev


class set_grad_enabled(_DecoratorContextManager):
    """``set_grad_enabled(mode)`` switches recording at once; in ``with`` the previous mode comes back after.

    As a decorator (``@set_grad_enabled(False)``) it affects only the decorated function.
    """

    prev: bool
    mode: bool

    def __init__(self, mode: bool) -> None:
        self.prev = _state.grad_enabled
        self.mode = bool(mode)
        _state.grad_enabled = self.mode

    def __call__(self, func: Any) -> Any:
        _state.grad_enabled = self.prev          # a decorator: undo the switch made by __init__
        return super().__call__(func)

    def __enter__(self) -> None:
        _state.grad_enabled = self.mode          # (re-applied: the object may be entered later)

    def __exit__(self, *exc: object) -> None:
        _state.grad_enabled = self.prev

    def __repr__(self) -> str:
        return "torch.autograd.grad_mode.set_grad_enabled(mode=%s)" % self.mode

    __str__ = __repr__

    def clone(self) -> Any:
        return type(self)(self.mode)


class inference_mode(_DecoratorContextManager):
    """Like ``no_grad``, and tensors made inside are inference tensors (``is_inference()``).

    ``inference_mode(False)`` turns inference mode (and ``no_grad``) off inside an enclosing one.
    """

    prev: tuple[bool, bool]

    def __new__(cls, mode: bool | Callable[..., Any] = True) -> Any:
        if isinstance(mode, bool):
            return super().__new__(cls)
        return cls()(mode)                       # `@inference_mode` without parentheses

    def __init__(self, mode: bool = True) -> None:
        self.mode = mode

    def __enter__(self) -> None:
        self.prev = (_state.grad_enabled, _state.inference)
        _state.grad_enabled, _state.inference = not self.mode, self.mode

    def __exit__(self, *exc: object) -> None:
        _state.grad_enabled, _state.inference = self.prev

    def clone(self) -> Any:
        return type(self)(self.mode)
