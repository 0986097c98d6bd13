"""``viz.live()``: the graph as it grows, redrawn after each notebook cell that recorded operations.

NOTE [a live cell stays fast]: after a cell, the kernel only takes a snapshot of the
live nodes (plain data, a few milliseconds for hundreds of nodes) and hands it to a
layout thread; Graphviz runs there (``dot`` in its own process, or the WebAssembly
module, which releases the GIL), so the next cell does not wait for it.  Snapshots that
arrive while a layout runs replace each other: at most one layout per cell, the newest
graph wins.  The status line (node count, freed buffers) is updated at once.

NOTE [one watcher per kernel]: a new ``viz.live()`` stops the previous one (re-running its
cell), and a watcher is released when its widget goes away -- ``close()`` or the widget
collected -- so a forgotten live graph costs nothing.  While no view shows the widget (its
output cleared, the page closed) it pauses: cells take no snapshot until a view is back.
The library's hooks and IPython's event hold the watcher only weakly (see NOTE [a watcher does not outlive its owner] in
:mod:`viz.capture.watch`).
"""

from __future__ import annotations

import contextlib
import threading
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from .capture import LiveGraph, resolve_names
from .export import LIVE_HINT, display_with_widget, static_bundle
from .model import GraphSnapshot
from .render import LayoutError, strip_xml_prolog, to_svg

try:  # the display modes live in viz.style (vizstep's branch), else in viz.stepper
    from .style import MODES, THEME_FOR_MODE  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - before that merge
    from .stepper import MODES, THEME_FOR_MODE

__all__ = ["LiveGraphWidget", "live", "current_live"]

STATIC = Path(__file__).with_name("static")

_CURRENT: list[weakref.ref] = []  # the kernel's one live watcher (NOTE [one watcher per kernel])


def current_live() -> LiveGraphWidget | None:
    """The live graph widget that is watching now, if any."""
    widget = _CURRENT[0]() if _CURRENT else None
    return widget if widget is not None and widget.watching else None


