"""The offline HTML export in headless Chromium: Next moves the highlight and the panel numbers."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from viz.stepper import Stepper, frame, step_backward, tensor_json

pytestmark = pytest.mark.browser


def _stepper(minigrad: ModuleType, **options: Any) -> Stepper:
    a = minigrad.tensor(2.0, requires_grad=True)
    b = minigrad.tensor(3.0, requires_grad=True)
    return step_backward((a * b + a).sin(), params={"a": a, "b": b}, **options)


def _open(page: Any, path: Path) -> list[str]:
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
    page.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    page.on("dialog", lambda dialog: (problems.append(f"dialog: {dialog.message}"), dialog.dismiss()))
    page.on("request", lambda req: problems.append(f"request: {req.url}")
            if not req.url.startswith(("file:", "data:", "about:")) else None)
    page.goto(path.as_uri())
    page.wait_for_selector(".mg-stepper svg g.node", state="attached")
    return problems


def _classes(page: Any, node_id: str) -> list[str]:
    return page.eval_on_selector(f'.mg-stepper svg g[data-id="{node_id}"]', "el => Array.from(el.classList)")


def test_next_moves_the_highlight_and_the_panel(minigrad: ModuleType, browser_page: Any,
                                                tmp_path: Path) -> None:
    stepper = _stepper(minigrad)
    steps = stepper.steps
    path = stepper.save_html(tmp_path / "stepper.html")
    page = browser_page
    problems = _open(page, path)

    assert page.get_attribute(".mg-stepper", "data-step") == "0"
    assert "Before backward()" in page.inner_text(".mg-panel h3")

    page.click("button.mg-next")
    first = steps[0]
    assert "mg-current" in _classes(page, first.node_id)
    assert page.inner_text(".mg-panel h3").startswith(first.name)
    panel = page.inner_text(".mg-panel")
    assert first.chain_rule[0] in panel                   # the chain rule with the numbers
    assert first.chain_rule[0].startswith("∂L/∂(a*b + a) = ∂L/∂L · cos(a*b + a) = 1 · cos(")
    assert tensor_json(first.grad_outputs[0])["text"] in panel
    assert tensor_json(first.grad_inputs[0])["text"] in panel
    labels = page.eval_on_selector_all(".mg-grad-label text", "els => els.map(e => e.textContent)")
    assert labels == [tensor_json(first.grad_inputs[0])["short"]]

    page.keyboard.press("ArrowRight")                      # the keyboard works too
    second = steps[1]
    assert page.get_attribute(".mg-stepper", "data-step") == "2"
    assert "mg-current" in _classes(page, second.node_id)
    assert "mg-done" in _classes(page, first.node_id)
    panel = page.inner_text(".mg-panel")
    assert page.inner_text(".mg-panel h3").startswith(second.name)
    for grad in second.grad_inputs:
        assert tensor_json(grad)["text"] in panel

    page.click("button.mg-last")                           # the end: accumulation and freed buffers
    last = steps[-1]
    assert last.name == "AccumulateGrad"
    panel = page.inner_text(".mg-panel")
    assert "not computed yet" in panel
    assert tensor_json(last.grad_after)["text"] in panel
    assert "FREED BUFFERS" in panel.upper()
    for node_id in stepper.passes[0].released:
        assert "mg-freed" in _classes(page, node_id)

    page.click("button.mg-prev")
    assert page.get_attribute(".mg-stepper", "data-step") == str(len(steps) - 1)
    page.eval_on_selector("input.mg-slider",
                          "el => { el.value = '1'; el.dispatchEvent(new Event('input')); }")
    assert page.get_attribute(".mg-stepper", "data-step") == "1"
    assert problems == []


def test_click_a_node_shows_the_embedded_summary(minigrad: ModuleType, browser_page: Any,
                                                 tmp_path: Path) -> None:
    stepper = _stepper(minigrad)
    path = stepper.save_html(tmp_path / "stepper.html")
    page = browser_page
    problems = _open(page, path)
    leaf = next(n for n in stepper.snapshot.nodes if n.kind == "acc" and n.tensor.name == "b")
    page.click(f'.mg-stepper svg g[data-id="{leaf.id}"]')
    panel = page.inner_text(".mg-inspector")
    assert "inspect AccumulateGrad (b)".upper() in panel.upper()
    assert leaf.id not in panel                            # no internal ids for a learner
    assert "not computed yet" in panel                     # before any step: as the graph says
    assert "mg-selected" in _classes(page, leaf.id)
    assert problems == []


def test_play_runs_to_the_end(minigrad: ModuleType, browser_page: Any, tmp_path: Path) -> None:
    stepper = _stepper(minigrad)
    page = browser_page
    _open(page, stepper.save_html(tmp_path / "stepper.html"))
    page.select_option("select.mg-speed", "8")
    page.click("button.mg-play")
    page.wait_for_function(f"document.querySelector('.mg-stepper').dataset.step === '{len(stepper.steps)}'",
                           timeout=10_000)
    assert page.inner_text("button.mg-play").endswith("play")


def test_hostile_names_stay_text(minigrad: ModuleType, browser_page: Any, tmp_path: Path) -> None:
    x = minigrad.tensor(2.0, requires_grad=True)
    evil = '<img src=x onerror=alert(1)></script><b>bold</b>'
    stepper = step_backward(x * x, params={evil: x})
    page = browser_page
    problems = _open(page, stepper.save_html(tmp_path / "evil.html"))
    page.click("button.mg-last")
    assert evil in page.inner_text(".mg-panel")
    assert page.query_selector(".mg-panel img, .mg-panel b") is None
    assert problems == []


def test_error_shows_in_the_panel(minigrad: ModuleType, browser_page: Any, tmp_path: Path) -> None:
    stepper = step_backward(minigrad.tensor([1.0, 2.0], requires_grad=True) * 2, on_error="show")
    page = browser_page
    _open(page, stepper.save_html(tmp_path / "error.html"))
    assert "grad can be implicitly created only for scalar outputs" in page.inner_text(".mg-errorbox")


# ------------------------------------------------------------------ incremental frames


def _wide_graph(minigrad: ModuleType, blocks: int) -> Any:
    """A residual tanh network: ~4 nodes per block, fan-out everywhere (as the benchmark's)."""
    h = minigrad.tensor([0.5, -0.25], requires_grad=True)
    for i in range(blocks):
        w = minigrad.tensor([0.9 + 0.001 * i, 1.1 - 0.001 * i], requires_grad=True)
        h = (h * w).tanh() + h
    return h.sum()


def _steppers(minigrad: ModuleType, case: str) -> Stepper:
    if case == "big":                                      # big jumps exceed one frame's writes
        return step_backward(_wide_graph(minigrad, 110))
    if case == "passes":                                   # accumulation, then the freed-graph error
        stepper = step_backward(_wide_graph(minigrad, 6), retain_graph=True)
        stepper.backward_again()
        stepper.backward_again(raise_error=False)
        return stepper
    x = minigrad.tensor(1.5, requires_grad=True)           # create_graph: nodes are born late
    return step_backward((x ** 3).sin(), create_graph=True)


_DOM_FRAME = """() => {
    const out = {nodes: {}, edges: {}};
    document.querySelectorAll(".mg-svg g.node[data-id]").forEach((g) => {
        const c = Array.from(g.classList).filter((x) => x.startsWith("mg-")).sort();
        if (c.length) out.nodes[g.dataset.id] = c;
    });
    document.querySelectorAll(".mg-svg g.edge[data-id]").forEach((g) => {
        const c = Array.from(g.classList).filter((x) => x === "mg-flow" || x === "mg-flowed");
        if (c.length) out.edges[g.dataset.id] = c[0];
    });
    return out;
}"""


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True:UserWarning")
@pytest.mark.parametrize("case", ["big", "passes", "create_graph"])
def test_jumps_paint_what_python_computes(minigrad: ModuleType, browser_page: Any, tmp_path: Path,
                                         case: str) -> None:
    stepper = _steppers(minigrad, case)
    state = stepper.state()
    n = len(state["steps"])
    page = browser_page
    problems = _open(page, stepper.save_html(tmp_path / f"{case}.html"))
    for k in dict.fromkeys([n, 0, n // 2, 1, n - 1, 2, n, n // 3, 0, n // 2 + 1, n // 2]):
        page.evaluate(f"window.mgStepper.model.set('step', {k})")
        if k:  # the running node is painted at once, whatever else is still queued
            current = state["steps"][k - 1]["node_id"]
            assert "mg-current" in _classes(page, current)
        page.wait_for_function("document.querySelector('.mg-stepper').dataset.settled === 'true'")
        expected = frame(state, k)
        dom = page.evaluate(_DOM_FRAME)
        assert dom["nodes"] == {i: sorted(c.split()) for i, c in expected["nodes"].items() if c}, k
        assert dom["edges"] == {i: cls for i, (cls, _) in expected["edges"].items()}, k
    assert problems == []
