"""The course notebooks: each runs top to bottom in a fresh kernel; each .ipynb is a clean copy of its .py.

Run only these with ``pytest -m notebooks``. CI runs them twice: with native Graphviz, and with it
hidden (``VIZ_GRAPHVIZ_BACKEND=wasm``), where every diagram is laid out by the WebAssembly build.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
SOURCES = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.py"))
#: The Chinese edition (notebooks/zh, the zh helper's): stored and run like the English one.
ZH_SOURCES = sorted((NOTEBOOKS / "zh").glob("[0-9][0-9]_*.py"))
#: Per notebook (CI's limit); each takes well under a minute.
TIMEOUT = 120

pytestmark = pytest.mark.notebooks


def _id(path: Path) -> str:
    return path.stem if path.parent == NOTEBOOKS else f"{path.parent.name}-{path.stem}"


def _code(source: str) -> str:
    """Cell source without IPython magics, for the static checks."""
    return "\n".join(line for line in source.splitlines() if not line.lstrip().startswith(("%", "!")))


# ------------------------------------------------------------------ the course is complete


def test_twelve_numbered_notebooks() -> None:
    numbers = [p.name[:2] for p in SOURCES]
    assert numbers == [f"{n:02d}" for n in range(1, 13)], numbers
    for source in SOURCES:
        assert source.with_suffix(".ipynb").exists(), f"{source.name} has no .ipynb (jupytext --to ipynb)"
    assert (NOTEBOOKS / "README.md").exists()
    assert (NOTEBOOKS / "ANSWERS.md").exists()


@pytest.mark.parametrize("source", SOURCES, ids=_id)
def test_notebook_has_the_course_ingredients(source: Path) -> None:
    text = source.read_text(encoding="utf-8")
    assert "import minigrad as torch" in text
    assert re.search(r"^import viz$", text, re.M)
    assert "# EXERCISE:" in text, "each notebook has at least one exercise"
    assert re.search(r"^check_\w+\(", text, re.M), "each exercise ends in a self-check"
    assert "The same in PyTorch" in text
    assert re.search(r"viz\.(draw|step_backward|live|plots|demos)", text), "a picture or a stepper"
    assert re.search(r"^# \*About \d+ minutes\.\*$", text, re.M), "the class time is stated"


def test_every_exercise_is_in_answers_md() -> None:
    answers = (NOTEBOOKS / "ANSWERS.md").read_text(encoding="utf-8")
    for source in SOURCES:
        checks = re.findall(r"^(check_\w+)\(", source.read_text(encoding="utf-8"), re.M)
        for check in checks:
            assert check in answers, f"{check} ({source.name}) is not covered in ANSWERS.md"


# ------------------------------------------------------------------ stored clean and paired


@pytest.mark.parametrize("source", SOURCES + ZH_SOURCES, ids=_id)
def test_ipynb_is_clean_and_matches_its_py(source: Path) -> None:
    jupytext = pytest.importorskip("jupytext")
    nbformat = pytest.importorskip("nbformat")
    ipynb = source.with_suffix(".ipynb")
    stored = nbformat.read(ipynb, as_version=4)
    for index, cell in enumerate(stored.cells):
        if cell.cell_type == "code":
            assert cell.outputs == [], f"{ipynb.name} cell {index} has outputs: clear them"
            assert cell.execution_count is None, f"{ipynb.name} cell {index} has an execution count"
    assert "widgets" not in stored.metadata, f"{ipynb.name} stores widget state: clear it"
    assert stored.metadata.get("jupytext", {}).get("formats") == "ipynb,py:percent"
    assert stored.metadata.get("kernelspec", {}).get("name") == "python3"

    paired = jupytext.read(source)
    cells = [(c.cell_type, c.source) for c in stored.cells]
    assert [(c.cell_type, c.source) for c in paired.cells] == cells, (
        f"{ipynb.name} and {source.name} differ: edit the .py, then "
        "`jupytext --sync notebooks/[0-9][0-9]_*.py`")


# ------------------------------------------------------------------ every notebook runs


def _on_pytorch(source: str) -> str:
    """The same cell with PyTorch in place of minigrad (``minigrad.nn`` -> ``torch.nn``, ...)."""
    source = source.replace("import minigrad as torch", "import torch")
    return re.sub(r"^(import|from) minigrad\b", r"\1 torch", source, flags=re.M)


@pytest.mark.slow
@pytest.mark.parametrize("library", ["minigrad", pytest.param("torch", marks=pytest.mark.torch)])
@pytest.mark.parametrize("source", SOURCES + ZH_SOURCES, ids=_id)
def test_notebook_runs_top_to_bottom(source: Path, library: str, kernel_env: dict[str, str]) -> None:
    """Every cell runs and every self-check passes; with ``torch``, on real PyTorch instead of minigrad.

    The PyTorch run backs the notebooks' "The same in PyTorch" notes: the same cells, the same
    self-checks, only the import changed.
    """
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    notebook = nbformat.read(source.with_suffix(".ipynb"), as_version=4)
    if library == "torch":
        pytest.importorskip("torch")
        for cell in notebook.cells:
            if cell.cell_type == "code":
                cell.source = _on_pytorch(cell.source)
    env = dict(kernel_env)
    # The checkout first, so the kernel imports this minigrad and viz even without an install.
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    if library == "torch":
        # one intra-op thread: on a shared 2-core machine PyTorch's thread pool only contends with the
        # other processes (the notebooks' tensors are tiny)
        env.setdefault("OMP_NUM_THREADS", "1")
    client = nbclient.NotebookClient(notebook, timeout=TIMEOUT, kernel_name="python3",
                                     resources={"metadata": {"path": str(source.parent)}})
    start = time.monotonic()
    client.execute(env=env)          # raises CellExecutionError (with the traceback) on any error
    elapsed = time.monotonic() - start
    assert elapsed < TIMEOUT, f"{source.stem} took {elapsed:.0f} s (limit {TIMEOUT} s)"

    outputs = [out for cell in notebook.cells if cell.cell_type == "code" for out in cell.outputs]
    assert not [out for out in outputs if out.output_type == "error"]
    text = "".join(out.get("text", "") for out in outputs if out.output_type == "stream")
    n_checks = len(re.findall(r"^check_\w+\(", source.read_text(encoding="utf-8"), re.M))
    # the checks answer in the notebook's language (viz.set_language("zh") in the Chinese edition)
    correct = "✔ 正确。" if source.parent.name == "zh" else "✔ Correct."
    assert text.count(correct) == n_checks, "every self-check passes with the intended answers"
