"""Step through a recorded backward pass: the Stepper object, its JSON state, text table and exports."""

from __future__ import annotations

import html
import itertools
import json
import math
import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from .capture import BackwardPass, describe_object, fold_pass, format_values, record_backward, resolve_names
from .export import STEPPER_HINT, check_file_prefix, display_with_widget, static_bundle, with_widget
from .formulas import formulas_payload
from .model import GraphSnapshot, Step
from .render import strip_xml_prolog, to_svg

__all__ = ["Stepper", "step_backward", "stepper_state", "frame", "restyle_svg", "html_document"]

STATIC = Path(__file__).with_name("static")
MODES = ("normal", "presentation", "compact")
#: The drawing theme (viz.style) used for each stepper mode.
THEME_FOR_MODE = {"normal": "default", "presentation": "projector", "compact": "compact"}

SVG_NS = "http://www.w3.org/2000/svg"
ET.register_namespace("", SVG_NS)
ET.register_namespace("xlink", "http://www.w3.org/1999/xlink")


# --------------------------------------------------------------------------
# numbers -> JSON
# --------------------------------------------------------------------------


def _short(array: np.ndarray) -> str:
    """A few characters for an edge label: the value of a scalar, else values or a norm."""
    if array.size == 1:
        return f"{float(array.reshape(-1)[0].real):.4g}"
    if array.size <= 2:
        return "[" + ", ".join(f"{float(v.real):.3g}" for v in array.reshape(-1)) + "]"
    return f"‖{float(np.linalg.norm(array.astype(np.float64).ravel())):.3g}‖ {tuple(array.shape)}"


def tensor_json(array: Any) -> dict[str, Any] | None:
    """A gradient as the stepper shows it: text, short label, shape, dtype and norm.

    Parameters
    ----------
    array : ndarray or None

    Returns
    -------
    dict or None

    Examples
    --------
    >>> tensor_json(np.array([3.0, 4.0]))["norm"]
    5.0
    >>> tensor_json(None) is None
    True
    """
    if array is None:
        return None
    array = np.asarray(array)
    norm = float(np.linalg.norm(array.astype(np.float64).ravel())) if array.size else 0.0
    return {"text": format_values(array), "short": _short(array), "shape": list(array.shape),
            "dtype": str(array.dtype), "norm": norm if math.isfinite(norm) else 0.0}


def _grads_json(grads: Any) -> list[dict[str, Any] | None]:
    return [tensor_json(g) for g in (grads or ())]


# --------------------------------------------------------------------------
# errors: a hint and the node to highlight
# --------------------------------------------------------------------------

_INPLACE = re.compile(r"output (\d+) of (\w+), is at version (\d+); expected version (\d+)")


def _error_info(error: BaseException | None, snapshot: GraphSnapshot,
                released: tuple[str, ...]) -> tuple[str, str, list[str]]:
    """(text, hint, node ids to highlight) for an error raised by backward."""
    if error is None:
        return "", "", []
    text = f"{type(error).__name__}: {error}"
    message = str(error)
    match = _INPLACE.search(message)
    if match:
        nr, name, version, expected = match.groups()
        nodes = [n.id for n in snapshot.nodes
                 if n.name == name or re.fullmatch(f"{name}Backward\\d*", n.name)]
        hint = (f"In-place violation: output {nr} of {name} was saved for backward at version {expected}, "
                f"then modified in place (now version {version}).")
        return text, hint, nodes
    if "backward through the graph a second time" in message:
        hint = "The first backward() freed the saved tensors; pass retain_graph=True to it."
        return text, hint, list(released)
    if "does not require grad" in message:
        return text, "The root is not part of a graph: nothing requires grad.", []
    if "grad can be implicitly created only for scalar" in message:
        return text, "A non-scalar root needs gradient= (a tensor of its shape).", []
    return text, "", []


# --------------------------------------------------------------------------
# the JSON state shared by the widget and the offline HTML
# --------------------------------------------------------------------------


