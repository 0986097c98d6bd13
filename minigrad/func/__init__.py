"""``torch.func``: function transforms — ``grad``, ``vjp``, ``jvp``, ``jacrev``, ``jacfwd``, ``hessian``, ``vmap``,
``functional_call`` — built on minigrad's reverse-mode autograd.

PyTorch implements these with functorch's levels; here each transform runs the function on fresh
leaves and asks ``autograd.grad`` (``create_graph=True``, so transforms nest: ``hessian`` is
``jacfwd(jacrev(f))``). ``jvp`` and ``jacfwd`` use forward mode (:mod:`minigrad.autograd.forward_ad`), each
at a level of its own, so they nest too. ``vmap`` runs the function once per batch element and stacks the results.

>>> import minigrad as torch
>>> from minigrad.func import grad, vmap
>>> grad(lambda x: (x ** 3).sum())(torch.tensor([1., 2.]))
tensor([ 3., 12.])
>>> vmap(torch.dot)(torch.ones(4, 3), torch.arange(12.).view(4, 3))
tensor([ 3., 12., 21., 30.])
"""

from __future__ import annotations

import contextlib
from typing import Any

from .. import _creation, autograd
from .._tensor import Tensor
from ..autograd import forward_ad

__all__ = ["grad", "grad_and_value", "vjp", "jvp", "jacrev", "jacfwd", "hessian", "vmap", "functional_call"]


def _split_aux(out: Any, has_aux: bool, call: str) -> tuple[Any, Any]:
    """``(output, aux)`` from what ``f`` returned (``aux`` None without ``has_aux``), with PyTorch's error."""
    if not has_aux:
        return out, None
    if not (isinstance(out, tuple) and len(out) == 2):
        raise RuntimeError("%s: output of function f should be a tuple: (output, aux) if has_aux is True" % call)
    return out[0], out[1]


def _tree_flatten(obj):
    if isinstance(obj, Tensor):
        return [obj], lambda leaves: leaves[0]
    if isinstance(obj, (tuple, list)):
        parts = [_tree_flatten(o) for o in obj]
        sizes = [len(p[0]) for p in parts]

        def unflatten(leaves):
            out, i = [], 0
            for (_, fn), n in zip(parts, sizes):
                out.append(fn(leaves[i:i + n]))
                i += n
            return type(obj)(out)
        return [leaf for p in parts for leaf in p[0]], unflatten
    if isinstance(obj, dict):
        keys = list(obj)
        flat, fn = _tree_flatten([obj[k] for k in keys])
        return flat, lambda leaves: dict(zip(keys, fn(leaves)))
    return [], lambda leaves: obj


def _leaf(x):
    """A differentiable stand-in for ``x`` that stays connected to an outer transform's graph."""
    if not isinstance(x, Tensor):
        raise RuntimeError("grad(f)(*args): Expected args[argnums] to be a Tensor (or a tree of Tensors)")
    return x.view_as(x) if x.requires_grad else _detach(x).requires_grad_(True)


def _finish(t, outer):
    return t if outer else _detach(t)


def _detach(t):
    """``t.detach()`` that keeps the tangents of enclosing forward-mode transforms (``jacfwd(jacrev(f))``)."""
    out = t.detach()
    for level, tangent in (t._fw_grads or {}).items():
        forward_ad._set_tangent(out, level, _detach(tangent))    # leaving this transform: its graph too
    return out


def _argnums_tuple(argnums, n):
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    for a in nums:
        if not -n <= a < n:
            raise RuntimeError("Got argnums=%s but only %d positional inputs" % (a, n))
    return nums