class _Layout:
    """A layout thread that draws the newest snapshot it was given (NOTE [a live cell stays fast])."""

    def __init__(self, draw: Callable[[GraphSnapshot], None]) -> None:
        self._draw = draw
        self._pending: GraphSnapshot | None = None
        self._wake = threading.Condition()
        self._busy = False
        self._closed = False
        self._thread: threading.Thread | None = None
        self.layouts = 0  # how many layouts ran (for tests and benchmarks)

    def submit(self, snapshot: GraphSnapshot) -> None:
        with self._wake:
            self._pending = snapshot
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="viz-live-layout", daemon=True)
                self._thread.start()
            self._wake.notify()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until nothing is pending or running (tests, benchmarks); True if idle."""
        with self._wake:
            return self._wake.wait_for(lambda: self._pending is None and not self._busy, timeout)

    def close(self) -> None:
        with self._wake:
            self._closed = True
            self._pending = None
            self._wake.notify_all()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)

    def _run(self) -> None:
        while True:
            with self._wake:
                self._wake.wait_for(lambda: self._pending is not None or self._closed)
                if self._closed:
                    return
                snapshot, self._pending, self._busy = self._pending, None, True
            try:
                assert snapshot is not None
                self._draw(snapshot)
                self.layouts += 1
            finally:
                with self._wake:
                    self._busy = False
                    self._wake.notify_all()


class LiveGraphWidget(anywidget.AnyWidget):
    """The graph as it grows: redrawn after each cell that recorded new operations.

    Made by :func:`live`.  Only weak references to the graph are kept; nodes whose
    saved tensors a backward freed are drawn as freed, and inputs cut off by
    ``detach()`` are linked by a dashed "✂ cut" edge.  :meth:`stop` stops watching and
    keeps the last drawing; :meth:`close` also removes the widget.

    Parameters
    ----------
    params : optional
        Names for tensors (as for :func:`viz.draw`).
    library : str
        The autograd library to watch.
    background : bool
        Lay out in a thread after each cell (the default); ``False`` lays out in the cell.
    show_constants : bool
        Draw inputs that get no gradient as small grey boxes.
    """

    # The text, not the path: anywidget watches a file path for hot reloading with a callback
    # that holds every widget ever made (NOTE [one watcher per kernel]: a closed one must go).
    _esm = (STATIC / "live.js").read_text(encoding="utf-8")
    _css = (STATIC / "stepper.css").read_text(encoding="utf-8")

    svg = traitlets.Unicode("").tag(sync=True)
    status = traitlets.Unicode("").tag(sync=True)
    mode = traitlets.Enum(MODES, default_value="normal").tag(sync=True)
    #: Marks the static picture shown before the widget; the JS hides it (viz.export.display_with_widget).
    static_id = traitlets.Unicode("").tag(sync=True)

    def __init__(self, params: Any = None, library: str = "minigrad", background: bool = True,
                 show_constants: bool = True, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.params = params
        self._graph = LiveGraph(library, show_constants=show_constants)
        self._shell: Any = None
        self._hook: Callable[..., None] | None = None
        self._views = 0
        self._seen_view = False
        self._layout = _Layout(self._draw) if background else None
        self._summary = ""
        self._watch_cells()
        self.on_msg(self._on_custom_msg)
        self.refresh()

    # -- watching -------------------------------------------------------------------
    def _watch_cells(self) -> None:
        """Redraw once after each cell that recorded something (the debounce)."""
        try:
            from IPython import get_ipython
        except ImportError:  # pragma: no cover - IPython comes with the widgets
            return
        shell = get_ipython()
        if shell is None:
            return
        ref = weakref.WeakMethod(self._after_cell)

        def after_cell(*args: Any) -> None:  # holds the widget weakly (NOTE [one watcher per kernel])
            method = ref()
            if method is not None:
                method(*args)
            else:
                with contextlib.suppress(ValueError):
                    shell.events.unregister("post_run_cell", after_cell)

        shell.events.register("post_run_cell", after_cell)
        self._shell, self._hook = shell, after_cell

    @property
    def paused(self) -> bool:
        """True while no view shows the widget (after one did): cells then cost nothing."""
        return self._seen_view and self._views == 0

    def _after_cell(self, *_: Any) -> None:
        if self._graph.dirty and not self.paused:
            self.update(background=True)

    def _on_custom_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict):
            return
        if content.get("type") == "view":          # live.js: a view was rendered / removed
            self._views = max(0, self._views + (1 if content.get("attached") else -1))
            self._seen_view = True
            if not self.paused and self._graph.dirty and self.watching:  # shown again: catch up
                self.update(background=True)

    # -- drawing --------------------------------------------------------------------
    def update(self, background: bool | None = None) -> None:
        """Snapshot the live graph now and lay it out (in the layout thread by default)."""
        snapshot = self._graph.snapshot(self.params)
        if snapshot is None:
            self.svg = ""
            self.status = "no graph recorded yet: run an operation on a tensor that requires grad"
            return
        freed = sum("freed" in node.roles for node in snapshot.nodes)
        self._summary = f"{len(snapshot.nodes)} nodes" + (f", {freed} with freed buffers" if freed else "")
        self.status = self._summary
        use_thread = self._layout is not None and (background if background is not None else True)
        if use_thread:
            assert self._layout is not None
            self._layout.submit(snapshot)
        else:
            self._draw(snapshot)

    def refresh(self) -> None:
        """Redraw now from the live graph, in this thread (the layout is done when it returns)."""
        self.update(background=False)

    def _draw(self, snapshot: GraphSnapshot) -> None:
        try:
            self.svg = strip_xml_prolog(to_svg(snapshot, theme=THEME_FOR_MODE[self.mode], legend=True))
        except LayoutError as exc:  # too big or too slow: keep the last picture, say why
            self.status = f"{self._summary} · not redrawn: {exc}"

    def wait(self, timeout: float | None = 60.0) -> bool:
        """Wait for the layout thread to finish (True when it is idle)."""
        return True if self._layout is None else self._layout.wait(timeout)

    @property
    def layouts(self) -> int:
        """How many layouts the layout thread ran."""
        return 0 if self._layout is None else self._layout.layouts

    @property
    def dirty(self) -> bool:
        """True when operations were recorded since the last redraw."""
        return self._graph.dirty

    @property
    def watching(self) -> bool:
        """True until :meth:`stop` (or :meth:`close`)."""
        return self._graph.watching

    def stop(self, reason: str = "new operations are not drawn") -> None:
        """Stop watching and keep the last drawing (brought up to date first); idempotent."""
        if not self._graph.watching:
            return
        if self._graph.dirty:
            self.update()
        self.wait()
        self._graph.close()
        if self._layout is not None:
            self._layout.close()
        if self._shell is not None and self._hook is not None:
            with contextlib.suppress(ValueError):
                self._shell.events.unregister("post_run_cell", self._hook)
        self._shell = self._hook = None
        self.status = f"{self.status} · stopped: {reason}".lstrip(" ·")

    def close(self) -> None:
        """Stop watching and remove the widget."""
        self.stop()
        super().close()

    # -- display ----------------------------------------------------------------------
    def static_picture(self, tag: str | None = None) -> dict[str, str]:
        """The last drawing as a static picture with a one-line hint (viz.export.static_bundle)."""
        svg = self.svg or '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>'
        return static_bundle(svg, f"<viz.live: {self.status}>", hint=LIVE_HINT, tag=tag,
                             alt=f"live computation graph: {self.status}")

    def _ipython_display_(self) -> None:
        self.wait()
        display_with_widget(self.static_picture, lambda: self)


def live(params: Any = None, presentation: bool = False, compact: bool = False,
         library: str = "minigrad", names: Any = None, show_constants: bool = True) -> LiveGraphWidget:
    """A graph widget that redraws as new operations are recorded (in later cells).

    One per kernel: calling ``live()`` again stops the previous one.

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
    show_constants : bool
        Draw inputs that get no gradient as small grey boxes.

    Returns
    -------
    LiveGraphWidget
        Display it once; ``.stop()`` stops watching and keeps the drawing,
        ``.close()`` also removes the widget.
    """
    previous = current_live()
    if previous is not None:
        previous.stop("a newer viz.live() took over")
    mode = "presentation" if presentation else "compact" if compact else "normal"
    widget = LiveGraphWidget(params=resolve_names(params, names), library=library, mode=mode,
                             show_constants=show_constants)
    _CURRENT[:] = [weakref.ref(widget)]
    return widget