def _next_edges(snapshot: GraphSnapshot) -> dict[str, list[tuple[str | None, str | None]]]:
    """node id -> [(input node id, edge id)] per ``next_functions`` slot."""
    table: dict[str, list[tuple[str | None, str | None]]] = {}
    for edge in snapshot.edges:
        if edge.kind != "next" or edge.slot is None:
            continue
        slots = table.setdefault(edge.target, [])
        while len(slots) <= edge.slot:
            slots.append((None, None))
        slots[edge.slot] = (edge.source, edge.id)
    return table


def _event_text(event: Any, labels: dict[str, str]) -> str:
    where = labels.get(event.node_id or "", event.name)
    words = {"tensor_hook": "tensor hook", "retain_grad": "retain_grad() stores .grad of",
             "pre_hook": "node pre-hook", "post_accumulate_hook": "post-accumulate-grad hook",
             "node_hook": "node hook"}.get(event.kind, event.kind)
    detail = f" {event.detail}" if event.detail and event.kind != "retain_grad" else ""
    text = f"{words}{detail} at {where}"
    if event.kind == "retain_grad" and event.detail:
        text = f"{words} {where} ({event.detail})"
    if event.grads:
        shown = ", ".join("None" if g is None else _short(np.asarray(g)) for g in event.grads)
        text += f" → {shown}"
    return text


def _step_json(step: Step, pass_index: int, slots: dict[str, list[tuple[str | None, str | None]]],
               labels: dict[str, str]) -> dict[str, Any]:
    edges = slots.get(step.node_id or "", [])
    n = len(step.grad_inputs or ())
    targets = [edges[i][0] if i < len(edges) else None for i in range(n)]
    edge_ids = [edges[i][1] if i < len(edges) else None for i in range(n)]
    is_acc = step.name == "AccumulateGrad"
    return {
        "index": step.index, "node_id": step.node_id, "name": step.name, "pass": pass_index,
        "grad_outputs": _grads_json(step.grad_outputs), "grad_inputs": _grads_json(step.grad_inputs),
        "targets": targets, "edges": edge_ids, "is_accumulate": is_acc,
        "grad_before": tensor_json(step.grad_before) if is_acc else None,
        "grad_after": tensor_json(step.grad_after) if is_acc else None,
        "events": [{"kind": ev.kind, "name": ev.name, "detail": ev.detail, "node_id": ev.node_id,
                    "text": _event_text(ev, labels)}
                   for ev in step.events if ev.kind != "release"],
    }


def _label(node: Any) -> str:
    name = node.tensor.name if node.tensor is not None else None
    if node.kind == "acc":
        return f"AccumulateGrad ({name})" if name else "AccumulateGrad"
    if node.kind == "tensor":
        return f"{name or 'tensor'} {node.tensor.shape_text}" if node.tensor is not None else node.name
    if node.kind == "fn" and name:  # a named intermediate: h = x * w shows as h.grad_fn
        return f"{node.name} ({name}.grad_fn)"
    return node.name


def _flow_range(steps: list[Step]) -> list[float] | None:
    norms = [float(np.linalg.norm(np.asarray(g, dtype=np.float64).ravel()))
             for s in steps for g in (s.grad_inputs or ()) if g is not None]
    logs = [math.log10(v) for v in norms if v > 0 and math.isfinite(v)]
    return [min(logs), max(logs)] if logs else None


