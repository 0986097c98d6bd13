"""Make the teacher pack's printables and slides: a worksheet from a graph, slide frames, an offline stepper.

    python notebooks/tools/teacher_pack.py                 # -> notebooks/teacher/build/
    python notebooks/tools/teacher_pack.py -o /tmp/pack

Writes, for notebook 2's two examples (``L = (a·b + c)·f`` and ``s = r·r`` with ``r = x·y + z``):

``worksheet.html``
    One printable page per graph: the learner's names and the forward values in every box, an
    empty box for each gradient (at every tensor and on every edge), and a table of the same
    edges to fill in. Prints on A4 / Letter (``@media print``); opens offline.
``worksheet-key.html``
    The same pages with the gradients filled in (from a real backward), for the teacher.
``worksheet-1.pdf``, ``worksheet-2.pdf``
    The graphs as PDF, where the native Graphviz ``dot`` is installed.
``slides/stepNNN.svg`` and ``slides/index.html``
    One SVG frame per backward step in presentation styling (``save_svgs`` of a stepper made with
    ``presentation=True``), and a page that shows them full-screen (arrow keys, offline).
``chain_rule_stepper.html``
    The offline HTML stepper, the fallback for laptops without Python.
"""

from __future__ import annotations

import argparse
import html
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:          # run as a script from a checkout: this minigrad and viz
    sys.path.insert(0, str(ROOT))

SYMBOLS = {"MulBackward0": "·", "AddBackward0": "+", "SubBackward0": "−", "DivBackward0": "/"}

PRINT_CSS = """
@page { size: auto; margin: 14mm; }
body { font: 15px/1.45 system-ui, "Segoe UI", "Noto Sans", "Noto Sans CJK SC", sans-serif; color: #000;
       max-width: 190mm; margin: 0 auto; padding: 8mm 0; }
h1 { font-size: 22px; margin: 0 0 4px; }
.who { display: flex; gap: 24px; margin: 8px 0 14px; }
.who span { flex: 1; border-bottom: 1px solid #000; padding-top: 14px; }
.sheet { page-break-after: always; break-after: page; }
.sheet:last-child { page-break-after: auto; break-after: auto; }
.graph { text-align: center; page-break-inside: avoid; break-inside: avoid; }
.graph svg { max-width: 100%; height: auto; max-height: 120mm; }
table.edges { border-collapse: collapse; margin-top: 10px; page-break-inside: avoid; break-inside: avoid; }
table.edges td, table.edges th { border: 1px solid #000; padding: 3px 10px; text-align: left; }
table.edges td.box { width: 38mm; }
.note { font-size: 13px; color: #333; }
@media print { body { padding: 0; } .note { color: #000; } }
@media screen { body { padding: 16px; } .sheet { border-bottom: 2px dashed #aaa; padding-bottom: 16px;
                margin-bottom: 16px; } }
"""


@dataclass
class Sheet:
    """One worksheet page: a graph of named tensors, its edges, the gradients (for the key)."""

    title: str
    task: str
    nodes: dict[str, dict[str, Any]] = field(default_factory=dict)   # name -> {formula, value, grad}
    edges: list[tuple[str, str, str]] = field(default_factory=list)  # (input, output, edge key)
    root: str = ""
    order: list[str] = field(default_factory=list)                   # the learner's order of names
    edge_grads: dict[str, float] = field(default_factory=dict)


def _fmt(value: float) -> str:
    return f"{value:g}"


def sheet_from_graph(root: Any, names: dict[str, Any], title: str, task: str) -> Sheet:
    """Walk ``root``'s graph and name every tensor by the learner's ``names`` (a dict name -> tensor)."""
    by_node = {t.grad_fn: n for n, t in names.items() if t.grad_fn is not None}
    by_leaf = {id(t): n for n, t in names.items() if t.grad_fn is None}
    sheet = Sheet(title, task, order=list(names))
    sheet.root = by_node.get(root.grad_fn, "out")
    unnamed = iter(f"t{i}" for i in range(1, 1000))
    names_of: dict[Any, str] = {}

    def name_of(node: Any) -> str:
        if node not in names_of:
            if type(node).__name__ == "AccumulateGrad":
                names_of[node] = by_leaf.get(id(node.variable), "leaf")
            else:
                names_of[node] = by_node.get(node) or next(unnamed)
        return names_of[node]

    stack, seen = [root.grad_fn], {root.grad_fn}
    while stack:
        node = stack.pop()
        name = name_of(node)
        if type(node).__name__ == "AccumulateGrad":
            sheet.nodes[name] = {"formula": name, "value": node.variable.item()}
            continue
        inputs, edge_inputs = [], []
        for k, (child, _) in enumerate(node.next_functions):
            if child is None:
                inputs.append("const")
                continue
            edge_inputs.append(k)
            child_name = name_of(child)
            inputs.append(child_name)
            sheet.edges.append((child_name, name, f"{name} → {child_name}" + (f" ({k + 1})" if
                               sum(1 for c, _ in node.next_functions if c is child) > 1 else "")))
            if child not in seen:
                seen.add(child)
                stack.append(child)
        op = type(node).__name__
        if op in SYMBOLS and len(inputs) == 2:
            formula = f"{name} = {inputs[0]} {SYMBOLS[op]} {inputs[1]}"
        else:
            formula = f"{name} = {op.removesuffix('Backward0').lower()}({', '.join(inputs)})"
        tensor = names.get(name)
        sheet.nodes[name] = {"formula": formula, "value": None if tensor is None else tensor.item(),
                             "inputs": inputs, "op": op, "edge_inputs": edge_inputs}
    return sheet


