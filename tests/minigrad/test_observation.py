"""minigrad's observation extensions (docs/architecture.md): node-created hooks, backward observers,
``Node.output_tensors()``, ``saved_tensors_released`` and ``metadata["differentiates"]``."""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest

import minigrad
from minigrad.autograd import engine, function, graph


def test_node_created_hook_sees_each_recorded_node_in_order():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    seen = []

    def on_node(node):
        seen.append(
            (
                node.name(),
                [None if n is None else n.name() for n, _ in node.next_functions],
                node.output_tensors()[0] is not None,
            )
        )

    with graph.register_node_created_hook(on_node):
        y = (x * 2).exp().sum()
        with minigrad.no_grad():
            x * 3  # not recorded: no event
    (x * 4).sum()  # the hook was removed on exit
    assert seen == [
        ("MulBackward0", ["torch::autograd::AccumulateGrad", None], True),
        ("ExpBackward0", ["MulBackward0"], True),
        ("SumBackward0", ["ExpBackward0"], True),
    ]
    assert y.grad_fn.name() == "SumBackward0"


def test_node_created_hook_does_not_keep_the_graph_alive():
    refs = []
    with graph.register_node_created_hook(lambda node: refs.append(weakref.ref(node))):
        y = (minigrad.ones(3, requires_grad=True) * 2).sum()
    del y
    gc.collect()
    assert refs
    assert all(r() is None for r in refs)


def _events(fn):
    events = []
    with graph.register_backward_observer(events.append):
        fn()
    return events


def test_backward_observer_events_in_order_with_their_content():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: g * 1)
    y.retain_grad()
    y.grad_fn.register_prehook(lambda go: None)
    y.grad_fn.register_hook(lambda gi, go: None)
    x.register_post_accumulate_grad_hook(lambda p: None)
    y.grad_fn.next_functions[0][0].register_hook(lambda gi, go: None)
    s = y.sum()
    events = _events(s.backward)
    kinds = [(e.kind, e.name) for e in events]
    assert kinds == [
        ("begin", ""),
        ("node", "SumBackward0"),                  # saved nothing: no "release"
        ("tensor_hook", "MulBackward0"),
        ("retain_grad", "MulBackward0"),
        ("pre_hook", "MulBackward0"),
        ("node", "MulBackward0"),
        ("node_hook", "MulBackward0"),
        ("release", "MulBackward0"),
        ("node", "AccumulateGrad"),
        ("post_accumulate_hook", "AccumulateGrad"),
        ("node_hook", "AccumulateGrad"),
        ("end", ""),
    ]
    begin, sum_node, _, _, _, mul_node, *_ = events
    assert begin.detail == str(id(s.grad_fn))
    assert begin.node_id is None
    assert sum_node.node_id == id(s.grad_fn)
    assert [g.tolist() for g in mul_node.grad_outputs] == [[1.0, 1.0]]
    assert mul_node.grad_inputs[0].tolist() == [2.0, 2.0]
    assert mul_node.grad_inputs[1] is None
    acc = next(e for e in events if e.kind == "node" and e.name == "AccumulateGrad")
    assert acc.grad_before is None
    assert acc.grad_after.tolist() == [2.0, 2.0]
    assert acc.grad_inputs == ()
    for e in events:  # observers get numpy copies and ids, never graph objects
        for g in e.grad_outputs + e.grad_inputs:
            assert g is None or type(g) is np.ndarray


def test_observer_copies_are_copies_and_grad_before_after():
    x = minigrad.tensor([1.0], requires_grad=True)
    (x * 3).sum().backward()
    events = _events(lambda: (x * 3).sum().backward())
    acc = next(e for e in events if e.kind == "node" and e.name == "AccumulateGrad")
    assert acc.grad_before.tolist() == [3.0]
    assert acc.grad_after.tolist() == [6.0]
    x.grad.zero_()
    assert acc.grad_after.tolist() == [6.0]


def test_observer_reports_errors_and_the_exception_still_propagates():
    x = minigrad.tensor([1.0], requires_grad=True)
    y = (x * 2).sum()
    y.backward()
    events = []
    with graph.register_backward_observer(events.append), pytest.raises(RuntimeError, match="second time"):
        y.backward()
    assert events[-1].kind == "error"
    assert "Trying to backward through the graph a second time" in events[-1].detail


def test_release_and_saved_tensors_released():
    x = minigrad.tensor([1.0], requires_grad=True)
    y = x.exp()
    z = y.sum()
    z.backward(retain_graph=True)
    assert not y.grad_fn.saved_tensors_released
    events = _events(z.backward)
    assert [e.name for e in events if e.kind == "release"] == ["ExpBackward0"]    # Sum saved nothing
    assert y.grad_fn.saved_tensors_released


def test_output_tensors_are_weak():
    x = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    a, b = x.split(2)
    node = a.grad_fn
    assert all(p is q for p, q in zip(node.output_tensors(), (a, b)))
    del b
    gc.collect()
    assert node.output_tensors()[0] is a
    assert node.output_tensors()[1] is None


def test_nothing_registered_costs_nothing(monkeypatch):
    """With no observer, the engine never builds an event, and recording never notifies."""

    def fail(*args, **kwargs):
        raise AssertionError("called without an observer")

    monkeypatch.setattr(engine, "_emit", fail)
    monkeypatch.setattr(function, "_notify_node_created", fail)
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = (x.exp() * x).sum()
    y.backward()
    assert x.grad is not None


def test_differentiates_metadata_under_create_graph():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = (x.sin() * 3).sum()
    forward_nodes = {id(y.grad_fn): y.grad_fn.name()}
    stack = [y.grad_fn]
    while stack:
        node = stack.pop()
        forward_nodes[id(node)] = node.name()
        stack.extend(n for n, _ in node.next_functions if n is not None)
    (g,) = minigrad.autograd.grad(y, x, create_graph=True)
    stack, seen = [g.grad_fn], []
    while stack:
        node = stack.pop()
        if node is None or id(node) in forward_nodes:
            continue
        ref = node.metadata.get("differentiates")
        assert ref is not None, node.name()
        seen.append((node.name(), forward_nodes[id(ref())]))
        stack.extend(n for n, _ in node.next_functions)
    assert ("CosBackward0", "SinBackward0") in seen or ("MulBackward0", "SinBackward0") in seen
    assert all(target in forward_nodes.values() for _, target in seen)
    plain = (x * 2).sum()
    minigrad.autograd.grad(plain, x)
    assert "differentiates" not in plain.grad_fn.metadata
