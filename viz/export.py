"""Several diagrams in one picture: :func:`side_by_side`, shown inline in Jupyter or saved as HTML / SVG."""

from __future__ import annotations

import base64
import html
import os
import re
import uuid
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .render import strip_xml_prolog
from .text import safe_text

__all__ = ["SideBySide", "side_by_side", "static_bundle", "static_html", "with_widget", "display_with_widget",
           "check_file_prefix",
           "STEPPER_HINT",
           "LIVE_HINT"]

#: The line under a stepper's static first frame (where no widget runs: untrusted, nbconvert, GitHub).
STEPPER_HINT = ("Backward stepper ({steps} steps), first frame. To step through it, run the notebook "
                "in Jupyter with the widget front end (pip install anywidget), or save an offline "
                "stepper with .save_html(\"stepper.html\") and open it in a browser.")

#: The line under a live graph's static picture.
LIVE_HINT = ("Live graph (as last drawn). It grows while the notebook runs in Jupyter with the widget "
             "front end (pip install anywidget).")

SVG_NS = "http://www.w3.org/2000/svg"
ET.register_namespace("", SVG_NS)
ET.register_namespace("xlink", "http://www.w3.org/1999/xlink")

#: Space between two diagrams, and above each for its title (in points, as Graphviz's SVG).
GAP_PT = 24.0
TITLE_PT = 22.0

_STYLE = (".viz-side-by-side{display:flex;flex-wrap:wrap;align-items:flex-start;gap:24px}"
          ".viz-side-by-side figure{margin:0}"
          ".viz-side-by-side figcaption{font:bold 14px sans-serif;margin:0 0 6px}"
          ".viz-side-by-side svg{max-width:100%;height:auto}")


def static_html(svg: str, hint: str | None = None, alt: str = "computation graph",
                tag: str | None = None) -> str:
    """An ``<img>`` showing ``svg`` from a data URI, optionally with a one-line hint under it.

    This is the picture that survives everywhere a notebook is read: untrusted
    notebooks (JupyterLab strips inline ``<svg>`` from untrusted HTML, leaving its text),
    ``jupyter nbconvert --to html``, nbviewer and GitHub's preview.  Everything inside
    is escaped; the image cannot run script.  ``tag`` marks the picture
    (``data-viz-static``) so that a widget displayed after it can hide it where the
    widget runs (see :func:`display_with_widget`).

    Examples
    --------
    >>> page = static_html('<svg xmlns="http://www.w3.org/2000/svg"/>', hint="a < b")
    >>> page.startswith('<div class="viz-static">') and "data:image/svg+xml;base64," in page
    True
    >>> "a &lt; b" in page
    True
    """
    data = base64.b64encode(strip_xml_prolog(svg).encode("utf-8")).decode("ascii")
    width = _display_width(svg)
    size = f' style="max-width:100%;width:{width:g}px;height:auto"' if width else ' style="max-width:100%"'
    img = f'<img src="data:image/svg+xml;base64,{data}" alt="{html.escape(alt)}"{size}>'
    note = f'<div class="viz-hint" style="font:12px sans-serif;color:#555">{html.escape(hint)}</div>' if hint else ""
    mark = f' data-viz-static="{html.escape(tag)}"' if tag else ""
    return f'<div class="viz-static"{mark}>{img}{note}</div>'


def static_bundle(svg: str, plain: str, hint: str | None = None, alt: str = "computation graph",
                  tag: str | None = None) -> dict[str, str]:
    """The MIME bundle of a static picture: ``text/html`` (:func:`static_html`), ``image/svg+xml``
    and ``text/plain`` -- each front end shows the best one it trusts."""
    return {"text/html": static_html(svg, hint, alt, tag), "image/svg+xml": strip_xml_prolog(svg),
            "text/plain": plain if hint is None else f"{plain}\n{hint}"}


