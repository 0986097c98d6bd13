"""More activation modules: ``ReLU6``, ``SELU``, ``CELU``, ``PReLU``, ``Hardswish``, ``Mish``, ``GLU``, ``RReLU``...

Each stores its options (PyTorch's names, defaults and ``extra_repr``) and calls the function of
the same name in ``nn.functional``.

>>> import minigrad as torch
>>> torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.PReLU(), torch.nn.SELU())
Sequential(
  (0): Linear(in_features=2, out_features=2, bias=True)
  (1): PReLU(num_parameters=1)
  (2): SELU()
)
"""

from __future__ import annotations

from typing import Any

from ..._creation import empty
from ..._tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .activation import Hardtanh
from .module import Module

__all__ = ["Threshold", "ReLU6", "SELU", "CELU", "PReLU", "Hardswish", "Hardsigmoid", "Mish", "Softsign",
           "Softmin", "Softshrink", "Hardshrink", "Tanhshrink", "GLU", "RReLU", "Softmax2d"]


def _inplace_str(inplace: bool, first: bool = False) -> str:
    if not inplace:
        return ""
    return "inplace=True" if first else ", inplace=True"


class Threshold(Module):
    """``x`` where ``x > threshold``, ``value`` elsewhere.

    >>> import minigrad as torch
    >>> torch.nn.Threshold(0.1, 20)(torch.tensor([0., 1.]))
    tensor([20.,  1.])
    """

    threshold: float
    value: float
    inplace: bool

    def __init__(self, threshold: float, value: float, inplace: bool = False) -> None:
        super().__init__()
        self.threshold, self.value, self.inplace = threshold, value, inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self) -> str:
        return "threshold=%s, value=%s%s" % (self.threshold, self.value, _inplace_str(self.inplace))


class ReLU6(Hardtanh):
    """``min(max(x, 0), 6)``: a ``Hardtanh(0, 6)``, as in PyTorch."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self) -> str:
        return _inplace_str(self.inplace, first=True)


class _Inplace(Module):
    inplace: bool

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def extra_repr(self) -> str:
        return _inplace_str(self.inplace, first=True)


class SELU(_Inplace):
    """``scale · (max(0, x) + min(0, α (eˣ − 1)))`` with α ≈ 1.6733, scale ≈ 1.0507 (self-normalizing)."""

    def forward(self, input: Tensor) -> Tensor:
        return F.selu(input, self.inplace)


class CELU(Module):
    """``max(0, x) + min(0, α (e^(x/α) − 1))``."""

    alpha: float
    inplace: bool

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.celu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        return "alpha=%s%s" % (self.alpha, _inplace_str(self.inplace))


class PReLU(Module):
    """A leaky ReLU with a learned slope: one for all channels, or one per channel (dim 1) with
    ``num_parameters=C``.  The slope starts at ``init`` (0.25).

    >>> import minigrad as torch
    >>> torch.nn.PReLU().weight
    Parameter containing:
    tensor([0.2500], requires_grad=True)
    """

    num_parameters: int
    weight: Tensor

    def __init__(self, num_parameters: int = 1, init: float = 0.25, device: Any = None, dtype: Any = None) -> None:
        self.num_parameters = num_parameters
        super().__init__()
        self.init = init
        self.weight = Parameter(empty(num_parameters, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        init.constant_(self.weight, self.init)

    def forward(self, input: Tensor) -> Tensor:
        return F.prelu(input, self.weight)

    def extra_repr(self) -> str:
        return "num_parameters=%s" % self.num_parameters


class Hardswish(_Inplace):
    """``x · relu6(x + 3) / 6``."""

    def forward(self, input: Tensor) -> Tensor:
        return F.hardswish(input, self.inplace)

    def extra_repr(self) -> str:               # PyTorch shows no options for Hardswish and Hardsigmoid
        return ""


class Hardsigmoid(_Inplace):
    """``relu6(x + 3) / 6``."""

    def forward(self, input: Tensor) -> Tensor:
        return F.hardsigmoid(input, self.inplace)

    def extra_repr(self) -> str:
        return ""


class Mish(_Inplace):
    """``x · tanh(softplus(x))``."""

    def forward(self, input: Tensor) -> Tensor:
        return F.mish(input, self.inplace)


class Softsign(Module):
    """``x / (1 + |x|)``."""

    def forward(self, input: Tensor) -> Tensor:
        return F.softsign(input)


class Tanhshrink(Module):
    """``x − tanh x``."""

    def forward(self, input: Tensor) -> Tensor:
        return F.tanhshrink(input)


class Softmin(Module):
    """``softmax(−x)`` along ``dim``: small values get the large probabilities."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        return F.softmin(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return "dim=%s" % (self.dim,)


class Softshrink(Module):
    """``x − λ`` above λ, ``x + λ`` below −λ, 0 between."""

    lambd: float

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        self.lambd = lambd

    def forward(self, input: Tensor) -> Tensor:
        return F.softshrink(input, self.lambd)

    def extra_repr(self) -> str:
        return str(self.lambd)


class Hardshrink(Softshrink):
    """``x`` where ``|x| > λ``, 0 elsewhere."""

    def forward(self, input: Tensor) -> Tensor:
        return F.hardshrink(input, self.lambd)


class GLU(Module):
    """The gated linear unit ``a · σ(b)``, ``a`` and ``b`` the two halves of the input along ``dim``."""

    dim: int

    def __init__(self, dim: int = -1) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        return F.glu(input, self.dim)

    def extra_repr(self) -> str:
        return "dim=%s" % self.dim


class RReLU(Module):
    """A leaky ReLU with a random slope in ``[lower, upper]`` per element while training, and
    ``(lower + upper) / 2`` in eval mode."""

    lower: float
    upper: float
    inplace: bool

    def __init__(self, lower: float = 1.0 / 8, upper: float = 1.0 / 3, inplace: bool = False) -> None:
        super().__init__()
        self.lower, self.upper, self.inplace = lower, upper, inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self) -> str:
        return "lower=%s, upper=%s%s" % (self.lower, self.upper, _inplace_str(self.inplace))


class Softmax2d(Module):
    """Softmax over the channels (dim −3) at each location of a ``(C, H, W)`` or ``(N, C, H, W)`` input."""

    def forward(self, input: Tensor) -> Tensor:
        if input.ndim not in (3, 4):
            raise ValueError("Softmax2d: expected input to be 3D or 4D, got %dD instead" % input.ndim)
        return F.softmax(input, -3, _stacklevel=5)
