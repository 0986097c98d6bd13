"""The stepper widget in a real JupyterLab: Run All, click Next, the highlight and the panel follow.

Notebook 2's example (``e = a·b, d = e + c, L = d·f``): the panel's chain-rule line with the
learner's numbers, predict mode, the projector's text size at 1024×768, and the arrow keys
after a toolbar click.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

GRAPH = ("a = torch.tensor(2.0, requires_grad=True); b = torch.tensor(-3.0, requires_grad=True)\n"
         "c = torch.tensor(10.0, requires_grad=True); f = torch.tensor(-2.0, requires_grad=True)\n"
         "e = a * b; d = e + c; L = d * f\n"
         "names = {'a': a, 'b': b, 'c': c, 'f': f, 'e': e, 'd': d, 'L': L}\n")
NOTEBOOK_CELLS = [
    "import minigrad as torch\nimport viz\n" + GRAPH + "stepper = viz.step_backward(L, params=names)\nstepper",
    "print('expected', [(s.node_id, s.name) for s in stepper.steps])",
    GRAPH + "predicting = viz.step_backward(L, params=names, predict=True)\npredicting",
    GRAPH + "projector = viz.step_backward(L, params=names, presentation=True)\nprojector",
    "print('all' + ' shown')",
]


def _notebook(path: Path) -> None:
    nbformat = pytest.importorskip("nbformat")
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(src) for src in NOTEBOOK_CELLS]
    nbformat.write(nb, str(path))


def _classes(page: Any, node_id: str, nth: int = 0) -> list[str]:
    return page.evaluate(f"""() => Array.from(document.querySelectorAll('.mg-stepper')[{nth}]
        .querySelector('svg g[data-id="{node_id}"]').classList)""")


def test_stepper_in_jupyterlab(jupyter_lab: Any, browser_page: Any, minigrad: Any) -> None:
    from viz.stepper import tensor_json

    from .test_browser_stepper_classroom import notebook2

    expected = notebook2(minigrad).steps

    _notebook(jupyter_lab.root / "stepper.ipynb")
    page = browser_page
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    jupyter_lab.run_all(page, "stepper.ipynb", done_text="all shown")
    page.wait_for_function("document.querySelectorAll('.mg-stepper svg g.node').length > 0"
                           " && document.querySelectorAll('.mg-stepper').length === 3")
    first_stepper = ".mg-stepper >> nth=0"

    assert page.get_attribute(first_stepper, "data-step") == "0"
    page.click(f"{first_stepper} >> button.mg-next")
    first = expected[0]
    page.wait_for_function("document.querySelector('.mg-stepper').dataset.step === '1'")
    assert "mg-current" in _classes(page, first.node_id)
    assert page.inner_text(f"{first_stepper} >> .mg-panel h3").startswith(first.name)
    panel = page.inner_text(f"{first_stepper} >> .mg-panel")
    assert "∂L/∂d = ∂L/∂L · f = 1 · (−2) = −2" in panel          # the chain rule with the numbers
    assert tensor_json(first.grad_inputs[0])["text"] in panel

    # after a toolbar click the arrow keys still step (the focus stays in the stepper)
    page.keyboard.press("ArrowRight")
    second = expected[1]
    page.wait_for_function("document.querySelector('.mg-stepper').dataset.step === '2'")
    assert "mg-current" in _classes(page, second.node_id)
    assert "mg-done" in _classes(page, first.node_id)
    page.screenshot(path=str(jupyter_lab.log.parent / "jupyterlab.png"))

    # at the end, click a leaf: the kernel answers with the live tensor (the round trip to Python)
    page.click(f"{first_stepper} >> button.mg-last")
    leaf = expected[-1].node_id
    page.click(f'{first_stepper} >> svg g[data-id="{leaf}"]')
    page.wait_for_function("document.querySelector('.mg-stepper .mg-inspector').innerText.includes('variable grad')")
    assert "mg-selected" in _classes(page, leaf)
    printed = page.inner_text(".jp-Notebook")
    assert f"('{first.node_id}', '{first.name}')" in printed

    # predict mode: a wrong value is rejected, the right one accepted
    predict = ".mg-stepper >> nth=1"
    page.click(f"{predict} >> button.mg-next")
    page.fill(f"{predict} >> input.mg-guess >> nth=0", "-3")
    page.press(f"{predict} >> input.mg-guess >> nth=0", "Enter")
    assert "Not quite" in page.inner_text(f"{predict} >> .mg-feedback >> nth=0")
    page.fill(f"{predict} >> input.mg-guess >> nth=0", "-2")
    page.press(f"{predict} >> input.mg-guess >> nth=0", "Enter")
    assert "∂L/∂d = ∂L/∂L · f = 1 · (−2) = −2" in page.inner_text(f"{predict} >> .mg-panel")

    # the projector at 1024×768: the running node's text is at least 18 px on screen
    page.set_viewport_size({"width": 1024, "height": 768})
    projector = ".mg-stepper >> nth=2"
    page.click(f"{projector} >> button.mg-next")
    page.wait_for_function("document.querySelectorAll('.mg-stepper')[2].dataset.step === '1'")
    page.click(f"{projector} >> button.mg-fit")
    heights = page.evaluate(f"""() => Array.from(document.querySelectorAll('.mg-stepper')[2]
        .querySelectorAll('svg g.node[data-id="{first.node_id}"] text'))
        .map(t => t.getBoundingClientRect().height)""")
    assert heights
    assert min(heights) >= 18, heights
    page.screenshot(path=str(jupyter_lab.log.parent / "jupyterlab-projector.png"))
    assert errors == []


def test_arrow_keys_after_a_toolbar_click_in_notebook7(jupyter_lab: Any, browser_page: Any) -> None:
    """Notebook 7 moves the focus to the cell on a click; the stepper takes it back, keys keep stepping."""
    pytest.importorskip("notebook")
    nbformat = pytest.importorskip("nbformat")
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(NOTEBOOK_CELLS[0]), nbformat.v4.new_code_cell("print('all' + ' shown')")]
    nbformat.write(nb, str(jupyter_lab.root / "nb7.ipynb"))
    page = browser_page
    page.set_default_timeout(60_000)
    page.goto(jupyter_lab.url("nb7.ipynb").replace("/lab/tree/", "/notebooks/"))
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=120_000)
    try:
        page.wait_for_selector(".jp-Notebook .jp-CodeCell .jp-InputArea-editor", timeout=120_000)
        for _ in range(8):  # Run All does nothing until the kernel is connected: try again until it runs
            page.click(".jp-Notebook .jp-CodeCell .jp-InputArea-editor")
            page.click(".lm-MenuBar-itemLabel:text-is('Run')")
            page.click(".lm-Menu-item:not(.lm-mod-disabled) .lm-Menu-itemLabel:text-is('Run All Cells')")
            try:
                page.wait_for_function("document.body.innerText.includes('all shown')", timeout=15_000)
                break
            except Exception:
                continue
        page.wait_for_function("document.body.innerText.includes('all shown')", timeout=30_000)
    except Exception:
        page.screenshot(path=str(jupyter_lab.log.parent / "nb7-failure.png"))
        raise
    page.wait_for_selector(".mg-stepper svg g.node", state="attached")
    page.click(".mg-stepper button.mg-next")
    page.wait_for_function("document.querySelector('.mg-stepper').dataset.step === '1'")
    for k in (2, 3):
        page.keyboard.press("ArrowRight")
        page.wait_for_function(f"document.querySelector('.mg-stepper').dataset.step === '{k}'", timeout=5_000)
    page.click(".mg-stepper button.mg-prev")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.querySelector('.mg-stepper').dataset.step === '1'", timeout=5_000)
