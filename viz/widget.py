"""Jupyter widgets (anywidget): the backward stepper's widget and the live graph (``live``)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from .capture import LiveGraph, resolve_names
from .i18n import strings as _strings
from .render import strip_xml_prolog, to_svg
from .style import MODES, THEME_FOR_MODE

# NOTE: this module does not import viz.stepper (the Stepper makes its widget lazily):
# no import cycle between the two.
__all__ = ["StepperWidget", "LiveGraphWidget", "live"]

STATIC = Path(__file__).with_name("static")


class StepperWidget(anywidget.AnyWidget):
    """The stepper in a notebook: the SVG laid out once, restyled per step in the browser.

    Usually made by :func:`step_backward` (``stepper.widget``).  The traits are the
    state that ``static/stepper.js`` reads; ``step`` and ``selected`` sync both ways.

    Examples
    --------
    >>> w = StepperWidget(svg="<svg/>", steps=[], graph={})
    >>> w.step = 5          # clamped to the number of steps
    >>> w.step
    0
    """

    _esm = STATIC / "stepper.js"
    _css = STATIC / "stepper.css"

    svg = traitlets.Unicode("").tag(sync=True)
    steps = traitlets.List([]).tag(sync=True)
    graph = traitlets.Dict({}).tag(sync=True)
    step = traitlets.Int(0).tag(sync=True)
    mode = traitlets.Enum(MODES, default_value="normal").tag(sync=True)
    theme = traitlets.Unicode("default").tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)
    selected = traitlets.Unicode("").tag(sync=True)
    inspect = traitlets.Dict({}).tag(sync=True)
    grad_flow = traitlets.Bool(False).tag(sync=True)
    can_rerun = traitlets.Bool(False).tag(sync=True)
    predict = traitlets.Bool(False).tag(sync=True)
    strings = traitlets.Dict({}).tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if not self.strings:
            self.strings = _strings()
        self._inspector: Callable[[str], list[tuple[str, str]]] | None = None
        self._rerun: Callable[[], Any] | None = None
        self.on_msg(self._on_custom_msg)

    @traitlets.validate("step")
    def _clamp_step(self, proposal: Any) -> int:
        return max(0, min(len(self.steps), int(proposal["value"])))

    @traitlets.observe("mode")
    def _mode_theme(self, change: Any) -> None:
        self.theme = THEME_FOR_MODE[change["new"]]

    @traitlets.observe("selected")
    def _selected(self, change: Any) -> None:
        node_id = change["new"]
        if not node_id or self._inspector is None:
            return
        rows = self._inspector(node_id)
        self.inspect = {"node_id": node_id, "details": {"rows": [list(r) for r in rows]}}

    def on_inspect(self, fn: Callable[[str], list[tuple[str, str]]]) -> None:
        """``fn(node_id) -> rows`` answers a click on a node (the round trip to Python)."""
        self._inspector = fn

    def on_backward_again(self, fn: Callable[[], Any]) -> None:
        """``fn()`` runs when the "backward again" button is pressed."""
        self._rerun = fn

    def _on_custom_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict) and content.get("type") == "backward_again" and self._rerun:
            self._rerun()

    def next(self) -> None:
        """Apply one more step."""
        self.step = self.step + 1

    def previous(self) -> None:
        """Go back one step."""
        self.step = self.step - 1


class LiveGraphWidget(anywidget.AnyWidget):
    """The graph as it grows: redrawn after each cell that recorded new operations.

    Made by :func:`live`.  Only weak references to the graph are kept; nodes whose
    saved tensors a backward freed are drawn as freed, and inputs cut off by
    ``detach()`` are linked by a dashed "✂ cut" edge.  :meth:`stop` stops watching and
    keeps the last drawing; :meth:`close` also removes the widget.
    """

    _esm = STATIC / "live.js"
    _css = STATIC / "stepper.css"

    svg = traitlets.Unicode("").tag(sync=True)
    status = traitlets.Unicode("").tag(sync=True)
    mode = traitlets.Enum(MODES, default_value="normal").tag(sync=True)

    def __init__(self, params: Any = None, library: str = "minigrad", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.params = params
        self._graph = LiveGraph(library)
        self._shell: Any = None
        self._watch_cells()
        self.refresh()

    def _watch_cells(self) -> None:
        """Redraw once after each cell that recorded something (the debounce)."""
        try:
            from IPython import get_ipython
        except ImportError:  # pragma: no cover - IPython comes with the widgets
            return
        shell = get_ipython()
        if shell is not None:
            shell.events.register("post_run_cell", self._after_cell)
            self._shell = shell

    def _after_cell(self, *_: Any) -> None:
        if self._graph.dirty:
            self.refresh()

    def refresh(self) -> None:
        """Redraw now from the live graph."""
        snapshot = self._graph.snapshot(self.params)
        if snapshot is None:
            self.svg = ""
            self.status = "no graph recorded yet: run an operation on a tensor that requires grad"
            return
        self.svg = strip_xml_prolog(to_svg(snapshot, theme=THEME_FOR_MODE[self.mode], legend=True))
        freed = sum("freed" in node.roles for node in snapshot.nodes)
        self.status = f"{len(snapshot.nodes)} nodes" + (f", {freed} with freed buffers" if freed else "")

    @property
    def dirty(self) -> bool:
        """True when operations were recorded since the last redraw."""
        return self._graph.dirty

    @property
    def watching(self) -> bool:
        """True until :meth:`stop` (or :meth:`close`)."""
        return self._graph.watching

    def stop(self) -> None:
        """Stop watching and keep the last drawing (brought up to date first); idempotent."""
        if not self._graph.watching:
            return
        if self._graph.dirty:
            self.refresh()
        self._graph.close()
        if self._shell is not None:
            with contextlib.suppress(ValueError):
                self._shell.events.unregister("post_run_cell", self._after_cell)
            self._shell = None
        self.status = f"{self.status} · stopped: new operations are not drawn".lstrip(" ·")

    def close(self) -> None:
        """Stop watching and remove the widget."""
        self.stop()
        super().close()


def live(params: Any = None, presentation: bool = False, compact: bool = False,
         library: str = "minigrad", names: Any = None) -> LiveGraphWidget:
    """A graph widget that redraws as new operations are recorded (in later cells).

    Parameters
    ----------
    params : Module, mapping or pairs, optional
        Names for tensors (as for :func:`viz.draw`).
    presentation, compact : bool
        Projector theme / compact theme.
    library : str
        The autograd library to watch (``"minigrad"``; it needs
        ``register_node_created_hook``).
    names : optional
        An alias of ``params`` (give one of them).

    Returns
    -------
    LiveGraphWidget
        Display it once; ``.stop()`` stops watching and keeps the drawing,
        ``.close()`` also removes the widget.
    """
    mode = "presentation" if presentation else "compact" if compact else "normal"
    return LiveGraphWidget(params=resolve_names(params, names), library=library, mode=mode)
