"""Making tensors: ``tensor``, ``zeros``, ``ones``, ``rand``…, the random generator, and torch-level functions."""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import _checks, _dtype, _random
from ._tensor import Tensor, _to_nested
from .autograd import grad_mode
from .ops import elementwise as E
from .ops import inplace as P
from .ops import ranges
from .ops._layout import like
from .ops._util import broadcast_shape, operand
from .ops._writes import fill_random
from .ops.elementwise import Where
from .ops.inplace import LEAF_INPLACE
from .ops.shape import Cat, Stack

__all__ = ["tensor", "as_tensor", "from_numpy", "zeros", "ones", "full", "empty", "zeros_like", "ones_like",
           "full_like", "empty_like", "rand_like", "randn_like", "arange", "linspace", "logspace", "eye", "rand",
           "randn", "normal", "randint", "randperm", "randint_like", "bernoulli", "multinomial", "manual_seed",
           "seed", "initial_seed", "Generator", "device",
           "is_tensor", "cat", "concat", "stack", "where", "numel", "get_rng_state", "set_rng_state"]


_DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga", "maia",
                 "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone")


class device:
    """A device name, as in PyTorch: ``torch.device("cuda")`` can be written, but only ``'cpu'`` holds tensors.

    Moving a tensor to CUDA raises PyTorch's CPU-build error (``AssertionError: Torch not compiled
    with CUDA enabled``).
    """

    def __init__(self, type: str | device | int = "cpu", index: int | None = None) -> None:
        if isinstance(type, device):
            type, index = type.type, type.index
        elif isinstance(type, int) and not isinstance(type, bool):
            type, index = "cuda", type
        name, _, number = str(type).partition(":")
        if name not in _DEVICE_TYPES:
            raise RuntimeError("Expected one of %s device type at start of device string: %s"
                               % (", ".join(_DEVICE_TYPES), type))
        if number:
            index = int(number)
        self.type: str = name
        self.index: int | None = index

    def __repr__(self) -> str:
        if self.index is None:
            return "device(type='%s')" % self.type
        return "device(type='%s', index=%d)" % (self.type, self.index)

    def __str__(self) -> str:
        return self.type if self.index is None else "%s:%d" % (self.type, self.index)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            other = device(other)
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))


_Device = device  # the class, for annotations where a parameter is called `device`


def _require_cpu(d: Any) -> None:
    """PyTorch's CPU-build errors for a device other than the CPU."""
    if d is None:
        return
    d = device(d)
    if d.type == "cuda":
        raise AssertionError("Torch not compiled with CUDA enabled")
    if d.type not in ("cpu", "meta"):
        raise RuntimeError("Could not run the operation on device %s: minigrad runs on the CPU only" % d)


class Generator:
    """A random number generator: PyTorch's CPU generator (mt19937), so the same seed gives the same numbers.

    >>> import minigrad as torch
    >>> g = torch.Generator().manual_seed(0)
    >>> torch.rand(2, generator=g)
    tensor([0.4963, 0.7682])
    """

    def __init__(self, device: str | device = "cpu") -> None:
        self.device: _Device = _device_of(device)
        self._impl = _random.CPUGenerator()

    def manual_seed(self, seed: int) -> Generator:
        """Seed the generator (any integer in [-2⁶³, 2⁶⁴); a negative one is read as unsigned); return it."""
        self._impl.manual_seed(_unsigned_seed(seed))
        return self

    def seed(self) -> int:
        """Seed from the operating system's randomness; return the seed."""
        s = _random.CPUGenerator.nondeterministic_seed()
        self._impl.manual_seed(s)
        return s

    def initial_seed(self) -> int:
        return self._impl.seed

    def get_state(self) -> Tensor:
        """The whole state as a ``uint8`` tensor in PyTorch's byte layout (5056 bytes)."""
        return Tensor._make(self._impl.get_state())

    def set_state(self, new_state: Tensor) -> Generator:
        if not isinstance(new_state, Tensor) or new_state.dtype is not _dtype.uint8:
            raise TypeError("RNG state must be a torch.ByteTensor")
        self._impl.set_state(new_state._data)
        return self

    def clone_state(self) -> Generator:
        g = Generator(self.device)
        g._impl = self._impl.clone()
        return g

    graphsafe_get_state = clone_state

    def graphsafe_set_state(self, state: Generator) -> Generator:
        self._impl = state._impl.clone()
        return self

    def __getstate__(self) -> dict[str, Any]:
        return {"device": self.device, "state": self._impl.get_state()}

    def __setstate__(self, d: dict[str, Any]) -> None:
        self.device, self._impl = d["device"], _random.CPUGenerator()
        self._impl.set_state(d["state"])


