"""Deep graphs: a 100,000-op chain backpropagates (no recursion), in linear time, and frees its buffers."""

from __future__ import annotations

import gc
import sys
import time
import weakref

import numpy as np
import pytest

import minigrad


def chain(n, x):
    y = x
    for _ in range(n):
        y = y * 0.99999
    return y


def test_100k_chain_without_recursion_error():
    x = minigrad.tensor([1.0, 2.0], dtype=minigrad.float64, requires_grad=True)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)  # far below the depth: any recursion over the graph would fail
    try:
        chain(100_000, x).sum().backward()
    finally:
        sys.setrecursionlimit(limit)
    np.testing.assert_allclose(x.grad.numpy(), [0.99999**100_000] * 2, rtol=1e-9)


def _backward_seconds(n):
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = chain(n, x).sum()
    start = time.process_time()
    y.backward()
    return time.process_time() - start


@pytest.mark.slow
def test_backward_time_is_linear_in_length():
    """10x longer chain, about 10x the time (best of two; a generous bound for a busy machine)."""
    short = min(_backward_seconds(10_000) for _ in range(2))
    long = min(_backward_seconds(100_000) for _ in range(2))
    assert long / short < 16, (short, long)


def test_saved_tensors_are_freed_after_backward():
    """Without retain_graph the intermediate arrays are collected as soon as the backward is done."""
    x = minigrad.tensor(np.ones(1000), requires_grad=True)
    h = x.exp()
    y = (h * h).tanh().sum()
    saved = [weakref.ref(h._data), weakref.ref(y.grad_fn.next_functions[0][0]._saved_result._data)]
    del h
    gc.collect()
    assert all(r() is not None for r in saved)  # held by the graph
    y.backward()
    gc.collect()
    assert [r() for r in saved] == [None, None]
    assert y.grad_fn.next_functions[0][0].saved_tensors_released


def test_retain_graph_keeps_them():
    x = minigrad.tensor(np.ones(10), requires_grad=True)
    h = x.exp()
    ref = weakref.ref(h._data)
    y = (h * 2).sum()
    del h
    y.backward(retain_graph=True)
    gc.collect()
    assert ref() is not None
    y.backward()
    gc.collect()
    assert ref() is None


def test_graph_is_collected_by_reference_counting_alone():
    """No reference cycles in a graph: it goes away without the cyclic collector."""
    gc.disable()
    try:
        x = minigrad.tensor([1.0, 2.0], requires_grad=True)
        y = (x.exp() * x).sin().sum()
        node = weakref.ref(y.grad_fn)
        inner = weakref.ref(y.grad_fn.next_functions[0][0])
        del y
        assert node() is None
        assert inner() is None
        y = (x.exp() * x).sin().sum()
        y.backward()
        node = weakref.ref(y.grad_fn)
        del y
        assert node() is None
    finally:
        gc.enable()
