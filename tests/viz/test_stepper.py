"""The stepper's steps are the engine's execution: order, values and accumulation; errors as in PyTorch."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import viz
from viz.stepper import Stepper, frame, html_document, step_backward, tensor_json

# backward(create_graph=True) warns about the parameter <-> .grad cycle, as PyTorch does.
pytestmark = pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True:UserWarning")

# ------------------------------------------------------------------ the programs


@dataclass
class Program:
    """A program building a graph with ``lib`` (minigrad or torch), and its backward arguments.

    ``build(lib)`` returns ``(roots, leaves)``; ``roots`` is one tensor or a list.
    """

    name: str
    build: Callable[[ModuleType], tuple[Any, dict[str, Any]]]
    backward: dict[str, Any] = field(default_factory=dict)


def _chain(lib: ModuleType) -> tuple[Any, dict[str, Any]]:
    a = lib.tensor(2.0, requires_grad=True)
    b = lib.tensor(3.0, requires_grad=True)
    return ((a * b + a).sin()), {"a": a, "b": b}


def _fan_out(lib: ModuleType) -> tuple[Any, dict[str, Any]]:
    x = lib.tensor([1.0, -2.0, 0.5], requires_grad=True)
    y = x.exp()
    z = y * y + y.tanh() * x          # y feeds three consumers, x two
    return z.sum(), {"x": x}


def _hooks(lib: ModuleType) -> tuple[Any, dict[str, Any]]:
    w = lib.tensor([0.5, -1.0], requires_grad=True)
    h = w * 3.0
    h.register_hook(lambda g: g * 2)   # doubles the gradient flowing into MulBackward0
    h.retain_grad()
    w.register_post_accumulate_grad_hook(lambda t: None)
    return (h * h).mean(), {"w": w, "h": h}       # h stays alive, so its retained grad is kept


def _matmul(lib: ModuleType) -> tuple[Any, dict[str, Any]]:
    x = lib.tensor([[1.0, 2.0], [0.5, -1.0]], requires_grad=True)
    w = lib.tensor([[0.3, -0.2, 0.1], [0.7, 0.4, -0.6]], requires_grad=True)
    return (x @ w).relu().sum(), {"x": x, "w": w}


def _two_roots(lib: ModuleType) -> tuple[Any, dict[str, Any]]:
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    b = a * a
    return [b.sum(), (b * a).mean()], {"a": a}


def _second_order(lib: ModuleType) -> tuple[Any, dict[str, Any]]:
    x = lib.tensor(1.5, requires_grad=True)
    return x ** 3, {"x": x}


def _non_scalar_with_gradient(lib: ModuleType) -> tuple[Any, dict[str, Any]]:
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    return x.sigmoid() * 2, {"x": x}


PROGRAMS = [
    Program("chain", _chain),
    Program("fan_out", _fan_out),
    Program("hooks_retain_grad", _hooks),
    Program("matmul_relu", _matmul),
    Program("two_roots", _two_roots),
    Program("create_graph", _second_order, {"create_graph": True}),
    Program("gradient_argument", _non_scalar_with_gradient, {"gradient": "ones3"}),
]


def _backward_kwargs(lib: ModuleType, program: Program) -> dict[str, Any]:
    kwargs = dict(program.backward)
    if kwargs.get("gradient") == "ones3":
        kwargs["gradient"] = lib.tensor([1.0, 0.5, -1.0])
    return kwargs


def _run_plain(lib: ModuleType, program: Program) -> tuple[list[Any], dict[str, Any]]:
    """Run the program's backward with a bare engine observer: the reference execution."""
    roots, leaves = program.build(lib)
    events: list[Any] = []
    kwargs = _backward_kwargs(lib, program)
    with lib.autograd.graph.register_backward_observer(events.append):
        if isinstance(roots, list):
            lib.autograd.backward(roots, grad_tensors=kwargs.pop("gradient", None), **kwargs)
        else:
            roots.backward(**kwargs)
    return [e for e in events if e.kind == "node"], leaves


