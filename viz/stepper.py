"""Step through a recorded backward pass: the Stepper object, its JSON state, text table and exports."""

from __future__ import annotations

import html
import itertools
import json
import math
import re
import sys
import xml.etree.ElementTree as ET
from bisect import bisect_left
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from .capture import BackwardPass, describe_object, fold_pass, format_values, record_backward, resolve_names
from .chain import FULL_VALUES, Names, chain_rule_lines, formula_for, number_text
from .export import check_file_prefix, display_with_widget, static_bundle, with_widget
from .i18n import strings, t
from .model import GraphSnapshot, Step
from .render import strip_xml_prolog, to_svg
from .style import MODES, THEME_FOR_MODE

__all__ = ["Stepper", "step_backward", "stepper_state", "frame", "restyle_svg", "html_document"]

STATIC = Path(__file__).with_name("static")

SVG_NS = "http://www.w3.org/2000/svg"
ET.register_namespace("", SVG_NS)
ET.register_namespace("xlink", "http://www.w3.org/1999/xlink")


# --------------------------------------------------------------------------
# numbers -> JSON
# --------------------------------------------------------------------------


def _short(array: np.ndarray) -> str:
    """A few characters for an edge label: the value of a scalar, else values, else the shape and norm."""
    if array.size == 1:
        return f"{float(array.reshape(-1)[0].real):.4g}"
    if array.size <= 3:
        return "[" + ", ".join(f"{float(v.real):.3g}" for v in array.reshape(-1)) + "]"
    norm = float(np.linalg.norm(array.astype(np.float64).ravel()))
    return f"{'×'.join(map(str, array.shape))}, norm {norm:.3g}"


#: A heatmap shows at most this many rows and columns (every k-th one of a bigger tensor).
HEAT_SIDE = 16


def _heat(array: np.ndarray) -> dict[str, Any] | None:
    """A small heatmap of a tensor with more than FULL_VALUES elements: rows, cols, values."""
    if array.size <= FULL_VALUES or array.dtype.kind not in "biuf":
        return None
    grid = array.astype(np.float64).reshape(-1, array.shape[-1]) if array.ndim > 1 else array.astype(
        np.float64).reshape(1, -1)
    r_step, c_step = -(-grid.shape[0] // HEAT_SIDE), -(-grid.shape[1] // HEAT_SIDE)
    grid = grid[::r_step, ::c_step]
    finite = grid[np.isfinite(grid)]
    scale = float(np.abs(finite).max()) if finite.size else 0.0
    return {"rows": int(grid.shape[0]), "cols": int(grid.shape[1]), "scale": scale,
            "values": [float(v) if math.isfinite(v) else 0.0 for v in grid.ravel()],
            "every": [int(r_step), int(c_step)]}


def _values_text(array: np.ndarray) -> str:
    """``format_values(array)``, without numpy's array2string for the common small float case
    (the same text; ~20× faster, which matters for a stepper of a thousand steps)."""
    if array.dtype.kind == "f" and array.ndim <= 2 and array.size <= FULL_VALUES:
        def f(v: float) -> str:
            return f"{v:.4g}"
        if array.ndim == 0:
            return f(array.item())
        rows = [array.tolist()] if array.ndim == 1 else array.tolist()
        lines = ["[" + ", ".join(f(v) for v in row) + "]" for row in rows]
        if all(len(line) < 58 for line in lines):
            return lines[0] if array.ndim == 1 else "[" + ",\n ".join(lines) + "]"
    return format_values(array)


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
    small = array.size <= FULL_VALUES and array.dtype.kind in "biuf"
    return {"text": _values_text(array), "short": _short(array), "shape": list(array.shape),
            "dtype": str(array.dtype), "norm": norm if math.isfinite(norm) else 0.0,
            "plain": number_text(array), "values": [float(v) for v in array.ravel()] if small else None,
            "heat": _heat(array)}


def _grads_json(grads: Any) -> list[dict[str, Any] | None]:
    return [tensor_json(g) for g in (grads or ())]


# --------------------------------------------------------------------------
# errors: a hint and the node to highlight
# --------------------------------------------------------------------------

#: Part of PyTorch's (and minigrad's) message for a backward through freed buffers.
SECOND_TIME = "backward through the graph a second time"
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
        hint = t("hint_inplace", nr=nr, name=name, version=version, expected=expected)
        return text, hint, nodes
    if SECOND_TIME in message:
        return text, t("hint_second_time"), list(released)
    if "does not require grad" in message:
        return text, t("hint_no_grad"), []
    if "grad can be implicitly created only for scalar" in message:
        return text, t("hint_scalar"), []
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
               labels: dict[str, str], names: Names | None = None) -> dict[str, Any]:
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
        "chain_rule": list(step.chain_rule),
        "out_name": names.of(step.node_id) if names is not None and step.node_id else "",
        "target_names": [names.operand(step.node_id, i) if names is not None and step.node_id else ""
                         for i in range(n)],
    }


