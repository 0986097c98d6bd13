"""Any name a user gives is shown safely: control characters, U+FFFF, lone surrogates, 16k characters.

Every SVG produced is parsed with an XML parser (XML 1.0 cannot hold NUL or U+FFFF), every
HTML page is written as UTF-8 (a lone surrogate cannot be), and nothing crashes.
"""

from __future__ import annotations

import base64
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

import viz
from viz.render import svg_text_items
from viz.text import MAX_NAME, safe_path, safe_text

NUL, NONCHAR, SURROGATE = "\x00", "\uffff", "\ud800"
HOSTILE = f"a{NUL}b{NONCHAR}c{SURROGATE}d\x1be\x7f"
LONG = "x" * 16_000


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))  # raises on NUL, U+FFFF or a lone surrogate


def _hostile_graph(lib: ModuleType) -> tuple[object, dict[str, object]]:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    w = lib.tensor([0.5, -1.0], requires_grad=True)
    h = x * w
    loss = h.exp().sum()
    return loss, {HOSTILE: x, LONG: w, "h" + NUL: h, f"loss{SURROGATE}": loss}


def test_safe_text_replaces_what_xml_cannot_hold_and_truncates() -> None:
    assert safe_text(HOSTILE) == "a␀b\ufffdc\ufffdd␛e␡"
    assert safe_text("tab\tand\nnewline") == "tab\tand\nnewline"   # kept: labels have lines
    assert safe_text(LONG, MAX_NAME) == "x" * (MAX_NAME - 1) + "…"
    assert safe_path(f"enc.{LONG}.weight") == f"enc.{'x' * (MAX_NAME - 1)}….weight"
    _parse(f"<t>{safe_text(HOSTILE)}</t>")


@pytest.mark.parametrize("backend", ["native", "wasm"])
def test_hostile_names_draw_valid_svg(minigrad: ModuleType, backend: str, dot_path: str) -> None:
    loss, names = _hostile_graph(minigrad)
    for view in ("autograd", "dataflow"):
        diagram = viz.draw(loss, params=names, view=view, title=HOSTILE + LONG, backend=backend)
        svg = diagram.svg()
        _parse(svg)
        texts = list(svg_text_items(svg))
        assert safe_text(HOSTILE) in texts
        assert any(t.startswith("xxxx") and t.endswith("…") and len(t) == MAX_NAME for t in texts)
        assert all(len(t) <= 400 for t in texts)
        bundle = diagram._repr_mimebundle_()
        _parse(bundle["image/svg+xml"])
        data = re.search(r'base64,([A-Za-z0-9+/=]+)"', bundle["text/html"])
        assert data is not None
        _parse(base64.b64decode(data.group(1)).decode("utf-8"))


def test_hostile_names_in_the_stepper_and_its_files(minigrad: ModuleType, tmp_path: Path) -> None:
    loss, names = _hostile_graph(minigrad)
    stepper = viz.step_backward(loss, params=names)
    assert all(safe_text(step.name) == step.name for step in stepper.steps)
    for path in stepper.save_svgs(tmp_path / "frames"):
        _parse(path.read_text(encoding="utf-8"))
    page = stepper.save_html(tmp_path / "stepper.html").read_text(encoding="utf-8")
    assert NUL not in page
    assert SURROGATE not in page
    _parse(stepper.static_frame()["image/svg+xml"])
    stepper.table()


def test_hostile_module_and_function_names(minigrad: ModuleType) -> None:
    class Odd(minigrad.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.lin = minigrad.nn.Linear(2, 2)

        def forward(self, x: object) -> object:
            return self.lin(x)

    Odd.__name__ = f"Odd\x1b{NONCHAR}" + LONG   # Python refuses NUL and surrogates in type names
    model = Odd()
    with viz.trace_modules(model) as trace:
        out = model(minigrad.ones(1, 2)).sum()
    svg = viz.draw(out, params={f"m{NUL}": model}, module_trace=trace, backend="wasm").svg()
    _parse(svg)
    texts = list(svg_text_items(svg))
    assert all(len(t) <= 2 * MAX_NAME + 20 for t in texts)
    assert any("m␀" in t for t in texts)


def test_side_by_side_with_hostile_titles(minigrad: ModuleType, tmp_path: Path) -> None:
    a = minigrad.tensor(2.0, requires_grad=True)
    pair = viz.side_by_side(viz.draw(a * 2, backend="wasm"), viz.draw(a.exp(), backend="wasm"),
                            titles=[HOSTILE, LONG])
    _parse(pair.svg())
    page = pair.save(tmp_path / "pair.html").read_text(encoding="utf-8")
    assert NUL not in page


@pytest.mark.parametrize("prefix", ["../x", "a/b", "a\\b", "..", "/abs", "x\x00y", "ok/../../etc"])
def test_save_svgs_refuses_a_prefix_that_leaves_the_folder(minigrad: ModuleType, tmp_path: Path,
                                                           prefix: str) -> None:
    a = minigrad.tensor(2.0, requires_grad=True)
    stepper = viz.step_backward(a * 3)
    folder = tmp_path / "frames"
    with pytest.raises(ValueError, match="prefix must be a plain file-name start"):
        stepper.save_svgs(folder, prefix=prefix)
    assert not any(tmp_path.rglob("*.svg"))
    assert [p.name for p in stepper.save_svgs(folder, prefix="frame_")][:1] == ["frame_000.svg"]


def test_labels_are_escaped_in_every_export(minigrad: ModuleType, tmp_path: Path) -> None:
    evil = '<script>alert(1)</script> & "q"'
    x = minigrad.tensor([1.0], requires_grad=True)
    y = (x * 3).sum()
    diagram = viz.draw(y, params={evil: x, evil + "!": y}, title=evil, backend="wasm")
    for text in (diagram.svg(), diagram._repr_html_()):  # (the DOT source is plain text, quoted)
        assert "<script>" not in text
    stepper = viz.step_backward((x * 3).sum(), params={evil: x})
    page = stepper.save_html(tmp_path / "s.html").read_text(encoding="utf-8")
    assert "<script>alert(1)</script>" not in page
    for path in stepper.save_svgs(tmp_path / "f"):
        assert "<script>" not in path.read_text(encoding="utf-8")
