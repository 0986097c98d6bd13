"""Notebook 2 opened in a real JupyterLab (headless Chromium): Run All, then its stepper responds to Next."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.notebooks, pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
NOTEBOOK = "02_chain_rule.ipynb"
#: The last self-check of notebook 2: once it is printed, Run All has finished.
LAST_CHECK = "walking next_functions reaches every AccumulateGrad"


def _expected_steps() -> list[Any]:
    """The steps of notebook 2's stepper, recorded here with the same program."""
    import minigrad as torch
    from viz.stepper import step_backward

    a, b, c, f = (torch.tensor(v, requires_grad=True) for v in (2.0, -3.0, 10.0, -2.0))
    e = a * b
    d = e + c
    L = d * f
    return step_backward(L, params={"a": a, "b": b, "c": c, "f": f, "e": e, "d": d, "L": L}).steps


def _classes(page: Any, node_id: str) -> list[str]:
    return page.eval_on_selector(f'.mg-stepper svg g[data-id="{node_id}"]', "el => Array.from(el.classList)")


def test_notebook_2_stepper_responds_to_next(jupyter_lab: Any, browser_page: Any) -> None:
    from viz.stepper import tensor_json

    expected = _expected_steps()
    shutil.copy(NOTEBOOKS / NOTEBOOK, jupyter_lab.root / NOTEBOOK)
    shutil.copy(NOTEBOOKS / "course_checks.py", jupyter_lab.root / "course_checks.py")
    page = browser_page
    # notebook 2 now has three steppers and a warm-up: on a loaded machine Run All needs more than 2 minutes
    jupyter_lab.TIMEOUT = max(jupyter_lab.TIMEOUT, 240)
    jupyter_lab.run_all(page, NOTEBOOK, done_text=LAST_CHECK)
    page.wait_for_selector(".mg-stepper svg g.node", state="attached")

    stepper = page.locator(".mg-stepper").first
    stepper.scroll_into_view_if_needed()
    assert stepper.get_attribute("data-step") == "0"
    for k, step in enumerate(expected[:3], start=1):
        stepper.locator("button.mg-next").click()
        page.wait_for_function(f"document.querySelector('.mg-stepper').dataset.step === '{k}'")
        assert "mg-current" in _classes(page, step.node_id)
        assert stepper.locator(".mg-panel h3").inner_text().startswith(step.name)
        panel = stepper.locator(".mg-panel").inner_text()
        for grad in step.grad_outputs:
            assert tensor_json(grad)["text"] in panel
    page.screenshot(path=str(jupyter_lab.log.parent / "notebook-2.png"))
    # Every exercise of the notebook passed in the browser too.
    assert page.locator(".jp-OutputArea-output:has-text('✔ Correct.')").count() == 4
