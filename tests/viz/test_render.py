"""viz.render and viz.Diagram: deterministic DOT, golden gallery, SVG in both Graphviz backends, escaping."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import viz
from viz import render
from viz.capture import capture_graph
from viz.gallery import EXAMPLES, build
from viz.render import GraphvizNotFoundError, label_lines, svg_text_items, to_dot, to_svg

GOLDEN = Path(__file__).parent / "golden"

HOSTILE = '<img src=x onerror=alert(1)> "q" \\back\\slash\\ {brace} |pipe| \\l \\N & &amp;'


@pytest.fixture(params=["native", "wasm"])
def backend(request: pytest.FixtureRequest) -> str:
    """Both Graphviz backends; native needs `dot` (skipped without it, required under CI)."""
    if request.param == "native":
        request.getfixturevalue("dot_path")
    return str(request.param)


def _program(lib: ModuleType) -> Any:
    x = lib.tensor([[1.0, 2.0]], requires_grad=True)
    w = lib.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
    h = (x @ w).tanh()
    loss = (h * h).sum()
    return capture_graph(loss, params={"x": x, "w": w, "loss": loss}, show_saved=True)


def _svg_groups(svg: str, prefix: str) -> dict[str, str]:
    """id -> class of every <g> whose class starts with ``prefix`` (node, edge, cluster)."""
    root = ET.fromstring(svg.encode("utf-8"))
    found = {}
    for g in root.iter("{http://www.w3.org/2000/svg}g"):
        cls = g.get("class", "")
        if cls.split(" ")[0] == prefix and not cls.startswith(f"{prefix} legend"):
            found[g.get("id", "")] = cls
    return found


# ------------------------------------------------------------------ DOT


def test_dot_is_deterministic_byte_for_byte(minigrad: ModuleType) -> None:
    first = to_dot(_program(minigrad), legend=True)
    second = to_dot(_program(minigrad), legend=True)
    assert first == second
    assert "0x" not in first  # no memory addresses


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_gallery_dot_matches_golden(name: str, minigrad: ModuleType, golden: Any) -> None:
    golden(GOLDEN / f"{name}.dot", build(name, minigrad).dot())


def test_labels_are_plain_or_record_never_html(minigrad: ModuleType) -> None:
    dot = to_dot(_program(minigrad), legend=True)
    assert "label=<" not in dot
    assert "shape=record" in dot


def test_themes_change_fonts_and_detail(minigrad: ModuleType) -> None:
    snap = _program(minigrad)
    assert "fontsize=20" in to_dot(snap, theme="projector")
    compact = to_dot(snap, theme="compact")
    assert "fontsize=9" in compact
    assert "grad: not computed yet" not in compact
    assert "grad: not computed yet" in to_dot(snap)
    with pytest.raises(ValueError, match="unknown theme"):
        to_dot(snap, theme="neon")


def test_depth_and_fold_reach_the_picture(lib: ModuleType) -> None:
    model = lib.nn.Sequential(lib.nn.Linear(2, 2), lib.nn.Tanh(), lib.nn.Linear(2, 2), lib.nn.Tanh(),
                              lib.nn.Linear(2, 2))
    with viz.trace_modules(model) as trace:
        loss = model(lib.ones(1, 2)).sum()
    snap = capture_graph(loss, params=model, module_trace=trace)
    full = to_dot(snap)
    assert full.count("subgraph cluster_") == 5
    collapsed = to_dot(snap, depth=0)
    assert "subgraph cluster_" not in collapsed
    assert collapsed.count("shape=box3d") == 5
    folded = to_dot(snap, fold=True)
    assert "(×2, same as 0)" in folded
    assert "(×1" not in folded


# ------------------------------------------------------------------ SVG, both backends


def test_svg_has_every_label_and_our_ids_and_classes(minigrad: ModuleType, backend: str) -> None:
    snap = _program(minigrad)
    svg = to_svg(snap, backend=backend, legend=True)
    texts = set(svg_text_items(svg))
    for node in snap.nodes:
        for line in label_lines(node):
            assert line in texts, f"{node.id}: {line!r} missing from the SVG"
    assert _svg_groups(svg, "node") == {n.id: f"node {n.css_class}" for n in snap.nodes}
    assert _svg_groups(svg, "edge") == {e.id: f"edge {e.kind}" for e in snap.edges}


@pytest.mark.parametrize("name", ["add", "mm_grad_tensors", "second_derivative"])
def test_gallery_svg_texts(name: str, minigrad: ModuleType, backend: str) -> None:
    diagram = build(name, minigrad)
    diagram.backend = backend
    texts = set(svg_text_items(diagram.svg()))
    for node in diagram.snapshot.nodes:
        assert set(label_lines(node, diagram.options["theme"])) <= texts


def test_both_backends_give_identical_ids_and_classes(minigrad: ModuleType, dot_path: str) -> None:
    snap = _program(minigrad)
    native, wasm = (to_svg(snap, backend=b, legend=True) for b in ("native", "wasm"))
    for prefix in ("node", "edge", "cluster"):
        assert _svg_groups(native, prefix) == _svg_groups(wasm, prefix)


def test_a_2000_node_graph_renders(minigrad: ModuleType, backend: str) -> None:
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x
    for _ in range(667):
        y = (y * minigrad.tensor([0.5, 0.5], requires_grad=True)).tanh()
    snap = capture_graph(y.sum())
    assert len(snap.nodes) >= 2000
    svg = to_svg(snap, backend=backend, fold=False)
    assert len(_svg_groups(svg, "node")) == len(snap.nodes)
    folded = to_svg(snap, backend=backend)  # automatic: the loop body once, "×667"
    assert "loop body ×667" in folded
    assert len(_svg_groups(folded, "node")) < 10


# ------------------------------------------------------------------ escaping


class HostileModule:
    """Duck-typed module whose names are hostile."""

    def __init__(self, weight: Any) -> None:
        self.weight = weight

    def named_parameters(self) -> list[tuple[str, Any]]:
        return [(f"{HOSTILE}.weight", self.weight)]

    def named_modules(self) -> list[tuple[str, Any]]:
        return [("", self), (HOSTILE, self)]


def test_hostile_names_come_out_as_text(minigrad: ModuleType, backend: str) -> None:
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    w = minigrad.tensor([3.0, 4.0], requires_grad=True)
    loss = (x * w).sum()
    diagram = viz.draw(loss, params=[(HOSTILE, x), ("m", HostileModule(w)), (HOSTILE + "!", loss)],
                       title=HOSTILE, backend=backend, view="dataflow")
    dot = diagram.dot()
    assert "label=<" not in dot
    svg = diagram.svg()
    ET.fromstring(svg.encode("utf-8"))  # still well-formed XML
    texts = list(svg_text_items(svg))
    assert HOSTILE in texts  # x's name (record field) and the title (plain label)
    assert HOSTILE + "!" in texts
    assert f"m.{HOSTILE}.weight" in texts
    assert f"m.{HOSTILE}: HostileModule" in texts  # the cluster label
    for output in (svg, diagram._repr_html_()):
        assert "<img" not in output
        assert "&lt;img src=x onerror=alert(1)&gt;" in output


def test_escape_helpers() -> None:
    assert render.escape_record("a|b{c}<d>\\") == "a\\|b\\{c\\}\\<d\\>\\\\"
    assert render.escape_record(" two  spaces ") == "\\ two \\ spaces\\ "
    assert render.escape_plain("x\ny\\l") == "x\\ny\\\\l"


# ------------------------------------------------------------------ Diagram and backends


def test_diagram_displays_a_static_picture_that_needs_no_trust(minigrad: ModuleType) -> None:
    import base64

    x = minigrad.tensor([1.0], requires_grad=True)
    diagram = viz.draw(x * 2, params={"x": x}, backend="wasm")
    bundle = diagram._repr_mimebundle_()
    assert set(bundle) == {"text/html", "image/svg+xml", "text/plain"}
    html = bundle["text/html"]
    assert html.startswith('<div class="viz-static"><img src="data:image/svg+xml;base64,')
    assert "<svg" not in html
    assert "<script" not in html
    data = html.split("base64,", 1)[1].split('"', 1)[0]
    picture = base64.b64decode(data).decode("utf-8")
    assert picture == bundle["image/svg+xml"] == render.strip_xml_prolog(diagram.svg())
    assert 'id="n0"' in picture
    assert 'class="node tensor root' in picture
    # the inline form stays available for pages that trust it
    inline = diagram._repr_html_()
    assert inline.startswith('<div class="viz-diagram"><svg')
    assert "<?xml" not in inline
    assert repr(diagram) == "<viz.Diagram autograd: 4 nodes, 3 edges>"  # x, *, the constant 2, the root


def test_save_picks_the_format_from_the_suffix(minigrad: ModuleType, tmp_path: Path) -> None:
    x = minigrad.tensor([1.0], requires_grad=True)
    diagram = viz.draw(x.exp(), backend="wasm")
    assert diagram.save(tmp_path / "g.svg").read_text().lstrip().startswith("<?xml")
    assert diagram.save(tmp_path / "g.dot").read_text().startswith("digraph")
    with pytest.raises(ValueError, match="cannot tell the format"):
        diagram.save(tmp_path / "g.jpeg")


def test_png_and_pdf_need_native_graphviz(minigrad: ModuleType, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render.shutil, "which", lambda name: None)
    diagram = viz.draw(minigrad.tensor([1.0], requires_grad=True).exp())
    for suffix in (".png", ".pdf"):
        with pytest.raises(GraphvizNotFoundError, match="apt-get install graphviz"):
            diagram.save(tmp_path / f"g{suffix}")
    assert diagram.save(tmp_path / "g.svg").exists()  # SVG still works, through WebAssembly


def test_png_and_pdf_with_native_graphviz(minigrad: ModuleType, tmp_path: Path, dot_path: str) -> None:
    diagram = viz.draw(minigrad.tensor([1.0], requires_grad=True).exp())
    assert diagram.save(tmp_path / "g.png").read_bytes()[:4] == b"\x89PNG"
    assert diagram.save(tmp_path / "g.pdf").read_bytes()[:4] == b"%PDF"


def test_backend_choice_follows_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VIZ_GRAPHVIZ_BACKEND", "wasm")
    assert render.choose_backend() == "wasm"
    assert render.choose_backend("native") == "native"
    monkeypatch.setenv("VIZ_GRAPHVIZ_BACKEND", "auto")
    monkeypatch.setattr(render.shutil, "which", lambda name: None)
    assert render.choose_backend() == "wasm"
    monkeypatch.setenv("VIZ_GRAPHVIZ_BACKEND", "cairo")
    with pytest.raises(ValueError, match="native, wasm or auto"):
        render.choose_backend()


def test_svg_svg_groups_helper_sees_clusters(minigrad: ModuleType) -> None:
    svg = to_svg(_program(minigrad), backend="wasm", legend=True)
    assert re.search(r'<g id="legend" class="cluster legend"', svg)


# ------------------------------------------------------------------ legend, edge labels, versions


def _ys(g: ET.Element) -> list[float]:
    """Every y coordinate of the shapes (polygon points, ellipse centres, texts) inside ``g``."""
    ys = []
    for el in g.iter():
        if el.get("points"):
            ys += [float(pair.split(",")[1]) for pair in el.get("points", "").split()]
        for attr in ("cy", "y"):
            if el.get(attr):
                ys.append(float(el.get(attr, "0")))
    return ys


def test_legend_explains_only_what_is_drawn(minigrad: ModuleType) -> None:
    keys = [key for key, _ in render.legend_entries(build("frozen_layer", minigrad).snapshot)]
    assert keys == ["fn", "root", "param", "frozen", "constant"]  # no "leaf", "no-grad" or "tensor" box
    keys = [key for key, _ in render.legend_entries(build("second_derivative", minigrad).snapshot)]
    assert keys == ["fn", "acc", "root", "derivative", "constant", "edge:differentiates"]


def test_legend_is_one_small_row_under_the_graph(minigrad: ModuleType, backend: str) -> None:
    diagram = build("mm_grad_tensors", minigrad)
    assert "legend_row1" not in diagram.dot()                 # 4 entries: one row
    diagram.backend = backend
    root = ET.fromstring(diagram.svg().encode("utf-8"))
    groups = {g.get("id"): g for g in root.iter("{http://www.w3.org/2000/svg}g")}
    legend_top = min(_ys(groups["legend"]))
    graph_bottom = max(y for node in diagram.snapshot.nodes for y in _ys(groups[node.id]))
    assert legend_top > graph_bottom                          # under the graph, not beside it
    legend_boxes = [g for g in groups.values() if g.get("class", "").startswith("node legend")]
    first_lines = {round(float(g.find("{http://www.w3.org/2000/svg}text").get("y"))) for g in legend_boxes}
    assert len(first_lines) == 1                              # on one line


def test_legend_ids_and_classes_are_the_same_in_both_backends(minigrad: ModuleType, dot_path: str) -> None:
    diagram = build("second_derivative", minigrad)
    svgs = []
    for backend in ("native", "wasm"):
        diagram.backend, diagram._svg = backend, None
        svgs.append(diagram.svg())
    legend = [{i: c for i, c in _all_groups(svg).items() if "legend" in c} for svg in svgs]
    assert legend[0] == legend[1]
    assert legend[0]["legend5"] == "node legend edge-differentiates"


def _all_groups(svg: str) -> dict[str, str]:
    root = ET.fromstring(svg.encode("utf-8"))
    return {g.get("id", ""): g.get("class", "") for g in root.iter("{http://www.w3.org/2000/svg}g")}


def test_edge_labels_are_drawn(minigrad: ModuleType, backend: str) -> None:
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    w = minigrad.tensor([3.0, 4.0], requires_grad=True)
    snap = capture_graph((x * w).sum(), params={"x": x, "w": w}, view="dataflow", show_saved=True)
    root = ET.fromstring(to_svg(snap, backend=backend).encode("utf-8"))
    labels = sorted(t.text or "" for g in root.iter("{http://www.w3.org/2000/svg}g")
                    if g.get("class") == "edge saved" for t in g.iter("{http://www.w3.org/2000/svg}text"))
    assert labels == ["other", "self"]


def test_versions_show_on_tensors_changed_in_place_not_on_initialised_leaves(minigrad: ModuleType) -> None:
    w = minigrad.tensor([1.0, 2.0], requires_grad=True)
    with minigrad.no_grad():
        w.mul_(2)                                             # like an initialiser or optimiser step
    y = w * 3
    y.add_(1)
    snap = capture_graph(y, params={"w": w, "y": y})
    lines = {node.name: label_lines(node) for node in snap.nodes}
    assert "(2,) float32 · version 1" in lines["y"]
    assert "(2,) float32" in lines["AccumulateGrad"]