def with_chain_rule(record: BackwardPass) -> tuple[Names, list[Step]]:
    """The learner's names for a pass's graph, and its steps with ``chain_rule`` filled in
    (steps that carry their lines already keep them)."""
    names = Names(record.snapshot, record.saved)
    root = names.root(record.snapshot.roots[0] if record.snapshot.roots else None)
    steps = [step if step.chain_rule or not step.grad_inputs else
             replace(step, chain_rule=chain_rule_lines(step, names, root,
                                                       dict(record.saved.get(step.node_id or "", ()))))
             for step in record.steps]
    return names, steps


def _chained(record: BackwardPass) -> BackwardPass:
    """The pass with every step's chain rule written out (before any folding moves its ids)."""
    return replace(record, steps=with_chain_rule(record)[1])


def _formulas(step_names: Any) -> dict[str, dict[str, Any]]:
    """Per node class: the rule's words and formulas (minigrad's table, viz.chain's fallback), for the
    panel; a node neither knows gets none (never a generic sentence)."""
    out: dict[str, dict[str, Any]] = {}
    for name in sorted(set(step_names)):
        formula = formula_for(name)
        if formula is not None:
            out[name] = {"words": formula.words,
                         "formulas": [f"{inp}: {g}" for inp, g in zip(formula.inputs, formula.grads) if g]}
    return out


def _label(node: Any) -> str:
    name = node.tensor.name if node.tensor is not None else None
    if node.kind == "acc":
        return f"AccumulateGrad ({name})" if name else "AccumulateGrad"
    if node.kind == "tensor":
        return f"{name or 'tensor'} {node.tensor.shape_text}" if node.tensor is not None else node.name
    if node.kind == "fn" and name:  # a named intermediate: h = x * w shows as h.grad_fn
        return f"{node.name} ({name}.grad_fn)"
    return node.name


def _saved_text(value: Any) -> str:
    if isinstance(value, np.ndarray):
        return format_values(value)
    return number_text(value) or str(value)


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
    names = Names(snapshot, passes[0].saved if passes else None)
    names.root(snapshot.roots[0] if snapshot.roots else None)   # an unnamed root is called L
    for p, record in enumerate(passes):
        start = len(steps_json)
        _, chained = with_chain_rule(record)
        for step in chained:
            steps_json.append(_step_json(replace(step, index=len(steps_json)), p, slots, labels, names))
        all_steps += record.steps
        freed_before = tuple(node for earlier in passes[:p] for node in earlier.released)
        text, hint, error_nodes = _error_info(record.error, snapshot, record.released or freed_before)
        if record.error is not None and record.freed_before and SECOND_TIME in str(record.error) and p == 0:
            hint = t("hint_rerun")
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
    saved = passes[0].saved if passes else {}
    freed_before = set(passes[0].freed_before) if passes else set()
    graph = {
        "nodes": {node.id: {"name": node.name, "label": labels[node.id], "kind": node.kind,
                            "learner": names.of(node.id),
                            "data": node.tensor.values if node.tensor is not None else "",
                            "shape": node.tensor.shape_text if node.tensor is not None else "",
                            "saved": [[key, _saved_text(value)] for key, value in saved.get(node.id, ())],
                            "freed_before": node.id in freed_before,
                            "details": {"rows": [list(r) for r in details[node.id]]}
                            if details and node.id in details else None}
                  for node in snapshot.nodes},
        "roots": list(snapshot.roots),
        "passes": pass_json,
        "formulas": _formulas(s.name for s in all_steps),
        "flow_range": _flow_range(all_steps),
        "born": {k: v for record in passes[:1] for k, v in record.born.items()},
    }
    if graph["born"]:  # create_graph: edges between nodes built during backward appear with them
        graph["edge_ends"] = {e.id: [e.source, e.target] for e in snapshot.edges}
    graph["looks"] = looks({"steps": steps_json, "graph": graph})
    return {"svg": strip_xml_prolog(svg), "steps": steps_json, "graph": graph}


