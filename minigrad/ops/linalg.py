"""Linear algebra: mm, mv, dot, bmm, addmm, matmul (made of them for batches), einsum.  They do not promote dtypes."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _checks, _dtype
from .._dtype import cpp_type_name
from ..autograd.function import Function
from ._rules import rule
from ._util import broadcast_shape
from .shape import SqueezeMatmul, UnsafeView

if TYPE_CHECKING:
    from .._tensor import Tensor
    from ..autograd.function import Grads
    from ._rules import Rule


def _dims(shape):
    return "x".join(str(s) for s in shape)


# PyTorch's message for operands of different dtypes, per op (matmul does not promote).
_DTYPE_MESSAGES = {
    "mm": "expected m1 and m2 to have the same dtype, but got: {x.c} != {y.c}",
    "addmm": "mat1 and mat2 must have the same dtype, but got {x.legacy} and {y.legacy}",
    "addmm_bias": "self and mat2 must have the same dtype, but got {x.legacy} and {y.legacy}",
    "mv": "addmv input tensors must have the same dtype, but got {y.legacy}, {x.legacy}, and {y.legacy}",
    "dot": "dot : expected both vectors to have same dtype, but found {x.legacy} and {y.legacy}",
    "bmm": "expected scalar type {x.legacy} but found {y.legacy}",
}


class _Names:
    def __init__(self, dtype: Any) -> None:
        self.legacy = dtype._legacy                                   # 'Double'
        self.c = cpp_type_name(dtype)                                 # 'double'


def _same_dtype(x, y, op):
    if x.dtype is not y.dtype:
        raise RuntimeError(_DTYPE_MESSAGES[op].format(x=_Names(x.dtype), y=_Names(y.dtype)))


def _strides(a):
    """An array's strides in elements, as PyTorch's ``_saved_<name>_sym_strides`` show them."""
    return tuple(s // a.itemsize for s in a.strides)


def _column_major(sizes, strides):
    """PyTorch's test in ``mm_mat1_backward`` / ``mm_mat2_backward``: a column-major matrix, such as ``weight.t()``
    in ``nn.Linear`` (and any 1 × 1 matrix with stride 1 -- the test is on the strides alone)."""
    return len(sizes) == 2 and strides[0] == 1 and strides[1] == sizes[0]


def _mat1_grad(xp, g, mat2, mat1_sym_sizes, mat1_sym_strides):
    """``g @ mat2ᵀ`` laid out like mat1, as PyTorch's ``mm_mat1_backward``: for a column-major mat1 it is
    ``(mat2 @ gᵀ)ᵀ`` (TBackward0 over MmBackward0 under create_graph)."""
    if _column_major(mat1_sym_sizes, mat1_sym_strides):
        return xp.t(xp.mm(mat2, xp.t(g)))
    return xp.mm(g, xp.t(mat2))


def _mat2_grad(xp, g, mat1, mat2_sym_sizes, mat2_sym_strides):
    """``mat1ᵀ @ g`` laid out like mat2, as PyTorch's ``mm_mat2_backward`` does: for ``weight.t()`` it is the
    transpose of a row-major product, so the weight's own gradient is row-major (no transposing copy later)."""
    if _column_major(mat2_sym_sizes, mat2_sym_strides):
        return xp.t(xp.mm(xp.t(g), mat1))
    return xp.mm(xp.t(mat1), g)


def _product(a, b):
    """``a @ b`` for matrices. With an inner size of 1 and both outer sizes above 1, PyTorch's gemm is the outer
    product itself (0 · −0.3 is −0.), where numpy's sums from +0 (+0.); a row or a column goes through gemv, from
    +0, in both."""
    if a.shape[1] == 1 and a.shape[0] > 1 and b.shape[1] > 1:
        return a * b
    return a @ b


# -- the derivative table: matrix products -------------------------------------------------------------

def _mm(self, mat2):
    a, b = self._data, mat2._data
    if a.ndim != 2 or b.ndim != 2:
        raise RuntimeError("self must be a matrix" if a.ndim != 2 else "mat2 must be a matrix")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError("mat1 and mat2 shapes cannot be multiplied (%s and %s)" % (_dims(a.shape), _dims(b.shape)))
    if a.dtype != b.dtype:
        _same_dtype(self, mat2, "mm")
    return _product(a, b)


