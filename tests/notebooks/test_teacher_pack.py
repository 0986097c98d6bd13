"""The teacher pack: a worksheet from a graph (blank boxes, learner's names), its key, slides, the fallback."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
TEACHER = ROOT / "notebooks" / "teacher"


@pytest.fixture(scope="module")
def pack(teacher_pack_tool: ModuleType,
         tmp_path_factory: pytest.TempPathFactory) -> tuple[ModuleType, Path, dict[str, Path]]:
    tool = teacher_pack_tool
    out = tmp_path_factory.mktemp("pack")
    return tool, out, tool.build(out, quiet=True)


def test_the_worksheet_has_the_learners_names_and_blank_gradient_boxes(pack: Any) -> None:
    _, out, _ = pack
    page = (out / "worksheet.html").read_text(encoding="utf-8")
    for formula in ("e = a · b", "d = e + c", "L = d · f", "q = x · y", "r = q + z", "s = r · r"):
        assert formula in page
    assert page.count("<svg") == 2
    assert "∂L/∂a" in page
    assert "@media print" in page
    assert "s → r (1)" in page                       # the value used twice: two edges, two boxes
    assert "s → r (2)" in page
    # blank: no gradient value is written anywhere (only the root's 1 and the forward values)
    assert ">6<" not in page                          # ∂L/∂a
    assert ">-12<" not in page                        # ∂s/∂y
    assert not re.search(r"https?://(?!www\.w3\.org)", page)


def test_the_key_has_every_gradient(pack: Any) -> None:
    tool, _, _ = pack
    root, names, title, task = tool.examples()[0]
    sheet = tool.sheet_from_graph(root, names, title, task)
    tool.fill_key(sheet, root, names)
    assert {n: sheet.nodes[n]["grad"] for n in "abcfedL"} == {
        "a": 6.0, "b": -4.0, "c": -2.0, "f": 4.0, "e": -2.0, "d": -2.0, "L": 1.0}
    assert sheet.edge_grads == {"L → d": -2.0, "L → f": 4.0, "d → e": -2.0, "d → c": -2.0,
                                "e → a": 6.0, "e → b": -4.0}
    root, names, title, task = tool.examples()[1]
    sheet = tool.sheet_from_graph(root, names, title, task)
    tool.fill_key(sheet, root, names)
    assert sheet.edge_grads["s → r (1)"] == sheet.edge_grads["s → r (2)"] == -2.0
    assert sheet.nodes["r"]["grad"] == -4.0


def test_slides_are_presentation_frames_one_per_step(pack: Any) -> None:
    _, out, written = pack
    frames = sorted((out / "slides").glob("step*.svg"))
    assert len(frames) == 8                           # before backward + 7 steps
    assert (out / "slides" / "index.html").exists()
    assert (out / "chain_rule_stepper.html").exists()
    assert "chain_rule_stepper.html" in written


def test_pdf_where_native_graphviz_exists(pack: Any, dot_path: str) -> None:
    _, out, _ = pack
    pdf = (out / "worksheet-1.pdf").read_bytes()
    assert pdf.startswith(b"%PDF")


@pytest.mark.browser
def test_the_worksheet_prints_on_two_pages(pack: Any, browser_page: Any) -> None:
    _, out, _ = pack
    browser_page.goto((out / "worksheet.html").as_uri())
    for size in ("A4", "Letter"):
        pdf = browser_page.pdf(format=size)
        assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 2, size


@pytest.mark.slow
def test_check_laptop_passes_here() -> None:
    pytest.importorskip("nbclient")
    done = subprocess.run([sys.executable, str(TEACHER / "check_laptop.py")], capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "✘" not in done.stdout
    assert done.stdout.count("✔") == 6


def test_the_teacher_readme_has_a_90_minute_path_with_a_training_loop() -> None:
    text = (TEACHER / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d:\d\d) \| (\d+) \|", text, re.M)
    assert sum(int(minutes) for _, minutes in rows) == 90
    assert "training loop" in text
    assert "check_laptop.py" in text
    assert shutil.which("bash")