# --------------------------------------------------------------------------
# one frame, computed in Python (for SVG files); mirrors apply() in stepper.js
# --------------------------------------------------------------------------


def frame(state: dict[str, Any], k: int) -> dict[str, Any]:
    """The look of the stepper after ``k`` steps: node classes, edge classes and labels.

    Evaluates every element with the rules of :class:`_Looks` (NOTE [per-step look]);
    ``looks()`` gives the same frames incrementally, as the histories the JS applies.

    Returns
    -------
    dict
        ``{"nodes": {id: "mg-..."}, "edges": {edge id: ("mg-flow", norm)}, "labels": [(edge id, text)],
        "grads": {leaf node id: "grad: …"}, "edge_classes": {edge id: (classes, flow style)}}``
    """
    rules = _Looks(state)
    k = max(0, min(rules.n, int(k)))
    ids = set(rules.runs) | set(rules.fed) | set(rules.roots) | set(rules.freed_in) | set(rules.error_in) | set(
        rules.born)
    nodes = {node_id: look for node_id in ids if (look := rules.node(node_id, k))}
    edge_classes = {e: look for e in set(rules.edge_flows) | set(rules.edge_ends) if (look := rules.edge(e, k))[0]}
    edges: dict[str, tuple[str, float]] = {}
    p = rules.pass_at(k)
    for edge_id, flows in rules.edge_flows.items():
        last = [(i, norm) for i, norm in flows if p["start"] <= i < k]
        if last:
            edges[edge_id] = ("mg-flow" if last[-1][0] == k - 1 else "mg-flowed", last[-1][1])
    grads = {node_id: text for node_id in rules.grad_texts if (text := rules.text(node_id, k)) is not None}
    labels = []
    if k > 0:
        step = state["steps"][k - 1]
        labels = [(edge, grad["short"]) for edge, grad in zip(step["edges"], step["grad_inputs"])
                  if edge and grad]
    return {"nodes": nodes, "edges": edges, "labels": labels, "grads": grads, "edge_classes": edge_classes}


