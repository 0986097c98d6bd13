"""Jupyter widgets (anywidget): the backward stepper's widget (the live graph lives in :mod:`viz.live_graph`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from .i18n import strings as _strings
from .live_graph import LiveGraphWidget, live
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
    #: Marks the static first frame shown before the widget; the JS hides it (viz.export.display_with_widget).
    static_id = traitlets.Unicode("").tag(sync=True)

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
