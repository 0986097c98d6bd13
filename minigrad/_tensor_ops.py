"""The operator and math methods of Tensor: each is one call, into its op in ``ops/`` or a front end there.

A method whose arguments need more than the op's own checks calls a front end that does them and picks
the op: ``ops/_arith.py`` (operators, ``div``, ``clamp``, ``masked_fill``), ``ops/_logic.py``
(comparisons, ``isnan``, ``nonzero``, ``any``/``all``, ``argmax``), ``ops/_reductions.py`` (``sum``...
``unique``), ``ops/_shapes.py`` (``view``, ``reshape``, ``split``, ``narrow``...), ``ops/_indexing.py``
(``x[key]``, ``x[key] = v``, ``gather``, ``scatter``), ``ops/_writes.py`` (in-place methods with
arguments to check), ``ops/_convert.py`` (``to``, ``type``, ``new_tensor``).  numpy's ``axis=`` and
``keepdims=`` are accepted where a method is decorated with ``numpy_names`` (``ops/_args.py``).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

import numpy as np

from . import _checks, _dtype
from .ops import _arith as A
from .ops import _convert as Cv
from .ops import _indexing as Ix
from .ops import _logic as C
from .ops import _reductions as Rd
from .ops import _shapes as Sh
from .ops import _writes as W
from .ops import elementwise as E
from .ops import inplace as P
from .ops import linalg as L
from .ops import reduce as R
from .ops import shape as S
from .ops._args import numpy_names, pytorch_qualnames
from .ops._util import operand

if TYPE_CHECKING:
    from ._creation import Generator
    from ._tensor import Tensor
    from ._typing import Device, Dims, DType, Index, Number, ShapeArg, TensorOrNumber, _bool, _float, _int


# Python names a method in its argument errors by ``__qualname__``: ``flatten() got an unexpected keyword
# argument 'start'``, as PyTorch's parser says (its methods written in Python say ``Tensor.unique()``).
@pytorch_qualnames(python_in_torch={"norm", "split", "unflatten", "unique"})
class TensorOps:
    """Arithmetic, math, reductions, linear algebra, shapes, indexing and in-place variants."""

    __slots__ = ()

    # (each method's `self` is a Tensor, the one class that mixes these in)

    # -- arithmetic -----------------------------------------------------------------------
    # An operand that is not a tensor or a number (a list, a str...) gives NotImplemented, so Python raises
    # its own "unsupported operand type(s) for +: 'Tensor' and 'list'", as PyTorch does.
    def __add__(self: Tensor, other: TensorOrNumber) -> Tensor:
        return A.binary(E.Add, self, other)

    __radd__ = __add__

    def __sub__(self: Tensor, other: TensorOrNumber) -> Tensor:
        return A.binary(E.Sub, self, other)

    def __rsub__(self: Tensor, other: TensorOrNumber) -> Tensor:
        return A.rsub(self, other)

    def __mul__(self: Tensor, other: TensorOrNumber) -> Tensor:
        return A.binary(E.Mul, self, other)

    __rmul__ = __mul__

    def __truediv__(self: Tensor, other: TensorOrNumber) -> Tensor:
        return A.binary(E.Div, self, other)

    def __rtruediv__(self: Tensor, other: TensorOrNumber) -> Tensor:
        return A.rtruediv(self, other)

    def __floordiv__(self: Tensor, other: TensorOrNumber) -> Tensor:
        return A.int_div(np.floor_divide, self, other)

    def __rfloordiv__(self: Tensor, other: TensorOrNumber) -> Tensor:
        return A.int_div(np.floor_divide, other, self)

    def __mod__(self: Tensor, other: TensorOrNumber) -> Tensor:
        return A.mod(self, other)

    def __rmod__(self: Tensor, other: TensorOrNumber) -> Tensor:
        return A.int_div(E.remainder, other, self)

    def remainder(self: Tensor, other: TensorOrNumber) -> Tensor:
        return self.__mod__(other)

    def floor_divide(self: Tensor, other: TensorOrNumber) -> Tensor:
        return A.int_div(np.floor_divide, self, operand(other))

    def __pow__(self: Tensor, exponent: TensorOrNumber) -> Tensor:
        return A.power(self, exponent)

    def __rpow__(self: Tensor, base: Number) -> Tensor:
        return A.rpow(self, base)

    def __matmul__(self: Tensor, other: Tensor) -> Tensor:
        return L.matmul(self, other) if isinstance(other, TensorOps) else NotImplemented

    def __rmatmul__(self: Tensor, other: Tensor) -> Tensor:
        return L.matmul(other, self) if isinstance(other, TensorOps) else NotImplemented

    def __index__(self: Tensor) -> _int:
        return A.index(self)

    def __neg__(self: Tensor) -> Tensor:
        return E.Neg.apply(self)

    def __pos__(self: Tensor) -> Tensor:
        return self

    def __abs__(self: Tensor) -> Tensor:
        return E.Abs.apply(self)

    def add(self: Tensor, other: TensorOrNumber, *, alpha: Number = 1) -> Tensor:
        return E.Add.apply(self, operand(other), alpha)

    def sub(self: Tensor, other: TensorOrNumber, *, alpha: Number = 1) -> Tensor:
        return E.Sub.apply(self, operand(other), alpha)

    def mul(self: Tensor, other: TensorOrNumber) -> Tensor:
        return self * other

    def div(self: Tensor, other: TensorOrNumber, *, rounding_mode: str | None = None) -> Tensor:
        return A.div(self, other, rounding_mode)

    multiply = mul
    divide = div
    subtract = sub
    true_divide = __truediv__

    def neg(self: Tensor) -> Tensor:
        return E.Neg.apply(self)

    negative = neg

    def reciprocal(self: Tensor) -> Tensor:
        return E.Reciprocal.apply(self)

    def pow(self: Tensor, exponent: TensorOrNumber) -> Tensor:
        return self ** exponent

    def square(self: Tensor) -> Tensor:
        return E.Pow.apply(self, 2)

    # -- comparisons and logic (no gradient) ----------------------------------------------
    def _compare(self: Tensor, other: Any, fn: Callable[..., Any]) -> Tensor:
        return C.compare(self, other, fn)

    # `x == None` is False and `x != None` is True, as in PyTorch
    def __eq__(self: Tensor, other: object) -> Tensor:  # type: ignore[override]  # elementwise, as in PyTorch
        return False if other is None else C.compare(self, other, np.equal)  # type: ignore[return-value]

    def __ne__(self: Tensor, other: object) -> Tensor:  # type: ignore[override]  # elementwise, as in PyTorch
        return True if other is None else C.compare(self, other, np.not_equal)  # type: ignore[return-value]

    def __lt__(self: Tensor, other: TensorOrNumber) -> Tensor:
        return self._compare(other, np.less)

    def __le__(self: Tensor, other: TensorOrNumber) -> Tensor:
        return self._compare(other, np.less_equal)

    def __gt__(self: Tensor, other: TensorOrNumber) -> Tensor:
        return self._compare(other, np.greater)

    def __ge__(self: Tensor, other: TensorOrNumber) -> Tensor:
        return self._compare(other, np.greater_equal)

    # the named methods raise for an operand of another type (the operators give NotImplemented)
    def eq(self: Tensor, other: TensorOrNumber) -> Tensor:
        return self._compare(operand(other), np.equal)

    def ne(self: Tensor, other: TensorOrNumber) -> Tensor:
        return self._compare(operand(other), np.not_equal)

    def lt(self: Tensor, other: TensorOrNumber) -> Tensor:
        return self._compare(operand(other), np.less)

    def le(self: Tensor, other: TensorOrNumber) -> Tensor:
        return self._compare(operand(other), np.less_equal)

    def gt(self: Tensor, other: TensorOrNumber) -> Tensor:
        return self._compare(operand(other), np.greater)

    def ge(self: Tensor, other: TensorOrNumber) -> Tensor:
        return self._compare(operand(other), np.greater_equal)

    def __and__(self: Tensor, other: TensorOrNumber) -> Tensor:
        return C.bitwise(self, other, np.logical_and, np.bitwise_and)

    def __or__(self: Tensor, other: TensorOrNumber) -> Tensor:
        return C.bitwise(self, other, np.logical_or, np.bitwise_or)

    def __xor__(self: Tensor, other: TensorOrNumber) -> Tensor:
        return C.bitwise(self, other, np.logical_xor, np.bitwise_xor)


    def __invert__(self: Tensor) -> Tensor:
        return C.invert(self)

    def logical_not(self: Tensor) -> Tensor:
        return C.test(self, np.logical_not)

    def logical_and(self: Tensor, other: Tensor) -> Tensor:
        return self._compare(operand(other), np.logical_and)

    def logical_or(self: Tensor, other: Tensor) -> Tensor:
        return self._compare(operand(other), np.logical_or)

    def logical_xor(self: Tensor, other: Tensor) -> Tensor:
        return self._compare(operand(other), np.logical_xor)

    def bitwise_xor(self: Tensor, other: TensorOrNumber) -> Tensor:
        return C.bitwise_function(self, other, "bitwise_xor", operator.xor)

    def bitwise_and(self: Tensor, other: TensorOrNumber) -> Tensor:
        return C.bitwise_function(self, other, "bitwise_and", operator.and_)

    def bitwise_or(self: Tensor, other: TensorOrNumber) -> Tensor:
        return C.bitwise_function(self, other, "bitwise_or", operator.or_)

    def bitwise_not(self: Tensor) -> Tensor:
        return C.bitwise_not(self)

    def is_nonzero(self: Tensor) -> _bool:
        return C.is_nonzero(self)

    def histc(self: Tensor, bins: _int = 100, min: Number = 0, max: Number = 0) -> Tensor:
        """Counts in ``bins`` equal bins over [min, max] (the data's range when min == max)."""
        return C.histc(self, bins, min, max)

    @numpy_names
    def count_nonzero(self: Tensor, dim: Dims | None = None) -> Tensor:
        return C.count_nonzero(self, dim)

    def isnan(self: Tensor) -> Tensor:
        return C.test(self, np.isnan)

    def isinf(self: Tensor) -> Tensor:
        return C.test(self, np.isinf)

    def isfinite(self: Tensor) -> Tensor:
        return C.test(self, np.isfinite)

    def isclose(self: Tensor, other: TensorOrNumber, rtol: _float = 1e-05, atol: _float = 1e-08,
                equal_nan: _bool = False) -> Tensor:
        return C.isclose(self, other, rtol, atol, equal_nan)

    def nonzero(self: Tensor, *, as_tuple: _bool = False) -> Any:
        """Indices of the non-zero elements: one row per element (``as_tuple``: one tensor per dim)."""
        return C.nonzero(self, as_tuple)

    def allclose(self: Tensor, other: TensorOrNumber, rtol: _float = 1e-05, atol: _float = 1e-08,
                 equal_nan: _bool = False) -> _bool:
        return C.allclose(self, other, rtol, atol, equal_nan)

    def equal(self: Tensor, other: Tensor) -> _bool:
        return C.equal(self, other)

    @numpy_names
    def any(self: Tensor, dim: _int | tuple[_int, ...] | None = None, keepdim: _bool = False) -> Tensor:
        return C.any_all(self, np.any, dim, keepdim, "any")

    @numpy_names
    def all(self: Tensor, dim: _int | tuple[_int, ...] | None = None, keepdim: _bool = False) -> Tensor:
        return C.any_all(self, np.all, dim, keepdim, "all")

    @numpy_names
    def argmax(self: Tensor, dim: _int | None = None, keepdim: _bool = False) -> Tensor:
        return C.arg(self, np.argmax, dim, keepdim, "argmax")

    @numpy_names
    def argmin(self: Tensor, dim: _int | None = None, keepdim: _bool = False) -> Tensor:
        return C.arg(self, np.argmin, dim, keepdim, "argmin")

    @numpy_names
    def sort(self: Tensor, dim: _int = -1, descending: _bool = False, *, stable: _bool | None = None) -> Rd.Pair:
        return Rd.sort(self, dim, descending, stable)

    @numpy_names
    def argsort(self: Tensor, dim: _int = -1, descending: _bool = False, *, stable: _bool = False) -> Tensor:
        return self.sort(dim, descending).indices

    @numpy_names
    def topk(self: Tensor, k: _int, dim: _int = -1, largest: _bool = True, sorted: _bool = True) -> Rd.Pair:
        return Rd.topk(self, k, dim, largest)

    @numpy_names
    def unique(self: Tensor, sorted: _bool = True, return_inverse: _bool = False, return_counts: _bool = False,
               dim: _int | None = None) -> Any:
        """The distinct values, sorted (also for ``sorted=False``, as PyTorch does on the CPU)."""
        return Rd.unique(self, return_inverse, return_counts, dim)

    def bincount(self: Tensor, weights: Tensor | None = None, minlength: _int = 0) -> Tensor:
        return C.bincount(self, weights, minlength)

    # -- unary math ---------------------------------------------------------------------------
    def exp(self: Tensor) -> Tensor:
        return E.Exp.apply(self)

    def log(self: Tensor) -> Tensor:
        return E.Log.apply(self)

    def sin(self: Tensor) -> Tensor:
        return E.Sin.apply(self)

    def cos(self: Tensor) -> Tensor:
        return E.Cos.apply(self)

    def tanh(self: Tensor) -> Tensor:
        return E.Tanh.apply(self)

    def sigmoid(self: Tensor) -> Tensor:
        return E.Sigmoid.apply(self)

    def relu(self: Tensor) -> Tensor:
        return E.Relu.apply(self)

    def sqrt(self: Tensor) -> Tensor:
        return E.Sqrt.apply(self)

    def rsqrt(self: Tensor) -> Tensor:
        return E.Rsqrt.apply(self)

    def abs(self: Tensor) -> Tensor:
        return E.Abs.apply(self)

    def sign(self: Tensor) -> Tensor:
        return E.Sign.apply(self)

    def sgn(self: Tensor) -> Tensor:
        return E.Sgn.apply(self)

    def floor(self: Tensor) -> Tensor:
        return E.Floor.apply(self)

    def ceil(self: Tensor) -> Tensor:
        return E.Ceil.apply(self)

    def trunc(self: Tensor) -> Tensor:
        return E.Trunc.apply(self)

    def round(self: Tensor, *, decimals: _int = 0) -> Tensor:
        return A.round(self, decimals)

    def log2(self: Tensor) -> Tensor:
        return E.Log2.apply(self)

    def log10(self: Tensor) -> Tensor:
        return E.Log10.apply(self)

    @numpy_names
    def clamp(self: Tensor, min: TensorOrNumber | None = None, max: TensorOrNumber | None = None) -> Tensor:
        return A.clamp(self, min, max)

    clip = clamp

    def clamp_min(self: Tensor, min: TensorOrNumber) -> Tensor:
        return A.clamp_min(self, min)

    def clamp_max(self: Tensor, max: TensorOrNumber) -> Tensor:
        return A.clamp_max(self, max)

    def maximum(self: Tensor, other: Tensor) -> Tensor:
        return E.Maximum.apply(self, operand(other))

    def minimum(self: Tensor, other: Tensor) -> Tensor:
        return E.Minimum.apply(self, operand(other))

    def log1p(self: Tensor) -> Tensor:
        return E.Log1p.apply(self)

    def expm1(self: Tensor) -> Tensor:
        return E.Expm1.apply(self)

    def tan(self: Tensor) -> Tensor:
        return E.Tan.apply(self)

    def asin(self: Tensor) -> Tensor:
        return E.Asin.apply(self)

    def acos(self: Tensor) -> Tensor:
        return E.Acos.apply(self)

    def atan(self: Tensor) -> Tensor:
        return E.Atan.apply(self)

    arcsin = asin
    arccos = acos
    arctan = atan

    def sinh(self: Tensor) -> Tensor:
        return E.Sinh.apply(self)

    def cosh(self: Tensor) -> Tensor:
        return E.Cosh.apply(self)

    def atan2(self: Tensor, other: Tensor) -> Tensor:
        return E.Atan2.apply(self, _checks.tensor_arg(other, "atan2", "other"))

    arctan2 = atan2

    def erf(self: Tensor) -> Tensor:
        from .ops.nn_ops import Erf  # at call time: nn_ops needs Tensor, whose module imports this one
        return Erf.apply(self)

    def frac(self: Tensor) -> Tensor:
        return E.Frac.apply(self)

    def masked_fill(self: Tensor, mask: Tensor, value: TensorOrNumber) -> Tensor:
        return A.masked_fill(self, mask, value)

    # -- reductions ------------------------------------------------------------------------------
    @numpy_names
    def sum(self: Tensor, dim: Dims | None = None, keepdim: _bool = False, dtype: DType | None = None) -> Tensor:
        return Rd.sum(self, dim, keepdim, dtype)

    @numpy_names
    def mean(self: Tensor, dim: Dims | None = None, keepdim: _bool = False, dtype: DType | None = None) -> Tensor:
        return Rd.mean(self, dim, keepdim, dtype)

    @numpy_names
    def max(self: Tensor, dim: _int | Tensor | None = None, keepdim: _bool = False) -> Any:
        return Rd.max(self, dim, keepdim)

    @numpy_names
    def min(self: Tensor, dim: _int | Tensor | None = None, keepdim: _bool = False) -> Any:
        return Rd.min(self, dim, keepdim)

    @numpy_names
    def amax(self: Tensor, dim: Dims | None = (), keepdim: _bool = False) -> Tensor:
        return Rd.amax_amin(R.Amax, self, dim, keepdim, "amax")

    @numpy_names
    def amin(self: Tensor, dim: Dims | None = (), keepdim: _bool = False) -> Tensor:
        return Rd.amax_amin(R.Amin, self, dim, keepdim, "amin")

    @numpy_names
    def median(self: Tensor, dim: _int | None = None, keepdim: _bool = False) -> Any:
        return Rd.median(self, dim, keepdim)

    @numpy_names
    def mode(self: Tensor, dim: _int = -1, keepdim: _bool = False) -> Rd.Pair:
        return Rd.Pair("mode", *R.ModeDim.apply(self, dim, keepdim))

    @numpy_names
    def cumprod(self: Tensor, dim: _int, *, dtype: DType | None = None) -> Tensor:
        return Rd.cumulative(R.Cumprod, self, dim, dtype, "cumprod")

    @numpy_names
    def cumsum(self: Tensor, dim: _int, *, dtype: DType | None = None) -> Tensor:
        return Rd.cumulative(R.Cumsum, self, dim, dtype, "cumsum")

    @numpy_names
    def logsumexp(self: Tensor, dim: Dims, keepdim: _bool = False) -> Tensor:
        return Rd.logsumexp(self, dim, keepdim)

    @numpy_names
    @_checks.python_args
    def softmax(self: Tensor, dim: _int, dtype: DType | None = None) -> Tensor:
        return Rd.softmax(R.Softmax, self, dim, dtype, "softmax")

    @numpy_names
    def log_softmax(self: Tensor, dim: _int, dtype: DType | None = None) -> Tensor:
        return Rd.softmax(R.LogSoftmax, self, dim, dtype, "log_softmax")

    @numpy_names
    def var(self: Tensor, dim: Dims | None = None, unbiased: _bool | None = None, keepdim: _bool = False, *,
            correction: Number | None = None) -> Tensor:
        return Rd.var_std(R.Var, self, dim, unbiased, keepdim, correction, "var")

    @numpy_names
    def std(self: Tensor, dim: Dims | None = None, unbiased: _bool | None = None, keepdim: _bool = False, *,
            correction: Number | None = None) -> Tensor:
        return Rd.var_std(R.Std, self, dim, unbiased, keepdim, correction, "std")

    @numpy_names
    def prod(self: Tensor, dim: _int | None = None, keepdim: _bool = False) -> Tensor:
        return Rd.prod(self, dim, keepdim)

    @numpy_names
    def norm(self: Tensor, p: Number | str | None = "fro", dim: Dims | None = None, keepdim: _bool = False) -> Tensor:
        return Rd.norm(self, p, dim, keepdim)

    # -- linear algebra ------------------------------------------------------------------------------
    def mm(self: Tensor, other: Tensor) -> Tensor:
        return L.Mm.apply(self, other)

    def mv(self: Tensor, vec: Tensor) -> Tensor:
        return L.Mv.apply(self, vec)

    def dot(self: Tensor, other: Tensor) -> Tensor:
        return L.Dot.apply(self, other)

    def bmm(self: Tensor, other: Tensor) -> Tensor:
        return L.Bmm.apply(self, other)

    def matmul(self: Tensor, other: Tensor) -> Tensor:
        return L.matmul(self, other)

    def outer(self: Tensor, other: Tensor) -> Tensor:
        return A.outer(self, other)

    ger = outer

    def addmm(self: Tensor, mat1: Tensor, mat2: Tensor, *, beta: Number = 1, alpha: Number = 1) -> Tensor:
        return L.Addmm.apply(self, mat1, mat2, beta, alpha)

    # torch.det & co. (minigrad/linalg.py, _api.py) as methods
    def det(self: Tensor) -> Tensor:
        return _api().det(self)

    def inverse(self: Tensor) -> Tensor:
        return _api().inverse(self)

    def svd(self: Tensor, some: _bool = True, compute_uv: _bool = True) -> Any:
        return _api().svd(self, some, compute_uv)

    def slogdet(self: Tensor) -> Any:
        """The sign and the log of the absolute value of the determinant: ``(sign, logabsdet)``."""
        return _api().slogdet(self)

    def logdet(self: Tensor) -> Tensor:
        return _api().logdet(self)

    # -- shape -------------------------------------------------------------------------------------------
    def view(self: Tensor, *shape: ShapeArg) -> Tensor:
        return Sh.view(self, shape)

    def view_as(self: Tensor, other: Tensor) -> Tensor:
        return self.view(other.shape)

    def reshape(self: Tensor, *shape: ShapeArg) -> Tensor:
        return Sh.reshape(self, shape)

    def reshape_as(self: Tensor, other: Tensor) -> Tensor:
        return self.reshape(other.shape)

    def flatten(self: Tensor, start_dim: _int = 0, end_dim: _int = -1) -> Tensor:
        return Sh.flatten(self, start_dim, end_dim)

    @numpy_names
    def unflatten(self: Tensor, dim: _int, sizes: Sequence[_int]) -> Tensor:
        return Sh.unflatten(self, dim, sizes)

    def movedim(self: Tensor, source: Dims, destination: Dims) -> Tensor:
        """Move the dims ``source`` to the positions ``destination`` (ints or sequences); a permute."""
        return Sh.movedim(self, source, destination)

    moveaxis = movedim

    @_checks.python_args
    def transpose(self: Tensor, dim0: _int, dim1: _int) -> Tensor:
        return Sh.transpose(self, dim0, dim1)

    swapaxes = transpose

    def t(self: Tensor) -> Tensor:
        return S.T.apply(self)

    @property
    def T(self: Tensor) -> Tensor:
        return Sh.reversed_dims(self)

    @property
    def mT(self: Tensor) -> Tensor:
        return self.transpose(-2, -1)

    def permute(self: Tensor, *dims: ShapeArg) -> Tensor:
        return Sh.permute(self, dims)

    @numpy_names
    def unsqueeze(self: Tensor, dim: _int) -> Tensor:
        return S.Unsqueeze.apply(self, _checks.int_arg(dim, "unsqueeze", "dim"))

    @numpy_names
    def squeeze(self: Tensor, dim: Dims | None = None) -> Tensor:
        return Sh.squeeze(self, dim)

    def flip(self: Tensor, *dims: ShapeArg) -> Tensor:
        return S.Flip.apply(self, _checks.int_varargs(dims, "flip", "dims"))

    def roll(self: Tensor, shifts: Dims, dims: Dims | None = None) -> Tensor:
        """Rotate by ``shifts`` along ``dims`` (ints or sequences); without dims, the flattened tensor."""
        return Sh.roll(self, shifts, dims)

    def diag(self: Tensor, diagonal: _int = 0) -> Tensor:
        """A 1-D tensor's square diagonal matrix, or a matrix's diagonal (a copy), ``diagonal`` places above."""
        return Sh.diag(self, diagonal)

    def diagonal(self: Tensor, offset: _int = 0, dim1: _int = 0, dim2: _int = 1) -> Tensor:
        return S.Diagonal.apply(self, offset, dim1, dim2)

    def trace(self: Tensor) -> Tensor:
        return S.Trace.apply(self)

    def tril(self: Tensor, diagonal: _int = 0) -> Tensor:
        return S.Tril.apply(self, diagonal)

    def triu(self: Tensor, diagonal: _int = 0) -> Tensor:
        return S.Triu.apply(self, diagonal)

    def expand(self: Tensor, *sizes: ShapeArg) -> Tensor:
        return Sh.expand(self, sizes)

    def expand_as(self: Tensor, other: Tensor) -> Tensor:
        return self.expand(other.shape)

    def broadcast_to(self: Tensor, shape: Sequence[_int]) -> Tensor:
        return self.expand(shape)

    def repeat(self: Tensor, *sizes: ShapeArg) -> Tensor:
        return S.Repeat.apply(self, _checks.int_varargs(sizes, "repeat", "repeats"))

    def repeat_interleave(self: Tensor, repeats: Tensor | _int, dim: _int | None = None, *,
                          output_size: _int | None = None) -> Tensor:
        return Sh.repeat_interleave(self, repeats, dim, output_size)

    @numpy_names
    def split(self: Tensor, split_size: _int | Sequence[_int], dim: _int = 0) -> tuple[Tensor, ...]:
        return Sh.split(self, split_size, dim)

    @numpy_names
    def chunk(self: Tensor, chunks: _int, dim: _int = 0) -> tuple[Tensor, ...]:
        return Sh.chunk(self, chunks, dim)

    @numpy_names
    def unbind(self: Tensor, dim: _int = 0) -> tuple[Tensor, ...]:
        return Sh.unbind(self, dim)

    @numpy_names
    def narrow(self: Tensor, dim: _int, start: _int, length: _int) -> Tensor:
        return Sh.narrow(self, dim, start, length)

    @numpy_names
    def select(self: Tensor, dim: _int, index: _int) -> Tensor:
        return Sh.select(self, dim, index)

    @numpy_names
    def gather(self: Tensor, dim: _int, index: Tensor) -> Tensor:
        return Ix.gather(self, dim, index)

    @numpy_names
    def scatter(self: Tensor, dim: _int, index: Tensor, src: Tensor | None = None, *,
                value: Number | None = None) -> Tensor:
        """A copy with ``src``'s values (or the number ``value``) written at ``index`` along ``dim``."""
        return Ix.scatter(self, dim, index, src, value)

    @numpy_names
    def scatter_(self: Tensor, dim: _int, index: Tensor, src: Tensor | None = None, *,
                 value: Number | None = None) -> Tensor:
        return Ix.scatter_(self, dim, index, src, value)

    @numpy_names
    def scatter_add(self: Tensor, dim: _int, index: Tensor, src: Tensor) -> Tensor:
        """A copy with ``src``'s values added at ``index`` along ``dim`` (repeated indices add up)."""
        return Ix.scatter_add(self, dim, index, src)

    @numpy_names
    def scatter_add_(self: Tensor, dim: _int, index: Tensor, src: Tensor) -> Tensor:
        return P.inplace(self, lambda x, s: x.scatter_add(dim, index, s), (src,))

    @numpy_names
    def index_select(self: Tensor, dim: _int, index: Tensor) -> Tensor:
        return Ix.index_select(self, dim, index)

    def masked_select(self: Tensor, mask: Tensor) -> Tensor:
        return Ix.masked_select(self, mask)

    def contiguous(self: Tensor, memory_format: Any = None) -> Tensor:
        return Cv.contiguous(self, memory_format)

    def clone(self: Tensor, *, memory_format: Any = None) -> Tensor:
        """A copy that stays in the graph (``CloneBackward0``)."""
        return Cv.clone(self, memory_format)

    def to(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        return Cv.to(self, args, kwargs)

    def type(self: Tensor, dtype: DType | type[Any] | str | None = None) -> Any:
        """``x.type()`` is the legacy name (``'torch.FloatTensor'``); ``x.type(t)`` converts to ``t``, which may
        be a dtype, a legacy class (``torch.DoubleTensor``) or its name."""
        return Cv.type_(self, dtype)

    # -- new tensors with this one's dtype ------------------------------------------------------
    def new_tensor(self: Tensor, data: Any, *, dtype: DType | None = None, device: Device = None,
                   requires_grad: _bool = False) -> Tensor:
        return Cv.new_tensor(self, data, dtype, requires_grad)

    def new_zeros(self: Tensor, *size: ShapeArg, dtype: DType | None = None, device: Device = None,
                  requires_grad: _bool = False) -> Tensor:
        return _creation()._factory(np.zeros, size, dtype or self.dtype, requires_grad)     # (its error is not zeros')

    def new_ones(self: Tensor, *size: ShapeArg, dtype: DType | None = None, device: Device = None,
                 requires_grad: _bool = False) -> Tensor:
        return _creation().ones(*size, dtype=dtype or self.dtype, requires_grad=requires_grad)

    def new_empty(self: Tensor, *size: ShapeArg, dtype: DType | None = None, device: Device = None,
                  requires_grad: _bool = False) -> Tensor:
        return _creation().empty(*size, dtype=dtype or self.dtype, requires_grad=requires_grad)

    def new_full(self: Tensor, size: Sequence[_int], fill_value: Number, *, dtype: DType | None = None,
                 device: Device = None, requires_grad: _bool = False) -> Tensor:
        return _creation().full(size, fill_value, dtype=dtype or self.dtype, requires_grad=requires_grad)

    def type_as(self: Tensor, other: Tensor) -> Tensor:
        return self.to(other.dtype)

    def float(self: Tensor) -> Tensor:
        return self.to(_dtype.float32)

    def double(self: Tensor) -> Tensor:
        return self.to(_dtype.float64)

    def half(self: Tensor) -> Tensor:
        return self.to(_dtype.float16)

    def long(self: Tensor) -> Tensor:
        return self.to(_dtype.int64)

    def int(self: Tensor) -> Tensor:
        return self.to(_dtype.int32)

    def bool(self: Tensor) -> Tensor:
        return self.to(_dtype.bool)

    def cpu(self: Tensor) -> Tensor:
        return self

    def cuda(self: Tensor, *args: Any, **kwargs: Any) -> NoReturn:
        raise AssertionError("Torch not compiled with CUDA enabled")

    # -- indexing ----------------------------------------------------------------------------------
    def __getitem__(self: Tensor, key: Index | tuple[Index, ...]) -> Tensor:
        return Ix.getitem(self, key)

    def __setitem__(self: Tensor, key: Index | tuple[Index, ...], value: TensorOrNumber) -> None:
        Ix.setitem(self, key, value)

    # -- in place -------------------------------------------------------------------------------------
    def _inplace(self: Tensor, compute: Callable[..., Any], *others: Any, leaf_message: str = P.LEAF_INPLACE,
                 ufunc: Any = None, fill: bool = False) -> Tensor:
        """Run ``compute(self, *others)`` out of place and write the result into ``self`` (``ops/inplace.py``)."""
        return P.inplace(self, compute, others, leaf_message, ufunc, fill)

    def add_(self: Tensor, other: TensorOrNumber, *, alpha: Number = 1) -> Tensor:
        return W.add_(self, other, alpha)

    def sub_(self: Tensor, other: TensorOrNumber, *, alpha: Number = 1) -> Tensor:
        return W.sub_(self, other, alpha)

    def mul_(self: Tensor, other: TensorOrNumber) -> Tensor:
        return P.inplace(self, E.Mul.apply, (operand(other),), ufunc=np.multiply)

    def div_(self: Tensor, other: TensorOrNumber) -> Tensor:
        return W.div_(self, other)

    def pow_(self: Tensor, exponent: TensorOrNumber) -> Tensor:
        return self._inplace(lambda x, e: x ** e, exponent)

    @numpy_names
    def clamp_(self: Tensor, min: TensorOrNumber | None = None, max: TensorOrNumber | None = None) -> Tensor:
        return W.clamp_(self, min, max)

    clip_ = clamp_

    def relu_(self: Tensor) -> Tensor:
        return self._inplace(E.Relu.apply)

    def sigmoid_(self: Tensor) -> Tensor:
        return self._inplace(E.Sigmoid.apply)

    def tanh_(self: Tensor) -> Tensor:
        return self._inplace(E.Tanh.apply)

    def exp_(self: Tensor) -> Tensor:
        return self._inplace(E.Exp.apply)

    def neg_(self: Tensor) -> Tensor:
        return self._inplace(E.Neg.apply)

    def sqrt_(self: Tensor) -> Tensor:
        return self._inplace(E.Sqrt.apply)

    # the in-place twins of unary ops: the same op, its result written into this tensor (same grad_fn, as in PyTorch)
    def cos_(self: Tensor) -> Tensor:
        """In-place ``cos``: writes the result into this tensor (same gradient as ``cos``)."""
        return self._inplace(lambda x: x.cos())

    def sin_(self: Tensor) -> Tensor:
        """In-place ``sin``: writes the result into this tensor (same gradient as ``sin``)."""
        return self._inplace(lambda x: x.sin())

    def tan_(self: Tensor) -> Tensor:
        """In-place ``tan``: writes the result into this tensor (same gradient as ``tan``)."""
        return self._inplace(lambda x: x.tan())

    def abs_(self: Tensor) -> Tensor:
        """In-place ``abs``: writes the result into this tensor (same gradient as ``abs``)."""
        return self._inplace(lambda x: x.abs())

    def log_(self: Tensor) -> Tensor:
        """In-place ``log``: writes the result into this tensor (same gradient as ``log``)."""
        return self._inplace(lambda x: x.log())

    def log2_(self: Tensor) -> Tensor:
        """In-place ``log2``: writes the result into this tensor (same gradient as ``log2``)."""
        return self._inplace(lambda x: x.log2())

    def log10_(self: Tensor) -> Tensor:
        """In-place ``log10``: writes the result into this tensor (same gradient as ``log10``)."""
        return self._inplace(lambda x: x.log10())

    def log1p_(self: Tensor) -> Tensor:
        """In-place ``log1p``: writes the result into this tensor (same gradient as ``log1p``)."""
        return self._inplace(lambda x: x.log1p())

    def expm1_(self: Tensor) -> Tensor:
        """In-place ``expm1``: writes the result into this tensor (same gradient as ``expm1``)."""
        return self._inplace(lambda x: x.expm1())

    def floor_(self: Tensor) -> Tensor:
        """In-place ``floor``: writes the result into this tensor (same gradient as ``floor``)."""
        return self._inplace(lambda x: x.floor())

    def ceil_(self: Tensor) -> Tensor:
        """In-place ``ceil``: writes the result into this tensor (same gradient as ``ceil``)."""
        return self._inplace(lambda x: x.ceil())

    def trunc_(self: Tensor) -> Tensor:
        """In-place ``trunc``: writes the result into this tensor (same gradient as ``trunc``)."""
        return self._inplace(lambda x: x.trunc())

    def frac_(self: Tensor) -> Tensor:
        """In-place ``frac``: writes the result into this tensor (same gradient as ``frac``)."""
        return self._inplace(lambda x: x.frac())

    def reciprocal_(self: Tensor) -> Tensor:
        """In-place ``reciprocal``: writes the result into this tensor (same gradient as ``reciprocal``)."""
        return self._inplace(lambda x: x.reciprocal())

    def square_(self: Tensor) -> Tensor:
        """In-place ``square``: writes the result into this tensor (same gradient as ``square``)."""
        return self._inplace(lambda x: x.square())

    def erf_(self: Tensor) -> Tensor:
        """In-place ``erf``: writes the result into this tensor (same gradient as ``erf``)."""
        return self._inplace(lambda x: x.erf())

    def sign_(self: Tensor) -> Tensor:
        """In-place ``sign``: writes the result into this tensor (same gradient as ``sign``)."""
        return self._inplace(lambda x: x.sign())

    def sgn_(self: Tensor) -> Tensor:
        """In-place ``sgn``: writes the result into this tensor (same gradient as ``sgn``)."""
        return self._inplace(lambda x: x.sgn())

    def rsqrt_(self: Tensor) -> Tensor:
        """In-place ``rsqrt``: writes the result into this tensor (same gradient as ``rsqrt``)."""
        return self._inplace(lambda x: x.rsqrt())

    def sinh_(self: Tensor) -> Tensor:
        """In-place ``sinh``: writes the result into this tensor (same gradient as ``sinh``)."""
        return self._inplace(lambda x: x.sinh())

    def cosh_(self: Tensor) -> Tensor:
        """In-place ``cosh``: writes the result into this tensor (same gradient as ``cosh``)."""
        return self._inplace(lambda x: x.cosh())

    def asin_(self: Tensor) -> Tensor:
        """In-place ``asin``: writes the result into this tensor (same gradient as ``asin``)."""
        return self._inplace(lambda x: x.asin())

    def acos_(self: Tensor) -> Tensor:
        """In-place ``acos``: writes the result into this tensor (same gradient as ``acos``)."""
        return self._inplace(lambda x: x.acos())

    def atan_(self: Tensor) -> Tensor:
        """In-place ``atan``: writes the result into this tensor (same gradient as ``atan``)."""
        return self._inplace(lambda x: x.atan())

    def round_(self: Tensor, *, decimals: _int = 0) -> Tensor:
        """In-place ``round``: writes the result into this tensor (same gradient as ``round``)."""
        return self._inplace(lambda x: x.round(decimals=decimals))

    def remainder_(self: Tensor, other: TensorOrNumber) -> Tensor:
        """In-place ``remainder``: writes the result into this tensor (same gradient as ``remainder``)."""
        return self._inplace(lambda x: x.remainder(other))

    def atan2_(self: Tensor, other: Tensor) -> Tensor:
        """In-place ``atan2``: writes the result into this tensor (same gradient as ``atan2``)."""
        return self._inplace(lambda x, o: x.atan2(o), other)     # (other an operand: it may require grad)

    def clamp_min_(self: Tensor, min: TensorOrNumber) -> Tensor:
        """In-place ``clamp_min``: writes the result into this tensor (same gradient as ``clamp_min``)."""
        return W.clamp_bound_(self, "clamp_min", min)

    def clamp_max_(self: Tensor, max: TensorOrNumber) -> Tensor:
        """In-place ``clamp_max``: writes the result into this tensor (same gradient as ``clamp_max``)."""
        return W.clamp_bound_(self, "clamp_max", max)

    def addcmul_(self: Tensor, t1: Tensor, t2: Tensor, *, value: Number = 1) -> Tensor:
        return self._inplace(lambda x, a, b: P.Addcmul.apply(x, a, b, value), operand(t1), operand(t2))

    def addcdiv_(self: Tensor, t1: Tensor, t2: Tensor, *, value: Number = 1) -> Tensor:
        return self._inplace(lambda x, a, b: P.Addcdiv.apply(x, a, b, value), operand(t1), operand(t2))

    def lerp_(self: Tensor, end: Tensor, weight: TensorOrNumber) -> Tensor:
        return W.lerp_(self, end, weight)

    def masked_fill_(self: Tensor, mask: Tensor, value: TensorOrNumber) -> Tensor:
        return W.masked_fill_(self, mask, value)

    def zero_(self: Tensor) -> Tensor:
        return self._inplace(P.Zero.apply, fill=True)

    def fill_(self: Tensor, value: TensorOrNumber) -> Tensor:
        return W.fill_(self, value)

    def copy_(self: Tensor, src: Tensor, non_blocking: _bool = False) -> Tensor:
        return W.copy_(self, src)

    def __iadd__(self: Tensor, other: TensorOrNumber) -> Tensor:
        return self.add_(other)

    def __isub__(self: Tensor, other: TensorOrNumber) -> Tensor:
        return self.sub_(other)

    def __imul__(self: Tensor, other: TensorOrNumber) -> Tensor:
        return self.mul_(other)

    def __itruediv__(self: Tensor, other: TensorOrNumber) -> Tensor:
        return self.div_(other)

    # random in-place fills (used by nn.init); data only, version bumped.  PyTorch's draws: see _creation.
    def uniform_(self: Tensor, a: _float = 0.0, b: _float = 1.0, generator: Generator | None = None) -> Tensor:
        return _creation()._random_fill(self, "uniform", generator, a, b)

    def normal_(self: Tensor, mean: _float = 0.0, std: _float = 1.0, generator: Generator | None = None) -> Tensor:
        return _creation()._random_fill(self, "normal", generator, mean, std)

    def bernoulli_(self: Tensor, p: TensorOrNumber = 0.5, generator: Generator | None = None) -> Tensor:
        return _creation()._random_fill(self, "bernoulli", generator, p)

    def exponential_(self: Tensor, lambd: _float = 1.0, generator: Generator | None = None) -> Tensor:
        return _creation()._random_fill(self, "exponential", generator, lambd)

    def random_(self: Tensor, *args: _int, generator: Generator | None = None, **kwargs: Any) -> Tensor:
        return _creation()._random_fill(self, "random", generator, *args, **kwargs)

    def cauchy_(self: Tensor, median: _float = 0.0, sigma: _float = 1.0, generator: Generator | None = None) -> Tensor:
        return _creation()._random_fill(self, "cauchy", generator, median, sigma)

    def log_normal_(self: Tensor, mean: _float = 1.0, std: _float = 2.0, generator: Generator | None = None) -> Tensor:
        return _creation()._random_fill(self, "log_normal", generator, mean, std)

    def geometric_(self: Tensor, p: _float, generator: Generator | None = None) -> Tensor:
        return _creation()._random_fill(self, "geometric", generator, p)

    def bernoulli(self: Tensor, p: _float | None = None, generator: Generator | None = None) -> Tensor:
        return _creation().bernoulli(self, p, generator=generator)

    def multinomial(self: Tensor, num_samples: _int, replacement: _bool = False,
                    generator: Generator | None = None) -> Tensor:
        return _creation().multinomial(self, num_samples, replacement, generator=generator)


def _creation():  # -> the module minigrad._creation (inferred, so that go-to-definition follows it)
    """The factories, for ``new_ones``, ``uniform_``...: ``_creation`` is imported at the first call."""
    from . import _creation  # at call time: _creation needs Tensor, whose module imports this one
    return _creation


def _api():  # -> the module minigrad._api (inferred, so that go-to-definition follows it)
    """``torch.det`` & co., for the methods ``det``, ``svd``...: ``_api`` is imported at the first call."""
    from . import _api  # at call time: _api (torch.det...) is a higher layer
    return _api
