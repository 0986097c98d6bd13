"""RemovableHandle: what every ``register_*`` call returns."""

from __future__ import annotations

import itertools
import weakref

__all__ = ["RemovableHandle"]


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

    def __init__(self, hooks_dict: dict) -> None:
        # NOTE: a weak reference, so a handle never keeps a node or a tensor alive.
        self.hooks_dict_ref = weakref.ref(hooks_dict) if _weakrefable(hooks_dict) else (lambda: hooks_dict)
        self.id = next(RemovableHandle._next_id)

    def remove(self) -> None:
        hooks_dict = self.hooks_dict_ref()
        if hooks_dict is not None:
            hooks_dict.pop(self.id, None)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc_info) -> None:
        self.remove()

    def __repr__(self) -> str:
        return "<minigrad.utils.hooks.RemovableHandle object at %#x>" % id(self)


class _HookDict(dict):
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
