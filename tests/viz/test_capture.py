"""viz.capture on minigrad and PyTorch: ids, names, tensor info, saved tensors, views, recorded backward."""

from __future__ import annotations

import weakref
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from viz.capture import capture_graph, format_values, record_backward, trace_modules


def names(snapshot: Any) -> list[tuple[str, str, str]]:
    return [(n.id, n.kind, n.name) for n in snapshot.nodes]


def links(snapshot: Any, kind: str = "next") -> list[tuple[str, str, int | None, int | None]]:
    return [(e.source, e.target, e.slot, e.input_nr) for e in snapshot.edges if e.kind == kind]


# ------------------------------------------------------------------ the autograd view


def test_ids_follow_a_depth_first_walk_from_the_root(lib: ModuleType) -> None:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = lib.tensor([3.0, 4.0], requires_grad=True)
    loss = (x * y + x).sum()
    snap = capture_graph(loss, params={"x": x, "y": y, "loss": loss})
    assert names(snap) == [
        ("n0", "tensor", "loss"),
        ("n1", "fn", "SumBackward0"),
        ("n2", "fn", "AddBackward0"),
        ("n3", "fn", "MulBackward0"),
        ("n4", "acc", "AccumulateGrad"),
        ("n5", "acc", "AccumulateGrad"),
    ]
    assert links(snap) == [("n2", "n1", 0, 0), ("n3", "n2", 0, 0), ("n4", "n2", 1, 0),
                           ("n4", "n3", 0, 0), ("n5", "n3", 1, 0)]
    assert links(snap, "output") == [("n1", "n0", None, None)]
    assert snap.roots == ("n0",)
    assert [e.id for e in snap.edges] == [f"e{i}" for i in range(len(snap.edges))]
    assert snap.node("n4").tensor.name == "x"
    assert snap.node("n5").tensor.name == "y"


def test_the_same_program_gives_the_same_snapshot(lib: ModuleType) -> None:
    def program() -> Any:
        x = lib.tensor([[1.0, -2.0]], requires_grad=True)
        w = lib.tensor([[0.5], [0.25]], requires_grad=True)
        return capture_graph((x @ w).relu().sum(), params={"x": x, "w": w}, show_saved=True)

    assert program() == program()


def test_tensor_info_shows_values_and_says_grad_not_computed_yet(lib: ModuleType) -> None:
    w = lib.tensor([[1.0, 2.0], [3.0, 4.5]], requires_grad=True)
    big = lib.ones(10, 10, requires_grad=True)
    loss = (w.sum() + big.sum()) * 2
    snap = capture_graph(loss, params={"w": w, "big": big})
    infos = {n.tensor.name: n.tensor for n in snap.nodes if n.tensor is not None and n.tensor.name}
    assert infos["w"].values == "[[1, 2],\n [3, 4.5]]"
    assert infos["w"].shape == (2, 2)
    assert infos["w"].dtype == "float32"
    assert infos["w"].grad_text == "grad: not computed yet"
    assert infos["big"].values == "min 1  mean 1\nmax 1  norm 10"
    root = snap.node(snap.roots[0]).tensor
    assert root.grad_status == "not retained"
    assert not root.is_leaf

    loss.backward()
    after = capture_graph(loss, params={"w": w})
    w_info = next(n.tensor for n in after.nodes if n.tensor is not None and n.tensor.name == "w")
    assert w_info.grad_status == "computed"
    assert w_info.grad == "[[2, 2],\n [2, 2]]"


def test_retained_grad_is_shown_on_the_root(lib: ModuleType) -> None:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = (x * 3).sum()
    y.retain_grad()
    y.backward()
    info = capture_graph(y).node("n0")
    assert "retains-grad" in info.roles
    assert info.tensor.grad_text == "grad: 1"


def test_parameter_names_and_modules_come_from_the_module(lib: ModuleType) -> None:
    layer = lib.nn.Linear(3, 2)
    loss = layer(lib.ones(1, 3)).sum()
    snap = capture_graph(loss, params={"encoder": layer})
    leaves = {n.tensor.name: n for n in snap.nodes if n.kind == "acc"}
    assert set(leaves) == {"encoder.weight", "encoder.bias"}
    assert {n.module for n in leaves.values()} == {"encoder"}
    assert all("param" in n.roles for n in leaves.values())
    assert [(m.path, m.type_name) for m in snap.modules] == [("encoder", "Linear")]


def test_frozen_parameters_stand_alone(lib: ModuleType) -> None:
    layer = lib.nn.Linear(2, 2)
    layer.weight.requires_grad_(False)
    loss = layer(lib.ones(1, 2)).sum()
    snap = capture_graph(loss, params=layer)
    frozen = [n for n in snap.nodes if "frozen" in n.roles]
    assert [(n.name, n.tensor.grad_status) for n in frozen] == [("weight", "not required")]
    assert not any(e.source == frozen[0].id or e.target == frozen[0].id for e in snap.edges)


