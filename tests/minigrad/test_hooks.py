"""Hooks: tensor hooks, retain_grad, node pre-hooks and hooks, post-accumulate hooks; order and removal.

Run on minigrad and, where installed, PyTorch (``lib``): the orders written here are PyTorch's.
"""

from __future__ import annotations

import pytest


def values(t):
    return t.detach().numpy().tolist()


def test_tensor_hooks_replace_in_order_and_see_the_summed_gradient(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    seen = []
    y.register_hook(lambda g: seen.append(("h1", values(g))))
    y.register_hook(lambda g: g + 1)
    y.register_hook(lambda g: (seen.append(("h3", values(g), lib.is_grad_enabled())), g * 10)[1])
    y.retain_grad()
    x.register_hook(lambda g: seen.append(("leaf", values(g), x.grad)))
    (y * 1 + y * 2).sum().backward()
    assert seen == [("h1", [3.0, 3.0]), ("h3", [4.0, 4.0], False), ("leaf", [80.0, 80.0], None)]
    assert values(y.grad) == [40.0, 40.0]
    assert values(x.grad) == [80.0, 80.0]


def test_retained_grad_reflects_hooks_registered_after_retain_grad(lib):
    x = lib.tensor([1.0], requires_grad=True)
    y = x * 1
    y.retain_grad()
    y.register_hook(lambda g: g * 5)
    y.sum().backward()
    assert values(y.grad) == [5.0]
    assert values(x.grad) == [5.0]


def test_full_hook_order(lib):
    """Tensor hooks, node pre-hooks, the node, node hooks; post-accumulate before AccumulateGrad's hooks."""
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    log = []
    y.grad_fn.register_prehook(lambda go: log.append(("node prehook", values(go[0]))))
    y.register_hook(lambda g: log.append(("tensor hook", values(g))))
    y.grad_fn.register_hook(lambda gi, go: log.append(("node hook", values(gi[0]), gi[1], values(go[0]))))
    acc = y.grad_fn.next_functions[0][0]
    acc.register_hook(lambda gi, go: log.append(("AccumulateGrad hook", gi, values(go[0]))))
    acc.register_prehook(lambda go: log.append(("AccumulateGrad prehook", values(go[0]))))
    x.register_hook(lambda g: log.append(("leaf hook", values(g))))
    x.register_post_accumulate_grad_hook(lambda p: log.append(("post-accumulate", p is x, values(p.grad))))
    (y * 3).sum().backward()
    assert log == [
        ("tensor hook", [3.0, 3.0]),
        ("node prehook", [3.0, 3.0]),
        ("node hook", [6.0, 6.0], None, [3.0, 3.0]),
        ("leaf hook", [6.0, 6.0]),
        ("AccumulateGrad prehook", [6.0, 6.0]),
        ("post-accumulate", True, [6.0, 6.0]),
        ("AccumulateGrad hook", (), [6.0, 6.0]),
    ]


def test_node_prehook_and_hook_can_replace(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.grad_fn.register_prehook(lambda go: (go[0] * 5,))
    y.sum().backward()
    assert values(x.grad) == [10.0, 10.0]
    x.grad = None
    z = x * 2
    z.grad_fn.register_hook(lambda gi, go: (gi[0] * 0 + 7, None))
    z.sum().backward()
    assert values(x.grad) == [7.0, 7.0]


def test_handles_remove_idempotently_and_as_context_managers(lib):
    x = lib.tensor([1.0], requires_grad=True)
    calls = []
    handle = x.register_hook(lambda g: calls.append("a"))
    handle.remove()
    handle.remove()
    with x.register_hook(lambda g: calls.append("b")):
        (x * 1).sum().backward()
    (x * 1).sum().backward()
    y = x * 2
    with (
        y.grad_fn.register_prehook(lambda go: calls.append("pre")),
        y.grad_fn.register_hook(lambda gi, go: calls.append("post")),
    ):
        pass
    y.sum().backward()
    with x.register_post_accumulate_grad_hook(lambda p: calls.append("post-acc")):
        (x * 1).sum().backward()
    (x * 1).sum().backward()
    assert calls == ["b", "post-acc"]


def test_hooks_on_a_leaf_persist_across_graphs(lib):
    x = lib.tensor([1.0], requires_grad=True)
    x.register_hook(lambda g: g * 2)
    (x * 1).sum().backward()
    (x * 3).sum().backward()
    assert values(x.grad) == [2.0 + 6.0]


def test_accumulate_grad_node_is_shared_while_a_graph_holds_it(lib):
    a = lib.tensor([1.0], requires_grad=True)
    c = a * 2
    d = c + a
    assert c.grad_fn.next_functions[0][0] is d.grad_fn.next_functions[1][0]
    assert c.grad_fn.next_functions[0][0].variable is a


def test_retain_grad(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    assert y.retains_grad
    assert y.grad is None
    (y * y).sum().backward()
    assert values(y.grad) == [4.0, 8.0]
    assert values(x.grad) == [8.0, 16.0]
    x.retain_grad()
    assert not x.retains_grad
    with pytest.raises(RuntimeError, match="can't retain_grad on Tensor that has requires_grad=False"):
        lib.tensor([1.0]).retain_grad()


def test_retained_grad_accumulates(lib):
    x = lib.tensor([1.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    y.sum().backward(retain_graph=True)
    y.sum().backward()
    assert values(y.grad) == [2.0]


def test_non_leaf_grad_warns(lib):
    x = lib.tensor([1.0], requires_grad=True)
    y = x * 2
    with pytest.warns(
        UserWarning, match="The .grad attribute of a Tensor that is not a leaf Tensor is being accessed"
    ):
        assert y.grad is None


def test_hook_errors(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(
        RuntimeError, match="cannot register a hook on a tensor that doesn't require gradient"
    ):
        lib.tensor([1.0]).register_hook(lambda g: g)
    y = x * 2
    y.register_hook(lambda g: lib.ones(3))
    with pytest.raises(RuntimeError, match="hook '<lambda>' has changed the size of value"):
        y.sum().backward()
    y = x * 2
    y.register_hook(lambda g: 5)
    with pytest.raises(TypeError, match="expected Variable, but hook returned 'int'"):
        y.sum().backward()
    with pytest.raises(
        RuntimeError, match="post accumulate grad hooks cannot be registered on non-leaf tensors"
    ):
        (x * 2).register_post_accumulate_grad_hook(lambda p: None)


def test_hook_on_a_view_and_on_one_output_of_a_multi_output_node(lib):
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    p, q = x.split(2)
    q.register_hook(lambda g: g * 100)
    (p.sum() + q.sum()).backward()
    assert values(x.grad) == [1.0, 1.0, 100.0]
