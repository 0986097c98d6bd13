"""PyTorch's fused double-backward nodes (``ConvolutionBackwardBackward0``, ``AvgPool2DBackwardBackward0``...).

For each program: the gradients of orders 1 to 3 equal PyTorch's (float64); the graph every create_graph
gradient records (names, edges, leaves; the incoming gradients require grad) is PyTorch's, and the
higher-order gradients' nodes are PyTorch's at the top; the fused node's
``_saved_*`` are PyTorch's names with PyTorch's values; and the gradient function passes gradgradcheck
(the fused node's own backward is differentiated numerically too).
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import graph_structure

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck

torch = pytest.importorskip("torch")

#: name -> (program(lib, F, *inputs), input shapes, which inputs require grad, fused node, orders compared)
PROGRAMS = {
    "conv2d": (lambda L, F, x, w, b: F.conv2d(x, w, b).exp(), [(2, 3, 4, 4), (2, 3, 2, 2), (2,)], None,
               "ConvolutionBackwardBackward0", 3),
    "conv2d_geometry": (lambda L, F, x, w, b: F.conv2d(x, w, b, 2, 1, 2, 2).sin(), [(1, 4, 6, 5), (4, 2, 2, 3), (4,)],
                        None, "ConvolutionBackwardBackward0", 3),
    "conv2d_no_bias_input_only": (lambda L, F, x, w: F.conv2d(x, w).sin(), [(1, 2, 4, 4), (3, 2, 2, 2)],
                                  [True, False], "ConvolutionBackwardBackward0", 3),
    "conv2d_weight_only": (lambda L, F, x, w, b: F.conv2d(x, w, b).sin(), [(1, 2, 4, 4), (3, 2, 2, 2), (3,)],
                           [False, True, False], "ConvolutionBackwardBackward0", 3),
    "conv2d_bias_only": (lambda L, F, x, w, b: F.conv2d(x, w, b).sin(), [(1, 2, 4, 4), (3, 2, 2, 2), (3,)],
                         [False, False, True], "ConvolutionBackwardBackward0", 3),
    "conv1d": (lambda L, F, x, w, b: F.conv1d(x, w, b, 2, 1, 1, 2).tanh(), [(2, 4, 7), (2, 2, 3), (2,)], None,
               "ConvolutionBackwardBackward0", 3),
    "conv_transpose2d": (lambda L, F, x, w, b: F.conv_transpose2d(x, w, b).exp(), [(1, 3, 3, 3), (3, 2, 2, 2), (2,)],
                         None, "ConvolutionBackwardBackward0", 3),
    "conv_transpose2d_stride_dilation": (
        lambda L, F, x, w, b: F.conv_transpose2d(x, w, b, 2, 1, 0, 1, 2).sin(), [(1, 2, 3, 3), (2, 2, 2, 2), (2,)],
        None, "ConvolutionBackwardBackward0", 3),
    # (PyTorch itself cannot take a third derivative with output_padding: "output_padding is not supported for
    # non-transposed convolutions")
    "conv_transpose2d_output_padding": (
        lambda L, F, x, w, b: F.conv_transpose2d(x, w, b, 2, 1, 1).sin(), [(1, 2, 3, 3), (2, 2, 3, 3), (2,)],
        None, "ConvolutionBackwardBackward0", 2),
    "max_pool2d": (lambda L, F, x: F.max_pool2d(x, 2).exp(), [(2, 2, 4, 5)], None,
                   "MaxPool2DWithIndicesBackwardBackward0", 3),
    "max_pool2d_linear": (lambda L, F, x: F.max_pool2d(x, 2), [(1, 2, 4, 4)], None,
                          "MaxPool2DWithIndicesBackwardBackward0", 3),
    "max_pool2d_geometry": (lambda L, F, x: F.max_pool2d(x, 3, 2, 1, 1, True).sin(), [(1, 2, 6, 5)], None,
                            "MaxPool2DWithIndicesBackwardBackward0", 3),
    "max_pool1d": (lambda L, F, x: F.max_pool1d(x, 2).sin(), [(2, 3, 5)], None,
                   "MaxPool2DWithIndicesBackwardBackward0", 3),
    "avg_pool2d": (lambda L, F, x: F.avg_pool2d(x, 2).exp(), [(2, 2, 4, 5)], None, "AvgPool2DBackwardBackward0", 3),
    "avg_pool2d_geometry": (lambda L, F, x: F.avg_pool2d(x, 3, 2, 1, True, False).sin(), [(1, 2, 6, 5)], None,
                            "AvgPool2DBackwardBackward0", 3),
    "avg_pool2d_divisor": (lambda L, F, x: F.avg_pool2d(x, 2, 1, 0, False, True, 3).sin(), [(3, 4, 5)], None,
                           "AvgPool2DBackwardBackward0", 3),
    "avg_pool1d": (lambda L, F, x: F.avg_pool1d(x, 2).sin(), [(2, 3, 5)], None, "AvgPool2DBackwardBackward0", 3),
    "adaptive_avg_pool2d": (lambda L, F, x: F.adaptive_avg_pool2d(x, (2, 3)).sin(), [(2, 2, 5, 5)], None,
                            "AdaptiveAvgPool2DBackwardBackward0", 3),
    # training-mode batch norm: PyTorch's third derivative is wrong (its batchnorm_double_backward's own
    # derivative fails torch.autograd.gradgradcheck of the gradient function; minigrad's passes, see
    # test_the_fused_nodes_backward_is_differentiable), so only two orders are compared with it
    "batch_norm": (lambda L, F, x, w, b: F.batch_norm(x, None, None, w, b, True).exp(), [(3, 2, 4), (2,), (2,)],
                   None, "NativeBatchNormBackwardBackward0", 2),
    "batch_norm_running_stats": (
        lambda L, F, x, w: F.batch_norm(x, L.zeros(2, dtype=L.float64), L.ones(2, dtype=L.float64), w, None,
                                        True).sin(), [(3, 2, 2, 2), (2,)], None, "NativeBatchNormBackwardBackward0", 2),
    "batch_norm_no_weight": (lambda L, F, x: F.batch_norm(x, None, None, None, None, True).sin(), [(4, 2)], None,
                             "NativeBatchNormBackwardBackward0", 2),
    "batch_norm_eval": (
        lambda L, F, x, w, b: F.batch_norm(x, L.full((2,), 0.1, dtype=L.float64), L.full((2,), 2.0, dtype=L.float64),
                                           w, b, False).exp(), [(3, 2, 4), (2,), (2,)], None,
        "NativeBatchNormBackwardBackward0", 3),
    "batch_norm_weight_only": (lambda L, F, x, w: F.batch_norm(x, None, None, w, None, True).sin(), [(3, 2, 4), (2,)],
                               [False, True], "NativeBatchNormBackwardBackward0", 3),
    "instance_norm": (lambda L, F, x, w: F.instance_norm(x, weight=w).sin(), [(2, 2, 5), (2,)], None,
                      "NativeBatchNormBackwardBackward0", 2),
    # bilinear: not a fused node but PyTorch's _trilinear, whose gradients are _trilinear again
    "bilinear": (lambda L, F, a, c, w, b: F.bilinear(a, c, w, b).sin(), [(2, 3), (2, 4), (5, 3, 4), (5,)], None,
                 "TrilinearBackward0", 3),
    "bilinear_batched_weight_only": (lambda L, F, a, c, w: F.bilinear(a, c, w).exp(), [(2, 2, 3), (2, 2, 4), (5, 3, 4)],
                                     [False, False, True], "TrilinearBackward0", 3),
}


def _inputs(lib, name):
    _, shapes, req, _, _ = PROGRAMS[name]
    rng = np.random.default_rng(0)
    req = req or [True] * len(shapes)
    return [lib.tensor(rng.uniform(-1, 1, s), dtype=lib.float64, requires_grad=r) for s, r in zip(shapes, req)]


def _orders(lib, name):
    """Per order: the gradients (arrays), the graphs they record, and the fused node's saved values."""
    fn, _, _, _, orders = PROGRAMS[name]
    xs = _inputs(lib, name)
    leaves = [x for x in xs if x.requires_grad]
    rng = np.random.default_rng(1)
    y = fn(lib, lib.nn.functional, *xs)
    gy = lib.tensor(rng.uniform(-1, 1, tuple(y.shape)), dtype=lib.float64, requires_grad=True)
    results, outputs, vs = [], [y], [gy]
    for _ in range(orders):
        grads = lib.autograd.grad(outputs, leaves, vs, create_graph=True, allow_unused=True)
        graphs = [None if g is None else graph_structure([g], (*xs, *vs)) for g in grads]
        results.append(([None if g is None else g.detach().numpy().copy() for g in grads], graphs))
        outputs = [g for g in grads if g is not None and g.requires_grad]
        vs = [lib.tensor(rng.uniform(-1, 1, tuple(g.shape)), dtype=lib.float64) for g in outputs]
        if not outputs:
            break
    return results


