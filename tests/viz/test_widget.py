"""Widget traits without a browser, the live graph, and widget state kept by nbclient."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from viz.stepper import step_backward
from viz.widget import LiveGraphWidget, StepperWidget, live

ROOT = Path(__file__).resolve().parents[2]
SVG = "{http://www.w3.org/2000/svg}"


def _stepper(minigrad: ModuleType) -> Any:
    a = minigrad.tensor(2.0, requires_grad=True)
    b = minigrad.tensor(3.0, requires_grad=True)
    return step_backward((a * b).exp(), params={"a": a, "b": b})


def test_widget_traits_mirror_the_stepper(minigrad: ModuleType) -> None:
    stepper = _stepper(minigrad)
    widget = stepper.widget
    assert isinstance(widget, StepperWidget)
    assert widget is stepper.widget
    assert len(widget.steps) == len(stepper.steps) == 4
    assert widget.svg.startswith("<svg")
    assert 'id="n1"' in widget.svg
    widget.step = 99
    assert widget.step == 4
    assert stepper.step == 4
    widget.step = -3
    assert widget.step == 0
    widget.next()
    assert stepper.step == 1
    widget.mode = "presentation"
    assert widget.theme == "projector"


def test_click_round_trip_inspects_live_objects(minigrad: ModuleType) -> None:
    stepper = _stepper(minigrad)
    widget = stepper.widget
    leaf = next(n.id for n in stepper.snapshot.nodes if n.kind == "acc")
    widget.selected = leaf
    assert widget.inspect["node_id"] == leaf
    rows = dict(widget.inspect["details"]["rows"])
    assert rows["node"] == "AccumulateGrad"
    assert "variable grad" in rows
    exp = next(n.id for n in stepper.snapshot.nodes if n.name == "ExpBackward0")
    widget.selected = exp
    assert "freed" in dict(widget.inspect["details"]["rows"])["saved tensors"]


def test_backward_again_message_shows_the_error_and_keeps_the_steps(minigrad: ModuleType) -> None:
    stepper = _stepper(minigrad)
    widget = stepper.widget
    steps = list(widget.steps)
    assert widget.can_rerun
    widget._on_custom_msg(widget, {"type": "backward_again"}, [])
    assert "backward through the graph a second time" in widget.error
    assert widget.steps[: len(steps)] == steps
    widget.step = 1                                        # still usable
    assert widget.step == 1


def test_live_graph_grows_and_marks_freed_buffers(minigrad: ModuleType) -> None:
    widget = live()
    try:
        assert widget.svg == ""
        x = minigrad.tensor([1.0, 2.0], requires_grad=True)
        y = (x * 3).exp()
        assert widget.dirty
        widget.refresh()
        assert not widget.dirty
        assert "ExpBackward0" in widget.svg
        assert "MulBackward0" in widget.svg
        loss = y.sum()
        loss.backward()
        assert widget.dirty                                # a finished backward asks for a redraw
        widget.refresh()
        assert "freed" in widget.svg
        assert "freed" in widget.status
    finally:
        widget.close()


def test_live_graph_keeps_only_weak_references(minigrad: ModuleType) -> None:
    import gc

    widget = live()
    try:
        x = minigrad.tensor([1.0], requires_grad=True)
        y = (x * 2).sin()
        assert len(widget._graph.alive()) == 2
        del y
        gc.collect()
        assert widget._graph.alive() == []
    finally:
        widget.close()


def _cut_edges(svg: str) -> list[str]:
    """The texts of the edges of kind ``cut`` in an SVG."""
    root = ET.fromstring(svg.encode("utf-8"))
    return ["".join(t.itertext()) for g in root.iter(f"{SVG}g") if g.get("class") == "edge cut"
            for t in g.iter(f"{SVG}text")]


def test_live_graph_shows_detach_as_a_cut_edge_also_after_backward(minigrad: ModuleType) -> None:
    widget = live()
    try:
        a = minigrad.tensor([1.0, 2.0], requires_grad=True)
        w = minigrad.tensor([0.5, 0.5], requires_grad=True)
        h = a.exp()
        out = (h.detach() * w).sum()                       # the gradient cannot flow back into h
        widget.refresh()
        assert _cut_edges(widget.svg) == ["✂ cut"]         # an edge label, not a node name
        assert ">detached<" in widget.svg
        out.backward()                                     # frees Mul's saved tensors...
        widget.refresh()
        assert "with freed buffers" in widget.status
        assert _cut_edges(widget.svg) == ["✂ cut"]         # ...the cut stays drawn
    finally:
        widget.close()


def test_stop_keeps_the_last_drawing(minigrad: ModuleType) -> None:
    widget = live(names={})
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    widget.stop()                                          # brings the drawing up to date first
    assert not widget.watching
    assert "ExpBackward0" in widget.svg
    assert "stopped" in widget.status
    drawn = widget.svg
    z = y.sin()                                            # no longer watched
    assert not widget.dirty
    assert widget.svg == drawn
    widget.stop()                                          # idempotent
    widget.close()
    assert z.grad_fn is not None


def test_live_widget_is_a_widget() -> None:
    widget = LiveGraphWidget()
    try:
        assert "no graph recorded yet" in widget.status
    finally:
        widget.close()


@pytest.mark.slow
def test_widget_state_survives_nbclient(tmp_path: Path, kernel_env: dict[str, str]) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(
            "import minigrad as torch\nimport viz\n"
            "a = torch.tensor(2., requires_grad=True)\nb = torch.tensor(3., requires_grad=True)\n"
            "s = viz.step_backward((a * b).sin(), params={'a': a, 'b': b})\ns"),
        nbformat.v4.new_code_cell("s.widget.step = 2"),
    ]
    env = dict(kernel_env)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    client = nbclient.NotebookClient(nb, timeout=120, kernel_name="python3", store_widget_state=True,
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute(env=env)
    state = nb.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    steppers = [m["state"] for m in state.values() if "steps" in m.get("state", {})]
    assert len(steppers) == 1
    assert steppers[0]["step"] == 2                        # the last state, not the first
    assert len(steppers[0]["steps"]) == 4
    outputs = nb.cells[0].outputs
    assert any("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in outputs)


@pytest.mark.slow
def test_live_graph_redraws_after_each_cell_in_a_kernel(kernel_env: dict[str, str]) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in (
        "import minigrad as torch, viz\nw = viz.live()\nw",
        "x = torch.tensor([1., 2.], requires_grad=True)\ny = (x * 2).exp().sum()",
        "print(w.status)\ny.backward()",
        "print(w.status)",
    )]
    env = dict(kernel_env)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3").execute(env=env)
    printed = ["".join(o.get("text", "") for o in cell.outputs) for cell in nb.cells[2:]]
    assert printed[0].strip() == "5 nodes"  # redrawn once, after the cell that recorded (2 is a constant)
    assert "with freed buffers" in printed[1]              # and again after the backward
