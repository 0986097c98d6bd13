"""The stepper widget in a real JupyterLab: Run All, click Next, the highlight and the panel follow."""

from __future__ import annotations

import os
import secrets
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

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]

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


@pytest.fixture
def jupyter_lab(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A JupyterLab server on a free loopback port, serving a temp folder; killed afterwards."""
    pytest.importorskip("jupyterlab")
    work = tmp_path / "lab"
    work.mkdir()
    _notebook(work / "stepper.ipynb")
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
        yield f"{base}/lab/tree/stepper.ipynb?token={token}", log
    finally:
        _stop(proc)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop the server and its kernels (its own process group), politely first."""
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


def _run_all(page: Any) -> None:
    """Run > Run All Cells, waiting until the menu item is enabled (a notebook has focus)."""
    page.click(".lm-MenuBar-itemLabel:text-is('Run')")
    page.click(".lm-Menu-item:not(.lm-mod-disabled) .lm-Menu-itemLabel:text-is('Run All Cells')")


def _classes(page: Any, node_id: str) -> list[str]:
    return page.eval_on_selector(f".mg-stepper svg g#{node_id}", "el => Array.from(el.classList)")


def test_stepper_in_jupyterlab(jupyter_lab: tuple[str, Path], browser_page: Any, minigrad: Any) -> None:
    from viz.stepper import step_backward, tensor_json

    a = minigrad.tensor(2.0, requires_grad=True)
    b = minigrad.tensor(3.0, requires_grad=True)
    expected = step_backward((a * b + a).sin(), params={"a": a, "b": b}).steps

    url, log = jupyter_lab
    page = browser_page
    page.set_default_timeout(60_000)
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(url)
    page.wait_for_selector(".jp-NotebookPanel .jp-Cell", timeout=90_000)
    page.wait_for_selector(".jp-NotebookPanel-toolbar", timeout=90_000)
    try:
        # the kernel is up when the status bar says Idle; then Run All, through the menu bar
        page.wait_for_selector(".jp-StatusBar-TextItem:has-text('Idle')", timeout=90_000)
        page.click(".jp-NotebookPanel .jp-Cell .jp-InputArea-editor")
        _run_all(page)
        page.wait_for_selector(".mg-stepper svg g.node", state="attached", timeout=120_000)
        page.wait_for_function("document.body.innerText.includes('expected [')", timeout=120_000)
    except Exception:
        page.screenshot(path=str(log.parent / "jupyterlab-failure.png"))
        print(log.read_text(errors="replace")[-4000:])
        raise

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
    page.screenshot(path=str(log.parent / "jupyterlab.png"))

    # click a leaf: the kernel answers with the live tensor (the round trip to Python)
    leaf = expected[-1].node_id
    page.click(f".mg-stepper svg g#{leaf}")
    page.wait_for_function("(() => { const text = document.querySelector('.mg-stepper .mg-panel').innerText;"
                           " return text.includes('variable grad') && !text.includes('as recorded'); })()")
    assert "mg-selected" in _classes(page, leaf)
    # the kernel printed the same steps the page shows
    printed = page.inner_text(".jp-Notebook")
    assert f"('{first.node_id}', '{first.name}')" in printed