def _device_of(d: Any) -> device:
    return d if isinstance(d, device) else device(d)


def _unsigned_seed(seed) -> int:
    """PyTorch's reading of a seed: ``int(seed)``, negative values wrap to unsigned 64 bits."""
    seed = int(seed)
    if not -(1 << 63) <= seed < (1 << 64):
        raise ValueError("Overflow when unpacking long long")
    return seed & 0xFFFFFFFFFFFFFFFF


default_generator: Generator = Generator()
default_generator._impl.manual_seed(_random.CPUGenerator.nondeterministic_seed())


def manual_seed(seed: int) -> Generator:
    """Seed the default generator: initialisation, dropout and shuffling become reproducible."""
    return default_generator.manual_seed(seed)


def seed() -> int:
    """Seed the default generator non-deterministically and return the seed."""
    return default_generator.seed()


def initial_seed() -> int:
    return default_generator.initial_seed()


def get_rng_state() -> Tensor:
    """The default generator's state (a ``uint8`` tensor in PyTorch's layout)."""
    return default_generator.get_state()


def set_rng_state(new_state: Tensor) -> None:
    default_generator.set_state(new_state)


def _rng(generator=None) -> _random.CPUGenerator:
    """The generator state to draw from: ``generator``'s, or the default generator's."""
    if generator is None:
        return default_generator._impl
    if not isinstance(generator, Generator):
        raise TypeError("expected a torch.Generator, got %s" % type(generator).__name__)
    return generator._impl


def _new(data, dtype=None, requires_grad=False):
    t = Tensor._make(data if dtype is None else data.astype(_as_dtype(dtype).numpy, copy=False), False)
    if requires_grad:
        t.requires_grad = True if t.dtype.is_floating_point else _fail_int_grad()
    return t


def _fail_int_grad():
    raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")


def _as_dtype(d, fn=None):
    if d is None or isinstance(d, _dtype.dtype):
        return d
    if fn is not None and isinstance(d, str):
        _checks.dtype_arg(d, fn)
    if d is float:
        return _dtype.float64
    if d is int:
        return _dtype.int64
    if d is bool:
        return _dtype.bool
    return _dtype.from_numpy_dtype(d)


def _infer(data, exact=False):
    """The numpy array for ``tensor(data)``: Python floats → float32 (default dtype), ints → int64.

    ``exact``: keep Python floats in float64 (a ``dtype=`` is given, the caller casts once).
    """
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
        raise RuntimeError("Could not infer dtype of %s" % _odd_leaf(nested))
    if arr.dtype.kind == "f" and not isinstance(data, np.ndarray) and not _has_numpy_floats(data):
        if not exact:
            arr = arr.astype(_dtype.get_default_dtype().numpy)
    elif arr.dtype.kind in "iu":
        arr = arr.astype(np.int64)
    elif arr.dtype.kind not in "fb":
        raise TypeError("Could not infer dtype of %s" % type(data).__name__)
    return arr


def _odd_leaf(data) -> str:
    """The type name of the first element that is not a number (``tensor([1, None])``: ``NoneType``)."""
    if isinstance(data, (list, tuple)):
        for item in data:
            name = _odd_leaf(item)
            if name:
                return name
        return ""
    if isinstance(data, (bool, int, float, complex, np.number, np.bool_, np.ndarray)):
        return ""
    return type(data).__name__


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
        arr = _infer(data, exact=dtype is not None)
    return _new(arr, _as_dtype(dtype, "tensor"), requires_grad)


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
    size = _checks.int_varargs(size, op or "empty", "size")
    negative = [s for s in size if s < 0]
    if negative:
        if op == "zeros":
            raise RuntimeError("zeros: Dimension size must be non-negative.")
        raise RuntimeError("Trying to create tensor with negative dimension %d: [%s]"
                           % (negative[0], ", ".join(map(str, size))))
    return size


_FACTORY_KEYWORDS = frozenset(("layout", "pin_memory", "out", "names", "memory_format", "size"))