def test_saved_tensors_on_request_then_buffers_freed(lib: ModuleType) -> None:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    plain = capture_graph(y)
    assert not any(n.kind == "saved" for n in plain.nodes)

    snap = capture_graph(y, show_saved=True)
    saved = [n for n in snap.nodes if n.kind == "saved"]
    mul = next(n for n in snap.nodes if n.name == "MulBackward0")
    assert sorted(n.name for n in saved) == ["other", "self"]
    assert all(n.tensor.values == "[1, 2]" for n in saved)
    assert {(e.target, e.kind) for e in snap.edges if e.source in {n.id for n in saved}} == {
        (mul.id, "saved")}
    # saved nodes come after the main graph, whose ids do not change
    assert names(snap)[: len(plain.nodes)] == names(plain)

    y.backward()
    freed = capture_graph(y, show_saved=True)
    mul = next(n for n in freed.nodes if n.name == "MulBackward0")
    assert "freed" in mul.roles
    assert not any(n.kind == "saved" for n in freed.nodes)


def test_in_place_change_marks_stale_saved_tensor_and_version(lib: ModuleType) -> None:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    a = x * 2
    b = a.sin()
    a.mul_(2)
    snap = capture_graph(b, a, show_saved=True)
    sin = next(n for n in snap.nodes if n.name == "SinBackward0")
    assert "stale" in sin.roles
    assert "modified by an inplace operation" in sin.detail
    a_node = snap.node(snap.roots[1])
    assert a_node.tensor.version == 1
    assert "modified" in a_node.roles


def test_multiple_roots_share_nodes(lib: ModuleType) -> None:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    a, b = h.sum(), h.mean()
    snap = capture_graph(a, b)
    assert [n.name for n in snap.nodes].count("MulBackward0") == 1
    assert [n.name for n in snap.nodes].count("AccumulateGrad") == 1
    assert snap.roots == ("n0", "n4")


def test_a_grad_fn_node_can_be_the_root(lib: ModuleType) -> None:
    x = lib.tensor([1.0], requires_grad=True)
    y = x.exp()
    snap = capture_graph(y.grad_fn)
    assert names(snap) == [("n0", "fn", "ExpBackward0"), ("n1", "acc", "AccumulateGrad")]
    assert snap.roots == ("n0",)
    assert "root" in snap.node("n0").roles


def test_a_root_without_grad_is_a_lone_tensor(lib: ModuleType) -> None:
    snap = capture_graph(lib.ones(2))
    assert names(snap) == [("n0", "tensor", "tensor")]
    assert "no-grad" in snap.node("n0").roles
    assert snap.node("n0").tensor.grad_status == "not required"


def test_bad_input_is_reported() -> None:
    with pytest.raises(TypeError, match="expected a tensor"):
        capture_graph(3.0)
    with pytest.raises(ValueError, match="at least one"):
        capture_graph()


def test_unknown_view_is_reported(lib: ModuleType) -> None:
    with pytest.raises(ValueError, match="view must be one of"):
        capture_graph(lib.ones(1, requires_grad=True), view="forward")


def test_graph_walk_is_iterative(lib: ModuleType) -> None:
    x = lib.tensor([1.0], requires_grad=True)
    y = x
    for _ in range(3000):  # far deeper than Python's recursion limit
        y = y * 1.0
    snap = capture_graph(y)
    assert len(snap.nodes) == 3002 + 3000  # root, leaf, 3000 MulBackward0 and their constants 1.0
    assert len(capture_graph(y, show_constants=False).nodes) == 3002


# ------------------------------------------------------------------ the dataflow view


def test_dataflow_view_goes_forward_from_leaves_to_root(lib: ModuleType) -> None:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    w = lib.tensor([3.0, 4.0], requires_grad=True)
    h = x * w
    loss = h.sum()
    snap = capture_graph(loss, params={"x": x, "w": w, "h": h, "loss": loss}, view="dataflow")
    kinds = {n.name: n.kind for n in snap.nodes}
    assert kinds["Mul"] == "op"
    assert kinds["Sum"] == "op"
    assert kinds["x"] == "tensor"
    by_name = {n.name: n.id for n in snap.nodes}
    flow = {(snap.node(e.source).name, snap.node(e.target).name) for e in snap.edges}
    assert {("x", "Mul"), ("w", "Mul"), ("Sum", "loss")} <= flow
    if hasattr(loss.grad_fn, "output_tensors"):  # minigrad: intermediate tensors are known
        assert {("Mul", "h"), ("h", "Sum")} <= flow
    else:  # PyTorch: operations only
        assert ("Mul", "Sum") in flow
    assert all(e.kind == "dataflow" for e in snap.edges)
    assert snap.roots == (by_name["loss"],)