@pytest.mark.torch
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_gradients_and_graphs_are_torchs_to_every_order(name):
    ours, theirs = _orders(minigrad, name), _orders(torch, name)
    assert len(ours) == len(theirs)
    for order, ((values, graphs), (t_values, t_graphs)) in enumerate(zip(ours, theirs), 1):
        for a, b in zip(values, t_values):
            assert (a is None) == (b is None), order
            if a is not None:
                np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12, err_msg="order %d" % order)
        if order == 1:
            assert graphs == t_graphs
        else:       # the fused node's own backward: PyTorch's C++ formula's ops, the same node at the top
            assert [g and g[0][0] for g in graphs] == [g and g[0][0] for g in t_graphs], order


def _fused_node(lib, name):
    fn, _, _, fused, _ = PROGRAMS[name]
    xs = _inputs(lib, name)
    y = fn(lib, lib.nn.functional, *xs)
    grads = lib.autograd.grad((y * y).sum(), [x for x in xs if x.requires_grad], create_graph=True)
    stack, seen = [g.grad_fn for g in grads], set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if node.name() == fused:
            return node
        stack.extend(n for n, _ in node.next_functions)
    raise AssertionError("no %s in %s's create_graph graph" % (fused, name))


def _plain(value):
    if hasattr(value, "detach"):
        return value.detach().numpy()
    return tuple(value) if isinstance(value, (list, tuple)) else value


