"""The derivative table's rows for the ops that stay classes (views, in-place, indexing, reductions...).

Their backward needs real logic (placing a gradient into slots, undoing a permutation, im2col),
so it lives in the class; the formula — what a learner reads and what viz shows — is registered
here, in the same table as the rules (:func:`minigrad.autograd.derivative_formula`).  One row:
``row(Class, inputs, grads, words)``; the losses' and conv's rows are at the end of ``nn_ops.py`` and
``conv.py``; ``saved`` is read from the class (``saved_names`` +
``saved_attrs``: what ``node._saved_<name>`` returns).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..autograd.formulas import register_formula
from . import elementwise, index, inplace, linalg, reduce, shape

__all__ = ["row"]


def row(cls: Any, inputs: Any, grads: Any, words: Any) -> Any:
    """Register the formula of ``cls``'s node (``saved`` read from the class)."""
    saved = tuple(getattr(cls, "saved_names", ())) + tuple(getattr(cls, "saved_attrs", ()))
    cls.formula = register_formula(cls._node_cls.__name__, inputs, grads, saved, words)


_row = row
_SELF = ("self",)
E, S, IX, IP, L, R = elementwise, shape, index, inplace, linalg, reduce

# -- elementwise classes -------------------------------------------------------------------------------
_row(E.CopyGrad, _SELF, ("g",), "The copy that becomes .grad under create_graph: the gradient passes through.")
_row(E.Normal, ("mean",), ("0",), "Random samples: PyTorch gives the mean a zero gradient.")
_row(E.NormalStd, ("std",), ("0",), "Random samples: PyTorch gives the std a zero gradient.")
_row(E.NormalBoth, ("mean", "std"), ("0", "0"), "Random samples: PyTorch gives mean and std zero gradients.")

# -- shape (views and copies) --------------------------------------------------------------------------
_RESHAPE = "Same numbers, new shape: the gradient is reshaped back to the input's shape."
_row(S.View, _SELF, ("g.view(self_sym_sizes)",), _RESHAPE)
_row(S.ReshapeAlias, _SELF, ("g.reshape(self_sym_sizes)",), _RESHAPE)
_row(S.Alias, _SELF, ("g",), "A new view of the same values (x[...]): the gradient passes through unchanged.")
_row(S.UnsafeView, _SELF, ("g.reshape(self_sym_sizes)",), _RESHAPE)
_row(S.Squeeze, _SELF, ("g.unsqueeze(d) for each size-1 dim d",), "Removing size-1 dims: the gradient gets them back.")
_row(S.SqueezeDim, _SELF, ("g.unsqueeze(dim)",), "Removing a size-1 dim: the gradient gets it back.")
_row(S.SqueezeDims, _SELF, ("g.unsqueeze(d) for each size-1 d of dim",),
     "Removing size-1 dims: the gradient gets them back.")
_row(S.SqueezeMatmul, _SELF, ("g.unsqueeze(dim)",), "The squeeze after a vector @ matrix product: undone.")
_row(S.Unsqueeze, _SELF, ("g.squeeze(dim)",), "Inserting a size-1 dim: the gradient squeezes it out.")
_row(S.Transpose, _SELF, ("g.transpose(dim0, dim1)",), "Swapping two dims: the gradient swaps them back.")
_row(S.T, _SELF, ("gᵀ",), "Transposing: the gradient is transposed back.")
_row(S.Permute, _SELF, ("g.permute(dims⁻¹)",), "Reordering dims: the gradient gets the inverse order.")
_row(S.Expand, _SELF, ("sum(g) over the expanded dims",),
     "Broadcasting reused each element many times: their gradients add up.")