# The products are quiet rules (the default): numpy's matmul warns "invalid value encountered in matmul"
# for inf * 0 in a product, where PyTorch just gives nan.
_MAT2 = {"mat2_sym_sizes": lambda mat2: mat2.shape, "mat2_sym_strides": lambda mat2: _strides(mat2)}

Mm: type[Rule] = rule("MmBackward0", _mm, arrays=False,
          values={"self_sym_sizes": lambda self: self.shape, "self_sym_strides": lambda self: _strides(self), **_MAT2},
          self=("g @ mat2ᵀ", lambda xp, g, mat2, self_sym_sizes, self_sym_strides:
                _mat1_grad(xp, g, mat2, self_sym_sizes, self_sym_strides)),
          mat2=("selfᵀ @ g", lambda xp, g, self, mat2_sym_sizes, mat2_sym_strides:
                _mat2_grad(xp, g, self, mat2_sym_sizes, mat2_sym_strides)),
          jvp="product_rule",
          words="Matrix product: each factor gets g multiplied by the other, transposed.")


def _mv(self, vec):
    if self.ndim != 2 or vec.ndim != 1:
        raise RuntimeError("vector + matrix @ vector expected, got 1, %d, %d" % (self.ndim, vec.ndim))
    if self.shape[1] != vec.shape[0]:
        raise RuntimeError("size mismatch, got input (%d), mat (%s), vec (%d)"
                           % (self.shape[0], _dims(self.shape), vec.shape[0]))
    _same_dtype(self, vec, "mv")
    return self._data @ vec._data


Mv: type[Rule] = rule("MvBackward0", _mv, arrays=False,
          self=("outer(g, vec)", lambda xp, g, vec: xp.reshape(g, (-1, 1)) * vec),      # ger: g.reshape(-1, 1) * vec
          vec=("selfᵀ @ g", lambda xp, g, self: xp.mv(xp.t(self), g)),
          jvp="product_rule",
          words="Matrix times vector: the matrix gets the outer product g vecᵀ, the vector selfᵀ g.")


def _dot(self, tensor):
    if self.ndim != 1 or tensor.ndim != 1:
        raise RuntimeError("1D tensors expected, but got %dD and %dD tensors" % (self.ndim, tensor.ndim))
    if self.shape[0] != tensor.shape[0]:
        raise RuntimeError("inconsistent tensor size, expected tensor [%d] and src [%d] to have the same number "
                           "of elements, but got %d and %d elements respectively"
                           % (self.shape[0], tensor.shape[0], self.shape[0], tensor.shape[0]))
    _same_dtype(self, tensor, "dot")
    return np.asarray(self._data @ tensor._data)


Dot: type[Rule] = rule("DotBackward0", _dot, arrays=False,
           self=("g · tensor", lambda xp, g, tensor: g * tensor),
           tensor=("g · self", lambda xp, g, self: g * self),
           jvp="product_rule",
           words="Dot product: each vector gets g times the other.")


def _bmm(self, mat2):
    if self.ndim != 3 or mat2.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor" if self.ndim != 3 else "batch2 must be a 3D tensor")
    if self.shape[0] != mat2.shape[0] or self.shape[2] != mat2.shape[1]:
        raise RuntimeError("Expected size for first two dimensions of batch2 tensor to be: [%d, %d] but got: "
                           "[%d, %d]." % (self.shape[0], self.shape[2], mat2.shape[0], mat2.shape[1]))
    if self._data.dtype != mat2._data.dtype:
        if self._data.size and mat2._data.size:
            _same_dtype(self, mat2, "bmm")
        # an empty operand: PyTorch skips the dtype check, and the (zero or empty) result has mat2's dtype
        return np.matmul(self._data, mat2._data).astype(mat2._data.dtype)
    return np.matmul(self._data, mat2._data)


Bmm: type[Rule] = rule("BmmBackward0", _bmm, arrays=False,
           self=("g @ mat2ᵀ", lambda xp, g, mat2: xp.bmm(g, xp.transpose(mat2, 1, 2))),
           mat2=("selfᵀ @ g", lambda xp, g, self: xp.bmm(xp.transpose(self, 1, 2), g)),
           jvp="product_rule",
           words="Batched matrix product: per batch, as mm.")


