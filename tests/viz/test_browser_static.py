"""The static pictures, where no widget runs: an executed notebook opened untrusted, and its nbconvert HTML.

An untrusted notebook strips inline ``<svg>`` from HTML outputs (the diagram used to show as
loose text, "minigrad cluster_legend legend n0 loss ..."); the picture is therefore an ``<img>``
with an SVG data URI.  Both checks look at the page in Chromium: every picture loaded (its
``naturalWidth`` is known), is visible, and no stripped SVG text leaks onto the page.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]

CELLS = [
    "import minigrad as torch\nimport viz\n"
    "a = torch.tensor(2.0, requires_grad=True)\nb = torch.tensor(-3.0, requires_grad=True)\n"
    "loss = (a * b + a).sin()\nviz.draw(loss, params={'a': a, 'b': b, 'loss': loss})",
    "stepper = viz.step_backward((a * b).exp(), params={'a': a, 'b': b})\nstepper",
    "w = torch.tensor(0.5, requires_grad=True)\nh = torch.tensor(1.0)\n"
    "for _ in range(300):\n    h = (h * w + 0.1).tanh()\nviz.draw(h, params={'w': w})",
    "print('all' + ' done')",
]

# What the page shows of the pictures: every <img> with an SVG data URI, loaded and on screen.
_PICTURES = """() => Array.from(document.querySelectorAll('img[src^="data:image/svg+xml"]')).map((img) => {
    const box = img.getBoundingClientRect();
    return {complete: img.complete, natural: img.naturalWidth, width: box.width, height: box.height};
})"""


def _executed_notebook(path: Path, kernel_env: dict[str, str]) -> Any:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(src) for src in CELLS]
    env = dict(kernel_env)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    nbclient.NotebookClient(nb, timeout=180, kernel_name="python3").execute(env=env)
    nbformat.write(nb, str(path))  # not signed: JupyterLab opens it untrusted
    return nb


def _check_pictures(page: Any, expected: int) -> None:
    page.wait_for_function(
        f"document.querySelectorAll('img[src^=\"data:image/svg+xml\"]').length >= {expected}")
    page.wait_for_function("""Array.from(document.querySelectorAll('img[src^="data:image/svg+xml"]'))
                              .every((img) => img.complete)""")
    pictures = page.evaluate(_PICTURES)
    assert len(pictures) >= expected
    for picture in pictures:
        assert picture["natural"] > 0, picture          # the SVG decoded: a real picture
        assert picture["width"] > 50, picture           # and it takes room on the page
        assert picture["height"] > 50, picture
    text = page.inner_text("body")
    assert "cluster_legend" not in text                 # no stripped SVG left as loose text
    assert "Backward stepper (4 steps), first frame. To step through it" in text  # says how to step
    assert "loop body" not in text                       # the loop's caption is inside its picture


def test_nbconvert_html_shows_every_picture(tmp_path: Path, kernel_env: dict[str, str],
                                            browser_page: Any) -> None:
    nbconvert = pytest.importorskip("nbconvert")
    nb = _executed_notebook(tmp_path / "static.ipynb", kernel_env)
    body, _ = nbconvert.HTMLExporter().from_notebook_node(nb)
    page_path = tmp_path / "static.html"
    page_path.write_text(body, encoding="utf-8")
    errors: list[str] = []
    browser_page.on("pageerror", lambda exc: errors.append(str(exc)))
    browser_page.set_viewport_size({"width": 1366, "height": 768})
    browser_page.goto(page_path.as_uri())
    _check_pictures(browser_page, expected=3)
    browser_page.screenshot(path=str(tmp_path / "nbconvert.png"), full_page=True)


def test_untrusted_notebook_in_jupyterlab_shows_every_picture(jupyter_lab: Any, browser_page: Any,
                                                              kernel_env: dict[str, str]) -> None:
    _executed_notebook(jupyter_lab.root / "static.ipynb", kernel_env)
    # every cell in the page at once (JupyterLab 4 attaches only the cells in view by default)
    settings = jupyter_lab.log.parent / "config" / "lab" / "user-settings" / "@jupyterlab" / "notebook-extension"
    settings.mkdir(parents=True, exist_ok=True)
    (settings / "tracker.jupyterlab-settings").write_text('{"windowingMode": "none"}', encoding="utf-8")
    page = browser_page
    page.set_default_timeout(60_000)
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(jupyter_lab.url("static.ipynb"))
    try:
        page.wait_for_selector(".jp-NotebookPanel .jp-OutputArea-output", timeout=120_000)
        page.wait_for_function("document.body.innerText.includes('all done')", timeout=120_000)
        _check_pictures(page, expected=3)
    finally:
        page.screenshot(path=str(jupyter_lab.log.parent / "untrusted.png"), full_page=True)


def test_where_the_widget_runs_its_static_frame_is_hidden(jupyter_lab: Any, browser_page: Any) -> None:
    nbformat = pytest.importorskip("nbformat")
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(src) for src in CELLS[:2]]
    nb.cells.append(nbformat.v4.new_code_cell("print('all' + ' done')"))
    nbformat.write(nb, str(jupyter_lab.root / "live.ipynb"))
    page = browser_page
    jupyter_lab.run_all(page, "live.ipynb", done_text="all done")
    page.wait_for_selector(".mg-stepper svg g.node", state="attached")
    shown = page.evaluate("""() => Array.from(document.querySelectorAll('.viz-static')).map((el) => ({
        stepper: el.hasAttribute('data-viz-static'), visible: el.getBoundingClientRect().height > 0}))""")
    assert {"stepper": True, "visible": False} in shown     # the widget hid its first-frame picture
    assert {"stepper": False, "visible": True} in shown     # the diagram's picture stays
    assert page.locator(".mg-stepper").first.is_visible()
