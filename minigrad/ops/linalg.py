"""Linear algebra: mm, mv, dot, bmm, addmm and the batched matmul.  Matmul does not promote dtypes."""

from __future__ import annotations

import numpy as np

from ..autograd.function import Function


def _dims(shape):
    return "x".join(str(s) for s in shape)


def _same_dtype(x, y, first="mat1", second="mat2"):
    if x.dtype is not y.dtype:
        raise RuntimeError("%s and %s must have the same dtype, but got %s and %s"
                           % (first, second, x.dtype._legacy, y.dtype._legacy))


class Mm(Function):
    """Matrix product of 2-D tensors.  Backward: d/dx = grad @ yᵀ, d/dy = xᵀ @ grad."""

    node_name = "MmBackward0"
    saved_names = ("self", "mat2")

    @staticmethod
    def forward(ctx, x, y):
        if x.ndim != 2 or y.ndim != 2:
            raise RuntimeError("self must be a matrix" if x.ndim != 2 else "mat2 must be a matrix")
        if x.shape[1] != y.shape[0]:
            raise RuntimeError("mat1 and mat2 shapes cannot be multiplied (%s and %s)" % (_dims(x.shape), _dims(y.shape)))
        _same_dtype(x, y)
        ctx.save_for_backward(x if ctx.needs_input_grad[1] else None, y if ctx.needs_input_grad[0] else None)
        return x._data @ y._data

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        return (grad.mm(y.t()) if ctx.needs_input_grad[0] else None,
                x.t().mm(grad) if ctx.needs_input_grad[1] else None)


class Mv(Function):
    """Matrix @ vector.  Backward: d/dM = outer(grad, v), d/dv = Mᵀ @ grad."""

    node_name = "MvBackward0"
    saved_names = ("self", "vec")

    @staticmethod
    def forward(ctx, m, v):
        if m.shape[1] != v.shape[0]:
            raise RuntimeError("size mismatch, got input (%d), mat (%s), vec (%d)" % (m.shape[0], _dims(m.shape), v.shape[0]))
        _same_dtype(m, v, "self", "vec")
        ctx.save_for_backward(m, v)
        return m._data @ v._data

    @staticmethod
    def backward(ctx, grad):
        m, v = ctx.saved_tensors
        return (grad.unsqueeze(1) * v.unsqueeze(0) if ctx.needs_input_grad[0] else None,
                m.t().mv(grad) if ctx.needs_input_grad[1] else None)


class Dot(Function):
    """Inner product of 1-D tensors.  Backward: d/dx = grad * y, d/dy = grad * x."""

    node_name = "DotBackward0"
    saved_names = ("self", "tensor")

    @staticmethod
    def forward(ctx, x, y):
        if x.ndim != 1 or y.ndim != 1:
            raise RuntimeError("1D tensors expected, but got %dD and %dD tensors" % (x.ndim, y.ndim))
        if x.shape[0] != y.shape[0]:
            raise RuntimeError("inconsistent tensor size, expected tensor [%d] and src [%d] to have the same number "
                               "of elements, but got %d and %d elements respectively"
                               % (x.shape[0], y.shape[0], x.shape[0], y.shape[0]))
        _same_dtype(x, y, "self", "tensor")
        ctx.save_for_backward(x, y)
        return np.asarray(x._data @ y._data)

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        return grad * y, grad * x


class Bmm(Function):
    """Batched matrix product of 3-D tensors.  Backward: grad @ yᵀ, xᵀ @ grad per batch."""

    node_name = "BmmBackward0"
    saved_names = ("self", "mat2")

    @staticmethod
    def forward(ctx, x, y):
        if x.ndim != 3 or y.ndim != 3:
            raise RuntimeError("batch1 must be a 3D tensor" if x.ndim != 3 else "batch2 must be a 3D tensor")
        if x.shape[0] != y.shape[0] or x.shape[2] != y.shape[1]:
            raise RuntimeError("Expected size for first two dimensions of batch2 tensor to be: [%d, %d] but got: "
                               "[%d, %d]." % (x.shape[0], x.shape[2], y.shape[0], y.shape[1]))
        _same_dtype(x, y, "batch1", "batch2")
        ctx.save_for_backward(x, y)
        return np.matmul(x._data, y._data)

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        return grad.bmm(y.transpose(1, 2)), x.transpose(1, 2).bmm(grad)