class _Looks:
    """The look of every node, edge and leaf ``grad:`` text at any frame, element by element.

    NOTE [per-step look]: this is the one place where the stepper's look is decided.
    ``looks()`` turns it into per-element histories that ``stepper.js`` only applies, and
    ``restyle_svg`` bakes a frame into an SVG file.  ``frame()`` above states the same
    rules frame by frame (the reference a test compares against).  The look of a node at
    frame k depends only on the steps of its pass that ran it or fed it, on the pass ends
    and on when it was born; so from frame k-1 to k only the elements step k touched, the
    pass ends at k and the roots (at a pass start) can change.
    """

    def __init__(self, state: dict[str, Any]) -> None:
        self.steps, graph = state["steps"], state["graph"]
        self.n = len(self.steps)
        self.passes = graph.get("passes") or [{"start": 0, "stop": self.n, "released": []}]
        self.pass_of = [step["pass"] for step in self.steps]
        self.roots = list(graph.get("roots", []))
        self.born = dict(graph.get("born") or {})
        self.flow_range = graph.get("flow_range")
        self.runs: dict[str, list[int]] = {}
        self.fed: dict[str, list[int]] = {}
        self.edge_flows: dict[str, list[tuple[int, float]]] = {}
        self.edge_ends: dict[str, tuple[str, str]] = {}
        for i, step in enumerate(self.steps):
            self.runs.setdefault(step["node_id"], []).append(i)
            for slot, target in enumerate(step["targets"]):
                if target is None:
                    continue
                self.fed.setdefault(target, []).append(i)
                edge, grad = step["edges"][slot], step["grad_inputs"][slot]
                if edge:
                    self.edge_flows.setdefault(edge, []).append((i, grad["norm"] if grad else 0.0))
                    self.edge_ends[edge] = (target, step["node_id"])
        for edge_id, ends in (graph.get("edge_ends") or {}).items():
            self.edge_ends.setdefault(edge_id, tuple(ends))
        self.freed_in: dict[str, list[int]] = {}
        self.error_in: dict[str, list[int]] = {}
        for q, record in enumerate(self.passes):
            for node_id in record.get("released", []):
                self.freed_in.setdefault(node_id, []).append(q)
            for node_id in record.get("error_nodes", []):
                self.error_in.setdefault(node_id, []).append(q)
        self.grad_texts: dict[str, list[tuple[int, str]]] = {}
        for i, step in enumerate(self.steps):
            if step["is_accumulate"]:
                after = step["grad_after"]
                self.grad_texts.setdefault(step["node_id"], []).append(
                    (i + 1, f"grad: {after['short'] if after else 'None'}"))

    def pass_at(self, k: int) -> dict[str, Any]:
        return self.passes[self.pass_of[k - 1] if k > 0 else 0]

    def node(self, node_id: str, k: int) -> str:
        """Space-separated state classes of a node at frame k."""
        p = self.pass_at(k)
        start, stop = p["start"], p["stop"]
        # a node of a folded loop body (viz/fold.py) runs once per iteration: its last run so far
        # counts.  The step lists are sorted: bisect keeps a frame O(log n) per element.
        runs = self.runs.get(node_id, [])
        first, ran_to = bisect_left(runs, start), bisect_left(runs, min(k, stop))
        fed = self.fed.get(node_id, [])
        base = ""
        if ran_to > first:
            base = "mg-current" if runs[ran_to - 1] == k - 1 else "mg-done"
        elif (bisect_left(fed, min(stop, k)) > bisect_left(fed, start)
              or (k == start and node_id in self.roots)):
            base = "mg-waiting"
        elif bisect_left(runs, stop) > first:
            base = "mg-pending"
        P = self.passes
        freed = any(k >= P[q]["stop"] and (P[q]["stop"] > P[q]["start"] or k == P[q]["stop"])
                    for q in self.freed_in.get(node_id, ()))
        error = any(k == P[q]["stop"] for q in self.error_in.get(node_id, ()))
        unborn = node_id in self.born and self.born[node_id] > k - 1
        return " ".join(c for c in (base, "mg-freed" if freed else "", "mg-error-node" if error else "",
                                    "mg-unborn" if unborn else "") if c)

    def edge(self, edge_id: str, k: int) -> tuple[str, str]:
        """(classes, inline style for grad_flow) of an edge at frame k."""
        p = self.pass_at(k)
        flows = self.edge_flows.get(edge_id, [])
        at = bisect_left(flows, (k, -1.0))
        last = flows[at - 1] if at > 0 and flows[at - 1][0] >= p["start"] else None
        ends = self.edge_ends.get(edge_id, ())
        unborn = any(end in self.born and self.born[end] > k - 1 for end in ends)
        flow = "" if last is None else "mg-flow" if last[0] == k - 1 else "mg-flowed"
        classes = " ".join(c for c in (flow, "mg-unborn" if unborn else "") if c)
        return classes, "" if last is None else _flow_style(last[1], self.flow_range)

    def text(self, node_id: str, k: int) -> str | None:
        """A leaf's ``grad:`` text at frame k (None: the drawing's own)."""
        shown = None
        for at, text in self.grad_texts.get(node_id, ()):
            if at <= k:
                shown = text
        return shown

    def touched(self, k: int) -> set[str]:
        """Nodes whose look may differ between frames k-1 and k."""
        if k == 0 or (k >= 2 and self.pass_of[k - 1] != self.pass_of[k - 2]):
            return set(self.runs) | set(self.fed) | set(self.roots) | set(self.freed_in) | set(
                self.error_in) | set(self.born)
        step = self.steps[k - 1]
        out = {step["node_id"], *(t for t in step["targets"] if t)}
        if k >= 2:
            out.add(self.steps[k - 2]["node_id"])   # it was running, now it is done
        for p in self.passes:
            if k in (p["stop"], p["stop"] + 1):
                out |= set(p.get("released", [])) | set(p.get("error_nodes", []))
            if k - 1 == p["start"]:
                out |= set(self.roots)
        out |= {node_id for node_id, i in self.born.items() if i == k - 1}
        return out


