"""minigrad: a small, readable autograd engine on numpy that behaves like PyTorch's.

>>> import minigrad as torch
>>> x = torch.ones(2, 2, requires_grad=True)
>>> out = ((x + 2) * (x + 2) * 3).mean()
>>> out
tensor(27., grad_fn=<MeanBackward0>)
>>> out.backward(); x.grad
tensor([[4.5000, 4.5000],
        [4.5000, 4.5000]])
"""

from __future__ import annotations

import math

from . import _creation, _dtype
from ._creation import *  # noqa: F403 - tensor factories, like torch.*
from ._creation import Generator, default_generator, device
from ._dtype import (
    bool,
    double,
    dtype,
    float,
    float16,
    float32,
    float64,
    get_default_dtype,
    half,
    int,
    int8,
    int16,
    int32,
    int64,
    long,
    promote_types,
    set_default_dtype,
    short,
    uint8,
)
from ._size import Size
from ._tensor import Tensor, _legacy_type
from ._tensor_ops import numpy_names as _numpy_names
from ._tensor_str import set_printoptions
from .autograd.grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from .ops import linalg as _linalg

__version__ = "0.1.0"

# legacy tensor types: `torch.LongTensor([1, 2])`, `isinstance(x, torch.FloatTensor)`, `x.type(torch.DoubleTensor)`
FloatTensor, DoubleTensor, HalfTensor, LongTensor, IntTensor, ShortTensor, CharTensor, ByteTensor, BoolTensor = (
    _legacy_type(d) for d in (float32, float64, float16, int64, int32, int16, int8, uint8, bool))

pi, e, inf, nan = math.pi, math.e, math.inf, math.nan


def result_type(a, b):
    return _dtype.result_type(a, b)


def can_cast(from_, to):
    import numpy as np
    return np.can_cast(from_.numpy, to.numpy, casting="same_kind")


def _method(name, doc=None):
    """``torch.<name>(t, *args)`` as ``t.<name>(*args)``, the way PyTorch exposes both spellings."""
    takes_numbers = name in _NUMBER_FIRST

    def fn(input, *args, **kwargs):
        from ._tensor import Tensor
        if not isinstance(input, Tensor):
            if not takes_numbers:
                raise TypeError("%s(): argument 'input' (position 1) must be Tensor, not %s"
                                % (name, type(input).__name__))
            from .ops._util import operand
            input = operand(input)
        return getattr(input, name)(*args, **kwargs)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc or "Same as ``Tensor.%s``." % name
    return fn


# ``torch.add(2, t)``: the functions PyTorch also gives a Number first argument (or writes in Python)
_NUMBER_FIRST = {"add", "sub", "mul", "div", "remainder", "floor_divide", "pow", "norm", "split", "unique", "unflatten"}
_TENSOR_METHODS = [
    "add", "sub", "mul", "div", "neg", "floor", "ceil", "round", "trunc", "log2", "log10", "cumsum", "flip", "tril",
    "triu", "argsort", "isclose", "nonzero", "remainder", "floor_divide",
    "logical_not", "logical_and", "logical_or", "logical_xor", "count_nonzero", "is_floating_point", "negative",
    "reciprocal", "pow", "square", "exp", "log", "log1p",
    "expm1", "sin", "cos", "tanh", "sigmoid", "relu", "sqrt", "rsqrt", "abs", "sign", "sgn", "clamp", "clip",
    "maximum", "minimum", "sum", "mean", "logsumexp", "softmax", "log_softmax", "var", "std", "prod", "norm",
    "mm", "mv", "dot", "bmm", "outer", "addmm", "reshape", "flatten", "transpose", "t", "permute",
    "unsqueeze", "squeeze", "split", "chunk", "unbind", "narrow", "select", "gather", "argmax", "argmin",
    "allclose", "equal", "isnan", "isinf", "isfinite", "masked_fill", "clone", "detach", "sort", "topk",
    "any", "all", "unflatten", "swapaxes", "tan", "asin", "acos", "atan", "arcsin", "arccos", "arctan", "sinh", "cosh",
    "atan2", "arctan2", "erf", "frac", "amax", "amin", "median", "mode", "cumprod", "unique", "bincount",
    "roll", "diag", "diagonal", "trace", "scatter", "scatter_add", "index_select", "masked_select",
]
for _name in _TENSOR_METHODS:
    globals()[_name] = _method(_name)
del _name


@_numpy_names
def max(input, dim=None, keepdim=False, *, out=None):
    """``max(x)`` / ``max(x, dim)`` / ``max(x, y)`` (elementwise)."""
    return input.max(dim, keepdim) if dim is not None else input.max()


@_numpy_names
def min(input, dim=None, keepdim=False, *, out=None):
    """``min(x)`` / ``min(x, dim)`` / ``min(x, y)`` (elementwise)."""
    return input.min(dim, keepdim) if dim is not None else input.min()


def matmul(input, other):
    """Matrix product with PyTorch's dispatch (dot, mv, mm, batched)."""
    return _linalg.matmul(input, other)


def use_deterministic_algorithms(mode, *, warn_only=False):
    """Accepted for seeding helpers; minigrad's numpy kernels are always deterministic."""


def einsum(*args):
    """Sum of products over the labelled dims: ``einsum("ij,jk->ik", a, b)`` is ``a @ b`` (differentiable)."""
    return _linalg.einsum(*args)


# after Tensor: they build on it
from . import (  # noqa: E402
    _api,
    accelerator,
    autograd,
    backends,
    cuda,
    func,
    functional,
    linalg,
    nn,
    optim,
    profiler,
    serialization,
    utils,
)
from ._api import *  # noqa: E402,F403 - eq, bitwise_*, histc, histogram, set_default_device, in-place twins
from .autograd import functional as _functional  # noqa: E402,F401 - torch.autograd.functional
from .functional import (  # noqa: E402
    atleast_1d,
    atleast_2d,
    atleast_3d,
    broadcast_shapes,
    cartesian_prod,
    meshgrid,
    tensordot,
)
from .serialization import load, save  # noqa: E402
from .utils import data as _data  # noqa: E402,F401 - torch.utils.data

__all__ = [
    # tensors, dtypes, devices
    "Tensor", "Size", "dtype", "device", "Generator", "default_generator", "FloatTensor", "DoubleTensor",
    "LongTensor", "HalfTensor", "IntTensor", "ShortTensor", "CharTensor", "ByteTensor", "BoolTensor", "bool",
    "double", "float", "float16", "float32", "float64", "half", "int", "int8", "int16",
    "int32", "int64", "long", "short", "uint8", "get_default_dtype", "set_default_dtype", "promote_types",
    "result_type", "can_cast", "set_printoptions", "use_deterministic_algorithms", "pi", "e", "inf", "nan", "cuda",
    "backends",
    # grad modes
    "no_grad", "enable_grad", "set_grad_enabled", "inference_mode", "is_grad_enabled",
    "is_inference_mode_enabled",
    # functions on tensors
    "max", "min", "matmul", "einsum", *_TENSOR_METHODS, *_creation.__all__, *_api.__all__,
    "meshgrid", "cartesian_prod", "save", "load", "serialization", "func", "linalg", "profiler", "broadcast_shapes",
    "tensordot",
    "atleast_1d", "atleast_2d", "atleast_3d",
    # submodules
    "autograd", "nn", "optim", "utils", "accelerator", "functional",
]