class Addmm(Function):
    """``beta * bias + alpha * (x @ w)``, what ``nn.Linear`` records.  Backward: bias ← grad, x ← grad @ wᵀ, w ← xᵀ @ grad."""

    node_name = "AddmmBackward0"
    saved_names = ("mat1", "mat2")
    saved_attrs = ("alpha", "beta")

    @staticmethod
    def forward(ctx, bias, x, w, beta=1, alpha=1):
        if x.shape[1] != w.shape[0]:
            raise RuntimeError("mat1 and mat2 shapes cannot be multiplied (%s and %s)" % (_dims(x.shape), _dims(w.shape)))
        _same_dtype(x, w)
        ctx.alpha, ctx.beta = alpha, beta
        ctx.save_for_backward(x if ctx.needs_input_grad[2] else None, w if ctx.needs_input_grad[1] else None)
        out = x._data @ w._data
        if alpha != 1:
            out = out * alpha
        return out + (bias._data if beta == 1 else beta * bias._data)

    @staticmethod
    def backward(ctx, grad):
        x, w = ctx.saved_tensors
        g = grad if ctx.alpha == 1 else grad * ctx.alpha
        return (grad if ctx.beta == 1 else grad * ctx.beta) if ctx.needs_input_grad[0] else None, \
            g.mm(w.t()) if ctx.needs_input_grad[1] else None, \
            x.t().mm(g) if ctx.needs_input_grad[2] else None, None, None


class BatchedMatmul(Function):
    """``x @ y`` with batch dimensions (broadcast).  Backward: grad @ yᵀ and xᵀ @ grad, summed over broadcast batches."""

    node_name = "UnsafeViewBackward0"
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, x, y):
        _same_dtype(x, y, "expected m1", "m2")
        xs, ys = x.shape, y.shape
        if xs[-1] != (ys[-2] if y.ndim > 1 else ys[0]):
            raise RuntimeError("Expected size for first two dimensions of batch2 tensor to be: [%s, %d] but got: "
                               "[%s, %d]." % (xs[0], xs[-1], ys[0], ys[-2] if y.ndim > 1 else ys[0]))
        ctx.save_for_backward(x, y)
        return np.matmul(x._data, y._data)

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        gx = gy = None
        if y.ndim == 1:
            gx = grad.unsqueeze(-1) * y if ctx.needs_input_grad[0] else None
            gy = (x * grad.unsqueeze(-1)).sum(tuple(range(x.ndim - 1))) if ctx.needs_input_grad[1] else None
            return gx, gy
        if x.ndim == 1:
            gx = (grad.unsqueeze(-2) @ y.transpose(-1, -2)).sum(tuple(range(grad.ndim - 1))) \
                if ctx.needs_input_grad[0] else None
            gy = x.unsqueeze(-1) * grad.unsqueeze(-2) if ctx.needs_input_grad[1] else None
            return gx, gy
        if ctx.needs_input_grad[0]:
            gx = grad.matmul(y.transpose(-1, -2))
        if ctx.needs_input_grad[1]:
            gy = x.transpose(-1, -2).matmul(grad)
        return gx, gy


def matmul(x, y):
    """Dispatch like ``torch.matmul``: dot, mv, mm, 1-D @ 2-D, or the batched product."""
    if x.ndim == 0 or y.ndim == 0:
        raise RuntimeError("both arguments to matmul need to be at least 1D, but they are %dD and %dD"
                           % (x.ndim, y.ndim))
    if x.ndim == 1 and y.ndim == 1:
        return Dot.apply(x, y)
    if x.ndim == 2 and y.ndim == 1:
        return Mv.apply(x, y)
    if x.ndim == 1 and y.ndim == 2:
        from .shape import SqueezeMatmul
        if x.shape[0] != y.shape[0]:
            raise RuntimeError("mat1 and mat2 shapes cannot be multiplied (1x%d and %s)" % (x.shape[0], _dims(y.shape)))
        return SqueezeMatmul.apply(Mm.apply(x.unsqueeze(0), y), 0)
    if x.ndim == 2 and y.ndim == 2:
        return Mm.apply(x, y)
    return BatchedMatmul.apply(x, y)