# ------------------------------------------------------------------ module clusters for ops


def test_trace_modules_puts_op_nodes_in_their_module(lib: ModuleType) -> None:
    class Block(lib.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc = lib.nn.Linear(2, 2)

        def forward(self, x: Any) -> Any:
            return self.fc(x).relu()

    class Net(lib.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.first = Block()
            self.second = Block()

        def forward(self, x: Any) -> Any:
            return self.second(self.first(x)) * 2

    net = Net()
    with trace_modules(net) as trace:
        out = net(lib.ones(1, 2)).sum()
    snap = capture_graph(out, params=net, module_trace=trace)
    modules = {n.name: set() for n in snap.nodes}
    for n in snap.nodes:
        modules[n.name].add(n.module)
    assert modules["ReluBackward0"] == {"first", "second"}
    assert modules["AddmmBackward0"] == {"first.fc", "second.fc"}
    assert modules["MulBackward0"] == {None}
    assert {m.path for m in snap.modules} == {"first", "first.fc", "second", "second.fc"}


# ------------------------------------------------------------------ recording a backward


def test_record_backward_steps_follow_the_engine(lib: ModuleType) -> None:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = lib.tensor([3.0, 4.0], requires_grad=True)
    loss = (x * y).sum()
    snap, steps = record_backward(loss)
    assert [s.name for s in steps] == ["SumBackward0", "MulBackward0", "AccumulateGrad",
                                       "AccumulateGrad"]
    assert [s.index for s in steps] == [0, 1, 2, 3]
    assert [snap.node(s.node_id).name for s in steps] == [s.name for s in steps]
    np.testing.assert_allclose(steps[0].grad_outputs[0], 1.0)
    np.testing.assert_allclose(steps[1].grad_inputs[0], [3.0, 4.0])
    np.testing.assert_allclose(steps[1].grad_inputs[1], [1.0, 2.0])
    leaves = {snap.node(s.node_id).id: s for s in steps if s.name == "AccumulateGrad"}
    assert all(s.grad_before is None for s in leaves.values())
    x_step = next(s for s in steps if s.name == "AccumulateGrad"
                  and snap.node(s.node_id).tensor.values == "[1, 2]")
    np.testing.assert_allclose(x_step.grad_after, [3.0, 4.0])
    np.testing.assert_allclose(x.grad.detach().numpy(), [3.0, 4.0])
    # the snapshot was taken before the backward ran
    assert all(n.tensor.grad_status == "not computed yet" for n in snap.nodes if n.kind == "acc")


def test_repeated_backward_shows_accumulation(lib: ModuleType) -> None:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    loss = (x * 2).sum()
    record_backward(loss, retain_graph=True)
    _, steps = record_backward(loss)
    acc = next(s for s in steps if s.name == "AccumulateGrad")
    np.testing.assert_allclose(acc.grad_before, [2.0, 2.0])
    np.testing.assert_allclose(acc.grad_after, [4.0, 4.0])


def test_record_backward_passes_gradient_and_hooks_are_removed(lib: ModuleType) -> None:
    x = lib.tensor([2.0, 1.0], requires_grad=True).view(1, 2)
    y = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    z = lib.mm(x, y)
    _, steps = record_backward(z, lib.tensor([[1.0, 0.0]]), retain_graph=True)
    count = len(steps)
    np.testing.assert_allclose(y.grad.numpy(), [[2.0, 0.0], [1.0, 0.0]])
    z.backward(lib.tensor([[1.0, 0.0]]))  # no hooks or observer left behind
    assert len(steps) == count


@pytest.mark.parametrize("case", ["no_grad", "non_scalar", "freed"])
def test_errors_propagate_with_the_library_message(lib: ModuleType, case: str) -> None:
    def make() -> tuple[Any, dict[str, Any]]:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        if case == "no_grad":
            return lib.ones(2).sum(), {}
        if case == "non_scalar":
            return x * 2, {}
        root = (x * x).sum()
        root.backward()
        return root, {}

    root, kwargs = make()
    with pytest.raises(RuntimeError) as expected:
        root.backward(**kwargs)
    root, kwargs = make()
    with pytest.raises(RuntimeError) as got:
        record_backward(root, **kwargs)
    assert str(got.value) == str(expected.value)


def test_format_values_is_compact_and_deterministic() -> None:
    assert format_values(np.array(2.5)) == "2.5"
    assert format_values(np.array([1, 2, 3])) == "[1, 2, 3]"
    assert format_values(np.array([True, False])) == "[ True, False]"
    assert format_values(np.zeros((0, 3))) == "[]"
    assert format_values(np.full(20, -1.0)) == "min -1  mean -1\nmax -1  norm 4.472"


# ------------------------------------------------------------------ duck typing, no library at all


class FakeTensor:
    """Just enough of the protocol: a tensor for the walker."""

    def __init__(self, data: Any, grad_fn: Any = None, requires_grad: bool = True) -> None:
        self.data = np.asarray(data, dtype=np.float32)
        self.grad_fn, self.requires_grad = grad_fn, requires_grad
        self.is_leaf, self.grad, self.retains_grad, self._version = grad_fn is None, None, False, 0
        self.shape, self.dtype = self.data.shape, "fake.float32"

    def detach(self) -> FakeTensor:
        return self

    def numpy(self) -> np.ndarray:
        return self.data


class FakeNode:
    def __init__(self, *inputs: Any, metadata: dict[str, Any] | None = None) -> None:
        self.next_functions = tuple((i, 0) for i in inputs)
        self.metadata = metadata or {}
        self.outputs: tuple[Any, ...] = ()

    def output_tensors(self) -> tuple[Any, ...]:
        return self.outputs


class AccumulateGrad(FakeNode):
    def __init__(self, variable: Any) -> None:
        super().__init__()
        self.variable = variable


class PowBackward0(FakeNode):
    pass


class MulBackward0(FakeNode):
    pass


def test_derivative_nodes_link_dashed_to_what_they_differentiate() -> None:
    x = FakeTensor(2.0)
    acc = AccumulateGrad(x)
    forward = PowBackward0(acc)
    y = FakeTensor(8.0, forward)
    derivative = MulBackward0(acc, metadata={"differentiates": weakref.ref(forward)})
    dydx = FakeTensor(12.0, derivative)
    snap = capture_graph(y, dydx, params={"x": x, "y": y, "dy/dx": dydx})
    assert names(snap) == [("n0", "tensor", "y"), ("n1", "fn", "PowBackward0"),
                           ("n2", "acc", "AccumulateGrad"), ("n3", "tensor", "dy/dx"),
                           ("n4", "fn", "MulBackward0")]
    assert links(snap, "differentiates") == [("n4", "n1", None, None)]
    assert "derivative" in snap.node("n4").roles
    assert snap.node("n2").tensor.dtype == "float32"


def test_dataflow_uses_output_tensors_when_the_library_has_them() -> None:
    x = FakeTensor([1.0, 2.0])
    acc = AccumulateGrad(x)
    mul = MulBackward0(acc, acc)
    h = FakeTensor([1.0, 4.0], mul)
    mul.outputs = (h,)
    out = PowBackward0(mul)
    y = FakeTensor([1.0, 16.0], out)
    out.outputs = (y,)
    snap = capture_graph(y, params={"x": x, "h": h, "y": y}, view="dataflow")
    assert names(snap) == [("n0", "tensor", "y"), ("n1", "op", "Pow"), ("n2", "op", "Mul"),
                           ("n3", "tensor", "h"), ("n4", "tensor", "x")]
    flow = [(snap.node(e.source).name, snap.node(e.target).name) for e in snap.edges]
    assert flow == [("Pow", "y"), ("Mul", "h"), ("h", "Pow"), ("x", "Mul"), ("x", "Mul")]


def test_dataflow_links_saved_inputs_instead_of_repeating_them(lib: ModuleType) -> None:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    w = lib.tensor([3.0, 4.0], requires_grad=True)
    loss = (x * w).sum()
    snap = capture_graph(loss, params={"x": x, "w": w}, view="dataflow", show_saved=True)
    saved = [(snap.node(e.source).name, e.label) for e in snap.edges if e.kind == "saved"]
    assert sorted(saved) == [("w", "other"), ("x", "self")]
    assert not any(n.kind == "saved" for n in snap.nodes)


def test_any_tensor_can_be_named(lib: ModuleType) -> None:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    h = x.exp()
    a, b = h * 2, h * 3                                    # two named outputs of separate nodes
    loss = (a + b).sum()
    snap = capture_graph(loss, names={"loss": loss, "x": x, "h": h, "a": a})
    assert snap.node("n0").name == "loss"
    named = {n.name: n.tensor.name for n in snap.nodes if n.kind == "fn" and n.tensor is not None}
    assert named == {"ExpBackward0": "h", "MulBackward0": "a"}
    assert snap.node(next(n.id for n in snap.nodes if n.kind == "acc")).tensor.name == "x"
    # the root keeps its own box: its grad_fn does not repeat the name
    assert snap.node("n1").tensor is None
