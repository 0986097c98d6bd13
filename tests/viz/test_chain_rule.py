"""Step.chain_rule: the chain rule of each step in the learner's names, with the numbers."""

from __future__ import annotations

import re
from dataclasses import replace
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import viz
from viz.chain import Names, chain_rule_lines, formula_for, number_text
from viz.i18n import STRINGS, t
from viz.stepper import restyle_svg, step_backward


def _nb2(lib: ModuleType) -> tuple[Any, dict[str, Any]]:
    a = lib.tensor(2.0, requires_grad=True)
    b = lib.tensor(-3.0, requires_grad=True)
    c = lib.tensor(10.0, requires_grad=True)
    f = lib.tensor(-2.0, requires_grad=True)
    e = a * b
    d = e + c
    loss = d * f
    return loss, {"a": a, "b": b, "c": c, "f": f, "e": e, "d": d, "L": loss}


def test_notebook2_on_minigrad_and_pytorch(lib: ModuleType) -> None:
    """The same lines on both libraries: formulas are looked up by node class name."""
    loss, names = _nb2(lib)
    lines = [step.chain_rule for step in step_backward(loss, params=names).steps]
    assert lines == [
        ("∂L/∂d = ∂L/∂L · f = 1 · (−2) = −2", "∂L/∂f = ∂L/∂L · d = 1 · 4 = 4"), (),
        ("∂L/∂e = ∂L/∂d = −2", "∂L/∂c = ∂L/∂d = −2"), (),
        ("∂L/∂a = ∂L/∂e · b = (−2) · (−3) = 6", "∂L/∂b = ∂L/∂e · a = (−2) · 2 = −4"), (), ()]


def test_unnamed_tensors_are_named_by_their_expression(lib: ModuleType) -> None:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    stepper = step_backward(((x * 3).tanh() ** 2).sum(), params={"x": x})
    by_name = {step.name: step.chain_rule for step in stepper.steps}
    (sum_line,) = by_name["SumBackward0"]                  # minigrad's rule: g, or g.expand(self_sym_sizes)
    assert sum_line.startswith("∂L/∂(tanh(x*3)**2) = ∂L/∂L")
    assert sum_line.endswith(" = [1, 1]")
    tanh = by_name["TanhBackward0"][0]
    assert tanh.startswith("∂L/∂(x*3) = ∂L/∂(tanh(x*3)) · (1 − tanh(x*3)²) = [")
    assert by_name["MulBackward0"][0].startswith("∂L/∂x = ∂L/∂(x*3) · 3 = ")
    assert by_name["MulBackward0"][1:] in ((), (None,))     # nothing is sent to the constant 3


def test_the_result_is_what_the_engine_sent(minigrad: ModuleType) -> None:
    loss, names = _nb2(minigrad)
    for step in step_backward(loss, params=names).steps:
        for line, grad in zip(step.chain_rule, step.grad_inputs):
            assert line.rsplit(" = ", 1)[1] == number_text(grad)


def test_module_paths_and_big_tensors(minigrad: ModuleType) -> None:
    """Parameters keep their module paths; a tensor above 9 elements is given by its shape."""
    layer = minigrad.nn.Linear(5, 4)
    loss = layer(minigrad.ones(3, 5)).tanh().sum()
    steps = step_backward(loss, params=layer).steps
    lines = [line for step in steps for line in step.chain_rule if line]
    assert any(line.startswith("∂L/∂weight = ") and line.endswith("= a 4×5 tensor") for line in lines), lines
    assert any(line.startswith("∂L/∂bias = ") and line.endswith("]") for line in lines), lines


def test_broadcast_gradient_is_summed_in_words(minigrad: ModuleType) -> None:
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    w = minigrad.tensor(0.5, requires_grad=True)
    steps = step_backward((x - w).sum(), params={"x": x, "w": w}).steps
    sub = next(s for s in steps if s.name == "SubBackward0")
    assert sub.chain_rule[1] == "∂L/∂w = −∂L/∂(x - w) = sum(−[1, 1]) = −2"


def test_numbers() -> None:
    assert number_text(np.array(-2.0)) == "−2"
    assert number_text(np.float32(0.1)) == "0.1"
    assert number_text(1e-7) == "1·10^−7"
    assert number_text(np.arange(9.0).reshape(3, 3)) == "[[0, 1, 2], [3, 4, 5], [6, 7, 8]]"
    assert number_text(np.zeros(10)) == "a 10 tensor"
    assert number_text((4, 3)) == "(4, 3)"
    assert number_text("text") is None


def test_formulas_have_the_contract_shape() -> None:
    """Every formula comes from minigrad's table (PyTorch's node names too); None where it does not know it."""
    for name in ("MulBackward0", "SubBackward1", "AddmmBackward0", "MseLossBackward0", "TanhBackwardBackward0"):
        formula = formula_for(name)
        assert formula is not None
        assert formula.node_name == name
        assert len(formula.inputs) == len(formula.grads)
        assert formula.words
    assert formula_for("NoSuchBackward0") is None
    assert formula_for("AccumulateGrad") is None


def test_unknown_node_gives_the_value_not_a_generic_sentence(minigrad: ModuleType) -> None:
    loss, names = _nb2(minigrad)
    stepper = step_backward(loss, params=names)
    record = stepper.passes[0]
    step = record.steps[0]
    saved = dict(record.saved[step.node_id])
    names = Names(record.snapshot, record.saved)
    # the line comes from minigrad's table (viz keeps no copy): given the same formula, the same line
    assert chain_rule_lines(step, names, "L", saved, lookup=minigrad.autograd.derivative_formula)[0] \
        == stepper.steps[0].chain_rule[0]
    unknown = chain_rule_lines(replace(step, name="MysteryBackward0"), names, "L", saved)
    assert unknown == ("∂L/∂d = −2", "∂L/∂f = 4")


