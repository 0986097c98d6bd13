"""Every op of the table in ``op_cases.py``: float64 gradcheck and gradgradcheck, and its ``grad_fn`` name.

PyTorch parity for the same table lives in ``test_ops_torch.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import as_tuple, leaves
from hypothesis import given, settings
from hypothesis import strategies as st
from op_cases import CASES

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck


@pytest.mark.parametrize("case", CASES, ids=str)
@settings(max_examples=10)
@given(data=st.data())
def test_gradcheck(case, data):
    inputs = leaves(minigrad, case.draw(data))
    assert gradcheck(case.fn, inputs)


@pytest.mark.parametrize("case", [c for c in CASES if c.gradgrad], ids=str)
@settings(max_examples=4)
@given(data=st.data())
def test_gradgradcheck(case, data):
    inputs = leaves(minigrad, case.draw(data))
    assert gradgradcheck(case.fn, inputs)


@pytest.mark.parametrize("case", CASES, ids=str)
@settings(max_examples=1)
@given(data=st.data())
def test_grad_fn_name(case, data):
    inputs = leaves(minigrad, case.draw(data))
    out = as_tuple(case.fn(*inputs))[0]
    assert out.requires_grad
    assert not out.is_leaf
    assert out.grad_fn.name() == case.node


@pytest.mark.parametrize("case", CASES, ids=str)
@settings(max_examples=1)
@given(data=st.data())
def test_float32_in_float32_out(case, data):
    """Ops keep float32 (the default dtype) and so do their gradients."""
    arrays = [a.astype(np.float32) for a in case.draw(data)]
    inputs = tuple(minigrad.tensor(a, requires_grad=True) for a in arrays)
    outputs = [o for o in as_tuple(case.fn(*inputs)) if o.requires_grad]
    assert all(o.dtype is minigrad.float32 for o in outputs)
    minigrad.autograd.backward([o.sum() for o in outputs])
    for t in inputs:
        assert t.grad is None or (t.grad.dtype is minigrad.float32 and t.grad.shape == t.shape)


@pytest.mark.parametrize("case", [c for c in CASES if c.runs_under_no_grad], ids=str)
def test_no_graph_under_no_grad(case):
    """The same ops record nothing under ``no_grad`` and give the same values.

    (A view of a tensor requiring grad still says ``requires_grad=True`` there: PyTorch's quirk.)
    """
    rng = np.random.default_rng(0)
    shapes = case.shapes if isinstance(case.shapes, tuple) else (((2, 3),) * case.arity)
    shapes = tuple(shapes) + (shapes[-1],) * (case.arity - len(shapes))
    arrays = [rng.uniform(0.5, 1.5, s) for s in shapes]  # inside every op's domain
    inputs = leaves(minigrad, arrays)
    with minigrad.no_grad():
        plain = as_tuple(case.fn(*inputs))
    recorded = as_tuple(case.fn(*inputs))
    for p, r in zip(plain, recorded):
        assert p.grad_fn is None
        assert p.is_leaf
        np.testing.assert_array_equal(p.detach().numpy(), r.detach().numpy())