_row(S.Repeat, _SELF, ("sum of g's tiles",), "Tiling reused each element once per tile: the tiles' gradients add up.")
_row(S.Cat, ("tensors",), ("g's slice of each tensor along dim",), "Concatenation: each input gets its own slice of g.")
_row(S.Stack, ("tensors",), ("g.select(dim, i) for tensor i",), "Stacking: each input gets its slice of g.")
_row(S.Split, _SELF, ("cat(g of each piece, dim)",), "Splitting: the pieces' gradients are put back together.")
_row(S.SplitWithSizes, _SELF, ("cat(g of each piece, dim)",), "Splitting: the pieces' gradients are put back together.")
_row(S.Unbind, _SELF, ("stack(g of each slice, dim)",), "Unbinding: the slices' gradients are stacked back.")
_row(S.Flip, _SELF, ("g.flip(dims)",), "Reversing: the gradient is reversed back.")
_row(S.Roll, _SELF, ("g.roll(−shifts, dims)",), "Rotating: the gradient is rotated back.")
_row(S.Tril, _SELF, ("g.tril(diagonal)",), "The lower triangle: only those positions get their gradient; the rest 0.")
_row(S.Triu, _SELF, ("g.triu(diagonal)",), "The upper triangle: only those positions get their gradient; the rest 0.")
_row(S.Diagonal, _SELF, ("g on the diagonal (offset, dim1, dim2), 0 elsewhere",),
     "Taking a diagonal: its gradient goes back onto the diagonal, zeros elsewhere.")
_row(S.DiagonalCopy, _SELF, ("g on the diagonal (offset), 0 elsewhere",),
     "Taking a diagonal: its gradient goes back onto the diagonal, zeros elsewhere.")
_row(S.DiagonalScatter, ("grad",), ("g.diagonal(offset, dim1, dim2)",),
     "The backward of diagonal, as one op: its own gradient reads the diagonal back.")
_row(S.DiagEmbed, _SELF, ("g.diagonal(offset, dim1, dim2)",), "A vector put on a diagonal: it gets that diagonal of g.")
_row(S.IndexFillGrad, ("self", "value"), (None, "sum(g[index])"),
     "The backward of trace: the value written at index (the diagonal) gets the sum of their gradients.")
_row(S.Trace, _SELF, ("g · I",), "The trace sums the diagonal: every diagonal element gets g, the rest 0.")

# -- indexing ------------------------------------------------------------------------------------------
_row(IX.Index, _SELF, ("zeros(self_sym_sizes) with g added at indices",),
     "Indexing picks elements: each picked element gets its gradient (added up when picked twice), the rest 0.")
_row(IX.Select, _SELF, ("zeros(self_sym_sizes) with g at index along dim",),
     "Selecting one slice: it gets the gradient, the rest 0.")
_row(IX.Slice, _SELF, ("zeros(self_sym_sizes) with g in [start:end:step] along dim",),
     "Slicing: the slice gets the gradient, the rest 0.")
_row(IX.SelectBackward, ("grad",), ("g.select(dim, index)",),
     "The backward of select, as one op: its own gradient selects the same slice back.")
_row(IX.SliceBackward, ("grad",), ("g[start:end:step] along dim",),
     "The backward of slicing, as one op: its own gradient slices the same part back.")
_row(IX.IndexPutImpl, ("self", "values"), (None, "g[indices]"),
     "The backward of indexing: zeros with the values added at the indices; the values' gradient reads them back.")
_row(IX.IndexAdd, ("self", "source"), (None, "g.index_select(dim, index)"),
     "The backward of index_select: zeros with the source's slices added at index; its gradient reads them back.")
_row(IX.MaskedScatter, ("self", "source"), (None, "g[mask]"),
     "The backward of masked_select: zeros with the source written where the mask is True; it reads them back.")
_row(IX.MaskedScatterBackward, ("grad",), ("zeros(grad) with g written at [mask]",),
     "The backward of masked_scatter, as one op: g[mask] padded to the source's size; its gradient scatters back.")
_row(IX.TakeAlongDim, _SELF, ("zeros(self) with g added at index along dim",),
     "gather picks elements along dim: each gets its gradient (added up for repeats), the rest 0.")
_row(IX.ScatterAlongDim, ("grad",), ("g.gather(dim, index)",),
     "Adding into slots: its gradient reads those slots back.")
_row(IX.Scatter, ("self", "src"), ("g · [slot not written]", "g.gather(dim, index)"),
     "scatter overwrites slots: they get 0 for self, and src gets what those slots receive.")
_row(IX.ScatterValue, _SELF, ("g · [slot not written]",), "scatter writes a number: the written slots get exactly 0.")
_row(IX.ScatterAdd, ("self", "src"), ("g", "g.gather(dim, index)"),
     "scatter_add adds src into slots: self passes g, src gets what its slots receive.")
_row(IX.IndexSelect, _SELF, ("zeros(self_sym_sizes).index_add(dim, index, g)",),
     "index_select picks slices: each gets its gradient back (added up for repeats).")
