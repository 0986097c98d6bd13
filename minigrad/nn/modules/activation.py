"""Activation modules: ``ReLU``, ``LeakyReLU``, ``Hardtanh``, ``Tanh``, ``Sigmoid``, ``GELU``, ``Softmax``…"""

from __future__ import annotations

from ..._tensor import Tensor
from .. import functional as F
from .module import Module

__all__ = ["ReLU", "LeakyReLU", "Hardtanh", "Tanh", "Sigmoid", "LogSigmoid", "GELU", "SiLU", "ELU", "Softplus",
           "Softmax", "LogSoftmax"]


class ReLU(Module):
    """``max(x, 0)`` elementwise.

    >>> import minigrad as torch
    >>> torch.nn.ReLU()(torch.tensor([-1., 2.]))
    tensor([0., 2.])
    """

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class LeakyReLU(Module):
    """``x`` where positive, ``negative_slope · x`` elsewhere.

    >>> import minigrad as torch
    >>> torch.nn.LeakyReLU(0.2)
    LeakyReLU(negative_slope=0.2)
    """

    negative_slope: float
    inplace: bool

    def __init__(self, negative_slope: float = 0.01, inplace: bool = False) -> None:
        super().__init__()
        self.negative_slope, self.inplace = negative_slope, inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self) -> str:
        return "negative_slope=%s%s" % (self.negative_slope, ", inplace=True" if self.inplace else "")


class Hardtanh(Module):
    """``clamp(x, min_val, max_val)``."""

    min_val: float
    max_val: float
    inplace: bool

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self) -> str:
        return "min_val=%s, max_val=%s%s" % (
            self.min_val,
            self.max_val,
            ", inplace=True" if self.inplace else "",
        )


class Tanh(Module):
    """``tanh x`` elementwise."""

    def forward(self, input: Tensor) -> Tensor:
        return input.tanh()


class Sigmoid(Module):
    """``1 / (1 + e^-x)`` elementwise."""

    def forward(self, input: Tensor) -> Tensor:
        return input.sigmoid()


class LogSigmoid(Module):
    """``log σ(x)`` elementwise, without overflow."""

    def forward(self, input: Tensor) -> Tensor:
        return F.logsigmoid(input)


class GELU(Module):
    """``x Φ(x)`` (Φ the standard normal CDF), or its tanh approximation with ``approximate='tanh'``.

    >>> import minigrad as torch
    >>> torch.nn.GELU()
    GELU(approximate='none')
    """

    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        self.approximate = approximate

    def forward(self, input: Tensor) -> Tensor:
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self) -> str:
        return "approximate=%r" % self.approximate


class SiLU(Module):
    """``x · σ(x)``."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.silu(input)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class ELU(Module):
    """``x`` where positive, ``alpha (eˣ - 1)`` elsewhere."""

    alpha: float
    inplace: bool

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.elu(input, self.alpha)

    def extra_repr(self) -> str:
        return "alpha=%s%s" % (self.alpha, ", inplace=True" if self.inplace else "")


class Softplus(Module):
    """``log(1 + e^(βx)) / β``."""

    beta: float
    threshold: float

    def __init__(self, beta: float = 1.0, threshold: float = 20.0) -> None:
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def forward(self, input: Tensor) -> Tensor:
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self) -> str:
        return "beta=%s, threshold=%s" % (self.beta, self.threshold)


class Softmax(Module):
    """``e^x / Σ e^x`` along ``dim``: each slice becomes a probability distribution.

    >>> import minigrad as torch
    >>> torch.nn.Softmax(dim=1)(torch.zeros(1, 4))
    tensor([[0.2500, 0.2500, 0.2500, 0.2500]])
    """

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        return F.softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return "dim=%s" % (self.dim,)


class LogSoftmax(Module):
    """``log softmax(x)`` along ``dim``, computed stably."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        return F.log_softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return "dim=%s" % (self.dim,)
