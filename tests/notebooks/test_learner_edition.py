"""The learner edition (``make learner``): every exercise blank, no answer left in, and it still runs.

The slow test executes every learner notebook with all its exercises open: the cells after an open
exercise run, and those that need its answer say in one line which exercise to finish first. CI runs
it with the teacher notebooks (``test_notebooks.py``).
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
SOURCES = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.py"))
TIMEOUT = 120


def _id(path: Path) -> str:
    return path.stem


@pytest.fixture(scope="module")
def learner(learner_tool: ModuleType) -> ModuleType:
    return learner_tool


@pytest.fixture(scope="module")
def edition(learner: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    pytest.importorskip("jupytext")
    out = tmp_path_factory.mktemp("learner")
    reports = learner.build(NOTEBOOKS, out, quiet=True)
    return out, {r.name: r for r in reports}


# ------------------------------------------------------------------ the rules, on small cells


def _blank(learner: ModuleType, source: str) -> tuple[str, Any]:
    report = learner.Report("test")
    return learner.blank_code(source, "test", report), report


def test_a_top_level_solution_becomes_name_equals_ellipsis(learner: ModuleType) -> None:
    code, report = _blank(learner, "x = 1\n# SOLUTION\nrows = [2]\nanswer = sum(rows)\n# END SOLUTION\ncheck(answer)")
    assert code == "x = 1\nanswer = ...\ncheck(answer)"
    assert report.solutions == 1
    assert report.removed == ["rows = [2]", "answer = sum(rows)"]


def test_a_prediction_dict_keeps_its_keys(learner: ModuleType) -> None:
    code, report = _blank(learner, '# PREDICTION\nanswer = {"a": (True, False), 0.5: 3}\n'
                                   '# END PREDICTION\ncheck(answer)')
    assert code == 'answer = {"a": ..., 0.5: ...}\ncheck(answer)'
    assert report.predictions == 1
    code, _ = _blank(learner, "# PREDICTION\nanswer = {-2.0: -3.0, 0.0: 1}\n# END PREDICTION")
    assert code == "answer = {-2.0: ..., 0.0: ...}"
    code, _ = _blank(learner, "# PREDICTION\nanswer = {name: 1 for name in 'ab'}\n# END PREDICTION")
    assert code == "answer = ..."


def test_a_solution_in_a_function_body_becomes_a_stub(learner: ModuleType) -> None:
    code, _ = _blank(learner, "def f(x):\n    # SOLUTION\n    y = x * 2\n    return y\n"
                              "    # END SOLUTION\n\n\ncheck(f)")
    assert code == "def f(x):\n    ...  # TODO: your code\n\n\ncheck(f)"


def test_stub_lines_replace_the_rule(learner: ModuleType) -> None:
    code, _ = _blank(learner, "def f(x):\n    # SOLUTION\n    # STUB: return ..., ...\n    return x, x\n"
                              "    # END SOLUTION")
    assert code == "def f(x):\n    return ..., ..."


@pytest.mark.parametrize(("source", "match"), [
    ("# SOLUTION\nx = 1", "never closed"),
    ("x = 1\n# END SOLUTION", "without a start"),
    ("# SOLUTION\nx = 1\n# END PREDICTION", "closed by"),
    ("# SOLUTION\n# SOLUTION\nx = 1\n# END SOLUTION", "opened twice"),
])
def test_broken_markers_are_an_error(learner: ModuleType, source: str, match: str) -> None:
    with pytest.raises(learner.MarkerError, match=match):
        _blank(learner, source)


def test_a_needs_cell_runs_once_its_exercise_is_solved(learner: ModuleType) -> None:
    report = learner.Report("test")
    code = learner.guard("# NEEDS: check_train_step (Exercise 2)\nfor i in range(2):\n    pass\nchart", "t", report)
    assert code.splitlines() == [
        "# NEEDS: check_train_step (Exercise 2)",
        "from course_checks import solved",
        "",
        "if solved('check_train_step', 'Exercise 2'):",
        "    for i in range(2):",
        "        pass",
        "    display(chart)",            # the cell's last value is still shown
    ]
    with pytest.raises(learner.MarkerError, match="first line"):
        learner.guard("x = 1\n# NEEDS: check_x (Exercise 1)", "t", report)


def test_markdown_answers_are_left_out(learner: ModuleType) -> None:
    report = learner.Report("test")
    text = learner.blank_markdown("Before\n<!-- SOLUTION -->\nThe answer is 42.\n<!-- END SOLUTION -->\nAfter",
                                  "t", report)
    assert text == "Before\nAfter"
    assert report.removed == ["The answer is 42."]


# ------------------------------------------------------------------ the whole edition


def test_every_exercise_is_marked(edition: tuple[Path, dict[str, Any]]) -> None:
    """Each check call in a teacher notebook follows a marked region (nothing is left solved)."""
    _, reports = edition
    for source in SOURCES:
        text = source.read_text(encoding="utf-8")
        cells = re.split(r"^# %%.*$", text, flags=re.M)
        for cell in cells:
            if re.search(r"^check_\w+\(", cell, re.M):
                assert re.search(r"^\s*# (SOLUTION|PREDICTION)$", cell, re.M), (
                    f"{source.name}: an exercise cell without a # SOLUTION / # PREDICTION region:\n{cell}")
        report = reports[source.stem]
        n_checks = len(re.findall(r"^check_\w+\(", text, re.M))
        assert report.solutions + report.predictions >= n_checks


def test_no_solution_leaks_into_the_learner_edition(edition: tuple[Path, dict[str, Any]]) -> None:
    nbformat = pytest.importorskip("nbformat")
    out, reports = edition
    for source in SOURCES:
        notebook = nbformat.read(out / f"{source.stem}.ipynb", as_version=4)
        learner_text = "\n".join(cell.source for cell in notebook.cells)
        # what the teacher notebook has outside its solution regions may appear; nothing else
        teacher_text = source.read_text(encoding="utf-8")
        outside = re.sub(r"# (SOLUTION|PREDICTION)\n.*?# END \1", "", teacher_text, flags=re.S)
        outside = re.sub(r"<!-- SOLUTION -->.*?<!-- END SOLUTION -->", "", outside, flags=re.S)
        leaked = [line for line in reports[source.stem].removed
                  if len(line) > 12 and line in learner_text and line not in outside]
        assert not leaked, f"{source.name}: solution lines in the learner edition: {leaked}"
        assert "# SOLUTION" not in learner_text
        assert "# PREDICTION" not in learner_text
        assert "<!-- SOLUTION" not in learner_text
    assert not (out / "ANSWERS.md").exists()
    assert (out / "course_checks.py").exists()
    assert (out / "README.md").exists()
    readme = (out / "README.md").read_text(encoding="utf-8")
    assert "teacher" not in readme.lower().replace("teacher's notebooks", "")


def test_learner_notebooks_are_clean(edition: tuple[Path, dict[str, Any]]) -> None:
    nbformat = pytest.importorskip("nbformat")
    out, _ = edition
    for source in SOURCES:
        notebook = nbformat.read(out / f"{source.stem}.ipynb", as_version=4)
        nbformat.validate(notebook)
        assert "jupytext" not in notebook.metadata          # no .py pair created next to a learner's copy
        assert all(cell.get("outputs", []) == [] for cell in notebook.cells if cell.cell_type == "code")
        assert notebook.cells[1].source.startswith("> **Learner edition.**")


def test_a_learners_edited_notebook_is_kept(learner: ModuleType, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("jupytext")
    learner.build(NOTEBOOKS, tmp_path, quiet=True)
    mine = tmp_path / "01_tensors_and_requires_grad.ipynb"
    mine.write_text(mine.read_text(encoding="utf-8").replace("answer = {", "answer = {  # my work\n"),
                    encoding="utf-8")
    edited = mine.read_text(encoding="utf-8")
    learner.build(NOTEBOOKS, tmp_path)
    assert mine.read_text(encoding="utf-8") == edited
    assert "kept 01_tensors_and_requires_grad.ipynb" in capsys.readouterr().out
    learner.build(NOTEBOOKS, tmp_path, force=True, quiet=True)
    assert "# my work" not in mine.read_text(encoding="utf-8")


# ------------------------------------------------------------------ every learner notebook runs


@pytest.mark.notebooks
@pytest.mark.slow
@pytest.mark.parametrize("source", SOURCES, ids=_id)
def test_learner_notebook_runs_with_every_exercise_open(source: Path, edition: tuple[Path, dict[str, Any]],
                                                        kernel_env: dict[str, str]) -> None:
    """Run All on the learner edition: no error; each open exercise and each guarded cell says so in one line."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    out, reports = edition
    notebook = nbformat.read(out / f"{source.stem}.ipynb", as_version=4)
    env = dict(kernel_env)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    client = nbclient.NotebookClient(notebook, timeout=TIMEOUT, kernel_name="python3", allow_errors=True,
                                     resources={"metadata": {"path": str(out)}})
    start = time.monotonic()
    client.execute(env=env)
    elapsed = time.monotonic() - start
    assert elapsed < TIMEOUT, f"{source.stem} took {elapsed:.0f} s (limit {TIMEOUT} s)"

    errors = [(index, output) for index, cell in enumerate(notebook.cells) if cell.cell_type == "code"
              for output in cell.outputs if output.output_type == "error"]
    # the checks' own verdicts (CheckFailed, one line) are the only errors allowed; none is expected
    # with every exercise blank, since an open exercise prints instead of raising
    unexpected = [(i, o.ename, o.evalue) for i, o in errors if o.ename != "CheckFailed"]
    assert not unexpected, f"{source.stem}: errors in the learner edition: {unexpected}"
    assert not errors

    checks = re.findall(r"^check_\w+\(", source.read_text(encoding="utf-8"), re.M)
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        text = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
        if re.search(r"^check_\w+\(", cell.source, re.M):
            assert text.count("✎ Still open") == 1, f"{source.stem}: an open exercise must say so:\n{cell.source}"
            assert "✔ Correct." not in text
        if cell.source.startswith("# NEEDS:"):
            lines = [line for line in text.splitlines() if line.strip()]
            assert len(lines) == 1, f"{source.stem}: a guarded cell prints one line, got {lines}"
            assert lines[0].startswith("⏸ This cell needs"), lines
    assert sum(1 for _ in checks) == sum(
        "".join(o.get("text", "") for o in c.outputs if o.output_type == "stream").count("✎ Still open")
        for c in notebook.cells if c.cell_type == "code")
    assert len(reports[source.stem].guarded) == sum(1 for c in notebook.cells if c.source.startswith("# NEEDS:"))


@pytest.mark.notebooks
@pytest.mark.slow
def test_a_wrong_answer_shows_one_line_in_a_kernel(tmp_path: Path, kernel_env: dict[str, str]) -> None:
    """In a notebook a failed check is one red line (no traceback); Python sees an AssertionError."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    (tmp_path / "course_checks.py").write_bytes((NOTEBOOKS / "course_checks.py").read_bytes())
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("from course_checks import check_accumulated_grad"),
        nbformat.v4.new_code_cell("check_accumulated_grad(6.0)"),
        nbformat.v4.new_code_cell("try:\n    check_accumulated_grad(5.0)\nexcept AssertionError as e:\n"
                                  "    print('caught:', type(e).__name__)"),
    ])
    env = dict(kernel_env)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    nbclient.NotebookClient(notebook, timeout=TIMEOUT, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(tmp_path)}}).execute(env=env)
    (error,) = notebook.cells[1].outputs
    assert error.output_type == "error"
    assert error.ename == "CheckFailed"
    assert len(error.traceback) == 1
    assert "✘ Not yet: 6 is only the first call's gradient" in error.traceback[0]
    assert notebook.cells[2].outputs[0].text == "caught: CheckFailed\n"