def _same(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return np.array_equal(np.asarray(a), np.asarray(b))


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
def test_steps_equal_the_engine_execution(minigrad: ModuleType, program: Program) -> None:
    reference, ref_leaves = _run_plain(minigrad, program)
    roots, leaves = program.build(minigrad)
    stepper = step_backward(roots, params=leaves, **_backward_kwargs(minigrad, program))
    steps = stepper.steps
    assert [s.name for s in steps] == [e.name for e in reference]
    assert [s.index for s in steps] == list(range(len(steps)))
    for step, event in zip(steps, reference):
        assert len(step.grad_outputs) == len(event.grad_outputs)
        assert all(_same(a, b) for a, b in zip(step.grad_outputs, event.grad_outputs)), step.name
        assert all(_same(a, b) for a, b in zip(step.grad_inputs, event.grad_inputs)), step.name
        assert _same(step.grad_before, event.grad_before)
        assert _same(step.grad_after, event.grad_after)
    # the recorded accumulation ends where the real .grad ends (and retained grads match)
    for name, tensor in leaves.items():
        np.testing.assert_array_equal(tensor.grad.detach().numpy(), ref_leaves[name].grad.detach().numpy())
        if tensor.is_leaf:
            last = [s for s in steps if s.name == "AccumulateGrad"
                    and stepper.snapshot.node(s.node_id).tensor.name == name][-1]
            np.testing.assert_array_equal(last.grad_after, tensor.grad.detach().numpy())


def test_hooks_and_retain_grad_show_as_events(lib: ModuleType) -> None:
    """On minigrad from the engine's log; on PyTorch by wrapping the hooks of known tensors."""
    roots, leaves = _hooks(lib)
    user_hooks = list(leaves["h"]._backward_hooks.values()) if lib.__name__ == "torch" else None
    stepper = step_backward(roots, params=leaves)
    events = [(s.name, e.kind, e.detail, [g.tolist() for g in e.grads])
              for s in stepper.steps for e in s.events if e.kind != "release"]
    assert events == [("MulBackward0", "tensor_hook", "<lambda>", [[3.0, -6.0]]),   # doubled by the hook
                      ("MulBackward0", "retain_grad", "output 0", [[3.0, -6.0]]),
                      ("AccumulateGrad", "post_accumulate_hook", "<lambda>", [[9.0, -18.0]])]
    state = stepper.state()
    mul = next(s for s in state["steps"] if s["events"])
    assert any("hook" in e["text"] for e in mul["events"])
    if user_hooks is not None:                             # PyTorch: the user's hook is back, unwrapped
        assert list(leaves["h"]._backward_hooks.values()) == user_hooks


def test_repeated_backward_shows_accumulation(minigrad: ModuleType) -> None:
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    stepper = step_backward(y, retain_graph=True)
    stepper.backward_again(retain_graph=True)
    acc = [s for s in stepper.steps if s.name == "AccumulateGrad"]
    assert len(acc) == 2
    assert acc[0].grad_before is None
    np.testing.assert_array_equal(acc[1].grad_before, acc[0].grad_after)
    np.testing.assert_array_equal(acc[1].grad_after, 2 * acc[0].grad_after)
    passes = stepper.state()["graph"]["passes"]
    assert [(p["start"], p["stop"]) for p in passes] == [(0, 3), (3, 6)]


# ------------------------------------------------------------------ PyTorch parity


def _torch_order(torch: ModuleType, roots: Any, kwargs: dict[str, Any]) -> list[str]:
    """The node execution order PyTorch reports through node hooks."""
    order: list[str] = []
    starts = roots if isinstance(roots, list) else [roots]
    seen, stack, handles = set(), [r.grad_fn for r in starts], []
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        handles.append(node.register_prehook(lambda g, n=node: order.append(type(n).__name__)))
        stack.extend(child for child, _ in node.next_functions)
    if isinstance(roots, list):
        torch.autograd.backward(roots, grad_tensors=kwargs.pop("gradient", None), **kwargs)
    else:
        roots.backward(**kwargs)
    for handle in handles:
        handle.remove()
    return order


@pytest.mark.torch
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
def test_order_equals_pytorch_node_hooks(minigrad: ModuleType, torch: ModuleType, program: Program) -> None:
    roots, _ = program.build(torch)
    expected = _torch_order(torch, roots, _backward_kwargs(torch, program))
    roots, _ = program.build(minigrad)
    stepper = step_backward(roots, **_backward_kwargs(minigrad, program))
    assert [s.name for s in stepper.steps] == expected


@pytest.mark.torch
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
def test_values_equal_pytorch(minigrad: ModuleType, torch: ModuleType, program: Program) -> None:
    ours = step_backward(program.build(minigrad)[0], **_backward_kwargs(minigrad, program)).steps
    theirs = step_backward(program.build(torch)[0], **_backward_kwargs(torch, program)).steps
    assert [s.name for s in ours] == [s.name for s in theirs]
    for a, b in zip(ours, theirs):
        for x, y in zip(a.grad_outputs, b.grad_outputs):
            np.testing.assert_allclose(x, y, rtol=1e-5, atol=1e-6)
        if a.name == "AccumulateGrad":
            np.testing.assert_allclose(a.grad_after, b.grad_after, rtol=1e-5, atol=1e-6)


# ------------------------------------------------------------------ errors


def _bad_inputs(lib: ModuleType) -> list[tuple[str, Callable[[], Any]]]:
    def no_grad() -> Any:
        return step_backward(lib.tensor([1.0, 2.0]).sum())

    def non_scalar() -> Any:
        return step_backward(lib.tensor([1.0, 2.0], requires_grad=True) * 2)

    def freed() -> Any:
        x = lib.tensor(2.0, requires_grad=True)
        y = x.exp()
        y.backward()
        return step_backward(y)

    return [("no_grad", no_grad), ("non_scalar", non_scalar), ("freed", freed)]


@pytest.mark.parametrize("case", ["no_grad", "non_scalar", "freed"])
def test_bad_input_raises_the_library_error(minigrad: ModuleType, case: str) -> None:
    run = dict(_bad_inputs(minigrad))[case]
    with pytest.raises(RuntimeError):
        run()


@pytest.mark.torch
@pytest.mark.parametrize("case", ["no_grad", "non_scalar", "freed"])
def test_bad_input_error_text_is_pytorchs(minigrad: ModuleType, torch: ModuleType, case: str) -> None:
    with pytest.raises(RuntimeError) as theirs:
        dict(_bad_inputs(torch))[case]()
    with pytest.raises(RuntimeError, match=re.escape(str(theirs.value))):
        dict(_bad_inputs(minigrad))[case]()


def test_errors_show_in_the_panel_and_the_stepper_stays_usable(minigrad: ModuleType) -> None:
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    shown = step_backward(x * 2, on_error="show")
    assert "grad can be implicitly created only for scalar outputs" in shown.state()["error"]
    assert shown.steps == []

    y = (x.exp()).sum()
    stepper = step_backward(y)
    n = len(stepper.steps)
    first_pass = stepper.state()["steps"]
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        stepper.backward_again()
    state = stepper.state()
    assert "backward through the graph a second time" in state["error"]
    assert state["steps"][:n] == first_pass              # the first pass is still there
    assert [s["pass"] for s in state["steps"][n:]] == [1] * (len(state["steps"]) - n)
    last = state["graph"]["passes"][-1]
    assert last["error"]
    assert last["error_nodes"]                             # the freed nodes are pointed at


def test_inplace_violation_points_at_the_tensor_and_its_versions(minigrad: ModuleType) -> None:
    a = minigrad.tensor([1.0, 2.0], requires_grad=True)
    b = a.exp()
    b.add_(1)
    stepper = step_backward(b.sum(), on_error="show")
    last = stepper.state()["graph"]["passes"][-1]
    assert "modified by an inplace operation" in last["error"]
    names = [stepper.snapshot.node(i).name for i in last["error_nodes"]]
    assert names == ["ExpBackward0"]
    assert "version 1" in last["error_hint"]


# ------------------------------------------------------------------ state, frames, exports


def test_state_is_json_and_frames_follow_the_steps(minigrad: ModuleType) -> None:
    roots, leaves = _chain(minigrad)
    stepper = step_backward(roots, params=leaves)
    state = stepper.state()
    json.dumps(state)
    steps = state["steps"]
    first = frame(state, 1)
    assert first["nodes"][steps[0]["node_id"]] == "mg-current"
    assert all(cls == "mg-flow" for cls, _ in first["edges"].values())
    end = frame(state, len(steps))
    released = state["graph"]["passes"][0]["released"]
    assert released
    assert all("mg-freed" in end["nodes"][n] for n in released)
    leaf = next(s for s in steps if s["is_accumulate"])
    assert end["grads"][leaf["node_id"]].startswith("grad: ")


def test_formula_table_reaches_the_panel(minigrad: ModuleType) -> None:
    roots, _ = _chain(minigrad)
    formulas = step_backward(roots).state()["graph"]["formulas"]
    assert formulas["MulBackward0"]["formulas"][0] == "self: g · other"   # minigrad's rule, its input names
    assert "_generic" not in formulas                                    # never a generic sentence


def test_text_table(minigrad: ModuleType) -> None:
    roots, leaves = _chain(minigrad)
    stepper = step_backward(roots, params=leaves)
    text = stepper.table()
    assert text.splitlines()[1].split()[1] == "SinBackward0"
    assert not re.search(r"\bn\d+\b", text)                             # no internal node ids
    assert ".grad None →" in text
    assert repr(stepper).startswith("<viz.Stepper: 5 steps>")


def test_hostile_names_are_escaped_in_html(minigrad: ModuleType, tmp_path: Any) -> None:
    x = minigrad.tensor(2.0, requires_grad=True)
    evil = '<img src=x onerror=alert(1)></script><script>alert(2)</script>'
    stepper = step_backward(x * x, params={evil: x})
    page = stepper.save_html(tmp_path / "s.html").read_text(encoding="utf-8")
    assert "<img src=x" not in page
    assert page.count("</script>") == 2                   # only our own two script elements
    assert page.count("<script") == 2
    state = json.loads(re.search(r'id="mg-state">(.*?)</script>', page, re.S).group(1))
    assert any(evil in (n["label"] or "") for n in state["graph"]["nodes"].values())


def test_html_is_self_contained(minigrad: ModuleType) -> None:
    roots, _ = _chain(minigrad)
    page = html_document(step_backward(roots).state())
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)
    assert "import " not in page.split('<script type="module">')[1].split("\n")[0]
    assert "mountStandalone" in page


