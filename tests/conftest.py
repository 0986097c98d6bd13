"""Shared test set-up: Agg plots, golden files, and what `torch` / `browser` tests require.

Markers (declared in pyproject.toml, enforced here before each test runs):

* ``torch``   -- needs PyTorch (the ``torch`` extra). Skipped without it; **fails** when ``CI`` is set.
* ``browser`` -- needs Chromium (Debian's ``/usr/bin/chromium``, or ``CHROMIUM_PATH``) and the
  Playwright Python package. Skipped without them; **fails** when ``CI`` is set, so that a CI
  machine that lost its browser cannot pass by skipping.

Fixtures: ``chromium_path``, ``browser_page`` (a Playwright page in headless Chromium),
``jupyter_lab`` (a JupyterLab server for browser tests), ``dot_path`` (the native Graphviz
``dot``), ``update_golden`` / ``golden`` (``--update-golden``), ``kernel_env`` (the environment
for a notebook kernel).
"""

from __future__ import annotations

import importlib.util
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest

# Before any test imports matplotlib: draw off-screen, the same on every machine.
os.environ["MPLBACKEND"] = "Agg"

ROOT = Path(__file__).resolve().parent.parent

# Flags for Chromium as root on a machine with no display and a closed network:
# without the background-networking ones it keeps trying to reach Google's hosts.
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def in_ci() -> bool:
    """True when the ``CI`` environment variable is set to something other than false."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def require(reason: str) -> NoReturn:
    """A missing requirement: a failure under CI, a skip elsewhere."""
    if in_ci():
        pytest.fail(f"{reason} (required because CI is set)", pytrace=False)
    pytest.skip(reason)


# ------------------------------------------------------------------ options and markers


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite golden files (e.g. tests/viz/golden/*.dot) from the current output, not compare",
    )


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("torch") is not None and importlib.util.find_spec("torch") is None:
        require("PyTorch is not installed (install the `torch` extra: pip install torch==2.13.0)")
    if item.get_closest_marker("browser") is not None:
        _find_chromium()  # skips or fails when there is none
        if importlib.util.find_spec("playwright") is None:
            require("the Playwright Python package is not installed (install the `test` extra)")


# ------------------------------------------------------------------ browser


def _find_chromium() -> str:
    candidates = [os.environ.get("CHROMIUM_PATH", ""), "/usr/bin/chromium"]
    candidates += [shutil.which(name) or "" for name in ("chromium", "chromium-browser")]
    for path in candidates:
        if path and os.access(path, os.X_OK):
            return path
    require("no Chromium at /usr/bin/chromium (Debian: apt-get install chromium; or set CHROMIUM_PATH)")


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """Path of the Chromium executable; skips (fails under CI) when there is none."""
    return _find_chromium()


@pytest.fixture(scope="session")
def _chromium(chromium_path: str) -> Iterator[Any]:
    if importlib.util.find_spec("playwright") is None:
        require("the Playwright Python package is not installed (install the `test` extra)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def browser_page(_chromium: Any) -> Iterator[Any]:
    """A fresh Playwright page in headless Chromium (Debian's; Playwright never downloads one)."""
    context = _chromium.new_context()
    try:
        yield context.new_page()
    finally:
        context.close()


# ------------------------------------------------------------------ Graphviz


@pytest.fixture
def dot_path() -> str:
    """Path of the native Graphviz ``dot``.

    Skips when ``VIZ_GRAPHVIZ_BACKEND=wasm`` (the run that hides native Graphviz), and when
    ``dot`` is missing -- except under CI, which installs Graphviz, where that fails.
    """
    if os.environ.get("VIZ_GRAPHVIZ_BACKEND", "").lower() == "wasm":
        pytest.skip("native Graphviz is hidden in this run (VIZ_GRAPHVIZ_BACKEND=wasm)")
    path = shutil.which("dot")
    if path is None:
        require("Graphviz `dot` is not on PATH (Debian: apt-get install graphviz)")
    return path


# ------------------------------------------------------------------ golden files


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    """True when pytest runs with ``--update-golden``."""
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture
def golden(update_golden: bool) -> Callable[[Path, str], None]:
    """``golden(path, text)``: compare ``text`` with the file, or rewrite it under ``--update-golden``."""

    def check(path: Path, text: str) -> None:
        if update_golden:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            return
        if not path.exists():
            pytest.fail(f"golden file {path} is missing; pytest --update-golden writes it", pytrace=False)
        expected = path.read_text(encoding="utf-8")
        assert text == expected, f"differs from {path} (pytest --update-golden rewrites it)"

    return check


# ------------------------------------------------------------------ notebooks


@pytest.fixture
def kernel_env() -> dict[str, str]:
    """Environment for a notebook kernel: ours, less MPLBACKEND=Agg.

    With Agg a kernel's ``plt.show()`` draws nothing and warns; without it ipykernel picks its
    inline backend, as in JupyterLab. Pass it on: ``NotebookClient(nb, ...).execute(env=kernel_env)``.
    """
    env = dict(os.environ)
    env.pop("MPLBACKEND", None)
    return env


# ------------------------------------------------------------------ JupyterLab


class JupyterLab:
    """A JupyterLab server for browser tests, on a free loopback port, killed at teardown.

    Put the notebooks (and what they import) into ``root``, then :meth:`run_all` opens one
    in a Playwright page and runs every cell, as a learner would with Run > Run All Cells.
    """

    #: Seconds to wait for the server, the kernel, and the notebook's last output.
    TIMEOUT = 120

    def __init__(self, tmp_path: Path) -> None:
        self.root = tmp_path / "lab"
        self.root.mkdir()
        self.log = tmp_path / "jupyter.log"
        self._dir = tmp_path
        self._base: str | None = None
        self._token = secrets.token_hex(16)
        self._proc: subprocess.Popen[bytes] | None = None

    def start(self) -> str:
        """Start the server (once) and return its base URL."""
        if self._base is not None:
            return self._base
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = int(sock.getsockname()[1])
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
        env["JUPYTER_CONFIG_DIR"] = str(self._dir / "config")        # no user settings leak in
        env["JUPYTERLAB_WORKSPACES_DIR"] = str(self._dir / "workspaces")
        env.pop("MPLBACKEND", None)
        with self.log.open("wb") as out:
            self._proc = subprocess.Popen(
                [sys.executable, "-m", "jupyter", "lab", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
                 f"--IdentityProvider.token={self._token}", f"--ServerApp.root_dir={self.root}",
                 "--allow-root", "--LabApp.news_url=",
                 "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
                 "--LabApp.extension_manager=readonly"],
                cwd=self.root, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        self._base = f"http://127.0.0.1:{port}"
        self._wait_until_up(f"{self._base}/api/status?token={self._token}")
        return self._base

    def _wait_until_up(self, url: str) -> None:
        assert self._proc is not None
        deadline = time.monotonic() + self.TIMEOUT
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                pytest.fail(f"jupyter lab exited with {self._proc.returncode}:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(url, timeout=2) as response:  # loopback only
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.5)
        pytest.fail(f"jupyter lab did not start in {self.TIMEOUT}s:\n{self.log_tail()}")

    def url(self, notebook: str) -> str:
        """The URL that opens ``notebook`` (a path under ``root``) in JupyterLab."""
        return f"{self.start()}/lab/tree/{notebook}?token={self._token}"

    def run_all(self, page: Any, notebook: str, done_text: str) -> None:
        """Open ``notebook``, wait for its kernel, Run All Cells, and wait until ``done_text`` is shown.

        On failure, a screenshot (``<notebook>-failure.png``) and the server log are kept.
        """
        page.set_default_timeout(60_000)
        page.set_viewport_size({"width": 1400, "height": 1000})
        page.goto(self.url(notebook))
        wait = self.TIMEOUT * 1000
        try:
            page.wait_for_selector(".jp-NotebookPanel .jp-Cell", timeout=wait)
            # the kernel is up when the status bar says Idle; then Run All, through the menu bar
            page.wait_for_selector(".jp-StatusBar-TextItem:has-text('Idle')", timeout=wait)
            page.click(".jp-NotebookPanel .jp-CodeCell .jp-InputArea-editor")
            page.click(".lm-MenuBar-itemLabel:text-is('Run')")
            page.click(".lm-Menu-item:not(.lm-mod-disabled) .lm-Menu-itemLabel:text-is('Run All Cells')")
            page.wait_for_function(f"document.body.innerText.includes({done_text!r})", timeout=wait)
        except Exception:
            page.screenshot(path=str(self._dir / f"{Path(notebook).stem}-failure.png"))
            print(self.log_tail())
            raise

    def log_tail(self, chars: int = 4000) -> str:
        """The end of the server's log."""
        return self.log.read_text(errors="replace")[-chars:] if self.log.exists() else ""

    def stop(self) -> None:
        """Stop the server and its kernels (its own process group), politely first."""
        proc, self._proc = self._proc, None
        if proc is None or proc.poll() is not None:
            return
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


@pytest.fixture
def jupyter_lab(tmp_path: Path) -> Iterator[JupyterLab]:
    """A :class:`JupyterLab` serving ``tmp_path/lab`` (started on first use, stopped afterwards)."""
    pytest.importorskip("jupyterlab")
    lab = JupyterLab(tmp_path)
    try:
        yield lab
    finally:
        lab.stop()
