"""The same program drawn from minigrad and from PyTorch gives the same nodes and edges."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from viz.capture import capture_graph, record_backward
from viz.gallery import EXAMPLES

pytestmark = pytest.mark.torch


def _mlp(lib: ModuleType) -> tuple[Any, Any]:
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.ReLU(), lib.nn.Linear(4, 1))
    return model(lib.ones(2, 3)).mean(), model


def _fan(lib: ModuleType) -> tuple[Any, Any]:
    x = lib.tensor([1.0, -2.0, 3.0], requires_grad=True)
    h = x.exp()
    return (h * x + h.sin() - x.tanh()).sum(), {"x": x}


def _broadcast(lib: ModuleType) -> tuple[Any, Any]:
    a = lib.tensor([[1.0], [2.0]], requires_grad=True)
    b = lib.tensor([3.0, 4.0, 5.0], requires_grad=True)
    return ((a + b) / (b * b)).sigmoid().sum(), {"a": a, "b": b}


def _mse(lib: ModuleType) -> tuple[Any, Any]:
    w = lib.tensor([[0.5, -0.5]], requires_grad=True)
    x = lib.tensor([[1.0, 2.0], [3.0, 4.0]])
    target = lib.tensor([[1.0, 0.0]])
    return lib.nn.functional.mse_loss(w @ x, target), {"w": w}


PROGRAMS: dict[str, Callable[[ModuleType], tuple[Any, Any]]] = {
    "mlp": _mlp, "fan": _fan, "broadcast": _broadcast, "mse": _mse,
}

#: Programs whose parameters come from the random generator (values differ by library).
RANDOM_INIT = {"mlp"}

# create_graph derivatives are built from each library's own backward formulas,
# which need not be the same ops, so that gallery graph is not compared.
SAME_STRUCTURE = [name for name in EXAMPLES if name != "second_derivative"]


def structure(snapshot: Any) -> tuple[list[tuple[str, str, str | None]], list[tuple[Any, ...]]]:
    nodes = [(n.kind, n.name, n.tensor.name if n.tensor is not None else None) for n in snapshot.nodes]
    edges = [(e.source, e.target, e.kind, e.slot, e.input_nr) for e in snapshot.edges]
    return nodes, edges


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_programs_have_the_same_graph(name: str, minigrad: ModuleType, torch: ModuleType) -> None:
    (mine_root, mine_params), (their_root, their_params) = PROGRAMS[name](minigrad), PROGRAMS[name](torch)
    mine = capture_graph(mine_root, params=mine_params)
    theirs = capture_graph(their_root, params=their_params)
    assert structure(mine) == structure(theirs)


@pytest.mark.parametrize("name", SAME_STRUCTURE)
def test_gallery_programs_have_the_same_graph(name: str, minigrad: ModuleType, torch: ModuleType) -> None:
    def snap(lib: ModuleType) -> Any:
        example = EXAMPLES[name](lib)
        return capture_graph(*example.roots, params=example.params,
                             view=example.options.get("view", "autograd"))

    mine, theirs = snap(minigrad), snap(torch)
    if mine.view == "dataflow":  # minigrad also knows the intermediate tensors: compare the ops
        assert [n.name for n in mine.nodes if n.kind == "op"] == \
            [n.name for n in theirs.nodes if n.kind == "op"]
    else:
        assert structure(mine) == structure(theirs)


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_recorded_steps_match(name: str, minigrad: ModuleType, torch: ModuleType) -> None:
    (mine_root, _), (their_root, _) = PROGRAMS[name](minigrad), PROGRAMS[name](torch)
    _mine_snap, mine = record_backward(mine_root)
    _their_snap, theirs = record_backward(their_root)
    assert [(s.node_id, s.name) for s in mine] == [(s.node_id, s.name) for s in theirs]
    for a, b in zip(mine, theirs):
        if name in RANDOM_INIT:  # the two random generators differ: compare shapes only
            assert [g.shape for g in a.grad_inputs if g is not None] == \
                [g.shape for g in b.grad_inputs if g is not None]
            continue
        for x, y in zip((*a.grad_outputs, *a.grad_inputs, a.grad_after),
                        (*b.grad_outputs, *b.grad_inputs, b.grad_after)):
            assert (x is None) == (y is None)
            if x is not None:
                np.testing.assert_allclose(x, y, rtol=1e-5, atol=1e-6)