def _factory(fill, size, dtype, requires_grad, op=None, kwargs=None):
    if kwargs:
        for k in kwargs:
            if k not in _FACTORY_KEYWORDS:
                raise TypeError("%s() got an unexpected keyword argument '%s'" % (op, k))
        if "size" in kwargs:
            if size:
                raise TypeError("%s() got multiple values for argument 'size'" % op)
            if not isinstance(kwargs["size"], (tuple, list)):
                raise TypeError("%s(): argument 'size' must be tuple of ints, not %s"
                                % (op, type(kwargs["size"]).__name__))
            size = (kwargs["size"],)
        if kwargs.get("out") is not None:
            _checks.tensor_arg(kwargs["out"], op, "out", None)
    _checks.bool_arg(requires_grad, op, "requires_grad")
    d = _as_dtype(dtype, op) or _dtype.get_default_dtype()
    return _new(fill(_size(size, op), d.numpy), None, requires_grad)


def zeros(*size: Any, dtype: _dtype.dtype | None = None, device: Any = None, requires_grad: bool = False,
          **kwargs: Any) -> Tensor:
    return _factory(np.zeros, size, dtype, requires_grad, "zeros", kwargs)


def ones(*size: Any, dtype: _dtype.dtype | None = None, device: Any = None, requires_grad: bool = False,
         **kwargs: Any) -> Tensor:
    return _factory(np.ones, size, dtype, requires_grad, "ones", kwargs)


def empty(*size: Any, dtype: _dtype.dtype | None = None, device: Any = None, requires_grad: bool = False,
          **kwargs: Any) -> Tensor:
    return _factory(np.zeros, size, dtype, requires_grad, "empty", kwargs)


@_checks.python_args(method=False)
def full(size: Any, fill_value: Any, *, dtype: _dtype.dtype | None = None, device: Any = None,
         requires_grad: bool = False) -> Tensor:
    _checks.number_arg(fill_value, "full", "fill_value", 2)
    if not isinstance(size, (tuple, list)) and type(size).__name__ != "Size":
        raise TypeError("full(): argument 'size' (position 1) must be tuple of ints, not %s" % type(size).__name__)
    d = _as_dtype(dtype, "full") or _dtype.scalar_dtype(fill_value)
    return _new(np.full(_size((size,), "full"), fill_value, dtype=d.numpy), None, requires_grad)


def _like(fn, t, dtype, requires_grad, *args, op="zeros_like", kwargs=None):
    _checks.tensor_arg(t, op, "input")
    for k in kwargs or ():
        if k not in ("layout", "memory_format", "pin_memory"):
            raise TypeError("%s() got an unexpected keyword argument '%s'" % (op, k))
    _checks.bool_arg(requires_grad, op, "requires_grad")
    d = _as_dtype(dtype, op) or t.dtype
    return _new(like(fn(t.shape, *args, dtype=d.numpy), t._data), None, requires_grad)   # t's layout, as PyTorch


def zeros_like(t: Tensor, *, dtype: _dtype.dtype | None = None, device: Any = None, requires_grad: bool = False,
               **kwargs: Any) -> Tensor:
    return _like(np.zeros, t, dtype, requires_grad, op="zeros_like", kwargs=kwargs)


def ones_like(t: Tensor, *, dtype: _dtype.dtype | None = None, device: Any = None, requires_grad: bool = False,
              **kwargs: Any) -> Tensor:
    return _like(np.ones, t, dtype, requires_grad, op="ones_like", kwargs=kwargs)


def empty_like(t: Tensor, *, dtype: _dtype.dtype | None = None, device: Any = None, requires_grad: bool = False,
               **kwargs: Any) -> Tensor:
    return _like(np.zeros, t, dtype, requires_grad, op="empty_like", kwargs=kwargs)


def full_like(t: Tensor, fill_value: Any, *, dtype: _dtype.dtype | None = None, device: Any = None,
              requires_grad: bool = False) -> Tensor:
    return _like(lambda shape, dtype: np.full(shape, fill_value, dtype=dtype), t, dtype, requires_grad)


def rand_like(t: Tensor, *, dtype: _dtype.dtype | None = None, requires_grad: bool = False,
              generator: Generator | None = None, **kwargs: Any) -> Tensor:
    return rand(*t.shape, dtype=dtype or t.dtype, requires_grad=requires_grad, generator=generator)


def randn_like(t: Tensor, *, dtype: _dtype.dtype | None = None, requires_grad: bool = False,
               generator: Generator | None = None, **kwargs: Any) -> Tensor:
    return randn(*t.shape, dtype=dtype or t.dtype, requires_grad=requires_grad, generator=generator)