def _addmm(self, mat1, mat2, beta=1, alpha=1):
    a, b = mat1._data, mat2._data
    if self._data.dtype != b.dtype or a.dtype != b.dtype:     # PyTorch's addmm meta: dtypes before shapes
        _same_dtype(self, mat2, "addmm_bias")
        _same_dtype(mat1, mat2, "addmm")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError("mat1 and mat2 shapes cannot be multiplied (%s and %s)" % (_dims(a.shape), _dims(b.shape)))
    if self._data.shape != (a.shape[0], b.shape[1]) and self._data.shape != (b.shape[1],):
        _checks.expandable(self._data.shape, (a.shape[0], b.shape[1]))
    out = _product(a, b)
    if alpha != 1:
        out = out * alpha
    if beta == 0:                                  # PyTorch: input is ignored, nan and inf in it too
        return out
    term = self._data if beta == 1 else beta * self._data
    if term.dtype == out.dtype and (term.shape == out.shape[1:] or term.shape == out.shape):
        out += term                                # in place: the product is a fresh array
        return out
    return out + term


def _scaled(xp, g, alpha):
    """PyTorch's maybe_multiply: ``g * alpha`` (mul.Scalar, MulBackward1) unless alpha is 1."""
    return g if alpha == 1 else xp.mul_scalar(g, alpha)


Addmm: type[Rule] = rule("AddmmBackward0", _addmm, arrays=False,
             values={"mat1_sym_sizes": lambda mat1: mat1.shape, "mat1_sym_strides": lambda mat1: _strides(mat1),
                     **_MAT2},
             self=("beta · g", lambda xp, g, beta: _scaled(xp, g, beta)),
             mat1=("alpha · g @ mat2ᵀ", lambda xp, g, mat2, alpha, mat1_sym_sizes, mat1_sym_strides:
                   _scaled(xp, _mat1_grad(xp, g, mat2, mat1_sym_sizes, mat1_sym_strides), alpha)),
             mat2=("alpha · mat1ᵀ @ g", lambda xp, g, mat1, alpha, mat2_sym_sizes, mat2_sym_strides:
                   _scaled(xp, _mat2_grad(xp, g, mat1, mat2_sym_sizes, mat2_sym_strides), alpha)),
             jvp=lambda xp, self_t, mat1_t, mat2_t, mat1, mat2, beta, alpha:
                 _scaled(xp, self_t, beta) + _scaled(xp, xp.mm(mat1_t, mat2), alpha)
                 + _scaled(xp, xp.mm(mat1, mat2_t), alpha),
             words="beta · self + alpha · mat1 @ mat2 (nn.Linear): the bias gets beta · g, the factors as in mm.")


def matmul(x: Any, y: Any) -> Any:
    """Dispatch like ``torch.matmul``: dot, mv, mm, 1-D @ 2-D, or the batched product."""
    if x._data.ndim == 2 and y._data.ndim == 2:       # the common case first
        return Mm.apply(x, y)
    if x.ndim == 0 or y.ndim == 0:
        raise RuntimeError("both arguments to matmul need to be at least 1D, but they are %dD and %dD"
                           % (x.ndim, y.ndim))
    if x.ndim == 1 and y.ndim == 1:
        return Dot.apply(x, y)
    if x.ndim == 2 and y.ndim == 1:
        return Mv.apply(x, y)
    if x.ndim == 1 and y.ndim == 2:
        if x.shape[0] != y.shape[0]:
            raise RuntimeError("mat1 and mat2 shapes cannot be multiplied (1x%d and %s)" % (x.shape[0], _dims(y.shape)))
        out = SqueezeMatmul.apply(Mm.apply(x.unsqueeze(0), y), 0)
        out._version_counter[0] += 1        # PyTorch's squeeze_ is in place: the result is at version 1
        return out
    if x.ndim == 2 and y.ndim == 2:
        return Mm.apply(x, y)
    if _should_fold(x, y):
        return _folded_matmul(x, y)
    if x.ndim == 3 and y.ndim == 3 and x.shape[0] != y.shape[0]:
        if x.shape[0] == 1 and x.requires_grad:     # PyTorch drops a batch of one that needs a gradient
            return matmul(x.squeeze(0), y)
        if y.shape[0] == 1 and y.requires_grad:
            return matmul(x, y.squeeze(0))
    return _batched_matmul(x, y)