def test_saved_values_are_read_before_backward_frees_them(minigrad: ModuleType) -> None:
    loss, names = _nb2(minigrad)
    stepper = step_backward(loss, params=names)
    mul_e = next(n.id for n in stepper.snapshot.nodes if n.tensor is not None and n.tensor.name == "e")
    saved = dict(stepper.passes[0].saved[mul_e])
    assert float(saved["self"]) == 2.0
    assert float(saved["other"]) == -3.0
    assert mul_e in stepper.passes[0].released               # ... and backward did free them
    node = stepper.state()["graph"]["nodes"][mul_e]
    assert node["saved"] == [["other", "-3"], ["self", "2"]]


def test_print_and_svg_frames_carry_the_same_lines(minigrad: ModuleType, tmp_path: Any) -> None:
    loss, names = _nb2(minigrad)
    stepper = step_backward(loss, params=names, presentation=True)
    text = stepper.table()
    assert "∂L/∂d = ∂L/∂L · f = 1 · (−2) = −2" in text
    assert not re.search(r"\bn\d+\b", text)
    state = stepper.state()
    svg = restyle_svg(state["svg"], state, 1)
    assert "∂L/∂d = ∂L/∂L · f = 1 · (−2) = −2" in svg
    assert "mg-presentation" in svg                          # the theme is kept: 16 px labels
    paths = stepper.save_svgs(tmp_path / "frames")
    assert "∂L/∂a = ∂L/∂e · b = (−2) · (−3) = 6" in paths[5].read_text(encoding="utf-8")


def test_save_html_starts_at_step_0(minigrad: ModuleType, tmp_path: Any) -> None:
    loss, names = _nb2(minigrad)
    stepper = step_backward(loss, params=names)
    stepper.step = 4
    page = stepper.save_html(tmp_path / "s.html").read_text(encoding="utf-8")
    assert '"step":0,' in page


def test_rerun_hint(minigrad: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    """A stepper made again from a graph whose buffers the first one freed: one line of advice, then
    the library's own error."""
    loss, names = _nb2(minigrad)
    step_backward(loss, params=names)
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        step_backward(loss, params=names)
    assert capsys.readouterr().err.strip() == t("hint_rerun")
    shown = step_backward(loss, params=names, on_error="show")
    assert shown.state()["graph"]["passes"][0]["error_hint"] == t("hint_rerun")


def test_every_string_the_js_uses_is_in_both_languages() -> None:
    js = (viz.stepper.STATIC / "stepper.js").read_text(encoding="utf-8")
    keys = set(re.findall(r"""\bS\(["']([a-z_]+)["']""", js)) | set(re.findall(r"""\["mg-\w+", "(key_\w+)"\]""", js))
    assert len(keys) > 40
    for language, table in STRINGS.items():
        assert keys <= set(table), (language, keys - set(table))
        assert all(text for text in table.values())
    assert set(STRINGS["en"]) == set(STRINGS["zh"])
    for key in STRINGS["en"]:                                 # the same placeholders in both
        assert set(re.findall(r"{\w+}", STRINGS["en"][key])) == set(re.findall(r"{\w+}", STRINGS["zh"][key])), key


def test_set_language(minigrad: ModuleType) -> None:
    try:
        viz.set_language("zh")
        loss, names = _nb2(minigrad)
        state = step_backward(loss, params=names).state()
        assert state["strings"]["chain_rule"] == "链式法则"
        assert state["strings"]["key_freed"] == "保存的张量已释放"
        with pytest.raises(ValueError, match="language must be one of"):
            viz.set_language("fr")
    finally:
        viz.set_language("en")
    assert t("chain_rule") == "chain rule"


def test_predict_flag_reaches_the_widget(minigrad: ModuleType) -> None:
    loss, names = _nb2(minigrad)
    stepper = step_backward(loss, params=names, predict=True)
    assert stepper.state()["predict"] is True
    assert stepper.widget.predict is True
    assert stepper.widget.strings["check"] == "check"


def test_the_graph_legend_follows_the_language(minigrad: ModuleType) -> None:
    from viz.style import LEGEND_TEXT

    loss, names = _nb2(minigrad)
    try:
        viz.set_language("zh")
        assert LEGEND_TEXT["acc"] == "AccumulateGrad\n（叶子节点）"
        svg = viz.to_svg(viz.capture_graph(loss, params=names), legend=True)
        assert "叶子节点" in svg
    finally:
        viz.set_language("en")
    assert LEGEND_TEXT["acc"] == "AccumulateGrad\n(leaf tensor)"
    assert list(LEGEND_TEXT)[:2] == ["fn", "acc"]


def test_show_constants_false_hides_them(minigrad: ModuleType) -> None:
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    shown = step_backward((x * x.detach()).sum(), params={"x": x})
    hidden = step_backward((x * x.detach()).sum(), params={"x": x}, show_constants=False)
    assert any("constant" in n.roles for n in shown.snapshot.nodes)
    assert not any("constant" in n.roles for n in hidden.snapshot.nodes)
    assert hidden.steps[-2].chain_rule == shown.steps[-2].chain_rule