def randint_like(t: Tensor, low: int = 0, high: int | None = None, *, dtype: _dtype.dtype | None = None,
                 requires_grad: bool = False, generator: Generator | None = None, **kwargs: Any) -> Tensor:
    if high is None:
        low, high = 0, low
    return randint(low, high, t.shape, dtype=dtype or t.dtype, requires_grad=requires_grad, generator=generator)


def arange(start: Any, end: Any = None, step: Any = 1, *, dtype: _dtype.dtype | None = None, device: Any = None,
           requires_grad: bool = False) -> Tensor:
    """Values from ``start`` up to (not including) ``end``; int64 unless a bound is a float."""
    single = end is None
    if end is None:
        start, end = 0, start
    values = [v.item() if isinstance(v, Tensor) else v for v in (start, end, step)]
    for k, (name, v) in enumerate(zip(("start", "end", "step"), values)):
        _checks.number_arg(v, "arange", name, 1 if single else k + 1)
    lo, hi, step = values
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise RuntimeError("unsupported range: %s -> %s" % (_num(lo), _num(hi)))
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (step > 0 and hi < lo) or (step < 0 and hi > lo):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    is_float = any(isinstance(v, float) for v in values)
    d = _as_dtype(dtype) or (_dtype.get_default_dtype() if is_float else _dtype.int64)
    if d.is_floating_point:         # PyTorch's kernel, not numpy's: the values differ in the last bits
        return _new(ranges.arange_values(lo, step, math.ceil((hi - lo) / step), d.numpy), None, requires_grad)
    return _new(np.arange(*values).astype(d.numpy), None, requires_grad)


def _num(v) -> str:
    return "%g" % v


def linspace(start: Any, end: Any, steps: int, *, dtype: _dtype.dtype | None = None, device: Any = None,
             requires_grad: bool = False) -> Tensor:
    d = _as_dtype(dtype) or _dtype.get_default_dtype()
    if _checks.int_arg(steps, "linspace", "steps", 3) < 0:
        raise RuntimeError("number of steps must be non-negative")
    if d.is_floating_point:
        return _new(ranges.linspace_values(start, end, int(steps), d.numpy), None, requires_grad)
    return _new(np.linspace(start, end, int(steps)).astype(d.numpy), None, requires_grad)


def logspace(start: Any, end: Any, steps: int, base: float = 10.0, *, dtype: _dtype.dtype | None = None,
             requires_grad: bool = False) -> Tensor:
    d = _as_dtype(dtype) or _dtype.get_default_dtype()
    if _checks.int_arg(steps, "logspace", "steps", 3) < 0:
        raise RuntimeError("number of steps must be non-negative")
    return _new(np.logspace(start, end, int(steps), base=base).astype(d.numpy), None, requires_grad)


def eye(n: int, m: int | None = None, *, dtype: _dtype.dtype | None = None, device: Any = None,
        requires_grad: bool = False) -> Tensor:
    d = _as_dtype(dtype) or _dtype.get_default_dtype()
    for name, k, pos in (("n", n, 1), ("m", m, 2)):
        if k is not None and _checks.int_arg(k, "eye", name, pos) < 0:
            raise RuntimeError("%s must be greater or equal to 0, got %d" % (name, k))
    return _new(np.eye(n, m, dtype=d.numpy), None, requires_grad)


_SIZE_SIGNATURES = (
    "%s() received an invalid combination of arguments - got (%s), but expected one of:\n"
    " * (tuple of ints size, *, torch.Generator generator, Tensor out = None, torch.dtype dtype = None, "
    "torch.layout layout = None, torch.device device = None, bool pin_memory = False, bool requires_grad = False)\n"
    " * (tuple of ints size, *, Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, "
    "torch.device device = None, bool pin_memory = False, bool requires_grad = False)\n")


def _random_size(name, size, kwargs):
    """The shape of ``rand(2, 3)``, ``rand((2, 3))``, ``rand([2, 3])`` or ``rand(size=(2, 3))``."""
    kw_size = kwargs.pop("size", None)
    if kwargs or (kw_size is not None and size):
        given = [type(a).__name__ for a in size] + ["%s=%s" % (k, type(v).__name__) for k, v in
                                                    ([("size", kw_size)] if kw_size is not None else []) +
                                                    list(kwargs.items())]
        raise TypeError(_SIZE_SIGNATURES % (name, ", ".join(given)))
    if kw_size is not None:
        if not isinstance(kw_size, (tuple, list)):
            raise TypeError("%s(): argument 'size' must be tuple of ints, not %s" % (name, type(kw_size).__name__))
        size = (tuple(kw_size),)
    return _size(size, name)


