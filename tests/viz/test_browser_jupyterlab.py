"""The stepper widget in a real JupyterLab: Run All, click Next, the highlight and the panel follow."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTEBOOK_CELLS = [
    "import minigrad as torch\nimport viz\n"
    "a = torch.tensor(2.0, requires_grad=True)\nb = torch.tensor(3.0, requires_grad=True)\n"
    "stepper = viz.step_backward((a * b + a).sin(), params={'a': a, 'b': b})\nstepper",
    "print('expected', [(s.node_id, s.name) for s in stepper.steps])",
]


def _notebook(path: Path) -> None:
    nbformat = pytest.importorskip("nbformat")
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(src) for src in NOTEBOOK_CELLS]
    nbformat.write(nb, str(path))


def _classes(page: Any, node_id: str) -> list[str]:
    return page.eval_on_selector(f'.mg-stepper svg g[data-id="{node_id}"]', "el => Array.from(el.classList)")


def test_stepper_in_jupyterlab(jupyter_lab: Any, browser_page: Any, minigrad: Any) -> None:
    from viz.stepper import step_backward, tensor_json

    a = minigrad.tensor(2.0, requires_grad=True)
    b = minigrad.tensor(3.0, requires_grad=True)
    expected = step_backward((a * b + a).sin(), params={"a": a, "b": b}).steps

    _notebook(jupyter_lab.root / "stepper.ipynb")
    page = browser_page
    jupyter_lab.run_all(page, "stepper.ipynb", done_text="expected [")
    page.wait_for_selector(".mg-stepper svg g.node", state="attached")

    assert page.get_attribute(".mg-stepper", "data-step") == "0"
    page.click(".mg-stepper button.mg-next")
    first = expected[0]
    page.wait_for_function("document.querySelector('.mg-stepper').dataset.step === '1'")
    assert "mg-current" in _classes(page, first.node_id)
    assert page.inner_text(".mg-stepper .mg-panel h3").startswith(first.name)
    panel = page.inner_text(".mg-stepper .mg-panel")
    assert tensor_json(first.grad_inputs[0])["text"] in panel

    page.click(".mg-stepper button.mg-next")
    second = expected[1]
    page.wait_for_function("document.querySelector('.mg-stepper').dataset.step === '2'")
    assert "mg-current" in _classes(page, second.node_id)
    assert "mg-done" in _classes(page, first.node_id)
    panel = page.inner_text(".mg-stepper .mg-panel")
    assert page.inner_text(".mg-stepper .mg-panel h3").startswith(second.name)
    for grad in second.grad_inputs:
        assert tensor_json(grad)["text"] in panel
    page.screenshot(path=str(jupyter_lab.log.parent / "jupyterlab.png"))

    # click a leaf: the kernel answers with the live tensor (the round trip to Python)
    leaf = expected[-1].node_id
    page.click(f'.mg-stepper svg g[data-id="{leaf}"]')
    page.wait_for_function("(() => { const text = document.querySelector('.mg-stepper .mg-panel').innerText;"
                           " return text.includes('variable grad') && !text.includes('as recorded'); })()")
    assert "mg-selected" in _classes(page, leaf)
    # the kernel printed the same steps the page shows
    printed = page.inner_text(".jp-Notebook")
    assert f"('{first.node_id}', '{first.name}')" in printed
