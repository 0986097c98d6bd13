"""``nn.init.orthogonal_``, ``sparse_``, ``dirac_`` (nn4), re-exported by ``minigrad.nn.init``.

Each draws from the default generator in PyTorch's order (``normal_`` into a fresh matrix, ``randperm`` per
column...), so ``manual_seed`` gives PyTorch's tensors: ``sparse_`` and ``dirac_`` bit for bit; ``orthogonal_``
up to the last bits of the QR decomposition (LAPACK's rounding differs between builds).
"""

from __future__ import annotations

import math
from typing import Any

from .. import _creation, linalg
from .._tensor import Tensor
from ..autograd import grad_mode

__all__ = ["dirac_", "orthogonal_", "sparse_"]


def orthogonal_(tensor: Tensor, gain: float = 1, generator: Any = None) -> Tensor:
    """Fill with a (semi-)orthogonal matrix: the Q of a Gaussian matrix's QR, signs fixed by R's diagonal.

    >>> import minigrad as torch
    >>> w = torch.nn.init.orthogonal_(torch.empty(3, 3))
    >>> bool(((w @ w.T - torch.eye(3)).abs() < 1e-5).all())
    True
    """
    if tensor.ndimension() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.size(0)
    cols = tensor.numel() // rows
    with grad_mode.no_grad():
        flattened = _creation.empty((rows, cols), dtype=tensor.dtype).normal_(0, 1, generator=generator)
        if rows < cols:
            flattened = flattened.t()
        q, r = linalg.qr(flattened)
        q = q * r.diagonal().sign()
        if rows < cols:
            q = q.t()
        tensor.view_as(q).copy_(q)
        tensor.mul_(gain)
    return tensor


def sparse_(tensor: Tensor, sparsity: float, std: float = 0.01, generator: Any = None) -> Tensor:
    """N(0, std²) with a fraction ``sparsity`` of each column set to zero (rows chosen by ``randperm``).

    >>> import minigrad as torch
    >>> w = torch.nn.init.sparse_(torch.empty(4, 3), sparsity=0.5)
    >>> (w == 0).sum(0).tolist()
    [2, 2, 2]
    """
    if tensor.ndimension() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    num_zeros = math.ceil(sparsity * rows)
    with grad_mode.no_grad():
        tensor.normal_(0, std, generator=generator)
        for col_idx in range(cols):
            row_indices = _creation.randperm(rows)
            zero_indices = row_indices[:num_zeros]
            tensor[zero_indices, col_idx] = 0
    return tensor


def dirac_(tensor: Tensor, groups: int = 1) -> Tensor:
    """The identity convolution: a 1 at the kernel's centre linking input channel d to output channel d.

    >>> import minigrad as torch
    >>> torch.nn.init.dirac_(torch.empty(2, 2, 3))[0].tolist()
    [[0.0, 1.0, 0.0], [0.0, 0.0, 0.0]]
    """
    dimensions = tensor.ndimension()
    if dimensions not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.size()
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    out_chans_per_grp = sizes[0] // groups
    min_dim = min(out_chans_per_grp, sizes[1])
    centre = tuple(s // 2 for s in sizes[2:])
    with grad_mode.no_grad():
        tensor.zero_()
        for g in range(groups):
            for d in range(min_dim):
                tensor[(g * out_chans_per_grp + d, d, *centre)] = 1
    return tensor