def grad_and_value(func: Any, argnums: int | tuple[int, ...] = 0, has_aux: bool = False) -> Any:
    """``(grad, value)`` of a function returning a scalar tensor (and ``aux`` if ``has_aux``)."""
    def wrapper(*args, **kwargs):
        nums = _argnums_tuple(argnums, len(args))
        args = list(args)
        trees = {}
        outer = False
        for a in nums:
            flat, unflatten = _tree_flatten(args[a])
            outer = outer or any(t.requires_grad for t in flat)
            leaves = [_leaf(t) for t in flat]
            trees[a] = (leaves, unflatten)
            args[a] = unflatten(leaves)
        with autograd.grad_mode.enable_grad():
            out = func(*args, **kwargs)
            out, aux = _split_aux(out, has_aux, "grad_and_value(f)(*args)")
            if not isinstance(out, Tensor):
                raise RuntimeError("grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got %s"
                                   % type(out).__name__)
            if out.ndim != 0:
                raise RuntimeError("grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got "
                                   "tensor with %d dims. Maybe you wanted to use the vjp or jacrev APIs instead?"
                                   % out.ndim)
            all_leaves = [leaf for a in nums for leaf in trees[a][0]]
            grads = autograd.grad(out, all_leaves, create_graph=True, allow_unused=True) if out.requires_grad \
                else [None] * len(all_leaves)
        grads = [_creation.zeros_like(leaf) if g is None else _finish(g, outer) for g, leaf in zip(grads, all_leaves)]
        results, i = [], 0
        for a in nums:
            leaves, unflatten = trees[a]
            results.append(unflatten(grads[i:i + len(leaves)]))
            i += len(leaves)
        g = results[0] if isinstance(argnums, int) else tuple(results)
        value = _finish(out, outer)
        if has_aux:
            flat_aux, unflatten_aux = _tree_flatten(aux)
            return g, (value, unflatten_aux([_finish(t, outer) for t in flat_aux]))
        return g, value
    return wrapper


def grad(func: Any, argnums: int | tuple[int, ...] = 0, has_aux: bool = False) -> Any:
    """The gradient of a scalar-valued ``func`` with respect to argument ``argnums`` (a function of the same args)."""
    def wrapper(*args, **kwargs):
        g, value = grad_and_value(func, argnums, has_aux)(*args, **kwargs)
        return (g, value[1]) if has_aux else g
    return wrapper


def vjp(func: Any, *primals: Any, has_aux: bool = False) -> Any:
    """``(func(*primals), vjp_fn)``; ``vjp_fn(cotangent)`` returns one vector-Jacobian product per primal."""
    outer = any(isinstance(p, Tensor) and p.requires_grad for p in primals)
    leaves = [_leaf(p) for p in primals]
    with autograd.grad_mode.enable_grad():
        out = func(*leaves)
    aux = None
    if has_aux:
        out, aux = out
    flat_out, unflatten_out = _tree_flatten(out)

    def vjp_fn(*cotangents):
        cts, _ = _tree_flatten(cotangents[0] if len(cotangents) == 1 else list(cotangents))
        if len(cts) != len(flat_out):
            raise RuntimeError("Expected pytree structure of cotangents to be the same as pytree structure of "
                               "outputs to the function")
        pairs = [(o, c) for o, c in zip(flat_out, cts) if o.requires_grad]
        if pairs:
            grads = autograd.grad([o for o, _ in pairs], leaves, [c for _, c in pairs], retain_graph=True,
                                  create_graph=True, allow_unused=True)
        else:
            grads = [None] * len(leaves)
        return tuple(_creation.zeros_like(leaf) if g is None else _finish(g, outer) for g, leaf in zip(grads, leaves))

    result = unflatten_out([_finish(o, outer) for o in flat_out])
    return (result, vjp_fn, aux) if has_aux else (result, vjp_fn)


def jacrev(func: Any, argnums: int | tuple[int, ...] = 0, *, has_aux: bool = False, chunk_size: Any = None) -> Any:
    """The Jacobian ``∂ func(*args) / ∂ args[argnums]`` by reverse mode: shape ``output.shape + input.shape``."""
    def wrapper(*args):
        nums = _argnums_tuple(argnums, len(args))
        outer = any(isinstance(args[a], Tensor) and args[a].requires_grad for a in nums)
        args = list(args)
        leaves = {a: _leaf(args[a]) for a in nums}
        for a in nums:
            args[a] = leaves[a]
        with autograd.grad_mode.enable_grad():
            out = func(*args)
            aux = None
            if has_aux:
                out, aux = out
            flat_out, unflatten = _tree_flatten(out)
            jacobians = []
            for o in flat_out:
                rows = {a: [] for a in nums}
                flat = o.reshape(-1)
                for i in range(flat.numel()):
                    grads = autograd.grad(flat[i], [leaves[a] for a in nums], retain_graph=True, create_graph=True,
                                          allow_unused=True) if flat.requires_grad else [None] * len(nums)
                    for a, g in zip(nums, grads):
                        rows[a].append(_creation.zeros_like(leaves[a]) if g is None else g)
                per_arg = []
                for a in nums:
                    stacked = _creation.stack(rows[a]) if rows[a] else _creation.zeros(0, *leaves[a].shape)
                    per_arg.append(_finish(stacked.reshape(*o.shape, *leaves[a].shape), outer))
                jacobians.append(per_arg[0] if isinstance(argnums, int) else tuple(per_arg))
        result = unflatten(jacobians)
        return (result, aux) if has_aux else result
    return wrapper


