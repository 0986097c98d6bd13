"""Engine rules found by comparing with PyTorch (issue 11): retained gradients are new tensors,
autograd.grad captures a hooked non-leaf as PyTorch does, accumulation is thread-safe, hooks and
grad modes are thread-local, and the grad-mode decorators behave as PyTorch's."""

from __future__ import annotations

import threading

import pytest


def test_a_retained_grad_is_replaced_not_overwritten(lib):
    x = lib.ones(2, requires_grad=True)
    y = x * 2
    y.retain_grad()
    (y * 3).sum().backward(retain_graph=True)
    first = y.grad
    (y * 3).sum().backward()
    assert first.tolist() == [3.0, 3.0]          # the tensor kept from the first backward is unchanged
    assert y.grad.tolist() == [6.0, 6.0]
    assert y.grad is not first
    (x * 3).sum().backward(retain_graph=True)
    leaf_grad = x.grad
    (x * 3).sum().backward()
    assert x.grad is leaf_grad                   # a leaf's .grad is accumulated in place
    assert leaf_grad.tolist() == [18.0, 18.0]


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")
def test_a_retained_grad_under_create_graph_is_a_recorded_clone(lib):
    x = lib.ones(2, requires_grad=True)
    y = x * x
    y.retain_grad()
    (y * y).sum().backward(create_graph=True)
    assert type(y.grad.grad_fn).__name__ == "CloneBackward0"
    (y * y).sum().backward(create_graph=True)
    assert type(y.grad.grad_fn).__name__ == "AddBackward0"
    assert y.grad.tolist() == [4.0, 4.0]


def test_autograd_grad_captures_a_hooked_non_leaf_before_the_hook_when_its_node_runs(lib):
    x = lib.ones(2, requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: g * 100)
    out = (y * 3).sum()
    gx, gy = lib.autograd.grad(out, [x, y], retain_graph=True)
    assert gy.tolist() == [3.0, 3.0]             # captured before the hook (y's node runs on to x)
    assert gx.tolist() == [600.0, 600.0]         # the hooked gradient flows on
    (gy,) = lib.autograd.grad(out, [y], retain_graph=True)
    assert gy.tolist() == [300.0, 300.0]         # y's node does not run: the hook runs, then the capture
    x.register_hook(lambda g: g + 1)
    (gx,) = lib.autograd.grad(out, [x])
    assert gx.tolist() == [601.0, 601.0]


def test_threads_accumulating_into_one_leaf_lose_no_update(lib):
    x = lib.zeros(200_000, requires_grad=True)

    def work():
        for _ in range(5):
            (x * 1).sum().backward()

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert int((x.grad != 20).sum()) == 0


def test_saved_tensors_hooks_are_thread_local(lib):
    seen = []

    def pack(t):
        seen.append(threading.current_thread().name)
        return t

    x = lib.ones(2, requires_grad=True)
    with lib.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        worker = threading.Thread(target=lambda: x * x, name="worker")
        worker.start()
        worker.join()
        x * x
    assert seen == ["MainThread", "MainThread"]


def test_grad_mode_is_thread_local(lib):
    seen = {}
    with lib.no_grad():
        worker = threading.Thread(target=lambda: seen.setdefault("worker", lib.is_grad_enabled()))
        worker.start()
        worker.join()
        seen["main"] = lib.is_grad_enabled()
    assert seen == {"worker": True, "main": False}


def test_observers_are_thread_local():
    import minigrad as torch
    from minigrad.autograd.graph import register_backward_observer, register_node_created_hook

    created, events = [], []
    x = torch.ones(2, requires_grad=True)
    with register_node_created_hook(lambda n: created.append(n.name())), register_backward_observer(events.append):
        worker = threading.Thread(target=lambda: (x * 2).sum().backward())
        worker.start()
        worker.join()
        assert created == []
        assert events == []
        (x * 3).sum().backward()
    assert created == ["MulBackward0", "SumBackward0"]
    assert events[0].kind == "begin"


def test_set_grad_enabled_as_a_decorator_affects_only_the_function(lib):
    @lib.set_grad_enabled(False)
    def f():
        return lib.is_grad_enabled()

    assert lib.is_grad_enabled()
    assert f() is False
    assert lib.is_grad_enabled()


def test_a_set_grad_enabled_object_entered_later_reapplies_its_mode(lib):
    mode = lib.set_grad_enabled(False)
    assert not lib.is_grad_enabled()
    lib.set_grad_enabled(True)
    with mode:
        assert not lib.is_grad_enabled()
    assert lib.is_grad_enabled()


@pytest.mark.parametrize("outside", [True, False])
def test_decorated_generators_do_not_leak_their_mode_between_yields(lib, outside):
    decorator = lib.no_grad() if outside else lib.enable_grad()

    @decorator
    def gen():
        received = yield lib.is_grad_enabled()
        yield received, lib.is_grad_enabled()

    def caller():
        g = gen()
        first = next(g)
        assert lib.is_grad_enabled() is outside         # the caller's mode between yields
        second = g.send("x")
        assert lib.is_grad_enabled() is outside
        with pytest.raises(StopIteration):
            next(g)
        return first, second

    if outside:
        assert caller() == (False, ("x", False))
    else:
        with lib.no_grad():
            assert caller() == (True, ("x", True))


def test_inference_mode_false_turns_it_off_inside(lib):
    with lib.inference_mode():
        with lib.inference_mode(False):
            x = lib.ones(2)
            assert (lib.is_inference_mode_enabled(), lib.is_grad_enabled(), x.is_inference()) == (False, True, False)
        assert lib.is_inference_mode_enabled()
        assert not lib.is_grad_enabled()

    @lib.inference_mode
    def f():
        return lib.is_inference_mode_enabled()

    assert f() is True
    assert not lib.is_inference_mode_enabled()


def _fields(node):
    """What a node object holds: its ``__dict__`` and its ``__slots__`` (a rule's node has slots only)."""
    names = [n for k in type(node).__mro__ for n in getattr(k, "__slots__", ()) if n != "__weakref__"]
    return list(getattr(node, "__dict__", {}).values()) + [getattr(node, n) for n in names if hasattr(node, n)]


def test_a_freed_graph_holds_no_arrays_but_keeps_its_structure():
    import numpy as np

    import minigrad as torch

    x = torch.randn(8, 5)
    w = torch.randn(5, 4, requires_grad=True)
    loss = ((x @ w).relu().exp() * 2).mean()
    names = []
    loss.backward()
    stack, seen = [loss.grad_fn], set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        names.append(node.name())
        held = [v for v in _fields(node) if isinstance(v, np.ndarray)]
        assert held == [], node.name()
        stack.extend(n for n, _ in node.next_functions)
    assert names == ["MeanBackward0", "MulBackward0", "ExpBackward0", "ReluBackward0", "MmBackward0",
                     "torch::autograd::AccumulateGrad"]


def test_a_second_backward_through_a_freed_node_raises(lib):
    x = lib.ones(2, requires_grad=True)
    y = (x.exp() * 2).sum()
    y.backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.backward()
    z = (x + 1).sum()                       # nothing saved: a second backward works (PyTorch too)
    z.backward()
    z.backward()
    assert [round(g, 4) for g in x.grad.tolist()] == [7.4366, 7.4366]
