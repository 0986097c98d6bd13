"""The operator and math methods of Tensor; each calls its op in ``ops/`` explicitly."""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import numpy as np

from . import _checks, _dtype
from .autograd import grad_mode
from .ops import elementwise as E
from .ops import index as I
from .ops import inplace as P
from .ops import linalg as L
from .ops import reduce as R
from .ops import shape as S
from .ops._util import broadcast_shape, check_broadcast, operand, promoted, wrap_dim

if TYPE_CHECKING:
    from ._creation import Generator
    from ._size import Size
    from ._tensor import Tensor
    from ._typing import Device, Dims, DType, Index, Number, ShapeArg, TensorOrNumber, _bool, _float, _int

_F = TypeVar("_F", bound=Callable[..., Any])


def numpy_names(method: _F) -> _F:
    """Also accept numpy's ``axis=`` and ``keepdims=`` for ``dim=`` and ``keepdim=``, as PyTorch's parser does.

    Keyword arguments are also where PyTorch's parser words its errors differently (``got (dim=str, )``):
    the checks in ``_KEYWORD_CHECKS`` run here, only when keywords are given."""
    check = _KEYWORD_CHECKS.get(method.__name__)

    @functools.wraps(method)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if kwargs:
            for numpy_name, name in (("axis", "dim"), ("keepdims", "keepdim")):
                if numpy_name in kwargs:
                    if name in kwargs:
                        raise TypeError("%s() got an unexpected keyword argument '%s'" % (method.__name__, numpy_name))
                    kwargs[name] = kwargs.pop(numpy_name)
            if check is not None:
                check(method.__name__, args[1:], kwargs)
        return method(*args, **kwargs)
    return wrapper  # type: ignore[return-value]  # the same signature, plus numpy's names


_SUM_SIGNATURES = ("*, torch.dtype dtype = None",
                   "tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None")
_SQUEEZE_SIGNATURES = ("", "int dim", "tuple of ints dim")
_CLAMP_SIGNATURES = ("Tensor min = None, Tensor max = None", "Number min = None, Number max = None")


def _sum_keywords(name, args, kwargs):
    dim = kwargs.get("dim")
    if not set(kwargs) <= {"dim", "keepdim", "dtype"} or (
            dim is not None and not _checks.is_int(dim) and not isinstance(dim, (tuple, list))):
        raise TypeError(_checks.invalid_args(name, args, kwargs, _SUM_SIGNATURES))


def _squeeze_keywords(name, args, kwargs):
    unknown = [k for k in kwargs if k != "dim"]
    if unknown:
        raise TypeError(_checks.invalid_args(name, args, kwargs, _SQUEEZE_SIGNATURES,
                                             ("keywords were incorrect: " + ", ".join(unknown),) * 3))


def _clamp_keywords(name, args, kwargs):
    values = list(args) + list(kwargs.values())
    if any(v is not None and not isinstance(v, TensorOps) and not _is_number(v) for v in values):
        raise TypeError(_checks.invalid_args(name, args, kwargs, _CLAMP_SIGNATURES))


_KEYWORD_CHECKS = {"sum": _sum_keywords, "mean": _sum_keywords, "squeeze": _squeeze_keywords,
                   "clamp": _clamp_keywords, "clamp_": _clamp_keywords}


_MASKED_FILL_EXPANDED = ("Use of masked_fill_ on expanded tensors is deprecated. Please clone() the tensor before "
                         "performing this operation. This also applies to advanced indexing e.g. tensor[mask] = scalar")

