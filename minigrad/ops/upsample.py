"""Upsampling as PyTorch records it: one node per op (nn4), ``UpsampleNearest2DBackward0``,
``UpsampleBilinear2DBackward0``, ``UpsampleBicubic2DBackward0``, ... (1-d, 2-d, 3-d; nearest, nearest-exact,
linear / bilinear / trilinear, bicubic).

Every mode is separable and linear: along each spatial dim, output position ``j`` reads a few input
positions ``i`` with weights ``W[j, i]`` (nearest: one position, weight 1; linear: two, ``1 − λ`` and ``λ``;
bicubic: four, Keys' cubic with A = −0.75, taps clamped to the border).  So the forward applies one
``(out × in)`` matrix per dim and the backward applies its transpose: ``grad_input = Wᵀ g`` per dim.
The backward is itself a node (``...BackwardBackward0``, whose derivative is the forward again), so
``create_graph`` records PyTorch's names.

The source positions follow ATen's ``UpSample.h`` to the bit, in the input's precision (float32 for
float32): ``scale = 1/scale_factor`` if given else ``in/out`` (align_corners: ``(in−1)/(out−1)``);
nearest ``i = min(floor(j · scale), in−1)``; nearest-exact ``floor((j + ½) · scale)``; linear
``x = max(scale · (j + ½) − ½, 0)`` (align_corners: ``scale · j``), ``i = floor(x)``, ``λ = x − i``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from .._tensor import Tensor
from ..autograd.function import Function

if TYPE_CHECKING:
    from ..autograd.function import Grads

__all__ = ["UPSAMPLE", "upsample"]

_AXES = {1: ("",), 2: ("_h", "_w"), 3: ("_d", "_h", "_w")}


def _scales_value(scale: float | None, n_in: int, n_out: int, ftype: Any) -> Any:
    if scale is not None and scale > 0:
        return ftype(1.0 / scale)
    return ftype(n_in) / ftype(n_out)


def _area_scale(n_in: int, n_out: int, align_corners: bool, scale: float | None, ftype: Any) -> Any:
    if align_corners:
        return ftype(n_in - 1) / ftype(n_out - 1) if n_out > 1 else ftype(0)
    return _scales_value(scale, n_in, n_out, ftype)


def _source_index(scale: Any, j: np.ndarray, align_corners: bool, cubic: bool, ftype: Any) -> np.ndarray:
    j = j.astype(ftype)
    if align_corners:
        return scale * j
    src = scale * (j + ftype(0.5)) - ftype(0.5)
    return src if cubic else np.maximum(src, ftype(0))


def _cubic_weights(t: np.ndarray, ftype: Any) -> list[np.ndarray]:
    a = ftype(-0.75)

    def conv1(x):      # |x| <= 1
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def conv2(x):      # 1 < |x| < 2
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a

    one = ftype(1)
    return [conv2(t + one), conv1(t), conv1(one - t), conv2(one - t + one)]


def interpolation_matrix(kind: str, n_in: int, n_out: int, scale: float | None, align_corners: bool,
                         ftype: Any) -> np.ndarray:
    """``W`` (n_out × n_in): output position j along one dim is ``Σ_i W[j, i] · input[i]``."""
    j = np.arange(n_out)
    w = np.zeros((n_out, n_in), ftype)
    if kind == "nearest" or kind == "nearest_exact":
        if kind == "nearest" and n_out == n_in:
            src = j
        elif kind == "nearest" and n_out == 2 * n_in:
            src = j >> 1
        else:
            s = _scales_value(scale, n_in, n_out, np.float32)      # ATen: a float scale, floorf
            offset = np.float32(0.5) if kind == "nearest_exact" else np.float32(0)
            src = np.minimum(np.floor((j.astype(np.float32) + offset) * s).astype(np.int64), n_in - 1)
        w[j, src] = 1
        return w
    s = _area_scale(n_in, n_out, align_corners, scale, ftype)
    x = _source_index(s, j, align_corners, kind == "cubic", ftype)
    if kind == "linear":
        i0 = x.astype(np.int64)
        lam1 = np.clip(x - i0.astype(ftype), 0, 1).astype(ftype)
        i1 = i0 + (i0 < n_in - 1)
        np.add.at(w, (j, i0), ftype(1) - lam1)
        np.add.at(w, (j, i1), lam1)
        return w
    i0 = np.floor(x).astype(np.int64)
    t = x - i0.astype(ftype)
    for k, coeff in enumerate(_cubic_weights(t.astype(ftype), ftype)):
        np.add.at(w, (j, np.clip(i0 - 1 + k, 0, n_in - 1)), coeff.astype(ftype))
    return w


def _apply(a: np.ndarray, matrices: list[np.ndarray], transpose: bool) -> np.ndarray:
    """Contract each spatial dim (2, 3, ...) of ``a`` with its matrix (or the matrix's transpose)."""
    out = a
    for d, m in enumerate(matrices):
        axis = 2 + d
        mat = m.T if transpose else m
        out = np.moveaxis(np.tensordot(out, mat, axes=([axis], [1])), -1, axis)
    return np.ascontiguousarray(out, dtype=a.dtype)


class _Upsample:
    """One upsample op: ``kind`` along ``dims`` spatial dims (the Function classes below fix both and the name)."""

    kind: str = "nearest"
    dims: int = 2
    backward_cls: Any = None
    jvp = "from_vjp"   # forward mode: the op is linear, its tangent is the op applied to the input's tangent
    apply: Any

    @classmethod
    def matrices(cls, in_sizes, output_size, align_corners, scales, dtype) -> list[np.ndarray]:
        ftype = np.float64 if dtype == np.float64 else np.float32
        return [interpolation_matrix(cls.kind, n_in, n_out, s, bool(align_corners), ftype)
                for n_in, n_out, s in zip(in_sizes, output_size, scales)]

    @staticmethod
    def forward(ctx: Any, input: Tensor, output_size: tuple[int, ...], align_corners: bool | None,
                scales: tuple[float | None, ...]) -> Any:
        cls = type(ctx)._forward_cls
        a = input._data
        ctx.output_size, ctx.self_sym_sizes = tuple(output_size), tuple(a.shape)
        if cls.kind in ("linear", "cubic"):
            ctx.align_corners = bool(align_corners)
        for suffix, s in zip(_AXES[cls.dims], scales):
            setattr(ctx, "scales" + suffix, s)
        ctx.args = (align_corners, tuple(scales))
        return _apply(a, cls.matrices(a.shape[2:], output_size, align_corners, scales, a.dtype), False)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        cls = type(ctx)._forward_cls
        align_corners, scales = ctx.args
        return cls.backward_cls.apply(grad, ctx.output_size, ctx.self_sym_sizes, align_corners, scales), \
            None, None, None


class _UpsampleBackward:
    """The backward of an upsample op (``...BackwardBackward0``): ``Wᵀ g`` per dim; its derivative is the op."""

    forward_cls: Any = None
    jvp = "from_vjp"
    apply: Any

    @staticmethod
    def forward(ctx: Any, grad: Tensor, output_size: tuple[int, ...], input_size: tuple[int, ...],
                align_corners: bool | None, scales: tuple[float | None, ...]) -> Any:
        cls = type(ctx)._forward_cls.forward_cls
        g = grad._data
        ctx.output_size = tuple(output_size)
        if cls.kind in ("linear", "cubic"):
            ctx.align_corners = bool(align_corners)
        for suffix, s in zip(_AXES[cls.dims], scales):
            setattr(ctx, "scales" + suffix, s)
        ctx.args = (align_corners, tuple(scales))
        return _apply(g, cls.matrices(input_size[2:], output_size, align_corners, scales, g.dtype), True)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Grads:
        cls = type(ctx)._forward_cls.forward_cls
        align_corners, scales = ctx.args
        return cls.apply(grad, ctx.output_size, align_corners, scales), None, None, None, None


def _make(kind: str, dims: int, title: str) -> Any:
    scale_names = tuple("scales" + s for s in _AXES[dims])
    corner = ("align_corners",) if kind in ("linear", "cubic") else ()
    fwd: Any = type("Upsample%s%dD" % (title, dims), (_Upsample, Function), {
        "kind": kind, "dims": dims, "node_name": "Upsample%s%dDBackward0" % (title, dims),
        "saved_attrs": (*corner, "output_size", *scale_names, "self_sym_sizes"),
        "__doc__": "``F.interpolate(mode=%r)`` on %d-d spatial input: one node." % (kind, dims)})
    bwd: Any = type("Upsample%s%dDBackward" % (title, dims), (_UpsampleBackward, Function), {
        "forward_cls": fwd, "node_name": "Upsample%s%dDBackwardBackward0" % (title, dims),
        "saved_attrs": (*corner, "output_size", *scale_names),
        "__doc__": "The backward of ``%s``: the transpose of its interpolation." % fwd.__name__})
    fwd.backward_cls = bwd
    return fwd


#: (kind, number of spatial dims) -> the op class
UPSAMPLE: dict[tuple[str, int], Any] = {
    ("nearest", 1): _make("nearest", 1, "Nearest"),
    ("nearest", 2): _make("nearest", 2, "Nearest"),
    ("nearest", 3): _make("nearest", 3, "Nearest"),
    ("nearest_exact", 1): _make("nearest_exact", 1, "NearestExact"),
    ("nearest_exact", 2): _make("nearest_exact", 2, "NearestExact"),
    ("nearest_exact", 3): _make("nearest_exact", 3, "NearestExact"),
    ("linear", 1): _make("linear", 1, "Linear"),
    ("linear", 2): _make("linear", 2, "Bilinear"),
    ("linear", 3): _make("linear", 3, "Trilinear"),
    ("cubic", 2): _make("cubic", 2, "Bicubic"),
}


def upsample(input: Tensor, kind: str, output_size: list[int], align_corners: bool | None,
             scales: list[float | None]) -> Tensor:
    """Check the sizes as ATen does, then apply the op of ``kind`` (``output_size`` already computed)."""
    dims = input.dim() - 2
    letters = ("D", "H", "W")[3 - dims:]
    in_sizes = tuple(input.shape[2:])
    if any(n <= 0 for n in in_sizes) or any(n <= 0 for n in output_size):
        raise RuntimeError("Input and output sizes should be greater than 0, but got input (%s)%s output (%s)" % (
            ", ".join("%s: %d" % p for p in zip(letters, in_sizes)), " and" if dims == 1 else "",
            ", ".join("%s: %d" % p for p in zip(letters, output_size))))
    return UPSAMPLE[(kind, dims)].apply(input, tuple(int(n) for n in output_size), align_corners, tuple(scales))


def output_sizes(input: Tensor, scale_factors: list[float]) -> list[int]:
    """ATen's ``compute_output_size``: ``floor(in · scale)`` per spatial dim (in double precision)."""
    return [math.floor(float(n) * s) for n, s in zip(input.shape[2:], scale_factors)]


from .formulas import row as _row  # noqa: E402  (ops/formulas.py imports the ops modules it registers)

for _cls in UPSAMPLE.values():
    _row(_cls, ("self",), ("Wᵀ g  (per spatial dim: the transpose of the interpolation weights)",),
         "Upsampling is linear: each output is a weighted sum of a few inputs, so each input gets back g times "
         "its weights.")
    _row(_cls.backward_cls, ("grad_output",), ("W g  (the upsampling itself)",),
         "The backward of upsampling is linear in g: its derivative is the upsampling again.")
