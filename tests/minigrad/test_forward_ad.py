"""Forward-mode AD (``autograd.forward_ad``, ``Function.jvp``, ``torch.func.jvp``/``jacfwd``).

Every op of the table (``op_cases.py``): its JVP against central finite differences
(``gradcheck(..., check_forward_ad=True)``), and every rule and class op has a JVP rule.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import as_tuple, leaves
from hypothesis import given, settings
from hypothesis import strategies as st
from op_cases import CASES

import minigrad as torch
import minigrad.autograd.forward_ad as fwAD
from minigrad.autograd import gradcheck
from minigrad.func import hessian, jacfwd, jacrev, jvp
from minigrad.ops._rules import RULES


@pytest.mark.parametrize("case", CASES, ids=str)
@settings(max_examples=4, deadline=None)
@given(data=st.data())
def test_jvp_matches_finite_differences(case, data):
    inputs = leaves(torch, case.draw(data))
    assert gradcheck(case.fn, inputs, check_forward_ad=True, check_backward_ad=False)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_tangent_has_the_outputs_shape_and_dtype(case):
    rng = np.random.default_rng(1)
    shapes = case.shapes if isinstance(case.shapes, tuple) else (((2, 3),) * case.arity)
    shapes = tuple(shapes) + (shapes[-1],) * (case.arity - len(shapes))
    inputs = [torch.tensor(rng.uniform(0.5, 1.5, s), dtype=torch.float32, requires_grad=True) for s in shapes]
    with fwAD.dual_level():
        duals = [fwAD.make_dual(x, torch.ones_like(x)) for x in inputs]
        for out in as_tuple(case.fn(*duals)):
            if not out.dtype.is_floating_point:
                assert fwAD.unpack_dual(out).tangent is None
                continue
            tangent = fwAD.unpack_dual(out).tangent
            assert tangent is not None, case
            assert tangent.shape == out.shape
            assert tangent.dtype is out.dtype


def test_every_rule_has_a_jvp():
    missing = [name for name, cls in RULES.items() if cls._jvp is None]
    assert not missing


def test_every_class_op_has_a_jvp():
    import inspect

    import minigrad.ops as ops
    from minigrad.autograd.function import Function
    from minigrad.ops._rules import Rule

    missing = []
    for module in vars(ops).values():
        if not inspect.ismodule(module) or not module.__name__.startswith("minigrad.ops"):
            continue
        for cls in vars(module).values():
            if (inspect.isclass(cls) and issubclass(cls, Function) and not issubclass(cls, Rule)
                    and cls.__module__ == module.__name__ and cls.jvp is Function.jvp):
                missing.append(cls.__name__)
    assert not missing


def test_levels_and_errors():
    x = torch.tensor([1.0, 2.0])
    with pytest.raises(RuntimeError, match="no level exists"):
        fwAD.make_dual(x, x)
    with fwAD.dual_level() as level:
        assert level == 0
        with pytest.raises(RuntimeError, match="Nested forward mode AD is not supported"):
            fwAD.enter_dual_level()
        with pytest.raises(RuntimeError, match="different size"):
            fwAD.make_dual(x, torch.ones(3))
        with pytest.raises(ValueError, match="Expected tangent to be floating point"):
            fwAD.make_dual(x, torch.ones(2, dtype=torch.int64))
        d = fwAD.make_dual(x, torch.ones(2))
        y = d * d
        _primal, tangent = fwAD.unpack_dual(y)
        assert type(fwAD.unpack_dual(y)).__name__ == "UnpackedDualTensor"
        assert tangent.tolist() == [2.0, 4.0]
        assert "tangent=tensor([2., 4.])" in repr(y)
        assert fwAD.unpack_dual(d.detach()).tangent is None
    assert fwAD.unpack_dual(y).tangent is None          # the level's tangents are gone
    with pytest.raises(RuntimeError, match="Dual level must be a positive number"):
        fwAD.exit_dual_level()


def test_inplace_updates_the_tangent():
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 0.5]))
        d.mul_(3)
        assert fwAD.unpack_dual(d).tangent.tolist() == [3.0, 1.5]


def test_custom_function_jvp_and_save_for_forward():
    class Exp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            assert fwAD.unpack_dual(x).tangent is None       # forward sees no tangents
            result = x.exp() * k
            ctx.save_for_forward(result)
            ctx.k = k
            return result

        @staticmethod
        def jvp(ctx, x_t, k_t):
            assert k_t is None                               # not a tensor
            (result,) = ctx.saved_tensors
            return x_t * result

    class NoJvp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor([0.0, 1.0]), torch.ones(2))
        out = Exp.apply(d, 2.0)
        np.testing.assert_allclose(fwAD.unpack_dual(out).tangent.numpy(), 2 * np.exp([0.0, 1.0]), rtol=1e-6)
        with pytest.raises(NotImplementedError, match="You must implement the jvp function"):
            NoJvp.apply(d)


def test_func_transforms_in_forward_mode():
    x = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64)

    def f(x):
        return (x.sin() * x).sum()

    value, t = jvp(f, (x,), (torch.ones_like(x),))
    expected = (x.cos() * x + x.sin()).sum()
    assert abs(t.item() - expected.item()) < 1e-12
    assert abs(value.item() - f(x).item()) < 1e-12
    np.testing.assert_allclose(jacfwd(torch.sin)(x).numpy(), np.diag(np.cos(x.numpy())))
    h = np.diag(2 * np.cos(x.numpy()) - x.numpy() * np.sin(x.numpy()))
    np.testing.assert_allclose(hessian(f)(x).numpy(), h, atol=1e-12)            # forward over reverse
    np.testing.assert_allclose(jacfwd(jacfwd(f))(x).numpy(), h, atol=1e-12)     # forward over forward
    np.testing.assert_allclose(jacrev(jacfwd(f))(x).numpy(), h, atol=1e-12)     # reverse over forward


def test_unsupported_op_raises_pytorchs_error():
    from minigrad.autograd.forward_ad import _unsupported

    class Cdist(torch.autograd.Function):
        node_name = "CdistBackward0"
        aten_name = "_cdist_forward"
    Cdist.__module__ = "minigrad.ops.fake"
    message = str(_unsupported(Cdist))
    assert message.startswith("Trying to use forward AD with _cdist_forward that does not support it because it "
                              "has not been implemented yet.\nPlease file an issue to PyTorch")


def test_inplace_on_a_view_updates_the_base_tangent():
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.zeros(3, 3, requires_grad=True), torch.ones(3, 3)) * 1
        d.diagonal().mul_(2)
        assert fwAD.unpack_dual(d).tangent.tolist() == [[2, 1, 1], [1, 2, 1], [1, 1, 2]]
        e = fwAD.make_dual(torch.zeros(4), torch.ones(4)) * 1
        e[1:3].add_(fwAD.make_dual(torch.zeros(2), torch.tensor([5.0, 6.0])))
        assert fwAD.unpack_dual(e).tangent.tolist() == [1, 6, 7, 1]
