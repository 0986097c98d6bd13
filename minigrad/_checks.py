"""Argument checks at the entry points, with PyTorch's error texts.

PyTorch parses the arguments of every op in C++ before running it, so a learner who passes
``dim=0.5`` or a float shape gets a ``TypeError`` naming the op and the argument, never a traceback
from deep inside.  The ops call these few helpers first; each is one check on the fast path
(``type(x) is int``) and builds the message only when the check fails.

    int_arg(1.5, "unsqueeze", "dim", 1)
        TypeError: unsqueeze(): argument 'dim' (position 1) must be int, not float
    int_list((2, 1.5), "reshape", "shape")
        TypeError: reshape(): argument 'shape' failed to unpack the object at pos 2 with error "type must be
        tuple of ints,but got float"
"""

from __future__ import annotations

import functools
import operator
import re
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np

from . import _dtype


def is_int(value) -> bool:
    """An int for PyTorch's parser: a Python or numpy int, or a one-element integer tensor; not a bool."""
    if type(value) is int:
        return True
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, np.integer)):
        return True
    data = getattr(value, "_data", None)    # a one-element integer Tensor counts as an int (``__index__``)
    return isinstance(data, np.ndarray) and data.ndim == 0 and data.dtype.kind in "iu"


def _where(pos) -> str:
    return "" if pos is None else " (position %d)" % pos


def int_arg(value, fn: str, name: str, pos: int | None = 1) -> int:
    """``value`` as an int, or PyTorch's ``fn(): argument 'name' (position pos) must be int, not float``."""
    if type(value) is int:
        return value
    if not is_int(value):
        raise TypeError("%s(): argument '%s'%s must be int, not %s" % (fn, name, _where(pos), type(value).__name__))
    return operator.index(value)


def wrap_dim(dim: int, ndim: int) -> int:
    """A possibly negative dim as an index, with PyTorch's error (a 0-dim tensor takes dim 0 and -1)."""
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError("Dimension out of range (expected to be in range of [%d, %d], but got %d)" % (-n, n - 1, dim))
    return dim + n if dim < 0 else dim


def dims(dim, ndim: int, fn: str):
    """``dim=`` as numpy's ``axis``: an int or a tuple of ints, each in range (None for a 0-dim tensor)."""
    if is_int(dim):
        d = wrap_dim(operator.index(dim), ndim)
        return d if ndim else None
    ds = tuple(wrap_dim(d, ndim) for d in int_list(dim, fn, "dim"))
    return ds if ndim else None


def bool_arg(value, fn: str, name: str, pos: int | None = None) -> bool:
    """A flag: a bool (PyTorch refuses ``requires_grad='yes'`` and ``requires_grad=1``)."""
    if type(value) is bool or isinstance(value, np.bool_):
        return bool(value)
    raise TypeError("%s(): argument '%s'%s must be bool, not %s" % (fn, name, _where(pos), type(value).__name__))


def number_arg(value, fn: str, name: str, pos: int | None = 1):
    """A Python number (not a string, None, or a tensor of several elements)."""
    if isinstance(value, (int, float, np.number)) or (
            getattr(value, "_data", None) is not None and value._data.ndim == 0):
        return value
    raise TypeError("%s(): argument '%s'%s must be Number, not %s" % (fn, name, _where(pos), type(value).__name__))


def int_list(values, fn: str, name: str, pos: int | None = 1) -> tuple:
    """A tuple of ints (``tuple of ints`` in PyTorch's signatures), with the parser's messages."""
    if type(values) is tuple and all(type(v) is int for v in values):
        return values
    if is_int(values):
        return (operator.index(values),)
    if not isinstance(values, (tuple, list)) and type(values).__name__ != "Size":
        raise TypeError("%s(): argument '%s'%s must be tuple of ints, not %s"
                        % (fn, name, _where(pos), type(values).__name__))
    for k, v in enumerate(values):
        if not is_int(v):
            if k == 0:
                raise TypeError("%s(): argument '%s'%s must be tuple of ints, but found element of type %s at pos 0"
                                % (fn, name, _where(pos), type(v).__name__))
            raise TypeError("%s(): argument '%s' failed to unpack the object at pos %d with error \"type must be "
                            "tuple of ints,but got %s\"" % (fn, name, k + 1, type(v).__name__))
    return tuple(operator.index(v) for v in values)


def int_varargs(args: tuple, fn: str, name: str) -> tuple:
    """``f(2, 3)`` or ``f((2, 3))`` (a size given as several ints or one sequence) as a tuple of ints."""
    if len(args) == 1:
        return int_list(args[0], fn, name)
    if args and not is_int(args[0]):
        raise TypeError("%s() takes 1 positional argument but %d were given" % (fn, len(args)))
    return int_list(args, fn, name)


def size_arg(args: tuple, fn: str) -> tuple:
    """The size of a new tensor (``torch.zeros(2, 3)``): ints, none negative."""
    shape = int_varargs(args, fn, "size")
    for s in shape:
        if s < 0:
            raise RuntimeError("Trying to create tensor with negative dimension %d: [%s]"
                               % (s, ", ".join(map(str, shape))))
    return shape


def dtype_arg(dtype, fn: str, pos: int | None = None):
    """``dtype=`` must be a minigrad dtype (or None)."""
    if dtype is None or isinstance(dtype, _dtype.dtype):
        return dtype
    raise TypeError("%s(): argument 'dtype'%s must be torch.dtype, not %s" % (fn, _where(pos), type(dtype).__name__))