def _flow_style(norm: float, flow_range: list[float] | None) -> str:
    """The grad_flow look of an edge: colour and width by gradient magnitude (log scale)."""
    t = 0.0
    if norm > 0 and flow_range:
        lo, hi = flow_range
        t = 1.0 if hi <= lo else min(1.0, max(0.0, (math.log10(norm) - lo) / (hi - lo)))
    colour = _flow_colour(t) if norm > 0 else "#adb5bd"
    return f"{colour}|{1 + 6 * t:.2f}"


def looks(state: dict[str, Any]) -> dict[str, Any]:
    """Per element, the frames at which its look changes: what ``stepper.js`` applies.

    Returns
    -------
    dict
        ``{"nodes": {id: [[k, classes], ...]}, "edges": {id: [[k, classes, flow style], ...]},
        "texts": {leaf id: [[k, "grad: …"], ...]}}``; an element's look at frame k is its
        last entry with an index ≤ k (none: as drawn).
    """
    rules = _Looks(state)
    nodes: dict[str, list[list[Any]]] = {}
    edges: dict[str, list[list[Any]]] = {}
    last_node: dict[str, str] = {}
    last_edge: dict[str, tuple[str, str]] = {}
    edge_ids = sorted(set(rules.edge_flows) | set(rules.edge_ends))
    for k in range(rules.n + 1):
        for node_id in rules.touched(k):
            look = rules.node(node_id, k)
            if look != last_node.get(node_id, ""):
                nodes.setdefault(node_id, []).append([k, look])
                last_node[node_id] = look
        for edge_id in edge_ids if k == 0 else _edges_touched(rules, k):
            look2 = rules.edge(edge_id, k)
            if look2 != last_edge.get(edge_id, ("", "")):
                edges.setdefault(edge_id, []).append([k, *look2])
                last_edge[edge_id] = look2
    texts = {node_id: [[k, text] for k, text in history] for node_id, history in rules.grad_texts.items()}
    return {"nodes": nodes, "edges": edges, "texts": texts}