def hessian(func: Any, argnums: int | tuple[int, ...] = 0) -> Any:
    """Second derivatives: ``jacfwd(jacrev(func))``."""
    return jacfwd(jacrev(func, argnums), argnums)


def jvp(func: Any, primals: Any, tangents: Any, *, strict: bool = False, has_aux: bool = False) -> Any:
    """``(func(*primals), J · tangents)`` in forward mode: one pass with dual tensors at a level of its own
    (so ``jvp`` nests, and composes with ``grad``/``jacrev``: forward-over-reverse Hessians)."""
    if not isinstance(primals, tuple):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals to be a tuple. E.g. it should be valid to "
                           "call f(*primals).")
    if not isinstance(tangents, tuple):
        raise RuntimeError("jvp(f, primals, tangents): Expected tangents to be a tuple. E.g. it should be valid to "
                           "call f(*primals).")
    flat_p, unflatten = _tree_flatten(list(primals))
    flat_t, _ = _tree_flatten(list(tangents))
    if len(primals) != len(tangents) or len(flat_p) != len(flat_t):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals and tangents to have the same python "
                           "structure. For example, if primals is a tuple of 3 tensors, tangents also must be. Got "
                           "primals with structure %s and tangents with structure %s" % (len(primals), len(tangents)))
    level = forward_ad._enter()
    try:
        duals = [forward_ad.make_dual(p, t, level=level.index) for p, t in zip(flat_p, flat_t)]
        out = func(*unflatten(duals))
        out, aux = _split_aux(out, has_aux, "jvp(f, primals, tangents)")
        flat_out, unflatten_out = _tree_flatten(out)
        if not flat_out and not isinstance(out, Tensor):
            raise RuntimeError("jvp(f, primals, tangents): Expected f(*primals) to return only tensors, got "
                               "unsupported type %s" % type(out).__name__)
        pairs = [forward_ad.unpack_dual(o, level=level.index) for o in flat_out]
        values = [p for p, _ in pairs]
        jvps = [t if t is not None else _creation.zeros_like(p) for p, t in pairs]
        if has_aux:
            flat_aux, unflatten_aux = _tree_flatten(aux)
            aux = unflatten_aux([forward_ad.unpack_dual(a, level=level.index).primal for a in flat_aux])
    finally:
        forward_ad._exit(level)
    result = (unflatten_out(values), unflatten_out(jvps))
    return (*result, aux) if has_aux else result


def jacfwd(func: Any, argnums: int | tuple[int, ...] = 0, has_aux: bool = False, *,
           randomness: str = "error") -> Any:
    """The Jacobian in forward mode: one :func:`jvp` per input element (a column of the Jacobian each);
    shape ``output.shape + input.shape``."""
    def wrapper(*args):
        nums = _argnums_tuple(argnums, len(args))
        args = list(args)

        def restricted(*xs):
            call = list(args)
            for a, x in zip(nums, xs):
                call[a] = x
            return func(*call)

        primals = tuple(args[a] for a in nums)
        columns = []          # per argnum: the jvp outputs (flat) along each basis direction
        aux, flat_out, unflatten_out = None, None, None
        for k, x in enumerate(primals):
            cols = []
            for i in range(x.numel()):
                basis = tuple(_basis(p, i) if j == k else _creation.zeros_like(p) for j, p in enumerate(primals))
                res = jvp(restricted, primals, basis, has_aux=has_aux)
                if flat_out is None:
                    flat_out, unflatten_out = _tree_flatten(res[0])
                    aux = res[2] if has_aux else None
                cols.append(_tree_flatten(res[1])[0])
            columns.append(cols)
        if flat_out is None:           # no input elements: evaluate once for the output shapes
            out = func(*args)
            if has_aux:
                out, aux = out
            flat_out, unflatten_out = _tree_flatten(out)
        jacobians = []
        for n, o in enumerate(flat_out):
            per_arg = []
            for k, x in enumerate(primals):
                cols = [c[n] for c in columns[k]]
                stacked = (_creation.stack(cols, dim=-1) if cols else _creation.zeros(*o.shape, 0, dtype=o.dtype))
                per_arg.append(stacked.reshape(*o.shape, *x.shape))
            jacobians.append(per_arg[0] if isinstance(argnums, int) else tuple(per_arg))
        result = unflatten_out(jacobians)
        return (result, aux) if has_aux else result
    return wrapper