def fill_key(sheet: Sheet, root: Any, names: dict[str, Any]) -> None:
    """The gradients at every named tensor (a real backward) and on every edge (the local rules)."""
    for t in names.values():
        if t.grad_fn is not None:
            t.retain_grad()
    root.backward(retain_graph=True)
    for name, t in names.items():
        if t.grad is not None and name in sheet.nodes:
            sheet.nodes[name]["grad"] = t.grad.item()
    for parent, info in sheet.nodes.items():
        g, inputs, op = info.get("grad"), info.get("inputs", []), info.get("op")
        if g is None or len(inputs) != 2:
            continue
        values = [sheet.nodes.get(n, {}).get("value") for n in inputs]
        if op == "AddBackward0":
            sends = [g, g]
        elif op == "SubBackward0":
            sends = [g, -g]
        elif op == "MulBackward0" and None not in values:
            sends = [g * values[1], g * values[0]]
        elif op == "DivBackward0" and None not in values:
            sends = [g / values[1], -g * values[0] / values[1] ** 2]
        else:
            continue
        for (child, edge_parent, key), k in zip([e for e in sheet.edges if e[1] == parent], info["edge_inputs"]):
            if edge_parent != parent or child != inputs[k]:
                raise AssertionError(f"edge {key} does not match input {k} of {parent}")
            sheet.edge_grads[key] = sends[k]


_BLANK = "\u00a0" * 14         # no-break spaces (a record keeps them): room to write a number by hand


def _field(text: str) -> str:
    """Text for a Graphviz record field: braces, bars, angle brackets and spaces escaped."""
    if not text:
        return _BLANK
    for ch in "\\{}|<>":
        text = text.replace(ch, "\\" + ch)
    return text.replace(" ", "\\ ").replace('"', '\\"')


def to_dot(sheet: Sheet, key: bool = False) -> str:
    """The sheet's graph: inputs at the top, the result at the bottom; a blank box per gradient.

    Record labels, not HTML-like ones: the WebAssembly Graphviz (the path without a system
    Graphviz) drops HTML-like labels, and a worksheet must print the same on every laptop.
    """
    lines = ['digraph worksheet {',
             '  graph [rankdir=TB, ordering=in, nodesep=0.5, ranksep=0.55, fontname="Helvetica", pad=0.2];',
             '  node [shape=record, fontname="Helvetica", fontsize=15];',
             '  edge [fontname="Helvetica", fontsize=13, arrowsize=0.8, penwidth=1.4];']
    order = {name: k for k, name in enumerate(sheet.order)}
    for name, info in sorted(sheet.nodes.items(), key=lambda item: order.get(item[0], len(order))):
        value = "" if info.get("value") is None else _fmt(info["value"])
        grad = _fmt(info["grad"]) if key and "grad" in info else ("1" if name == sheet.root else "")
        label = "{%s|{value|%s}|{%s|%s}}" % (_field(info["formula"]), _field(value),
                                             _field("∂%s/∂%s" % (sheet.root, name)), _field(grad))
        lines.append(f'  "{name}" [label="{label}"];')
    for child, parent, edge in sorted(sheet.edges, key=lambda e: (order.get(e[1], 0), order.get(e[0], 0))):
        text = _fmt(sheet.edge_grads[edge]) if key and edge in sheet.edge_grads else "[" + "\u00a0" * 14 + "]"
        lines.append(f'  "{child}" -> "{parent}" [label="{text}"];')
    lines.append("}")
    return "\n".join(lines) + "\n"


def sheet_html(sheet: Sheet, svg: str, key: bool) -> str:
    rows = "".join(
        f"<tr><td>{html.escape(edge)}</td><td>from <b>{html.escape(parent)}</b> back to "
        f"<b>{html.escape(child)}</b></td><td class=\"box\">"
        f"{_fmt(sheet.edge_grads[edge]) if key and edge in sheet.edge_grads else ''}</td></tr>"
        for child, parent, edge in sheet.edges)
    svg = svg[svg.index("<svg"):] if "<svg" in svg else svg
    return (f'<section class="sheet"><h1>{html.escape(sheet.title)}{" — key" if key else ""}</h1>'
            '<div class="who"><span>Name</span><span>Date</span></div>'
            f'<p>{html.escape(sheet.task)}</p><div class="graph">{svg}</div>'
            '<table class="edges"><tr><th>edge</th><th>the gradient that travels</th><th>value</th></tr>'
            f"{rows}</table>"
            '<p class="note">Each box on an arrow: the gradient that arrow carries back. Each box in a tensor: '
            "the sum of everything that arrives there.</p></section>")


