"""``make site``: the course as static HTML, opened from file:// in Chromium with zero network requests.

Builds a subset (notebook 2, which has two steppers and graphs) to keep CI time sane; the full build
is the same code per notebook.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"

pytestmark = [pytest.mark.notebooks, pytest.mark.slow]


@pytest.fixture(scope="module")
def site(site_tool: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Any]]:
    for package in ("nbclient", "nbconvert", "jupytext", "ipykernel"):
        pytest.importorskip(package)
    out = tmp_path_factory.mktemp("site")
    pages = site_tool.build(out, only=["02_"], quiet=True)
    return out, pages


def test_the_site_has_pages_steppers_and_svg(site: tuple[Path, list[Any]]) -> None:
    out, pages = site
    assert [p.name for p in pages if p.language == "en"] == ["02_chain_rule"]
    if (NOTEBOOKS / "zh" / "02_chain_rule.py").exists():         # the Chinese edition, built alongside
        assert [p.name for p in pages if p.language == "zh"] == ["02_chain_rule"]
        zh_page = (out / "zh" / "02_chain_rule.html").read_text(encoding="utf-8")
        assert zh_page.count('class="course-stepper"') == 2
        assert "链式法则" in zh_page
    page = (out / "en" / "02_chain_rule.html").read_text(encoding="utf-8")
    assert page.count("<svg") + page.count("data:image/svg+xml") >= 2   # the two graphs, as SVG
    assert page.count('class="course-stepper"') == 2                 # the two steppers, embedded
    assert (out / "en" / "02_chain_rule" / "stepper-1.html").exists()
    assert "Learner edition" in page                                 # the default edition
    assert "return grad * node._saved_other.item()" not in page      # no solution on the site
    index = (out / "index.html").read_text(encoding="utf-8")
    assert 'href="en/02_chain_rule.html"' in index
    assert 'href="teacher/index.html"' in index                     # worksheets, slides, offline stepper
    assert (out / "teacher" / "worksheet.html").exists()
    assert (out / "teacher" / "slides" / "index.html").exists()
    assert not (out / "teacher" / "worksheet-key.html").exists()     # the key stays with the teacher
    for text in (page, index):
        assert not re.search(r"""<(script|link)[^>]+(src|href)=["']?https?://""", text)


def test_the_formulas_are_mathml_not_tex(site: tuple[Path, list[Any]]) -> None:
    """Notebook 2's formulas ($f'(x)$, the chain rule's fraction) are typeset by the browser: no MathJax."""
    pytest.importorskip("latex2mathml")
    out, _ = site
    for language in ("en", "zh"):
        path = out / language / "02_chain_rule.html"
        if not path.exists():
            continue
        page = path.read_text(encoding="utf-8")
        prose = re.sub(r"<(code|pre|script|style|annotation)\b.*?</\1>", "", page, flags=re.S)
        assert page.count("<math ") >= 10, language
        assert "<mfrac>" in page, language                          # \dfrac{\partial L}{\partial a}
        assert 'mathvariant="double-struck"' not in page, language   # Chromium ignores it: the letter ℝ itself
        assert not re.search(r"\$[^$<]*\\(dfrac|partial|cdot)", prose), f"TeX left on the {language} page"


@pytest.mark.browser
def test_the_site_opens_offline_and_its_stepper_steps(site: tuple[Path, list[Any]], browser_page: Any) -> None:
    out, _ = site
    page = browser_page
    requests: list[str] = []
    problems: list[str] = []
    page.on("request", lambda req: requests.append(req.url))
    page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
    page.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)

    page.goto((out / "index.html").as_uri())
    page.click("text=The chain rule")
    page.wait_for_load_state("load")
    assert page.url.endswith("/en/02_chain_rule.html")
    frame_element = page.wait_for_selector("iframe.course-stepper")
    frame_element.scroll_into_view_if_needed()
    frame = frame_element.content_frame()
    assert frame is not None
    frame.wait_for_selector(".mg-stepper svg g.node", state="attached")
    stepper = frame.locator(".mg-stepper").first
    assert stepper.get_attribute("data-step") == "0"
    stepper.click(position={"x": 5, "y": 5})                         # focus the player, as a reader would
    frame.locator(".mg-stepper").first.press("ArrowRight")
    frame.wait_for_function("document.querySelector('.mg-stepper').dataset.step === '1'")
    page.keyboard.press("ArrowRight")
    frame.wait_for_function("document.querySelector('.mg-stepper').dataset.step === '2'")

    if page.locator("math").count():                                # formulas: typeset MathML, drawn
        box = page.locator("math[display=block], math").first.bounding_box()
        assert box is not None
        assert box["width"] > 5
        assert box["height"] > 5

    network = [url for url in requests if not url.startswith(("file:", "data:", "about:", "blob:"))]
    assert network == [], f"the site made network requests: {network}"
    assert not problems, problems
