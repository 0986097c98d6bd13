"""Notebook 2 opened in a real JupyterLab (headless Chromium): Run All, then its stepper responds to Next."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.notebooks, pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
NOTEBOOK = "02_chain_rule.ipynb"
#: The last self-check of notebook 2: once it is printed, Run All has finished.
LAST_CHECK = "walking next_functions reaches every AccumulateGrad"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_for_server(url: str, proc: subprocess.Popen[bytes], log: Path, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            tail = log.read_text(errors="replace")[-3000:]
            pytest.fail(f"jupyter lab exited with {proc.returncode}:\n{tail}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:  # loopback only
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    pytest.fail(f"jupyter lab did not start in {timeout}s:\n{log.read_text(errors='replace')[-3000:]}")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop the server we started and its kernels (its own process group), politely first."""
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


@pytest.fixture
def lab_with_notebook_2(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """JupyterLab on a free loopback port, serving a copy of notebook 2 and course_checks.py."""
    pytest.importorskip("jupyterlab")
    work = tmp_path / "course"
    work.mkdir()
    shutil.copy(NOTEBOOKS / NOTEBOOK, work / NOTEBOOK)
    shutil.copy(NOTEBOOKS / "course_checks.py", work / "course_checks.py")
    port, token = _free_port(), secrets.token_hex(16)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    env["JUPYTER_CONFIG_DIR"] = str(tmp_path / "config")        # no user settings leak in
    env["JUPYTERLAB_WORKSPACES_DIR"] = str(tmp_path / "workspaces")
    env.pop("MPLBACKEND", None)
    log = tmp_path / "jupyter.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "jupyter", "lab", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
             f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={work}", "--allow-root",
             "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
             "--LabApp.extension_manager=readonly"],
            cwd=work, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}"
        _wait_for_server(f"{base}/api/status?token={token}", proc, log)
        yield f"{base}/lab/tree/{NOTEBOOK}?token={token}", log
    finally:
        _stop(proc)


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
    return page.eval_on_selector(f".mg-stepper svg g#{node_id}", "el => Array.from(el.classList)")


def test_notebook_2_stepper_responds_to_next(lab_with_notebook_2: tuple[str, Path],
                                             browser_page: Any) -> None:
    from viz.stepper import tensor_json

    expected = _expected_steps()
    url, log = lab_with_notebook_2
    page = browser_page
    page.set_default_timeout(60_000)
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(url)
    try:
        page.wait_for_selector(".jp-NotebookPanel .jp-Cell", timeout=90_000)
        page.wait_for_selector(".jp-StatusBar-TextItem:has-text('Idle')", timeout=90_000)
        page.click(".jp-NotebookPanel .jp-CodeCell .jp-InputArea-editor")
        page.click(".lm-MenuBar-itemLabel:text-is('Run')")
        page.click(".lm-Menu-item:not(.lm-mod-disabled) .lm-Menu-itemLabel:text-is('Run All Cells')")
        page.wait_for_selector(".mg-stepper svg g.node", state="attached", timeout=120_000)
        page.wait_for_function(f"document.body.innerText.includes({LAST_CHECK!r})", timeout=120_000)
    except Exception:
        page.screenshot(path=str(log.parent / "notebook-2-failure.png"))
        print(log.read_text(errors="replace")[-4000:])
        raise

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
    page.screenshot(path=str(log.parent / "notebook-2.png"))
    # Every exercise of the notebook passed in the browser too.
    assert page.locator(".jp-OutputArea-output:has-text('✔ Correct.')").count() == 3