def examples() -> list[tuple[Any, dict[str, Any], str, str]]:
    """Notebook 2's two graphs, with the names the learners use."""
    import minigrad as torch

    a, b, c, f = (torch.tensor(v, requires_grad=True) for v in (2.0, -3.0, 10.0, -2.0))
    e = a * b
    d = e + c
    L = d * f
    x, y, z = (torch.tensor(v, requires_grad=True) for v in (3.0, -2.0, 4.0))
    q = x * y
    r = q + z
    s = r * r
    return [
        (L, {"a": a, "b": b, "c": c, "f": f, "e": e, "d": d, "L": L}, "Worksheet 1 · the chain rule, by hand",
         "Fill in every gradient box, starting from ∂L/∂L = 1 at the bottom and working up. A product sends "
         "the incoming gradient times the other factor; a sum passes it on unchanged."),
        (s, {"x": x, "y": y, "z": z, "q": q, "r": r, "s": s}, "Worksheet 2 · a value used twice",
         "s = r · r uses r twice: each of the two arrows from s to r carries its own gradient, and they add up "
         "at r. Fill in every box, then check yourself with the stepper."),
    ]


def build(out: Path, quiet: bool = False) -> dict[str, Path]:
    """Write the pack into ``out``; return what was written (name -> path)."""
    import viz
    from viz.render import render_dot

    out.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    blank_pages, key_pages = [], []
    for number, (root, names, title, task) in enumerate(examples(), start=1):
        sheet = sheet_from_graph(root, names, title, task)
        blank_pages.append(sheet_html(sheet, render_dot(to_dot(sheet), "svg").decode("utf-8"), key=False))
        if shutil.which("dot"):
            pdf = out / f"worksheet-{number}.pdf"
            pdf.write_bytes(render_dot(to_dot(sheet), "pdf", "native"))
            written[pdf.name] = pdf
        fill_key(sheet, root, names)
        key_pages.append(sheet_html(sheet, render_dot(to_dot(sheet, key=True), "svg").decode("utf-8"), key=True))
    for name, pages in (("worksheet.html", blank_pages), ("worksheet-key.html", key_pages)):
        path = out / name
        path.write_text("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                        f"<title>{'Worksheet' if name == 'worksheet.html' else 'Worksheet key'}</title>"
                        f"<style>{PRINT_CSS}</style></head><body>\n" + "\n".join(pages) + "\n</body></html>\n",
                        encoding="utf-8")
        written[name] = path

    root, names, _, _ = examples()[0]
    stepper = viz.step_backward(root, params=names, presentation=True)
    slides = out / "slides"
    if slides.exists():
        shutil.rmtree(slides)
    frames = stepper.save_svgs(slides)
    written["slides"] = slides
    (slides / "index.html").write_text(_slides_page([p.name for p in frames]), encoding="utf-8")
    root, names, _, _ = examples()[0]       # a fresh graph: the slides' backward freed the last one
    written["chain_rule_stepper.html"] = viz.step_backward(root, params=names, presentation=True).save_html(
        out / "chain_rule_stepper.html", title="the chain rule, step by step")
    if not quiet:
        for path in written.values():
            print(f"  {path}")
    return written


def _slides_page(frames: list[str]) -> str:
    images = "".join(f'<img class="frame" src="{html.escape(f)}" alt="step {k}"{" hidden" if k else ""}>'
                     for k, f in enumerate(frames))
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>backward, step by step</title>"
        "<style>html, body { margin: 0; height: 100%; background: #fff; }"
        " body { display: flex; flex-direction: column; align-items: center; justify-content: center; }"
        " img.frame { max-width: 98vw; max-height: 90vh; } p { font: 18px system-ui, sans-serif; color: #555; }"
        "</style></head><body>" + images +
        f'<p id="where">step 0 of {len(frames) - 1} — → next, ← back</p>'
        "<script>const frames = [...document.querySelectorAll('img.frame')]; let k = 0;"
        "function show(n) { k = Math.max(0, Math.min(frames.length - 1, n));"
        " frames.forEach((f, i) => { f.hidden = i !== k; });"
        " document.getElementById('where').textContent = `step ${k} of ${frames.length - 1} — → next, ← back`; }"
        "document.addEventListener('keydown', e => { if (e.key === 'ArrowRight' || e.key === ' ') show(k + 1);"
        " if (e.key === 'ArrowLeft') show(k - 1); if (e.key === 'Home') show(0);"
        " if (e.key === 'End') show(frames.length - 1); });"
        "document.addEventListener('click', () => show(k + 1));</script></body></html>\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-o", "--output", type=Path, default=ROOT / "notebooks" / "teacher" / "build")
    args = parser.parse_args(argv)
    build(args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
