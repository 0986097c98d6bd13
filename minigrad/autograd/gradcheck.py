"""Numerical gradient checks: compare finite differences with what backward computes."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from . import forward_ad

if TYPE_CHECKING:
    pass

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError"]


class GradcheckError(RuntimeError):
    """Raised by ``gradcheck`` when the analytical and numerical Jacobians differ."""


def _as_tuple(x):
    return x if isinstance(x, tuple) else tuple(x) if isinstance(x, list) else (x,)     # (as PyTorch)


def _differentiable_outputs(func, inputs):
    from .._tensor import Tensor  # at call time: autograd is imported while _tensor is loading
    return tuple(o for o in _as_tuple(func(*inputs)) if isinstance(o, Tensor) and o.dtype.is_floating_point)


def _numerical_jacobians(func, inputs, eps):
    """``J[i][j]``: d output j / d input i by central differences, shape (numel_in, numel_out).

    ``func`` runs in the caller's grad mode: under gradgradcheck it calls ``autograd.grad`` itself.
    """
    outputs = _differentiable_outputs(func, inputs)
    jacobians = []
    for t in inputs:
        if not (hasattr(t, "_data") and t.requires_grad):
            continue
        flat = t._data.reshape(-1)  # a view: writes perturb the tensor itself
        cols = [np.zeros((t.numel(), o.numel())) for o in outputs]
        for k in range(t.numel()):
            orig = flat[k].item()
            flat[k] = orig + eps
            plus = [o._data.astype(np.float64).reshape(-1).copy() for o in _differentiable_outputs(func, inputs)]
            flat[k] = orig - eps
            minus = [o._data.astype(np.float64).reshape(-1).copy() for o in _differentiable_outputs(func, inputs)]
            flat[k] = orig
            for j in range(len(outputs)):
                cols[j][k] = (plus[j] - minus[j]) / (2 * eps)
        jacobians.append(cols)
    return outputs, jacobians


def _forward_jacobians(func, inputs):
    """``J[i][j]`` by forward mode: one pass per input element, its tangent a basis vector."""
    from .._creation import zeros_like  # at call time: _creation is a higher layer

    diff_inputs = [t for t in inputs if hasattr(t, "_data") and t.requires_grad]
    outputs = _differentiable_outputs(func, inputs)
    jacobians = [[np.zeros((t.numel(), o.numel())) for o in outputs] for t in diff_inputs]
    for i, t in enumerate(diff_inputs):
        for k in range(t.numel()):
            tangent = zeros_like(t, dtype=t.dtype)
            tangent._data.flat[k] = 1            # (flat: reshape(-1) would copy a non-contiguous tangent)
            with forward_ad.dual_level():
                duals = [forward_ad.make_dual(a, tangent) if a is t else a for a in inputs]
                outs = _differentiable_outputs(func, duals)
                for j, o in enumerate(outs):
                    jvp = forward_ad.unpack_dual(o).tangent
                    if jvp is not None:
                        jacobians[i][j][k] = jvp._data.astype(np.float64).reshape(-1)
    return jacobians


def _analytical_jacobians(func, inputs):
    from .. import autograd  # at call time: autograd/__init__ imports this module
    from .._creation import zeros_like  # at call time: _creation is a higher layer

    diff_inputs = [t for t in inputs if hasattr(t, "_data") and t.requires_grad]
    outputs = _differentiable_outputs(func, inputs)
    jacobians = [[np.zeros((t.numel(), o.numel())) for o in outputs] for t in diff_inputs]
    for j, out in enumerate(outputs):
        if not out.requires_grad:
            continue
        for m in range(out.numel()):
            v = zeros_like(out)
            v._data.flat[m] = 1                  # (flat: reshape(-1) would copy a non-contiguous v)
            grads = autograd.grad(out, diff_inputs, v, retain_graph=True, allow_unused=True)
            for i, g in enumerate(grads):
                if g is not None:
                    jacobians[i][j][:, m] = g._data.astype(np.float64).reshape(-1)
    return jacobians


def gradcheck(func: Any, inputs: Any, *, eps: float = 1e-06, atol: float = 1e-05, rtol: float = 0.001,
              raise_exception: bool = True, nondet_tol: float = 0.0, check_undefined_grad: bool = True,
              check_grad_dtypes: bool = False, check_batched_grad: bool = False,
              check_batched_forward_grad: bool = False, check_forward_ad: bool = False,
              check_backward_ad: bool = True, fast_mode: bool = False, masked: Any = None) -> Any:
    """Check backward against finite differences; True, or ``GradcheckError`` (False if not raising).

    >>> import minigrad as torch
    >>> x = torch.tensor([0., 1.], dtype=torch.float64, requires_grad=True)
    >>> torch.autograd.gradcheck(torch.sin, x)
    True
    """
    from .._creation import Tensor  # at call time: _creation is a higher layer

    inputs = _as_tuple(inputs)
    tensors = [t for t in inputs if isinstance(t, Tensor)]
    if not any(t.requires_grad for t in tensors):
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of them have "
                         "requires_grad=True.")
    for i, t in enumerate(inputs):
        if isinstance(t, Tensor) and t.requires_grad and t.dtype.name != "float64":
            warnings.warn("Input #%d requires gradient and is not a double precision floating point or complex. This "
                          "check will likely fail if all the inputs are not of double precision floating point or "
                          "complex. " % i, UserWarning, stacklevel=2)
    _, numerical = _numerical_jacobians(func, inputs, eps)
    checks = []
    if check_backward_ad:
        checks.append(("Jacobian mismatch", _analytical_jacobians(func, inputs)))
    if check_forward_ad:
        checks.append(("Jacobian computed with forward mode mismatch", _forward_jacobians(func, inputs)))
    for what, analytical in checks:
        for i, (num_i, ana_i) in enumerate(zip(numerical, analytical)):
            for j, (num, ana) in enumerate(zip(num_i, ana_i)):
                if not np.allclose(ana, num, rtol=rtol, atol=atol):
                    if not raise_exception:
                        return False
                    raise GradcheckError("%s for output %d with respect to input %d,\nnumerical:%r\nanalytical:%r\n"
                                         % (what, j, i, _as_tensor(num), _as_tensor(ana)))
    return True


def _as_tensor(a):
    from .._tensor import Tensor  # at call time: autograd is imported while _tensor is loading
    return Tensor._make(np.asarray(a))


def gradgradcheck(func: Any, inputs: Any, grad_outputs: Any = None, *, eps: float = 1e-06, atol: float = 1e-05,
                  rtol: float = 0.001, gen_non_contig_grad_outputs: bool = False, raise_exception: bool = True,
                  **kwargs: Any) -> Any:
    """Check second derivatives: gradcheck of the function ``inputs, v ↦ vᵀ·J(inputs)``."""
    from .. import autograd  # at call time: autograd/__init__ imports this module
    from .._creation import Tensor, randn  # at call time: _creation is a higher layer

    inputs = _as_tuple(inputs)
    outputs = _differentiable_outputs(func, inputs)
    if grad_outputs is None:
        grad_outputs = tuple(randn(*o.shape, dtype=o.dtype, requires_grad=True) for o in outputs)
    else:
        grad_outputs = _as_tuple(grad_outputs)
    n = len(inputs)
    diff_positions = [i for i, t in enumerate(inputs) if isinstance(t, Tensor) and t.requires_grad]

    def first_derivative(*args):
        ins, vs = args[:n], args[n:]
        outs = _differentiable_outputs(func, ins)
        pairs = [(o, v) for o, v in zip(outs, vs) if o.requires_grad]
        grads = autograd.grad([o for o, _ in pairs], [ins[i] for i in diff_positions], [v for _, v in pairs],
                              create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(first_derivative, inputs + tuple(grad_outputs), eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)
