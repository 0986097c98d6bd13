"""Custom ``autograd.Function`` (reference §9), and gradcheck / gradgradcheck themselves (§9.4)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minigrad


def make(lib, name, forward, backward):
    return type(
        name, (lib.autograd.Function,), {"forward": staticmethod(forward), "backward": staticmethod(backward)}
    )


def test_basics(lib):
    log = []

    def forward(ctx, x, k):
        log.append(("forward grad enabled", lib.is_grad_enabled()))
        y = x.exp() * k
        ctx.save_for_backward(y)
        ctx.k = k
        return y

    def backward(ctx, grad_out):
        (y,) = ctx.saved_tensors
        log.append(("needs_input_grad", ctx.needs_input_grad, ctx.k))
        return grad_out * y, None

    MyExp = make(lib, "MyExp", forward, backward)
    x = lib.tensor([0.0, 1.0], requires_grad=True)
    y = MyExp.apply(x, 1.0)
    assert repr(y) == "tensor([1.0000, 2.7183], grad_fn=<MyExpBackward>)"
    assert y.grad_fn.name() == "MyExpBackward"
    assert type(y.grad_fn).__module__ == lib.autograd.function.__name__
    assert [(type(n).__name__, i) for n, i in y.grad_fn.next_functions] == [("AccumulateGrad", 0)]
    assert y.grad_fn.saved_tensors[0].tolist() == pytest.approx([1.0, 2.7182817])
    y.sum().backward()
    assert x.grad.tolist() == pytest.approx([1.0, 2.7182817])
    assert MyExp.apply(lib.tensor([0.0]), 1.0).grad_fn is None
    assert log == [
        ("forward grad enabled", False),
        ("needs_input_grad", (True, False), 1.0),
        ("forward grad enabled", False),
    ]


def test_wrong_number_of_gradients(lib):
    a = lib.tensor([1.0], requires_grad=True)
    b = lib.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(
        RuntimeError,
        match=r"function FnBackward returned an incorrect number of gradients "
        r"\(expected 2, got 1\)",
    ):
        make(lib, "Fn", lambda ctx, x, y: x + y, lambda ctx, g: g).apply(a, a).backward()
    with pytest.raises(RuntimeError, match=r"\(expected 1, got 2\)"):
        make(lib, "Fn", lambda ctx, x: x * 1, lambda ctx, g: (g, lib.ones(1))).apply(a).backward()
    make(lib, "Fn", lambda ctx, x: x * 1, lambda ctx, g: (g, None)).apply(a).backward()  # extra None is fine
    a.grad = None
    make(lib, "Fn", lambda ctx, x: x * 1, lambda ctx, g: lib.ones(3)).apply(a).backward()  # summed down
    assert a.grad.tolist() == [3.0]
    with pytest.raises(
        RuntimeError,
        match=r"Function FnBackward returned an invalid gradient at index 0 - got \[3\] "
        r"but expected shape compatible with \[2\]",
    ):
        make(lib, "Fn", lambda ctx, x: x * 1, lambda ctx, g: lib.ones(3)).apply(b).sum().backward()
    with pytest.raises(RuntimeError, match=r"expected Variable or None \(got float\)"):
        make(lib, "Fn", lambda ctx, x: x * 1, lambda ctx, g: 1.0).apply(a).backward()


def test_mark_dirty(lib):
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    AddOne = make(lib, "AddOne", forward, lambda ctx, g: g)
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    h = a * 1
    out = AddOne.apply(h)
    assert out is h
    assert repr(out) == "tensor([2., 3.], grad_fn=<AddOneBackward>)"
    assert h._version == 2
    out.sum().backward()
    assert a.grad.tolist() == [1.0, 1.0]
    with pytest.raises(
        RuntimeError, match=r"a leaf Variable that requires grad has been used in an in-place operation."
    ):
        AddOne.apply(a)


@pytest.mark.parametrize("materialize", [True, False])
def test_mark_non_differentiable_and_set_materialize_grads(lib, materialize):
    seen = []

    def forward(ctx, x, mat):
        ctx.set_materialize_grads(mat)
        i = x.argmax()
        ctx.mark_non_differentiable(i)
        return x * 2, x * 3, i

    def backward(ctx, g1, g2, gi):
        seen.append((None if g2 is None else g2.tolist(), None if gi is None else gi.tolist()))
        return g1 * 2, None

    Two = make(lib, "Two", forward, backward)
    p, q, i = Two.apply(lib.tensor([1.0], requires_grad=True), materialize)
    assert not i.requires_grad
    assert p.requires_grad
    assert q.requires_grad
    p.sum().backward()
    assert seen == ([([0.0], 0)] if materialize else [(None, None)])


def test_save_for_backward_accepts_tensors_and_none_only(lib):
    def forward(ctx, x):
        ctx.save_for_backward(3)
        return x * 1

    with pytest.raises(
        TypeError, match="save_for_backward can only save variables, but argument 0 is of type int"
    ):
        make(lib, "S", forward, lambda ctx, g: g).apply(lib.tensor([1.0], requires_grad=True))


def test_saved_tensors_are_version_checked_and_freed(lib):
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g

    Sq = make(lib, "Sq", forward, backward)
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    h = a * 1
    y = Sq.apply(h)
    h.mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()
    y = Sq.apply(a)
    y.sum().backward()
    with pytest.raises(RuntimeError, match="second time"):
        y.sum().backward()


def test_custom_function_double_backward(lib):
    """A backward written with tensor ops is differentiable again (create_graph)."""

    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x * x * g

    Cube = make(lib, "Cube", forward, backward)
    x = lib.tensor(2.0, requires_grad=True)
    (g,) = lib.autograd.grad(Cube.apply(x), x, create_graph=True)
    (h,) = lib.autograd.grad(g, x)
    assert (g.item(), h.item()) == (12.0, 12.0)


def test_instantiating_is_deprecated_and_calling_fails(lib):
    Fn = make(lib, "Fn", lambda ctx, x: x * 1, lambda ctx, g: g)
    with pytest.warns(DeprecationWarning, match="should not be instantiated"):
        fn = Fn()
    with pytest.raises(
        RuntimeError, match="Legacy autograd function with non-static forward method is deprecated"
    ):
        fn(lib.ones(1))


# -- gradcheck / gradgradcheck ---------------------------------------------------------------------------


def test_gradcheck_passes_and_fails_with_pytorchs_text(lib):
    from_lib = lib.autograd

    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g * y * 2

    WrongExp = make(lib, "WrongExp", forward, backward)
    x64 = lib.tensor([0.0, 1.0], dtype=lib.float64, requires_grad=True)
    assert from_lib.gradcheck(lib.sin, x64)
    assert from_lib.gradgradcheck(lib.sin, x64)
    assert from_lib.gradcheck(lambda a, b: a * b, (x64, 2.0))
    with pytest.raises(RuntimeError) as info:
        from_lib.gradcheck(WrongExp.apply, (x64,))
    assert type(info.value).__name__ == "GradcheckError"
    assert str(info.value) == (
        "Jacobian mismatch for output 0 with respect to input 0,\n"
        "numerical:tensor([[1.0000, 0.0000],\n        [0.0000, 2.7183]], dtype=torch.float64)\n"
        "analytical:tensor([[2.0000, 0.0000],\n        [0.0000, 5.4366]], dtype=torch.float64)\n"
    )
    assert from_lib.gradcheck(WrongExp.apply, (x64,), raise_exception=False) is False
    with pytest.raises(
        ValueError,
        match=r"gradcheck expects at least one input tensor to require gradient, but none "
        "of them have requires_grad=True.",
    ):
        from_lib.gradcheck(lib.exp, (lib.ones(3, dtype=lib.float64),))


def test_gradcheck_warns_for_float32(lib):
    x = lib.tensor([0.5], requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lib.autograd.gradcheck(lib.sin, x, raise_exception=False)
    expected = (
        "Input #0 requires gradient and is not a double precision floating point or complex. This check will "
        "likely fail if all the inputs are not of double precision floating point or complex. "
    )
    assert any(str(w.message) == expected for w in caught)


def test_gradgradcheck_catches_a_wrong_second_derivative(lib):
    """backward is right, but it is not differentiable correctly (it uses a detached x)."""

    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x.detach() * g

    Sq = make(lib, "Sq", forward, backward)
    x = lib.tensor([0.5, -1.5], dtype=lib.float64, requires_grad=True)
    assert lib.autograd.gradcheck(Sq.apply, (x,))
    assert lib.autograd.gradgradcheck(Sq.apply, (x,), raise_exception=False) is False


def test_minigrad_gradcheck_on_multiple_outputs_and_inputs():
    a = minigrad.tensor(np.linspace(-1, 1, 6).reshape(2, 3), requires_grad=True)
    b = minigrad.tensor(np.linspace(0.5, 2, 3), requires_grad=True)
    assert minigrad.autograd.gradcheck(lambda x, y: (x * y, (x / y).sum(0), x.max()), (a, b))
    assert minigrad.autograd.gradgradcheck(lambda x, y: (x * y).tanh(), (a, b))
