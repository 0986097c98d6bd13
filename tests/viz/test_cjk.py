"""Chinese labels reach every export: as text in SVG, and as real glyphs (not blank boxes) in PNG/PDF.

PNG and PDF are drawn by native Graphviz through Pango, which takes each glyph the theme's font
lacks from any installed font that has it -- so Chinese needs a CJK font on the machine (Debian:
``fonts-noto-cjk``, installed by CI's system job). The check compares the label rendered with the
machine's fonts against the same label rendered with a font set that lacks CJK (what a machine
without the package draws: tofu boxes); if the two are alike, the glyphs are missing.

Without ``dot`` the PNG/PDF parts are skipped -- except under ``CI=true``, where they must run.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import minigrad as torch
import viz
from viz.render import render_dot
from viz.style import get_theme

ON_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
LABEL = "损失函数梯度"  # "loss function gradient"


def _need_dot(font: bool = True) -> str:
    if os.environ.get("VIZ_GRAPHVIZ_BACKEND", "").lower() == "wasm":   # CI's run with native Graphviz hidden
        pytest.skip("native Graphviz is hidden in this run (VIZ_GRAPHVIZ_BACKEND=wasm)")
    dot = shutil.which("dot")
    if dot is None:
        if ON_CI:
            pytest.fail("CI must test PNG export with native Graphviz: `dot` is not on PATH")
        pytest.skip("native Graphviz (`dot`) is not installed")
    if font and not ON_CI and shutil.which("fc-list") and not subprocess.run(
            ["fc-list", ":lang=zh", "family"], capture_output=True, text=True, check=False).stdout.strip():
        pytest.skip("no CJK font installed (Debian: sudo apt-get install fonts-noto-cjk)")
    return dot


def _graph():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    loss = (x * x).sum()
    return x, loss


def _label_dot(label: str) -> str:
    """One fixed-size node, so that every rendering has the same pixel size."""
    font = get_theme("default").fontname
    return (f'digraph {{ graph [bgcolor=white, pad=0.1]; node [shape=box, fixedsize=true, width=2.4, '
            f'height=0.6, fontname="{font}", fontsize=20, color=white]; a [label="{label}"] }}')


def _gray(png: bytes):
    image = pytest.importorskip("PIL.Image")
    import numpy as np

    return np.asarray(image.open(io.BytesIO(png)).convert("L"), dtype=float)


def _without_cjk(tmp_path: Path) -> dict[str, str]:
    """An environment whose fontconfig sees only one Latin font (a machine without CJK fonts)."""
    found = subprocess.run(["fc-match", "-f", "%{file}", "sans-serif:lang=en"], capture_output=True,
                           text=True, check=False) if shutil.which("fc-match") else None
    if found is None or found.returncode != 0 or not found.stdout:
        pytest.skip("fontconfig's fc-match is not available to build the no-CJK control")
    latin = Path(found.stdout)
    if "cjk" in latin.name.lower():
        pytest.skip(f"the default sans-serif font is a CJK font ({latin.name}); no Latin-only control")
    fonts = tmp_path / "fonts"
    fonts.mkdir()
    (fonts / latin.name).symlink_to(latin)
    conf = tmp_path / "fonts.conf"
    conf.write_text(f'<?xml version="1.0"?>\n<fontconfig><dir>{fonts}</dir>'
                    f'<cachedir>{tmp_path / "cache"}</cachedir></fontconfig>\n', encoding="utf-8")
    return {**os.environ, "FONTCONFIG_FILE": str(conf)}


# ------------------------------------------------------------------ SVG: the text itself


@pytest.mark.parametrize("backend", ["wasm", "native"])
def test_chinese_names_reach_the_svg(backend: str) -> None:
    if backend == "native":
        _need_dot(font=False)
    x, loss = _graph()
    svg = viz.draw(loss, names={"损失": loss, "输入": x}, backend=backend).svg()
    assert ">损失<" in svg
    assert ">输入<" in svg


def test_chinese_stepper_strings_reach_the_html(tmp_path: Path) -> None:
    x, loss = _graph()
    viz.set_language("zh")
    try:
        stepper = viz.step_backward(loss, names={"损失": loss, "输入": x})
        html = stepper.save_html(tmp_path / "步骤.html").read_text(encoding="utf-8")
    finally:
        viz.set_language("en")
    assert "损失" in html
    assert "链式法则" in html


# ------------------------------------------------------------------ PNG and PDF: real glyphs


def test_png_of_a_chinese_label_has_glyphs_not_tofu(tmp_path: Path) -> None:
    dot = _need_dot()
    with_fonts = _gray(render_dot(_label_dot(LABEL), "png", backend="native"))
    assert with_fonts.min() < 128, "the label drew no ink at all"

    done = subprocess.run([dot, "-Tpng"], input=_label_dot(LABEL).encode("utf-8"), capture_output=True,
                          env=_without_cjk(tmp_path), check=True, timeout=60)
    tofu = _gray(done.stdout)
    assert tofu.shape == with_fonts.shape
    assert tofu.min() < 128, "the control drew nothing: it should draw boxes"
    ink = (with_fonts < 128) | (tofu < 128)
    differ = ((with_fonts < 128) != (tofu < 128)).sum() / ink.sum()
    assert differ > 0.3, (
        f"the Chinese label looks like the render without CJK fonts ({differ:.0%} of the ink differs): "
        "its glyphs are missing -- install a CJK font (Debian: fonts-noto-cjk)")


def test_diagram_png_and_pdf_with_chinese_names(tmp_path: Path) -> None:
    _need_dot()
    x, loss = _graph()
    diagram = viz.draw(loss, names={"损失": loss, "输入": x})
    png = diagram.save(tmp_path / "图.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert _gray(png).min() < 128
    pdf = diagram.save(tmp_path / "图.pdf").read_bytes()
    assert pdf.startswith(b"%PDF")
    # cairo embeds the subset of each font it used; Chinese text needs a CJK one
    assert b"CJK" in pdf, "no CJK font is embedded in the PDF: its Chinese glyphs are boxes"
