"""Floating-point sums in PyTorch's order (its CPU ``cascade_sum``), so a cancelling sum rounds as PyTorch's.

numpy adds pairwise (8 accumulators, then a tree); PyTorch's CPU sum kernel (``SumKernel.cpp``) does not:

* a row summed along contiguous memory (an *inner* sum) is cut into vectors of ``LANES`` elements (AVX2:
  8 float32, 4 float64; a row shorter than one vector is summed as scalars); ``row_sum`` keeps 4 accumulators
  (element/vector ``i`` goes to accumulator ``i % 4``), each a 4-level cascade (``multi_row_sum``), adds the
  leftovers to accumulator 0, then ``acc0 + acc1 + acc2 + acc3``; a vector result is finished as
  ``tail + lane0 + lane1 + ...`` (the tail: the < LANES elements after the last vector, added from 0);
* a sum across rows (an *outer* sum, the reduced dim not the innermost) adds whole rows: columns in blocks of
  4 · LANES (4 when there are fewer than LANES columns) go through one ``multi_row_sum`` (rows added in order,
  cascaded every 16), the other columns through ``row_sum`` (rows ``i % 4`` in 4 accumulators).

Every add is one IEEE add in the tensor's dtype (float32 accumulates in float32, as PyTorch's ``acc_type``
for its CPU sum kernel), so the result does not depend on the CPU minigrad runs on. The lane widths are
PyTorch's AVX2 build (``torch.__config__.show()``: "CPU capability usage: AVX2"), the oracle's.
Only C-contiguous arrays of at most ``GRAIN`` elements take this path (larger ones PyTorch splits over
threads); anything else is summed by numpy.
"""

from __future__ import annotations

import numpy as np

LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}
GRAIN = 32768                       # at::internal::GRAIN_SIZE: parallel_reduce splits bigger reductions
_ILP, _LEVELS = 4, 4


def _seq(block):
    """Add ``block[:, 0], block[:, 1], ...`` one after another, from +0 (axis 1 is the summed one)."""
    if block.shape[1] == 0:
        return np.zeros(block.shape[:1] + block.shape[2:], dtype=block.dtype)
    return np.cumsum(block, axis=1)[:, -1] + block.dtype.type(0)


def _multi_row_sum(m):
    """PyTorch's multi_row_sum: ``m`` is (batch, size, ...); the cascade of 4 levels over axis 1."""
    size = m.shape[1]
    power = max(4, (int(size - 1).bit_length() if size > 1 else 0) // _LEVELS)
    step, mask = 1 << power, (1 << power) - 1
    acc = [np.zeros(m.shape[:1] + m.shape[2:], dtype=m.dtype) for _ in range(_LEVELS)]
    i = 0
    while i + step <= size:
        acc[0] = acc[0] + _seq(m[:, i:i + step])
        i += step
        for j in range(1, _LEVELS):
            acc[j] = acc[j] + acc[j - 1]
            acc[j - 1] = np.zeros_like(acc[j - 1])
            if i & (mask << (j * power)):
                break
    acc[0] = acc[0] + _seq(m[:, i:])
    for j in range(1, _LEVELS):
        acc[0] = acc[0] + acc[j]
    return acc[0]


def _row_sum(e):
    """PyTorch's row_sum over axis 1 of ``e`` (batch, size, ...): 4 interleaved cascades, then combined."""
    batch, size = e.shape[:2]
    k = size // _ILP
    partial = _multi_row_sum(e[:, :k * _ILP].reshape((batch, k, _ILP, *e.shape[2:])))   # (batch, 4, ...)
    p0 = partial[:, 0]
    for i in range(k * _ILP, size):
        p0 = p0 + e[:, i]
    for j in range(1, _ILP):
        p0 = p0 + partial[:, j]
    return p0


def _inner_sum(rows):
    """Each row of the 2-D ``rows`` summed along its contiguous memory (vectorized_inner_sum / scalar)."""
    lanes = LANES[rows.dtype]
    batch, n = rows.shape
    if n < lanes:
        return _row_sum(rows)
    nv = n // lanes
    vec = _row_sum(rows[:, :nv * lanes].reshape(batch, nv, lanes))                     # (batch, lanes)
    total = _seq(rows[:, nv * lanes:])
    for k in range(lanes):
        total = total + vec[:, k]
    return total


def _outer_sum(block):
    """``block`` (batch, size0, size1): the sum over axis 1, each column in PyTorch's outer-sum order."""
    lanes = LANES[block.dtype]
    size1 = block.shape[2]
    group = _ILP * lanes if size1 >= lanes else _ILP      # vectorized_outer_sum / scalar_outer_sum
    wide = size1 // group * group
    out = np.empty((block.shape[0], size1), dtype=block.dtype)
    if wide:
        out[:, :wide] = _multi_row_sum(block[:, :, :wide])
    if wide < size1:
        out[:, wide:] = _row_sum(block[:, :, wide:])
    return out


def torch_sum(a, axes, keepdims=False):
    """``a.sum(axis=axes, keepdims=keepdims)`` rounded as PyTorch's CPU sum (see the module docstring)."""
    axes = tuple(sorted(axes))
    if a.dtype not in LANES or a.size == 0 or a.size > GRAIN or not a.flags.c_contiguous or not axes:
        return np.sum(a, axis=axes, keepdims=keepdims)
    shape = a.shape
    kept = [d for d in range(a.ndim) if d not in axes and shape[d] != 1]
    red = [d for d in axes if shape[d] != 1]
    out_shape = tuple(1 if d in axes else s for d, s in enumerate(shape)) if keepdims else \
        tuple(s for d, s in enumerate(shape) if d not in axes)
    if not red:                                        # size-1 dims only: x + 0, as PyTorch's out += x
        return (a + a.dtype.type(0)).reshape(out_shape)
    last_red = max(red)
    if not kept or min(red) > max(kept):               # the reduced dims are innermost: one run per output
        n = int(np.prod([shape[d] for d in red]))
        res = _inner_sum(a.reshape(-1, n))
    elif red == list(range(min(red), last_red + 1)) and all(d < min(red) or d > last_red for d in kept):
        # one contiguous block of reduced dims with kept dims after it: outer sums over rows
        before = int(np.prod([shape[d] for d in range(min(red))]))
        size0 = int(np.prod([shape[d] for d in red]))
        res = _outer_sum(a.reshape(before, size0, -1))
    else:
        return np.sum(a, axis=axes, keepdims=keepdims)
    return np.asarray(res).reshape(out_shape)