def same_shape(what: str, got, expected, of: str) -> None:
    """``Expected weight to be of same shape as normalized_shape, but got weight of shape [4] ...``."""
    if tuple(got) != tuple(expected):
        raise RuntimeError("Expected %s to be of same shape as %s, but got %s of shape [%s] and %s = [%s]"
                           % (what, of, what, ", ".join(map(str, got)), of, ", ".join(map(str, expected))))


def expandable(shape, target) -> None:
    """PyTorch's error when ``shape`` cannot be expanded to ``target`` (a bias added to a result, ``copy_``)."""
    shape, target = tuple(shape), tuple(target)
    if len(shape) > len(target):
        raise RuntimeError("expand(torch.FloatTensor{[%s]}, size=[%s]): the number of sizes provided (%d) must be "
                           "greater or equal to the number of dimensions in the tensor (%d)"
                           % (", ".join(map(str, shape)), ", ".join(map(str, target)), len(target), len(shape)))
    for k in range(1, len(shape) + 1):
        if shape[-k] != 1 and shape[-k] != target[-k]:
            raise RuntimeError("The expanded size of the tensor (%d) must match the existing size (%d) at "
                               "non-singleton dimension %d.  Target sizes: [%s].  Tensor sizes: [%s]"
                               % (target[-k], shape[-k], len(target) - k, ", ".join(map(str, target)),
                                  ", ".join(map(str, shape))))


def _type_names(args, kwargs) -> str:
    given = [type(a).__name__ for a in args]
    named = ["%s=%s" % (k, type(v).__name__) for k, v in sorted(kwargs.items())]
    return ", ".join(given + named) if given else "".join(n + ", " for n in named)


def invalid_args(fn: str, args: tuple, kwargs: dict, signatures: tuple, notes=None) -> str:
    """The text of PyTorch's ``fn() received an invalid combination of arguments - got (float), but expected
    one of: ...`` (its parser's error when no overload fits). ``notes``: one "didn't match" line per
    signature, or None where PyTorch prints none."""
    got = "%s() received an invalid combination of arguments - got (%s), but expected" % (fn, _type_names(args, kwargs))
    if len(signatures) == 1:
        return "%s (%s)" % (got, signatures[0])
    lines = [got + " one of:"]
    for k, sig in enumerate(signatures):
        lines.append(" * (%s)" % sig)
        note = notes[k] if notes else None
        if note:
            lines.append("      didn't match because some of the " + note)
    return "\n".join(lines)


def bad_types(args) -> str:
    """The note for arguments of the wrong type: ``arguments have invalid types: (!float!)``."""
    return "arguments have invalid types: (%s)" % ", ".join("!%s!" % type(a).__name__ for a in args)


def _is_tensor(value) -> bool:
    """(this module sits below the tensor in the layers: a Tensor is what holds an ndarray in ``_data``)"""
    return isinstance(getattr(value, "_data", None), np.ndarray)


def tensor_list(tensors, fn: str):
    """``torch.cat``/``stack``'s first argument: a tuple or list of tensors."""
    if not isinstance(tensors, (tuple, list)):
        raise TypeError("%s(): argument 'tensors' (position 1) must be tuple of Tensors, not %s"
                        % (fn, type(tensors).__name__))
    for k, t in enumerate(tensors):
        if not _is_tensor(t):
            raise TypeError("expected Tensor as element %d in argument 0, but got %s" % (k, type(t).__name__))
    return tensors


def tensor_arg(value, fn: str, name: str, pos: int | None = 1):
    """A Tensor argument (PyTorch's ``copy_(): argument 'other' (position 1) must be Tensor, not str``)."""
    if not _is_tensor(value):
        raise TypeError("%s(): argument '%s'%s must be Tensor, not %s" % (fn, name, _where(pos), type(value).__name__))
    return value


def dtype_name(d) -> str:
    """PyTorch's short name of a dtype in messages: ``Float``, ``Double``, ``Long``."""
    return d._legacy


_F = TypeVar("_F", bound=Callable[..., Any])


def python_args(fn: Any = None, *, method: bool = True) -> Any:
    """Give Python's own argument errors PyTorch's words (its argument parser's): ``transpose() missing 1 required
    positional arguments: "dim1"`` (sic: PyTorch's plural is the wrong way round), ``transpose() takes 2 positional
    arguments but 3 were given`` (a method's count leaves out self).  Only errors raised by the call itself, not
    from inside ``fn``, are rewritten; a successful call costs one frame."""
    def wrap(f: _F) -> _F:
        name = f.__name__

        @functools.wraps(f)
        def call(*args, **kwargs):
            try:
                return f(*args, **kwargs)
            except TypeError as e:
                if e.__traceback__.tb_next is not None:      # raised inside f: not a binding error
                    raise
                text = str(e)
                missing = re.match(r".*missing (\d+) required (?:keyword-only |positional )?arguments?: (.*)", text)
                if missing:
                    n = int(missing.group(1))
                    names = re.findall(r"'(\w+)'", missing.group(2))
                    raise TypeError('%s() missing %d required positional argument%s: %s' % (
                        name, n, "s" if n == 1 else "", ", ".join('"%s"' % a for a in names))) from None
                takes = re.match(r".*takes (\d+) positional arguments? but (\d+) (?:was|were) given", text)
                if takes and method:
                    raise TypeError("%s() takes %d positional arguments but %d were given"
                                    % (name, int(takes.group(1)) - 1, int(takes.group(2)) - 1)) from None
                raise
        return cast(_F, call)
    return wrap(fn) if fn is not None else wrap