def display_with_widget(static: Any, make_widget: Any) -> None:
    """Display a static picture, then the widget (``_ipython_display_`` of a widget-backed object).

    Two outputs, because ``jupyter nbconvert --to html`` shows a widget's output and nothing
    else of it (blank without saved widget state), and an untrusted notebook or GitHub shows
    no widget: the first output is ``static(tag)`` -- a :func:`static_bundle` marked with
    ``tag`` -- which the widget's JavaScript hides where it runs (the widget's
    ``static_id`` trait is set to ``tag``).  Without the widget libraries, only the picture
    is shown; without the widget front end, the picture and its hint line.
    """
    from IPython.display import display

    tag = uuid.uuid4().hex
    try:
        widget = make_widget()
    except ImportError:
        widget = None
    if widget is not None and widget.has_trait("static_id"):
        widget.static_id = tag
    display(static(tag), raw=True)
    if widget is not None:
        view = widget._repr_mimebundle_()
        view = view[0] if isinstance(view, tuple) else view
        display({**view, "text/plain": ""}, raw=True)  # no "StepperWidget(...)" where no front end runs


def check_file_prefix(prefix: str) -> str:
    """Refuse a file-name prefix that could leave its folder or is not a plain name.

    Examples
    --------
    >>> check_file_prefix("frame_")
    'frame_'
    >>> check_file_prefix("../x")
    Traceback (most recent call last):
    ...
    ValueError: prefix must be a plain file-name start without path separators, got '../x'
    """
    text = str(prefix)
    bad = ("/" in text or "\\" in text or ".." in text or (os.sep in text) or (os.altsep or "/") in text
           or any(ord(c) < 32 for c in text) or text != safe_text(text))
    if bad:
        raise ValueError(f"prefix must be a plain file-name start without path separators, got {prefix!r}")
    return text


def with_widget(static: dict[str, str], make_widget: Any) -> dict[str, Any]:
    """``static`` plus the widget's view, for ``_repr_mimebundle_`` of a widget-backed object.

    A front end with the widget renderer shows the widget; one without it (no anywidget
    front end, an untrusted notebook, nbviewer, GitHub) falls back to the static picture.
    ``make_widget`` is called lazily; if the widget libraries are missing, only the
    static picture is returned.
    """
    try:
        widget = make_widget()
        view = widget._repr_mimebundle_()
    except ImportError:
        return dict(static)
    if isinstance(view, tuple):  # (data, metadata)
        view = view[0]
    return {**static, **{k: v for k, v in (view or {}).items() if k != "text/plain"}}


def _display_width(svg: str) -> float:
    """The picture's width in CSS pixels (Graphviz writes points: 1 pt = 4/3 px), 0 if unknown."""
    match = re.search(r'<svg[^>]*\swidth="([\d.]+)(pt|px)?"', svg)
    if not match:
        return 0.0
    value = float(match.group(1))
    return round(value * 4 / 3 if match.group(2) in (None, "pt") else value, 1)