def _basis(x, i):
    e = _creation.zeros(x.numel(), dtype=x.dtype)
    e[i] = 1
    return e.reshape(x.shape)


def vmap(func: Any, in_dims: int = 0, out_dims: int = 0, randomness: str = 'error', *, chunk_size: Any = None) -> Any:
    """Map ``func`` over a batch dim of its inputs (``in_dims``: one per argument, ``None`` = not batched)."""
    def wrapper(*args, **kwargs):
        dims = in_dims if isinstance(in_dims, (tuple, list)) else (in_dims,) * len(args)
        if len(dims) != len(args):
            raise ValueError("vmap(%s, in_dims=%s, ...)(<inputs>): in_dims is not compatible with the structure of "
                             "`inputs`. in_dims has structure %s but inputs has structure %s."
                             % (getattr(func, "__name__", "f"), in_dims, len(dims), len(args)))
        sizes = set()
        for a, d in zip(args, dims):
            if d is not None:
                if not isinstance(a, Tensor):
                    raise ValueError("vmap(%s, in_dims=%s, ...)(<inputs>): Got in_dim=%s for an input but the input "
                                     "is of type %s. We cannot vmap over non-Tensor arguments, please use None as the "
                                     "respective in_dim" % (getattr(func, "__name__", "f"), in_dims, d, type(a)))
                sizes.add(a.shape[d])
        if not sizes:
            raise ValueError("vmap(%s, in_dims=%s, ...)(<inputs>): at least one input must be batched (in_dims all "
                             "None)" % (getattr(func, "__name__", "f"), in_dims))
        if len(sizes) > 1:
            raise ValueError("vmap: Expected all tensors to have the same size in the mapped dimension, got sizes %s "
                             "for the mapped dimension" % [a.shape[d] for a, d in zip(args, dims) if d is not None])
        n = sizes.pop()
        results = []
        for i in range(n):
            call = [a.select(d, i) if d is not None else a for a, d in zip(args, dims)]
            results.append(func(*call, **kwargs))
        flat0, unflatten = _tree_flatten(results[0])
        if not flat0 and not isinstance(results[0], Tensor):
            name = getattr(func, "__name__", "f")
            raise ValueError("vmap(%s, ...): `%s` must only return Tensors, got type %s. Did you mean to set "
                             "out_dims= to None for output?" % (name, name, type(results[0])))
        columns = list(zip(*[_tree_flatten(r)[0] for r in results]))
        odims = out_dims if isinstance(out_dims, (tuple, list)) else (out_dims,) * len(columns)
        return unflatten([_creation.stack(list(col), dim=od) for col, od in zip(columns, odims)])
    return wrapper


@contextlib.contextmanager
def _swapped(module, tensors):
    saved = []
    try:
        for name, value in tensors.items():
            *path, leaf = name.split(".")
            owner = module
            for part in path:
                owner = getattr(owner, part)
            for registry in (owner._parameters, owner._buffers):
                if leaf in registry:
                    saved.append((registry, leaf, registry[leaf]))
                    registry[leaf] = value
                    break
            else:
                raise AttributeError("%s has no parameter or buffer %r" % (type(owner).__name__, leaf))
        yield
    finally:
        for registry, leaf, old in reversed(saved):
            registry[leaf] = old


def functional_call(module: Any, parameter_and_buffer_dicts: Any, args: Any = None, kwargs: Any = None, *,
                    tie_weights: bool = True, strict: bool = False) -> Any:
    """Call ``module`` with its parameters and buffers replaced by the given tensors (the module is unchanged)."""
    if isinstance(parameter_and_buffer_dicts, (list, tuple)):
        tensors = {}
        for d in parameter_and_buffer_dicts:
            tensors.update(d)
    else:
        tensors = dict(parameter_and_buffer_dicts)
    if strict:
        expected = {n for n, _ in module.named_parameters()} | {n for n, _ in module.named_buffers()}
        missing, unexpected = sorted(expected - set(tensors)), sorted(set(tensors) - expected)
        if missing or unexpected:
            raise RuntimeError("Error(s) in reparametrizing for %s:\n\tMissing key(s): %s.\n\tUnexpected key(s): %s."
                               % (type(module).__name__, ", ".join(map(repr, missing)),
                                  ", ".join(map(repr, unexpected))))
    args = () if args is None else (args if isinstance(args, tuple) else (args,))
    with _swapped(module, tensors):
        return module(*args, **(kwargs or {}))
