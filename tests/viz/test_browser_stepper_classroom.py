"""The stepper as a class meets it, in headless Chromium (the offline HTML): notebook 2's example.

The chain rule with the learner's numbers in the panel, predict-then-reveal, text at the
running node readable on a 1024×768 projector, an inspector that agrees with the graph,
texts without internal ids, unique element ids, and the Chinese string table.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import viz
from viz.stepper import Stepper, step_backward

pytestmark = pytest.mark.browser


def notebook2(minigrad: ModuleType, **options: Any) -> Stepper:
    """Notebook 2's example: e = a·b, d = e + c, L = d·f with a=2, b=−3, c=10, f=−2."""
    a = minigrad.tensor(2.0, requires_grad=True)
    b = minigrad.tensor(-3.0, requires_grad=True)
    c = minigrad.tensor(10.0, requires_grad=True)
    f = minigrad.tensor(-2.0, requires_grad=True)
    e = a * b
    d = e + c
    L = d * f
    return step_backward(L, params={"a": a, "b": b, "c": c, "f": f, "e": e, "d": d, "L": L}, **options)


def _open(page: Any, path: Path, width: int = 1280, height: int = 900) -> list[str]:
    problems: list[str] = []
    page.set_viewport_size({"width": width, "height": height})
    page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
    page.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    page.goto(path.as_uri())
    page.wait_for_selector(".mg-stepper svg g.node", state="attached")
    return problems


def _step(page: Any) -> int:
    return int(page.get_attribute(".mg-stepper", "data-step"))


@pytest.fixture
def english() -> Iterator[None]:
    yield
    viz.set_language("en")


def test_panel_shows_the_chain_rule_with_the_numbers(minigrad: ModuleType, browser_page: Any,
                                                      tmp_path: Path) -> None:
    stepper = notebook2(minigrad)
    assert stepper.steps[0].chain_rule == ("∂L/∂d = ∂L/∂L · f = 1 · (−2) = −2", "∂L/∂f = ∂L/∂L · d = 1 · 4 = 4")
    page = browser_page
    problems = _open(page, stepper.save_html(tmp_path / "nb2.html"))
    page.click("button.mg-next")
    lines = page.eval_on_selector_all(".mg-panel .mg-chain", "els => els.map(e => e.textContent)")
    assert any("1 · (−2) = −2" in line for line in lines), lines
    assert "∂L/∂d = ∂L/∂L · f = 1 · (−2) = −2" in lines
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")                       # step 5: the MulBackward0 of e = a·b
    page.keyboard.press("ArrowLeft")
    assert _step(page) == 5
    panel = page.inner_text(".mg-panel")
    assert "∂L/∂a = ∂L/∂e · b = (−2) · (−3) = 6" in panel
    # no internal ids anywhere a learner reads (panel, tooltips, toolbar)
    texts = page.evaluate("""() => [document.querySelector('.mg-panel').innerText,
        ...Array.from(document.querySelectorAll('.mg-stepper [title]')).map(e => e.title)]""")
    assert not [t for t in texts if re.search(r"\bn\d+\b", t)]
    assert problems == []


def test_predict_mode_accepts_a_right_value_and_rejects_a_wrong_one(minigrad: ModuleType, browser_page: Any,
                                                                     tmp_path: Path) -> None:
    stepper = notebook2(minigrad, predict=True)
    page = browser_page
    problems = _open(page, stepper.save_html(tmp_path / "predict.html"))
    page.click("button.mg-next")
    panel = page.inner_text(".mg-panel")
    assert "−2" not in panel.split("LOCAL DERIVATIVE")[0]          # hidden until predicted
    assert page.eval_on_selector_all(".mg-grad-label text", "els => els.map(e => e.textContent)") == ["?", "?"]
    guesses = page.query_selector_all(".mg-panel input.mg-guess")
    assert len(guesses) == 2
    guesses[0].fill("2")                                           # ∂L/∂d is −2: the sign is wrong
    guesses[0].press("Enter")
    feedback = page.inner_text(".mg-panel .mg-feedback")
    assert "wrong sign" in feedback
    assert "∂L/∂d = ∂L/∂L · f = 1 · (−2) = −2" not in page.inner_text(".mg-panel")
    page.fill(".mg-panel input.mg-guess >> nth=0", "7")
    page.press(".mg-panel input.mg-guess >> nth=0", "Enter")
    assert "Not quite" in page.inner_text(".mg-panel .mg-feedback")
    page.fill(".mg-panel input.mg-guess >> nth=0", "−2.0")       # Unicode minus, within the tolerance
    page.click(".mg-panel button.mg-check >> nth=0")
    panel = page.inner_text(".mg-panel")
    assert "∂L/∂d = ∂L/∂L · f = 1 · (−2) = −2" in panel
    assert "✓" in panel
    page.click(".mg-panel button.mg-reveal")                      # the other one: revealed
    assert "∂L/∂f = ∂L/∂L · d = 1 · 4 = 4" in page.inner_text(".mg-panel")
    assert page.eval_on_selector_all(".mg-grad-label text", "els => els.map(e => e.textContent)") == ["-2", "4"]
    page.click("button.mg-last")
    assert "Score: 1 of 6 predicted right (1 revealed)" in page.inner_text(".mg-panel .mg-score")
    assert problems == []