def stepper_state(snapshot: GraphSnapshot, passes: list[BackwardPass], svg: str,
                  details: dict[str, list[tuple[str, str]]] | None = None) -> dict[str, Any]:
    """The ``svg``, ``steps`` and ``graph`` values of the stepper (JSON-able).

    Parameters
    ----------
    snapshot : GraphSnapshot
        The laid-out graph (node ids match ``svg``).
    passes : list of BackwardPass
        The recorded backward calls; their steps are concatenated.
    svg : str
        ``render.to_svg(snapshot)``.
    details : dict, optional
        Node id -> rows for the inspect panel (embedded for the offline HTML).

    Returns
    -------
    dict
        ``{"svg": ..., "steps": [...], "graph": {...}}``
    """
    labels = {node.id: _label(node) for node in snapshot.nodes}
    slots = _next_edges(snapshot)
    steps_json: list[dict[str, Any]] = []
    pass_json: list[dict[str, Any]] = []
    all_steps: list[Step] = []
    for p, record in enumerate(passes):
        start = len(steps_json)
        for step in record.steps:
            steps_json.append(_step_json(replace(step, index=len(steps_json)), p, slots, labels))
        all_steps += record.steps
        freed_before = tuple(node for earlier in passes[:p] for node in earlier.released)
        text, hint, error_nodes = _error_info(record.error, snapshot, record.released or freed_before)
        final: dict[str, Any] = {}
        for step in record.steps:
            if step.name == "AccumulateGrad" and step.node_id:
                final[step.node_id] = tensor_json(step.grad_after)
        pass_json.append({
            "start": start, "stop": len(steps_json), "released": list(record.released),
            "error": text, "error_hint": hint, "error_nodes": error_nodes,
            "seed": [tensor_json(s) for s in record.seeds],
            "final": [{"node_id": k, "grad": v} for k, v in final.items()],
        })
    graph = {
        "nodes": {node.id: {"name": node.name, "label": labels[node.id], "kind": node.kind,
                            "details": {"rows": [list(r) for r in details[node.id]]}
                            if details and node.id in details else None}
                  for node in snapshot.nodes},
        "roots": list(snapshot.roots),
        "passes": pass_json,
        "formulas": formulas_payload(s.name for s in all_steps),
        "flow_range": _flow_range(all_steps),
        "born": {k: v for record in passes[:1] for k, v in record.born.items()},
    }
    return {"svg": strip_xml_prolog(svg), "steps": steps_json, "graph": graph}


# --------------------------------------------------------------------------
# one frame, computed in Python (for SVG files); mirrors apply() in stepper.js
# --------------------------------------------------------------------------


def frame(state: dict[str, Any], k: int) -> dict[str, Any]:
    """The look of the stepper after ``k`` steps: node classes, edge classes and labels.

    Mirrors ``nodeLook()`` / ``edgeLook()`` in ``static/stepper.js`` (see NOTE
    [incremental frames] there), so that ``save_svgs`` draws what the widget shows;
    a browser test checks that both agree frame by frame.

    Returns
    -------
    dict
        ``{"nodes": {id: "mg-..."}, "edges": {edge id: ("mg-flow", norm)}, "labels": [(edge id, text)],
        "grads": {leaf node id: "grad: …"}}``
    """
    steps, graph = state["steps"], state["graph"]
    k = max(0, min(len(steps), int(k)))
    passes = graph.get("passes") or [{"start": 0, "stop": len(steps), "released": []}]
    p = steps[k - 1]["pass"] if k > 0 else 0
    current_pass = passes[p]
    nodes: dict[str, str] = {}
    edges: dict[str, tuple[str, float]] = {}
    for i in range(max(k, current_pass["start"]), current_pass["stop"]):
        nodes[steps[i]["node_id"]] = "mg-pending"
    if k == current_pass["start"]:
        for root in graph.get("roots", []):
            nodes[root] = "mg-waiting"
    for i in range(current_pass["start"], k):
        step, is_current = steps[i], i == k - 1
        nodes[step["node_id"]] = "mg-current" if is_current else "mg-done"
        for slot, target in enumerate(step["targets"]):
            if target is None:
                continue
            if nodes.get(target) not in ("mg-done", "mg-current"):
                nodes[target] = "mg-waiting"
            edge = step["edges"][slot]
            grad = step["grad_inputs"][slot]
            if edge:
                edges[edge] = ("mg-flow" if is_current else "mg-flowed", grad["norm"] if grad else 0.0)
    for q in passes:
        if k >= q["stop"] and (q["stop"] > q["start"] or k == q["stop"]):
            for node_id in q["released"]:
                nodes[node_id] = (nodes.get(node_id, "") + " mg-freed").strip()
        if k == q["stop"]:
            for node_id in q.get("error_nodes", []):
                nodes[node_id] = (nodes.get(node_id, "") + " mg-error-node").strip()
    for node_id, index in (graph.get("born") or {}).items():
        if index > k - 1:
            nodes[node_id] = (nodes.get(node_id, "") + " mg-unborn").strip()
    grads: dict[str, str] = {}
    for step in steps[:k]:
        if step["is_accumulate"]:
            after = step["grad_after"]
            grads[step["node_id"]] = f"grad: {after['short'] if after else 'None'}"
    labels = []
    if k > 0:
        step = steps[k - 1]
        labels = [(edge, grad["short"]) for edge, grad in zip(step["edges"], step["grad_inputs"])
                  if edge and grad]
    return {"nodes": nodes, "edges": edges, "labels": labels, "grads": grads}


