"""viz.plots under Agg: each plot returns its Axes, with the data in it."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

from viz.plots import plot_grad_flow, plot_losses, plot_tangent

pytestmark = pytest.mark.usefixtures("close_figures")


def test_grad_flow_bars_mean_and_max_per_layer(lib: ModuleType) -> None:
    w1 = lib.tensor([[1.0, -3.0]], requires_grad=True)
    w2 = lib.tensor([[2.0], [0.5]], requires_grad=True)
    bias = lib.tensor([0.0], requires_grad=True)
    frozen = lib.ones(2)
    never = lib.ones(2, requires_grad=True)
    ((w1 @ w2) * 2 + bias).sum().backward()
    params = [("fc1.weight", w1), ("fc2.weight", w2), ("fc2.bias", bias), ("frozen", frozen),
              ("never", never)]
    ax = plot_grad_flow(params)
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert labels == ["fc1.weight", "fc2.weight", "never\n(no grad)"]
    heights = [p.get_height() for p in ax.patches]
    maxes, means = heights[:3], heights[3:]
    np.testing.assert_allclose(maxes, [4.0, 6.0, 0.0])  # dL/dw1 = 2 w2ᵀ = [4, 1]; dL/dw2 = 2 w1ᵀ = [2, -6]
    np.testing.assert_allclose(means, [2.5, 4.0, 0.0])
    assert ax.get_title() == "gradient flow"


def test_grad_flow_draws_into_a_given_axes() -> None:
    import matplotlib.pyplot as plt

    _, ax = plt.subplots()
    assert plot_grad_flow([], ax=ax) is ax


def test_losses_single_and_several_curves(lib: ModuleType) -> None:
    ax = plot_losses([lib.tensor(1.0), 0.5, 0.25], log=True)
    np.testing.assert_allclose(ax.get_lines()[0].get_ydata(), [1.0, 0.5, 0.25])
    assert ax.get_yscale() == "log"
    assert ax.get_legend() is None
    ax = plot_losses({"train": [3, 2], "val": [4, 3]})
    assert [line.get_label() for line in ax.get_lines()] == ["train", "val"]


def test_tangent_slope_by_autograd_and_by_difference(lib: ModuleType) -> None:
    ax = plot_tangent(lambda x: x ** 3, 2.0, torch=lib, xlim=(0.0, 3.0))
    assert ax.get_title() == "f'(2) = 12"
    _curve, tangent, point = ax.get_lines()
    xs, ys = tangent.get_data()
    np.testing.assert_allclose(ys, 8.0 + 12.0 * (xs - 2.0))
    assert point.get_data()[0][0] == 2.0
    assert plot_tangent(np.sin, 0.0).get_title() == "f'(0) = 1"
