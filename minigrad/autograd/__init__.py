"""``minigrad.autograd``: backward, grad, Function, grad modes, gradcheck and functional transforms."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .. import _tensor  # circular: `_tensor.Tensor` at call time
from . import graph
from .anomaly_mode import detect_anomaly, set_detect_anomaly
from .engine import run_backward
from .formulas import Formula, derivative_formula
from .function import Function, FunctionCtx, once_differentiable
from .grad_mode import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled

__all__ = ["backward", "grad", "Function", "FunctionCtx", "once_differentiable", "Variable", "graph",
           "no_grad", "enable_grad", "set_grad_enabled", "inference_mode", "is_grad_enabled",
           "gradcheck", "gradgradcheck", "functional", "detect_anomaly", "set_detect_anomaly",
           "derivative_formula", "Formula"]

_warned_create_graph = [False]


def _tensors(value, what):
    if isinstance(value, _tensor.Tensor):
        return (value,)
    value = tuple(value)
    if what == "inputs":
        for t in value:
            if not isinstance(t, _tensor.Tensor):
                raise RuntimeError("all inputs have to be Tensors or GradientEdges, but got %s" % type(t).__name__)
    return value


def _make_grads(outputs, grad_outputs, is_grads_batched=False):
    """The seed gradients: 1 for a one-element output, else the given vectors (shape-checked)."""
    Tensor = _tensor.Tensor
    grads = []
    for i, (out, g) in enumerate(zip(outputs, grad_outputs)):
        if g is None:
            if out.requires_grad:
                if out.numel() != 1:
                    raise RuntimeError("grad can be implicitly created only for scalar outputs")
                g = Tensor._make(np.ones(out._data.shape, dtype=out._data.dtype), False)
        elif not isinstance(g, Tensor):
            raise TypeError("gradients can be either Tensors or None, but got %s" % type(g).__name__)
        else:
            if g._data.shape != out._data.shape:
                raise RuntimeError("Mismatch in shape: grad_output[%d] has a shape of %r and output[%d] has a shape "
                                   "of %r." % (i, g.shape, i, out.shape))
            if g._data.dtype != out._data.dtype:
                g = g.to(out.dtype)
        grads.append(g)
    return grads


def _check_roots(outputs):
    for i, out in enumerate(outputs):
        if not out.requires_grad:
            raise RuntimeError("element %d of tensors does not require grad and does not have a grad_fn" % i)


def backward(tensors: Any, grad_tensors: Any = None, retain_graph: Any = None, create_graph: bool = False,
             grad_variables: Any = None, inputs: Any = None) -> Any:
    """Accumulate into the leaves' ``.grad`` the vector-Jacobian product of ``tensors`` with ``grad_tensors``."""
    tensors = _tensors(tensors, "tensors")
    if grad_variables is not None:
        warnings.warn("`grad_variables` is deprecated. Use `grad_tensors` instead.", FutureWarning, stacklevel=2)
        if grad_tensors is None:
            grad_tensors = grad_variables
    if grad_tensors is None:
        grad_tensors = (None,) * len(tensors)
    elif hasattr(grad_tensors, "_data"):
        grad_tensors = (grad_tensors,)
    else:
        grad_tensors = tuple(grad_tensors)
    if retain_graph is None:
        retain_graph = create_graph
    if inputs is not None:
        inputs = _tensors(inputs, "inputs")
        if len(inputs) == 0:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    grads = _make_grads(tensors, grad_tensors)             # (type errors first, as in PyTorch)
    if len(grad_tensors) != len(tensors):
        raise RuntimeError("got %d tensors and %d gradients" % (len(tensors), len(grad_tensors)))
    _check_roots(tensors)
    for t in inputs or ():
        if not t.requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
    if create_graph and not _warned_create_graph[0]:
        _warned_create_graph[0] = True
        warnings.warn(
            "Using backward() with create_graph=True will create a reference cycle between the parameter and its "
            "gradient which can cause a memory leak. We recommend using autograd.grad when creating the graph to "
            "avoid this. If you have to use this function, make sure to reset the .grad fields of your parameters "
            "to None after use to break the cycle and avoid the leak.", UserWarning, stacklevel=3)
    run_backward(tensors, grads, retain_graph, create_graph, inputs=inputs, accumulate=True)


def grad(outputs: Any, inputs: Any, grad_outputs: Any = None, retain_graph: Any = None, create_graph: bool = False,
         only_inputs: bool = True, allow_unused: Any = None, is_grads_batched: bool = False,
         materialize_grads: bool = False) -> Any:
    """The gradients of ``outputs`` with respect to ``inputs``, returned (``.grad`` is not touched).

    >>> import minigrad as torch
    >>> x = torch.tensor([1., 2.], requires_grad=True)
    >>> torch.autograd.grad((x ** 2).sum(), x)
    (tensor([2., 4.]),)
    """
    from .. import _creation  # at call time: _creation is a higher layer

    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads=True, but got: "
                         "allow_unused=False.")
    allow_unused = allow_unused or materialize_grads
    as_dict = isinstance(inputs, dict)
    keys = list(inputs) if as_dict else None
    input_list = tuple(inputs.values()) if as_dict else _tensors(inputs, "inputs")
    outputs = _tensors(outputs, "outputs")
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    elif hasattr(grad_outputs, "_data"):
        grad_outputs = (grad_outputs,)
    else:
        grad_outputs = tuple(grad_outputs)
    grads = _make_grads(outputs, grad_outputs)
    _check_roots(outputs)
    for t in input_list:
        if not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    if retain_graph is None:
        retain_graph = create_graph
    result = run_backward(outputs, grads, retain_graph, create_graph, inputs=input_list, accumulate=False)
    out = []
    for i, (g, t) in enumerate(zip(result, input_list)):
        if g is None:
            if materialize_grads:
                g = _creation.zeros_like(t)
            elif not allow_unused:
                raise RuntimeError("The differentiated Tensor at index %d appears to not have been used in the graph. "
                                   "Set allow_unused=True if this is the desired behavior." % i)
        out.append(g)
    return dict(zip(keys, out)) if as_dict else tuple(out)  # type: ignore[arg-type]  # keys is set when as_dict


def Variable(data: Any, requires_grad: bool = False, volatile: bool = False) -> Any:
    """Legacy (before PyTorch 0.4): ``Variable(t, requires_grad)`` is ``t.detach().requires_grad_(requires_grad)``.

    A new leaf that shares ``t``'s memory: ``t`` itself keeps its ``requires_grad``, and a non-leaf's history
    is cut off, as in PyTorch.
    """

    if volatile:
        warnings.warn("volatile was removed and now has no effect. Use `with torch.no_grad():` instead.",
                      UserWarning, stacklevel=2)
        requires_grad = False
    return data.detach().requires_grad_(requires_grad)


from . import forward_ad, functional, profiler  # noqa: E402,F401 - torch.autograd.forward_ad, .functional, .profiler
from .gradcheck import gradcheck, gradgradcheck  # noqa: E402
