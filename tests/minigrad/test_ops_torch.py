"""PyTorch parity for every op of the table (``op_cases.py``).

The same ``fn`` runs on minigrad and on torch with the same float64 inputs and the same random
output gradients; values, dtypes, gradients, ``grad_fn`` names and the ``next_functions``
structure (shared nodes, input numbers, which leaf each AccumulateGrad holds) must agree.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import as_tuple, graph_structure, leaves, saved_names, to_numpy
from hypothesis import given, settings
from hypothesis import strategies as st
from op_cases import CASES

import minigrad

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def run(module, case, arrays):
    """Forward and backward of one case; everything observable, as numpy and plain values."""
    inputs = leaves(module, arrays)
    outputs = as_tuple(case.fn(*inputs))
    differentiable = [o for o in outputs if o.requires_grad]
    rng = np.random.default_rng(0)
    seeds = [module.tensor(rng.standard_normal(tuple(o.shape)), dtype=module.float64) for o in differentiable]
    observed = {
        "values": [to_numpy(o) for o in outputs],
        "dtypes": [str(o.dtype) for o in outputs],
        "requires_grad": [o.requires_grad for o in outputs],
        "is_leaf": [o.is_leaf for o in outputs],
        "structure": graph_structure(outputs, inputs),
        "saved": saved_names(outputs[0].grad_fn) if outputs[0].grad_fn is not None else [],
    }
    if differentiable:
        module.autograd.backward(differentiable, seeds)
    observed["grads"] = [to_numpy(t.grad) for t in inputs]
    return observed


def assert_arrays_close(ours, theirs, what):
    assert len(ours) == len(theirs), what
    for i, (a, b) in enumerate(zip(ours, theirs)):
        assert (a is None) == (b is None), "%s %d: %r vs torch %r" % (what, i, a, b)
        if a is not None:
            assert a.shape == b.shape, "%s %d: shape %s vs torch %s" % (what, i, a.shape, b.shape)
            np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-12, err_msg="%s %d" % (what, i))


@pytest.mark.parametrize("case", CASES, ids=str)
@settings(max_examples=6)
@given(data=st.data())
def test_matches_torch(case, data):
    arrays = case.draw(data)
    ours, theirs = run(minigrad, case, arrays), run(torch, case, arrays)
    assert_arrays_close(ours["values"], theirs["values"], "output")
    assert ours["dtypes"] == theirs["dtypes"]
    assert ours["requires_grad"] == theirs["requires_grad"]
    assert ours["is_leaf"] == theirs["is_leaf"]
    if case.same_graph:
        assert ours["structure"] == theirs["structure"]
    assert_arrays_close(ours["grads"], theirs["grads"], "grad of input")


@pytest.mark.parametrize("case", CASES, ids=str)
@settings(max_examples=1)
@given(data=st.data())
def test_saved_names_are_torchs(case, data):
    """Every ``_saved_<name>`` minigrad exposes exists on PyTorch's node too (torchviz reads them)."""
    arrays = case.draw(data)
    ours, theirs = run(minigrad, case, arrays), run(torch, case, arrays)
    assert set(ours["saved"]) <= set(theirs["saved"])
