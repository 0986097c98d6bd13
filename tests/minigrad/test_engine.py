"""The backward engine: fan-out, fan-in, several roots, retain_graph, create_graph, inputs=, autograd.grad.

Most tests run on minigrad and, where installed, on PyTorch (the ``lib`` fixture), so that the
expected values written here are PyTorch's own.
"""

from __future__ import annotations

import math
import threading
import warnings

import numpy as np
import pytest

import minigrad

SECOND_BACKWARD = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they have "
    "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
    "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or "
    "if you need to access saved tensors after calling backward."
)


def values(t):
    return t.detach().numpy().tolist()


# -- fan-out, fan-in, reuse --------------------------------------------------------------------------


def test_fan_out_adds_the_gradients_of_every_use(lib):
    x = lib.tensor([0.5, -1.0], requires_grad=True)
    y = x * 3  # y feeds four uses
    (y * y + y.sin() + y + y.exp()).sum().backward()
    for xv, g in zip([0.5, -1.0], values(x.grad)):
        yv = 3 * xv
        assert g == pytest.approx(3 * (2 * yv + math.cos(yv) + 1 + math.exp(yv)), rel=1e-5)


def test_fan_in_and_a_reused_leaf(lib):
    a = lib.tensor(2.0, requires_grad=True)
    b = lib.tensor(3.0, requires_grad=True)
    (a * b + a / b + a * a * a).backward()
    assert a.grad.item() == pytest.approx(3 + 1 / 3 + 12)
    assert b.grad.item() == pytest.approx(2 - 2 / 9)


