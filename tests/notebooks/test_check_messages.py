"""The checks' feedback in two languages: one table (``course_checks.MESSAGES``), chosen by viz's language.

A zh learner who called ``viz.set_language("zh")`` gets every hint in Chinese; ``course_checks.set_language``
is the course-level switch. The table is complete (both languages, the same placeholders, every key used
and every used key present), and every template formats.
"""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"

CJK = re.compile(r"[\u4e00-\u9fff]")
#: A translation holds Chinese text, or at least Chinese punctuation (a message that is a formula).
CHINESE = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")


@pytest.fixture
def zh(checks: ModuleType) -> Iterator[ModuleType]:
    checks.set_language("zh")
    yield checks
    checks.set_language("en")                   # the pinned language of the other tests (conftest)


def _fields(template: str) -> set[str]:
    return {f"{name}!{conversion}" for _, name, _, conversion in string.Formatter().parse(template)
            if name is not None}


def test_every_message_has_both_languages_with_the_same_placeholders(checks: ModuleType) -> None:
    assert len(checks.MESSAGES) > 200
    for key, (english, chinese) in checks.MESSAGES.items():
        assert not CJK.search(english), key
        assert CHINESE.search(chinese), f"{key} is not translated"
        assert _fields(english) == _fields(chinese), key


def test_every_template_formats(checks: ModuleType) -> None:
    for key, pair in checks.MESSAGES.items():
        for template in pair:
            names = [name for _, name, _, _ in string.Formatter().parse(template) if name]
            positional = [int(n) for n in names if n.isdigit()]
            args = [1.5] * (max(positional) + 1 if positional else 0)
            text = template.format(*args, **{n: 1.5 for n in names if not n.isdigit()})  # no KeyError, no bad spec
            assert "1.5" in text or not names, key


def test_the_table_and_the_checks_name_the_same_keys(checks: ModuleType) -> None:
    tree = ast.parse((NOTEBOOKS / "course_checks.py").read_text(encoding="utf-8"))
    used = {node.args[0].value for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_t"
            and node.args and isinstance(node.args[0], ast.Constant)}
    assert used == set(checks.MESSAGES), (used ^ set(checks.MESSAGES))


def test_no_learner_facing_literal_is_left_outside_the_table() -> None:
    """_fail/_ok get their text from _t: an English literal there would reach a zh learner untranslated."""
    tree = ast.parse((NOTEBOOKS / "course_checks.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("_fail", "_ok"):
            assert node.args, ast.unparse(node)
            argument = node.args[0]
            assert not isinstance(argument, (ast.Constant, ast.JoinedStr, ast.BinOp)), ast.unparse(node)


def test_feedback_follows_the_course_switch(zh: ModuleType) -> None:
    with pytest.raises(AssertionError, match=r"backward 会累加到 \.grad 上"):
        zh.check_accumulated_grad(5.0)
    zh.set_language("en")
    with pytest.raises(AssertionError, match=r"backward adds into \.grad"):
        zh.check_accumulated_grad(5.0)


def test_feedback_follows_viz(checks: ModuleType, lib: ModuleType) -> None:
    viz = pytest.importorskip("viz")
    checks.set_language(None)
    try:
        viz.set_language("zh")
        with pytest.raises(AssertionError, match="两个梯度弄反了"):
            checks.check_mul_rule(lambda node, grad: (6.0, -10.0), lib)
        with pytest.raises(AssertionError, match="答案是空的"):
            checks.check_accumulate_grad(None, None)
        viz.set_language("en")
        with pytest.raises(AssertionError, match="the two gradients are swapped"):
            checks.check_mul_rule(lambda node, grad: (6.0, -10.0), lib)
    finally:
        viz.set_language("en")
        checks.set_language("en")


def test_the_frame_of_the_feedback_is_translated(zh: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    zh.check_vjp(...)
    assert capsys.readouterr().out.startswith("✎ 尚未完成（check_vjp）")
    zh._PASSED.discard("check_train_step")
    assert not zh.solved("check_train_step", "练习 2")
    assert capsys.readouterr().out.startswith("⏸ 这个单元格需要先完成练习 2（check_train_step）")
    zh.check_accumulated_grad(11.0)
    assert capsys.readouterr().out.startswith("✔ 正确。两次 backward 调用")


@pytest.mark.parametrize(("call", "words"), [
    (lambda c, lib: c.check_requires_grad_table(dict.fromkeys("abcde", (True, True))), "不对"),
    (lambda c, lib: c.check_hand_gradients({"x": 1.0, "y": 1.0, "z": 1.0}), "answer['z']"),
    (lambda c, lib: c.check_inplace_repair("y += 1", [0.0] * 3), "MulBackward0"),
    (lambda c, lib: c.check_pass_counts({"loss": {"forward": 1, "reverse": 1_000_000},
                                         "layer": {"forward": 512, "reverse": 512},
                                         "curve": {"forward": 1, "reverse": 1000}, "gradient": "reverse"}),
     "两种模式弄反了"),
    (lambda c, lib: c.check_trap_broadcast([1.0, 1.0]), "每次使用都送来一份梯度"),
    (lambda c, lib: c.check_vjp([1.0, 2.0]), "vᵀJ"),
])
def test_wrong_answers_get_chinese_hints(zh: ModuleType, lib: ModuleType, call: Any, words: str) -> None:
    with pytest.raises(AssertionError) as caught:
        call(zh, lib)
    message = str(caught.value)
    assert CJK.search(message), message
    assert words in message, message


def test_an_unknown_language_is_refused(checks: ModuleType) -> None:
    with pytest.raises(ValueError, match="language must be one of"):
        checks.set_language("fr")