def _edges_touched(rules: _Looks, k: int) -> list[str]:
    """Edges whose look may differ between frames k-1 and k."""
    if k >= 2 and rules.pass_of[k - 1] != rules.pass_of[k - 2]:
        return sorted(set(rules.edge_flows) | set(rules.edge_ends))
    out = set()
    for i in (k - 1, k - 2):
        if 0 <= i < rules.n:
            out |= {e for e in rules.steps[i]["edges"] if e}
    born_now = {node_id for node_id, i in rules.born.items() if i == k - 1}
    if born_now:
        out |= {e for e, ends in rules.edge_ends.items() if born_now & set(ends)}
    return sorted(out)


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
    big = state.get("mode") == "presentation"
    root.set("class", (root.get("class", "") + " mg-svg" + (" mg-presentation" if big else "")).strip())
    anchors: dict[str, tuple[float, float]] = {}
    info = state["graph"].get("nodes") or {}

    def learner(node_id: str) -> str:
        node = info.get(node_id) or {}
        if node.get("kind") == "tensor":
            return node.get("learner") or node.get("name") or ""
        return f"{node.get('name', '')} ({node['learner']})" if node.get("learner") else node.get("name", "")

    for g in root.iter(f"{q}g"):
        element_id, classes = g.get("id", ""), g.get("class", "").split()
        title = g.find(f"{q}title")
        raw_title = (title.text or "") if title is not None else ""
        if title is not None and "node" in classes and element_id in info:
            title.text = learner(element_id)       # tooltips in the learner's words, not "n2"
        elif title is not None and "edge" in classes and "->" in (title.text or ""):
            tail, head = (end.split(":")[0].strip() for end in (title.text or "").split("->"))
            if tail in info and head in info:
                title.text = f"{learner(tail)} → {learner(head)}"
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
            ends = [end.split(":")[0].strip() for end in raw_title.split("->")]
            if element_id in look["edge_classes"]:
                cls, style = look["edge_classes"][element_id]
                g.set("class", " ".join([*classes, *cls.split()]))
                if grad_flow and style:
                    _style_flow(g, style)
            elif any("mg-unborn" in look["nodes"].get(end, "") for end in ends):
                g.set("class", " ".join([*g.get("class", "").split(), "mg-unborn"]))
    graph_g = root.find(f"{q}g")
    layer = ET.SubElement(root if graph_g is None else graph_g, f"{q}g", {"class": "mg-grad-labels"})
    right = 0.0
    for edge_id, text, (x, y, w, h) in _label_boxes(look["labels"], anchors, big):
        group = ET.SubElement(layer, f"{q}g", {"class": "mg-grad-label"})
        ET.SubElement(group, f"{q}rect", {"x": f"{x:.1f}", "y": f"{y:.1f}", "width": f"{w:.1f}",
                                          "height": f"{h:.1f}", "rx": "3", "data-edge": edge_id})
        label = ET.SubElement(group, f"{q}text", {"x": f"{x + 4:.1f}", "y": f"{y + h * 0.78:.1f}"})
        label.text = text
        right = max(right, x + w)
    _widen(root, graph_g, right)
    if k > 0:
        _caption(root, [line for line in state["steps"][k - 1].get("chain_rule") or () if line], big)
    return ET.tostring(root, encoding="unicode")


def _caption(root: ET.Element, lines: list[str], big: bool) -> None:
    """The step's chain-rule lines under the picture (the same text as the panel and print())."""
    box = [float(v) for v in (root.get("viewBox") or "").split()]
    if not lines or len(box) != 4:
        return
    size = 16.0 if big else 11.0
    step = size * 1.45
    q = f"{{{SVG_NS}}}"
    group = ET.SubElement(root, f"{q}g", {"class": "mg-chain-rule"})
    for i, line in enumerate(lines):
        text = ET.SubElement(group, f"{q}text", {
            "x": f"{box[0] + 6:.1f}", "y": f"{box[1] + box[3] + step * (i + 1):.1f}",
            "font-family": "DejaVu Sans Mono, Menlo, Consolas, monospace", "font-size": f"{size:g}",
            "fill": "#1f2328"})
        text.text = line
    width = max(box[2], 12 + max(len(line) for line in lines) * size * 0.62)
    box[2], box[3] = width, box[3] + step * (len(lines) + 0.6)
    root.set("viewBox", " ".join(f"{v:.2f}" for v in box))
    root.set("width", f"{box[2]:.0f}pt")
    root.set("height", f"{box[3]:.0f}pt")


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


