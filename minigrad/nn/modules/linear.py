"""``Linear``, ``Bilinear`` and ``Identity``."""

from __future__ import annotations

import math
from typing import Any

from ... import _creation
from ..._tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter, weight_and_bias
from .module import Module

__all__ = ["Identity", "Linear", "Bilinear"]


class Identity(Module):
    """Returns its input unchanged (any constructor arguments are ignored); handy as a placeholder.

    >>> import minigrad as torch
    >>> x = torch.ones(2)
    >>> torch.nn.Identity(54, unused="x")(x) is x
    True
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
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

    in_features: int
    out_features: int
    weight: Tensor
    bias: Tensor | None

    def __init__(self, in_features: int, out_features: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        weight_and_bias(self, (out_features, in_features), out_features, bias, dtype)
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

    in1_features: int
    in2_features: int
    out_features: int
    weight: Tensor
    bias: Tensor | None

    def __init__(self, in1_features: int, in2_features: int, out_features: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        self.in1_features, self.in2_features, self.out_features = in1_features, in2_features, out_features
        weight_and_bias(self, (out_features, in1_features, in2_features), out_features, bias, dtype)
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


class LazyLinear(Linear):
    """A ``Linear`` whose ``in_features`` is read from the first input; then it becomes a plain ``Linear``.

    The weights are drawn (PyTorch's default initialisation) at that first call, from the generator's
    state then, as in PyTorch.

    >>> import minigrad as torch
    >>> layer = torch.nn.LazyLinear(3)
    >>> layer
    LazyLinear(in_features=0, out_features=3, bias=True)
    >>> layer(torch.ones(2, 4)).shape, layer
    (torch.Size([2, 3]), Linear(in_features=4, out_features=3, bias=True))
    """

    in_features: int
    out_features: int
    weight: Tensor
    bias: Tensor | None

    cls_to_become: type[Module] = Linear

    def __init__(self, out_features: int, bias: bool = True, device: Any = None, dtype: Any = None) -> None:
        Module.__init__(self)
        self.in_features, self.out_features, self._dtype = 0, out_features, dtype
        self.weight = UninitializedParameter()
        if bias:
            self.bias = UninitializedParameter()
        else:
            self.register_parameter("bias", None)

    def reset_parameters(self) -> None:
        if not isinstance(self.weight, UninitializedParameter) and self.in_features != 0:
            super().reset_parameters()

    def has_uninitialized_params(self) -> bool:
        return isinstance(self.weight, UninitializedParameter)

    def initialize_parameters(self, input: Tensor) -> None:
        if not self.has_uninitialized_params():
            return
        self.in_features = input.shape[-1]
        dtype = self._dtype or input.dtype
        self.weight = Parameter(_creation.empty(self.out_features, self.in_features, dtype=dtype))
        if self.bias is not None:
            self.bias = Parameter(_creation.empty(self.out_features, dtype=dtype))
        self.reset_parameters()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.has_uninitialized_params():
            self.initialize_parameters(*args, **kwargs)
            del self._dtype
            self.__class__ = self.cls_to_become
        return Module.__call__(self, *args, **kwargs)


class UninitializedParameter(Parameter):
    """The placeholder weight of a lazy module, until its first input fixes the shape."""

    def __init__(self, requires_grad: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__(_creation.empty(0, dtype=dtype), requires_grad)

    def __repr__(self) -> str:
        return "<UninitializedParameter>"

    def __str__(self) -> str:
        return self.__repr__()