def test_save_svgs_writes_one_frame_per_step(minigrad: ModuleType, tmp_path: Any) -> None:
    roots, _ = _fan_out(minigrad)
    stepper = step_backward(roots, grad_flow=True)
    paths = stepper.save_svgs(tmp_path / "frames")
    assert len(paths) == len(stepper.steps) + 1
    svg = paths[2].read_text(encoding="utf-8")
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    for cls in ("mg-current", "mg-flow", "mg-grad-label"):
        assert cls in svg
    assert "stroke-width" in svg                           # gradient flow styling
    stepper.step = 1
    assert "mg-current" in stepper.save_svg(tmp_path / "one.svg").read_text(encoding="utf-8")


def test_tensor_json() -> None:
    info = tensor_json(np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32))
    assert info["shape"] == [2, 2]
    assert info["dtype"] == "float32"
    assert info["short"] == "2×2, norm 5.48"                              # shape and norm, said in words
    assert info["plain"] == "[[1, 2], [3, 4]]"
    assert info["values"] == [1.0, 2.0, 3.0, 4.0]


def test_vanishing_sigmoid_chain(minigrad: ModuleType) -> None:
    from viz.demos import vanishing_sigmoid_chain

    stepper = vanishing_sigmoid_chain(minigrad, depth=8)
    grads = {k: float(v.grad.item()) for k, v in stepper.params.items()}
    assert grads["w0"] < grads["w7"] / 1000
    assert stepper.grad_flow
    assert stepper.state()["grad_flow"]
    lo, hi = stepper.state()["graph"]["flow_range"]
    assert hi - lo > 3                                     # four orders of magnitude


