"""Big graphs: loops drawn once (viz.fold), layout budgets and time limits, constants as grey inputs."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from types import ModuleType
from typing import Any

import pytest

import viz
from viz.capture import capture_graph
from viz.fold import alias_map, fold_loops
from viz.render import LayoutBudgetError, LayoutTimeoutError, render_dot, to_dot
from viz.stepper import frame


def shared_loop(lib: ModuleType, n: int) -> tuple[Any, Any]:
    w = lib.tensor(0.5, requires_grad=True)
    h = lib.tensor(1.0)
    for _ in range(n):
        h = (h * w + 0.1).tanh()
    return h, w


def residual(lib: ModuleType, blocks: int) -> Any:
    h = lib.tensor([0.5, -0.25], requires_grad=True)
    for i in range(blocks):
        w = lib.tensor([0.9 + 0.001 * i, 1.1 - 0.001 * i], requires_grad=True)
        h = (h * w).tanh() + h
    return h.sum()


# ------------------------------------------------------------------ fold_loops


def test_a_shared_weight_loop_is_drawn_once(lib: ModuleType) -> None:
    h, w = shared_loop(lib, 300)
    snap = capture_graph(h, params={"w": w})
    folded = fold_loops(snap)
    assert [f.count for f in folded.folds] == [300]
    body = [folded.node(i) for i in folded.folds[0].nodes]
    assert sorted(n.name for n in body if n.kind == "fn") == ["AddBackward0", "MulBackward0", "TanhBackward0"]
    assert all(len(n.members) == 300 and "repeated" in n.roles for n in body)
    assert [n.tensor.name for n in folded.nodes if n.kind == "acc"] == ["w"]   # the shared w, once
    from_w = [e for e in folded.edges if folded.node(e.source).kind == "acc"]
    assert [(e.count, e.back) for e in from_w] == [(300, False)]             # one bundled edge, ×300
    back = [e for e in folded.edges if e.back]
    assert [(folded.node(e.source).name, folded.node(e.target).name, e.count) for e in back] == [
        ("TanhBackward0", "MulBackward0", 299)]                              # h into the next iteration
    assert len(folded.nodes) < 12
    alias = alias_map(folded)
    assert set(alias) == {n.id for n in snap.nodes}                          # every id is drawn somewhere
    assert set(alias.values()) == {n.id for n in folded.nodes}


def test_the_folded_loop_reads_as_a_loop(minigrad: ModuleType) -> None:
    h, w = shared_loop(minigrad, 300)
    diagram = viz.draw(h, params={"w": w}, backend="wasm")
    svg = diagram.svg()
    root = ET.fromstring(svg.encode("utf-8"))
    texts = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "loop body ×300" in texts
    assert "×300" in texts                                                   # the bundled edge from w
    assert "next iteration ×299" in texts
    assert any("a loop body repeated ×300 is drawn once (fold=False draws every node)" in t for t in texts)
    groups = {g.get("id"): g.get("class") for g in root.iter("{http://www.w3.org/2000/svg}g")}
    assert groups["f0"] == "cluster fold"
    assert "edge next back" in groups.values()


def test_fold_option(minigrad: ModuleType) -> None:
    h, w = shared_loop(minigrad, 20)                                         # small: drawn in full ...
    snap = capture_graph(h, params={"w": w})
    assert "cluster_fold" not in to_dot(snap)
    assert "cluster_fold" in to_dot(snap, fold=True)                         # ... unless asked
    big, w = shared_loop(minigrad, 100)
    snap = capture_graph(big, params={"w": w})
    assert "cluster_fold" in to_dot(snap)                                    # big: folded by itself
    assert "cluster_fold" not in to_dot(snap, fold=False)
    assert to_dot(snap, fold=False).count("MulBackward0") == 100


def test_residual_blocks_with_their_own_weights_fold(lib: ModuleType) -> None:
    snap = capture_graph(residual(lib, 400))
    assert len(snap.nodes) > 1600
    folded = fold_loops(snap)
    assert [f.count for f in folded.folds] == [400]
    assert len(folded.nodes) < 12
    # each iteration's own w_i is part of the body: drawn once, standing for 400 leaves
    accs = [n for n in folded.nodes if n.kind == "acc" and "repeated" in n.roles]
    assert [len(n.members) for n in accs] == [400]


def test_two_loops_in_a_row_both_fold(minigrad: ModuleType) -> None:
    w = minigrad.tensor(0.5, requires_grad=True)
    h = minigrad.tensor(1.0)
    for _ in range(10):
        h = (h * w).tanh()
    for _ in range(10):
        h = (h + w).sin().exp()
    folded = fold_loops(capture_graph(h, show_constants=False))
    assert sorted(f.count for f in folded.folds) == [10, 10]


def test_nothing_repeats_nothing_folds(minigrad: ModuleType) -> None:
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    snap = capture_graph((x.exp() * x.sin()).sum())
    assert fold_loops(snap) is snap


def test_the_stepper_walks_the_folded_loop(minigrad: ModuleType) -> None:
    h, w = shared_loop(minigrad, 300)
    stepper = viz.step_backward(h, params={"w": w})
    assert len(stepper.steps) == 901                                         # every real step is kept
    drawn = {n.id for n in stepper.snapshot.nodes}
    assert stepper.snapshot.folds
    assert all(step.node_id in drawn for step in stepper.steps)
    state = stepper.state()
    last = frame(state, len(state["steps"]))
    body = set(stepper.snapshot.folds[0].nodes)
    assert all(last["nodes"][i].startswith("mg-done") for i in body if i in last["nodes"])
    middle = frame(state, 451)
    assert "mg-current" in middle["nodes"][state["steps"][450]["node_id"]]
    assert w.grad is not None                                                # the backward really ran


# ------------------------------------------------------------------ budgets and time limits


def test_over_the_budget_says_what_to_do(minigrad: ModuleType) -> None:
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x
    for i in range(60):
        y = y * (i + 1.0) if i % 2 else y.exp()                              # no period: nothing to fold
    diagram = viz.draw(y.sum(), max_nodes=50, backend="wasm")
    with pytest.raises(LayoutBudgetError, match="more than the layout budget of 50") as info:
        diagram.svg()
    assert "max_nodes" in str(info.value)
    assert "depth=1" in str(info.value)
    bundle = diagram._repr_mimebundle_()                                     # the notebook says so, no hang
    assert "not drawn: This graph has" in bundle["text/plain"]
    assert "<pre" in bundle["text/html"]


@pytest.mark.parametrize("backend", ["native", "wasm"])
def test_a_layout_over_its_time_is_stopped(minigrad: ModuleType, backend: str, dot_path: str) -> None:
    h, w = shared_loop(minigrad, 200)
    dot = to_dot(capture_graph(h, params={"w": w}), fold=False)
    with pytest.raises(LayoutTimeoutError, match="did not finish the layout within"):
        render_dot(dot, backend=backend, timeout=0.001)
    assert b"<svg" in render_dot("digraph { a -> b }", backend=backend)     # and Graphviz works after it


# ------------------------------------------------------------------ constants and untracked inputs


def _inputs(snap: Any, name: str) -> list[Any]:
    target = next(n for n in snap.nodes if n.name == name)
    return [snap.node(e.source) for e in snap.edges if e.target == target.id and e.kind in ("next", "input")]


def test_an_input_without_grad_is_drawn(lib: ModuleType) -> None:
    x = lib.tensor([1.0, 2.0])
    w = lib.tensor([3.0, 4.0], requires_grad=True)
    snap = capture_graph(x + w, params={"x": x, "w": w})
    inputs = _inputs(snap, "AddBackward0")
    assert len(inputs) == 2                                                  # not a one-input operation
    constant = next(n for n in inputs if "constant" in n.roles)
    assert constant.kind == "tensor"
    edge = next(e for e in snap.edges if e.source == constant.id)
    assert (edge.kind, edge.slot) == ("input", 0)
    assert len(_inputs(capture_graph(x + w, show_constants=False), "AddBackward0")) == 1


def test_a_detached_input_shows_its_value(lib: ModuleType) -> None:
    h = lib.tensor([1.0, 2.0], requires_grad=True) * 3
    snap = capture_graph(h * h.detach())
    inputs = _inputs(snap, "MulBackward0")
    assert len(inputs) == 2
    constant = next(n for n in inputs if "constant" in n.roles)
    assert constant.tensor is not None
    assert constant.tensor.values == "[3, 6]"
    assert not constant.tensor.requires_grad
    assert next(e for e in snap.edges if e.source == constant.id).label == "other"


def test_constants_appear_in_the_dataflow_view_and_the_stepper(minigrad: ModuleType) -> None:
    x = minigrad.tensor([1.0, 2.0])
    w = minigrad.tensor([3.0, 4.0], requires_grad=True)
    snap = capture_graph((x * w).sum(), view="dataflow")
    assert any("constant" in n.roles for n in snap.nodes)
    stepper = viz.step_backward((x * w).sum(), params={"x": x, "w": w})
    constants = [n for n in stepper.snapshot.nodes if "constant" in n.roles]
    assert [n.tensor.name for n in constants] == ["x"]                       # named, with its values
    assert "[1, 2]" in ET.tostring(ET.fromstring(stepper.static_frame()["image/svg+xml"]), encoding="unicode")
