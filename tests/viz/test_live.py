"""viz.live(): one watcher per kernel, released with its widget, laid out off the cell, bounded memory."""

from __future__ import annotations

import gc
import os
import weakref
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("anywidget")

from viz.capture import LiveGraph
from viz.live_graph import LiveGraphWidget, current_live, live

ROOT = Path(__file__).resolve().parents[2]


def _hooks(minigrad: ModuleType) -> int:
    """How many node-created hooks the library has (each watcher registers one)."""
    return len(minigrad.autograd.graph._node_created_hooks)


def test_a_new_live_stops_the_previous_one(minigrad: ModuleType) -> None:
    before = _hooks(minigrad)
    first = live()
    try:
        assert current_live() is first
        assert _hooks(minigrad) == before + 1
        second = live()
        try:
            assert not first.watching
            assert "a newer viz.live() took over" in first.status
            assert second.watching
            assert current_live() is second
            assert _hooks(minigrad) == before + 1       # one watcher per kernel
        finally:
            second.close()
    finally:
        first.close()
    assert current_live() is None
    assert _hooks(minigrad) == before


def test_a_watcher_nobody_holds_is_released(minigrad: ModuleType) -> None:
    before = _hooks(minigrad)
    watcher = LiveGraph("minigrad")
    ref = weakref.ref(watcher)
    x = minigrad.tensor([1.0], requires_grad=True)
    _ = x * 2
    assert _hooks(minigrad) == before + 1
    del watcher
    gc.collect()
    assert ref() is None                                  # the library's hook does not keep it alive
    assert _hooks(minigrad) == before                     # and its finalizer removed the hook
    _ = x * 3                                             # recording works without it


def test_a_closed_widget_is_released(minigrad: ModuleType) -> None:
    before = _hooks(minigrad)
    widget = live()
    graph = weakref.ref(widget._graph)
    ref = weakref.ref(widget)
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = (x * 2).sum()
    widget.refresh()
    widget.close()
    assert not widget.watching
    del widget
    gc.collect()
    assert ref() is None
    assert graph() is None
    assert _hooks(minigrad) == before
    assert y.requires_grad


def test_no_view_pauses_and_a_view_catches_up(minigrad: ModuleType) -> None:
    widget = live()
    try:
        x = minigrad.tensor([1.0], requires_grad=True)
        widget._on_custom_msg(widget, {"type": "view", "attached": True}, [])
        y = x.exp()
        widget._after_cell()
        assert widget.wait()
        assert widget.layouts == 1                        # shown: redrawn after the cell
        widget._on_custom_msg(widget, {"type": "view", "attached": False}, [])
        assert widget.paused                              # output cleared: nobody looks
        z = y.sin()
        widget._after_cell()
        assert widget.wait()
        assert widget.layouts == 1                        # no snapshot, no layout
        assert widget.watching
        widget._on_custom_msg(widget, {"type": "view", "attached": True}, [])
        assert widget.wait()
        assert widget.layouts == 2                        # shown again: brought up to date
        assert "SinBackward0" in widget.svg
        assert z.requires_grad
    finally:
        widget.close()


def test_dead_references_are_compacted(minigrad: ModuleType) -> None:
    watcher = LiveGraph("minigrad")
    try:
        x = minigrad.tensor([1.0], requires_grad=True)
        for _ in range(20_000):
            y = (x * 2).sum()                             # two nodes, dead at once
        del y
        assert len(watcher._nodes) < 5_000                # not 40,000 weak references
        assert len(watcher._maybe_cut) < 5_000            # (each has a constant 2: a possible cut)
        assert len(watcher.alive()) == 0
    finally:
        watcher.close()


def test_layout_runs_in_a_thread_once_per_cell(minigrad: ModuleType) -> None:
    widget = LiveGraphWidget()
    try:
        x = minigrad.tensor([1.0, 2.0], requires_grad=True)
        h = x
        for _ in range(5):
            h = (h * 2).exp()
        widget._after_cell()                              # a cell ended: snapshot now, layout later
        assert widget.status.startswith("16 nodes")      # at once: 10 ops, x and the five 2s
        assert widget.wait()
        assert widget.layouts == 1
        assert 'id="n0"' in widget.svg
        widget._after_cell()                              # nothing new: no layout
        assert widget.wait()
        assert widget.layouts == 1
    finally:
        widget.close()


def test_a_graph_over_the_budget_keeps_the_last_picture_and_says_why(minigrad: ModuleType,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    widget = LiveGraphWidget(background=False)
    try:
        x = minigrad.tensor([1.0], requires_grad=True)
        y = x.exp()
        widget.refresh()
        first = widget.svg
        assert first
        monkeypatch.setenv("VIZ_MAX_NODES", "3")
        z = (y * x).sin().cos()
        widget.refresh()
        assert widget.svg == first
        assert "not redrawn: This graph has" in widget.status
        assert "max_nodes" in widget.status
        assert z.requires_grad
    finally:
        widget.close()


@pytest.mark.slow
def test_rerunning_live_in_a_kernel_keeps_one_watcher(kernel_env: dict[str, str]) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in (
        "import minigrad as torch, viz\nfrom minigrad.autograd import graph\nw = viz.live()\nw",
        "w = viz.live()\nw",                                # the learner re-runs the cell
        "x = torch.tensor([1., 2.], requires_grad=True)\ny = (x * 2).exp().sum()",
        "w.wait()\nprint(len(graph._node_created_hooks), w.layouts, w.status)",
    )]
    env = dict(kernel_env)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3").execute(env=env)
    printed = "".join(o.get("text", "") for o in nb.cells[3].outputs).split()
    assert printed[:4] == ["1", "1", "5", "nodes"]        # one hook, one layout for the one cell
    html = "".join(o.get("data", {}).get("text/html", "") for o in nb.cells[1].outputs)
    assert 'class="viz-static" data-viz-static=' in html    # a picture for readers without widgets
