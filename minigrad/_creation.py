"""Making tensors: ``tensor``, ``zeros``, ``ones``, ``rand``…, the random generator, and torch-level functions."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import _dtype
from ._tensor import Tensor, _to_nested

__all__ = ["tensor", "as_tensor", "from_numpy", "zeros", "ones", "full", "empty", "zeros_like", "ones_like",
           "full_like", "empty_like", "rand_like", "randn_like", "arange", "linspace", "logspace", "eye", "rand",
           "randn", "normal", "randint", "randperm", "manual_seed", "seed", "initial_seed", "Generator", "device",
           "is_tensor", "cat", "concat", "stack", "where", "numel", "get_rng_state", "set_rng_state"]


class device:
    """Only ``'cpu'`` exists in minigrad."""

    def __init__(self, type="cpu", index=None):
        if isinstance(type, device):
            type = type.type
        if str(type).split(":")[0] != "cpu":
            raise RuntimeError("minigrad runs on the CPU only; got device %r" % (type,))
        self.type, self.index = "cpu", None

    def __repr__(self):
        return "device(type='cpu')"

    def __str__(self):
        return "cpu"

    def __eq__(self, other):
        return str(other) == "cpu"

    __hash__ = object.__hash__


class Generator:
    """A random number generator (numpy's PCG64), seeded with ``manual_seed``."""

    def __init__(self, device="cpu"):
        self._seed = 67280421310721
        self._rng = np.random.default_rng(self._seed)

    def manual_seed(self, seed: int) -> Generator:
        self._seed = int(seed)
        self._rng = np.random.default_rng(self._seed)
        return self

    def initial_seed(self) -> int:
        return self._seed

    def get_state(self):
        return Tensor._make(np.frombuffer(repr(self._rng.bit_generator.state).encode(), dtype=np.uint8).copy())

    def set_state(self, state):
        import ast
        self._rng.bit_generator.state = ast.literal_eval(bytes(state._data).decode())


default_generator = Generator()


def manual_seed(seed: int) -> Generator:
    """Seed the default generator: initialisation, dropout and shuffling become reproducible."""
    return default_generator.manual_seed(seed)


def seed() -> int:
    s = int(np.random.SeedSequence().entropy % (2**63))  # type: ignore[operator]  # entropy: an int here
    default_generator.manual_seed(s)
    return s


def initial_seed() -> int:
    return default_generator.initial_seed()


def get_rng_state() -> Tensor:
    return default_generator.get_state()


def set_rng_state(state: Tensor) -> None:
    default_generator.set_state(state)


def _rng(generator=None):
    return (generator or default_generator)._rng


def _new(data, dtype=None, requires_grad=False):
    t = Tensor._make(data if dtype is None else data.astype(_as_dtype(dtype).numpy, copy=False), False)
    if requires_grad:
        t.requires_grad = True if t.dtype.is_floating_point else _fail_int_grad()
    return t


def _fail_int_grad():
    raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")


def _as_dtype(d):
    if d is None or isinstance(d, _dtype.dtype):
        return d
    if d is float:
        return _dtype.float64
    if d is int:
        return _dtype.int64
    if d is bool:
        return _dtype.bool
    return _dtype.from_numpy_dtype(d)


def _infer(data):
    """The numpy array for ``tensor(data)``: Python floats → float32 (default dtype), ints → int64."""
    if isinstance(data, np.ndarray):
        return data.copy()
    if isinstance(data, (bool, np.bool_)):
        return np.array(data, dtype=np.bool_)
    nested = _to_nested(data)
    try:
        arr = np.array(nested)
    except ValueError:
        raise ValueError(_ragged_message(data) or "ragged nested sequence") from None
    if arr.dtype.kind in "US":
        raise TypeError("new(): invalid data type 'str'")
    if arr.dtype == object:
        raise TypeError("Could not infer dtype of %s" % type(data).__name__)
    if arr.dtype.kind == "f" and not isinstance(data, np.ndarray) and not _has_numpy_floats(data):
        arr = arr.astype(_dtype.get_default_dtype().numpy)
    elif arr.dtype.kind in "iu":
        arr = arr.astype(np.int64)
    elif arr.dtype.kind not in "fb":
        raise TypeError("Could not infer dtype of %s" % type(data).__name__)
    return arr


def _has_numpy_floats(data):
    """numpy float scalars keep their dtype (``tensor([np.float64(1.5)])`` is float64), as in PyTorch."""
    while isinstance(data, (list, tuple)) and data:
        data = data[0]
    return isinstance(data, np.floating)


def _ragged_message(data, dim=0):
    """PyTorch's error for nested lists of unequal lengths: the first one that differs from its first sibling."""
    if not isinstance(data, (list, tuple)) or not data or not isinstance(data[0], (list, tuple)):
        return None
    n = len(data[0])
    for item in data:
        if isinstance(item, (list, tuple)) and len(item) != n:
            return "expected sequence of length %d at dim %d (got %d)" % (n, dim + 1, len(item))
    return next((m for m in (_ragged_message(item, dim + 1) for item in data) if m), None)


def tensor(data: Any, *, dtype: _dtype.dtype | None = None, device: Any = None, requires_grad: bool = False,
           pin_memory: bool = False, **kwargs: Any) -> Tensor:
    """Make a tensor from data (a copy).  Python floats become float32, ints int64.

    >>> tensor([1., 2.]), tensor([1, 2]).dtype
    (tensor([1., 2.]), torch.int64)
    """
    if kwargs:
        raise TypeError("tensor() got an unexpected keyword argument '%s'" % next(iter(kwargs)))
    if isinstance(data, Tensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
                      "sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor).",
                      UserWarning, stacklevel=2)
        arr = data._data.copy()
    elif isinstance(data, np.ndarray):
        arr = data.copy()
        if arr.dtype.kind in "iu":
            arr = arr.astype(np.int64) if arr.dtype != np.uint8 else arr
    else:
        arr = _infer(data)
    return _new(arr, dtype, requires_grad)


def as_tensor(data: Any, dtype: _dtype.dtype | None = None, device: Any = None) -> Tensor:
    """Like ``tensor`` but shares memory with a numpy array or tensor when it can."""
    if isinstance(data, Tensor):
        return data if dtype is None or _as_dtype(dtype) is data.dtype else data.to(_as_dtype(dtype))
    if isinstance(data, np.ndarray):
        return _new(data, dtype)
    return tensor(data, dtype=dtype)


def from_numpy(array: np.ndarray) -> Tensor:
    """A tensor sharing memory with ``array`` (keeps its dtype, e.g. float64)."""
    if not isinstance(array, np.ndarray):
        raise TypeError("expected np.ndarray (got %s)" % type(array).__name__)
    _dtype.from_numpy_dtype(array.dtype)
    return Tensor._make(array, False)


def _size(size, op=None):
    """The shape of a new tensor, from ``(2, 3)`` or ``((2, 3),)``; PyTorch's errors for a negative size."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    size = tuple(int(s) for s in size)
    negative = [s for s in size if s < 0]
    if negative:
        if op == "zeros":
            raise RuntimeError("zeros: Dimension size must be non-negative.")
        raise RuntimeError("Trying to create tensor with negative dimension %d: [%s]"
                           % (negative[0], ", ".join(map(str, size))))
    return size


def _factory(fill, size, dtype, requires_grad, op=None):
    d = _as_dtype(dtype) or _dtype.get_default_dtype()
    return _new(fill(_size(size, op), d.numpy), None, requires_grad)


def zeros(*size: Any, dtype: _dtype.dtype | None = None, device: Any = None, requires_grad: bool = False,
          **kwargs: Any) -> Tensor:
    return _factory(np.zeros, size, dtype, requires_grad, op="zeros")


def ones(*size: Any, dtype: _dtype.dtype | None = None, device: Any = None, requires_grad: bool = False,
         **kwargs: Any) -> Tensor:
    return _factory(np.ones, size, dtype, requires_grad)


def empty(*size: Any, dtype: _dtype.dtype | None = None, device: Any = None, requires_grad: bool = False,
          **kwargs: Any) -> Tensor:
    return _factory(np.zeros, size, dtype, requires_grad)


def full(size: Any, fill_value: Any, *, dtype: _dtype.dtype | None = None, device: Any = None,
         requires_grad: bool = False) -> Tensor:
    d = _as_dtype(dtype) or _dtype.scalar_dtype(fill_value)
    return _new(np.full(_size((size,)), fill_value, dtype=d.numpy), None, requires_grad)


def _like(fn, t, dtype, requires_grad, *args):
    d = _as_dtype(dtype) or t.dtype
    return _new(fn(t.shape, *args, dtype=d.numpy), None, requires_grad)


def zeros_like(t: Tensor, *, dtype: _dtype.dtype | None = None, device: Any = None, requires_grad: bool = False,
               **kwargs: Any) -> Tensor:
    return _like(np.zeros, t, dtype, requires_grad)


def ones_like(t: Tensor, *, dtype: _dtype.dtype | None = None, device: Any = None, requires_grad: bool = False,
              **kwargs: Any) -> Tensor:
    return _like(np.ones, t, dtype, requires_grad)


def empty_like(t: Tensor, *, dtype: _dtype.dtype | None = None, device: Any = None, requires_grad: bool = False,
               **kwargs: Any) -> Tensor:
    return _like(np.zeros, t, dtype, requires_grad)


def full_like(t: Tensor, fill_value: Any, *, dtype: _dtype.dtype | None = None, device: Any = None,
              requires_grad: bool = False) -> Tensor:
    return _like(lambda shape, dtype: np.full(shape, fill_value, dtype=dtype), t, dtype, requires_grad)


def rand_like(t, *, dtype=None, requires_grad=False, **kwargs):
    return rand(*t.shape, dtype=dtype or t.dtype, requires_grad=requires_grad)


def randn_like(t, *, dtype=None, requires_grad=False, **kwargs):
    return randn(*t.shape, dtype=dtype or t.dtype, requires_grad=requires_grad)


def arange(start: Any, end: Any = None, step: Any = 1, *, dtype: _dtype.dtype | None = None, device: Any = None,
           requires_grad: bool = False) -> Tensor:
    """Values from ``start`` up to (not including) ``end``; int64 unless a bound is a float."""
    if end is None:
        start, end = 0, start
    values = [v.item() if isinstance(v, Tensor) else v for v in (start, end, step)]
    is_float = any(isinstance(v, float) for v in values)
    d = _as_dtype(dtype) or (_dtype.get_default_dtype() if is_float else _dtype.int64)
    return _new(np.arange(*values).astype(d.numpy), None, requires_grad)


def linspace(start: Any, end: Any, steps: int, *, dtype: _dtype.dtype | None = None, device: Any = None,
             requires_grad: bool = False) -> Tensor:
    d = _as_dtype(dtype) or _dtype.get_default_dtype()
    return _new(np.linspace(start, end, int(steps)).astype(d.numpy), None, requires_grad)


def logspace(start: Any, end: Any, steps: int, base: float = 10.0, *, dtype: _dtype.dtype | None = None,
             requires_grad: bool = False) -> Tensor:
    d = _as_dtype(dtype) or _dtype.get_default_dtype()
    return _new(np.logspace(start, end, int(steps), base=base).astype(d.numpy), None, requires_grad)


def eye(n: int, m: int | None = None, *, dtype: _dtype.dtype | None = None, device: Any = None,
        requires_grad: bool = False) -> Tensor:
    d = _as_dtype(dtype) or _dtype.get_default_dtype()
    return _new(np.eye(n, m, dtype=d.numpy), None, requires_grad)


def rand(*size, generator=None, dtype=None, device=None, requires_grad=False):
    """Uniform samples in [0, 1) from the seeded generator."""
    d = _as_dtype(dtype) or _dtype.get_default_dtype()
    return _new(_rng(generator).random(_size(size)).astype(d.numpy), None, requires_grad)


def randn(*size, generator=None, dtype=None, device=None, requires_grad=False):
    """Standard normal samples from the seeded generator."""
    d = _as_dtype(dtype) or _dtype.get_default_dtype()
    return _new(_rng(generator).standard_normal(_size(size)).astype(d.numpy), None, requires_grad)


_NORMAL_SIGNATURES = (
    "normal() received an invalid combination of arguments - got (%s), but expected one of:\n"
    " * (Tensor mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)\n"
    " * (Tensor mean, float std = 1, *, torch.Generator generator = None, Tensor out = None)\n"
    " * (float mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)\n"
    " * (float mean, float std, tuple of ints size, *, torch.Generator generator = None, Tensor out = None, "
    "torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, bool pin_memory = False, "
    "bool requires_grad = False)\n")


def normal(mean, std=1.0, size=None, *, generator=None, out=None, dtype=None, device=None, requires_grad=False):
    """Samples of N(mean, std²): ``mean`` and ``std`` tensors (broadcast) or numbers (then ``size`` is needed).

    With a tensor argument the result is in the graph (``NormalBackward1/2/3``, whose gradient is 0).
    """
    from .ops import elementwise as E

    if isinstance(std, (int, float)) and std < 0:
        raise RuntimeError("normal expects std >= 0.0, but found std %g" % std)
    if isinstance(std, Tensor) and std.numel() and std._data.min() < 0:
        raise RuntimeError("normal expects all elements of std >= 0.0")
    rng = _rng(generator)
    if isinstance(mean, Tensor):
        return (E.NormalBoth if isinstance(std, Tensor) else E.Normal).apply(mean, std, rng)
    if isinstance(std, Tensor):
        return E.NormalStd.apply(mean, std, rng)
    if size is None:
        raise TypeError(_NORMAL_SIGNATURES % ", ".join(type(a).__name__ for a in (mean, std)))
    d = _as_dtype(dtype) or _dtype.get_default_dtype()
    return _new(rng.normal(mean, std, _size((size,))).astype(d.numpy), None, requires_grad)


def randint(low=0, high=None, size=None, *, generator=None, dtype=None, device=None, requires_grad=False):
    if size is None:
        low, high, size = 0, low, high
    d = _as_dtype(dtype) or _dtype.int64
    return _new(_rng(generator).integers(low, high, _size((size,))).astype(d.numpy), None, requires_grad)


def randperm(n, *, generator=None, dtype=None, device=None, requires_grad=False):
    d = _as_dtype(dtype) or _dtype.int64
    return _new(_rng(generator).permutation(n).astype(d.numpy), None, requires_grad)


def is_tensor(obj: Any) -> bool:
    return isinstance(obj, Tensor)


def numel(t: Tensor) -> int:
    return t.numel()


def cat(tensors: Sequence[Tensor], dim: int = 0, *, out: Tensor | None = None) -> Tensor:
    """Concatenate along an existing dim (``CatBackward0``)."""
    from .ops.shape import Cat
    return Cat.apply(dim, *tensors)


concat = concatenate = cat


def stack(tensors: Sequence[Tensor], dim: int = 0, *, out: Tensor | None = None) -> Tensor:
    """Stack along a new dim (``StackBackward0``)."""
    from .ops.shape import Stack
    return Stack.apply(dim, *tensors)


def where(condition: Any, input: Any = None, other: Any = None) -> Any:  # a Tensor; a tuple for where(condition)
    """``input`` where ``condition`` holds, else ``other`` (``WhereBackward0``)."""
    from .ops._util import operand
    from .ops.elementwise import Where

    if input is None and other is None:
        return tuple(Tensor._make(i) for i in np.nonzero(condition._data))
    x, y = operand(input), operand(other)
    from .ops._util import broadcast_shape
    shape = broadcast_shape(broadcast_shape(condition.shape, x.shape), y.shape)
    return Where.apply(np.broadcast_to(condition._data, shape), x, y)
