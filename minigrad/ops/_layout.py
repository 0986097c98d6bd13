"""Memory layouts: which results PyTorch's kernels leave contiguous, column-major, or laid out like their input.

Values never depend on it, but names and errors do: ``reshape`` records ``ViewBackward0`` when the tensor's
memory allows a view and ``UnsafeViewBackward0`` (after a copy) when not, and ``view`` raises when not.  numpy
picks its own layouts (``np.take`` along the last axis, a ufunc on a transposed input...), so the forwards
whose PyTorch kernel decides a layout say which, with one of these:

* ``contiguous(a)``: a fresh row-major result (``index_select``, ``cat``, ``softmax``, ``masked_fill``...).
* ``column_major(a)``: each matrix column-major, as LAPACK leaves ``inv``, ``solve``, the SVD's ``U`` and ``Vh``.
* ``like(a, src)``: ``src``'s layout, as ``empty_like`` (``MemoryFormat::Preserve``): ``clone``, ``flip``, ``sort``,
  ``zeros_like``.  A dense ``src`` gives its strides; else dims ordered by ``src``'s strides, as PyTorch's
  ``infer_dense_strides`` (a stride-0 dim stays where it is).
"""

from __future__ import annotations

from typing import Any

import numpy as np


def contiguous(a: Any) -> Any:
    """``a`` row-major (C order); no copy when it already is (0-d stays 0-d, unlike ``np.ascontiguousarray``)."""
    return a if a.flags.c_contiguous else np.array(a, order="C")


def column_major(a: Any) -> Any:
    """``a`` with each matrix (the last two dims) column-major and the batch dims row-major."""
    if a.ndim < 2 or (a.flags.c_contiguous and a.shape[-1] <= 1 and a.shape[-2] <= 1):
        return a
    return np.swapaxes(contiguous(np.swapaxes(a, -1, -2)), -1, -2)


def dense_order(shape: Any, strides: Any) -> list[int]:
    """The dims from fastest to slowest, as PyTorch's ``infer_dense_strides`` sorts them: by stride, a tie by
    size, and a dim of stride 0 never moves (insertion sort from the row-major order)."""
    perm = list(range(len(shape) - 1, -1, -1))

    def after(d0: int, d1: int) -> bool:
        s0, s1 = strides[d0], strides[d1]
        return s0 != 0 and s1 != 0 and (s0 > s1 or (s0 == s1 and shape[d0] > shape[d1]))

    def before(d0: int, d1: int) -> bool:
        s0, s1 = strides[d0], strides[d1]
        return s0 != 0 and s1 != 0 and s0 < s1

    for i in range(1, len(perm)):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            if after(perm[d0], perm[d1]):
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif before(perm[d0], perm[d1]):
                break
    return perm


def _dense(a: Any) -> bool:
    """PyTorch's ``is_non_overlapping_and_dense``: the elements fill a block of memory, each once."""
    if a.flags.c_contiguous or a.flags.f_contiguous:
        return True
    dims = sorted((s, n) for s, n in zip(a.strides, a.shape) if n != 1)
    expected = a.itemsize
    for s, n in dims:
        if s != expected:
            return False
        expected *= n
    return True


def like(a: Any, src: Any) -> Any:
    """``a`` (of ``src``'s shape) laid out as ``src``: PyTorch's ``MemoryFormat::Preserve``."""
    if src.flags.c_contiguous or a.ndim < 2:
        return contiguous(a)
    if _dense(src):
        strides = tuple(s // src.itemsize * a.itemsize for s in src.strides)
        if a.strides == strides:
            return a
        out = np.lib.stride_tricks.as_strided(np.empty(a.size, a.dtype), a.shape, strides)
    else:
        perm = dense_order(src.shape, src.strides)
        out = np.empty([a.shape[d] for d in reversed(perm)], a.dtype).transpose(np.argsort(perm[::-1]))
        if out.strides == a.strides:
            return a
    out[...] = a
    return out
