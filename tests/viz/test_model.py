"""viz.model: frozen plain data, JSON round trips and the big-graph transformations (no Graphviz)."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from viz.model import (
    EdgeInfo,
    Event,
    GraphSnapshot,
    ModuleInfo,
    NodeInfo,
    Step,
    TensorInfo,
    collapse_modules,
    fold_repeats,
)


def _block(prefix: str, first: int, module: str) -> tuple[list[NodeInfo], list[EdgeInfo]]:
    """A Linear-like block: AddmmBackward0 <- AccumulateGrad(bias), TBackward0 <- AccumulateGrad(weight)."""
    ids = [f"n{first + k}" for k in range(4)]
    nodes = [
        NodeInfo(ids[0], "fn", "AddmmBackward0", module=module),
        NodeInfo(ids[1], "acc", "AccumulateGrad", module=module,
                 tensor=TensorInfo((3,), "float32", requires_grad=True, name=f"{module}.bias")),
        NodeInfo(ids[2], "fn", "TBackward0", module=module),
        NodeInfo(ids[3], "acc", "AccumulateGrad", module=module,
                 tensor=TensorInfo((3, 3), "float32", requires_grad=True, name=f"{module}.weight")),
    ]
    edges = [
        EdgeInfo(f"{prefix}0", ids[1], ids[0], slot=0, input_nr=0),
        EdgeInfo(f"{prefix}1", ids[2], ids[0], slot=2, input_nr=0),
        EdgeInfo(f"{prefix}2", ids[3], ids[2], slot=0, input_nr=0),
    ]
    return nodes, edges


@pytest.fixture
def stack() -> GraphSnapshot:
    """root <- layers.2 <- layers.1 <- layers.0, three identical blocks."""
    nodes = [NodeInfo("n0", "fn", "SumBackward0", roles=("root",))]
    edges: list[EdgeInfo] = []
    for i in range(3):
        block_nodes, block_edges = _block(f"b{i}_", 1 + 4 * i, f"layers.{i}")
        nodes += block_nodes
        edges += block_edges
    edges.append(EdgeInfo("x0", "n1", "n0", slot=0, input_nr=0))
    edges.append(EdgeInfo("x1", "n5", "n1", slot=1, input_nr=0))
    edges.append(EdgeInfo("x2", "n9", "n5", slot=1, input_nr=0))
    modules = (ModuleInfo("layers", "ModuleList"),
               *(ModuleInfo(f"layers.{i}", "Linear") for i in range(3)))
    return GraphSnapshot(tuple(nodes), tuple(edges), roots=("n0",), modules=modules)


def test_dataclasses_are_frozen() -> None:
    node = NodeInfo("n0", "fn", "MulBackward0")
    with pytest.raises(dataclasses.FrozenInstanceError):
        node.name = "x"  # type: ignore[misc]


def test_snapshot_round_trips_through_json(stack: GraphSnapshot) -> None:
    text = json.dumps(stack.to_dict())
    assert GraphSnapshot.from_dict(json.loads(text)) == stack


def test_node_lookup_and_inputs(stack: GraphSnapshot) -> None:
    assert stack.node("n3").name == "TBackward0"
    assert [e.source for e in stack.edges_into("n1")] == ["n2", "n3", "n5"]


def test_css_class_is_kind_then_roles() -> None:
    node = NodeInfo("n4", "acc", "AccumulateGrad", roles=("leaf", "param"))
    assert node.css_class == "acc leaf param"


def test_grad_text_never_shows_a_misleading_zero() -> None:
    before = TensorInfo((2,), "float32", requires_grad=True, values="[0, 0]")
    assert before.grad_text == "grad: not computed yet"
    after = dataclasses.replace(before, grad="[0, 0]", grad_status="computed")
    assert after.grad_text == "grad: [0, 0]"
    assert TensorInfo((), "float32").shape_text == "() float32"
    assert TensorInfo((3,), "float64").shape_text == "(3,) float64"


def test_step_to_dict_is_json_with_arrays_as_lists() -> None:
    step = Step(index=0, node_id="n2", name="AccumulateGrad", grad_outputs=(np.ones(2),),
                grad_inputs=(), grad_before=None, grad_after=np.array([1.0, 1.0]),
                events=(Event("post_accumulate_hook", "n2", "AccumulateGrad", "hook"),))
    data = json.loads(json.dumps(step.to_dict()))
    assert data["grad_outputs"] == [[1.0, 1.0]]
    assert data["grad_before"] is None
    assert data["grad_after"] == [1.0, 1.0]
    assert data["events"][0]["kind"] == "post_accumulate_hook"


def test_collapse_replaces_deep_modules_by_one_box_each(stack: GraphSnapshot) -> None:
    small = collapse_modules(stack, depth=1)
    boxes = [n for n in small.nodes if n.kind == "module"]
    assert [(b.id, b.name, b.module) for b in boxes] == [
        ("n1", "layers.0 (Linear)", "layers"),
        ("n5", "layers.1 (Linear)", "layers"),
        ("n9", "layers.2 (Linear)", "layers"),
    ]
    assert boxes[0].members == ("n1", "n2", "n3", "n4")
    assert {(e.source, e.target) for e in small.edges} == {("n1", "n0"), ("n5", "n1"), ("n9", "n5")}
    assert [m.path for m in small.modules] == ["layers"]


def test_collapse_at_depth_zero_keeps_only_top_level_boxes(stack: GraphSnapshot) -> None:
    small = collapse_modules(stack, depth=0)
    assert [(n.id, n.kind) for n in small.nodes] == [("n0", "fn"), ("n1", "module")]
    assert small.modules == ()


def test_fold_keeps_the_first_block_and_folds_the_repeats(stack: GraphSnapshot) -> None:
    folded = fold_repeats(stack)
    boxes = [n for n in folded.nodes if n.kind == "module"]
    assert len(boxes) == 1
    assert boxes[0].name == "layers.1 … layers.2 (×2, same as layers.0)"
    assert len(boxes[0].members) == 8
    assert "layers.0" in {m.path for m in folded.modules}
    assert "layers.1" not in {m.path for m in folded.modules}
    # the first block is still expanded
    assert folded.node("n3").name == "TBackward0"
