"""The derivative table's human side: every node minigrad can record has its own formula.

``derivative_formula`` (the contract in the team notes) is what viz shows for a node; a new op
whose rule or class registers no formula fails here.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import numpy as np
import pytest
from helpers import as_tuple, leaves
from hypothesis import given, settings
from hypothesis import strategies as st
from op_cases import CASES

import minigrad
from minigrad.autograd import Formula, derivative_formula
from minigrad.autograd.formulas import table_markdown
from minigrad.autograd.function import BackwardCFunction, Function
from minigrad.autograd.graph import AccumulateGrad
from minigrad.ops._rules import RULES, Rule
from minigrad.ops.fused import FusedBackward


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def _import_every_ops_module():
    """Some op modules load at their first call (``nn.functional`` imports ``ops/adaptive.py`` lazily):
    import them all, so that their node classes are counted too."""
    import minigrad.ops
    for info in pkgutil.iter_modules(minigrad.ops.__path__, "minigrad.ops."):
        importlib.import_module(info.name)


def recordable_node_classes():
    """Every node class of minigrad's own ops (not the abstract bases, not user Functions)."""
    _import_every_ops_module()
    out = {}
    for node_cls in _subclasses(BackwardCFunction):
        forward = node_cls._forward_cls
        if forward is None or forward in (Function, Rule, FusedBackward) or \
                not forward.__module__.startswith("minigrad."):
            continue
        out[node_cls.__name__, forward.__name__] = node_cls      # (two ops may record one name: ConvolutionBackward0)
    return [(name, out[name, op]) for name, op in sorted(out)]


def test_there_are_many_node_classes():
    assert len(recordable_node_classes()) > 150


@pytest.mark.parametrize(("name", "node_cls"), recordable_node_classes(),
                         ids=["%s-%s" % (n, c._forward_cls.__name__) for n, c in recordable_node_classes()])
def test_every_node_class_has_its_own_formula(name, node_cls):
    f = derivative_formula(node_cls)
    assert isinstance(f, Formula), name
    assert f.node_name == name
    assert len(f.inputs) == len(f.grads) >= 1
    assert f.words
    assert not f.words.startswith("A custom")
    assert any(g is not None for g in f.grads) or "not differentiable" in f.words
    for text in f.grads:
        assert text is None or (text.strip() and "*" not in text), text     # human form: ·, not *
    saved = set(node_cls._tensor_fields) | set(node_cls._value_fields)
    assert set(f.saved) <= saved | {"result"}, (f.saved, saved)


def test_docs_list_the_table():
    """docs/derivatives.md is generated from the table (``python -m minigrad.autograd.formulas``)."""
    path = Path(__file__).resolve().parents[2] / "docs" / "derivatives.md"
    assert path.read_text(encoding="utf-8") == table_markdown()


def test_accumulate_grad_and_cpp_names():
    assert derivative_formula(AccumulateGrad).node_name == "AccumulateGrad"
    assert derivative_formula("torch::autograd::AccumulateGrad").node_name == "AccumulateGrad"
    assert derivative_formula("torch::autograd::CopySlices").node_name == "CopySlices"
    assert derivative_formula("NoSuchBackward0") is None


def test_accepts_a_node_a_class_or_a_name():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    node = (x * x).grad_fn
    by_name = derivative_formula("MulBackward0")
    assert derivative_formula(node) == derivative_formula(type(node)) == by_name
    assert by_name.inputs == ("self", "other")
    assert by_name.grads == ("g · other", "g · self")
    assert set(by_name.saved) == {"self", "other"}


def test_torch_nodes_by_class_name():
    torch = pytest.importorskip("torch")
    x = torch.tensor([0.5], requires_grad=True)
    node = x.tanh().grad_fn
    assert derivative_formula(type(node).__name__).node_name == "TanhBackward0"


def test_custom_function_gets_its_own_backward_formula():
    class Square(minigrad.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * x

        @staticmethod
        def backward(ctx, g):
            return g

    node = Square.apply(minigrad.tensor([1.0], requires_grad=True)).grad_fn
    f = derivative_formula(node)
    assert f.node_name == "SquareBackward"
    assert "backward" in f.grads[0]


def test_every_rule_has_one_expression_per_input():
    for name, cls in RULES.items():
        f = derivative_formula(name)
        assert f is cls.formula
        with_grad = [fn for fn, _ in cls._plan if fn is not None]
        assert len(with_grad) == sum(g is not None for g in f.grads), name


@pytest.mark.parametrize("case", CASES, ids=str)
@settings(max_examples=1, deadline=None)
@given(data=st.data())
def test_recorded_nodes_have_formulas_and_their_saved_values(case, data):
    """Run each op of the table, walk its graph: each node's formula names one input per edge
    (variadic nodes name one), and every saved name is readable as ``node._saved_<name>``."""
    inputs = leaves(minigrad, case.draw(data))
    outputs = [o for o in as_tuple(case.fn(*inputs)) if isinstance(o, minigrad.Tensor) and o.grad_fn is not None]
    stack, seen = [o.grad_fn for o in outputs], set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        f = derivative_formula(node)
        assert f is not None, type(node).__name__
        if not isinstance(node, AccumulateGrad):
            if len(f.inputs) > 1:
                assert len(f.inputs) == len(node.next_functions), (f, node.next_functions)
            for name in f.saved:
                value = getattr(node, "_saved_" + name)
                assert value is None or isinstance(value, (minigrad.Tensor, np.ndarray, tuple, int, float, bool, str))
        stack.extend(n for n, _ in node.next_functions)
