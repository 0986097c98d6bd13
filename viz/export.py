"""Several diagrams in one picture: :func:`side_by_side`, shown inline in Jupyter or saved as HTML / SVG."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .render import strip_xml_prolog

__all__ = ["SideBySide", "side_by_side"]

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
        self.titles: list[str] = [str(t) for t in titles] if titles is not None else [""] * len(diagrams)

    def _repr_html_(self) -> str:
        cells = []
        for title, diagram in zip(self.titles, self.diagrams):
            caption = f"<figcaption>{html.escape(title)}</figcaption>" if title else ""
            cells.append(f"<figure>{caption}{strip_xml_prolog(diagram.svg())}</figure>")
        return f'<div class="viz-side-by-side"><style>{_STYLE}</style>{"".join(cells)}</div>'

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        return {"text/html": self._repr_html_(), "text/plain": repr(self)}

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