def _style_flow(g: ET.Element, style: str) -> None:
    """Apply an edge's grad_flow look (``"colour|width"`` from :func:`_flow_style`)."""
    q = f"{{{SVG_NS}}}"
    colour, width = style.split("|")
    for child in g:
        if child.tag == f"{q}path":
            child.set("style", f"stroke: {colour}; stroke-width: {width}px")
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
        "</head>\n<body class=\"mg-standalone\">\n<main id=\"mg-app\"></main>\n"
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

    snapshot: GraphSnapshot
    passes: list[BackwardPass]
    grad_flow: bool
    params: Any
    predict: bool

    def __init__(self, roots: Any, first: BackwardPass, *, backward_kwargs: dict[str, Any],
                 params: Any = None, mode: str = "normal", grad_flow: bool = False,
                 predict: bool = False) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
        # the chain rule is written on the graph as recorded (each iteration its own numbers), then a
        # big graph's loops are drawn once and the steps follow (viz.fold)
        first = fold_pass(_chained(first))
        self.snapshot = first.snapshot
        self.passes = [first]
        self.error = first.error
        self.mode, self.grad_flow, self.params, self.predict = mode, grad_flow, params, predict
        self._roots = roots
        self._backward_kwargs = backward_kwargs
        self._svg = to_svg(first.snapshot, theme=THEME_FOR_MODE[mode], legend=False)
        self._details = _details_rows(first)
        self._widget: Any = None
        self._step = 0
        self._steps: list[Step] | None = None
        self._steps_of: list[BackwardPass] = []

    # -- data -------------------------------------------------------------------
    @property
    def steps(self) -> list[Step]:
        """All executed nodes of all passes, in order (``index`` counts from 0 across passes).

        Each carries ``chain_rule``: the chain rule of the step with the learner's names and
        numbers (see :mod:`viz.chain`).
        """
        if self._steps is None or len(self._steps_of) != len(self.passes):
            out: list[Step] = []
            for record in self.passes:
                out += [replace(step, index=len(out) + i) for i, step in enumerate(with_chain_rule(record)[1])]
            self._steps, self._steps_of = out, list(self.passes)
        return self._steps

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
                "selected": "", "inspect": {}, "grad_flow": self.grad_flow, "can_rerun": False,
                "predict": self.predict, "strings": strings()}

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
        record = fold_pass(_chained(record), like=self.snapshot)
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
                             hint=t("stepper_hint", steps=len(self.steps)), alt=t("stepper_alt"))

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
        path.write_text(html_document({**self.state(), "step": 0, "selected": ""}, title), encoding="utf-8")
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
        """The steps as a readable text table with the chain rule of each (what :meth:`print` shows).

        Nodes are named as the learner named the tensors (``d``, ``a*b``), never by internal ids.
        """
        labels = {node.id: _label(node) for node in self.snapshot.nodes}
        names = Names(self.snapshot, self.passes[0].saved)
        names.root(self.snapshot.roots[0] if self.snapshot.roots else None)
        lines = [f"{t('table_step'):>4}  {t('table_node'):<28} {t('table_in'):<14} {t('table_sent')}"]
        for step in self.steps:
            outs = ", ".join(_cell(g) for g in step.grad_outputs or ())
            who = names.of(step.node_id) if step.node_id else "?"
            node = f"{step.name} ({who})"
            if step.name == "AccumulateGrad":
                sent = f"{who}.grad {_cell(step.grad_before)} → {_cell(step.grad_after)}"
            else:
                sent = ", ".join(f"{names.operand(step.node_id or '', i)}: {_cell(g)}"
                                 for i, g in enumerate(step.grad_inputs or ()) if g is not None)
            lines.append(f"{step.index + 1:>4}  {node:<28} {outs:<14} {sent}")
            for line in step.chain_rule:
                if line:
                    lines.append(f"{'':>4}    {line}")
            for event in (ev for ev in step.events if ev.kind != "release"):
                lines.append(f"{'':>4}  · {_event_text(event, labels)}")
        for record in self.passes:
            if record.released:
                freed = ", ".join(f"{labels[i].split(' (')[0]} ({names.of(i)})" for i in record.released)
                lines.append(t("freed_list", names=freed))
            if record.error is not None:
                lines.append(t("error", text=f"{type(record.error).__name__}: {record.error}"))
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
                  on_error: str = "raise", names: Any = None, predict: bool = False,
                  show_constants: bool = True) -> Stepper:
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
    predict : bool
        Predict mode: each outgoing gradient stays hidden until the learner types a value
        (checked with a tolerance) or reveals it; a score at the end.
    show_constants : bool
        Draw inputs that get no gradient (constants, detached tensors) as small grey nodes.

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
              "inputs": inputs, "show_constants": show_constants}
    record = record_backward(root, params=params, raise_error=False, **kwargs)
    if record.error is not None and on_error == "raise":
        if record.freed_before and SECOND_TIME in str(record.error):
            print(t("hint_rerun"), file=sys.stderr)   # one line above the library's own traceback
        raise record.error
    return Stepper(root, record, backward_kwargs=kwargs, params=params, mode=mode, grad_flow=grad_flow,
                   predict=predict)
