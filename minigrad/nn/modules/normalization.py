"""``LayerNorm`` and ``BatchNorm1d``: standardize activations, then scale and shift them."""

from __future__ import annotations

from typing import Any

from ... import _creation, _dtype
from ..._tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["LayerNorm", "BatchNorm1d"]


class LayerNorm(Module):
    """Standardize over the trailing ``normalized_shape`` dims, then ``· weight + bias`` (elementwise).

    ``weight`` starts at ones and ``bias`` at zeros (both of shape ``normalized_shape``);
    ``elementwise_affine=False`` has neither, ``bias=False`` no bias.

    >>> import minigrad as torch
    >>> ln = torch.nn.LayerNorm(3)
    >>> ln
    LayerNorm((3,), eps=1e-05, elementwise_affine=True, bias=True)
    >>> ln(torch.tensor([[1., 2., 3.]])).grad_fn
    <NativeLayerNormBackward0 object at 0x...>
    """

    normalized_shape: tuple[int, ...]
    eps: float
    elementwise_affine: bool
    weight: Tensor
    bias: Tensor | None

    def __init__(self, normalized_shape: int | tuple[int, ...], eps: float = 1e-05, elementwise_affine: bool = True,
                 bias: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        if isinstance(normalized_shape, int):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(_creation.empty(*self.normalized_shape, dtype=dtype))
            if bias:
                self.bias = Parameter(_creation.empty(*self.normalized_shape, dtype=dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Weight ones, bias zeros: the identity after standardizing."""
        if self.weight is not None:
            init.ones_(self.weight)
        if self.bias is not None:
            init.zeros_(self.bias)

    def forward(self, input: Tensor) -> Tensor:
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return "%s, eps=%s, elementwise_affine=%s, bias=%s" % (
            self.normalized_shape, self.eps, self.elementwise_affine, self.bias is not None
        )


class BatchNorm1d(Module):
    """Standardize each channel of an ``(N, C)`` or ``(N, C, L)`` input, then ``· weight + bias``.

    Training uses the batch's statistics and updates the buffers ``running_mean`` and
    ``running_var`` (``momentum=None``: a cumulative average over ``num_batches_tracked``
    batches); eval mode uses the buffers.

    >>> import minigrad as torch
    >>> bn = torch.nn.BatchNorm1d(2)
    >>> bn
    BatchNorm1d(2, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)
    >>> list(bn.state_dict())
    ['weight', 'bias', 'running_mean', 'running_var', 'num_batches_tracked']
    """

    num_features: int
    eps: float
    momentum: float | None
    affine: bool
    track_running_stats: bool

    def __init__(self, num_features: int, eps: float = 1e-05, momentum: float | None = 0.1, affine: bool = True,
                 track_running_stats: bool = True, device: Any = None, dtype: Any = None, *, bias: bool = True) -> None:
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        weight = Parameter(_creation.ones(num_features, dtype=dtype)) if affine else None
        bias_ = Parameter(_creation.zeros(num_features, dtype=dtype)) if affine and bias else None
        self.register_parameter("weight", weight)
        self.register_parameter("bias", bias_)
        if track_running_stats:
            self.register_buffer("running_mean", _creation.zeros(num_features, dtype=dtype))
            self.register_buffer("running_var", _creation.ones(num_features, dtype=dtype))
            self.register_buffer("num_batches_tracked", _creation.tensor(0, dtype=_dtype.int64))
        else:
            for name in ("running_mean", "running_var", "num_batches_tracked"):
                self.register_buffer(name, None)

    def reset_running_stats(self) -> None:
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def _check_input_dim(self, input: Tensor) -> None:
        if input.ndim not in (2, 3):
            raise ValueError("expected 2D or 3D input (got %dD input)" % input.ndim)

    def forward(self, input: Tensor) -> Tensor:
        self._check_input_dim(input)
        momentum = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats:
            self.num_batches_tracked.add_(1)
            if self.momentum is None:        # a cumulative moving average
                momentum = 1.0 / self.num_batches_tracked.item()
        use_batch = self.training or self.running_mean is None
        track = not self.training or self.track_running_stats
        return F.batch_norm(
            input, self.running_mean if track else None, self.running_var if track else None,
            self.weight, self.bias, use_batch, momentum, self.eps,
        )

    def extra_repr(self) -> str:
        return "%s, eps=%s, momentum=%s, affine=%s, bias=%s, track_running_stats=%s" % (
            self.num_features, self.eps, self.momentum, self.affine, self.bias is not None,
            self.track_running_stats,
        )


class BatchNorm2d(BatchNorm1d):
    """Standardize each channel of an ``(N, C, H, W)`` input over N, H and W, then ``· weight + bias``.

    >>> import minigrad as torch
    >>> torch.nn.BatchNorm2d(3)(torch.randn(2, 3, 4, 4)).shape
    torch.Size([2, 3, 4, 4])
    """

    def _check_input_dim(self, input: Tensor) -> None:
        if input.ndim != 4:
            raise ValueError("expected 4D input (got %dD input)" % input.ndim)


class BatchNorm3d(BatchNorm1d):
    """Standardize each channel of an ``(N, C, D, H, W)`` input, then ``· weight + bias``."""

    def _check_input_dim(self, input: Tensor) -> None:
        if input.ndim != 5:
            raise ValueError("expected 5D input (got %dD input)" % input.ndim)
