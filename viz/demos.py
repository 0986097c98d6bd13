"""Ready-made teaching demos for the stepper (they take the autograd library as an argument)."""

from __future__ import annotations

from typing import Any

from .stepper import Stepper, step_backward

__all__ = ["sigmoid_chain", "vanishing_sigmoid_chain"]


def sigmoid_chain(lib: Any, depth: int = 12, x: float = 1.0, w: float = 1.0) -> tuple[Any, dict[str, Any]]:
    """Build ``y = σ(w·σ(w·…σ(w·x)))`` with ``depth`` sigmoids and one shared weight per layer.

    Parameters
    ----------
    lib : module
        ``minigrad`` or ``torch`` (anything with ``tensor`` and ``sigmoid``).
    depth : int
        Number of sigmoid layers.
    x, w : float
        The input and the initial value of every weight.

    Returns
    -------
    y : Tensor
        The scalar output.
    params : dict
        ``{"w0": ..., "w1": ...}``, the weights (leaves), first layer first.
    """
    if depth < 1:
        raise ValueError("depth must be at least 1")
    h = lib.tensor(float(x))
    params = {}
    for i in range(depth):
        weight = lib.tensor(float(w), requires_grad=True)
        params[f"w{i}"] = weight
        h = (weight * h).sigmoid()
    return h, params


def vanishing_sigmoid_chain(lib: Any, depth: int = 12, x: float = 1.0, w: float = 1.0,
                            presentation: bool = False) -> Stepper:
    """Step through a deep sigmoid chain with gradient flow on: the gradient vanishes.

    Each sigmoid multiplies the gradient by ``σ'(·) ≤ 1/4``, so the weights near the
    input get gradients orders of magnitude smaller than those near the output; the
    edges fade from thick red to thin blue.

    Parameters
    ----------
    lib : module
        ``minigrad`` or ``torch``.
    depth : int
    x, w : float
    presentation : bool

    Returns
    -------
    Stepper

    Examples
    --------
    >>> import minigrad                                              # doctest: +SKIP
    >>> s = vanishing_sigmoid_chain(minigrad, depth=8)               # doctest: +SKIP
    >>> grads = {k: float(v.grad) for k, v in s.params.items()}      # doctest: +SKIP
    >>> grads["w0"] < grads["w7"] / 1000                             # doctest: +SKIP
    True
    """
    y, params = sigmoid_chain(lib, depth, x, w)
    stepper = step_backward(y, params=params, grad_flow=True, presentation=presentation)
    stepper.params = params
    return stepper
