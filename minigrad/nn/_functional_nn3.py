"""``nn.functional``'s group norm (nn3), imported into ``minigrad.nn.functional``.

* ``group_norm``: one ``NativeGroupNormBackward0`` node (``minigrad/ops/groupnorm.py``), as ATen's
  ``native_group_norm``, after ``F.group_norm``'s own checks in PyTorch's words.
"""

from __future__ import annotations

import math

from .._tensor import Tensor
from ..ops.groupnorm import NativeGroupNorm
from . import functional as F

__all__ = ["group_norm"]


def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None, bias: Tensor | None = None,
               eps: float = 1e-5) -> Tensor:
    """Standardize each group of ``num_groups`` channel groups per sample, then ``· weight + bias`` per channel.

    >>> import minigrad as torch
    >>> import minigrad.nn.functional as F
    >>> F.group_norm(torch.tensor([[1., 3., 0., 4.]]).reshape(1, 4, 1), 2).flatten()
    tensor([-1.0000,  1.0000, -1.0000,  1.0000])
    """
    if input.dim() < 2:
        raise RuntimeError(
            f"Expected at least 2 dimensions for input tensor but received {input.dim()}"
        )
    shape = tuple(input.shape)
    n, c = shape[0], shape[1]
    size = [n * c // num_groups, num_groups, *shape[2:]]
    if size[0] * math.prod(size[2:]) == 1:
        raise ValueError("Expected more than 1 value per channel when training, got input size %r" % (size,))
    if c % num_groups != 0:
        raise RuntimeError(
            "Expected number of channels in input to be divisible by num_groups, but got input of shape "
            "%s and num_groups=%d" % (list(shape), num_groups)
        )
    # ATen's quirk: the bias message shows the WEIGHT's shape ([0] when there is no weight)
    weight_shape = [0] if weight is None else list(weight.shape)
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.dim() != 1 or t.numel() != c):
            raise RuntimeError(
                "Expected %s to be a vector of size equal to the number of channels in input, but got %s of "
                "shape %s and input of shape %s" % (name, name, weight_shape, list(shape))
            )
    hxw = math.prod(shape[2:])
    return NativeGroupNorm.apply(input, F._or_undefined(weight), F._or_undefined(bias), n, c, hxw, num_groups,
                                 eps)