# With batch dimensions, matmul is made of other ops, recorded as PyTorch records them (so the
# graph has the same nodes): the batches are folded into the rows of one mm/mv where that needs
# no copy, or else both operands are expanded to the common batch shape and multiplied with bmm.

def _should_fold(x, y):
    """Fold when one operand has batch dims and the other is 1-D or 2-D (PyTorch's ``should_fold``)."""
    big, small = (x, y) if x.ndim >= y.ndim else (y, x)
    if not (big.ndim >= 3 and small.ndim <= 2):
        return False
    if small.requires_grad:
        return True                  # a batched grad of `small` would be huge: fold even if it copies
    if x.ndim == 2:
        return False
    rows = np.swapaxes(big._data, -1, -2) if big is y else big._data     # must fold without a copy
    shape, strides = rows.shape, rows.strides
    return rows.size == 0 or all(strides[i] == strides[i + 1] * shape[i + 1] for i in range(rows.ndim - 2))


def _folded_matmul(x, y):
    """``(..., n, k) @ (k, m)`` as one ``(… · n, k) @ (k, m)`` mm (or mv), then the batch shape restored."""
    transpose = y.ndim > x.ndim                # x @ Y  computed as  (Yᵀ @ xᵀ)ᵀ
    big = y.mT if transpose else x
    small = (x.t() if x.ndim == 2 else x) if transpose else y
    rows = big.shape[:-1]
    folded = big.reshape(math.prod(rows), big.shape[-1])
    if small.ndim == 1:
        return UnsafeView.apply(Mv.apply(folded, small), rows)
    out = UnsafeView.apply(Mm.apply(folded, small), (*rows, small.shape[1]))
    return out.mT.contiguous() if transpose else out


def _batched_matmul(x, y):
    """Expand both operands to the broadcast batch shape, flatten the batches and multiply with bmm."""

    n, k = (x.shape[-2] if x.ndim > 1 else 1), x.shape[-1]
    k2, m = (y.shape[-2], y.shape[-1]) if y.ndim > 1 else (y.shape[0], 1)
    batch = broadcast_shape(x.shape[:-2], y.shape[:-2] if y.ndim > 1 else ())
    count = math.prod(batch)
    xb = x.expand((*batch, n, k)).reshape(count, n, k)
    if y.ndim == 1:
        out = xb.bmm(y.expand((*batch, k2)).reshape(count, k2).unsqueeze(2)).squeeze(-1)
    else:
        out = xb.bmm(y.expand((*batch, k2, m)).reshape(count, k2, m))
    return UnsafeView.apply(out, batch + ((n,) if x.ndim > 1 else ()) + ((m,) if y.ndim > 1 else ()))


# -- einsum ---------------------------------------------------------------------------------------------

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _sublist_equation(args):
    """``einsum(a, [0, 1], b, [1, 2], [0, 2])`` as ``("AB,BC->AC", [a, b])`` (labels 0..51 are A..Z, a..z)."""
    def letters(sublist):
        out = []
        for label in sublist:
            if label is Ellipsis:
                out.append("...")
            elif isinstance(label, int) and 0 <= label < 52:
                out.append(_LETTERS[label])
            else:
                raise RuntimeError("einsum(): expected subscript to be within the range [0, 52), but got %s" % label)
        return "".join(out)
    operands, terms = list(args[0::2]), [letters(s) for s in args[1::2]]
    output = None
    if len(args) % 2:                                   # a trailing output sublist
        output, operands = letters(args[-1]), operands[:-1]
    return ",".join(terms[:len(operands)]) + ("" if output is None else "->" + output), operands