@pytest.mark.torch
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_fused_node_saves_torchs_values(name):
    ours, theirs = _fused_node(minigrad, name), _fused_node(torch, name)
    saved = [a for a in dir(ours) if a.startswith("_saved_")]
    assert saved
    assert set(saved) <= {a for a in dir(theirs) if a.startswith("_saved_")}
    for attr in saved:
        a, b = _plain(getattr(ours, attr)), _plain(getattr(theirs, attr))
        if isinstance(a, np.ndarray):
            np.testing.assert_allclose(a, b, rtol=1e-12, err_msg=attr)
        else:
            assert a == b, attr


#: small programs, one per fused node and kind (gradgradcheck of a gradient is a third derivative, numerically)
SMALL = {
    "conv2d": (lambda F, x, w, b: F.conv2d(x, w, b, 2, 1, 1, 2), [(1, 2, 3, 3), (2, 1, 2, 2), (2,)]),
    "conv1d": (lambda F, x, w, b: F.conv1d(x, w, b, 1, 1, 2), [(1, 2, 4), (1, 2, 2), (1,)]),
    "conv_transpose2d": (lambda F, x, w, b: F.conv_transpose2d(x, w, b, 2), [(1, 2, 2, 2), (2, 1, 2, 2), (1,)]),
    "max_pool2d": (lambda F, x: F.max_pool2d(x, 2, 1), [(1, 1, 3, 3)]),
    "avg_pool2d": (lambda F, x: F.avg_pool2d(x, 2, 1, 1, False, False), [(1, 1, 3, 3)]),
    "adaptive_avg_pool2d": (lambda F, x: F.adaptive_avg_pool2d(x, 2), [(1, 1, 3, 3)]),
    "batch_norm": (lambda F, x, w, b: F.batch_norm(x, None, None, w, b, True), [(3, 2), (2,), (2,)]),
    "bilinear": (lambda F, a, c, w, b: F.bilinear(a, c, w, b), [(2, 2), (2, 1), (2, 2, 1), (2,)]),
}


@pytest.mark.parametrize("name", sorted(SMALL))
def test_the_fused_nodes_backward_is_differentiable(name):
    """gradgradcheck of the gradient function: its second derivative goes through the fused node's backward."""
    fn, shapes = SMALL[name]
    rng = np.random.default_rng(0)
    xs = tuple(minigrad.tensor(rng.uniform(-1, 1, s), dtype=minigrad.float64, requires_grad=True) for s in shapes)

    def gradient(*leaves):
        y = fn(minigrad.nn.functional, *leaves)
        return minigrad.autograd.grad((y * y).sum(), leaves, create_graph=True)

    assert gradcheck(gradient, xs)
    assert gradgradcheck(gradient, xs)


@pytest.mark.torch
def test_torchs_third_derivative_of_training_batch_norm_is_wrong():
    """Why PROGRAMS compares training-mode batch norm with PyTorch to the second order only: PyTorch's own
    gradient function fails gradgradcheck (minigrad's passes above).  When this fails, PyTorch was fixed."""
    rng = np.random.default_rng(0)
    shapes = [(3, 2), (2,), (2,)]
    xs = tuple(torch.tensor(rng.uniform(-1, 1, s), dtype=torch.float64, requires_grad=True) for s in shapes)

    def gradient(*leaves):
        y = torch.nn.functional.batch_norm(leaves[0], None, None, leaves[1], leaves[2], True)
        return torch.autograd.grad((y * y).sum(), leaves, create_graph=True)

    assert torch.autograd.gradcheck(gradient, xs)
    assert not torch.autograd.gradgradcheck(gradient, xs, raise_exception=False)
