"""python -m viz: render a script's variable, and the gallery, in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from viz.gallery import EXAMPLES

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """\
import minigrad as torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
loss = (x * w).sum()
"""


def run_viz(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "viz", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, check=False, env={**os.environ, **(env or {})})


@pytest.fixture
def script(tmp_path: Path) -> Path:
    path = tmp_path / "program.py"
    path.write_text(SCRIPT, encoding="utf-8")
    return path


@pytest.mark.parametrize("view", ["autograd", "dataflow"])
def test_render_draws_the_named_variable(script: Path, tmp_path: Path, view: str) -> None:
    out = tmp_path / "loss.svg"
    done = run_viz("render", str(script), "--var", "loss", "-o", str(out), "--view", view,
                   "--show-saved", env={"VIZ_GRAPHVIZ_BACKEND": "wasm"})
    assert done.returncode == 0, done.stderr
    svg = out.read_text(encoding="utf-8")
    assert 'id="n0"' in svg
    assert ">loss<" in svg
    assert ">x<" in svg
    assert ">w<" in svg


def test_render_writes_dot(script: Path, tmp_path: Path) -> None:
    out = tmp_path / "loss.dot"
    assert run_viz("render", str(script), "--var", "loss", "-o", str(out)).returncode == 0
    assert out.read_text(encoding="utf-8").startswith("digraph")


def test_render_reports_an_unknown_variable(script: Path, tmp_path: Path) -> None:
    done = run_viz("render", str(script), "--var", "nope", "-o", str(tmp_path / "o.svg"))
    assert done.returncode == 2
    assert "no tensor variable 'nope'" in done.stderr
    assert "loss, w, x" in done.stderr


def test_render_png_without_graphviz_says_how_to_install(script: Path, tmp_path: Path) -> None:
    done = run_viz("render", str(script), "--var", "loss", "-o", str(tmp_path / "o.png"),
                   env={"PATH": str(Path(sys.executable).parent)})
    assert done.returncode == 1
    assert "apt-get install graphviz" in done.stderr


def test_gallery_writes_every_example_and_an_index(tmp_path: Path) -> None:
    done = run_viz("gallery", "-o", str(tmp_path), env={"VIZ_GRAPHVIZ_BACKEND": "wasm"})
    assert done.returncode == 0, done.stderr
    for name in EXAMPLES:
        assert (tmp_path / f"{name}.svg").read_text(encoding="utf-8").count("<svg") == 1
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert all(f'src="{name}.svg"' in index for name in EXAMPLES)