_row(IX.MaskedSelect, _SELF, ("zeros(self) with g at [mask]",),
     "masked_select picks the masked elements: they get g, the rest 0.")
_row(IX.CopySlices, ("self", "src"), ("g · [outside the written slots]", "g[the written slots]"),
     "An in-place write into a view: the overwritten slots of the base get 0, the value written gets their gradient.")
_row(IX.IndexPut, ("self", "values"), ("g · [not indexed]", "g[indices]"),
     "x[idx] = values: the overwritten slots get 0, the values get their gradient.")

# -- in place ------------------------------------------------------------------------------------------
_row(IP.Zero, _SELF, ("0",), "zero_ overwrites every element: the old values get a zero gradient.")
_row(IP.Fill, _SELF, ("0",), "fill_ overwrites every element: the old values get a zero gradient.")
_row(IP.Bernoulli, _SELF, ("0",), "bernoulli draws 0s and 1s: the probabilities get a zero gradient (PyTorch's).")
_row(IP.FillTensor, ("self", "value"), ("0", "sum(g)"),
     "fill_ with a 0-dim tensor: it was copied everywhere, so it gets sum(g).")
_row(IP.AsStrided, _SELF, ("zeros(base) with g in the view's slots",),
     "A view re-taken after an in-place write: its gradient goes into the view's slots of the base, zeros elsewhere.")
_row(IP.IntoView, ("grad",), ("g taken as the view",),
     "The backward of as_strided, as one op: its gradient takes the view.")
if hasattr(IP, "Copy"):
    _row(IP.Copy, ("self", "src"), ("0", "g"), "copy_ overwrites self: self gets 0, src gets the gradient.")

# -- linear algebra ------------------------------------------------------------------------------------
_row(L.Einsum, ("operands",), ("einsum of g with the other operands",),
     "einsum: each operand gets g contracted with all the other operands.")

# -- reductions ----------------------------------------------------------------------------------------
_row(R.MaxDim, _SELF, ("zeros(self_sym_sizes) with g at indices along dim",),
     "max(dim): each slice's max gets its gradient.")
_row(R.MinDim, _SELF, ("zeros(self_sym_sizes) with g at indices along dim",),
     "min(dim): each slice's min gets its gradient.")
_row(R.MedianDim, _SELF, ("zeros(self_sym_sizes) with g at indices along dim",),
     "median(dim): each slice's median gets its gradient.")
_row(R.ModeDim, _SELF, ("zeros(self_sym_sizes) with g at indices along dim",),
     "mode(dim): the gradient goes to each slice's mode.")
_row(R.Sort, _SELF, ("zeros(self_sym_sizes) with g put back at indices",),
     "Sorting moves elements: the gradient is moved back.")
_row(R.SortStable, _SELF, ("zeros(self_sym_sizes) with g put back at indices",),
     "sort(stable=...): sorting moves elements, the gradient is moved back.")
_row(R.Topk, _SELF, ("zeros(self_sym_sizes) with g put back at indices",),
     "topk picks k elements: they get their gradient, the rest 0.")
_row(R.Unique, _SELF, (None,), "unique is not differentiable: no gradient flows.")
_row(R.UniqueDim, _SELF, (None,), "unique(dim) is not differentiable: no gradient flows.")

# -- decompositions (ops/decomp.py) --------------------------------------------------------------------
from . import decomp as D  # noqa: E402 - after the rows above: decomp builds on the other ops

if TYPE_CHECKING:
    pass

_row(D.Det, ("A",), ("g · det(A) · A⁻ᵀ",),
     "Determinant (Jacobi's formula): the gradient is det(A) times the inverse transposed.")
_row(D.Inv, ("A",), ("−A⁻ᵀ @ g @ A⁻ᵀ",), "Inverse: the gradient is −A⁻ᵀ g A⁻ᵀ, the inverse on both sides.")
_row(D.Solve, ("A", "B"), ("−solve(Aᵀ, g) @ resultᵀ", "solve(Aᵀ, g)"),
     "Solving A X = B: B gets solve(Aᵀ, g), A gets minus that times Xᵀ.")
_row(D.Svd, ("A",), ("U (gS + sym. parts of Uᵀ gU, Vᵀ gV over S² differences) Vh",),
     "SVD: the gradient puts gS on the diagonal and the rotations' gradients off it, divided by S_i² − S_j².")
