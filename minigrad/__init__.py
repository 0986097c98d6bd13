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

import builtins
import math
from typing import TYPE_CHECKING, Any

import numpy as _np

from . import _creation, _dtype
from ._creation import *  # noqa: F403 - tensor factories, like torch.*
from ._creation import Generator, default_generator, device
from ._dtype import (
    bool,
    channels_last,
    contiguous_format,
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
    memory_format,
    preserve_format,
    promote_types,
    set_default_dtype,
    short,
    uint8,
)
from ._size import Size
from ._tensor import Tensor, _legacy_type, _LegacyTensorType
from ._tensor_str import set_printoptions
from .autograd.anomaly_mode import is_anomaly_check_nan_enabled, is_anomaly_enabled, set_anomaly_enabled
from .autograd.grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from .ops import linalg as _linalg
from .ops._args import numpy_names as _numpy_names
from .ops._out import with_out as _with_out
from .ops._util import operand as _operand

__version__ = "0.1.0"

# ``type(x)`` prints ``<class 'minigrad.Tensor'>``, as PyTorch's prints ``<class 'torch.Tensor'>``: the public
# classes say where a learner imports them from, not the private module that defines them.
for _public in (Tensor, Size, dtype, memory_format):
    _public.__module__ = "minigrad"
del _public

# legacy tensor types: `torch.LongTensor([1, 2])`, `isinstance(x, torch.FloatTensor)`, `x.type(torch.DoubleTensor)`
FloatTensor: _LegacyTensorType = _legacy_type(float32)
DoubleTensor: _LegacyTensorType = _legacy_type(float64)
HalfTensor: _LegacyTensorType = _legacy_type(float16)
LongTensor: _LegacyTensorType = _legacy_type(int64)
IntTensor: _LegacyTensorType = _legacy_type(int32)
ShortTensor: _LegacyTensorType = _legacy_type(int16)
CharTensor: _LegacyTensorType = _legacy_type(int8)
ByteTensor: _LegacyTensorType = _legacy_type(uint8)
BoolTensor: _LegacyTensorType = _legacy_type(bool)

pi: builtins.float = math.pi
e: builtins.float = math.e
inf: builtins.float = math.inf
nan: builtins.float = math.nan


def result_type(a: Tensor | builtins.float, b: Tensor | builtins.float) -> dtype:
    return _dtype.result_type(a, b)


def can_cast(from_: dtype, to: dtype) -> builtins.bool:
    return _np.can_cast(from_.numpy, to.numpy, casting="same_kind")


def _method(name, doc=None):
    """``torch.<name>(t, *args)`` as ``t.<name>(*args)``, the way PyTorch exposes both spellings (and ``out=``)."""
    takes_numbers = name in _NUMBER_FIRST

    def compute(input, *args, **kwargs):
        if not isinstance(input, Tensor):
            if not takes_numbers:
                raise TypeError("%s(): argument 'input' (position 1) must be Tensor, not %s"
                                % (name, type(input).__name__))
            input = _operand(input)
        return getattr(input, name)(*args, **kwargs)
    compute.__name__ = compute.__qualname__ = name      # argument errors name the function: `add() missing ...`
    fn = _with_out(name, compute)
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

if TYPE_CHECKING:  # the loop above, spelled out for type checkers and IDEs (tests/minigrad/test_torch_namespace.py)
    add = Tensor.add
    sub = Tensor.sub
    mul = Tensor.mul
    div = Tensor.div
    neg = Tensor.neg
    floor = Tensor.floor
    ceil = Tensor.ceil
    round = Tensor.round
    trunc = Tensor.trunc
    log2 = Tensor.log2
    log10 = Tensor.log10
    cumsum = Tensor.cumsum
    flip = Tensor.flip
    tril = Tensor.tril
    triu = Tensor.triu
    argsort = Tensor.argsort
    isclose = Tensor.isclose
    nonzero = Tensor.nonzero
    remainder = Tensor.remainder
    floor_divide = Tensor.floor_divide
    logical_not = Tensor.logical_not
    logical_and = Tensor.logical_and
    logical_or = Tensor.logical_or
    logical_xor = Tensor.logical_xor
    count_nonzero = Tensor.count_nonzero
    is_floating_point = Tensor.is_floating_point
    negative = Tensor.negative
    reciprocal = Tensor.reciprocal
    pow = Tensor.pow
    square = Tensor.square
    exp = Tensor.exp
    log = Tensor.log
    log1p = Tensor.log1p
    expm1 = Tensor.expm1
    sin = Tensor.sin
    cos = Tensor.cos
    tanh = Tensor.tanh
    sigmoid = Tensor.sigmoid
    relu = Tensor.relu
    sqrt = Tensor.sqrt
    rsqrt = Tensor.rsqrt
    abs = Tensor.abs
    sign = Tensor.sign
    sgn = Tensor.sgn
    clamp = Tensor.clamp
    clip = Tensor.clip
    maximum = Tensor.maximum
    minimum = Tensor.minimum
    sum = Tensor.sum
    mean = Tensor.mean
    logsumexp = Tensor.logsumexp
    softmax = Tensor.softmax
    log_softmax = Tensor.log_softmax
    var = Tensor.var
    std = Tensor.std
    prod = Tensor.prod
    norm = Tensor.norm
    mm = Tensor.mm
    mv = Tensor.mv
    dot = Tensor.dot
    bmm = Tensor.bmm
    outer = Tensor.outer
    addmm = Tensor.addmm
    reshape = Tensor.reshape
    flatten = Tensor.flatten
    transpose = Tensor.transpose
    t = Tensor.t
    permute = Tensor.permute
    unsqueeze = Tensor.unsqueeze
    squeeze = Tensor.squeeze
    split = Tensor.split
    chunk = Tensor.chunk
    unbind = Tensor.unbind
    narrow = Tensor.narrow
    select = Tensor.select
    gather = Tensor.gather
    argmax = Tensor.argmax
    argmin = Tensor.argmin
    allclose = Tensor.allclose
    equal = Tensor.equal
    isnan = Tensor.isnan
    isinf = Tensor.isinf
    isfinite = Tensor.isfinite
    masked_fill = Tensor.masked_fill
    clone = Tensor.clone
    detach = Tensor.detach
    sort = Tensor.sort
    topk = Tensor.topk
    any = Tensor.any
    all = Tensor.all
    unflatten = Tensor.unflatten
    swapaxes = Tensor.swapaxes
    tan = Tensor.tan
    asin = Tensor.asin
    acos = Tensor.acos
    atan = Tensor.atan
    arcsin = Tensor.arcsin
    arccos = Tensor.arccos
    arctan = Tensor.arctan
    sinh = Tensor.sinh
    cosh = Tensor.cosh
    atan2 = Tensor.atan2
    arctan2 = Tensor.arctan2
    erf = Tensor.erf
    frac = Tensor.frac
    amax = Tensor.amax
    amin = Tensor.amin
    median = Tensor.median
    mode = Tensor.mode
    cumprod = Tensor.cumprod
    unique = Tensor.unique
    bincount = Tensor.bincount
    roll = Tensor.roll
    diag = Tensor.diag
    diagonal = Tensor.diagonal
    trace = Tensor.trace
    scatter = Tensor.scatter
    scatter_add = Tensor.scatter_add
    index_select = Tensor.index_select
    masked_select = Tensor.masked_select