def test_projector_text_is_large_at_the_running_node(minigrad: ModuleType, browser_page: Any,
                                                     tmp_path: Path) -> None:
    stepper = notebook2(minigrad, presentation=True)
    page = browser_page
    problems = _open(page, stepper.save_html(tmp_path / "projector.html"), 1024, 768)
    buttons = page.eval_on_selector_all(".mg-toolbar > *", "els => els.filter(e => e.offsetParent)"
                                        ".map(e => Math.round(e.getBoundingClientRect().top))")
    assert max(buttons) - min(buttons) < 12                        # the toolbar is one row
    for k in range(1, len(stepper.steps) + 1):
        page.keyboard.press("ArrowRight")
        current = page.get_attribute(".mg-stepper", "data-current")
        sizes = page.eval_on_selector_all(
            f'.mg-svg g.node[data-id="{current}"] text',
            "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.height, r.top, r.bottom]; })")
        pane = page.eval_on_selector(".mg-graph", "e => [e.getBoundingClientRect().top,"
                                                  " e.getBoundingClientRect().bottom]")
        assert min(h for h, _, _ in sizes) >= 18, (k, sizes)
        assert all(pane[0] <= top and bottom <= pane[1] + 1 for _, top, bottom in sizes), (k, sizes, pane)
    page.click("button.mg-fit")                                    # fit: back on the running node
    assert problems == []


def test_nothing_cut_off_at_1366x768(minigrad: ModuleType, browser_page: Any, tmp_path: Path) -> None:
    stepper = notebook2(minigrad, presentation=True)
    page = browser_page
    problems = _open(page, stepper.save_html(tmp_path / "wide.html"), 1366, 768)
    page.click("button.mg-next")
    box = page.eval_on_selector(".mg-stepper", "e => e.getBoundingClientRect().toJSON()")
    assert box["right"] <= 1366
    assert box["bottom"] <= 768
    assert "∂L/∂d = ∂L/∂L · f = 1 · (−2) = −2" in page.inner_text(".mg-panel")
    assert problems == []


def test_wheel_zooms_and_drag_pans(minigrad: ModuleType, browser_page: Any, tmp_path: Path) -> None:
    page = browser_page
    problems = _open(page, notebook2(minigrad).save_html(tmp_path / "zoom.html"))
    before = float(page.get_attribute(".mg-stepper", "data-zoom"))
    page.focus(".mg-stepper")
    page.mouse.move(300, 300)
    page.mouse.wheel(0, -400)
    after = float(page.get_attribute(".mg-stepper", "data-zoom"))
    assert after > before * 1.3
    view = page.get_attribute(".mg-svg", "viewBox")
    page.mouse.down()
    page.mouse.move(360, 340, steps=4)
    page.mouse.up()
    assert page.get_attribute(".mg-svg", "viewBox") != view
    page.click("button.mg-fit")
    assert float(page.get_attribute(".mg-stepper", "data-zoom")) == pytest.approx(before, rel=1e-3)
    assert problems == []