def _random_result(data, requires_grad, out):
    """A new tensor of ``data``, or ``data`` written into ``out`` (resized if needed), as ``out=`` does."""
    if out is None:
        return _new(data, None, requires_grad)
    data = data.astype(out._data.dtype, copy=False)
    if out._data.shape == data.shape:
        out._data[...] = data
    else:
        out._data = data.copy()
    out._version_counter[0] += 1
    return out


def rand(*size: int | Sequence[int], generator: Generator | None = None, out: Tensor | None = None,
         dtype: _dtype.dtype | None = None, layout: Any = None, device: Any = None, pin_memory: bool = False,
         requires_grad: bool = False, **kwargs: Any) -> Tensor:
    """Uniform samples in [0, 1): PyTorch's numbers for the same seed (``uniform_kernel``)."""
    shape = _random_size("rand", size, kwargs)
    if generator is not None and not isinstance(generator, Generator):
        raise TypeError(_SIZE_SIGNATURES % ("rand", ", ".join([type(a).__name__ for a in size] +
                                                          ["generator=" + type(generator).__name__])))
    d = _as_dtype(dtype) or (out.dtype if out is not None else _dtype.get_default_dtype())
    return _random_result(_random.uniform(_rng(generator), shape, d.numpy), requires_grad, out)


def randn(*size: int | Sequence[int], generator: Generator | None = None, out: Tensor | None = None,
          dtype: _dtype.dtype | None = None, layout: Any = None, device: Any = None, pin_memory: bool = False,
          requires_grad: bool = False, **kwargs: Any) -> Tensor:
    """Standard normal samples: PyTorch's numbers for the same seed (``normal_kernel``).

    >>> import minigrad as torch
    >>> _ = torch.manual_seed(0)
    >>> torch.randn(3)
    tensor([ 1.5410, -0.2934, -2.1788])
    """
    shape = _random_size("randn", size, kwargs)
    if generator is not None and not isinstance(generator, Generator):
        raise TypeError(_SIZE_SIGNATURES % ("randn", ", ".join([type(a).__name__ for a in size] +
                                                          ["generator=" + type(generator).__name__])))
    d = _as_dtype(dtype) or (out.dtype if out is not None else _dtype.get_default_dtype())
    return _random_result(_random.normal(_rng(generator), shape, d.numpy), requires_grad, out)


_NORMAL_SIGNATURES = (
    "normal() received an invalid combination of arguments - got (%s), but expected one of:\n"
    " * (Tensor mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)\n"
    " * (Tensor mean, float std = 1, *, torch.Generator generator = None, Tensor out = None)\n"
    " * (float mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)\n"
    " * (float mean, float std, tuple of ints size, *, torch.Generator generator = None, Tensor out = None, "
    "torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, bool pin_memory = False, "
    "bool requires_grad = False)\n")


def normal(mean: Tensor | float, std: Tensor | float = 1.0, size: Sequence[int] | None = None, *,
           generator: Generator | None = None, out: Tensor | None = None, dtype: _dtype.dtype | None = None,
           layout: Any = None, device: Any = None, pin_memory: bool = False, requires_grad: bool = False) -> Tensor:
    """Samples of N(mean, std²): ``mean`` and ``std`` tensors (broadcast) or numbers (then ``size`` is needed).

    As in PyTorch, a tensor ``mean`` with a number ``std`` is ``normal_(0, std) + mean``; with a tensor
    ``std`` the draw is ``normal_(0, 1) · std + mean``. With a tensor argument the result is in the
    graph (``NormalBackward1/2/3``, whose gradient is 0).
    """

    if isinstance(std, (int, float)) and std < 0:
        raise RuntimeError("normal expects std >= 0.0, but found std %g" % std)
    if isinstance(std, Tensor) and std.numel() and std._data.min() < 0:
        raise RuntimeError("normal expects all elements of std >= 0.0")
    g = _rng(generator)

    def sample(m, s, shape, np_dtype):
        if isinstance(std, Tensor):
            return (_random.normal(g, shape, np_dtype) * s + m).astype(np_dtype, copy=False)
        return (_random.normal(g, shape, np_dtype, 0.0, float(s)) + m).astype(np_dtype, copy=False)

    if isinstance(mean, Tensor):
        result = (E.NormalBoth if isinstance(std, Tensor) else E.Normal).apply(mean, std, sample)
    elif isinstance(std, Tensor):
        result = E.NormalStd.apply(mean, std, sample)
    else:
        if size is None:
            raise TypeError(_NORMAL_SIGNATURES % ", ".join(type(a).__name__ for a in (mean, std)))
        d = _as_dtype(dtype) or (out.dtype if out is not None else _dtype.get_default_dtype())
        data = _random.normal(g, _size((size,)), d.numpy, float(mean), float(std))
        return _random_result(data, requires_grad, out)
    return result if out is None else _random_result(result._data, False, out)


