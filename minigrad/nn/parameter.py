"""``Parameter``: a tensor that a ``Module`` registers as one of its learnable weights."""

from __future__ import annotations

from typing import Any

from .._creation import empty
from .._tensor import Tensor

__all__ = ["Parameter"]


class Parameter(Tensor):
    """A leaf tensor that requires grad and that modules register when it is assigned as an attribute.

    It shares memory and version counter with ``data``. Operations on a parameter give
    plain tensors.

    Parameters
    ----------
    data : Tensor, optional
        The initial value (an empty tensor if omitted).
    requires_grad : bool, default True

    Examples
    --------
    >>> import minigrad as torch
    >>> p = torch.nn.Parameter(torch.ones(2))
    >>> p
    Parameter containing:
    tensor([1., 1.], requires_grad=True)
    >>> p.is_leaf, type(p * 2).__name__
    (True, 'Tensor')
    """

    _is_param = True

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True) -> None:
        if data is None:
            data = empty(0)
        if not isinstance(data, Tensor):                # PyTorch's Parameter calls data.detach()
            raise AttributeError("'%s' object has no attribute 'detach'" % type(data).__name__)
        if requires_grad and not data.dtype.is_floating_point:
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        self._init(data._data, bool(requires_grad))
        self._version_counter = data._version_counter

    @classmethod
    def _make(cls, data, requires_grad: bool = False) -> Tensor:
        # Results computed from a parameter (``p > 0``, ``p.detach()``...) are plain tensors.
        return Tensor._make(data, requires_grad)

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __str__(self) -> str:
        return self.__repr__()

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (_rebuild_parameter, (self._data, self._requires_grad))


def _rebuild_parameter(data, requires_grad):
    return Parameter(Tensor._make(data), requires_grad)


def weight_and_bias(module: Any, weight_shape: tuple[int, ...], out_features: int, bias: bool, dtype: Any) -> None:
    """A layer's ``weight`` of ``weight_shape`` and its ``bias`` of ``out_features`` (or ``bias`` registered as
    None), both left for the layer's ``reset_parameters`` to fill, as PyTorch's ``Linear`` and ``Conv2d`` do."""
    module.weight = Parameter(empty(*weight_shape, dtype=dtype))
    if bias:
        module.bias = Parameter(empty(out_features, dtype=dtype))
    else:
        module.register_parameter("bias", None)