def _svg_css() -> str:
    css = (STATIC / "stepper.css").read_text(encoding="utf-8")
    match = re.search(r"/\* svg-states:begin.*?\*/(.*?)/\* svg-states:end \*/", css, flags=re.DOTALL)
    return match.group(1).strip() if match else ""


#: Where a gradient label sits along its edge (0: the input's end); as LABEL_AT in stepper.js.
LABEL_AT = 0.35


def _path_point(d: str, fraction: float = LABEL_AT) -> tuple[float, float] | None:
    """The point at ``fraction`` of the length of a Graphviz edge path (``M x,y C x,y x,y x,y ...``)."""
    numbers = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?(?:e-?\d+)?", d)]
    points = list(zip(numbers[0::2], numbers[1::2]))
    if len(points) < 4:
        return points[0] if points else None
    samples = [points[0]]
    for c in range((len(points) - 1) // 3):           # sample each cubic Bezier segment
        p0, p1, p2, p3 = points[3 * c: 3 * c + 4]
        for i in range(1, 9):
            t = i / 8
            w = ((1 - t) ** 3, 3 * t * (1 - t) ** 2, 3 * t * t * (1 - t), t ** 3)
            samples.append((sum(wi * p[0] for wi, p in zip(w, (p0, p1, p2, p3))),
                            sum(wi * p[1] for wi, p in zip(w, (p0, p1, p2, p3)))))
    lengths = [math.dist(a, b) for a, b in itertools.pairwise(samples)]
    goal = fraction * sum(lengths)
    for (a, b), length in zip(itertools.pairwise(samples), lengths):
        if goal <= length and length > 0:
            t = goal / length
            return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
        goal -= length
    return samples[-1]


def _flow_colour(t: float) -> str:
    a, b = (165, 216, 255), (201, 42, 42)
    r, g, bl = (round(x + (y - x) * t) for x, y in zip(a, b))
    return f"rgb({r},{g},{bl})"


def restyle_svg(svg: str, state: dict[str, Any], k: int, grad_flow: bool = False) -> str:
    """The SVG of frame ``k``: the stepper's classes, styles and gradient labels baked in.

    Parameters
    ----------
    svg : str
        The laid-out SVG (``state["svg"]``).
    state : dict
        From :func:`stepper_state`.
    k : int
        Number of steps applied.
    grad_flow : bool
        Colour and thicken edges by gradient magnitude.

    Returns
    -------
    str
        A standalone SVG document.
    """
    look = frame(state, k)
    root = ET.fromstring(strip_xml_prolog(svg))
    q = f"{{{SVG_NS}}}"
    style = ET.Element(f"{q}style")
    style.text = _svg_css()
    root.insert(0, style)
    root.set("class", (root.get("class", "") + " mg-svg").strip())
    flow_range = state["graph"].get("flow_range")
    anchors: dict[str, tuple[float, float]] = {}
    for g in root.iter(f"{q}g"):
        element_id, classes = g.get("id", ""), g.get("class", "").split()
        if "node" in classes and look["nodes"].get(element_id):
            g.set("class", " ".join([*classes, *look["nodes"][element_id].split()]))
        if "node" in classes and element_id in look["grads"]:
            for text in g.iter(f"{q}text"):
                if (text.text or "").startswith("grad:"):
                    text.text = look["grads"][element_id]
                    break
        if "edge" in classes:
            path = g.find(f"{q}path")
            if path is not None:
                point = _path_point(path.get("d", ""))
                if point:
                    anchors[element_id] = point
            title = g.findtext(f"{q}title") or ""
            ends = [end.split(":")[0].strip() for end in title.split("->")]
            if any("mg-unborn" in look["nodes"].get(end, "") for end in ends):
                g.set("class", " ".join([*g.get("class", "").split(), "mg-unborn"]))
            if element_id in look["edges"]:
                cls, norm = look["edges"][element_id]
                g.set("class", " ".join([*classes, cls]))
                if grad_flow:
                    _style_flow(g, norm, flow_range)
    graph_g = root.find(f"{q}g")
    layer = ET.SubElement(root if graph_g is None else graph_g, f"{q}g", {"class": "mg-grad-labels"})
    big = state.get("mode") == "presentation"
    right = 0.0
    for edge_id, text, (x, y, w, h) in _label_boxes(look["labels"], anchors, big):
        group = ET.SubElement(layer, f"{q}g", {"class": "mg-grad-label"})
        ET.SubElement(group, f"{q}rect", {"x": f"{x:.1f}", "y": f"{y:.1f}", "width": f"{w:.1f}",
                                          "height": f"{h:.1f}", "rx": "3", "data-edge": edge_id})
        label = ET.SubElement(group, f"{q}text", {"x": f"{x + 4:.1f}", "y": f"{y + h * 0.78:.1f}"})
        label.text = text
        right = max(right, x + w)
    _widen(root, graph_g, right)
    return ET.tostring(root, encoding="unicode")


def _widen(root: ET.Element, graph_g: ET.Element | None, right: float) -> None:
    """Make the picture wide enough for gradient labels that stick out on the right.

    ``right`` is in the coordinates of Graphviz's top ``<g>``, which is translated (and
    scaled by 1: viz never sets a Graphviz ``size``).
    """
    box = [float(v) for v in (root.get("viewBox") or "").split()]
    shift = re.search(r"translate\(([-\d.]+)", graph_g.get("transform", "") if graph_g is not None else "")
    if len(box) != 4 or shift is None:
        return
    needed = right + float(shift.group(1)) + 4 - box[0]
    if needed > box[2]:
        box[2] = needed
        root.set("viewBox", " ".join(f"{v:.2f}" for v in box))
        root.set("width", f"{needed:.0f}pt")


def _label_boxes(labels: list[tuple[str, str]], anchors: dict[str, tuple[float, float]],
                 big: bool) -> list[tuple[str, str, tuple[float, float, float, float]]]:
    """Place gradient labels as drawLabels() in stepper.js does: a box per label, moved right
    past the labels already placed that it would cover."""
    char_width, height = (10.5, 21.0) if big else (7.2, 15.0)
    placed: list[tuple[float, float, float, float]] = []
    out = []
    for edge_id, text in labels:
        if edge_id not in anchors:
            continue
        ax, ay = anchors[edge_id]
        x, y, w = ax + 3, ay + 4 - height * 0.8, char_width * len(text) + 8
        moved = True
        while moved:
            moved = False
            for ox, oy, ow, oh in placed:
                if x < ox + ow and ox < x + w and y < oy + oh and oy < y + height:
                    x, moved = ox + ow + 3, True
        placed.append((x, y, w, height))
        out.append((edge_id, text, (x, y, w, height)))
    return out


def _style_flow(g: ET.Element, norm: float, flow_range: list[float] | None) -> None:
    q = f"{{{SVG_NS}}}"
    t = 0.0
    if norm > 0 and flow_range:
        lo, hi = flow_range
        t = 1.0 if hi <= lo else min(1.0, max(0.0, (math.log10(norm) - lo) / (hi - lo)))
    colour = _flow_colour(t) if norm > 0 else "#adb5bd"
    for child in g:
        if child.tag == f"{q}path":
            child.set("style", f"stroke: {colour}; stroke-width: {1 + 6 * t:.2f}px")
        elif child.tag == f"{q}polygon":
            child.set("style", f"stroke: {colour}; fill: {colour}")


# --------------------------------------------------------------------------
# the offline HTML
# --------------------------------------------------------------------------


def _script_json(data: Any) -> str:
    """JSON safe inside ``<script type="application/json">``: no ``<`` can close the element."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


def html_document(state: dict[str, Any], title: str = "backward stepper") -> str:
    """One self-contained HTML page that steps exactly like the widget (no network, no kernel).

    Parameters
    ----------
    state : dict
        The widget's state (``Stepper.state()``).
    title : str
        The page title (escaped).

    Returns
    -------
    str
    """
    js = (STATIC / "stepper.js").read_text(encoding="utf-8")
    css = (STATIC / "stepper.css").read_text(encoding="utf-8")
    if "</script" in js.lower() or "</style" in css.lower():
        raise ValueError("stepper.js / stepper.css must not contain a closing tag")
    boot = ('\nconst mgState = JSON.parse(document.getElementById("mg-state").textContent);\n'
            'window.mgStepper = mountStandalone(document.getElementById("mg-app"), mgState);\n')
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        f"<title>{html.escape(title)}</title>\n"
        f"<style>\nbody {{ margin: 12px; background: #fff; }}\n{css}\n</style>\n"
        "</head>\n<body>\n<main id=\"mg-app\"></main>\n"
        f"<script type=\"application/json\" id=\"mg-state\">{_script_json(state)}</script>\n"
        f"<script type=\"module\">\n{js}{boot}</script>\n</body>\n</html>\n"
    )


# --------------------------------------------------------------------------
# the Stepper
# --------------------------------------------------------------------------


def _details_rows(pass_: BackwardPass) -> dict[str, list[tuple[str, str]]]:
    rows: dict[str, list[tuple[str, str]]] = {}
    for node_id, ref in pass_.refs.items():
        obj = ref()
        if obj is not None:
            rows[node_id] = describe_object(obj)
    return rows


class Stepper:
    """A recorded backward pass to step through: in a widget, as text, HTML or SVG files.

    Made by :func:`step_backward`.  ``steps`` is plain data (one :class:`~viz.model.Step`
    per executed node, in the engine's order), so it can be tested and printed.

    Attributes
    ----------
    snapshot : GraphSnapshot
        The graph the steps refer to.
    passes : list of BackwardPass
        One per backward call (``backward_again`` adds more).
    error : BaseException or None
        The error of the last backward call, if any.
    """

    def __init__(self, roots: Any, first: BackwardPass, *, backward_kwargs: dict[str, Any],
                 params: Any = None, mode: str = "normal", grad_flow: bool = False) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
        first = fold_pass(first)  # a big graph's loops are drawn once; the steps follow (viz.fold)
        self.snapshot = first.snapshot
        self.passes = [first]
        self.error = first.error
        self.mode, self.grad_flow, self.params = mode, grad_flow, params
        self._roots = roots
        self._backward_kwargs = backward_kwargs
        self._svg = to_svg(first.snapshot, theme=THEME_FOR_MODE[mode], legend=False)
        self._details = _details_rows(first)
        self._widget: Any = None
        self._step = 0

    # -- data -------------------------------------------------------------------
    @property
    def steps(self) -> list[Step]:
        """All executed nodes of all passes, in order (``index`` counts from 0 across passes)."""
        out: list[Step] = []
        for record in self.passes:
            out += [replace(step, index=len(out) + i) for i, step in enumerate(record.steps)]
        return out

    @property
    def step(self) -> int:
        """How many steps are applied in the widget (0 … len(steps))."""
        return self._widget.step if self._widget is not None else self._step

    @step.setter
    def step(self, value: int) -> None:
        self._step = max(0, min(len(self.steps), int(value)))
        if self._widget is not None:
            self._widget.step = self._step

    def state(self) -> dict[str, Any]:
        """Everything the JavaScript needs, as the widget's traits (JSON-able)."""
        data = stepper_state(self.snapshot, self.passes, self._svg, self._details)
        return {**data, "step": self.step, "mode": self.mode, "theme": THEME_FOR_MODE[self.mode],
                "error": "" if self.error is None else f"{type(self.error).__name__}: {self.error}",
                "selected": "", "inspect": {}, "grad_flow": self.grad_flow, "can_rerun": False}

    # -- more backward calls ---------------------------------------------------------
    def backward_again(self, gradient: Any = None, retain_graph: bool | None = None,
                       create_graph: bool = False, raise_error: bool = True) -> Stepper:
        """Call backward on the same root(s) once more and append the new steps.

        Shows accumulation (``.grad`` before is the previous result) or, after a
        backward without ``retain_graph``, PyTorch's error in the panel; the earlier
        steps stay usable.

        Parameters
        ----------
        gradient, retain_graph, create_graph
            As for ``backward``; ``gradient`` defaults to the first call's.
        raise_error : bool
            Re-raise the backward's error in Python too (after updating the widget).

        Returns
        -------
        Stepper
            ``self``.
        """
        kwargs = dict(self._backward_kwargs, retain_graph=retain_graph, create_graph=create_graph)
        if gradient is not None:
            kwargs["gradient"] = gradient
        record = record_backward(self._roots, params=self.params, raise_error=False, **kwargs)
        record = fold_pass(record, like=self.snapshot)
        self.passes.append(record)
        self.error = record.error
        self._details.update(_details_rows(record))
        start = sum(len(p.steps) for p in self.passes[:-1])
        self._push_state(step=start if record.steps else start + len(record.steps))
        if record.error is not None and raise_error:
            raise record.error
        return self

    def _push_state(self, step: int) -> None:
        self._step = step
        if self._widget is not None:
            state = self.state()
            with self._widget.hold_sync():
                for key in ("steps", "graph", "error"):
                    setattr(self._widget, key, state[key])
                self._widget.step = step

    # -- display ------------------------------------------------------------------
    @property
    def widget(self) -> Any:
        """The :class:`~viz.widget.StepperWidget` (made on first use)."""
        if self._widget is None:
            from .widget import StepperWidget

            self._widget = StepperWidget(**{**self.state(), "can_rerun": True})
            self._widget.on_inspect(self.inspect)
            self._widget.on_backward_again(lambda: self.backward_again(raise_error=False))
        return self._widget

    def inspect(self, node_id: str) -> list[tuple[str, str]]:
        """Rows describing a node's live tensor / saved tensors (the click round trip)."""
        for record in reversed(self.passes):
            ref = record.refs.get(node_id)
            if ref is not None:
                return describe_object(ref())
        return [("status", "not a recorded node")]

    def static_frame(self, tag: str | None = None) -> dict[str, str]:
        """The first frame as a static picture plus a line on how to step (viz.export.static_bundle)."""
        svg = restyle_svg(self._svg, self.state(), 0, self.grad_flow)
        return static_bundle(svg, f"<viz.Stepper: {len(self.steps)} steps>", tag=tag,
                             hint=STEPPER_HINT.format(steps=len(self.steps)), alt="backward stepper, first frame")

    def _ipython_display_(self) -> None:
        # the first frame as a picture (nbconvert, untrusted, GitHub), then the widget, which hides it
        display_with_widget(self.static_frame, lambda: self.widget)

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> Any:
        # the widget where it can run, the first frame as a picture everywhere else
        return with_widget(self.static_frame(), lambda: self.widget)

    # -- exports ------------------------------------------------------------------
    def save_html(self, path: str | Path, title: str = "backward stepper") -> Path:
        """Write one self-contained offline HTML file with every step embedded.

        Returns
        -------
        Path
        """
        path = Path(path)
        path.write_text(html_document(self.state(), title), encoding="utf-8")
        return path

    def save_svg(self, path: str | Path, step: int | None = None) -> Path:
        """Write one frame (default: the current step) as an SVG file."""
        path = Path(path)
        state = self.state()
        k = self.step if step is None else step
        path.write_text(restyle_svg(self._svg, state, k, self.grad_flow), encoding="utf-8")
        return path

    def save_svgs(self, folder: str | Path, prefix: str = "step") -> list[Path]:
        """Write one SVG per frame, ``step000.svg`` (before backward) … ``stepNNN.svg``.

        Returns
        -------
        list of Path

        Raises
        ------
        ValueError
            For a ``prefix`` that is not a plain file-name start (a path separator, ``..``,
            a control character): the files always go into ``folder``.
        """
        check_file_prefix(prefix)
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        state = self.state()
        width = max(3, len(str(len(state["steps"]))))
        paths = []
        for k in range(len(state["steps"]) + 1):
            path = folder / f"{prefix}{k:0{width}d}.svg"
            path.write_text(restyle_svg(self._svg, state, k, self.grad_flow), encoding="utf-8")
            paths.append(path)
        return paths

    # -- text ---------------------------------------------------------------------
    def table(self) -> str:
        """The steps as a readable text table (what :meth:`print` shows)."""
        labels = {node.id: _label(node) for node in self.snapshot.nodes}
        slots = _next_edges(self.snapshot)
        lines = [f"{'#':>3}  {'node':<5} {'name':<24} {'grad_outputs':<22} grad_inputs / .grad"]
        for step in self.steps:
            outs = ", ".join(_cell(g) for g in step.grad_outputs or ())
            if step.name == "AccumulateGrad":
                sent = f".grad {_cell(step.grad_before)} → {_cell(step.grad_after)}"
            else:
                targets = slots.get(step.node_id or "", [])
                parts = []
                for i, g in enumerate(step.grad_inputs or ()):
                    target = targets[i][0] if i < len(targets) else None
                    parts.append(f"{target or '∅'}: {_cell(g)}")
                sent = ", ".join(parts)
            lines.append(f"{step.index + 1:>3}  {step.node_id or '?':<5} {step.name:<24} {outs:<22} {sent}")
            for event in (ev for ev in step.events if ev.kind != "release"):
                lines.append(f"{'':>3}  {'':<5} · {_event_text(event, labels)}")
        for record in self.passes:
            if record.released:
                lines.append(f"freed buffers: {', '.join(record.released)}")
            if record.error is not None:
                lines.append(f"error: {type(record.error).__name__}: {record.error}")
        return "\n".join(lines)

    def print(self) -> None:
        """Print the steps as a text table."""
        print(self.table())

    def __repr__(self) -> str:
        return f"<viz.Stepper: {len(self.steps)} steps>\n{self.table()}"


def _cell(array: Any) -> str:
    return "None" if array is None else _short(np.asarray(array))


def step_backward(root: Any, gradient: Any = None, retain_graph: bool | None = None,
                  create_graph: bool = False, inputs: Any = None, params: Any = None,
                  presentation: bool = False, compact: bool = False, grad_flow: bool = False,
                  on_error: str = "raise", names: Any = None) -> Stepper:
    """Run ``root.backward(...)`` for real, recording each node, and return a :class:`Stepper`.

    Parameters
    ----------
    root : Tensor or sequence of Tensor
        The output(s) to differentiate; several run as one ``autograd.backward``.
    gradient, retain_graph, create_graph, inputs
        Passed to ``backward`` unchanged.
    params : Module, mapping or pairs, optional
        Names for tensors, roots and intermediates too (as for :func:`viz.draw`).
    presentation, compact : bool
        Large fonts and high contrast for a projector / a smaller layout.
    grad_flow : bool
        Colour and thicken edges by gradient magnitude.
    on_error : {"raise", "show"}
        ``"raise"``: a failing backward raises its own error (PyTorch's text), like
        ``root.backward()``.  ``"show"``: return the stepper with the error in its panel
        (``stepper.error`` holds the exception).
    names : optional
        An alias of ``params`` (give one of them).

    Returns
    -------
    Stepper

    Examples
    --------
    >>> import minigrad as torch                          # doctest: +SKIP
    >>> a = torch.tensor(2., requires_grad=True)          # doctest: +SKIP
    >>> s = step_backward(a * 3)                          # doctest: +SKIP
    >>> [step.name for step in s.steps]                   # doctest: +SKIP
    ['MulBackward0', 'AccumulateGrad']
    """
    if on_error not in ("raise", "show"):
        raise ValueError(f"on_error must be 'raise' or 'show', got {on_error!r}")
    params = resolve_names(params, names)
    mode = "presentation" if presentation else "compact" if compact else "normal"
    kwargs = {"gradient": gradient, "retain_graph": retain_graph, "create_graph": create_graph,
              "inputs": inputs}
    record = record_backward(root, params=params, raise_error=False, **kwargs)
    if record.error is not None and on_error == "raise":
        raise record.error
    return Stepper(root, record, backward_kwargs=kwargs, params=params, mode=mode, grad_flow=grad_flow)