_RANDINT_SIGNATURES = (
    "randint() received an invalid combination of arguments - got (%s), but expected one of:\n"
    " * (int high, tuple of ints size, *, torch.Generator generator, Tensor out = None, torch.dtype dtype = None, "
    "torch.layout layout = None, torch.device device = None, bool pin_memory = False, bool requires_grad = False)\n"
    " * (int high, tuple of ints size, *, Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, "
    "torch.device device = None, bool pin_memory = False, bool requires_grad = False)\n"
    " * (int low, int high, tuple of ints size, *, torch.Generator generator, Tensor out = None, "
    "torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, bool pin_memory = False, "
    "bool requires_grad = False)\n"
    " * (int low, int high, tuple of ints size, *, Tensor out = None, torch.dtype dtype = None, "
    "torch.layout layout = None, torch.device device = None, bool pin_memory = False, bool requires_grad = False)\n")


def randint(*args: int | Sequence[int], size: Sequence[int] | None = None, low: int | None = None,
            high: int | None = None, generator: Generator | None = None, out: Tensor | None = None,
            dtype: _dtype.dtype | None = None, layout: Any = None, device: Any = None, pin_memory: bool = False,
            requires_grad: bool = False) -> Tensor:
    """Integers in [low, high) (int64 unless ``dtype``): ``randint(high, size)`` or ``randint(low, high, size)``."""
    given = [type(a).__name__ for a in args] + ["%s=%s" % (k, type(v).__name__) for k, v in
                                                (("low", low), ("high", high), ("size", size)) if v is not None]
    args = list(args)
    if size is None and args and isinstance(args[-1], (tuple, list)):
        size = args.pop()
    if low is not None:
        args.insert(0, low)
    if high is not None:
        args.append(high)
    if size is None and len(args) == 2 and all(_is_int(a) for a in args) and low is None and high is None:
        raise TypeError("randint(): argument 'size' (position 2) must be tuple of ints, not %s"
                        % type(args[1]).__name__)
    if size is not None and len(args) in (1, 2) and low is None and high is None:
        for k, a in enumerate(args):
            _checks.int_arg(a, "randint", "high" if len(args) == 1 else ("low", "high")[k], k + 1)
    if size is None or len(args) not in (1, 2) or not all(_is_int(a) for a in args):
        raise TypeError(_RANDINT_SIGNATURES % ", ".join(given))
    lo, hi = (0, int(args[0])) if len(args) == 1 else (int(args[0]), int(args[1]))  # type: ignore[arg-type]
    if lo >= hi:
        raise RuntimeError("random_ expects 'from' to be less than 'to', but got from=%d >= to=%d" % (lo, hi))
    d = _as_dtype(dtype) or (out.dtype if out is not None else _dtype.int64)
    data = _random.random_from_to(_rng(generator), _size((size,), "randint"), d.numpy, lo, hi)
    return _random_result(data, requires_grad, out)


def _is_int(x):
    return (isinstance(x, (int, np.integer)) and not isinstance(x, bool)) or (
        isinstance(x, Tensor) and x.ndim == 0 and not x.dtype.is_floating_point)


def randperm(n: int, *, generator: Generator | None = None, out: Tensor | None = None,
             dtype: _dtype.dtype | None = None, layout: Any = None, device: Any = None, pin_memory: bool = False,
             requires_grad: bool = False) -> Tensor:
    """A random permutation of ``0 … n-1``: PyTorch's Fisher-Yates shuffle, so the same seed gives the same order."""
    n = _checks.int_arg(n, "randperm", "n")
    if n < 0:
        raise RuntimeError("Trying to create tensor with negative dimension %d: [%d]" % (n, n))
    d = _as_dtype(dtype) or (out.dtype if out is not None else _dtype.int64)
    return _random_result(_rng(generator).randperm(n).astype(d.numpy), requires_grad, out)


