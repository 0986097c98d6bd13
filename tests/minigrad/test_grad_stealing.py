"""NOTE [stealing the gradient] (autograd/_fast.py): a leaf's first gradient is kept without a copy only when
nothing else can see it; every other case gets its own copy, so no two tensors ever share a ``.grad``.

Runs on minigrad and PyTorch (the ``lib`` fixture) where the behaviour is observable in both.
"""

from __future__ import annotations

import numpy as np
import pytest

import minigrad
from minigrad.autograd import _fast


def shares(a, b):
    return np.shares_memory(a.detach().numpy(), b.detach().numpy())


@pytest.mark.skipif(not _fast._CAN_STEAL, reason="reference counts are not trusted on this Python")
def test_a_fresh_gradient_becomes_grad_without_a_copy():
    x = minigrad.ones(_fast.STEAL_FROM, requires_grad=True)     # (a smaller gradient is simply copied)
    w = minigrad.ones(784, 256, requires_grad=True)
    made = {}
    y = x * 3
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: made.update(x=id(grad_inputs[0]._data)))
    y.sum().backward()
    assert id(x.grad._data) == made["x"]                 # the very array MulBackward0 computed
    h = minigrad.ones(64, 784) @ w                           # mm's gradient for w: fresh, C-contiguous
    h.grad_fn.register_hook(lambda grad_inputs, grad_outputs: made.update(w=id(grad_inputs[1]._data)))
    h.sum().backward()
    assert id(w.grad._data) == made["w"]


def test_a_gradient_a_hook_kept_is_copied(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    kept = []
    x.register_hook(kept.append)
    (x * 3).sum().backward()
    assert not shares(x.grad, kept[0])
    x.grad.add_(1)
    assert kept[0].tolist() == [3.0, 3.0]


def test_one_gradient_sent_to_two_leaves_is_copied_for_each(lib):
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    b = lib.tensor([3.0, 4.0], requires_grad=True)
    (a + b).sum().backward()                                 # AddBackward0 returns the same tensor twice
    assert not shares(a.grad, b.grad)
    a.grad.add_(1)
    assert b.grad.tolist() == [1.0, 1.0]


def test_the_gradient_given_to_backward_is_copied(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    g = lib.tensor([5.0, 6.0])
    x.backward(g)
    assert not shares(x.grad, g)
    (x * 1).backward(g)
    assert g.tolist() == [5.0, 6.0]
    assert x.grad.tolist() == [10.0, 12.0]


def test_views_and_transposed_gradients_are_copied_into_the_leafs_layout(lib):
    w = lib.ones(3, 2, requires_grad=True)
    x = lib.ones(4, 3)
    (x @ w.t().t()).sum().backward()
    assert w.grad.is_contiguous()
    v = lib.ones(2, 3, requires_grad=True)
    (x @ v.t()).sum().backward()                             # the weight of nn.Linear
    assert v.grad.is_contiguous()
    assert v.grad.shape == (2, 3)
    assert v.grad.tolist() == [[4.0] * 3] * 2


def test_a_retained_non_leaf_grad_and_a_leaf_grad_never_share(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    y.retain_grad()
    (y * 2).sum().backward()
    assert not shares(x.grad, y.grad)


def test_stolen_gradients_still_accumulate(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    for _ in range(3):
        (x * x).sum().backward()
    assert x.grad.tolist() == [6.0, 12.0]


@pytest.mark.skipif(not _fast._CAN_STEAL, reason="reference counts are not trusted on this Python")
def test_the_weight_gradient_of_linear_is_kept_without_a_copy():
    """nn.Linear's weight gradient arrives as a view, ``(gradᵀ @ x)ᵀ`` through TBackward0; it is kept (as a
    plain, contiguous tensor) when nothing else holds the product."""
    lin = minigrad.nn.Linear(50, 30)            # 1,500 weights: a gradient big enough to be worth stealing
    y = lin(minigrad.ones(4, 50))
    made = {}
    t_node = y.grad_fn.next_functions[2][0]
    assert t_node.name() == "TBackward0"
    t_node.register_hook(lambda grad_inputs, grad_outputs: made.update(w=id(grad_inputs[0]._data.base)))
    y.sum().backward()
    assert id(lin.weight.grad._data.base) == made["w"]
    assert lin.weight.grad._base is None
    assert lin.weight.grad.is_contiguous()
    assert lin.weight.grad.tolist() == [[4.0] * 50] * 30


def test_a_view_gradient_whose_product_someone_kept_is_copied():
    """(PyTorch keeps this one without a copy: it counts uses of the tensor, not of its storage, so the
    leaf's .grad shares memory with the tensor the hook kept.  minigrad copies.)"""
    lib = minigrad
    lin = lib.nn.Linear(5, 3)
    y = lin(lib.ones(4, 5))
    kept = []
    y.grad_fn.next_functions[2][0].register_prehook(lambda grad_outputs: kept.append(grad_outputs[0]))
    y.sum().backward()
    assert not shares(lin.weight.grad, kept[0])
    lin.weight.grad.zero_()
    assert kept[0].sum().item() == 60.0
