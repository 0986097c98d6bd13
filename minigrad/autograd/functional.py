"""``autograd.functional``: jacobian, hessian, vjp, jvp, hvp, vhp — built from ``autograd.grad``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .grad_mode import enable_grad

if TYPE_CHECKING:
    pass

__all__ = ["jacobian", "hessian", "vjp", "jvp", "hvp", "vhp"]


def _tuple(x):
    return (x, True) if isinstance(x, tuple) else ((x,), False)


def _prepare(inputs, create_graph):
    """Fresh leaves that require grad (inputs need not), keeping graph links under create_graph."""
    ins, is_tuple = _tuple(inputs)
    out = []
    for t in ins:
        if create_graph and t.requires_grad:
            out.append(t.view_as(t))
        else:
            out.append(t.detach().requires_grad_(True))
    return tuple(out), is_tuple


def _grad(outputs, inputs, grad_outputs, create_graph, strict=False):
    from .._creation import zeros_like  # at call time: _creation is a higher layer
    from . import grad  # at call time: autograd/__init__ defines grad, then imports this module

    outs = [o for o in outputs if o.requires_grad]
    gos = [g for o, g in zip(outputs, grad_outputs) if o.requires_grad]
    if not outs:
        if strict:
            raise RuntimeError("Output 0 of the user-provided function does not require gradients. The outputs "
                               "must be computed in a differentiable manner from the input when running in strict "
                               "mode.")
        return tuple(zeros_like(t) for t in inputs)
    grads = grad(outs, inputs, gos, retain_graph=True, create_graph=create_graph, allow_unused=True)
    result = []
    for i, (g, t) in enumerate(zip(grads, inputs)):
        if g is None:
            if strict:
                raise RuntimeError("The output of the user-provided function is independent of input %d. This is "
                                   "not allowed in strict mode." % i)
            g = zeros_like(t)
        result.append(g if create_graph else g.detach())
    return tuple(result)


def jacobian(func: Any, inputs: Any, create_graph: bool = False, strict: bool = False, vectorize: bool = False,
             strategy: str = 'reverse-mode') -> Any:
    """The Jacobian: shape ``output.shape + input.shape`` (tuples of them for tuple inputs/outputs).

    >>> import minigrad as torch
    >>> jacobian(lambda t: t ** 2, torch.tensor([1., 2.]))
    tensor([[2., 0.],
            [0., 4.]])
    """
    from .._creation import stack, zeros_like  # at call time: _creation is a higher layer

    ins, in_tuple = _prepare(inputs, create_graph)
    with enable_grad():
        outs, out_tuple = _tuple(func(*ins))
        table = []
        for out in outs:
            rows = [[] for _ in ins]
            flat = out.reshape(-1)
            for k in range(flat.numel()):
                v = zeros_like(flat)
                v._data[k] = 1
                grads = _grad((flat,), ins, (v,), create_graph, strict)     # zeros if out needs no grad
                for i, g in enumerate(grads):
                    rows[i].append(g)
            per_input = []
            for i, t in enumerate(ins):
                if rows[i]:
                    j = stack(rows[i]).reshape(tuple(out.shape) + tuple(t.shape))
                else:
                    from .._creation import zeros  # at call time: _creation is a higher layer
                    j = zeros(tuple(out.shape) + tuple(t.shape), dtype=t.dtype)
                per_input.append(j if create_graph else j.detach())
            table.append(tuple(per_input))
    if not out_tuple and not in_tuple:
        return table[0][0]
    if not out_tuple:
        return table[0]
    if not in_tuple:
        return tuple(row[0] for row in table)
    return tuple(table)


def hessian(func: Any, inputs: Any, create_graph: bool = False, strict: bool = False, vectorize: bool = False,
            outer_jacobian_strategy: str = 'reverse-mode') -> Any:
    """The matrix of second derivatives of a function with one-element output."""
    _ins, in_tuple = _tuple(inputs)

    def gradient(*args):
        out = func(*args)
        if isinstance(out, tuple) or out.numel() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should contain a single element")
        from . import grad  # at call time: autograd/__init__ defines grad, then imports this module
        out = out.reshape(())
        grads = grad(out, args, create_graph=True, allow_unused=True)
        from .._creation import zeros_like  # at call time: _creation is a higher layer
        g = tuple(zeros_like(a) if gi is None else gi for gi, a in zip(grads, args))
        return g if in_tuple else g[0]

    return jacobian(gradient, inputs, create_graph=create_graph, strict=strict)


def _check_v(v, outs, what):
    if v is None:
        if len(outs) != 1 or outs[0].numel() != 1:
            raise RuntimeError("The vector v can only be None if the user-provided function returns a single Tensor "
                               "with a single element.")
        from .._creation import ones_like  # at call time: _creation is a higher layer
        return (ones_like(outs[0]),)
    return _tuple(v)[0]


def vjp(func: Any, inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False) -> Any:
    """``(func(inputs), vᵀ·J)``."""
    ins, in_tuple = _prepare(inputs, create_graph)
    with enable_grad():
        outs, out_tuple = _tuple(func(*ins))
        v = _check_v(v, outs, "vjp")
        grads = _grad(outs, ins, v, create_graph, strict)
    outs = tuple(o if create_graph else o.detach() for o in outs)
    return (outs if out_tuple else outs[0]), (grads if in_tuple else grads[0])


def jvp(func: Any, inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False) -> Any:
    """``(func(inputs), J·v)``, by the double-vjp trick (two reverse passes)."""
    from .._creation import zeros_like  # at call time: _creation is a higher layer

    ins, _in_tuple = _prepare(inputs, create_graph)
    if v is None:
        if len(ins) != 1 or ins[0].numel() != 1:
            raise RuntimeError("The vector v can only be None if the input to the user-provided function is a single "
                               "Tensor with a single element.")
        from .._creation import ones_like  # at call time: _creation is a higher layer
        v = (ones_like(ins[0]),)
    else:
        v = _tuple(v)[0]
    with enable_grad():
        outs, out_tuple = _tuple(func(*ins))
        us = tuple(zeros_like(o).requires_grad_(True) for o in outs)
        grads = _grad(outs, ins, us, True, strict)
        result = _grad(grads, us, v, create_graph, strict)
    outs = tuple(o if create_graph else o.detach() for o in outs)
    return (outs if out_tuple else outs[0]), (result if out_tuple else result[0])


def vhp(func: Any, inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False) -> Any:
    """``(func(inputs), vᵀ·H)``."""
    ins, in_tuple = _prepare(inputs, create_graph)
    with enable_grad():
        out = func(*ins)
        if isinstance(out, tuple) or out.numel() != 1:
            raise RuntimeError("The function given to vhp should return a single Tensor with a single element")
        from . import grad  # at call time: autograd/__init__ defines grad, then imports this module
        grads = grad(out.reshape(()), ins, create_graph=True, allow_unused=True)
        from .._creation import zeros_like  # at call time: _creation is a higher layer
        grads = tuple(zeros_like(i) if g is None else g for g, i in zip(grads, ins))
        v = _tuple(v)[0]
        result = _grad(grads, ins, v, create_graph, strict)
    return (out if create_graph else out.detach()), (result if in_tuple else result[0])


def hvp(func: Any, inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False) -> Any:
    """``(func(inputs), H·v)`` (equal to vᵀ·H for the symmetric Hessian)."""
    return vhp(func, inputs, v, create_graph, strict)