def test_diamond_runs_each_node_once_with_the_summed_gradient(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    calls = []
    h.grad_fn.register_prehook(lambda go: calls.append(values(go[0])))
    (h.exp() + h * h).sum().backward()
    assert calls == [[pytest.approx(math.exp(2) + 4), pytest.approx(math.exp(4) + 8)]]


def test_several_roots_with_autograd_backward(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y, z = x * 2, x**2
    lib.autograd.backward([y, z.sum()], [lib.tensor([1.0, 10.0]), None])
    assert values(x.grad) == [2 + 2, 20 + 4]


def test_roots_sharing_one_node(lib):
    """Several outputs of one node as roots (split): the node runs once with all gradients."""
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    p, q = x.split(2)
    lib.autograd.backward([p, q], [lib.tensor([1.0, 2.0]), lib.tensor([3.0])])
    assert values(x.grad) == [1.0, 2.0, 3.0]


def test_root_that_is_also_an_inner_node(lib):
    x = lib.tensor(1.5, requires_grad=True)
    y = x * 2
    z = y * y
    lib.autograd.backward([z, y])
    assert x.grad.item() == pytest.approx(2 * 2 * 3.0 + 2)


def test_leaf_backward_adds_one(lib):
    x = lib.tensor(2.0, requires_grad=True)
    x.backward()
    x.backward()
    assert x.grad.item() == 2.0


def test_gradients_accumulate_in_the_same_object(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    (x * x).sum().backward()
    first = x.grad
    (x * x).sum().backward()
    assert x.grad is first
    assert values(first) == [4.0, 8.0]
    assert not first.requires_grad
    assert first.is_leaf


def test_backward_runs_inside_no_grad(lib):
    b = lib.tensor(2.0, requires_grad=True)
    y = b * 2
    with lib.no_grad():
        y.backward()
    assert b.grad.item() == 2.0


def test_node_order_matches_a_topological_order(lib):
    """Each node runs after every node that sends it a gradient (dependency counting)."""
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    a = x.exp()
    b = a * x
    c = (a + b).sin() * b
    seen = []
    stack, nodes = [c.grad_fn], set()
    while stack:
        node = stack.pop()
        if node is None or node in nodes:
            continue
        nodes.add(node)
        node.register_prehook(lambda go, n=node: seen.append(n))
        stack.extend(n for n, _ in node.next_functions)
    c.sum().backward()
    position = {n: i for i, n in enumerate(seen)}
    for node in nodes:
        for child, _ in node.next_functions:
            if child is not None and child.name() != "torch::autograd::AccumulateGrad":
                assert position[node] < position[child]


@pytest.mark.torch
def test_node_order_is_pytorchs():
    """The exact order in which nodes run (most recently created first, AccumulateGrad at once)."""
    torch = pytest.importorskip("torch")

    def order(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        w = lib.tensor([0.5, 0.25], requires_grad=True)
        h = (x * w).tanh()
        out = (h.exp() * x + (h * 3).sin() - w.sum()).sum()
        seen, stack, nodes = [], [out.grad_fn], []
        while stack:
            node = stack.pop()
            if node is None or any(node is n for n in nodes):
                continue
            nodes.append(node)
            node.register_hook(lambda gi, go, n=node: seen.append(n.name()))
            stack.extend(n for n, _ in node.next_functions)
        out.backward()
        return seen

    assert order(minigrad) == order(torch)


# -- retain_graph, freeing, second backward -------------------------------------------------------------


def test_second_backward_raises_pytorchs_error(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = (x * 2).sum()
    y.backward()
    with pytest.raises(RuntimeError) as info:
        y.backward()
    assert str(info.value) == SECOND_BACKWARD


def test_second_backward_through_nodes_that_saved_nothing_works(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    w = lib.tensor([3.0, 4.0], requires_grad=True)
    for make in (
        lambda: x.sum(),
        lambda: (x + w).sum(),
        lambda: (x - 1).sum(),
        lambda: x.mean(),
        lambda: x[0],
        lambda: lib.cat([x, w]).sum(),
        lambda: x.view(2, 1).sum(),
        lambda: (-x).sum(),
    ):
        y = make()
        y.backward()
        y.backward()


@pytest.mark.parametrize(
    "make",
    [
        lambda x, w: (x * w).sum(),
        lambda x, w: (x**2).sum(),
        lambda x, w: x.relu().sum(),
        lambda x, w: x.exp().sum(),
        lambda x, w: (x / 2).sum(),
    ],
    ids=["mul", "pow", "relu", "exp", "div"],
)
def test_second_backward_through_saving_nodes_fails(lib, make):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    w = lib.tensor([3.0, 4.0], requires_grad=True)
    y = make(x, w)
    y.backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.backward()


def test_retain_graph_allows_a_second_backward(lib):
    x = lib.tensor([[2.0, 1.0]], requires_grad=True)
    y = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    z = lib.mm(x, y)
    z.backward(lib.tensor([[1.0, 0.0]]), retain_graph=True)
    assert values(x.grad) == [[1.0, 3.0]]
    z.backward(lib.tensor([[0.0, 1.0]]))
    assert values(x.grad) == [[3.0, 7.0]]
    assert values(y.grad) == [[2.0, 2.0], [1.0, 1.0]]
    with pytest.raises(RuntimeError, match="second time"):
        z.backward(lib.tensor([[1.0, 1.0]]))


def test_reading_freed_saved_tensors_raises(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    assert y.grad_fn._saved_self is x
    y.sum().backward()
    with pytest.raises(RuntimeError, match="second time"):
        _ = y.grad_fn._saved_self


def test_two_outputs_sharing_a_saving_subgraph(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    h = x.exp()
    a, b = h.sum(), (h * 2).sum()
    a.backward()
    with pytest.raises(RuntimeError, match="second time"):
        b.backward()


# -- create_graph ---------------------------------------------------------------------------------------


def test_create_graph_to_third_order(lib):
    x = lib.tensor(2.0, requires_grad=True)
    (d1,) = lib.autograd.grad(x**4, x, create_graph=True)
    (d2,) = lib.autograd.grad(d1, x, create_graph=True)
    (d3,) = lib.autograd.grad(d2, x, create_graph=True)
    (d4,) = lib.autograd.grad(d3, x)
    assert [d.item() for d in (d1, d2, d3, d4)] == [32.0, 48.0, 48.0, 24.0]
    assert d3.grad_fn is not None
    assert d4.grad_fn is None
    assert not d4.requires_grad


def test_create_graph_through_a_network_of_ops(lib):
    x = lib.tensor([0.3, -0.7], requires_grad=True)
    y = (x.sin() * x.exp()).sum()
    (g,) = lib.autograd.grad(y, x, create_graph=True)
    (h,) = lib.autograd.grad(g.sum(), x)
    for xv, hv in zip([0.3, -0.7], values(h)):
        assert hv == pytest.approx(2 * math.cos(xv) * math.exp(xv), rel=1e-6)  # (sin·exp)'' = 2 cos·exp


def test_backward_with_create_graph_gives_grad_a_graph(lib, monkeypatch):
    x = lib.tensor(2.0, requires_grad=True)
    y = x**3
    if lib is minigrad:  # the warning comes once per process: make this call the first
        monkeypatch.setattr(minigrad.autograd, "_warned_create_graph", [False])
        with pytest.warns(UserWarning, match="create_graph=True will create a reference cycle"):
            y.backward(create_graph=True)
    else:  # PyTorch's C++ warning, also once per process: whether it shows depends on the order
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            y.backward(create_graph=True)
    assert x.grad.item() == 12.0
    assert x.grad.grad_fn is not None
    g = x.grad
    x.grad = None
    g.backward()
    assert x.grad.item() == 12.0


def test_retain_graph_defaults_to_create_graph(lib):
    x = lib.tensor(2.0, requires_grad=True)
    y = x.exp()
    lib.autograd.grad(y, x, create_graph=True)
    lib.autograd.grad(y, x)  # the graph was retained
    with pytest.raises(RuntimeError, match="second time"):
        lib.autograd.grad(y, x)


# -- inputs= and autograd.grad ----------------------------------------------------------------------------


def test_backward_inputs_limits_which_leaves_get_grad(lib):
    a = lib.tensor(1.0, requires_grad=True)
    b = lib.tensor(2.0, requires_grad=True)
    (a * b).backward(inputs=[a])
    assert a.grad.item() == 2.0
    assert b.grad is None
    with pytest.raises(RuntimeError, match=r"`inputs` argument to `backward\(\)` cannot be empty."):
        (a * b).backward(inputs=[])


def test_backward_inputs_with_a_non_leaf(lib):
    a = lib.tensor(1.0, requires_grad=True)
    h = a * 3
    (h * h).backward(inputs=[h])
    assert h.grad.item() == 6.0
    assert h.retains_grad
    assert a.grad is None


def test_grad_returns_without_touching_dot_grad(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    x.grad = lib.tensor([100.0, 100.0])
    (g,) = lib.autograd.grad((x**2).sum(), x)
    assert values(g) == [2.0, 4.0]
    assert values(x.grad) == [100.0, 100.0]


def test_grad_several_outputs_and_inputs(lib):
    a = lib.tensor(2.0, requires_grad=True)
    b = lib.tensor(3.0, requires_grad=True)
    ga, gb = lib.autograd.grad([a * b, a + b], [a, b])
    assert (ga.item(), gb.item()) == (4.0, 3.0)


def test_grad_dict_inputs_give_a_dict(lib):
    a = lib.tensor(2.0, requires_grad=True)
    b = lib.tensor(3.0, requires_grad=True)
    out = lib.autograd.grad(a * b, {"a": a, "b": b})
    assert isinstance(out, dict)
    assert list(out) == ["a", "b"]
    assert (out["a"].item(), out["b"].item()) == (3.0, 2.0)


def test_grad_unused_inputs(lib):
    a = lib.tensor(2.0, requires_grad=True)
    b = lib.tensor(3.0, requires_grad=True)
    with pytest.raises(RuntimeError) as info:
        lib.autograd.grad(a * 2, [a, b])
    assert str(info.value) == (
        "The differentiated Tensor at index 1 appears to not have been used in the graph. "
        "Set allow_unused=True if this is the desired behavior."
    )
    ga, gb = lib.autograd.grad(a * 2, [a, b], allow_unused=True)
    assert ga.item() == 2.0
    assert gb is None
    ga, gb = lib.autograd.grad(a * 2, [a, b], materialize_grads=True)
    assert gb.item() == 0.0
    assert gb.shape == b.shape
    with pytest.raises(
        ValueError,
        match=r"Expected allow_unused to be True or not passed when materialize_grads=True, "
        "but got: allow_unused=False.",
    ):
        lib.autograd.grad(a * 2, [a, b], allow_unused=False, materialize_grads=True)
    with pytest.raises(RuntimeError, match="One of the differentiated Tensors does not require grad"):
        lib.autograd.grad(a * 2, [a, lib.tensor(1.0)])


def test_grad_with_respect_to_a_non_leaf(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3
    y = (h * h).sum()
    (gh,) = lib.autograd.grad(y, h)
    assert values(gh) == [6.0, 12.0]
    assert x.grad is None


def test_grad_outputs_vector(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    (g,) = lib.autograd.grad(x * 3, x, grad_outputs=lib.tensor([1.0, 10.0]))
    assert values(g) == [3.0, 30.0]


def test_grad_frees_the_graph_unless_retained(lib):
    x = lib.tensor(2.0, requires_grad=True)
    y = x.exp()
    lib.autograd.grad(y, x, retain_graph=True)
    lib.autograd.grad(y, x)
    with pytest.raises(RuntimeError, match="second time"):
        lib.autograd.grad(y, x)


# -- threads ----------------------------------------------------------------------------------------------


def test_grad_mode_is_thread_local(lib):
    seen = {}

    def worker():
        seen["enabled"] = lib.is_grad_enabled()
        x = lib.tensor([1.0], requires_grad=True)
        seen["records"] = (x * 2).requires_grad

    with lib.no_grad():
        thread = threading.Thread(target=worker)
        thread.start()
        thread.join()
        assert not lib.is_grad_enabled()
    assert seen == {"enabled": True, "records": True}


def test_independent_backwards_in_threads():
    results = [None] * 4

    def worker(i):
        x = minigrad.tensor([float(i), 1.0], requires_grad=True)
        for _ in range(50):
            x.grad = None
            (x * x * (i + 1)).sum().backward()
        results[i] = x.grad.tolist()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [[2.0 * i * (i + 1), 2.0 * (i + 1)] for i in range(4)]


def test_float64_and_float32_leaves_keep_their_grad_dtype(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    w = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
    y = x * w
    y.sum().backward()
    assert (str(y.dtype), str(x.grad.dtype), str(w.grad.dtype)) == (
        "torch.float64",
        "torch.float32",
        "torch.float64",
    )
    np.testing.assert_allclose(x.grad.numpy(), [1.0, 2.0])


def test_backward_returns_none_as_in_pytorch():
    """``loss.backward()`` at a prompt shows nothing: it returns None in every form (a regression printed [])."""
    import minigrad as torch
    x = torch.tensor([1., 2.], requires_grad=True)
    assert (x * 2).sum().backward() is None
    assert (x * 2).sum().backward(retain_graph=True) is None
    assert (x * 2).sum().backward(inputs=[x]) is None
    assert (x * 2).backward(torch.ones(2)) is None
    assert torch.autograd.backward([(x * 3).sum()]) is None
    assert torch.autograd.grad((x * x).sum(), x)[0].tolist() == [2., 4.]


def test_saved_dims_keep_their_type_after_backward():
    """Forgotten nodes share small tuples, keyed by type too: ``(1,)`` must not come back as ``(True,)``."""
    import minigrad as torch
    a = torch.tensor([[1., 3., 3.], [2., 2., 0.]], requires_grad=True)
    a.amax().sum().backward()              # its forgotten node shares a (True,) flags tuple
    y = a.amax(1)
    y.sum().backward()
    assert y.grad_fn._saved_dim == (1,)
    assert type(y.grad_fn._saved_dim[0]) is int


def test_shared_tuples_are_keyed_by_type():
    from minigrad.autograd.function import _shared
    assert _shared((True, 7, 9)) == (True, 7, 9)
    got = _shared((1, 7, 9))
    assert [type(v) for v in got] == [int, int, int]
