"""The public surface of ``viz``: lazy submodules, ``__all__``, ``side_by_side`` and the ``names=`` alias."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

import viz

ROOT = Path(__file__).resolve().parents[2]
SVG = "{http://www.w3.org/2000/svg}"
EVIL = '<img src=x onerror=alert(1)> & "quotes"'


# ------------------------------------------------------------------ names and lazy loading


def test_all_lists_the_public_api() -> None:
    for name in ("draw", "Diagram", "live", "step_backward", "Stepper", "plots", "demos", "side_by_side"):
        assert name in viz.__all__, name
    for name in viz.__all__:
        assert getattr(viz, name) is not None
    assert set(viz.__all__) <= set(dir(viz))


def test_submodules_and_widgets_load_on_first_use() -> None:
    program = (
        "import sys, viz\n"
        "assert 'viz.plots' not in sys.modules and 'anywidget' not in sys.modules\n"
        "assert viz.plots.plot_grad_flow and viz.demos.sigmoid_chain\n"
        "assert viz.step_backward is viz.stepper.step_backward and viz.Stepper.__name__ == 'Stepper'\n"
        "assert 'anywidget' not in sys.modules   # the stepper data needs no widget library\n"
        "assert callable(viz.live) and 'anywidget' in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=False, env={"PYTHONPATH": str(ROOT), "PATH": ""})
    assert done.returncode == 0, done.stderr


def test_unknown_names_raise_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'plot'"):
        _ = viz.plot  # type: ignore[attr-defined]


# ------------------------------------------------------------------ side_by_side


def _pair(minigrad: ModuleType) -> viz.SideBySide:
    a = minigrad.tensor(2.0, requires_grad=True)
    b = minigrad.tensor(-2.0, requires_grad=True)
    return viz.side_by_side(viz.draw(a ** 2, names={"x": a}, backend="wasm"),
                            viz.draw(-3 * b, names={"x": b}, backend="wasm"), titles=[EVIL, "x < 0"])


def _img_svg(html: str) -> str:
    """The SVG inside the one <img src="data:image/svg+xml;base64,..."> of a static picture."""
    import base64
    import re

    found = re.findall(r'<img src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', html)
    assert len(found) == 1, html[:300]
    return base64.b64decode(found[0]).decode("utf-8")


def test_side_by_side_shows_inline_svgs_with_escaped_titles(minigrad: ModuleType) -> None:
    pair = _pair(minigrad)
    inline = pair._repr_html_()  # for pages that trust it: inline SVG
    assert inline.count("<svg") == 2
    assert "<?xml" not in inline
    assert "&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quotes&quot;" in inline
    assert "<img" not in inline
    assert "x &lt; 0" in inline
    assert 'id="n0"' in inline
    assert 'class="node tensor root' in inline
    # in a notebook: one picture that shows untrusted too (an <img>, and image/svg+xml)
    bundle = pair._repr_mimebundle_()
    assert set(bundle) == {"text/html", "image/svg+xml", "text/plain"}
    html = bundle["text/html"]
    assert "<svg" not in html
    assert html.count("<img") == 1
    assert "onerror=alert" not in html.replace("&lt;img src=x onerror=alert(1)&gt;", "")
    picture = _img_svg(html)
    assert picture == bundle["image/svg+xml"]
    ET.fromstring(picture)
    assert "x &lt; 0" in picture
    assert repr(pair) == "<viz.SideBySide: 2 diagrams>"


def test_side_by_side_saves_html_and_one_svg(minigrad: ModuleType, tmp_path: Path) -> None:
    pair = _pair(minigrad)
    page = pair.save(tmp_path / "pair.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert page.count("<svg") == 2
    svg = pair.save(tmp_path / "pair.svg").read_text(encoding="utf-8")
    root = ET.fromstring(svg.encode("utf-8"))                 # one well-formed picture
    inner = [el for el in root if el.tag == f"{SVG}svg"]
    assert len(inner) == 2
    assert float(inner[1].get("x")) >= float(inner[0].get("width"))   # next to each other
    titles = [el.text for el in root if el.tag == f"{SVG}text"]
    assert titles == [EVIL, "x < 0"]                         # escaped by the XML writer, read back as text
    with pytest.raises(ValueError, match=r"use \.html or \.svg"):
        pair.save(tmp_path / "pair.png")


def test_side_by_side_checks_its_arguments(minigrad: ModuleType) -> None:
    diagram = viz.draw(minigrad.tensor(1.0, requires_grad=True).exp())
    with pytest.raises(ValueError, match="at least one"):
        viz.side_by_side()
    with pytest.raises(ValueError, match="2 titles for 1 diagrams"):
        viz.side_by_side(diagram, titles=["a", "b"])
    assert viz.side_by_side(diagram).titles == [""]


# ------------------------------------------------------------------ names= for any tensor


def test_names_is_an_alias_of_params(minigrad: ModuleType) -> None:
    w = minigrad.tensor([1.0, 2.0], requires_grad=True)
    h = w * 3
    loss = (h * h).sum()
    names = {"loss": loss, "w": w, "h": h}
    assert viz.draw(loss, names=names).dot() == viz.draw(loss, params=names).dot()
    with pytest.raises(TypeError, match="either params= or names="):
        viz.draw(loss, params=names, names=names)


def test_a_named_root_and_intermediate_show_their_names(minigrad: ModuleType) -> None:
    w = minigrad.tensor([1.0, 2.0], requires_grad=True)
    h = w * 3
    loss = (h * h).sum()
    dot = viz.draw(loss, names={"loss": loss, "h": h}).dot()
    assert '"{loss|' in dot                                 # the root box, not "tensor"
    assert 'label="MulBackward0\\nh.grad_fn"' in dot      # the node that made h
    stepper = viz.step_backward(loss, names={"loss": loss, "w": w, "h": h})
    labels = {n["label"] for n in stepper.state()["graph"]["nodes"].values()}
    assert {"loss () float32", "MulBackward0 (h.grad_fn)", "AccumulateGrad (w)"} <= labels
