"""matplotlib plots for teaching: gradient flow per layer, loss curves, a function with its tangent."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from .capture import to_numpy

__all__ = ["plot_grad_flow", "plot_losses", "plot_tangent"]


def _axes(ax: Any) -> Any:
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    return plt.figure().add_subplot()


def plot_grad_flow(named_parameters: Iterable[tuple[str, Any]], ax: Any = None) -> Any:
    """Bar chart of the mean and max absolute gradient of each parameter.

    Vanishing gradients show as bars shrinking toward the input layers.
    Biases are skipped (as is usual in this plot); parameters without a
    gradient yet are marked "no grad" rather than drawn as zero.

    Parameters
    ----------
    named_parameters : iterable of (str, Tensor)
        Usually ``model.named_parameters()``.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import numpy as np
    >>> class P:  # anything with .grad and .requires_grad
    ...     def __init__(self, g): self.grad, self.requires_grad = g, True
    >>> ax = plot_grad_flow([("fc1.weight", P(np.ones(3))), ("fc2.weight", P(None))])
    >>> [t.get_text() for t in ax.get_xticklabels()]
    ['fc1.weight', 'fc2.weight\\n(no grad)']
    """
    ax = _axes(ax)
    names, means, maxes = [], [], []
    for name, param in named_parameters:
        if not getattr(param, "requires_grad", True) or name.endswith("bias"):
            continue
        if param.grad is None:
            names.append(f"{name}\n(no grad)")
            means.append(0.0)
            maxes.append(0.0)
            continue
        grad = np.abs(to_numpy(param.grad))
        names.append(name)
        means.append(float(grad.mean()))
        maxes.append(float(grad.max()))
    positions = np.arange(len(names))
    ax.bar(positions, maxes, width=0.8, alpha=0.4, color="tab:cyan", label="max |grad|")
    ax.bar(positions, means, width=0.8, alpha=0.9, color="tab:blue", label="mean |grad|")
    ax.set_xticks(positions, names, rotation=45, ha="right")
    ax.set_xlim(-0.75, len(names) - 0.25)
    ax.set_ylabel("absolute gradient")
    ax.set_title("gradient flow")
    ax.legend()
    return ax


def plot_losses(losses: Sequence[float] | dict[str, Sequence[float]], ax: Any = None,
                log: bool = False) -> Any:
    """Plot loss curves: one sequence, or ``{"train": [...], "val": [...]}``.

    Parameters
    ----------
    losses : sequence of float, or mapping of name to sequence
        Values may be floats or 0-d tensors.
    ax : matplotlib Axes, optional
    log : bool
        Logarithmic y axis.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> ax = plot_losses({"train": [1.0, 0.5, 0.25], "val": [1.1, 0.7, 0.6]})
    >>> [line.get_label() for line in ax.get_lines()]
    ['train', 'val']
    """
    ax = _axes(ax)
    curves = losses if isinstance(losses, dict) else {"loss": losses}
    for name, values in curves.items():
        ys = [float(to_numpy(v)) for v in values]
        ax.plot(np.arange(len(ys)), ys, label=name)
    ax.set_xlabel("step")
    ax.set_ylabel("loss")
    if log:
        ax.set_yscale("log")
    if len(curves) > 1:
        ax.legend()
    return ax


def _slope(f: Callable[[Any], Any], x0: float, torch: Any) -> tuple[float, float]:
    """f(x0) and f'(x0): by autograd when ``torch`` is given, else a central difference."""
    if torch is not None:
        x = torch.tensor(float(x0), requires_grad=True)
        y = f(x)
        y.backward()
        return float(to_numpy(y)), float(to_numpy(x.grad))
    h = 1e-5
    return float(f(x0)), (float(f(x0 + h)) - float(f(x0 - h))) / (2 * h)


def plot_tangent(f: Callable[[Any], Any], x0: float, ax: Any = None, torch: Any = None,
                 xlim: tuple[float, float] | None = None, num: int = 200) -> Any:
    """Plot ``f`` and its tangent line at ``x0`` (the derivative as a slope).

    Parameters
    ----------
    f : callable
        A scalar function.  Called on numpy arrays to draw the curve, and on a
        0-d tensor of ``torch`` (minigrad or PyTorch) to get the slope by
        autograd; without ``torch`` the slope is a central difference.
    x0 : float
        Where to draw the tangent.
    ax : matplotlib Axes, optional
    torch : module, optional
        The autograd library that computes ``f'(x0)``.
    xlim : (float, float), optional
        Plotted range; ``x0 ± 3`` by default.
    num : int
        Number of points on the curve.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> ax = plot_tangent(lambda x: x ** 2, 1.0)
    >>> ax.get_title()
    "f'(1) = 2"
    """
    ax = _axes(ax)
    lo, hi = xlim if xlim is not None else (x0 - 3.0, x0 + 3.0)
    xs = np.linspace(lo, hi, num)
    ys = np.asarray(f(xs), dtype=float)
    y0, slope = _slope(f, x0, torch)
    ax.plot(xs, ys, label="f(x)")
    ax.plot(xs, y0 + slope * (xs - x0), "--", label=f"tangent at x = {x0:g}")
    ax.plot([x0], [y0], "o", color="black")
    ax.set_xlabel("x")
    ax.set_ylabel("f(x)")
    ax.set_title(f"f'({x0:g}) = {slope:.4g}")
    ax.legend()
    return ax