def test_create_graph_reveals_the_derivative_graph(minigrad: ModuleType) -> None:
    x = minigrad.tensor(1.5, requires_grad=True)
    stepper = step_backward(x ** 3, create_graph=True)
    born = stepper.state()["graph"]["born"]
    assert born, "nodes built during backward are recorded with the step that built them"
    assert len(stepper.snapshot.nodes) > 3
    before = frame(stepper.state(), 0)
    assert all("mg-unborn" in before["nodes"][n] for n in born)


def test_viz_exports() -> None:
    assert viz.step_backward is step_backward
    assert isinstance(viz.live, Callable)                  # type: ignore[arg-type]
    assert Stepper.__module__ == "viz.stepper"


# ------------------------------------------------------------------ the per-step look, computed once


def _look_at(history: list[list[Any]], k: int) -> Any:
    shown = None
    for entry in history:
        if entry[0] <= k:
            shown = entry[1:]
    return shown


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True:UserWarning")
@pytest.mark.parametrize("case", ["chain", "passes", "create_graph", "error", "folded"])
def test_looks_replay_every_frame(minigrad: ModuleType, case: str) -> None:
    """The histories the JS applies give, at every frame, exactly what frame() says."""
    x = minigrad.tensor([0.5, -1.5], requires_grad=True)
    w = minigrad.tensor([2.0, 0.25], requires_grad=True)
    if case == "folded":                                   # a loop drawn once: its nodes run many times
        h = x
        for _ in range(60):
            h = (h * w + 0.1).tanh()
        stepper = step_backward(h.sum())
        assert stepper.snapshot.folds
    elif case == "create_graph":
        stepper = step_backward((x ** 3).sin().sum(), create_graph=True)
    else:
        stepper = step_backward(((x * w).tanh() * x).sum(), retain_graph=case != "chain")
        if case in ("passes", "error"):
            stepper.backward_again(retain_graph=case == "passes")
            stepper.backward_again(raise_error=False)
    state = stepper.state()
    history = state["graph"]["looks"]
    for k in range(len(state["steps"]) + 1):
        expected = frame(state, k)
        nodes = {i: look[0] for i, h in history["nodes"].items() if (look := _look_at(h, k)) and look[0]}
        assert nodes == {i: c for i, c in expected["nodes"].items() if c}, k
        edges = {i: look[0] for i, h in history["edges"].items()
                 if (look := _look_at(h, k)) and look[0] and "mg-flow" in look[0]}
        assert edges == {i: cls for i, (cls, _) in expected["edges"].items()}, k
        texts = {i: look[0] for i, h in history["texts"].items() if (look := _look_at(h, k))}
        assert texts == expected["grads"], k


def test_fast_value_text_is_format_values() -> None:
    from viz.capture import format_values
    from viz.stepper import _values_text

    rng = np.random.default_rng(0)
    for shape in [(), (1,), (3,), (9,), (2, 2), (3, 3), (1, 4), (4, 1), (2, 3), (4, 4)]:
        for scale in (1e-8, 1e-3, 1.0, 1e3, 1e9):
            for dtype in (np.float32, np.float64):
                array = (rng.standard_normal(shape) * scale).astype(dtype)
                assert _values_text(array) == format_values(array)
    special = np.array([np.nan, np.inf, -0.0, 0.0], dtype=np.float32)
    assert _values_text(special) == format_values(special)
