"""The static picture: :func:`draw` captures a graph and returns a :class:`Diagram` (SVG, PNG, PDF, DOT)."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from .capture import ModuleTrace, capture_graph, resolve_names
from .export import static_bundle
from .model import GraphSnapshot
from .render import LayoutError, check_budget, prepare, render_dot, strip_xml_prolog, to_digraph, to_dot, to_svg
from .style import Theme

__all__ = ["Diagram", "draw", "SAVE_FORMATS"]

#: File suffix -> output format for :meth:`Diagram.save`.
SAVE_FORMATS = {".svg": "svg", ".png": "png", ".pdf": "pdf", ".dot": "dot", ".gv": "dot"}


class Diagram:
    """A drawn graph: inline SVG in notebooks, and ``svg()``, ``dot()``, ``save()``.

    Parameters
    ----------
    snapshot : GraphSnapshot
    theme : str or Theme
    depth : int, optional
        Collapse modules nested deeper than this.
    fold : bool, optional
        ``True``: fold repeated modules and loop bodies; ``False``: every node;
        ``None``: fold loops when the graph is big (see :func:`viz.render.prepare`).
    legend : bool
        Show the legend of node kinds and states.
    title : str, optional
        Caption under the graph.
    backend : {"native", "wasm", "auto"}, optional
        Graphviz layout backend (default: ``VIZ_GRAPHVIZ_BACKEND`` or auto).
    max_nodes : int, optional
        Node budget of the layout (default ``viz.render.MAX_LAYOUT_NODES``).
    timeout : float, optional
        Seconds the layout may take (default ``viz.render.LAYOUT_TIMEOUT``).
    """

    max_nodes: int | None
    timeout: float | None

    def __init__(self, snapshot: GraphSnapshot, theme: str | Theme = "default",
                 depth: int | None = None, fold: bool | None = None, legend: bool = True,
                 title: str | None = None, backend: str | None = None,
                 max_nodes: int | None = None, timeout: float | None = None) -> None:
        self.snapshot = snapshot
        self.options: dict[str, Any] = {"theme": theme, "depth": depth, "fold": fold,
                                        "legend": legend, "title": title}
        self.backend = backend
        self.max_nodes, self.timeout = max_nodes, timeout
        self._svg: str | None = None

    @property
    def drawn(self) -> GraphSnapshot:
        """The snapshot as drawn: after folding and collapsing (``notes`` says what was done)."""
        return prepare(self.snapshot, self.options["depth"], self.options["fold"])

    def digraph(self) -> Any:
        """The ``graphviz.Digraph`` (to tweak attributes before rendering)."""
        return to_digraph(self.snapshot, **self.options)

    def dot(self) -> str:
        """The DOT source (deterministic)."""
        return to_dot(self.snapshot, **self.options)

    def svg(self) -> str:
        """The laid-out SVG (computed once).

        Raises
        ------
        viz.render.LayoutError
            Too many nodes for the budget, or Graphviz too slow: the message says what to do.
        """
        if self._svg is None:
            self._svg = to_svg(self.snapshot, backend=self.backend, max_nodes=self.max_nodes,
                               timeout=self.timeout, **self.options)
        return self._svg

    def save(self, path: str | Path, format: str | None = None) -> Path:
        """Write the picture; the format follows the suffix (.svg, .png, .pdf, .dot).

        PNG and PDF need native Graphviz; SVG and DOT always work.

        Returns
        -------
        Path
            The written path.
        """
        path = Path(path)
        fmt = format or SAVE_FORMATS.get(path.suffix.lower())
        if fmt is None:
            raise ValueError(f"cannot tell the format of {path.name!r}; use one of "
                             f"{sorted(SAVE_FORMATS)} or pass format=")
        if fmt == "svg":
            path.write_text(self.svg(), encoding="utf-8")
        elif fmt == "dot":
            path.write_text(self.dot(), encoding="utf-8")
        else:
            check_budget(self.drawn, self.max_nodes)
            path.write_bytes(render_dot(self.dot(), fmt, self.backend, self.timeout))
        return path

    def _repr_html_(self) -> str:
        """Inline SVG (ids and classes reach the page), for pages that trust it."""
        return f'<div class="viz-diagram">{strip_xml_prolog(self.svg())}</div>'

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        # An <img> with an SVG data URI, plus image/svg+xml: the picture shows in untrusted
        # notebooks, nbconvert HTML, nbviewer and GitHub too (inline SVG would be stripped
        # from untrusted HTML, leaving loose text).  A graph too big to lay out says why.
        try:
            svg = self.svg()
        except LayoutError as exc:
            message = f"{self!r}\nnot drawn: {exc}"
            return {"text/html": f'<pre class="viz-not-drawn">{html.escape(message)}</pre>',
                    "text/plain": message}
        return static_bundle(svg, repr(self), alt=self._alt())

    def _alt(self) -> str:
        """Alternative text of the picture: what kind of graph, how big, its roots."""
        roots = ", ".join(self.snapshot.node(r).name for r in self.snapshot.roots[:3] if r in
                          {n.id for n in self.snapshot.nodes})
        return f"{self.snapshot.view} graph of {roots or 'the roots'}: {len(self.snapshot.nodes)} nodes"

    def __repr__(self) -> str:
        return (f"<viz.Diagram {self.snapshot.view}: {len(self.snapshot.nodes)} nodes, "
                f"{len(self.snapshot.edges)} edges>")


def draw(*roots: Any, params: Any = None, view: str = "autograd", show_saved: bool = False,
         theme: str | Theme = "default", depth: int | None = None, fold: bool | None = None,
         legend: bool = True, title: str | None = None, module_trace: ModuleTrace | None = None,
         backend: str | None = None, names: Any = None, show_constants: bool = True,
         max_nodes: int | None = None, timeout: float | None = None) -> Diagram:
    """Draw the autograd graph behind ``roots``.

    Parameters
    ----------
    *roots : Tensor or Node
        Output tensors (or ``grad_fn`` nodes); several roots share one picture.
    params : Module, mapping or pairs, optional
        Names for tensors: a module (its parameters, with module clusters), a
        ``{name: tensor or module}`` mapping, or ``(name, tensor)`` pairs.  Any
        tensor may be named -- roots, leaves and intermediates (``h`` shows as
        ``h.grad_fn`` on the node that made it).
    view : {"autograd", "dataflow"}
        The backward graph as PyTorch defines it, or tensors and operations in
        forward direction.
    show_saved : bool
        Show the tensors and values saved for backward.
    theme : {"default", "projector", "compact"} or Theme
    depth : int, optional
        Collapse modules nested deeper than ``depth`` into one box.
    fold : bool, optional
        ``True``: fold repeated identical sibling modules into one box and draw each
        loop body once ("×300", see :mod:`viz.fold`); ``False``: draw every node;
        ``None`` (default): fold loops once the graph has more than
        ``viz.render.AUTO_FOLD_NODES`` nodes (the caption says so).
    legend : bool
        Show a legend of the node kinds and states present.
    title : str, optional
        Caption under the graph.
    module_trace : ModuleTrace, optional
        From :func:`trace_modules`, to put op nodes into module clusters too.
    backend : {"native", "wasm", "auto"}, optional
        Graphviz backend for layout.
    names : optional
        An alias of ``params`` (give one of them).
    show_constants : bool
        Draw inputs that get no gradient (constants, detached tensors, tensors that do
        not require grad) as small grey boxes.
    max_nodes : int, optional
        Node budget of the layout: a bigger graph (after folding) is not laid out, and
        the notebook shows why and what to do (default ``viz.render.MAX_LAYOUT_NODES``).
    timeout : float, optional
        Seconds the layout may take before Graphviz is stopped (default 30).

    Returns
    -------
    Diagram

    Examples
    --------
    >>> import minigrad as torch
    >>> w = torch.tensor([1., 2.], requires_grad=True)
    >>> loss = (w * w).sum()
    >>> d = draw(loss, names={"loss": loss, "w": w})
    >>> [node.name for node in d.snapshot.nodes]
    ['loss', 'SumBackward0', 'MulBackward0', 'AccumulateGrad']
    """
    snapshot = capture_graph(*roots, params=resolve_names(params, names), view=view,
                             show_saved=show_saved, module_trace=module_trace,
                             show_constants=show_constants)
    return Diagram(snapshot, theme=theme, depth=depth, fold=fold, legend=legend, title=title,
                   backend=backend, max_nodes=max_nodes, timeout=timeout)