def parse_einsum(equation: Any, shapes: Any) -> Any:
    """``equation`` made explicit for these operand shapes: every dim a letter, ``...`` spelled out, ``->`` given.

    ``"...ij,jk"`` with shapes (5, 2, 3), (3, 4) becomes ``"Aij,jk->Aik"``.  PyTorch's errors for a bad equation.
    """
    equation = equation.replace(" ", "")
    inputs, arrow, output = equation.partition("->")
    terms = inputs.split(",")
    if len(terms) > len(shapes):
        raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
    if len(terms) < len(shapes):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    free = iter(c for c in _LETTERS if c not in equation)
    n_ellipsis = max((len(shape) - len(term.replace("...", "")) for term, shape in zip(terms, shapes)
                      if "..." in term), default=0)
    ellipsis = "".join(next(free) for _ in range(n_ellipsis))
    explicit, sizes = [], {}
    for i, (term, shape) in enumerate(zip(terms, shapes)):
        labels = term.replace("...", "")
        if "..." in term:
            term = term.replace("...", ellipsis[n_ellipsis - (len(shape) - len(labels)):])
        elif len(labels) != len(shape):
            raise RuntimeError("einsum(): the number of subscripts in the equation (%d) does not match the number of "
                               "dimensions (%d) for operand %d and no ellipsis was given"
                               % (len(labels), len(shape), i))
        for label, size in zip(term, shape):
            seen = sizes.setdefault(label, size)
            if size != seen and 1 not in (size, seen):
                raise RuntimeError("einsum(): subscript %s has size %d for operand %d which does not broadcast with "
                                   "previously seen size %d" % (label, size, i, seen))
            sizes[label] = size if seen == 1 else seen
        explicit.append(term)
    if arrow:
        output = output.replace("...", ellipsis)
        for i, label in enumerate(output):
            if label not in sizes:
                raise RuntimeError("einsum(): output subscript %s does not appear in the equation for any input "
                                   "operand" % label)
            if label in output[:i]:
                raise RuntimeError("einsum(): output subscript %s appears more than once in the output" % label)
    else:                                               # implicit: the broadcast dims, then labels used once, sorted
        counts = "".join(explicit)
        output = ellipsis + "".join(sorted(c for c in set(inputs) if c.isalpha() and counts.count(c) == 1))
    return ",".join(explicit) + "->" + output


def einsum(*args: Any) -> Any:
    """``torch.einsum(equation, *operands)`` (or operands in a list, or the sublist form), differentiable."""
    from .._tensor import Tensor  # at call time: ops/ is imported while _tensor is loading

    if args and isinstance(args[0], Tensor):
        equation, operands = _sublist_equation(args)
    else:
        equation, operands = args[0], args[1:]
        if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
            operands = tuple(operands[0])
    for i, t in enumerate(operands):
        if not isinstance(t, Tensor):
            raise TypeError("expected Tensor as element %d in argument 1, but got %s" % (i, type(t).__name__))
    explicit = parse_einsum(equation, [t.shape for t in operands])
    terms, output = explicit.split("->")
    terms = terms.split(",")
    summed = [c for c in dict.fromkeys("".join(terms)) if c not in output]
    mixed = [t for t in operands if t.dtype is not operands[0].dtype]
    if mixed and any(t.numel() == 0 for t in operands):
        # an empty operand: PyTorch's bmm skips its dtype check, and the result has the last operand's dtype
        operands = [t.to(operands[-1].dtype) for t in operands]
    elif mixed:
        # a label summed over in two operands (size > 1 in both): PyTorch contracts with bmm, which does not
        # promote; a label of size > 1 in one operand only is summed out of it first, then they are multiplied
        big = [sum(1 for term, t in zip(terms, operands) for c2, n in zip(term, t.shape) if c2 == c and n > 1)
               for c in summed]
        if any(k > 1 for k in big):
            raise RuntimeError("expected scalar type %s but found %s"
                               % (operands[0].dtype._legacy, mixed[0].dtype._legacy))
        dtype = _dtype.result_type(*operands)           # no contraction, only products: PyTorch's mul promotes
        operands = [t.to(dtype) for t in operands]
    if len(operands) == 1 and len(set(terms[0])) == len(terms[0]):
        # One operand, no diagonal: PyTorch permutes it (output labels first, then the summed ones) and sums
        # the trailing dims -- a view of the operand (PermuteBackward0) when nothing is summed, else SumBackward1.
        (term,), (t,) = terms, operands
        out = t.permute([term.index(c) for c in output + "".join(summed)])
        return out.sum(tuple(range(len(output), len(term)))) if summed else out
    out = Einsum.apply(explicit, *operands)
    if summed and len(operands) > 1:
        # A contraction: PyTorch's result is a view (ViewBackward0) of the bmm it computed, so an in-place op
        # on it rewrites a base (CopySlices) and the result becomes AsStridedBackward0, as here.
        out = out.view(out.shape)
    return out