class SideBySide:
    """Diagrams next to each other, each under its (escaped) title.

    Made by :func:`side_by_side`.  In Jupyter it shows as inline SVG (ids and classes
    reach the page); ``save()`` writes one ``.html`` page or one ``.svg`` picture.

    Parameters
    ----------
    diagrams : sequence
        Objects with an ``svg()`` method (:class:`viz.Diagram`).
    titles : sequence of str, optional
        One title per diagram.
    """

    def __init__(self, diagrams: Sequence[Any], titles: Sequence[str] | None = None) -> None:
        if not diagrams:
            raise ValueError("side_by_side needs at least one diagram")
        if titles is not None and len(titles) != len(diagrams):
            raise ValueError(f"got {len(titles)} titles for {len(diagrams)} diagrams")
        self.diagrams: list[Any] = list(diagrams)
        self.titles: list[str] = [safe_text(t, 300) for t in titles] if titles is not None else [""] * len(diagrams)

    def _repr_html_(self) -> str:
        cells = []
        for title, diagram in zip(self.titles, self.diagrams):
            caption = f"<figcaption>{html.escape(title)}</figcaption>" if title else ""
            cells.append(f"<figure>{caption}{strip_xml_prolog(diagram.svg())}</figure>")
        return f'<div class="viz-side-by-side"><style>{_STYLE}</style>{"".join(cells)}</div>'

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        # One picture, as an <img> (see static_html): it shows in untrusted notebooks too.
        return static_bundle(self.svg(), repr(self), alt=", ".join(t for t in self.titles if t) or "diagrams")

    def __repr__(self) -> str:
        return f"<viz.SideBySide: {len(self.diagrams)} diagrams>"

    def html(self, title: str = "diagrams") -> str:
        """A standalone HTML page with the diagrams side by side (no network needed)."""
        return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                f"<title>{html.escape(title)}</title></head>\n<body>\n{self._repr_html_()}\n"
                "</body></html>\n")

    def svg(self) -> str:
        """One SVG document: the diagrams in a row, each under its title.

        Each diagram is a nested ``<svg>`` (its node ids ``n0, n1, …`` repeat from one
        diagram to the next; inside each, they match its snapshot).
        """
        q = f"{{{SVG_NS}}}"
        outer = ET.Element(f"{q}svg")
        x, height = 0.0, 0.0
        top = TITLE_PT if any(self.titles) else 0.0
        for i, (title, diagram) in enumerate(zip(self.titles, self.diagrams)):
            inner = ET.fromstring(strip_xml_prolog(diagram.svg()))
            width, tall = _size_pt(inner)
            if title:
                text = ET.SubElement(outer, f"{q}text", {
                    "x": f"{x + 4:g}", "y": f"{TITLE_PT - 7:g}", "font-family": "Helvetica,Arial,sans-serif",
                    "font-size": "14", "font-weight": "bold", "class": "viz-title"})
                text.text = title  # ElementTree escapes it
            inner.attrib.update({"x": f"{x:g}", "y": f"{top:g}", "width": f"{width:g}",
                                 "height": f"{tall:g}", "class": f"viz-diagram viz-diagram-{i}"})
            outer.append(inner)
            x += width + GAP_PT
            height = max(height, top + tall)
        width = x - GAP_PT
        outer.attrib.update({"width": f"{width:g}pt", "height": f"{height:g}pt",
                             "viewBox": f"0 0 {width:g} {height:g}"})
        return '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + ET.tostring(
            outer, encoding="unicode")

    def save(self, path: str | Path) -> Path:
        """Write ``.html`` (a page) or ``.svg`` (one picture); returns the path."""
        path = Path(path)
        suffix = path.suffix.lower()
        if suffix in (".html", ".htm"):
            path.write_text(self.html(title=path.stem), encoding="utf-8")
        elif suffix == ".svg":
            path.write_text(self.svg(), encoding="utf-8")
        else:
            raise ValueError(f"cannot tell the format of {path.name!r}; use .html or .svg")
        return path


def _size_pt(svg: ET.Element) -> tuple[float, float]:
    """Width and height of a Graphviz SVG in points (from ``viewBox``, else the attributes)."""
    box = svg.get("viewBox")
    if box:
        _, _, width, height = (float(v) for v in box.replace(",", " ").split())
        return width, height
    return _points(svg.get("width", "")), _points(svg.get("height", ""))


def _points(value: str) -> float:
    """``"62pt"`` -> 62.0 (0 when there is no number)."""
    match = re.match(r"[\d.]+", value)
    return float(match.group()) if match else 0.0


def side_by_side(*diagrams: Any, titles: Sequence[str] | None = None) -> SideBySide:
    """Show diagrams next to each other (e.g. the graphs of one function for two inputs).

    Parameters
    ----------
    *diagrams : Diagram
        From :func:`viz.draw` (anything with an ``svg()`` method).
    titles : sequence of str, optional
        One title per diagram (escaped: any text is safe).

    Returns
    -------
    SideBySide
        Displays inline in Jupyter; ``.save("graphs.html" | "graphs.svg")``.

    Examples
    --------
    >>> class Box:  # anything with svg()
    ...     def svg(self): return '<svg viewBox="0 0 40 20"><g id="n0"/></svg>'
    >>> pair = side_by_side(Box(), Box(), titles=["a < b", "b"])
    >>> "a &lt; b" in pair._repr_html_()
    True
    >>> pair.svg().count("<svg")
    3
    """
    return SideBySide(diagrams, titles)