def test_inspector_agrees_with_the_graph_and_shows_what_was_saved(minigrad: ModuleType, browser_page: Any,
                                                                  tmp_path: Path) -> None:
    stepper = notebook2(minigrad)
    ids = {n.tensor.name: n.id for n in stepper.snapshot.nodes if n.kind == "acc"}
    mul_e = next(n.id for n in stepper.snapshot.nodes if n.kind == "fn" and n.tensor and n.tensor.name == "e")
    page = browser_page
    problems = _open(page, stepper.save_html(tmp_path / "inspect.html"))
    page.click("button.mg-next")
    page.click(f'.mg-svg g[data-id="{ids["a"]}"]')
    inspector = page.inner_text(".mg-inspector")
    leaf_text = page.eval_on_selector(f'.mg-svg g[data-id="{ids["a"]}"]',
                                      "g => Array.from(g.querySelectorAll('text')).map(t => t.textContent).join('|')")
    assert "not computed yet" in inspector
    assert "grad: not computed yet" in leaf_text
    page.click("button.mg-last")
    inspector = page.inner_text(".mg-inspector")
    assert re.search(r"\.grad at this step\s+6\b", inspector), inspector
    assert "grad: 6" in page.eval_on_selector(f'.mg-svg g[data-id="{ids["a"]}"]', "g => g.textContent")
    # the inspector sits on the graph, in view, not under the panel
    box = page.eval_on_selector(".mg-inspector", "e => e.getBoundingClientRect().toJSON()")
    assert box["top"] < 300
    # a node's saved values, as it saved them when it ran, and when backward freed them
    page.click(f'.mg-svg g[data-id="{mul_e}"]')
    inspector = page.inner_text(".mg-inspector")
    assert re.search(r"other\s+-3", inspector)
    assert re.search(r"self\s+2", inspector)
    e_step = next(s.index for s in stepper.steps if s.node_id == mul_e)
    page.evaluate(f"window.mgStepper.model.set('step', {e_step + 1})")
    assert "freed after this step" in page.inner_text(".mg-inspector")
    page.evaluate(f"window.mgStepper.model.set('step', {e_step})")
    assert "not run yet" in page.inner_text(".mg-inspector")
    page.click(".mg-inspector button.mg-close")
    assert page.is_hidden(".mg-inspector")
    assert problems == []


def test_two_steppers_on_one_page_have_unique_ids(minigrad: ModuleType, browser_page: Any,
                                                  tmp_path: Path) -> None:
    stepper = notebook2(minigrad)
    page = browser_page
    problems = _open(page, stepper.save_html(tmp_path / "two.html"))
    page.evaluate("""async () => {
        const src = document.querySelector('script[type=module]').textContent.split('\\nconst mgState')[0];
        const url = URL.createObjectURL(new Blob([src], {type: 'text/javascript'}));
        const mod = await import(url);
        const el = document.createElement('div'); document.body.appendChild(el);
        mod.mountStandalone(el, JSON.parse(document.getElementById('mg-state').textContent));
    }""")
    assert page.eval_on_selector_all(".mg-stepper", "els => els.length") == 2
    ids = page.eval_on_selector_all("[id]", "els => els.map(e => e.id)")
    assert len(ids) == len(set(ids))
    assert problems == []


def test_chinese_strings(minigrad: ModuleType, browser_page: Any, tmp_path: Path, english: None) -> None:
    viz.set_language("zh")
    stepper = notebook2(minigrad)
    page = browser_page
    problems = _open(page, stepper.save_html(tmp_path / "zh.html"))
    assert "backward() 之前" in page.inner_text(".mg-panel h3")
    assert "正在执行" in page.inner_text(".mg-key")
    page.click("button.mg-next")
    panel = page.inner_text(".mg-panel")
    assert "链式法则" in panel
    assert "∂L/∂d = ∂L/∂L · f = 1 · (−2) = −2" in panel
    assert "第 1 / 7 步" in page.inner_text(".mg-counter")
    assert problems == []


def test_tooltips_and_svg_frames_have_no_internal_ids(minigrad: ModuleType, browser_page: Any,
                                                      tmp_path: Path) -> None:
    stepper = notebook2(minigrad)
    page = browser_page
    problems = _open(page, stepper.save_html(tmp_path / "titles.html"))
    titles = page.eval_on_selector_all(".mg-svg title", "els => els.map(e => e.textContent)")
    assert titles
    assert not [text for text in titles if re.search(r"\bn\d+\b", text)], titles
    assert "MulBackward0 (e)" in titles
    assert "AccumulateGrad (a) → MulBackward0 (e)" in titles
    frame = stepper.save_svg(tmp_path / "frame.svg", step=1).read_text(encoding="utf-8")
    assert not re.search(r"<title>[^<]*\bn\d+\b", frame)
    assert problems == []


def test_dark_theme_follows_the_system_in_the_offline_html(minigrad: ModuleType, browser_page: Any,
                                                           tmp_path: Path) -> None:
    page = browser_page
    page.emulate_media(color_scheme="dark")
    problems = _open(page, notebook2(minigrad).save_html(tmp_path / "dark.html"))
    background = page.eval_on_selector(".mg-stepper", "e => getComputedStyle(e).backgroundColor")
    assert background == "rgb(13, 17, 23)"
    assert "invert" in page.eval_on_selector(".mg-svg", "e => getComputedStyle(e).filter")
    page.emulate_media(color_scheme="light")
    assert page.eval_on_selector(".mg-stepper", "e => getComputedStyle(e).backgroundColor") == "rgb(255, 255, 255)"
    assert problems == []
