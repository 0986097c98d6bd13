"""``autograd.functional``: jacobian, hessian, vjp, jvp, hvp, vhp (reference §10)."""

from __future__ import annotations

import numpy as np
import pytest


def test_jacobian(lib):
    from_lib = lib.autograd.functional
    x = lib.tensor([1.0, 2.0, 3.0])
    j = from_lib.jacobian(lambda t: t**2, x)
    assert j.tolist() == [[2.0, 0.0, 0.0], [0.0, 4.0, 0.0], [0.0, 0.0, 6.0]]
    assert not j.requires_grad
    assert [tuple(t.shape) for t in from_lib.jacobian(lambda a, b: a * b, (lib.ones(2), lib.ones(2)))] == [
        (2, 2)
    ] * 2
    assert tuple(from_lib.jacobian(lambda m: m @ lib.ones(3, 4), lib.ones(2, 3)).shape) == (2, 4, 2, 3)
    assert from_lib.jacobian(lambda t: t.sum(), x).tolist() == [1.0, 1.0, 1.0]
    assert from_lib.jacobian(lambda t: lib.ones(1), x).tolist() == [[0.0, 0.0, 0.0]]
    with pytest.raises(RuntimeError, match=r"does not require gradients|independent of input"):
        from_lib.jacobian(lambda t: lib.ones(1), x, strict=True)


def test_jacobian_of_tuple_outputs_and_create_graph(lib):
    from_lib = lib.autograd.functional
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    ja, jb = from_lib.jacobian(lambda t: (t * 2, t.exp()), x)
    assert ja.tolist() == [[2.0, 0.0], [0.0, 2.0]]
    np.testing.assert_allclose(jb.numpy(), np.diag(np.exp([1.0, 2.0])), rtol=1e-6)
    j = from_lib.jacobian(lambda t: t**3, x, create_graph=True)
    assert j.requires_grad
    j.sum().backward()
    assert x.grad.tolist() == [6.0, 12.0]


def test_hessian(lib):
    from_lib = lib.autograd.functional
    assert from_lib.hessian(lambda t: (t**3).sum(), lib.tensor([1.0, 2.0])).tolist() == [
        [6.0, 0.0],
        [0.0, 12.0],
    ]
    assert tuple(from_lib.hessian(lambda m: (m**2).sum(), lib.ones(2, 3)).shape) == (2, 3, 2, 3)
    with pytest.raises(
        RuntimeError,
        match="The Tensor returned by the function given to hessian should contain a single element",
    ):
        from_lib.hessian(lambda t: t**2, lib.ones(2))
    h = from_lib.hessian(lambda a, b: (a * a * b).sum(), (lib.tensor([1.0]), lib.tensor([2.0])))
    assert [[t.tolist() for t in row] for row in h] == [[[[4.0]], [[2.0]]], [[[2.0]], [[0.0]]]]


def test_vjp_jvp_hvp_vhp(lib):
    from_lib = lib.autograd.functional
    x = lib.tensor([1.0, 2.0, 3.0])
    out, g = from_lib.vjp(lambda t: t**2, x, lib.tensor([1.0, 0.0, 1.0]))
    assert (out.tolist(), g.tolist()) == ([1.0, 4.0, 9.0], [2.0, 0.0, 6.0])
    out, g = from_lib.vjp(lambda t: (t**2).sum(), x)
    assert (out.item(), g.tolist()) == (14.0, [2.0, 4.0, 6.0])
    with pytest.raises(
        RuntimeError,
        match=r"The vector v can only be None if the user-provided function returns a "
        "single Tensor with a single element.",
    ):
        from_lib.vjp(lambda t: t**2, x)
    out, jv = from_lib.jvp(lambda t: t**2, x, lib.tensor([1.0, 0.0, 1.0]))
    assert (out.tolist(), jv.tolist()) == ([1.0, 4.0, 9.0], [2.0, 0.0, 6.0])
    out, hv = from_lib.hvp(lambda t: (t**3).sum(), lib.tensor([1.0, 2.0]), lib.tensor([1.0, 0.0]))
    assert (out.item(), hv.tolist()) == (9.0, [6.0, 0.0])
    out, vh = from_lib.vhp(lambda t: t[0] * t[1] ** 2, lib.tensor([1.0, 2.0]), lib.tensor([1.0, 1.0]))
    assert vh.tolist() == [4.0, 4.0 + 2.0]
    assert not out.requires_grad
    assert not vh.requires_grad