class TensorOps:
    """Arithmetic, math, reductions, linear algebra, shapes, indexing and in-place variants."""

    __slots__ = ()

    if TYPE_CHECKING:  # what the methods here use of Tensor, the one class that mixes them in
        _data: np.ndarray
        _base: Tensor | None
        _view_fn: Any
        _version_counter: Any
        _is_inference: bool
        requires_grad: bool

        @classmethod
        def _make(cls, data: np.ndarray, requires_grad: bool = False) -> Tensor: ...
        @property
        def shape(self) -> Size: ...
        @property
        def ndim(self) -> int: ...
        @property
        def dtype(self) -> _dtype.dtype: ...
        def numel(self) -> int: ...
        def is_floating_point(self) -> bool: ...

    # -- arithmetic -----------------------------------------------------------------------
    # An operand that is not a tensor or a number (a list, a str...) gives NotImplemented, so Python raises
    # its own "unsupported operand type(s) for +: 'Tensor' and 'list'", as PyTorch does.
    def __add__(self, other: TensorOrNumber) -> Tensor:
        try:
            other = operand(other)
        except TypeError:
            return NotImplemented
        return E.Add.apply(self, other)

    __radd__ = __add__

    def __sub__(self, other: TensorOrNumber) -> Tensor:
        try:
            other = operand(other)
        except TypeError:
            return NotImplemented
        return E.Sub.apply(self, other)

    def __rsub__(self, other: TensorOrNumber) -> Tensor:
        if not _is_number(other):
            return NotImplemented
        return E.Rsub.apply(self, other)

    def __mul__(self, other: TensorOrNumber) -> Tensor:
        try:
            other = operand(other)
        except TypeError:
            return NotImplemented
        return E.Mul.apply(self, other)

    __rmul__ = __mul__

    def __truediv__(self, other: TensorOrNumber) -> Tensor:
        try:
            other = operand(other)
        except TypeError:
            return NotImplemented
        return E.Div.apply(self, other)

    def __rtruediv__(self, other: TensorOrNumber) -> Tensor:
        try:
            other = operand(other)
        except TypeError:
            return NotImplemented
        return E.Mul.apply(E.Reciprocal.apply(self), other)

    def __floordiv__(self, other: TensorOrNumber) -> Tensor:
        return _int_div(np.floor_divide, self, other)

    def __rfloordiv__(self, other: TensorOrNumber) -> Tensor:
        return _int_div(np.floor_divide, other, self)

    def __mod__(self, other: TensorOrNumber) -> Tensor:
        if _is_number(other) and not isinstance(other, np.ndarray):
            return E.RemainderScalar.apply(self, other)
        try:
            other = operand(other)
        except TypeError:
            return NotImplemented
        return E.Remainder.apply(self, other)

    def __rmod__(self, other: TensorOrNumber) -> Tensor:
        return _int_div(np.mod, other, self)

    def remainder(self, other: TensorOrNumber) -> Tensor:
        return self.__mod__(other)

    def floor_divide(self, other: TensorOrNumber) -> Tensor:
        return _int_div(np.floor_divide, self, operand(other))

    def __pow__(self, exponent: TensorOrNumber) -> Tensor:
        if isinstance(exponent, TensorOps):
            return E.PowTensor.apply(self, exponent)
        if not _is_number(exponent):
            return NotImplemented
        if type(exponent) is int and exponent < 0 and self._data.dtype.kind in "iub":
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        return E.Pow.apply(self, exponent)

    def __rpow__(self, base: Number) -> Tensor:
        if not _is_number(base):
            return NotImplemented
        return E.PowScalarBase.apply(base, self)

    def __matmul__(self, other: Tensor) -> Tensor:
        if not isinstance(other, TensorOps):
            return NotImplemented
        return L.matmul(self, other)

    def __rmatmul__(self, other: Tensor) -> Tensor:
        if not isinstance(other, TensorOps):
            return NotImplemented
        return L.matmul(other, self)

    def __index__(self) -> _int:
        if self._data.size != 1 or self._data.dtype.kind not in "iu":
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self._data.reshape(()))

    def __neg__(self) -> Tensor:
        return E.Neg.apply(self)

    def __pos__(self: Tensor) -> Tensor:
        return self

    def __abs__(self) -> Tensor:
        return E.Abs.apply(self)

    def add(self, other: TensorOrNumber, *, alpha: Number = 1) -> Tensor:
        return E.Add.apply(self, operand(other), alpha)

    def sub(self, other: TensorOrNumber, *, alpha: Number = 1) -> Tensor:
        return E.Sub.apply(self, operand(other), alpha)

    def mul(self, other: TensorOrNumber) -> Tensor:
        return self * other

    def div(self, other: TensorOrNumber, *, rounding_mode: str | None = None) -> Tensor:
        if rounding_mode in ("floor", "trunc"):
            return E.DivRounding.apply(self, operand(other), rounding_mode)
        return self / other

    multiply = mul
    divide = div
    subtract = sub
    true_divide = __truediv__

    def neg(self) -> Tensor:
        return E.Neg.apply(self)

    negative = neg

    def reciprocal(self) -> Tensor:
        return E.Reciprocal.apply(self)

    def pow(self, exponent: TensorOrNumber) -> Tensor:
        return self ** exponent

    def square(self) -> Tensor:
        return E.Pow.apply(self, 2)

    # -- comparisons and logic (no gradient) ----------------------------------------------
    def _compare(self, other: Any, fn: Callable[..., Any]) -> Tensor:
        try:
            other = operand(other)
        except TypeError:
            return NotImplemented             # Python's own error (or, for == and !=, False and True)
        check_broadcast(self, other)
        a, b = promoted(self, other)
        return type(self)._make(np.asarray(fn(a, b)))

    def __eq__(self, other: object) -> Tensor:  # type: ignore[override]  # elementwise, as in PyTorch
        if other is None:
            return False  # type: ignore[return-value]  # `x == None` is False, as in PyTorch
        return self._compare(other, np.equal)

    def __ne__(self, other: object) -> Tensor:  # type: ignore[override]  # elementwise, as in PyTorch
        if other is None:
            return True  # type: ignore[return-value]  # `x != None` is True, as in PyTorch
        return self._compare(other, np.not_equal)

    def __lt__(self, other: TensorOrNumber) -> Tensor:
        return self._compare(other, np.less)

    def __le__(self, other: TensorOrNumber) -> Tensor:
        return self._compare(other, np.less_equal)

    def __gt__(self, other: TensorOrNumber) -> Tensor:
        return self._compare(other, np.greater)

    def __ge__(self, other: TensorOrNumber) -> Tensor:
        return self._compare(other, np.greater_equal)

    # the named methods raise for an operand of another type (the operators give NotImplemented)
    def eq(self, other: TensorOrNumber) -> Tensor:
        return self._compare(operand(other), np.equal)

    def ne(self, other: TensorOrNumber) -> Tensor:
        return self._compare(operand(other), np.not_equal)

    def lt(self, other: TensorOrNumber) -> Tensor:
        return self._compare(operand(other), np.less)

    def le(self, other: TensorOrNumber) -> Tensor:
        return self._compare(operand(other), np.less_equal)

    def gt(self, other: TensorOrNumber) -> Tensor:
        return self._compare(operand(other), np.greater)

    def ge(self, other: TensorOrNumber) -> Tensor:
        return self._compare(operand(other), np.greater_equal)

    def __and__(self, other: TensorOrNumber) -> Tensor:
        return self._bitwise(other, np.logical_and, np.bitwise_and)

    def __or__(self, other: TensorOrNumber) -> Tensor:
        return self._bitwise(other, np.logical_or, np.bitwise_or)

    def __xor__(self, other: TensorOrNumber) -> Tensor:
        return self._bitwise(other, np.logical_xor, np.bitwise_xor)

    def _bitwise(self, other, logical, bitwise):
        try:
            other = operand(other)
        except TypeError:
            return NotImplemented
        check_broadcast(self, other)
        d = _dtype.result_type(self, other)
        if d.is_floating_point:
            raise NotImplementedError('"%s_cpu" not implemented for \'%s\'' % (bitwise.__name__, d._legacy))
        return self._compare(other, logical if d is _dtype.bool else bitwise)

    def __invert__(self) -> Tensor:
        if self.dtype.is_floating_point:
            raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
        return type(self)._make(np.logical_not(self._data) if self.dtype is _dtype.bool else np.invert(self._data))

    def logical_not(self) -> Tensor:
        return type(self)._make(np.logical_not(self._data))

    def logical_and(self, other: Tensor) -> Tensor:
        return self._compare(operand(other), np.logical_and)

    def logical_or(self, other: Tensor) -> Tensor:
        return self._compare(operand(other), np.logical_or)

    def logical_xor(self, other: Tensor) -> Tensor:
        return self._compare(operand(other), np.logical_xor)

    @numpy_names
    def count_nonzero(self, dim: Dims | None = None) -> Tensor:
        dim = None if dim is None else _checks.dims(dim, self.ndim, "count_nonzero")
        return type(self)._make(np.asarray(np.count_nonzero(self._data, axis=dim), dtype=np.int64))

    def isnan(self) -> Tensor:
        return type(self)._make(np.isnan(self._data))

    def isinf(self) -> Tensor:
        return type(self)._make(np.isinf(self._data))

    def isfinite(self) -> Tensor:
        return type(self)._make(np.isfinite(self._data))

    def isclose(self, other: TensorOrNumber, rtol: _float = 1e-05, atol: _float = 1e-08,
                equal_nan: _bool = False) -> Tensor:
        check_broadcast(self, operand(other))
        return type(self)._make(np.isclose(self._data, operand(other)._data, rtol=rtol, atol=atol, equal_nan=equal_nan))

    def nonzero(self, *, as_tuple: _bool = False) -> Any:
        """Indices of the non-zero elements: one row per element (``as_tuple``: one tensor per dim)."""
        found = np.nonzero(self._data) if self.ndim else np.nonzero(self._data.reshape(1))
        if as_tuple:
            return tuple(type(self)._make(i.astype(np.int64)) for i in found)
        return type(self)._make(np.stack(found, axis=1).astype(np.int64).reshape(-1, self.ndim))

    def allclose(self, other: TensorOrNumber, rtol: _float = 1e-05, atol: _float = 1e-08,
                 equal_nan: _bool = False) -> _bool:
        return bool(np.allclose(self._data, operand(other)._data, rtol=rtol, atol=atol, equal_nan=equal_nan))

    def equal(self, other: Tensor) -> _bool:
        return self.shape == other.shape and bool(np.array_equal(self._data, other._data))

    @numpy_names
    def any(self, dim: _int | tuple[_int, ...] | None = None, keepdim: _bool = False) -> Tensor:
        dim = None if dim is None else _checks.dims(dim, self.ndim, "any")
        return type(self)._make(np.asarray(np.any(self._data, axis=dim, keepdims=keepdim)))

    @numpy_names
    def all(self, dim: _int | tuple[_int, ...] | None = None, keepdim: _bool = False) -> Tensor:
        dim = None if dim is None else _checks.dims(dim, self.ndim, "all")
        return type(self)._make(np.asarray(np.all(self._data, axis=dim, keepdims=keepdim)))

    @numpy_names
    def argmax(self, dim: _int | None = None, keepdim: _bool = False) -> Tensor:
        return _arg(self, np.argmax, dim, keepdim, "argmax")

    @numpy_names
    def argmin(self, dim: _int | None = None, keepdim: _bool = False) -> Tensor:
        return _arg(self, np.argmin, dim, keepdim, "argmin")

    @numpy_names
    def sort(self, dim: _int = -1, descending: _bool = False, *, stable: _bool = False) -> _Pair:
        return _Pair("sort", *R.Sort.apply(self, dim, descending))

    @numpy_names
    def argsort(self, dim: _int = -1, descending: _bool = False, *, stable: _bool = False) -> Tensor:
        return self.sort(dim, descending).indices

    @numpy_names
    def topk(self, k: _int, dim: _int = -1, largest: _bool = True, sorted: _bool = True) -> _Pair:
        k, dim = _checks.int_arg(k, "topk", "k"), _checks.int_arg(dim, "topk", "dim", 2)
        return _Pair("topk", *R.Topk.apply(self, k, dim, largest))

    @numpy_names
    def unique(self, sorted: _bool = True, return_inverse: _bool = False, return_counts: _bool = False,
               dim: _int | None = None) -> Any:
        """The distinct values, sorted (also for ``sorted=False``, as PyTorch does on the CPU)."""
        values, inverse, counts = (R.Unique if dim is None else R.UniqueDim).apply(self, dim)
        extra = (inverse,) * return_inverse + (counts,) * return_counts
        return (values, *extra) if extra else values

    def bincount(self, weights: Tensor | None = None, minlength: _int = 0) -> Tensor:
        if self.dtype.is_floating_point:
            raise NotImplementedError('"bincount_cpu" not implemented for \'%s\'' % self.dtype._legacy)
        if self.ndim != 1 or self.dtype.name == "bool" or (self.numel() and self._data.min() < 0):
            raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
        w = None if weights is None else weights._data
        out = np.bincount(self._data, w, minlength)
        return type(self)._make(out if w is None else out.astype(_bincount_dtype(w)))

    # -- unary math ---------------------------------------------------------------------------
    def exp(self) -> Tensor:
        return E.Exp.apply(self)

    def log(self) -> Tensor:
        return E.Log.apply(self)

    def sin(self) -> Tensor:
        return E.Sin.apply(self)

    def cos(self) -> Tensor:
        return E.Cos.apply(self)

    def tanh(self) -> Tensor:
        return E.Tanh.apply(self)

    def sigmoid(self) -> Tensor:
        return E.Sigmoid.apply(self)

    def relu(self) -> Tensor:
        return E.Relu.apply(self)

    def sqrt(self) -> Tensor:
        return E.Sqrt.apply(self)

    def rsqrt(self) -> Tensor:
        return E.Rsqrt.apply(self)

    def abs(self) -> Tensor:
        return E.Abs.apply(self)

    def sign(self) -> Tensor:
        return E.Sign.apply(self)

    def sgn(self) -> Tensor:
        return E.Sgn.apply(self)

    def floor(self) -> Tensor:
        return E.Floor.apply(self)

    def ceil(self) -> Tensor:
        return E.Ceil.apply(self)

    def trunc(self) -> Tensor:
        return E.Trunc.apply(self)

    def round(self, *, decimals: _int = 0) -> Tensor:
        if decimals:
            return (self * 10.0 ** decimals).round() / 10.0 ** decimals
        return E.Round.apply(self)

    def log2(self) -> Tensor:
        return E.Log2.apply(self)

    def log10(self) -> Tensor:
        return E.Log10.apply(self)

    @numpy_names
    def clamp(self, min: TensorOrNumber | None = None, max: TensorOrNumber | None = None) -> Tensor:
        _clamp_args(min, max)
        for bound in (min, max):
            if isinstance(bound, TensorOps) and bound.shape != self.shape:
                check_broadcast(self, bound)
        return E.Clamp.apply(self, min, max)

    clip = clamp

    def clamp_min(self, min: TensorOrNumber) -> Tensor:
        return E.ClampMin.apply(self, min, None)

    def clamp_max(self, max: TensorOrNumber) -> Tensor:
        return E.ClampMax.apply(self, None, max)

    def maximum(self, other: Tensor) -> Tensor:
        return E.Maximum.apply(self, operand(other))

    def minimum(self, other: Tensor) -> Tensor:
        return E.Minimum.apply(self, operand(other))

    def log1p(self) -> Tensor:
        return E.Log1p.apply(self)

    def expm1(self) -> Tensor:
        return E.Expm1.apply(self)

    def tan(self) -> Tensor:
        return E.Tan.apply(self)

    def asin(self) -> Tensor:
        return E.Asin.apply(self)

    def acos(self) -> Tensor:
        return E.Acos.apply(self)

    def atan(self) -> Tensor:
        return E.Atan.apply(self)

    arcsin = asin
    arccos = acos
    arctan = atan

    def sinh(self) -> Tensor:
        return E.Sinh.apply(self)

    def cosh(self) -> Tensor:
        return E.Cosh.apply(self)

    def atan2(self, other: Tensor) -> Tensor:
        return E.Atan2.apply(self, _tensor_arg("atan2", other))

    arctan2 = atan2

    def erf(self) -> Tensor:
        from .ops.nn_ops import Erf  # (nn_ops needs Tensor: imported when first used)
        return Erf.apply(self)

    def frac(self) -> Tensor:
        return E.Frac.apply(self)

    def masked_fill(self, mask: Tensor, value: TensorOrNumber) -> Tensor:
        _checks.tensor_arg(mask, "masked_fill", "mask")
        if mask.shape != self.shape:
            broadcast_shape(mask.shape, self.shape)
        if not isinstance(value, TensorOps) and not _is_number(value):
            raise TypeError(_checks.invalid_args("masked_fill", (mask, value), {}, (
                "Tensor mask, Tensor value", "Tensor mask, Number value"), (_MASK_BAD % type(value).__name__,) * 2))
        if isinstance(value, TensorOps):
            return E.MaskedFillTensor.apply(self, mask._data, value)
        return E.MaskedFill.apply(self, mask._data, value)

    # -- reductions ------------------------------------------------------------------------------
    @numpy_names
    def sum(self, dim: Dims | None = None, keepdim: _bool = False, dtype: DType | None = None) -> Tensor:
        _reduce_dims("sum", dim)
        x = self if dtype is None else self.to(dtype)
        if dim is None:
            return R.Sum.apply(x)
        return R.SumDim.apply(x, dim, keepdim)

    @numpy_names
    def mean(self, dim: Dims | None = None, keepdim: _bool = False, dtype: DType | None = None) -> Tensor:
        _reduce_dims("mean", dim)
        if dtype is not None and not _checks.dtype_arg(dtype, "mean").is_floating_point:
            raise RuntimeError("mean(): could not infer output dtype. Optional dtype must be either a floating point "
                               "or complex dtype. Got: %s" % dtype._legacy)
        x = self if dtype is None else self.to(dtype)
        if dim is None:
            return R.Mean.apply(x)
        return R.MeanDim.apply(x, dim, keepdim)

    @numpy_names
    def max(self, dim: _int | Tensor | None = None, keepdim: _bool = False) -> Any:
        if dim is None:
            return R.MaxAll.apply(self)
        if isinstance(dim, TensorOps):
            return self.maximum(dim)
        return _Pair("max", *R.MaxDim.apply(self, dim, keepdim))

    @numpy_names
    def min(self, dim: _int | Tensor | None = None, keepdim: _bool = False) -> Any:
        if dim is None:
            return R.MinAll.apply(self)
        if isinstance(dim, TensorOps):
            return self.minimum(dim)
        return _Pair("min", *R.MinDim.apply(self, dim, keepdim))

    @numpy_names
    def amax(self, dim: Dims | None = (), keepdim: _bool = False) -> Tensor:
        return R.Amax.apply(self, () if dim is None else _checks.int_list(dim, "amax", "dim"), keepdim)

    @numpy_names
    def amin(self, dim: Dims | None = (), keepdim: _bool = False) -> Tensor:
        return R.Amin.apply(self, () if dim is None else _checks.int_list(dim, "amin", "dim"), keepdim)

    @numpy_names
    def median(self, dim: _int | None = None, keepdim: _bool = False) -> Any:
        if dim is None:
            return R.Median.apply(self)
        return _Pair("median", *R.MedianDim.apply(self, dim, keepdim))

    @numpy_names
    def mode(self, dim: _int = -1, keepdim: _bool = False) -> _Pair:
        return _Pair("mode", *R.ModeDim.apply(self, dim, keepdim))

    @numpy_names
    def cumprod(self, dim: _int, *, dtype: DType | None = None) -> Tensor:
        dim = _checks.int_arg(dim, "cumprod", "dim")
        return R.Cumprod.apply(self if dtype is None else self.to(dtype), dim)

    @numpy_names
    def cumsum(self, dim: _int, *, dtype: DType | None = None) -> Tensor:
        dim = _checks.int_arg(dim, "cumsum", "dim")
        return R.Cumsum.apply(self if dtype is None else self.to(dtype), dim)

    @numpy_names
    def logsumexp(self, dim: Dims, keepdim: _bool = False) -> Tensor:
        if not _checks.is_int(dim):
            _checks.int_list(dim, "logsumexp", "dim")
        return R.LogSumExp.apply(self, dim, keepdim)

    @numpy_names
    def softmax(self, dim: _int, dtype: DType | None = None) -> Tensor:
        dim = _checks.int_arg(dim, "softmax", "dim")
        _checks.dtype_arg(dtype, "softmax")
        return R.Softmax.apply(self if dtype is None else self.to(dtype), dim)

    @numpy_names
    def log_softmax(self, dim: _int, dtype: DType | None = None) -> Tensor:
        dim = _checks.int_arg(dim, "log_softmax", "dim")
        _checks.dtype_arg(dtype, "log_softmax")
        return R.LogSoftmax.apply(self if dtype is None else self.to(dtype), dim)

    @numpy_names
    def var(self, dim: Dims | None = None, unbiased: _bool | None = None, keepdim: _bool = False, *,
            correction: Number | None = None) -> Tensor:
        return R.Var.apply(self, dim, _correction(unbiased, correction, "var", dim), keepdim)

    @numpy_names
    def std(self, dim: Dims | None = None, unbiased: _bool | None = None, keepdim: _bool = False, *,
            correction: Number | None = None) -> Tensor:
        return R.Std.apply(self, dim, _correction(unbiased, correction, "std", dim), keepdim)

    @numpy_names
    def prod(self, dim: _int | None = None, keepdim: _bool = False) -> Tensor:
        if dim is None:
            return R.Prod.apply(self)
        return R.ProdDim.apply(self, dim, keepdim)

    @numpy_names
    def norm(self, p: Number | str | None = "fro", dim: Dims | None = None, keepdim: _bool = False) -> Tensor:
        if isinstance(p, str) and p not in ("fro", "nuc"):
            raise RuntimeError("linalg.matrix_norm: Order %s not supported." % p)
        if p == "nuc":
            raise NotImplementedError("minigrad does not implement the nuclear norm (p='nuc')")
        p = 2 if p in ("fro", None) else p
        return R.Norm.apply(self, float(p), dim, keepdim)

    # -- linear algebra ------------------------------------------------------------------------------
    def mm(self, other: Tensor) -> Tensor:
        return L.Mm.apply(self, other)

    def mv(self, vec: Tensor) -> Tensor:
        return L.Mv.apply(self, vec)

    def dot(self, other: Tensor) -> Tensor:
        return L.Dot.apply(self, other)

    def bmm(self, other: Tensor) -> Tensor:
        return L.Bmm.apply(self, other)

    def matmul(self, other: Tensor) -> Tensor:
        return L.matmul(self, other)

    def outer(self, other: Tensor) -> Tensor:
        for name, t in (("self", self), ("vec2", _checks.tensor_arg(other, "outer", "vec2"))):
            if t.ndim != 1:
                raise RuntimeError("outer: Expected 1-D argument %s, but got %d-D" % (name, t.ndim))
        return self.reshape(-1, 1) * other

    ger = outer

    def addmm(self, mat1: Tensor, mat2: Tensor, *, beta: Number = 1, alpha: Number = 1) -> Tensor:
        return L.Addmm.apply(self, mat1, mat2, beta, alpha)

    # -- shape -------------------------------------------------------------------------------------------
    def view(self, *shape: ShapeArg) -> Tensor:
        if len(shape) == 1 and isinstance(shape[0], _dtype.dtype):
            raise NotImplementedError("view(dtype) is not supported by minigrad")
        if not shape or (not _checks.is_int(shape[0]) and not isinstance(shape[0], (tuple, list))):
            notes = (_checks.bad_types(shape),) * 2 if len(shape) == 1 else None
            raise TypeError(_checks.invalid_args("view", shape, {}, ("torch.dtype dtype", "tuple of ints size"), notes))
        return S.View.apply(self, _shape_arg(shape, "view", "size"))

    def view_as(self, other: Tensor) -> Tensor:
        return self.view(other.shape)

    def reshape(self, *shape: ShapeArg) -> Tensor:
        if not shape:
            raise TypeError('reshape() missing 1 required positional arguments: "shape"')
        shape = S.infer_shape(_shape_arg(shape, "reshape", "shape"), self.numel())
        if S.view_array(self._data, shape) is None:
            return S.UnsafeView.apply(E.Clone.apply(self), shape)     # a copy, recorded as PyTorch does
        return (S.View if self._data.flags.c_contiguous else S.ReshapeAlias).apply(self, shape)

    def reshape_as(self, other: Tensor) -> Tensor:
        return self.reshape(other.shape)

    def flatten(self: Tensor, start_dim: _int = 0, end_dim: _int = -1) -> Tensor:
        s = wrap_dim(_checks.int_arg(start_dim, "flatten", "start_dim", 1), self.ndim)
        e = wrap_dim(_checks.int_arg(end_dim, "flatten", "end_dim", 2), self.ndim)
        if self.ndim == 0:
            return self.reshape(1)
        if s > e:
            raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
        if s == e:
            return self
        shape = (*self.shape[:s], math.prod(self.shape[s:e + 1]), *self.shape[e + 1:])
        return self.reshape(shape)

    @numpy_names
    def unflatten(self, dim: _int, sizes: Sequence[_int]) -> Tensor:
        d = wrap_dim(dim, self.ndim)
        sizes = tuple(sizes)
        if -1 not in sizes and math.prod(sizes) != self.shape[d]:
            raise RuntimeError("unflatten: Provided sizes [%s] don't multiply up to the size of dim %d (%d) in the "
                               "input tensor" % (", ".join(map(str, sizes)), d, self.shape[d]))
        return self.view(self.shape[:d] + sizes + self.shape[d + 1:])

    def movedim(self, source: Dims, destination: Dims) -> Tensor:
        """Move the dims ``source`` to the positions ``destination`` (ints or sequences); a permute."""
        src = (source,) if isinstance(source, int) else tuple(source)
        dst = (destination,) if isinstance(destination, int) else tuple(destination)
        if len(src) != len(dst):
            raise RuntimeError("movedim: Invalid source or destination dims: source (%s dims) should contain the "
                               "same number of dims as destination (%s dims)" % (list(src), list(dst)))
        n = max(self.ndim, 1)
        src, dst = [wrap_dim(d, n) for d in src], [wrap_dim(d, n) for d in dst]
        for name, dims in (("source", src), ("destination", dst)):
            if len(set(dims)) != len(dims):
                raise RuntimeError("movedim: repeated dim in `%s` (%s)" % (name, list(dims)))
        if self.ndim == 0:
            return S.Alias.apply(self)
        order = [None] * self.ndim
        for a, b in zip(src, dst):
            order[b] = a
        rest = iter(d for d in range(self.ndim) if d not in src)
        return self.permute([d if d is not None else next(rest) for d in order])

    moveaxis = movedim

    def transpose(self, dim0: _int, dim1: _int) -> Tensor:
        dim0, dim1 = _checks.int_arg(dim0, "transpose", "dim0"), _checks.int_arg(dim1, "transpose", "dim1", 2)
        return S.Transpose.apply(self, dim0, dim1)

    swapaxes = transpose

    def t(self) -> Tensor:
        return S.T.apply(self)

    @property
    def T(self) -> Tensor:
        if self.ndim != 2 and not _warned_T[self.ndim == 0]:
            _warned_T[self.ndim == 0] = True        # PyTorch warns once per process
            warnings.warn(_T_WARNINGS[self.ndim == 0], UserWarning, stacklevel=2)
        return S.Permute.apply(self, tuple(range(self.ndim - 1, -1, -1)))

    @property
    def mT(self) -> Tensor:
        return self.transpose(-2, -1)

    def permute(self, *dims: ShapeArg) -> Tensor:
        if not dims:
            raise TypeError('permute() missing 1 required positional arguments: "dims"')
        return S.Permute.apply(self, _shape_arg(dims, "permute", "dims"))

    @numpy_names
    def unsqueeze(self, dim: _int) -> Tensor:
        return S.Unsqueeze.apply(self, _checks.int_arg(dim, "unsqueeze", "dim"))

    @numpy_names
    def squeeze(self, dim: Dims | None = None) -> Tensor:
        if dim is None:
            return S.Squeeze.apply(self)
        if isinstance(dim, (tuple, list)):
            return S.SqueezeDims.apply(self, _checks.int_list(dim, "squeeze", "dim"))
        if not _checks.is_int(dim):
            raise TypeError(_checks.invalid_args("squeeze", (dim,), {}, ("", "int dim", "tuple of ints dim"),
                                                 (_checks.bad_types((dim,)),) * 3))
        return S.SqueezeDim.apply(self, dim)

    def flip(self, *dims: ShapeArg) -> Tensor:
        return S.Flip.apply(self, _checks.int_varargs(dims, "flip", "dims"))

    def roll(self, shifts: Dims, dims: Dims | None = None) -> Tensor:
        """Rotate by ``shifts`` along ``dims`` (ints or sequences); without dims, the flattened tensor."""
        shifts = _checks.int_list(shifts, "roll", "shifts")
        dims = () if dims is None else _checks.int_list(dims, "roll", "dims", 2)
        return S.Roll.apply(self, shifts, dims)

    def diag(self, diagonal: _int = 0) -> Tensor:
        """A 1-D tensor's square diagonal matrix, or a matrix's diagonal (a copy), ``diagonal`` places above."""
        if self.ndim == 1:
            return S.DiagEmbed.apply(self, diagonal)
        if self.ndim != 2:
            raise RuntimeError("diag(): Supports 1D or 2D tensors. Got %dD" % self.ndim)
        return S.DiagonalCopy.apply(self, diagonal, 0, 1)

    def diagonal(self, offset: _int = 0, dim1: _int = 0, dim2: _int = 1) -> Tensor:
        return S.Diagonal.apply(self, offset, dim1, dim2)

    def trace(self) -> Tensor:
        return S.Trace.apply(self)

    def tril(self, diagonal: _int = 0) -> Tensor:
        return S.Tril.apply(self, diagonal)

    def triu(self, diagonal: _int = 0) -> Tensor:
        return S.Triu.apply(self, diagonal)

    def expand(self, *sizes: ShapeArg) -> Tensor:
        if not sizes:
            raise TypeError('expand() missing 1 required positional arguments: "size"')
        return S.Expand.apply(self, _shape_arg(sizes, "expand", "size"))

    def expand_as(self, other: Tensor) -> Tensor:
        return self.expand(other.shape)

    def broadcast_to(self, shape: Sequence[_int]) -> Tensor:
        return self.expand(shape)

    def repeat(self, *sizes: ShapeArg) -> Tensor:
        return S.Repeat.apply(self, _shape_arg(sizes, "repeat", "repeats"))

    @numpy_names
    def split(self, split_size: _int | Sequence[_int], dim: _int = 0) -> tuple[Tensor, ...]:
        if self.ndim == 0:
            raise RuntimeError("split expects at least a 1-dimensional tensor")
        d = wrap_dim(dim, self.ndim)
        n = self.shape[d]
        if not _checks.is_int(split_size):
            split_size = _checks.int_list(split_size, "split_with_sizes", "split_sizes", 2)
        if isinstance(split_size, int):
            if split_size < 0:
                raise RuntimeError("split expects split_size be non-negative, but got split_size=%d" % split_size)
            if split_size == 0:
                if n:
                    raise RuntimeError("split_size can only be 0 if dimension size is 0, but got dimension size of %d"
                                       % n)
                return S.Split.apply(self, [0], d)
            sizes = [split_size] * (n // split_size) + ([n % split_size] if n % split_size else [])
            return S.Split.apply(self, sizes or [0], d)
        if sum(split_size) != n:
            raise RuntimeError("split_with_sizes expects split_sizes to sum exactly to %d (input tensor's size at "
                               "dimension %d), but got split_sizes=[%s]" % (n, d, ", ".join(map(str, split_size))))
        return S.SplitWithSizes.apply(self, list(split_size), d)

    @numpy_names
    def chunk(self, chunks: _int, dim: _int = 0) -> tuple[Tensor, ...]:
        chunks = _checks.int_arg(chunks, "chunk", "chunks")
        if self.ndim == 0:
            raise RuntimeError("chunk expects at least a 1-dimensional tensor")
        if chunks <= 0:
            raise RuntimeError("chunk expects `chunks` to be greater than 0, got: %d" % chunks)
        n = self.shape[wrap_dim(dim, self.ndim)]
        if n == 0:                              # PyTorch: `chunks` empty pieces (split_with_sizes)
            return self.split([0] * chunks, dim)
        return self.split(max(-(-n // chunks), 1), dim)

    @numpy_names
    def unbind(self, dim: _int = 0) -> tuple[Tensor, ...]:
        dim = _checks.int_arg(dim, "unbind", "dim")
        if self.ndim == 0:
            wrap_dim(dim, 0)
            raise IndexError("Dimension specified as %d but tensor has no dimensions" % dim)
        return S.Unbind.apply(self, dim)

    @numpy_names
    def narrow(self, dim: _int, start: _int, length: _int) -> Tensor:
        if self.ndim == 0:
            raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
        d = wrap_dim(dim, self.ndim)
        size = self.shape[d]
        if not -size <= start <= size:
            raise IndexError("start out of range (expected to be in range of [%d, %d], but got %d)"
                             % (-size, size, start))
        if length < 0:
            raise RuntimeError("narrow(): length must be non-negative.")
        start = start + size if start < 0 else start
        if start + length > size:
            raise RuntimeError("start (%d) + length (%d) exceeds dimension size (%d)." % (start, length, size))
        return I.Slice.apply(self, (slice(None),) * d + (slice(start, start + length),))

    @numpy_names
    def select(self, dim: _int, index: _int) -> Tensor:
        dim, index = _checks.int_arg(dim, "select", "dim"), _checks.int_arg(index, "select", "index", 2)
        if self.ndim == 0:
            raise IndexError("select() cannot be applied to a 0-dim tensor.")
        d = wrap_dim(dim, self.ndim)
        index = int(index)
        if not -self.shape[d] <= index < self.shape[d]:
            raise IndexError("select(): index %d out of range for tensor of size [%s] at dimension %d"
                             % (index, ", ".join(map(str, self.shape)), d))
        return I.Select.apply(self, (slice(None),) * d + (index,))

    @numpy_names
    def gather(self, dim: _int, index: Tensor) -> Tensor:
        dim = _checks.int_arg(dim, "gather", "dim")
        _checks.tensor_arg(index, "gather", "index", 2)
        return I.TakeAlongDim.apply(self, wrap_dim(dim, max(self.ndim, 1)), index._data)

    @numpy_names
    def scatter(self, dim: _int, index: Tensor, src: Tensor | None = None, *, value: Number | None = None) -> Tensor:
        """A copy with ``src``'s values (or the number ``value``) written at ``index`` along ``dim``."""
        dim = wrap_dim(_checks.int_arg(dim, "scatter", "dim"), max(self.ndim, 1))
        if isinstance(src, TensorOps):
            return I.Scatter.apply(self, src, dim, index._data)
        return I.ScatterValue.apply(self, dim, index._data, value if src is None else src)

    @numpy_names
    def scatter_(self, dim: _int, index: Tensor, src: Tensor | None = None, *, value: Number | None = None) -> Tensor:
        if isinstance(src, TensorOps):
            return self._inplace(lambda x, s: x.scatter(dim, index, s), src)
        return self._inplace(lambda x: x.scatter(dim, index, src, value=value))

    @numpy_names
    def scatter_add(self, dim: _int, index: Tensor, src: Tensor) -> Tensor:
        """A copy with ``src``'s values added at ``index`` along ``dim`` (repeated indices add up)."""
        dim = _checks.int_arg(dim, "scatter_add", "dim")
        return I.ScatterAdd.apply(self, src, wrap_dim(dim, max(self.ndim, 1)), index._data)

    @numpy_names
    def scatter_add_(self, dim: _int, index: Tensor, src: Tensor) -> Tensor:
        return self._inplace(lambda x, s: x.scatter_add(dim, index, s), src)

    @numpy_names
    def index_select(self, dim: _int, index: Tensor) -> Tensor:
        dim = _checks.int_arg(dim, "index_select", "dim")
        _checks.tensor_arg(index, "index_select", "index", 2)
        return I.IndexSelect.apply(self, wrap_dim(dim, max(self.ndim, 1)), index._data)

    def masked_select(self, mask: Tensor) -> Tensor:
        _checks.tensor_arg(mask, "masked_select", "mask")
        if mask.shape != self.shape:
            broadcast_shape(mask.shape, self.shape)
        return I.MaskedSelect.apply(self, mask._data)

    def contiguous(self: Tensor) -> Tensor:
        return self if self._data.flags.c_contiguous else E.Clone.apply(self)

    def clone(self) -> Tensor:
        """A copy that stays in the graph (``CloneBackward0``)."""
        return E.Clone.apply(self)

    def to(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        from ._creation import _require_cpu, device  # at call time: _creation builds on Tensor
        dtype = kwargs.get("dtype")
        _require_cpu(kwargs.get("device"))
        for a in args:
            if isinstance(a, _dtype.dtype):
                dtype = a
            elif isinstance(a, TensorOps):
                dtype = a.dtype
            elif isinstance(a, (str, device)):
                _require_cpu(a)
        if dtype is None or dtype is self.dtype:
            return E.ToCopy.apply(self, self.dtype) if kwargs.get("copy") else self   # copy=True: always a copy
        return E.ToCopy.apply(self, dtype)

    def type(self, dtype: DType | type[Any] | str | None = None) -> Any:
        """``x.type()`` is the legacy name (``'torch.FloatTensor'``); ``x.type(t)`` converts to ``t``, which may
        be a dtype, a legacy class (``torch.DoubleTensor``) or its name."""
        if dtype is None:
            return "torch.%sTensor" % self.dtype._legacy
        if isinstance(dtype, str):
            dtype = next((d for d in _dtype._ALL if "torch.%sTensor" % d._legacy == dtype), None) or \
                _invalid_type(dtype)
        elif not isinstance(dtype, (_dtype.dtype, type)):
            raise TypeError("dtype must be a type, str, or dtype object")
        return self.to(getattr(dtype, "dtype", dtype))

    # -- new tensors with this one's dtype ------------------------------------------------------
    def new_tensor(self, data: Any, *, dtype: DType | None = None, device: Device = None,
                   requires_grad: _bool = False) -> Tensor:
        from ._creation import tensor  # at call time: _creation builds on Tensor
        if isinstance(data, TensorOps):
            warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
                          "sourceTensor.detach().clone().requires_grad_(True), rather than "
                          "tensor.new_tensor(sourceTensor).", UserWarning, stacklevel=2)
            data = data._data
        return tensor(data, dtype=dtype or self.dtype, requires_grad=requires_grad)

    def new_zeros(self, *size: ShapeArg, dtype: DType | None = None, device: Device = None,
                  requires_grad: _bool = False) -> Tensor:
        from ._creation import _factory  # at call time: _creation builds on Tensor
        return _factory(np.zeros, size, dtype or self.dtype, requires_grad)     # (its error is not zeros')

    def new_ones(self, *size: ShapeArg, dtype: DType | None = None, device: Device = None,
                 requires_grad: _bool = False) -> Tensor:
        from ._creation import ones  # at call time: _creation builds on Tensor
        return ones(*size, dtype=dtype or self.dtype, requires_grad=requires_grad)

    def new_empty(self, *size: ShapeArg, dtype: DType | None = None, device: Device = None,
                  requires_grad: _bool = False) -> Tensor:
        from ._creation import empty  # at call time: _creation builds on Tensor
        return empty(*size, dtype=dtype or self.dtype, requires_grad=requires_grad)

    def new_full(self, size: Sequence[_int], fill_value: Number, *, dtype: DType | None = None, device: Device = None,
                 requires_grad: _bool = False) -> Tensor:
        from ._creation import full  # at call time: _creation builds on Tensor
        return full(size, fill_value, dtype=dtype or self.dtype, requires_grad=requires_grad)

    def type_as(self, other: Tensor) -> Tensor:
        return self.to(other.dtype)

    def float(self) -> Tensor:
        return self.to(_dtype.float32)

    def double(self) -> Tensor:
        return self.to(_dtype.float64)

    def half(self) -> Tensor:
        return self.to(_dtype.float16)

    def long(self) -> Tensor:
        return self.to(_dtype.int64)

    def int(self) -> Tensor:
        return self.to(_dtype.int32)

    def bool(self) -> Tensor:
        return self.to(_dtype.bool)

    def cpu(self: Tensor) -> Tensor:
        return self

    def cuda(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise AssertionError("Torch not compiled with CUDA enabled")

    # -- indexing ----------------------------------------------------------------------------------
    def __getitem__(self: Tensor, key: Index | tuple[Index, ...]) -> Tensor:
        if isinstance(key, slice):            # one slice: always a SliceBackward0 (even x[:]), as in PyTorch
            _check_step(key)
            if self.ndim == 0:
                raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                                 "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
            return I.Slice.apply(self, (key,))
        key, advanced = I.normalize_key(key, self.shape)
        if advanced:
            I.check_advanced(key, self.shape)
            return I.Index.apply(self, key)
        I.check_bounds(key, self.shape)
        out, dim = self, 0
        for item in key:                  # basic indexing: one view op per index item, as PyTorch records
            if item is None:
                out = out.unsqueeze(dim)
                dim += 1
            elif item is Ellipsis:
                dim = out.ndim - sum(1 for k in key[key.index(Ellipsis) + 1:] if k is not None and k is not Ellipsis)
            elif isinstance(item, slice):
                if item != slice(None) and item.indices(out.shape[dim]) != (0, out.shape[dim], 1):
                    _check_step(item)
                    out = I.Slice.apply(out, (slice(None),) * dim + (item,))
                dim += 1
            else:
                out = I.Select.apply(out, (slice(None),) * dim + (int(item),))  # type: ignore[arg-type]
        if out is self:                       # x[...], x[:, :]: PyTorch returns an alias (AliasBackward0)
            out = S.Alias.apply(self)
        return out

    def __setitem__(self, key: Index | tuple[Index, ...], value: TensorOrNumber) -> None:
        I.setitem(self, key, value)

    # -- in place -------------------------------------------------------------------------------------
    def _inplace(self, compute: Callable[..., Any], *others: Any, leaf_message: str = P.LEAF_INPLACE,
                 ufunc: Any = None, fill: bool = False) -> Tensor:
        """Run ``compute(self, *others)`` out of place and write the result into ``self`` (``ops/inplace.py``)."""
        return P.inplace(self, compute, others, leaf_message, ufunc, fill)

    def add_(self, other: TensorOrNumber, *, alpha: Number = 1) -> Tensor:
        return self._inplace(lambda x, y: E.Add.apply(x, y, alpha), operand(other),
                             ufunc=np.add if alpha == 1 else None)

    def sub_(self, other: TensorOrNumber, *, alpha: Number = 1) -> Tensor:
        return self._inplace(lambda x, y: E.Sub.apply(x, y, alpha), operand(other),
                             ufunc=np.subtract if alpha == 1 else None)

    def mul_(self, other: TensorOrNumber) -> Tensor:
        return self._inplace(E.Mul.apply, operand(other), ufunc=np.multiply)

    def div_(self, other: TensorOrNumber) -> Tensor:
        return self._inplace(E.Div.apply, operand(other),
                             ufunc=np.divide if self.is_floating_point() else None)

    def pow_(self, exponent: TensorOrNumber) -> Tensor:
        return self._inplace(lambda x: x ** exponent)

    @numpy_names
    def clamp_(self, min: TensorOrNumber | None = None, max: TensorOrNumber | None = None) -> Tensor:
        _clamp_args(min, max, "clamp_")
        return self._inplace(lambda x: E.Clamp.apply(x, min, max))

    clip_ = clamp_

    def relu_(self) -> Tensor:
        return self._inplace(E.Relu.apply)

    def sigmoid_(self) -> Tensor:
        return self._inplace(E.Sigmoid.apply)

    def tanh_(self) -> Tensor:
        return self._inplace(E.Tanh.apply)

    def exp_(self) -> Tensor:
        return self._inplace(E.Exp.apply)

    def neg_(self) -> Tensor:
        return self._inplace(E.Neg.apply)

    def sqrt_(self) -> Tensor:
        return self._inplace(E.Sqrt.apply)

    def addcmul_(self, t1: Tensor, t2: Tensor, *, value: Number = 1) -> Tensor:
        return self._inplace(lambda x, a, b: x + value * a * b, operand(t1), operand(t2))

    def addcdiv_(self, t1: Tensor, t2: Tensor, *, value: Number = 1) -> Tensor:
        return self._inplace(lambda x, a, b: x + value * a / b, operand(t1), operand(t2))

    def lerp_(self, end: Tensor, weight: TensorOrNumber) -> Tensor:
        _checks.tensor_arg(end, "lerp_", "end")
        if end.shape != self.shape:
            broadcast_shape(self.shape, end.shape)
        for name, t in (("end", end), ("weight", weight)):
            if isinstance(t, TensorOps) and t.dtype is not self.dtype:
                raise RuntimeError("expected dtype %s for `%s` but got dtype %s"
                                   % (_c_type(self.dtype), name, _c_type(t.dtype)))
        return self._inplace(lambda x, e: x + weight * (e - x), operand(end))

    def masked_fill_(self, mask: Tensor, value: TensorOrNumber) -> Tensor:
        where: Any = False                  # an expanded self: PyTorch warns, then writes where the mask is True
        if P.has_overlap(self._data):
            warnings.warn(_MASKED_FILL_EXPANDED, UserWarning, stacklevel=2)
            if isinstance(mask, TensorOps) and broadcast_shape(mask.shape, self.shape) == tuple(self.shape):
                where = np.broadcast_to(np.asarray(mask._data, dtype=bool), self.shape)
        if isinstance(value, TensorOps):
            return self._inplace(lambda x, v: E.MaskedFillTensor.apply(x, mask._data, v), value, fill=where)
        return self._inplace(lambda x: E.MaskedFill.apply(x, mask._data, value), fill=where)

    def zero_(self) -> Tensor:
        return self._inplace(P.Zero.apply, fill=True)

    def fill_(self, value: TensorOrNumber) -> Tensor:
        if not isinstance(value, TensorOps) and not _is_number(value):
            raise TypeError(_checks.invalid_args("fill_", (value,), {}, ("Tensor value", "Number value"),
                                                 (_checks.bad_types((value,)),) * 2))
        if isinstance(value, TensorOps):
            if value.ndim:
                raise RuntimeError("fill_ only supports 0-dimension value tensor but got tensor with %d dimensions."
                                   % value.ndim)
            return self._inplace(lambda x, v: P.FillTensor.apply(x, v), value)
        return self._inplace(lambda x: P.Fill.apply(x, value), fill=True)

    def copy_(self, src: Tensor, non_blocking: _bool = False) -> Tensor:
        src = _checks.tensor_arg(src, "copy_", "other")
        if src.shape != self.shape:
            shape = broadcast_shape(self.shape, src.shape)
            if shape != tuple(self.shape):
                raise RuntimeError("output with shape [%s] doesn't match the broadcast shape [%s]"
                                   % (", ".join(map(str, self.shape)), ", ".join(map(str, shape))))
        return self._inplace(lambda x, s: P.Copy.apply(x, s), src)

    def __iadd__(self, other: TensorOrNumber) -> Tensor:
        return self.add_(other)

    def __isub__(self, other: TensorOrNumber) -> Tensor:
        return self.sub_(other)

    def __imul__(self, other: TensorOrNumber) -> Tensor:
        return self.mul_(other)

    def __itruediv__(self, other: TensorOrNumber) -> Tensor:
        return self.div_(other)

    # random in-place fills (used by nn.init); data only, version bumped.  PyTorch's draws: see _creation.
    def uniform_(self, a: _float = 0.0, b: _float = 1.0, generator: Generator | None = None) -> Tensor:
        from ._creation import _random_fill  # at call time: _creation builds on Tensor
        return _random_fill(self, "uniform", generator, a, b)

    def normal_(self, mean: _float = 0.0, std: _float = 1.0, generator: Generator | None = None) -> Tensor:
        from ._creation import _random_fill  # at call time: _creation builds on Tensor
        return _random_fill(self, "normal", generator, mean, std)

    def bernoulli_(self, p: TensorOrNumber = 0.5, generator: Generator | None = None) -> Tensor:
        from ._creation import _random_fill  # at call time: _creation builds on Tensor
        return _random_fill(self, "bernoulli", generator, p)

    def exponential_(self, lambd: _float = 1.0, generator: Generator | None = None) -> Tensor:
        from ._creation import _random_fill  # at call time: _creation builds on Tensor
        return _random_fill(self, "exponential", generator, lambd)

    def random_(self, *args: _int, generator: Generator | None = None, **kwargs: Any) -> Tensor:
        from ._creation import _random_fill  # at call time: _creation builds on Tensor
        return _random_fill(self, "random", generator, *args, **kwargs)

    def cauchy_(self, median: _float = 0.0, sigma: _float = 1.0, generator: Generator | None = None) -> Tensor:
        from ._creation import _random_fill  # at call time: _creation builds on Tensor
        return _random_fill(self, "cauchy", generator, median, sigma)

    def log_normal_(self, mean: _float = 1.0, std: _float = 2.0, generator: Generator | None = None) -> Tensor:
        from ._creation import _random_fill  # at call time: _creation builds on Tensor
        return _random_fill(self, "log_normal", generator, mean, std)

    def geometric_(self, p: _float, generator: Generator | None = None) -> Tensor:
        from ._creation import _random_fill  # at call time: _creation builds on Tensor
        return _random_fill(self, "geometric", generator, p)

    def bernoulli(self: Tensor, p: _float | None = None, generator: Generator | None = None) -> Tensor:
        from ._creation import bernoulli  # at call time: _creation builds on Tensor
        return bernoulli(self, p, generator=generator)

    def multinomial(self: Tensor, num_samples: _int, replacement: _bool = False,
                    generator: Generator | None = None) -> Tensor:
        from ._creation import multinomial  # at call time: _creation builds on Tensor
        return multinomial(self, num_samples, replacement, generator=generator)




# -- helpers ------------------------------------------------------------------------------------------

# Python names a method in its argument errors by ``__qualname__``: ``flatten() got an unexpected keyword
# argument 'start'``, as PyTorch's parser says (its methods written in Python say ``Tensor.unique()``).
_PYTHON_IN_TORCH = {"norm", "split", "unflatten", "unique"}
for _name, _method in list(vars(TensorOps).items()):
    _fn = getattr(_method, "__wrapped__", _method)
    if getattr(_fn, "__qualname__", None) == "TensorOps." + _name:
        _q = ("Tensor." if _name in _PYTHON_IN_TORCH else "") + _name
        _fn.__qualname__ = _q
        if _method is not _fn:
            _method.__qualname__ = _q
del _name, _method, _fn


class _Pair(tuple[Any, ...]):
    """``torch.return_types.max(values=..., indices=...)``."""

    name: str

    def __new__(cls, name: str, values: Tensor, indices: Tensor) -> _Pair:
        self = super().__new__(cls, (values, indices))
        self.name = name
        return self

    @property
    def values(self) -> Tensor:
        return self[0]

    @property
    def indices(self) -> Tensor:
        return self[1]

    def __repr__(self) -> str:
        return "torch.return_types.%s(\nvalues=%r,\nindices=%r)" % (self.name, self[0], self[1])


_T_WARNINGS = ("The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it will "
               "throw an error in a future release. Consider `x.mT` to transpose batches of matrices or "
               "`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor.",
               "Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases.")
_warned_T = [False, False]


def _check_step(item):
    if item.step is not None and item.step <= 0:
        raise ValueError("slice step cannot be zero" if item.step == 0 else "step must be greater than zero")


def _tensor_arg(name, other):
    """PyTorch's TypeError for a Python number where a method takes only a Tensor."""
    from ._tensor import Tensor  # at call time: _tensor imports this module
    if not isinstance(other, Tensor):
        raise TypeError("%s(): argument 'other' (position 1) must be Tensor, not %s" % (name, type(other).__name__))
    return other


def _bincount_dtype(weights):
    return np.float32 if weights.dtype == np.float32 else np.float64


def _int_div(fn, x, y):
    """``//`` and ``%`` (no gradient), with PyTorch's error for an integer division by zero."""
    from ._tensor import Tensor  # at call time: _tensor imports this module
    try:
        x, y = operand(x), operand(y)
    except TypeError:
        return NotImplemented
    a, b = promoted(x, y)
    if b.dtype.kind in "iub" and not np.all(b):
        raise RuntimeError("ZeroDivisionError")
    with np.errstate(divide="ignore", invalid="ignore"):
        return Tensor._make(np.asarray(fn(a, b)))


def _arg(t, fn, dim, keepdim, name):
    if dim is None:
        R.check_arg_reduction(name, t.shape, None)
        return type(t)._make(np.asarray(fn(t._data), dtype=np.int64))
    dim = wrap_dim(_checks.int_arg(dim, name, "dim", None), t.ndim)
    R.check_arg_reduction(name, t.shape, dim)
    out = fn(t._data, axis=dim)
    if keepdim:
        out = np.expand_dims(out, dim)
    return type(t)._make(np.asarray(out, dtype=np.int64))


def _is_number(value):
    return isinstance(value, (bool, int, float, np.number, np.bool_, np.ndarray))


_VAR_SIGNATURES = ("tuple of ints dim, bool unbiased = True, bool keepdim = False",
                   "tuple of ints dim = None, *, Number correction = None, bool keepdim = False",
                   "bool unbiased = True")


def _correction(unbiased, correction, name="var", dim=None):
    if correction is not None:
        if unbiased is not None:
            raise TypeError(_checks.invalid_args(name, () if dim is None else (dim,),
                                                 {"unbiased": unbiased, "correction": correction}, _VAR_SIGNATURES,
                                                 ("keywords were incorrect: correction, unbiased", None, None)))
        return correction
    return 0 if unbiased is False else 1


_MASK_BAD = "arguments have invalid types: (Tensor, !%s!)"


def _reduce_dims(name, dim):
    """``sum``/``mean``'s ``dim``: None, an int or a sequence of ints."""
    if dim is None or type(dim) is int:
        return
    if isinstance(dim, (tuple, list)):
        _checks.int_list(dim, name, "dim")
    elif not _checks.is_int(dim):
        raise TypeError(_checks.invalid_args(name, (dim,), {}, _SUM_SIGNATURES))


def _clamp_args(min, max, name="clamp"):
    """(given positionally: the keyword forms are checked by ``numpy_names``)"""
    for v in (min, max):
        if v is not None and not isinstance(v, TensorOps) and not _is_number(v):
            given = (min,) if max is None else (min, max)
            notes = (_checks.bad_types(given),) * 2 if len(given) == 2 else None
            raise TypeError(_checks.invalid_args(name, given, {}, _CLAMP_SIGNATURES, notes))


def _invalid_type(name):
    raise ValueError("invalid type: '%s'" % name)


def _c_type(d):
    """A dtype as ATen's C++ scalar type: ``float``, ``double``, ``long int``."""
    return {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int", "int32": "int",
            "bool": "bool", "uint8": "unsigned char"}.get(d.name, d.name)


def _shape_arg(shape, fn, name):
    return _checks.int_varargs(shape, fn, name)


_alias = P.alias


def _fill_random(t, values):
    with grad_mode.no_grad():
        t._inplace(lambda x: type(t)._make(np.asarray(values, dtype=x._data.dtype)))
    return t
