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

from . import _dtype
from ._creation import *  # noqa: F401,F403 - tensor factories, like torch.*
from ._creation import Generator, default_generator, device  # noqa: F401
from ._dtype import (bool, double, dtype, float, float16, float32, float64, get_default_dtype, half,  # noqa: A004
                     int, int8, int16, int32, int64, long, promote_types, set_default_dtype, short, uint8)
from ._size import Size
from ._tensor import Tensor
from .autograd.grad_mode import (enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled, no_grad,
                                 set_grad_enabled)
from .ops import linalg as _linalg

__version__ = "0.1.0"

FloatTensor = DoubleTensor = LongTensor = Tensor  # legacy names, enough for isinstance checks


def result_type(a, b):
    return _dtype.result_type(a, b)


def can_cast(from_, to):
    import numpy as np
    return np.can_cast(from_.numpy, to.numpy, casting="same_kind")


def _method(name, doc=None):
    """``torch.<name>(t, *args)`` as ``t.<name>(*args)``, the way PyTorch exposes both spellings."""
    def fn(input, *args, **kwargs):
        from .ops._util import operand
        return getattr(operand(input), name)(*args, **kwargs)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc or "Same as ``Tensor.%s``." % name
    return fn


for _name in ("add sub mul div neg negative reciprocal pow square exp log log1p expm1 sin cos tanh sigmoid relu "
              "sqrt rsqrt abs sign clamp clip maximum minimum sum mean logsumexp softmax log_softmax var std prod "
              "norm mm mv dot bmm outer addmm reshape flatten transpose t permute unsqueeze squeeze split chunk "
              "unbind narrow select gather argmax argmin allclose equal isnan isinf isfinite masked_fill "
              "clone detach matmul sort topk any all unflatten swapaxes").split():
    globals()[_name] = _method(_name)
del _name


def max(input, dim=None, keepdim=False, *, out=None):  # noqa: A001 - the PyTorch name
    """``max(x)`` / ``max(x, dim)`` / ``max(x, y)`` (elementwise)."""
    return input.max(dim, keepdim) if dim is not None else input.max()


def min(input, dim=None, keepdim=False, *, out=None):  # noqa: A001
    return input.min(dim, keepdim) if dim is not None else input.min()


def numel(input) -> int:  # noqa: F811
    return input.numel()


def matmul(input, other):  # noqa: F811
    return _linalg.matmul(input, other)


def einsum(*args):
    raise NotImplementedError("einsum is not part of minigrad")


from . import autograd, nn, optim, utils  # noqa: E402,F401
from .autograd import functional as _functional  # noqa: E402,F401
from .utils import data as _data  # noqa: E402,F401

__all__ = [n for n in dir() if not n.startswith("_")]
