"""The Chinese edition (notebooks/zh) keeps in step with the English notebooks.

Each zh notebook is a translation: its markdown, comments and printed labels are Chinese, its code is
the English notebook's. This test compares the two code cell by cell as Python syntax trees, so an
edit of an English notebook that is not carried over to the Chinese one fails here, naming the cell.
Allowed differences, and only these:

* the line ``viz.set_language("zh")`` (in the first code cell of every zh notebook);
* comments, except the exercise markers the learner edition reads (``# EXERCISE:``, ``# SOLUTION``,
  ``# PREDICTION``, ``# STUB: code``, ``# NEEDS: check_name``), which must match in kind and order;
* a string literal (or the text parts of an f-string) whose Chinese version contains Chinese text:
  a translated label (and the padding that aligns printed labels). Any other string -- a dict key a
  check reads, a parameter name -- is code.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
ZH = NOTEBOOKS / "zh"
ZH_SOURCES = sorted(ZH.glob("[0-9][0-9]_*.py"))
#: Per notebook (CI's limit), as for the English edition.
TIMEOUT = 120

#: Chinese characters and CJK punctuation / full-width forms: a string holding one is a translation.
CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")
LANGUAGE_LINE = 'viz.set_language("zh")'
MARKER = re.compile(r"^\s*# (EXERCISE:|SOLUTION$|END SOLUTION$|PREDICTION$|END PREDICTION$|STUB:|NEEDS:)(.*)$")


def _id(path: Path) -> str:
    return path.stem


def _code_cells(path: Path) -> list[str]:
    jupytext = pytest.importorskip("jupytext")
    return [cell.source for cell in jupytext.read(path).cells if cell.cell_type == "code"]


def _is_language_line(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and ast.dump(node) == ast.dump(ast.parse(LANGUAGE_LINE).body[0])


def _markers(source: str) -> list[str]:
    """The exercise markers of a cell: kind, and what the learner tool reads from it."""
    found = []
    for line in source.splitlines():
        match = MARKER.match(line)
        if match is None:
            continue
        kind, rest = match.groups()
        if kind == "STUB:":       # the stub's code (before its comment) is what the learner gets
            found.append(f"STUB: {rest.split('#', 1)[0].strip()}")
        elif kind == "NEEDS:":    # the check's name; "(Exercise N)" may be translated
            found.append(f"NEEDS: {rest.split()[0] if rest.split() else ''}")
        else:
            found.append(kind)
    return found


def _texts(node: ast.JoinedStr) -> str:
    return "".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))


def _difference(en: Any, zh: Any, where: str = "") -> str | None:
    """Where the zh syntax tree differs from the English one beyond a translation, or None."""
    if type(en) is not type(zh):
        return f"{where}: {type(en).__name__} vs {type(zh).__name__}"
    if isinstance(en, ast.Constant) and isinstance(en.value, str) and isinstance(zh.value, str):
        if en.value.split() == zh.value.split() or CJK.search(zh.value):  # padding may differ
            return None
        return f"{where}: string {en.value!r} vs {zh.value!r}"
    if isinstance(en, ast.JoinedStr):
        values_en = [v for v in en.values if isinstance(v, ast.FormattedValue)]
        values_zh = [v for v in zh.values if isinstance(v, ast.FormattedValue)]
        if not CJK.search(_texts(zh)) and _texts(en).split() != _texts(zh).split():
            return f"{where}: f-string {ast.unparse(en)} vs {ast.unparse(zh)}"
        if len(values_en) != len(values_zh):
            return f"{where}: f-string fields {ast.unparse(en)} vs {ast.unparse(zh)}"
        for a, b in zip(values_en, values_zh, strict=True):
            found = _difference(a, b, where)
            if found:
                return found
        return None
    if isinstance(en, ast.AST):
        label = f"{where} > {ast.unparse(en).splitlines()[0][:60]}" if isinstance(en, ast.stmt) else where
        for field in en._fields:
            found = _difference(getattr(en, field, None), getattr(zh, field, None), label)
            if found:
                return found
        return None
    if isinstance(en, list):
        if len(en) != len(zh):
            return f"{where}: {len(en)} vs {len(zh)} items"
        for a, b in zip(en, zh, strict=True):
            found = _difference(a, b, where)
            if found:
                return found
        return None
    return None if en == zh else f"{where}: {en!r} vs {zh!r}"


def _tree(source: str) -> ast.Module:
    lines = [line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))]
    return ast.parse("\n".join(lines))


def cell_difference(en_source: str, zh_source: str) -> str | None:
    """Why a zh code cell is not the English one in translation, or None when it is."""
    en, zh = _tree(en_source), _tree(zh_source)
    zh.body = [node for node in zh.body if not _is_language_line(node)]
    found = _difference(en, zh, "cell")
    if found:
        return found
    if _markers(en_source) != _markers(zh_source):
        return f"exercise markers {_markers(en_source)} vs {_markers(zh_source)}"
    return None


# ------------------------------------------------------------------ the comparison itself can fail


def test_a_translated_cell_passes() -> None:
    en = 'x = 1  # one\nprint("after:", x, f"{x:3d} in")\n# EXERCISE: fill it\n# SOLUTION\ny = 2\n# END SOLUTION\n'
    zh = '# 一\nx = 1\nprint("之后:", x, f"{x:3d} 传入")\n# EXERCISE: 填空\n# SOLUTION\ny = 2\n# END SOLUTION\n'
    assert cell_difference(en, zh) is None
    assert cell_difference("import viz\n", f"import viz\n\n{LANGUAGE_LINE}  # 中文界面\n") is None


@pytest.mark.parametrize(("en", "zh", "match"), [
    ("x = 1\n", "x = 2\n", "1 vs 2"),
    ("x = f(1)\n", "x = f(1, 2)\n", "1 vs 2 items"),
    ('answer = {"a": 1}\n', 'answer = {"甲": 1}\n', None),            # a translated key is allowed...
    ('d = {"s → r (1st)": 1}\n', 'd = {"s → r (2nd)": 1}\n', "string"),  # ...an edited one is not
    ('print(f"{x} in")\n', 'print(f"{y} 传入")\n', "x' vs 'y"),
    ("# SOLUTION\nx = 1\n# END SOLUTION\n", "x = 1\n", "markers"),
    ("# STUB: answer = ...\n", "# STUB: answer = 0\n", "markers"),
    ("# NEEDS: check_a (Exercise 1)\n", "# NEEDS: check_b (练习 1)\n", "markers"),
    ("x = 1\n", f"x = 1\n{LANGUAGE_LINE.replace('zh', 'en')}\n", "items"),
])
def test_an_untranslated_change_is_found(en: str, zh: str, match: str | None) -> None:
    found = cell_difference(en, zh)
    if match is None:
        assert found is None
    else:
        assert found is not None
        assert match in found, found


# ------------------------------------------------------------------ the real notebooks


def test_every_zh_notebook_has_an_english_original() -> None:
    assert ZH_SOURCES, "notebooks/zh has no notebooks"
    for source in ZH_SOURCES:
        assert (NOTEBOOKS / source.name).exists(), f"zh/{source.name} has no English original"


@pytest.mark.parametrize("source", ZH_SOURCES, ids=_id)
def test_zh_code_cells_are_the_english_ones(source: Path) -> None:
    english, chinese = _code_cells(NOTEBOOKS / source.name), _code_cells(source)
    assert LANGUAGE_LINE in chinese[0], f"zh/{source.name}: the first code cell sets {LANGUAGE_LINE}"
    assert not any(LANGUAGE_LINE in cell for cell in english)
    assert len(english) == len(chinese), (
        f"zh/{source.name} has {len(chinese)} code cells, the English notebook {len(english)}: "
        "carry the English edit over")
    for index, (en, zh) in enumerate(zip(english, chinese, strict=True)):
        found = cell_difference(en, zh)
        assert found is None, f"zh/{source.name}, code cell {index + 1}: {found} -- carry the English edit over"


@pytest.mark.parametrize("source", ZH_SOURCES, ids=_id)
def test_zh_markdown_keeps_the_answer_markers_and_the_time(source: Path) -> None:
    english = (NOTEBOOKS / source.name).read_text(encoding="utf-8")
    chinese = source.read_text(encoding="utf-8")
    for marker in ("<!-- SOLUTION -->", "<!-- END SOLUTION -->"):
        assert chinese.count(marker) == english.count(marker), f"zh/{source.name}: {marker}"
    assert re.search(r"^# \*About \d+ minutes\.\*", chinese, re.M), "the class time is stated"
    assert CJK.search(chinese), "the notebook is translated"


def test_zh_answers_cover_every_exercise_like_the_english_ones() -> None:
    """notebooks/zh/ANSWERS.md: every check of a zh notebook, and the English file's code blocks unchanged."""
    answers = (ZH / "ANSWERS.md").read_text(encoding="utf-8")
    english = (NOTEBOOKS / "ANSWERS.md").read_text(encoding="utf-8")
    for source in ZH_SOURCES:
        for check in re.findall(r"^(check_\w+)\(", source.read_text(encoding="utf-8"), re.M):
            assert f"`{check}`" in answers, f"{check} ({source.name}) is not in zh/ANSWERS.md"
    assert CJK.search(answers)

    def code(text: str) -> list[str]:    # the code of each block, comments aside (they are translated)
        blocks = re.findall(r"```python\n(.*?)```", text, re.S)
        return [ast.dump(ast.parse(block)) for block in blocks]

    assert code(answers) == code(english), "a code block of zh/ANSWERS.md differs from ANSWERS.md"