def bernoulli(input: Tensor, p: float | None = None, *, generator: Generator | None = None,
              out: Tensor | None = None) -> Tensor:
    """0/1 samples: 1 with probability ``input`` (elementwise), or with probability ``p`` if given."""
    g = _rng(generator)
    if p is not None:
        data = _random.bernoulli(g, input.shape, input._data.dtype, float(p))
    else:
        probs = input._data
        if not input.dtype.is_floating_point:
            raise NotImplementedError('"bernoulli_tensor_cpu_p_" not implemented for \'%s\'' % input.dtype._legacy)
        if not np.all((probs >= 0) & (probs <= 1)):
            raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message "
                               "be improved?  If so, please report an enhancement request to PyTorch.)")
        data = _random.bernoulli_tensor(g, probs, probs.dtype)
    if out is None and input.requires_grad and grad_mode.is_grad_enabled():   # PyTorch records a node
        return (P.BernoulliP if p is not None else P.Bernoulli).apply(input, data)
    return _random_result(data, False, out)


def multinomial(input: Tensor, num_samples: int, replacement: bool = False, *, generator: Generator | None = None,
                out: Tensor | None = None) -> Tensor:
    """``num_samples`` indices per row of ``input`` (weights, not necessarily normalised), PyTorch's draws.

    >>> import minigrad as torch
    >>> g = torch.Generator().manual_seed(2147483647)
    >>> torch.multinomial(torch.tensor([0.6, 0.3, 0.1]), 4, replacement=True, generator=g)
    tensor([1, 1, 1, 0])
    """
    if not isinstance(input, Tensor):
        raise TypeError("multinomial(): argument 'input' (position 1) must be Tensor, not %s" % type(input).__name__)
    probs = input._data
    if input.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if not input.dtype.is_floating_point:
        raise RuntimeError("multinomial only supports floating-point dtypes for input, got: %s"
                           % input.dtype._legacy)
    num_samples = int(num_samples)
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    n_categories = probs.shape[-1]
    if not replacement and num_samples > n_categories:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    if n_categories > 1 << 24:
        raise RuntimeError("number of categories cannot exceed 2^24")
    rows = probs.reshape(-1, n_categories)
    if not replacement or num_samples == 1:
        if not (np.all(rows < np.inf) and np.all(rows >= 0)):
            raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
        if np.any(rows.sum(-1) == 0):
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    else:
        if np.any(rows < 0):
            raise RuntimeError("invalid multinomial distribution (encountering probability entry < 0)")
        if not np.all(np.isfinite(rows)):
            raise RuntimeError("invalid multinomial distribution (encountering probability entry = infinity or NaN)")
        if np.any(rows.sum(-1) <= 0):
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    return _random_result(_random.multinomial(_rng(generator), probs, num_samples, replacement), False, out)


