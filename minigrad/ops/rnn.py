"""The two nodes the recurrent layers record that no other op does, with PyTorch's names.

PyTorch's CPU RNN/LSTM/GRU (``aten/src/ATen/native/RNN.cpp``) are built from ordinary ops
(``linear``, ``add``, ``sigmoid``, ``tanh``, ``mul``, ``stack``), and two more:

* ``unsafe_chunk(x, n, dim)``: like ``chunk``, but its pieces are not views of ``x`` (so the
  gates can be changed in place); it records ``UnsafeSplitBackward0``;
* ``output.transpose_(0, 1)`` for ``batch_first``: the in-place transpose records
  ``TransposeBackward1``.  Here it is an out-of-place transpose under that name: the same node,
  the same gradient (transposed back), and the caller only ever sees the transposed tensor.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .shape import Split, Transpose

if TYPE_CHECKING:
    from .._tensor import Tensor


class UnsafeSplit(Split):
    """``unsafe_split``/``unsafe_chunk``: pieces of ``sizes`` along ``dim``, copies rather than views.

    Backward: the pieces' gradients concatenated (as ``Split``)."""

    node_name: str = "UnsafeSplitBackward0"
    saved_attrs: tuple[str, ...] = ("dim", "self_sym_sizes", "split_size")
    is_view: bool = False

    @staticmethod
    def forward(ctx: Any, x: Tensor, sizes: tuple[int, ...], dim: Any) -> Any:
        return tuple(np.array(piece) for piece in Split.forward(ctx, x, sizes, dim))


class TransposeInplace(Transpose):
    """``transpose_(dim0, dim1)`` as the recurrent layers use it: ``TransposeBackward1``."""

    node_name: str = "TransposeBackward1"
    is_view: bool = False

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim0: int, dim1: int) -> Any:
        return np.array(Transpose.forward(ctx, x, dim0, dim1))


def unsafe_chunk(x: Tensor, chunks: int, dim: int) -> tuple[Tensor, ...]:
    """``x.unsafe_chunk(chunks, dim)`` for a dim that ``chunks`` divides (what the gates need)."""
    size = x.shape[dim] // chunks
    return UnsafeSplit.apply(x, [size] * chunks, dim)


from .formulas import row as _row  # noqa: E402  (ops/formulas.py imports the ops modules it registers)

_row(UnsafeSplit, ("self",), ("cat(g of each piece, dim)",),
     "Splitting into copies: the pieces' gradients are put back together.")
_row(TransposeInplace, ("self",), ("g.transpose(dim0, dim1)",),
     "Swapping two dims in place: the gradient swaps them back.")