@_numpy_names
def max(input: Tensor, dim: builtins.int | Tensor | None = None, keepdim: builtins.bool = False, *,
        out: Tensor | None = None) -> Any:
    """``max(x)`` / ``max(x, dim)`` / ``max(x, y)`` (elementwise)."""
    return input.max(dim, keepdim) if dim is not None else input.max()


@_numpy_names
def min(input: Tensor, dim: builtins.int | Tensor | None = None, keepdim: builtins.bool = False, *,
        out: Tensor | None = None) -> Any:
    """``min(x)`` / ``min(x, dim)`` / ``min(x, y)`` (elementwise)."""
    return input.min(dim, keepdim) if dim is not None else input.min()


def matmul(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Matrix product with PyTorch's dispatch (dot, mv, mm, batched)."""
    return _matmul(input, other, out=out)


_matmul = _with_out("matmul", _linalg.matmul)


def use_deterministic_algorithms(mode: builtins.bool, *, warn_only: builtins.bool = False) -> None:
    """Accepted for seeding helpers; minigrad's numpy kernels are always deterministic."""


def einsum(*args: Any) -> Tensor:
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
from .nn.functional import threshold, threshold_  # noqa: E402 - torch.threshold, torch.threshold_
from .ops.simd import get_num_threads, set_num_threads  # noqa: E402 - how PyTorch would split arange
from .serialization import load, save  # noqa: E402
from .utils import data as _data  # noqa: E402,F401 - torch.utils.data

__all__ = [
    # tensors, dtypes, devices
    "Tensor", "Size", "dtype", "device", "Generator", "default_generator", "FloatTensor", "DoubleTensor",
    "LongTensor", "HalfTensor", "IntTensor", "ShortTensor", "CharTensor", "ByteTensor", "BoolTensor", "bool",
    "double", "float", "float16", "float32", "float64", "half", "int", "int8", "int16",
    "int32", "int64", "long", "short", "uint8", "get_default_dtype", "set_default_dtype", "promote_types",
    "result_type", "can_cast", "memory_format", "contiguous_format", "preserve_format", "channels_last",
    "set_printoptions", "use_deterministic_algorithms", "pi", "e", "inf", "nan", "cuda",
    "backends",
    # grad modes
    "no_grad", "enable_grad", "set_grad_enabled", "inference_mode", "is_grad_enabled",
    "is_inference_mode_enabled", "is_anomaly_enabled", "is_anomaly_check_nan_enabled", "set_anomaly_enabled",
    # functions on tensors
    "max", "min", "matmul", "einsum", *_TENSOR_METHODS, *_creation.__all__, *_api.__all__,
    "meshgrid", "cartesian_prod", "save", "load", "serialization", "func", "linalg", "profiler", "broadcast_shapes",
    "tensordot", "threshold", "threshold_",
    "atleast_1d", "atleast_2d", "atleast_3d", "get_num_threads", "set_num_threads",
    # submodules
    "autograd", "nn", "optim", "utils", "accelerator", "functional",
]

# nn5 (session 5): the torch.* names of the new linalg functions (minigrad/_linalg_nn5.py)
from ._linalg_nn5 import matrix_exp, matrix_power, vdot  # noqa: E402
from ._linalg_nn5 import torch_cholesky as cholesky  # noqa: E402
from ._linalg_nn5 import torch_cross as cross  # noqa: E402
from ._linalg_nn5 import torch_qr as qr  # noqa: E402


def pinverse(input: Tensor, rcond: Any = 1e-15) -> Tensor:
    """``torch.pinverse``: ``linalg.pinv`` with ``rtol=rcond``."""
    return linalg.pinv(input, rtol=rcond)


__all__ += ["cholesky", "qr", "cross", "vdot", "matrix_power", "matrix_exp", "pinverse"]