def _random_fill(t, kind, generator, *args, **kwargs):
    """``t.uniform_()``, ``t.normal_()``…: fill ``t`` in place with PyTorch's draws for its dtype and layout.

    Elements are drawn in memory order (a transposed tensor column by column), as ATen's kernels do;
    ``normal_`` on a non-contiguous tensor takes PyTorch's one-at-a-time path.
    """
    if t.requires_grad and t.grad_fn is None and grad_mode.is_grad_enabled():
        raise RuntimeError(LEAF_INPLACE)
    kwargs_given = tuple(k for k in ("from", "to") if kwargs.get(k) is not None)
    g = _rng(generator)
    data = t._data
    order = "F" if not data.flags.c_contiguous and data.flags.f_contiguous else "C"
    shape, dtype = data.shape, data.dtype
    if kind == "uniform":
        values = _random.uniform(g, shape, dtype, *args, order=order)
    elif kind == "normal":
        mean, std = (list(args) + [0.0, 1.0][len(args):])[:2]
        if std < 0:
            raise RuntimeError("normal expects std >= 0.0, but found std %g" % std)
        values = _random.normal(g, shape, dtype, mean, std, order=order, contiguous=data.flags.c_contiguous)
    elif kind == "bernoulli":
        p = args[0] if args else 0.5
        if isinstance(p, Tensor):
            probs = np.broadcast_to(p._data, shape)
            values = _random.bernoulli_tensor(g, np.ascontiguousarray(probs), dtype)
        else:
            if not 0 <= p <= 1:
                raise RuntimeError("bernoulli_ expects p to be in [0, 1], but got p=%g" % p)
            values = _random.bernoulli(g, shape, dtype, p, order=order)
    elif kind == "exponential":
        lambd = args[0] if args else 1.0
        if not lambd > 0:
            raise RuntimeError("exponential_ expects lambda > 0.0, but found lambda=%g" % lambd)
        values = _random.exponential(g, shape, dtype, lambd, order=order)
    elif kind == "cauchy":
        values = _random.cauchy(g, shape, dtype, *args, order=order)
    elif kind == "log_normal":
        values = _random.log_normal(g, shape, dtype, *args, order=order)
    elif kind == "geometric":
        p = args[0]
        if not 0 < p < 1:
            raise RuntimeError("geometric_ expects p to be in (0, 1), but got p=%g" % p)
        values = _random.geometric(g, shape, dtype, p, order=order)
    else:  # random_([from,] to)
        low, high = kwargs.pop("from", None), kwargs.pop("to", None)
        if kwargs:
            raise TypeError("random_() got an unexpected keyword argument '%s'" % next(iter(kwargs)))
        if len(args) == 1:
            low, high = 0, args[0]
        elif len(args) == 2:
            low, high = args
        if low is None and high is None:
            values = _random.random_full(g, shape, dtype, order=order)
        else:
            low = 0 if low is None else int(low)
            if high is None:
                high = (int(np.iinfo(dtype).max) if dtype.kind in "iu" else
                        1 << (np.finfo(dtype).nmant + 1) if dtype.kind == "f" else 1) + 1
            high = int(high)
            if low >= high:
                raise RuntimeError("random_ expects 'from' to be less than 'to', but got from=%d >= to=%d"
                                   % (low, high))
            values = _random.random_from_to(g, shape, dtype, low, high, order=order)
    return fill_random(t, values, _fill_node(kind, args, kwargs_given))


def _fill_node(kind: str, args: tuple, kwargs_given: tuple) -> str:
    """PyTorch's node for an in-place random fill (its overload decides the number: random_.from / .to / plain)."""
    if kind == "random":
        if "from" in kwargs_given or len(args) == 2:
            return "RandomBackward0"
        return "RandomBackward1" if args or "to" in kwargs_given else "RandomBackward2"
    if kind == "bernoulli":
        return "BernoulliBackward1" if args and isinstance(args[0], Tensor) else "BernoulliBackward2"
    return {"uniform": "UniformBackward0", "normal": "NormalBackward0", "exponential": "ExponentialBackward0",
            "cauchy": "CauchyBackward0", "log_normal": "LogNormalBackward0", "geometric": "GeometricBackward0"}[kind]


def is_tensor(obj: Any) -> bool:
    return isinstance(obj, Tensor)


def numel(t: Tensor) -> int:
    return t.numel()


def cat(tensors: Sequence[Tensor], dim: int = 0, *, out: Tensor | None = None) -> Tensor:
    """Concatenate along an existing dim (``CatBackward0``)."""
    _checks.tensor_list(tensors, "cat")
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    return Cat.apply(_checks.int_arg(dim, "cat", "dim", 2), *tensors)


concat = concatenate = cat


def stack(tensors: Sequence[Tensor], dim: int = 0, *, out: Tensor | None = None) -> Tensor:
    """Stack along a new dim (``StackBackward0``)."""
    _checks.tensor_list(tensors, "stack")
    return Stack.apply(_checks.int_arg(dim, "stack", "dim", 2), *tensors)


def where(condition: Any, input: Any = None, other: Any = None) -> Any:  # a Tensor; a tuple for where(condition)
    """``input`` where ``condition`` holds, else ``other`` (``WhereBackward0``)."""

    if input is None and other is None:
        return tuple(Tensor._make(i) for i in np.nonzero(condition._data))
    x, y = operand(input), operand(other)
    if condition.dtype is not _dtype.bool and condition.dtype is not _dtype.uint8:
        raise RuntimeError("where expected condition to be a boolean tensor, but got a tensor with dtype %s"
                           % condition.dtype._legacy)
    shape = broadcast_shape(broadcast_shape(condition.shape, x.shape), y.shape)
    return Where.apply(np.broadcast_to(condition._data, shape), x, y)