class Einsum(Function):
    """Sum of products over an explicit equation (``"ij,jk->ik"``, see ``parse_einsum``).

    Backward: for each operand, the einsum of grad with the other operands into its subscripts.
    """

    node_name: str = "EinsumBackward0"      # not a PyTorch name: PyTorch records the permute/bmm/sum... it is made of
    jvp = "product_rule"

    @staticmethod
    def forward(ctx: Any, equation: Any, *operands: Any) -> Any:
        arrays = [t._data for t in operands]
        ctx.equation, ctx.shapes = equation, tuple(t.shape for t in operands)
        needs = ctx.needs_input_grad[1:]    # an operand is kept only for another one's gradient (PyTorch's bmm
        ctx.save_for_backward(*(t if any(n for j, n in enumerate(needs) if j != i) else None   # saves mat2 only
                                for i, t in enumerate(operands)))                           # for self's grad)
        out = np.asarray(np.einsum(equation, *arrays, optimize=len(arrays) > 1))
        if any(np.may_share_memory(out, a) for a in arrays):
            return out.copy()                                                  # never a view of an operand
        return out if out.flags.c_contiguous else np.ascontiguousarray(out)   # contiguous, as PyTorch's

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        operands = ctx.saved_tensors
        inputs, output = ctx.equation.split("->")
        terms = inputs.split(",")
        return (None, *(_einsum_grad(grad, output, terms, operands, ctx.shapes, i) if ctx.needs_input_grad[i + 1]
                        else None for i in range(len(operands))))


def _einsum_grad(grad, output, terms, operands, shapes, i):
    """The gradient for operand ``i``: one einsum of grad and the other operands into operand i's subscripts.

    A label only operand i has is broadcast back with a vector of ones; a repeated label (a diagonal,
    ``"ii->"``) gets a fresh label tied to it by an identity matrix, so the result's subscripts are distinct.
    """
    from .._tensor import Tensor  # at call time: ops/ is imported while _tensor is loading

    dtype = grad._data.dtype
    subs = [output] + [t for j, t in enumerate(terms) if j != i]
    tensors = [grad] + [t for j, t in enumerate(operands) if j != i]
    known = set("".join(subs))
    free = iter(c for c in _LETTERS if c not in known and c not in terms[i])
    elsewhere = {}                  # a label's size in grad and the other operands, where it is not 1
    for term, shape in zip(subs, [t.shape for t in tensors]):
        for label, size in zip(term, shape):
            if size != 1:
                elsewhere[label] = size
    target = []
    for label, size in zip(terms[i], shapes[i]):
        if label in known and label not in target and size != elsewhere.get(label, 1):
            if size == 1:           # broadcast in the forward: summed over here, kept as a dim of 1
                fresh = next(free)
                subs.append(fresh)
                tensors.append(Tensor._make(np.ones(1, dtype=dtype)))
                label = fresh
            else:                   # the others' dim of 1 was broadcast to this one: the gradient has its size
                subs.append(label)
                tensors.append(Tensor._make(np.ones(size, dtype=dtype)))
        elif label in target:
            fresh = next(free)
            subs.append(label + fresh)
            tensors.append(Tensor._make(np.eye(size, dtype=dtype)))
            label = fresh
        elif label not in known:
            subs.append(label)
            tensors.append(Tensor._make(np.ones(size, dtype=dtype)))
            known.add(label)
        target.append(label)
    out = Einsum.apply(",".join(subs) + "->" + "".join(target), *tensors)
    return out + 0.0 if len(target) > len(set(terms[i])) else out     # off the diagonal: 0., not grad * 0. = -0.