# ------------------------------------------------------------------ the zh learner edition


@pytest.fixture(scope="module")
def zh_edition(learner_tool: Any, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    pytest.importorskip("jupytext")
    out = tmp_path_factory.mktemp("learner-zh")
    reports = learner_tool.build(ZH, out, quiet=True)
    return out, {r.name: r for r in reports}


def test_the_zh_learner_edition_is_chinese_and_open(zh_edition: tuple[Path, dict[str, Any]]) -> None:
    nbformat = pytest.importorskip("nbformat")
    out, reports = zh_edition
    assert sorted(reports) == [s.stem for s in ZH_SOURCES]
    for source in ZH_SOURCES:
        notebook = nbformat.read(out / f"{source.stem}.ipynb", as_version=4)
        text = "\n".join(cell.source for cell in notebook.cells)
        assert notebook.cells[1].source.startswith("> **学习者版"), source.name
        assert "# SOLUTION" not in text
        assert "# PREDICTION" not in text
        assert reports[source.stem].solutions + reports[source.stem].predictions >= 1
    assert not (out / "ANSWERS.md").exists()
    assert "学习者版" in (out / "README.md").read_text(encoding="utf-8")


@pytest.mark.notebooks
@pytest.mark.slow
@pytest.mark.parametrize("source", ZH_SOURCES, ids=_id)
def test_zh_learner_notebook_runs_and_speaks_chinese(source: Path, zh_edition: tuple[Path, dict[str, Any]],
                                                     kernel_env: dict[str, str]) -> None:
    """Run All on a zh learner notebook: no error; every open exercise and guarded cell says so, in Chinese."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    out, reports = zh_edition
    notebook = nbformat.read(out / f"{source.stem}.ipynb", as_version=4)
    env = dict(kernel_env)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    client = nbclient.NotebookClient(notebook, timeout=TIMEOUT, kernel_name="python3", allow_errors=True,
                                     resources={"metadata": {"path": str(out)}})
    client.execute(env=env)
    errors = [(o.ename, o.evalue) for cell in notebook.cells if cell.cell_type == "code"
              for o in cell.outputs if o.output_type == "error"]
    assert not errors, f"zh/{source.stem}: errors in the learner edition: {errors}"
    opened = guarded = 0
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        text = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
        if re.search(r"^check_\w+\(", cell.source, re.M):
            assert text.count("✎ 尚未完成") == 1, f"zh/{source.stem}: an open exercise says so:\n{cell.source}"
            assert "Still open" not in text
            opened += 1
        if cell.source.startswith("# NEEDS:"):
            lines = [line for line in text.splitlines() if line.strip()]
            assert len(lines) == 1, lines
            assert lines[0].startswith("⏸ 这个单元格需要先完成"), lines
            guarded += 1
    assert opened == len(re.findall(r"^check_\w+\(", source.read_text(encoding="utf-8"), re.M))
    assert guarded == len(reports[source.stem].guarded)
