"""``Linear``, ``Bilinear`` and ``Identity``."""

from __future__ import annotations

import math

from ... import _creation
from ..._tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["Identity", "Linear", "Bilinear"]


class Identity(Module):
    """Returns its input unchanged (any constructor arguments are ignored); handy as a placeholder.

    >>> import minigrad as torch
    >>> x = torch.ones(2)
    >>> torch.nn.Identity(54, unused="x")(x) is x
    True
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:
        return input


class Linear(Module):
    """``y = x @ weight.T + bias`` with ``weight`` of shape ``(out_features, in_features)``.

    Both are drawn from U(-1/√in_features, 1/√in_features), weight first (PyTorch's
    ``kaiming_uniform_(a=√5)``), from the default generator. A 2-D input records a single
    ``AddmmBackward0`` node.

    Parameters
    ----------
    in_features, out_features : int
    bias : bool, default True
    dtype : minigrad dtype, optional

    Examples
    --------
    >>> import minigrad as torch
    >>> layer = torch.nn.Linear(3, 2)
    >>> layer
    Linear(in_features=3, out_features=2, bias=True)
    >>> layer(torch.ones(4, 3)).grad_fn
    <AddmmBackward0 object at 0x...>
    """

    def __init__(
        self, in_features: int, out_features: int, bias: bool = True, device=None, dtype=None
    ) -> None:
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        self.weight = Parameter(_creation.empty(out_features, in_features, dtype=dtype))
        if bias:
            self.bias = Parameter(_creation.empty(out_features, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """PyTorch's default initialisation: both bounded by 1/√in_features."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input: Tensor) -> Tensor:
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return "in_features=%s, out_features=%s, bias=%s" % (
            self.in_features,
            self.out_features,
            self.bias is not None,
        )


class Bilinear(Module):
    """``y = x1 · weight[o] · x2 + bias[o]`` for each output ``o``; weight ``(out, in1, in2)``.

    >>> import minigrad as torch
    >>> torch.nn.Bilinear(2, 3, 4)(torch.ones(5, 2), torch.ones(5, 3)).shape
    torch.Size([5, 4])
    """

    def __init__(
        self,
        in1_features: int,
        in2_features: int,
        out_features: int,
        bias: bool = True,
        device=None,
        dtype=None,
    ) -> None:
        super().__init__()
        self.in1_features, self.in2_features, self.out_features = in1_features, in2_features, out_features
        self.weight = Parameter(_creation.empty(out_features, in1_features, in2_features, dtype=dtype))
        if bias:
            self.bias = Parameter(_creation.empty(out_features, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        bound = 1 / math.sqrt(self.weight.shape[1])
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1: Tensor, input2: Tensor) -> Tensor:
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return "in1_features=%s, in2_features=%s, out_features=%s, bias=%s" % (
            self.in1_features,
            self.in2_features,
            self.out_features,
            self.bias is not None,
        )
